/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_INUSE_INT_H
#define DB_INUSE_INT_H
/*
 * Inside the in-use module: the snapshot that inuse.c takes (block devices, mounts, swaps)
 * and inuse_graph.c walks. Not for other modules.
 */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "inuse.h"


struct blk_entry {
	char name[64];
	dev_t dev;
	char parent[64];      /* the disk of a partition; "" for a disk */
	uint64_t start;       /* a partition: its first byte on the disk */
	uint64_t size;        /* bytes (sysfs "size"); 0 when not known */
	bool is_loop;         /* a bound loop device: what backs it is below */
	dev_t backing;        /* a loop device over a block device: that device; else 0 */
	bool backing_is_file; /* a loop device over a regular file: that file is */
	dev_t file_dev;       /* ... this inode of this file system */
	ino_t file_ino;
	uint64_t loop_offset; /* bytes into what backs it where the loop device starts */
	uint64_t loop_limit;  /* bytes of it the loop device covers; 0: to its end */
	char backing_name[256]; /* the backing path as sysfs shows it, for messages */
	char *backing_path;	/* ... as it is (or a zram device's writeback path); a loop
				   over a file on a remote mount has file_ino 0: the path
				   alone says which file */
	dev_t writeback;	/* a zram device: the block device it writes back to; else 0 */
};

struct mount_ent {
	dev_t dev;
	char *mnt; /* NULL: mounted where no mount table here shows (a lazy unmount) */
	char fstype[16];
	char role[96];	/* "" for the device mountinfo names; else what dev is to the file
			   system ("one of 2 devices of btrfs 'lab'", "... external log") */
	char where[96]; /* "" in this mount namespace; else which ("the mount namespace of
			   sleep (pid 42)"), mnt being that namespace's path */
};

/*
 * A file system mounted straight from a regular file, with no loop device (erofs over an
 * image file, CONFIG_EROFS_FS_BACKED_BY_FILE): mountinfo's source is the file's path,
 * which is what names the file; the kernel holds it open without any descriptor of a
 * process.
 */
struct file_mount {
	dev_t dev;   /* the file, as a stat() of the source said when the snapshot was */
	ino_t ino;   /* taken; 0 on a remote mount, where path alone says which file */
	char *path;  /* the source, in its mount namespace's terms */
	char *shown; /* ... its visible form, for messages */
	char *mnt;   /* where it is mounted, visible form */
	char fstype[16];
	char where[96]; /* "" in this mount namespace; else which, as in mount_ent */
	char *root;	/* "PROC/PID/root" the path starts at; NULL in this namespace (owned) */
};

/*
 * A mount of a file system whose server can stop answering (NFS, CIFS, FUSE...): a stat()
 * of a file on it may then never return, so what is open there is known from the mount
 * table and /proc/PID/fdinfo instead.
 */
struct remote_mnt {
	int id;	   /* mountinfo's mount ID, as fdinfo's mnt_id names it */
	dev_t dev; /* its file system's device number, what a stat() would say */
	char *at;  /* where it is mounted, in its own mount namespace's terms */
	char *root; /* what of its file system is mounted there ("/", or "/sub" for a bind
		       mount of a directory) */
	char *source; /* a network file system's export ("srv:/export"); NULL for FUSE */
	char *server; /* the same by the server's address, the kernel's "addr=" option
			 ("10.0.0.5:/export", "//10.0.0.5/share"), or NULL */
};

/* An overlay (overlayfs): where each file's data is, its upper or a lower directory. */
struct overlay_mnt {
	dev_t dev;   /* the overlay's device number, what stat() of its files says */
	char *at;    /* where it is mounted, in its own mount namespace's terms */
	char *root;  /* what of the overlay is mounted there */
	char *upper; /* the upper directory, or NULL (a read-only overlay) */
	char *lower; /* the lower directories, top first, ':' between, or NULL */
	bool userxattr; /* its own attributes are "user.overlay.*", not "trusted.overlay.*" */
};

struct swap_ent {
	dev_t dev;
	bool is_file; /* a swap file: dev is the device of the file system holding it */
	ino_t ino;    /* a swap file's inode */
	char *path;
};

/*
 * A writer of a block device or a regular file that does not claim it: another process
 * with a descriptor open for writing, a shared writable mapping or the file registered in
 * an io_uring of its own, or a kernel exporter (an NVMe-oF target namespace, a LIO
 * backstore) that has it open.
 */
enum open_how { OPEN_FD, OPEN_MAP, OPEN_RING, OPEN_EXPORT };

struct open_ent {
	bool is_file; /* a regular file (dev, ino); else the block device dev */
	dev_t dev;
	ino_t ino;
	enum open_how how;
	pid_t pid;     /* OPEN_FD, OPEN_MAP */
	char who[160]; /* the command name, or the export ("nvmet subsystem S namespace 1"),
			  control characters made visible */
	char *path;    /* a file on a remote mount: its path as the kernel shows it (the
			  inode alone does not match a loop device known by its path) */
};

struct inuse_snapshot {
	char sys[PATH_MAX];
	bool real_sys; /* sys is the running kernel's: its device nodes may be asked */
	struct blk_entry *blk;
	size_t nblk;
	struct mount_ent *mounts;
	size_t nmounts;
	struct swap_ent *swaps;
	size_t nswaps;
	bool have_root;
	dev_t root_dev;    /* the device mounted on "/" */
	dev_t *root_under; /* root_dev and every device below it (slaves) */
	size_t nroot_under;
	struct open_ent *opens; /* writers that do not claim: processes, exporters */
	size_t nopens;
	struct remote_mnt *remote; /* network and FUSE mounts, by mount ID (sorted) */
	size_t nremote;
	struct overlay_mnt *ovl; /* overlays, in every mount namespace */
	size_t novl, ovl_cap;
	struct file_mount *fmounts; /* file systems mounted from a file, every namespace */
	size_t nfmounts, fmcap;
};

/* inuse_mounts.c: mountinfo's mounts, and every device of each mounted btrfs. */
int inuse_load_mounts(struct inuse_snapshot *s, const char *proc, size_t *cap, char *err,
		      size_t errlen);
int inuse_load_btrfs(struct inuse_snapshot *s, size_t *cap);
/* ... and which file each file system mounted from a file is on (a stat() of its source,
   asking no remote file system), once every namespace's mounts are known */
void inuse_resolve_file_mounts(struct inuse_snapshot *s);
void inuse_free_file_mounts(struct inuse_snapshot *s);
/* ... and file systems alive on a device no mount table shows (a lazy unmount in use) */
int inuse_load_live_fs(struct inuse_snapshot *s, size_t *cap, const char *proc);

/* The remote mount with this ID, or NULL; a remote mount's device number is dev. */
const struct remote_mnt *inuse_remote_by_id(const struct inuse_snapshot *s, int id);
bool inuse_remote_dev(const struct inuse_snapshot *s, dev_t dev);
/*
 * The remote mount a path as the kernel shows one (no symlinks) is on or crosses, in this
 * mount namespace or another, or NULL: a stat() of it could wait for a server that never
 * answers.
 */
const struct remote_mnt *inuse_remote_path(const struct inuse_snapshot *s, const char *path);
/*
 * Paths a and b (as the kernel shows them) name one file of one remote file system through
 * two of its mounts: a bind mount, the same NFS export mounted twice (with the same
 * options or not), a container's volume and the host's mount of it.
 */
bool inuse_remote_alias(const struct inuse_snapshot *s, const char *a, const char *b);
/* The value of key ("upperdir") in mountinfo's super options, octal escapes decoded, as
   a string to free; NULL when it is not there (or on no memory) */
char *inuse_mount_option(const char *opts, const char *key);
/* inuse_overlay.c: an overlay mount from mountinfo (opts: its super options) */
int inuse_add_overlay(struct inuse_snapshot *s, unsigned maj, unsigned min, const char *root,
		      const char *at, const char *opts);
void inuse_free_overlays(struct inuse_snapshot *s);
bool inuse_overlay_dev(const struct inuse_snapshot *s, dev_t dev);
/* inuse_loop.c: a loop device's backing path (-ENOMEM, else 0); then, once the mounts
   are known, what that is, from the driver when it can be asked, else from the path */
int inuse_read_loop(const char *dir, struct blk_entry *e);
/* ... and the path of what a zram device writes back to (-ENOMEM, else 0) */
int inuse_read_zram_writeback(const char *dir, struct blk_entry *e);
/* What each of those paths is, asking no remote file system. */
void inuse_resolve_backing(struct inuse_snapshot *s);

/*
 * inuse.c: add a writer of what st describes (a block device or a regular file): process
 * pid's, once per object (a descriptor before a mapping, a mapping before a ring; from is
 * where its entries begin), its command name read into who (32 bytes) when first needed;
 * or, pid NULL, the exporter who. remote: a file's path on a remote mount, or NULL; a
 * file without an inode (0) is known by it alone. 0, or -ENOMEM.
 */
int inuse_add_open(struct inuse_snapshot *s, size_t *cap, size_t from, const struct stat *st,
		   enum open_how how, const char *proc, const char *pid, char *who,
		   const char *remote);

/* inuse_uring.c: descriptor name in the fd directory dirfd is an io_uring instance */
bool inuse_is_ring(int dirfd, const char *name);
#define INUSE_MAX_RING_FILES 4096 /* registered files of one process looked at, at most */
/*
 * The files registered in an io_uring instance, from its fdinfo f: each path of its
 * "UserFiles:" list, escapes decoded, passed to each(arg, path) while *left (counted
 * down) lasts. Entries that are no path are not (a kernel before 2025 shows a file's name
 * alone; a socket is "socket:[N]"), nor lines longer than a path can be. 0; -EAGAIN when
 * there is no list (the kernel shows none while the ring is busy); -ENOMEM; or what
 * each() returned when not 0.
 */
int inuse_ring_files(FILE *f, unsigned *left, int (*each)(void *arg, const char *path), void *arg);
/* Every file registered in process pid's rings, as inuse_add_open() takes it: 0, -ENOMEM */
int inuse_load_rings(struct inuse_snapshot *s, size_t *cap, size_t from, const char *proc,
		     const char *pid, char *comm);

/*
 * inuse_tasks.c: the descriptor tables of one process, each once: the leader's ("PID"),
 * then each thread's that is not one already given ("PID/task/TID"). A thread that called
 * unshare(CLONE_FILES), or was cloned without CLONE_FILES, has a table of its own, seen
 * only in /proc/PID/task/TID/fd; a leader that called pthread_exit() is a zombie whose fd
 * directory is empty while its threads hold every descriptor. kcmp(KCMP_FILES) says
 * whether two tasks share a table, so a process of a thousand threads sharing one is read
 * once; without it (a kernel without CONFIG_KCMP, a seccomp filter that refuses it, a
 * /proc other than this process's: a fixture) each live thread's table is read.
 */
#define INUSE_TABLES_COMPARED 16 /* tables of one process told apart by kcmp(), at most */
struct inuse_tables {
	const char *proc, *pid;
	DIR *task;   /* the threads' directory, once the leader's table is given */
	bool kcmp;   /* tables are compared (kcmp() answers) */
	bool probed; /* ... which was asked */
	bool started;
	long given[INUSE_TABLES_COMPARED]; /* tasks whose tables were given: the leader first */
	size_t ngiven;
};
void inuse_tables_start(struct inuse_tables *t, const char *proc, const char *pid);
/* The next table, as "PID" or "PID/task/TID" into buf; false at the end (all closed). */
bool inuse_next_table(struct inuse_tables *t, char *buf, size_t len);

/* d is one of the n numbers in set */
bool inuse_dev_in(const dev_t *set, size_t n, dev_t d);
const struct blk_entry *inuse_blk_by_dev(const struct inuse_snapshot *s, dev_t dev);
const struct blk_entry *inuse_blk_by_name(const struct inuse_snapshot *s, const char *name);

#endif
