// SPDX-License-Identifier: GPL-2.0-or-later
#include "safety.h"

#include <errno.h>
#include <limits.h>
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
