/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FSTREE_H
#define DB_FSTREE_H
/*
 * Fake sysfs and /proc trees for the discovery and in-use tests: a temp root made and
 * removed by an unchecked fixture (in the parent process, so it goes even when a test
 * crashes), and a table of files and symlinks built under it.
 */
#include "testlib.h"

#include <ftw.h>
#include <stdarg.h>

static char tmproot[4096];

/* snprintf() for test paths: they are short, and a cut one fails the test loudly. */
__attribute__((format(printf, 3, 4))) static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	ck_assert_msg(n >= 0 && (size_t)n < len, "path too long: %s", buf);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void tmp_setup(void)
{
	snprintf(tmproot, sizeof(tmproot), "/tmp/drivebench-check-XXXXXX");
	if (!mkdtemp(tmproot))
		tmproot[0] = '\0';
}

static void tmp_teardown(void)
{
	if (tmproot[0])
		nftw(tmproot, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void mkdir_p(const char *path)
{
	char buf[4096];

	fmt(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* A file with content, or (content NULL) a symlink to `link`. */
struct fs_entry {
	const char *path;
	const char *content;
	const char *link;
};

/* Build n entries (or up to one whose path is NULL) under root. */
__attribute__((unused)) static void build_tree(const char *root, const struct fs_entry *e, size_t n)
{
	for (size_t i = 0; i < n && e[i].path; i++) {
		char path[4096], dir[4096];
		fmt(path, sizeof(path), "%s/%s", root, e[i].path);
		fmt(dir, sizeof(dir), "%s", path);
		*strrchr(dir, '/') = '\0';
		mkdir_p(dir);
		if (e[i].content) {
			FILE *f = fopen(path, "w");
			ck_assert_ptr_nonnull(f);
			fprintf(f, "%s\n", e[i].content);
			fclose(f);
		} else {
			ck_assert_int_eq(symlink(e[i].link, path), 0);
		}
	}
}

#endif
