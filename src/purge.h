/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_PURGE_H
#define DB_PURGE_H
/*
 * Purge: return the tested range to a known state before preconditioning.
 *
 *	none      leave it as it is
 *	discard   block devices: BLKDISCARD of the range; files: punch a hole
 *	          (fallocate PUNCH_HOLE | KEEP_SIZE)
 *	zeroout   block devices: BLKZEROOUT of the range; files: write zeroes over it
 *
 * A file is never grown or truncated: the range is clipped to the file's size. Secure
 * erase (ATA / NVMe sanitize and format) is not implemented; the preset parser rejects it
 * with a message saying so.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define PURGE_METHODS(X)                                                                           \
	X(PURGE_NONE, "none")                                                                      \
	X(PURGE_DISCARD, "discard")                                                                \
	X(PURGE_ZEROOUT, "zeroout")

#define PURGE_ENUM(id, name) id,
enum purge_method { PURGE_METHODS(PURGE_ENUM) PURGE_NMETHODS };
#undef PURGE_ENUM

extern const char *const purge_method_name[PURGE_NMETHODS];

/* By name; 0 or -EINVAL (-ENOTSUP for "secure-erase", which is recognised but not built). */
int purge_method_parse(const char *s, enum purge_method *m);

/*
 * Purge [start, start + len) of t, which must be open for writing. stop, when not NULL,
 * is polled between chunks of a file zeroout. Returns 0, -ECANCELED when stopped, or
 * -errno with a message in err.
 */
int purge_run(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
	      atomic_int *stop, char *err, size_t errlen);

#endif
