// SPDX-License-Identifier: GPL-2.0-or-later
#include "tool.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *tool_search_path(void)
{
	const char *env;

	if (geteuid() == 0) {
		env = getenv("DRIVEBENCH_TOOL_PATH");
		return env && env[0] ? env : TOOL_SYSTEM_PATH;
	}
	env = getenv("PATH");
	return env ? env : TOOL_SYSTEM_PATH;
}

/* An executable regular file (for the caller's real and effective ids: access()). */
static bool runnable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int tool_find(const char *name, char *path, size_t len)
{
	const char *dirs = tool_search_path(), *p;
	size_t nlen = strlen(name);

	if (!nlen)
		return -ENOENT;
	if (strchr(name, '/')) {
		if (nlen >= len)
			return -ENAMETOOLONG;
		memcpy(path, name, nlen + 1);
		return 0;
	}
	for (p = dirs; *p; p += *p == ':') {
		size_t dlen = strcspn(p, ":");
		const char *dir = p;

		p += dlen;
		/* "" and relative entries would search the working directory */
		if (!dlen || dir[0] != '/')
			continue;
		if (dlen + 1 + nlen >= len)
			continue;
		snprintf(path, len, "%.*s/%s", (int)dlen, dir, name);
		if (runnable(path))
			return 0;
	}
	path[0] = '\0';
	return -ENOENT;
}
