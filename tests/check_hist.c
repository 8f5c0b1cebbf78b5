// SPDX-License-Identifier: GPL-2.0-or-later
/* The latency histogram and statistics: error bound, merging, mean and std dev. */
#include "testlib.h"

#include <math.h>

#include "hist.h"
#include "stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t rng_state = 88172645463325252ull;
static double urand(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Synthetic latency distributions, in ns. */
static uint64_t draw(int dist)
{
	double u = urand();
	switch (dist) {
	case 0: /* uniform 0..2 ms */
		return (uint64_t)(u * 2e6);
	case 1: /* exponential, mean 80 us */
		return (uint64_t)(-log(1 - u) * 80e3);
	case 2: /* log-normal around 100 us */
		return (uint64_t)exp(log(100e3) + 0.8 * sqrt(-2 * log(1 - u)) *
						       cos(2 * M_PI * urand()));
	case 3: /* bimodal: cache hits at 20 us, misses at 4 ms */
		return u < 0.9 ? (uint64_t)(20e3 + urand() * 2e3) : (uint64_t)(4e6 + urand() * 1e6);
	default: /* tiny values, exact buckets */
		return (uint64_t)(u * 300);
	}
}

#define N_DRAWS 200000

START_TEST(test_percentile_error_bound)
{
	uint64_t *v = malloc(N_DRAWS * sizeof(*v));
	struct hist *h = calloc(1, sizeof(*h));
	static const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99, 100};

	rng_state = 88172645463325252ull + (uint64_t)_i;
	for (int i = 0; i < N_DRAWS; i++) {
		v[i] = draw(_i);
		hist_add(h, v[i]);
	}
	qsort(v, N_DRAWS, sizeof(*v), cmp_u64);
	ck_assert_uint_eq(hist_count(h), N_DRAWS);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		size_t rank = (size_t)ceil(pcts[k] / 100.0 * N_DRAWS);
		uint64_t exact = v[rank - 1];
		uint64_t got = hist_percentile(h, pcts[k]);
		double err = exact ? fabs((double)got - (double)exact) / (double)exact : (double)got;
		ck_assert_msg(err <= 1.0 / 128 + 1e-12, "dist %d p%g: exact %llu got %llu (%.3f%%)",
			      _i, pcts[k], (unsigned long long)exact, (unsigned long long)got,
			      err * 100);
	}
	free(v);
	free(h);
}
END_TEST

START_TEST(test_bucket_bounds)
{
	/* every value lands in a bucket whose bounds contain it, midpoint within 1/128 */
	for (uint64_t v = 1; v < (1ull << 43); v = v * 2 + (v / 3) + 1) {
		for (uint64_t d = 0; d < 3; d++) {
			uint64_t x = v + d;
			unsigned i = hist_index(x);
			ck_assert_uint_le(hist_bucket_low(i), x);
			if (i + 1 < HIST_NBUCKETS)
				ck_assert_uint_gt(hist_bucket_low(i + 1), x);
			double err = fabs((double)hist_bucket_value(i) - (double)x) / (double)x;
			ck_assert_msg(err <= 1.0 / 128, "value %llu err %f", (unsigned long long)x,
				      err);
		}
	}
	for (uint64_t x = 0; x < HIST_EXACT; x++)
		ck_assert_uint_eq(hist_bucket_value(hist_index(x)), x);
	ck_assert_uint_eq(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
	/* buckets are contiguous: each starts where the one before ends */
	for (unsigned i = HIST_EXACT; i + 1 < HIST_NBUCKETS; i++)
		ck_assert_uint_eq(hist_index(hist_bucket_low(i + 1) - 1), i);
}
END_TEST

START_TEST(test_merge_associative)
{
	struct hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *c = calloc(1, sizeof(*c));
	struct hist *ab_c = calloc(1, sizeof(*a)), *a_bc = calloc(1, sizeof(*a)),
		    *all = calloc(1, sizeof(*a)), *bc = calloc(1, sizeof(*a));

	for (int i = 0; i < 50000; i++) {
		uint64_t x = draw(i % 4);
		hist_add(i % 3 == 0 ? a : i % 3 == 1 ? b : c, x);
		hist_add(all, x);
	}
	hist_merge(ab_c, a);
	hist_merge(ab_c, b);
	hist_merge(ab_c, c);
	hist_merge(bc, b);
	hist_merge(bc, c);
	hist_merge(a_bc, bc);
	hist_merge(a_bc, a);
	ck_assert_mem_eq(ab_c, a_bc, sizeof(*a));
	ck_assert_mem_eq(ab_c, all, sizeof(*a));
	/* and subtraction undoes a merge, as interval snapshots need */
	hist_sub(bc, all, a);
	hist_sub(bc, bc, b);
	ck_assert_mem_eq(bc, c, sizeof(*c));
	free(a), free(b), free(c), free(ab_c), free(a_bc), free(all), free(bc);
}
END_TEST

/* Exact sums vs. Welford vs. two-pass, and merged accumulators vs. one. */
START_TEST(test_mean_std)
{
	enum { N = 100000 };
	double *x = malloc(N * sizeof(*x));
	struct io_acc *one = malloc(sizeof(*one)), *parts = malloc(4 * sizeof(*parts));
	struct io_acc *merged = malloc(sizeof(*merged));
	double wmean = 0, wm2 = 0, sum = 0, ss = 0, mean, std, mean2, std2;

	io_acc_init(one);
	io_acc_init(merged);
	for (int k = 0; k < 4; k++)
		io_acc_init(&parts[k]);
	for (int i = 0; i < N; i++) {
		uint64_t v = draw(_i) + 5000000000ull * (_i == 3); /* large offset: cancellation */
		x[i] = (double)v;
		io_acc_add(one, v, 4096);
		io_acc_add(&parts[i % 4], v, 4096);
		double d = x[i] - wmean;
		wmean += d / (i + 1);
		wm2 += d * (x[i] - wmean);
		sum += x[i];
	}
	double tmean = sum / N;
	for (int i = 0; i < N; i++)
		ss += (x[i] - tmean) * (x[i] - tmean);
	double tstd = sqrt(ss / (N - 1));
	stats_mean_std(one->ios, one->sum_ns, one->sq_ns, &mean, &std);
	ck_assert_double_eq_tol(mean, tmean, tmean * 1e-12);
	ck_assert_double_eq_tol(std, tstd, tstd * 1e-9);
	ck_assert_double_eq_tol(std, sqrt(wm2 / (N - 1)), tstd * 1e-6);
	for (int k = 0; k < 4; k++)
		io_acc_merge(merged, &parts[k]);
	stats_mean_std(merged->ios, merged->sum_ns, merged->sq_ns, &mean2, &std2);
	ck_assert(mean2 == mean && std2 == std);
	ck_assert_uint_eq(merged->max_ns, one->max_ns);
	ck_assert_uint_eq(merged->min_ns, one->min_ns);
	free(x), free(one), free(parts), free(merged);
}
END_TEST

START_TEST(test_summarize)
{
	struct io_acc *rd = malloc(sizeof(*rd)), *wr = malloc(sizeof(*wr));
	struct sample s;

	io_acc_init(rd);
	io_acc_init(wr);
	for (int i = 0; i < 700; i++)
		io_acc_add(rd, 100000, 8192);
	for (int i = 0; i < 300; i++)
		io_acc_add(wr, 300000, 8192);
	stats_summarize(rd, wr, 2000000000ull, &s);
	ck_assert_uint_eq(s.d[DIR_ALL].ios, 1000);
	ck_assert_double_eq_tol(s.d[DIR_ALL].iops, 500, 1e-9);
	ck_assert_double_eq_tol(s.d[DIR_READ].iops, 350, 1e-9);
	ck_assert_double_eq_tol(s.d[DIR_ALL].mbps, 1000 * 8192 / 2.0 / 1e6, 1e-9);
	ck_assert_double_eq_tol(s.d[DIR_ALL].mean_ns, 160000, 1e-6);
	ck_assert_uint_eq(s.d[DIR_ALL].max_ns, 300000);
	ck_assert_uint_eq(s.d[DIR_ALL].min_ns, 100000);
	/* p50 in the read mode, p90 in the write mode, both within the bucket error */
	ck_assert_double_eq_tol((double)s.d[DIR_ALL].pct_ns[PCT_50], 100000, 100000 / 128.0);
	ck_assert_double_eq_tol((double)s.d[DIR_ALL].pct_ns[PCT_90], 300000, 300000 / 128.0);
	free(rd), free(wr);
}
END_TEST

/*
 * Every percentile lies within the least and greatest latency: a bucket's midpoint may
 * lie past them, which read as a p99.99 above the max, or a one-I/O step's p50 below its
 * min. Over latencies at every offset in a bucket, and through the drain's fold.
 */
START_TEST(test_percentiles_within_min_max)
{
	struct io_acc *rd = malloc(sizeof(*rd)), *wr = malloc(sizeof(*wr)),
		      *tail = malloc(sizeof(*tail));
	struct sample s;
	unsigned clamped = 0;

	io_acc_init(tail);
	io_acc_init(wr);
	for (uint64_t v = 1000000; v < 1000000 + 20000; v += 97) {
		for (int one = 0; one < 2; one++) {
			io_acc_init(rd);
			io_acc_add(rd, v, 4096);
			if (!one)
				for (int i = 0; i < 99; i++)
					io_acc_add(rd, v - 1000 - i, 4096);
			stats_summarize(rd, wr, 1000000000ull, &s);
			stats_fold_latency(rd, wr, tail, tail, &s);
			for (int d = 0; d < NDIR; d++) {
				if (!s.d[d].ios)
					continue;
				for (int p = 0; p < NPCT; p++) {
					ck_assert_uint_le(s.d[d].pct_ns[p], s.d[d].max_ns);
					ck_assert_uint_ge(s.d[d].pct_ns[p], s.d[d].min_ns);
					clamped += s.d[d].pct_ns[p] == s.d[d].max_ns;
				}
			}
		}
	}
	ck_assert_uint_gt(clamped, 0); /* some fell at the max: the bound was met, not missed */
	free(rd), free(wr), free(tail);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");
	tcase_add_loop_test(tc, test_percentile_error_bound, 0, 5);
	tcase_add_test(tc, test_bucket_bounds);
	tcase_add_test(tc, test_merge_associative);
	tcase_add_loop_test(tc, test_mean_std, 0, 4);
	tcase_add_test(tc, test_summarize);
	tcase_add_test(tc, test_percentiles_within_min_max);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(hist_suite)
