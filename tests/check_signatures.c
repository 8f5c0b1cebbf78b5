// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a device or file holds, in words: each kind of signature (file system, member,
 * swap, LUKS, partition table), labels and UUIDs, more than fit; and libblkid's probe of
 * temp files: nothing on zeros, a swap area mkswap made. Devices: tests/t_safety.sh.
 */
#include "fstree.h"

#include <fcntl.h>
#include <time.h>
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* a prober on a busy host: it works (here, spins) for 2.5 s before it answers */
static int ask_busy(int fd, void *msg, size_t len, void *arg)
{
	double end = now_s() + 2.5;

	(void)fd, (void)arg;
	while (now_s() < end)
		;
	snprintf(msg, len, "busy");
	return 0;
}

/* a prober in a read that does not return (for 10 s here): it sleeps, using nothing */
static int ask_stuck(int fd, void *msg, size_t len, void *arg)
{
	(void)fd, (void)arg;
	sleep(10);
	snprintf(msg, len, "stuck");
	return 0;
}

/* slow is waited for, stuck is not: what a loaded host and a dead server look like */
START_TEST(probe_slow_or_stuck)
{
	struct probe p = {.path = "/tmp", .ask = ask_busy};
	char msg[16] = "";
	double t0;

	ck_assert_int_eq(probe_within(&p, msg, sizeof(msg), 1000), 0);
	ck_assert_str_eq(msg, "busy");
	p.ask = ask_stuck;
	t0 = now_s();
	ck_assert_int_eq(probe_within(&p, msg, sizeof(msg), 1000), -ETIMEDOUT);
	ck_assert_msg(now_s() - t0 < 9.0, "a sleeping prober was waited for %.1f s", now_s() - t0);
}
END_TEST

static Suite *signatures_suite(void)
{
	Suite *s = suite_create("signatures");
	TCase *tc = tcase_create("signatures");

	tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, words);
	tcase_add_test(tc, probe_files);
	tcase_add_test(tc, probe_slow_or_stuck);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(signatures_suite)
