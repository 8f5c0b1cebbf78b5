/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_GUEST_H
#define DB_GUEST_H
/*
 * A child process run as a guest: for a program that talks to a party drivebench does
 * not trust (fio's client, whose servers can ask it for local files and name the files
 * it writes), a private place and an identity with no privileges.
 *
 *   the place      TOP/guest, where TOP is a new BASE/PREFIX-XXXXXX of the caller's
 *                  (mode 0711: the guest can pass through, not list or change it) and
 *                  guest is the guest's own (mode 0700), its working directory; BASE
 *                  is TMPDIR when it is an absolute directory of the caller's or
 *                  root's that nobody else can change (or sticky), else /tmp;
 *   the identity   as root, the `nobody` user and its group (65534 when there is no
 *                  such user), no supplementary groups, no new privileges
 *                  (PR_SET_NO_NEW_PRIVS: no set-user-ID program gives any back);
 *   the fence      with Landlock (Linux 5.13), the guest cannot create, write, truncate,
 *                  rename or remove anything outside its directory (but /dev/null),
 *                  whoever it runs as; without it only its identity holds it back.
 *
 * The guest reads what its identity can read: files readable by everyone. Once it has
 * ended, guest_reclaim() takes its directory back before the caller reads what it wrote,
 * so nothing of the guest's identity can change the files (or swap them for links)
 * while they are read.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define GUEST_BASE_MAX 200		    /* bytes of a TMPDIR that is used */
#define GUEST_PATH_MAX (GUEST_BASE_MAX + 64) /* TOP's path, at most */

struct guest {
	bool drop;        /* the child becomes uid:gid (the caller runs as root) */
	uid_t uid;        /* the guest's identity */
	gid_t gid;
	int top_fd;       /* TOP, open; -1 when closed */
	int dir_fd;       /* TOP/guest, open */
	int null_fd;      /* /dev/null (O_PATH), which the guest may still write to */
	char top[GUEST_PATH_MAX];      /* TOP's path */
	char dir[GUEST_PATH_MAX + 8]; /* TOP/guest's path */
	int landlock_abi; /* Landlock's version, 0 when the kernel has none */
};

/* Make the place (prefix names TOP: "drivebench-lab"). 0 or -errno, the message in err. */
int guest_open(struct guest *g, const char *prefix, char *err, size_t errlen);

/*
 * Write text into TOP/name, readable by the guest and by nobody else's changes: the
 * guest's job files. 0 or -errno, the message in err.
 */
int guest_put(const struct guest *g, const char *name, const char *text, char *path,
	      size_t pathlen, char *err, size_t errlen);

/*
 * In a forked child, before exec: into the guest's directory, behind the fence, as the
 * guest. Only system calls (safe after fork). 0, or -errno of the step that failed (the
 * child must not go on then).
 */
int guest_enter(const struct guest *g);

/*
 * After the guest and all it started have ended: its directory back to the caller, and
 * whatever in it is not a regular file of the guest's with one link (a symbolic link to
 * a file of the caller's, a FIFO, a directory) removed. 0 or -errno.
 */
int guest_reclaim(struct guest *g);

/*
 * Remove the place and everything in it (no link followed), and close it. 0, or the
 * -errno of the first thing that could not be removed: the place (g->top, as it was
 * before the call) is left behind, and the caller says so.
 */
int guest_close(struct guest *g);

#endif
