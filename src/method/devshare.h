/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_DEVSHARE_H
#define DB_DEVSHARE_H
/*
 * Did something else use the target's drive during a step? The device's own counters
 * (/sys/dev/block/M:m/stat: sectors read and written, 512 bytes each whatever the block
 * size, which the kernel's splitting and merging of requests leave alone) from the
 * step's start to its end, against the bytes the step itself moved there (its ramp,
 * window and drain: every I/O it did). What the device moved beyond that was someone
 * else's: another process, a file system mounted on it or on a sibling partition, the
 * kernel. A partition counts as its whole disk, since a sibling's I/O shares the drive;
 * targets on one disk are summed; an NVMe multipath head counts with its paths. Regular-file targets are left out: their file system's
 * device moves its metadata and every other file too.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine.h"
#include "target.h"

#define DEVSHARE_MAX	   16		/* devices watched in one step */
#define DEVSHARE_MIN_BYTES (4ull << 20) /* never a warning below this much ... */
#define DEVSHARE_SHARE_PCT 1.0		/* ... or this share of the step's bytes */

struct devshare_dev {
	dev_t dev;	   /* the device counted: the target, or a partition's disk */
	char name[64];	   /* its kernel name */
	bool ok;	   /* both counts were read */
	uint64_t rd0, wr0; /* sectors read and written at the start */
	uint64_t rd1, wr1; /* ... and at the end */
	uint64_t ours_rd;  /* bytes the step read there */
	uint64_t ours_wr;  /* ... and wrote */
};

struct devshare {
	unsigned n;
	struct devshare_dev d[DEVSHARE_MAX];
	int of_target[DEVSHARE_MAX]; /* target i is counted on d[of_target[i]]; -1 not */
	const char *sys;	     /* the /sys root (tests), or NULL */
};

/* Count the nt targets' devices now (sys: NULL for the real /sys). */
void devshare_begin(struct devshare *s, const struct target *const *t, unsigned nt,
		    const char *sys);
/* The bytes the step moved on target i. */
void devshare_add(struct devshare *s, unsigned i, uint64_t rd_bytes, uint64_t wr_bytes);
/* Count them again now the step has ended, and add what it moved: sr's streams, on the
   targets target[] names (NULL: sr is one stream, on target 0). */
void devshare_end(struct devshare *s, const struct step_result *sr, const unsigned *target);
/* Did one of them move more than DEVSHARE_MIN_BYTES and DEVSHARE_SHARE_PCT of the step's
   own bytes besides them? Then why holds a sentence about it (the first such device). */
bool devshare_shared(const struct devshare *s, char *why, size_t len);
/* The same judgement on one device's counts. */
bool devshare_dev_shared(const struct devshare_dev *d, char *why, size_t len);

#endif
