// SPDX-License-Identifier: GPL-2.0-or-later
#include "safety.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "drive_probe.h"
#include "errbuf.h"
#include "fileio.h"
#include "signatures.h"
#include "strbuf.h"

dev_t safety_whole_disk(dev_t dev, const struct inuse_roots *roots)
{
	char link[256], real[PATH_MAX], part[PATH_MAX + 16];
	const char *sys = roots && roots->sys ? roots->sys : "/sys";

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	if (!realpath(link, real))
		return dev;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK) != 0)
		return dev;
	char *slash = strrchr(real, '/');
	if (!slash)
		return dev;
	*slash = '\0'; /* the parent: the whole disk's directory */
	probe_read_dev(real, &dev);
	return dev;
}

/* The refusal in b, then the reasons u gives ("reason; reason)"), into err: -EPERM. */
static int refuse(struct strbuf *b, const struct inuse *u, char *err, size_t errlen)
{
	char *s;

	for (unsigned i = 0; i < u->nreasons; i++)
		strbuf_add(b, "%s%s", i ? "; " : "", u->reason[i].text);
	strbuf_add(b, ")");
	s = strbuf_take(b);
	snprintf(err, errlen, "%s", s ? s : "refusing to write: a device is in use");
	free(s);
	return -EPERM;
}

/* "refusing to write to PATH: it is in use (reason; reason)": -EPERM when u says so. */
static int refuse_inuse(const struct inuse *u, const char *path, char *err, size_t errlen)
{
	struct strbuf b = {0};

	if (!inuse_busy(u))
		return 0;
	strbuf_add(&b, "refusing to write to %s: it is in use (", path);
	return refuse(&b, u, err, errlen);
}

int safety_explain_busy(dev_t rdev, const char *path, const struct inuse_roots *roots,
			char *err, size_t errlen)
{
	struct inuse use;
	int ret = inuse_check(rdev, roots, &use, err, errlen);

	return ret < 0 ? ret : refuse_inuse(&use, path, err, errlen);
}

/* "nvme0n2": a namespace block device (not a partition, not a multipath path nvme0c0n1) */
static bool is_namespace_name(const char *name)
{
	unsigned ctrl, ns;
	int end = 0;

	return sscanf(name, "nvme%un%u%n", &ctrl, &ns, &end) == 2 && name[end] == '\0';
}

/*
 * The sysfs directory of block device dev: /sys/dev/block/M:m, or, where that index is
 * missing (some fixture trees), the class/block entry whose "dev" says M:m.
 */
static int sys_block_dir(const char *sys, dev_t dev, char *out)
{
	char link[PATH_MAX];
	struct dirent *e;
	DIR *dir;
	int ret = -ENOENT;

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	if (realpath(link, out))
		return 0;
	snprintf(link, sizeof(link), "%s/class/block", sys);
	dir = opendir(link);
	if (!dir)
		return -errno;
	while (ret && (e = readdir(dir))) {
		dev_t d;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/class/block/%s", sys, e->d_name);
		if (!probe_read_dev(link, &d) && d == dev)
			ret = realpath(link, out) ? 0 : -errno;
	}
	closedir(dir);
	return ret;
}

/*
 * Is the device whose sysfs directory is dir on its way out, by the state its driver
 * shows while it removes it (before sysfs drops it: the I/O that fails as a controller or
 * disk is removed fails first)? An NVMe controller's "state" (nvme_ctrl_state_show():
 * "deleting", "deleting (no IO)", "dead") or a SCSI device's (scsi_sysfs.c: "cancel",
 * "deleted", "cancel-offline"). A state that cannot be read is not a removal.
 */
static bool removing(const char *dir, const char *attr)
{
	static const char *const gone[] = {"deleting", "deleting (no IO)", "dead", "cancel",
					   "deleted", "cancel-offline"};
	char path[PATH_MAX + 32], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (!(f = fopen(path, "re")))
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (!strcmp(buf, gone[i]))
			return true;
	return false;
}

bool safety_present(dev_t dev, const struct inuse_roots *roots)
{
	char real[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *e;
	bool ctrl = false;
	DIR *dir;

	if (sys_block_dir(roots && roots->sys ? roots->sys : "/sys", dev, real) < 0)
		return false;
	if (removing(real, "device/state"))
		return false;
	/* an NVMe namespace under native multipath: its head stays while it is open, after
	 * every controller that reached it has gone; gone is when none is left, or every
	 * one left is being removed. Without multipath the controller is the parent. */
	*strrchr(real, '/') = '\0';
	if (strncmp(strrchr(real, '/') + 1, "nvme-subsys", 11))
		return !removing(real, "state");
	dir = opendir(real);
	while (dir && !ctrl && (e = readdir(dir))) {
		unsigned c;
		int end = 0;
		if (sscanf(e->d_name, "nvme%u%n", &c, &end) != 1 || e->d_name[end])
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", real, e->d_name);
		ctrl = !removing(sub, "state");
	}
	if (dir)
		closedir(dir);
	return ctrl;
}

int safety_removed(const dev_t *devs, unsigned n, unsigned wait_ms, const struct inuse_roots *roots)
{
	for (unsigned waited = 0;; waited += 50) {
		for (unsigned i = 0; i < n; i++)
			if (!safety_present(devs[i], roots))
				return (int)i;
		if (!n || waited >= wait_ms)
			return -1;
		nanosleep(&(struct timespec){.tv_nsec = 50 * 1000000L}, NULL);
	}
}

bool safety_partition_of(dev_t dev, const struct inuse_roots *roots, char *disk, size_t len)
{
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	char real[PATH_MAX], attr[PATH_MAX + 16];

	if (sys_block_dir(sys, dev, real) < 0)
		return false;
	snprintf(attr, sizeof(attr), "%s/partition", real);
	if (access(attr, F_OK) != 0)
		return false;
	*strrchr(real, '/') = '\0';
	snprintf(disk, len, "%s", strrchr(real, '/') ? strrchr(real, '/') + 1 : real);
	return true;
}

/* Does the character device (an NVMe controller) rdev have the number in dir/dev? */
static bool dev_attr_is(const char *dir, dev_t rdev)
{
	dev_t d;

	return !probe_read_dev(dir, &d) && d == rdev;
}

bool safety_confirms_controller(const struct target *t, const char *confirm,
				const struct inuse_roots *roots)
{
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	char real[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *e;
	struct stat st;
	bool ok = false;
	DIR *dir;

	if (!confirm || !t->is_blockdev || stat(confirm, &st) < 0 || !S_ISCHR(st.st_mode) ||
	    sys_block_dir(sys, t->rdev, real) < 0)
		return false;
	*strrchr(real, '/') = '\0'; /* the controller, or with native multipath the subsystem */
	if (dev_attr_is(real, st.st_rdev))
		return true;
	dir = opendir(real);
	if (!dir)
		return false;
	while (!ok && (e = readdir(dir))) {
		unsigned c;
		int end = 0;
		if (sscanf(e->d_name, "nvme%u%n", &c, &end) != 1 || e->d_name[end])
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", real, e->d_name);
		ok = dev_attr_is(sub, st.st_rdev);
	}
	closedir(dir);
	return ok;
}

int safety_check_namespaces(const struct target *t, const char *what,
			    const struct inuse_roots *roots, char *err, size_t errlen)
{
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	char real[PATH_MAX], path[PATH_MAX + 300];
	dev_t disk = safety_whole_disk(t->rdev, roots);
	struct inuse_snapshot *snap;
	struct dirent *e;
	DIR *dir;
	int ret;

	ret = sys_block_dir(sys, disk, real);
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot find its controller in sysfs (%s): %s", t->path,
			 sys, strerror(-ret));
		return ret;
	}
	char *slash = strrchr(real, '/');
	if (!slash || !is_namespace_name(slash + 1))
		return 0; /* not an NVMe namespace: nothing beyond the disk itself */
	*slash = '\0';
	dir = opendir(real);
	if (!dir) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", real, strerror(-ret));
		return ret;
	}
	ret = inuse_snapshot_take(&snap, roots, err, errlen);
	if (ret < 0) {
		closedir(dir);
		return ret;
	}
	while ((e = readdir(dir))) {
		struct strbuf b = {0};
		struct inuse use;
		dev_t ns;

		if (!is_namespace_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", real, e->d_name);
		if (probe_read_dev(path, &ns))
			continue;
		if (inuse_snapshot_check(snap, ns, &use) < 0 || !inuse_busy(&use))
			continue;
		strbuf_add(&b,
			   "refusing to %s %s: it erases every namespace of the controller, and "
			   "%s is in use (",
			   what, t->path, e->d_name);
		ret = refuse(&b, &use, err, errlen);
		break;
	}
	inuse_snapshot_free(snap);
	closedir(dir);
	return ret;
}

bool safety_confirms(const struct target *t, const char *confirm)
{
	char cpath[PATH_MAX + 8];
	struct stat st;

	if (!confirm || !*confirm)
		return false;
	if (!t->is_blockdev)
		return stat(confirm, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == t->dev &&
		       st.st_ino == t->ino;
	snprintf(cpath, sizeof(cpath), "%s%s", strchr(confirm, '/') ? "" : "/dev/", confirm);
	return stat(cpath, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == t->rdev;
}

/*
 * "; it holds ext4 file system ..." for what t holds now, or "": a refusal says it, so it
 * must not wait for ever on a device that does not answer a read (a loop device over a
 * dead server's image).
 */
static const char *holds(const struct target *t, char *buf, size_t len)
{
	static const char lead[] = "; it holds ";
	struct sig_list sl;
	char fd[32];
	int r;

	buf[0] = '\0';
	if (t->fd < 0 || len <= sizeof(lead))
		return buf;
	snprintf(fd, sizeof(fd), "/proc/self/fd/%d", t->fd);
	r = sig_probe_path_within(fd, &sl, SIG_PROBE_MS);
	if (r == 0 && sl.n) {
		memcpy(buf, lead, sizeof(lead));
		sig_describe(&sl, buf + sizeof(lead) - 1, len - sizeof(lead) + 1);
	} else if (r == -ETIMEDOUT) {
		snprintf(buf, len,
			 "; what it holds is not known: it did not answer a read within %u s",
			 SIG_PROBE_MS / 1000);
	}
	return buf;
}

int safety_check_target(const struct target *t, const char *confirm,
			const struct inuse_roots *roots, char *err, size_t errlen)
{
	char held[DB_ERR_LEN / 2];
	struct inuse use;
	int ret;

	if (!t->is_blockdev) {
		ret = inuse_check_file(t->dev, t->ino, t->resolved[0] ? t->resolved : NULL, roots,
				       &use, err, errlen);
		ret = ret < 0 ? ret : refuse_inuse(&use, t->path, err, errlen);
		/* a file that holds a file system, a partition table or a volume is a disk
		   image: it is confirmed as a device is; any other file is drivebench's to
		   write (its content does not matter) */
		if (ret < 0 || t->size == 0 || safety_confirms(t, confirm) ||
		    !*holds(t, held, sizeof(held)))
			return ret;
		snprintf(err, errlen,
			 "refusing to write to %s without confirmation: it is a disk image, and "
			 "this destroys what it holds (confirm with --yes-destroy=%s)%s",
			 t->path, t->path, held);
		return -EPERM;
	}
	ret = safety_explain_busy(t->rdev, t->path, roots, err, errlen);
	if (ret < 0)
		return ret;
	if (!confirm || !*confirm) {
		snprintf(err, errlen,
			 "refusing to write to block device %s without confirmation: this destroys "
			 "its data (confirm with --yes-destroy=%s)%s",
			 t->path, t->path, holds(t, held, sizeof(held)));
		return -EPERM;
	}
	if (!safety_confirms(t, confirm)) {
		snprintf(err, errlen,
			 "refusing to write to %s: the confirmation '%s' does not name that device",
			 t->path, confirm);
		return -EPERM;
	}
	return 0;
}

/* The reach of a write to t, from one look at the system. */
static int target_reach(const struct inuse_snapshot *snap, const struct target *t,
			struct inuse_reach *reach)
{
	struct inuse_obj o = {.is_file = !t->is_blockdev,
			      .dev = t->is_blockdev ? t->rdev : t->dev,
			      .ino = t->is_blockdev ? 0 : t->ino,
			      .path = !t->is_blockdev && t->resolved[0] ? t->resolved : NULL,
			      .len = INUSE_WHOLE};

	return inuse_snapshot_reach(snap, &o, t->path, reach);
}

int safety_claim_reach(const struct target *t, int *fds, unsigned max, unsigned *nfds,
		       const struct inuse_roots *roots, char *err, size_t errlen)
{
	struct inuse_snapshot *snap;
	struct inuse_reach *reach;
	int ret;

	*nfds = 0;
	if (!t->is_blockdev || (roots && (roots->sys || roots->proc)))
		return 0; /* a fixture's devices are not this machine's */
	reach = malloc(sizeof(*reach));
	if (!reach)
		return -ENOMEM;
	ret = inuse_snapshot_take(&snap, roots, err, errlen);
	if (ret == 0) {
		ret = target_reach(snap, t, reach);
		inuse_snapshot_free(snap);
	}
	for (unsigned i = 0; ret == 0 && i < reach->n && *nfds < max; i++) {
		const struct inuse_obj *o = &reach->obj[i];
		char node[PATH_MAX];
		struct stat st;
		int fd;

		if (!o->claim)
			continue;
		/* the kernel's name under /dev, else the devtmpfs index; proven by fstat() */
		snprintf(node, sizeof(node), "/dev/%s", o->name);
		if (stat(node, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != o->dev)
			snprintf(node, sizeof(node), "/dev/block/%u:%u", major(o->dev),
				 minor(o->dev));
		fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 && errno == ENOENT)
			continue; /* no node to claim it by: the check above is all there is */
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != o->dev) {
			ret = errno == EBUSY ? -EBUSY : -EPERM;
			snprintf(err, errlen,
				 "refusing to write to %s: %s, which another program has open "
				 "exclusively (%s)",
				 t->path, o->via, fd < 0 ? strerror(errno) : "not the device named");
			if (fd >= 0)
				close(fd);
			break;
		}
		fds[(*nfds)++] = fd;
	}
	free(reach);
	if (ret < 0) {
		for (unsigned i = 0; i < *nfds; i++)
			close(fds[i]);
		*nfds = 0;
	}
	return ret;
}

/* Is the output (a file (dev, ino), or a new name on file system fs) in t's reach? */
static int output_in_reach(const struct inuse_snapshot *snap, const struct target *t, bool writes,
			   const char *path, const char *real, const struct stat *st, dev_t fs,
			   char *err, size_t errlen)
{
	struct inuse_reach *reach = malloc(sizeof(*reach));
	int ret;

	if (!reach)
		return -ENOMEM;
	ret = target_reach(snap, t, reach);
	for (unsigned i = 0; ret == 0 && i < reach->n; i++) {
		const struct inuse_obj *o = &reach->obj[i];
		if (st && o->is_file &&
		    inuse_same_file(snap, o->dev, o->ino, o->path, st->st_dev, st->st_ino, real)) {
			snprintf(err, errlen, "%s: refusing to write an output there: it is %s%s%s",
				 path, i ? "what the target writes (" : "the target ",
				 i ? o->via : t->path, i ? ")" : "");
			ret = -EINVAL;
		} else if (writes && !o->is_file && o->dev == fs) {
			snprintf(err, errlen,
				 "%s: refusing to write an output there: it is on a file system on "
				 "%s, which the run writes (%s%s)",
				 path, o->name, o->via[0] ? o->via : "the target",
				 o->via[0] ? "" : " itself");
			ret = -EINVAL;
		}
	}
	free(reach);
	return ret == -ENODEV ? 0 : ret;
}

/*
 * Does someone hold the regular file at path locked exclusively, as a run holds the result
 * it writes (result_file.c)? A probe with LOCK_SH that takes nothing. What the name holds
 * now: a run's save may have put a new inode there since it was looked at, locked as the
 * last one was.
 */
static bool locked(const char *path)
{
	struct stat now;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	bool held = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &now) == 0 && S_ISREG(now.st_mode))
		held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

int safety_check_output(const char *path, const struct target *t, unsigned nt, bool writes,
			const struct inuse_roots *roots, char *err, size_t errlen)
{
	struct inuse_snapshot *snap;
	struct stat st, dst;
	char dir[PATH_MAX];
	bool exists;
	int ret;

	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: refusing to write an output there: it is %s", path,
			 fileio_kind(st.st_mode));
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if (!exists && stat(dir, &dst) < 0)
		return 0; /* no such directory: writing the output says so */
	ret = inuse_snapshot_take(&snap, roots, err, errlen);
	if (ret < 0)
		return ret;
	char *real = exists ? realpath(path, NULL) : NULL;
	char *rdir = exists ? NULL : realpath(dir, NULL);
	/* on an overlay, the file (or directory) of its layer that holds the data */
	if (exists)
		inuse_overlay_real(snap, real, &st);
	else
		inuse_overlay_real(snap, rdir, &dst);
	free(rdir);
	for (unsigned i = 0; ret == 0 && i < nt; i++)
		ret = output_in_reach(snap, &t[i], writes, path, real, exists ? &st : NULL,
				      exists ? st.st_dev : dst.st_dev, err, errlen);
	if (ret == 0 && exists) {
		struct inuse use;
		unsigned k = 0;
		char who[200], held[DB_ERR_LEN / 2] = "";
		struct sig_list sl;
		/* what is not drivebench's to replace: a file another program writes (a virtual
		   machine's image, an exported one, a run's target), or a disk image. Another
		   drivebench writing a result it holds locked is the results' layer to refuse */
		if (inuse_snapshot_foreign_writer(snap, st.st_dev, st.st_ino,
						  locked(path) ? "drivebench" : NULL, who,
						  sizeof(who))) {
			snprintf(err, errlen,
				 "%s: refusing to write an output there: %s is writing it", path,
				 who);
			ret = -EINVAL;
		} else if (st.st_size && sig_probe_path(path, &sl) == 0 && sl.n) {
			sig_describe(&sl, held, sizeof(held));
			snprintf(err, errlen,
				 "%s: refusing to write an output there: it is a disk image (it "
				 "holds %s)",
				 path, held);
			ret = -EINVAL;
		} else {
			ret = inuse_snapshot_check_file(snap, st.st_dev, st.st_ino, real, &use);
		}
		/* a writer is not a refusal here: results are told apart by their locks
		   (another run's, or a name taken meanwhile), and the next free name is used */
		while (k < use.nreasons && use.reason[k].kind == INUSE_OPEN)
			k++;
		if (ret == 0 && (use.flags & ~INUSE_BIT(INUSE_OPEN))) {
			snprintf(err, errlen, "%s: refusing to write an output there: the file %s",
				 path, k < use.nreasons ? use.reason[k].text : "is in use");
			ret = -EINVAL;
		}
	}
	inuse_snapshot_free(snap);
	free(real);
	if (ret < 0 && ret != -EINVAL)
		snprintf(err, errlen, "%s: cannot check the output: %s", path, strerror(-ret));
	return ret;
}
