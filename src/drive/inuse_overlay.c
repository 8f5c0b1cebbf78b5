// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-use checks: the files an overlay (overlayfs: a container's root, an image build's
 * layers) keeps its files' data in. stat() of a file there gives the overlay's device
 * number, and the loop driver says the same of a loop device over it, while the data is
 * in a file of the upper or a lower directory's file system: writing that file by its own
 * path writes the loop device. So a file on an overlay is taken as that real file: with
 * metacopy=on, a file whose metadata alone was copied up (a chmod, a chown) keeps its
 * data in a lower file, which that upper file's attributes point to; with
 * redirect_dir=on, a directory renamed on the overlay is a new upper directory whose
 * attributes point to where it was in the layers below, its files not copied up.
 */
#include "inuse.h"
#include "inuse_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "grow.h"
#include "strbuf.h"

/*
 * The lower directories of an overlay mounted with the new mount API's options, one
 * each ("lowerdir+=/l1,lowerdir+=/l2,datadir+=/d"), as "lowerdir=" lists them
 * ("/l1:/l2::/d"): *out, NULL when there are none; -ENOMEM, else 0.
 */
static int layers(const char *opts, char **out)
{
	struct strbuf b = {0};
	bool data = false;
	char *all;

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		bool d = !strncmp(p, "datadir+=", 9);
		size_t at = d ? 9 : 10;
		char *v;
		if (!d && strncmp(p, "lowerdir+=", 10))
			continue;
		if (!(v = strndup(p + at, strcspn(p + at, ",")))) {
			free(strbuf_take(&b));
			return -ENOMEM;
		}
		inuse_unescape(v);
		strbuf_add(&b, "%s%s%s", b.len ? ":" : "", d && !data ? ":" : "", v);
		data |= d;
		free(v);
	}
	all = strbuf_take(&b);
	if (!all)
		return -ENOMEM;
	if (!*all) {
		free(all);
		all = NULL;
	}
	*out = all;
	return 0;
}

int inuse_add_overlay(struct inuse_snapshot *s, unsigned maj, unsigned min, const char *root,
		      const char *at, const char *opts)
{
	struct overlay_mnt *o;

	if (GROW(s->ovl, s->novl, s->ovl_cap, 8))
		return -ENOMEM;
	o = &s->ovl[s->novl++]; /* freed with the snapshot, whole or not */
	*o = (struct overlay_mnt){.dev = makedev(maj, min)};
	o->at = strdup(at);
	o->root = strdup(root);
	o->upper = inuse_mount_option(opts, "upperdir");
	o->lower = inuse_mount_option(opts, "lowerdir");
	if (!o->lower && layers(opts, &o->lower))
		return -ENOMEM;
	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		o->userxattr |= !strncmp(p, "userxattr", 9) && (p[9] == ',' || p[9] == '\0');
	return o->at && o->root ? 0 : -ENOMEM;
}

void inuse_free_overlays(struct inuse_snapshot *s)
{
	for (size_t i = 0; i < s->novl; i++) {
		free(s->ovl[i].at);
		free(s->ovl[i].root);
		free(s->ovl[i].upper);
		free(s->ovl[i].lower);
	}
	free(s->ovl);
}

bool inuse_overlay_dev(const struct inuse_snapshot *s, dev_t dev)
{
	for (size_t i = 0; i < s->novl; i++)
		if (s->ovl[i].dev == dev)
			return true;
	return false;
}

/* What of path is below o's mount point (in o's namespace's terms): "" or "/x", or NULL. */
static const char *below(const struct overlay_mnt *o, const char *path)
{
	size_t n = strlen(o->at);

	if (!strcmp(o->at, "/"))
		return path[0] == '/' ? path : NULL;
	if (!strncmp(path, o->at, n) && (path[n] == '/' || path[n] == '\0'))
		return path + n;
	return NULL;
}

/*
 * rel (from the overlay's root) in layer dir, if it is there as a file of the kind want
 * (S_IFREG, S_IFDIR): *st, and its path in out. A layer on a remote mount is not asked.
 */
static bool in_layer(const struct inuse_snapshot *s, const char *dir, size_t dirlen,
		     const char *rel, mode_t want, struct stat *st, char *out, size_t len)
{
	char path[PATH_MAX];
	struct stat cst;

	if (!dirlen ||
	    (size_t)snprintf(path, sizeof(path), "%.*s%s", (int)dirlen, dir, rel) >= sizeof(path) ||
	    strlen(path) >= len || inuse_remote_path(s, path) || stat(path, &cst) ||
	    (cst.st_mode & S_IFMT) != want)
		return false;
	*st = cst;
	strcpy(out, path);
	return true;
}

/*
 * The name of an overlay attribute (metacopy, redirect, opaque) into buf: in the trusted
 * namespace, or the user one on a userxattr mount.
 */
static const char *attr(const struct overlay_mnt *o, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", o->userxattr ? "user.overlay." : "trusted.overlay.", name);
	return buf;
}

/*
 * rel (a file's path in layer dir, from the overlay's root) as the layers below see it: a
 * directory on the way that was renamed in this layer (redirect_dir=on) has its old place
 * in its redirect ("/a/b" from the root, "b" beside it), and one made opaque (removed and
 * made again) hides everything below it: false. A layer on a remote mount is not asked.
 */
static bool below_layer(const struct inuse_snapshot *s, const struct overlay_mnt *o,
			const char *dir, size_t dirlen, char *rel, size_t len)
{
	char out[PATH_MAX] = "", path[PATH_MAX], to[PATH_MAX], name[32];
	bool here = true; /* the directory so far is in this layer */
	struct stat st;
	size_t n;

	for (const char *p = rel; *p == '/'; p += 1 + n) {
		n = strcspn(p + 1, "/");
		ssize_t got = -1;
		if (here && p[1 + n] == '/') {
			here = (size_t)snprintf(path, sizeof(path), "%.*s%.*s", (int)dirlen, dir,
						(int)(p + 1 + n - rel), rel) < sizeof(path) &&
			       !inuse_remote_path(s, path) && stat(path, &st) == 0 &&
			       S_ISDIR(st.st_mode);
			if (here &&
			    getxattr(path, attr(o, "opaque", name, sizeof(name)), to, 1) == 1 &&
			    to[0] == 'y')
				return false;
			if (here)
				got = getxattr(path, attr(o, "redirect", name, sizeof(name)), to,
					       sizeof(to) - 1);
		}
		size_t at = got > 0 && to[0] == '/' ? 0 : strlen(out);
		if (got > 0)
			to[got] = '\0';
		if ((size_t)snprintf(out + at, sizeof(out) - at, "%s%.*s",
				     got > 0 && to[0] == '/' ? "" : "/",
				     got > 0 ? (int)got : (int)n,
				     got > 0 ? to : p + 1) >= sizeof(out) - at)
			return false;
	}
	return (size_t)snprintf(rel, len, "%s", out) < len;
}

/* Whether the layer file at path holds only metadata (metacopy=on), its data below. */
static bool metacopy(const struct overlay_mnt *o, const char *path)
{
	char name[32];

	return getxattr(path, attr(o, "metacopy", name, sizeof(name)), NULL, 0) >= 0;
}

/*
 * Where, in the layers below, a metacopy file at path has its data: rel, as its redirect
 * changes it when it was renamed ("/a/b" from the overlay's root, "b" in the same
 * directory).
 */
static void redirect(const struct overlay_mnt *o, const char *path, char *rel, size_t len)
{
	char name[32], to[PATH_MAX];
	ssize_t n = getxattr(path, attr(o, "redirect", name, sizeof(name)), to, sizeof(to) - 1);

	if (n > 0) {
		char *slash = strrchr(rel, '/');
		to[n] = '\0';
		if (to[0] == '/')
			snprintf(rel, len, "%s", to);
		else if (slash && (size_t)(slash + 1 - rel) + (size_t)n < len)
			strcpy(slash + 1, to);
	}
}

/*
 * One step down: path on overlay o (rest below its mount point) to its layer's file, the
 * upper directory's, else the first lower one's that has it, by the path each layer knows
 * it by; for a file whose metadata alone is there, the first one below holding its data,
 * data-only layers ("::") too.
 */
static bool one_layer(const struct inuse_snapshot *s, const struct overlay_mnt *o, const char *rest,
		      mode_t want, struct stat *st, char *out, size_t len)
{
	char rel[PATH_MAX];
	bool upper = o->upper, found = false;
	const char *l = upper ? o->upper : o->lower;

	if ((size_t)snprintf(rel, sizeof(rel), "%s%s", strcmp(o->root, "/") ? o->root : "", rest) >=
	    sizeof(rel))
		return false;
	/* a directory: the upper one, where new files go */
	if (want == S_IFDIR)
		return upper && in_layer(s, l, strlen(l), "", want, st, out, len);
	/* the upper directory first, where a file copied up is; then the lower ones, top
	   first ("/l1:/l2"; data-only ones after "::") */
	for (; l && (upper || *l); upper = false) {
		size_t n = upper ? strlen(l) : strcspn(l, ":");
		if (!upper && !n && !found)
			break; /* only a metacopy's redirect reaches a data-only layer */
		if (n) {
			bool hit = in_layer(s, l, n, rel, want, st, out, len);
			if (hit && !metacopy(o, out))
				return true;
			/* the path below, then a metacopy's own redirect from there */
			if (!below_layer(s, o, l, n, rel, sizeof(rel)))
				return found || hit;
			if (hit)
				redirect(o, out, rel, sizeof(rel));
			found |= hit;
		}
		l = upper ? o->lower : l + n + (l[n] == ':');
	}
	return found; /* a metacopy whose data is in no layer: that file */
}

/*
 * When st (the stat of path, as the kernel shows it, in any mount namespace's terms) is
 * of an overlay's file, st becomes that of the file that holds its data, on the upper or
 * a lower directory's file system, through overlays stacked on overlays. A directory
 * becomes the upper directory, where a file made in it goes. Else st is left as it is.
 */
void inuse_overlay_real(const struct inuse_snapshot *s, const char *path, struct stat *st)
{
	char cur[PATH_MAX], next[PATH_MAX];
	mode_t want = st->st_mode & S_IFMT;

	if (!path || (want != S_IFREG && want != S_IFDIR) ||
	    (size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		return;
	for (int depth = 0; depth < 8 && inuse_overlay_dev(s, st->st_dev); depth++) {
		bool found = false;
		for (size_t i = 0; !found && i < s->novl; i++) {
			const char *rest =
				s->ovl[i].dev == st->st_dev ? below(&s->ovl[i], cur) : NULL;
			found = rest &&
				one_layer(s, &s->ovl[i], rest, want, st, next, sizeof(next));
		}
		if (!found)
			return;
		memcpy(cur, next, sizeof(cur));
	}
}
