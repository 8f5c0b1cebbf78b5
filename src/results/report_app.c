// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Application benchmarks in reports (result.h, struct step_app): the table `show` prints
 * for an [app] phase, and compare's tables of TPS, average and 99th-percentile latency
 * against threads, one column per run (numbered as in the Runs table), as the reviews chart
 * them.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "report_svg.h"

#include "text.h"

static void dev_cells(FILE *out, const struct sample *s)
{
	fprintf(out, "  %8.0f  %8.0f  %7.1f  %7.3f", s->d[DIR_READ].iops, s->d[DIR_WRITE].iops,
		s->d[DIR_ALL].mbps, s->d[DIR_ALL].mean_ns / 1e6);
}

void report_show_app(FILE *out, const struct result_phase *ph)
{
	char label[64];

	fprintf(out, "  %-12s  %9s  %8s  %8s  %8s  %8s  %7s  %7s  |  %8s  %8s  %7s  %7s  %s\n",
		"step", "TPS", "avg ms", "p95 ms", "p99 ms", "max ms", "errors", "reconn",
		"dev rIOPS", "wIOPS", "MB/s", "dev ms", "status");
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct result_step *st = &ph->steps[s];
		const struct step_app *a = &st->app;
		text_visible(label, sizeof(label), st->label);
		if (a->load)
			fprintf(out, "  %-12s  %9s  %8s  %8s  %8s  %8s  %7s  %7s  |", label, "-", "-",
				"-", "-", "-", "-", "-");
		else
			fprintf(out,
				"  %-12s  %9.1f  %8.2f  %8.2f  %8.2f  %8.2f  %7llu  %7llu  |", label,
				a->tps, a->lat_avg_ms, a->lat_p95_ms, a->lat_p99_ms, a->lat_max_ms,
				(unsigned long long)a->errors, (unsigned long long)a->reconnects);
		dev_cells(out, &st->summary);
		fprintf(out, "  %s\n", result_status_name[st->status]);
		if (a->load)
			fprintf(out, "  %-12s  data loaded in %.1f s\n", "", a->seconds);
	}
	fprintf(out, "  device columns: the drive's own counters over each step "
		     "(/sys/block/<dev>/stat); latency per transaction as the tool reports it\n");
}

/* A run's thread step of tool at threads, or NULL. */
static const struct result_step *app_step(const struct result *r, const char *tool,
					  unsigned threads)
{
	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned s = 0; r->phases[p].kind == PH_APP && s < r->phases[p].nsteps; s++) {
			const struct result_step *st = &r->phases[p].steps[s];
			if (st->app.used && !st->app.load && st->app.threads == threads &&
			    !strcmp(st->app.tool, tool) && st->status == RS_COMPLETE)
				return st;
		}
	return NULL;
}

static double app_value(const struct step_app *a, unsigned what)
{
	return what == 0 ? a->tps : what == 1 ? a->lat_avg_ms : a->lat_p99_ms;
}

/* The thread counts any run has a complete step of tool at, ascending (at most 64). */
static unsigned app_threads(const struct report *rep, const char *tool, unsigned *threads)
{
	unsigned n = 0;

	for (unsigned t = 1; t <= 4096 && n < 64; t++)
		for (unsigned i = 0; i < rep->nruns; i++)
			if (app_step(rep->runs[i].res, tool, t)) {
				threads[n++] = t;
				break;
			}
	return n;
}

static const char *const app_title[] = {"transactions per second", "average latency (ms)",
					"99th percentile latency (ms)"};

/* One table: what (0 TPS, 1 average, 2 p99) of tool, rows the thread counts any run has. */
static void app_table(const struct report *rep, FILE *out, bool md, const char *tool,
		      unsigned what)
{
	unsigned threads[64], n = app_threads(rep, tool, threads);

	if (!n)
		return;
	fprintf(out, md ? "\n## %s: %s\n\n| threads |" : "\n%s: %s\n  %-8s", tool,
		app_title[what], "threads");
	for (unsigned i = 0; i < rep->nruns; i++) {
		if (md)
			fprintf(out, " run %u |", i + 1);
		else
			fprintf(out, "  %10s %3u", "run", i + 1);
	}
	if (md) {
		fputs("\n|---|", out);
		for (unsigned i = 0; i < rep->nruns; i++)
			fputs("---|", out);
	}
	fputs("\n", out);
	for (unsigned k = 0; k < n; k++) {
		fprintf(out, md ? "| %u |" : "  %-8u", threads[k]);
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct result_step *st = app_step(rep->runs[i].res, tool, threads[k]);
			if (st)
				fprintf(out, md ? " %.2f |" : "  %14.2f", app_value(&st->app, what));
			else
				fprintf(out, md ? " - |" : "  %14s", "-");
		}
		fputs("\n", out);
	}
}

/* One chart: what of tool against threads, a line per run. */
static int app_chart(const struct report *rep, FILE *out, const char *tool, unsigned what)
{
	unsigned threads[64], n = app_threads(rep, tool, threads);
	char cats[64][12];
	const char *xcats[64];
	struct chart c = {.markers = true, .xcats = xcats, .ncats = n};
	int ret = 0;

	if (!n)
		return 0;
	if (!(c.series = calloc(rep->nruns, sizeof(*c.series))))
		return -ENOMEM;
	for (unsigned k = 0; k < n; k++) {
		snprintf(cats[k], sizeof(cats[k]), "%u", threads[k]);
		xcats[k] = cats[k];
	}
	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		struct series *se = &c.series[c.nseries++];
		ret = svg_series_alloc(se, rep->runs[i].label, n);
		for (unsigned k = 0; k < n && !ret; k++) {
			const struct result_step *st = app_step(rep->runs[i].res, tool, threads[k]);
			se->x[se->n] = k;
			se->y[se->n++] = st ? app_value(&st->app, what) : NAN;
		}
	}
	snprintf(c.title, sizeof(c.title), "%s: %s", tool, app_title[what]);
	snprintf(c.xlabel, sizeof(c.xlabel), "Threads");
	snprintf(c.ylabel, sizeof(c.ylabel), "%s", what ? app_title[what] : "Transactions (TPS)");
	if (!ret) {
		fputs("<figure>\n", out);
		svg_chart(out, &c);
		fputs("</figure>\n", out);
	}
	svg_series_free(c.series, c.nseries);
	return ret;
}

int report_app_html(const struct report *rep, FILE *out)
{
	static const char *const tools[] = {"sysbench-oltp", "pgbench"};
	unsigned threads[64];
	bool heading = false;
	int ret = 0;

	for (unsigned t = 0; t < 2 && !ret; t++) {
		if (!app_threads(rep, tools[t], threads))
			continue;
		if (!heading)
			fputs("<h2>Application benchmarks</h2>\n", out);
		heading = true;
		for (unsigned what = 0; what < 3 && !ret; what++)
			ret = app_chart(rep, out, tools[t], what);
	}
	return ret;
}

void report_app_text(const struct report *rep, FILE *out, bool md)
{
	static const char *const tools[] = {"sysbench-oltp", "pgbench"};

	for (unsigned t = 0; t < 2; t++)
		for (unsigned what = 0; what < 3; what++)
			app_table(rep, out, md, tools[t], what);
}

void report_app_json(const struct report *rep, struct jwrite *w)
{
	static const char *const tools[] = {"sysbench-oltp", "pgbench"};
	unsigned threads[64];

	jwrite_begin_array(w);
	for (unsigned t = 0; t < 2; t++) {
		unsigned n = app_threads(rep, tools[t], threads);
		for (unsigned k = 0; k < n; k++) {
			jwrite_begin_object(w);
			jwrite_kstr(w, "tool", tools[t]);
			jwrite_ku64(w, "threads", threads[k]);
			jwrite_key(w, "runs");
			jwrite_begin_array(w);
			for (unsigned i = 0; i < rep->nruns; i++) {
				const struct result_step *st =
					app_step(rep->runs[i].res, tools[t], threads[k]);
				if (!st) {
					jwrite_null(w);
					continue;
				}
				jwrite_begin_object(w);
				jwrite_kdbl(w, "tps", st->app.tps);
				jwrite_kdbl(w, "lat_avg_ms", st->app.lat_avg_ms);
				jwrite_kdbl(w, "lat_p95_ms", st->app.lat_p95_ms);
				jwrite_kdbl(w, "lat_p99_ms", st->app.lat_p99_ms);
				jwrite_kdbl(w, "device_iops", st->summary.d[DIR_ALL].iops);
				jwrite_end_object(w);
			}
			jwrite_end_array(w);
			jwrite_end_object(w);
		}
	}
	jwrite_end_array(w);
}
