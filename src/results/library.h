/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_LIBRARY_H
#define DB_LIBRARY_H
/*
 * The places the Results screen lists besides the results directory (library.c): result
 * files and directories, remembered in $XDG_CONFIG_HOME/drivebench/library.
 */
#include <stddef.h>

#define LIBRARY_MAX	  64	      /* places */
#define LIBRARY_MAX_BYTES (64u << 10) /* the file */

struct settings;

/* The file's path into buf. 0, or -ENOENT with neither XDG_CONFIG_HOME nor HOME in s. */
int library_path(const struct settings *s, char *buf, size_t len);
/*
 * The places listed (absolute paths) into paths[0..*n). A missing file is an empty
 * library. 0, or -errno / -EINVAL with "file:line: message" in err.
 */
int library_read(const struct settings *s, char (*paths)[4096], unsigned max, unsigned *n,
		 char *err, size_t errlen);
/* Add an absolute path (once), rewriting the file atomically. 0 or -errno, message in err. */
int library_add(const struct settings *s, const char *path, char *err, size_t errlen);

#endif
