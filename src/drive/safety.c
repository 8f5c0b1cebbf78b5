// SPDX-License-Identifier: GPL-2.0-or-later
#include "safety.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The whole disk a block device belongs to: itself, or a partition's parent. */
static dev_t whole_disk(dev_t dev, const struct inuse_roots *roots)
{
	char link[256], real[PATH_MAX], part[PATH_MAX + 16];
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	unsigned maj, min;
	FILE *f;

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	if (!realpath(link, real))
		return dev;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK) != 0)
		return dev;
	char *slash = strrchr(real, '/');
	if (!slash)
		return dev;
	snprintf(slash, sizeof(real) - (size_t)(slash - real), "/dev");
	f = fopen(real, "re");
	if (!f)
		return dev;
	if (fscanf(f, "%u:%u", &maj, &min) == 2)
		dev = makedev(maj, min);
	fclose(f);
	return dev;
}

/* "refusing to write to PATH: it is in use (reason; reason)": -EPERM when u says so. */
static int refuse_inuse(const struct inuse *u, const char *path, char *err, size_t errlen)
{
	size_t n;

	if (!inuse_busy(u))
		return 0;
	n = (size_t)snprintf(err, errlen, "refusing to write to %s: it is in use (", path);
	for (unsigned i = 0; i < u->nreasons && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? "; " : "",
				      u->reason[i].text);
	if (n < errlen)
		snprintf(err + n, errlen - n, ")");
	return -EPERM;
}

int safety_explain_busy(dev_t rdev, const char *path, const struct inuse_roots *roots,
			char *err, size_t errlen)
{
	struct inuse use;
	int ret = inuse_check(whole_disk(rdev, roots), roots, &use, err, errlen);

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
	char link[PATH_MAX], buf[32];
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
		unsigned maj, min;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/class/block/%s/dev", sys, e->d_name);
		f = fopen(link, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2 &&
		    makedev(maj, min) == dev) {
			snprintf(link, sizeof(link), "%s/class/block/%s", sys, e->d_name);
			ret = realpath(link, out) ? 0 : -errno;
		}
		fclose(f);
	}
	closedir(dir);
	return ret;
}

int safety_check_namespaces(const struct target *t, const char *what,
			    const struct inuse_roots *roots, char *err, size_t errlen)
{
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	char real[PATH_MAX], path[PATH_MAX + 300], buf[32];
	dev_t disk = whole_disk(t->rdev, roots);
	struct inuse_snapshot *snap;
	struct dirent *e;
	unsigned maj, min;
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
		struct inuse use;
		FILE *f;

		if (!is_namespace_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", real, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%u:%u", &maj, &min) != 2) {
			fclose(f);
			continue;
		}
		fclose(f);
		if (inuse_snapshot_check(snap, makedev(maj, min), &use) < 0 || !inuse_busy(&use))
			continue;
		size_t n = (size_t)snprintf(err, errlen,
					    "refusing to %s %s: it erases every namespace of the "
					    "controller, and %s is in use (",
					    what, t->path, e->d_name);
		for (unsigned i = 0; i < use.nreasons && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? "; " : "",
					      use.reason[i].text);
		if (n < errlen)
			snprintf(err + n, errlen - n, ")");
		ret = -EPERM;
		break;
	}
	inuse_snapshot_free(snap);
	closedir(dir);
	return ret;
}

int safety_check_target(const struct target *t, const char *confirm,
			const struct inuse_roots *roots, char *err, size_t errlen)
{
	char cpath[PATH_MAX + 8];
	struct inuse use;
	struct stat cst;
	int ret;

	if (!t->is_blockdev) {
		ret = inuse_check_file(t->dev, t->ino, roots, &use, err, errlen);
		return ret < 0 ? ret : refuse_inuse(&use, t->path, err, errlen);
	}
	ret = safety_explain_busy(t->rdev, t->path, roots, err, errlen);
	if (ret < 0)
		return ret;
	if (!confirm || !*confirm) {
		snprintf(err, errlen,
			 "refusing to write to block device %s without confirmation: this destroys "
			 "its data (confirm with --yes-destroy=%s)",
			 t->path, t->path);
		return -EPERM;
	}
	snprintf(cpath, sizeof(cpath), "%s%s", strchr(confirm, '/') ? "" : "/dev/", confirm);
	if (stat(cpath, &cst) < 0 || !S_ISBLK(cst.st_mode) || cst.st_rdev != t->rdev) {
		snprintf(err, errlen,
			 "refusing to write to %s: the confirmation '%s' does not name that device",
			 t->path, confirm);
		return -EPERM;
	}
	return 0;
}
