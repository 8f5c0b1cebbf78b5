// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening a target for direct I/O: block device or regular file. */
#include "engine.h"

#include <json-c/json.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drive.h"

/* The file system's direct-I/O offset alignment, or 512 when it does not say. */
static uint32_t file_dio_align(int fd)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
	return 512;
}

int target_open(struct target *t, const char *path, bool write, char *err, size_t errlen)
{
	struct stat st;
	int flags = (write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (S_ISBLK(st.st_mode)) {
		t->is_blockdev = true;
		t->rdev = st.st_rdev;
		/* the kernel then refuses a device that is mounted, swap, or held */
		if (write)
			flags |= O_EXCL;
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a block device or a regular file", path);
		return -EINVAL;
	}
	t->fd = open(path, flags);
	if (t->fd < 0) {
		ret = -errno;
		if (errno == EBUSY)
			snprintf(err, errlen, "%s: device is busy (mounted, swap or held by another "
				 "device)", path);
		else if (errno == EINVAL)
			snprintf(err, errlen, "%s: direct I/O is not supported here", path);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (t->is_blockdev) {
		int lbs = 0;
		unsigned int pbs = 0;
		if (ioctl(t->fd, BLKGETSIZE64, &t->size) < 0 || ioctl(t->fd, BLKSSZGET, &lbs) < 0 ||
		    ioctl(t->fd, BLKPBSZGET, &pbs) < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: cannot read its size: %s", path, strerror(errno));
			target_close(t);
			return ret;
		}
		t->lbs = (uint32_t)lbs;
		t->pbs = pbs;
	} else {
		t->size = (uint64_t)st.st_size;
		t->lbs = file_dio_align(t->fd);
		t->pbs = (uint32_t)st.st_blksize;
	}
	t->writable = write;
	return 0;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

struct json_object *target_to_json(const struct target *t)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(t->path));
	json_object_object_add(o, "kind", json_object_new_string(t->is_blockdev ? "block" : "file"));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)t->size));
	json_object_object_add(o, "lbs", json_object_new_int((int)t->lbs));
	json_object_object_add(o, "pbs", json_object_new_int((int)t->pbs));
	if (t->is_blockdev) {
		struct drive d;
		char err[256];
		if (drive_probe_path(t->path, &d, err, sizeof(err)) == 0)
			json_object_object_add(o, "drive", drive_to_json(&d));
	}
	return o;
}
