// SPDX-License-Identifier: GPL-2.0-or-later
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

const char *const wl_pattern_name[] = {"random", "sequential"};
const char *const wl_data_name[] = {"random", "zero", "compress"};

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

	if (wl->range_pct > 0)
		z = (uint64_t)((double)target_size * wl->range_pct / 100.0);
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
	char bs[32], tq[32], mix[32], rate[48] = "";

	if (wl->nsplit)
		snprintf(bs, sizeof(bs), "bssplit");
	else
		units_fmt_size(bs, sizeof(bs), wl->bs);
	workload_fmt_mix(wl, mix, sizeof(mix));
	if (wl->rate_iops)
		snprintf(rate, sizeof(rate), " @ %llu IOPS", (unsigned long long)wl->rate_iops);
	snprintf(buf, len, "%s %s %s %s%s", bs, mix, wl_pattern_name[wl->pattern],
		 workload_tq(wl, tq, sizeof(tq)), rate);
	return buf;
}

void wl_gen_init(struct wl_gen *g, const struct workload *wl, uint64_t target_size,
		 unsigned thread, uint64_t seed)
{
	uint64_t start, size;

	memset(g, 0, sizeof(*g));
	g->rng = seed ^ (0x2545f4914f6cdd1dull * (thread + 1));
	(void)wl_rand(g);
	g->read_pct = wl->read_pct;
	g->sequential = wl->pattern == WL_SEQUENTIAL;
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
	if (g->sequential && wl->threads > 1) {
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
}
