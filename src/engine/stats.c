// SPDX-License-Identifier: GPL-2.0-or-later
#include "stats.h"

#include <stdlib.h>
#include <string.h>
#include <math.h>

const double stats_pct_value[NPCT] = {50.0, 90.0, 99.0, 99.9, 99.99};
const char *const stats_pct_name[NPCT] = {"p50", "p90", "p99", "p99.9", "p99.99"};

void io_acc_init(struct io_acc *a)
{
	memset(a, 0, sizeof(*a));
	a->min_ns = UINT64_MAX;
}

void io_acc_merge(struct io_acc *dst, const struct io_acc *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->sum_ns += src->sum_ns;
	dst->sq_ns += src->sq_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	hist_merge(&dst->hist, &src->hist);
}

void stats_mean_std(uint64_t n, uint64_t sum, stats_u128 sq, double *mean, double *std)
{
	*mean = 0;
	*std = 0;
	if (n == 0)
		return;
	long double ln = (long double)n;
	long double m = (long double)sum / ln;
	*mean = (double)m;
	if (n < 2)
		return;
	/* sum((x - m)^2) = sq - sum * m, exact inputs, one rounding in long double */
	long double ss = (long double)sq - (long double)sum * m;
	if (ss < 0)
		ss = 0;
	*std = (double)sqrtl(ss / (ln - 1));
}

/*
 * Percentiles of a's histogram into pct, each within a's least and greatest latency: a
 * bucket's midpoint may lie past them (by at most its width, 0.78 %), and no I/O took
 * longer than the greatest (a p99.99 above the max read as a measurement error).
 */
static void percentiles(const struct io_acc *a, uint64_t *pct)
{
	hist_percentiles(&a->hist, stats_pct_value, NPCT, pct);
	for (unsigned i = 0; a->ios && i < NPCT; i++)
		pct[i] = pct[i] < a->min_ns ? a->min_ns : pct[i] > a->max_ns ? a->max_ns : pct[i];
}

static void fill_dir(struct dir_stats *d, const struct io_acc *a, uint64_t dur_ns)
{
	memset(d, 0, sizeof(*d));
	d->ios = a->ios;
	d->bytes = a->bytes;
	d->iops = stats_per_sec(a->ios, dur_ns);
	d->mbps = stats_per_sec(a->bytes, dur_ns) / 1e6;
	stats_mean_std(a->ios, a->sum_ns, a->sq_ns, &d->mean_ns, &d->std_ns);
	d->min_ns = a->ios ? a->min_ns : 0;
	d->max_ns = a->max_ns;
	percentiles(a, d->pct_ns);
}

void stats_summarize(const struct io_acc *rd, const struct io_acc *wr, uint64_t dur_ns,
		     struct sample *out)
{
	struct io_acc *all = malloc(sizeof(*all));

	out->dur_ns = dur_ns;
	fill_dir(&out->d[DIR_READ], rd, dur_ns);
	fill_dir(&out->d[DIR_WRITE], wr, dur_ns);
	if (!all) {
		memset(&out->d[DIR_ALL], 0, sizeof(out->d[DIR_ALL]));
		return;
	}
	io_acc_init(all);
	io_acc_merge(all, rd);
	io_acc_merge(all, wr);
	fill_dir(&out->d[DIR_ALL], all, dur_ns);
	free(all);
}

void stats_fold_latency(const struct io_acc *win_rd, const struct io_acc *win_wr,
			const struct io_acc *rd, const struct io_acc *wr, struct sample *out)
{
	struct io_acc *all = malloc(3 * sizeof(*all));
	const struct io_acc *win[2] = {win_rd, win_wr}, *tail[2] = {rd, wr};

	if (!all)
		return;
	io_acc_init(&all[DIR_ALL]);
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		io_acc_init(&all[d]);
		io_acc_merge(&all[d], win[d]);
		io_acc_merge(&all[d], tail[d]);
		io_acc_merge(&all[DIR_ALL], &all[d]);
	}
	for (int d = 0; d < NDIR; d++) {
		if (!hist_count(&all[d].hist))
			continue;
		out->d[d].max_ns = all[d].max_ns;
		percentiles(&all[d], out->d[d].pct_ns);
	}
	free(all);
}
