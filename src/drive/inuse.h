/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_INUSE_H
#define DB_INUSE_H
/*
 * What does a write touch, and is any of it in use? The safety guard asks this before any
 * write, and discovery shows it. The answer comes from a storage graph (inuse_graph.c)
 * built from device numbers and inodes, never from names, because names lie (/dev/root,
 * by-id links, bind mounts of other nodes):
 *
 *   down, what a write reaches: a partition is part of its disk (at its byte range); a
 *     loop device writes what backs it, a block device at the loop's offset or a file's
 *     inode (as the loop driver itself reports it, LOOP_GET_STATUS64, so a backing node
 *     that was deleted or replaced still counts; the sysfs backing path when the driver
 *     cannot be asked); a dm or md device writes its slaves;
 *   up, from every piece of that reach: a mount (matched by major:minor against
 *     /proc/self/mountinfo; a file in the reach by its source, for a file system
 *     mounted straight from a file with no loop device), active swap (each /proc/swaps entry stat()ed to a device or
 *     an inode), the root file system (the device mounted on "/" and every slave under
 *     it), holders (sysfs holders/: LVM, md, dm) and loop devices over the part of it the
 *     write reaches, each followed up in turn; and another process that holds any of
 *     these open for writing (/proc/PID/fd, and a thread's own table in
 *     /proc/PID/task/TID/fd: a virtual machine on the disk, a dd, a
 *     database, another drivebench run), mapped shared and writable (/proc/PID/maps)
 *     or registered in one of its io_uring instances (their fdinfo: by path, in any
 *     mode), or that the kernel exports without claiming (enabled nvmet namespaces and LIO
 *     backstores in configfs), found by the same device numbers and inodes. A
 *     partition of a disk in the reach counts when its byte range overlaps the reach:
 *     writing sda2 does not touch a mounted sda1, writing sda does.
 *
 * Each use found comes with a sentence for people that names the whole chain ("loop4 is
 * over /tmp/d.img, which backs loop3 (a loop device), mounted: loop3 on /mnt"). A device
 * or file on the write's own path is never a use of it.
 *
 * Processes are seen as far as /proc shows them: all of them to root, a user's own
 * otherwise. Readers are not uses: reading does not change what a write changes.
 *
 * The /proc and /sys roots are overridable so that tests can point them at fixtures.
 * Nothing here opens a block device other than loop devices, read-only, to ask them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The kinds of use, declared once: enum value, bit, and name used in JSON. */
#define INUSE_KINDS(X)                  \
	X(INUSE_MOUNTED, "mounted")     \
	X(INUSE_SWAP, "swap")           \
	X(INUSE_HOLDER, "held")         \
	X(INUSE_ROOT, "root")           \
	X(INUSE_OPEN, "open")

enum inuse_kind {
#define X(id, name) id,
	INUSE_KINDS(X)
#undef X
	INUSE_NKINDS
};
extern const char *const inuse_kind_name[INUSE_NKINDS];

#define INUSE_BIT(kind)    (1u << (kind))
#define INUSE_MAX_REASONS  8
#define INUSE_REASON_BYTES 320

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
void inuse_snapshot_free(struct inuse_snapshot *s);

#define INUSE_WHOLE	UINT64_MAX /* an extent that runs to the end of its device or file */
#define INUSE_MAX_REACH 32	   /* pieces of one write's reach, at most */
#define INUSE_MAX_PARTS 256	   /* partitions of one disk looked at, at most */

/* A block device or a file, and the bytes of it a write reaches. */
struct inuse_obj {
	bool is_file;
	dev_t dev;     /* a block device's number, or a file's file system */
	ino_t ino;     /* a file's inode */
	uint64_t off;  /* bytes */
	uint64_t len;  /* bytes, or INUSE_WHOLE */
	bool claim;    /* reached as what backs a loop device: the run may claim it (O_EXCL) */
	const char *path; /* a file's path with no symlinks, when known (NULL): what tells it
			     from another where an inode is not known (0, on a remote mount);
			     in a reach, the snapshot's, valid while it is */
	char name[64]; /* "loop3", "/tmp/d.img" (cut), for messages */
	char via[INUSE_REASON_BYTES]; /* how the target reaches it; "" for the target */
};

/*
 * One file, as (dev, ino) says, or as the paths say where an inode is not known (0: a
 * loop device over a file on a remote mount is not asked for it): the same path, or two
 * paths to one file of a remote file system mounted at both (a bind mount, a container's
 * volume), as s's mount tables show.
 */
bool inuse_same_file(const struct inuse_snapshot *s, dev_t dev, ino_t ino, const char *path,
		     dev_t dev2, ino_t ino2, const char *path2);

/* Everything one write reaches, the target first. */
struct inuse_reach {
	unsigned n;
	bool truncated; /* more than INUSE_MAX_REACH pieces: the rest were not followed */
	struct inuse_obj obj[INUSE_MAX_REACH];
};

/* The reach of a write to target (named `name` in messages). -ENODEV for a block device
 * that sysfs does not show. */
int inuse_snapshot_reach(const struct inuse_snapshot *s, const struct inuse_obj *target,
			 const char *name, struct inuse_reach *out);
/* Fill *out with every use of anything a write to target reaches. 0, -ENODEV, -ENOMEM. */
int inuse_snapshot_check_obj(const struct inuse_snapshot *s, const struct inuse_obj *target,
			     const char *name, struct inuse *out);
/* The same for a whole block device dev (a disk, a partition, a loop, dm, md, ...). */
int inuse_snapshot_check(const struct inuse_snapshot *s, dev_t dev, struct inuse *out);
/* The same for the regular file (dev, ino): does it back a loop device (whatever its path
 * now is), and is that in use; is it active swap? path (no symlinks, or NULL) finds a loop
 * device over it that is known by its path alone (the file being on a remote mount). */
int inuse_snapshot_check_file(const struct inuse_snapshot *s, dev_t dev, ino_t ino,
			      const char *path, struct inuse *out);

/*
 * A writer of the regular file (dev, ino) that is not a process named self (NULL: any
 * process; "drivebench" for a result another run holds locked, which the results' layer
 * refuses in its own words): a process with it open for writing,
 * mapped or registered in an io_uring, or a kernel exporter. Its words ("qemu-system-x86
 * (pid 4242)", "LIO backstore fileio_0/vm") into buf; false when there is none.
 */
bool inuse_snapshot_foreign_writer(const struct inuse_snapshot *s, dev_t dev, ino_t ino,
				   const char *self, char *buf, size_t len);

/*
 * The processes other than this one that have the block device dev open, in any mode,
 * as "python3 (pid 42), qemu (pid 7)" (four named, then "and N more") into buf; "" when
 * none. The exclusive holder of a device nothing else explains is among them, if any is.
 */
void inuse_openers(dev_t dev, const struct inuse_roots *roots, char *buf, size_t len);

/* The snapshot and one check in one call, for the safety guard. 0 or -errno, message in err. */
int inuse_check(dev_t disk, const struct inuse_roots *roots, struct inuse *out, char *err,
		size_t errlen);
int inuse_check_file(dev_t dev, ino_t ino, const char *path, const struct inuse_roots *roots,
		     struct inuse *out, char *err, size_t errlen);

/*
 * When st (the stat of path, as the kernel shows it) is of a file on an overlay
 * (overlayfs), st becomes that of the file in the upper or a lower directory that holds
 * its data: the file a loop device over path writes. A directory becomes the upper
 * directory, where a file made in it goes. Else st is left as it is.
 */
void inuse_overlay_real(const struct inuse_snapshot *s, const char *path, struct stat *st);

/* Decode the octal escapes (\040 for space ...) that mountinfo and swaps use, in place. */
void inuse_unescape(char *s);

#endif
