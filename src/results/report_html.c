// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HTML: one self-contained file (inline CSS and SVG, no scripts, nothing fetched) laid
 * out like a published drive review: the runs, the notes, preconditioning over time per
 * metric with one line per drive, single-step sections as grouped horizontal bars, each
 * ladder per metric as a chart and a table, a latency percentile chart per step, rate
 * curves as latency against IOPS, and SNIA-style block size x mix matrices as tables.
 * Series come from the report model (report_bars, report_exceedance, report_cell).
 *
 * The charts are drawn by report_svg.c (report_svg.h): every series has its own colour
 * (Okabe-Ito, safe for colour-blind readers), dash pattern and marker shape, so they
 * stay apart in greyscale. Every axis names its quantity and unit. Each SVG is a
 * well-formed XML document of its own (its own xmlns), and each drive's series is one
 * <g class="series"> element. Ladder charts draw each step's combined row; the rows of
 * a step's streams are in the tables under them.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"
#include "report_svg.h"
#include "result_io.h"
#include "text.h"
#include "units.h"
#include "version.h"

/* A line chart in its figure, its files named by section and what (report_html.h). 0 or -errno. */
static int figure(FILE *out, const struct report *rep, const struct chart *c, const char *section,
		  const char *what)
{
	fputs("<figure>\n", out);
	int ret = html_svg(out, rep, svg_chart, c, section, what);
	fputs("</figure>\n", out);
	return ret;
}

/* Every string that reaches the page, from a result or not, goes through text.h. */
static void esc(FILE *out, const char *s)
{
	text_fput_xml(out, s);
}

/* <tag>text</tag>, the text escaped */
static void tagged(FILE *out, const char *tag, const char *text)
{
	fprintf(out, "<%s>", tag);
	esc(out, text);
	fprintf(out, "</%s>", tag);
}

/* A list item: "label: text", or the text alone (label NULL). */
static void li(FILE *out, const char *label, const char *text)
{
	fputs("<li>", out);
	if (label) {
		esc(out, label);
		fputs(": ", out);
	}
	esc(out, text);
	fputs("</li>\n", out);
}

/* ---- tables ---------------------------------------------------------------------- */

static void html_table(FILE *out, const struct report_table *t)
{
	fputs("<table class=\"data\">\n<thead><tr><th>step</th>", out);
	for (unsigned c = 0; c < t->ncols; c++)
		tagged(out, "th", t->col_names[c]);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (unsigned r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		tagged(out, "th", t->row_names[r]);
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + c];
			char v[128], rated[160];
			if (!cell->present) {
				fputs("<td>-</td>", out);
				continue;
			}
			report_fmt_value(v, sizeof(v), t->metric, cell->value);
			if (cell->warned)
				snprintf(v + strlen(v), sizeof(v) - strlen(v),
					 " <span class=\"warn\" title=\"see the notes\">" REPORT_WARN_MARK
					 "</span>");
			if (cell->rated > 0) {
				report_fmt_rating(rated, sizeof(rated), t->metric, cell);
				fprintf(out, "<td title=\"");
				esc(out, rated);
				fprintf(out,
					"\">%s <span class=\"rated\">(%.0f%% of rated)</span></td>",
					v, cell->pct_of_rated);
			} else {
				fprintf(out, "<td>%s</td>", v);
			}
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* ---- sections -------------------------------------------------------------------- */

/* The run's target path, or every one of a run on several: "/dev/a, /dev/b". */
static const char *run_targets(const struct result *r, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < result_ntargets(r) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 result_nth_target(r, i)->path);
	return buf;
}

static void section_runs(FILE *out, const struct report *rep)
{
	fputs("<h2>Runs</h2>\n<table class=\"runs\">\n<thead><tr><th>#</th><th>drive</th>"
	      "<th>firmware</th><th>capacity</th><th>target</th><th>preset</th><th>scale</th>"
	      "<th>host</th><th>started</th><th>status</th><th>file</th></tr></thead>\n"
	      "<tbody>\n",
	      out);
	for (unsigned i = 0; i < rep->nruns; i++) {
		const struct result *r = rep->runs[i].res;
		const char *cpu = r->host_summary.cpu;
		char cap[32] = "", targets[1024], scale[32];
		const char *cells[10];

		if (result_capacity_bytes(r))
			units_fmt_capacity_compact(cap, sizeof(cap), result_capacity_bytes(r));
		cells[0] = rep->runs[i].label;
		cells[1] = result_drive_firmware(r);
		cells[2] = cap;
		cells[3] = run_targets(r, targets, sizeof(targets));
		cells[4] = r->preset_name[0] ? r->preset_name : "(ad hoc)";
		report_fmt_scale(scale, sizeof(scale), r->scale);
		cells[5] = scale;
		cells[6] = r->host_summary.hostname;
		cells[7] = r->started;
		cells[8] = result_status_name[r->status];
		cells[9] = r->path;
		fprintf(out,
			"<tr><td><span class=\"swatch\" style=\"background:%s\"></span>%u</td>",
			svg_colour(i), i + 1);
		for (unsigned c = 0; c < 10; c++) {
			fputs(c == 6 && cpu[0] ? "<td title=\"" : "<td>", out);
			if (c == 6 && cpu[0]) {
				esc(out, cpu);
				fputs("\">", out);
			}
			esc(out, cells[c]);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (rep->nnotes) {
		fputs("<h2>Notes</h2>\n<ul class=\"notes\">\n", out);
		for (unsigned i = 0; i < rep->nnotes; i++)
			li(out, NULL, rep->notes[i]);
		fputs("</ul>\n", out);
	}
}

/*
 * Long preconditioning (6 h at 1 s) has far more points than a chart has pixels: merge
 * neighbours into at most `keep` points of ox[], oy[], keeping the peak for max latency
 * (the spikes are the point of that chart) and the mean otherwise.
 */
static unsigned thin(double *ox, double *oy, const double *x, const double *y, unsigned n,
		     unsigned keep, bool peak)
{
	if (n <= keep) {
		memcpy(ox, x, n * sizeof(*x));
		memcpy(oy, y, n * sizeof(*y));
		return n;
	}
	unsigned out = 0;
	for (unsigned b = 0; b < keep; b++) {
		unsigned lo = (unsigned)((uint64_t)b * n / keep),
			 hi = (unsigned)((uint64_t)(b + 1) * n / keep);
		double sum = 0, best = NAN;
		unsigned cnt = 0;
		for (unsigned i = lo; i < hi; i++) {
			if (!isfinite(y[i]))
				continue;
			sum += y[i];
			cnt++;
			best = isnan(best) || y[i] > best ? y[i] : best;
		}
		ox[out] = x[hi - 1];
		oy[out] = cnt ? (peak ? best : sum / cnt) : NAN;
		out++;
	}
	return out;
}

#define CHART_POINTS 600 /* a series is thinned to this many points */

/* Each run's points, every metric thinned: series[run * RM_COUNT + metric]. */
static int precondition_series(const struct report *rep, struct series *series)
{
	unsigned mask = rep->metric_mask & REPORT_IO_METRICS; /* the samples' own */

	for (unsigned i = 0; i < rep->nruns; i++) {
		const struct result *r = rep->runs[i].res;
		unsigned n = report_precondition_count(r);
		double *t, *v[RM_COUNT] = {0};
		int ret = 0;

		if (!n)
			continue;
		t = malloc(n * sizeof(*t));
		for (unsigned m = 0; m < RM_COUNT; m++)
			if (mask & (1u << m) && !(v[m] = malloc(n * sizeof(double))))
				ret = -ENOMEM;
		if (t && !ret) {
			report_precondition_points(r, mask, t, v, n);
			for (unsigned m = 0; m < RM_COUNT && !ret; m++) {
				struct series *se = &series[i * RM_COUNT + m];
				if (!(mask & (1u << m)))
					continue;
				/* a chart's worth of points is all a series keeps */
				ret = svg_series_alloc(se, rep->runs[i].label,
						   n < CHART_POINTS ? n : CHART_POINTS);
				if (ret)
					break;
				se->n = thin(se->x, se->y, t, v[m], n, CHART_POINTS,
					     m == RM_LAT_MAX);
			}
		} else {
			ret = -ENOMEM;
		}
		free(t);
		for (unsigned m = 0; m < RM_COUNT; m++)
			free(v[m]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Each run's CPU use over the compared steps, when the runs recorded it. */
static void section_cpu(FILE *out, const struct report *rep)
{
	bool any = false;

	for (unsigned i = 0; i < rep->nruns; i++) {
		char s[512];
		if (!report_run_cpu_text(s, sizeof(s), rep, i))
			continue;
		if (!any)
			fputs("<h2>CPU use</h2>\n<ul class=\"notes\">\n", out);
		any = true;
		li(out, rep->runs[i].label, s);
	}
	if (any)
		fputs("</ul>\n", out);
}

static int section_precondition(FILE *out, const struct report *rep)
{
	unsigned with = 0;
	struct series *all;
	int ret = 0;

	for (unsigned i = 0; i < rep->nruns; i++)
		with += report_precondition_count(rep->runs[i].res) > 0;
	if (!with)
		return 0;
	fputs("<h2>Preconditioning</h2>\n<ul class=\"notes\">\n", out);
	for (unsigned i = 0, p = 0; report_next_precondition(rep, &i, &p); p++) {
		char s[512];
		li(out, rep->runs[i].label,
		   report_phase_summary(s, sizeof(s), &rep->runs[i].res->phases[p]));
	}
	fputs("</ul>\n", out);

	all = calloc((size_t)rep->nruns * RM_COUNT, sizeof(*all));
	if (!all)
		return -ENOMEM;
	ret = precondition_series(rep, all);
	for (unsigned m = 0; m < RM_COUNT && !ret; m++) {
		if (!(rep->metric_mask & REPORT_IO_METRICS & (1u << m)))
			continue;
		struct chart c = {.markers = false};
		double tmax = 0;

		c.series = calloc(rep->nruns, sizeof(*c.series));
		if (!c.series) {
			ret = -ENOMEM;
			break;
		}
		/* the runs' series, lent to the chart (and freed with `all`) */
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct series *se = &all[i * RM_COUNT + m];
			if (!se->x)
				continue;
			c.series[c.nseries++] = *se;
			for (unsigned k = 0; k < se->n; k++)
				tmax = fmax(tmax, se->x[k]);
		}
		/* time in the unit that keeps tick labels short */
		double div = tmax >= 7200 ? 3600 : tmax >= 120 ? 60 : 1;
		for (unsigned s = 0; s < c.nseries; s++)
			for (unsigned k = 0; k < c.series[s].n; k++)
				c.series[s].x[k] /= div;
		snprintf(c.title, sizeof(c.title), "Preconditioning: %s",
			 report_metric_info[m].title);
		snprintf(c.xlabel, sizeof(c.xlabel), "Time (%s)",
			 div == 3600 ? "hours"
			 : div == 60 ? "minutes"
				     : "seconds");
		snprintf(c.ylabel, sizeof(c.ylabel), "%s (%s)", report_metric_info[m].title,
			 report_metric_info[m].unit);
		ret = figure(out, rep, &c, "Preconditioning", report_metric_info[m].name);
		free(c.series);
	}
	svg_series_free(all, rep->nruns * RM_COUNT);
	return ret;
}

/*
 * A chart's series from the model: one per run, its value in each of the rows (c->ncats
 * of them) at x = 0, 1, ... (NAN where the run has none). 0 or -ENOMEM.
 */
static int cell_series(const struct report *rep, struct chart *c, const unsigned *rows,
		       enum report_metric m)
{
	int ret = 0;

	c->series = calloc(rep->nruns, sizeof(*c->series));
	if (!c->series)
		return -ENOMEM;
	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		struct series *se = &c->series[c->nseries++];
		ret = svg_series_alloc(se, rep->runs[i].label, c->ncats);
		for (unsigned k = 0; k < c->ncats && !ret; k++) {
			struct report_cell cell = report_cell(rep, rows[k], i, m);
			se->x[k] = k;
			se->y[k] = cell.present ? cell.value : NAN;
			if (cell.warned)
				ret = svg_series_warn(se, k, rep->rows[rows[k]].steps[i]);
		}
		se->n = se->warn ? c->ncats : 0; /* the warnings to free, on failure too */
	}
	return ret;
}

/* Single-step sections as grouped bars, one chart per set and metric (report_bars). */
static int section_bars(FILE *out, const struct report *rep)
{
	struct report_bars *sets;
	unsigned nsets;
	int ret = report_bars(rep, &sets, &nsets);

	for (unsigned b = 0; b < nsets && !ret; b++) {
		const char **cats = malloc(sets[b].ncats * sizeof(*cats));
		if (!cats) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned k = 0; k < sets[b].ncats; k++)
			cats[k] = sets[b].cats[k];
		fputs("<h2>", out);
		esc(out, sets[b].title);
		fputs("</h2>\n", out);
		for (unsigned m = 0; m < RM_COUNT && !ret; m++) {
			if (!(rep->metric_mask & (1u << m)))
				continue;
			struct chart c = {.xcats = cats, .ncats = sets[b].ncats, .metric = m};
			ret = cell_series(rep, &c, sets[b].rows, (enum report_metric)m);
			if (ret == -ENOMEM && !c.series)
				break;
			snprintf(c.title, sizeof(c.title), "%s: %s", sets[b].title,
				 report_metric_info[m].title);
			snprintf(c.xlabel, sizeof(c.xlabel), "%s (%s)", report_metric_info[m].title,
				 report_metric_info[m].unit);
			if (!ret) {
				fputs("<figure>\n", out);
				ret = html_svg(out, rep, svg_bars, &c, sets[b].title,
					       report_metric_info[m].name);
				fputs("</figure>\n", out);
			}
			svg_series_free(c.series, c.nseries);
		}
		free(cats);
	}
	report_bars_free(sets, nsets);
	return ret;
}

/*
 * " codes: note" for a table's or chart's caption when bits or unknown (classed
 * not-comparable, or not-known when nothing differs); nothing when both are 0.
 */
static void differ_span(FILE *out, unsigned bits, unsigned unknown, const char *note)
{
	char codes[256];

	if (!bits && !unknown)
		return;
	fputs(bits ? " <span class=\"warn not-comparable\">" : " <span class=\"warn not-known\">",
	      out);
	esc(out, report_differ_codes(codes, sizeof(codes), bits, unknown, " "));
	fputs("</span>: ", out);
	esc(out, note ? note : "");
}

/*
 * A step's latency percentiles, one curve per drive (report_exceedance), log on log,
 * captioned not-comparable when its group's percentiles are of other kinds (not-known
 * when some of its steps do not know a field of percentiles the others do).
 */
static int exceed_chart(FILE *out, const struct report *rep, unsigned row, bool *heading)
{
	struct chart c = {.ylog = true, .xnines = true};
	unsigned with = 0;
	int ret = 0;

	c.series = calloc(rep->nruns, sizeof(*c.series));
	if (!c.series)
		return -ENOMEM;
	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		struct report_exceed e;
		ret = report_exceedance(rep, row, i, &e);
		if (ret || !e.n)
			continue;
		struct series *se = &c.series[c.nseries++];
		ret = svg_series_alloc(se, rep->runs[i].label, e.n);
		for (unsigned k = 0; k < e.n && !ret; k++) {
			se->x[se->n] = e.nines[k];
			se->y[se->n++] = log10(fmax(e.lat_ms[k], 1e-6));
		}
		with++;
		report_exceed_free(&e);
	}
	if (!ret && with) {
		const struct report_row *r = &rep->rows[row];
		snprintf(c.title, sizeof(c.title), "Latency percentiles: %s %s",
			 rep->groups[r->group].title, r->name);
		snprintf(c.xlabel, sizeof(c.xlabel), "Percentile (%%, log scale of 1 - percentile)");
		snprintf(c.ylabel, sizeof(c.ylabel), "Latency (ms, log scale)");
		if (!*heading)
			fputs("<h3>Latency percentiles</h3>\n", out);
		*heading = true;
		char what[192];
		const char *how;
		unsigned unknown,
			bits = report_differ(rep, r->group, REPORT_PCT_METRICS, &unknown, &how);
		snprintf(what, sizeof(what), "percentiles %s", r->name);
		fputs("<figure class=\"percentiles\">\n", out);
		ret = html_svg(out, rep, svg_chart, &c, rep->groups[r->group].title, what);
		if (bits || unknown) {
			fputs("<figcaption>", out);
			esc(out, c.title);
			differ_span(out, bits, unknown, how);
			fputs("</figcaption>\n", out);
		}
		fputs("</figure>\n", out);
	}
	svg_series_free(c.series, c.nseries);
	return ret;
}

/* A ladder: per metric, one line per drive over the group's combined rows, and the table. */
static int section_group(FILE *out, const struct report *rep, unsigned g)
{
	const struct report_group *grp = &rep->groups[g];
	const char **cats = calloc(grp->nrows ? grp->nrows : 1, sizeof(*cats));
	unsigned *rows = calloc(grp->nrows ? grp->nrows : 1, sizeof(*rows));
	unsigned ncats = 0;
	int ret = 0;

	if (!cats || !rows) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned r = 0; r < grp->nrows; r++)
		/* the steps' combined rows; their streams are in the tables */
		if (rep->rows[grp->first_row + r].dir == DIR_ALL &&
		    !rep->rows[grp->first_row + r].stream) {
			rows[ncats] = grp->first_row + r;
			cats[ncats++] = rep->rows[grp->first_row + r].name;
		}
	bool single = report_group_single(rep, g);
	fputs("<h2>", out);
	esc(out, grp->title);
	fputs("</h2>\n", out);
	for (unsigned m = 0; m < RM_COUNT && !ret; m++) {
		if (!(rep->metric_mask & (1u << m)))
			continue;
		struct report_table t;
		struct chart c = {.xcats = cats, .ncats = ncats, .markers = true};

		ret = cell_series(rep, &c, rows, (enum report_metric)m);
		if (ret == -ENOMEM && !c.series)
			break;
		snprintf(c.title, sizeof(c.title), "%s: %s", grp->title,
			 report_metric_info[m].title);
		snprintf(c.xlabel, sizeof(c.xlabel), "Threads x queue depth per thread (T/Q)");
		snprintf(c.ylabel, sizeof(c.ylabel), "%s (%s)", report_metric_info[m].title,
			 report_metric_info[m].unit);
		if (!ret) {
			/* a single step is a bar in the section's bar chart, not a line */
			fputs("<figure>\n", out);
			if (!single)
				ret = html_svg(out, rep, svg_chart, &c, grp->title,
					       report_metric_info[m].name);
			if (!ret)
				ret = report_table(rep, (enum report_metric)m, g, &t);
		}
		svg_series_free(c.series, c.nseries);
		if (ret)
			break;
		fputs("<figcaption>", out);
		esc(out, t.title);
		differ_span(out, t.differ, t.unknown, t.differ_note);
		fputs("</figcaption>\n", out);
		html_table(out, &t);
		fputs("</figure>\n", out);
		report_table_free(&t);
	}
	bool heading = false;
	for (unsigned k = 0; k < ncats && !ret; k++)
		ret = exceed_chart(out, rep, rows[k], &heading);
out:
	free(cats);
	free(rows);
	return ret;
}

static bool measuring(const struct result_phase *ph)
{
	return ph->kind == PH_MEASURE || ph->kind == PH_RUN;
}

/* A rate curve's title: the workload without threads, queue depth and rate, then T/Q. */
/* One point of a rate curve: a run's rate-limited step, and the curve it belongs to. */
struct curve_point {
	unsigned curve; /* index into the titles, in order of first use */
	unsigned run;
	unsigned order; /* the step's place in its run: points are drawn in this order */
	double iops, lat_ms;
	const struct result_step *step; /* its warnings mark the point */
};

static int cmp_point(const void *a, const void *b)
{
	const struct curve_point *x = a, *y = b;

	if (x->curve != y->curve)
		return x->curve < y->curve ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/*
 * Rate curves: each run's rate-limited steps of one curve (a workload, or a curve a preset
 * names: its streams' phase, "sql 90-10") as average latency against
 * the IOPS it delivered. Rates are often a share of each drive's own maximum, so the
 * points do not line up across drives: curves come from every run's own steps. Steps
 * are sorted into curves once (a hash of titles, then a sort), not searched per curve.
 * Each run's points are joined in the order its steps ran, with a marker on each: a
 * 110% step that delivered less than the 100% one shows as the line turning back, which
 * sorting by IOPS would hide. A step with warnings marks its point, as on a ladder.
 */
static int section_rate_curves(FILE *out, const struct report *rep)
{
	char(*titles)[128] = NULL;
	unsigned ntitles = 0, npoints = 0, total = 0;
	struct curve_point *pts = NULL;
	unsigned *slot = NULL; /* title hash -> title index + 1 */
	bool *named = NULL;    /* by title: a preset's named curve */
	size_t mask = 15, h;   /* h: a title's slot */
	int ret = 0;

	for (unsigned i = 0; i < rep->nruns; i++)
		total += result_nsteps(rep->runs[i].res);
	while (mask < 2 * (size_t)total + 2)
		mask = mask * 2 + 1;
	titles = malloc((total ? total : 1) * sizeof(*titles));
	named = calloc(total ? total : 1, sizeof(*named));
	pts = malloc((total ? total : 1) * sizeof(*pts));
	slot = calloc(mask + 1, sizeof(*slot));
	if (!titles || !named || !pts || !slot) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < rep->nruns; i++) {
		const struct result *r = rep->runs[i].res;
		unsigned order = 0;
		for (unsigned p = 0; p < r->nphases; p++)
			for (unsigned s = 0; measuring(&r->phases[p]) && s < r->phases[p].nsteps;
			     s++) {
				const struct result_step *st = &r->phases[p].steps[s];
				char t[128];
				if (!st->wl.rate_iops)
					continue;
				bool nm = report_curve_title(t, sizeof(t), &r->phases[p], st);
				for (h = hash_str(t) & mask;
				     slot[h] && strcmp(titles[slot[h] - 1], t); h = (h + 1) & mask)
					;
				if (!slot[h]) {
					snprintf(titles[ntitles], sizeof(titles[0]), "%s", t);
					named[ntitles] = nm;
					slot[h] = ++ntitles;
				}
				if (!st->summary.d[DIR_ALL].ios)
					continue;
				pts[npoints++] = (struct curve_point){
					.curve = slot[h] - 1,
					.run = i,
					.order = order++,
					.iops = st->summary.d[DIR_ALL].iops,
					.lat_ms = st->summary.d[DIR_ALL].mean_ns / 1e6,
					.step = st,
				};
			}
	}
	qsort(pts, npoints, sizeof(*pts), cmp_point);
	if (ntitles)
		fputs("<h2>Rate curves</h2>\n", out);
	for (unsigned k = 0, at = 0; k < ntitles && !ret; k++) {
		struct chart c = {.markers = true};
		/* the legend's names live as long as the chart: a series keeps a pointer */
		char(*names)[300] = calloc(rep->nruns, sizeof(*names));
		c.series = calloc(rep->nruns, sizeof(*c.series));
		if (!c.series || !names) {
			free(c.series);
			free(names);
			ret = -ENOMEM;
			break;
		}
		/* this curve's points, run by run, each run's in step order */
		while (at < npoints && pts[at].curve == k && !ret) {
			unsigned run = pts[at].run, end = at;
			while (end < npoints && pts[end].curve == k && pts[end].run == run)
				end++;
			char *name = names[c.nseries];
			struct series *se = &c.series[c.nseries++];
			/* a named curve keeps its name in the legend, beside the run's */
			snprintf(name, sizeof(names[0]), "%s%s%s", rep->runs[run].label,
				 named[k] ? " \u00b7 " : "", named[k] ? titles[k] : "");
			ret = svg_series_alloc(se, name, end - at);
			for (unsigned q = at; q < end && !ret; q++) {
				se->x[se->n] = pts[q].iops;
				se->y[se->n] = pts[q].lat_ms;
				ret = svg_series_warn(se, se->n++, pts[q].step);
			}
			at = end;
		}
		snprintf(c.title, sizeof(c.title), "Rate curve: %s", titles[k]);
		snprintf(c.xlabel, sizeof(c.xlabel), "Throughput (IOPS)");
		snprintf(c.ylabel, sizeof(c.ylabel), "Average latency (ms)");
		if (!ret)
			ret = figure(out, rep, &c, "Rate curve", titles[k]);
		svg_series_free(c.series, c.nseries);
		free(names);
	}
out:
	free(titles);
	free(named);
	free(pts);
	free(slot);
	return ret;
}

static const char css[] =
	"body{font-family:Georgia,'Times New Roman',serif;max-width:64em;margin:2em auto;"
	"padding:0 1em;color:#111;background:#fff;line-height:1.4}\n"
	"h1,h2,figcaption,table{font-family:Helvetica,Arial,sans-serif}\n"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #999}\n"
	"table{border-collapse:collapse;font-size:.85em;margin:.5em 0 1.5em}\n"
	"th,td{border:1px solid #bbb;padding:.2em .5em}td{text-align:right}\n"
	"table.runs td{text-align:left}thead th{background:#eee}tbody th{text-align:left;"
	"font-weight:normal;background:#f7f7f7}\n"
	".rated{color:#555;font-size:.85em}.warn{color:#b00;font-weight:bold}.swatch{display:inline-block;width:.8em;height:.8em;"
	"margin-right:.4em;vertical-align:middle}\n"
	"figure{margin:1em 0 2em;page-break-inside:avoid;break-inside:avoid}\n"
	"figure svg{max-width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.9em;margin:.3em 0;font-weight:bold}\n"
	"footer{margin-top:3em;font-size:.8em;color:#555}\n"
	"nav.toc ol{columns:2;font-family:Helvetica,Arial,sans-serif;font-size:.9em}"
	"p.files{font-size:.8em;margin:.2em 0}\n"
	"@media print{body{max-width:none;margin:0}h2{page-break-after:avoid}"
	".swatch{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* The sections, each under its <h2> (html_page gives them anchors and the contents). */
static int html_body(FILE *out, const struct report *rep)
{
	int ret;

	section_runs(out, rep);
	section_cpu(out, rep);
	ret = section_precondition(out, rep);
	if (!ret)
		ret = section_bars(out, rep);
	/* a group of a matrix's cells, round by round, is in the matrix and its convergence */
	struct report_matrix *mx = NULL;
	if (!ret)
		ret = report_matrices(rep, &mx);
	for (unsigned g = 0; g < rep->ngroups && !ret; g++)
		if (!report_matrices_cover(rep, mx, g))
			ret = section_group(out, rep, g);
	report_matrices_free(mx, rep->nruns);
	if (!ret)
		ret = section_rate_curves(out, rep);
	if (!ret)
		ret = html_section_matrix(out, rep);
	if (!ret)
		ret = html_section_wsat(out, rep);
	if (!ret)
		ret = report_app_html(rep, out);
	return ret;
}

int report_render_html(const struct report *rep, FILE *out)
{
	char *body = NULL;
	size_t len = 0;
	FILE *mem;
	int ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"generator\" content=\"drivebench " DB_VERSION "\"/>\n<title>",
	      out);
	esc(out, rep->title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	esc(out, rep->title);
	fputs("</h1>\n", out);
	if (!(mem = open_memstream(&body, &len)))
		return -errno;
	ret = html_body(mem, rep);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = html_page(out, body, len);
	free(body);
	fputs("<footer>Made with drivebench " DB_VERSION
	      ". Latencies are total latencies (from before submission to completion, fio's "
	      "lat) unless a step's definition says completion-only (fio's clat, without "
	      "the submission); a table that mixes kinds is marked not-comparable. "
	      "Throughput is read and write combined unless a row says read or write."
	      "</footer>\n</body>\n</html>\n",
	      out);
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}
