// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a device or file holds, in words: each kind of signature (file system, member,
 * swap, LUKS, partition table), labels and UUIDs, more than fit; and libblkid's probe of
 * temp files: nothing on zeros, a swap area mkswap made. Devices: tests/t_safety.sh.
 */
#include "fstree.h"

#include <fcntl.h>
#include <unistd.h>

#include "probe.h"
#include "signatures.h"

START_TEST(words)
{
	struct sig_list l = {
		.n = 5,
		.more = 2,
		.s = {{.type = "ext4", .label = "data", .uuid = "1b2c", .offset = 0x438},
		      {.type = "LVM2_member", .uuid = "Xy", .offset = 0x218},
		      {.type = "crypto_LUKS", .offset = 0},
		      {.type = "swap", .offset = 0xff6},
		      {.table = true, .type = "dos", .offset = 0x1fe}},
	};
	char buf[512];

	ck_assert_str_eq(sig_describe(&l, buf, sizeof(buf)),
			 "ext4 file system 'data' (UUID 1b2c) at 0x438, LVM2 member (UUID Xy) "
			 "at 0x218, LUKS volume at 0x0, swap area at 0xff6, dos partition table "
			 "at 0x1fe and 2 more");
	/* cut at the buffer, never past it */
	ck_assert_uint_eq(strlen(sig_describe(&l, buf, 40)), 39);
	l.n = 0;
	l.more = 0;
	ck_assert_str_eq(sig_describe(&l, buf, sizeof(buf)), "");
}
END_TEST

START_TEST(probe_files)
{
	char path[4096], cmd[4200];
	struct sig_list l;
	int fd;

	fmt(path, sizeof(path), "%s/zeros.img", tmproot);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
	ck_assert_int_eq(sig_probe_fd(fd, &l), 0);
	ck_assert_uint_eq(l.n, 0);
	close(fd);
	fmt(cmd, sizeof(cmd), "mkswap -q -L bench '%s' >/dev/null 2>&1", path);
	if (system(cmd) != 0) {
		printf("SKIP: check_signatures swap: mkswap failed\n");
		return;
	}
	ck_assert_int_eq(sig_probe_path(path, &l), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.s[0].type, "swap");
	ck_assert_str_eq(l.s[0].label, "bench");
	ck_assert(!l.s[0].table && l.s[0].uuid[0]);
	ck_assert_int_eq(sig_probe_path("/nonexistent/drivebench", &l), -ENOENT);
	/* in a process of its own, the same answers (a read that never returns: t_stacks) */
	ck_assert_int_eq(sig_probe_path_within(path, &l, 30000), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.s[0].label, "bench");
	ck_assert_int_eq(sig_probe_path_within("/nonexistent/drivebench", &l, 30000), -ENOENT);
	ck_assert_uint_eq(l.n, 0);
	/* through a descriptor of the caller's, as the door asks of a target it holds */
	int held = open(path, O_RDONLY | O_CLOEXEC);
	char proc[64];
	ck_assert_int_ge(held, 0);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", held);
	ck_assert_int_eq(sig_probe_path_within(proc, &l, 30000), 0);
	ck_assert_str_eq(l.s[0].label, "bench");
	close(held);
	/* whether a path answers at all: a file, a directory, none */
	ck_assert_int_eq(probe_path_answers(path, 30000), 0);
	ck_assert_int_eq(probe_path_answers("/tmp", 30000), 0);
	ck_assert_int_eq(probe_path_answers("/nonexistent/drivebench", 30000), -ENOENT);
}
END_TEST

static Suite *signatures_suite(void)
{
	Suite *s = suite_create("signatures");
	TCase *tc = tcase_create("signatures");

	tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, words);
	tcase_add_test(tc, probe_files);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(signatures_suite)
