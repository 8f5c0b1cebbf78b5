// SPDX-License-Identifier: GPL-2.0-or-later
#include "hist.h"

#include <math.h>

uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < HIST_EXACT)
		return idx;
	unsigned grp = (idx - HIST_EXACT) / HIST_SUB;
	unsigned sub = (idx - HIST_EXACT) % HIST_SUB;
	unsigned shift = grp + 1;
	return (uint64_t)(HIST_SUB + sub) << shift;
}

uint64_t hist_bucket_value(unsigned idx)
{
	if (idx < HIST_EXACT)
		return idx;
	unsigned shift = (idx - HIST_EXACT) / HIST_SUB + 1;
	return hist_bucket_low(idx) + ((1ull << shift) >> 1);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b)
{
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] = a->bucket[i] - b->bucket[i];
}

uint64_t hist_count(const struct hist *h)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		n += h->bucket[i];
	return n;
}

void hist_percentiles(const struct hist *h, const double *pcts, unsigned n, uint64_t *out)
{
	uint64_t total = hist_count(h);
	uint64_t seen = 0;
	unsigned i = 0, k = 0;

	for (k = 0; k < n && total == 0; k++)
		out[k] = 0;
	for (; k < n; k++) {
		uint64_t rank = (uint64_t)ceil(pcts[k] / 100.0 * (double)total);
		if (rank < 1)
			rank = 1;
		if (rank > total)
			rank = total;
		while (i < HIST_NBUCKETS && seen + h->bucket[i] < rank)
			seen += h->bucket[i++];
		out[k] = hist_bucket_value(i < HIST_NBUCKETS ? i : HIST_NBUCKETS - 1);
	}
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t v;
	hist_percentiles(h, &p, 1, &v);
	return v;
}
