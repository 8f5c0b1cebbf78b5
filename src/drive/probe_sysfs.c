// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysfs probe: everything the kernel itself says about a disk. It works without
 * udevd and under any sysfs root (a fixture tree, or umockdev's fake /sys).
 */
#include "drive_probe.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int probe_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int probe_read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (probe_fmt(path, sizeof(path), "%s/%s", dir, attr))
		return -ENAMETOOLONG;
	/* O_NONBLOCK: a FIFO in a fixture tree (--sysfs-root) must not hold discovery */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

int probe_read_u64(const char *dir, const char *attr, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	int ret = probe_read_attr(dir, attr, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	*out = v;
	return 0;
}

int probe_read_dev(const char *dir, dev_t *out)
{
	char buf[32];
	unsigned maj, min;
	int ret = probe_read_attr(dir, "dev", buf, sizeof(buf));

	if (ret)
		return ret;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*out = makedev(maj, min);
	return 0;
}

void probe_copy_trim(char *dst, size_t len, const char *src)
{
	size_t n;

	while (isspace((unsigned char)*src))
		src++;
	n = strlen(src);
	while (n > 0 && isspace((unsigned char)src[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Resolved by text rather than realpath(): sysfs links are relative and canonical, and
 * this works the same on a fixture tree with dangling targets.
 */
int probe_resolve_link(const char *link_path, char *out, size_t len)
{
	char target[PATH_MAX], joined[2 * PATH_MAX];
	char *parts[256], *save = NULL, *tok;
	size_t nparts = 0, o = 0;
	ssize_t n = readlink(link_path, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (target[0] == '/') {
		probe_fmt(joined, sizeof(joined), "%s", target);
	} else {
		const char *slash = strrchr(link_path, '/');
		int dirlen = slash ? (int)(slash - link_path) : 0;
		probe_fmt(joined, sizeof(joined), "%.*s/%s", dirlen, link_path, target);
	}
	for (tok = strtok_r(joined, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (nparts)
				nparts--;
			continue;
		}
		if (nparts == sizeof(parts) / sizeof(parts[0]))
			return -ENAMETOOLONG;
		parts[nparts++] = tok;
	}
	for (size_t i = 0; i < nparts; i++) {
		if (probe_fmt(out + o, len - o, "/%s", parts[i]))
			return -ENAMETOOLONG;
		o += strlen(out + o);
	}
	if (nparts == 0)
		probe_fmt(out, len, "/");
	return 0;
}

static bool is_pci_address(const char *s, size_t n)
{
	unsigned dom, bus, dev, fn;
	int used = 0;

	/* "0000:3d:00.0": domain:bus:device.function, all hex */
	if (n != 12)
		return false;
	return sscanf(s, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &used) == 4 &&
	       used == 12;
}

bool probe_pci_ancestor(const char *syspath, char *addr, size_t len, char *pcidir,
			size_t dirlen)
{
	const char *best = NULL, *p = syspath;
	size_t best_len = 0;

	while ((p = strchr(p, '/'))) {
		const char *c = p + 1, *e = strchr(c, '/');
		size_t n = e ? (size_t)(e - c) : strlen(c);
		if (is_pci_address(c, n)) {
			best = c;
			best_len = n;
		}
		p = c;
	}
	if (!best)
		return false;
	probe_fmt(addr, len, "%.*s", (int)best_len, best);
	if (pcidir)
		probe_fmt(pcidir, dirlen, "%.*s", (int)(best - syspath + (ptrdiff_t)best_len),
			 syspath);
	return true;
}

/*
 * How a path looks decides the transport. Rules are tried in order; the first that
 * matches wins, so USB (which may carry SCSI or ATA below it) comes before SATA.
 */
enum match_on { M_NAME_PREFIX, M_COMPONENT_PREFIX, M_COMPONENT_PREFIX_NO_SCSI_HOST };

static const struct transport_rule {
	enum match_on on;
	const char *prefix;
	enum drive_transport transport;
} transport_rules[] = {
	{M_NAME_PREFIX, "loop", DRIVE_TR_LOOP},
	{M_NAME_PREFIX, "zram", DRIVE_TR_ZRAM},
	{M_NAME_PREFIX, "md", DRIVE_TR_MD},
	{M_NAME_PREFIX, "dm-", DRIVE_TR_DM},
	{M_NAME_PREFIX, "nvme", DRIVE_TR_NVME},
	{M_NAME_PREFIX, "mmcblk", DRIVE_TR_MMC},
	{M_COMPONENT_PREFIX, "usb", DRIVE_TR_USB},
	{M_COMPONENT_PREFIX_NO_SCSI_HOST, "virtio", DRIVE_TR_VIRTIO},
	{M_COMPONENT_PREFIX, "ata", DRIVE_TR_SATA},
	{M_COMPONENT_PREFIX, "end_device-", DRIVE_TR_SAS},
	{M_COMPONENT_PREFIX, "expander-", DRIVE_TR_SAS},
	{M_COMPONENT_PREFIX, "target", DRIVE_TR_SCSI},
};

static bool has_component_prefix(const char *path, const char *prefix)
{
	size_t plen = strlen(prefix);
	const char *p = path;

	while ((p = strchr(p, '/'))) {
		p++;
		if (!strncmp(p, prefix, plen)) {
			/* "ata3" and "usb2" are followed by a digit, "end_device-" by anything */
			char next = p[plen];
			if (prefix[plen - 1] == '-' || isdigit((unsigned char)next))
				return true;
		}
	}
	return false;
}

enum drive_transport drive_transport_classify(const char *name, const char *syspath)
{
	for (size_t i = 0; i < sizeof(transport_rules) / sizeof(transport_rules[0]); i++) {
		const struct transport_rule *r = &transport_rules[i];
		bool hit = false;

		switch (r->on) {
		case M_NAME_PREFIX:
			hit = !strncmp(name, r->prefix, strlen(r->prefix));
			break;
		case M_COMPONENT_PREFIX:
			hit = syspath && has_component_prefix(syspath, r->prefix);
			break;
		case M_COMPONENT_PREFIX_NO_SCSI_HOST:
			/* virtio-blk; virtio-scsi has a SCSI host below and is SCSI */
			hit = syspath && has_component_prefix(syspath, r->prefix) &&
			      !has_component_prefix(syspath, "host");
			break;
		}
		if (hit)
			return r->transport;
	}
	return DRIVE_TR_OTHER;
}

unsigned drive_parse_link_speed(const char *s)
{
	char *end;
	double gts = strtod(s, &end);

	if (end == s || gts <= 0)
		return 0;
	return (unsigned)(gts * 1000.0 + 0.5);
}

/* The bracketed entry of "none [mq-deadline] kyber". */
static void active_choice(char *dst, size_t len, const char *list)
{
	const char *open = strchr(list, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		probe_fmt(dst, len, "%.*s", (int)(close - open - 1), open + 1);
	else
		probe_copy_trim(dst, len, list);
}

static int count_partitions(const char *syspath)
{
	DIR *dir = opendir(syspath);
	struct dirent *de;
	int n = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char sub[PATH_MAX], buf[16];
		if (de->d_name[0] == '.')
			continue;
		probe_fmt(sub, sizeof(sub), "%s/%s", syspath, de->d_name);
		if (!probe_read_attr(sub, "partition", buf, sizeof(buf)))
			n++;
	}
	closedir(dir);
	return n;
}

/* SCSI VPD page 0x80: 4 header bytes, then the unit serial number. */
static void read_vpd_serial(const char *devdir, char *dst, size_t len)
{
	char buf[256];
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	probe_fmt(path, sizeof(path), "%s/vpd_pg80", devdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 4)
		return;
	buf[n] = '\0';
	for (ssize_t i = 4; i < n; i++)
		if (!isprint((unsigned char)buf[i]))
			buf[i] = ' ';
	probe_copy_trim(dst, len, buf + 4);
}

/*
 * A SATA drive's firmware revision from the ATA Information VPD page (0x89), which
 * carries the drive's IDENTIFY DEVICE data from byte 60: words 23-26, two characters a
 * word, the first in the high byte. The SCSI revision libata puts in INQUIRY (the "rev"
 * attribute) keeps only 4 of the 8 characters. Leaves dst alone when the page is absent.
 */
static void read_vpd_ata_firmware(const char *devdir, char *dst, size_t len)
{
	enum { ID_OFF = 60, FW_WORD = 23, FW_CHARS = 8 };
	unsigned char buf[ID_OFF + 2 * (FW_WORD + FW_CHARS / 2)];
	char fw[FW_CHARS + 1];
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	probe_fmt(path, sizeof(path), "%s/vpd_pg89", devdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < (ssize_t)sizeof(buf))
		return;
	for (int i = 0; i < FW_CHARS; i += 2) {
		const unsigned char *w = buf + ID_OFF + 2 * FW_WORD + i;
		fw[i] = isprint(w[1]) ? (char)w[1] : ' ';
		fw[i + 1] = isprint(w[0]) ? (char)w[0] : ' ';
	}
	fw[FW_CHARS] = '\0';
	if (fw[strspn(fw, " ")])
		probe_copy_trim(dst, len, fw);
}

static void fill_nvme(struct drive *d, const char *devlink, char *pci_from, size_t pci_len)
{
	char ctrl[PATH_MAX], buf[128];
	uint64_t v;
	const char *base;

	if (probe_resolve_link(devlink, ctrl, sizeof(ctrl)))
		return;
	base = strrchr(ctrl, '/') ? strrchr(ctrl, '/') + 1 : ctrl;
	if (!strncmp(base, "nvme-subsys", 11)) {
		/* native multipath: the namespace hangs off the subsystem; take a controller */
		DIR *dir = opendir(ctrl);
		struct dirent *de;
		char found[PATH_MAX] = "";
		if (dir) {
			while ((de = readdir(dir)))
				/* a controller (nvme0), not one of the heads beside it (nvme0n1) */
				if (!strncmp(de->d_name, "nvme", 4) && de->d_name[4] &&
				    strspn(de->d_name + 4, "0123456789") == strlen(de->d_name + 4)) {
					probe_fmt(found, sizeof(found), "%s/%s", ctrl, de->d_name);
					break;
				}
			closedir(dir);
		}
		if (!found[0])
			return;
		probe_fmt(ctrl, sizeof(ctrl), "%s", found);
		base = strrchr(ctrl, '/') + 1;
	}
	d->nvme.present = true;
	probe_fmt(d->nvme.controller, sizeof(d->nvme.controller), "%s", base);
	if (!probe_read_attr(ctrl, "model", buf, sizeof(buf)))
		probe_copy_trim(d->nvme.model, sizeof(d->nvme.model), buf);
	if (!probe_read_attr(ctrl, "serial", buf, sizeof(buf)))
		probe_copy_trim(d->nvme.serial, sizeof(d->nvme.serial), buf);
	if (!probe_read_attr(ctrl, "firmware_rev", buf, sizeof(buf)))
		probe_copy_trim(d->nvme.firmware, sizeof(d->nvme.firmware), buf);
	if (!probe_read_u64(d->syspath, "nsid", &v)) {
		d->nvme.nsid = (unsigned)v;
	} else {
		/* older kernels: the n in nvme0n1 is the namespace id */
		const char *n = strrchr(d->name, 'n');
		if (n && n != d->name)
			d->nvme.nsid = (unsigned)strtoul(n + 1, NULL, 10);
	}
	probe_fmt(d->model, sizeof(d->model), "%s", d->nvme.model);
	probe_fmt(d->serial, sizeof(d->serial), "%s", d->nvme.serial);
	probe_fmt(d->firmware, sizeof(d->firmware), "%s", d->nvme.firmware);
	/* a PCI function above a multipath namespace is found through its controller */
	if (!probe_pci_ancestor(d->syspath, buf, sizeof(buf), NULL, 0)) {
		char cdev[PATH_MAX], cpath[PATH_MAX];
		probe_fmt(cpath, sizeof(cpath), "%s/device", ctrl);
		if (!probe_resolve_link(cpath, cdev, sizeof(cdev)))
			probe_fmt(pci_from, pci_len, "%s", cdev);
	}
}

static void fill_device_attrs(struct drive *d, char *pci_from, size_t pci_len)
{
	char devlink[PATH_MAX], devdir[PATH_MAX], buf[256];

	probe_fmt(devlink, sizeof(devlink), "%s/device", d->syspath);
	if (probe_resolve_link(devlink, devdir, sizeof(devdir)))
		probe_fmt(devdir, sizeof(devdir), "%s", devlink);

	/* the kernel's unique id: NVMe eui./nvme., SCSI naa./t10. */
	if (!probe_read_attr(d->syspath, "wwid", buf, sizeof(buf)) ||
	    !probe_read_attr(devdir, "wwid", buf, sizeof(buf)))
		probe_copy_trim(d->wwn, sizeof(d->wwn), buf);

	switch (d->transport) {
	case DRIVE_TR_NVME:
		fill_nvme(d, devlink, pci_from, pci_len);
		return;
	case DRIVE_TR_VIRTIO:
		if (!probe_read_attr(d->syspath, "serial", buf, sizeof(buf)))
			probe_copy_trim(d->serial, sizeof(d->serial), buf);
		return;
	case DRIVE_TR_MMC:
		if (!probe_read_attr(devdir, "name", buf, sizeof(buf)))
			probe_copy_trim(d->model, sizeof(d->model), buf);
		if (!probe_read_attr(devdir, "serial", buf, sizeof(buf)))
			probe_copy_trim(d->serial, sizeof(d->serial), buf);
		if (!probe_read_attr(devdir, "fwrev", buf, sizeof(buf)))
			probe_copy_trim(d->firmware, sizeof(d->firmware), buf);
		return;
	case DRIVE_TR_LOOP:
		/* no model to speak of; the backing file says which loop this is */
		if (!probe_read_attr(d->syspath, "loop/backing_file", buf, sizeof(buf)))
			probe_copy_trim(d->model, sizeof(d->model), buf);
		return;
	case DRIVE_TR_DM:
		if (!probe_read_attr(d->syspath, "dm/name", buf, sizeof(buf)))
			probe_copy_trim(d->model, sizeof(d->model), buf);
		return;
	case DRIVE_TR_MD:
		if (!probe_read_attr(d->syspath, "md/level", buf, sizeof(buf)))
			probe_copy_trim(d->model, sizeof(d->model), buf);
		return;
	default:
		break;
	}
	/* SCSI disks (SATA behind libata, SAS, USB mass storage) */
	if (!probe_read_attr(devdir, "model", buf, sizeof(buf)))
		probe_copy_trim(d->model, sizeof(d->model), buf);
	if (!probe_read_attr(devdir, "vendor", buf, sizeof(buf)))
		probe_copy_trim(d->vendor, sizeof(d->vendor), buf);
	if (!probe_read_attr(devdir, "rev", buf, sizeof(buf)))
		probe_copy_trim(d->firmware, sizeof(d->firmware), buf);
	read_vpd_serial(devdir, d->serial, sizeof(d->serial));
	if (d->transport == DRIVE_TR_SATA)
		read_vpd_ata_firmware(devdir, d->firmware, sizeof(d->firmware));
	/* libata reports vendor "ATA": that is the translation layer, not the maker */
	if (!strcmp(d->vendor, "ATA"))
		d->vendor[0] = '\0';
}

static void fill_pci(struct drive *d, const char *path)
{
	char pcidir[PATH_MAX], buf[128];
	uint64_t v;
	struct drive_pci *p = &d->pci;

	if (!probe_pci_ancestor(path, p->address, sizeof(p->address), pcidir,
				sizeof(pcidir)))
		return;
	p->present = true;
	if (!probe_read_u64(pcidir, "vendor", &v))
		p->vendor_id = (unsigned)v;
	if (!probe_read_u64(pcidir, "device", &v))
		p->device_id = (unsigned)v;
	if (!probe_read_u64(pcidir, "subsystem_vendor", &v))
		p->subsys_vendor_id = (unsigned)v;
	if (!probe_read_u64(pcidir, "subsystem_device", &v))
		p->subsys_device_id = (unsigned)v;
	if (!probe_read_attr(pcidir, "numa_node", buf, sizeof(buf)))
		p->numa_node = atoi(buf);
	if (!probe_read_attr(pcidir, "local_cpulist", buf, sizeof(buf)))
		probe_copy_trim(p->local_cpus, sizeof(p->local_cpus), buf);
	if (!probe_read_attr(pcidir, "current_link_speed", buf, sizeof(buf)))
		p->link_cur.speed_mts = drive_parse_link_speed(buf);
	if (!probe_read_u64(pcidir, "current_link_width", &v))
		p->link_cur.width = (unsigned)v;
	if (!probe_read_attr(pcidir, "max_link_speed", buf, sizeof(buf)))
		p->link_max.speed_mts = drive_parse_link_speed(buf);
	if (!probe_read_u64(pcidir, "max_link_width", &v))
		p->link_max.width = (unsigned)v;
	if (p->link_cur.speed_mts && p->link_max.speed_mts && p->link_cur.width &&
	    p->link_max.width) {
		p->link_known = true;
		probe_fmt(p->link_source, sizeof(p->link_source), "sysfs");
	}
}

int probe_stat_node(const char *dev_root, const char *path, dev_t *out)
{
	char target[PATH_MAX], node[PATH_MAX];
	struct stat st;
	const char *base;
	ssize_t n;

	if (stat(path, &st))
		return -errno;
	if (S_ISBLK(st.st_mode) && major(st.st_rdev) != 0) {
		*out = st.st_rdev;
		return 0;
	}
	/*
	 * A link whose target lies outside the /dev we were given (an absolute path into
	 * another tree, as test beds make): look the node up by name in dev_root.
	 */
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENOTBLK;
	target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	probe_fmt(node, sizeof(node), "%s/%s", dev_root, base);
	if (stat(node, &st) || !S_ISBLK(st.st_mode) || major(st.st_rdev) == 0)
		return -ENOTBLK;
	*out = st.st_rdev;
	return 0;
}

static void fill_by_id(const struct probe_ctx *ctx, struct drive *d)
{
	char dirpath[PATH_MAX];
	DIR *dir;
	struct dirent *de;

	probe_fmt(dirpath, sizeof(dirpath), "%s/disk/by-id", ctx->dev);
	dir = opendir(dirpath);
	if (!dir)
		return;
	while ((de = readdir(dir)) && d->nby_id < DRIVE_MAX_BYID) {
		char path[PATH_MAX];
		dev_t devnum;
		if (de->d_name[0] == '.')
			continue;
		probe_fmt(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		if (probe_stat_node(ctx->dev, path, &devnum) || devnum != d->devnum)
			continue;
		probe_fmt(d->by_id[d->nby_id++], sizeof(d->by_id[0]), "/dev/disk/by-id/%s",
			 de->d_name);
	}
	closedir(dir);
}

static int sysfs_fill(void *state, const struct probe_ctx *ctx, struct drive *d)
{
	char buf[256], pci_from[PATH_MAX];
	uint64_t v;

	(void)state;
	if (!probe_read_u64(d->syspath, "size", &v))
		d->capacity_bytes = v * 512; /* always 512-byte sectors, whatever the LBA size */
	if (!probe_read_u64(d->syspath, "diskseq", &v))
		d->diskseq = v;
	if (!probe_read_u64(d->syspath, "queue/logical_block_size", &v))
		d->logical_block_bytes = (unsigned)v;
	if (!probe_read_u64(d->syspath, "queue/physical_block_size", &v))
		d->physical_block_bytes = (unsigned)v;
	if (!probe_read_u64(d->syspath, "queue/rotational", &v))
		d->rotational = v != 0;
	if (!probe_read_attr(d->syspath, "queue/scheduler", buf, sizeof(buf)))
		active_choice(d->scheduler, sizeof(d->scheduler), buf);
	if (!probe_read_u64(d->syspath, "queue/nr_requests", &v))
		d->nr_requests = (unsigned)v;
	if (!probe_read_attr(d->syspath, "queue/write_cache", buf, sizeof(buf))) {
		if (!strcmp(buf, "write back"))
			d->write_cache = DRIVE_WCACHE_BACK;
		else if (!strcmp(buf, "write through"))
			d->write_cache = DRIVE_WCACHE_THROUGH;
	}
	if (!probe_read_u64(d->syspath, "queue/discard_max_bytes", &v)) {
		d->discard_max_bytes = v;
		d->discard = v != 0;
	}
	if (!probe_read_u64(d->syspath, "ro", &v))
		d->read_only = v != 0;
	if (!probe_read_u64(d->syspath, "removable", &v))
		d->removable = v != 0;
	d->npartitions = (unsigned)count_partitions(d->syspath);

	d->transport = drive_transport_classify(d->name, d->syspath);
	d->rotational_unreliable = !drive_transport_rotational_reliable(d->transport);
	probe_fmt(pci_from, sizeof(pci_from), "%s", d->syspath);
	fill_device_attrs(d, pci_from, sizeof(pci_from));
	fill_pci(d, pci_from);
	fill_by_id(ctx, d);
	return 0;
}

static int sysfs_open(const struct probe_ctx *ctx, void **state, char *err, size_t errlen)
{
	(void)ctx, (void)err, (void)errlen;
	*state = NULL;
	return 0;
}

static void sysfs_close(void *state)
{
	(void)state;
}

const struct probe_ops probe_sysfs_ops = {
	.name = "sysfs",
	.open = sysfs_open,
	.fill = sysfs_fill,
	.close = sysfs_close,
};
