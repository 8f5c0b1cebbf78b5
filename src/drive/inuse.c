// SPDX-License-Identifier: GPL-2.0-or-later
/* In-use checks: mounts, swap, holders, the root file system and processes writing,
   matched by dev_t. */
#include "inuse.h"
#include "inuse_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drive_probe.h"
#include "grow.h"
#include "text.h"

const char *const inuse_kind_name[INUSE_NKINDS] = {
#define X(id, name) [id] = name,
	INUSE_KINDS(X)
#undef X
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

/* A number sysfs shows in dir/attr; 0 when there is none. */
static uint64_t read_u64(const char *dir, const char *attr)
{
	char path[PATH_MAX], buf[32];
	unsigned long long v = 0;
	FILE *f;

	fmt_str(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
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
		if (probe_read_dev(path, &e.dev))
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
		/* sysfs counts both in 512-byte sectors, whatever the block size */
		e.size = read_u64(path, "size") * 512;
		e.start = read_u64(path, "start") * 512;
		if ((!strncmp(e.name, "zram", 4) ? inuse_read_zram_writeback(path, &e)
						 : inuse_read_loop(path, &e)) ||
		    GROW(s->blk, s->nblk, cap, 64)) {
			free(e.backing_path);
			closedir(dir);
			return -ENOMEM;
		}
		s->blk[s->nblk++] = e;
	}
	closedir(dir);
	return 0;
}

const struct blk_entry *inuse_blk_by_dev(const struct inuse_snapshot *s, dev_t dev)
{
	for (size_t i = 0; i < s->nblk; i++)
		if (s->blk[i].dev == dev)
			return &s->blk[i];
	return NULL;
}

const struct blk_entry *inuse_blk_by_name(const struct inuse_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->nblk; i++)
		if (!strcmp(s->blk[i].name, name))
			return &s->blk[i];
	return NULL;
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
		/* a swap file on NFS is on no block device, and the kernel refuses writes to
		   an active swap file: nothing to ask a server that may not answer */
		if (inuse_remote_path(s, name) || stat(name, &st))
			continue; /* deleted swap file, or a node that is not in this /dev */
		if (GROW(s->swaps, s->nswaps, cap, 8)) {
			ret = -ENOMEM;
			break;
		}
		s->swaps[s->nswaps].is_file = !S_ISBLK(st.st_mode);
		s->swaps[s->nswaps].dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		s->swaps[s->nswaps].ino = st.st_ino;
		s->swaps[s->nswaps].path = text_visible_dup(name);
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

/* The command name of process pid under proc, made printable. */
static void read_comm(const char *proc, const char *pid, char *buf, size_t len)
{
	char path[PATH_MAX], raw[64] = "";
	FILE *f;

	fmt_str(path, sizeof(path), "%s/%s/comm", proc, pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(raw, sizeof(raw), f))
			raw[strcspn(raw, "\n")] = '\0';
		fclose(f);
	}
	text_visible(buf, len, raw[0] ? raw : "?");
}

int inuse_add_open(struct inuse_snapshot *s, size_t *cap, size_t from, const struct stat *st,
		   enum open_how how, const char *proc, const char *pid, char *who,
		   const char *remote)
{
	bool is_file = S_ISREG(st->st_mode);
	dev_t dev = is_file ? st->st_dev : st->st_rdev;

	if (!is_file && !S_ISBLK(st->st_mode))
		return 0;
	for (size_t i = from; pid && i < s->nopens; i++)
		if (s->opens[i].is_file == is_file && s->opens[i].dev == dev &&
		    (!is_file || (st->st_ino && s->opens[i].ino == st->st_ino)))
			return 0;
	if (pid && !who[0])
		read_comm(proc, pid, who, 32);
	if (GROW(s->opens, s->nopens, *cap, 16))
		return -ENOMEM;
	struct open_ent *o = &s->opens[s->nopens++];
	o->is_file = is_file;
	o->dev = dev;
	o->ino = st->st_ino;
	o->how = how;
	o->pid = pid ? (pid_t)strtol(pid, NULL, 10) : 0;
	text_visible(o->who, sizeof(o->who), who);
	o->path = remote && remote[0] == '/' ? strdup(remote) : NULL;
	return remote && remote[0] == '/' && !o->path ? -ENOMEM : 0;
}

/*
 * Process pid's shared writable mappings (rw-s in /proc/PID/maps): its stores reach the
 * file, or the device, even after it closed the descriptor it mapped. What is mapped is
 * read through map_files/ (root), else from the line's device and inode (files only).
 */
static int load_maps(struct inuse_snapshot *s, size_t *cap, size_t from, const char *proc,
		     const char *pid, char *comm)
{
	char path[PATH_MAX], *line = NULL;
	size_t len = 0;
	int ret = 0;
	FILE *f;

	fmt_str(path, sizeof(path), "%s/%s/maps", proc, pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!ret && getline(&line, &len, f) > 0) {
		unsigned long start, end, ino;
		unsigned maj, min;
		const char *sp = strchr(line, ' '), *remote = NULL;
		char perms[8];
		struct stat st;
		int at = 0;

		/* "7f..-7f.. rw-s ...": most lines are not shared and writable */
		if (!sp || strlen(sp) < 5 || sp[2] != 'w' || sp[4] != 's')
			continue;
		if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu %n", &start, &end, perms, &maj, &min,
			   &ino, &at) != 6 ||
		    strlen(perms) < 4 || perms[1] != 'w' || perms[3] != 's' || ino == 0)
			continue;
		fmt_str(path, sizeof(path), "%s/%s/map_files/%lx-%lx", proc, pid, start, end);
		/* a file on a network or FUSE mount is what the line says: no stat() that
		   could wait for a server forever */
		if (inuse_remote_dev(s, makedev(maj, min)) || stat(path, &st) < 0) {
			if (inuse_remote_dev(s, makedev(maj, min)) && at > 0) {
				line[strcspn(line, "\n")] = '\0'; /* the path: to the line's end */
				inuse_unescape(line + at);	  /* a newline in it is \012 */
				remote = line + at;
			}
			memset(&st, 0, sizeof(st));
			st.st_mode = S_IFREG;
			st.st_dev = makedev(maj, min);
			st.st_ino = (ino_t)ino;
		}
		if (inuse_overlay_dev(s, st.st_dev) && at > 0) {
			line[strcspn(line, "\n")] = '\0';
			inuse_unescape(line + at);
			inuse_overlay_real(s, line + at, &st);
		}
		ret = inuse_add_open(s, cap, from, &st, OPEN_MAP, proc, pid, comm, remote);
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * What descriptor name of process pid (in its fd directory dirfd) has open, as stat()
 * says; but for a file on a network or FUSE mount, from the mount table and fdinfo
 * (mnt_id, ino) alone, since a stat() there waits for a server that may never answer,
 * and its path (the link, which asks no file system) into remote ("" otherwise). false
 * when it cannot be known.
 */
static bool fd_stat(const struct inuse_snapshot *s, const char *proc, const char *pid, int dirfd,
		    const char *name, struct stat *st, char remote[PATH_MAX])
{
	ssize_t n;
	char path[PATH_MAX], line[128];
	const struct remote_mnt *r = NULL;
	unsigned long long ino = 0;
	int id = -1;
	FILE *f;

	fmt_str(path, sizeof(path), "%s/%s/fdinfo/%s", proc, pid, name);
	f = s->nremote ? fopen(path, "re") : NULL;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %d", &id) != 1)
			sscanf(line, "ino: %llu", &ino);
	if (f)
		fclose(f);
	if (id >= 0)
		r = inuse_remote_by_id(s, id);
	remote[0] = '\0';
	if (!r) {
		char link[PATH_MAX];
		if (fstatat(dirfd, name, st, 0))
			return false;
		/* a file on an overlay: the one in its upper or lower directory */
		if (inuse_overlay_dev(s, st->st_dev) &&
		    (n = readlinkat(dirfd, name, link, sizeof(link) - 1)) > 0) {
			link[n] = '\0';
			inuse_overlay_real(s, link, st);
		}
		return true;
	}
	n = readlinkat(dirfd, name, remote, PATH_MAX - 1);
	remote[n > 0 ? n : 0] = '\0';
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFREG;
	st->st_dev = r->dev;
	st->st_ino = (ino_t)ino;
	return ino != 0; /* a kernel before 5.14 says no inode: nothing to match */
}

/* The next process directory in pd other than self's, or NULL. */
static const char *next_pid(DIR *pd, const char *self)
{
	struct dirent *pe;

	while ((pe = readdir(pd)))
		if (pe->d_name[0] >= '1' && pe->d_name[0] <= '9' &&
		    !pe->d_name[strspn(pe->d_name, "0123456789")] && strcmp(pe->d_name, self))
			return pe->d_name;
	return NULL;
}

/*
 * The descriptors open for writing in the table of process pid at table ("PID" or
 * "PID/task/TID"), as inuse_add_open() takes them; *rings set when one is an io_uring.
 */
static int load_fds(struct inuse_snapshot *s, size_t *cap, size_t from, const char *proc,
		    const char *pid, const char *table, char *comm, bool *rings)
{
	char fddir[PATH_MAX];
	struct dirent *fe;
	int ret = 0;
	DIR *fd;

	fmt_str(fddir, sizeof(fddir), "%s/%s/fd", proc, table);
	fd = opendir(fddir);
	if (fd && !comm[0] && strcmp(pid, table))
		read_comm(proc, pid, comm, 32); /* the process's name, not the thread's */
	while (fd && !ret && (fe = readdir(fd))) {
		struct stat lst, st;
		char link[PATH_MAX];
		if (fe->d_name[0] == '.' ||
		    fstatat(dirfd(fd), fe->d_name, &lst, AT_SYMLINK_NOFOLLOW) ||
		    !(lst.st_mode & S_IWUSR))
			continue;
		if (inuse_is_ring(dirfd(fd), fe->d_name))
			*rings = true; /* read once its descriptors and mappings are in */
		else if (fd_stat(s, proc, table, dirfd(fd), fe->d_name, &st, link))
			ret = inuse_add_open(s, cap, from, &st, OPEN_FD, proc, pid, comm, link);
	}
	if (fd)
		closedir(fd);
	return ret;
}

/*
 * Every other process's descriptors open for writing (in each of its descriptor tables),
 * shared writable mappings, and files registered in its io_uring instances, on a block
 * device or a regular file. A descriptor's link in /proc/PID/fd carries its access mode
 * in its own permission bits (l-wx or lrwx for writing), so only those are followed; a
 * ring's is always lrwx. Processes that end or are not ours to see meanwhile are skipped.
 */
static int load_opens(struct inuse_snapshot *s, const char *proc)
{
	char self[32], table[96];
	const char *pid;
	size_t cap = 0;
	int ret = 0;
	DIR *pd = opendir(proc);

	if (!pd)
		return 0;
	fmt_str(self, sizeof(self), "%ld", (long)getpid());
	while (!ret && (pid = next_pid(pd, self))) {
		char comm[32] = "";
		size_t from = s->nopens;
		bool rings = false;
		struct inuse_tables t;

		inuse_tables_start(&t, proc, pid);
		while (inuse_next_table(&t, table, sizeof(table)))
			if (!ret)
				ret = load_fds(s, &cap, from, proc, pid, table, comm, &rings);
		if (!ret)
			ret = load_maps(s, &cap, from, proc, pid, comm);
		inuse_tables_start(&t, proc, pid);
		while (rings && inuse_next_table(&t, table, sizeof(table)))
			if (!ret)
				ret = inuse_load_rings(s, &cap, from, proc, table, comm);
	}
	closedir(pd);
	return ret;
}

/* The sysfs directory of the NVMe controller whose character device is ctrl, in path. */
static bool controller_dir(const struct inuse_snapshot *s, dev_t ctrl, char *path, size_t len)
{
	char dir[PATH_MAX];
	struct dirent *de;
	bool found = false;
	dev_t dev;
	DIR *d;

	fmt_str(dir, sizeof(dir), "%s/class/nvme", s->sys);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		fmt_str(path, len, "%s/%s", dir, de->d_name);
		found = de->d_name[0] != '.' && !probe_read_dev(path, &dev) && dev == ctrl;
	}
	closedir(d);
	return found;
}

static int add_export_dev(struct inuse_snapshot *s, size_t *cap, dev_t dev, const char *who)
{
	struct stat st = {.st_mode = S_IFBLK, .st_rdev = dev};

	return inuse_add_open(s, cap, 0, &st, OPEN_EXPORT, NULL, NULL, (char *)who, NULL);
}

/*
 * An NVMe controller exported whole (nvmet passthru, by its character device): every
 * namespace of it, as sysfs puts them in the controller's directory (nvme0n1, or with
 * multipath the path device nvme0c0n1 and its head nvme0n1).
 */
static int add_controller(struct inuse_snapshot *s, size_t *cap, dev_t ctrl, const char *who)
{
	char path[PATH_MAX], head[64];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	if (!controller_dir(s, ctrl, path, sizeof(path)) || !(d = opendir(path)))
		return 0;
	while (!ret && (de = readdir(d))) {
		const struct blk_entry *e = inuse_blk_by_name(s, de->d_name), *h = NULL;
		const char *c =
			e && !strncmp(de->d_name, "nvme", 4) ? strchr(de->d_name + 4, 'c') : NULL;
		if (!e)
			continue;
		/* "nvme0c0n1" is a path of the namespace whose device is "nvme0n1" */
		if (c && strchr(c, 'n')) {
			fmt_str(head, sizeof(head), "%.*s%s", (int)(c - de->d_name), de->d_name,
				strchr(c, 'n'));
			h = inuse_blk_by_name(s, head);
		}
		ret = add_export_dev(s, cap, e->dev, who);
		if (!ret && h)
			ret = add_export_dev(s, cap, h->dev, who);
	}
	closedir(d);
	return ret;
}

/*
 * The enabled export in dir: its device_path or udev_path, added as by who. A LIO
 * backstore made without targetcli has no udev_path; a fileio one names its file in
 * info ("... File: /srv/disk.img  Size: ...").
 */
static int add_export(struct inuse_snapshot *s, size_t *cap, const char *dir, const char *attr,
		      const char *who)
{
	char path[PATH_MAX], flag[8], info[1024];
	struct stat st;
	const char *f;

	/* disabled, or read-only (a USB gadget's LUN); an export without enable is open */
	if ((!probe_read_attr(dir, "enable", flag, sizeof(flag)) && strcmp(flag, "1")) ||
	    (!probe_read_attr(dir, "ro", flag, sizeof(flag)) && !strcmp(flag, "1")))
		return 0;
	if ((probe_read_attr(dir, attr, path, sizeof(path)) || !path[0]) &&
	    !probe_read_attr(dir, "info", info, sizeof(info)) && (f = strstr(info, " File: ")))
		fmt_str(path, sizeof(path), "%.*s", (int)strcspn(f + 7, " \t\n"), f + 7);
	if (path[0] != '/' || inuse_remote_path(s, path) || stat(path, &st))
		return 0; /* not a path, or one a stat() could wait on forever */
	if (S_ISCHR(st.st_mode))
		return add_controller(s, cap, st.st_rdev, who);
	return inuse_add_open(s, cap, 0, &st, OPEN_EXPORT, NULL, NULL, (char *)who, NULL);
}

/* Subdirectories of dir, one at a time: NULL at the end (dir closed). */
static const char *next_dir(DIR **d)
{
	struct dirent *e;

	while (*d && (e = readdir(*d)))
		if (e->d_name[0] != '.' && (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN))
			return e->d_name;
	if (*d)
		closedir(*d);
	*d = NULL;
	return NULL;
}

/*
 * A USB gadget's mass-storage LUNs (usb_gadget/G/functions/mass_storage.F/lun.N/file):
 * the file is open from the moment it is named, bound to a controller or not.
 */
static int load_gadget_luns(struct inuse_snapshot *s, size_t *cap)
{
	char dir[PATH_MAX], fn[PATH_MAX + 256], lun[PATH_MAX + 512], who[160];
	const char *g, *f, *l;
	DIR *dg, *df, *dl;
	int ret = 0;

	fmt_str(dir, sizeof(dir), "%s/kernel/config/usb_gadget", s->sys);
	dg = opendir(dir);
	while (!ret && (g = next_dir(&dg))) {
		fmt_str(fn, sizeof(fn), "%s/%s/functions", dir, g);
		df = opendir(fn);
		while (!ret && (f = next_dir(&df))) {
			if (strncmp(f, "mass_storage.", 13))
				continue;
			fmt_str(lun, sizeof(lun), "%s/%s", fn, f);
			dl = opendir(lun);
			while (!ret && (l = next_dir(&dl))) {
				char at[PATH_MAX + 768];
				fmt_str(at, sizeof(at), "%s/%s", lun, l);
				fmt_str(who, sizeof(who), "USB gadget %s %s %s", g, f, l);
				ret = add_export(s, cap, at, "file", who);
			}
			if (dl)
				closedir(dl);
		}
		if (df)
			closedir(df);
	}
	if (dg)
		closedir(dg);
	return ret;
}

/*
 * Kernel exporters, which open what they export for writing without claiming it, as
 * configfs (under sys/kernel/config) shows them enabled: NVMe-oF target namespaces
 * (nvmet: subsystems/S/namespaces/N/device_path) and whole controllers
 * (subsystems/S/passthru/device_path, a character device), LIO backstores
 * (target/core/HBA/NAME/udev_path; an iblock one also claims its device) and USB gadget
 * mass-storage LUNs.
 */
static int load_exports(struct inuse_snapshot *s)
{
	static const struct {
		const char *top, *sub, *attr, *what, *between;
	} trees[] = {
		{"nvmet/subsystems", "/namespaces", "device_path", "nvmet subsystem ",
		 " namespace "},
		{"target/core", "", "udev_path", "LIO backstore ", "/"},
	};
	char dir[PATH_MAX], sub[PATH_MAX + 256], ns[PATH_MAX + 512], who[160];
	size_t cap = s->nopens;
	int ret = 0;

	for (size_t t = 0; !ret && t < sizeof(trees) / sizeof(trees[0]); t++) {
		const char *a, *b;
		DIR *da, *db;
		fmt_str(dir, sizeof(dir), "%s/kernel/config/%s", s->sys, trees[t].top);
		da = opendir(dir);
		while (!ret && (a = next_dir(&da))) {
			fmt_str(sub, sizeof(sub), "%s/%s%s", dir, a, trees[t].sub);
			db = opendir(sub);
			while (!ret && (b = next_dir(&db))) {
				fmt_str(ns, sizeof(ns), "%s/%s", sub, b);
				fmt_str(who, sizeof(who), "%s%s%s%s", trees[t].what, a,
					trees[t].between, b);
				ret = add_export(s, &cap, ns, trees[t].attr, who);
			}
			if (db)
				closedir(db);
			/* a whole controller passed through */
			fmt_str(ns, sizeof(ns), "%s/%s/passthru", dir, a);
			fmt_str(who, sizeof(who), "nvmet subsystem %s (passthru)", a);
			if (!ret && t == 0)
				ret = add_export(s, &cap, ns, "device_path", who);
		}
		if (da)
			closedir(da);
	}
	return ret ? ret : load_gadget_luns(s, &cap);
}

bool inuse_dev_in(const dev_t *set, size_t n, dev_t d)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == d)
			return true;
	return false;
}

/*
 * The root device, the other devices of the root file system (a btrfs's members, an xfs
 * log) and, through slaves/, every device they are built on (dm over md ...).
 */
static int load_root_closure(struct inuse_snapshot *s)
{
	size_t cap = 8;

	if (!s->have_root || major(s->root_dev) == 0)
		return 0;
	s->root_under = malloc(cap * sizeof(dev_t));
	if (!s->root_under)
		return -ENOMEM;
	s->root_under[s->nroot_under++] = s->root_dev;
	for (size_t m = 0; m < s->nmounts; m++) {
		const struct mount_ent *me = &s->mounts[m];
		if (!me->mnt || strcmp(me->mnt, "/") || me->where[0] ||
		    inuse_dev_in(s->root_under, s->nroot_under, me->dev))
			continue;
		if (GROW(s->root_under, s->nroot_under, cap, 8))
			return -ENOMEM;
		s->root_under[s->nroot_under++] = me->dev;
	}
	for (size_t i = 0; i < s->nroot_under; i++) {
		const struct blk_entry *e = inuse_blk_by_dev(s, s->root_under[i]);
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
								  : inuse_blk_by_name(s, de->d_name);
			if (!sl || inuse_dev_in(s->root_under, s->nroot_under, sl->dev))
				continue;
			if (GROW(s->root_under, s->nroot_under, cap, 8)) {
				closedir(dir);
				return -ENOMEM;
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
	for (size_t i = 0; i < s->nblk; i++)
		free(s->blk[i].backing_path);
	for (size_t i = 0; i < s->nremote; i++) {
		free(s->remote[i].at);
		free(s->remote[i].root);
		free(s->remote[i].source);
		free(s->remote[i].server);
	}
	for (size_t i = 0; i < s->nopens; i++)
		free(s->opens[i].path);
	inuse_free_overlays(s);
	inuse_free_file_mounts(s);
	free(s->mounts);
	free(s->swaps);
	free(s->blk);
	free(s->root_under);
	free(s->opens);
	free(s->remote);
	free(s);
}

int inuse_snapshot_take(struct inuse_snapshot **out, const struct inuse_roots *roots,
			char *err, size_t errlen)
{
	const char *proc = roots && roots->proc ? roots->proc : "/proc";
	const char *sys = roots && roots->sys ? roots->sys : "/sys";
	struct inuse_snapshot *s = calloc(1, sizeof(*s));
	size_t mcap = 0;
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
	ret = inuse_load_mounts(s, proc, &mcap, err, errlen);
	if (!ret)
		inuse_resolve_backing(s);
	if (!ret && (ret = inuse_load_btrfs(s, &mcap) ?: inuse_load_live_fs(s, &mcap, proc)))
		fmt_str(err, errlen, "%s/fs: out of memory", sys);
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
	ret = load_opens(s, proc);
	if (!ret)
		ret = load_exports(s);
	if (ret) {
		fmt_str(err, errlen, "%s: out of memory", proc);
		goto fail;
	}
	*out = s;
	return 0;
fail:
	inuse_snapshot_free(s);
	return ret;
}

void inuse_openers(dev_t dev, const struct inuse_roots *roots, char *buf, size_t len)
{
	const char *proc = roots && roots->proc ? roots->proc : "/proc";
	size_t used = 0;
	unsigned n = 0;
	char self[32];
	const char *pid;
	DIR *pd = opendir(proc);

	buf[0] = '\0';
	if (!pd)
		return;
	fmt_str(self, sizeof(self), "%ld", (long)getpid());
	while ((pid = next_pid(pd, self))) {
		char fddir[PATH_MAX], comm[32] = "", table[96];
		struct inuse_tables t;
		bool has = false;

		inuse_tables_start(&t, proc, pid);
		while (inuse_next_table(&t, table, sizeof(table))) {
			struct dirent *fe;
			DIR *fd;
			fmt_str(fddir, sizeof(fddir), "%s/%s/fd", proc, table);
			fd = has ? NULL : opendir(fddir);
			while (fd && !has && (fe = readdir(fd))) {
				char link[16];
				ssize_t got = readlinkat(dirfd(fd), fe->d_name, link, sizeof(link));
				struct stat st;
				/* device nodes are under /dev: nothing elsewhere is asked (a
				   stat() on a network mount could wait forever) */
				has = got >= 5 && !memcmp(link, "/dev/", 5) &&
				      !fstatat(dirfd(fd), fe->d_name, &st, 0) &&
				      S_ISBLK(st.st_mode) && st.st_rdev == dev;
			}
			if (fd)
				closedir(fd);
		}
		if (!has)
			continue;
		if (n++ < 4) {
			read_comm(proc, pid, comm, sizeof(comm));
			fmt_str(buf + used, len - used, "%s%s (pid %s)", used ? ", " : "", comm,
				pid);
			used += strlen(buf + used);
		}
	}
	closedir(pd);
	if (n > 4)
		fmt_str(buf + used, len - used, " and %u more", n - 4);
}

int inuse_check_file(dev_t dev, ino_t ino, const char *path, const struct inuse_roots *roots,
		     struct inuse *out, char *err, size_t errlen)
{
	struct inuse_snapshot *s;
	int ret = inuse_snapshot_take(&s, roots, err, errlen);

	if (ret)
		return ret;
	ret = inuse_snapshot_check_file(s, dev, ino, path, out);
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
