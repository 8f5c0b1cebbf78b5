// SPDX-License-Identifier: GPL-2.0-or-later
#include "purge.h"
#include "purge_erase.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PURGE_NAME(id, name) [id] = name,
const char *const purge_method_name[PURGE_NMETHODS] = {PURGE_METHODS(PURGE_NAME)};
#undef PURGE_NAME

#define ZERO_CHUNK (1u << 20) /* bytes per write when zeroing a file */

int purge_method_parse(const char *s, enum purge_method *m)
{
	for (int i = 0; i < PURGE_NMETHODS; i++) {
		if (!strcmp(s, purge_method_name[i])) {
			*m = (enum purge_method)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool purge_method_erases_device(enum purge_method m)
{
	return m == PURGE_NVME_FORMAT || m == PURGE_NVME_SANITIZE || m == PURGE_ATA_ERASE ||
	       m == PURGE_SECURE_ERASE || m == PURGE_AUTO;
}

static int blk_range_ioctl(const struct target *t, unsigned long req, const char *what,
			   uint64_t start, uint64_t len, char *err, size_t errlen)
{
	uint64_t range[2] = {start, len};

	if (ioctl(t->fd, req, range) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s of %llu bytes at %llu failed: %s", t->path, what,
			 (unsigned long long)len, (unsigned long long)start, strerror(e));
		return -e;
	}
	return 0;
}

/* The fd is O_DIRECT: aligned buffer, aligned offsets, whole logical blocks only. */
static int file_zero(const struct target *t, uint64_t start, uint64_t len, atomic_int *stop,
		     char *err, size_t errlen)
{
	uint32_t align = t->lbs > 4096 ? t->lbs : 4096;
	void *buf = NULL;
	int ret = 0;

	len -= len % (t->lbs ? t->lbs : 512);
	if (posix_memalign(&buf, align, ZERO_CHUNK))
		return -ENOMEM;
	memset(buf, 0, ZERO_CHUNK);
	for (uint64_t done = 0; done < len;) {
		size_t n = len - done < ZERO_CHUNK ? (size_t)(len - done) : ZERO_CHUNK;
		ssize_t w;

		if (stop && atomic_load(stop)) {
			ret = -ECANCELED;
			goto out_free;
		}
		w = pwrite(t->fd, buf, n, (off_t)(start + done));
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: writing zeroes at %llu failed: %s", t->path,
				 (unsigned long long)(start + done), strerror(-ret));
			goto out_free;
		}
		done += (uint64_t)w;
	}
	if (fdatasync(t->fd) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: fdatasync: %s", t->path, strerror(-ret));
	}
out_free:
	free(buf);
	return ret;
}

/* The plain methods on a range; the secure erases live in purge_erase.c. */
int purge_range(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
		       atomic_int *stop, char *err, size_t errlen)
{
	/* never past the end: a file is not grown, a device ioctl would fail */
	if (start >= t->size)
		return 0;
	if (len == 0 || len > t->size - start)
		len = t->size - start;
	if (t->is_blockdev) {
		if (m == PURGE_DISCARD)
			return blk_range_ioctl(t, BLKDISCARD, "discard", start, len, err, errlen);
		return blk_range_ioctl(t, BLKZEROOUT, "zeroout", start, len, err, errlen);
	}
	if (m == PURGE_DISCARD) {
		if (fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)start,
			      (off_t)len) < 0) {
			int e = errno;
			snprintf(err, errlen, "%s: punching a hole of %llu bytes at %llu: %s",
				 t->path, (unsigned long long)len, (unsigned long long)start,
				 strerror(e));
			return -e;
		}
		return 0;
	}
	return file_zero(t, start, len, stop, err, errlen);
}

uint64_t purge_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int purge_run(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
	      const struct purge_opts *o, struct purge_outcome *out, char *err, size_t errlen)
{
	static const struct purge_opts no_opts;
	struct purge_outcome own;
	uint64_t t0 = purge_now_ns();
	int ret;

	if (!o)
		o = &no_opts;
	if (!out)
		out = &own;
	memset(out, 0, sizeof(*out));
	out->used = m;
	if (m == PURGE_NONE)
		return 0;
	if (!t->writable) {
		snprintf(err, errlen, "%s: %s needs the target open for writing", t->path,
			 purge_method_name[m]);
		return -EBADF;
	}
	if (purge_method_erases_device(m)) {
		ret = purge_erase(t, m, start, len, o, out, err, errlen);
	} else {
		ret = purge_range(t, m, start, len, o->stop, err, errlen);
	}
	out->elapsed_ns = purge_now_ns() - t0;
	return ret;
}
