/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_HIST_H
#define DB_HIST_H
/*
 * Log-linear latency histogram, in nanoseconds (the design of fio's stat.h).
 *
 * Values below HIST_EXACT (128 ns) each have a bucket of their own and are exact. Above
 * that, every power of two [2^e, 2^(e+1)) is split into HIST_SUB (64) equal buckets of
 * width 2^(e-6). A bucket is reported by its midpoint, so the error of any value read
 * back is at most half a bucket width over the bucket's lower bound:
 *
 *	2^(e-7) / (64 * 2^(e-6)) = 1/128 = 0.78 %.
 *
 * Percentiles are therefore within 0.8 % of the exact order statistic. The top bucket
 * group ends at 2^HIST_MAX_EXP ns (about 4.9 hours); larger values are clamped into the
 * last bucket. Histograms merge by adding buckets, so merging is exact and associative:
 * per-thread, per-interval histograms combine into per-step ones without error.
 */
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_EXACT    (2u * HIST_SUB)
#define HIST_MAX_EXP  44
#define HIST_NBUCKETS (HIST_EXACT + (HIST_MAX_EXP - HIST_SUB_BITS - 1) * HIST_SUB)

struct hist {
	uint64_t bucket[HIST_NBUCKETS]; /* I/O counts */
};

static inline unsigned hist_index(uint64_t ns)
{
	if (ns < HIST_EXACT)
		return (unsigned)ns;
	unsigned e = 63u - (unsigned)__builtin_clzll(ns);
	if (e >= HIST_MAX_EXP)
		return HIST_NBUCKETS - 1;
	unsigned shift = e - HIST_SUB_BITS;
	unsigned sub = (unsigned)(ns >> shift) - HIST_SUB;
	return HIST_EXACT + (e - HIST_SUB_BITS - 1) * HIST_SUB + sub;
}

static inline void hist_add(struct hist *h, uint64_t ns)
{
	h->bucket[hist_index(ns)]++;
}

/* Lowest value that lands in bucket idx. */
uint64_t hist_bucket_low(unsigned idx);
/* The value a bucket reports: its midpoint (exact below HIST_EXACT). */
uint64_t hist_bucket_value(unsigned idx);
void hist_merge(struct hist *dst, const struct hist *src);
/* dst = a - b, for cumulative snapshots; b must be an earlier state of a. */
void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b);
uint64_t hist_count(const struct hist *h);
/*
 * The p-th percentile (0 < p <= 100) by the nearest-rank method: the value of the
 * ceil(p/100 * n)-th smallest sample's bucket. Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double p);
/* Several percentiles in one pass; pcts ascending. */
void hist_percentiles(const struct hist *h, const double *pcts, unsigned n, uint64_t *out);

#endif
