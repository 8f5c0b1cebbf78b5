/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_HOLES_H
#define DB_HOLES_H
/*
 * Unwritten ranges of a file: the holes SEEK_HOLE / SEEK_DATA report (never written,
 * punched, or allocated and never written: ext4 and XFS report unwritten extents as holes
 * too). Reading a hole touches no media, so a read step over holes measures the page
 * cache and the file system, not the drive: the runner warns when a read step covers any.
 */
#include <stdbool.h>
#include <stdint.h>

/* Walk at most this many holes; past it the count is a lower bound. */
#define HOLES_MAX_WALK 65536u

/*
 * Bytes of [start, start + len) that are holes in the file open as fd, into *unwritten;
 * *more is true when the walk stopped at HOLES_MAX_WALK holes (then it is at least that).
 * A file system that cannot tell reports no holes. Returns 0 or -errno.
 */
int holes_scan(int fd, uint64_t start, uint64_t len, uint64_t *unwritten, bool *more);

#endif
