// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Results screen's comparison (scr_results.c): the marked results (or the selected
 * one) read in the background (result_loading_start()), compared in the same tables as
 * `drivebench compare` (report_build/report_table), drawn one metric at a time under the
 * list, scrolled both ways.
 */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "text.h"

/* The comparison on screen: the loaded results and the report built over them. */
struct compare_view {
	struct result_loading *loading; /* the results being read (compare_poll()) */
	unsigned reading;		/* how many */
	struct result *res;		/* [n] */
	unsigned n;
	struct report rep;
	bool built;
	char error[DB_ERR_LEN];
};

void compare_free(struct compare_view *c)
{
	if (!c)
		return;
	result_loading_drop(c->loading);
	if (c->built)
		report_free(&c->rep);
	for (unsigned i = 0; i < c->n; i++)
		result_free(&c->res[i]);
	free(c->res);
	free(c);
}

/* The paths compared: the marked results, or the selected one when none is marked; not
   those already known not to load (their rows say why). */
static unsigned compare_paths(struct app *a, const char **paths, unsigned max)
{
	const struct result_entry *e;
	unsigned n = 0;
	bool pending;

	for (size_t i = 0; i < a->results.n && n < max; i++)
		if (a->marked && a->marked[i] &&
		    ((e = result_list_entry_peek(&a->results, i, &pending)) ? !e->error[0]
									    : pending))
			paths[n++] = result_list_path(&a->results, i);
	if (n == 0 &&
	    ((e = result_list_entry_peek(&a->results, a->result_rows.sel, &pending)) ? !e->error[0]
										     : pending))
		paths[n++] = result_list_path(&a->results, a->result_rows.sel);
	return n;
}

/* The comparison's results read: build it over them. */
static void compare_made(struct app *a)
{
	struct compare_view *c = a->cmp;
	char err[DB_ERR_LEN];

	const struct result *runs[32];
	for (unsigned i = 0; i < c->n; i++)
		runs[i] = &c->res[i];
	struct report_opts opts = {.settings = a->settings};
	if (report_build(&c->rep, runs, c->n, &opts, err, sizeof(err)) < 0) {
		snprintf(c->error, sizeof(c->error), "%s", err);
		return;
	}
	c->built = true;
}

/* Is the comparison's reading done? Then build it (each tick, as the screen is drawn). */
void compare_poll(struct app *a)
{
	struct compare_view *c = a->cmp;
	char err[DB_ERR_LEN];

	if (!c || !c->loading || !result_loading_done(c->loading))
		return;
	int ret = result_loading_take(c->loading, &c->res, &c->n, err, sizeof(err));
	c->loading = NULL;
	if (ret < 0)
		snprintf(c->error, sizeof(c->error), "%s", err);
	else
		compare_made(a);
}

/*
 * Begin the comparison of the marked results (or the selected one): read in a thread of
 * the results layer's, since a long run's file takes a while and the comparison follows
 * the selection; it shows when read (compare_poll()), and moving on drops it unread.
 */
void compare_build(struct app *a)
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
	/* samples and histograms for an HTML export's charts */
	if ((c->loading = result_loading_start(paths, n, RESULT_LOAD_ALL))) {
		c->reading = n;
		return;
	}
	/* no thread: read them here */
	c->res = calloc(n, sizeof(*c->res));
	if (!c->res) {
		snprintf(c->error, sizeof(c->error), "out of memory");
		return;
	}
	if (result_load_many(c->res, paths, n, RESULT_LOAD_ALL, err, sizeof(err)) < 0) {
		free(c->res);
		c->res = NULL;
		snprintf(c->error, sizeof(c->error), "%s", err);
		return;
	}
	c->n = n;
	compare_made(a);
}

unsigned results_nmarked(const struct app *a)
{
	unsigned n = 0;
	for (size_t i = 0; i < a->results.n && a->marked; i++)
		n += a->marked[i];
	return n;
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
void draw_comparison(struct app *a, int y, int bottom)
{
	unsigned nm = results_nmarked(a);
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
	} else if (a->cmp && a->cmp->loading) {
		ui_textf(a, y++, 3, a->cols - 4, ROLE_DIM, "reading %u result%s...",
			 a->cmp->reading, a->cmp->reading == 1 ? "" : "s");
	} else if (a->cmp && a->cmp->built) {
		const struct report *rep = &a->cmp->rep;
		y = draw_compare(a, y, bottom, m);
		/* the report's notes say so when the runs share no step */
		for (unsigned i = 0; i < rep->nnotes && y < bottom; i++)
			ui_text(a, y++, 3, a->cols - 4, ROLE_DIM, rep->notes[i]);
	}
}

const struct report *compare_report(const struct app *a)
{
	return a->cmp && a->cmp->built ? &a->cmp->rep : NULL;
}

bool compare_reading(const struct app *a)
{
	return a->cmp && a->cmp->loading;
}
