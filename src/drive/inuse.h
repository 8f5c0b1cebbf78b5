/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_INUSE_H
#define DB_INUSE_H
/*
 * Is a disk in use? The safety guard asks this before any write, and discovery shows it.
 *
 * A whole disk (given by its dev_t) is in use when the disk or any of its partitions
 *   - is mounted: matched by major:minor against /proc/self/mountinfo, never by name,
 *     because names lie (/dev/root, by-id links, bind mounts of other nodes);
 *   - is active swap: each /proc/swaps entry is stat()ed and resolved to a dev_t (a swap
 *     file counts for the disk holding its file system);
 *   - has holders (/sys/class/block/X/holders and those of its partitions): LVM, md, dm;
 *   - holds the root file system: the device mounted on "/", followed down through the
 *     slaves of dm/md devices to the disks underneath;
 *   - backs a loop device: what the loop driver itself reports (LOOP_GET_STATUS64: the
 *     backing device number, or file system and inode), so a backing node that was
 *     deleted or replaced still counts; the backing path in sysfs when the driver
 *     cannot be asked (a fixture sysfs, or a device marked autoclear).
 * Each reason comes with a sentence for people ("mounted: loop3p1 on /mnt/x").
 *
 * The /proc and /sys roots are overridable so that tests can point them at fixtures.
 * Nothing here opens a block device other than loop devices, read-only, to ask them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The kinds of use, declared once: enum value, bit, and name used in JSON. */
#define INUSE_KINDS(X)                  \
	X(INUSE_MOUNTED, "mounted")     \
	X(INUSE_SWAP, "swap")           \
	X(INUSE_HOLDER, "held")         \
	X(INUSE_ROOT, "root")

enum inuse_kind {
#define X(id, name) id,
	INUSE_KINDS(X)
#undef X
	INUSE_NKINDS
};
extern const char *const inuse_kind_name[INUSE_NKINDS];

#define INUSE_BIT(kind)    (1u << (kind))
#define INUSE_MAX_REASONS  8
#define INUSE_REASON_BYTES 192

struct inuse_reason {
	enum inuse_kind kind;
	char text[INUSE_REASON_BYTES]; /* "mounted: loop3p1 on /mnt/x" */
};

struct inuse {
	unsigned flags;    /* INUSE_BIT() of every kind found */
	unsigned nreasons; /* entries used in reason[] */
	unsigned dropped;  /* further reasons that did not fit */
	struct inuse_reason reason[INUSE_MAX_REASONS];
};

/* Where /proc and /sys are; NULL members (or a NULL pointer) mean the real ones. */
struct inuse_roots {
	const char *proc; /* holds self/mountinfo and swaps */
	const char *sys;  /* holds class/block */
};

static inline bool inuse_busy(const struct inuse *u)
{
	return u->flags != 0;
}

/*
 * One look at the system's block devices, mounts and swaps, reusable for many disks:
 * discovery checks every disk against the same snapshot.
 */
struct inuse_snapshot;
int inuse_snapshot_take(struct inuse_snapshot **out, const struct inuse_roots *roots,
			char *err, size_t errlen);
/* Fill *out for the whole disk `disk`. 0, or -ENODEV when no such disk is in sysfs. */
int inuse_snapshot_check(const struct inuse_snapshot *s, dev_t disk, struct inuse *out);
void inuse_snapshot_free(struct inuse_snapshot *s);

/*
 * Is the regular file (dev, ino) in use: does it back a loop device (whatever its path
 * now is), or is it active swap? Writing it would write under that device's feet.
 */
int inuse_snapshot_check_file(const struct inuse_snapshot *s, dev_t dev, ino_t ino,
			      struct inuse *out);

/* The snapshot and one check in one call, for the safety guard. 0 or -errno, message in err. */
int inuse_check(dev_t disk, const struct inuse_roots *roots, struct inuse *out, char *err,
		size_t errlen);
int inuse_check_file(dev_t dev, ino_t ino, const struct inuse_roots *roots, struct inuse *out,
		     char *err, size_t errlen);

/* Decode the octal escapes (\040 for space ...) that mountinfo and swaps use, in place. */
void inuse_unescape(char *s);

#endif
