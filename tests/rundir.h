/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RUNDIR_H
#define DB_RUNDIR_H
#include <stdio.h>
#include <stdlib.h>

#include <check.h>

/*
 * Each test gets its own directory inside one made for the whole run. The run's directory
 * is made and removed by the parent process (an unchecked fixture), so it goes away even
 * when a test fails or crashes in its forked child before its own teardown.
 */
static char basedir[256], tmpdir[300];

static void rm_rf(const char *dir)
{
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

static void setup_run(void)
{
	snprintf(basedir, sizeof(basedir), "/tmp/drivebench-check.XXXXXX");
	if (!mkdtemp(basedir))
		abort();
}

static void teardown_run(void)
{
	rm_rf(basedir);
}

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/test.XXXXXX", basedir);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	rm_rf(tmpdir);
}

#endif
