// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device-shared verdict: a device's own sector counts against a step's bytes, over a
 * fake sysfs (two partitions of one disk counted once, on the disk; a regular file left
 * out; streams on their targets; an NVMe multipath head with its path), and the
 * thresholds on their own. Real disks shared by a reader: tests/t_honest.sh.
 */
#include "fstree.h"

#include <sys/sysmacros.h>

#include "devshare.h"

#define SDA_REL "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda"
#define SDA	"sys/" SDA_REL
#define MiB	(1ull << 20)

static const struct fs_entry tree[] = {
	{"sys/dev/block/8:0", NULL, "../../" SDA_REL},
	{"sys/dev/block/8:1", NULL, "../../" SDA_REL "/sda1"},
	{"sys/dev/block/8:2", NULL, "../../" SDA_REL "/sda2"},
	{SDA "/dev", "8:0", NULL},
	{SDA "/sda1/partition", "1", NULL},
	{SDA "/sda2/partition", "2", NULL},
	/* the partitions' own counts are not the ones read */
	{SDA "/sda1/stat", "9 0 999 0 9 0 999 0 0 0 0 0 0 0 0 0 0", NULL},
	{SDA "/sda2/stat", "9 0 999 0 9 0 999 0 0 0 0 0 0 0 0 0 0", NULL},
};

/* stat of rel under dir: rd and wr sectors */
static void put_stat(const char *dir, const char *rel, uint64_t rd, uint64_t wr)
{
	char path[4096];
	FILE *f;

	fmt(path, sizeof(path), "%s/%s/stat", dir, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "1 0 %llu 0 1 0 %llu 0 0 0 0\n", (unsigned long long)rd, (unsigned long long)wr);
	fclose(f);
}

static struct target p1 = {.is_blockdev = true}, p2 = {.is_blockdev = true}; /* sda1, sda2 */

/* The tree under tmproot/name, sda's counts at 0: its directory and its sys root. */
static void make_tree(const char *name, char *dir, char *sys)
{
	p1.rdev = makedev(8, 1);
	p2.rdev = makedev(8, 2);
	fmt(dir, 4096, "%s/%s", tmproot, name);
	build_tree(dir, tree, sizeof(tree) / sizeof(tree[0]));
	fmt(sys, 4096, "%s/sys", dir);
	put_stat(dir, SDA, 0, 0);
}

START_TEST(partitions_on_one_disk)
{
	char dir[4096], sys[4096], why[320] = "";
	struct target file = {.is_blockdev = false, .dev = makedev(8, 0), .ino = 12};
	const struct target *t[] = {&p1, &file, &p2};
	struct devshare s;

	make_tree("parts", dir, sys);
	put_stat(dir, SDA, 1000, 2000);
	devshare_begin(&s, t, 3, sys);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.d[0].name, "sda");
	ck_assert_int_eq(s.of_target[0], 0);
	ck_assert_int_eq(s.of_target[1], -1);
	ck_assert_int_eq(s.of_target[2], 0);
	/* the two partitions read 100 MiB between them and wrote 50 MiB; the disk the same */
	put_stat(dir, SDA, 1000 + 100 * MiB / 512, 2000 + 50 * MiB / 512);
	devshare_add(&s, 0, 60 * MiB, 50 * MiB);
	devshare_add(&s, 1, 500 * MiB, 500 * MiB); /* the file: not counted */
	devshare_add(&s, 2, 40 * MiB, 0);
	devshare_end(&s, NULL, NULL);
	ck_assert_msg(!devshare_shared(&s, why, sizeof(why)), "%s", why);
	/* the disk read 64 MiB more than the two did: someone else's */
	put_stat(dir, SDA, 1000 + 164 * MiB / 512, 2000 + 50 * MiB / 512);
	devshare_end(&s, NULL, NULL);
	ck_assert(devshare_shared(&s, why, sizeof(why)));
	ck_assert_msg(strstr(why, "sda moved 67.11 MB that were not this step's (reads 67.11 MB, "
				  "writes 0 B) beside the step's own 157.29 MB"),
		      "%s", why);
}
END_TEST

/* A step of streams on two partitions: each stream's ramp, window and drain, on its disk. */
START_TEST(streams_on_targets)
{
	char dir[4096], sys[4096], why[320] = "";
	const struct target *t[] = {&p1, &p2};
	struct stream_result x[2] = {0};
	struct step_result sr = {.streams = x, .nstreams = 2};
	const unsigned target[] = {1, 0};
	struct devshare s;

	make_tree("streams", dir, sys);
	devshare_begin(&s, t, 2, sys);
	x[0].ramp.d[DIR_READ].bytes = MiB;
	x[0].total.d[DIR_READ].bytes = 10 * MiB;
	x[0].drain.d[DIR_READ].bytes = MiB;
	x[1].total.d[DIR_WRITE].bytes = 20 * MiB;
	put_stat(dir, SDA, 12 * MiB / 512, 20 * MiB / 512);
	devshare_end(&s, &sr, target);
	ck_assert_uint_eq(s.d[0].ours_rd, 12 * MiB);
	ck_assert_uint_eq(s.d[0].ours_wr, 20 * MiB);
	ck_assert_msg(!devshare_shared(&s, why, sizeof(why)), "%s", why);
	put_stat(dir, SDA, 20 * MiB / 512, 20 * MiB / 512);
	devshare_end(&s, NULL, NULL);
	ck_assert(devshare_shared(&s, why, sizeof(why)));
	/* the whole step's own figures, as one stream, on target 0 */
	devshare_begin(&s, t, 2, sys);
	sr = (struct step_result){.total = x[0].total, .ramp = x[0].ramp, .drain = x[0].drain};
	put_stat(dir, SDA, 12 * MiB / 512 + 12 * MiB / 512, 20 * MiB / 512);
	devshare_end(&s, &sr, NULL);
	ck_assert_uint_eq(s.d[0].ours_rd, 12 * MiB);
	ck_assert_msg(!devshare_shared(&s, why, sizeof(why)), "%s", why);
}
END_TEST

#define NS	   "sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1"
#define NVPATH_REL "devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0c0n1"
#define NVPATH	   "sys/" NVPATH_REL

/*
 * An NVMe multipath head: the kernel counts its I/O on the path (6.1), or on both head
 * and path; either way the drive moved what the step did, and 8 MiB more is seen on the
 * path alone.
 */
START_TEST(multipath_head)
{
	static const struct fs_entry mp[] = {
		{"sys/dev/block/259:0", NULL,
		 "../../devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1"},
		{NS "/dev", "259:0", NULL},
		{"sys/class/block/nvme0c0n1", NULL, "../../" NVPATH_REL},
		/* another subsystem's path, and a name with more after it: not nvme0n1's
		   paths (were they counted, the quiet step would be warned) */
		{"sys/class/block/nvme1c0n1", NULL, "../../" NVPATH_REL},
		{"sys/class/block/nvme0c0n1p1", NULL, "../../" NVPATH_REL},
		{NVPATH "/dev", "259:1", NULL},
	};
	struct target ns = {.is_blockdev = true, .rdev = makedev(259, 0)};
	const struct target *t[] = {&ns};
	char dir[4096], sys[4096], why[320] = "";
	struct devshare s;

	fmt(dir, sizeof(dir), "%s/multipath", tmproot);
	build_tree(dir, mp, sizeof(mp) / sizeof(mp[0]));
	fmt(sys, sizeof(sys), "%s/sys", dir);
	for (unsigned both = 0; both < 2; both++) {
		put_stat(dir, NS, 0, 0);
		put_stat(dir, NVPATH, 0, 0);
		devshare_begin(&s, t, 1, sys);
		ck_assert_str_eq(s.d[0].name, "nvme0n1");
		put_stat(dir, NS, both ? 64 * MiB / 512 : 0, 0);
		put_stat(dir, NVPATH, 64 * MiB / 512, 0);
		devshare_add(&s, 0, 64 * MiB, 0);
		devshare_end(&s, NULL, NULL);
		ck_assert_msg(!devshare_shared(&s, why, sizeof(why)), "%u: %s", both, why);
		put_stat(dir, NVPATH, 72 * MiB / 512, 0);
		devshare_end(&s, NULL, NULL);
		ck_assert_msg(devshare_shared(&s, why, sizeof(why)), "%u", both);
	}
}
END_TEST

static const struct {
	const char *name;
	uint64_t rd, wr;	   /* sectors the device moved */
	uint64_t ours_rd, ours_wr; /* bytes */
	bool shared;
} cases[] = {
	{"exactly the step's", 2048, 2048, MiB, MiB, false},
	{"less than the step's (a count cut short)", 0, 0, MiB, MiB, false},
	{"a probe's few reads", 2048 + 1024, 0, MiB, 0, false},
	{"4 MiB more: the floor", 2048 + 8192, 0, MiB, 0, true},
	{"8 MiB, under 1% of a big step", 1000 * MiB / 512 + 16384, 0, 1000 * MiB, 0, false},
	{"writes beside reads", 2048, 16384, MiB, 0, true},
	{"12 MiB, over 1% of a big step", 0, 1000 * MiB / 512 + 24576, 0, 1000 * MiB, true},
};

START_TEST(thresholds)
{
	struct devshare_dev d = {.ok = true, .name = "nvme0n1"};
	char why[320] = "";

	d.rd1 = cases[_i].rd;
	d.wr1 = cases[_i].wr;
	d.ours_rd = cases[_i].ours_rd;
	d.ours_wr = cases[_i].ours_wr;
	ck_assert_msg(devshare_dev_shared(&d, why, sizeof(why)) == cases[_i].shared, "%s: %s",
		      cases[_i].name, why);
	/* counts not read: never a verdict */
	d.ok = false;
	ck_assert(!devshare_dev_shared(&d, why, sizeof(why)));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("devshare");
	TCase *tc = tcase_create("devshare");

	tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, partitions_on_one_disk);
	tcase_add_test(tc, streams_on_targets);
	tcase_add_test(tc, multipath_head);
	tcase_add_loop_test(tc, thresholds, 0, sizeof(cases) / sizeof(cases[0]));
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
