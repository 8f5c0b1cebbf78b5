/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_DRIVE_PROBE_H
#define DB_DRIVE_PROBE_H
/*
 * The probes behind discovery (internal to src/drive/). Each is a
 * const ops table; drive.c opens them once per scan, runs fill() on every disk in the
 * order of probe_table[], and closes them.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "drive.h"

struct probe_ctx {
	char sys[PATH_MAX];           /* sysfs root, no trailing slash */
	char proc[PATH_MAX];
	char dev[PATH_MAX];
	bool real_sys;                /* sys is the system's /sys (libudev can be used) */
	const char *pci_dump;         /* lspci -xxx dump for libpci's dump method, or NULL */
};

struct probe_ops {
	const char *name;
	/* 0 and *state, or -ENOTSUP when the probe cannot work here (it is then skipped). */
	int (*open)(const struct probe_ctx *ctx, void **state, char *err, size_t errlen);
	/* Add what this probe knows to d. Missing information is not an error. */
	int (*fill)(void *state, const struct probe_ctx *ctx, struct drive *d);
	void (*close)(void *state);
};

extern const struct probe_ops probe_sysfs_ops;
extern const struct probe_ops probe_udev_ops;
extern const struct probe_ops probe_pci_ops;

/*
 * Read one sysfs attribute (dir/attr) into buf, trailing whitespace and newlines cut.
 * 0, or -errno (-ENOENT when absent).
 */
int probe_read_attr(const char *dir, const char *attr, char *buf, size_t len);
int probe_read_u64(const char *dir, const char *attr, uint64_t *out);
/*
 * A device's number from its sysfs "dev" attribute (dir/dev, "MAJ:MIN"): the one reader
 * of it, for discovery, the in-use snapshot and the write guard. 0, -errno when it cannot
 * be read (-ENOENT when absent), or -EINVAL when it is not MAJ:MIN.
 */
int probe_read_dev(const char *dir, dev_t *out);
/*
 * snprintf() into a fixed buffer for paths and names: 0, or -ENAMETOOLONG when the result
 * was cut. Truncation is checked here, at run time, once.
 */
__attribute__((format(printf, 3, 4))) int probe_fmt(char *buf, size_t len, const char *fmt,
						    ...);
/* Copy src into a fixed buffer, trimming blanks at both ends (SCSI pads with spaces). */
void probe_copy_trim(char *dst, size_t len, const char *src);
/* Resolve a sysfs symlink textually (link relative to its directory) into out. */
int probe_resolve_link(const char *link_path, char *out, size_t len);
/*
 * The block device a node path stands for, following symlinks: 0 and *out, -ENOENT,
 * or -ENOTBLK. dev_root is where to look when a link points outside it.
 */
int probe_stat_node(const char *dev_root, const char *path, dev_t *out);
/* The PCI address component nearest the end of path ("0000:3d:00.0"), or false. */
bool probe_pci_ancestor(const char *syspath, char *addr, size_t len, char *pcidir,
			size_t dirlen);

#endif
