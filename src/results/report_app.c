// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Application benchmarks in reports (result.h, struct step_app): the table `show` prints
 * for an [app] phase, and compare's tables of TPS, average and 99th-percentile latency
 * against threads, one column per run (numbered as in the Runs table), as the reviews chart
 * them.
 */
#include "report.h"

#include <stdio.h>
#include <string.h>

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

/* One table: what (0 TPS, 1 average, 2 p99) of tool, rows the thread counts any run has. */
static void app_table(const struct report *rep, FILE *out, bool md, const char *tool,
		      unsigned what)
{
	static const char *const title[] = {"transactions per second", "average latency (ms)",
					    "99th percentile latency (ms)"};
	unsigned threads[64], n = 0;

	for (unsigned i = 0; i < rep->nruns; i++)
		for (unsigned t = 1; t <= 4096 && n < 64; t++)
			if (app_step(rep->runs[i].res, tool, t)) {
				bool have = false;
				for (unsigned k = 0; k < n; k++)
					have |= threads[k] == t;
				if (!have)
					threads[n++] = t;
			}
	for (unsigned a = 0; a < n; a++) /* ascending */
		for (unsigned b = a + 1; b < n; b++)
			if (threads[b] < threads[a]) {
				unsigned x = threads[a];
				threads[a] = threads[b];
				threads[b] = x;
			}
	if (!n)
		return;
	fprintf(out, md ? "\n## %s: %s\n\n| threads |" : "\n%s: %s\n  %-8s", tool, title[what],
		"threads");
	for (unsigned i = 0; i < rep->nruns; i++)
		if (md)
			fprintf(out, " run %u |", i + 1);
		else
			fprintf(out, "  %10s %3u", "run", i + 1);
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

void report_app_text(const struct report *rep, FILE *out, bool md)
{
	static const char *const tools[] = {"sysbench-oltp", "pgbench"};

	for (unsigned t = 0; t < 2; t++)
		for (unsigned what = 0; what < 3; what++)
			app_table(rep, out, md, tools[t], what);
}
