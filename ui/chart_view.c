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

/* The k-th page (k < charts_count()); quad: the preconditioning's four metrics one page. */
static bool page_at(const struct report *rep, unsigned k, bool quad, struct page *pg)
{
	if (has_precondition(rep)) {
		unsigned npre = quad ? 1 : NPRE;
		if (k < npre) {
			*pg = (struct page){PG_PRECONDITION, k};
			return true;
		}
		k -= npre;
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

unsigned charts_count(const struct report *rep, bool quad)
{
	unsigned n = has_precondition(rep) ? (quad ? 1 : NPRE) : 0;

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
	const struct result_step *warn; /* the step drawn when it has warnings, or NULL */
};

static int cmp_xy(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

/*
 * The preconditioning's n points are its rounds' samples in order (a round without
 * samples one point): a round with warnings is marked on its last.
 */
static void precondition_warnings(const struct result *r, const struct result_step **warn,
				  unsigned n)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		warn[i] = NULL;
	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned s = 0; r->phases[p].kind == PH_PRECONDITION && s < r->phases[p].nsteps;
		     s++) {
			const struct result_step *st = &r->phases[p].steps[s];
			k += st->nsamples ? st->nsamples : 1;
			if (st->nwarnings && k - 1 < n)
				warn[k - 1] = st;
		}
}

/*
 * Curve c's points on the page (x ascending) into x[], y[] (at most max); returns how
 * many. Preconditioning: time (s) and the metric; a ladder: the row's place and the
 * metric; a rate curve: IOPS delivered and average latency (ms).
 */
static unsigned page_points(const struct report *rep, const struct page *pg, const struct curve *c,
			    enum report_metric m, double *x, double *y,
			    const struct result_step **warn, unsigned max)
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
		precondition_warnings(rep->runs[i].res, warn, n);
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
		const struct result_step *w = st && st->nwarnings ? st : NULL;
		if (pg->kind == PG_LADDER && c->stream < 0) {
			struct report_cell cell = report_cell(rep, row, i, m);
			p[n++] = (struct xy){k, cell.present ? cell.value : NAN, w};
		} else if (pg->kind == PG_LADDER) {
			/* a stream has the I/O metrics; the drive's belong to the step */
			bool io = (1u << m) & REPORT_IO_METRICS;
			p[n++] = (struct xy){
				k,
				st && io && st->summary.d[DIR_ALL].ios
					? report_metric_value(m, &st->summary.d[DIR_ALL])
					: NAN,
				w};
		} else if (st && st->summary.d[DIR_ALL].ios) {
			p[n++] = (struct xy){st->summary.d[DIR_ALL].iops,
					     st->summary.d[DIR_ALL].mean_ns / 1e6, w};
		}
		k++;
	}
	qsort(p, n, sizeof(*p), cmp_xy);
	for (unsigned k = 0; k < n; k++) {
		x[k] = p[k].x;
		y[k] = p[k].y;
		warn[k] = p[k].warn;
	}
	free(p);
	return n;
}

/* The name of category k of a ladder page (its k-th step), for its x axis. */
static const char *ladder_cat(const struct report *rep, unsigned g, unsigned k)
{
	const struct report_group *grp = &rep->groups[g];

	for (unsigned r = 0; r < grp->nrows; r++) {
		const struct report_row *row = &rep->rows[grp->first_row + r];
		if (row->dir != DIR_ALL || row->stream)
			continue;
		if (k-- == 0)
			return row->name;
	}
	return "";
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

/* The warning codes marked on a page, each once, for the line under it. */
struct warn_marks {
	char codes[200];
	unsigned n;
};

static void mark_code(struct warn_marks *mk, const char *code)
{
	char want[48];
	size_t used = strlen(mk->codes);

	snprintf(want, sizeof(want), " %s,", code);
	char all[sizeof(mk->codes) + 2];
	snprintf(all, sizeof(all), " %s,", mk->codes);
	if (strstr(all, want) || used + strlen(code) + 3 >= sizeof(mk->codes))
		return;
	snprintf(mk->codes + used, sizeof(mk->codes) - used, "%s%s", mk->n ? ", " : "", code);
	mk->n++;
}

#define LABEL_W 12 /* the scale, right of each plot */

static enum report_metric scale_metric; /* what scale_fmt() formats */

/* A value of scale_metric for its scale: "1.50 ms", "250K", "1200". */
static char *scale_fmt(char *buf, size_t len, double v)
{
	char t[32];

	if (scale_metric == RM_IOPS)
		return units_fmt_count(buf, len, v); /* "50.0M": the scale is short */
	report_fmt_value(t, sizeof(t), scale_metric, v);
	snprintf(buf, len, "%s%s", t,
		 strcmp(report_metric_info[scale_metric].unit, "ms") ? "" : " ms");
	return buf;
}

/*
 * A "!" on each point of curve c whose step has warnings, where the plot just drawn (at
 * y, x; cap columns over [0, x1]) put it; its code into mk.
 */
static void draw_marks(struct app *a, const struct report *rep, const struct page *pg,
		       enum report_metric m, const struct curve *c, double x1, unsigned cap, int y,
		       int x, struct warn_marks *mk)
{
	static double xs[CHART_COLS * 8], ys[CHART_COLS * 8];
	static const struct result_step *ws[CHART_COLS * 8];
	unsigned n = page_points(rep, pg, c, m, xs, ys, ws, CHART_COLS * 8);
	unsigned per = a->utf8 ? 4 : 3, nlevels = per * a->grid.h;

	for (unsigned k = 0; k < n; k++) {
		if (!ws[k] || !isfinite(ys[k]) || x1 <= 0)
			continue;
		unsigned col = (unsigned)(xs[k] / x1 * cap);
		col = col < cap ? col : cap - 1;
		double l = ys[k] / a->grid.ymax * (nlevels - 1);
		unsigned level = l >= nlevels - 1 ? nlevels - 1 : l > 0 ? (unsigned)lround(l) : 0;
		ui_text(a, y + (int)(a->grid.h - 1 - level / per),
			x + (int)(a->utf8 ? col / 2 : col), 1, ROLE_WARNING, REPORT_WARN_MARK);
		for (unsigned w = 0; w < ws[k]->nwarnings; w++)
			mark_code(mk, ws[k]->warnings[w].code);
	}
}

/* The x axis under a chart of page pg (gw cells at y, x; 0 to x1), ticked and labelled. */
static void draw_xaxis(struct app *a, const struct report *rep, const struct page *pg, double x1,
		       int y, int x, int gw)
{
	static bool busy[CHART_COLS];
	char l[160], r[160], v[64];

	gw = gw < CHART_COLS ? gw : CHART_COLS;
	memset(busy, 0, sizeof(busy));
	for (int i = 0; i < gw; i++)
		ui_text(a, y, x + i, 1, ROLE_AXIS, a->g->hline);
	if (pg->kind == PG_LADDER) {
		/* a step's name under each step, where it fits: the ends first */
		unsigned last = (unsigned)lround(x1);
		snprintf(r, sizeof(r), " %s%s", ladder_cat(rep, pg->index, last), a->g->tick);
		ui_axis_label(a, y, x, gw, gw - ui_width(a, r), ROLE_AXIS, r, busy);
		snprintf(l, sizeof(l), "%s%s ", a->g->tick, ladder_cat(rep, pg->index, 0));
		ui_axis_label(a, y, x, gw, 0, ROLE_AXIS, l, busy);
		for (unsigned k = 1; k < last; k++) {
			snprintf(l, sizeof(l), "%s%s", a->utf8 ? "\u2534" : "+",
				 ladder_cat(rep, pg->index, k));
			int at = (int)lround((double)k / x1 * (gw - 1));
			if (!ui_axis_label(a, y, x, gw, at, ROLE_AXIS, l, busy))
				ui_axis_label(a, y, x, gw, at, ROLE_AXIS, a->utf8 ? "\u2534" : "+",
					      busy);
		}
		return;
	}
	bool time = pg->kind == PG_PRECONDITION;
	if (time)
		ui_fmt_secs(v, sizeof(v), x1);
	else
		units_fmt_count(v, sizeof(v), x1);
	snprintf(r, sizeof(r), " %s%s%s", v, time ? " " : " IOPS", a->g->tick);
	ui_axis_label(a, y, x, gw, gw - ui_width(a, r), ROLE_AXIS, r, busy);
	snprintf(l, sizeof(l), "%s0%s ", a->g->tick, time ? "" : " IOPS");
	ui_axis_label(a, y, x, gw, 0, ROLE_AXIS, l, busy);
	ui_axis_ticks(a, y, x, gw, x1, time, false, time ? ui_fmt_secs : units_fmt_count, busy);
}

/*
 * One chart of page pg in metric m in the box at (y, x), w wide and h high: the curves,
 * their scale on the right, the x axis on the box's last row, warning marks on the points.
 */
static void draw_box(struct app *a, const struct report *rep, const struct page *pg,
		     enum report_metric m, const struct curve *curves, unsigned ncurves, int y,
		     int x, int w, int h, struct warn_marks *mk)
{
	static double xs[CHART_COLS * 8], ys[CHART_COLS * 8], cols[NROLES][CHART_COLS];
	static const struct result_step *ws[CHART_COLS * 8];
	struct plot_series s[NROLES];
	int gw = w - LABEL_W, ph = h - 1;
	unsigned ns = 0;

	if (gw < 16 || ph < 2)
		return;
	unsigned cap = plot_capacity((unsigned)gw, a->utf8);
	cap = cap < CHART_COLS ? cap : CHART_COLS;
	/* the x axis spans every run's points: the longest, the largest */
	double x1 = 0;
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < ncurves; i++) {
			unsigned n =
				page_points(rep, pg, &curves[i], m, xs, ys, ws, CHART_COLS * 8);
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
	if (plot_render(&a->grid, (unsigned)gw, (unsigned)ph, a->utf8, s, ns, 0) < 0)
		return;
	ui_plot(a, y, x, &a->grid);
	for (unsigned i = 0; i < ncurves; i++)
		draw_marks(a, rep, pg, m, &curves[i], x1, cap, y, x, mk);
	scale_metric = pg->kind == PG_RATE ? RM_LAT_AVG : m;
	ui_yscale(a, y, x + gw, w - gw, ph, a->grid.ymax, scale_fmt);
	draw_xaxis(a, rep, pg, x1, y + ph, x, gw);
}

/* The four metrics of the page, two by two; a rate curve as the ladder of its steps. */
static void draw_quad(struct app *a, const struct report *rep, const struct page *pg,
		      const struct curve *curves, unsigned ncurves, int y, int h,
		      struct warn_marks *mk)
{
	int hw = (a->cols - 2) / 2, hh = h / 2;

	for (unsigned q = 0; q < NPRE; q++) {
		struct page p = *pg;
		int y0 = y + (int)(q / 2) * hh, x0 = 1 + (int)(q % 2) * hw;
		if (p.kind == PG_PRECONDITION)
			p.index = q;
		else
			p.kind = PG_LADDER;
		ui_textf(a, y0, x0, hw - 1, ROLE_LABEL, "%s (%s)",
			 report_metric_info[pre_metric[q]].title,
			 report_metric_info[pre_metric[q]].unit);
		draw_box(a, rep, &p, pre_metric[q], curves, ncurves, y0 + 1, x0, hw - 2, hh - 1,
			 mk);
	}
}

void charts_quad(struct app *a, const struct report *rep)
{
	bool pre = has_precondition(rep);

	/* the same test stays in view: the preconditioning's pages are one in the 2x2 view */
	if (pre && !a->chart_quad)
		a->chart_pages.sel = a->chart_pages.sel < NPRE ? 0 : a->chart_pages.sel - NPRE + 1;
	else if (pre)
		a->chart_pages.sel = a->chart_pages.sel ? a->chart_pages.sel + NPRE - 1 : 0;
	a->chart_quad = !a->chart_quad;
}

void charts_draw(struct app *a, const struct report *rep, struct ui_list *pages, int top,
		 int bottom)
{
	enum report_metric m = (enum report_metric)(a->metric % RM_COUNT);
	unsigned total = charts_count(rep, a->chart_quad), ncurves;
	struct curve curves[NROLES];
	struct warn_marks mk = {"", 0};
	char title[300], rule[400];
	struct page pg = {PG_PRECONDITION, 0};
	int y = top;

	if (!total) {
		ui_rule(a, y++, "charts");
		ui_text(a, y, 3, a->cols - 4, ROLE_DIM,
			"nothing to chart: no preconditioning, ladder or rate curve in these runs");
		return;
	}
	ui_list_count(pages, total);
	page_at(rep, pages->sel, a->chart_quad, &pg);
	const struct report_group *grp = &rep->groups[pg.index];
	if (a->chart_quad) {
		snprintf(title, sizeof(title), "%s: four metrics",
			 pg.kind == PG_PRECONDITION ? "Preconditioning" : grp->title);
	} else if (pg.kind == PG_PRECONDITION) {
		m = pre_metric[pg.index];
		snprintf(title, sizeof(title), "Preconditioning: %s (%s)",
			 report_metric_info[m].title, report_metric_info[m].unit);
	} else if (pg.kind == PG_LADDER) {
		snprintf(title, sizeof(title), "%s: %s (%s)", grp->title,
			 report_metric_info[m].title, report_metric_info[m].unit);
	} else {
		snprintf(title, sizeof(title), "Rate curve: %s, average latency (ms) against IOPS",
			 grp->title);
	}
	snprintf(rule, sizeof(rule), "chart %u of %u%s%s", pages->sel + 1, total, a->g->dot, title);
	ui_rule(a, y++, rule);
	ncurves = page_curves(rep, &pg, curves, NROLES);
	legend(a, y++, rep, curves, ncurves);
	/* the charts, and a line under them for the warnings their marks stand for */
	if (a->chart_quad)
		draw_quad(a, rep, &pg, curves, ncurves, y, bottom - y - 1, &mk);
	else
		draw_box(a, rep, &pg, m, curves, ncurves, y, 1, a->cols - 2, bottom - y - 1, &mk);
	if (mk.n)
		ui_textf(
			a, bottom - 1, 3, a->cols - 4, ROLE_WARNING,
			"%s on a step with warnings: %s (the comparison's notes say what they are)",
			REPORT_WARN_MARK, mk.codes);
}
