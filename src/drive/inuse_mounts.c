// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mounts of the in-use snapshot: every block device a mounted file system is on.
 *
 * mountinfo's major:minor is the device of a file system on one block device (ext4, xfs
 * on a disk). A file system that can span several (btrfs, bcachefs) shows an anonymous
 * number there (0:N), as file systems on no device do. For those the devices are found as
 * lsblk finds them through libmount, by the source field (each of "/dev/a:/dev/b"), and
 * for btrfs as the kernel lists them in sys/fs/btrfs/FSID/devices: every member of a
 * mounted btrfs, whichever one was named at mount, and even when its mount point is not
 * in this mount namespace. XFS names its external log and realtime devices in the super
 * options (logdev=, rtdev=); those devices are mounted as much as the data device.
 * A device mounted only in another mount namespace (a container's, a service's) is
 * mounted too: findmnt --task's view, for every namespace a process of is visible.
 */
#include "inuse.h"
#include "inuse_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drive_probe.h"
#include "grow.h"
#include "text.h"

#define BTRFS_MEMBERS_MAX 256 /* devices of one btrfs followed; more are not looked at */

/* A mount of dev on mnt (owned; NULL: its mount point is not visible here). */
static int add_mount(struct inuse_snapshot *s, size_t *cap, dev_t dev, char *mnt,
		     const char *fstype, const char *role)
{
	struct mount_ent *m;

	if (GROW(s->mounts, s->nmounts, *cap, 32)) {
		free(mnt);
		return -ENOMEM;
	}
	m = &s->mounts[s->nmounts++];
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	m->mnt = mnt;
	text_copy(m->fstype, sizeof(m->fstype), fstype);
	text_copy(m->role, sizeof(m->role), role);
	return 0;
}

static int add_mount_at(struct inuse_snapshot *s, size_t *cap, dev_t dev, const char *mnt,
			const char *fstype, const char *role)
{
	/* for messages only: the visible form of a name anyone may choose */
	char *copy = text_visible_dup(mnt);

	return copy ? add_mount(s, cap, dev, copy, fstype, role) : -ENOMEM;
}

/*
 * The block device a source path names: the running kernel's node, or in a fixture's
 * sysfs the device of that last name. The name is the mounter's (or the path btrfs
 * scanned), so it stands only where the kernel gives no number, and only under /dev
 * (no ".." out of it): a path elsewhere is no node, and may be on a network file system
 * that hangs a stat().
 */
static bool source_dev(const struct inuse_snapshot *s, const char *path, dev_t *dev)
{
	const struct blk_entry *e;
	const char *base = strrchr(path, '/');
	struct stat st;

	if (path[0] != '/')
		return false;
	if (s->real_sys) {
		if (strncmp(path, "/dev/", 5) || strstr(path, "/..") || stat(path, &st) ||
		    !S_ISBLK(st.st_mode))
			return false;
		*dev = st.st_rdev;
		return true;
	}
	e = strchr(path, ':') ? NULL : inuse_blk_by_name(s, base + 1);
	if (!e)
		return false;
	*dev = e->dev;
	return true;
}

/* The devices of a mount with an anonymous number, from its source ("/dev/a:/dev/b"). */
static int add_sources(struct inuse_snapshot *s, size_t *cap, char *source, const char *mnt,
		       const char *fstype, dev_t *first)
{
	char *save = NULL;
	int ret = 0;
	dev_t dev;

	if (source[0] != '/')
		return 0;
	if (source_dev(s, source, &dev)) { /* one path, though it may hold ':' (by-path) */
		*first = dev;
		return add_mount_at(s, cap, dev, mnt, fstype, "");
	}
	/* every piece must be a path: "host:/export" (NFS) names no device here */
	for (char *p = source; *p; p++)
		if (*p == ':' && p[1] != '/')
			return 0;
	for (char *piece = strtok_r(source, ":", &save); !ret && piece;
	     piece = strtok_r(NULL, ":", &save)) {
		if (!source_dev(s, piece, &dev))
			continue;
		if (!*first)
			*first = dev;
		ret = add_mount_at(s, cap, dev, mnt, fstype, "");
	}
	return ret;
}

/* XFS's external log and realtime devices, named in its super options. */
static int add_option_devices(struct inuse_snapshot *s, size_t *cap, char *opts, const char *mnt,
			      const char *fstype)
{
	static const struct {
		const char *key, *role;
	} keys[] = {{"logdev=", "external log"}, {"rtdev=", "realtime device"}};
	char *save = NULL, role[96], shown[32];
	int ret = 0;

	for (char *o = strtok_r(opts, ",", &save); !ret && o; o = strtok_r(NULL, ",", &save))
		for (size_t k = 0; !ret && k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t klen = strlen(keys[k].key);
			dev_t dev;
			if (strncmp(o, keys[k].key, klen))
				continue;
			inuse_unescape(o + klen);
			if (!source_dev(s, o + klen, &dev))
				continue;
			/* a FUSE subtype is the mounter's to name: its visible form */
			text_visible(shown, sizeof(shown), fstype);
			text_fmt(role, sizeof(role), "the %s file system's %s", shown,
				 keys[k].role);
			ret = add_mount_at(s, cap, dev, mnt, fstype, role);
		}
	return ret;
}

static void keep_foreign(struct inuse_snapshot *s, size_t ours, size_t from, const char *where);

/* A file system whose server can stop answering, hanging a stat() of a file on it. */
static bool is_remote(const char *fstype)
{
	static const char *const remote[] = {"nfs",  "nfs4",	  "cifs", "smb3",   "smbfs",
					     "ceph", "9p",	  "afs",  "lustre", "ncpfs",
					     "coda", "glusterfs", NULL};

	if (!strncmp(fstype, "fuse", 4))
		return true; /* fuse, fuseblk, fuse.sshfs...: a daemon answers */
	for (size_t i = 0; remote[i]; i++)
		if (!strcmp(fstype, remote[i]))
			return true;
	return false;
}

char *inuse_mount_option(const char *opts, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == '=') {
			char *v = strndup(p + k + 1, strcspn(p + k + 1, ","));
			if (v)
				inuse_unescape(v);
			return v;
		}
	return NULL;
}

/*
 * source with its server named by the address the kernel connected to (opts' "addr="),
 * as a string to free, or NULL: "nas:/export" and "10.0.0.5:/export" are one export when
 * nas is 10.0.0.5, which the mount table says and no name lookup has to. NFS names a
 * server "host:/path" ("[fe80::1]:/path"), CIFS "//host/share".
 */
static char *by_address(const char *source, const char *opts)
{
	char *addr = inuse_mount_option(opts, "addr"), *out = NULL;
	const char *path = NULL;

	if (!addr || !*addr)
		goto done;
	if (!strncmp(source, "//", 2))
		path = strchr(source + 2, '/');
	else if (source[0] == '[')
		path = strstr(source, "]:") ? strstr(source, "]:") + 1 : NULL;
	else
		path = strchr(source, ':');
	if (path && asprintf(&out, "%s%s%s", source[0] == '/' ? "//" : "", addr, path) < 0)
		out = NULL;
done:
	free(addr);
	return out;
}

/*
 * root: what of the file system is mounted; at: where, in its own namespace's terms;
 * source: the server's export ("srv:/export"), kept for a network file system (a FUSE
 * daemon's source names nothing), with opts, its super options (the server's address)
 */
static int add_remote(struct inuse_snapshot *s, size_t *rcap, const char *id, unsigned maj,
		      unsigned min, const char *root, const char *at, const char *fstype,
		      const char *source, const char *opts)
{
	struct remote_mnt *r;

	if (GROW(s->remote, s->nremote, *rcap, 16))
		return -ENOMEM;
	r = &s->remote[s->nremote];
	*r = (struct remote_mnt){.id = atoi(id), .dev = makedev(maj, min)};
	s->nremote++; /* freed with the snapshot, whole or not */
	if ((at && !(r->at = strdup(at))) || !(r->root = strdup(root)))
		return -ENOMEM;
	if (!source || !strncmp(fstype, "fuse", 4))
		return 0;
	if (!(r->source = strdup(source)))
		return -ENOMEM;
	r->server = opts ? by_address(source, opts) : NULL; /* NULL on no memory: by name */
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct remote_mnt *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

const struct remote_mnt *inuse_remote_by_id(const struct inuse_snapshot *s, int id)
{
	struct remote_mnt key = {.id = id};

	return s->nremote ? bsearch(&key, s->remote, s->nremote, sizeof(key), by_id) : NULL;
}

bool inuse_remote_dev(const struct inuse_snapshot *s, dev_t dev)
{
	for (size_t i = 0; i < s->nremote; i++)
		if (s->remote[i].dev == dev)
			return true;
	return false;
}

/* What of path is below remote mount r, if path is on or through it: "" or "/x/y". */
static const char *below(const struct remote_mnt *r, const char *path)
{
	size_t n = r->at ? strlen(r->at) : 0;

	if (n > 1 && !strncmp(path, r->at, n) && (path[n] == '/' || path[n] == '\0'))
		return path + n;
	return NULL;
}

/*
 * A path through a remote mount point, even to a local mount below it, crosses it. The
 * kernel shows a path in another mount namespace in that namespace's terms (a loop
 * device set up in a container over a file on its NFS volume), so every namespace's
 * remote mounts count; nodes under /dev are devtmpfs's, in every namespace. A remote
 * "/" does not count: another namespace's (a rootless container's fuse-overlayfs) would
 * cover every path, and when this host's own root server is gone, so is the host.
 */
const struct remote_mnt *inuse_remote_path(const struct inuse_snapshot *s, const char *path)
{
	if (!strncmp(path, "/dev/", 5) && !strstr(path, "/.."))
		return NULL;
	for (size_t i = 0; i < s->nremote; i++)
		if (below(&s->remote[i], path))
			return &s->remote[i];
	return NULL;
}

/*
 * What is below mount r (rest) as a path from its file system's root: what r mounts, then
 * rest; with by_source, from the server's ("srv:/export" + "/sub" + "/img").
 */
static bool fs_path(const struct remote_mnt *r, const char *pre, const char *rest, char *buf,
		    size_t len)
{
	size_t n = strlen(pre);

	if (n > 1 && pre[n - 1] == '/')
		n--;
	return (size_t)snprintf(buf, len, "%.*s%s%s", (int)n, pre,
				strcmp(r->root, "/") ? r->root : "", rest) < len;
}

static bool same_path(const struct remote_mnt *r, const char *rpre, const char *rest,
		      const struct remote_mnt *q, const char *qpre, const char *qrest)
{
	char a[2 * PATH_MAX], b[2 * PATH_MAX];

	return rpre && qpre && fs_path(r, rpre, rest, a, sizeof(a)) &&
	       fs_path(q, qpre, qrest, b, sizeof(b)) && !strcmp(a, b);
}

/*
 * One file through mounts r and q: the same path from the root of one file system (one
 * device number), or, for a network file system mounted twice with options that keep the
 * kernel from sharing one (nosharecache, another rsize, a container's own mount), the
 * same path from the same server's export, the server named as either mount names it or
 * by its address.
 */
static bool same_in_fs(const struct remote_mnt *r, const char *rest, const struct remote_mnt *q,
		       const char *qrest)
{
	if (r->dev == q->dev)
		return same_path(r, "", rest, q, "", qrest);
	return same_path(r, r->source, rest, q, q->source, qrest) ||
	       same_path(r, r->server, rest, q, q->server, qrest);
}

/*
 * Every remote mount either path is on or through is taken as what holds it: with a mount
 * stacked on a directory of another, or another namespace's mount at the same place, the
 * path does not say which, and taking each errs toward seeing the file in use.
 */
bool inuse_remote_alias(const struct inuse_snapshot *s, const char *a, const char *b)
{
	for (size_t i = 0; i < s->nremote; i++) {
		const char *ra = below(&s->remote[i], a);
		for (size_t j = 0; ra && j < s->nremote; j++) {
			const char *rb = below(&s->remote[j], b);
			if (rb && same_in_fs(&s->remote[i], ra, &s->remote[j], rb))
				return true;
		}
	}
	return false;
}

/*
 * A mount whose source is a path other than a device node's (under /dev): a file system
 * mounted straight from a file (erofs over an image, with no loop device), if what the
 * path names is a regular file, which inuse_resolve_file_mounts() finds out once every
 * namespace's remote mounts are known. root: "PROC/PID/root" for another namespace's.
 */
static int add_file_source(struct inuse_snapshot *s, const char *source, const char *mnt,
			   const char *fstype, const char *where, const char *root)
{
	struct file_mount *m;

	if (source[0] != '/' || (!strncmp(source, "/dev/", 5) && !strstr(source, "/..")) ||
	    is_remote(fstype) || !strcmp(fstype, "overlay"))
		return 0;
	if (GROW(s->fmounts, s->nfmounts, s->fmcap, 8))
		return -ENOMEM;
	m = &s->fmounts[s->nfmounts++];
	*m = (struct file_mount){0};
	text_copy(m->fstype, sizeof(m->fstype), fstype);
	text_copy(m->where, sizeof(m->where), where ? where : "");
	m->path = strdup(source);
	m->shown = text_visible_dup(source);
	m->mnt = text_visible_dup(mnt);
	m->root = root ? strdup(root) : NULL;
	return m->path && m->shown && m->mnt && (!root || m->root) ? 0 : -ENOMEM;
}

void inuse_free_file_mounts(struct inuse_snapshot *s)
{
	for (size_t i = 0; i < s->nfmounts; i++) {
		free(s->fmounts[i].path);
		free(s->fmounts[i].shown);
		free(s->fmounts[i].mnt);
		free(s->fmounts[i].root);
	}
	free(s->fmounts);
	s->fmounts = NULL;
	s->nfmounts = s->fmcap = 0;
}

/* What the source of m names, as a file: false when it is no regular file now. */
static bool file_source(const struct inuse_snapshot *s, struct file_mount *m)
{
	const struct remote_mnt *r = inuse_remote_path(s, m->path);
	char at[PATH_MAX];
	struct stat st;

	if (r) { /* known by its path alone: a stat() there could wait for ever */
		m->dev = r->dev;
		m->ino = 0;
		return true;
	}
	if ((size_t)snprintf(at, sizeof(at), "%s%s", m->root ? m->root : "", m->path) >=
		    sizeof(at) ||
	    stat(at, &st) || !S_ISREG(st.st_mode))
		return false;
	if (inuse_overlay_dev(s, st.st_dev))
		inuse_overlay_real(s, m->path, &st);
	m->dev = st.st_dev;
	m->ino = st.st_ino;
	return true;
}

/*
 * Each source that names a regular file is kept; another namespace's mount of a file is
 * kept when this namespace has no mount of it, each mount point once and no more of one
 * file than a check says reasons (as keep_foreign() does for devices).
 */
void inuse_resolve_file_mounts(struct inuse_snapshot *s)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->nfmounts; i++) {
		struct file_mount *m = &s->fmounts[i];
		bool drop = !file_source(s, m);
		unsigned same = 0;
		for (size_t k = 0; !drop && m->where[0] && k < kept; k++) {
			const struct file_mount *o = &s->fmounts[k];
			if (!inuse_same_file(s, o->dev, o->ino, o->path, m->dev, m->ino, m->path))
				continue;
			drop = !o->where[0] || ++same >= INUSE_MAX_REASONS ||
			       !strcmp(o->mnt, m->mnt);
		}
		if (drop) {
			free(m->path);
			free(m->shown);
			free(m->mnt);
			free(m->root);
			continue;
		}
		s->fmounts[kept++] = *m;
	}
	s->nfmounts = kept;
}

/*
 * The mounts in mountinfo f: this namespace's when where is NULL ("/" is the root file
 * system), else those of the namespace where names, kept as keep_foreign() says line by
 * line (ours: how many of the mounts are this namespace's).
 */
static int parse_mountinfo(struct inuse_snapshot *s, size_t *cap, FILE *f, const char *where,
			   const char *root, size_t ours, size_t *rcap)
{
	char *line = NULL;
	size_t linecap = 0;
	int ret = 0;

	while (!ret && getline(&line, &linecap, f) > 0) {
		/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=..." */
		char *save = NULL, *field[5], *fstype = NULL, *source = NULL, *opts = NULL;
		size_t from = s->nmounts;
		unsigned maj, min;
		dev_t dev = 0;
		int i;

		field[0] = strtok_r(line, " \n", &save);
		for (i = 1; i < 5 && field[i - 1]; i++)
			field[i] = strtok_r(NULL, " \n", &save);
		if (i < 5 || !field[4] || sscanf(field[2], "%u:%u", &maj, &min) != 2)
			continue;
		for (char *t; (t = strtok_r(NULL, " \n", &save));)
			if (!strcmp(t, "-")) {
				fstype = strtok_r(NULL, " \n", &save);
				source = fstype ? strtok_r(NULL, " \n", &save) : NULL;
				opts = source ? strtok_r(NULL, " \n", &save) : NULL;
				break;
			}
		inuse_unescape(field[3]);
		inuse_unescape(field[4]);
		if (source)
			inuse_unescape(source);
		if (fstype && is_remote(fstype) &&
		    (ret = add_remote(s, rcap, field[0], maj, min, field[3], field[4], fstype,
				      source, opts)))
			break;
		if (fstype && opts && !strcmp(fstype, "overlay") &&
		    (ret = inuse_add_overlay(s, maj, min, field[3], field[4], opts)))
			break;
		if (maj != 0) {
			dev = makedev(maj, min);
			ret = add_mount_at(s, cap, dev, field[4], fstype ? fstype : "", "");
		} else if (source && fstype) {
			ret = add_sources(s, cap, source, field[4], fstype, &dev);
		}
		if (!ret && opts && fstype)
			ret = add_option_devices(s, cap, opts, field[4], fstype);
		if (!ret && source && fstype)
			ret = add_file_source(s, source, field[4], fstype, where, root);
		if (!where && !strcmp(field[4], "/")) {
			s->have_root = true;
			s->root_dev = dev ? dev : makedev(maj, min);
		}
		if (where)
			keep_foreign(s, ours, from, where);
	}
	free(line);
	return ret;
}

/*
 * The mounts of [from, nmounts) were just read from another mount namespace, where they
 * are known as what where says: keep those of devices this namespace has no mount of,
 * each mount point once and no more of one device than a check says reasons. So a
 * namespace with a hundred thousand bind mounts costs a pass over them, not their square.
 */
static void keep_foreign(struct inuse_snapshot *s, size_t ours, size_t from, const char *where)
{
	size_t kept = from;

	for (size_t i = from; i < s->nmounts; i++) {
		struct mount_ent *m = &s->mounts[i];
		unsigned same = 0;
		bool drop = false;
		for (size_t k = 0; !drop && k < kept; k++) {
			if (s->mounts[k].dev != m->dev)
				continue;
			same += k >= ours;
			drop = k < ours || same >= INUSE_MAX_REASONS ||
			       (m->mnt && s->mounts[k].mnt && !strcmp(s->mounts[k].mnt, m->mnt));
		}
		if (drop) {
			free(m->mnt);
			continue;
		}
		text_copy(m->where, sizeof(m->where), where);
		s->mounts[kept++] = *m;
	}
	s->nmounts = kept;
}

#define NAMESPACES_MAX 4096 /* other mount namespaces read; more are not looked at */

struct mnt_ns {
	char id[64]; /* "mnt:[4026532999]" */
	long pid;    /* its lowest process: a container's init, a service's main process */
};

/* Every mount namespace but ours that a process in proc is in, each with its lowest pid. */
static size_t other_namespaces(const char *proc, struct mnt_ns *ns)
{
	char path[PATH_MAX], self[64], id[64];
	struct dirent *de;
	size_t n = 0;
	ssize_t len;
	DIR *d;

	probe_fmt(path, sizeof(path), "%s/self/ns/mnt", proc);
	len = readlink(path, self, sizeof(self) - 1);
	if (len <= 0 || !(d = opendir(proc)))
		return 0;
	self[len] = '\0';
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		size_t i = 0;
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || *end)
			continue;
		probe_fmt(path, sizeof(path), "%s/%s/ns/mnt", proc, de->d_name);
		len = readlink(path, id, sizeof(id) - 1);
		if (len <= 0)
			continue;
		id[len] = '\0';
		while (i < n && strcmp(ns[i].id, id))
			i++;
		if (!strcmp(id, self) || (i == n && n == NAMESPACES_MAX))
			continue;
		if (i == n) {
			text_copy(ns[n].id, sizeof(ns[n].id), id);
			ns[n++].pid = pid;
		} else if (pid < ns[i].pid) {
			ns[i].pid = pid;
		}
	}
	closedir(d);
	return n;
}

/*
 * Mounts in other mount namespaces (a container's, a service's with private mounts,
 * `unshare -m`): one process's mountinfo for each namespace other than ours, as far as
 * /proc lets us see them (root sees all).
 */
static int load_other_namespaces(struct inuse_snapshot *s, size_t *cap, const char *proc,
				 size_t *rcap)
{
	struct mnt_ns *ns = malloc(NAMESPACES_MAX * sizeof(*ns));
	char path[PATH_MAX], raw[64], comm[64], where[96], root[PATH_MAX];
	size_t n = ns ? other_namespaces(proc, ns) : 0, ours = s->nmounts;
	int ret = ns ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < n; i++) {
		FILE *f;
		probe_fmt(path, sizeof(path), "%s/%ld", proc, ns[i].pid);
		if (probe_read_attr(path, "comm", raw, sizeof(raw)))
			text_copy(raw, sizeof(raw), "?");
		text_visible(comm, sizeof(comm), raw);
		text_fmt(where, sizeof(where), "the mount namespace of %s (pid %ld)", comm,
			 ns[i].pid);
		probe_fmt(path, sizeof(path), "%s/%ld/mountinfo", proc, ns[i].pid);
		probe_fmt(root, sizeof(root), "%s/%ld/root", proc, ns[i].pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		ret = parse_mountinfo(s, cap, f, where, root, ours, rcap);
		fclose(f);
	}
	free(ns);
	return ret;
}

int inuse_load_mounts(struct inuse_snapshot *s, const char *proc, size_t *cap, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;
	int ret;

	probe_fmt(path, sizeof(path), "%s/self/mountinfo", proc);
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	size_t rcap = 0;
	ret = parse_mountinfo(s, cap, f, NULL, NULL, 0, &rcap);
	fclose(f);
	if (!ret)
		ret = load_other_namespaces(s, cap, proc, &rcap);
	if (!ret && s->nremote)
		qsort(s->remote, s->nremote, sizeof(s->remote[0]), by_id);
	if (!ret)
		inuse_resolve_file_mounts(s);
	if (ret)
		text_fmt(err, errlen, "%s: out of memory", path);
	return ret;
}

/* The members of the mounted btrfs in fsdir: their numbers into dev[], how many. */
static size_t btrfs_members(const struct inuse_snapshot *s, const char *fsdir, dev_t *dev)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	probe_fmt(path, sizeof(path), "%s/devices", fsdir);
	d = opendir(path);
	if (!d)
		return 0;
	while (n < BTRFS_MEMBERS_MAX && (de = readdir(d))) {
		const struct blk_entry *e =
			de->d_name[0] == '.' ? NULL : inuse_blk_by_name(s, de->d_name);
		if (e && !inuse_dev_in(dev, n, e->dev))
			dev[n++] = e->dev;
	}
	closedir(d);
	return n;
}

/* Every member of the btrfs in fsdir is mounted where any member is. */
static int btrfs_fs(struct inuse_snapshot *s, size_t *cap, const char *fsdir, const char *fsid)
{
	dev_t dev[BTRFS_MEMBERS_MAX];
	char label[256], shown[256], name[160], role[96];
	size_t n = btrfs_members(s, fsdir, dev), orig = s->nmounts;
	bool seen = false;
	int ret = 0;

	if (!n)
		return 0;
	if (probe_read_attr(fsdir, "label", label, sizeof(label)) || !label[0]) {
		text_fmt(name, sizeof(name), "btrfs %s", fsid);
	} else {
		/* a label is anyone's to choose: its visible form */
		text_visible(shown, sizeof(shown), label);
		text_fmt(name, sizeof(name), "btrfs '%s'", shown);
	}
	if (n > 1)
		text_fmt(role, sizeof(role), "one of %zu devices of %s", n, name);
	else
		text_fmt(role, sizeof(role), "%s", name);
	for (size_t m = 0; !ret && m < orig; m++) {
		if (strcmp(s->mounts[m].fstype, "btrfs") || !s->mounts[m].mnt ||
		    !inuse_dev_in(dev, n, s->mounts[m].dev))
			continue;
		seen = true;
		text_copy(s->mounts[m].role, sizeof(s->mounts[m].role), role);
		for (size_t k = 0; !ret && k < n; k++) {
			char *copy = dev[k] == s->mounts[m].dev ? NULL : strdup(s->mounts[m].mnt);
			if (dev[k] != s->mounts[m].dev)
				ret = copy ? add_mount(s, cap, dev[k], copy, "btrfs", role)
					   : -ENOMEM;
			if (copy && !ret)
				text_copy(s->mounts[s->nmounts - 1].where,
					  sizeof(s->mounts[0].where), s->mounts[m].where);
		}
	}
	/* in no mount table here (a lazy unmount still in use), or under a name that no
	   longer stands for it */
	for (size_t k = 0; !ret && !seen && k < n; k++)
		ret = add_mount(s, cap, dev[k], NULL, "btrfs", role);
	return ret;
}

int inuse_load_btrfs(struct inuse_snapshot *s, size_t *cap)
{
	char dir[PATH_MAX], fsdir[PATH_MAX + 256];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	probe_fmt(dir, sizeof(dir), "%s/fs/btrfs", s->sys);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "features"))
			continue;
		probe_fmt(fsdir, sizeof(fsdir), "%s/%s", dir, de->d_name);
		ret = btrfs_fs(s, cap, fsdir, de->d_name);
	}
	closedir(d);
	return ret;
}

/* d already has a mount entry, in any namespace */
static bool has_mount(const struct inuse_snapshot *s, dev_t d)
{
	for (size_t m = 0; m < s->nmounts; m++)
		if (s->mounts[m].dev == d)
			return true;
	return false;
}

/*
 * The ext4 whose external journal is on the device named jname: each live ext4's
 * sys/fs/ext4/DEV/journal_task is the pid of its journal thread, named "jbd2/" and the
 * journal device's name (an internal journal's: "jbd2/sda1-8"), cut to 15 bytes as every
 * thread name is. NULL when none says so; a cut name must match one ext4 alone.
 */
static const struct blk_entry *journal_owner(const struct inuse_snapshot *s, const char *proc,
					     const char *jname)
{
	const struct blk_entry *exact = NULL, *cut = NULL;
	unsigned nexact = 0, ncut = 0;
	char dir[PATH_MAX], pid[32], comm[32];
	struct dirent *de;
	DIR *d;

	probe_fmt(dir, sizeof(dir), "%s/fs/ext4", s->sys);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		const struct blk_entry *e = inuse_blk_by_name(s, de->d_name);
		probe_fmt(dir, sizeof(dir), "%s/fs/ext4/%s", s->sys, de->d_name);
		if (!e || probe_read_attr(dir, "journal_task", pid, sizeof(pid)) || !pid[0] ||
		    strspn(pid, "0123456789") != strlen(pid))
			continue;
		probe_fmt(dir, sizeof(dir), "%s/%s", proc, pid);
		if (probe_read_attr(dir, "comm", comm, sizeof(comm)) || strncmp(comm, "jbd2/", 5))
			continue;
		if (!strcmp(comm + 5, jname))
			exact = e, nexact++;
		else if (strlen(comm) == 15 && !strncmp(comm + 5, jname, 10))
			cut = e, ncut++;
	}
	if (d)
		closedir(d);
	return nexact == 1 ? exact : !nexact && ncut == 1 ? cut : NULL;
}

/* The journal device dev of the ext4 on fs: mounted where that is, as its journal. */
static int add_journal(struct inuse_snapshot *s, size_t *cap, dev_t dev, const struct blk_entry *fs)
{
	char role[96], *mnt = NULL;

	text_fmt(role, sizeof(role), "the external journal of the ext4 on %s", fs->name);
	for (size_t m = 0; m < s->nmounts && !mnt; m++)
		if (s->mounts[m].dev == fs->dev && s->mounts[m].mnt && !s->mounts[m].where[0] &&
		    !s->mounts[m].role[0] && !(mnt = strdup(s->mounts[m].mnt)))
			return -ENOMEM;
	return add_mount(s, cap, dev, mnt, "jbd2", role);
}

/*
 * File systems alive on a device that no mount table shows: the kernel keeps a sysfs
 * directory named after the device for every ext4, xfs, f2fs, erofs or nilfs2 super
 * block (sys/fs/ext4/loop0) until the file system is gone, which a lazy unmount (umount
 * -l) leaves for as long as a file on it is open; and a journal directory under
 * proc/fs/jbd2 named after an ext4's external journal device ("loop2"; an internal
 * journal's name has its inode after a dash, "loop1-8"). Such a device is mounted; a
 * journal where the ext4 it serves is, when its journal thread says which that is.
 */
int inuse_load_live_fs(struct inuse_snapshot *s, size_t *cap, const char *proc)
{
	static const struct {
		bool in_proc; /* under proc (else sys) */
		const char *dir, *fstype, *role;
	} lists[] = {
		{false, "fs/ext4", "ext4", "ext4"},
		{false, "fs/xfs", "xfs", "xfs"},
		{false, "fs/f2fs", "f2fs", "f2fs"},
		{false, "fs/erofs", "erofs", "erofs"},
		{false, "fs/nilfs2", "nilfs2", "nilfs2"},
		{true, "fs/jbd2", "jbd2", "the external journal of a mounted ext4"},
	};
	char dir[PATH_MAX];
	int ret = 0;

	for (size_t t = 0; !ret && t < sizeof(lists) / sizeof(lists[0]); t++) {
		struct dirent *de;
		DIR *d;
		probe_fmt(dir, sizeof(dir), "%s/%s", lists[t].in_proc ? proc : s->sys,
			  lists[t].dir);
		d = opendir(dir);
		while (!ret && d && (de = readdir(d))) {
			const struct blk_entry *e = inuse_blk_by_name(s, de->d_name), *fs;
			if (!e || has_mount(s, e->dev))
				continue;
			if (lists[t].in_proc && (fs = journal_owner(s, proc, e->name)))
				ret = add_journal(s, cap, e->dev, fs);
			else
				ret = add_mount(s, cap, e->dev, NULL, lists[t].fstype,
						lists[t].role);
		}
		if (d)
			closedir(d);
	}
	return ret;
}
