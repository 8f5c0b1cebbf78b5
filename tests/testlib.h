/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TESTLIB_H
#define DB_TESTLIB_H
/*
 * Helpers for the Check unit tests: a main() that runs one suite with Check's default
 * fork mode, and targets the tests make themselves (temp files, loop devices) and always
 * remove. Loop devices are made in unchecked fixtures, which run in the parent process,
 * so a failed or crashed test still gets its teardown.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings.h"

/* Run a suite in Check's default (fork) mode; the exit status of the test program. */
static inline int test_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define TEST_MAIN(suite_fn)                                                                        \
	int main(void)                                                                             \
	{                                                                                          \
		return test_run_suite(suite_fn());                                                 \
	}

/* A sparse temp file of size bytes in dir (NULL: /var/tmp, on a disk file system). */
static inline char *test_tmpfile(const char *dir, uint64_t size)
{
	char *path = malloc(4096);
	if (snprintf(path, 4096, "%s/drivebench-test-XXXXXX", dir ? dir : "/var/tmp") >= 4096) {
		free(path);
		return NULL;
	}
	int fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

/* A file at path that holds text (replaced if it is there). */
static inline void test_put_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* The settings as main() would read them from the environment the test has set up. */
static inline const struct settings *test_settings_env(void)
{
	static struct settings s;

	settings_from_env(&s);
	return &s;
}

static inline bool test_is_root(void)
{
	return geteuid() == 0;
}

/* losetup a loop device over file; returns "/dev/loopN" (malloc'd) or NULL. */
static inline char *test_loop_attach(const char *file, unsigned sector_size)
{
	char cmd[4096 + 128], *dev = malloc(64);
	if (sector_size)
		snprintf(cmd, sizeof(cmd),
			 "losetup --find --show --direct-io=on --sector-size %u %s 2>/dev/null",
			 sector_size, file);
	else
		snprintf(cmd, sizeof(cmd), "losetup --find --show --direct-io=on %s 2>/dev/null",
			 file);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(dev, 64, p)) {
		if (p)
			pclose(p);
		free(dev);
		return NULL;
	}
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	return dev;
}

static inline void test_loop_detach(const char *dev)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "losetup -d %s 2>/dev/null", dev);
	if (system(cmd) != 0)
		fprintf(stderr, "NOTE: could not detach %s\n", dev);
}

#endif
