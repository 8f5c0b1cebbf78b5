// SPDX-License-Identifier: GPL-2.0-or-later
/* In-use checks: what backs a loop device, and what a zram device writes back to. */
#include "inuse.h"
#include "inuse_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drive_probe.h"
#include "text.h"

/* A dev_t as the kernel encodes it in struct loop_info64 (new_encode_dev). */
static dev_t kdev_decode(uint64_t d)
{
	return makedev((unsigned)((d & 0xfff00) >> 8),
		       (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

/* What a loop device's backing object is, in e: a block device, or a file's inode. */
static void set_backing(struct blk_entry *e, const struct stat *st)
{
	if (S_ISBLK(st->st_mode)) {
		e->backing = st->st_rdev;
		e->backing_is_file = false;
	} else {
		e->backing_is_file = true;
		e->file_dev = st->st_dev;
		e->file_ino = st->st_ino;
	}
}

/*
 * Ask the loop driver itself (LOOP_GET_STATUS64) what backs the loop device e: the
 * device number and inode it holds, which stay right when the backing path was deleted
 * or replaced (the driver asks the file system for the inode: never for a file on a
 * remote mount). Only for the running kernel's sysfs, through a /dev node proven to be
 * e; never for an autoclear device, which our close could detach. false when it could
 * not ask.
 */
static bool loop_status(const struct inuse_snapshot *s, const char *dir, struct blk_entry *e)
{
	char path[PATH_MAX], flag[8] = "";
	struct loop_info64 li;
	struct stat st;
	bool ok;
	int fd;

	if (!s->real_sys || probe_read_attr(dir, "loop/autoclear", flag, sizeof(flag)) ||
	    strcmp(flag, "0"))
		return false;
	probe_fmt(path, sizeof(path), "/dev/%s", e->name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == e->dev &&
	     ioctl(fd, LOOP_GET_STATUS64, &li) == 0;
	close(fd);
	if (!ok)
		return false;
	memset(&st, 0, sizeof(st));
	if (li.lo_rdevice) {
		st.st_mode = S_IFBLK;
		st.st_rdev = kdev_decode(li.lo_rdevice);
	} else {
		st.st_mode = S_IFREG;
		st.st_dev = kdev_decode(li.lo_device);
		st.st_ino = (ino_t)li.lo_inode;
	}
	set_backing(e, &st);
	return true;
}

/*
 * A loop device over a block device uses that device without any holders link and
 * without claiming it exclusively, so the kernel would let a write through; one over a
 * regular file makes writing that file writing the loop device. Remember what backs
 * every bound loop device: its backing path here, and what that is once the mounts are
 * known (inuse_resolve_backing()). -ENOMEM, else 0.
 */
int inuse_read_loop(const char *dir, struct blk_entry *e)
{
	char path[PATH_MAX], file[PATH_MAX];
	uint64_t v;
	FILE *f;

	probe_fmt(path, sizeof(path), "%s/loop/backing_file", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	e->is_loop = true;
	e->loop_offset = probe_read_u64(dir, "loop/offset", &v) ? 0 : v;
	e->loop_limit = probe_read_u64(dir, "loop/sizelimit", &v) ? 0 : v;
	if (!fgets(file, sizeof(file), f))
		file[0] = '\0';
	fclose(f);
	file[strcspn(file, "\n")] = '\0';
	text_visible(e->backing_name, sizeof(e->backing_name), file);
	if (!file[0])
		return 0;
	e->backing_path = strdup(file);
	return e->backing_path ? 0 : -ENOMEM;
}

/*
 * What backs each bound loop device (and what each zram device writes back to), once the
 * mounts are known. A file on a network or FUSE mount is known by its path alone
 * (file_ino 0): both a stat() of the path and the driver's LOOP_GET_STATUS64 (which asks
 * the file system for the inode) wait for a server that may never answer, an ISO on NFS
 * mounted with -o loop, its server gone.
 */
void inuse_resolve_backing(struct inuse_snapshot *s)
{
	for (size_t i = 0; i < s->nblk; i++) {
		struct blk_entry *e = &s->blk[i];
		const struct remote_mnt *r;
		char dir[PATH_MAX];
		struct stat st;

		if (!e->backing_path)
			continue;
		r = inuse_remote_path(s, e->backing_path);
		if (!e->is_loop) { /* a zram device's writeback device: a block device */
			if (!r && stat(e->backing_path, &st) == 0 && S_ISBLK(st.st_mode))
				e->writeback = st.st_rdev;
			continue;
		}
		probe_fmt(dir, sizeof(dir), "%s/class/block/%s", s->sys, e->name);
		if (r) {
			e->backing_is_file = true;
			e->file_dev = r->dev;
			e->file_ino = 0;
		} else if (!loop_status(s, dir, e) && stat(e->backing_path, &st) == 0) {
			set_backing(e, &st);
		}
		if (e->backing_is_file && e->file_ino && inuse_overlay_dev(s, e->file_dev)) {
			st = (struct stat){
				.st_mode = S_IFREG, .st_dev = e->file_dev, .st_ino = e->file_ino};
			inuse_overlay_real(s, e->backing_path, &st);
			set_backing(e, &st);
		}
	}
}

/*
 * A zram device's writeback device (backing_dev, a path or "none"): zram claims it, so a
 * write would meet O_EXCL's refusal, but only this says by whom. Its path here, what it
 * is in inuse_resolve_backing(). -ENOMEM, else 0.
 */
int inuse_read_zram_writeback(const char *dir, struct blk_entry *e)
{
	char file[PATH_MAX];

	if (probe_read_attr(dir, "backing_dev", file, sizeof(file)) || file[0] != '/')
		return 0;
	e->backing_path = strdup(file);
	return e->backing_path ? 0 : -ENOMEM;
}
