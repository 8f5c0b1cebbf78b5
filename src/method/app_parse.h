/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_APP_PARSE_H
#define DB_APP_PARSE_H
/*
 * What the application benchmarks print, read defensively: sysbench's report of an
 * `oltp_read_write` run (run with --percentile=99 --histogram=on), pgbench's report and
 * its per-transaction log (-l). The text is the tool's own, kept to a bound by the
 * caller (child.h): a line is at most APP_PARSE_LINE_MAX bytes, a figure that is missing,
 * not a finite number or negative is an error naming what is missing, never a zero.
 * Latencies go into a log-linear histogram (hist.h), so 95th and 99th percentiles of
 * either tool come from the same arithmetic.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define APP_PARSE_LINE_MAX 4096

struct app_figures {
	double tps;	      /* transactions a second, over the measured time */
	uint64_t transactions;
	uint64_t errors;      /* sysbench's ignored errors, pgbench's failed transactions */
	uint64_t reconnects;  /* sysbench only; 0 for pgbench */
	double lat_avg_ms;    /* the tool's own average */
	double lat_p95_ms;    /* from hist */
	double lat_p99_ms;    /* sysbench: its --percentile=99 line; pgbench: from hist */
	double lat_max_ms;    /* sysbench's max; pgbench: the log's largest */
	double seconds;	      /* measured time as the tool reports it */
};

/*
 * sysbench's output into f, its latency histogram into h (cleared first). 0, or -EINVAL
 * with what is missing or malformed in err ("sysbench: no transactions line").
 */
int app_parse_sysbench(const char *text, size_t len, struct app_figures *f, struct hist *h,
		       char *err, size_t errlen);
/* pgbench's report (its stdout) into f; p95, p99 and max come from app_parse_pgbench_log. */
int app_parse_pgbench(const char *text, size_t len, struct app_figures *f, char *err,
		      size_t errlen);
/*
 * One chunk of pgbench's per-transaction log: each line's latency (its third field, µs)
 * added to h; failed or skipped transactions counted in *failed. Lines may be cut at the
 * chunk's end: the caller gives whole lines. -EINVAL on a malformed line.
 */
int app_parse_pgbench_log(const char *text, size_t len, struct hist *h, uint64_t *failed,
			  char *err, size_t errlen);
/*
 * The tool's per-second reports (sysbench --report-interval=1: "[ 3s ] thds: 2 tps: 123.45
 * ... lat (ms,99%): 21.89 ..."; pgbench -P 1: "progress: 3.0 s, 142.0 tps, lat 7.021 ms
 * ..."), in order, at most max into out; lines that are not one, or whose figures are not
 * finite numbers of at least 0, or whose time does not move forward, are skipped.
 * Returns how many.
 */
struct app_interval {
	double end_s;	/* seconds since the run's start, at the report */
	double tps;
	double lat_ms;	/* sysbench: the interval's 99th percentile; pgbench: its average */
	bool p99;	/* lat_ms is a 99th percentile (sysbench), else an average */
};
unsigned app_parse_intervals(const char *text, size_t len, struct app_interval *out,
			     unsigned max);

/* p95, p99 and max of h into f, in ms. */
void app_figures_from_hist(struct app_figures *f, const struct hist *h);

#endif
