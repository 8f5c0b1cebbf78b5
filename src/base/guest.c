// SPDX-License-Identifier: GPL-2.0-or-later
#include "guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "text.h"

#define GUEST_UID_FALLBACK 65534 /* the overflow uid, `nobody` on most systems */
#define REMOVE_DEPTH	   16	 /* directories in directories removed, at most */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* Landlock ABI 3, newer than these headers */
#endif

/*
 * Remove what is in directory fd (fd is closed), never following a link, and no deeper
 * than REMOVE_DEPTH. 0, or the -errno of the first entry that could not be removed.
 */
static int empty_dir(int fd, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!unlinkat(dirfd(d), e->d_name, 0))
			continue;
		if (errno != EISDIR) {
			ret = ret ? ret : -errno;
			continue;
		}
		int sub = openat(dirfd(d), e->d_name,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int r = sub < 0 ? -errno : depth < REMOVE_DEPTH ? empty_dir(sub, depth + 1) : 0;
		if (sub >= 0 && depth >= REMOVE_DEPTH)
			close(sub);
		if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR))
			r = r ? r : -errno;
		ret = ret ? ret : r;
	}
	closedir(d);
	return ret;
}

static int landlock_version(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return v > 0 ? (int)v : 0;
}

/* The guest: `nobody`, when the caller is root. */
static void guest_identity(struct guest *g)
{
	struct passwd *pw;

	g->drop = geteuid() == 0;
	if (!g->drop)
		return;
	pw = getpwnam("nobody");
	g->uid = pw && pw->pw_uid ? pw->pw_uid : GUEST_UID_FALLBACK;
	g->gid = pw && pw->pw_gid ? pw->pw_gid : GUEST_UID_FALLBACK;
}

/*
 * Where TOP is made: TMPDIR when it is an absolute directory that no one but its owner,
 * the caller or root, can change (a sticky one: nobody can rename another's), else /tmp.
 */
static const char *guest_base(void)
{
	const char *t = getenv("TMPDIR");
	struct stat st;

	if (!t || t[0] != '/' || strlen(t) > GUEST_BASE_MAX || stat(t, &st) ||
	    !S_ISDIR(st.st_mode) || (st.st_uid && st.st_uid != geteuid()))
		return "/tmp";
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return "/tmp";
	return t;
}

int guest_open(struct guest *g, const char *prefix, char *err, size_t errlen)
{
	int ret;

	memset(g, 0, sizeof(*g));
	g->top_fd = g->dir_fd = -1;
	g->null_fd = open("/dev/null", O_PATH | O_CLOEXEC);
	guest_identity(g);
	text_fmt(g->top, sizeof(g->top), "%s/%s-XXXXXX", guest_base(), prefix);
	if (!mkdtemp(g->top)) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", g->top, strerror(-ret));
		g->top[0] = '\0';
		return ret;
	}
	text_fmt(g->dir, sizeof(g->dir), "%s/guest", g->top);
	g->top_fd = open(g->top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* TOP: the guest passes through to its directory, and reads a job file it is given */
	if (g->top_fd < 0 || (g->drop && fchmod(g->top_fd, 0711)) ||
	    mkdirat(g->top_fd, "guest", 0700)) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", g->top, strerror(-ret));
		goto fail;
	}
	g->dir_fd = openat(g->top_fd, "guest", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (g->dir_fd < 0 || (g->drop && fchown(g->dir_fd, g->uid, g->gid))) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", g->dir, strerror(-ret));
		goto fail;
	}
	g->landlock_abi = landlock_version();
	return 0;
fail:
	guest_close(g);
	return ret;
}

int guest_put(const struct guest *g, const char *name, const char *text, char *path,
	      size_t pathlen, char *err, size_t errlen)
{
	size_t len = strlen(text), done = 0;
	int fd, ret = 0;

	text_fmt(path, pathlen, "%s/%s", g->top, name);
	fd = openat(g->top_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

/* Landlock: nothing created, written or removed outside the guest's directory. */
static int fence(const struct guest *g)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs =
			LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
			LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
			LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
			LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
			LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM,
	};
	struct landlock_path_beneath_attr rule = {.parent_fd = g->dir_fd};
	struct landlock_path_beneath_attr null = {.parent_fd = g->null_fd,
						  .allowed_access = LANDLOCK_ACCESS_FS_WRITE_FILE};
	int fd, ret = 0;

	if (!g->landlock_abi)
		return 0;
	if (g->landlock_abi >= 2)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	if (g->landlock_abi >= 3)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	rule.allowed_access = attr.handled_access_fs;
	fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) ||
	    (g->null_fd >= 0 &&
	     syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH, &null, 0)) ||
	    syscall(SYS_landlock_restrict_self, fd, 0))
		ret = -errno;
	close(fd);
	return ret;
}

int guest_enter(const struct guest *g)
{
	if (fchdir(g->dir_fd))
		return -errno;
	/* raw system calls: the child of a fork, one thread, nothing of libc's to keep in step */
	if (g->drop && (syscall(SYS_setgroups, 0, NULL) ||
			syscall(SYS_setresgid, g->gid, g->gid, g->gid) ||
			syscall(SYS_setresuid, g->uid, g->uid, g->uid)))
		return -errno;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	int ret = fence(g);
	if (ret)
		return ret;
	/* no way back: a guest that could become root again is no guest */
	if (g->drop && (getuid() != g->uid || !syscall(SYS_setresuid, 0, 0, 0)))
		return -EPERM;
	return 0;
}

int guest_reclaim(struct guest *g)
{
	uid_t me = geteuid();
	struct dirent *e;
	DIR *d;
	int fd;

	if (g->dir_fd < 0)
		return -EBADF;
	if (g->drop && (fchown(g->dir_fd, me, getegid()) || fchmod(g->dir_fd, 0700)))
		return -errno;
	fd = openat(g->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == (g->drop ? g->uid : me))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) && errno == EISDIR) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				empty_dir(sub, 1);
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
	}
	closedir(d);
	return 0;
}

int guest_close(struct guest *g)
{
	int ret = 0;

	if (g->dir_fd >= 0)
		close(g->dir_fd);
	if (g->null_fd >= 0)
		close(g->null_fd);
	if (g->top_fd >= 0) {
		ret = empty_dir(g->top_fd, 0); /* closes it */
		if (rmdir(g->top) && !ret)
			ret = -errno;
	}
	g->dir_fd = g->top_fd = g->null_fd = -1;
	g->top[0] = g->dir[0] = '\0';
	return ret;
}
