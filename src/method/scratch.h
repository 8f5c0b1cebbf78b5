/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SCRATCH_H
#define DB_SCRATCH_H
/*
 * The built-in scratch target: a file under $XDG_CACHE_HOME/drivebench/ (default
 * ~/.cache/drivebench/scratch.img), so a newcomer can run any preset without a spare
 * drive.
 *
 * It is made at SCRATCH_SIZE_BYTES ($DRIVEBENCH_SCRATCH_SIZE to change it), or smaller
 * when the file system has less room: at most half of the free space beyond
 * SCRATCH_KEEP_FREE_BYTES. A file made with ftruncate is all holes, and reading a hole
 * touches no disk (a laptop's file system answered 1.8M IOPS), so the file is written
 * out once, with incompressible data, by a thread the TUI starts and shows the progress
 * of (scratch_fill_*). Only its holes are written: a fill stopped halfway (the TUI quit)
 * resumes where it stopped, and holes a discard purge punched later are filled again at
 * the next start. Until it is written out, a file not yet filled may shrink to fit.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCRATCH_SIZE_BYTES	(1ull << 30)
#define SCRATCH_MIN_BYTES	(16ull << 20)  /* less room than this: no scratch file */
#define SCRATCH_KEEP_FREE_BYTES (256ull << 20) /* never take the file system below this */
#define SCRATCH_CHUNK_BYTES	(1u << 20)     /* written per call */
#define SCRATCH_SYNC_BYTES	(64ull << 20)  /* progress made durable this often */

struct settings;

/*
 * The scratch file's path into buf (directories are not created): under s's
 * XDG_CACHE_HOME, or HOME's .cache. 0 or -errno.
 */
int scratch_path(const struct settings *s, char *buf, size_t len);
/*
 * Make sure the scratch file exists (creating its directory, and the file at the size
 * that fits), its path into buf, its size into *size_bytes, and how much of it is still
 * holes into *unwritten_bytes; its size is s's DRIVEBENCH_SCRATCH_SIZE when set. 0 or
 * -errno with a message in err.
 */
int scratch_ensure(const struct settings *s, char *buf, size_t len, uint64_t *size_bytes,
		   uint64_t *unwritten_bytes, char *err, size_t errlen);

/* The holes of the file at path, in bytes (0: written out). 0 or -errno. */
int scratch_unwritten(const char *path, uint64_t *bytes);

/*
 * Write the holes of the file at path with random data, until none is left or *stop is
 * set (the rest stays holes: call again to resume). *done counts the bytes written, of
 * *total (the holes when it began); both may be read by another thread meanwhile.
 * 0, -ECANCELED when stopped, or -errno with a message in err.
 */
int scratch_fill(const char *path, atomic_int *stop, _Atomic uint64_t *done,
		 _Atomic uint64_t *total, char *err, size_t errlen);

/*
 * For tests: the next scratch_fill() stops as if *stop were set once it has written at
 * least bytes (whole chunks), whatever the threads' timing.
 */
void scratch_stop_after(uint64_t bytes);

/* scratch_fill() on a thread of its own, for the TUI. */
struct scratch_filler;
int scratch_filler_start(struct scratch_filler **f, const char *path, char *err, size_t errlen);
/*
 * Progress: *done of *total bytes. Returns 0 while it runs, 1 when the file is written
 * out, -errno when it failed (message in err).
 */
int scratch_filler_poll(struct scratch_filler *f, uint64_t *done, uint64_t *total, char *err,
			size_t errlen);
/* Stop it (what is left stays holes, for the next start) and free it. */
void scratch_filler_free(struct scratch_filler *f);

#endif
