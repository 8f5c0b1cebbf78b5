// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scratch file (src/method/scratch.c): made at the size that fits, written out with
 * random data hole by hole, resumable, refilled where a discard punched it.
 */
#include "testlib.h"

#include <time.h>

#include "scratch.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/var/tmp/check_scratch.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	setenv("DRIVEBENCH_SCRATCH_SIZE", "24m", 1);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "NOTE: could not remove %s\n", dir);
}

/* Every 4 KiB block of the file holds data: not zeros, and not a copy of the one before. */
static void assert_random(const char *path, uint64_t size)
{
	static uint8_t a[4096], b[4096], zero[4096];
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	for (uint64_t off = 0; off < size; off += sizeof(a)) {
		ck_assert_int_eq(pread(fd, a, sizeof(a), (off_t)off), (ssize_t)sizeof(a));
		ck_assert_msg(memcmp(a, zero, sizeof(a)) != 0, "zeros at %llu",
			      (unsigned long long)off);
		ck_assert_msg(off == 0 || memcmp(a, b, sizeof(a)) != 0, "a repeat at %llu",
			      (unsigned long long)off);
		memcpy(b, a, sizeof(a));
	}
	close(fd);
}

START_TEST(test_made_sparse_then_written_out)
{
	char path[4096], err[512];
	uint64_t size = 0, unwritten = 0;
	_Atomic uint64_t done, total;
	atomic_int stop = 0;
	struct stat st;

	ck_assert_msg(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
				     err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(size, 24u << 20);
	ck_assert_uint_eq(unwritten, size);
	ck_assert_msg(scratch_fill(path, &stop, &done, &total, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(atomic_load(&done), size);
	ck_assert_uint_eq(atomic_load(&total), size);
	ck_assert_int_eq(scratch_unwritten(path, &unwritten), 0);
	ck_assert_uint_eq(unwritten, 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_size, size);
	ck_assert_uint_ge((uint64_t)st.st_blocks * 512, size);
	assert_random(path, size);
	/* a second start finds it written out, and leaves it alone */
	ck_assert_int_eq(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
					err, sizeof(err)),
			 0);
	ck_assert_uint_eq(unwritten, 0);
}
END_TEST

/* Stopped partway, it resumes where it stopped: what was written is not written again. */
START_TEST(test_resumes)
{
	char path[4096], err[512];
	uint64_t size, unwritten, left;
	_Atomic uint64_t done = 0, total = 0;
	atomic_int stop = 0;

	ck_assert_int_eq(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
					err, sizeof(err)),
			 0);
	scratch_stop_after(8u << 20); /* as the TUI's quit would, at a known point */
	ck_assert_int_eq(scratch_fill(path, &stop, &done, &total, err, sizeof(err)), -ECANCELED);
	ck_assert_int_eq(scratch_unwritten(path, &left), 0);
	ck_assert_uint_gt(left, 0);
	ck_assert_uint_lt(left, size);
	ck_assert_uint_eq(left, size - atomic_load(&done));
	stop = 0;
	ck_assert_msg(scratch_fill(path, &stop, &done, &total, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(atomic_load(&total), left);
	ck_assert_uint_eq(atomic_load(&done), left);
	ck_assert_int_eq(scratch_unwritten(path, &left), 0);
	ck_assert_uint_eq(left, 0);
	assert_random(path, size);
}
END_TEST

/* A discard purge punches holes; the next fill writes those holes and nothing else. */
START_TEST(test_refills_punched_holes)
{
	char path[4096], err[512];
	uint64_t size, unwritten;
	_Atomic uint64_t done, total;
	atomic_int stop = 0;
	int fd;

	ck_assert_int_eq(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
					err, sizeof(err)),
			 0);
	ck_assert_int_eq(scratch_fill(path, &stop, &done, &total, err, sizeof(err)), 0);
	fd = open(path, O_WRONLY);
	ck_assert_int_eq(
		fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4 << 20, 3 << 20), 0);
	close(fd);
	ck_assert_int_eq(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
					err, sizeof(err)),
			 0);
	ck_assert_uint_eq(unwritten, 3u << 20);
	ck_assert_int_eq(scratch_fill(path, &stop, &done, &total, err, sizeof(err)), 0);
	ck_assert_uint_eq(atomic_load(&done), 3u << 20);
	assert_random(path, size);
}
END_TEST

/* The size asked for in the environment: a size, and at least 16 MiB. */
static const struct {
	const char *env;
	int ret;
	uint64_t size;
} sizes[] = {
	{"32m", 0, 32u << 20}, {"16m", 0, 16u << 20}, {"20000k", 0, 19u << 20},
	{"8m", -EINVAL, 0},    {"lots", -EINVAL, 0},
};

START_TEST(test_sizes)
{
	char path[4096], err[512] = "";
	uint64_t size = 0, unwritten;

	setenv("DRIVEBENCH_SCRATCH_SIZE", sizes[_i].env, 1);
	ck_assert_int_eq(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
					err, sizeof(err)),
			 sizes[_i].ret);
	if (sizes[_i].ret)
		ck_assert_msg(strstr(err, "DRIVEBENCH_SCRATCH_SIZE"), "%s", err);
	else
		ck_assert_uint_eq(size, sizes[_i].size);
}
END_TEST

/* The TUI's thread: progress, then done. */
START_TEST(test_filler_thread)
{
	char path[4096], err[512] = "";
	uint64_t size, unwritten, done = 0, total = 0;
	struct scratch_filler *f;
	int state;

	ck_assert_int_eq(scratch_ensure(test_settings_env(), path, sizeof(path), &size, &unwritten,
					err, sizeof(err)),
			 0);
	ck_assert_int_eq(scratch_filler_start(&f, path, err, sizeof(err)), 0);
	for (int i = 0; i < 3000; i++) {
		state = scratch_filler_poll(f, &done, &total, err, sizeof(err));
		if (state)
			break;
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
	ck_assert_int_eq(state, 1);
	ck_assert_uint_eq(done, size);
	ck_assert_uint_eq(total, size);
	scratch_filler_free(f);
}
END_TEST

static Suite *scratch_suite(void)
{
	Suite *s = suite_create("scratch");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_made_sparse_then_written_out);
	tcase_add_test(tc, test_resumes);
	tcase_add_test(tc, test_refills_punched_holes);
	tcase_add_loop_test(tc, test_sizes, 0, sizeof(sizes) / sizeof(sizes[0]));
	tcase_add_test(tc, test_filler_thread);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(scratch_suite)
