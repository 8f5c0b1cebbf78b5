// SPDX-License-Identifier: GPL-2.0-or-later
/* In-use checks: mounts, swap, holders and the root file system, matched by dev_t. */
#include "inuse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

const char *const inuse_kind_name[INUSE_NKINDS] = {
#define X(id, name) [id] = name,
	INUSE_KINDS(X)
#undef X
};

struct blk_entry {
	char name[64];
	dev_t dev;
	char parent[64]; /* the disk of a partition; "" for a disk */
	dev_t backing;   /* a loop device over a block device: that device; else 0 */
	bool backing_is_file; /* a loop device over a regular file: that file is */
	dev_t file_dev;       /* ... this inode of this file system */
	ino_t file_ino;
};

struct mount_ent {
	dev_t dev;
	char *mnt;
};

struct swap_ent {
	dev_t dev;
	bool is_file; /* a swap file: dev is the device of the file system holding it */
	ino_t ino;    /* a swap file's inode */
	char *path;
};

struct inuse_snapshot {
	char sys[PATH_MAX];
	bool real_sys; /* sys is the running kernel's: its device nodes may be asked */
	struct blk_entry *blk;
	size_t nblk;
	struct mount_ent *mounts;
	size_t nmounts;
	struct swap_ent *swaps;
	size_t nswaps;
	bool have_root;
	dev_t root_dev;           /* the device mounted on "/" */
	dev_t *root_under;        /* root_dev and every device below it (slaves) */
	size_t nroot_under;
};

/* snprintf() for paths and names, cut at len; truncation is harmless where it is used. */
__attribute__((format(printf, 3, 4))) static void fmt_str(char *buf, size_t len,
							  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void inuse_unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static int read_dev(const char *dir, dev_t *out)
{
	char path[PATH_MAX], buf[32];
	unsigned maj, min;
	FILE *f;
	int ok;

	fmt_str(path, sizeof(path), "%s/dev", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*out = makedev(maj, min);
	return 0;
}

/* A dev_t as the kernel encodes it in struct loop_info64 (new_encode_dev). */
static dev_t kdev_decode(uint64_t d)
{
	return makedev((unsigned)((d & 0xfff00) >> 8),
		       (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

/* What a loop device's backing object is, in e: a block device, or a file's inode. */
static void set_backing(struct blk_entry *e, const struct stat *st)
{
	if (S_ISBLK(st->st_mode)) {
		e->backing = st->st_rdev;
	} else {
		e->backing_is_file = true;
		e->file_dev = st->st_dev;
		e->file_ino = st->st_ino;
	}
}

/*
 * Ask the loop driver itself (LOOP_GET_STATUS64) what backs the loop device e: the
 * device number and inode it holds, which stay right when the backing path was deleted
 * or replaced. Only for the running kernel's sysfs, through a /dev node proven to be e;
 * never for a device marked autoclear, which the last close of our descriptor would
 * detach. false when it could not ask.
 */
static bool loop_status(const struct inuse_snapshot *s, const char *dir, struct blk_entry *e)
{
	char path[PATH_MAX], flag[8] = "";
	struct loop_info64 li;
	struct stat st;
	bool ok;
	FILE *f;
	int fd;

	if (!s->real_sys)
		return false;
	fmt_str(path, sizeof(path), "%s/loop/autoclear", dir);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(flag, sizeof(flag), f))
			flag[0] = '\0';
		fclose(f);
	}
	if (flag[0] != '0')
		return false;
	fmt_str(path, sizeof(path), "/dev/%s", e->name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == e->dev &&
	     ioctl(fd, LOOP_GET_STATUS64, &li) == 0;
	close(fd);
	if (!ok)
		return false;
	memset(&st, 0, sizeof(st));
	if (li.lo_rdevice) {
		st.st_mode = S_IFBLK;
		st.st_rdev = kdev_decode(li.lo_rdevice);
	} else {
		st.st_mode = S_IFREG;
		st.st_dev = kdev_decode(li.lo_device);
		st.st_ino = (ino_t)li.lo_inode;
	}
	set_backing(e, &st);
	return true;
}

/*
 * A loop device over a block device uses that device without any holders link and
 * without claiming it exclusively, so the kernel would let a write through; one over a
 * regular file makes writing that file writing the loop device. Remember what backs
 * every bound loop device: from the driver when it can be asked, else from the backing
 * path sysfs shows (which misses a deleted or replaced node).
 */
static void read_loop_backing(const struct inuse_snapshot *s, const char *dir,
			      struct blk_entry *e)
{
	char path[PATH_MAX], file[PATH_MAX];
	struct stat st;
	FILE *f;

	fmt_str(path, sizeof(path), "%s/loop/backing_file", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!loop_status(s, dir, e) && fgets(file, sizeof(file), f)) {
		file[strcspn(file, "\n")] = '\0';
		if (stat(file, &st) == 0)
			set_backing(e, &st);
	}
	fclose(f);
}

static int load_block(struct inuse_snapshot *s)
{
	char dirpath[PATH_MAX];
	DIR *dir;
	struct dirent *de;
	size_t cap = 0;

	fmt_str(dirpath, sizeof(dirpath), "%s/class/block", s->sys);
	dir = opendir(dirpath);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		char path[PATH_MAX], target[PATH_MAX];
		struct blk_entry e = {0};
		ssize_t n;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		fmt_str(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		if (read_dev(path, &e.dev))
			continue;
		fmt_str(e.name, sizeof(e.name), "%s", de->d_name);
		/* a partition's directory sits inside its disk's: .../block/sda/sda1 */
		fmt_str(target, sizeof(target), "%s/partition", path);
		f = fopen(target, "re");
		if (f) {
			fclose(f);
			n = readlink(path, target, sizeof(target) - 1);
			if (n > 0) {
				target[n] = '\0';
				char *slash = strrchr(target, '/');
				if (slash) {
					*slash = '\0';
					slash = strrchr(target, '/');
					fmt_str(e.parent, sizeof(e.parent), "%s",
						 slash ? slash + 1 : target);
				}
			}
			if (!e.parent[0])
				fmt_str(e.parent, sizeof(e.parent), "?");
		}
		read_loop_backing(s, path, &e);
		if (s->nblk == cap) {
			cap = cap ? cap * 2 : 64;
			void *p = realloc(s->blk, cap * sizeof(*s->blk));
			if (!p) {
				closedir(dir);
				return -ENOMEM;
			}
			s->blk = p;
		}
		s->blk[s->nblk++] = e;
	}
	closedir(dir);
	return 0;
}

static const struct blk_entry *blk_by_dev(const struct inuse_snapshot *s, dev_t dev)
{
	for (size_t i = 0; i < s->nblk; i++)
		if (s->blk[i].dev == dev)
			return &s->blk[i];
	return NULL;
}

static const struct blk_entry *blk_by_name(const struct inuse_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->nblk; i++)
		if (!strcmp(s->blk[i].name, name))
			return &s->blk[i];
	return NULL;
}

static int load_mounts(struct inuse_snapshot *s, const char *proc, char *err, size_t errlen)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t linecap = 0, cap = 0;
	FILE *f;
	int ret = 0;

	fmt_str(path, sizeof(path), "%s/self/mountinfo", proc);
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		fmt_str(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (getline(&line, &linecap, f) > 0) {
		/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw" */
		char *save = NULL, *field[5];
		unsigned maj, min;
		int i;

		field[0] = strtok_r(line, " \n", &save);
		for (i = 1; i < 5 && field[i - 1]; i++)
			field[i] = strtok_r(NULL, " \n", &save);
		if (i < 5 || !field[4] || sscanf(field[2], "%u:%u", &maj, &min) != 2)
			continue;
		inuse_unescape(field[4]);
		if (!strcmp(field[4], "/")) {
			s->have_root = true;
			s->root_dev = makedev(maj, min);
		}
		if (maj == 0)
			continue; /* proc, tmpfs, overlay...: no block device */
		if (s->nmounts == cap) {
			cap = cap ? cap * 2 : 32;
			void *p = realloc(s->mounts, cap * sizeof(*s->mounts));
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			s->mounts = p;
		}
		s->mounts[s->nmounts].dev = makedev(maj, min);
		s->mounts[s->nmounts].mnt = strdup(field[4]);
		if (!s->mounts[s->nmounts].mnt) {
			ret = -ENOMEM;
			break;
		}
		s->nmounts++;
	}
	free(line);
	fclose(f);
	if (ret)
		fmt_str(err, errlen, "%s: out of memory", path);
	return ret;
}

static int load_swaps(struct inuse_snapshot *s, const char *proc, char *err, size_t errlen)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t linecap = 0, cap = 0;
	FILE *f;
	int ret = 0;
	bool header = true;

	fmt_str(path, sizeof(path), "%s/swaps", proc);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno; /* a kernel without swap support */
	while (getline(&line, &linecap, f) > 0) {
		char *save = NULL, *name = strtok_r(line, " \t\n", &save);
		struct stat st;

		if (header) { /* "Filename  Type  Size  Used  Priority" */
			header = false;
			continue;
		}
		if (!name)
			continue;
		inuse_unescape(name);
		if (stat(name, &st))
			continue; /* deleted swap file, or a node that is not in this /dev */
		if (s->nswaps == cap) {
			cap = cap ? cap * 2 : 8;
			void *p = realloc(s->swaps, cap * sizeof(*s->swaps));
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			s->swaps = p;
		}
		s->swaps[s->nswaps].is_file = !S_ISBLK(st.st_mode);
		s->swaps[s->nswaps].dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		s->swaps[s->nswaps].ino = st.st_ino;
		s->swaps[s->nswaps].path = strdup(name);
		if (!s->swaps[s->nswaps].path) {
			ret = -ENOMEM;
			break;
		}
		s->nswaps++;
	}
	free(line);
	fclose(f);
	if (ret)
		fmt_str(err, errlen, "%s: out of memory", path);
	return ret;
}

static bool dev_in(const dev_t *set, size_t n, dev_t d)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == d)
			return true;
	return false;
}

/* The root device and, through slaves/, every device it is built on (dm over md ...). */
static int load_root_closure(struct inuse_snapshot *s)
{
	size_t cap = 8;

	if (!s->have_root || major(s->root_dev) == 0)
		return 0;
	s->root_under = malloc(cap * sizeof(dev_t));
	if (!s->root_under)
		return -ENOMEM;
	s->root_under[s->nroot_under++] = s->root_dev;
	for (size_t i = 0; i < s->nroot_under; i++) {
		const struct blk_entry *e = blk_by_dev(s, s->root_under[i]);
		char path[PATH_MAX];
		struct dirent *de;
		DIR *dir;

		if (!e)
			continue;
		fmt_str(path, sizeof(path), "%s/class/block/%s/slaves", s->sys, e->name);
		dir = opendir(path);
		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			const struct blk_entry *sl = de->d_name[0] == '.' ? NULL
								  : blk_by_name(s, de->d_name);
			if (!sl || dev_in(s->root_under, s->nroot_under, sl->dev))
				continue;
			if (s->nroot_under == cap) {
				cap *= 2;
				void *p = realloc(s->root_under, cap * sizeof(dev_t));
				if (!p) {
					closedir(dir);
					return -ENOMEM;
				}
				s->root_under = p;
			}
			s->root_under[s->nroot_under++] = sl->dev;
		}
		closedir(dir);
	}
	return 0;
}

void inuse_snapshot_free(struct inuse_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmounts; i++)
		free(s->mounts[i].mnt);
	for (size_t i = 0; i < s->nswaps; i++)
		free(s->swaps[i].path);
	free(s->mounts);
	free(s->swaps);
	free(s->blk);
	free(s->root_under);
	free(s);
}

int inuse_snapshot_take(struct inuse_snapshot **out, const struct inuse_roots *roots,
			char *err, size_t errlen)
{
	const char *proc = roots && roots->proc ? roots->proc : "/proc";
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	struct inuse_snapshot *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	fmt_str(s->sys, sizeof(s->sys), "%s", sys);
	s->real_sys = !strcmp(sys, "/sys");
	ret = load_block(s);
	if (ret) {
		fmt_str(err, errlen, "%s/class/block: %s", sys, strerror(-ret));
		goto fail;
	}
	ret = load_mounts(s, proc, err, errlen);
	if (ret)
		goto fail;
	ret = load_swaps(s, proc, err, errlen);
	if (ret)
		goto fail;
	ret = load_root_closure(s);
	if (ret) {
		fmt_str(err, errlen, "root file system: %s", strerror(-ret));
		goto fail;
	}
	*out = s;
	return 0;
fail:
	inuse_snapshot_free(s);
	return ret;
}

__attribute__((format(printf, 3, 4))) static void add_reason(struct inuse *u,
							     enum inuse_kind kind,
							     const char *fmt, ...)
{
	va_list ap;

	u->flags |= INUSE_BIT(kind);
	if (u->nreasons == INUSE_MAX_REASONS) {
		u->dropped++;
		return;
	}
	u->reason[u->nreasons].kind = kind;
	va_start(ap, fmt);
	vsnprintf(u->reason[u->nreasons].text, sizeof(u->reason[0].text), fmt, ap);
	va_end(ap);
	u->nreasons++;
}

/* "dm-0 (vg0-data)" for device mapper, whose kernel names say nothing. */
static void holder_label(const struct inuse_snapshot *s, const char *holder, char *buf,
			 size_t len)
{
	char path[PATH_MAX], name[128] = "";
	FILE *f;

	fmt_str(path, sizeof(path), "%s/class/block/%s/dm/name", s->sys, holder);
	f = fopen(path, "re");
	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
	if (name[0])
		fmt_str(buf, len, "%s (%s)", holder, name);
	else
		fmt_str(buf, len, "%s", holder);
}

static void check_holders(const struct inuse_snapshot *s, const struct blk_entry *e,
			  const struct blk_entry *disk, struct inuse *out)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	fmt_str(path, sizeof(path), "%s/class/block/%s/holders", s->sys, e->name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		char label[160];
		if (de->d_name[0] == '.')
			continue;
		holder_label(s, de->d_name, label, sizeof(label));
		if (e == disk)
			add_reason(out, INUSE_HOLDER, "held by %s", label);
		else
			add_reason(out, INUSE_HOLDER, "held by %s through %s", label, e->name);
	}
	closedir(dir);
}

static int cmp_part(const void *a, const void *b)
{
	const char *x = (*(const struct blk_entry *const *)a)->name;
	const char *y = (*(const struct blk_entry *const *)b)->name;
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int inuse_snapshot_check(const struct inuse_snapshot *s, dev_t disk, struct inuse *out)
{
	const struct blk_entry *d = blk_by_dev(s, disk);
	const struct blk_entry **set;
	size_t nset = 0;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -ENODEV;
	set = malloc((s->nblk + 1) * sizeof(*set));
	if (!set)
		return -ENOMEM;
	set[nset++] = d;
	for (size_t i = 0; i < s->nblk; i++)
		if (!strcmp(s->blk[i].parent, d->name))
			set[nset++] = &s->blk[i];
	/* partitions in their number's order (sda2 before sda10), whatever sysfs lists first */
	qsort(set + 1, nset - 1, sizeof(*set), cmp_part);

	for (size_t i = 0; i < nset; i++) {
		const struct blk_entry *e = set[i];

		for (size_t m = 0; m < s->nmounts; m++)
			if (s->mounts[m].dev == e->dev)
				add_reason(out, INUSE_MOUNTED, "mounted: %s on %s", e->name,
					   s->mounts[m].mnt);
		for (size_t w = 0; w < s->nswaps; w++) {
			if (s->swaps[w].dev != e->dev)
				continue;
			if (s->swaps[w].is_file)
				add_reason(out, INUSE_SWAP, "swap: file %s on %s",
					   s->swaps[w].path, e->name);
			else
				add_reason(out, INUSE_SWAP, "swap: %s (%s)", e->name,
					   s->swaps[w].path);
		}
		check_holders(s, e, d, out);
		for (size_t k = 0; k < s->nblk; k++)
			if (s->blk[k].backing == e->dev)
				add_reason(out, INUSE_HOLDER, "held by %s (a loop device over %s)",
					   s->blk[k].name, e->name);
		if (dev_in(s->root_under, s->nroot_under, e->dev)) {
			const struct blk_entry *r = blk_by_dev(s, s->root_dev);
			if (e->dev == s->root_dev)
				add_reason(out, INUSE_ROOT, "root filesystem: / is on %s", e->name);
			else
				add_reason(out, INUSE_ROOT,
					   "root filesystem: / is on %s, which uses %s",
					   r ? r->name : "?", e->name);
		}
	}
	free(set);
	return 0;
}

int inuse_snapshot_check_file(const struct inuse_snapshot *s, dev_t dev, ino_t ino,
			       struct inuse *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->nblk; i++)
		if (s->blk[i].backing_is_file && s->blk[i].file_dev == dev &&
		    s->blk[i].file_ino == ino)
			add_reason(out, INUSE_HOLDER, "backs %s (a loop device)", s->blk[i].name);
	for (size_t w = 0; w < s->nswaps; w++)
		if (s->swaps[w].is_file && s->swaps[w].dev == dev && s->swaps[w].ino == ino)
			add_reason(out, INUSE_SWAP, "swap: the file is active swap (%s)",
				   s->swaps[w].path);
	return 0;
}

int inuse_check_file(dev_t dev, ino_t ino, const struct inuse_roots *roots, struct inuse *out,
		     char *err, size_t errlen)
{
	struct inuse_snapshot *s;
	int ret = inuse_snapshot_take(&s, roots, err, errlen);

	if (ret)
		return ret;
	ret = inuse_snapshot_check_file(s, dev, ino, out);
	inuse_snapshot_free(s);
	return ret;
}

int inuse_check(dev_t disk, const struct inuse_roots *roots, struct inuse *out, char *err,
		size_t errlen)
{
	struct inuse_snapshot *s;
	int ret = inuse_snapshot_take(&s, roots, err, errlen);

	if (ret)
		return ret;
	ret = inuse_snapshot_check(s, disk, out);
	if (ret == -ENODEV)
		fmt_str(err, errlen, "%u:%u: no such block device in sysfs", major(disk),
			 minor(disk));
	inuse_snapshot_free(s);
	return ret;
}
