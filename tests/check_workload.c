// SPDX-License-Identifier: GPL-2.0-or-later
/* Workloads: units, bssplit, the per-I/O generator's mix, offsets and wrapping. */
#include "testlib.h"

#include <math.h>

#include "units.h"
#include "workload.h"

static const struct {
	const char *in;
	int ret;
	uint64_t bytes;
} sizes[] = {
	{"4k", 0, 4096},       {"4K", 0, 4096},        {"512b", 0, 512}, {"512", 0, 512},
	{"128KiB", 0, 131072}, {"1m", 0, 1048576},     {"2g", 0, 2147483648ull},
	{"1.5k", 0, 1536},     {"0.1k", -EINVAL, 0},   {"k", -EINVAL, 0}, {"", -EINVAL, 0},
	{"4q", -EINVAL, 0},    {"-4k", -EINVAL, 0},    {"1t", 0, 1099511627776ull},
};

START_TEST(test_sizes)
{
	uint64_t v = 0;
	int ret = units_parse_size(sizes[_i].in, &v);
	ck_assert_msg(ret == sizes[_i].ret, "'%s': %d", sizes[_i].in, ret);
	if (!ret)
		ck_assert_uint_eq(v, sizes[_i].bytes);
}
END_TEST

static const struct {
	const char *in;
	int ret;
	uint64_t ns;
} durations[] = {
	{"10s", 0, 10000000000ull}, {"2m", 0, 120000000000ull}, {"6h", 0, 21600000000000ull},
	{"30", 0, 30000000000ull},  {"250ms", 0, 250000000ull}, {"0.5s", 0, 500000000ull},
	{"1x", -EINVAL, 0},         {"s", -EINVAL, 0},
};

START_TEST(test_durations)
{
	uint64_t v = 0;
	int ret = units_parse_duration(durations[_i].in, &v);
	ck_assert_msg(ret == durations[_i].ret, "'%s': %d", durations[_i].in, ret);
	if (!ret)
		ck_assert_uint_eq(v, durations[_i].ns);
}
END_TEST

START_TEST(test_format)
{
	char b[32];
	ck_assert_str_eq(units_fmt_size(b, sizeof(b), 4096), "4k");
	ck_assert_str_eq(units_fmt_size(b, sizeof(b), 512), "512b");
	ck_assert_str_eq(units_fmt_size(b, sizeof(b), 1 << 20), "1m");
	ck_assert_str_eq(units_fmt_capacity(b, sizeof(b), 1000204886016ull), "1.00 TB");
	/* rounding that reaches the next unit takes it, in either spelling */
	ck_assert_str_eq(units_fmt_capacity(b, sizeof(b), 999996000000ull), "1.00 TB");
	ck_assert_str_eq(units_fmt_capacity_compact(b, sizeof(b), 999996000000ull), "1TB");
	ck_assert_str_eq(units_fmt_capacity(b, sizeof(b), 999ull), "999 B");
	ck_assert_str_eq(units_fmt_capacity_compact(b, sizeof(b), 18446744073709551615ull),
			 "18.4EB");
	ck_assert_str_eq(units_fmt_latency(b, sizeof(b), 12070000), "12.1 ms");
	ck_assert_str_eq(units_fmt_latency(b, sizeof(b), 812), "812 ns");
	ck_assert_str_eq(units_fmt_count(b, sizeof(b), 21204), "21.2K");
	ck_assert_str_eq(units_fmt_duration(b, sizeof(b), 45000000000ull), "45 s");
	ck_assert_str_eq(units_fmt_duration(b, sizeof(b), 23520000000000ull), "6h 32m");
	/* near 2^64 it wrapped to "0 s"; the saturated total says what it is */
	ck_assert_str_eq(units_fmt_duration(b, sizeof(b), UINT64_MAX - 1), "5124095h 34m");
	ck_assert_str_eq(units_fmt_duration(b, sizeof(b), UINT64_MAX), "more than 584 years");
	/* results' times: UTC, ISO 8601; no room is no time, never a cut one */
	ck_assert_str_eq(units_fmt_utc(b, sizeof(b), 0), "1970-01-01T00:00:00Z");
	ck_assert_str_eq(units_fmt_utc(b, sizeof(b), 1796189274), "2026-12-02T05:27:54Z");
	ck_assert_str_eq(units_fmt_utc(b, 10, 1796189274), "");
	ck_assert_uint_eq(strlen(units_fmt_utc(b, sizeof(b), -1)), 20);
}
END_TEST

/* DESIGN.md's File Server and Web Server mixes, and fio's blank-share rule. */
static const struct {
	const char *spec;
	int ret;
	unsigned n;
	unsigned pct[10];
} splits[] = {
	{"512b/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10", 0, 8, {10, 5, 5, 60, 2, 4, 4, 10}},
	{"512b/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1", 0, 10,
	 {22, 15, 8, 23, 15, 2, 6, 7, 1, 1}},
	{"4k/60:8k/:64k/", 0, 3, {60, 20, 20}},
	{"4k/50:8k/:16k/:64k/", 0, 4, {50, 17, 17, 16}},
	{"4k/60:8k/30", -EINVAL, 0, {0}},
	{"4k/60:8k/50", -EINVAL, 0, {0}},
	{"4k/60:4k/40", -EINVAL, 0, {0}},
	{"4x/100", -EINVAL, 0, {0}},
	{"4k/abc", -EINVAL, 0, {0}},
};

START_TEST(test_bssplit_parse)
{
	struct workload wl;
	char err[256] = "";
	workload_defaults(&wl);
	int ret = workload_parse_bssplit(&wl, splits[_i].spec, err, sizeof(err));
	ck_assert_msg(ret == splits[_i].ret, "%s: %d %s", splits[_i].spec, ret, err);
	if (ret) {
		ck_assert_msg(err[0], "no message for %s", splits[_i].spec);
		return;
	}
	ck_assert_uint_eq(wl.nsplit, splits[_i].n);
	for (unsigned i = 0; i < wl.nsplit; i++)
		ck_assert_uint_eq(wl.split[i].pct, splits[_i].pct[i]);
	char back[256];
	struct workload wl2;
	workload_defaults(&wl2);
	ck_assert_int_eq(workload_parse_bssplit(&wl2, workload_fmt_bssplit(&wl, back, sizeof(back)),
						err, sizeof(err)), 0);
	ck_assert_mem_eq(wl.split, wl2.split, sizeof(wl.split[0]) * wl.nsplit);
}
END_TEST

#define DRAWS 1000000

/*
 * The realised block-size mix over 1e6 draws is within 1% of each share. For shares so
 * small that 1% of them is below the binomial noise of 1e6 draws (a 1% share has a
 * standard deviation of 1% of itself), the bound is five standard deviations instead.
 */
/* 4K-sector targets: the split's smaller sizes folded into the logical block size */
static const struct {
	const char *spec;
	uint32_t lbs;
	const char *want, *note;
} folds[] = {
	{"512b/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10", 4096, "4k/80:8k/2:16k/4:32k/4:64k/10",
	 "512b/10:1k/5:2k/5 into 4k"},
	{"512b/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1", 4096,
	 "4k/68:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1", "512b/22:1k/15:2k/8 into 4k"},
	{"8k/50:512b/50", 4096, "8k/50:4k/50", "512b/50 into 4k"},
	{"512b/10:4k/90", 512, "512b/10:4k/90", ""},
	{"512b/10:4k/90", 0, "512b/10:4k/90", ""},
	{"4k/10:64k/90", 8192, "8k/10:64k/90", "4k/10 into 8k"},
};

START_TEST(test_bssplit_fold)
{
	struct workload wl;
	char err[256], note[96], back[256];

	workload_defaults(&wl);
	ck_assert_int_eq(workload_parse_bssplit(&wl, folds[_i].spec, err, sizeof(err)), 0);
	unsigned n = workload_fold_split(&wl, folds[_i].lbs, note, sizeof(note));
	ck_assert_str_eq(workload_fmt_bssplit(&wl, back, sizeof(back)), folds[_i].want);
	ck_assert_str_eq(note, folds[_i].note);
	ck_assert_uint_eq(n > 0, folds[_i].note[0] != '\0');
	unsigned sum = 0;
	for (unsigned k = 0; k < wl.nsplit; k++)
		sum += wl.split[k].pct;
	ck_assert_uint_eq(sum, 100);
}
END_TEST

START_TEST(test_bssplit_mix)
{
	struct workload wl;
	struct wl_gen g;
	char err[256];
	uint64_t count[WL_MAX_SPLIT] = {0};

	workload_defaults(&wl);
	ck_assert_int_eq(workload_parse_bssplit(&wl, splits[_i].spec, err, sizeof(err)), 0);
	wl_gen_init(&g, &wl, 1ull << 30, 0, 12345 + (uint64_t)_i, NULL);
	for (int i = 0; i < DRAWS; i++) {
		bool w;
		uint64_t off;
		uint32_t len;
		wl_gen_next(&g, &w, &off, &len);
		for (unsigned k = 0; k < wl.nsplit; k++)
			if (wl.split[k].bs == len)
				count[k]++;
	}
	for (unsigned k = 0; k < wl.nsplit; k++) {
		double got = 100.0 * (double)count[k] / DRAWS, want = wl.split[k].pct;
		double sigma = 100.0 * sqrt(want / 100 * (1 - want / 100) / DRAWS);
		ck_assert_msg(fabs(got - want) <= fmax(0.01 * want, 5 * sigma), "%u bytes: %.3f%% for %g%%",
			      wl.split[k].bs, got, want);
	}
}
END_TEST

/* Read share realised per I/O within 1% (absolute) of the asked percentage. */
START_TEST(test_read_pct)
{
	static const unsigned pcts[] = {0, 5, 30, 50, 65, 70, 95, 100};
	struct workload wl;
	struct wl_gen g;
	uint64_t reads = 0;

	workload_defaults(&wl);
	wl.read_pct = pcts[_i];
	wl_gen_init(&g, &wl, 1ull << 30, 0, 99, NULL);
	for (int i = 0; i < DRAWS; i++) {
		bool w;
		uint64_t off;
		uint32_t len;
		wl_gen_next(&g, &w, &off, &len);
		reads += !w;
	}
	double got = 100.0 * (double)reads / DRAWS;
	ck_assert_msg(fabs(got - pcts[_i]) <= 1.0, "asked %u%%, got %.3f%%", pcts[_i], got);
	if (pcts[_i] == 0 || pcts[_i] == 100)
		ck_assert(got == pcts[_i]);
}
END_TEST

/* Random offsets stay aligned inside the range, and fill it uniformly (chi-square). */
START_TEST(test_random_offsets)
{
	enum { BINS = 100 };
	struct workload wl;
	struct wl_gen g;
	uint64_t bins[BINS] = {0}, start = 1ull << 20, size = 64ull << 20;
	uint32_t bs = _i ? 16384 : 4096;

	workload_defaults(&wl);
	wl.bs = bs;
	wl.range_start = start;
	wl.range_size = size;
	wl_gen_init(&g, &wl, 1ull << 30, 0, 7, NULL);
	for (int i = 0; i < DRAWS; i++) {
		bool w;
		uint64_t off;
		uint32_t len;
		wl_gen_next(&g, &w, &off, &len);
		ck_assert_uint_eq((off - start) % bs, 0);
		ck_assert_uint_ge(off, start);
		ck_assert_uint_le(off + len, start + size);
		bins[(off - start) * BINS / size]++;
	}
	double chi = 0, e = (double)DRAWS / BINS;
	for (int k = 0; k < BINS; k++)
		chi += ((double)bins[k] - e) * ((double)bins[k] - e) / e;
	/* 99 degrees of freedom: chi-square above 150 has p < 0.001 */
	ck_assert_msg(chi < 150, "chi-square %.1f", chi);
}
END_TEST

START_TEST(test_sequential_wraps)
{
	struct workload wl;
	struct wl_gen g;

	workload_defaults(&wl);
	wl.pattern = WL_SEQUENTIAL;
	wl.bs = 4096;
	wl.range_start = 8192;
	wl.range_size = 10 * 4096;
	wl_gen_init(&g, &wl, 1ull << 20, 0, 1, NULL);
	for (int i = 0; i < 25; i++) {
		bool w;
		uint64_t off;
		uint32_t len;
		wl_gen_next(&g, &w, &off, &len);
		ck_assert_uint_eq(off, 8192 + (uint64_t)(i % 10) * 4096);
	}
}
END_TEST

/* Sequential threads each stream through their own slice; slices do not overlap. */
START_TEST(test_sequential_slices)
{
	struct workload wl;
	struct wl_gen g[4];

	workload_defaults(&wl);
	wl.pattern = WL_SEQUENTIAL;
	wl.bs = 131072;
	wl.threads = 4;
	for (unsigned t = 0; t < 4; t++) {
		wl_gen_init(&g[t], &wl, 64ull << 20, t, 1, NULL);
		ck_assert_uint_eq(g[t].start, t * (16ull << 20));
		ck_assert_uint_eq(g[t].end, (t + 1) * (16ull << 20));
		for (int i = 0; i < 300; i++) {
			bool w;
			uint64_t off;
			uint32_t len;
			wl_gen_next(&g[t], &w, &off, &len);
			ck_assert(off >= g[t].start && off + len <= g[t].end);
		}
	}
}
END_TEST

START_TEST(test_validate)
{
	struct workload wl;
	char err[256];

	workload_defaults(&wl);
	wl.bs = 512;
	ck_assert_int_eq(workload_validate(&wl, 4096, 1 << 30, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "logical block size"));
	wl.bs = 4096;
	ck_assert_int_eq(workload_validate(&wl, 4096, 1 << 30, err, sizeof(err)), 0);
	ck_assert_int_eq(workload_validate(&wl, 512, 2048, err, sizeof(err)), -EINVAL);
	wl.threads = 0;
	ck_assert_int_eq(workload_validate(&wl, 512, 1 << 30, err, sizeof(err)), -EINVAL);
	/* a share of the target under one byte is a range too small, not the whole target */
	uint64_t start, size;
	wl.threads = 1;
	wl.range_pct = 1e-9;
	workload_range(&wl, 64ull << 20, &start, &size);
	ck_assert_uint_eq(size, 1);
	ck_assert_int_eq(workload_validate(&wl, 512, 64ull << 20, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "too small"), "%s", err);
}
END_TEST

START_TEST(test_set_rw)
{
	struct workload wl;
	workload_defaults(&wl);
	ck_assert_int_eq(workload_set_rw(&wl, "randwrite"), 0);
	ck_assert(wl.pattern == WL_RANDOM && wl.read_pct == 0);
	ck_assert_int_eq(workload_set_rw(&wl, "randrw"), 0);
	ck_assert_uint_eq(wl.read_pct, 50);
	wl.read_pct = 70;
	ck_assert_int_eq(workload_set_rw(&wl, "rw"), 0);
	ck_assert(wl.pattern == WL_SEQUENTIAL && wl.read_pct == 70);
	ck_assert_int_eq(workload_set_rw(&wl, "trim"), -EINVAL);
}
END_TEST

static const struct {
	const char *in;
	const char *out; /* NULL: refused */
} dists[] = {
	{"uniform", "uniform"},
	{"zipf:1.2", "zipf:1.2"},
	{"zipf:0.8", "zipf:0.8"},
	{"zipf:1.234567891", "zipf:1.234567891"}, /* results keep every digit */
	{"zipf:1", NULL},
	{"zipf:0", NULL},
	{"zipf", NULL},
	{"pareto:0.2", "pareto:0.2"},
	{"pareto:1", NULL},
	{"pareto:-0.1", NULL},
	{"normal:10", "normal:10"},
	{"normal:0", NULL},
	{"normal:101", NULL},
	{"zoned:60/10:30/20:8/30:2/40", "zoned:60/10:30/20:8/30:2/40"},
	{"zoned:90/10:10/90", "zoned:90/10:10/90"},
	{"zoned:0/50:100/50", "zoned:0/50:100/50"},
	{"zoned:90/10:10/80", NULL},
	{"zoned:90/10:20/90", NULL},
	{"zoned:100/0:0/100", NULL},
	{"zoned:50:50", NULL},
	{"zoned", NULL},
	{"uniform:1", NULL},
	{"gauss:3", NULL},
	{"zoned:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:84/84", NULL},
};

START_TEST(test_dist_parse)
{
	struct workload wl;
	char err[256], buf[256];
	int ret;

	workload_defaults(&wl);
	wl.dist = WL_DIST_ZIPF;
	wl.dist_param = 3;
	ret = workload_parse_dist(&wl, dists[_i].in, err, sizeof(err));
	if (!dists[_i].out) {
		ck_assert_msg(ret == -EINVAL, "'%s' accepted", dists[_i].in);
		ck_assert_ptr_nonnull(strstr(err, "distribution: "));
		/* a refused value leaves the workload as it was */
		ck_assert(wl.dist == WL_DIST_ZIPF && wl.dist_param == 3);
		return;
	}
	ck_assert_msg(ret == 0, "'%s': %s", dists[_i].in, err);
	ck_assert_str_eq(workload_fmt_dist(&wl, buf, sizeof(buf)), dists[_i].out);
}
END_TEST

/*
 * The realised distribution: 1e6 offsets from the generator, against the share of the
 * range the requested distribution puts below each of 64 points, computed here from its
 * definition (not from the generator's table). By the Dvoretzky-Kiefer-Wolfowitz
 * inequality, the empirical CDF of 1e6 draws strays more than 0.0025 from the true one
 * with probability at most 2 exp(-2 * 1e6 * 0.0025^2) < 1e-5; the table's buckets put
 * their edges on the 64 points, so only sampling error remains.
 */
#define DIST_DRAWS 1000000u
#define BINS	   64u

static const struct {
	const char *dist;
	uint64_t range;	     /* bytes, of 4k blocks */
	const char *bssplit; /* NULL: 4k */
} realised[] = {
	{"zipf:1.2", 1ull << 30, NULL},
	{"zipf:0.8", 4ull << 30, NULL}, /* 1M blocks: the table's sums past 65536 terms */
	{"zipf:2", 256 * 4096, NULL},	/* fewer blocks than buckets: one block a bucket */
	{"pareto:0.2", 1ull << 30, NULL},
	{"pareto:0.7", 1ull << 30, NULL},
	{"normal:10", 1ull << 30, NULL},
	{"normal:40", 1ull << 30, NULL},
	{"zoned:60/10:30/20:8/30:2/40", 1ull << 30, NULL},
	{"zoned:90/10:10/90", 1ull << 30, "4k/50:8k/50"},
	{"zoned:80/20:20/80", 1ull << 30, NULL},
	{"uniform", 1ull << 30, NULL},
};

static double requested_cdf(const struct workload *wl, uint64_t units, uint64_t below)
{
	double x = (double)below / (double)units;

	switch (wl->dist) {
	case WL_DIST_UNIFORM:
		return x;
	case WL_DIST_ZIPF: {
		/* the sum over all blocks is the same for every point: kept from the last call */
		static double all;
		static uint64_t all_units;
		static double all_theta;
		double part = 0;
		if (all_units != units || all_theta != wl->dist_param) {
			all = 0;
			for (uint64_t i = 1; i <= units; i++)
				all += pow((double)i, -wl->dist_param);
			all_units = units;
			all_theta = wl->dist_param;
		}
		for (uint64_t i = 1; i <= below; i++)
			part += pow((double)i, -wl->dist_param);
		return part / all;
	}
	case WL_DIST_PARETO: {
		/* fio: x = u^(log h / log(1 - h)) for u uniform on [0, 1) */
		double p = log(wl->dist_param) / log(1 - wl->dist_param);
		return pow(x, 1 / p);
	}
	case WL_DIST_NORMAL: {
		double sd = wl->dist_param / 100;
		double lo = 0.5 * (1 + erf(-0.5 / sd / sqrt(2)));
		double hi = 0.5 * (1 + erf(0.5 / sd / sqrt(2)));
		return (0.5 * (1 + erf((x - 0.5) / sd / sqrt(2))) - lo) / (hi - lo);
	}
	case WL_DIST_ZONED: {
		double cum_r = 0, cum_a = 0;
		for (unsigned z = 0; z < wl->nzones; z++) {
			double r = wl->zones[z].range_pct / 100.0,
			       a = wl->zones[z].access_pct / 100.0;
			if (x <= cum_r + r)
				return cum_a + a * (x - cum_r) / r;
			cum_r += r;
			cum_a += a;
		}
		return 1;
	}
	}
	return -1;
}

START_TEST(test_dist_realised)
{
	struct workload wl;
	struct wl_dist_table *t = malloc(sizeof(*t));
	struct wl_gen g;
	uint64_t hist[BINS] = {0}, units, start = 1ull << 20;
	double worst = 0, cdf = 0;
	unsigned worst_at = 0;
	char err[256];

	ck_assert_ptr_nonnull(t);
	workload_defaults(&wl);
	ck_assert_int_eq(workload_parse_dist(&wl, realised[_i].dist, err, sizeof(err)), 0);
	if (realised[_i].bssplit)
		ck_assert_int_eq(
			workload_parse_bssplit(&wl, realised[_i].bssplit, err, sizeof(err)), 0);
	wl.range_start = start;
	wl.range_size = realised[_i].range;
	units = wl.range_size / 4096;
	ck_assert_int_eq(wl_dist_table_build(t, &wl, start + wl.range_size, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->nb, wl.dist == WL_DIST_UNIFORM ? 0
				 : wl.dist == WL_DIST_ZONED ? wl.nzones
				 : units < WL_DIST_BUCKETS  ? units
							    : WL_DIST_BUCKETS);
	wl_gen_init(&g, &wl, start + wl.range_size, 0, 42 + (uint64_t)_i, t);
	for (unsigned i = 0; i < DIST_DRAWS; i++) {
		bool w;
		uint64_t off;
		uint32_t len;
		wl_gen_next(&g, &w, &off, &len);
		ck_assert(off >= start && off + len <= start + wl.range_size && off % 4096 == 0);
		hist[(off - start) / 4096 * BINS / units]++;
	}
	for (unsigned b = 0; b < BINS; b++) {
		/* the block count below bin edge b + 1, as the histogram bins them */
		uint64_t below = ((b + 1) * units + BINS - 1) / BINS;
		double dev;
		cdf += (double)hist[b] / DIST_DRAWS;
		dev = fabs(cdf - requested_cdf(&wl, units, below));
		if (dev > worst) {
			worst = dev;
			worst_at = b;
		}
	}
	ck_assert_msg(worst <= 0.0025, "%s: the realised CDF is %.4f off the requested at bin %u",
		      realised[_i].dist, worst, worst_at);
	free(t);
}
END_TEST

/* A table is not a stub: a skewed request changes where offsets land. */
START_TEST(test_dist_not_uniform)
{
	struct workload wl;
	struct wl_dist_table *t = malloc(sizeof(*t));
	struct wl_gen g;
	unsigned first_tenth = 0;
	char err[256];

	ck_assert_ptr_nonnull(t);
	workload_defaults(&wl);
	ck_assert_int_eq(workload_parse_dist(&wl, "zoned:90/10:10/90", err, sizeof(err)), 0);
	ck_assert_int_eq(wl_dist_table_build(t, &wl, 1ull << 30, err, sizeof(err)), 0);
	wl_gen_init(&g, &wl, 1ull << 30, 0, 5, t);
	for (unsigned i = 0; i < 100000; i++) {
		bool w;
		uint64_t off;
		uint32_t len;
		wl_gen_next(&g, &w, &off, &len);
		first_tenth += off < (1ull << 30) / 10;
	}
	ck_assert_msg(first_tenth > 89000 && first_tenth < 91000, "%u", first_tenth);
	/* a zone smaller than one block is refused, and sequential access takes no skew */
	ck_assert_int_eq(workload_parse_dist(&wl, "zoned:50/1:50/99", err, sizeof(err)), 0);
	ck_assert_int_eq(workload_validate(&wl, 4096, 50 * 4096, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "smaller than one block"));
	ck_assert_int_eq(workload_validate(&wl, 4096, 100 * 4096, err, sizeof(err)), 0);
	wl.pattern = WL_SEQUENTIAL;
	ck_assert_int_eq(workload_validate(&wl, 4096, 100 * 4096, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "random access"));
	free(t);
}
END_TEST

static Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("workload");
	tcase_add_loop_test(tc, test_sizes, 0, sizeof(sizes) / sizeof(sizes[0]));
	tcase_add_loop_test(tc, test_durations, 0, sizeof(durations) / sizeof(durations[0]));
	tcase_add_test(tc, test_format);
	tcase_add_loop_test(tc, test_bssplit_parse, 0, sizeof(splits) / sizeof(splits[0]));
	tcase_add_loop_test(tc, test_bssplit_mix, 0, 4);
	tcase_add_loop_test(tc, test_bssplit_fold, 0, sizeof(folds) / sizeof(folds[0]));
	tcase_add_loop_test(tc, test_read_pct, 0, 8);
	tcase_add_loop_test(tc, test_random_offsets, 0, 2);
	tcase_add_test(tc, test_sequential_wraps);
	tcase_add_test(tc, test_sequential_slices);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_set_rw);
	tcase_add_loop_test(tc, test_dist_parse, 0, sizeof(dists) / sizeof(dists[0]));
	tcase_add_loop_test(tc, test_dist_realised, 0, sizeof(realised) / sizeof(realised[0]));
	tcase_add_test(tc, test_dist_not_uniform);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(workload_suite)
