// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the in-use snapshot's mountinfo reader, on arbitrary bytes. The input
 * up to its first NUL is this namespace's mountinfo, the rest another namespace's (what
 * a container's root may write there: mount points and sources of its choosing), over a
 * fixture sysfs with two disks, a partition and a btrfs; then what uses each disk.
 */
// fuzz-seeds: tests/fixtures/mountinfo
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inuse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[PATH_MAX];

static void put(const char *rel, const void *text, size_t len, const char *link)
{
	char path[PATH_MAX + 64], dir[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = strchr(path + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0700);
	}
	if (link) {
		unlink(path);
		if (symlink(link, path))
			abort();
		return;
	}
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		abort();
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void teardown(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	static const struct {
		const char *rel, *text, *link;
	} tree[] = {
		{"sys/class/block/sda/dev", "8:0\n", NULL},
		{"sys/class/block/sda1/dev", "8:1\n", NULL},
		{"sys/class/block/sda1/partition", "1\n", NULL},
		{"sys/class/block/sdb/dev", "8:16\n", NULL},
		{"sys/fs/btrfs/0f0f0f0f-1111-2222-3333-444444444444/devices/sdb", NULL, "../x"},
		{"sys/fs/btrfs/0f0f0f0f-1111-2222-3333-444444444444/devices/sda", NULL, "../x"},
		{"sys/fs/btrfs/0f0f0f0f-1111-2222-3333-444444444444/label", "lab\n", NULL},
		{"proc/self/ns/mnt", NULL, "mnt:[1]"},
		{"proc/7/ns/mnt", NULL, "mnt:[2]"},
		{"proc/7/comm", "init\n", NULL},
	};
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/fuzz-mountinfo.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(teardown);
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		put(tree[i].rel, tree[i].text, tree[i].text ? strlen(tree[i].text) : 0,
		    tree[i].link);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char sys[PATH_MAX + 8], proc[PATH_MAX + 8], err[256];
	const uint8_t *nul = memchr(data, 0, size);
	size_t ours = nul ? (size_t)(nul - data) : size;
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	struct inuse_snapshot *s;
	struct inuse u;

	if (!root[0])
		setup();
	put("proc/self/mountinfo", data, ours, NULL);
	put("proc/7/mountinfo", nul ? nul + 1 : data, nul ? size - ours - 1 : 0, NULL);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	if (inuse_snapshot_take(&s, &roots, err, sizeof(err)))
		return 0;
	inuse_snapshot_check(s, makedev(8, 0), &u);
	inuse_snapshot_check(s, makedev(8, 16), &u);
	inuse_snapshot_free(s);
	return 0;
}
