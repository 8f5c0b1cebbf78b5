/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UNWRITTEN_H
#define DB_UNWRITTEN_H
/*
 * Reads of never-written space (the step warning reads-unwritten): a drive or a file
 * system answers them without reading media, so their numbers are not the drive's.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"
#include "workload.h"

#define WRITTEN_CHUNKS 1024 /* a block device's map: this many equal chunks */

/*
 * What a run has written of a block device since its purge deallocated part of it. The
 * device is cut into WRITTEN_CHUNKS chunks, each with the share of it that holds data:
 * all of it until a purge deallocates a range (what the run found there is the drive's
 * business), none of that range after. A sequential write covers what its threads stream
 * over (each its own slice of the range, as the engine gives them); uniform random writes
 * of W bytes over a range of R bytes cover 1 - e^(-W/R) of it, since their offsets are
 * drawn with replacement (a skewed distribution covers less, and is taken as uniform).
 */
struct written {
	uint64_t size; /* the device's bytes; 0: no purge deallocated any of it */
	float held[WRITTEN_CHUNKS];
};

/* The purge deallocated [start, start + len) of t (a block device). */
void written_purged(struct written *w, const struct target *t, uint64_t start, uint64_t len);
/* A step of wl on t wrote bytes (reads: read_bytes, for a sequential mix's span). */
void written_add(struct written *w, const struct target *t, const struct workload *wl,
		 uint64_t bytes, uint64_t read_bytes);

struct step_streams;
struct step_result;
/* The map of t, one of targets[nt], in maps (NULL: none, and NULL back). */
struct written *written_map(struct written *maps, const struct target *const *targets, unsigned nt,
			    const struct target *t);
/*
 * What a step wrote, into the map of each target it wrote (maps: NULL, none): its result
 * sr, by stream (ss), or of wl on t, ramp and drain included.
 */
void written_step(struct written *maps, const struct target *const *targets, unsigned nt,
		  const struct target *t, const struct workload *wl, const struct step_streams *ss,
		  const struct step_result *sr);

/*
 * Does wl read space of t never written? For a file, the holes in the range it reads;
 * for a block device, w (NULL: none deallocated): the share of the range it reads that
 * this run's purge deallocated and no step has written since, 1 % or more (what such a
 * range holds is up to the drive, which may not read media). What it reads, into text:
 * the whole sentence, or with `who` (a stream's name) its brief part ("data: 100.0% of
 * the range it reads (67.11 MB of 67.11 MB)"), for a sentence over several streams.
 */
bool unwritten_reads(const struct target *t, const struct workload *wl, const struct written *w,
		     const char *who, char *text, size_t len);

#endif
