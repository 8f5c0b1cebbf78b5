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
	char link[256], real[PATH_MAX], buf[64];
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	unsigned maj, min;
	FILE *f;

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	if (!realpath(link, real))
		return dev;
	snprintf(buf, sizeof(buf), "/partition");
	char part[PATH_MAX + 16];
	snprintf(part, sizeof(part), "%s%s", real, buf);
	if (access(part, F_OK) != 0)
		return dev;
	char *slash = strrchr(real, '/');
	if (!slash)
		return dev;
	snprintf(slash, sizeof(real) - (size_t)(slash - real), "/dev");
	f = fopen(real, "r");
	if (!f)
		return dev;
	if (fscanf(f, "%u:%u", &maj, &min) == 2)
		dev = makedev(maj, min);
	fclose(f);
	return dev;
}

int safety_check_write(const char *path, const char *confirm, const struct inuse_roots *roots,
		       char *err, size_t errlen)
{
	struct stat st, cst;
	struct inuse use;
	char cpath[PATH_MAX + 8];
	int ret;

	if (stat(path, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISBLK(st.st_mode))
		return 0;

	ret = inuse_check(whole_disk(st.st_rdev, roots), roots, &use, err, errlen);
	if (ret < 0)
		return ret;
	if (inuse_busy(&use)) {
		size_t n = (size_t)snprintf(err, errlen, "refusing to write to %s: it is in use (",
					    path);
		for (unsigned i = 0; i < use.nreasons && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? "; " : "",
					      use.reason[i].text);
		if (n < errlen)
			snprintf(err + n, errlen - n, ")");
		return -EPERM;
	}
	if (!confirm || !*confirm) {
		snprintf(err, errlen,
			 "refusing to write to block device %s without confirmation: this destroys "
			 "its data (confirm with --yes-destroy=%s)",
			 path, path);
		return -EPERM;
	}
	snprintf(cpath, sizeof(cpath), "%s%s", strchr(confirm, '/') ? "" : "/dev/", confirm);
	if (stat(cpath, &cst) < 0 || !S_ISBLK(cst.st_mode) || cst.st_rdev != st.st_rdev) {
		snprintf(err, errlen,
			 "refusing to write to %s: the confirmation '%s' does not name that device",
			 path, confirm);
		return -EPERM;
	}
	return 0;
}
