// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A result's interval samples as CSV (drivebench export-samples): one row per interval
 * per step, and per stream of a step of several ("2T2Q / reader" in the step column),
 * times in seconds since the phase began, latencies in ms, the round of a phase in rounds
 * last (a column added after the others, so scripts reading by position still work), the
 * cells escaped as every drivebench CSV is (report_csv_field()).
 *
 * The phase's clock is its steps' own time laid end to end: each step's ramp, measured
 * time and drain, in order (the few ms between steps, starting threads, are left out; a
 * result keeps no wall-clock time per step). It runs on across rounds, never restarting.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "result.h"

static const char *const samples_cols[] = {
	"phase",	 "step",      "interval",	"time_s",	  "duration_s",
	"iops",		 "mbps",      "avg_latency_ms", "max_latency_ms", "stddev_latency_ms",
	"host_stall_ms", "read_iops", "write_iops",	  "round",
};
#define NSCOLS (sizeof(samples_cols) / sizeof(samples_cols[0]))

static void num(FILE *out, double v, bool last)
{
	char buf[48] = "";

	if (isfinite(v))
		snprintf(buf, sizeof(buf), "%.10g", v);
	report_csv_field(out, buf, last);
}

/*
 * The rows of one step's or stream's samples, named step (the stream's "2T2Q / reader"),
 * its measured time starting t0_ns into the phase; round: "" outside a phase in rounds.
 */
static void step_rows(FILE *out, const char *phase, const char *step, const struct result_step *st,
		      uint64_t t0_ns, const char *round)
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
		num(out, (double)(t0_ns + smp.start_ns) / 1e9, false);
		num(out, (double)smp.dur_ns / 1e9, false);
		num(out, all->iops, false);
		num(out, all->mbps, false);
		num(out, all->mean_ns / 1e6, false);
		num(out, (double)all->max_ns / 1e6, false);
		num(out, all->std_ns / 1e6, false);
		num(out, (double)smp.host_stall_ns / 1e6, false);
		num(out, smp.d[DIR_READ].iops, false);
		num(out, smp.d[DIR_WRITE].iops, false);
		report_csv_field(out, round, true);
	}
}

int report_samples_csv(const struct result *r, FILE *out)
{
	char name[sizeof(r->phases[0].steps[0].label) * 2 + 4];

	for (unsigned c = 0; c < NSCOLS; c++)
		report_csv_field(out, samples_cols[c], c + 1 == NSCOLS);
	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		uint64_t t_ns = 0; /* the phase's clock at the step's start */
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct result_step *st = &ph->steps[s];
			uint64_t t0_ns = t_ns + st->ramp.dur_ns;
			char round[16] = "";
			unsigned n;
			/* the runner labels a round's steps "round N[ again][ STEP]" */
			if (ph->steady.used && sscanf(st->label, "round %u", &n) == 1)
				snprintf(round, sizeof(round), "%u", n);
			step_rows(out, ph->name, st->label, st, t0_ns, round);
			for (unsigned k = 0; k < st->nstreams; k++) {
				snprintf(name, sizeof(name), "%s / %s", st->label,
					 st->streams[k].label);
				step_rows(out, ph->name, name, &st->streams[k], t0_ns, round);
			}
			t_ns = t0_ns + st->summary.dur_ns + st->drain.dur_ns;
		}
	}
	return ferror(out) ? -EIO : 0;
}
