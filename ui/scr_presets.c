// SPDX-License-Identifier: GPL-2.0-or-later
/* Screen 2, Presets: the library, a queue for the chosen target, the scale, the time. */
#include "ui.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "grow.h"
#include "preset.h"
#include "signatures.h"
#include "units.h"

/* Duration multipliers, longest first: x1 is the real review, the rest rehearse it. */
static const double scales[] = {1, 0.5, 0.25, 0.1, 0.01, 0.001};
#define NSCALES (sizeof(scales) / sizeof(scales[0]))

double presets_scale(const struct app *a)
{
	return scales[a->scale_index < NSCALES ? a->scale_index : 0];
}

static int cmp_preset(const void *x, const void *y)
{
	const struct ui_preset *a = x, *b = y;
	/* quick first: it is where a newcomer starts */
	bool qa = !strcmp(a->name, "quick"), qb = !strcmp(b->name, "quick");
	if (qa != qb)
		return qa ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void load_one(struct ui_preset *p, const char *path, const char *name)
{
	char err[DB_ERR_LEN];
	struct plan *plan;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->path, sizeof(p->path), "%s", path);
	plan = preset_parse_file(path, 1.0, err, sizeof(err));
	if (!plan) {
		snprintf(p->error, sizeof(p->error), "%s", err);
		snprintf(p->description, sizeof(p->description), "%s", err);
		return;
	}
	snprintf(p->title, sizeof(p->title), "%s", plan->name);
	snprintf(p->description, sizeof(p->description), "%s",
		 plan->description ? plan->description : "");
	for (char *c = p->description; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	struct plan_eta e;
	plan_estimate(plan, 0, 0, &e);
	p->duration_ns = e.max_ns;
	p->writes = plan_writes(plan);
	p->bounded = e.early || e.fill_x > 0;
	plan_eta_words(p->eta, sizeof(p->eta), &e);
	plan_free(plan);
}

void presets_load(struct app *a)
{
	char dirs[4][4096], path[4400], name[64];
	unsigned ndirs = preset_dirs(a->settings, dirs, 4), n = 0;
	size_t cap = 0;

	free(a->presets);
	a->presets = NULL;
	a->preset_rows.n = 0;
	a->nqueue = 0;
	for (unsigned d = 0; d < ndirs; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;
		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			size_t l = strlen(de->d_name);
			if (l <= 7 || strcmp(de->d_name + l - 7, ".preset") || de->d_name[0] == '.')
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)(l - 7), de->d_name);
			bool dup = false;
			for (unsigned i = 0; i < n; i++)
				dup |= !strcmp(a->presets[i].name, name);
			if (dup)
				continue;
			if (GROW(a->presets, n, cap, 32))
				break;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], de->d_name);
			load_one(&a->presets[n++], path, name);
		}
		closedir(dir);
	}
	if (a->preset_rows.sel >= n)
		a->preset_rows.sel = 0; /* its row is gone: back to the first, not the last */
	ui_list_count(&a->preset_rows, n);
	if (n)
		qsort(a->presets, n, sizeof(a->presets[0]), cmp_preset);
}

static char *fmt_time(const struct app *a, char *buf, size_t len, uint64_t ns, bool bounded)
{
	char d[32];

	/* "≤ 6h 32m": a preset that may end early, or fills, has a limit; "~ 6h 40m" a length */
	snprintf(buf, len, "%s %s", bounded ? a->g->le : "~", units_fmt_duration(d, sizeof(d), ns));
	return buf;
}

/* A block device: the discovery record says so, or the path is one now. */
static bool is_block_device(const struct ui_target *t)
{
	struct stat st;

	return t->is_drive || (stat(t->path, &st) == 0 && S_ISBLK(st.st_mode));
}

/*
 * Is t a disk image: a regular file that holds a file system, partition table or volume?
 * Asked at every redraw, so each file's answer is kept until it changes (inode, size,
 * modification time).
 */
static bool is_disk_image(const struct ui_target *t)
{
	static struct {
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec mtim;
		bool image;
	} seen[RUN_MAX_TARGETS];
	static unsigned next;
	struct sig_list sl;
	struct stat st;
	unsigned i;
	int r;

	if (t->is_drive || stat(t->path, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size)
		return false;
	for (i = 0; i < RUN_MAX_TARGETS; i++)
		if (seen[i].dev == st.st_dev && seen[i].ino == st.st_ino &&
		    seen[i].size == st.st_size && seen[i].mtim.tv_sec == st.st_mtim.tv_sec &&
		    seen[i].mtim.tv_nsec == st.st_mtim.tv_nsec)
			return seen[i].image;
	i = next++ % RUN_MAX_TARGETS;
	seen[i].dev = st.st_dev;
	seen[i].ino = st.st_ino;
	seen[i].size = st.st_size;
	seen[i].mtim = st.st_mtim;
	/* a file that does not answer in time may hold anything: its name is asked */
	r = sig_probe_path_within(t->path, &sl, SIG_PROBE_MS);
	seen[i].image = r == -ETIMEDOUT || (r == 0 && sl.n);
	return seen[i].image;
}

/* Does writing t need its name typed: a block device or a disk image (safety.h)? */
static bool needs_confirm(const struct ui_target *t)
{
	return is_block_device(t) || is_disk_image(t);
}

/* The selected preset in full, between the list and the queue, from line y: where it ends. */
static int draw_detail(struct app *a, int y, int bottom)
{
	const struct ui_preset *p;
	const char *d;
	int w = a->cols - 6, lines = 0, maxl = bottom - 4 - y - 2;
	char buf[512];

	if (a->preset_rows.sel >= a->preset_rows.n || y + 2 >= bottom - 4)
		return y;
	p = &a->presets[a->preset_rows.sel];
	d = p->description;
	y++;
	if (p->title[0])
		ui_textf(a, y++, 3, w, ROLE_LABEL, "%s (%s): %s at x1", p->title, p->name, p->eta);
	while (*d && lines < maxl && lines < 4) {
		int n = (int)strlen(d);
		if (n > w) {
			n = w;
			while (n > 0 && d[n] != ' ')
				n--;
			if (n == 0)
				n = w;
		}
		snprintf(buf, sizeof(buf), "%.*s", n, d);
		ui_text(a, y++, 3, w, ROLE_NORMAL, buf);
		lines++;
		d += n;
		while (*d == ' ')
			d++;
	}
	return y;
}

/* Does the queue write? */
static bool queue_writes(const struct app *a)
{
	bool writes = false;

	for (unsigned q = 0; q < a->nqueue; q++)
		writes |= a->presets[a->queue[q]].writes;
	return writes;
}

/* The line under the queue: every target, and what the queue does to each. */
static void targets_line(struct app *a, int y)
{
	const struct ui_target *t[RUN_MAX_TARGETS];
	const char *names[RUN_MAX_TARGETS];
	unsigned n = drives_targets(a, t), ndev = 0;
	bool writes = queue_writes(a);
	char devs[512], all[512];

	if (!n)
		return;
	for (unsigned i = 0; i < n && writes; i++)
		if (needs_confirm(t[i]))
			names[ndev++] = t[i]->name;
	marks_join(devs, sizeof(devs), names, ndev, ", ");
	drives_targets_name(a, all, sizeof(all));
	if (writes && ndev)
		ui_textf(a, y, 3, a->cols - 4, ROLE_WARNING,
			 "the queue writes to %s: %s destroyed; you will be asked to type %s",
			 devs, ndev > 1 ? "their data will be" : "its data will be",
			 ndev > 1 ? "each name in turn" : "its name");
	else if (n == 1)
		ui_textf(a, y, 3, a->cols - 4, ROLE_DIM, "target %s (%s)", t[0]->path,
			 writes ? "written: a file, its content does not matter" : "read only");
	else
		ui_textf(a, y, 3, a->cols - 4, ROLE_DIM, "targets %s, all at once (%s)", all,
			 writes ? "written: files, their content does not matter" : "read only");
}

/* The queue's rule (for which targets, at what scale) and its presets; the next line. */
static int queue_lines(struct app *a, int y)
{
	double scale = presets_scale(a);
	char buf[512], tb[32], names[256];

	snprintf(buf, sizeof(buf), "queue for %s (scale x%g%s)",
		 drives_targets_name(a, names, sizeof(names)), scale,
		 scale < 1 ? ": rehearsal" : ": full length");
	ui_rule(a, y++, buf);
	int x = 3;
	uint64_t total = 0;
	bool bounded = false;
	if (a->nqueue == 0)
		ui_text(a, y, x, a->cols - x, ROLE_DIM,
			"empty: Enter adds the selected preset, then s starts the queue");
	for (unsigned q = 0; q < a->nqueue && x < a->cols - 30; q++) {
		const struct ui_preset *p = &a->presets[a->queue[q]];
		/* saturating, as planned totals do (plan_time.c) */
		double scaled = (double)p->duration_ns * scale;
		uint64_t ns = scaled >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)scaled;
		total = total > UINT64_MAX - ns ? UINT64_MAX : total + ns;
		bounded |= p->bounded;
		snprintf(buf, sizeof(buf), "%u. %s %s%s   ", q + 1, p->name,
			 p->bounded ? a->g->le : "~", units_fmt_duration(tb, sizeof(tb), ns));
		x += ui_text(a, y, x, a->cols - x - 28, ROLE_NORMAL, buf);
	}
	if (a->nqueue) {
		snprintf(buf, sizeof(buf), "total %s%s", bounded ? a->g->le : "~",
			 units_fmt_duration(tb, sizeof(tb), total));
		ui_text_right(a, y, a->cols - 28, 26, ROLE_VALUE, buf);
	}
	y++;
	return y;
}

void presets_draw(struct app *a, int top, int bottom)
{
	int y = top, xname = 3, wname = 22, wtime = 11, xtime = xname + wname,
	    xdesc = xtime + wtime + 3;
	char buf[512], tb[32];

	ui_text(a, y, xname, wname, ROLE_HEADER, "PRESET");
	ui_text_right(a, y, xtime, wtime, ROLE_HEADER, "TIME (x1)");
	ui_text(a, y, xdesc, a->cols - xdesc, ROLE_HEADER, "DESCRIPTION");
	y++;
	int room = bottom - y - 5;
	unsigned rows = room < 3 ? 3 : (unsigned)room;
	ui_list_show(&a->preset_rows, rows);
	for (unsigned i = a->preset_rows.top; i < a->preset_rows.n && i < a->preset_rows.top + rows;
	     i++, y++) {
		const struct ui_preset *p = &a->presets[i];
		bool sel = i == a->preset_rows.sel;
		enum ui_role base = sel ? ROLE_SELECTION : ROLE_NORMAL;
		unsigned queued = 0;

		for (unsigned q = 0; q < a->nqueue; q++)
			queued += a->queue[q] == i;
		if (sel)
			ui_fill(a, y, 0, a->cols, ROLE_SELECTION);
		if (sel)
			ui_text(a, y, 1, 1, base, a->g->sel);
		ui_text(a, y, xname, wname - 1, base, p->name);
		if (queued) {
			snprintf(buf, sizeof(buf), "%s%s", a->g->mark, queued > 1 ? "+" : "");
			ui_text(a, y, xname + wname - 3, 2, sel ? base : ROLE_MARKED, buf);
		}
		if (p->error[0]) {
			ui_text(a, y, xdesc, a->cols - xdesc - 1, sel ? base : ROLE_ERROR,
				p->description);
			continue;
		}
		ui_text_right(a, y, xtime, wtime, base,
			      fmt_time(a, tb, sizeof(tb), p->duration_ns, p->bounded));
		ui_text(a, y, xdesc, a->cols - xdesc - 1, sel ? base : ROLE_DIM, p->description);
	}
	if (a->preset_rows.n == 0) {
		char dirs[4][4096];
		unsigned nd = preset_dirs(a->settings, dirs, 4);
		ui_textf(a, y++, xname, a->cols - xname, ROLE_WARNING, "no presets found in %s",
			 nd ? dirs[0] : "any preset directory");
	}
	y = draw_detail(a, y, bottom);
	y = bottom - 4 > y ? bottom - 4 : y;

	y = queue_lines(a, y);
	if (y < bottom)
		targets_line(a, y);
	static const enum key_action acts[] = {ACT_DOWN,       ACT_QUEUE_ADD, ACT_QUEUE_REMOVE,
					       ACT_SCALE_DOWN, ACT_SCALE_UP,  ACT_START};
	static const char *const words[] = {"select",  "queue",	 "unqueue",
					    "shorter", "longer", "start"};
	ui_hints(a, bottom, KS_PRESETS, acts, words, 6);
}

/*
 * Build the job for the queue on the chosen targets and hand it to the run model, with
 * the names the operator typed (a->confirm): the run module checks the targets and those
 * names when each run starts, as it does for `drivebench run`.
 */
static void presets_start(struct app *a)
{
	const struct ui_target *t[RUN_MAX_TARGETS];
	unsigned n = drives_targets(a, t);
	struct run_job *job;
	char err[DB_ERR_LEN];

	if (!n || a->nqueue == 0)
		return;
	job = calloc(1, sizeof(*job));
	if (!job) {
		ui_status(a, ROLE_ERROR, "out of memory");
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		struct rm_target *jt = &job->targets[job->ntargets++];
		snprintf(jt->path, sizeof(jt->path), "%s", t[i]->path);
		snprintf(jt->name, sizeof(jt->name), "%s", t[i]->name);
		jt->is_drive = t[i]->is_drive;
		if (t[i]->is_drive)
			jt->drive = t[i]->drive;
		/* the drive the operator was shown when asking to start, not a rescan's since */
		for (unsigned k = 0; k < a->nasked; k++)
			if (!strcmp(a->asked[k].path, t[i]->path))
				job->diskseqs[i] = a->asked[k].diskseq;
	}
	/* a device's typed name is its node's; a disk image's stands for its path */
	for (unsigned i = 0; i < a->confirm.done; i++) {
		const char *c = a->confirm.typed[i];
		for (unsigned k = 0; k < n; k++)
			if (!strcmp(t[k]->name, c) && !is_block_device(t[k]))
				c = t[k]->path;
		snprintf(job->confirms[job->nconfirms++], sizeof(job->confirms[0]), "%s", c);
	}
	confirm_seq_reset(&a->confirm);
	for (unsigned q = 0; q < a->nqueue && q < RM_QUEUE_MAX; q++)
		snprintf(job->presets[job->npresets++], sizeof(job->presets[0]), "%s",
			 a->presets[a->queue[q]].path);
	job->scale = presets_scale(a);
	job->engine = &engine_uring;
	int rd = result_dir(a->settings, job->results_dir, sizeof(job->results_dir));
	if (rd < 0) {
		ui_status(a, ROLE_ERROR, "%s: cannot create the results directory: %s",
			  job->results_dir, strerror(-rd));
		free(job);
		return;
	}
	if (run_model_start(a->run, job, err, sizeof(err)) < 0) { /* the model frees job */
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	a->nqueue = 0;
	a->screen = SCR_RUN;
}

/* Ask for the next device's name, or start when every one has been typed. */
static void ask_next(struct app *a)
{
	const char *name = confirm_seq_next(&a->confirm);
	const struct ui_target *t[RUN_MAX_TARGETS];
	unsigned n = drives_targets(a, t);
	char text[512] = "", title[128];

	if (!name) {
		presets_start(a);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		struct sig_list sl;
		char held[320] = "";
		int r;
		if (strcmp(t[i]->name, name))
			continue;
		r = sig_probe_path_within(t[i]->path, &sl, SIG_PROBE_MS);
		if (r == 0 && sl.n)
			sig_describe(&sl, held, sizeof(held));
		else if (r == -ETIMEDOUT)
			snprintf(held, sizeof(held),
				 " (what it holds is not known: it did not answer a read "
				 "within %u s)",
				 SIG_PROBE_MS / 1000);
		snprintf(text, sizeof(text),
			 "The queue writes to %s (%s). Everything on it will be destroyed%s%s.",
			 t[i]->path,
			 t[i]->is_drive && t[i]->drive.model[0] ? t[i]->drive.model
			 : is_block_device(t[i])		? "block device"
								: "disk image",
			 held[0] && held[0] != ' ' ? ": " : "", held);
	}
	if (a->confirm.n > 1)
		snprintf(title, sizeof(title), "Destroy the data on this drive? (%u of %u)",
			 a->confirm.done + 1, a->confirm.n);
	else
		snprintf(title, sizeof(title), "Destroy the data on this drive?");
	ui_type_confirm(a, ACT_START, title, text, name);
}

void presets_confirmed(struct app *a, const char *typed)
{
	char name[MARK_NAME_BYTES];

	snprintf(name, sizeof(name), "%s", typed); /* the next dialog reuses its buffer */
	if (confirm_seq_give(&a->confirm, name) < 0) {
		confirm_seq_reset(&a->confirm);
		return;
	}
	ask_next(a);
}

static void start_asked(struct app *a)
{
	const struct ui_target *t[RUN_MAX_TARGETS];
	unsigned n = drives_targets(a, t);

	if (run_model_active(a->run)) {
		ui_status(a, ROLE_WARNING, "a run is active: wait for it or abort it (3, then a)");
		return;
	}
	if (!n) {
		ui_status(a, ROLE_ERROR, "choose a target on the Drives screen first");
		return;
	}
	if (a->nqueue == 0) {
		ui_status(a, ROLE_WARNING, "the queue is empty: Enter adds the selected preset");
		return;
	}
	confirm_seq_reset(&a->confirm);
	a->nasked = 0;
	for (unsigned i = 0; i < n && i < RUN_MAX_TARGETS; i++) {
		snprintf(a->asked[i].path, sizeof(a->asked[i].path), "%s", t[i]->path);
		a->asked[i].diskseq = t[i]->is_drive ? t[i]->drive.diskseq : 0;
		a->nasked++;
	}
	for (unsigned i = 0; i < n && queue_writes(a); i++) {
		if (!needs_confirm(t[i]))
			continue;
		/* a drive the last scan saw in use is refused at once; the run checks anew */
		if (t[i]->is_drive && t[i]->drive.inuse_known && inuse_busy(&t[i]->drive.inuse)) {
			ui_status(a, ROLE_ERROR, "refused: %s is in use (%s)", t[i]->name,
				  t[i]->drive.inuse.reason[0].text);
			return;
		}
		confirm_seq_add(&a->confirm, t[i]->name);
	}
	ask_next(a);
}

void presets_key(struct app *a, enum key_action act)
{
	switch (act) {
	case ACT_QUEUE_ADD:
		if (a->preset_rows.sel >= a->preset_rows.n)
			break;
		if (a->presets[a->preset_rows.sel].error[0]) {
			ui_status(a, ROLE_ERROR, "%s", a->presets[a->preset_rows.sel].error);
			break;
		}
		if (a->nqueue >= UI_QUEUE_MAX) {
			ui_status(a, ROLE_WARNING, "the queue is full");
			break;
		}
		a->queue[a->nqueue++] = a->preset_rows.sel;
		break;
	case ACT_QUEUE_REMOVE:
		if (a->nqueue)
			a->nqueue--;
		break;
	case ACT_SCALE_DOWN:
		if (a->scale_index + 1 < NSCALES)
			a->scale_index++;
		break;
	case ACT_SCALE_UP:
		if (a->scale_index > 0)
			a->scale_index--;
		break;
	case ACT_START:
		start_asked(a);
		break;
	default:
		ui_list_key(&a->preset_rows, act);
		break;
	}
}
