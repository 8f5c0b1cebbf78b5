// SPDX-License-Identifier: GPL-2.0-or-later
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

const char *const wl_pattern_name[] = {"random", "sequential"};
const char *const wl_data_name[] = {"random", "zero", "compress"};
const char *const wl_dist_name[] = {"uniform", "zipf", "pareto", "normal", "zoned"};

void workload_defaults(struct workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	wl->pattern = WL_RANDOM;
	wl->bs = 4096;
	wl->read_pct = 100;
	wl->threads = 1;
	wl->qdepth = 32;
	wl->time_ns = 10ull * 1000000000ull;
	wl->interval_ns = 1000000000ull;
	wl->data = WL_DATA_RANDOM;
	wl->trace_speed = 1;
}

int workload_set_rw(struct workload *wl, const char *rw)
{
	static const struct {
		const char *name;
		enum wl_pattern pattern;
		int read_pct; /* -1: keep the mix already set, 50 if it is 0 or 100 */
	} rws[] = {
		{"randread", WL_RANDOM, 100},   {"randwrite", WL_RANDOM, 0},
		{"randrw", WL_RANDOM, -1},      {"read", WL_SEQUENTIAL, 100},
		{"write", WL_SEQUENTIAL, 0},    {"rw", WL_SEQUENTIAL, -1},
		{"readwrite", WL_SEQUENTIAL, -1},
	};
	for (size_t i = 0; i < sizeof(rws) / sizeof(rws[0]); i++) {
		if (strcmp(rw, rws[i].name))
			continue;
		wl->pattern = rws[i].pattern;
		if (rws[i].read_pct >= 0)
			wl->read_pct = (unsigned)rws[i].read_pct;
		else if (wl->read_pct == 0 || wl->read_pct == 100)
			wl->read_pct = 50;
		return 0;
	}
	return -EINVAL;
}

int workload_parse_bssplit(struct workload *wl, const char *spec, char *err, size_t errlen)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	unsigned n = 0, sum = 0, blanks = 0;
	struct wl_share sh[WL_MAX_SPLIT];
	bool blank[WL_MAX_SPLIT] = {false};
	int ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t bs, pct = 0;

		if (n == WL_MAX_SPLIT) {
			snprintf(err, errlen, "bssplit: more than %d block sizes", WL_MAX_SPLIT);
			goto out;
		}
		if (slash)
			*slash++ = '\0';
		if (units_parse_size(tok, &bs) || bs == 0 || bs > (64u << 20)) {
			snprintf(err, errlen, "bssplit: bad block size '%s'", tok);
			goto out;
		}
		if (!slash || !*slash) {
			blank[n] = true;
			blanks++;
		} else if (units_parse_uint(slash, 0, 100, &pct)) {
			snprintf(err, errlen, "bssplit: bad percentage '%s' for %s", slash, tok);
			goto out;
		}
		for (unsigned i = 0; i < n; i++) {
			if (sh[i].bs == bs) {
				snprintf(err, errlen, "bssplit: block size %s given twice", tok);
				goto out;
			}
		}
		sh[n].bs = (uint32_t)bs;
		sh[n].pct = (unsigned)pct;
		sum += (unsigned)pct;
		n++;
	}
	if (n == 0) {
		snprintf(err, errlen, "bssplit: empty");
		goto out;
	}
	if (sum > 100 || (blanks == 0 && sum != 100)) {
		snprintf(err, errlen, "bssplit: shares add up to %u%%, not 100%%", sum);
		goto out;
	}
	/* fio: blank shares split what is left evenly; the first blanks take the rounding */
	for (unsigned i = 0, left = 100 - sum, k = 0; i < n; i++) {
		if (!blank[i])
			continue;
		sh[i].pct = left / blanks + (k < left % blanks ? 1 : 0);
		k++;
	}
	memcpy(wl->split, sh, sizeof(sh[0]) * n);
	wl->nsplit = n;
	ret = 0;
out:
	free(copy);
	return ret;
}

char *workload_fmt_bssplit(const struct workload *wl, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < wl->nsplit && used < len; i++) {
		char sz[32];
		used += (size_t)snprintf(buf + used, len - used, "%s%s/%u", i ? ":" : "",
					 units_fmt_size(sz, sizeof(sz), wl->split[i].bs),
					 wl->split[i].pct);
	}
	return buf;
}

unsigned workload_fold_split(struct workload *wl, uint32_t lbs, char *note, size_t len)
{
	struct wl_share kept[WL_MAX_SPLIT];
	unsigned nkept = 0, folded = 0, at = WL_MAX_SPLIT;
	size_t used = 0;
	char sz[32];

	note[0] = '\0';
	for (unsigned i = 0; lbs && i < wl->nsplit; i++) {
		const struct wl_share *e = &wl->split[i];
		if (e->bs >= lbs) {
			kept[nkept++] = *e;
			continue;
		}
		if (at == WL_MAX_SPLIT) /* lbs's entry goes where the first folded one was */
			kept[at = nkept++] = (struct wl_share){.bs = lbs, .pct = 0};
		kept[at].pct += e->pct;
		if (used < len)
			used += (size_t)snprintf(note + used, len - used, "%s%s/%u",
						 folded ? ":" : "",
						 units_fmt_size(sz, sizeof(sz), e->bs), e->pct);
		folded++;
	}
	if (!folded)
		return 0;
	/* an entry of lbs after the folded ones joins the one made for them */
	for (unsigned i = at + 1; i < nkept; i++)
		if (kept[i].bs == lbs) {
			kept[at].pct += kept[i].pct;
			memmove(&kept[i], &kept[i + 1], (nkept - i - 1) * sizeof(kept[0]));
			nkept--;
			break;
		}
	memcpy(wl->split, kept, nkept * sizeof(kept[0]));
	wl->nsplit = nkept;
	if (used < len)
		snprintf(note + used, len - used, " into %s", units_fmt_size(sz, sizeof(sz), lbs));
	return folded;
}

/* "60/10:30/20:10/70" */
static int parse_zones(struct workload *wl, char *spec, char *err, size_t errlen)
{
	char *save = NULL, *tok;
	unsigned n = 0, acc = 0, range = 0;

	for (tok = strtok_r(spec, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t a, r;

		if (n == WL_MAX_ZONES) {
			snprintf(err, errlen, "zoned: more than %d zones", WL_MAX_ZONES);
			return -EINVAL;
		}
		if (!slash) {
			snprintf(err, errlen, "zoned: '%s' is not ACCESS/RANGE", tok);
			return -EINVAL;
		}
		*slash++ = '\0';
		if (units_parse_uint(tok, 0, 100, &a) || units_parse_uint(slash, 0, 100, &r)) {
			snprintf(err, errlen, "zoned: '%s/%s' is not two whole percentages", tok,
				 slash);
			return -EINVAL;
		}
		if (r == 0) {
			snprintf(err, errlen, "zoned: zone %u covers 0%% of the range", n + 1);
			return -EINVAL;
		}
		wl->zones[n].access_pct = (uint8_t)a;
		wl->zones[n].range_pct = (uint8_t)r;
		acc += (unsigned)a;
		range += (unsigned)r;
		n++;
	}
	if (n == 0) {
		snprintf(err, errlen, "zoned: no zones");
		return -EINVAL;
	}
	if (acc != 100 || range != 100) {
		snprintf(err, errlen,
			 "zoned: access shares add up to %u%% and range shares to %u%%, not 100%% "
			 "each",
			 acc, range);
		return -EINVAL;
	}
	wl->nzones = n;
	return 0;
}

int workload_parse_dist(struct workload *wl, const char *spec, char *err, size_t errlen)
{
	char buf[256], *arg;
	struct workload w = *wl;
	double v;
	int d;

	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "distribution: longer than %zu characters", sizeof(buf) - 1);
		return -EINVAL;
	}
	memcpy(buf, spec, strlen(spec) + 1);
	arg = strchr(buf, ':');
	if (arg)
		*arg++ = '\0';
	for (d = WL_DIST_UNIFORM; d <= WL_DIST_ZONED; d++)
		if (!strcmp(buf, wl_dist_name[d]))
			break;
	if (d > WL_DIST_ZONED || (d == WL_DIST_UNIFORM) != !arg) {
		snprintf(err, errlen,
			 "distribution: '%s' is not uniform, zipf:THETA, pareto:H, normal:SIGMA "
			 "or zoned:ACCESS/RANGE:...",
			 spec);
		return -EINVAL;
	}
	w.dist = (enum wl_dist)d;
	w.dist_param = 0;
	w.nzones = 0;
	memset(w.zones, 0, sizeof(w.zones));
	if (w.dist == WL_DIST_ZONED) {
		if (parse_zones(&w, arg, err, errlen)) {
			/* the caller names the key; say which part was wrong */
			char tmp[256];
			snprintf(tmp, sizeof(tmp), "distribution: %s", err);
			snprintf(err, errlen, "%s", tmp);
			return -EINVAL;
		}
	} else if (w.dist != WL_DIST_UNIFORM) {
		/* fio refuses zipf theta 1 (its closed form divides by 1 - theta); so do we */
		static const struct {
			const char *param;
			double max;
			bool max_ok;
			const char *need;
		} p[] = {
			[WL_DIST_ZIPF] = {"theta", 100, true, "above 0 and not 1"},
			[WL_DIST_PARETO] = {"h", 1, false, "between 0 and 1"},
			[WL_DIST_NORMAL] = {"sigma", 100, true,
					    "a percentage of the range above 0"},
		};
		if (units_parse_double(arg, 0, p[d].max, &v) || v <= 0 ||
		    (!p[d].max_ok && v >= p[d].max) || (w.dist == WL_DIST_ZIPF && v == 1)) {
			snprintf(err, errlen, "distribution: %s %s '%s' is not %s", wl_dist_name[d],
				 p[d].param, arg, p[d].need);
			return -EINVAL;
		}
		w.dist_param = v;
	}
	*wl = w;
	return 0;
}

bool workload_same_dist(const struct workload *a, const struct workload *b)
{
	return a->dist == b->dist && a->dist_param == b->dist_param && a->nzones == b->nzones &&
	       !memcmp(a->zones, b->zones, sizeof(a->zones[0]) * a->nzones);
}

/* The shortest decimal that reads back as v: "1.2", not "1.1999999999999999556". */
static const char *fmt_exact(char *buf, size_t len, double v)
{
	for (int prec = 6; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

char *workload_fmt_dist(const struct workload *wl, char *buf, size_t len)
{
	char num[32];
	size_t used;

	if (wl->dist != WL_DIST_ZONED) {
		if (wl->dist == WL_DIST_UNIFORM)
			snprintf(buf, len, "uniform");
		else
			snprintf(buf, len, "%s:%s", wl_dist_name[wl->dist],
				 fmt_exact(num, sizeof(num), wl->dist_param));
		return buf;
	}
	used = (size_t)snprintf(buf, len, "zoned");
	for (unsigned i = 0; i < wl->nzones && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, ":%u/%u", wl->zones[i].access_pct,
					 wl->zones[i].range_pct);
	return buf;
}

uint32_t workload_max_bs(const struct workload *wl)
{
	uint32_t m = 0;

	if (!wl->nsplit)
		return wl->bs;
	for (unsigned i = 0; i < wl->nsplit; i++)
		if (wl->split[i].pct && wl->split[i].bs > m)
			m = wl->split[i].bs;
	return m;
}

uint32_t workload_min_bs(const struct workload *wl)
{
	uint32_t m = UINT32_MAX;

	if (!wl->nsplit)
		return wl->bs;
	for (unsigned i = 0; i < wl->nsplit; i++)
		if (wl->split[i].pct && wl->split[i].bs < m)
			m = wl->split[i].bs;
	return m;
}

void workload_range(const struct workload *wl, uint64_t target_size, uint64_t *start,
		    uint64_t *size)
{
	uint64_t s = wl->range_start < target_size ? wl->range_start : target_size;
	uint64_t left = target_size - s;
	uint64_t z = wl->range_size;

	/* a share under one byte is a tiny range (too small for any block: refused), never
	   0, which is "to the end" */
	if (wl->range_pct > 0)
		z = (uint64_t)((double)target_size * wl->range_pct / 100.0) ?: 1;
	if (z == 0 || z > left)
		z = left;
	*start = s;
	*size = z;
}

int workload_validate(const struct workload *wl, uint32_t lbs, uint64_t target_size, char *err,
		      size_t errlen)
{
	uint64_t start, size;
	char a[32], b[32];

	if (wl->threads < 1 || wl->threads > 1024) {
		snprintf(err, errlen, "threads must be 1..1024, not %u", wl->threads);
		return -EINVAL;
	}
	if (wl->qdepth < 1 || wl->qdepth > 4096) {
		snprintf(err, errlen, "qdepth must be 1..4096, not %u", wl->qdepth);
		return -EINVAL;
	}
	if (wl->read_pct > 100) {
		snprintf(err, errlen, "read percentage must be 0..100, not %u", wl->read_pct);
		return -EINVAL;
	}
	if (wl->time_ns == 0) {
		snprintf(err, errlen, "time must be more than 0");
		return -EINVAL;
	}
	if (wl->interval_ns < 10000000ull) {
		snprintf(err, errlen, "sampling interval must be at least 10ms");
		return -EINVAL;
	}
	for (unsigned i = 0; i < (wl->nsplit ? wl->nsplit : 1); i++) {
		uint32_t bs = wl->nsplit ? wl->split[i].bs : wl->bs;
		if (bs == 0 || (lbs && bs % lbs)) {
			snprintf(err, errlen,
				 "block size %s is not a multiple of the target's logical block "
				 "size (%s)",
				 units_fmt_size(a, sizeof(a), bs), units_fmt_size(b, sizeof(b), lbs));
			return -EINVAL;
		}
	}
	if (wl->compress_pct > 100) {
		snprintf(err, errlen, "compress percentage must be 0..100");
		return -EINVAL;
	}
	if (wl->range_pct < 0 || wl->range_pct > 100) {
		snprintf(err, errlen, "range must be 0..100%% of the target");
		return -EINVAL;
	}
	if (target_size == 0) {
		snprintf(err, errlen, "the target is empty");
		return -EINVAL;
	}
	if (wl->range_start >= target_size) {
		snprintf(err, errlen, "range starts at byte %llu, past the end of the target (%llu)",
			 (unsigned long long)wl->range_start, (unsigned long long)target_size);
		return -EINVAL;
	}
	if (wl->dist != WL_DIST_UNIFORM && wl->pattern == WL_SEQUENTIAL) {
		snprintf(err, errlen, "distribution %s needs random access, not sequential",
			 wl_dist_name[wl->dist]);
		return -EINVAL;
	}
	workload_range(wl, target_size, &start, &size);
	if (lbs && start % lbs) {
		snprintf(err, errlen, "range start %llu is not aligned to %u bytes",
			 (unsigned long long)start, lbs);
		return -EINVAL;
	}
	uint64_t need = (uint64_t)workload_max_bs(wl) *
			(wl->pattern == WL_SEQUENTIAL ? wl->threads : 1);
	if (size < need) {
		snprintf(err, errlen, "range of %llu bytes is too small for %s blocks%s",
			 (unsigned long long)size,
			 units_fmt_size(a, sizeof(a), workload_max_bs(wl)),
			 wl->pattern == WL_SEQUENTIAL ? " on every thread" : "");
		return -EINVAL;
	}
	if (wl->dist == WL_DIST_ZONED) {
		/* zones only: the others' tables cost pow() calls, and any range fits them */
		struct wl_dist_table *t = malloc(sizeof(*t));
		int r;
		if (!t)
			return -ENOMEM;
		r = wl_dist_table_build(t, wl, target_size, err, errlen);
		free(t);
		return r;
	}
	return 0;
}

char *workload_fmt_mix(const struct workload *wl, char *buf, size_t len)
{
	if (wl->read_pct == 100)
		snprintf(buf, len, "read");
	else if (wl->read_pct == 0)
		snprintf(buf, len, "write");
	else
		snprintf(buf, len, "%u/%u", wl->read_pct, 100 - wl->read_pct);
	return buf;
}

char *workload_tq(const struct workload *wl, char *buf, size_t len)
{
	snprintf(buf, len, "%uT%uQ", wl->threads, wl->qdepth);
	return buf;
}

char *workload_describe(const struct workload *wl, char *buf, size_t len)
{
	char bs[32], tq[32], mix[32], rate[48] = "", dist[WL_MAX_ZONES * 8 + 16] = "";

	if (wl->trace[0]) {
		const char *base = strrchr(wl->trace, '/');
		if (wl->trace_speed > 0)
			snprintf(rate, sizeof(rate), "x%g", wl->trace_speed);
		else
			snprintf(rate, sizeof(rate), "fast 1T%uQ", wl->qdepth);
		snprintf(buf, len, "trace %s %s", base ? base + 1 : wl->trace, rate);
		return buf;
	}
	if (wl->nsplit)
		snprintf(bs, sizeof(bs), "bssplit");
	else if (!wl->bs)
		snprintf(bs, sizeof(bs), "bs ?"); /* an import's sizes of no one workload */
	else
		units_fmt_size(bs, sizeof(bs), wl->bs);
	workload_fmt_mix(wl, mix, sizeof(mix));
	if (wl->rate_iops)
		snprintf(rate, sizeof(rate), " @ %llu IOPS", (unsigned long long)wl->rate_iops);
	if (wl->dist != WL_DIST_UNIFORM) {
		dist[0] = ' ';
		workload_fmt_dist(wl, dist + 1, sizeof(dist) - 1);
	}
	snprintf(buf, len, "%s %s %s%s %s%s", bs, mix, wl_pattern_name[wl->pattern], dist,
		 workload_tq(wl, tq, sizeof(tq)), rate);
	return buf;
}

/*
 * Generalized harmonic numbers H(n) = sum of i^-theta for i = 1..n at increasing n:
 * exact for the first ZIPF_EXACT terms, Euler-Maclaurin past them (error far below a
 * bucket's share at any n).
 */
#define ZIPF_EXACT 65536u

struct harmonic {
	double theta;
	double h;   /* the sum of the terms so far */
	uint64_t i; /* terms summed, at most ZIPF_EXACT */
};

static double harmonic_at(struct harmonic *z, uint64_t n)
{
	double m, x, f_m, f_n, integral;

	while (z->i < n && z->i < ZIPF_EXACT) {
		z->i++;
		z->h += pow((double)z->i, -z->theta);
	}
	if (n <= ZIPF_EXACT)
		return z->h;
	m = ZIPF_EXACT;
	x = (double)n;
	f_m = pow(m, -z->theta);
	f_n = pow(x, -z->theta);
	integral = z->theta == 1 ? log(x / m)
				 : (pow(x, 1 - z->theta) - pow(m, 1 - z->theta)) / (1 - z->theta);
	return z->h + integral + (f_n - f_m) / 2 + z->theta * (f_m / m - f_n / x) / 12;
}

/* The share of draws that land below fraction x of the range (pareto and normal). */
static double dist_cdf(const struct workload *wl, double x)
{
	if (wl->dist == WL_DIST_PARETO) {
		/* fio draws x = u^(log h / log(1-h)); so P(X <= x) = x^(log(1-h) / log h) */
		double h = wl->dist_param;
		return x <= 0 ? 0 : pow(x, log(1 - h) / log(h));
	}
	/* normal, centred on the middle of the range, cut at its ends */
	double sigma = wl->dist_param / 100, lo, hi;
	lo = erfc(0.5 / sigma / M_SQRT2) / 2;
	hi = erfc(-0.5 / sigma / M_SQRT2) / 2;
	return (erfc(-(x - 0.5) / sigma / M_SQRT2) / 2 - lo) / (hi - lo);
}

/* Walker's alias method (Vose's construction) over t->share[0..nb). */
static void build_alias(struct wl_dist_table *t)
{
	uint16_t small[WL_DIST_BUCKETS], large[WL_DIST_BUCKETS];
	double p[WL_DIST_BUCKETS];
	unsigned ns = 0, nl = 0;

	for (unsigned k = 0; k < t->nb; k++) {
		p[k] = t->share[k] * t->nb;
		t->alias[k] = (uint16_t)k;
		if (p[k] < 1)
			small[ns++] = (uint16_t)k;
		else
			large[nl++] = (uint16_t)k;
	}
	while (ns && nl) {
		unsigned s = small[--ns], l = large[--nl];
		double c = ldexp(p[s], 64);
		t->cut[s] = c >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)c;
		t->alias[s] = (uint16_t)l;
		p[l] -= 1 - p[s];
		if (p[l] < 1)
			small[ns++] = (uint16_t)l;
		else
			large[nl++] = (uint16_t)l;
	}
	/* what is left is 1 up to rounding: always kept */
	while (nl)
		t->cut[large[--nl]] = UINT64_MAX;
	while (ns)
		t->cut[small[--ns]] = UINT64_MAX;
}

int wl_dist_table_build(struct wl_dist_table *t, const struct workload *wl, uint64_t target_size,
			char *err, size_t errlen)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t start, size, units;
	double total = 1;

	t->nb = 0;
	if (wl->pattern == WL_SEQUENTIAL || wl->dist == WL_DIST_UNIFORM)
		return 0;
	workload_range(wl, target_size, &start, &size);
	units = size / workload_min_bs(wl);
	if (units == 0) {
		snprintf(err, errlen, "the range is smaller than one block");
		return -EINVAL;
	}
	if (wl->dist == WL_DIST_ZONED) {
		unsigned cum = 0;
		t->nb = wl->nzones;
		t->edge[0] = 0;
		for (unsigned k = 0; k < wl->nzones; k++) {
			cum += wl->zones[k].range_pct;
			t->edge[k + 1] = (uint64_t)((u128)units * cum / 100);
			t->share[k] = wl->zones[k].access_pct / 100.0;
			if (t->edge[k + 1] == t->edge[k]) {
				snprintf(err, errlen,
					 "zone %u (%u%% of the range) is smaller than one block",
					 k + 1, wl->zones[k].range_pct);
				t->nb = 0;
				return -EINVAL;
			}
		}
		build_alias(t);
		return 0;
	}
	t->nb = units < WL_DIST_BUCKETS ? (unsigned)units : WL_DIST_BUCKETS;
	for (unsigned k = 0; k <= t->nb; k++)
		t->edge[k] = (uint64_t)((u128)units * k / t->nb);
	if (wl->dist == WL_DIST_ZIPF) {
		struct harmonic z = {.theta = wl->dist_param};
		double prev = 0, cur;
		total = harmonic_at(&(struct harmonic){.theta = wl->dist_param}, units);
		for (unsigned k = 0; k < t->nb; k++) {
			cur = harmonic_at(&z, t->edge[k + 1]);
			t->share[k] = (cur - prev) / total;
			prev = cur;
		}
	} else {
		double prev = 0, cur;
		for (unsigned k = 0; k < t->nb; k++) {
			cur = k + 1 == t->nb ? 1
					     : dist_cdf(wl, (double)t->edge[k + 1] / (double)units);
			t->share[k] = cur - prev;
			prev = cur;
		}
	}
	build_alias(t);
	return 0;
}

void wl_gen_init(struct wl_gen *g, const struct workload *wl, uint64_t target_size, unsigned thread,
		 uint64_t seed, const struct wl_dist_table *dist)
{
	uint64_t start, size;

	memset(g, 0, sizeof(*g));
	g->rng = seed ^ (0x2545f4914f6cdd1dull * (thread + 1));
	(void)wl_rand(g);
	g->read_pct = wl->read_pct;
	g->align = workload_min_bs(wl);

	if (!wl->nsplit) {
		g->bs[0] = wl->bs;
		g->nbs = 1;
		memset(g->bs_index, 0, sizeof(g->bs_index));
	} else {
		unsigned slot = 0;
		for (unsigned i = 0; i < wl->nsplit; i++) {
			if (!wl->split[i].pct)
				continue;
			g->bs[g->nbs] = wl->split[i].bs;
			for (unsigned k = 0; k < wl->split[i].pct && slot < 100; k++)
				g->bs_index[slot++] = (uint8_t)g->nbs;
			g->nbs++;
		}
	}

	workload_range(wl, target_size, &start, &size);
	if (wl->pattern == WL_SEQUENTIAL && wl->threads > 1) {
		/* each thread streams through its own slice, as fio's offset_increment does */
		uint64_t slice = size / wl->threads / g->align * g->align;
		start += slice * thread;
		size = slice;
	}
	g->start = start;
	g->end = start + size;
	g->cursor = start;
	for (unsigned i = 0; i < g->nbs; i++)
		g->slots[i] = size >= g->bs[i] ? (size - g->bs[i]) / g->align + 1 : 1;
	g->order = wl->pattern == WL_SEQUENTIAL ? WL_ORDER_SEQUENTIAL
		   : dist && dist->nb		? WL_ORDER_SKEWED
						: WL_ORDER_UNIFORM;
	g->dist = g->order == WL_ORDER_SKEWED ? dist : NULL;
}
