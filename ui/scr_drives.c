// SPDX-License-Identifier: GPL-2.0-or-later
/* Screen 1, Drives: every discovered disk, the scratch file, and a detail pane. */
#include "ui.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "grow.h"
#include "scratch.h"
#include "strbuf.h"
#include "health.h"
#include "units.h"

const struct ui_target *drives_chosen(const struct app *a)
{
	if (a->chosen < 0 || (unsigned)a->chosen >= a->drive_rows.n)
		return NULL;
	return &a->targets[a->chosen];
}

unsigned drives_targets(const struct app *a, const struct ui_target **out)
{
	unsigned n = 0;

	for (unsigned k = 0; k < a->marks.n; k++)
		for (unsigned i = 0; i < a->drive_rows.n; i++)
			if (!strcmp(a->targets[i].path, a->marks.path[k])) {
				out[n++] = &a->targets[i];
				break;
			}
	if (n == 0 && drives_chosen(a))
		out[n++] = drives_chosen(a);
	return n;
}

char *drives_targets_name(const struct app *a, char *buf, size_t len)
{
	const struct ui_target *t[RUN_MAX_TARGETS];
	const char *names[RUN_MAX_TARGETS];
	unsigned n = drives_targets(a, t);

	for (unsigned i = 0; i < n; i++)
		names[i] = t[i]->name;
	if (!n)
		snprintf(buf, len, "no target");
	else
		marks_join(buf, len, names, n, " + ");
	return buf;
}

static bool same_file(const char *x, const char *y)
{
	struct stat a, b;

	if (stat(x, &a) || stat(y, &b))
		return !strcmp(x, y);
	if (S_ISBLK(a.st_mode) && S_ISBLK(b.st_mode))
		return a.st_rdev == b.st_rdev;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static struct ui_target *add_target(struct app *a, size_t *cap)
{
	if (GROW(a->targets, a->drive_rows.n, *cap, 16))
		return NULL;
	struct ui_target *t = &a->targets[a->drive_rows.n++];
	memset(t, 0, sizeof(*t));
	return t;
}

void drives_free(struct app *a)
{
	for (unsigned i = 0; i < a->drive_rows.n; i++)
		free(a->targets[i].health);
	free(a->targets);
	a->targets = NULL;
	a->drive_rows.n = 0;
}

/*
 * Discover the drives again; the chosen target stays chosen, and the cursor stays on its
 * row, when they are still there (a drive arriving must not move a cursor about to mark).
 */
void drives_load(struct app *a)
{
	struct drive_list dl = {0};
	size_t cap = 0;
	char err[DB_ERR_LEN], spath[4096], cursor[4096] = "";
	uint64_t ssize = 0;
	struct ui_target *t;

	if (a->drive_rows.sel < a->drive_rows.n)
		snprintf(cursor, sizeof(cursor), "%s", a->targets[a->drive_rows.sel].path);
	drives_free(a);
	a->targets = NULL;
	a->drive_rows.n = 0;
	a->scan_error[0] = '\0';
	if (drive_scan(&dl, NULL, err, sizeof(err)) < 0)
		snprintf(a->scan_error, sizeof(a->scan_error), "discovery: %s", err);
	for (size_t i = 0; i < dl.count; i++) {
		t = add_target(a, &cap);
		if (!t)
			break;
		t->is_drive = true;
		t->drive = dl.drives[i];
		snprintf(t->name, sizeof(t->name), "%s", dl.drives[i].name);
		snprintf(t->path, sizeof(t->path), "%s", dl.drives[i].node);
		t->size_bytes = dl.drives[i].capacity_bytes;
	}
	drive_list_free(&dl);

	/* --target naming a file (or a device discovery did not list) */
	bool listed = false;
	if (a->chosen_path[0]) {
		for (unsigned i = 0; i < a->drive_rows.n; i++)
			listed |= same_file(a->targets[i].path, a->chosen_path);
		if (!listed && scratch_path(a->settings, spath, sizeof(spath)) == 0 &&
		    !same_file(spath, a->chosen_path)) {
			struct stat st;
			t = add_target(a, &cap);
			if (t) {
				const char *b = strrchr(a->chosen_path, '/');
				snprintf(t->name, sizeof(t->name), "%s",
					 b ? b + 1 : a->chosen_path);
				snprintf(t->path, sizeof(t->path), "%s", a->chosen_path);
				if (stat(a->chosen_path, &st) == 0)
					t->size_bytes = (uint64_t)st.st_size;
				if (drive_probe_path(a->chosen_path, &t->drive, err, sizeof(err)) ==
				    0)
					t->is_drive = true;
			}
		}
	}

	/* the scratch file, always last and always there; written out once, in the background */
	t = add_target(a, &cap);
	if (t) {
		uint64_t unwritten = 0;
		t->is_scratch = true;
		snprintf(t->name, sizeof(t->name), "scratch");
		if (scratch_ensure(a->settings, spath, sizeof(spath), &ssize, &unwritten, err,
				   sizeof(err)) ==
		    0) {
			snprintf(t->path, sizeof(t->path), "%s", spath);
			t->size_bytes = ssize;
			if (unwritten && !a->scratch_filler &&
			    scratch_filler_start(&a->scratch_filler, spath, err, sizeof(err)) < 0)
				snprintf(a->scan_error, sizeof(a->scan_error), "%s", err);
			a->scratch_pct = 0;
		} else {
			snprintf(a->scan_error, sizeof(a->scan_error), "%s", err);
			scratch_path(a->settings, t->path, sizeof(t->path));
		}
	}

	a->chosen = a->drive_rows.n ? (int)a->drive_rows.n - 1 : -1;
	for (unsigned i = 0; a->chosen_path[0] && i < a->drive_rows.n; i++)
		if (same_file(a->targets[i].path, a->chosen_path)) {
			a->chosen = (int)i;
			break;
		}
	if (a->chosen >= 0) {
		snprintf(a->chosen_path, sizeof(a->chosen_path), "%s", a->targets[a->chosen].path);
		a->drive_rows.sel = (unsigned)a->chosen;
	}
	for (unsigned i = 0; cursor[0] && i < a->drive_rows.n; i++)
		if (!strcmp(a->targets[i].path, cursor))
			a->drive_rows.sel = i;
	ui_list_count(&a->drive_rows, a->drive_rows.n); /* the cursor on a row still there */

	if (!a->monitor && drive_monitor_open(&a->monitor, err, sizeof(err)) < 0)
		a->monitor = NULL; /* no hotplug; r rescans by hand */
}

void drives_poll_hotplug(struct app *a)
{
	struct drive_event ev;
	struct pollfd pfd;
	bool changed = false;
	char last[64] = "";

	if (!a->monitor)
		return;
	pfd.fd = drive_monitor_fd(a->monitor);
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) <= 0)
		return;
	while (drive_monitor_read(a->monitor, &ev) > 0) {
		changed = true;
		/* arrivals and departures are news; a loop device's "change" is not */
		if (ev.kind != DRIVE_EV_CHANGED)
			snprintf(last, sizeof(last), "%s %s", ev.name,
				 drive_event_kind_name[ev.kind]);
	}
	if (changed) {
		drives_load(a);
		if (last[0])
			ui_status(a, ROLE_OK, "%s", last);
	}
}

bool drives_scratch_busy(const struct app *a, const struct ui_target *t)
{
	return t && t->is_scratch && a->scratch_filler;
}

void drives_poll_scratch(struct app *a)
{
	uint64_t done, total;
	char err[DB_ERR_LEN], cap[32];
	int state;

	if (!a->scratch_filler)
		return;
	state = scratch_filler_poll(a->scratch_filler, &done, &total, err, sizeof(err));
	a->scratch_pct = total ? (unsigned)(done * 100 / total) : 0;
	if (state == 0)
		return;
	scratch_filler_free(a->scratch_filler);
	a->scratch_filler = NULL;
	if (state > 0) {
		ui_status(a, ROLE_OK, "the scratch file is written out (%s of random data)",
			  units_fmt_capacity(cap, sizeof(cap), total));
	} else {
		snprintf(a->scan_error, sizeof(a->scan_error), "scratch file: %s", err);
		ui_status(a, ROLE_ERROR, "scratch file: %s", err);
	}
}

/* "free", or the first in-use reason */
static const char *state_text(const struct app *a, const struct ui_target *t, enum ui_role *role,
			      char *buf, size_t len)
{
	*role = ROLE_OK;
	if (drives_scratch_busy(a, t)) {
		*role = ROLE_WARNING;
		snprintf(buf, len, "writing out %u%%", a->scratch_pct);
		return buf;
	}
	if (!t->is_drive)
		return "free";
	if (!t->drive.inuse_known) {
		*role = ROLE_DIM;
		return "unknown";
	}
	if (inuse_busy(&t->drive.inuse) && t->drive.inuse.nreasons) {
		*role = ROLE_ERROR;
		return t->drive.inuse.reason[0].text;
	}
	return "free";
}

static const char *bus_text(const struct ui_target *t)
{
	if (!t->is_drive)
		return "file";
	return drive_transport_name(t->drive.transport);
}

static void link_text(const struct app *a, const struct ui_target *t, char *buf, size_t len,
		      bool *degraded)
{
	char cur[32], max[32];

	*degraded = false;
	if (!t->is_drive || !t->drive.pci.present || !t->drive.pci.link_known) {
		snprintf(buf, len, "%s", a->utf8 ? "\u2014" : "-");
		return;
	}
	drive_link_fmt(cur, sizeof(cur), &t->drive.pci.link_cur);
	if (t->drive.pci.link_degraded) {
		*degraded = true;
		drive_link_fmt(max, sizeof(max), &t->drive.pci.link_max);
		snprintf(buf, len, "%s %s of %s", cur, a->g->degraded, max);
	} else {
		snprintf(buf, len, "%s", cur);
	}
}

/*
 * One line of what the drive says about itself, read the first time its detail pane is
 * shown (NVMe: a few admin commands; SATA/SAS: smartctl, at most 5 s).
 */
static void health_row(struct app *a, int y, int x, int lw, int w, struct ui_target *t)
{
	const struct health *h;
	char cap[32], *line;
	struct strbuf b = {0};
	enum ui_role role = ROLE_NORMAL;

	if (!t->health) {
		struct health_opts o = {.timeout_ms = 5000};
		char err[DB_ERR_LEN];
		t->health = malloc(sizeof(*t->health));
		if (!t->health)
			return;
		health_read(&t->drive, &o, t->health, err, sizeof(err));
	}
	h = t->health;
	ui_text(a, y, x, lw, ROLE_LABEL, "Health");
	if (h->source == HEALTH_SRC_NONE || !h->known) {
		ui_text(a, y, x + lw, w, ROLE_DIM, h->note[0] ? h->note : "no health data");
		return;
	}
	if (health_has(h, HF_CRITICAL_WARNING) && h->v[HF_CRITICAL_WARNING]) {
		strbuf_add(&b, "CRITICAL WARNING 0x%02llx%s", (long long)h->v[HF_CRITICAL_WARNING],
			   a->g->dot);
		role = ROLE_ERROR;
	}
	if (h->smart_passed_known && !h->smart_passed) {
		strbuf_add(&b, "SMART FAILED%s", a->g->dot);
		role = ROLE_ERROR;
	}
	if (health_has(h, HF_TEMP_C))
		strbuf_add(&b, "%lld C", (long long)h->v[HF_TEMP_C]);
	if (health_has(h, HF_PCT_USED))
		strbuf_add(&b, "%s%lld %% used", b.len ? a->g->dot : "",
			   (long long)h->v[HF_PCT_USED]);
	if (health_has(h, HF_DATA_WRITTEN_BYTES)) {
		units_fmt_capacity(cap, sizeof(cap), (uint64_t)h->v[HF_DATA_WRITTEN_BYTES]);
		strbuf_add(&b, "%s%s written", b.len ? a->g->dot : "", cap);
	}
	if (health_has(h, HF_POWER_ON_HOURS))
		strbuf_add(&b, "%s%lld h on", b.len ? a->g->dot : "",
			   (long long)h->v[HF_POWER_ON_HOURS]);
	if (health_has(h, HF_TMT1_COUNT) && health_has(h, HF_TMT2_COUNT) &&
	    h->v[HF_TMT1_COUNT] + h->v[HF_TMT2_COUNT] > 0)
		strbuf_add(&b, "%sthrottled %lld times", b.len ? a->g->dot : "",
			   (long long)(h->v[HF_TMT1_COUNT] + h->v[HF_TMT2_COUNT]));
	if (health_has(h, HF_REALLOCATED) && h->v[HF_REALLOCATED] > 0) {
		strbuf_add(&b, "%s%lld reallocated", b.len ? a->g->dot : "",
			   (long long)h->v[HF_REALLOCATED]);
		if (role == ROLE_NORMAL)
			role = ROLE_WARNING;
	}
	if (health_has(h, HF_MEDIA_ERRORS) && h->v[HF_MEDIA_ERRORS] > 0) {
		strbuf_add(&b, "%s%lld media errors", b.len ? a->g->dot : "",
			   (long long)h->v[HF_MEDIA_ERRORS]);
		if (role == ROLE_NORMAL)
			role = ROLE_WARNING;
	}
	if (h->source == HEALTH_SRC_NVME)
		strbuf_add(&b, "%serase: %s%s%s%s", b.len ? a->g->dot : "",
			   h->nvme.sanitize_block || h->nvme.sanitize_crypto ||
					   h->nvme.sanitize_overwrite
				   ? "sanitize "
				   : "",
			   h->nvme.format_supported ? "format" : "",
			   h->nvme.format_crypto ? "+crypto" : "",
			   !h->nvme.format_supported && !(h->nvme.sanicap & 7) ? "none" : "");
	line = strbuf_take(&b);
	ui_text(a, y, x + lw, w, role, line ? line : "out of memory");
	free(line);
}

static void detail(struct app *a, int y, int bottom, struct ui_target *t)
{
	char buf[1024], cap[32];
	int lw = 10, x = 3, w = a->cols - x - lw - 1;

	if (y >= bottom)
		return;
	if (!t->is_drive) {
		units_fmt_capacity(cap, sizeof(cap), t->size_bytes);
		ui_text(a, y, x, lw, ROLE_LABEL, "File");
		ui_textf(a, y++, x + lw, w, ROLE_NORMAL, "%s  %s", t->path, cap);
		if (y < bottom && t->is_scratch) {
			ui_text(a, y, x, lw, ROLE_LABEL, "Scratch");
			ui_text(a, y++, x + lw, w, ROLE_NORMAL,
				"any preset runs here without a spare drive; it measures the file "
				"system under the cache directory, not a drive");
		}
		if (y < bottom && drives_scratch_busy(a, t))
			ui_textf(a, y++, x + lw, w, ROLE_WARNING,
				 "writing it out with random data, %u%% done: reads of a file never "
				 "written touch no disk, so runs wait for it",
				 a->scratch_pct);
		return;
	}
	const struct drive *d = &t->drive;
	bool degraded;

	if (d->pci.present && y < bottom) {
		link_text(a, t, buf, sizeof(buf), &degraded);
		ui_text(a, y, x, lw, ROLE_LABEL, "Link");
		if (degraded) {
			char cur[32], max[32];
			drive_link_fmt(cur, sizeof(cur), &d->pci.link_cur);
			drive_link_fmt(max, sizeof(max), &d->pci.link_max);
			ui_textf(a, y++, x + lw, w, ROLE_WARNING,
				 "PCIe %s %s DEGRADED: the device can run %s (check slot, riser, "
				 "BIOS link settings)",
				 cur, a->utf8 ? "\u2014" : "-", max);
		} else {
			ui_textf(a, y++, x + lw, w, ROLE_NORMAL, "PCIe %s%s", buf,
				 d->pci.link_known ? "" : " (link not readable)");
		}
		if (y < bottom) {
			ui_text(a, y, x, lw, ROLE_LABEL, "PCI");
			snprintf(buf, sizeof(buf), "%s  %s %s", d->pci.address, d->pci.vendor,
				 d->pci.device);
			if (d->pci.numa_node >= 0) {
				size_t n = strlen(buf);
				snprintf(buf + n, sizeof(buf) - n, "   NUMA node %d (CPUs %s)",
					 d->pci.numa_node, d->pci.local_cpus);
			}
			ui_text(a, y++, x + lw, w, ROLE_NORMAL, buf);
		}
	}
	if (y < bottom) {
		ui_text(a, y, x, lw, ROLE_LABEL, "Blocks");
		ui_textf(a, y++, x + lw, w, ROLE_NORMAL,
			 "%u B logical / %u B physical%sscheduler %s%snr_requests %u%swrite cache: "
			 "%s%sdiscard: %s%s",
			 d->logical_block_bytes, d->physical_block_bytes, a->g->dot,
			 d->scheduler[0] ? d->scheduler : "-", a->g->dot, d->nr_requests, a->g->dot,
			 drive_wcache_name[d->write_cache], a->g->dot, d->discard ? "yes" : "no",
			 d->read_only ? "  READ-ONLY" : "");
	}
	if (y < bottom) {
		ui_text(a, y, x, lw, ROLE_LABEL, "Serial");
		ui_textf(a, y++, x + lw, w, ROLE_NORMAL, "%s%sWWN %s%sfirmware %s",
			 d->serial[0] ? d->serial : "-", a->g->dot, d->wwn[0] ? d->wwn : "-",
			 a->g->dot, d->firmware[0] ? d->firmware : "-");
	}
	if (y < bottom)
		health_row(a, y++, x, lw, w, t);
	for (unsigned i = 0; i < d->inuse.nreasons && y < bottom; i++) {
		ui_text(a, y, x, lw, ROLE_LABEL, i ? "" : "In use");
		ui_text(a, y++, x + lw, w, ROLE_ERROR, d->inuse.reason[i].text);
	}
	if (d->rotational_unreliable && y < bottom) {
		ui_text(a, y, x, lw, ROLE_LABEL, "Media");
		ui_text(a, y++, x + lw, w, ROLE_DIM,
			"the transport does not say whether this is a disk or flash");
	}
}

void drives_draw(struct app *a, int top, int bottom)
{
	/* columns: device, model, capacity, bus, link, firmware, state */
	int wdev = 11, wmodel = a->cols >= 120 ? 31 : 24, wcap = 10, wbus = 8,
	    wlink = a->cols >= 120 ? 25 : 10, wfw = 10;
	int xdev = 3, xmodel = xdev + wdev, xcap = xmodel + wmodel, xbus = xcap + wcap + 2,
	    xlink = xbus + wbus, xfw = xlink + wlink, xstate = xfw + wfw;
	int y = top;
	unsigned list_rows;
	char buf[256];

	if (a->cols < 100) {
		/* 80 columns: the link and firmware move to the detail pane */
		wlink = 0;
		wfw = 0;
		xlink = xfw = xbus + wbus;
		xstate = xlink;
	}
	ui_text(a, y, xdev, wdev, ROLE_HEADER, "DEVICE");
	ui_text(a, y, xmodel, wmodel, ROLE_HEADER, "MODEL");
	ui_text_right(a, y, xcap, wcap, ROLE_HEADER, "CAPACITY");
	ui_text(a, y, xbus, wbus, ROLE_HEADER, "BUS");
	if (wlink) {
		ui_text(a, y, xlink, wlink, ROLE_HEADER, "LINK");
		ui_text(a, y, xfw, wfw, ROLE_HEADER, "FIRMWARE");
	}
	ui_text(a, y, xstate, a->cols - xstate, ROLE_HEADER, "STATE");
	y++;

	/* the list gets what the detail pane (8 rows) leaves */
	int room = bottom - y - 9;
	list_rows = room < 3 ? 3 : (unsigned)room;
	if (list_rows > a->drive_rows.n)
		list_rows = a->drive_rows.n;
	ui_list_show(&a->drive_rows, list_rows);
	for (unsigned i = a->drive_rows.top;
	     i < a->drive_rows.n && i < a->drive_rows.top + list_rows; i++, y++) {
		const struct ui_target *t = &a->targets[i];
		bool sel = i == a->drive_rows.sel;
		enum ui_role base = sel ? ROLE_SELECTION : ROLE_NORMAL, srole;
		bool degraded;

		if (sel)
			ui_fill(a, y, 0, a->cols, ROLE_SELECTION);
		if ((int)i == a->chosen && !a->marks.n)
			ui_text(a, y, 1, 1, sel ? base : ROLE_MARKED, a->g->sel);
		else if (marks_find(&a->marks, t->path) >= 0)
			ui_text(a, y, 1, 1, sel ? base : ROLE_MARKED, a->g->mark);
		ui_text(a, y, xdev, wdev - 1, base, t->name);
		ui_text(a, y, xmodel, wmodel - 1, base,
			t->is_scratch ? "scratch file"
			: t->is_drive ? (t->drive.model[0] ? t->drive.model : "-")
				      : "file");
		units_fmt_capacity(buf, sizeof(buf), t->size_bytes);
		ui_text_right(a, y, xcap, wcap, base, buf);
		ui_text(a, y, xbus, wbus - 1, base, bus_text(t));
		if (wlink) {
			link_text(a, t, buf, sizeof(buf), &degraded);
			ui_text(a, y, xlink, wlink - 1,
				sel	   ? base
				: degraded ? ROLE_WARNING
					   : base,
				buf);
			ui_text(a, y, xfw, wfw - 1, base,
				t->is_drive && t->drive.firmware[0] ? t->drive.firmware
								    : (a->utf8 ? "\u2014" : "-"));
		}
		char stbuf[32];
		const char *st = state_text(a, t, &srole, stbuf, sizeof(stbuf));
		ui_text(a, y, xstate, a->cols - xstate - 1, sel ? base : srole, st);
	}
	if (a->drive_rows.n == 0)
		ui_text(a, y++, xdev, a->cols - xdev, ROLE_DIM, "no drives found");
	if (a->scan_error[0] && y < bottom - 1)
		ui_text(a, y++, xdev, a->cols - xdev, ROLE_WARNING, a->scan_error);

	if (a->drive_rows.sel < a->drive_rows.n) {
		struct ui_target *t = &a->targets[a->drive_rows.sel];
		int k = marks_find(&a->marks, t->path);
		if (k >= 0)
			snprintf(buf, sizeof(buf), "%s (marked, target %d of %u)", t->name, k + 1,
				 a->marks.n);
		else
			snprintf(buf, sizeof(buf), "%s%s", t->name,
				 (int)a->drive_rows.sel == a->chosen && !a->marks.n ? " (chosen)" : "");
		ui_rule(a, y++, buf);
		detail(a, y, bottom - 1, t);
	}
	static const enum key_action acts[] = {ACT_DOWN, ACT_MARK,  ACT_CHOOSE,
					       ACT_RESCAN, ACT_HELP, ACT_QUIT};
	static const char *const words[] = {"select", "mark (several targets)", "choose",
					    "rescan", "help", "quit"};
	ui_hints(a, bottom, KS_DRIVES, acts, words, 6);
}

/* Space: mark the row, or unmark it; a queue then runs on every marked target at once. */
static void mark(struct app *a, const struct ui_target *t)
{
	char names[512];
	int ret = marks_toggle(&a->marks, t->path);

	if (ret == -ENOSPC)
		ui_status(a, ROLE_WARNING, "at most %d targets run at once", RUN_MAX_TARGETS);
	else if (a->marks.n)
		ui_status(a, ROLE_OK, "targets: %s",
			  drives_targets_name(a, names, sizeof(names)));
	else
		ui_status(a, ROLE_NORMAL, "no marks: the queue runs on %s",
			  drives_targets_name(a, names, sizeof(names)));
}

void drives_key(struct app *a, enum key_action act)
{
	switch (act) {
	case ACT_MARK:
		if (a->drive_rows.sel < a->drive_rows.n)
			mark(a, &a->targets[a->drive_rows.sel]);
		break;
	case ACT_CHOOSE:
		if (a->drive_rows.sel < a->drive_rows.n) {
			a->chosen = (int)a->drive_rows.sel;
			snprintf(a->chosen_path, sizeof(a->chosen_path), "%s",
				 a->targets[a->chosen].path);
			a->screen = SCR_PRESETS;
		}
		break;
	case ACT_RESCAN:
		drives_load(a);
		ui_status(a, ROLE_OK, "%u targets", a->drive_rows.n);
		break;
	default:
		ui_list_key(&a->drive_rows, act);
		break;
	}
}
