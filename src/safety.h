/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SAFETY_H
#define DB_SAFETY_H
/*
 * The write guard: every path that writes or purges (drivebench run, replay, the TUI)
 * asks here first. A write to a block device is refused when the device, its whole disk
 * or any partition of it is mounted, is active swap, has holders (LVM, md, dm, a loop
 * device backed by it) or holds the root file system, all matched by device number so no
 * symlink or alias slips past; and it needs a confirmation naming the same device. File
 * targets need neither. Target opening then adds O_EXCL so the kernel enforces it too.
 */
#include <stddef.h>

#include "inuse.h"

/*
 * May we write to path? confirm is what the operator named to confirm it
 * (--yes-destroy=PATH, or a device name typed in the TUI: "nvme1n1" means /dev/nvme1n1),
 * or NULL. Returns 0 to go ahead, -EPERM when refused (reason in err), or -errno when the
 * path cannot be examined. roots: NULL for the real /proc and /sys.
 */
int safety_check_write(const char *path, const char *confirm, const struct inuse_roots *roots,
		       char *err, size_t errlen);

#endif
