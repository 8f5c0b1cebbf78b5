// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Screen 4, Results: the saved runs, newest first; marked runs side by side in the same
 * comparison tables as `drivebench compare` (report_build/report_table), one metric at a
 * time, exportable in every format the report renders. Enter shows the selected result
 * in full, as `drivebench show` prints it (report_show), scrolled in place of the list.
 */
#include "ui.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "errbuf.h"
#include "library.h"
#include "report.h"
#include "safety.h"
#include "siteconf.h"
#include "text.h"
#include "units.h"

/* The comparison on screen: the loaded results and the report built over them. */
struct compare_view {
	struct result *res; /* [n] */
	unsigned n;
	struct report rep;
	bool built;
	char error[DB_ERR_LEN];
};

static void compare_free(struct compare_view *c)
{
	if (!c)
		return;
	if (c->built)
		report_free(&c->rep);
	for (unsigned i = 0; i < c->n; i++)
		result_free(&c->res[i]);
	free(c->res);
	free(c);
}

static void details_close(struct app *a)
{
	free(a->details);
	free(a->details_lines);
	a->details = NULL;
	a->details_lines = NULL;
	a->detail_rows = a->detail_cols = (struct ui_list){0};
}

static void details_open(struct app *a)
{
	const struct result_entry *e;
	struct result r;
	char err[DB_ERR_LEN], *text = NULL;
	size_t len = 0;
	unsigned n = 0;

	if (!(e = result_list_entry(&a->results, a->result_rows.sel)))
		return;
	result_init(&r);
	/* the details are the step summaries, as show prints them */
	if (result_load_opts(&r, e->path, 0, err, sizeof(err)) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	int ret = report_show(&r, &text, &len);
	result_free(&r);
	if (ret < 0) {
		ui_status(a, ROLE_ERROR, "%s: %s", e->path, strerror(-ret));
		return;
	}
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	details_close(a);
	a->details_lines = calloc(n + 1, sizeof(*a->details_lines));
	if (!a->details_lines) {
		free(text);
		ui_status(a, ROLE_ERROR, "out of memory");
		return;
	}
	a->details = text;
	/* split in place: every line ends at its newline */
	for (char *p = text, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		a->details_lines[a->detail_rows.n++] = p;
		if (nl - p > (long)a->detail_cols.n)
			a->detail_cols.n = (unsigned)(nl - p);
	}
	const char *slash = strrchr(e->path, '/');
	snprintf(a->details_name, sizeof(a->details_name), "%s", slash ? slash + 1 : e->path);
}

/* s after its first n characters (UTF-8), or its end. */
static const char *skip_chars(const char *s, unsigned n)
{
	while (*s && n) {
		s++;
		while ((*s & 0xc0) == 0x80)
			s++;
		n--;
	}
	return s;
}

static void details_draw(struct app *a, int top, int bottom)
{
	char buf[400];
	int y = top;
	unsigned rows = bottom - top > 1 ? (unsigned)(bottom - top - 1) : 1;

	snprintf(buf, sizeof(buf), "details%s%s", a->g->dot, a->details_name);
	ui_rule(a, y++, buf);
	/* the last screenful stops at the last line */
	ui_list_page(&a->detail_rows, rows);
	for (unsigned i = a->detail_rows.top; i < a->detail_rows.n && y < bottom; i++, y++)
		ui_text(a, y, 1, a->cols - 2, ROLE_NORMAL,
			skip_chars(a->details_lines[i], a->detail_cols.sel));
	static const enum key_action acts[] = {ACT_DOWN, ACT_METRIC_NEXT, ACT_DETAILS};
	static const char *const words[] = {"scroll", "sideways", "back to the list"};
	ui_hints(a, bottom, KS_RESULTS, acts, words, 3);
}

void results_free(struct app *a)
{
	details_close(a);
	compare_free(a->cmp);
	a->cmp = NULL;
	result_list_free(&a->results);
	free(a->marked);
	a->marked = NULL;
}

static int path_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/*
 * The library listed again: names and times only, each row's file read when it is drawn
 * (result_io.h: a page at a time), so a folder of 100,000 results opens at once.
 */
void results_load(struct app *a)
{
	char err[DB_ERR_LEN], keep[4096] = "";
	bool *marks_by_path = NULL;
	struct result_list old = a->results;
	const char **was_marked = NULL;
	size_t nwas = 0;

	if (a->result_rows.sel < old.n)
		snprintf(keep, sizeof(keep), "%s", result_list_path(&old, a->result_rows.sel));
	/* the marked paths, sorted: found again in a folder of any size */
	if (a->marked && (was_marked = calloc(old.n + 1, sizeof(*was_marked))))
		for (size_t j = 0; j < old.n; j++)
			if (a->marked[j])
				was_marked[nwas++] = result_list_path(&old, j);
	if (nwas)
		qsort(was_marked, nwas, sizeof(*was_marked), path_cmp);
	memset(&a->results, 0, sizeof(a->results));
	int rd = result_dir(a->settings, a->results_dir, sizeof(a->results_dir));
	if (rd < 0) {
		ui_status(a, ROLE_ERROR, "%s: cannot create the results directory: %s",
			  a->results_dir, strerror(-rd));
		memset(&a->results, 0, sizeof(a->results));
	} else if ((rd = result_list_dir(a->results_dir, &a->results, err, sizeof(err))) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		if (rd != -E2BIG) /* the first so many files are listed */
			memset(&a->results, 0, sizeof(a->results));
	}
	/* and the places the library names (results saved elsewhere) */
	static char lib[LIBRARY_MAX][4096];
	unsigned nlib = 0;
	if (library_read(a->settings, lib, LIBRARY_MAX, &nlib, err, sizeof(err)) < 0)
		ui_status(a, ROLE_ERROR, "%s", err);
	/* the user's list, then the site's (siteconf.h) */
	unsigned nsite = a->site ? a->site->nlibrary : 0;
	for (unsigned i = 0; i < nlib + nsite; i++) {
		const char *place = i < nlib ? lib[i] : a->site->library[i - nlib];
		if (strcmp(place, a->results_dir) &&
		    result_list_add(&a->results, place, err, sizeof(err)) < 0)
			ui_status(a, ROLE_WARNING, "library: %s", err);
	}
	marks_by_path = calloc(a->results.n + 1, sizeof(bool));
	/* marks and the selection follow their files across a reload */
	for (size_t i = 0; i < a->results.n && marks_by_path; i++) {
		const char *path = result_list_path(&a->results, i);
		if (nwas && bsearch(&path, was_marked, nwas, sizeof(*was_marked), path_cmp))
			marks_by_path[i] = true;
		if (keep[0] && !strcmp(keep, path))
			a->result_rows.sel = (unsigned)i;
	}
	/* a run that just finished is what the reviewer comes here to see */
	if (a->results.n > old.n && a->results.n)
		a->result_rows.sel = 0;
	free(a->marked);
	a->marked = marks_by_path;
	free(was_marked);
	result_list_free(&old);
	ui_list_count(&a->result_rows, (unsigned)a->results.n);
	a->cmp_dirty = true;
	details_close(a);
}

/* The paths compared: the marked results, or the selected one when none is marked. */
static unsigned compare_paths(struct app *a, const char **paths, unsigned max)
{
	unsigned n = 0;

	const struct result_entry *e;

	for (size_t i = 0; i < a->results.n && n < max; i++)
		if (a->marked && a->marked[i] && (e = result_list_entry(&a->results, i)) &&
		    !e->error[0])
			paths[n++] = result_list_path(&a->results, i);
	if (n == 0 && (e = result_list_entry(&a->results, a->result_rows.sel)) && !e->error[0])
		paths[n++] = result_list_path(&a->results, a->result_rows.sel);
	return n;
}

static void compare_build(struct app *a)
{
	const char *paths[32];
	unsigned n = compare_paths(a, paths, 32);
	struct compare_view *c;
	char err[DB_ERR_LEN];

	compare_free(a->cmp);
	a->cmp = NULL;
	a->cmp_dirty = false;
	if (n == 0)
		return;
	c = calloc(1, sizeof(*c));
	if (!c)
		return;
	a->cmp = c;
	c->res = calloc(n, sizeof(*c->res));
	if (!c->res) {
		snprintf(c->error, sizeof(c->error), "out of memory");
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		result_init(&c->res[i]);
		c->n++;
		/* samples and histograms for an HTML export's charts */
		if (result_load_opts(&c->res[i], paths[i], RESULT_LOAD_ALL, err, sizeof(err)) <
		    0) {
			snprintf(c->error, sizeof(c->error), "%s", err);
			return;
		}
	}
	const struct result *runs[32];
	for (unsigned i = 0; i < n; i++)
		runs[i] = &c->res[i];
	struct report_opts opts = {.settings = a->settings};
	if (report_build(&c->rep, runs, n, &opts, err, sizeof(err)) < 0) {
		snprintf(c->error, sizeof(c->error), "%s", err);
		return;
	}
	c->built = true;
}

static unsigned nmarked(const struct app *a)
{
	unsigned n = 0;
	for (size_t i = 0; i < a->results.n && a->marked; i++)
		n += a->marked[i];
	return n;
}

/* "2026-11-30 13:05" from "2026-11-30T13:05:21Z" */
static void fmt_date(const char *iso, char *buf, size_t len)
{
	snprintf(buf, len, "%.10s %.5s", iso, strlen(iso) > 11 ? iso + 11 : "");
}

/*
 * A column heading that fits: the report labels runs by drive model, or by target path
 * when there is no drive; a path shows as its file name, and runs that still look alike
 * (two runs on the scratch file) get their start time.
 */
static void column_label(const struct report *rep, unsigned c, char *buf, size_t len)
{
	const char *label = rep->runs[c].label, *slash = strrchr(label, '/');
	bool twin = false;

	for (unsigned o = 0; o < rep->nruns; o++)
		twin |= o != c && !strcmp(rep->runs[o].label, label);
	if (twin)
		snprintf(buf, len, "%s %.8s", slash ? slash + 1 : label,
			 strlen(rep->runs[c].res->started) > 11 ? rep->runs[c].res->started + 11
								: "");
	else
		snprintf(buf, len, "%s", slash ? slash + 1 : label);
}

/*
 * One table of the comparison from row `skip` on, its title and header drawn whatever
 * the scroll (they stay), the step column fixed and the run columns from a->cmp_cols.sel.
 */
static int draw_table(struct app *a, int y, int bottom, const struct report *rep,
		      const struct report_table *t, unsigned skip)
{
	int namew = 18, colw = t->ncols ? (a->cols - 3 - namew) / (int)t->ncols : 16;
	unsigned left = a->cmp_cols.sel < t->ncols ? a->cmp_cols.sel : 0;
	char buf[200];

	if (colw > 26)
		colw = 26;
	if (colw < 12)
		colw = 12;
	int maxcols = (a->cols - 4 - namew) / colw;

	if (y >= bottom)
		return y;
	ui_text(a, y, 3, a->cols - 4, ROLE_LABEL, t->title);
	if (left > 0 || left + (unsigned)maxcols < t->ncols) {
		snprintf(buf, sizeof(buf), "%s runs %u-%u of %u %s", left ? a->g->left : " ",
			 left + 1, left + (unsigned)maxcols < t->ncols ? left + maxcols : t->ncols,
			 t->ncols, left + (unsigned)maxcols < t->ncols ? a->g->right : " ");
		ui_text_right(a, y, a->cols - 30, 29, ROLE_DIM, buf);
	}
	if (++y >= bottom)
		return y;
	ui_text(a, y, 3, namew, ROLE_HEADER, "STEP");
	for (unsigned c = left; c < t->ncols && (int)(c - left) < maxcols; c++) {
		column_label(rep, c, buf, sizeof(buf));
		ui_text_right(a, y, 3 + namew + (int)(c - left) * colw, colw - 1, ROLE_HEADER, buf);
	}
	y++;
	for (unsigned r = skip; r < t->nrows && y < bottom; r++, y++) {
		ui_text(a, y, 3, namew - 1, ROLE_NORMAL, t->row_names[r]);
		for (unsigned c = left; c < t->ncols && (int)(c - left) < maxcols; c++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + c];
			if (cell->present) {
				report_fmt_value(buf, sizeof(buf), t->metric, cell->value);
				if (cell->warned)
					strcat(buf, " " REPORT_WARN_MARK);
			} else
				snprintf(buf, sizeof(buf), "%s", a->utf8 ? "\u2014" : "-");
			ui_text_right(a, y, 3 + namew + (int)(c - left) * colw, colw - 1,
				      !cell->present ? ROLE_DIM
				      : cell->warned ? ROLE_WARNING
						     : ROLE_VALUE,
				      buf);
		}
	}
	return y;
}

/* Rows over every table of the comparison, and the most runs in one, for scrolling. */
static void compare_extent(const struct report *rep, enum report_metric m, unsigned *rows,
			   unsigned *cols)
{
	*rows = *cols = 0;
	for (unsigned g = 0; g < rep->ngroups; g++) {
		struct report_table t;
		if (report_table(rep, m, g, &t) < 0)
			break;
		*rows += t.nrows;
		if (t.ncols > *cols)
			*cols = t.ncols;
		report_table_free(&t);
	}
}

/* The comparison, scrolled: tables whose rows are all above the first shown are left out. */
static int draw_compare(struct app *a, int y, int bottom, enum report_metric m)
{
	const struct report *rep = &a->cmp->rep;
	unsigned rows, cols, skip;

	compare_extent(rep, m, &rows, &cols);
	/* no further than a full last page: the rows below the title and the header */
	unsigned page = bottom - y > 4 ? (unsigned)(bottom - y - 4) : 1;
	ui_list_count(&a->cmp_rows, rows);
	ui_list_page(&a->cmp_rows, page);
	ui_list_count(&a->cmp_cols, cols);
	skip = a->cmp_rows.top;
	for (unsigned g = 0; g < rep->ngroups && y < bottom - 2; g++) {
		struct report_table t;
		if (report_table(rep, m, g, &t) < 0)
			break;
		if (skip < t.nrows) {
			y = draw_table(a, y, bottom - 1, rep, &t, skip) + 1;
			skip = 0;
		} else {
			skip -= t.nrows;
		}
		report_table_free(&t);
	}
	return y;
}

/* Under the list from line y: the marked runs compared (or the selected one) in a metric. */
static void draw_comparison(struct app *a, int y, int bottom)
{
	unsigned nm = nmarked(a);
	enum report_metric m = (enum report_metric)(a->metric % RM_COUNT);
	char buf[512];

	if (nm)
		snprintf(buf, sizeof(buf), "compare (%u marked)%smetric: %s %s %s", nm, a->g->dot,
			 a->g->left, report_metric_info[m].title, a->g->right);
	else
		snprintf(buf, sizeof(buf), "the selected run%smetric: %s %s %s", a->g->dot,
			 a->g->left, report_metric_info[m].title, a->g->right);
	ui_rule(a, y++, buf);
	if (a->cmp && a->cmp->error[0]) {
		ui_text(a, y++, 3, a->cols - 4, ROLE_ERROR, a->cmp->error);
	} else if (a->cmp && a->cmp->built) {
		const struct report *rep = &a->cmp->rep;
		y = draw_compare(a, y, bottom, m);
		if (rep->ngroups == 0)
			ui_text(a, y++, 3, a->cols - 4, ROLE_DIM,
				"nothing to compare: the runs share no measured step");
		for (unsigned i = 0; i < rep->nnotes && y < bottom; i++)
			ui_text(a, y++, 3, a->cols - 4, ROLE_DIM, rep->notes[i]);
	}
}

void results_draw(struct app *a, int top, int bottom)
{
	/* 80 columns: a narrower drive and preset; the file name only from 110 */
	int wdrive = a->cols >= 110 ? 33 : 24, wpreset = a->cols >= 110 ? 15 : 12;
	int y = top, xm = 1, xdate = 3, xdrive = 21, xpreset = xdrive + wdrive + 1,
	    xstatus = xpreset + wpreset + 1, xsteps = xstatus + 10;
	char buf[512], date[32], cap[32];
	unsigned rows;

	if (a->details) {
		details_draw(a, top, bottom);
		return;
	}
	if (a->charts) {
		if (a->cmp_dirty)
			compare_build(a);
		if (a->cmp && a->cmp->built) {
			static const enum key_action cacts[] = {ACT_METRIC_NEXT, ACT_CHART_QUAD,
								ACT_CHARTS};
			static const char *const cwords[] = {"chart", "2x2", "close"};
			charts_draw(a, &a->cmp->rep, &a->chart_pages, top, bottom - 1);
			ui_hints(a, bottom, KS_RESULTS, cacts, cwords, 3);
			return;
		}
		a->charts = false;
	}
	if (a->cmp_dirty)
		compare_build(a);
	ui_text(a, y, xdate, 17, ROLE_HEADER, "DATE (UTC)");
	ui_text(a, y, xdrive, wdrive, ROLE_HEADER, "DRIVE");
	ui_text(a, y, xpreset, wpreset, ROLE_HEADER, "PRESET");
	ui_text(a, y, xstatus, 10, ROLE_HEADER, "STATUS");
	ui_text_right(a, y, xsteps, 5, ROLE_HEADER, "STEPS");
	if (a->cols >= 110)
		ui_text(a, y, xsteps + 7, a->cols - xsteps - 8, ROLE_HEADER, "FILE");
	y++;
	int room = (bottom - y) / 3;
	rows = room < 3 ? 3 : (unsigned)room;
	if (rows > a->results.n)
		rows = (unsigned)a->results.n;
	ui_list_show(&a->result_rows, rows);
	for (unsigned i = a->result_rows.top; i < a->results.n && i < a->result_rows.top + rows;
	     i++, y++) {
		const struct result_entry *e = result_list_entry(&a->results, i);
		bool sel = i == a->result_rows.sel;
		enum ui_role base = sel ? ROLE_SELECTION : ROLE_NORMAL;
		if (!e) {
			ui_text(a, y, xdate, a->cols - xdate - 1, ROLE_ERROR, "out of memory");
			continue;
		}
		const char *base_name = strrchr(e->path, '/');

		if (sel)
			ui_fill(a, y, 0, a->cols, ROLE_SELECTION);
		if (a->marked && a->marked[i])
			ui_text(a, y, xm, 1, sel ? base : ROLE_MARKED, a->g->mark);
		if (e->error[0]) {
			ui_text(a, y, xdate, 17, base, "?");
			ui_text(a, y, xdrive, a->cols - xdrive - 1, sel ? base : ROLE_ERROR,
				e->error);
			continue;
		}
		fmt_date(e->started, date, sizeof(date));
		ui_text(a, y, xdate, 17, base, date);
		if (e->label[0])
			snprintf(buf, sizeof(buf), "%s", e->label);
		else if (e->model[0])
			snprintf(buf, sizeof(buf), "%s %s", e->model,
				 units_fmt_capacity_compact(cap, sizeof(cap), e->capacity_bytes));
		else if (strrchr(e->target, '/'))
			snprintf(buf, sizeof(buf), "file %s", strrchr(e->target, '/') + 1);
		else
			snprintf(buf, sizeof(buf), "%s", e->target[0] ? e->target : "-");
		ui_text(a, y, xdrive, wdrive, base, buf);
		ui_text(a, y, xpreset, wpreset, base, e->preset[0] ? e->preset : "(ad hoc)");
		ui_text(a, y, xstatus, 10,
			sel			   ? base
			: e->status == RS_COMPLETE ? ROLE_OK
						   : ROLE_WARNING,
			result_status_name[e->status]);
		ui_textf(a, y, xsteps, 5, base, "%5u", e->nsteps);
		if (a->cols >= 110)
			ui_text(a, y, xsteps + 7, a->cols - xsteps - 8, sel ? base : ROLE_DIM,
				base_name ? base_name + 1 : e->path);
	}
	if (a->results.n == 0)
		ui_textf(a, y++, xdate, a->cols - xdate - 1, ROLE_DIM,
			 "no results yet in %s: run a preset (2 Presets) and it appears here",
			 a->results_dir);

	draw_comparison(a, y, bottom);
	static const enum key_action acts[] = {ACT_MARK,   ACT_METRIC_NEXT, ACT_CMP_DOWN,
					       ACT_CHARTS, ACT_EXPORT,	    ACT_LABEL,
					       ACT_DELETE, ACT_RELOAD,	    ACT_DETAILS};
	static const char *const words[] = {"mark",  "metric", "scroll", "charts", "export",
					    "label", "delete", "reload", "details"};
	ui_hints(a, bottom, KS_RESULTS, acts, words, 9);
}

/* $XDG_DATA_HOME/drivebench/exports: next to the results directory */
static int export_dir(const struct app *a, char *buf, size_t len)
{
	const char *slash = strrchr(a->results_dir, '/');

	buf[0] = '\0';
	if (!slash)
		return -ENOENT;
	snprintf(buf, len, "%.*s/exports", (int)(slash - a->results_dir), a->results_dir);
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

void results_export(struct app *a, int format)
{
	static const char *const ext[RF_COUNT] = {[RF_TEXT] = "txt",
						  [RF_MD] = "md",
						  [RF_CSV] = "csv",
						  [RF_JSON] = "json",
						  [RF_HTML] = "html"};
	char dir[4096], path[4300], stamp[32];
	char *text = NULL, err[DB_ERR_LEN];
	size_t len = 0;
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	if (a->cmp_dirty)
		compare_build(a);
	if (!a->cmp || !a->cmp->built) {
		ui_status(a, ROLE_WARNING, "nothing to export: mark results with Space");
		return;
	}
	if (format < 0 || format >= RF_COUNT)
		return;
	ret = export_dir(a, dir, sizeof(dir));
	if (ret < 0) {
		ui_status(a, ROLE_ERROR, "%s: cannot create the exports directory: %s",
			  ret == -ENOENT ? a->results_dir : dir, strerror(-ret));
		return;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H-%M-%S", &tm);
	snprintf(path, sizeof(path), "%s/compare-%s.%s", dir, stamp, ext[format]);
	ret = report_render(&a->cmp->rep, (enum report_format)format, &text, &len);
	if (ret < 0) {
		ui_status(a, ROLE_ERROR, "%s: export failed: %s", path, strerror(-ret));
		return;
	}
	ret = safety_output_write(path, text, len, NULL, err, sizeof(err));
	free(text);
	if (ret) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	ui_status(a, ROLE_OK, "exported %s", path);
}

void results_delete(struct app *a)
{
	const char *path = result_list_path(&a->results, a->result_rows.sel);

	if (!path)
		return;
	if (result_being_written(path)) { /* taken by a run since it was asked */
		ui_status(a, ROLE_WARNING, "a run is saving this result: delete it when it ends");
		return;
	}
	if (unlink(path) < 0) {
		ui_status(a, ROLE_ERROR, "%s: %s", path, strerror(errno));
		return;
	}
	ui_status(a, ROLE_OK, "deleted %s", path);
	results_load(a);
}

/* What results_annotate() writes: the label or the note. */
struct annotation {
	enum key_action what;
	const char *text;
};

static int annotate_edit(struct result *r, void *arg)
{
	const struct annotation *an = arg;

	if (an->what == ACT_LABEL)
		text_copy(r->label, sizeof(r->label), an->text);
	else
		text_copy(r->note, sizeof(r->note), an->text);
	return 0;
}

/*
 * Labels and notes live in the result file: it is locked, read again whole, changed and
 * written back the way runs save it (atomically), so a reader never sees half a file and
 * a run still writing it (here or in another process) is never overwritten: refused.
 */
void results_annotate(struct app *a, enum key_action what, const char *text)
{
	struct annotation an = {.what = what, .text = text};
	char err[DB_ERR_LEN];

	const char *path = result_list_path(&a->results, a->result_rows.sel);

	if (!path)
		return;
	if (result_rewrite(path, annotate_edit, &an, err, sizeof(err)) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	ui_status(a, ROLE_OK, "%s %s", what == ACT_LABEL ? "label" : "note",
		  text[0] ? "saved" : "removed");
	results_load(a);
}

/*
 * Open a result file or a directory of results: it is listed from now on, and the
 * library (library.h) remembers it.
 */
void results_open(struct app *a, const char *path)
{
	char abs[PATH_MAX], err[DB_ERR_LEN];
	struct stat st;

	if (!path[0])
		return;
	if (!realpath(path, abs) || stat(abs, &st) < 0) {
		ui_status(a, ROLE_ERROR, "%s: %s", path, strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		ui_status(a, ROLE_ERROR, "%s: not a file or a directory", abs);
		return;
	}
	if (library_add(a->settings, abs, err, sizeof(err)) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	results_load(a);
	ui_status(a, ROLE_OK, "listed from now on: %s", abs);
}

/* Open the editor for the selected result's label or note, from what the file holds. */
static void annotate_open(struct app *a, enum key_action what)
{
	struct result r;
	char err[DB_ERR_LEN];

	const struct result_entry *e = result_list_entry(&a->results, a->result_rows.sel);

	if (!e || e->error[0])
		return;
	/* a run's own file is saved by the run until it ends (this one's, or another
	 * process's: it holds the file's lock) */
	if ((e->status == RS_INCOMPLETE && run_model_active(a->run)) ||
	    result_being_written(e->path)) {
		ui_status(a, ROLE_WARNING, "a run is saving this result: label it when it ends");
		return;
	}
	if (result_load_opts(&r, e->path, 0, err, sizeof(err)) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	ui_edit(a, what, what == ACT_LABEL ? "Label (the run's name in comparisons)" : "Note",
		what == ACT_LABEL ? r.label : r.note);
	result_free(&r);
}

/* A key while a run's details are open: true when used there; false when the list takes it. */
static bool details_key(struct app *a, enum key_action act)
{
	switch (act) {
	case ACT_DETAILS:
	case ACT_BACK:
		details_close(a);
		return true;
	case ACT_METRIC_PREV:
		ui_list_scroll_by(&a->detail_cols, -10);
		return true;
	case ACT_METRIC_NEXT:
		/* the step tables are the widest lines: no further than their end */
		if (a->detail_cols.sel + 10 < a->detail_cols.n)
			a->detail_cols.sel += 10;
		return true;
	default:
		if (ui_list_key(&a->detail_rows, act))
			return true;
		/* anything else acts on the list, which comes back */
		details_close(a);
		return false;
	}
}

/* A key while the charts are open: true when used there; false when the list takes it. */
static bool charts_key(struct app *a, enum key_action act)
{
	switch (act) {
	case ACT_CHARTS:
	case ACT_BACK:
	case ACT_DETAILS:
		a->charts = false;
		return true;
	case ACT_CHART_QUAD:
		if (a->cmp && a->cmp->built)
			charts_quad(a, &a->cmp->rep);
		return true;
	case ACT_METRIC_NEXT:
	case ACT_DOWN:
		ui_list_scroll_by(&a->chart_pages, 1); /* clamped when drawn */
		return true;
	case ACT_METRIC_PREV:
	case ACT_UP:
		ui_list_scroll_by(&a->chart_pages, -1);
		return true;
	default:
		/* anything else acts on the list, which comes back */
		a->charts = false;
		return false;
	}
}

void results_key(struct app *a, enum key_action act)
{
	char text[600];

	if (a->details && details_key(a, act))
		return;
	if (a->charts && charts_key(a, act))
		return;
	switch (act) {
	case ACT_CHARTS:
	case ACT_CHART_QUAD:
		/* c opens one metric a chart, v the four of each test 2x2 */
		a->charts = true;
		a->chart_pages.sel = 0;
		a->chart_quad = act == ACT_CHART_QUAD;
		break;
	case ACT_DETAILS:
		details_open(a);
		break;
	case ACT_BACK:
		break;
	case ACT_MARK:
		if (a->result_rows.sel < a->results.n && a->marked) {
			a->marked[a->result_rows.sel] = !a->marked[a->result_rows.sel];
			a->cmp_dirty = true;
			ui_list_key(&a->result_rows, ACT_DOWN);
		}
		break;
	case ACT_METRIC_NEXT:
		a->metric = (a->metric + 1) % RM_COUNT;
		break;
	case ACT_METRIC_PREV:
		a->metric = (a->metric + RM_COUNT - 1) % RM_COUNT;
		break;
	case ACT_EXPORT:
		memset(&a->dlg, 0, sizeof(a->dlg));
		a->dlg.kind = DLG_EXPORT;
		snprintf(a->dlg.title, sizeof(a->dlg.title), "Export the comparison");
		snprintf(a->dlg.text, sizeof(a->dlg.text),
			 "Choose a format; the file goes to the exports directory next to the "
			 "results.");
		break;
	case ACT_DELETE:
		/* a file a run holds would be saved again by it, over another run's that took
		   the name meanwhile: it is deleted when the run ends */
		if (a->result_rows.sel < a->results.n &&
		    result_being_written(result_list_path(&a->results, a->result_rows.sel))) {
			ui_status(a, ROLE_WARNING,
				  "a run is saving this result: delete it when it ends");
		} else if (a->result_rows.sel < a->results.n) {
			snprintf(text, sizeof(text), "Delete %s? The measurements in it are lost.",
				 result_list_path(&a->results, a->result_rows.sel));
			ui_confirm(a, ACT_DELETE, "Delete this result?", text);
		}
		break;
	case ACT_RELOAD:
		results_load(a);
		break;
	case ACT_LABEL:
	case ACT_NOTE:
		annotate_open(a, act);
		break;
	case ACT_OPEN:
		ui_edit(a, ACT_OPEN, "Open a result file or a directory of results (remembered)",
			"");
		break;
	case ACT_CMP_DOWN:
		ui_list_scroll_by(&a->cmp_rows, 4); /* clamped to the last row when drawn */
		break;
	case ACT_CMP_UP:
		ui_list_scroll_by(&a->cmp_rows, -4);
		break;
	case ACT_CMP_RIGHT:
		ui_list_scroll_by(&a->cmp_cols, 1);
		break;
	case ACT_CMP_LEFT:
		ui_list_scroll_by(&a->cmp_cols, -1);
		break;
	default: {
		unsigned before = a->result_rows.sel;
		ui_list_key(&a->result_rows, act);
		/* with nothing marked the table follows the selection */
		if (before != a->result_rows.sel && nmarked(a) == 0)
			a->cmp_dirty = true;
		break;
	}
	}
}
