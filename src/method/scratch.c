// SPDX-License-Identifier: GPL-2.0-or-later
/* The scratch file target (see scratch.h). */
#include "scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "holes.h"
#include "settings.h"
#include "units.h"

int scratch_path(const struct settings *s, char *buf, size_t len)
{
	const char *xdg = s->cache_home, *home = s->home;
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

/*
 * The size a scratch file at path may have: SCRATCH_SIZE_BYTES or $DRIVEBENCH_SCRATCH_SIZE,
 * but at most half of the free space beyond SCRATCH_KEEP_FREE_BYTES (held_bytes, what the
 * file itself holds already, counts as free), in whole MiB.
 */
static int fit_size(const struct settings *s, const char *path, uint64_t held_bytes,
		    uint64_t *size, char *err, size_t errlen)
{
	const char *env = s->scratch_size;
	char dir[4096], a[32], b[32];
	uint64_t want = SCRATCH_SIZE_BYTES, avail, room;
	struct statvfs vfs;
	const char *slash = strrchr(path, '/');

	if (env && *env && (units_parse_size(env, &want) || want < SCRATCH_MIN_BYTES)) {
		snprintf(err, errlen, "DRIVEBENCH_SCRATCH_SIZE: '%s' is not a size of 16m or more",
			 env);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (statvfs(dir, &vfs)) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(e));
		return -e;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize + held_bytes;
	room = avail > SCRATCH_KEEP_FREE_BYTES ? (avail - SCRATCH_KEEP_FREE_BYTES) / 2 : 0;
	*size = (want < room ? want : room) & ~((1ull << 20) - 1);
	if (*size < SCRATCH_MIN_BYTES) {
		snprintf(err, errlen,
			 "%s: %s free, too little for a scratch file (it keeps %s free and takes "
			 "at most half of the rest)",
			 dir, units_fmt_capacity(a, sizeof(a), avail),
			 units_fmt_capacity(b, sizeof(b), SCRATCH_KEEP_FREE_BYTES));
		return -ENOSPC;
	}
	return 0;
}

int scratch_unwritten(const char *path, uint64_t *bytes)
{
	struct stat st;
	bool more;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = fstat(fd, &st) ? -errno : holes_scan(fd, 0, (uint64_t)st.st_size, bytes, &more);
	close(fd);
	return ret;
}

int scratch_ensure(const struct settings *s, char *buf, size_t len, uint64_t *size_bytes,
		   uint64_t *unwritten_bytes, char *err, size_t errlen)
{
	uint64_t size;
	struct stat st;
	int ret, fd;

	ret = scratch_path(s, buf, len);
	if (ret) {
		snprintf(err, errlen, "no place for the scratch file: set XDG_CACHE_HOME or HOME");
		return ret;
	}
	if (stat(buf, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: exists and is not a regular file", buf);
			return -EEXIST;
		}
		ret = scratch_unwritten(buf, unwritten_bytes);
		if (ret) {
			snprintf(err, errlen, "%s: %s", buf, strerror(-ret));
			return ret;
		}
		*size_bytes = (uint64_t)st.st_size;
		if (!*unwritten_bytes)
			return 0;
		/* not written out yet: it may shrink to what fits now, never grow */
		ret = fit_size(s, buf, (uint64_t)st.st_blocks * 512, &size, err, errlen);
		if (ret)
			return ret;
		if (size < *size_bytes) {
			if (truncate(buf, (off_t)size)) {
				ret = -errno;
				snprintf(err, errlen, "%s: cannot shrink it to fit: %s", buf,
					 strerror(-ret));
				return ret;
			}
			*size_bytes = size;
			return scratch_unwritten(buf, unwritten_bytes);
		}
		return 0;
	}
	ret = make_parents(buf);
	if (ret) {
		snprintf(err, errlen, "%s: cannot create its directory: %s", buf, strerror(-ret));
		return ret;
	}
	ret = fit_size(s, buf, 0, &size, err, errlen);
	if (ret)
		return ret;
	/* O_EXCL: two drivebench instances starting at once must not both size it */
	fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		if (ret == -EEXIST && stat(buf, &st) == 0) {
			*size_bytes = (uint64_t)st.st_size;
			return scratch_unwritten(buf, unwritten_bytes);
		}
		snprintf(err, errlen, "%s: %s", buf, strerror(-ret));
		return ret;
	}
	if (ftruncate(fd, (off_t)size)) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot size it: %s", buf, strerror(-ret));
		close(fd);
		unlink(buf);
		return ret;
	}
	close(fd);
	*size_bytes = size;
	*unwritten_bytes = size;
	return 0;
}

/* xorshift64: incompressible enough for any drive's compression, and fast. */
static void fill_random(uint8_t *p, size_t len, uint64_t *s)
{
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t x = *s;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		*s = x;
		memcpy(p + i, &x, 8);
	}
}

static _Atomic uint64_t stop_after; /* scratch_stop_after(): 0, or bytes */

void scratch_stop_after(uint64_t bytes)
{
	atomic_store(&stop_after, bytes);
}

int scratch_fill(const char *path, atomic_int *stop, _Atomic uint64_t *done,
		 _Atomic uint64_t *total, char *err, size_t errlen)
{
	uint64_t limit = atomic_exchange(&stop_after, 0);
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)time(NULL), holes = 0, pos = 0;
	uint64_t since_sync = 0, synced = 0;
	uint8_t *buf = NULL;
	struct stat st;
	bool more;
	int fd, ret = 0;

	atomic_store(done, 0);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = fstat(fd, &st) ? -errno : holes_scan(fd, 0, (uint64_t)st.st_size, &holes, &more);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	atomic_store(total, holes);
	buf = malloc(SCRATCH_CHUNK_BYTES);
	if (!buf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* hole by hole, so that what is written stays and a second call resumes */
	while (pos < (uint64_t)st.st_size) {
		off_t h = lseek(fd, (off_t)pos, SEEK_HOLE), d;
		if (h < 0 || (uint64_t)h >= (uint64_t)st.st_size)
			break;
		d = lseek(fd, h, SEEK_DATA);
		uint64_t end = d < 0 || (uint64_t)d > (uint64_t)st.st_size ? (uint64_t)st.st_size
									    : (uint64_t)d;
		for (pos = (uint64_t)h; pos < end;) {
			size_t n = end - pos < SCRATCH_CHUNK_BYTES ? (size_t)(end - pos)
								   : SCRATCH_CHUNK_BYTES;
			if ((stop && atomic_load(stop)) || (limit && atomic_load(done) >= limit)) {
				ret = -ECANCELED;
				goto sync;
			}
			fill_random(buf, n, &seed);
			ssize_t w = pwrite(fd, buf, n, (off_t)pos);
			if (w <= 0) {
				ret = w < 0 ? -errno : -ENOSPC;
				snprintf(err, errlen, "%s: writing it out at %llu: %s", path,
					 (unsigned long long)pos, strerror(-ret));
				goto sync;
			}
			pos += (uint64_t)w;
			since_sync += (uint64_t)w;
			atomic_fetch_add(done, (uint64_t)w);
			/* progress that lasts a crash; the page cache need not keep it */
			if (since_sync >= SCRATCH_SYNC_BYTES) {
				fdatasync(fd);
				posix_fadvise(fd, (off_t)synced, (off_t)(pos - synced),
					      POSIX_FADV_DONTNEED);
				synced = pos;
				since_sync = 0;
			}
		}
	}
sync:
	if (fdatasync(fd) && !ret) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
out:
	free(buf);
	close(fd);
	return ret;
}

/* ---- on a thread of its own ------------------------------------------------------ */

struct scratch_filler {
	pthread_t thread;
	char path[4096];
	atomic_int stop;
	atomic_int state; /* 0 running, 1 written out, -errno failed */
	_Atomic uint64_t done, total;
	char err[512];    /* written before state is set */
};

static void *filler_main(void *arg)
{
	struct scratch_filler *f = arg;
	int ret = scratch_fill(f->path, &f->stop, &f->done, &f->total, f->err, sizeof(f->err));

	atomic_store(&f->state, ret == 0 ? 1 : ret);
	return NULL;
}

int scratch_filler_start(struct scratch_filler **out, const char *path, char *err, size_t errlen)
{
	struct scratch_filler *f = calloc(1, sizeof(*f));
	int ret;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(f->path, sizeof(f->path), "%s", path);
	ret = -pthread_create(&f->thread, NULL, filler_main, f);
	if (ret) {
		snprintf(err, errlen, "cannot start writing out %s: %s", path, strerror(-ret));
		free(f);
		return ret;
	}
	*out = f;
	return 0;
}

int scratch_filler_poll(struct scratch_filler *f, uint64_t *done, uint64_t *total, char *err,
			size_t errlen)
{
	int state = atomic_load(&f->state);

	*done = atomic_load(&f->done);
	*total = atomic_load(&f->total);
	if (state < 0)
		snprintf(err, errlen, "%s", f->err);
	return state;
}

void scratch_filler_free(struct scratch_filler *f)
{
	if (!f)
		return;
	atomic_store(&f->stop, 1);
	pthread_join(f->thread, NULL);
	free(f);
}
