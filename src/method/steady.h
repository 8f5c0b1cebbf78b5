/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_STEADY_H
#define DB_STEADY_H
/*
 * Steady-state detection as the SNIA Performance Test Specification (PTS) defines it.
 *
 * A run is a series of rounds; each round yields one number for the tracked metric (the
 * IOPS of the round, say). The last `window` rounds are the measurement window. The
 * device is steady when, over that window,
 *
 *	data excursion   = (max - min) / average                     <= data_limit_pct
 *	slope excursion  = |slope of the least-squares line| * (window - 1) / average
 *	                                                             <= slope_limit_pct
 *
 * i.e. the values stay in a band and the best straight line through them changes little
 * from the first round of the window to the last. SNIA's numbers are a window of 5
 * rounds, 20 % and 10 %, and at most 25 rounds; all are parameters here.
 *
 * Everything in this module is a pure function of its inputs.
 */
#include <stdbool.h>

#include "result.h"
#include "stats.h"

/* SNIA PTS defaults. Numbers, so the preset key table can quote them as text. */
#define STEADY_WINDOW	  5
#define STEADY_DATA_PCT	  20
#define STEADY_SLOPE_PCT  10
#define STEADY_MAX_ROUNDS 25

struct steady_params {
	unsigned window;	/* rounds in the measurement window, >= 2 */
	double data_limit_pct;	/* max - min of the window, % of its average */
	double slope_limit_pct; /* least-squares excursion across the window, % of average */
	unsigned max_rounds;	/* give up after this many rounds */
};

void steady_defaults(struct steady_params *p);

/*
 * Judge the series y[0..n-1] (one value per round, oldest first) at its last round.
 * Fills info (used, window and limits, round = n, both excursions over the last
 * min(n, window) values, tracked left alone) and returns info->reached: true when
 * n >= window, the window average is above zero and both excursions are within limits.
 * With fewer than two values the excursions are 0.
 */
bool steady_check(const struct steady_params *p, const double *y, unsigned n,
		  struct steady_info *info);

/* The least-squares line through (i, y[i]), i = 0..n-1: slope and intercept. */
void steady_fit(const double *y, unsigned n, double *slope, double *intercept);

/*
 * Metrics a phase may track, named as in result files: "iops", "mbps", "mean_ns",
 * "std_ns", "max_ns", "p99_ns", ... for reads and writes together, or with a "read." or
 * "write." prefix for one direction ("write.iops").
 */
bool steady_metric_valid(const char *name);
/* The metric's value in s; 0 or -EINVAL for an unknown name. */
int steady_metric_value(const char *name, const struct sample *s, double *out);
/* The i-th bare metric name, NULL past the last: for listings. */
const char *steady_metric_name(unsigned i);

#endif
