// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Screen 4, Results: the saved runs, newest first; marked runs side by side in the same
 * comparison tables as `drivebench compare` (report_build/report_table), one metric at a
 * time, exportable in every format the report renders. Enter shows the selected result
 * in full, as `drivebench show` prints it (report_show), scrolled in place of the list.
 */
#include "ui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errbuf.h"
#include "library.h"
#include "report.h"
#include "siteconf.h"
#include "text.h"
#include "units.h"

/* ticks a listing may take before the status line says it is being made: half a second */
#define LISTING_SAY_TICKS 4
#define LISTING_SAYING	  "listing the results... (a directory has not answered yet)"

static void details_close(struct app *a)
{
	result_loading_drop(a->details_loading);
	a->details_loading = NULL;
	free(a->details);
	free(a->details_lines);
	a->details = NULL;
	a->details_lines = NULL;
	a->detail_rows = a->detail_cols = (struct ui_list){0};
}

/* The details of r (its file at path): the step summaries, as show prints them. */
static void details_show(struct app *a, struct result *r, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	unsigned n = 0;

	int ret = report_show(r, &text, &len);
	if (ret < 0) {
		ui_status(a, ROLE_ERROR, "%s: %s", path, strerror(-ret));
		details_close(a);
		return;
	}
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	a->details_lines = calloc(n + 1, sizeof(*a->details_lines));
	if (!a->details_lines) {
		free(text);
		ui_status(a, ROLE_ERROR, "out of memory");
		details_close(a);
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
}

/* Is the details' result read? Then show it (as the screen is drawn). */
static void details_poll(struct app *a)
{
	struct result *r;
	char err[DB_ERR_LEN];
	unsigned n;

	if (!a->details_loading || !result_loading_done(a->details_loading))
		return;
	int ret = result_loading_take(a->details_loading, &r, &n, err, sizeof(err));
	a->details_loading = NULL;
	if (ret < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		details_close(a);
		return;
	}
	details_show(a, &r[0], a->details_name);
	result_free(&r[0]);
	free(r);
}

/* The selected result in full: read in the background (a long run's file takes a while),
   shown as "reading..." until it is. */
static void details_open(struct app *a)
{
	const char *path = result_list_path(&a->results, a->result_rows.sel);
	char err[DB_ERR_LEN];
	struct result r;

	if (!path)
		return;
	details_close(a);
	snprintf(a->details_name, sizeof(a->details_name), "%s", text_base_name(path));
	/* summaries only: no samples, no histograms */
	if ((a->details_loading = result_loading_start(&path, 1, 0)))
		return;
	/* no thread: read it here */
	if (result_load_opts(&r, path, 0, err, sizeof(err)) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	details_show(a, &r, path);
	result_free(&r);
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
	if (a->details_loading)
		ui_textf(a, y, 1, a->cols - 2, ROLE_DIM, "reading %s...", a->details_name);
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
	result_listing_drop(a->listing);
	a->listing = NULL;
	results_files_free(a);
	results_export_free(a);
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
 * (result_io.h: a page at a time), so a folder of 100,000 results opens at once. Marks
 * and the selection follow their files from the list shown before.
 */
static void listing_apply(struct app *a, struct result_listing_answer *ans)
{
	char keep[4096] = "";
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
	a->results = ans->list;
	text_copy(a->results_dir, sizeof(a->results_dir), ans->dir);
	if (ans->err[0])
		ui_status(a, ROLE_ERROR, "%s", ans->err);
	else if (ans->warning[0])
		ui_status(a, ROLE_WARNING, "%s", ans->warning);
	else if (!strcmp(a->status, LISTING_SAYING))
		a->status_ticks = 0; /* what it said is over (not a newer message) */
	marks_by_path = calloc(a->results.n + 1, sizeof(bool));
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
	/* details opened while the list was made stay open on the same file */
	const char *sel = result_list_path(&a->results, a->result_rows.sel);
	if (!sel || strcmp(sel, keep))
		details_close(a);
}

void results_load(struct app *a)
{
	char err[DB_ERR_LEN];
	/* the user's list, then the site's (siteconf.h) */
	static char lib[LIBRARY_MAX][4096];
	const char *places[LIBRARY_MAX + SITECONF_LIBRARY_MAX];
	unsigned nlib = 0, n = 0;
	struct result_listing_answer ans;

	if (a->listing) {
		a->listing_again = true; /* what changed since it began is listed next */
		return;
	}
	if (library_read(a->settings, lib, LIBRARY_MAX, &nlib, err, sizeof(err)) < 0)
		ui_status(a, ROLE_ERROR, "%s", err);
	for (unsigned i = 0; i < nlib; i++)
		places[n++] = lib[i];
	for (unsigned i = 0; a->site && i < a->site->nlibrary; i++)
		places[n++] = a->site->library[i];
	a->listing_ticks = 0;
	if ((a->listing = result_listing_start(a->settings, places, n)))
		return;
	/* no thread: here and now */
	result_listing_run(a->settings, places, n, &ans);
	listing_apply(a, &ans);
}

void results_list_poll(struct app *a)
{
	struct result_listing_answer ans;

	if (!a->listing)
		return;
	if (!result_listing_done(a->listing)) {
		/* said once it is slow, and again once another message has had its time */
		if (++a->listing_ticks > LISTING_SAY_TICKS && a->status_ticks <= 1)
			ui_status(a, ROLE_DIM, "%s", LISTING_SAYING);
		return;
	}
	result_listing_take(a->listing, &ans);
	a->listing = NULL;
	listing_apply(a, &ans);
	if (a->listing_again) {
		a->listing_again = false;
		results_load(a);
	}
}

/* "2026-11-30 13:05" from "2026-11-30T13:05:21Z" */
static void fmt_date(const char *iso, char *buf, size_t len)
{
	snprintf(buf, len, "%.10s %.5s", iso, strlen(iso) > 11 ? iso + 11 : "");
}

/* The list's columns: at 80 a narrower drive and preset; the file name only from 110. */
struct row_cols {
	int xm, xdate, xdrive, wdrive, xpreset, wpreset, xstatus, xsteps;
};

static struct row_cols row_cols(const struct app *a)
{
	struct row_cols c = {.xm = 1, .xdate = 3, .xdrive = 21};

	c.wdrive = a->cols >= 110 ? 33 : 24;
	c.wpreset = a->cols >= 110 ? 15 : 12;
	c.xpreset = c.xdrive + c.wdrive + 1;
	c.xstatus = c.xpreset + c.wpreset + 1;
	c.xsteps = c.xstatus + 10;
	return c;
}

/* Line y: result i. Rows are read by the list's threads, since a long run's file takes a
   while: one not read yet says so. */
static void draw_row(struct app *a, const struct row_cols *c, size_t i, int y)
{
	char buf[512], date[32], cap[32];
	bool pending;
	const struct result_entry *e = result_list_entry_peek(&a->results, i, &pending);
	bool sel = i == a->result_rows.sel;
	enum ui_role base = sel ? ROLE_SELECTION : ROLE_NORMAL;

	if (!e && !pending) {
		ui_text(a, y, c->xdate, a->cols - c->xdate - 1, ROLE_ERROR, "out of memory");
		return;
	}
	const char *path = e ? e->path : result_list_path(&a->results, i);

	if (sel)
		ui_fill(a, y, 0, a->cols, ROLE_SELECTION);
	if (a->marked && a->marked[i])
		ui_text(a, y, c->xm, 1, sel ? base : ROLE_MARKED, a->g->mark);
	if (!e || !e->error[0]) { /* an error runs to the end of the line */
		if (a->cols >= 110)
			ui_text(a, y, c->xsteps + 7, a->cols - c->xsteps - 8, sel ? base : ROLE_DIM,
				text_base_name(path));
	}
	if (!e) {
		ui_text(a, y, c->xdrive, c->wdrive, sel ? base : ROLE_DIM, "reading...");
		return;
	}
	if (e->error[0]) {
		ui_text(a, y, c->xdate, 17, base, "?");
		ui_text(a, y, c->xdrive, a->cols - c->xdrive - 1, sel ? base : ROLE_ERROR,
			e->error);
		return;
	}
	fmt_date(e->started, date, sizeof(date));
	ui_text(a, y, c->xdate, 17, base, date);
	if (e->label[0])
		snprintf(buf, sizeof(buf), "%s", e->label);
	else if (e->model[0])
		snprintf(buf, sizeof(buf), "%s %s", e->model,
			 units_fmt_capacity_compact(cap, sizeof(cap), e->capacity_bytes));
	else if (strrchr(e->target, '/'))
		snprintf(buf, sizeof(buf), "file %s", strrchr(e->target, '/') + 1);
	else
		snprintf(buf, sizeof(buf), "%s", e->target[0] ? e->target : "-");
	ui_text(a, y, c->xdrive, c->wdrive, base, buf);
	ui_text(a, y, c->xpreset, c->wpreset, base, e->preset[0] ? e->preset : "(ad hoc)");
	ui_text(a, y, c->xstatus, 10,
		sel			   ? base
		: e->status == RS_COMPLETE ? ROLE_OK
					   : ROLE_WARNING,
		result_status_name[e->status]);
	ui_textf(a, y, c->xsteps, 5, base, "%5u", e->nsteps);
}

void results_draw(struct app *a, int top, int bottom)
{
	struct row_cols c = row_cols(a);
	int y = top;
	unsigned rows;

	details_poll(a);
	if (a->details || a->details_loading) {
		details_draw(a, top, bottom);
		return;
	}
	compare_poll(a);
	if (a->charts) {
		if (a->cmp_dirty)
			compare_build(a);
		if (compare_report(a)) {
			static const enum key_action cacts[] = {ACT_METRIC_NEXT, ACT_CHART_QUAD,
								ACT_CHARTS};
			static const char *const cwords[] = {"chart", "2x2", "close"};
			charts_draw(a, compare_report(a), &a->chart_pages, top, bottom - 1);
			ui_hints(a, bottom, KS_RESULTS, cacts, cwords, 3);
			return;
		}
		/* the charts open when their results are read */
		if (!compare_reading(a))
			a->charts = false;
	}
	if (a->cmp_dirty)
		compare_build(a);
	ui_text(a, y, c.xdate, 17, ROLE_HEADER, "DATE (UTC)");
	ui_text(a, y, c.xdrive, c.wdrive, ROLE_HEADER, "DRIVE");
	ui_text(a, y, c.xpreset, c.wpreset, ROLE_HEADER, "PRESET");
	ui_text(a, y, c.xstatus, 10, ROLE_HEADER, "STATUS");
	ui_text_right(a, y, c.xsteps, 5, ROLE_HEADER, "STEPS");
	if (a->cols >= 110)
		ui_text(a, y, c.xsteps + 7, a->cols - c.xsteps - 8, ROLE_HEADER, "FILE");
	y++;
	int room = (bottom - y) / 3;
	rows = room < 3 ? 3 : (unsigned)room;
	if (rows > a->results.n)
		rows = (unsigned)a->results.n;
	ui_list_show(&a->result_rows, rows);
	for (size_t i = a->result_rows.top; i < a->results.n && i < a->result_rows.top + rows;
	     i++, y++)
		draw_row(a, &c, i, y);
	if (a->results.n == 0 && a->listing && !a->results_dir[0])
		ui_textf(a, y++, c.xdate, a->cols - c.xdate - 1, ROLE_DIM,
			 "listing the results...");
	else if (a->results.n == 0)
		ui_textf(a, y++, c.xdate, a->cols - c.xdate - 1, ROLE_DIM,
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
		if (compare_report(a))
			charts_quad(a, compare_report(a));
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

	if ((a->details || a->details_loading) && details_key(a, act))
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
		results_ask_delete(a);
		break;
	case ACT_RELOAD:
		results_load(a);
		break;
	case ACT_LABEL:
	case ACT_NOTE:
		results_ask_annotate(a, act);
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
		if (before != a->result_rows.sel && results_nmarked(a) == 0)
			a->cmp_dirty = true;
		break;
	}
	}
}
