// SPDX-License-Identifier: GPL-2.0-or-later
#include "unwritten.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "holes.h"
#include "step_streams.h"
#include "units.h"

#define UNWRITTEN_MIN 0.01 /* the share of a read range that warns */

/* Chunk c of w: [*a, *b). */
static void chunk(const struct written *w, unsigned c, uint64_t *a, uint64_t *b)
{
	*a = (uint64_t)((unsigned __int128)w->size * c / WRITTEN_CHUNKS);
	*b = (uint64_t)((unsigned __int128)w->size * (c + 1) / WRITTEN_CHUNKS);
}

/* The share of chunk c that [start, end) overlaps. */
static double overlap(const struct written *w, unsigned c, uint64_t start, uint64_t end)
{
	uint64_t a, b;

	chunk(w, c, &a, &b);
	if (b <= a || end <= a || start >= b)
		return 0;
	return (double)((end < b ? end : b) - (start > a ? start : a)) / (double)(b - a);
}

/*
 * Over [start, end): each chunk's held share h becomes 1 - (1 - h)(1 - f x overlap), f
 * the share of the span the write covers (a write of it independent of what was there).
 */
static void cover(struct written *w, uint64_t start, uint64_t end, double f)
{
	if (!w->size || end <= start)
		return;
	unsigned c0 = (unsigned)((unsigned __int128)start * WRITTEN_CHUNKS / w->size);
	for (unsigned c = c0; c < WRITTEN_CHUNKS; c++) {
		double o = overlap(w, c, start, end);
		uint64_t a, b;
		chunk(w, c, &a, &b);
		if (a >= end)
			break;
		w->held[c] = (float)(1.0 - (1.0 - w->held[c]) * (1.0 - f * o));
	}
}

void written_purged(struct written *w, const struct target *t, uint64_t start, uint64_t len)
{
	if (!t->is_blockdev || !t->size)
		return;
	if (w->size != t->size) {
		w->size = t->size;
		for (unsigned c = 0; c < WRITTEN_CHUNKS; c++)
			w->held[c] = 1;
	}
	for (unsigned c = 0; c < WRITTEN_CHUNKS; c++)
		w->held[c] = (float)(w->held[c] * (1.0 - overlap(w, c, start, start + len)));
}

void written_add(struct written *w, const struct target *t, const struct workload *wl,
		 uint64_t bytes, uint64_t read_bytes)
{
	uint64_t start, len;

	if (!w->size || !bytes)
		return;
	workload_range(wl, t->size, &start, &len);
	if (!len)
		return;
	if (wl->pattern == WL_SEQUENTIAL) {
		/* each thread streams over its own slice from its start, wrapping within it;
		   in a mix, its writes are their share of the span it streamed over */
		unsigned n = wl->threads ? wl->threads : 1;
		uint64_t slice = len / n, span = (bytes + read_bytes) / n;
		double f = (double)bytes / (double)(bytes + read_bytes);
		for (unsigned k = 0; k < n; k++) {
			uint64_t a = start + slice * k, end = k + 1 < n ? a + slice : start + len;
			cover(w, a, span < end - a ? a + span : end, f);
		}
		return;
	}
	cover(w, start, start + len, 1.0 - exp(-(double)bytes / (double)len));
}

struct written *written_map(struct written *maps, const struct target *const *targets, unsigned nt,
			    const struct target *t)
{
	unsigned i = 0;

	if (!maps)
		return NULL;
	while (i + 1 < nt && targets[i] != t)
		i++;
	return &maps[i];
}

/* The bytes a step moved in direction dir: its ramp, measured time and drain. */
static uint64_t moved(const struct sample *ramp, const struct sample *total,
		      const struct sample *drain, int dir)
{
	return ramp->d[dir].bytes + total->d[dir].bytes + drain->d[dir].bytes;
}

void written_step(struct written *maps, const struct target *const *targets, unsigned nt,
		  const struct target *t, const struct workload *wl, const struct step_streams *ss,
		  const struct step_result *sr)
{
	if (!maps)
		return;
	if (!ss || !sr->nstreams) {
		t = ss ? ss->es[0].t : t;
		written_add(written_map(maps, targets, nt, t), t, ss ? &ss->wl[0] : wl,
			    moved(&sr->ramp, &sr->total, &sr->drain, DIR_WRITE),
			    moved(&sr->ramp, &sr->total, &sr->drain, DIR_READ));
		return;
	}
	for (unsigned i = 0; i < ss->n && i < sr->nstreams; i++) {
		const struct stream_result *x = &sr->streams[i];
		written_add(written_map(maps, targets, nt, ss->es[i].t), ss->es[i].t, &ss->wl[i],
			    moved(&x->ramp, &x->total, &x->drain, DIR_WRITE),
			    moved(&x->ramp, &x->total, &x->drain, DIR_READ));
	}
}

/* The bytes of [start, start + len) w holds no data in. */
static uint64_t unheld(const struct written *w, uint64_t start, uint64_t len)
{
	double sum = 0;
	uint64_t a, b;

	for (unsigned c = 0; c < WRITTEN_CHUNKS; c++) {
		chunk(w, c, &a, &b);
		sum += (1.0 - w->held[c]) * overlap(w, c, start, start + len) * (double)(b - a);
	}
	return sum < (double)len ? (uint64_t)sum : len;
}

bool unwritten_reads(const struct target *t, const struct workload *wl, const struct written *w,
		     const char *who, char *text, size_t len)
{
	uint64_t start, size, holes = 0;
	char a[32], b[32];
	bool more = false;

	if (wl->read_pct == 0)
		return false;
	workload_range(wl, t->size, &start, &size);
	if (t->is_blockdev) {
		if (!w || !w->size || !size)
			return false;
		holes = unheld(w, start, size);
		if ((double)holes < UNWRITTEN_MIN * (double)size)
			return false;
	} else if (holes_scan(t->fd, start, size, &holes, &more) || !holes) {
		return false;
	}
	units_fmt_capacity(a, sizeof(a), holes);
	units_fmt_capacity(b, sizeof(b), size);
	snprintf(text, len, "%s%s%s%s%.1f%% of the range it reads (%s of %s)%s", who ? who : "",
		 who ? ": " : "",
		 !who && t->is_blockdev ? "it reads a device this run's purge "
					  "deallocated: "
					: "",
		 more ? "at least " : "", 100.0 * (double)holes / (double)size, a, b,
		 who		  ? ""
		 : t->is_blockdev ? " has not been written since: the drive may answer those "
				    "reads without reading media"
				  : " was never written (holes in the file): those reads never "
				    "reach the drive");
	return true;
}
