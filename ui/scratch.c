// SPDX-License-Identifier: GPL-2.0-or-later
/* The scratch file target (see scratch.h). */
#include "scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int scratch_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/drivebench/scratch.img", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/drivebench/scratch.img", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p of the directory part of path */
static int make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int r = mkdir(path, 0755);
		int e = errno;
		*p = '/';
		if (r && e != EEXIST)
			return -e;
	}
	return 0;
}

int scratch_ensure(char *buf, size_t len, uint64_t *size_bytes, char *err, size_t errlen)
{
	struct stat st;
	int ret, fd;

	ret = scratch_path(buf, len);
	if (ret) {
		snprintf(err, errlen, "no place for the scratch file: set XDG_CACHE_HOME or HOME");
		return ret;
	}
	if (stat(buf, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: exists and is not a regular file", buf);
			return -EEXIST;
		}
		*size_bytes = (uint64_t)st.st_size;
		return 0;
	}
	ret = make_parents(buf);
	if (ret) {
		snprintf(err, errlen, "%s: cannot create its directory: %s", buf, strerror(-ret));
		return ret;
	}
	/* O_EXCL: two drivebench instances starting at once must not both size it */
	fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		if (ret == -EEXIST && stat(buf, &st) == 0) {
			*size_bytes = (uint64_t)st.st_size;
			return 0;
		}
		snprintf(err, errlen, "%s: %s", buf, strerror(-ret));
		return ret;
	}
	if (ftruncate(fd, (off_t)SCRATCH_SIZE_BYTES)) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot size it: %s", buf, strerror(-ret));
		close(fd);
		unlink(buf);
		return ret;
	}
	close(fd);
	*size_bytes = SCRATCH_SIZE_BYTES;
	return 0;
}
