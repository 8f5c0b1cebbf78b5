/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_DRIVE_H
#define DB_DRIVE_H
/*
 * Drive discovery: one record per disk (partitions belong to their disk) saying what the
 * drive is, how it is attached and set up, and whether it is in use.
 *
 * Three probes fill a record, in this order, behind one ops interface (drive_probe.h):
 *   sysfs  kernel attributes: size, queue settings, model/serial/firmware from the device
 *          and its parents (scsi, nvme), transport from the device path, the PCI function
 *          above the disk with its NUMA node, CPU list and sysfs link attributes;
 *   udev   the udev database when a udevd keeps one (by-id links, USB bridge serials);
 *          fills only what sysfs left empty; skipped when the sysfs root is not /sys;
 *   pci    libpci: vendor/device names from pci.ids and the PCIe link decoded from config
 *          space. As non-root only 64 bytes of config space are readable, so the link
 *          falls back to sysfs (link.source says which). Its error handler never exits.
 * Missing information stays empty ("" / 0 / -1): a record is never refused for it.
 *
 * Ownership: struct drive and struct drive_list are plain values; drive_list_free()
 * releases a list's array. drive_to_json() returns a new object the caller owns.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "inuse.h"

struct json_object;

#define DRIVE_LIST_FORMAT  "drivebench-drives"
#define DRIVE_LIST_VERSION 1

/*
 * Transports, declared once: id, name, and whether queue/rotational can be believed on
 * it. Virtual and bridged devices report what the host or bridge chooses (virtio and
 * loop say "rotational" here), so their flag is marked unreliable.
 */
#define DRIVE_TRANSPORTS(X)                  \
	X(DRIVE_TR_OTHER, "other", false)    \
	X(DRIVE_TR_NVME, "nvme", true)       \
	X(DRIVE_TR_SATA, "sata", true)       \
	X(DRIVE_TR_SAS, "sas", true)         \
	X(DRIVE_TR_SCSI, "scsi", false)      \
	X(DRIVE_TR_USB, "usb", false)        \
	X(DRIVE_TR_MMC, "mmc", true)         \
	X(DRIVE_TR_VIRTIO, "virtio", false)  \
	X(DRIVE_TR_LOOP, "loop", false)      \
	X(DRIVE_TR_ZRAM, "zram", false)      \
	X(DRIVE_TR_MD, "md", false)          \
	X(DRIVE_TR_DM, "dm", false)

enum drive_transport {
#define X(id, name, rot_ok) id,
	DRIVE_TRANSPORTS(X)
#undef X
	DRIVE_NTRANSPORTS
};
const char *drive_transport_name(enum drive_transport t);
bool drive_transport_rotational_reliable(enum drive_transport t);

#define DRIVE_MAX_BYID 8

/* One end of a PCIe link. */
struct drive_link_end {
	unsigned speed_mts; /* transfer rate, MT/s: 2500 (Gen1) .. 64000 (Gen6); 0 unknown */
	unsigned width;     /* lanes; 0 unknown */
};

struct drive_pci {
	bool present;                 /* a PCI function was found above the disk */
	char address[16];             /* "0000:3d:00.0" */
	unsigned vendor_id, device_id;
	unsigned subsys_vendor_id, subsys_device_id;
	char vendor[128];             /* from pci.ids through libpci; "" when unknown */
	char device[128];
	bool link_known;              /* current and max below were read */
	struct drive_link_end link_cur; /* what the link trained at */
	struct drive_link_end link_max; /* what the function is capable of */
	bool link_degraded;           /* cur slower or narrower than max */
	char link_source[8];          /* "config" (libpci) or "sysfs" */
	int numa_node;                /* -1 when none */
	char local_cpus[128];         /* CPU list, "0-15,32-47" */
};

struct drive_nvme {
	bool present;
	char controller[32];          /* "nvme0" */
	char model[64];
	char serial[64];
	char firmware[32];
	unsigned nsid;                /* namespace id; 0 unknown */
};

enum drive_wcache { DRIVE_WCACHE_UNKNOWN, DRIVE_WCACHE_BACK, DRIVE_WCACHE_THROUGH };
extern const char *const drive_wcache_name[]; /* "unknown", "write back", "write through" */

struct drive {
	char name[32];                /* kernel name: "nvme0n1", "sda" */
	char node[64];                /* "/dev/nvme0n1" */
	char by_id[DRIVE_MAX_BYID][128]; /* "/dev/disk/by-id/..." links to the disk */
	unsigned nby_id;
	dev_t devnum;
	unsigned major, minor;
	char partition[32];           /* set by drive_probe_path() when the path named one */
	unsigned npartitions;
	enum drive_transport transport;
	char model[64];
	char serial[64];
	char firmware[32];
	char vendor[64];
	char wwn[64];                 /* WWN / EUI / NGUID as the kernel spells it (wwid) */
	uint64_t capacity_bytes;
	uint64_t diskseq; /* the kernel's disk sequence number (5.15): a new disk,
			     even under a reused name, has a new one; 0 unknown */
	unsigned logical_block_bytes;
	unsigned physical_block_bytes;
	bool rotational;
	bool rotational_unreliable;   /* the transport does not report real media */
	bool removable;
	char scheduler[32];           /* the active one: "none", "mq-deadline" */
	unsigned nr_requests;         /* block layer queue depth */
	enum drive_wcache write_cache;
	bool discard;
	uint64_t discard_max_bytes;
	bool read_only;
	struct drive_pci pci;
	struct drive_nvme nvme;
	bool inuse_known;             /* the in-use check ran */
	struct inuse inuse;
	char syspath[512];            /* "/sys/devices/.../block/sda", under the sysfs root */
};

struct drive_list {
	struct drive *drives;         /* malloc'd, sorted by name in natural order */
	size_t count;
};

/* Where discovery looks; NULL members mean the real system. For fixtures and benches. */
struct drive_scan_opts {
	const char *sys_root;         /* default "/sys" */
	const char *proc_root;        /* default "/proc" */
	const char *dev_root;         /* default "/dev" */
	const char *pci_dump;         /* read PCI config from an `lspci -xxx` dump instead */
	bool include_empty;           /* list disks of size 0 too (unattached loop, zram) */
	bool skip_inuse;              /* do not run the in-use checks */
};

void drive_init(struct drive *d);

/* Every disk on the system. 0 or -errno, message in err; *out is empty on error. */
int drive_scan(struct drive_list *out, const struct drive_scan_opts *opts, char *err,
	       size_t errlen);
void drive_list_free(struct drive_list *l);

/*
 * The record of the disk behind any path: a device node, a symlink to one (by-id), or a
 * partition (the record is the whole disk's; d->partition names the partition).
 * -ENOTBLK when the path is not a block device (a file target), -ENOENT, -ENODEV.
 */
int drive_probe_path(const char *path, struct drive *out, char *err, size_t errlen);
int drive_probe_path_opts(const char *path, const struct drive_scan_opts *opts,
			  struct drive *out, char *err, size_t errlen);
/* The same for a device number (a device already opened), with no path looked up. */
int drive_probe_devnum(dev_t devnum, struct drive *out, char *err, size_t errlen);

/*
 * Transport from the kernel name and the device path (both from sysfs). Exposed so that
 * tests can run it over a table of real-world paths.
 */
enum drive_transport drive_transport_classify(const char *name, const char *syspath);

/* PCIe generation of a transfer rate in MT/s (2500 -> 1 ... 64000 -> 6); 0 unknown. */
unsigned drive_pcie_gen(unsigned speed_mts);
/* "Gen4 x4" (speed from the rate), "8 GT/s x2" for rates outside the table, "-". */
char *drive_link_fmt(char *buf, size_t len, const struct drive_link_end *e);
/* Parse sysfs's "16.0 GT/s PCIe" into MT/s; 0 for "Unknown speed". */
unsigned drive_parse_link_speed(const char *s);

/* Every field of the record; the "target.drive" section of a result file. */
struct json_object *drive_to_json(const struct drive *d);
/*
 * The `drivebench list --json` document: {"format": DRIVE_LIST_FORMAT, "version":
 * DRIVE_LIST_VERSION, "tool": {"name", "version"}, "drives": [drive_to_json() ...]}.
 */
struct json_object *drive_list_to_json(const struct drive_list *l, const char *tool_version);

/*
 * Hotplug: a monitor on the kernel's uevents (the "kernel" netlink source; the "udev"
 * source gets nothing without udevd). The fd is non-blocking: poll it, then call
 * drive_monitor_read() until it returns 0.
 */
enum drive_event_kind { DRIVE_EV_ADDED, DRIVE_EV_REMOVED, DRIVE_EV_CHANGED };
extern const char *const drive_event_kind_name[]; /* "added", "removed", "changed" */

struct drive_event {
	enum drive_event_kind kind;
	char name[32];                /* kernel name of the disk */
	dev_t devnum;
};

struct drive_monitor;
int drive_monitor_open(struct drive_monitor **out, char *err, size_t errlen);
int drive_monitor_fd(const struct drive_monitor *m);
/* 1 and *ev filled for a disk event; 0 when nothing (more) is pending; -errno. */
int drive_monitor_read(struct drive_monitor *m, struct drive_event *ev);
void drive_monitor_close(struct drive_monitor *m);

#endif
