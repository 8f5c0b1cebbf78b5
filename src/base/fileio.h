/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FILEIO_H
#define DB_FILEIO_H
/*
 * Reading input files: results, presets, themes, spec sheets, traces. Only regular files are
 * read (a FIFO, a device such as /dev/zero or a directory is refused at once, never
 * waited on: the file is opened O_NONBLOCK and checked with fstat), and only up to a
 * limit that the caller names, so a file can never take more memory than its kind
 * allows. Every message names the file.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Open path to read as a stream (a trace, an iolog) with the checks fileio_read() makes:
 * opened O_NONBLOCK (a FIFO would wait for a writer; blocking again once checked), refused
 * unless fstat() says a regular file ("path: a FIFO, not WHAT"), or from its size alone past
 * max (UINT64_MAX: no limit). The descriptor (O_CLOEXEC), or -errno with "path: message"
 * in err: -EISDIR a directory, -EINVAL anything else not a regular file, -EFBIG over max.
 */
int fileio_open(const char *path, const char *what, uint64_t max, char *err, size_t errlen);
/* fileio_open() as a stdio stream ("rb") into *f: 0, or its -errno and message. */
int fileio_fopen(const char *path, const char *what, uint64_t max, FILE **f, char *err,
		 size_t errlen);
/*
 * The whole of path into a malloc'd, NUL-terminated buffer (*len bytes, NUL bytes
 * inside possible). `what` names the kind in messages ("a result file"); max is its
 * limit in bytes. 0, or -errno with "path: message" in err: -EINVAL not a regular file,
 * -EFBIG over max.
 */
int fileio_read(const char *path, const char *what, uint64_t max, char **out, size_t *len,
		char *err, size_t errlen);
/*
 * fileio_read(), then every string in it made well-formed UTF-8 (text.h), once, where it
 * enters: the same returns, and -ENOMEM when the repair runs out of memory.
 */
int fileio_read_text(const char *path, const char *what, uint64_t max, char **out, size_t *len,
		     char *err, size_t errlen);
/* "1 MiB", "512 MiB", "64 KiB": a limit as the man page writes it. */
char *fileio_fmt_limit(char *buf, size_t len, uint64_t bytes);
/* What a file that is not a regular file is, in words: "a FIFO", "a block device", ... */
const char *fileio_kind(mode_t m);
/*
 * The mode open(..., O_CREAT, 0666) would give a new file: 0666 & ~umask, for a file
 * made by mkstemp() (0600) that is to look like one made by open(). The umask is read
 * from /proc/self/status, not set and restored with umask(), which would race with the
 * files other threads create; 0644 where /proc does not say.
 */
mode_t fileio_new_file_mode(void);
/* All of buf (len bytes) to fd, across short writes and EINTR: 0 or -errno (-EIO: none). */
int fileio_write_all(int fd, const void *buf, size_t len);

#endif
