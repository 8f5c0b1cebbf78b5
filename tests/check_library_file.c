// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results library's list of places (src/results/library.c): the file under
 * $XDG_CONFIG_HOME (else ~/.config), missing is empty, a place added once, comments and
 * blanks passed over, a bad line refused as file:line.
 */
#include "testlib.h"

#include "library.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_library_file.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "NOTE: could not remove %s\n", dir);
}

static void write_file(const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/drivebench", dir);
	ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
	ck_assert_int_eq(library_path(test_settings_env(), path, sizeof(path)), 0);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

START_TEST(test_path)
{
	const char *home = getenv("HOME");
	char path[4096], want[4096], saved[4096] = "";

	if (home)
		snprintf(saved, sizeof(saved), "%s", home);

	ck_assert_int_eq(library_path(test_settings_env(), path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/drivebench/library", dir);
	ck_assert_str_eq(path, want);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/someone", 1);
	ck_assert_int_eq(library_path(test_settings_env(), path, sizeof(path)), 0);
	ck_assert_str_eq(path, "/home/someone/.config/drivebench/library");
	unsetenv("HOME");
	ck_assert_int_eq(library_path(test_settings_env(), path, sizeof(path)), -ENOENT);
	if (saved[0])
		setenv("HOME", saved, 1);
}
END_TEST

/* What a list reads as: written as text, or made by library_add(test_settings_env(), ) (NULL:
 * neither). */
static const struct {
	const char *text;
	const char *adds[4];
	const char *want[4];
} reads[] = {
	{NULL, {NULL}, {NULL}}, /* missing: empty */
	{NULL,
	 {"/srv/results", "/srv/one.json", "/srv/results"},
	 {"/srv/results", "/srv/one.json"}},
	{"# a comment\n\n  /a/b.json \t\r\n\t# another\n/c\n", {NULL}, {"/a/b.json", "/c"}},
};

START_TEST(test_read)
{
	static char paths[LIBRARY_MAX][4096];
	char err[256] = "";
	unsigned n = 99, want = 0;

	if (reads[_i].text)
		write_file(reads[_i].text);
	for (const char *const *a = reads[_i].adds; *a; a++)
		ck_assert_int_eq(library_add(test_settings_env(), *a, err, sizeof(err)), 0);
	ck_assert_int_eq(
		library_read(test_settings_env(), paths, LIBRARY_MAX, &n, err, sizeof(err)), 0);
	while (reads[_i].want[want])
		want++;
	ck_assert_uint_eq(n, want);
	for (unsigned i = 0; i < n; i++)
		ck_assert_str_eq(paths[i], reads[_i].want[i]);
}
END_TEST

START_TEST(test_bad_lines)
{
	static char paths[LIBRARY_MAX][4096];
	char err[256] = "", want[4200];
	unsigned n;

	write_file("/a\nrelative/b\n");
	ck_assert_int_eq(
		library_read(test_settings_env(), paths, LIBRARY_MAX, &n, err, sizeof(err)),
		-EINVAL);
	snprintf(want, sizeof(want), "%s/drivebench/library:2: not an absolute path", dir);
	ck_assert_str_eq(err, want);
	/* a list that does not read is not rewritten */
	ck_assert_int_eq(library_add(test_settings_env(), "/x", err, sizeof(err)), -EINVAL);
	/* the limit: max entries read, the next one refused */
	write_file("/a\n/b\n");
	ck_assert_int_eq(library_read(test_settings_env(), paths, 1, &n, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want), "%s/drivebench/library:2: more entries than the limit", dir);
	ck_assert_str_eq(err, want);
}
END_TEST

static Suite *library_file_suite(void)
{
	Suite *s = suite_create("library_file");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_path);
	tcase_add_loop_test(tc, test_read, 0, sizeof(reads) / sizeof(reads[0]));
	tcase_add_test(tc, test_bad_lines);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(library_file_suite)
