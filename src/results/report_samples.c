// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A result's interval samples as CSV (drivebench export-samples): one row per interval
 * per step, and per stream of a step of several ("2T2Q / reader" in the step column),
 * times in seconds from the start of the step's measurement, latencies in ms, the cells
 * escaped as every drivebench CSV is (report_csv_field()).
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "result.h"

static const char *const samples_cols[] = {
	"phase",	 "step",      "interval",	"time_s",	  "duration_s",
	"iops",		 "mbps",      "avg_latency_ms", "max_latency_ms", "stddev_latency_ms",
	"host_stall_ms", "read_iops", "write_iops",
};
#define NSCOLS (sizeof(samples_cols) / sizeof(samples_cols[0]))

static void num(FILE *out, double v, bool last)
{
	char buf[48] = "";

	if (isfinite(v))
		snprintf(buf, sizeof(buf), "%.10g", v);
	report_csv_field(out, buf, last);
}

/* The rows of one step's or stream's samples, named step (the stream's "2T2Q / reader"). */
static void step_rows(FILE *out, const char *phase, const char *step, const struct result_step *st)
{
	struct sample_iter it;
	struct sample smp;
	char buf[32];

	sample_iter_init(&it, st);
	while (sample_iter_next(&it, &smp)) {
		const struct dir_stats *all = &smp.d[DIR_ALL];
		report_csv_field(out, phase, false);
		report_csv_field(out, step, false);
		snprintf(buf, sizeof(buf), "%u", smp.index);
		report_csv_field(out, buf, false);
		num(out, (double)smp.start_ns / 1e9, false);
		num(out, (double)smp.dur_ns / 1e9, false);
		num(out, all->iops, false);
		num(out, all->mbps, false);
		num(out, all->mean_ns / 1e6, false);
		num(out, (double)all->max_ns / 1e6, false);
		num(out, all->std_ns / 1e6, false);
		num(out, (double)smp.host_stall_ns / 1e6, false);
		num(out, smp.d[DIR_READ].iops, false);
		num(out, smp.d[DIR_WRITE].iops, true);
	}
}

int report_samples_csv(const struct result *r, FILE *out)
{
	char name[sizeof(r->phases[0].steps[0].label) * 2 + 4];

	for (unsigned c = 0; c < NSCOLS; c++)
		report_csv_field(out, samples_cols[c], c + 1 == NSCOLS);
	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct result_step *st = &ph->steps[s];
			step_rows(out, ph->name, st->label, st);
			for (unsigned k = 0; k < st->nstreams; k++) {
				snprintf(name, sizeof(name), "%s / %s", st->label,
					 st->streams[k].label);
				step_rows(out, ph->name, name, &st->streams[k]);
			}
		}
	}
	return ferror(out) ? -EIO : 0;
}
