// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The storage graph: what a write reaches, and what uses any of it.
 *
 * Down from the target, by device numbers and inodes: a partition is part of its disk
 * (at its byte range), a loop device writes what backs it (a block device at the loop's
 * offset, or a file's inode), a device-mapper or md device writes its slaves. That set
 * is "the write's reach". Up from each piece of the reach: mounts, swap, the root file
 * system, holders (dm, md) and loop devices over it (over the part of it the write
 * reaches), each followed up in turn, and other processes that hold it open for writing,
 * so a reason says the whole chain in words: "loop4 is over /tmp/d.img, which backs loop3
 * (a loop device), mounted: loop3 on /mnt".
 * What is in the reach itself is the write's own path, never a use of it.
 */
#include "inuse.h"
#include "inuse_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define UP_MAX_DEPTH 8 /* holders and loops stacked over one another, followed this far */

/* How another process writes what it holds, in its reasons ("open for writing: sdb by") */
static const char *const open_words[] = {
	[OPEN_FD] = "open for writing",
	[OPEN_MAP] = "mapped for writing",
	/* the mode the ring's file was opened in is not shown: it may write */
	[OPEN_RING] = "registered in an io_uring",
};

struct walk {
	const struct inuse_snapshot *s;
	struct inuse_reach *reach;
	struct inuse *out;
	unsigned found; /* uses found so far, the same words found twice counted twice */
};

/* snprintf() that never overflows and never warns: texts here are cut at their buffers. */
__attribute__((format(printf, 3, 4))) static void put(char *buf, size_t len, const char *fmt,
						      ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* The reason, unless the same words are there already (two paths to one use). */
__attribute__((format(printf, 3, 4))) static void add_reason(struct walk *w,
							     enum inuse_kind kind,
							     const char *fmt, ...)
{
	char text[INUSE_REASON_BYTES];
	struct inuse *u = w->out;
	va_list ap;

	w->found++;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < u->nreasons; i++)
		if (!strcmp(u->reason[i].text, text))
			return;
	u->flags |= INUSE_BIT(kind);
	if (u->nreasons == INUSE_MAX_REASONS) {
		u->dropped++;
		return;
	}
	u->reason[u->nreasons].kind = kind;
	memcpy(u->reason[u->nreasons].text, text, sizeof(text));
	u->nreasons++;
}

static bool overlaps(uint64_t a_off, uint64_t a_len, uint64_t b_off, uint64_t b_len)
{
	uint64_t a_end = a_len == INUSE_WHOLE || a_off + a_len < a_off ? UINT64_MAX : a_off + a_len;
	uint64_t b_end = b_len == INUSE_WHOLE || b_off + b_len < b_off ? UINT64_MAX : b_off + b_len;

	return a_off < b_end && b_off < a_end;
}

static const struct inuse_obj *reach_find_dev(const struct inuse_reach *r, dev_t dev)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!r->obj[i].is_file && r->obj[i].dev == dev)
			return &r->obj[i];
	return NULL;
}

bool inuse_same_file(const struct inuse_snapshot *s, dev_t dev, ino_t ino, const char *path,
		     dev_t dev2, ino_t ino2, const char *path2)
{
	if (ino && ino2)
		return dev == dev2 && ino == ino2;
	return path && path2 && (!strcmp(path, path2) || inuse_remote_alias(s, path, path2));
}

static bool reach_has_file(const struct inuse_snapshot *s, const struct inuse_reach *r,
			   const struct inuse_obj *o)
{
	for (unsigned i = 0; i < r->n; i++)
		if (r->obj[i].is_file && inuse_same_file(s, r->obj[i].dev, r->obj[i].ino,
							 r->obj[i].path, o->dev, o->ino, o->path))
			return true;
	return false;
}

/* One more piece of the reach, reached from `from` (NULL: it is the target) by `rel`. */
static void reach_add(const struct inuse_snapshot *s, struct inuse_reach *r,
		      const struct inuse_obj *from, const char *rel, const char *name,
		      const struct inuse_obj *o)
{
	struct inuse_obj *n;

	if (o->is_file ? reach_has_file(s, r, o) : reach_find_dev(r, o->dev) != NULL)
		return;
	if (r->n == INUSE_MAX_REACH) {
		r->truncated = true;
		return;
	}
	n = &r->obj[r->n++];
	*n = *o;
	put(n->name, sizeof(n->name), "%s", name);
	if (!from)
		n->via[0] = '\0';
	else if (!from->via[0])
		put(n->via, sizeof(n->via), "%s is %s %s", from->name, rel, name);
	else
		put(n->via, sizeof(n->via), "%s, which is %s %s", from->via, rel, name);
}

/* The slaves of e, a dm or md device that is obj[i] of the reach: what it writes. */
static void down_slaves(const struct inuse_snapshot *s, struct inuse_reach *r, unsigned i,
			const struct blk_entry *e)
{
	char path[PATH_MAX + 80];
	struct dirent *de;
	DIR *dir;

	/* by the kernel's name: obj[i].name is the target's path as the operator gave it */
	put(path, sizeof(path), "%s/class/block/%s/slaves", s->sys, e->name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		const struct blk_entry *sl = de->d_name[0] == '.' ? NULL
								  : inuse_blk_by_name(s, de->d_name);
		if (sl)
			reach_add(s, r, &r->obj[i], "built on", sl->name,
				  &(struct inuse_obj){.dev = sl->dev, .len = INUSE_WHOLE});
	}
	closedir(dir);
}

/* What writing the block device obj[i] (at its extent) writes in turn. */
static void down_blk(const struct inuse_snapshot *s, struct inuse_reach *r, unsigned i)
{
	const struct blk_entry *e = inuse_blk_by_dev(s, r->obj[i].dev);
	struct inuse_obj o = r->obj[i];

	if (!e)
		return;
	if (e->parent[0]) {
		const struct blk_entry *d = inuse_blk_by_name(s, e->parent);
		uint64_t len = o.len == INUSE_WHOLE ? e->size - o.off : o.len;
		if (d)
			reach_add(s, r, &r->obj[i], "part of", d->name,
				  &(struct inuse_obj){.dev = d->dev,
						      .off = e->start + o.off,
						      .len = e->size ? len : INUSE_WHOLE});
	}
	if (e->is_loop) {
		uint64_t len = !e->loop_limit		? INUSE_WHOLE
			       : o.off < e->loop_limit ? e->loop_limit - o.off
						       : 0;
		struct inuse_obj b = {.off = e->loop_offset + o.off,
				      .len = o.len != INUSE_WHOLE ? o.len : len};
		if (e->backing_is_file) {
			b.is_file = true;
			b.dev = e->file_dev;
			b.ino = e->file_ino;
			b.path = e->backing_path;
			reach_add(s, r, &r->obj[i], "over",
				  e->backing_name[0] ? e->backing_name : "a file", &b);
		} else if (e->backing) {
			const struct blk_entry *be = inuse_blk_by_dev(s, e->backing);
			b.dev = e->backing;
			b.claim = true;
			reach_add(s, r, &r->obj[i], "over", be ? be->name : e->backing_name, &b);
		}
	}
	down_slaves(s, r, i, e);
}

int inuse_snapshot_reach(const struct inuse_snapshot *s, const struct inuse_obj *target,
			 const char *name, struct inuse_reach *out)
{
	struct inuse_obj t = *target;

	memset(out, 0, sizeof(*out));
	if (!t.is_file && !inuse_blk_by_dev(s, t.dev))
		return -ENODEV;
	if (t.is_file && t.ino && inuse_overlay_dev(s, t.dev)) {
		struct stat st = {.st_mode = S_IFREG, .st_dev = t.dev, .st_ino = t.ino};
		inuse_overlay_real(s, t.path, &st); /* the file that holds its data */
		t.dev = st.st_dev;
		t.ino = st.st_ino;
	}
	reach_add(s, out, NULL, "", name, &t);
	for (unsigned i = 0; i < out->n; i++)
		if (!out->obj[i].is_file)
			down_blk(s, out, i);
	return 0;
}

static void uses_whole(struct walk *w, const struct blk_entry *e, uint64_t off, uint64_t len,
		       const char *prefix, unsigned depth);

/*
 * A device over e that is not part of the write's own path (a holder, a loop device):
 * the chain goes on up through it. Its own uses, or the hop alone when it has none.
 */
static void up_through(struct walk *w, const struct blk_entry *user, const char *hop,
		       unsigned depth)
{
	char next[INUSE_REASON_BYTES];
	unsigned before = w->found;

	if (depth < UP_MAX_DEPTH) {
		put(next, sizeof(next), "%s, ", hop);
		uses_whole(w, user, 0, INUSE_WHOLE, next, depth + 1);
	}
	if (w->found == before)
		add_reason(w, INUSE_HOLDER, "%s", hop);
}

/* "dm-0 (vg0-root)" for device mapper, whose kernel names say nothing. */
static void holder_label(const struct inuse_snapshot *s, const char *holder, char *buf,
			 size_t len)
{
	char path[PATH_MAX + 80], name[128] = "", visible[128];
	FILE *f;

	put(path, sizeof(path), "%s/class/block/%s/dm/name", s->sys, holder);
	f = fopen(path, "re");
	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
	text_visible(visible, sizeof(visible), name);
	if (name[0])
		put(buf, len, "%s (%s)", holder, visible);
	else
		put(buf, len, "%s", holder);
}

static void up_holders(struct walk *w, const struct blk_entry *e, const char *prefix,
		       bool through, unsigned depth)
{
	char path[PATH_MAX + 80], label[160], hop[INUSE_REASON_BYTES];
	struct dirent *de;
	DIR *dir;

	put(path, sizeof(path), "%s/class/block/%s/holders", w->s->sys, e->name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		const struct blk_entry *h = de->d_name[0] == '.' ? NULL
								 : inuse_blk_by_name(w->s, de->d_name);
		if (de->d_name[0] == '.' || (h && reach_find_dev(w->reach, h->dev)))
			continue;
		holder_label(w->s, de->d_name, label, sizeof(label));
		put(hop, sizeof(hop), "%sheld by %s%s%s", prefix, label, through ? " through " : "",
		    through ? e->name : "");
		if (h)
			up_through(w, h, hop, depth);
		else
			add_reason(w, INUSE_HOLDER, "%s", hop);
	}
	closedir(dir);
}

static void root_reason(struct walk *w, const struct blk_entry *e, const char *prefix)
{
	const struct inuse_snapshot *s = w->s;
	const struct blk_entry *r;
	bool under = false;

	for (size_t i = 0; i < s->nroot_under; i++)
		under |= s->root_under[i] == e->dev;
	/* the root device on the write's own path says it for itself */
	if (!under || (e->dev != s->root_dev && reach_find_dev(w->reach, s->root_dev)))
		return;
	r = inuse_blk_by_dev(s, s->root_dev);
	if (e->dev == s->root_dev)
		add_reason(w, INUSE_ROOT, "%sroot filesystem: / is on %s", prefix, e->name);
	else
		add_reason(w, INUSE_ROOT, "%sroot filesystem: / is on %s, which uses %s",
			   prefix, r ? r->name : "?", e->name);
}

/* The uses of e itself (not its partitions) over [off, off + len); through: e is a
 * partition of the device the chain is at, named in holder hops. */
static void uses_one(struct walk *w, const struct blk_entry *e, uint64_t off, uint64_t len,
		     const char *prefix, bool through, unsigned depth)
{
	const struct inuse_snapshot *s = w->s;
	enum inuse_kind up = INUSE_HOLDER; /* a use above a holder: e is held */
	char hop[INUSE_REASON_BYTES];

	for (size_t m = 0; m < s->nmounts; m++) {
		const struct mount_ent *me = &s->mounts[m];
		enum inuse_kind kind = depth ? up : INUSE_MOUNTED;
		if (me->dev != e->dev)
			continue;
		if (!me->mnt && !strcmp(me->fstype, "jbd2")) /* a journal: its role says whose */
			add_reason(w, kind, "%smounted: %s (%s)", prefix, e->name, me->role);
		else if (!me->mnt)
			add_reason(w, kind,
				   "%smounted: %s (%s), though no mount table here "
				   "shows where (unmounted lazily, still in use?)",
				   prefix, e->name, me->role);
		else
			add_reason(w, kind, "%smounted: %s on %s%s%s%s%s%s", prefix, e->name,
				   me->mnt, me->role[0] ? " (" : "", me->role,
				   me->role[0] ? ")" : "", me->where[0] ? " in " : "", me->where);
	}
	for (size_t k = 0; k < s->nswaps; k++) {
		if (s->swaps[k].dev != e->dev)
			continue;
		if (s->swaps[k].is_file)
			add_reason(w, depth ? up : INUSE_SWAP, "%sswap: file %s on %s", prefix,
				   s->swaps[k].path, e->name);
		else
			add_reason(w, depth ? up : INUSE_SWAP, "%sswap: %s (%s)", prefix,
				   e->name, s->swaps[k].path);
	}
	for (size_t k = 0; k < s->nopens; k++) {
		const struct open_ent *op = &s->opens[k];
		if (op->is_file || op->dev != e->dev)
			continue;
		if (op->how == OPEN_EXPORT)
			add_reason(w, depth ? up : INUSE_OPEN, "%sexported: %s by %s", prefix,
				   e->name, op->who);
		else
			add_reason(w, depth ? up : INUSE_OPEN, "%s%s: %s by %s (pid %ld)", prefix,
				   open_words[op->how], e->name, op->who, (long)op->pid);
	}
	up_holders(w, e, prefix, through, depth);
	for (size_t k = 0; k < s->nblk; k++) {
		const struct blk_entry *l = &s->blk[k];
		uint64_t llen = l->loop_limit ? l->loop_limit : INUSE_WHOLE;
		if (!l->is_loop || l->backing_is_file || l->backing != e->dev ||
		    !overlaps(off, len, l->loop_offset, llen) || reach_find_dev(w->reach, l->dev))
			continue;
		put(hop, sizeof(hop), "%sheld by %s (a loop device over %s)", prefix, l->name,
		    e->name);
		up_through(w, l, hop, depth);
	}
	for (size_t k = 0; k < s->nblk; k++) {
		const struct blk_entry *z = &s->blk[k];
		if (!z->writeback || z->writeback != e->dev || reach_find_dev(w->reach, z->dev))
			continue;
		put(hop, sizeof(hop), "%sheld by %s (a zram device writing back to %s)", prefix,
		    z->name, e->name);
		up_through(w, z, hop, depth);
	}
	if (!depth)
		root_reason(w, e, prefix);
}

/* The uses of e and of its partitions that overlap [off, off + len). */
static void uses_whole(struct walk *w, const struct blk_entry *e, uint64_t off, uint64_t len,
		       const char *prefix, unsigned depth)
{
	const struct inuse_snapshot *s = w->s;
	const struct blk_entry *part[INUSE_MAX_PARTS];
	unsigned np = 0;

	uses_one(w, e, off, len, prefix, false, depth);
	for (size_t i = 0; i < s->nblk && np < INUSE_MAX_PARTS; i++) {
		const struct blk_entry *p = &s->blk[i];
		if (p->parent[0] && !strcmp(p->parent, e->name) &&
		    overlaps(off, len, p->start, p->size ? p->size : INUSE_WHOLE) &&
		    !reach_find_dev(w->reach, p->dev))
			part[np++] = p;
	}
	/* partitions in their number's order (sda2 before sda10), whatever sysfs lists first */
	for (unsigned i = 1; i < np; i++)
		for (unsigned j = i; j > 0; j--) {
			size_t la = strlen(part[j - 1]->name), lb = strlen(part[j]->name);
			if (la < lb || (la == lb && strcmp(part[j - 1]->name, part[j]->name) <= 0))
				break;
			const struct blk_entry *t = part[j];
			part[j] = part[j - 1];
			part[j - 1] = t;
		}
	for (unsigned i = 0; i < np; i++)
		uses_one(w, part[i], 0, INUSE_WHOLE, prefix, true, depth);
}

/*
 * The uses of a file in the reach: loop devices over it, processes writing it, a file
 * system mounted from it with no loop device, swap.
 */
static void uses_file(struct walk *w, const struct inuse_obj *o)
{
	const struct inuse_snapshot *s = w->s;
	char prefix[INUSE_REASON_BYTES], hop[INUSE_REASON_BYTES];

	put(prefix, sizeof(prefix), "%s%s", o->via, o->via[0] ? ", which " : "");
	for (size_t k = 0; k < s->nblk; k++) {
		const struct blk_entry *l = &s->blk[k];
		uint64_t llen = l->loop_limit ? l->loop_limit : INUSE_WHOLE;
		if (!l->backing_is_file ||
		    !inuse_same_file(s, l->file_dev, l->file_ino, l->backing_path, o->dev, o->ino,
				     o->path) ||
		    !overlaps(o->off, o->len, l->loop_offset, llen) ||
		    reach_find_dev(w->reach, l->dev))
			continue;
		put(hop, sizeof(hop), "%sbacks %s (a loop device)", prefix, l->name);
		up_through(w, l, hop, 0);
	}
	for (size_t k = 0; k < s->nopens; k++) {
		const struct open_ent *op = &s->opens[k];
		if (!op->is_file ||
		    !inuse_same_file(s, op->dev, op->ino, op->path, o->dev, o->ino, o->path))
			continue;
		if (op->how == OPEN_EXPORT)
			add_reason(w, INUSE_OPEN, "%s%sexported by %s", o->via,
				   o->via[0] ? ", " : "", op->who);
		else
			add_reason(w, INUSE_OPEN, "%s%s%s by %s (pid %ld)", o->via,
				   o->via[0] ? ", " : "", open_words[op->how], op->who,
				   (long)op->pid);
	}
	for (size_t k = 0; k < s->nfmounts; k++) {
		const struct file_mount *m = &s->fmounts[k];
		if (!inuse_same_file(s, m->dev, m->ino, m->path, o->dev, o->ino, o->path))
			continue;
		add_reason(w, INUSE_MOUNTED,
			   "%s%smounted: %s on %s (%s over the file, no loop device)%s%s", o->via,
			   o->via[0] ? ", " : "", m->shown, m->mnt, m->fstype,
			   m->where[0] ? " in " : "", m->where);
	}
	for (size_t k = 0; k < s->nswaps; k++)
		if (s->swaps[k].is_file && s->swaps[k].dev == o->dev && s->swaps[k].ino == o->ino)
			add_reason(w, INUSE_SWAP, "%s%sswap: the file is active swap (%s)", o->via,
				   o->via[0] ? ", " : "", s->swaps[k].path);
}

int inuse_snapshot_check_obj(const struct inuse_snapshot *s, const struct inuse_obj *target,
			     const char *name, struct inuse *out)
{
	struct inuse_reach *reach = malloc(sizeof(*reach));
	struct walk w = {.s = s, .reach = reach, .out = out};
	int ret;

	memset(out, 0, sizeof(*out));
	if (!reach)
		return -ENOMEM;
	ret = inuse_snapshot_reach(s, target, name, reach);
	for (unsigned i = 0; ret == 0 && i < reach->n; i++) {
		const struct inuse_obj *o = &reach->obj[i];
		char prefix[INUSE_REASON_BYTES];
		if (o->is_file) {
			uses_file(&w, o);
			continue;
		}
		put(prefix, sizeof(prefix), "%s%s", o->via, o->via[0] ? ", " : "");
		uses_whole(&w, inuse_blk_by_dev(s, o->dev), o->off, o->len, prefix, 0);
	}
	free(reach);
	return ret;
}

int inuse_snapshot_check(const struct inuse_snapshot *s, dev_t dev, struct inuse *out)
{
	const struct blk_entry *e = inuse_blk_by_dev(s, dev);

	memset(out, 0, sizeof(*out));
	if (!e)
		return -ENODEV;
	return inuse_snapshot_check_obj(s, &(struct inuse_obj){.dev = dev, .len = INUSE_WHOLE},
					e->name, out);
}

int inuse_snapshot_check_file(const struct inuse_snapshot *s, dev_t dev, ino_t ino,
			      const char *path, struct inuse *out)
{
	return inuse_snapshot_check_obj(
		s,
		&(struct inuse_obj){
			.is_file = true, .dev = dev, .ino = ino, .path = path, .len = INUSE_WHOLE},
		"the file", out);
}

bool inuse_snapshot_foreign_writer(const struct inuse_snapshot *s, dev_t dev, ino_t ino,
				   const char *self, char *buf, size_t len)
{
	for (size_t k = 0; k < s->nopens; k++) {
		const struct open_ent *o = &s->opens[k];
		if (!o->is_file || o->dev != dev || o->ino != ino ||
		    (o->how != OPEN_EXPORT && self && !strcmp(o->who, self)))
			continue;
		if (o->how == OPEN_EXPORT)
			put(buf, len, "%s", o->who);
		else
			put(buf, len, "%s (pid %ld)", o->who, (long)o->pid);
		return true;
	}
	return false;
}
