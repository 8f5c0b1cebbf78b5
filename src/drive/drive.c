// SPDX-License-Identifier: GPL-2.0-or-later
/* Drive discovery: enumerate disks in sysfs and run the probes over each. */
#include "drive.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "drive_probe.h"
#include "grow.h"
#include "text.h"

static const struct {
	const char *name;
	bool rotational_reliable;
} transports[DRIVE_NTRANSPORTS] = {
#define X(id, n, rot_ok) [id] = {n, rot_ok},
	DRIVE_TRANSPORTS(X)
#undef X
};

const char *const drive_wcache_name[] = {
	[DRIVE_WCACHE_UNKNOWN] = "unknown",
	[DRIVE_WCACHE_BACK] = "write back",
	[DRIVE_WCACHE_THROUGH] = "write through",
};

/* Probes run in this order; later ones add to what earlier ones found. */
static const struct probe_ops *const probe_table[] = {
	&probe_sysfs_ops,
	&probe_udev_ops,
	&probe_pci_ops,
};
#define NPROBES (sizeof(probe_table) / sizeof(probe_table[0]))

/* PCIe transfer rates by generation, index = generation. */
static const unsigned pcie_gen_mts[] = {
	[1] = 2500, [2] = 5000, [3] = 8000, [4] = 16000, [5] = 32000, [6] = 64000,
};

const char *drive_transport_name(enum drive_transport t)
{
	return (unsigned)t < DRIVE_NTRANSPORTS ? transports[t].name : "other";
}

bool drive_transport_rotational_reliable(enum drive_transport t)
{
	return (unsigned)t < DRIVE_NTRANSPORTS && transports[t].rotational_reliable;
}

unsigned drive_pcie_gen(unsigned speed_mts)
{
	for (unsigned g = 1; g < sizeof(pcie_gen_mts) / sizeof(pcie_gen_mts[0]); g++)
		if (pcie_gen_mts[g] == speed_mts)
			return g;
	return 0;
}

char *drive_link_fmt(char *buf, size_t len, const struct drive_link_end *e)
{
	unsigned gen = drive_pcie_gen(e->speed_mts);

	if (gen && e->width)
		probe_fmt(buf, len, "Gen%u x%u", gen, e->width);
	else if (e->speed_mts && e->width)
		probe_fmt(buf, len, "%g GT/s x%u", e->speed_mts / 1000.0, e->width);
	else if (e->width)
		probe_fmt(buf, len, "x%u", e->width);
	else
		probe_fmt(buf, len, "-");
	return buf;
}

void drive_init(struct drive *d)
{
	memset(d, 0, sizeof(*d));
	d->pci.numa_node = -1;
}

void drive_list_free(struct drive_list *l)
{
	free(l->drives);
	l->drives = NULL;
	l->count = 0;
}

struct scan {
	struct probe_ctx ctx;
	void *state[NPROBES];
	bool open[NPROBES];
	struct inuse_snapshot *inuse;
	const struct drive_scan_opts *opts;
};

static void scan_close(struct scan *s)
{
	for (size_t i = 0; i < NPROBES; i++)
		if (s->open[i])
			probe_table[i]->close(s->state[i]);
	inuse_snapshot_free(s->inuse);
	memset(s, 0, sizeof(*s));
}

static int scan_open(struct scan *s, const struct drive_scan_opts *opts, char *err,
		     size_t errlen)
{
	static const struct drive_scan_opts defaults;
	const char *sys, *proc, *dev;
	char perr[256];
	int ret;

	memset(s, 0, sizeof(*s));
	if (!opts)
		opts = &defaults;
	s->opts = opts;
	sys = opts->sys_root ? opts->sys_root : "/sys";
	proc = opts->proc_root ? opts->proc_root : "/proc";
	dev = opts->dev_root ? opts->dev_root : "/dev";
	probe_fmt(s->ctx.sys, sizeof(s->ctx.sys), "%s", sys);
	probe_fmt(s->ctx.proc, sizeof(s->ctx.proc), "%s", proc);
	probe_fmt(s->ctx.dev, sizeof(s->ctx.dev), "%s", dev);
	s->ctx.real_sys = !strcmp(sys, "/sys");
	s->ctx.pci_dump = opts->pci_dump;

	for (size_t i = 0; i < NPROBES; i++) {
		perr[0] = '\0';
		ret = probe_table[i]->open(&s->ctx, &s->state[i], perr, sizeof(perr));
		if (ret == 0)
			s->open[i] = true;
		else if (ret != -ENOTSUP && opts->pci_dump && probe_table[i] == &probe_pci_ops) {
			/* a dump was asked for by name: failing to read it is an error */
			probe_fmt(err, errlen, "%s", perr);
			scan_close(s);
			return ret;
		}
		/* otherwise a probe that cannot run leaves its fields empty */
	}
	if (!opts->skip_inuse) {
		struct inuse_roots roots = {.proc = s->ctx.proc, .sys = s->ctx.sys};
		ret = inuse_snapshot_take(&s->inuse, &roots, err, errlen);
		if (ret) {
			scan_close(s);
			return ret;
		}
	}
	return 0;
}

/* DEVNAME from the uevent file: the node name under /dev. */
static void read_devname(const char *dir, char *buf, size_t len)
{
	char uevent[1024];
	char *p, *save = NULL;

	if (probe_read_attr(dir, "uevent", uevent, sizeof(uevent)))
		return;
	for (p = strtok_r(uevent, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		if (!strncmp(p, "DEVNAME=", 8)) {
			probe_fmt(buf, len, "%s", p + 8);
			return;
		}
}

static int cmp_by_id(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * Firmware strings can hold any bytes (0xff padding, control characters, a character cut
 * by a fixed-size field): every string of the record is repaired to well-formed UTF-8 and
 * cut on a character boundary, once, here, before anything prints or saves it.
 */
static void drive_fix_strings(struct drive *d)
{
#define FIX(field) text_fix(field, sizeof(field))
	FIX(d->name);
	FIX(d->node);
	for (unsigned i = 0; i < d->nby_id && i < DRIVE_MAX_BYID; i++)
		FIX(d->by_id[i]);
	FIX(d->partition);
	FIX(d->model);
	FIX(d->serial);
	FIX(d->firmware);
	FIX(d->vendor);
	FIX(d->wwn);
	FIX(d->scheduler);
	FIX(d->pci.address);
	FIX(d->pci.vendor);
	FIX(d->pci.device);
	FIX(d->pci.link_source);
	FIX(d->pci.local_cpus);
	FIX(d->nvme.controller);
	FIX(d->nvme.model);
	FIX(d->nvme.serial);
	FIX(d->nvme.firmware);
	FIX(d->syspath);
#undef FIX
}

static int probe_disk(struct scan *s, const char *name, struct drive *d)
{
	char classpath[PATH_MAX], devname[64] = "";
	struct drive_pci *p = &d->pci;

	drive_init(d);
	probe_fmt(d->name, sizeof(d->name), "%s", name);
	probe_fmt(classpath, sizeof(classpath), "%s/class/block/%s", s->ctx.sys, name);
	if (probe_resolve_link(classpath, d->syspath, sizeof(d->syspath)))
		probe_fmt(d->syspath, sizeof(d->syspath), "%s", classpath);
	if (probe_read_dev(d->syspath, &d->devnum))
		return -ENODEV;
	d->major = major(d->devnum);
	d->minor = minor(d->devnum);
	read_devname(d->syspath, devname, sizeof(devname));
	probe_fmt(d->node, sizeof(d->node), "/dev/%s", devname[0] ? devname : name);

	for (size_t i = 0; i < NPROBES; i++)
		if (s->open[i])
			probe_table[i]->fill(s->state[i], &s->ctx, d);

	/* directory order is arbitrary; records are compared across runs */
	qsort(d->by_id, d->nby_id, sizeof(d->by_id[0]), cmp_by_id);
	drive_fix_strings(d);
	if (p->link_known)
		p->link_degraded = p->link_cur.speed_mts < p->link_max.speed_mts ||
				   p->link_cur.width < p->link_max.width;
	if (s->inuse && !inuse_snapshot_check(s->inuse, d->devnum, &d->inuse)) {
		d->inuse_known = true;
		/* reasons quote mount points and paths: any bytes */
		for (unsigned r = 0; r < d->inuse.nreasons; r++)
			text_fix(d->inuse.reason[r].text, sizeof(d->inuse.reason[r].text));
	}
	return 0;
}

static bool attr_exists(const char *dir, const char *attr)
{
	char buf[16];

	return probe_read_attr(dir, attr, buf, sizeof(buf)) == 0;
}

/* A disk worth listing: not a partition, not a hidden multipath path, not empty. */
static bool want_disk(const struct scan *s, const char *dir)
{
	uint64_t v;

	if (attr_exists(dir, "partition"))
		return false;
	if (!probe_read_u64(dir, "hidden", &v) && v)
		return false;
	if (!s->opts->include_empty && (probe_read_u64(dir, "size", &v) || v == 0))
		return false;
	return true;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int drive_scan(struct drive_list *out, const struct drive_scan_opts *opts, char *err,
	       size_t errlen)
{
	struct scan s;
	char dirpath[PATH_MAX];
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = scan_open(&s, opts, err, errlen);
	if (ret)
		return ret;
	probe_fmt(dirpath, sizeof(dirpath), "%s/class/block", s.ctx.sys);
	dir = opendir(dirpath);
	if (!dir) {
		ret = -errno;
		probe_fmt(err, errlen, "%s: %s", dirpath, strerror(errno));
		goto close_scan;
	}
	while ((de = readdir(dir))) {
		char path[PATH_MAX];
		if (de->d_name[0] == '.')
			continue;
		probe_fmt(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		if (!want_disk(&s, path))
			continue;
		if (GROW(names, n, cap, 16)) {
			ret = -ENOMEM;
			goto free_names;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			ret = -ENOMEM;
			goto free_names;
		}
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_names);
	out->drives = calloc(n ? n : 1, sizeof(*out->drives));
	if (!out->drives) {
		ret = -ENOMEM;
		goto free_names;
	}
	for (size_t i = 0; i < n; i++)
		if (!probe_disk(&s, names[i], &out->drives[out->count]))
			out->count++;
free_names:
	if (ret == -ENOMEM)
		probe_fmt(err, errlen, "drive discovery: out of memory");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dir);
close_scan:
	scan_close(&s);
	return ret;
}

/* The class/block entry whose dev is `dev`, into name. */
static int find_by_devnum(const char *sys, dev_t dev, char *name, size_t len)
{
	char dirpath[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int ret = -ENODEV;

	probe_fmt(dirpath, sizeof(dirpath), "%s/class/block", sys);
	dir = opendir(dirpath);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		char path[PATH_MAX];
		dev_t d;
		if (de->d_name[0] == '.')
			continue;
		probe_fmt(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		if (!probe_read_dev(path, &d) && d == dev) {
			probe_fmt(name, len, "%s", de->d_name);
			ret = 0;
			break;
		}
	}
	closedir(dir);
	return ret;
}

/* The record of the disk holding block device devnum; path names it in messages. */
static int probe_devnum(dev_t devnum, const char *path, const struct drive_scan_opts *opts,
			struct drive *out, char *err, size_t errlen)
{
	char name[64], disk[64], classpath[PATH_MAX], syspath[PATH_MAX];
	struct scan s;
	int ret;

	ret = scan_open(&s, opts, err, errlen);
	if (ret)
		return ret;
	ret = find_by_devnum(s.ctx.sys, devnum, name, sizeof(name));
	if (ret) {
		probe_fmt(err, errlen, "%s: block device %u:%u is not in %s/class/block", path,
			  major(devnum), minor(devnum), s.ctx.sys);
		goto close_scan;
	}
	probe_fmt(disk, sizeof(disk), "%s", name);
	probe_fmt(classpath, sizeof(classpath), "%s/class/block/%s", s.ctx.sys, name);
	if (attr_exists(classpath, "partition") &&
	    !probe_resolve_link(classpath, syspath, sizeof(syspath))) {
		/* .../block/sda/sda1: the disk is the directory above the partition */
		char *slash = strrchr(syspath, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(syspath, '/');
			probe_fmt(disk, sizeof(disk), "%s", slash ? slash + 1 : syspath);
		}
	}
	ret = probe_disk(&s, disk, out);
	if (ret) {
		probe_fmt(err, errlen, "%s: cannot read %s in sysfs", path, disk);
		goto close_scan;
	}
	if (strcmp(disk, name)) {
		probe_fmt(out->partition, sizeof(out->partition), "%s", name);
		text_fix(out->partition, sizeof(out->partition));
	}
close_scan:
	scan_close(&s);
	return ret;
}

int drive_probe_path_opts(const char *path, const struct drive_scan_opts *opts,
			  struct drive *out, char *err, size_t errlen)
{
	dev_t devnum;
	int ret;

	drive_init(out);
	ret = probe_stat_node(opts && opts->dev_root ? opts->dev_root : "/dev", path, &devnum);
	if (ret == -ENOTBLK) {
		probe_fmt(err, errlen, "%s: not a block device", path);
		return ret;
	}
	if (ret) {
		probe_fmt(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	return probe_devnum(devnum, path, opts, out, err, errlen);
}

int drive_probe_devnum(dev_t devnum, struct drive *out, char *err, size_t errlen)
{
	char label[32];

	drive_init(out);
	probe_fmt(label, sizeof(label), "%u:%u", major(devnum), minor(devnum));
	return probe_devnum(devnum, label, NULL, out, err, errlen);
}

int drive_probe_path(const char *path, struct drive *out, char *err, size_t errlen)
{
	return drive_probe_path_opts(path, NULL, out, err, errlen);
}
