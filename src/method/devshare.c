// SPDX-License-Identifier: GPL-2.0-or-later
#include "devshare.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "units.h"

/* The sysfs directory of block device dev, or of its disk when it is a partition. */
static bool disk_dir(const char *sys, dev_t dev, char *dir)
{
	char link[PATH_MAX], attr[PATH_MAX + 16];

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	if (!realpath(link, dir))
		return false;
	snprintf(attr, sizeof(attr), "%s/partition", dir);
	if (access(attr, F_OK) == 0)
		*strrchr(dir, '/') = '\0';
	return true;
}

/* Sectors read and written as dir/stat counts them (fields 3 and 7). */
static bool stat_sectors(const char *dir, uint64_t *rd, uint64_t *wr)
{
	char path[PATH_MAX + 8];
	unsigned long long f[7];
	FILE *fp;
	int n;

	snprintf(path, sizeof(path), "%s/stat", dir);
	fp = fopen(path, "re");
	if (!fp)
		return false;
	n = fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
		   &f[5], &f[6]);
	fclose(fp);
	if (n != 7)
		return false;
	*rd = f[2];
	*wr = f[6];
	return true;
}

/*
 * The same for a device, an NVMe multipath head counted with its paths: nvme0n1's are
 * nvme0c0n1, nvme0c1n1 ... (subsystem, controller, namespace), hidden block devices. Which
 * of them the kernel counts I/O on depends on its version (6.1 the paths only; others both
 * or the head), so the larger of the head's count and its paths' sum.
 */
static bool read_sectors(const char *sys, const char *dir, uint64_t *rd, uint64_t *wr)
{
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char path[PATH_MAX + 300], tail[4];
	unsigned subsys, ns, c, ns2;
	uint64_t prd = 0, pwr = 0;
	struct dirent *de;
	int used = 0;
	DIR *d;

	if (!stat_sectors(dir, rd, wr))
		return false;
	if (sscanf(name, "nvme%un%u%n", &subsys, &ns, &used) != 2 || name[used])
		return true;
	snprintf(path, sizeof(path), "%s/class/block", sys);
	if (!(d = opendir(path)))
		return true;
	while ((de = readdir(d))) {
		unsigned s2;
		uint64_t r, w;
		if (sscanf(de->d_name, "nvme%uc%un%u%1s", &s2, &c, &ns2, tail) != 3 ||
		    s2 != subsys || ns2 != ns)
			continue;
		snprintf(path, sizeof(path), "%s/class/block/%s", sys, de->d_name);
		if (stat_sectors(path, &r, &w)) {
			prd += r;
			pwr += w;
		}
	}
	closedir(d);
	*rd = prd > *rd ? prd : *rd;
	*wr = pwr > *wr ? pwr : *wr;
	return true;
}

static bool sys_dir(const struct devshare *s, const struct devshare_dev *d, char *dir)
{
	return disk_dir(s->sys ? s->sys : "/sys", d->dev, dir);
}

void devshare_begin(struct devshare *s, const struct target *const *t, unsigned nt, const char *sys)
{
	memset(s, 0, sizeof(*s));
	s->sys = sys;
	for (unsigned i = 0; i < DEVSHARE_MAX; i++)
		s->of_target[i] = -1;
	for (unsigned i = 0; i < nt && i < DEVSHARE_MAX; i++) {
		char dir[PATH_MAX];
		unsigned k;

		if (!t[i]->is_blockdev || !disk_dir(sys ? sys : "/sys", t[i]->rdev, dir))
			continue;
		const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
		for (k = 0; k < s->n && strcmp(s->d[k].name, base); k++)
			;
		if (k == s->n) {
			struct devshare_dev *d = &s->d[s->n++];
			d->dev = t[i]->rdev;
			snprintf(d->name, sizeof(d->name), "%s", base);
			d->ok = read_sectors(sys ? sys : "/sys", dir, &d->rd0, &d->wr0);
		}
		s->of_target[i] = (int)k;
	}
}

void devshare_add(struct devshare *s, unsigned i, uint64_t rd_bytes, uint64_t wr_bytes)
{
	if (i >= DEVSHARE_MAX || s->of_target[i] < 0)
		return;
	s->d[s->of_target[i]].ours_rd += rd_bytes;
	s->d[s->of_target[i]].ours_wr += wr_bytes;
}

/* What a stream moved, every I/O it did: its ramp, window and drain, onto target i. */
static void add_moved(struct devshare *s, unsigned i, const struct sample *window,
		      const struct sample *ramp, const struct sample *drain)
{
	devshare_add(s, i,
		     window->d[DIR_READ].bytes + ramp->d[DIR_READ].bytes + drain->d[DIR_READ].bytes,
		     window->d[DIR_WRITE].bytes + ramp->d[DIR_WRITE].bytes +
			     drain->d[DIR_WRITE].bytes);
}

void devshare_end(struct devshare *s, const struct step_result *sr, const unsigned *target)
{
	for (unsigned k = 0; k < s->n; k++) {
		struct devshare_dev *d = &s->d[k];
		char dir[PATH_MAX];
		d->ok = d->ok && sys_dir(s, d, dir) &&
			read_sectors(s->sys ? s->sys : "/sys", dir, &d->rd1, &d->wr1);
	}
	if (!sr)
		return;
	if (!target)
		add_moved(s, 0, &sr->total, &sr->ramp, &sr->drain);
	for (unsigned i = 0; target && i < sr->nstreams; i++)
		add_moved(s, target[i], &sr->streams[i].total, &sr->streams[i].ramp,
			  &sr->streams[i].drain);
}

/* Bytes the device moved beyond the step's own: 0 when it moved less (or a count went
   back, as when a device is removed and another takes its number). */
static uint64_t beyond(uint64_t s0, uint64_t s1, uint64_t ours)
{
	uint64_t moved = s1 >= s0 ? (s1 - s0) * 512 : 0;

	return moved > ours ? moved - ours : 0;
}

bool devshare_dev_shared(const struct devshare_dev *d, char *why, size_t len)
{
	uint64_t rd = beyond(d->rd0, d->rd1, d->ours_rd), wr = beyond(d->wr0, d->wr1, d->ours_wr);
	uint64_t ours = d->ours_rd + d->ours_wr, other = rd + wr;
	char a[32], b[32], c[32], o[32];

	if (!d->ok || other < DEVSHARE_MIN_BYTES ||
	    (double)other < (double)ours * DEVSHARE_SHARE_PCT / 100.0)
		return false;
	snprintf(why, len,
		 "%s moved %s that were not this step's (reads %s, writes %s) beside the step's "
		 "own %s: another program, a file system or another partition used the drive "
		 "at the same time, and the figures may show that",
		 d->name, units_fmt_capacity(o, sizeof(o), other),
		 units_fmt_capacity(a, sizeof(a), rd), units_fmt_capacity(b, sizeof(b), wr),
		 units_fmt_capacity(c, sizeof(c), ours));
	return true;
}

bool devshare_shared(const struct devshare *s, char *why, size_t len)
{
	for (unsigned k = 0; k < s->n; k++)
		if (devshare_dev_shared(&s->d[k], why, len))
			return true;
	return false;
}
