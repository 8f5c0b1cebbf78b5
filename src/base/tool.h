/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TOOL_H
#define DB_TOOL_H
/*
 * Where the tools of the field (smartctl, hdparm, nvme, fio) are found: the one place a
 * tool's name becomes the program that is run.
 *
 *   a name with a '/'   that file, as given (the tests' fake tools, an option's path)
 *   as root             the first executable file of that name on DRIVEBENCH_TOOL_PATH
 *                       when it is set, else on TOOL_SYSTEM_PATH; never on PATH, whose
 *                       empty entries (and ".") are the working directory
 *   otherwise           the first on PATH
 *
 * Only absolute directories are searched: a relative or empty entry of any of these is
 * skipped, so the working directory is never searched.
 */
#include <stddef.h>

#define TOOL_SYSTEM_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * The program to run for name, as an absolute path (or name itself when it has a '/'),
 * into path (len bytes). 0, -ENOENT when there is none, -ENAMETOOLONG.
 */
int tool_find(const char *name, char *path, size_t len);

/* The directories tool_find() searches now (TOOL_SYSTEM_PATH, the variable or PATH). */
const char *tool_search_path(void);

#endif
