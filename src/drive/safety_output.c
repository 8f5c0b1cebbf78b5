// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Outputs written whole or not at all (safety.h; docs/DESIGN.md, "Safety", Outputs): a
 * temporary file beside the name, renamed over it once the command has succeeded.
 *
 * What replaces the name is a rename within the directory that was checked (a descriptor
 * of it is kept), so it never writes through whatever is at the name: a symbolic link, a
 * device node or a FIFO put there since the check is at worst what the rename would
 * replace, and is caught before that (RENAME_NOREPLACE for a name that was free,
 * RENAME_EXCHANGE and a look at what came back for a file that was there).
 */
#include "safety.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"

#define LOOK_TRIES 3   /* a name that changes under its check this often is refused */
#define TEMP_TRIES 100 /* temporary names tried before giving up (they are random) */

static int fail(const struct safety_output *o, int ret, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", o->path, strerror(-ret));
	return ret;
}

static int changed(const struct safety_output *o, const char *when, const char *now, char *err,
		   size_t errlen)
{
	snprintf(err, errlen,
		 "%s: refusing to write an output there: it changed while it was %s%s%s%s", o->path,
		 when, now ? " (it is now " : "", now ? now : "", now ? ")" : "");
	return -EINVAL;
}

/* Is st the file that was checked (a regular file, the same inode)? */
static bool is_checked(const struct safety_output *o, const struct stat *st)
{
	return o->existed && S_ISREG(st->st_mode) && st->st_dev == o->dev && st->st_ino == o->ino;
}

/*
 * Look at the name given and check it as an output: what is there (o->existed and its
 * inode) and where it lies (o->at; its directory into dir, its name into o->name; a
 * symbolic link to a file resolved to that file). 0, or -errno with the reason in err.
 */
static int look(struct safety_output *o, char *dir, size_t dlen, char *err, size_t errlen)
{
	char *real = NULL;
	const char *at = o->path, *slash, *base;
	struct stat st;
	int ret;

	o->existed = lstat(o->path, &st) == 0;
	if (!o->existed && errno != ENOENT)
		return fail(o, -errno, err, errlen);
	if (o->existed && S_ISLNK(st.st_mode)) {
		if (stat(o->path, &st) < 0) {
			if (errno != ENOENT)
				return fail(o, -errno, err, errlen);
			snprintf(err, errlen,
				 "%s: refusing to write an output there: it is a symbolic link to "
				 "no "
				 "file",
				 o->path);
			return -EINVAL;
		}
		if (!(at = real = realpath(o->path, NULL)))
			return fail(o, -errno, err, errlen);
	}
	o->dev = o->existed ? st.st_dev : 0;
	o->ino = o->existed ? st.st_ino : 0;
	ret = safety_check_output(o->path, NULL, 0, false, o->roots, err, errlen);
	slash = strrchr(at, '/');
	base = slash ? slash + 1 : at;
	if (!ret && (!*base || !strcmp(base, ".") || !strcmp(base, "..")))
		ret = fail(o, -EISDIR, err, errlen); /* "dir/" that does not exist yet */
	else if (!ret && (strlen(base) >= sizeof(o->name) || strlen(at) >= sizeof(o->at)))
		ret = fail(o, -ENAMETOOLONG, err, errlen);
	if (!ret) {
		snprintf(o->at, sizeof(o->at), "%s", at);
		snprintf(o->name, sizeof(o->name), "%s", base);
		if (!slash)
			snprintf(dir, dlen, ".");
		else
			snprintf(dir, dlen, "%.*s", slash == at ? 1 : (int)(slash - at), at);
	}
	free(real);
	return ret;
}

/* Is the name in o->dirfd still what look() saw? */
static bool still_there(const struct safety_output *o)
{
	struct stat st;

	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return !o->existed && errno == ENOENT;
	return is_checked(o, &st);
}

/* The temporary file: a random hidden name beside o->name, created exclusively. */
static int make_temp(struct safety_output *o)
{
	static const char alnum[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[6];
	char suffix[sizeof(rnd) + 1];

	for (unsigned i = 0; i < TEMP_TRIES; i++) {
		if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
			unsigned long x = (unsigned long)getpid() * 2654435761u ^
					  (unsigned long)clock() ^ i * 40503u;
			for (size_t k = 0; k < sizeof(rnd); k++, x >>= 5)
				rnd[k] = (unsigned char)x;
		}
		for (size_t k = 0; k < sizeof(rnd); k++)
			suffix[k] = alnum[rnd[k] % (sizeof(alnum) - 1)];
		suffix[sizeof(rnd)] = '\0';
		/* ".NAME.XXXXXX", NAME cut to fit */
		snprintf(o->tmp, sizeof(o->tmp), ".%.*s.%s",
			 (int)(sizeof(o->tmp) - sizeof(suffix) - 2), o->name, suffix);
		int fd = openat(o->dirfd, o->tmp,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
				0666);
		if (fd >= 0 || errno != EEXIST) {
			if (fd < 0)
				o->tmp[0] = '\0';
			return fd < 0 ? -errno : fd;
		}
	}
	o->tmp[0] = '\0';
	return -EEXIST;
}

/* The temporary file made to look like the file it replaces: its owner and permissions. */
static int take_mode(const struct safety_output *o, int fd)
{
	struct stat st;

	if (!o->existed)
		return 0; /* created 0666 & ~umask, as a new file is */
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !is_checked(o, &st))
		return -EAGAIN;
	/* the owner where this process may give it (root, or a group it is in); the mode
	   after it, since a change of owner clears set-id bits */
	if (fchown(fd, st.st_uid, st.st_gid) < 0 && fchown(fd, (uid_t)-1, st.st_gid) < 0)
		errno = 0; /* not this process's to give: it stays its own */
	return fchmod(fd, st.st_mode & 0777) < 0 ? -errno : 0;
}

int safety_output_open(struct safety_output *o, const char *path, const struct inuse_roots *roots,
		       char *err, size_t errlen)
{
	char dir[PATH_MAX];
	int fd = -EAGAIN, ret;

	*o = (struct safety_output){.roots = roots, .dirfd = -1};
	if (strlen(path) >= sizeof(o->path))
		return fail(o, -ENAMETOOLONG, err, errlen);
	snprintf(o->path, sizeof(o->path), "%s", path);
	for (unsigned tries = 0; fd == -EAGAIN && tries < LOOK_TRIES; tries++) {
		if (o->dirfd >= 0)
			close(o->dirfd);
		o->dirfd = -1;
		if ((ret = look(o, dir, sizeof(dir), err, errlen)))
			return ret;
		/* the directory is held from here on: the output lands where it was checked */
		o->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (o->dirfd < 0)
			return fail(o, -errno, err, errlen);
		if (!still_there(o))
			continue; /* changed while it was checked: checked again */
		if (o->existed && faccessat(o->dirfd, o->name, W_OK, AT_EACCESS) < 0) {
			ret = fail(o, -errno, err, errlen);
			safety_output_abort(o);
			return ret;
		}
		fd = make_temp(o);
		if (fd >= 0 && (ret = take_mode(o, fd))) {
			close(fd);
			unlinkat(o->dirfd, o->tmp, 0);
			o->tmp[0] = '\0';
			fd = ret;
		}
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		ret = fd == -EAGAIN ? changed(o, "checked", NULL, err, errlen)
				    : fail(o, fd < 0 ? fd : -errno, err, errlen);
		if (fd >= 0)
			close(fd);
		safety_output_abort(o);
		return ret;
	}
	return 0;
}

/* A name that was free: claimed by the rename alone. 0, -EAGAIN taken since, or -errno. */
static int rename_new(struct safety_output *o)
{
	struct stat st;

	if (renameat2(o->dirfd, o->tmp, o->dirfd, o->name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EEXIST)
		return -EAGAIN;
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -errno;
	/* no RENAME_NOREPLACE here: a hard link is as exclusive */
	if (linkat(o->dirfd, o->tmp, o->dirfd, o->name, 0) == 0) {
		unlinkat(o->dirfd, o->tmp, 0);
		return 0;
	}
	if (errno == EEXIST)
		return -EAGAIN;
	if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	/* nor hard links (vfat): the name looked at just before */
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
		return -EAGAIN;
	return renameat(o->dirfd, o->tmp, o->dirfd, o->name) ? -errno : 0;
}

/* A file that was there: replaced only if it is still the one checked. 0, -EAGAIN, -errno. */
static int rename_over(struct safety_output *o)
{
	struct stat st;

	if (renameat2(o->dirfd, o->tmp, o->dirfd, o->name, RENAME_EXCHANGE) == 0) {
		/* what was at the name is now at the temporary name: the file checked goes,
		   anything else is put back */
		if (fstatat(o->dirfd, o->tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    is_checked(o, &st)) {
			unlinkat(o->dirfd, o->tmp, 0);
			return 0;
		}
		if (renameat2(o->dirfd, o->tmp, o->dirfd, o->name, RENAME_EXCHANGE) < 0) {
			o->tmp[0] = '\0'; /* it holds what was there: never removed */
			return -errno;
		}
		return -EAGAIN;
	}
	if (errno == ENOENT)
		return -EAGAIN; /* gone since: a free name now */
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -errno;
	/* no RENAME_EXCHANGE here (NFS): the name looked at just before */
	if (!still_there(o))
		return -EAGAIN;
	return renameat(o->dirfd, o->tmp, o->dirfd, o->name) ? -errno : 0;
}

/*
 * The name in the directory changed since it was checked: checked again, as it is now.
 * A regular file put there is checked as any output; a symbolic link (or anything else)
 * is refused, never followed. 0, or -errno with the reason in err.
 */
static int look_again(struct safety_output *o, char *err, size_t errlen)
{
	struct stat st, now;
	int ret;

	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return fail(o, -errno, err, errlen);
		o->existed = false;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return changed(o, "written",
			       S_ISLNK(st.st_mode) ? "a symbolic link" : fileio_kind(st.st_mode),
			       err, errlen);
	if ((ret = safety_check_output(o->at, NULL, 0, false, o->roots, err, errlen)))
		return ret;
	/* what was checked by its path is what the directory holds */
	if (fstatat(o->dirfd, o->name, &now, AT_SYMLINK_NOFOLLOW) < 0 || now.st_dev != st.st_dev ||
	    now.st_ino != st.st_ino)
		return -EAGAIN;
	o->existed = true;
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return 0;
}

int safety_output_commit(struct safety_output *o, char *err, size_t errlen)
{
	int ret = 0;

	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		ret = errno ? -errno : -EIO; /* an earlier write's error is not known by now */
	else if (fsync(fileno(o->f)))
		ret = -errno;
	if (fclose(o->f) && !ret)
		ret = -errno;
	o->f = NULL;
	if (ret)
		fail(o, ret, err, errlen);
	for (unsigned tries = 0; !ret; tries++) {
		if (tries == LOOK_TRIES) {
			ret = changed(o, "written", NULL, err, errlen);
			break;
		}
		ret = o->existed ? rename_over(o) : rename_new(o);
		if (ret == -EAGAIN)
			ret = look_again(o, err, errlen);
		else if (ret)
			fail(o, ret, err, errlen);
		else
			break;
		if (ret == -EAGAIN)
			ret = 0; /* changed again while it was checked: one more try */
	}
	if (!ret)
		o->tmp[0] = '\0';
	safety_output_abort(o);
	return ret;
}

int safety_output_write(const char *path, const void *buf, size_t len,
			const struct inuse_roots *roots, char *err, size_t errlen)
{
	struct safety_output o;

	if (safety_output_open(&o, path, roots, err, errlen))
		return -EINVAL;
	if (fwrite(buf, 1, len, o.f) != len) {
		int ret = fail(&o, errno ? -errno : -EIO, err, errlen);
		safety_output_abort(&o);
		return ret;
	}
	return safety_output_commit(&o, err, errlen);
}

void safety_output_abort(struct safety_output *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0] && o->dirfd >= 0)
		unlinkat(o->dirfd, o->tmp, 0);
	o->tmp[0] = '\0';
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->dirfd = -1;
}
