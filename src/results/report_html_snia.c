// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report's SNIA PTS sections (report_html.h): the block size x mix matrices of
 * the IOPS test (IOPS) and the latency test (average and maximum latency), each with its
 * convergence plot and steady-state verdict, and the write saturation test's IOPS against
 * time and against the data written.
 */
#include "report_html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result_io.h"
#include "text.h"
#include "units.h"

static void esc(FILE *out, const char *s)
{
	text_fput_xml(out, s);
}

/* One matrix of values (nbs x nmix, in metric m's unit) under its caption. */
static void matrix_table(FILE *out, const struct report_matrix *mx, const double *v,
			 enum report_metric m, const char *label, const char *what)
{
	char tq[32], sz[32];

	fputs("<figure>\n<figcaption>", out);
	esc(out, label);
	fprintf(out, ", %s random, %s (%s)", workload_tq(&mx->first->wl, tq, sizeof(tq)), what,
		report_metric_info[m].unit);
	if (mx->window_rounds)
		fprintf(out, ": the steady-state window's %s, rounds %u to %u",
			m == RM_LAT_MAX ? "highest" : "average",
			mx->last_round - mx->window_rounds + 1, mx->last_round);
	fputs("</figcaption>\n<table class=\"data matrix\">\n<thead><tr><th>block size</th>", out);
	for (unsigned c = 0; c < mx->nmix; c++)
		fprintf(out, "<th>%u/%u</th>", mx->mix[c], 100 - mx->mix[c]);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (unsigned b = 0; b < mx->nbs; b++) {
		fprintf(out, "<tr><th>%s</th>", units_fmt_size(sz, sizeof(sz), mx->bs[b]));
		for (unsigned c = 0; c < mx->nmix; c++) {
			char t[32] = "-";
			if (isfinite(v[b * mx->nmix + c]))
				report_fmt_value(t, sizeof(t), m, v[b * mx->nmix + c]);
			fprintf(out, "<td>%s</td>", t);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</figure>\n", out);
}

/* Each block size's tracked figure at the lowest read mix, round by round. */
static int convergence(FILE *out, const struct report *rep, const struct report_matrix *mx,
		       const char *label)
{
	struct chart c = {.markers = true};
	int ret;

	c.series = calloc(mx->nbs, sizeof(*c.series));
	ret = c.series ? 0 : -ENOMEM;
	for (unsigned b = 0; b < mx->nbs && !ret; b++) {
		struct series *se = &c.series[c.nseries++];
		ret = svg_series_alloc(se, mx->bs_names[b], mx->nrounds);
		for (unsigned k = 0; k < mx->nrounds && !ret; k++) {
			se->x[se->n] = k + 1;
			se->y[se->n++] = mx->conv[b * mx->nrounds + k];
		}
	}
	snprintf(c.title, sizeof(c.title), "Steady-state convergence, %u/%u mix",
		 mx->mix[mx->nmix - 1], 100 - mx->mix[mx->nmix - 1]);
	snprintf(c.xlabel, sizeof(c.xlabel), "Round (number)");
	snprintf(c.ylabel, sizeof(c.ylabel), "%s",
		 mx->latency ? "Average latency (ms)" : "Throughput (IOPS)");
	if (!ret) {
		fputs("<figure class=\"convergence\">\n", out);
		ret = html_svg(out, rep, svg_chart, &c, "Convergence", label);
		fputs("</figure>\n", out);
	}
	svg_series_free(c.series, c.nseries);
	return ret;
}

/*
 * SNIA PTS style tables (report_matrix): per run that measured several block sizes under
 * several mixes, the steady-state window's figures as block size x mix (IOPS for the
 * IOPS test; average and maximum latency for the latency test, which tracks a latency),
 * the convergence of each block size's lowest-read-mix figure round by round, and the
 * verdict.
 */
int html_section_matrix(FILE *out, const struct report *rep)
{
	bool heading = false;
	int ret = 0;

	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		struct report_matrix mx;
		const char *label = rep->runs[i].label;
		ret = report_matrix(rep, i, &mx);
		if (ret || !mx.nbs)
			continue;
		if (!heading)
			fputs("<h2>Block size x read/write mix</h2>\n", out);
		heading = true;
		if (mx.latency) {
			matrix_table(out, &mx, mx.lat_avg_ms, RM_LAT_AVG, label, "average latency");
			matrix_table(out, &mx, mx.lat_max_ms, RM_LAT_MAX, label, "maximum latency");
		} else {
			matrix_table(out, &mx, mx.iops, RM_IOPS, label, "IOPS");
		}
		if (mx.nrounds >= 2)
			ret = convergence(out, rep, &mx, label);
		if (mx.verdict[0]) {
			fputs("<p class=\"verdict\">", out);
			esc(out, mx.verdict);
			fputs("</p>\n", out);
		}
		report_matrix_free(&mx);
	}
	return ret;
}

/* One WSAT chart: each run's IOPS against x (seconds or GB written). */
static int wsat_chart(FILE *out, const struct report *rep, struct report_wsat *w, bool by_data)
{
	struct chart c = {.markers = false};
	double div = 1, tmax = 0;
	int ret = 0;

	for (unsigned i = 0; i < rep->nruns; i++)
		if (w[i].n)
			tmax = fmax(tmax, w[i].t_s[w[i].n - 1]);
	if (!by_data) /* time in the unit that keeps tick labels short */
		div = tmax >= 7200 ? 3600 : tmax >= 120 ? 60 : 1;
	c.series = calloc(rep->nruns, sizeof(*c.series));
	ret = c.series ? 0 : -ENOMEM;
	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		if (!w[i].n)
			continue;
		struct series *se = &c.series[c.nseries++];
		ret = svg_series_alloc(se, rep->runs[i].label, w[i].n);
		for (unsigned k = 0; k < w[i].n && !ret; k++) {
			se->x[se->n] = by_data ? w[i].written_gb[k] : w[i].t_s[k] / div;
			se->y[se->n++] = w[i].iops[k];
		}
	}
	snprintf(c.title, sizeof(c.title), "Write saturation: IOPS against %s",
		 by_data ? "data written" : "time");
	snprintf(c.xlabel, sizeof(c.xlabel), "%s",
		 by_data       ? "Data written (GB)"
		 : div == 3600 ? "Time (hours)"
		 : div == 60   ? "Time (minutes)"
			       : "Time (seconds)");
	snprintf(c.ylabel, sizeof(c.ylabel), "Throughput (IOPS)");
	if (!ret) {
		fputs("<figure class=\"wsat\">\n", out);
		ret = html_svg(out, rep, svg_chart, &c, "Write saturation",
			       by_data ? "iops by data written" : "iops by time");
		fputs("</figure>\n", out);
	}
	svg_series_free(c.series, c.nseries);
	return ret;
}

/*
 * SNIA's write saturation test (report_wsat): each run's IOPS against time and against
 * the data written, one line per drive, and what each wrote against its capacity.
 */
int html_section_wsat(FILE *out, const struct report *rep)
{
	struct report_wsat *w = calloc(rep->nruns ? rep->nruns : 1, sizeof(*w));
	unsigned with = 0;
	int ret = w ? 0 : -ENOMEM;

	for (unsigned i = 0; i < rep->nruns && !ret; i++)
		if (!(ret = report_wsat(rep, i, &w[i])))
			with += w[i].n > 0;
	if (!ret && with) {
		fputs("<h2>Write saturation</h2>\n<ul class=\"notes\">\n", out);
		for (unsigned i = 0; i < rep->nruns; i++) {
			char s[256], iops[32], dur[32];
			if (!w[i].n)
				continue;
			const double gb = w[i].written_gb[w[i].n - 1];
			report_fmt_value(iops, sizeof(iops), RM_IOPS, w[i].iops[w[i].n - 1]);
			units_fmt_duration(dur, sizeof(dur),
					   (uint64_t)(w[i].t_s[w[i].n - 1] * 1e9));
			snprintf(s, sizeof(s), "%.2f GB written in %s", gb, dur);
			if (w[i].capacity_gb > 0)
				snprintf(s + strlen(s), sizeof(s) - strlen(s),
					 " (%.2fx the capacity)", gb / w[i].capacity_gb);
			snprintf(s + strlen(s), sizeof(s) - strlen(s), ", %s IOPS at the end",
				 iops);
			fputs("<li>", out);
			esc(out, rep->runs[i].label);
			fputs(": ", out);
			esc(out, s);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
		ret = wsat_chart(out, rep, w, false);
		if (!ret)
			ret = wsat_chart(out, rep, w, true);
	}
	for (unsigned i = 0; w && i < rep->nruns; i++)
		report_wsat_free(&w[i]);
	free(w);
	return ret;
}
