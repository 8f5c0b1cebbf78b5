// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening a target for direct I/O: resolve once, open once, describe what was opened. */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The file system's direct-I/O offset alignment, or 512 when it does not say. */
static uint32_t file_dio_align(int fd)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
	return 512;
}

/*
 * Open a path that has no symlinks left in it, refusing (ELOOP) any that appeared since
 * it was resolved, in any component; kernels without openat2() check the last one only.
 */
static int open_no_symlinks(const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		fd = open(path, flags | O_NOFOLLOW);
	return (int)fd;
}

static bool same_object(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       (a->st_mode & S_IFMT) == (b->st_mode & S_IFMT) && a->st_rdev == b->st_rdev;
}

/*
 * Open the object that pfd (an O_PATH descriptor) refers to, with flags: through its
 * /proc/self/fd link, which leads to that very inode whatever happens to the path;
 * without /proc, the path again, checked to lead to the same object.
 */
static int reopen(int pfd, const struct stat *pst, const char *path, int flags)
{
	char link[64];
	struct stat st;
	int fd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", pfd);
	fd = open(link, flags);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	fd = open_no_symlinks(path, flags | O_NONBLOCK);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !same_object(&st, pst) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

static int open_error(struct target *t, int e, char *err, size_t errlen)
{
	if (e == EBUSY)
		snprintf(err, errlen, "%s: device is busy (mounted, swap or held by another device)",
			 t->path);
	else if (e == EINVAL)
		snprintf(err, errlen, "%s: direct I/O is not supported here", t->path);
	else if (e == ELOOP)
		snprintf(err, errlen, "%s: the path changed while it was being opened (a symlink "
			 "appeared in %s): not opened", t->path, t->resolved);
	else
		snprintf(err, errlen, "%s: %s", t->path, strerror(e));
	return -e;
}

int target_open(struct target *t, const char *path, bool write, char *err, size_t errlen)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC;
	struct stat pst, st;
	int pfd, ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (strlen(path) >= sizeof(t->path)) {
		snprintf(err, errlen, "%.64s...: path too long", path);
		return -ENAMETOOLONG;
	}
	if (!realpath(path, t->resolved)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	pfd = open_no_symlinks(t->resolved, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return open_error(t, errno, err, errlen);
	if (fstat(pfd, &pst) < 0) {
		ret = open_error(t, errno, err, errlen);
		goto out;
	}
	if (S_ISBLK(pst.st_mode)) {
		t->is_blockdev = true;
		t->rdev = pst.st_rdev;
		/* the kernel then refuses a device that is mounted, swap, or held */
		if (write)
			flags |= O_EXCL;
	} else if (!S_ISREG(pst.st_mode)) {
		snprintf(err, errlen, "%s: not a block device or a regular file", path);
		ret = -EINVAL;
		goto out;
	}
	t->fd = reopen(pfd, &pst, t->resolved, flags);
	if (t->fd < 0) {
		ret = open_error(t, errno, err, errlen);
		goto out;
	}
	if (fstat(t->fd, &st) < 0 || !same_object(&st, &pst)) {
		ret = open_error(t, ELOOP, err, errlen);
		goto out;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	if (t->is_blockdev) {
		int lbs = 0;
		unsigned int pbs = 0;
		if (ioctl(t->fd, BLKGETSIZE64, &t->size) < 0 || ioctl(t->fd, BLKSSZGET, &lbs) < 0 ||
		    ioctl(t->fd, BLKPBSZGET, &pbs) < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: cannot read its size: %s", path, strerror(errno));
			goto out;
		}
		t->lbs = (uint32_t)lbs;
		t->pbs = pbs;
	} else {
		t->size = (uint64_t)st.st_size;
		t->lbs = file_dio_align(t->fd);
		t->pbs = (uint32_t)st.st_blksize;
	}
	t->writable = write;
	ret = 0;
out:
	close(pfd);
	if (ret < 0 && t->fd >= 0) {
		close(t->fd);
		t->fd = -1;
	}
	return ret;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int target_diskseq(const struct target *t, uint64_t *seq)
{
#ifdef BLKGETDISKSEQ
	if (!t->is_blockdev || t->fd < 0)
		return -ENOTBLK;
	return ioctl(t->fd, BLKGETDISKSEQ, seq) < 0 ? -errno : 0;
#else
	(void)t;
	(void)seq;
	return -ENOSYS;
#endif
}
