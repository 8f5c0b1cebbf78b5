/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UNWRITTEN_H
#define DB_UNWRITTEN_H
/*
 * Reads of never-written space (the step warning reads-unwritten): a drive or a file
 * system answers them without reading media, so their numbers are not the drive's.
 */
#include <stdbool.h>
#include <stddef.h>

#include "target.h"
#include "workload.h"

/*
 * Does wl read space of t never written? For a file, the holes in the range it reads;
 * for a block device, purged: whether this run's purge deallocated it (discard or a
 * secure erase: every method but none and zeroout) and no step has written since (what
 * such a range holds is up to the drive, which may not read media). What it reads, into
 * text: the whole sentence, or with `who` (a stream's name) its brief part ("data: 100.0%
 * of the range it reads (67.11 MB of 67.11 MB)"), for a sentence over several streams.
 */
bool unwritten_reads(const struct target *t, const struct workload *wl, bool purged,
		     const char *who, char *text, size_t len);

#endif
