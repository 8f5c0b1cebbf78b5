/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SITECONF_H
#define DB_SITECONF_H
/*
 * Site defaults for a lab of benches: one `key = value` file, drivebench.conf, found in
 * $XDG_CONFIG_DIRS/drivebench/ (default /etc/xdg) or /etc/drivebench/, the first that
 * exists. Keys (drivebench(1), FILES):
 *   results   = DIR    the results directory (DRIVEBENCH_RESULTS overrides it)
 *   theme     = NAME   the TUI's theme when --theme is not given
 *   busy-poll = MODE   auto, yes or no (DRIVEBENCH_BUSY_POLL and --busy-poll override it)
 *   library   = PATH   a result file or directory the Results screen lists too (repeat)
 * '#' starts a comment line. A key but library given twice is an error. An error is
 * "file:line: message".
 */
#include <stddef.h>

#define SITECONF_LIBRARY_MAX 16

struct siteconf {
	char path[4096];    /* the file read; "" when there is none */
	char results[4096]; /* "" when not set */
	char theme[256];
	unsigned theme_line; /* for a message about the theme */
	char busy_poll[8];
	char library[SITECONF_LIBRARY_MAX][4096];
	unsigned nlibrary;
};

struct settings;

/*
 * Find and read the file into c (zeroed first; no file is no error): the first of s's
 * XDG_CONFIG_DIRS (or /etc/xdg) holding drivebench/drivebench.conf, then
 * /etc/drivebench. 0, or -errno/-EINVAL with "file:line: message" in err.
 */
int siteconf_load(struct siteconf *c, const struct settings *s, char *err, size_t errlen);

#endif
