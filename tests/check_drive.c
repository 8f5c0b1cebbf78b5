// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Drive discovery: transport rules over real-world sysfs paths, PCIe link parsing and
 * formatting, libpci's dump method decoding Link Capabilities / Link Status (current vs
 * capable), discovery over fake sysfs trees built here, libpci errors that must not exit,
 * path resolution, the JSON record, and hotplug events from a loop device (root).
 * The umockdev fixtures (tests/fixtures/drive) are exercised by tests/t_list.sh.
 */
#include "fstree.h"

#include <ftw.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <poll.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "drive.h"


#define NVME0 "devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0"

/* One NVMe drive at 0000:3d:00.0; no sysfs link attributes unless a test adds them. */
static const struct fs_entry nvme_tree[] = {
	{"class/block/nvme0n1", NULL, "../../" NVME0 "/nvme0n1"},
	{NVME0 "/nvme0n1/dev", "259:0", NULL},
	{NVME0 "/nvme0n1/size", "1953525168", NULL},
	{NVME0 "/nvme0n1/nsid", "1", NULL},
	{NVME0 "/nvme0n1/wwid", "eui.0025388b91b5e1a8", NULL},
	{NVME0 "/nvme0n1/queue/logical_block_size", "4096", NULL},
	{NVME0 "/nvme0n1/queue/physical_block_size", "4096", NULL},
	{NVME0 "/nvme0n1/queue/rotational", "0", NULL},
	{NVME0 "/nvme0n1/queue/scheduler", "none [mq-deadline] kyber", NULL},
	{NVME0 "/nvme0n1/queue/nr_requests", "1023", NULL},
	{NVME0 "/nvme0n1/queue/write_cache", "write through", NULL},
	{NVME0 "/nvme0n1/queue/discard_max_bytes", "0", NULL},
	{NVME0 "/nvme0n1/ro", "1", NULL},
	{NVME0 "/nvme0n1/device", NULL, "../../nvme0"},
	{NVME0 "/model", "Samsung SSD 990 PRO 1TB     ", NULL},
	{NVME0 "/serial", "  S73VNJ0W123456", NULL},
	{NVME0 "/firmware_rev", "4B2QJXD7", NULL},
	{"devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/vendor", "0x144d", NULL},
	{"devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/device", "0xa80a", NULL},
	{"devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/numa_node", "1", NULL},
	{"devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/local_cpulist", "8-15", NULL},
};

static const struct fs_entry empty_proc[] = {
	{"proc/self/mountinfo", "22 1 0:21 / /proc rw - proc proc rw", NULL},
	{"proc/swaps", "Filename\tType\tSize\tUsed\tPriority", NULL},
};

static void make_bed(const char *dir)
{
	char sys[4096];

	fmt(sys, sizeof(sys), "%s/sys", dir);
	mkdir_p(sys);
	build_tree(sys, nvme_tree, sizeof(nvme_tree) / sizeof(nvme_tree[0]));
	build_tree(dir, empty_proc, sizeof(empty_proc) / sizeof(empty_proc[0]));
}

/* An `lspci -xxx` dump of one function whose Express capability carries these values. */
static void write_dump(const char *path, unsigned vendor, unsigned device, unsigned cap_speed,
		       unsigned cap_width, unsigned sta_speed, unsigned sta_width)
{
	unsigned char c[256] = {0};
	uint32_t lnkcap = cap_speed | (cap_width << 4);
	uint16_t lnksta = (uint16_t)(sta_speed | (sta_width << 4));
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	c[0] = vendor & 0xff, c[1] = vendor >> 8, c[2] = device & 0xff, c[3] = device >> 8;
	c[6] = 0x10;                           /* status: capability list */
	c[9] = 0x02, c[10] = 0x08, c[11] = 0x01; /* NVM Express */
	c[0x34] = 0x40;
	c[0x40] = 0x10, c[0x42] = 0x02;        /* PCI Express capability, version 2 */
	for (int i = 0; i < 4; i++)
		c[0x4c + i] = (unsigned char)(lnkcap >> (8 * i));
	c[0x52] = (unsigned char)lnksta, c[0x53] = (unsigned char)(lnksta >> 8);
	fprintf(f, "3d:00.0 Non-Volatile memory controller: test\n");
	for (int row = 0; row < 256; row += 16) {
		fprintf(f, "%02x:", row);
		for (int i = 0; i < 16; i++)
			fprintf(f, " %02x", c[row + i]);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	fclose(f);
}

static int scan_bed(const char *dir, const char *dump, struct drive_list *l, char *err,
		    size_t errlen)
{
	char sys[4096], proc[4096];
	struct drive_scan_opts o = {.sys_root = sys, .proc_root = proc, .pci_dump = dump};

	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	return drive_scan(l, &o, err, errlen);
}

/* ---- transport rules ---------------------------------------------------------------- */

static const struct {
	const char *name, *path;
	enum drive_transport expect;
} transport_cases[] = {
	{"nvme0n1", "/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1",
	 DRIVE_TR_NVME},
	{"sda", "/sys/devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sda",
	 DRIVE_TR_SATA},
	{"sdb",
	 "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb",
	 DRIVE_TR_USB},
	{"sdc",
	 "/sys/devices/pci0000:00/0000:00:01.0/0000:02:00.0/host7/port-7:0/end_device-7:0/"
	 "target7:0:0/7:0:0:0/block/sdc",
	 DRIVE_TR_SAS},
	{"sdd", "/sys/devices/pci0000:00/0000:00:05.0/virtio3/host0/target0:0:1/0:0:1:0/block/sdd",
	 DRIVE_TR_SCSI},
	{"vda", "/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda", DRIVE_TR_VIRTIO},
	{"loop3", "/sys/devices/virtual/block/loop3", DRIVE_TR_LOOP},
	{"zram0", "/sys/devices/virtual/block/zram0", DRIVE_TR_ZRAM},
	{"md127", "/sys/devices/virtual/block/md127", DRIVE_TR_MD},
	{"dm-2", "/sys/devices/virtual/block/dm-2", DRIVE_TR_DM},
	{"mmcblk0", "/sys/devices/platform/soc/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0",
	 DRIVE_TR_MMC},
	{"nbd0", "/sys/devices/virtual/block/nbd0", DRIVE_TR_OTHER},
	/* a name that merely contains a rule's word is not matched by it */
	{"sde", "/sys/devices/platform/database0/block/sde", DRIVE_TR_OTHER},
};

START_TEST(test_transport)
{
	const __typeof__(transport_cases[0]) *c = &transport_cases[_i];

	ck_assert_str_eq(drive_transport_name(drive_transport_classify(c->name, c->path)),
			 drive_transport_name(c->expect));
}
END_TEST

START_TEST(test_rotational_reliability)
{
	ck_assert(drive_transport_rotational_reliable(DRIVE_TR_SATA));
	ck_assert(drive_transport_rotational_reliable(DRIVE_TR_SAS));
	ck_assert(!drive_transport_rotational_reliable(DRIVE_TR_VIRTIO));
	ck_assert(!drive_transport_rotational_reliable(DRIVE_TR_LOOP));
}
END_TEST

/* ---- link parsing and formatting ------------------------------------------------------ */

static const struct {
	const char *sysfs;
	unsigned mts, gen;
	unsigned width;
	const char *text;
} link_cases[] = {
	{"2.5 GT/s PCIe", 2500, 1, 1, "Gen1 x1"},
	{"5.0 GT/s PCIe", 5000, 2, 4, "Gen2 x4"},
	{"8.0 GT/s PCIe", 8000, 3, 2, "Gen3 x2"},
	{"16.0 GT/s PCIe", 16000, 4, 4, "Gen4 x4"},
	{"32.0 GT/s PCIe", 32000, 5, 16, "Gen5 x16"},
	{"64.0 GT/s PCIe", 64000, 6, 8, "Gen6 x8"},
	{"5 GT/s", 5000, 2, 1, "Gen2 x1"}, /* older kernels */
	{"Unknown speed", 0, 0, 0, "-"},
};

START_TEST(test_link_parse)
{
	const __typeof__(link_cases[0]) *c = &link_cases[_i];
	struct drive_link_end e = {.speed_mts = drive_parse_link_speed(c->sysfs),
				   .width = c->width};
	char buf[32];

	ck_assert_uint_eq(e.speed_mts, c->mts);
	ck_assert_uint_eq(drive_pcie_gen(e.speed_mts), c->gen);
	ck_assert_str_eq(drive_link_fmt(buf, sizeof(buf), &e), c->text);
}
END_TEST

/* ---- libpci dump method: Link Capabilities vs Link Status ----------------------------- */

static const struct {
	unsigned cap_speed, cap_width, sta_speed, sta_width;
	const char *cur, *max;
	bool degraded;
} dump_cases[] = {
	{4, 4, 4, 4, "Gen4 x4", "Gen4 x4", false},
	{4, 4, 3, 2, "Gen3 x2", "Gen4 x4", true}, /* the classic: wrong slot */
	{4, 4, 4, 2, "Gen4 x2", "Gen4 x4", true}, /* width only */
	{3, 4, 1, 4, "Gen1 x4", "Gen3 x4", true}, /* speed only */
	{5, 4, 5, 4, "Gen5 x4", "Gen5 x4", false},
	{6, 8, 6, 8, "Gen6 x8", "Gen6 x8", false},
};

START_TEST(test_dump_link)
{
	const __typeof__(dump_cases[0]) *c = &dump_cases[_i];
	char dir[4096], dump[4096], err[256] = "", buf[32];
	struct drive_list l;
	const struct drive_pci *p;

	fmt(dir, sizeof(dir), "%s/dump%d", tmproot, _i);
	make_bed(dir);
	fmt(dump, sizeof(dump), "%s/lspci.txt", dir);
	write_dump(dump, 0x144d, 0xa80a, c->cap_speed, c->cap_width, c->sta_speed, c->sta_width);
	ck_assert_msg(scan_bed(dir, dump, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.count, 1);
	p = &l.drives[0].pci;
	ck_assert(p->present);
	ck_assert_str_eq(p->address, "0000:3d:00.0");
	ck_assert(p->link_known);
	ck_assert_str_eq(p->link_source, "config");
	ck_assert_str_eq(drive_link_fmt(buf, sizeof(buf), &p->link_cur), c->cur);
	ck_assert_str_eq(drive_link_fmt(buf, sizeof(buf), &p->link_max), c->max);
	ck_assert_int_eq(p->link_degraded, c->degraded);
	/* names come from pci.ids through libpci */
	ck_assert_str_eq(p->vendor, "Samsung Electronics Co Ltd");
	ck_assert_str_eq(l.drives[0].vendor, "Samsung Electronics Co Ltd");
	ck_assert_ptr_nonnull(strstr(p->device, "980PRO"));
	drive_list_free(&l);
}
END_TEST

/* libpci's default error handler calls exit(); ours must come back with the message. */
static const char *const bad_dumps[] = {
	NULL,                            /* no such file */
	"this is not an lspci dump\n",   /* garbage */
	"3d:00.0 x\nzz: 00 11\n",        /* a malformed data line */
};

START_TEST(test_pci_errors_return)
{
	char dir[4096], dump[4096], err[256] = "";
	struct drive_list l;
	int ret;

	fmt(dir, sizeof(dir), "%s/bad%d", tmproot, _i);
	make_bed(dir);
	fmt(dump, sizeof(dump), "%s/lspci.txt", dir);
	if (bad_dumps[_i]) {
		FILE *f = fopen(dump, "w");
		fputs(bad_dumps[_i], f);
		fclose(f);
	}
	ret = scan_bed(dir, dump, &l, err, sizeof(err));
	/* either libpci refused the dump (an error with its message) or nothing decoded */
	if (ret) {
		ck_assert_int_lt(ret, 0);
		ck_assert_msg(strstr(err, "libpci") != NULL, "%s", err);
	} else {
		ck_assert_uint_eq(l.count, 1);
		ck_assert(!l.drives[0].pci.link_known);
		drive_list_free(&l);
	}
}
END_TEST

/* ---- the fake tree: every sysfs field ------------------------------------------------- */

START_TEST(test_fake_tree_fields)
{
	static const struct fs_entry link_attrs[] = {
		{"sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/current_link_speed",
		 "8.0 GT/s PCIe", NULL},
		{"sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/current_link_width", "4", NULL},
		{"sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/max_link_speed",
		 "16.0 GT/s PCIe", NULL},
		{"sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/max_link_width", "4", NULL},
	};
	char dir[4096], err[256] = "";
	struct drive_list l;
	const struct drive *d;

	fmt(dir, sizeof(dir), "%s/fields", tmproot);
	make_bed(dir);
	build_tree(dir, link_attrs, sizeof(link_attrs) / sizeof(link_attrs[0]));
	/* no dump: config space is not in the fake tree, so the link comes from sysfs */
	ck_assert_msg(scan_bed(dir, NULL, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.count, 1);
	d = &l.drives[0];
	ck_assert_str_eq(d->name, "nvme0n1");
	ck_assert_str_eq(d->node, "/dev/nvme0n1");
	ck_assert_uint_eq(d->major, 259);
	ck_assert_uint_eq(d->minor, 0);
	ck_assert(d->devnum == makedev(259, 0));
	ck_assert_int_eq(d->transport, DRIVE_TR_NVME);
	ck_assert_str_eq(d->model, "Samsung SSD 990 PRO 1TB");
	ck_assert_str_eq(d->serial, "S73VNJ0W123456");
	ck_assert_str_eq(d->firmware, "4B2QJXD7");
	ck_assert_str_eq(d->wwn, "eui.0025388b91b5e1a8");
	ck_assert_uint_eq(d->capacity_bytes, 1953525168ull * 512);
	ck_assert_uint_eq(d->logical_block_bytes, 4096);
	ck_assert_uint_eq(d->physical_block_bytes, 4096);
	ck_assert(!d->rotational);
	ck_assert(!d->rotational_unreliable);
	ck_assert_str_eq(d->scheduler, "mq-deadline");
	ck_assert_uint_eq(d->nr_requests, 1023);
	ck_assert_int_eq(d->write_cache, DRIVE_WCACHE_THROUGH);
	ck_assert(!d->discard);
	ck_assert(d->read_only);
	ck_assert(d->nvme.present);
	ck_assert_str_eq(d->nvme.controller, "nvme0");
	ck_assert_str_eq(d->nvme.model, "Samsung SSD 990 PRO 1TB");
	ck_assert_uint_eq(d->nvme.nsid, 1);
	ck_assert_int_eq(d->pci.numa_node, 1);
	ck_assert_str_eq(d->pci.local_cpus, "8-15");
	ck_assert_uint_eq(d->pci.vendor_id, 0x144d);
	ck_assert(d->pci.link_known);
	ck_assert_str_eq(d->pci.link_source, "sysfs");
	ck_assert_uint_eq(d->pci.link_cur.speed_mts, 8000);
	ck_assert_uint_eq(d->pci.link_max.speed_mts, 16000);
	ck_assert(d->pci.link_degraded);
	ck_assert(d->inuse_known);
	ck_assert(!inuse_busy(&d->inuse));
	drive_list_free(&l);
}
END_TEST

/* Which entries are listed, and in what order. */
START_TEST(test_fake_tree_listing)
{
	static const struct fs_entry more[] = {
		/* natural order: nvme2n1 before nvme10n1 */
		{"sys/class/block/nvme10n1", NULL, "../../devices/virtual/block/nvme10n1"},
		{"sys/devices/virtual/block/nvme10n1/dev", "259:9", NULL},
		{"sys/devices/virtual/block/nvme10n1/size", "8", NULL},
		{"sys/class/block/nvme2n1", NULL, "../../devices/virtual/block/nvme2n1"},
		{"sys/devices/virtual/block/nvme2n1/dev", "259:5", NULL},
		{"sys/devices/virtual/block/nvme2n1/size", "8", NULL},
		/* a partition belongs to its disk */
		{"sys/class/block/nvme0n1p1", NULL, "../../" NVME0 "/nvme0n1/nvme0n1p1"},
		{"sys/" NVME0 "/nvme0n1/nvme0n1p1/dev", "259:1", NULL},
		{"sys/" NVME0 "/nvme0n1/nvme0n1p1/partition", "1", NULL},
		{"sys/" NVME0 "/nvme0n1/nvme0n1p1/size", "2048", NULL},
		/* an empty loop device is left out unless asked for */
		{"sys/class/block/loop0", NULL, "../../devices/virtual/block/loop0"},
		{"sys/devices/virtual/block/loop0/dev", "7:0", NULL},
		{"sys/devices/virtual/block/loop0/size", "0", NULL},
		/* a hidden multipath path is never listed */
		{"sys/class/block/nvme0c0n1", NULL, "../../devices/virtual/block/nvme0c0n1"},
		{"sys/devices/virtual/block/nvme0c0n1/dev", "259:7", NULL},
		{"sys/devices/virtual/block/nvme0c0n1/size", "8", NULL},
		{"sys/devices/virtual/block/nvme0c0n1/hidden", "1", NULL},
	};
	char dir[4096], sys[4096], proc[4096], err[256] = "";
	struct drive_list l;
	struct drive_scan_opts o = {.sys_root = sys, .proc_root = proc};

	fmt(dir, sizeof(dir), "%s/listing", tmproot);
	make_bed(dir);
	build_tree(dir, more, sizeof(more) / sizeof(more[0]));
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_msg(drive_scan(&l, &o, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.count, 3);
	ck_assert_str_eq(l.drives[0].name, "nvme0n1");
	ck_assert_uint_eq(l.drives[0].npartitions, 1);
	ck_assert_str_eq(l.drives[1].name, "nvme2n1");
	ck_assert_str_eq(l.drives[2].name, "nvme10n1");
	drive_list_free(&l);

	o.include_empty = true;
	ck_assert_msg(drive_scan(&l, &o, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.count, 4);
	ck_assert_str_eq(l.drives[0].name, "loop0");
	ck_assert_int_eq(l.drives[0].transport, DRIVE_TR_LOOP);
	ck_assert(l.drives[0].rotational_unreliable);
	drive_list_free(&l);
}
END_TEST

/*
 * Native multipath (an NVM subsystem, as QEMU's nvme-subsys and dual-port drives give):
 * the namespaces hang off the subsystem, beside the link to their controller, and each
 * takes that controller's model, serial and PCI function, never a sibling namespace.
 */
#define SUBSYS "devices/virtual/nvme-subsystem/nvme-subsys0"
START_TEST(test_multipath_subsystem)
{
	static const struct fs_entry more[] = {
		{"sys/" NVME0 "/device", NULL, "../../../0000:3d:00.0"},
		{"sys/" SUBSYS "/nvme0", NULL, "../../../pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0"},
#define HEAD(n, minor)                                                                             \
	{"sys/class/block/nvme0n" #n, NULL, "../../" SUBSYS "/nvme0n" #n},                           \
		{"sys/" SUBSYS "/nvme0n" #n "/dev", "259:" #minor, NULL},                            \
		{"sys/" SUBSYS "/nvme0n" #n "/size", "8", NULL},                                     \
		{"sys/" SUBSYS "/nvme0n" #n "/nsid", #n, NULL},                                      \
		{"sys/" SUBSYS "/nvme0n" #n "/device", NULL, "../../nvme-subsys0"}
		HEAD(2, 12), HEAD(3, 13), HEAD(4, 14),
#undef HEAD
	};
	char dir[4096], err[256] = "";
	struct drive_list l;

	fmt(dir, sizeof(dir), "%s/multipath", tmproot);
	make_bed(dir);
	build_tree(dir, more, sizeof(more) / sizeof(more[0]));
	ck_assert_msg(scan_bed(dir, NULL, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.count, 4);
	for (unsigned i = 1; i < l.count; i++) {
		const struct drive *d = &l.drives[i];
		ck_assert_str_eq(d->nvme.controller, "nvme0");
		ck_assert_str_eq(d->model, "Samsung SSD 990 PRO 1TB");
		ck_assert_str_eq(d->serial, "S73VNJ0W123456");
		ck_assert_uint_eq(d->nvme.nsid, i + 1);
		ck_assert(d->pci.present);
		ck_assert_str_eq(d->pci.address, "0000:3d:00.0");
	}
	drive_list_free(&l);
}
END_TEST

/*
 * A SATA drive's firmware is its IDENTIFY data's 8 characters (from VPD page 0x89), not
 * the 4 that libata's INQUIRY revision keeps ("SCV10121" shows as "0121" in "rev").
 */
#define SATA_DEV "devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0"
START_TEST(test_sata_firmware)
{
	static const struct fs_entry more[] = {
		{"sys/class/block/sda", NULL, "../../" SATA_DEV "/block/sda"},
		{"sys/" SATA_DEV "/block/sda/dev", "8:0", NULL},
		{"sys/" SATA_DEV "/block/sda/size", "8", NULL},
		{"sys/" SATA_DEV "/block/sda/device", NULL, "../../../2:0:0:0"},
		{"sys/" SATA_DEV "/model", "Lab SATA SSD    ", NULL},
		{"sys/" SATA_DEV "/vendor", "ATA     ", NULL},
		{"sys/" SATA_DEV "/rev", "0121", NULL},
	};
	unsigned char page[572] = {0x00, 0x89, 0x02, 0x38};
	const char *fw = "SCV10121";
	char dir[4096], path[4096], err[256] = "";
	struct drive_list l;
	FILE *f;

	fmt(dir, sizeof(dir), "%s/sata", tmproot);
	make_bed(dir);
	build_tree(dir, more, sizeof(more) / sizeof(more[0]));
	for (int i = 0; i < 8; i += 2) { /* IDENTIFY word 23 on, high byte first */
		page[60 + 46 + i] = (unsigned char)fw[i + 1];
		page[60 + 46 + i + 1] = (unsigned char)fw[i];
	}
	fmt(path, sizeof(path), "%s/sys/" SATA_DEV "/vpd_pg89", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(page, 1, sizeof(page), f), sizeof(page));
	fclose(f);
	ck_assert_msg(scan_bed(dir, NULL, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.count, 2);
	ck_assert_str_eq(l.drives[1].name, "sda");
	ck_assert_int_eq(l.drives[1].transport, DRIVE_TR_SATA);
	ck_assert_str_eq(l.drives[1].model, "Lab SATA SSD");
	ck_assert_str_eq(l.drives[1].firmware, "SCV10121");
	/* without the page, the INQUIRY revision is all there is */
	ck_assert_int_eq(unlink(path), 0);
	drive_list_free(&l);
	ck_assert_msg(scan_bed(dir, NULL, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(l.drives[1].firmware, "0121");
	drive_list_free(&l);
}
END_TEST

START_TEST(test_scan_bad_root)
{
	struct drive_scan_opts o = {.sys_root = "/nonexistent/sys", .skip_inuse = true};
	struct drive_list l;
	char err[256] = "";

	ck_assert_int_eq(drive_scan(&l, &o, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/sys/class/block"));
	ck_assert_uint_eq(l.count, 0);
}
END_TEST

/* ---- the JSON record ------------------------------------------------------------------ */

START_TEST(test_json)
{
	char dir[4096], dump[4096], err[256] = "";
	struct drive_list l;
	struct json_object *doc, *drives, *d, *v, *pci, *link;

	fmt(dir, sizeof(dir), "%s/json", tmproot);
	make_bed(dir);
	fmt(dump, sizeof(dump), "%s/lspci.txt", dir);
	write_dump(dump, 0x144d, 0xa80a, 4, 4, 3, 2);
	ck_assert_msg(scan_bed(dir, dump, &l, err, sizeof(err)) == 0, "%s", err);
	doc = drive_list_to_json(&l, "9.9.9");
	/* format and version first, so readers can dispatch before reading the rest */
	struct json_object_iterator it = json_object_iter_begin(doc);
	ck_assert_str_eq(json_object_iter_peek_name(&it), "format");
	json_object_iter_next(&it);
	ck_assert_str_eq(json_object_iter_peek_name(&it), "version");
	ck_assert(json_object_object_get_ex(doc, "format", &v));
	ck_assert_str_eq(json_object_get_string(v), DRIVE_LIST_FORMAT);
	ck_assert(json_object_object_get_ex(doc, "drives", &drives));
	ck_assert_uint_eq(json_object_array_length(drives), 1);
	d = json_object_array_get_idx(drives, 0);
	static const char *const keys[] = {
		"name", "node", "by_id", "dev", "major", "minor", "partition", "transport",
		"model", "serial", "firmware", "vendor", "wwn", "capacity_bytes",
		"logical_block_bytes", "physical_block_bytes", "rotational",
		"rotational_reliable", "scheduler", "nr_requests", "write_cache", "discard",
		"read_only", "pci", "nvme", "in_use",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_msg(json_object_object_get_ex(d, keys[i], NULL), "missing %s", keys[i]);
	ck_assert(json_object_object_get_ex(d, "dev", &v));
	ck_assert_str_eq(json_object_get_string(v), "259:0");
	ck_assert(json_object_object_get_ex(d, "write_cache", &v));
	ck_assert_str_eq(json_object_get_string(v), "write through");
	ck_assert(json_object_object_get_ex(d, "pci", &pci));
	ck_assert(json_object_object_get_ex(pci, "link", &link));
	ck_assert(json_object_object_get_ex(link, "degraded", &v));
	ck_assert(json_object_get_boolean(v));
	ck_assert(json_object_object_get_ex(link, "current", &v));
	ck_assert(json_object_object_get_ex(v, "gen", &v));
	ck_assert_int_eq(json_object_get_int(v), 3);
	json_object_put(doc);
	drive_list_free(&l);
}
END_TEST

/* ---- paths ---------------------------------------------------------------------------- */

START_TEST(test_probe_path_errors)
{
	struct drive d;
	char err[256] = "", file[4096];
	FILE *f;

	fmt(file, sizeof(file), "%s/a-file-target", tmproot);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(drive_probe_path(file, &d, err, sizeof(err)), -ENOTBLK);
	ck_assert_ptr_nonnull(strstr(err, "not a block device"));
	ck_assert_int_eq(drive_probe_path("/nonexistent/disk", &d, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/disk"));
	unlink(file);
}
END_TEST

/* A symlink to the machine's root disk gives the disk's record (stat only; no open). */
START_TEST(test_probe_path_symlink)
{
	struct drive_list l;
	struct drive d;
	char err[256] = "", link[4096];

	ck_assert_msg(drive_scan(&l, NULL, err, sizeof(err)) == 0, "%s", err);
	if (l.count == 0) {
		drive_list_free(&l);
		return;
	}
	fmt(link, sizeof(link), "%s/by-id-%s", tmproot, l.drives[0].name);
	ck_assert_int_eq(symlink(l.drives[0].node, link), 0);
	ck_assert_msg(drive_probe_path(link, &d, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(d.name, l.drives[0].name);
	ck_assert(d.devnum == l.drives[0].devnum);
	ck_assert_str_eq(d.partition, "");
	unlink(link);
	drive_list_free(&l);
}
END_TEST

/* ---- hotplug -------------------------------------------------------------------------- */

START_TEST(test_monitor_loop)
{
	struct drive_monitor *m;
	struct drive_event ev;
	char err[256] = "", *file, *dev;
	bool seen = false;

	if (!test_is_root()) {
		printf("SKIP: check_drive monitor: needs root for a loop device\n");
		return;
	}
	ck_assert_msg(drive_monitor_open(&m, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_ge(drive_monitor_fd(m), 0);
	file = test_tmpfile(NULL, 1 << 20);
	ck_assert_ptr_nonnull(file);
	dev = test_loop_attach(file, 0);
	if (!dev) {
		unlink(file);
		drive_monitor_close(m);
		printf("SKIP: check_drive monitor: losetup failed\n");
		return;
	}
	for (int tries = 0; tries < 20 && !seen; tries++) {
		struct pollfd pfd = {.fd = drive_monitor_fd(m), .events = POLLIN};
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		while (drive_monitor_read(m, &ev) == 1)
			if (!strcmp(ev.name, strrchr(dev, '/') + 1) && ev.kind != DRIVE_EV_REMOVED)
				seen = true;
	}
	test_loop_detach(dev);
	unlink(file);
	free(file);
	drive_monitor_close(m);
	ck_assert_msg(seen, "no uevent for %s", dev);
	free(dev);
}
END_TEST

static Suite *drive_suite(void)
{
	Suite *s = suite_create("drive");
	TCase *tc = tcase_create("drive");

	tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_loop_test(tc, test_transport, 0,
			    sizeof(transport_cases) / sizeof(transport_cases[0]));
	tcase_add_test(tc, test_rotational_reliability);
	tcase_add_loop_test(tc, test_link_parse, 0, sizeof(link_cases) / sizeof(link_cases[0]));
	tcase_add_loop_test(tc, test_dump_link, 0, sizeof(dump_cases) / sizeof(dump_cases[0]));
	tcase_add_loop_test(tc, test_pci_errors_return, 0,
			    sizeof(bad_dumps) / sizeof(bad_dumps[0]));
	tcase_add_test(tc, test_fake_tree_fields);
	tcase_add_test(tc, test_fake_tree_listing);
	tcase_add_test(tc, test_multipath_subsystem);
	tcase_add_test(tc, test_sata_firmware);
	tcase_add_test(tc, test_scan_bad_root);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_probe_path_errors);
	tcase_add_test(tc, test_probe_path_symlink);
	tcase_add_test(tc, test_monitor_loop);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(drive_suite)
