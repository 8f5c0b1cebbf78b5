/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_SCRATCH_H
#define DB_UI_SCRATCH_H
/*
 * The built-in scratch target: a sparse file under $XDG_CACHE_HOME/drivebench/ (default
 * ~/.cache/drivebench/scratch.img), so a newcomer can run any preset without a spare
 * drive. It is created on first use, never grown or shrunk afterwards.
 */
#include <stddef.h>
#include <stdint.h>

#define SCRATCH_SIZE_BYTES (1ull << 30)

/* The scratch file's path into buf (directories are not created). 0 or -errno. */
int scratch_path(char *buf, size_t len);
/*
 * Make sure the scratch file exists (creating its directory and a sparse file of
 * SCRATCH_SIZE_BYTES); its path into buf, its size into *size_bytes. 0 or -errno with a
 * message in err.
 */
int scratch_ensure(char *buf, size_t len, uint64_t *size_bytes, char *err, size_t errlen);

#endif
