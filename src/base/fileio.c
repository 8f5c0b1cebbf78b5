// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading input files: regular files only, up to a limit (fileio.h). */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text.h"

char *fileio_fmt_limit(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB"};
	unsigned i = 0;

	while (i < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, unit[i]);
	return buf;
}

const char *fileio_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

/* fileio_open(), what fstat() said into *st */
static int open_checked(const char *path, const char *what, uint64_t max, struct stat *st,
			char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), ret;
	char lim[32];

	if (fd < 0) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, st) || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
	} else if (!S_ISREG(st->st_mode)) {
		ret = S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
		text_fmt(err, errlen, "%s: %s, not %s", path, fileio_kind(st->st_mode), what);
	} else if ((uint64_t)st->st_size > max) {
		ret = -EFBIG;
		text_fmt(err, errlen, "%s: %llu bytes, over the limit of %s for %s", path,
			 (unsigned long long)st->st_size, fileio_fmt_limit(lim, sizeof(lim), max),
			 what);
	} else {
		return fd;
	}
	close(fd);
	return ret;
}

int fileio_open(const char *path, const char *what, uint64_t max, char *err, size_t errlen)
{
	struct stat st;

	return open_checked(path, what, max, &st, err, errlen);
}

int fileio_fopen(const char *path, const char *what, uint64_t max, FILE **f, char *err,
		 size_t errlen)
{
	int fd = fileio_open(path, what, max, err, errlen), ret;

	*f = NULL;
	if (fd < 0)
		return fd;
	if (!(*f = fdopen(fd, "rb"))) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
		close(fd);
		return ret;
	}
	return 0;
}

int fileio_read(const char *path, const char *what, uint64_t max, char **out, size_t *len,
		char *err, size_t errlen)
{
	struct stat st;
	int fd = open_checked(path, what, max, &st, err, errlen);
	char lim[32];
	char *buf = NULL;
	size_t n = 0, cap;
	int ret;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	/* the size may change while it is read (a file being written): read to the end,
	 * but never past the limit */
	cap = (size_t)st.st_size + 1;
	if (cap < 4096)
		cap = 4096;
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		text_fmt(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > max + 1) {
				ret = -EFBIG;
				text_fmt(err, errlen, "%s: grew past the limit of %s for %s", path,
					 fileio_fmt_limit(lim, sizeof(lim), max), what);
				goto out;
			}
			size_t ncap = cap * 2 > max + 2 ? (size_t)max + 2 : cap * 2;
			char *p = realloc(buf, ncap);
			if (!p) {
				ret = -ENOMEM;
				text_fmt(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = p;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			ret = -EFBIG;
			text_fmt(err, errlen, "%s: grew past the limit of %s for %s", path,
				 fileio_fmt_limit(lim, sizeof(lim), max), what);
			goto out;
		}
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
	ret = 0;
out:
	free(buf);
	close(fd);
	return ret;
}

int fileio_read_text(const char *path, const char *what, uint64_t max, char **out, size_t *len,
		     char *err, size_t errlen)
{
	int ret = fileio_read(path, what, max, out, len, err, errlen);

	if (ret)
		return ret;
	if (text_utf8_fix_buf(out, len)) {
		free(*out);
		*out = NULL;
		text_fmt(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	return 0;
}

mode_t fileio_new_file_mode(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned mask = 022;

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Umask: %o", &mask) == 1)
				break;
		fclose(f);
	}
	return (mode_t)(0666 & ~mask);
}

int fileio_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
