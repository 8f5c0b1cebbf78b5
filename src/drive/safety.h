/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SAFETY_H
#define DB_SAFETY_H
/*
 * The write guard. It looks at what a run opened (struct target: the device number or
 * the file's inode from fstat of the descriptor), never at a path looked up again, and is
 * asked by the run module (run.h) for every plan that writes, whatever the engine:
 *
 *   block device  refused when the device, its whole disk or any partition of that disk
 *                 is mounted, is active swap, has holders (LVM, md, dm), backs a loop
 *                 device, holds the root file system, or another process has it open
 *                 for writing, all matched by device number; then refused unless the
 *                 confirmation names the same device;
 *   regular file  refused when it backs a loop device, is active swap, or another
 *                 process has it open for writing.
 *
 * The target was opened with O_EXCL, so the kernel refuses a claimed device as well, and
 * keeps it from being mounted while the run holds it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "inuse.h"
#include "target.h"

/*
 * May a run write to t? confirm is what the operator named to confirm it
 * (--yes-destroy=PATH, or a device name typed in the TUI: "nvme1n1" means /dev/nvme1n1),
 * or NULL. A block device always needs it; a regular file only when it is a disk image
 * (libblkid finds a file system, partition table, volume or swap area in it: said in the
 * refusal, as what an unconfirmed device holds is). Returns 0 to go ahead, -EPERM when
 * refused (reason in err), or -errno when the system could not be examined. roots: NULL
 * for the real /proc and /sys.
 */
int safety_check_target(const struct target *t, const char *confirm,
			const struct inuse_roots *roots, char *err, size_t errlen);

/* Does confirm name t: the same device node (a bare name is under /dev), or the same file? */
bool safety_confirms(const struct target *t, const char *confirm);

/*
 * For a command that erases every namespace of an NVMe controller (a sanitize, or a
 * format the controller applies to all): is any namespace of the controller behind t in
 * use? Namespaces are the controller's block devices in sysfs (nvmeXnY beside the one
 * opened, under the controller or, with native multipathing, the subsystem). 0 to go
 * ahead, -EPERM naming the namespace and what uses it, -errno when sysfs could not be
 * read. what names the command in the message ("nvme-sanitize").
 */
int safety_check_namespaces(const struct target *t, const char *what,
			    const struct inuse_roots *roots, char *err, size_t errlen);

/*
 * Does confirm name (as a path) the NVMe controller of the namespace t, or a controller of
 * its NVM subsystem? Such a confirmation covers an erase of every namespace.
 */
bool safety_confirms_controller(const struct target *t, const char *confirm,
				const struct inuse_roots *roots);

/*
 * Is block device dev still in the system: sysfs shows it, its driver is not removing it
 * (a SCSI device's or NVMe controller's state) and, for an NVMe namespace under native
 * multipath, a controller of its subsystem that is not being removed is left to reach it?
 */
bool safety_present(dev_t dev, const struct inuse_roots *roots);

/*
 * Which of the block devices devs[n] is gone (safety_present() false), asked again every
 * 50 ms for up to wait_ms: a removal reaches sysfs shortly after the I/O it failed. Its
 * index, or -1.
 */
int safety_removed(const dev_t *devs, unsigned n, unsigned wait_ms,
		   const struct inuse_roots *roots);

/* The whole disk block device dev belongs to: itself, or a partition's parent. */
dev_t safety_whole_disk(dev_t dev, const struct inuse_roots *roots);
/* Is block device dev a partition? Then disk gets its whole disk's kernel name. */
bool safety_partition_of(dev_t dev, const struct inuse_roots *roots, char *disk, size_t len);

/*
 * The kernel refused to open block device rdev (named path) exclusively: why? -EPERM with
 * the reasons in err when something uses it, 0 when nothing was found (then the claim is
 * someone else's, or one that is being released), -errno when it could not be examined.
 */
int safety_explain_busy(dev_t rdev, const char *path, const struct inuse_roots *roots,
			char *err, size_t errlen);

/*
 * Hold the devices a write to t goes through without the kernel claiming them (what
 * backs a loop device: the loop driver does not claim it), each opened with O_EXCL, so
 * that nothing mounts them while the run writes. Their descriptors go to fds (max of
 * them; *nfds set), for the caller to close after the run. 0, -EBUSY (another program
 * holds one; named in err), or -errno. Nothing is claimed for fixture roots.
 */
int safety_claim_reach(const struct target *t, int *fds, unsigned max, unsigned *nfds,
		       const struct inuse_roots *roots, char *err, size_t errlen);

/*
 * May an output file (a result, an export, a log) be written at path? Refused with -EINVAL
 * (bad input: exit 2), the reason in err, when path names a device node, a FIFO, a socket
 * or a directory; when the file is one of the nt targets t[] or anything a target reaches
 * (a loop device's backing file); when it backs any loop device or is active swap; or,
 * for a run that writes, when it lies on a file system on a device the write reaches.
 * Another process writing the file is not checked here: result files take locks.
 * A path whose directory does not exist passes (writing it says so). t may be NULL.
 */
int safety_check_output(const char *path, const struct target *t, unsigned nt, bool writes,
			const struct inuse_roots *roots, char *err, size_t errlen);

/*
 * An output (an export, a report, a trace, a command's --out) is written whole or not at
 * all: into a temporary file beside its name, which replaces the name only once the
 * command has succeeded (safety_output_commit()); a command that fails removes the
 * temporary file (safety_output_abort()) and leaves the file it named as it was, so an
 * output that is also an input is read whole before it is replaced.
 */
struct safety_output {
	FILE *f;	 /* write the output here */
	char path[4096]; /* the name as given, for messages */
	/* the rest is the module's */
	const struct inuse_roots *roots;
	char at[4096];	/* the path checked: path, or the file its symbolic link names */
	int dirfd;	/* the directory checked, where the output lands (O_PATH) */
	char name[256]; /* the file's name in it */
	char tmp[256];	/* the temporary file's name in it; "" when there is none */
	bool existed;	/* a file was at the name when checked: this one */
	dev_t dev;
	ino_t ino;
};

/*
 * Check path as an output (safety_check_output() with no targets) and open its temporary
 * file: created O_EXCL (never through a symbolic link) in the same directory under a
 * hidden name, with the mode a new file gets (0666 & ~umask), or the permission bits and,
 * where the process may set them, the owner of the file it is to replace. A symbolic link
 * to a file is resolved, so that file is what is replaced; one to no file is refused. A
 * file this user may not write is refused as open() would (EACCES). 0, or -EINVAL (bad
 * input, refused: exit 2) or -errno, with the reason in err; nothing is left behind.
 */
int safety_output_open(struct safety_output *o, const char *path, const struct inuse_roots *roots,
		       char *err, size_t errlen);
/*
 * The output is whole: flushed, synced, and renamed over the name, which must still hold
 * what was checked (the file, or nothing). A name that changed since is checked again,
 * at most three times: a regular file put there is checked as any output is; anything
 * else (a symbolic link, a FIFO, a device node) is refused, never followed. 0, or
 * -EINVAL (refused) or -errno (the write failed), with the reason in err; on failure, as
 * safety_output_abort(). o->f is closed either way.
 */
int safety_output_commit(struct safety_output *o, char *err, size_t errlen);
/* The command failed: the temporary file removed, the name untouched. */
void safety_output_abort(struct safety_output *o);
/*
 * An output made in memory (len bytes of buf) written to path, whole or not at all. 0;
 * -EINVAL when it cannot be opened or is refused (bad input: exit 2, nothing written);
 * or the write's -errno (exit 4); with the reason in err.
 */
int safety_output_write(const char *path, const void *buf, size_t len,
			const struct inuse_roots *roots, char *err, size_t errlen);

#endif
