/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_STATS_H
#define DB_STATS_H
/*
 * Latency statistics: what workers accumulate per I/O (struct io_acc) and what readers
 * see (struct dir_stats, struct sample).
 *
 * An accumulator keeps exact integer sums: count, bytes, sum of latencies and sum of
 * their squares (128-bit), max and min, and a histogram. Exact sums merge without error
 * in any order, so per-thread, per-interval accumulators add up to per-step totals to the
 * last I/O; mean and standard deviation are derived from the merged sums in long double.
 */
#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

__extension__ typedef unsigned __int128 stats_u128;

enum io_dir { DIR_READ, DIR_WRITE, DIR_ALL, NDIR };

struct io_acc {
	uint64_t ios;      /* completed I/Os */
	uint64_t bytes;    /* bytes transferred */
	uint64_t sum_ns;   /* sum of latencies, ns */
	stats_u128 sq_ns;  /* sum of squared latencies, ns^2 */
	uint64_t min_ns;   /* UINT64_MAX when empty */
	uint64_t max_ns;
	struct hist hist;
};

static inline void io_acc_add(struct io_acc *a, uint64_t lat_ns, uint32_t bytes)
{
	a->ios++;
	a->bytes += bytes;
	a->sum_ns += lat_ns;
	a->sq_ns += (stats_u128)lat_ns * lat_ns;
	if (lat_ns > a->max_ns)
		a->max_ns = lat_ns;
	if (lat_ns < a->min_ns)
		a->min_ns = lat_ns;
	hist_add(&a->hist, lat_ns);
}

void io_acc_init(struct io_acc *a);
void io_acc_merge(struct io_acc *dst, const struct io_acc *src);

enum stats_pct { PCT_50, PCT_90, PCT_99, PCT_999, PCT_9999, NPCT };
extern const double stats_pct_value[NPCT]; /* 50, 90, 99, 99.9, 99.99 */
extern const char *const stats_pct_name[NPCT]; /* "p50", ..., "p99.99" */

/* One direction (read, write or both) over one span of time. */
struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	double iops;      /* I/Os per second over the span */
	double mbps;      /* MB/s, 10^6 bytes per second */
	double mean_ns;   /* average completion latency */
	double std_ns;    /* sample standard deviation of latency (n - 1) */
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t pct_ns[NPCT];
};

/* A span of measured time: one interval, or a whole step when it is a summary. */
struct sample {
	uint32_t index;      /* interval number within the step, from 0 */
	uint64_t start_ns;   /* from the start of measurement (after ramp) */
	uint64_t dur_ns;
	uint64_t host_stall_ns; /* of dur_ns, time in which the host did not run drivebench */
	struct dir_stats d[NDIR];
};

/*
 * A count over dur_ns as a rate per second: how IOPS (from ios) and, divided by 10^6, MB/s
 * (from bytes) are computed, here and wherever a rate left out of a file is recomputed.
 */
static inline double stats_per_sec(uint64_t n, uint64_t dur_ns)
{
	double secs = dur_ns ? (double)dur_ns / 1e9 : 0;
	return secs > 0 ? (double)n / secs : 0;
}

/* Mean and sample standard deviation from exact sums. */
void stats_mean_std(uint64_t n, uint64_t sum, stats_u128 sq, double *mean, double *std);
/*
 * Fill *out from a read and a write accumulator over dur_ns; DIR_ALL combines both.
 * Leaves out->index and out->start_ns alone.
 */
void stats_summarize(const struct io_acc *rd, const struct io_acc *wr, uint64_t dur_ns,
		     struct sample *out);
/*
 * Fold the latencies of completions counted apart (a step's drain: rd, wr) into the
 * maximum and percentiles of out, which stats_summarize() filled from win_rd and win_wr.
 * Counts, rates, mean and standard deviation stay those of the window.
 */
void stats_fold_latency(const struct io_acc *win_rd, const struct io_acc *win_wr,
			const struct io_acc *rd, const struct io_acc *wr, struct sample *out);

#endif
