/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TARGET_H
#define DB_TARGET_H
/*
 * Opening a target for direct I/O: a block device or a regular file, and nothing else.
 *
 * The path is resolved once (symlinks followed, to a path with none left) and that path is
 * opened without following any symlink, so a link flipped between a check and the open
 * cannot redirect the I/O: whatever the open found is what is described here, from
 * fstat() of the descriptor (device number, inode), and every check after the open (the
 * write guard, safety.h) looks at these numbers, never at the path again. A target opened
 * for writing that turns out to be a block device is opened with O_EXCL, so the kernel
 * refuses a device that is mounted or claimed, and nobody can mount it while the run holds
 * it. Opening never blocks (a FIFO is refused, not waited for) and never creates,
 * truncates or grows a file.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct target {
	int fd;
	char path[4096];     /* as the operator named it, for messages */
	char resolved[4096]; /* what was opened: the path with every symlink resolved */
	bool is_blockdev;
	bool writable;
	dev_t rdev;          /* block devices: the device number */
	dev_t dev;           /* regular files: the file system's device, with ino below */
	ino_t ino;
	uint64_t size;       /* bytes */
	uint32_t lbs;        /* logical block size, bytes (files: the fs's dio alignment) */
	uint32_t pbs;        /* physical block size, bytes */
};

/*
 * Open path for I/O; write: read-write (block devices then with O_EXCL). Returns 0, or
 * -errno with a message in err: -ENOENT and friends for a path that cannot be resolved,
 * -EINVAL for something that is neither a block device nor a regular file or that refuses
 * direct I/O, -ELOOP when the path changed while it was being opened, -EBUSY when the
 * kernel refused the exclusive open. After -EBUSY, t->rdev and t->resolved say which
 * device refused, so the caller can find out why.
 */
int target_open(struct target *t, const char *path, bool write, char *err, size_t errlen);
void target_close(struct target *t);

/*
 * The disk sequence number of block device target t (BLKGETDISKSEQ, kernel 5.15: a
 * partition answers its disk's) into *seq: 0, or -errno (a file, an older kernel).
 */
int target_diskseq(const struct target *t, uint64_t *seq);

#endif
