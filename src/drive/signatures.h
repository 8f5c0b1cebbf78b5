/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SIGNATURES_H
#define DB_SIGNATURES_H
/*
 * What a block device or file holds, as libblkid finds it (what `wipefs -n` lists): file
 * systems, RAID, LVM and ZFS members, LUKS, swap, partition tables, each with its type,
 * label and UUID where it has them and where its magic is. Read-only: the door says it
 * before a write destroys it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIG_MAX 8 /* signatures kept; more are counted */

struct sig {
	bool table;	 /* a partition table (PTTYPE); else a superblock (TYPE) */
	char type[32];	 /* "ext4", "dos", "LVM2_member" */
	char label[64];	 /* control characters made visible; "" none */
	char uuid[64];	 /* "" none */
	uint64_t offset; /* of its magic, bytes */
};

struct sig_list {
	unsigned n;
	unsigned more; /* found beyond SIG_MAX */
	struct sig s[SIG_MAX];
};

/*
 * Probe what fd (any descriptor of the device or file, O_DIRECT or not: it is reopened
 * for buffered reads) holds into *out. 0, or -errno when it could not be read.
 */
int sig_probe_fd(int fd, struct sig_list *out);
/* The same by path (opened read-only, never exclusively). */
int sig_probe_path(const char *path, struct sig_list *out);
/*
 * The same, waiting for it at most ms milliseconds: a read of a loop device over an
 * image on a server that stopped answering never returns, and neither a screen nor a
 * refusal may wait with it, nor the caller's exit (the last close of a block device waits
 * for its reads). So the probe runs in a process of its own (probe_within(), probe.h),
 * holding the device open and nothing else of the caller's; -ETIMEDOUT when it has not
 * answered in time, and then it is left to end when the read does. path may be
 * /proc/self/fd/N (the caller's N).
 */
int sig_probe_path_within(const char *path, struct sig_list *out, unsigned ms);
/* How long the door and the screens wait for that read: a sleeping disk spins up in
   seconds; a loop device over a dead server's image never answers. */
#define SIG_PROBE_MS 2000u
/* "an ext4 file system 'data' (UUID 1b2c...) at 0x438, a dos partition table at 0x1fe";
   "" when there is nothing. buf, cut at len. */
char *sig_describe(const struct sig_list *l, char *buf, size_t len);

#endif
