// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-use checks over fake /sys and /proc trees built here: mounted partitions matched by
 * major:minor (never by the name mountinfo shows), escaped mount points, swap devices and
 * swap files, holders of the disk and of its partitions, the root file system through
 * device mapper, processes writing, too many reasons, unknown devices; and the real root
 * disk of this machine. A real mounted loop partition and swap are tested by tests/t_list.sh.
 */
#include "fstree.h"

#include <ftw.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "inuse.h"
#include "inuse_int.h"
#include "safety.h"


#define SDA "sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda"
#define SDB "sys/devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/block/sdb"
#define LOOP3 "sys/devices/virtual/block/loop3"

/*
 * The machine: sda (sda1 under LVM's dm-0, which is mounted on /), sdb held whole by md0,
 * loop3 with loop3p1 mounted twice (one mount point with a space) and loop3p2, and a free
 * disk sdc.
 */
static const struct fs_entry machine[] = {
	{"sys/class/block/sda", NULL, "../../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda"},
	{SDA "/dev", "8:0", NULL},
	{"sys/class/block/sda1", NULL, "../../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda/sda1"},
	{SDA "/sda1/dev", "8:1", NULL},
	{SDA "/sda1/partition", "1", NULL},
	{SDA "/sda1/holders/dm-0", NULL, "../../../../../../../../../../virtual/block/dm-0"},
	{"sys/class/block/dm-0", NULL, "../../devices/virtual/block/dm-0"},
	{"sys/devices/virtual/block/dm-0/dev", "253:0", NULL},
	{"sys/devices/virtual/block/dm-0/dm/name", "vg0-root", NULL},
	{"sys/devices/virtual/block/dm-0/slaves/sda1", NULL, "../../../../pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda/sda1"},
	{"sys/class/block/sdb", NULL, "../../devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/block/sdb"},
	{SDB "/dev", "8:16", NULL},
	{SDB "/holders/md0", NULL, "../../../../../../../../virtual/block/md0"},
	{"sys/class/block/md0", NULL, "../../devices/virtual/block/md0"},
	{"sys/devices/virtual/block/md0/dev", "9:0", NULL},
	{"sys/class/block/sdc", NULL, "../../devices/virtual/block/sdc"},
	{"sys/devices/virtual/block/sdc/dev", "8:32", NULL},
	{"sys/class/block/loop3", NULL, "../../devices/virtual/block/loop3"},
	{LOOP3 "/dev", "7:3", NULL},
	{"sys/class/block/loop3p1", NULL, "../../devices/virtual/block/loop3/loop3p1"},
	{LOOP3 "/loop3p1/dev", "259:10", NULL},
	{LOOP3 "/loop3p1/partition", "1", NULL},
	{"sys/class/block/loop3p2", NULL, "../../devices/virtual/block/loop3/loop3p2"},
	{LOOP3 "/loop3p2/dev", "259:11", NULL},
	{LOOP3 "/loop3p2/partition", "2", NULL},
	{"proc/self/mountinfo",
	 "21 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/vg0-root rw\n"
	 "22 21 0:21 / /proc rw,relatime - proc proc rw\n"
	 "30 21 259:10 / /mnt/x rw,relatime - ext4 /dev/loop3p1 rw\n"
	 "31 21 259:10 /sub /mnt/with\\040space rw,relatime - ext4 /dev/loop3p1 rw\n"
	 /* the source column says sdc, the numbers say sdb: the numbers win */
	 "32 21 8:16 / /media/usb rw,relatime - vfat /dev/sdc rw",
	 NULL},
	{"proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority", NULL},
};

static void make_machine(const char *dir)
{
	mkdir_p(dir);
	build_tree(dir, machine, sizeof(machine) / sizeof(machine[0]));
}

static int check_in(const char *dir, dev_t dev, struct inuse *u)
{
	char sys[4096], proc[4096], err[256] = "";
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	int ret;

	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ret = inuse_check(dev, &roots, u, err, sizeof(err));
	if (ret && ret != -ENODEV)
		ck_abort_msg("inuse_check: %s", err);
	return ret;
}

/* What uses the regular file path in the machine under dir (inuse_check_file()). */
static void check_file_in(const char *dir, const char *path, struct inuse *u)
{
	char sys[4096], proc[4096], err[256] = "";
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct stat st;

	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_msg(inuse_check_file(st.st_dev, st.st_ino, NULL, &roots, u, err, sizeof(err)) ==
			      0,
		      "inuse_check_file: %s", err);
}

static bool has_reason(const struct inuse *u, enum inuse_kind kind, const char *text)
{
	for (unsigned i = 0; i < u->nreasons; i++)
		if (u->reason[i].kind == kind && !strcmp(u->reason[i].text, text))
			return true;
	return false;
}

/* Every reason on one line, for failure messages. */
static const char *all_reasons(const struct inuse *u)
{
	static char buf[2048];
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < u->nreasons && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "[%.16s] %.200s; ",
				      inuse_kind_name[u->reason[i].kind], u->reason[i].text);
	return buf;
}

/* Each disk of the machine: its flags and every reason, in words. */
static const struct {
	unsigned maj, min;
	unsigned flags;
	const char *reasons[4]; /* "kind|text" */
} machine_cases[] = {
	{7, 3, INUSE_BIT(INUSE_MOUNTED),
	 {"mounted|mounted: loop3p1 on /mnt/x", "mounted|mounted: loop3p1 on /mnt/with space"}},
	{8, 0, INUSE_BIT(INUSE_HOLDER) | INUSE_BIT(INUSE_ROOT),
	 {"held|held by dm-0 (vg0-root) through sda1, mounted: dm-0 on /",
	  "root|root filesystem: / is on dm-0, which uses sda1"}},
	{8, 16, INUSE_BIT(INUSE_HOLDER) | INUSE_BIT(INUSE_MOUNTED),
	 {"held|held by md0", "mounted|mounted: sdb on /media/usb"}},
	{8, 32, 0, {NULL}},
	{253, 0, INUSE_BIT(INUSE_MOUNTED) | INUSE_BIT(INUSE_ROOT),
	 {"mounted|mounted: dm-0 on /", "root|root filesystem: / is on dm-0"}},
};

START_TEST(test_machine)
{
	const __typeof__(machine_cases[0]) *c = &machine_cases[_i];
	char dir[4096];
	struct inuse u;
	unsigned n = 0;

	fmt(dir, sizeof(dir), "%s/machine%d", tmproot, _i);
	make_machine(dir);
	ck_assert_int_eq(check_in(dir, makedev(c->maj, c->min), &u), 0);
	ck_assert_msg(u.flags == c->flags, "flags %#x, want %#x: %s", u.flags, c->flags,
		      all_reasons(&u));
	ck_assert_int_eq(inuse_busy(&u), c->flags != 0);
	for (; n < 4 && c->reasons[n]; n++) {
		char kind[32];
		const char *bar = strchr(c->reasons[n], '|');
		fmt(kind, sizeof(kind), "%.*s", (int)(bar - c->reasons[n]), c->reasons[n]);
		enum inuse_kind k = INUSE_NKINDS;
		for (unsigned i = 0; i < INUSE_NKINDS; i++)
			if (!strcmp(inuse_kind_name[i], kind))
				k = i;
		ck_assert_msg(has_reason(&u, k, bar + 1), "missing reason '%s' in %s",
			      c->reasons[n], all_reasons(&u));
	}
	ck_assert_uint_eq(u.nreasons, n);
	ck_assert_uint_eq(u.dropped, 0);
}
END_TEST

START_TEST(test_unknown_device)
{
	char dir[4096], sys[4096], proc[4096], err[256] = "";
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct inuse u;

	fmt(dir, sizeof(dir), "%s/unknown", tmproot);
	make_machine(dir);
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_int_eq(inuse_check(makedev(65, 99), &roots, &u, err, sizeof(err)), -ENODEV);
	ck_assert_ptr_nonnull(strstr(err, "65:99"));
}
END_TEST

START_TEST(test_missing_proc)
{
	char dir[4096], sys[4096], err[256] = "";
	struct inuse_roots roots = {.proc = "/nonexistent/proc", .sys = sys};
	struct inuse u;

	fmt(dir, sizeof(dir), "%s/noproc", tmproot);
	make_machine(dir);
	fmt(sys, sizeof(sys), "%s/sys", dir);
	ck_assert_int_eq(inuse_check(makedev(8, 0), &roots, &u, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/proc/self/mountinfo"));
}
END_TEST

/* Ten mounts of one partition: eight reasons kept, the rest counted. */
START_TEST(test_too_many_reasons)
{
	char dir[4096], path[4096];
	struct inuse u;
	FILE *f;

	fmt(dir, sizeof(dir), "%s/many", tmproot);
	make_machine(dir);
	fmt(path, sizeof(path), "%s/proc/self/mountinfo", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 10; i++)
		fprintf(f, "%d 1 259:10 / /mnt/m%d rw - ext4 /dev/loop3p1 rw\n", 40 + i, i);
	fclose(f);
	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert_uint_eq(u.nreasons, INUSE_MAX_REASONS);
	ck_assert_uint_eq(u.dropped, 10 - INUSE_MAX_REASONS);
	ck_assert(has_reason(&u, INUSE_MOUNTED, "mounted: loop3p1 on /mnt/m0"));
}
END_TEST

/*
 * Swap is matched after resolving each /proc/swaps entry to a dev_t: a swap file counts
 * for the device its file system is on. The file lives on the real file system of the
 * temp dir, so the fake disk gets that device's numbers.
 */
START_TEST(test_swap_file)
{
	char dir[4096], path[4096], swapfile[4096], text[512];
	struct stat st;
	struct inuse u;
	FILE *f;

	fmt(dir, sizeof(dir), "%s/swapfile", tmproot);
	make_machine(dir);
	fmt(swapfile, sizeof(swapfile), "%s/my\\040swap", dir);
	inuse_unescape(swapfile + strlen(dir));
	f = fopen(swapfile, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(stat(swapfile, &st), 0);
	if (major(st.st_dev) == 0) {
		printf("SKIP: check_inuse swap file: %s is not on a block device\n", tmproot);
		return;
	}
	/* a disk "fsdisk" with the numbers of the temp dir's file system */
	fmt(path, sizeof(path), "%s/sys/devices/virtual/block/fsdisk", dir);
	mkdir_p(path);
	fmt(path, sizeof(path), "%s/sys/devices/virtual/block/fsdisk/dev", dir);
	f = fopen(path, "w");
	fprintf(f, "%u:%u\n", major(st.st_dev), minor(st.st_dev));
	fclose(f);
	fmt(path, sizeof(path), "%s/sys/class/block/fsdisk", dir);
	ck_assert_int_eq(symlink("../../devices/virtual/block/fsdisk", path), 0);
	fmt(path, sizeof(path), "%s/proc/swaps", dir);
	f = fopen(path, "w");
	fprintf(f, "Filename\tType\tSize\tUsed\tPriority\n%s/my\\040swap\tfile\t1024\t0\t-2\n",
		dir);
	fclose(f);
	ck_assert_int_eq(check_in(dir, st.st_dev, &u), 0);
	ck_assert(u.flags & INUSE_BIT(INUSE_SWAP));
	fmt(text, sizeof(text), "swap: file %s on fsdisk", swapfile);
	ck_assert_msg(has_reason(&u, INUSE_SWAP, text), "want '%s', got '%s'", text,
		      u.reason[0].text);
}
END_TEST

/* The machine under tmproot/name with a node for loop3p2 (made, never opened) at node;
   false, the test skipped, without root, which mknod needs. */
static bool machine_with_node(const char *name, char *dir, size_t dlen, char *node, size_t nlen)
{
	if (!test_is_root()) {
		printf("SKIP: check_inuse %s: mknod needs root\n", name);
		return false;
	}
	fmt(dir, dlen, "%s/%s", tmproot, name);
	make_machine(dir);
	fmt(node, nlen, "%s/loop3p2", dir);
	ck_assert_int_eq(mknod(node, S_IFBLK | 0600, makedev(259, 11)), 0);
	return true;
}

/*
 * Processes with a piece of the reach open for writing, as /proc/PID/fd shows them: a
 * partition's node held by one is a use of its disk; a file held by one with control
 * characters in its name is a use, the name made visible; this process's own descriptors,
 * non-numeric entries and other devices are not. Readers are left out by the links' own
 * modes, which only the real /proc has: tests/t_stacks.sh.
 */
START_TEST(test_open_writers)
{
	char dir[4096], node[4096], file[4096], self[64];
	struct inuse u;

	if (!machine_with_node("writers", dir, sizeof(dir), node, sizeof(node)))
		return;
	fmt(file, sizeof(file), "%s/vm.img", dir);
	fmt(self, sizeof(self), "proc/%ld/fd/3", (long)getpid());
	const struct fs_entry procs[] = {
		{"vm.img", "disk", NULL},
		{"proc/4242/comm", "qemu-system-x86", NULL},
		{"proc/4242/fd/7", NULL, node},
		{"proc/77/comm", "dd\x1b[2J", NULL},
		{"proc/77/fd/1", NULL, file},
		/* not processes of others: this one, and a name that is not a pid */
		{self, NULL, node},
		{"proc/12ab/fd/3", NULL, node},
	};
	build_tree(dir, procs, sizeof(procs) / sizeof(procs[0]));

	/* the disk: its partition is written by qemu; the partition itself says so too */
	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert(u.flags & INUSE_BIT(INUSE_OPEN));
	ck_assert_msg(has_reason(&u, INUSE_OPEN,
				 "open for writing: loop3p2 by qemu-system-x86 (pid 4242)"),
		      "%s", all_reasons(&u));
	/* loop3p1's two mounts and qemu: neither this process nor "12ab" */
	ck_assert_msg(u.nreasons == 3, "%s", all_reasons(&u));
	ck_assert_int_eq(check_in(dir, makedev(259, 11), &u), 0);
	ck_assert_msg(has_reason(&u, INUSE_OPEN,
				 "open for writing: loop3p2 by qemu-system-x86 (pid 4242)"),
		      "%s", all_reasons(&u));
	/* sda is nobody's to write (its dm-0 is root) */
	ck_assert_int_eq(check_in(dir, makedev(8, 0), &u), 0);
	ck_assert_msg(!(u.flags & INUSE_BIT(INUSE_OPEN)), "%s", all_reasons(&u));
	ck_assert_int_eq(check_in(dir, makedev(8, 32), &u), 0);
	ck_assert_uint_eq(u.flags, 0);

	/* the file: dd's name shown with its escape made visible */
	check_file_in(dir, file, &u);
	ck_assert_uint_eq(u.flags, INUSE_BIT(INUSE_OPEN));
	ck_assert_msg(has_reason(&u, INUSE_OPEN, "open for writing by dd^[[2J (pid 77)"), "%s",
		      all_reasons(&u));
}
END_TEST

/* The machine with its partition node, and two files in it: vm.img and other.img. */
static bool machine_with_files(const char *name, char *dir, char *node, char *file, char *other)
{
	const struct fs_entry files[] = {{"vm.img", "disk", NULL}, {"other.img", "x", NULL}};

	if (!machine_with_node(name, dir, 4096, node, 4096))
		return false;
	fmt(file, 4096, "%s/vm.img", dir);
	fmt(other, 4096, "%s/other.img", dir);
	build_tree(dir, files, 2);
	return true;
}

/*
 * Kernel exporters open what they export without claiming it: an enabled nvmet namespace
 * on a partition's node is a use of its disk; an enabled LIO fileio backstore on a file is
 * a use of the file, one made without targetcli too (its file in info); a disabled
 * namespace is none.
 */
START_TEST(test_exporters)
{
	char dir[4096], node[4096], file[4096], other[4096];
	struct inuse u;

	if (!machine_with_files("exporters", dir, node, file, other))
		return;
	char info[4200];
	fmt(info, sizeof(info),
	    "Status: ACTIVATED  Max Queue Depth: 128  SectorSize: 512  HwMaxSectors: 16384\n"
	    "        TCM FILEIO ID: 0        File: %s  Size: 2  Mode: O_DSYNC Async: 1\n",
	    other);
#define NVMET "sys/kernel/config/nvmet/subsystems/nqn.2014-08.lab:exp\x1b/namespaces/"
	const struct fs_entry tree[] = {
		{NVMET "1/enable", "1\n", NULL},
		{NVMET "1/device_path", node, NULL},
		{NVMET "2/enable", "0\n", NULL},
		{NVMET "2/device_path", other, NULL},
		{"sys/kernel/config/target/core/fileio_0/vmdisk/enable", "1\n", NULL},
		{"sys/kernel/config/target/core/fileio_0/vmdisk/udev_path", file, NULL},
		/* made without targetcli: no udev_path, the file in info */
		{"sys/kernel/config/target/core/fileio_1/raw/enable", "1\n", NULL},
		{"sys/kernel/config/target/core/fileio_1/raw/udev_path", "\n", NULL},
		{"sys/kernel/config/target/core/fileio_1/raw/info", info, NULL},
	};
#undef NVMET
	build_tree(dir, tree, sizeof(tree) / sizeof(tree[0]));

	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert(u.flags & INUSE_BIT(INUSE_OPEN));
	ck_assert_msg(
		has_reason(
			&u, INUSE_OPEN,
			"exported: loop3p2 by nvmet subsystem nqn.2014-08.lab:exp^[ namespace 1"),
		"%s", all_reasons(&u));
	check_file_in(dir, file, &u);
	ck_assert_uint_eq(u.flags, INUSE_BIT(INUSE_OPEN));
	ck_assert_msg(has_reason(&u, INUSE_OPEN, "exported by LIO backstore fileio_0/vmdisk"), "%s",
		      all_reasons(&u));
	check_file_in(dir, other, &u);
	ck_assert_msg(has_reason(&u, INUSE_OPEN, "exported by LIO backstore fileio_1/raw"), "%s",
		      all_reasons(&u));
	/* the disabled nvmet namespace on other.img is not said */
	ck_assert_msg(u.nreasons == 1, "%s", all_reasons(&u));
}
END_TEST

/*
 * More of the kernel's writers that do not show in /proc: a USB gadget's mass-storage LUN
 * on a file, one on a partition's node (read-only LUNs are none); an nvmet subsystem that
 * passes a whole controller through (its character device): each of its namespaces, a
 * multipath head through its path device; a zram device's writeback device, held.
 */
START_TEST(test_more_exporters)
{
	char dir[4096], node[4096], file[4096], other[4096], ctrl[4096];
	struct inuse u;

	if (!machine_with_files("exporters2", dir, node, file, other))
		return;
	fmt(ctrl, sizeof(ctrl), "%s/nvme7", dir);
	ck_assert_int_eq(mknod(ctrl, S_IFCHR | 0600, makedev(240, 7)), 0);
#define LUNS "sys/kernel/config/usb_gadget/g1/functions/mass_storage.usb0/"
#define PT   "sys/kernel/config/nvmet/subsystems/whole/passthru/"
#define CTRL "sys/devices/virtual/nvme-fabrics/ctl/nvme7"
	const struct fs_entry tree[] = {
		{LUNS "lun.0/file", file, NULL},
		{LUNS "lun.0/ro", "0\n", NULL},
		{LUNS "lun.1/file", node, NULL},
		{LUNS "lun.1/ro", "0\n", NULL},
		{LUNS "lun.2/file", other, NULL},
		{LUNS "lun.2/ro", "1\n", NULL},
		{"sys/kernel/config/usb_gadget/g1/functions/acm.usb0/file", other, NULL},
		{PT "enable", "1\n", NULL},
		{PT "device_path", ctrl, NULL},
		{"sys/class/nvme/nvme7", NULL, "../../devices/virtual/nvme-fabrics/ctl/nvme7"},
		{CTRL "/dev", "240:7", NULL},
		{"sys/class/block/nvme7c7n1", NULL,
		 "../../devices/virtual/nvme-fabrics/ctl/nvme7/nvme7c7n1"},
		{CTRL "/nvme7c7n1/dev", "259:20", NULL},
		{"sys/class/block/nvme7n1", NULL,
		 "../../devices/virtual/nvme-subsystem/nvme-subsys7/nvme7n1"},
		{"sys/devices/virtual/nvme-subsystem/nvme-subsys7/nvme7n1/dev", "259:21", NULL},
		{"sys/class/block/nvme7n2", NULL,
		 "../../devices/virtual/nvme-fabrics/ctl/nvme7/nvme7n2"},
		{CTRL "/nvme7n2/dev", "259:22", NULL},
		{"sys/class/block/zram0", NULL, "../../devices/virtual/block/zram0"},
		{"sys/devices/virtual/block/zram0/dev", "251:0", NULL},
		{"sys/devices/virtual/block/zram0/backing_dev", node, NULL},
		{"sys/class/block/zram1", NULL, "../../devices/virtual/block/zram1"},
		{"sys/devices/virtual/block/zram1/dev", "251:1", NULL},
		{"sys/devices/virtual/block/zram1/backing_dev", "none\n", NULL},
	};
#undef LUNS
#undef PT
#undef CTRL
	build_tree(dir, tree, sizeof(tree) / sizeof(tree[0]));

	check_file_in(dir, file, &u);
	ck_assert_msg(
		has_reason(&u, INUSE_OPEN, "exported by USB gadget g1 mass_storage.usb0 lun.0"),
		"%s", all_reasons(&u));
	ck_assert_msg(u.nreasons == 1, "%s", all_reasons(&u));
	check_file_in(dir, other, &u);
	ck_assert_msg(u.nreasons == 0, "a read-only LUN: %s", all_reasons(&u));
	ck_assert_int_eq(check_in(dir, makedev(259, 11), &u), 0);
	ck_assert_msg(has_reason(&u, INUSE_OPEN,
				 "exported: loop3p2 by USB gadget g1 mass_storage.usb0 lun.1"),
		      "%s", all_reasons(&u));
	ck_assert_msg(has_reason(&u, INUSE_HOLDER,
				 "held by zram0 (a zram device writing back to loop3p2)"),
		      "%s", all_reasons(&u));
	/* and loop3p1's two mounts: the fixture's partitions have no byte ranges */
	ck_assert_msg(u.nreasons == 4, "%s", all_reasons(&u));
	for (unsigned m = 20; m <= 22; m++) {
		char want[128];
		const char *name = m == 20 ? "nvme7c7n1" : m == 21 ? "nvme7n1" : "nvme7n2";
		fmt(want, sizeof(want), "exported: %s by nvmet subsystem whole (passthru)", name);
		ck_assert_int_eq(check_in(dir, makedev(259, m), &u), 0);
		ck_assert_msg(has_reason(&u, INUSE_OPEN, want), "%s", all_reasons(&u));
	}
	/* zram1 writes back nowhere; nothing here uses it */
	ck_assert_int_eq(check_in(dir, makedev(251, 1), &u), 0);
	ck_assert_msg(u.nreasons == 0, "%s", all_reasons(&u));
}
END_TEST

/*
 * A process that mapped the device or the file shared and writable, then closed the
 * descriptor: its stores still reach them. Private or read-only mappings are no use.
 */
START_TEST(test_mapped_writers)
{
	char dir[4096], node[4096], file[4096], other[4096], maps[8192];
	struct inuse u;
	struct stat st, ost;

	if (!machine_with_files("mapped", dir, node, file, other))
		return;
	ck_assert_int_eq(stat(file, &st), 0);
	ck_assert_int_eq(stat(other, &ost), 0);
	/* the device through map_files/; the file by the line's device and inode; other.img
	   only privately and read-only */
	fmt(maps, sizeof(maps),
	    "7f0000000000-7f0000001000 rw-s 00000000 00:05 99 %s\n"
	    "7f0000002000-7f0000003000 rw-s 00001000 %02x:%02x %lu %s\n"
	    "7f0000004000-7f0000005000 rw-p 00000000 %02x:%02x %lu %s\n"
	    "7f0000006000-7f0000007000 r--s 00000000 %02x:%02x %lu %s\n"
	    "7f0000008000-7f0000009000 rw-s 00000000 00:00 0 \n"
	    "garbage\n",
	    node, major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino, file,
	    major(ost.st_dev), minor(ost.st_dev), (unsigned long)ost.st_ino, other,
	    major(ost.st_dev), minor(ost.st_dev), (unsigned long)ost.st_ino, other);
	const struct fs_entry procs[] = {
		{"proc/5150/comm", "postgres", NULL},
		{"proc/5150/maps", maps, NULL},
		{"proc/5150/map_files/7f0000000000-7f0000001000", NULL, node},
	};
	build_tree(dir, procs, sizeof(procs) / sizeof(procs[0]));

	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert_msg(
		has_reason(&u, INUSE_OPEN, "mapped for writing: loop3p2 by postgres (pid 5150)"),
		"%s", all_reasons(&u));
	check_file_in(dir, file, &u);
	ck_assert_uint_eq(u.flags, INUSE_BIT(INUSE_OPEN));
	ck_assert_msg(has_reason(&u, INUSE_OPEN, "mapped for writing by postgres (pid 5150)"), "%s",
		      all_reasons(&u));
	check_file_in(dir, other, &u);
	ck_assert_msg(u.flags == 0, "%s", all_reasons(&u));
}
END_TEST

/* inuse_ring_files() each(): the paths, each followed by '|', in the buffer arg */
static int take_path(void *arg, const char *path)
{
	char *got = arg;
	size_t used = strlen(got);

	snprintf(got + used, 4096 - used, "%s|", path);
	return strstr(path, "/enomem") ? -ENOMEM : 0;
}

/* The files inuse_ring_files() takes from an io_uring's fdinfo text, in got (4096 bytes). */
static int parse_ring(const char *text, unsigned left, char *got)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	ck_assert_ptr_nonnull(f);
	got[0] = '\0';
	ret = inuse_ring_files(f, &left, take_path, got);
	fclose(f);
	return ret;
}

static const struct {
	const char *text; /* a ring's fdinfo */
	unsigned left;	  /* paths the parser may take */
	const char *want; /* the paths it took, each followed by '|' */
	int ret;
} ring_cases[] = {
	/* as this kernel shows it: paths escaped as mountinfo's are; a socket is no path, a
	   deleted file is said so (left to stat() to find nothing); the registered buffers
	   that follow are not files */
	{"pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t122019\nSqMask:\t0x3\nSqThread:\t-1\n"
	 "UserFiles:\t101\n    0: /dev/loop3p2\n    1: socket:[4711]\n    2: /srv/a\\040b\\012c\n"
	 "  100: /srv/gone\\040(deleted)\nUserBufs:\t1\n    0: 0x7f0000001000/4096\nPollList:\n",
	 100, "/dev/loop3p2|/srv/a b\nc|/srv/gone (deleted)|", 0},
	/* a kernel before 2025: the name alone (nothing to find it by), and empty slots */
	{"UserFiles:\t2\n    0: loop3p2\n    1: <none>\nUserBufs:\t0\n", 100, "", 0},
	/* a ring busy when it was read: the kernel shows no list at all */
	{"pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t122019\n", 100, "", -EAGAIN},
	{"", 100, "", -EAGAIN},
	{"UserFiles:\t0\nUserBufs:\t0\n", 100, "", 0},
	/* no more than it may take */
	{"UserFiles:\t3\n    0: /a\n    1: /b\n    2: /c\n", 2, "/a|/b|", 0},
	{"UserFiles:\t1\n    0: /a\n", 0, "", 0},
	/* odd lines: what is not an entry ends the list; entries elsewhere are not files */
	{"    0: /before\nUserFiles:\t3\n    0: /a\n    1:/b\n    2: /c\n", 100, "/a|", 0},
	{"UserFiles:\t2\n    x: /a\n    1: /b\n", 100, "", 0},
	{"UserFiles:\t2\n\n    1: /b\n", 100, "", 0},
	{"UserFiles:\t1\n    0: /no-newline-at-the-end", 100, "/no-newline-at-the-end|", 0},
	/* what each() says stops the reading */
	{"UserFiles:\t2\n    0: /enomem\n    1: /b\n", 100, "/enomem|", -ENOMEM},
};

START_TEST(test_ring_files)
{
	char got[4096];
	int ret = parse_ring(ring_cases[_i].text, ring_cases[_i].left, got);

	ck_assert_int_eq(ret, ring_cases[_i].ret);
	ck_assert_str_eq(got, ring_cases[_i].want);
}
END_TEST

/*
 * A line longer than any path (the kernel's are not, but it is read in pieces): no piece
 * of it is taken for an entry, however it reads, and the list goes on after it.
 */
START_TEST(test_ring_long_line)
{
	static const char tail[] = "    9: /tail";
	size_t reps = 8 * PATH_MAX / (sizeof(tail) - 1), len = 0;
	char *text = malloc(64 + reps * (sizeof(tail) - 1)), got[4096];

	ck_assert_ptr_nonnull(text);
	len += (size_t)sprintf(text, "UserFiles:\t2\n    0: /");
	for (size_t i = 0; i < reps; i++)
		len += (size_t)sprintf(text + len, "%s", tail);
	sprintf(text + len, "\n    1: /short\nUserBufs:\t0\n");
	ck_assert_int_eq(parse_ring(text, 100, got), 0);
	ck_assert_str_eq(got, "/short|");
	free(text);
}
END_TEST

/*
 * Files registered in another process's io_uring, its descriptors closed (or never
 * opened): a partition's node is a use of its disk, a file a use of the file. Not a
 * deleted file's old path, no socket, no ring too busy to show its files, no ring of this
 * process; and a file a process also has open for writing is said as that.
 */
START_TEST(test_ring_writers)
{
	char dir[4096], node[4096], file[4096], other[4096], info[16384], dd[4200], self[2][64];
	struct inuse u;

	if (!machine_with_files("rings", dir, node, file, other))
		return;
	fmt(dd, sizeof(dd), "UserFiles:\t1\n    0: %s\nUserBufs:\t0", other);
	fmt(info, sizeof(info),
	    "pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t4711\n"
	    "UserFiles:\t5\n    0: %s\n    1: %s\n    2: %s/gone.img\\040(deleted)\n"
	    "    3: socket:[99]\n    7: %s/not-there\nUserBufs:\t0\n",
	    node, file, dir, dir);
	fmt(self[0], sizeof(self[0]), "proc/%ld/fd/9", (long)getpid());
	fmt(self[1], sizeof(self[1]), "proc/%ld/fdinfo/9", (long)getpid());
	const struct fs_entry procs[] = {
		{"proc/4343/comm", "fio", NULL},
		{"proc/4343/fd/5", NULL, "anon_inode:[io_uring]"},
		{"proc/4343/fdinfo/5", info, NULL},
		{"proc/4343/fd/6", NULL, "anon_inode:[eventfd]"},
		{"proc/4343/fdinfo/6", info, NULL},
		/* open for writing, and registered too */
		{"proc/4344/comm", "dd", NULL},
		{"proc/4344/fd/4", NULL, "anon_inode:[io_uring]"},
		{"proc/4344/fdinfo/4", dd, NULL},
		{"proc/4344/fd/3", NULL, other},
		/* too busy to show its files */
		{"proc/4345/comm", "busy", NULL},
		{"proc/4345/fd/3", NULL, "anon_inode:[io_uring]"},
		{"proc/4345/fdinfo/3", "pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t4712", NULL},
		{self[0], NULL, "anon_inode:[io_uring]"},
		{self[1], info, NULL},
	};
	build_tree(dir, procs, sizeof(procs) / sizeof(procs[0]));

	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert_msg(
		has_reason(&u, INUSE_OPEN, "registered in an io_uring: loop3p2 by fio (pid 4343)"),
		"%s", all_reasons(&u));
	/* and loop3p1's two mounts */
	ck_assert_msg(u.nreasons == 3, "%s", all_reasons(&u));
	check_file_in(dir, file, &u);
	ck_assert_uint_eq(u.flags, INUSE_BIT(INUSE_OPEN));
	ck_assert_msg(has_reason(&u, INUSE_OPEN, "registered in an io_uring by fio (pid 4343)"),
		      "%s", all_reasons(&u));
	ck_assert_msg(u.nreasons == 1, "%s", all_reasons(&u));
	check_file_in(dir, other, &u);
	ck_assert_msg(has_reason(&u, INUSE_OPEN, "open for writing by dd (pid 4344)"), "%s",
		      all_reasons(&u));
	ck_assert_msg(u.nreasons == 1, "%s", all_reasons(&u));
}
END_TEST

/* A swap partition: its node (made here, never opened) resolves to the partition. */
START_TEST(test_swap_device)
{
	char dir[4096], path[4096], node[4096];
	struct inuse u;
	FILE *f;

	if (!machine_with_node("swapdev", dir, sizeof(dir), node, sizeof(node)))
		return;
	fmt(path, sizeof(path), "%s/proc/swaps", dir);
	f = fopen(path, "w");
	fprintf(f, "Filename\tType\tSize\tUsed\tPriority\n%s\tpartition\t1024\t0\t-2\n", node);
	fclose(f);
	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert(u.flags & INUSE_BIT(INUSE_SWAP));
	ck_assert(u.flags & INUSE_BIT(INUSE_MOUNTED));
	fmt(path, sizeof(path), "swap: loop3p2 (%s)", node);
	ck_assert(has_reason(&u, INUSE_SWAP, path));
	/* the free disk stays free */
	ck_assert_int_eq(check_in(dir, makedev(8, 32), &u), 0);
	ck_assert_uint_eq(u.flags, 0);
}
END_TEST

static const struct {
	const char *in, *out;
} unescape_cases[] = {
	{"/mnt/with\\040space", "/mnt/with space"},
	{"/tab\\011and\\012newline", "/tab\tand\nnewline"},
	{"/back\\134slash", "/back\\slash"},
	{"/plain", "/plain"},
	{"/not\\8escape\\04", "/not\\8escape\\04"},
};

START_TEST(test_unescape)
{
	char buf[128];

	fmt(buf, sizeof(buf), "%s", unescape_cases[_i].in);
	inuse_unescape(buf);
	ck_assert_str_eq(buf, unescape_cases[_i].out);
}
END_TEST

/* This machine: the device under "/" is reported as holding the root file system. */
START_TEST(test_real_root)
{
	struct inuse_snapshot *s;
	struct inuse u;
	struct stat st;
	char err[256] = "";
	FILE *f;
	char line[4096];
	unsigned maj = 0, min = 0;

	/* the device mountinfo says is on "/" (stat("/") would see overlay's anonymous dev) */
	f = fopen("/proc/self/mountinfo", "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned a, b;
		char mnt[1024];
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &a, &b, mnt) == 3 && !strcmp(mnt, "/"))
			maj = a, min = b;
	}
	fclose(f);
	if (maj == 0) {
		printf("SKIP: check_inuse real root: / is not on a block device here\n");
		return;
	}
	ck_assert_int_eq(stat("/", &st), 0);
	ck_assert_msg(inuse_snapshot_take(&s, NULL, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(inuse_snapshot_check(s, makedev(maj, min), &u), 0);
	inuse_snapshot_free(s);
	ck_assert(u.flags & INUSE_BIT(INUSE_ROOT));
	ck_assert(u.flags & INUSE_BIT(INUSE_MOUNTED));
}
END_TEST

/* Mounts added to a fixture's mountinfo. */
static void add_mounts(const char *dir, const char *lines)
{
	char path[4096];
	FILE *f;

	fmt(path, sizeof(path), "%s/proc/self/mountinfo", dir);
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	fputs(lines, f);
	fclose(f);
}

/* A mount point anyone may name: its reason is shown in its visible form, never raw. */
START_TEST(test_hostile_mount_point)
{
	char dir[4096];
	struct inuse u;

	fmt(dir, sizeof(dir), "%s/hostile", tmproot);
	make_machine(dir);
	add_mounts(dir, "\n40 21 8:32 / /mnt/\033[2J\033]0;owned\007x rw - ext4 /dev/sdc rw\n");
	ck_assert_int_eq(check_in(dir, makedev(8, 32), &u), 0);
	ck_assert_uint_eq(u.nreasons, 1);
	ck_assert_msg(!strpbrk(u.reason[0].text, "\033\007"), "raw controls in '%s'",
		      u.reason[0].text);
	ck_assert_msg(strstr(u.reason[0].text, "mounted: sdc on /mnt/"), "%s", u.reason[0].text);
}
END_TEST

/*
 * The storage graph over a fixture: loop0 over the file img (its first 9 MiB) with
 * partitions p1 [1, 5) MiB and p2 [5, 9) MiB; loop1 over loop0p2 (a device node made
 * here), held by dm-0; loop2 over img's first MiB; loop3 over img from 10 MiB on, which
 * no other loop device reaches. "@" in a reason stands for img's path.
 */
#define LOOPS "sys/devices/virtual/block/"
static const struct fs_entry stack_tree[] = {
	{"sys/class/block/loop0", NULL, "../../devices/virtual/block/loop0"},
	{LOOPS "loop0/dev", "7:0", NULL},
	{LOOPS "loop0/size", "18432", NULL},
	{LOOPS "loop0/loop/offset", "0", NULL},
	{LOOPS "loop0/loop/sizelimit", "9437184", NULL},
	{"sys/class/block/loop0p1", NULL, "../../devices/virtual/block/loop0/loop0p1"},
	{LOOPS "loop0/loop0p1/dev", "259:0", NULL},
	{LOOPS "loop0/loop0p1/partition", "1", NULL},
	{LOOPS "loop0/loop0p1/start", "2048", NULL},
	{LOOPS "loop0/loop0p1/size", "8192", NULL},
	{"sys/class/block/loop0p2", NULL, "../../devices/virtual/block/loop0/loop0p2"},
	{LOOPS "loop0/loop0p2/dev", "259:1", NULL},
	{LOOPS "loop0/loop0p2/partition", "2", NULL},
	{LOOPS "loop0/loop0p2/start", "10240", NULL},
	{LOOPS "loop0/loop0p2/size", "8192", NULL},
	{"sys/class/block/loop1", NULL, "../../devices/virtual/block/loop1"},
	{LOOPS "loop1/dev", "7:1", NULL},
	{LOOPS "loop1/size", "8192", NULL},
	{LOOPS "loop1/holders/dm-0", NULL, "../../dm-0"},
	{"sys/class/block/dm-0", NULL, "../../devices/virtual/block/dm-0"},
	{LOOPS "dm-0/dev", "253:0", NULL},
	{LOOPS "dm-0/slaves/loop1", NULL, "../../loop1"},
	{"sys/class/block/loop2", NULL, "../../devices/virtual/block/loop2"},
	{LOOPS "loop2/dev", "7:2", NULL},
	{LOOPS "loop2/loop/offset", "0", NULL},
	{LOOPS "loop2/loop/sizelimit", "1048576", NULL},
	{"sys/class/block/loop3", NULL, "../../devices/virtual/block/loop3"},
	{LOOPS "loop3/dev", "7:3", NULL},
	{LOOPS "loop3/loop/offset", "10485760", NULL},
	{LOOPS "loop3/loop/sizelimit", "0", NULL},
	{"proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority", NULL},
};

#define P1_MOUNTED "30 21 259:0 / /mnt/a rw - ext4 /dev/loop0p1 rw\n"
#define DM_MOUNTED "31 21 253:0 / /data rw - ext4 /dev/dm-0 rw\n"
#define HELD_P2 "held by loop1 (a loop device over loop0p2), held by dm-0"

static const struct {
	const char *mounts;
	unsigned maj, min;
	unsigned flags;
	const char *reasons[4]; /* "kind|text", @ for img's path */
} stack_cases[] = {
	/* a loop device sharing the image with a loop device whose partition is mounted */
	{P1_MOUNTED, 7, 2, INUSE_BIT(INUSE_HOLDER),
	 {"held|loop2 is over @, which backs loop0 (a loop device), mounted: loop0p1 on /mnt/a",
	  "held|loop2 is over @, which backs loop0 (a loop device), " HELD_P2}},
	/* the same image past what any other loop device covers */
	{P1_MOUNTED, 7, 3, 0, {NULL}},
	/* a partition whose sibling is mounted: its own range only */
	{P1_MOUNTED, 259, 1, INUSE_BIT(INUSE_HOLDER), {"held|" HELD_P2}},
	{DM_MOUNTED, 259, 1, INUSE_BIT(INUSE_HOLDER), {"held|" HELD_P2 ", mounted: dm-0 on /data"}},
	/* down through a loop device over a partition; up through its holder */
	{DM_MOUNTED, 7, 1, INUSE_BIT(INUSE_HOLDER), {"held|held by dm-0, mounted: dm-0 on /data"}},
	/* dm-0's own slaves are its path, not uses of it */
	{DM_MOUNTED, 253, 0, INUSE_BIT(INUSE_MOUNTED), {"mounted|mounted: dm-0 on /data"}},
	/* the whole disk: both partitions, and the image it shares with loop2 (not loop3) */
	{P1_MOUNTED, 7, 0, INUSE_BIT(INUSE_MOUNTED) | INUSE_BIT(INUSE_HOLDER),
	 {"mounted|mounted: loop0p1 on /mnt/a", "held|" HELD_P2,
	  "held|loop0 is over @, which backs loop2 (a loop device)"}},
};

/* A sysfs attribute written after the tree is built: text made at run time. */
static void put_attr(const char *root, const char *path, const char *text)
{
	char full[4096];
	FILE *f;

	fmt(full, sizeof(full), "%s/%s", root, path);
	*strrchr(full, '/') = '\0';
	mkdir_p(full);
	fmt(full, sizeof(full), "%s/%s", root, path);
	f = fopen(full, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* The stack fixture under dir/NAME, img its image's path; false (said) without root. */
static bool make_stack(char *dir, size_t len, const char *name, char *img, size_t imglen)
{
	char node[4096];
	FILE *f;

	fmt(dir, len, "%s/%s", tmproot, name);
	mkdir_p(dir);
	build_tree(dir, stack_tree, sizeof(stack_tree) / sizeof(stack_tree[0]));
	fmt(img, imglen, "%s/img", dir);
	f = fopen(img, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	fmt(node, sizeof(node), "%s/loop0p2-node", dir);
	if (mknod(node, S_IFBLK | 0600, makedev(259, 1)) < 0) {
		printf("SKIP: check_inuse stacks: mknod needs root: %s\n", strerror(errno));
		return false;
	}
	put_attr(dir, LOOPS "loop0/loop/backing_file", img);
	put_attr(dir, LOOPS "loop1/loop/backing_file", node);
	put_attr(dir, LOOPS "loop2/loop/backing_file", img);
	put_attr(dir, LOOPS "loop3/loop/backing_file", img);
	put_attr(dir, "proc/self/mountinfo",
		 "21 1 8:0 / / rw - ext4 /dev/sda rw\n22 21 0:21 / /proc rw - proc proc rw");
	return true;
}

/* A dm target named by its path: its reach goes down through its slaves all the same. */
START_TEST(test_reach_by_path)
{
	char dir[4096], img[4096], sys[4096], proc[4096], err[256] = "";
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct inuse_snapshot *snap;
	struct inuse_reach reach;
	bool loop1 = false, p2 = false;

	if (!make_stack(dir, sizeof(dir), "reach", img, sizeof(img)))
		return;
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_msg(inuse_snapshot_take(&snap, &roots, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(inuse_snapshot_reach(snap,
					      &(struct inuse_obj){.dev = makedev(253, 0),
								  .len = INUSE_WHOLE},
					      "/dev/mapper/vg0-data", &reach),
			 0);
	inuse_snapshot_free(snap);
	for (unsigned i = 0; i < reach.n; i++) {
		loop1 |= !reach.obj[i].is_file && reach.obj[i].dev == makedev(7, 1);
		p2 |= !reach.obj[i].is_file && reach.obj[i].dev == makedev(259, 1);
	}
	ck_assert_msg(loop1 && p2, "%u pieces, loop1 %d, loop0p2 %d", reach.n, loop1, p2);
	ck_assert_str_eq(reach.obj[1].via, "/dev/mapper/vg0-data is built on loop1");
}
END_TEST

START_TEST(test_stacks)
{
	const __typeof__(stack_cases[0]) *c = &stack_cases[_i];
	char dir[4096], img[4096], name[32];
	struct inuse u;
	unsigned n = 0;

	fmt(name, sizeof(name), "stack%d", _i);
	if (!make_stack(dir, sizeof(dir), name, img, sizeof(img)))
		return;
	add_mounts(dir, c->mounts);

	ck_assert_int_eq(check_in(dir, makedev(c->maj, c->min), &u), 0);
	ck_assert_msg(u.flags == c->flags, "flags %#x, want %#x: %s", u.flags, c->flags,
		      all_reasons(&u));
	for (; n < 4 && c->reasons[n]; n++) {
		char want[1024], kind[32];
		const char *bar = strchr(c->reasons[n], '|'), *at = strchr(bar, '@');
		fmt(kind, sizeof(kind), "%.*s", (int)(bar - c->reasons[n]), c->reasons[n]);
		if (at)
			fmt(want, sizeof(want), "%.*s%s%s", (int)(at - bar - 1), bar + 1, img, at + 1);
		else
			fmt(want, sizeof(want), "%s", bar + 1);
		enum inuse_kind k = INUSE_NKINDS;
		for (unsigned i = 0; i < INUSE_NKINDS; i++)
			if (!strcmp(inuse_kind_name[i], kind))
				k = i;
		ck_assert_msg(has_reason(&u, k, want), "missing reason '%s' in %s", want,
			      all_reasons(&u));
	}
	ck_assert_msg(u.nreasons == n, "%u reasons, want %u: %s", u.nreasons, n, all_reasons(&u));
}
END_TEST

/*
 * The image of the stack fixture on an NFS mount whose server is gone, mounted here or
 * (_i = 1) in a container's mount namespace only: nothing there is asked (the image is
 * deleted here, so only its path can say what backs each loop device), and the loop
 * devices over it are still told apart by that path and range.
 */
START_TEST(test_remote_backing)
{
	char dir[4096], img[4096], sys[4200], proc[4096], mounts[9000], want[4600], alt[4600];
	char err[256] = "", name[32];
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct inuse_snapshot *snap;
	struct inuse u;

	fmt(name, sizeof(name), "remote%d", _i);
	if (!make_stack(dir, sizeof(dir), name, img, sizeof(img)))
		return;
	ck_assert_int_eq(unlink(img), 0);
	/* nfs on the fixture's directory, and one beside it that must not cover it; the same
	   file system again beside it (a bind mount), and its directory /x */
	fmt(mounts, sizeof(mounts),
	    "40 21 0:70 / %s rw - nfs4 srv:/export rw,vers=4.2,addr=10.0.0.5\n"
	    "41 21 0:71 / %s-not rw - nfs4 srv:/other rw,addr=10.0.0.5\n"
	    "42 21 0:70 / %s-alias rw - nfs4 srv:/export rw,vers=4.2,addr=10.0.0.5\n"
	    "43 21 0:70 /x %s-x rw - nfs4 srv:/export/x rw,vers=4.2,addr=10.0.0.5\n"
	    "44 21 0:72 / %s-again rw - nfs4 srv:/export/ rw\n"
	    "45 21 0:73 / %s-sub rw - nfs4 srv:/export/x rw\n"
	    "46 21 0:74 / %s-fuse rw - fuse.sshfs srv:/export rw\n"
	    "47 21 0:75 / %s-byaddr rw - nfs4 10.0.0.5:/export "
	    "rw,addr=10.0.0.5,clientaddr=1.2.3.4\n"
	    "48 21 0:76 / %s-v6 rw - nfs4 [fd00::5]:/export rw,addr=fd00::5\n"
	    "49 21 0:77 / %s-v6name rw - nfs4 v6srv:/export rw,vers=4.2,addr=fd00::5\n"
	    "50 21 0:78 / %s-cifs rw - cifs //nas/export rw,vers=3.1.1,addr=10.0.0.5\n"
	    "51 21 0:79 / %s-cifs2 rw - cifs //10.0.0.5/export/x rw,addr=10.0.0.5\n",
	    dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir);
	add_mounts(dir, "\n" P1_MOUNTED);
	if (_i == 0) {
		add_mounts(dir, mounts);
	} else {
		const struct fs_entry ns[] = {
			{"proc/self/ns/mnt", NULL, "mnt:[4026531841]"},
			{"proc/4300/ns/mnt", NULL, "mnt:[4026532999]"},
			{"proc/4300/comm", "containerd-shim\n", NULL},
			{"proc/4300/mountinfo", mounts, NULL},
		};
		build_tree(dir, ns, sizeof(ns) / sizeof(ns[0]));
		/* a rootless container's root: a remote "/" covers no path */
		fmt(want, sizeof(want), "%s/proc/4300/mountinfo", dir);
		FILE *f = fopen(want, "a");
		ck_assert_ptr_nonnull(f);
		fputs("39 0 0:69 / / rw - fuse.fuse-overlayfs fuse-overlayfs rw\n", f);
		fclose(f);
	}
	fmt(mounts, sizeof(mounts), "Filename\tType\tSize\tUsed\tPriority\n%s/swap\tfile\t1\t0\t-2",
	    dir);
	put_attr(dir, "proc/swaps", mounts);

	/* writers of the image: a descriptor opened through the bind mount (mount 42 in
	   fdinfo, its path in the link) and a shared mapping, as /proc shows them */
	fmt(want, sizeof(want), "%s-alias/img", dir);
	fmt(sys, sizeof(sys), "7f00-7f10 rw-s 00000000 00:46 1234 %s\n", img);
	const struct fs_entry writers[] = {
		{"proc/4400/fd/5", NULL, want},
		{"proc/4400/fdinfo/5", "pos:\t0\nflags:\t0100002\nmnt_id:\t42\nino:\t1234\n", NULL},
		{"proc/4400/comm", "qemu-img\n", NULL},
		{"proc/4401/maps", sys, NULL},
		{"proc/4401/comm", "fio\n", NULL},
	};
	build_tree(dir, writers, sizeof(writers) / sizeof(writers[0]));

	ck_assert_int_eq(check_in(dir, makedev(7, 2), &u), 0);
	fmt(want, sizeof(want),
	    "loop2 is over %s, which backs loop0 (a loop device), mounted: loop0p1 on /mnt/a", img);
	ck_assert_msg(has_reason(&u, INUSE_HOLDER, want), "missing '%s' in %s", want,
		      all_reasons(&u));
	fmt(want, sizeof(want), "loop2 is over %s, open for writing by qemu-img (pid 4400)", img);
	ck_assert_msg(has_reason(&u, INUSE_OPEN, want), "missing '%s' in %s", want,
		      all_reasons(&u));
	fmt(want, sizeof(want), "loop2 is over %s, mapped for writing by fio (pid 4401)", img);
	ck_assert_msg(has_reason(&u, INUSE_OPEN, want), "missing '%s' in %s", want,
		      all_reasons(&u));
	/* past what loop0 covers: only the writers of the whole image */
	ck_assert_int_eq(check_in(dir, makedev(7, 3), &u), 0);
	ck_assert_msg(u.flags == INUSE_BIT(INUSE_OPEN), "%s", all_reasons(&u));

	/* the image as a target: by its path (the inode a stat() would give is unknown) */
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_msg(inuse_snapshot_take(&snap, &roots, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(inuse_snapshot_check_file(snap, makedev(0, 70), 99, img, &u), 0);
	ck_assert_msg(u.flags & INUSE_BIT(INUSE_HOLDER), "%s", all_reasons(&u));
	ck_assert_int_eq(inuse_snapshot_check_file(snap, makedev(0, 70), 99, NULL, &u), 0);
	ck_assert_msg(u.flags == 0, "%s", all_reasons(&u));
	/* by its path through the other mount of the file system; not /x/img */
	fmt(want, sizeof(want), "%s-alias/img", dir);
	ck_assert_int_eq(inuse_snapshot_check_file(snap, makedev(0, 70), 99, want, &u), 0);
	ck_assert_msg(u.flags & INUSE_BIT(INUSE_HOLDER), "%s", all_reasons(&u));
	fmt(want, sizeof(want), "%s-x/img", dir);
	ck_assert_int_eq(inuse_snapshot_check_file(snap, makedev(0, 70), 99, want, &u), 0);
	ck_assert_msg(!(u.flags & INUSE_BIT(INUSE_HOLDER)), "%s", all_reasons(&u));
	fmt(want, sizeof(want), "%s-x", dir);
	ck_assert(inuse_remote_alias(snap, want, img) == false);
	fmt(want, sizeof(want), "%s/x/y", dir);
	fmt(alt, sizeof(alt), "%s-x/y", dir);
	ck_assert(inuse_remote_alias(snap, want, alt));
	ck_assert(inuse_remote_alias(snap, alt, want));
	/* the export mounted again as a file system of its own (other options, another
	   device number): by the server's path; not a FUSE daemon's that names the same */
	fmt(alt, sizeof(alt), "%s-sub/y", dir);
	ck_assert(inuse_remote_alias(snap, want, alt));
	fmt(want, sizeof(want), "%s-again/img", dir);
	ck_assert(inuse_remote_alias(snap, img, want));
	fmt(want, sizeof(want), "%s-fuse/img", dir);
	ck_assert(!inuse_remote_alias(snap, img, want));
	fmt(want, sizeof(want), "%s-not/img", dir);
	ck_assert(!inuse_remote_alias(snap, img, want));
	/* the server named by its address, as the kernel's "addr=" says it is: NFS by IPv4
	   and IPv6 addresses, CIFS; another server's export of that path is another file */
	fmt(want, sizeof(want), "%s-byaddr/img", dir);
	ck_assert(inuse_remote_alias(snap, img, want));
	ck_assert(inuse_remote_alias(snap, want, img));
	fmt(alt, sizeof(alt), "%s-v6/img", dir);
	ck_assert(!inuse_remote_alias(snap, img, alt));
	fmt(want, sizeof(want), "%s-v6name/img", dir);
	ck_assert(inuse_remote_alias(snap, alt, want));
	fmt(want, sizeof(want), "%s-cifs/x/y", dir);
	fmt(alt, sizeof(alt), "%s-cifs2/y", dir);
	ck_assert(inuse_remote_alias(snap, want, alt));
	fmt(want, sizeof(want), "%s-cifs/img", dir);
	ck_assert(!inuse_remote_alias(snap, img, want));
	fmt(want, sizeof(want), "%s-not/img", dir);
	ck_assert_ptr_nonnull(inuse_remote_path(snap, img));
	ck_assert_ptr_null(inuse_remote_path(snap, "/etc/fstab"));
	ck_assert_int_eq(inuse_remote_path(snap, want)->dev, makedev(0, 71));
	inuse_snapshot_free(snap);
}
END_TEST

/* inuse_overlay_real() of dir/path (mode) on overlay ovl is dir/real, or unchanged if "" */
static void overlay_case(const struct inuse_snapshot *snap, const char *dir, dev_t ovl,
			 const char *path, const char *real, mode_t mode)
{
	char p[4200];
	struct stat st = {.st_mode = mode, .st_dev = ovl, .st_ino = 7}, want;

	fmt(p, sizeof(p), "%s/%s", dir, path);
	inuse_overlay_real(snap, p, &st);
	if (!real[0]) {
		ck_assert_msg(st.st_dev == ovl && st.st_ino == 7, "%s", path);
		return;
	}
	fmt(p, sizeof(p), "%s/%s", dir, real);
	ck_assert_int_eq(stat(p, &want), 0);
	ck_assert_msg(st.st_dev == want.st_dev && st.st_ino == want.st_ino, "%s is not %s", path,
		      real);
}

/*
 * A file on an overlay is the file of its upper or first lower directory that holds it
 * (the mount's root field and the layers' paths as mountinfo escapes them); a directory
 * is the upper directory; a file of another device, or of no layer, is left as it is.
 */
START_TEST(test_overlay_real)
{
	char dir[4096], sys[4096], proc[4096], mounts[20000], path[4200], err[256] = "";
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct inuse_snapshot *snap;
	struct stat st;
	const dev_t ovl = makedev(0, 40);

	fmt(dir, sizeof(dir), "%s/overlay", tmproot);
	mkdir_p(dir);
	build_tree(dir,
		   (const struct fs_entry[]){{"up/sub/a", "upper a", NULL},
					     {"lo,1/sub/b", "lower b", NULL},
					     {"lo2/sub/b", "second lower b", NULL},
					     {"lo2/sub/c", "second lower c", NULL},
					     {"proc/self/mountinfo", "", NULL},
					     {"sys/class/block/sda/dev", "8:0", NULL}},
		   6);
	fmt(mounts, sizeof(mounts),
	    "21 1 8:0 / / rw - ext4 /dev/sda rw\n"
	    "50 21 0:40 / %s/m rw - overlay overlay "
	    "rw,lowerdir=%s/lo\\0541:%s/lo2,upperdir=%s/up,workdir=%s/work\n"
	    "51 21 0:40 /sub %s/bind rw - overlay overlay "
	    "rw,lowerdir=%s/lo\\0541:%s/lo2,upperdir=%s/up,workdir=%s/work\n",
	    dir, dir, dir, dir, dir, dir, dir, dir, dir, dir);
	add_mounts(dir, mounts);
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_msg(inuse_snapshot_take(&snap, &roots, err, sizeof(err)) == 0, "%s", err);

	struct {
		const char *path, *real; /* through the overlay; in its layer ("": unchanged) */
		mode_t mode;
	} cases[] = {
		{"m/sub/a", "up/sub/a", S_IFREG}, {"m/sub/b", "lo,1/sub/b", S_IFREG},
		{"bind/c", "lo2/sub/c", S_IFREG}, {"m/sub/none", "", S_IFREG},
		{"m/sub", "up", S_IFDIR},	  {"elsewhere/sub/a", "", S_IFREG},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		overlay_case(snap, dir, ovl, cases[i].path, cases[i].real, cases[i].mode);
	/* a file of another device is not the overlay's */
	st = (struct stat){.st_mode = S_IFREG, .st_dev = makedev(0, 41), .st_ino = 7};
	fmt(path, sizeof(path), "%s/m/sub/a", dir);
	inuse_overlay_real(snap, path, &st);
	ck_assert(st.st_dev == makedev(0, 41) && st.st_ino == 7);
	inuse_snapshot_free(snap);
}
END_TEST

/* set xattr name (value v) on dir/rel */
static void set_attr(const char *dir, const char *rel, const char *name, const char *v)
{
	char path[4200];

	fmt(path, sizeof(path), "%s/%s", dir, rel);
	ck_assert_msg(setxattr(path, name, v, strlen(v), 0) == 0, "setxattr %s %s: %s", path, name,
		      strerror(errno));
}

/*
 * metacopy=on: a file whose metadata alone was copied up is the lower file holding its
 * data, found by its path or its redirect (absolute, or a name in its directory), through
 * a lower layer's metacopy too, and in a data-only layer, which no other lookup reaches;
 * a metacopy with its data nowhere is itself. A directory renamed on the overlay
 * (redirect_dir=on) by its redirect, relative or absolute, in a lower layer too, a
 * metacopy's redirect from there on; nothing below an opaque directory. The layers as
 * mountinfo shows them with the "lowerdir+" and "datadir+" options of the new mount API,
 * and a "userxattr" mount whose attributes are user.overlay.*.
 */
START_TEST(test_overlay_metacopy)
{
	char dir[4096], sys[4096], proc[4096], mounts[20000], path[4200], err[256] = "";
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct inuse_snapshot *snap;

	fmt(dir, sizeof(dir), "%s/metacopy%d", tmproot, _i);
	mkdir_p(dir);
	build_tree(dir,
		   (const struct fs_entry[]){{"up/sub/m", "", NULL},
					     {"lo1/sub/m", "lower m", NULL},
					     {"up/sub/r", "", NULL},
					     {"lo2/sub/old", "renamed", NULL},
					     {"up/sub/d", "", NULL},
					     {"data/blobs/d1", "data only", NULL},
					     {"data/sub/hidden", "data only", NULL},
					     {"lo1/sub/chain", "", NULL},
					     {"lo2/sub/chain", "chain", NULL},
					     {"up/sub/orphan", "", NULL},
					     {"lo1/sub/plain", "plain", NULL},
					     /* directories renamed on the overlay */
					     {"up/new/keep", "", NULL},
					     {"lo1/old/f", "in a renamed dir", NULL},
					     {"up/a/moved/keep", "", NULL},
					     {"lo1/x/y/g", "moved by path", NULL},
					     {"up/n1/keep", "", NULL},
					     {"lo1/o1/n2/keep", "", NULL},
					     {"lo2/o1/o2/h", "renamed twice", NULL},
					     {"up/rd/mf", "", NULL},
					     {"lo1/od/of", "both renamed", NULL},
					     {"up/op/keep", "", NULL},
					     {"lo1/op/k", "under an opaque dir", NULL},
					     {"proc/self/mountinfo", "", NULL},
					     {"sys/class/block/sda/dev", "8:0", NULL}},
		   24);
	const char *ns = _i ? "user.overlay." : "trusted.overlay.";
	char meta[40], redir[40];
	fmt(meta, sizeof(meta), "%smetacopy", ns);
	fmt(redir, sizeof(redir), "%sredirect", ns);
	/* trusted.* wants root; user.* on tmpfs, Linux 6.6 */
	fmt(path, sizeof(path), "%s/up/sub/m", dir);
	if (setxattr(path, meta, "", 0, 0) < 0 && (errno == EPERM || errno == EOPNOTSUPP)) {
		printf("SKIP: check_inuse metacopy: %s attributes: %s\n", ns, strerror(errno));
		return;
	}
	set_attr(dir, "up/sub/m", meta, "");
	set_attr(dir, "up/sub/r", meta, "");
	set_attr(dir, "up/sub/r", redir, "old");
	set_attr(dir, "up/sub/d", meta, "");
	set_attr(dir, "up/sub/d", redir, "/blobs/d1");
	set_attr(dir, "lo1/sub/chain", meta, "");
	set_attr(dir, "up/sub/orphan", meta, "");
	set_attr(dir, "up/new", redir, "old");
	set_attr(dir, "up/a/moved", redir, "/x/y");
	set_attr(dir, "up/n1", redir, "o1");
	set_attr(dir, "lo1/o1/n2", redir, "o2"); /* renamed when lo1 was an upper layer */
	set_attr(dir, "up/rd", redir, "od");
	set_attr(dir, "up/rd/mf", meta, "");
	set_attr(dir, "up/rd/mf", redir, "of");
	char opaque[40];
	fmt(opaque, sizeof(opaque), "%sopaque", ns);
	set_attr(dir, "up/op", opaque, "y");
	/* the other namespace's attribute means nothing to this mount */
	set_attr(dir, "lo1/sub/plain", _i ? "trusted.overlay.metacopy" : "user.overlay.metacopy",
		 "");
	fmt(mounts, sizeof(mounts),
	    "21 1 8:0 / / rw - ext4 /dev/sda rw\n"
	    "50 21 0:40 / %s/m rw - overlay overlay rw,lowerdir+=%s/lo1,lowerdir+=%s/lo2,"
	    "datadir+=%s/data,upperdir=%s/up,workdir=%s/work,redirect_dir=on,metacopy=on%s\n",
	    dir, dir, dir, dir, dir, dir, _i ? ",userxattr" : "");
	add_mounts(dir, mounts);
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(proc, sizeof(proc), "%s/proc", dir);
	ck_assert_msg(inuse_snapshot_take(&snap, &roots, err, sizeof(err)) == 0, "%s", err);
	const char *cases[][2] = {
		{"m/sub/m", "lo1/sub/m"},
		{"m/sub/r", "lo2/sub/old"},
		{"m/sub/d", "data/blobs/d1"},
		{"m/sub/chain", "lo2/sub/chain"},
		{"m/sub/orphan", "up/sub/orphan"},
		{"m/sub/plain", "lo1/sub/plain"},
		{"m/sub/hidden", ""},
		{"m/new/f", "lo1/old/f"},
		{"m/a/moved/g", "lo1/x/y/g"},
		{"m/n1/n2/h", "lo2/o1/o2/h"},
		{"m/rd/mf", "lo1/od/of"},
		{"m/op/k", ""},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		overlay_case(snap, dir, makedev(0, 40), cases[i][0], cases[i][1], S_IFREG);
	inuse_snapshot_free(snap);
}
END_TEST

/*
 * The confirmation that covers an erase of every namespace names the controller, by its
 * device number: the controller here is numbered as /dev/null (1:3) is, so /dev/null
 * names it and /dev/zero (1:5) does not; with native multipathing, any controller of the
 * namespace's subsystem.
 */
static const struct fs_entry nvme_tree[] = {
	{"sys/class/block/nvme0n1", NULL, "../../devices/pci0000:00/0000:01:00.0/nvme/nvme0/nvme0n1"},
	{"sys/devices/pci0000:00/0000:01:00.0/nvme/nvme0/dev", "1:3", NULL},
	{"sys/devices/pci0000:00/0000:01:00.0/nvme/nvme0/nvme0n1/dev", "259:0", NULL},
	{"sys/class/block/nvme1n1", NULL, "../../devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1"},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1/dev", "259:5", NULL},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys1/nvme1/dev", "1:3", NULL},
	/* a namespace whose controller was removed: its head stays while it is open */
	{"sys/class/block/nvme2n1", NULL, "../../devices/virtual/nvme-subsystem/nvme-subsys2/nvme2n1"},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys2/nvme2n1/dev", "259:7", NULL},
	/* being removed (the I/O fails before sysfs drops them): a controller of a
	   subsystem, a controller without multipath, a SCSI disk; and one live of two */
	{"sys/class/block/nvme3n1", NULL, "../../devices/virtual/nvme-subsystem/nvme-subsys3/nvme3n1"},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys3/nvme3n1/dev", "259:8", NULL},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys3/nvme3/state", "deleting (no IO)", NULL},
	{"sys/class/block/nvme4n1", NULL, "../../devices/pci0000:00/0000:04:00.0/nvme/nvme4/nvme4n1"},
	{"sys/devices/pci0000:00/0000:04:00.0/nvme/nvme4/state", "deleting", NULL},
	{"sys/devices/pci0000:00/0000:04:00.0/nvme/nvme4/nvme4n1/dev", "259:10", NULL},
	{"sys/class/block/sda", NULL, "../../devices/pci0000:00/0000:05:00.0/host0/target0:0:0/0:0:0:0/block/sda"},
	{"sys/devices/pci0000:00/0000:05:00.0/host0/target0:0:0/0:0:0:0/block/sda/dev", "8:0", NULL},
	{"sys/devices/pci0000:00/0000:05:00.0/host0/target0:0:0/0:0:0:0/block/sda/device", NULL, "../../../0:0:0:0"},
	{"sys/devices/pci0000:00/0000:05:00.0/host0/target0:0:0/0:0:0:0/state", "cancel", NULL},
	{"sys/class/block/nvme5n1", NULL, "../../devices/virtual/nvme-subsystem/nvme-subsys5/nvme5n1"},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys5/nvme5n1/dev", "259:11", NULL},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys5/nvme5/state", "dead", NULL},
	{"sys/devices/virtual/nvme-subsystem/nvme-subsys5/nvme6/state", "live", NULL},
};

START_TEST(test_confirm_controller)
{
	char dir[4096], sys[4096];
	struct inuse_roots roots = {.sys = sys};
	struct target t = {.is_blockdev = true, .rdev = makedev(259, 0)};

	fmt(dir, sizeof(dir), "%s/nvme", tmproot);
	mkdir_p(dir);
	build_tree(dir, nvme_tree, sizeof(nvme_tree) / sizeof(nvme_tree[0]));
	fmt(sys, sizeof(sys), "%s/sys", dir);
	ck_assert(safety_confirms_controller(&t, "/dev/null", &roots));
	ck_assert(!safety_confirms_controller(&t, "/dev/zero", &roots));
	ck_assert(!safety_confirms_controller(&t, NULL, &roots));
	t.rdev = makedev(259, 5);
	ck_assert(safety_confirms_controller(&t, "/dev/null", &roots));
	ck_assert(!safety_confirms_controller(&t, "/dev/zero", &roots));
	t.rdev = makedev(259, 9);
	ck_assert(!safety_confirms_controller(&t, "/dev/null", &roots));
	/* and what is there at all */
	ck_assert(safety_present(makedev(259, 0), &roots));
	ck_assert(safety_present(makedev(259, 5), &roots));
	ck_assert(!safety_present(makedev(259, 9), &roots));
	ck_assert(!safety_present(makedev(259, 7), &roots));
	ck_assert(!safety_present(makedev(259, 8), &roots));
	ck_assert(!safety_present(makedev(259, 10), &roots));
	ck_assert(!safety_present(makedev(8, 0), &roots));
	ck_assert(safety_present(makedev(259, 11), &roots));
}
END_TEST

/* The controller's state turns to "deleting" a moment after the I/O failed. */
static void *delete_later(void *arg)
{
	FILE *f;

	nanosleep(&(struct timespec){.tv_nsec = 100 * 1000000L}, NULL);
	f = fopen(arg, "w");
	if (f) {
		fputs("deleting\n", f);
		fclose(f);
	}
	return NULL;
}

/* safety_removed() asks again while the removal reaches sysfs, up to its wait. */
START_TEST(test_removed_later)
{
	static const struct fs_entry tree[] = {
		{"sys/class/block/nvme7n1", NULL, "../../devices/pci0000:00/0000:07:00.0/nvme/nvme7/nvme7n1"},
		{"sys/devices/pci0000:00/0000:07:00.0/nvme/nvme7/state", "live", NULL},
		{"sys/devices/pci0000:00/0000:07:00.0/nvme/nvme7/nvme7n1/dev", "259:13", NULL},
	};
	char dir[4096], sys[4096], state[4096];
	struct inuse_roots roots = {.sys = sys};
	dev_t devs[2] = {makedev(259, 13), makedev(259, 12345)};
	pthread_t th;

	fmt(dir, sizeof(dir), "%s/later", tmproot);
	mkdir_p(dir);
	build_tree(dir, tree, sizeof(tree) / sizeof(tree[0]));
	fmt(sys, sizeof(sys), "%s/sys", dir);
	fmt(state, sizeof(state), "%s/devices/pci0000:00/0000:07:00.0/nvme/nvme7/state", sys);
	/* a device sysfs does not know is gone at once; a live one stays, without a wait */
	ck_assert_int_eq(safety_removed(devs, 2, 0, &roots), 1);
	ck_assert_int_eq(safety_removed(devs, 1, 0, &roots), -1);
	ck_assert_int_eq(safety_removed(NULL, 0, 5000, &roots), -1);
	/* removed 100 ms later: found within a wait of 60 s, whatever the machine's load */
	ck_assert_int_eq(pthread_create(&th, NULL, delete_later, state), 0);
	ck_assert_int_eq(safety_removed(devs, 1, 60000, &roots), 0);
	pthread_join(th, NULL);
}
END_TEST

/* A disk of the multi-device machine: sys/class/block/NAME with its numbers. */
#define DISK(name, num)                                                                            \
	{"sys/class/block/" name, NULL, "../../devices/virtual/block/" name},                      \
	{                                                                                          \
		"sys/devices/virtual/block/" name "/dev", num, NULL                                \
	}
#define FS_A "sys/fs/btrfs/11111111-2222-3333-4444-555555555555"
#define FS_B "sys/fs/btrfs/66666666-7777-8888-9999-000000000000"

/* The reasons of the disk num in dir are exactly want (NULL-ended "kind|text"). */
static void want_reasons(const char *dir, dev_t num, const char *const *want)
{
	struct inuse u;
	unsigned n = 0;

	ck_assert_int_eq(check_in(dir, num, &u), 0);
	for (; want[n]; n++) {
		const char *bar = strchr(want[n], '|');
		enum inuse_kind k = INUSE_NKINDS;
		for (unsigned i = 0; i < INUSE_NKINDS; i++)
			if (!strncmp(inuse_kind_name[i], want[n], (size_t)(bar - want[n])) &&
			    !inuse_kind_name[i][bar - want[n]])
				k = i;
		ck_assert_msg(has_reason(&u, k, bar + 1), "%u:%u: missing '%s' in %s", major(num),
			      minor(num), want[n], all_reasons(&u));
	}
	ck_assert_msg(u.nreasons == n, "%u:%u: %s", major(num), minor(num), all_reasons(&u));
}

/*
 * File systems on several devices, whose mountinfo number is anonymous (0:N): every member
 * of a mounted btrfs, as sys/fs/btrfs lists them, is mounted where the fs is, or said
 * mounted elsewhere; a bcachefs source names each device; xfs's logdev= and rtdev= are
 * mounted; an NFS source names none. A btrfs on "/" makes each member a root device. A
 * file system alive in sysfs that no mount table shows (a lazy unmount) is mounted, and
 * so is an ext4's external journal (proc/fs/jbd2).
 */
START_TEST(test_multi_device_fs)
{
	static const struct fs_entry disks[] = {
		DISK("sdd", "8:48"),
		DISK("sde", "8:64"),
		DISK("sdf", "8:80"),
		DISK("sdg", "8:96"),
		DISK("sdh", "8:112"),
		DISK("sdi", "8:128"),
		DISK("sdj", "8:144"),
		DISK("sdk", "8:160"),
		DISK("sdl", "8:176"),
		{FS_A "/devices/sdd", NULL, "../../../../devices/virtual/block/sdd"},
		{FS_A "/devices/sde", NULL, "../../../../devices/virtual/block/sde"},
		{FS_A "/label", "data\x1b[2J", NULL},
		{FS_B "/devices/sdf", NULL, "../../../../devices/virtual/block/sdf"},
		{FS_B "/label", "", NULL},
		{"sys/fs/btrfs/features/raid56", "0", NULL},
		/* live super blocks: sdm's ext4 in no mount table (a lazy unmount), sdl's xfs
		   mounted (said once, as mounted); sdn an external journal, sdg-8 internal */
		DISK("sdm", "8:192"),
		DISK("sdn", "8:208"),
		DISK("sdo", "8:224"),
		DISK("sdp", "8:240"),
		DISK("sdr", "65:16"),
		DISK("nvme12n1p123", "259:40"),
		{"sys/fs/ext4/sdm/journal_task", "4100", NULL},
		{"proc/4100/comm", "jbd2/sdm-8", NULL},
		/* sdn journals sdo's ext4, mounted on /j; nvme12n1p123 journals sdr's (a lazy
		   unmount), its thread's name cut to 15 bytes; no ext4 says it has sdp's */
		{"sys/fs/ext4/sdo/journal_task", "4101", NULL},
		{"proc/4101/comm", "jbd2/sdn", NULL},
		{"sys/fs/ext4/sdr/journal_task", "4102", NULL},
		{"proc/4102/comm", "jbd2/nvme12n1p1", NULL},
		{"proc/fs/jbd2/sdp/info", "0 transactions", NULL},
		{"proc/fs/jbd2/nvme12n1p123/info", "0 transactions", NULL},
		{"sys/fs/ext4/features/lazy_itable_init", "supported", NULL},
		{"sys/fs/xfs/sdl/log/log_head_lsn", "1:2", NULL},
		{"sys/fs/xfs/stats/stats", "0", NULL},
		{"proc/fs/jbd2/sdn/info", "0 transactions", NULL},
		{"proc/fs/jbd2/sdg-8/info", "0 transactions", NULL},
	};
	char dir[4096];

	fmt(dir, sizeof(dir), "%s/multidev", tmproot);
	make_machine(dir);
	build_tree(dir, disks, sizeof(disks) / sizeof(disks[0]));
	add_mounts(dir, "\n40 21 0:45 / /srv rw - btrfs /dev/sdd rw,space_cache=v2\n"
			"41 21 0:45 /snap /srv/snap rw shared:5 - btrfs /dev/sdd rw\n"
			"42 21 8:96 / /x rw - xfs /dev/sdg rw,logdev=/dev/sdh,rtdev=/dev/sdl\n"
			"43 21 0:50 / /bc rw - bcachefs /dev/sdi:/dev/sdj rw\n"
			"44 21 0:51 / /nfs rw - nfs sdk:/export rw\n"
			"45 21 0:52 / /t rw - tmpfs /dev/sdk rw\n"
			"46 21 8:224 / /j rw - ext4 /dev/sdo rw\n");
	want_reasons(dir, makedev(8, 48),
		     (const char *[]){"mounted|mounted: sdd on /srv (one of 2 devices of "
				      "btrfs 'data^[[2J')",
				      "mounted|mounted: sdd on /srv/snap (one of 2 devices of "
				      "btrfs 'data^[[2J')",
				      NULL});
	want_reasons(dir, makedev(8, 64),
		     (const char *[]){"mounted|mounted: sde on /srv (one of 2 devices of "
				      "btrfs 'data^[[2J')",
				      "mounted|mounted: sde on /srv/snap (one of 2 devices of "
				      "btrfs 'data^[[2J')",
				      NULL});
	want_reasons(dir, makedev(8, 80),
		     (const char *[]){"mounted|mounted: sdf (btrfs 66666666-7777-8888-9999-"
				      "000000000000), though no mount table here shows where "
				      "(unmounted lazily, still in use?)",
				      NULL});
	want_reasons(dir, makedev(8, 96), (const char *[]){"mounted|mounted: sdg on /x", NULL});
	want_reasons(dir, makedev(8, 112),
		     (const char *[]){"mounted|mounted: sdh on /x (the xfs file system's "
				      "external log)",
				      NULL});
	want_reasons(dir, makedev(8, 176),
		     (const char *[]){"mounted|mounted: sdl on /x (the xfs file system's "
				      "realtime device)",
				      NULL});
	want_reasons(dir, makedev(8, 128), (const char *[]){"mounted|mounted: sdi on /bc", NULL});
	want_reasons(dir, makedev(8, 192),
		     (const char *[]){"mounted|mounted: sdm (ext4), though no mount table here "
				      "shows where (unmounted lazily, still in use?)",
				      NULL});
	want_reasons(dir, makedev(8, 208),
		     (const char *[]){"mounted|mounted: sdn on /j (the external journal of the "
				      "ext4 on sdo)",
				      NULL});
	want_reasons(dir, makedev(8, 240),
		     (const char *[]){"mounted|mounted: sdp (the external journal of a mounted "
				      "ext4)",
				      NULL});
	want_reasons(dir, makedev(259, 40),
		     (const char *[]){"mounted|mounted: nvme12n1p123 (the external journal of "
				      "the ext4 on sdr)",
				      NULL});
	want_reasons(dir, makedev(8, 144), (const char *[]){"mounted|mounted: sdj on /bc", NULL});
	/* "sdk:/export" is a host's: no device; a source naming a device is taken at its
	   word whatever the file system (here tmpfs): the safe side */
	want_reasons(dir, makedev(8, 160), (const char *[]){"mounted|mounted: sdk on /t", NULL});

	/* the same btrfs on "/": both members hold the root file system */
	fmt(dir, sizeof(dir), "%s/btrfsroot", tmproot);
	make_machine(dir);
	build_tree(dir, disks, sizeof(disks) / sizeof(disks[0]));
	{
		char path[4096];
		fmt(path, sizeof(path), "%s/proc/self/mountinfo", dir);
		test_put_text(path, "21 1 0:30 /@ / rw - btrfs /dev/sde rw,subvol=/@\n");
	}
	want_reasons(dir, makedev(8, 48),
		     (const char *[]){"mounted|mounted: sdd on / (one of 2 devices of btrfs "
				      "'data^[[2J')",
				      "root|root filesystem: / is on sde, which uses sdd", NULL});
	want_reasons(dir, makedev(8, 64),
		     (const char *[]){"mounted|mounted: sde on / (one of 2 devices of btrfs "
				      "'data^[[2J')",
				      "root|root filesystem: / is on sde", NULL});
	want_reasons(dir, makedev(253, 0), (const char *[]){NULL});
}
END_TEST

/*
 * Mounts in other mount namespaces: a device mounted only in a container's is mounted
 * there, said with the namespace's lowest process; one mounted here too is said once, as
 * here; the container's "/" is not the root file system; each namespace is read once,
 * ours never again.
 */
START_TEST(test_other_namespaces)
{
	static const struct fs_entry procs[] = {
		{"proc/self/ns/mnt", NULL, "mnt:[4026531841]"},
		{"proc/4242/ns/mnt", NULL, "mnt:[4026532999]"},
		{"proc/4242/comm", "dockerd\x1b\n", NULL},
		{"proc/4242/mountinfo", "1 0 8:32 / / rw - ext4 /dev/sdc rw\n"
					"2 1 253:0 / /host rw - ext4 /dev/mapper/vg0-root rw\n"
					"3 1 8:32 /sub /data rw - ext4 /dev/sdc rw\n"},
		/* the same namespace: its lowest pid is the one read and named */
		{"proc/4243/ns/mnt", NULL, "mnt:[4026532999]"},
		{"proc/4243/comm", "worker\n", NULL},
		{"proc/4243/mountinfo", "1 0 8:32 / /again rw - ext4 /dev/sdc rw\n", NULL},
		{"proc/4244/ns/mnt", NULL, "mnt:[4026531841]"},
		{"proc/4244/mountinfo", "1 0 8:32 / /ours rw - ext4 /dev/sdc rw\n", NULL},
	};
	char dir[4096];

	fmt(dir, sizeof(dir), "%s/namespaces", tmproot);
	make_machine(dir);
	build_tree(dir, procs, sizeof(procs) / sizeof(procs[0]));
	want_reasons(dir, makedev(8, 32),
		     (const char *[]){"mounted|mounted: sdc on / in the mount namespace of "
				      "dockerd^[ (pid 4242)",
				      "mounted|mounted: sdc on /data in the mount namespace of "
				      "dockerd^[ (pid 4242)",
				      NULL});
	want_reasons(dir, makedev(253, 0),
		     (const char *[]){"mounted|mounted: dm-0 on /",
				      "root|root filesystem: / is on dm-0", NULL});

	/* a namespace of 100000 bind mounts of sdc: read in one pass (the check's timeout),
	   sdc said as often as a check says reasons, no more kept */
	char path[4096];
	struct inuse u;
	FILE *f;
	fmt(path, sizeof(path), "%s/proc/5000/ns", dir);
	mkdir_p(path);
	fmt(path, sizeof(path), "%s/proc/5000/ns/mnt", dir);
	ck_assert_int_eq(symlink("mnt:[4026533000]", path), 0);
	fmt(path, sizeof(path), "%s/proc/5000/mountinfo", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 100000; i++)
		fprintf(f, "%d 1 8:32 /x /b%d rw - ext4 /dev/sdc rw\n", i + 2, i);
	fclose(f);
	ck_assert_int_eq(check_in(dir, makedev(8, 32), &u), 0);
	ck_assert_uint_eq(u.nreasons, INUSE_MAX_REASONS);
	ck_assert_uint_eq(u.dropped, 0);
	ck_assert(has_reason(&u, INUSE_MOUNTED,
			     "mounted: sdc on /b0 in the mount namespace of ? (pid 5000)"));
}
END_TEST

/*
 * File systems mounted straight from a file, with no loop device (erofs over an image):
 * mountinfo's source names the file, here and in a container's namespace (its path from
 * that namespace's root). The file is mounted, and so is a loop device over it; a source
 * that names a directory, a device node or nothing is no file.
 */
START_TEST(test_file_mounts)
{
	char dir[4096], img[4096], cimg[4096], mounts[16384], want[8192], ns[8192];
	static const struct fs_entry tree[] = {
		{"sys/class/block/loop5", NULL, "../../devices/virtual/block/loop5"},
		{"sys/devices/virtual/block/loop5/dev", "7:5", NULL},
		{"sys/class/block/loop6", NULL, "../../devices/virtual/block/loop6"},
		{"sys/devices/virtual/block/loop6/dev", "7:6", NULL},
		{"e.img", "erofs", NULL},
		{"free.img", "x", NULL},
		{"ct/img/c.img", "erofs", NULL},
		{"proc/self/ns/mnt", NULL, "mnt:[4026531841]"},
		{"proc/4242/ns/mnt", NULL, "mnt:[4026532999]"},
		{"proc/4242/comm", "crun", NULL},
		{"proc/4242/mountinfo", "1 0 0:41 / /srv ro - erofs /img/c.img ro\n"},
	};
	struct inuse u;

	fmt(dir, sizeof(dir), "%s/filemounts", tmproot);
	make_machine(dir);
	build_tree(dir, tree, sizeof(tree) / sizeof(tree[0]));
	fmt(img, sizeof(img), "%s/e.img", dir);
	fmt(cimg, sizeof(cimg), "%s/ct/img/c.img", dir);
	fmt(ns, sizeof(ns), "%s/ct", dir);
	fmt(want, sizeof(want), "%s/proc/4242/root", dir);
	ck_assert_int_eq(symlink(ns, want), 0);
	put_attr(dir, "sys/devices/virtual/block/loop5/loop/backing_file", img);
	put_attr(dir, "sys/devices/virtual/block/loop6/loop/backing_file", cimg);
	fmt(mounts, sizeof(mounts),
	    "21 1 253:0 / / rw - ext4 /dev/mapper/vg0-root rw\n"
	    "40 21 0:39 / /mnt/e ro - erofs %s ro,user_xattr,acl\n"
	    "41 21 0:40 / /mnt/dir rw - erofs %s ro\n"
	    "42 21 0:43 / /mnt/gone rw - erofs %s/nothing.img ro\n"
	    "43 21 0:44 / /mnt/node rw - erofs /dev/zero ro\n",
	    img, dir, dir);
	put_attr(dir, "proc/self/mountinfo", mounts);

	/* the file itself, and a loop device over it, through it */
	check_file_in(dir, img, &u);
	fmt(want, sizeof(want), "mounted: %s on /mnt/e (erofs over the file, no loop device)", img);
	ck_assert_msg(u.nreasons == 2 && has_reason(&u, INUSE_MOUNTED, want) &&
			      has_reason(&u, INUSE_HOLDER, "backs loop5 (a loop device)"),
		      "%s", all_reasons(&u));
	fmt(want, sizeof(want),
	    "mounted|loop5 is over %s, mounted: %s on /mnt/e (erofs over the file, no loop "
	    "device)",
	    img, img);
	want_reasons(dir, makedev(7, 5), (const char *[]){want, NULL});
	/* a container's mount, by the path from its root */
	fmt(want, sizeof(want),
	    "mounted|loop6 is over %s, mounted: /img/c.img on /srv (erofs over the file, no "
	    "loop device) in the mount namespace of crun (pid 4242)",
	    cimg);
	want_reasons(dir, makedev(7, 6), (const char *[]){want, NULL});
	/* a file no source names */
	fmt(want, sizeof(want), "%s/free.img", dir);
	check_file_in(dir, want, &u);
	ck_assert_msg(u.flags == 0, "%s", all_reasons(&u));
}
END_TEST

/*
 * Threads with descriptor tables of their own: one that unshared its table holds the
 * partition open in task/TID/fd only; a process whose leader exited (pthread_exit(), its
 * fd directory empty) holds a file through its other thread. Both are writers, named by
 * the process. A thread sharing the leader's table adds nothing (read once or twice, said
 * once).
 */
START_TEST(test_thread_tables)
{
	char dir[4096], node[4096], file[4096];
	struct inuse u;

	if (!machine_with_node("threads", dir, sizeof(dir), node, sizeof(node)))
		return;
	fmt(file, sizeof(file), "%s/vm.img", dir);
	const struct fs_entry procs[] = {
		{"vm.img", "disk", NULL},
		{"proc/4242/comm", "qemu-system-x86", NULL},
		{"proc/4242/fd/0", NULL, "/dev/null"},
		{"proc/4242/task/4242/fd/0", NULL, "/dev/null"},
		{"proc/4242/task/4243/comm", "worker", NULL},
		{"proc/4242/task/4243/fd/7", NULL, node},
		{"proc/77/comm", "dd", NULL},
		{"proc/77/task/77/comm", "dd", NULL},
		{"proc/77/task/78/fd/1", NULL, file},
		{"proc/77/task/79/fd/1", NULL, file},
	};
	build_tree(dir, procs, sizeof(procs) / sizeof(procs[0]));
	fmt(node, sizeof(node), "%s/proc/77/fd", dir);
	mkdir_p(node);

	ck_assert_int_eq(check_in(dir, makedev(259, 11), &u), 0);
	/* (and loop3p1's two mounts: the fixture's partitions have no byte ranges) */
	ck_assert_msg(u.nreasons == 3 &&
			      has_reason(&u, INUSE_OPEN,
					 "open for writing: loop3p2 by qemu-system-x86 (pid 4242)"),
		      "%s", all_reasons(&u));
	check_file_in(dir, file, &u);
	ck_assert_msg(u.nreasons == 1 &&
			      has_reason(&u, INUSE_OPEN, "open for writing by dd (pid 77)"),
		      "%s", all_reasons(&u));
}
END_TEST

static Suite *inuse_suite(void)
{
	Suite *s = suite_create("inuse");
	TCase *tc = tcase_create("inuse");

	tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_loop_test(tc, test_machine, 0, sizeof(machine_cases) / sizeof(machine_cases[0]));
	tcase_add_test(tc, test_unknown_device);
	tcase_add_test(tc, test_missing_proc);
	tcase_add_test(tc, test_too_many_reasons);
	tcase_add_test(tc, test_swap_file);
	tcase_add_test(tc, test_swap_device);
	tcase_add_test(tc, test_open_writers);
	tcase_add_test(tc, test_mapped_writers);
	tcase_add_loop_test(tc, test_ring_files, 0, sizeof(ring_cases) / sizeof(ring_cases[0]));
	tcase_add_test(tc, test_ring_long_line);
	tcase_add_test(tc, test_ring_writers);
	tcase_add_test(tc, test_exporters);
	tcase_add_test(tc, test_more_exporters);
	tcase_add_loop_test(tc, test_unescape, 0, sizeof(unescape_cases) / sizeof(unescape_cases[0]));
	tcase_add_test(tc, test_real_root);
	tcase_add_test(tc, test_confirm_controller);
	tcase_add_test(tc, test_removed_later);
	tcase_add_test(tc, test_hostile_mount_point);
	tcase_add_loop_test(tc, test_stacks, 0, sizeof(stack_cases) / sizeof(stack_cases[0]));
	tcase_add_test(tc, test_reach_by_path);
	tcase_add_loop_test(tc, test_remote_backing, 0, 2);
	tcase_add_test(tc, test_overlay_real);
	tcase_add_loop_test(tc, test_overlay_metacopy, 0, 2);
	tcase_add_test(tc, test_multi_device_fs);
	tcase_add_test(tc, test_other_namespaces);
	tcase_add_test(tc, test_file_mounts);
	tcase_add_test(tc, test_thread_tables);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(inuse_suite)
