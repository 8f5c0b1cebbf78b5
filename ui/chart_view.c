// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Results screen's charts: the comparison's runs (the marked results, or the
 * selected one) drawn as the HTML report draws them, one chart a page: preconditioning
 * over time for IOPS, average and maximum latency and its standard deviation, each
 * ladder for the current metric, and rate curves (average latency against IOPS). One
 * colour per drive; braille, or ASCII in other locales (plot.c). The series come from
 * the report model (report.h); this file only lays them out on a common x axis.
 * A run whose steps have several streams (several targets at once, or a preset's
 * [stream] sections) adds a curve per stream on the ladder and rate pages, next to its
 * total, named in the legend; colours run out at NROLES curves, the rest are left out.
 */
#include "ui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "units.h"

#define CHART_COLS 512 /* the widest plot, in points */

/* One colour per drive, from the plot roles first. */
static const enum ui_role drive_role[] = {ROLE_PLOT_ALL, ROLE_PLOT_WRITE, ROLE_PLOT_READ,
					  ROLE_WARNING,	 ROLE_OK,	  ROLE_VALUE};
#define NROLES (sizeof(drive_role) / sizeof(drive_role[0]))

/* The metrics of the preconditioning pages, as the Run screen plots them. */
static const enum report_metric pre_metric[] = {RM_IOPS, RM_LAT_AVG, RM_LAT_MAX, RM_LAT_STD};
#define NPRE (sizeof(pre_metric) / sizeof(pre_metric[0]))

enum page_kind { PG_PRECONDITION, PG_LADDER, PG_RATE };

struct page {
	enum page_kind kind;
	unsigned index; /* a pre_metric index, or a group */
};

static bool has_precondition(const struct report *rep)
{
	for (unsigned i = 0; i < rep->nruns; i++)
		if (report_precondition_count(rep->runs[i].res))
			return true;
	return false;
}

static unsigned group_ncats(const struct report *rep, unsigned g)
{
	unsigned n = 0;

	for (unsigned r = 0; r < rep->groups[g].nrows; r++)
		n += rep->rows[rep->groups[g].first_row + r].dir == DIR_ALL &&
		     !rep->rows[rep->groups[g].first_row + r].stream;
	return n;
}

/* A group of rate-limited steps is a rate curve, not a ladder. */
static bool group_rated(const struct report *rep, unsigned g)
{
	const struct report_group *grp = &rep->groups[g];

	for (unsigned r = 0; r < grp->nrows; r++)
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct result_step *st = rep->rows[grp->first_row + r].steps[i];
			if (st && st->wl.rate_iops)
				return true;
		}
	return false;
}

/* The k-th page (k < charts_count()). */
static bool page_at(const struct report *rep, unsigned k, struct page *pg)
{
	if (has_precondition(rep)) {
		if (k < NPRE) {
			*pg = (struct page){PG_PRECONDITION, k};
			return true;
		}
		k -= NPRE;
	}
	for (unsigned g = 0; g < rep->ngroups; g++) {
		if (group_ncats(rep, g) < 2)
			continue;
		if (k-- == 0) {
			*pg = (struct page){group_rated(rep, g) ? PG_RATE : PG_LADDER, g};
			return true;
		}
	}
	return false;
}

unsigned charts_count(const struct report *rep)
{
	unsigned n = has_precondition(rep) ? NPRE : 0;

	for (unsigned g = 0; g < rep->ngroups; g++)
		n += group_ncats(rep, g) >= 2;
	return n;
}

/*
 * Points (x ascending) onto cap columns over [0, x1]: a column with points holds their
 * mean (their maximum when peak: a spike must show), one between points the line
 * joining its neighbours, one outside the points' span nothing (NAN).
 */
static void resample(const double *x, const double *y, unsigned n, double x1, bool peak,
		     double *out, unsigned cap)
{
	unsigned k = 0;

	for (unsigned c = 0; c < cap; c++) {
		double lo = x1 * c / cap, hi = x1 * (c + 1) / cap, sum = 0, best = NAN;
		unsigned cnt = 0;
		while (k < n && (x[k] < hi || (c == cap - 1 && x[k] <= x1))) {
			if (isfinite(y[k]) && x[k] >= lo) {
				sum += y[k];
				cnt++;
				best = isnan(best) || y[k] > best ? y[k] : best;
			}
			k++;
		}
		if (cnt) {
			out[c] = peak ? best : sum / cnt;
		} else if (k > 0 && k < n && isfinite(y[k - 1]) && isfinite(y[k]) &&
			   x[k] > x[k - 1]) {
			double mid = (lo + hi) / 2, f = (mid - x[k - 1]) / (x[k] - x[k - 1]);
			out[c] = y[k - 1] + f * (y[k] - y[k - 1]);
		} else {
			out[c] = NAN;
		}
	}
}

/* A curve: a run's steps, or one of their streams (stream >= 0). */
struct curve {
	unsigned run;
	int stream;
	const char *label; /* the stream's name */
};

/* The most streams any step of run i on the page has, and the first such step. */
static unsigned page_streams(const struct report *rep, const struct page *pg, unsigned i,
			     const struct result_step **first)
{
	const struct report_group *grp = &rep->groups[pg->index];
	unsigned most = 0;

	*first = NULL;
	if (pg->kind == PG_PRECONDITION)
		return 0; /* the precondition's samples are drawn for the run as a whole */
	for (unsigned r = 0; r < grp->nrows; r++) {
		const struct report_row *row = &rep->rows[grp->first_row + r];
		const struct result_step *st = row->steps[i];
		if (row->dir != DIR_ALL || row->stream || !st || st->nstreams <= most)
			continue;
		most = st->nstreams;
		*first = st;
	}
	return most;
}

/* The page's curves: each run's total, then each of its streams; at most max. */
static unsigned page_curves(const struct report *rep, const struct page *pg, struct curve *c,
			    unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < rep->nruns && n < max; i++) {
		const struct result_step *st;
		unsigned ns = page_streams(rep, pg, i, &st);
		c[n++] = (struct curve){i, -1, NULL};
		for (unsigned j = 0; j < ns && n < max; j++)
			c[n++] = (struct curve){i, (int)j, st->streams[j].label};
	}
	return n;
}

/* The step's stream k, or the step itself (k < 0); NULL when it has no such stream. */
static const struct result_step *stream_of(const struct result_step *st, int k)
{
	if (!st || k < 0)
		return st;
	return (unsigned)k < st->nstreams ? &st->streams[k] : NULL;
}

struct xy {
	double x, y;
};

static int cmp_xy(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

/*
 * Curve c's points on the page (x ascending) into x[], y[] (at most max); returns how
 * many. Preconditioning: time (s) and the metric; a ladder: the row's place and the
 * metric; a rate curve: IOPS delivered and average latency (ms).
 */
static unsigned page_points(const struct report *rep, const struct page *pg,
			    const struct curve *c, enum report_metric m, double *x, double *y,
			    unsigned max)
{
	unsigned i = c->run;
	const struct report_group *grp = &rep->groups[pg->index];
	unsigned n = 0;

	if (pg->kind == PG_PRECONDITION) {
		double *v[RM_COUNT] = {0};
		v[pre_metric[pg->index]] = y;
		n = report_precondition_count(rep->runs[i].res);
		n = n < max ? n : max;
		report_precondition_points(rep->runs[i].res, 1u << pre_metric[pg->index], x, v, n);
		return n;
	}
	struct xy *p = malloc((grp->nrows ? grp->nrows : 1) * sizeof(*p));
	if (!p)
		return 0;
	for (unsigned r = 0, k = 0; r < grp->nrows && n < max; r++) {
		unsigned row = grp->first_row + r;
		if (rep->rows[row].dir != DIR_ALL || rep->rows[row].stream)
			continue;
		const struct result_step *st = stream_of(rep->rows[row].steps[i], c->stream);
		if (pg->kind == PG_LADDER && c->stream < 0) {
			struct report_cell cell = report_cell(rep, row, i, m);
			p[n++] = (struct xy){k, cell.present ? cell.value : NAN};
		} else if (pg->kind == PG_LADDER) {
			/* a stream has the I/O metrics; the drive's belong to the step */
			bool io = (1u << m) & REPORT_IO_METRICS;
			p[n++] = (struct xy){k, st && io && st->summary.d[DIR_ALL].ios
							? report_metric_value(m, &st->summary.d[DIR_ALL])
							: NAN};
		} else if (st && st->summary.d[DIR_ALL].ios) {
			p[n++] = (struct xy){st->summary.d[DIR_ALL].iops,
					     st->summary.d[DIR_ALL].mean_ns / 1e6};
		}
		k++;
	}
	qsort(p, n, sizeof(*p), cmp_xy);
	for (unsigned k = 0; k < n; k++) {
		x[k] = p[k].x;
		y[k] = p[k].y;
	}
	free(p);
	return n;
}

/* The first and last category names of a ladder page, for its x axis. */
static const char *ladder_cat(const struct report *rep, unsigned g, bool last)
{
	const struct report_group *grp = &rep->groups[g];
	const char *name = "";

	for (unsigned r = 0; r < grp->nrows; r++) {
		const struct report_row *row = &rep->rows[grp->first_row + r];
		if (row->dir != DIR_ALL || row->stream)
			continue;
		name = row->name;
		if (!last)
			break;
	}
	return name;
}

/*
 * The legend: each curve in its colour, named by its run ("run total" when the run has
 * streams too) or "run / stream"; with one run, the streams by their names alone.
 */
static void legend(struct app *a, int y, const struct report *rep, const struct curve *c,
		   unsigned n)
{
	char name[300];
	int lx = 3;

	for (unsigned i = 0; i < n && lx < a->cols - 4; i++) {
		const char *run = rep->runs[c[i].run].label;
		bool split = i + 1 < n && c[i + 1].run == c[i].run && c[i + 1].stream >= 0;
		if (c[i].stream < 0)
			snprintf(name, sizeof(name), "%s%s", run, split ? " total" : "");
		else if (rep->nruns == 1)
			snprintf(name, sizeof(name), "%s", c[i].label);
		else
			snprintf(name, sizeof(name), "%s / %s", run, c[i].label);
		lx += ui_text(a, y, lx, a->cols - lx - 1, drive_role[i], a->g->bar);
		lx += ui_text(a, y, lx, a->cols - lx - 1, drive_role[i], " ");
		lx += ui_text(a, y, lx, a->cols - lx - 1, ROLE_NORMAL, name);
		lx += ui_text(a, y, lx, a->cols - lx - 1, ROLE_NORMAL, "   ");
	}
}

void charts_draw(struct app *a, const struct report *rep, unsigned *page, int top, int bottom)
{
	static double xs[CHART_COLS * 8], ys[CHART_COLS * 8], cols[NROLES][CHART_COLS];
	enum report_metric m = (enum report_metric)(a->metric % RM_COUNT);
	unsigned total = charts_count(rep), ncurves;
	struct plot_series s[NROLES];
	struct curve curves[NROLES];
	char title[300], l[64], r[64];
	struct page pg = {PG_PRECONDITION, 0};
	int y = top, gw = a->cols - 14, h = bottom - top - 4;

	if (!total) {
		ui_rule(a, y++, "charts");
		ui_text(a, y, 3, a->cols - 4, ROLE_DIM,
			"nothing to chart: no preconditioning, ladder or rate curve in these runs");
		return;
	}
	if (*page >= total)
		*page = total - 1;
	page_at(rep, *page, &pg);
	const struct report_group *grp = &rep->groups[pg.index];
	if (pg.kind == PG_PRECONDITION) {
		m = pre_metric[pg.index];
		snprintf(title, sizeof(title), "Preconditioning: %s (%s)", report_metric_info[m].title,
			 report_metric_info[m].unit);
	} else if (pg.kind == PG_LADDER) {
		snprintf(title, sizeof(title), "%s: %s (%s)", grp->title, report_metric_info[m].title,
			 report_metric_info[m].unit);
	} else {
		snprintf(title, sizeof(title), "Rate curve: %s, average latency (ms) against IOPS",
			 grp->title);
	}
	char rule[400];
	snprintf(rule, sizeof(rule), "chart %u of %u%s%s", *page + 1, total, a->g->dot, title);
	ui_rule(a, y++, rule);
	ncurves = page_curves(rep, &pg, curves, NROLES);
	legend(a, y++, rep, curves, ncurves);
	if (gw < 16 || h < 3)
		return;
	unsigned cap = plot_capacity((unsigned)gw, a->utf8);
	cap = cap < CHART_COLS ? cap : CHART_COLS;
	/* the x axis spans every run's points: the longest, the largest */
	double x1 = 0;
	unsigned ns = 0;
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < ncurves; i++) {
			unsigned n = page_points(rep, &pg, &curves[i], m, xs, ys, CHART_COLS * 8);
			if (!pass) {
				if (n && xs[n - 1] > x1)
					x1 = xs[n - 1];
				continue;
			}
			if (x1 <= 0)
				x1 = 1;
			resample(xs, ys, n, x1, m == RM_LAT_MAX, cols[i], cap);
			s[ns++] = (struct plot_series){cols[i], cap, drive_role[i], false, NULL};
		}
	if (plot_render(&a->grid, (unsigned)gw, (unsigned)h, a->utf8, s, ns, 0) < 0)
		return;
	ui_plot(a, y, 1, &a->grid);
	bool lat = pg.kind == PG_RATE || m != RM_IOPS;
	enum report_metric ym = pg.kind == PG_RATE ? RM_LAT_AVG : m;
	if (lat)
		report_fmt_value(r, sizeof(r), ym, a->grid.ymax);
	else
		units_fmt_count(r, sizeof(r), a->grid.ymax); /* "50.0M": the scale is short */
	snprintf(l, sizeof(l), "%s %s%s", a->g->tick, r, lat ? " ms" : "");
	ui_text(a, y, 1 + gw, a->cols - gw - 2, ROLE_AXIS, l);
	snprintf(l, sizeof(l), "%s 0", a->g->tick);
	ui_text(a, y + h - 1, 1 + gw, a->cols - gw - 2, ROLE_AXIS, l);
	y += h;
	for (int i = 0; i < gw; i++)
		ui_text(a, y, 1 + i, 1, ROLE_AXIS, a->g->hline);
	if (pg.kind == PG_PRECONDITION) {
		snprintf(l, sizeof(l), "%s0 ", a->g->tick);
		snprintf(r, sizeof(r), " %s %s", units_fmt_duration(title, sizeof(title),
								     (uint64_t)(x1 * 1e9)),
			 a->g->tick);
	} else if (pg.kind == PG_LADDER) {
		snprintf(l, sizeof(l), "%s%s ", a->g->tick, ladder_cat(rep, pg.index, false));
		snprintf(r, sizeof(r), " %s%s", ladder_cat(rep, pg.index, true), a->g->tick);
	} else {
		snprintf(l, sizeof(l), "%s0 IOPS ", a->g->tick);
		snprintf(r, sizeof(r), " %s IOPS%s", units_fmt_count(title, sizeof(title), x1),
			 a->g->tick);
	}
	ui_text(a, y, 1, gw, ROLE_AXIS, l);
	ui_text_right(a, y, 1, gw, ROLE_AXIS, r);
}
