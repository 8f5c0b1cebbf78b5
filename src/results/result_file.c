// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result files on disk: saved atomically, a new one's name taken exclusively, and the lock
 * that says a process still writes one (result.h; docs/DESIGN.md, "Result files").
 *
 * The lock is flock(LOCK_EX) on the inode at the file's name. A save writes a temporary
 * file beside the name, locks it, and renames it into place, so the inode at the name is
 * locked for as long as its writer owns it, across every save. Someone who locks what he
 * opened checks afterwards that it is still what the name holds: a save in between put a
 * new inode there, and he tries again on that one.
 */
#include "result.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "text.h"

#define MAX_NAMES 999 /* RESULT_NEW: path, path-2 ... path-999 */
#define MAX_TRIES 16  /* a name whose inode changes under us this often is busy */

struct result_lock {
	int fd;		 /* the inode at path, flock'd */
	char path[4096]; /* the file's name */
	bool made;	 /* the inode is one this process wrote (not a file held as it was) */
	dev_t dev;	 /* fd's inode, as looked at when it was taken (a save's thread may */
	ino_t ino;	 /* not look again: the file system may have stopped answering) */
};

/* The directory part of path into dir ("." for a bare name). */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* A rename is durable only once its directory is. */
static void sync_dir(const char *path)
{
	char dir[4096];

	dir_of(path, dir, sizeof(dir));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

/*
 * text (len bytes) into a new temporary file beside path (same file system: a rename is
 * atomic), synced and locked: its descriptor into *fd, its name into tmp. 0, or -errno
 * with *step saying what failed (nothing is left behind).
 */
static int write_temp(const char *text, size_t len, const char *path, char *tmp, size_t tmplen,
		      int *fd, const char **step)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int ret;

	*fd = -1;
	dir_of(path, dir, sizeof(dir));
	snprintf(tmp, tmplen, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);
	*step = "creating a temporary file";
	*fd = mkostemp(tmp, O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	*step = "writing";
	/* a fresh inode nobody else has opened: the lock is ours at once */
	if (fchmod(*fd, fileio_new_file_mode()) || flock(*fd, LOCK_EX | LOCK_NB))
		ret = -errno;
	else if (!(ret = fileio_write_all(*fd, text, len)) && fsync(*fd))
		ret = -errno;
	if (!ret)
		return 0;
	unlink(tmp);
	close(*fd);
	*fd = -1;
	return ret;
}

/* r as its file holds it: *text (malloc'd, NUL-ended) and *len; 0 or -errno. */
static int result_text(const struct result *r, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);
	int ret;

	if (!f)
		return -errno;
	ret = result_write(r, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret < 0) {
		free(*text);
		*text = NULL;
	}
	return ret < 0 ? ret : 0;
}

/*
 * Lock (op: LOCK_EX or LOCK_SH) the inode that path names, checked to be still the one
 * there once locked: its descriptor into *out. 0; -EAGAIN another process holds it;
 * -ENOENT no file; -ENOLCK nothing to lock (not a regular file, or not readable: replaced
 * as before, unguarded); or -errno.
 */
static int lock_current(const char *path, int op, int *out)
{
	struct stat a, b;

	for (unsigned i = 0; i < MAX_TRIES; i++) {
		if (lstat(path, &a))
			return -errno;
		if (!S_ISREG(a.st_mode))
			return -ENOLCK;
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EACCES)
				return -ENOLCK;
			if (errno == ENOENT || errno == ELOOP)
				continue; /* replaced between the look and the open */
			return -errno;
		}
		if (flock(fd, op | LOCK_NB)) {
			int e = errno;
			close(fd);
			return e == EWOULDBLOCK ? -EAGAIN : -e;
		}
		if (fstat(fd, &b) == 0 && lstat(path, &a) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			*out = fd;
			return 0;
		}
		close(fd); /* a save renamed a new inode in: that one is the file now */
	}
	return -EAGAIN;
}

/*
 * Rename tmp to path only if path does not exist: 0, -EEXIST, or -errno. Where the file
 * system has no RENAME_NOREPLACE, link() is as exclusive; where it has no hard links
 * either (vfat), an O_EXCL placeholder claims the name, locked before tmp replaces it.
 */
static int rename_new(const char *tmp, const char *path)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return -errno;
	if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	}
	if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS)
		return -errno;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	/* someone who locked the empty placeholder first has taken the name over */
	int ret = flock(fd, LOCK_EX | LOCK_NB) ? -EEXIST : rename(tmp, path) ? -errno : 0;
	close(fd);
	return ret;
}

/*
 * Rename tmp to path, replacing what is there unless another process holds it: 0; -EAGAIN
 * it is held; or -errno. A file nobody holds is locked while it is replaced.
 */
static int rename_replace(const char *tmp, const char *path)
{
	for (unsigned i = 0; i < MAX_TRIES; i++) {
		int old, ret = rename_new(tmp, path);
		if (ret != -EEXIST)
			return ret;
		ret = lock_current(path, LOCK_EX, &old);
		if (ret == -ENOENT)
			continue; /* gone in between: claim it new */
		if (ret == -ENOLCK)
			return rename(tmp, path) ? -errno : 0;
		if (ret < 0)
			return ret;
		ret = rename(tmp, path) ? -errno : 0;
		close(old);
		return ret;
	}
	return -EAGAIN;
}

/*
 * The identity of what path names, just after a save put fd's file there: what a later
 * look at the name finds. It is the name's, not the descriptor's, since on a FUSE file
 * system without use_ino a file linked into place (rename_new()) is another inode number
 * under its new name; the descriptor's when the name cannot be looked at.
 */
static void identify(const char *path, int fd, dev_t *dev, ino_t *ino)
{
	struct stat st;

	if (lstat(path, &st) == 0 || fstat(fd, &st) == 0) {
		*dev = st.st_dev;
		*ino = st.st_ino;
	}
}

/*
 * The owner's save: tmp replaces the inode it holds at path (dev, ino), and nothing else.
 * A name someone emptied by hand is made again unless another writer has taken it
 * meanwhile; a name that holds another file now (a run that took it) is left as it is:
 * -ENOTUNIQ. The swap is RENAME_EXCHANGE, and what it brought back is looked at before it
 * goes; where the file system has no exchange (NFS), the look just before the rename.
 * When what came back could not be put back, tmp holds it and is emptied ("") so that
 * nobody removes it.
 */
static int rename_own(char *tmp, const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	for (unsigned i = 0; i < MAX_TRIES; i++) {
		if (lstat(path, &st) < 0) {
			if (errno != ENOENT)
				return -errno;
			int ret = rename_new(tmp, path);
			return ret == -EEXIST ? -ENOTUNIQ : ret;
		}
		if (st.st_dev != dev || st.st_ino != ino)
			return -ENOTUNIQ;
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) < 0) {
			if (errno == ENOENT)
				continue; /* gone since the look */
			if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
				return -errno;
			return rename(tmp, path) ? -errno : 0;
		}
		/* the old inode is at tmp now: it goes if it is the one held, else back */
		if (lstat(tmp, &st) == 0 && st.st_dev == dev && st.st_ino == ino) {
			unlink(tmp);
			return 0;
		}
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) < 0) {
			tmp[0] = '\0';
			return -errno;
		}
		return -ENOTUNIQ;
	}
	return -EAGAIN;
}

/* Name n of RESULT_NEW's series into buf: base-n.json (base and ext split off path). */
static int nth_name(char *buf, size_t len, const char *base, size_t baselen, const char *ext,
		    unsigned n)
{
	int w = snprintf(buf, len, "%.*s-%u%s", (int)baselen, base, n, ext);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* tmp into path or, when taken, the next free name of its series (written into path). */
static int rename_series(const char *tmp, char *path, size_t len)
{
	char first[4096];
	const char *slash, *ext;
	size_t baselen;
	int ret;

	if (text_copy(first, sizeof(first), path) >= sizeof(first))
		return -ENAMETOOLONG;
	slash = strrchr(first, '/');
	ext = strrchr(slash ? slash : first, '.');
	if (!ext || strcmp(ext, ".json"))
		ext = first + strlen(first);
	baselen = (size_t)(ext - first);
	for (unsigned n = 1; n <= MAX_NAMES; n++) {
		if (n > 1 && (ret = nth_name(path, len, first, baselen, ext, n)) < 0)
			break;
		ret = rename_new(tmp, path);
		if (ret != -EEXIST)
			break;
	}
	if (ret < 0)
		text_copy(path, len, first); /* the message names the name asked for */
	return ret;
}

static void save_error(char *err, size_t errlen, const char *path, const char *step, int ret)
{
	if (ret == -EAGAIN)
		text_fmt(err, errlen,
			 "%s: another drivebench is still writing it (a run that "
			 "has not ended?)",
			 path);
	else if (ret == -ENOTUNIQ)
		text_fmt(err, errlen,
			 "%s: the name holds another file since the last save (removed by hand "
			 "and taken again?); that file is left as it is",
			 path);
	else
		text_fmt(err, errlen, "%s: %s: %s%s", path, step, strerror(-ret),
			 access(path, F_OK) == 0 ? " (the previous file is untouched)" : "");
}

/* r, as text, into a temporary file beside path: write_temp()'s. */
static int result_temp(const struct result *r, const char *path, char *tmp, size_t tmplen, int *fd,
		       const char **step)
{
	char *text;
	size_t len;
	int ret;

	*fd = -1;
	*step = "writing";
	if ((ret = result_text(r, &text, &len)) < 0)
		return ret;
	ret = write_temp(text, len, path, tmp, tmplen, fd, step);
	free(text);
	return ret;
}

int result_create(struct result *r, char *path, size_t len, enum result_claim how, char *err,
		  size_t errlen)
{
	char tmp[4096 + 32];
	const char *step;
	struct result_lock *lk = malloc(sizeof(*lk));
	bool made = false;
	int fd, ret;

	if (!lk) {
		text_fmt(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (strnlen(path, len) >= sizeof(lk->path)) {
		text_fmt(err, errlen, "%.64s...: path too long", path);
		free(lk);
		return -ENAMETOOLONG;
	}
	if (how == RESULT_HOLD) {
		/* a file there is locked as it is; none, and r is written at the name */
		step = "locking";
		ret = lock_current(path, LOCK_EX, &fd);
		if (ret == -ENOLCK)
			how = RESULT_REPLACE;
		else if (ret == 0)
			goto held;
		else if (ret != -ENOENT)
			goto failed;
	}
	ret = result_temp(r, path, tmp, sizeof(tmp), &fd, &step);
	if (ret == 0) {
		step = "renaming into place";
		ret = how == RESULT_NEW	   ? rename_series(tmp, path, len)
		      : how == RESULT_HOLD ? rename_new(tmp, path)
					   : rename_replace(tmp, path);
		if (ret == -EEXIST && how == RESULT_HOLD)
			ret = -EAGAIN; /* another writer took the name in between */
		if (ret < 0) {
			unlink(tmp);
			close(fd);
		}
	}
failed:
	if (ret < 0) {
		if (ret == -EEXIST && how == RESULT_NEW)
			text_fmt(err, errlen, "%s: no free name (%u taken)", path, MAX_NAMES);
		else
			save_error(err, errlen, path, step, ret);
		free(lk);
		return ret;
	}
	sync_dir(path);
	made = true;
held:
	result_release(r);
	lk->made = made;
	lk->fd = fd;
	identify(path, fd, &lk->dev, &lk->ino);
	text_copy(lk->path, sizeof(lk->path), path);
	text_copy(r->path, sizeof(r->path), path);
	r->lock = lk;
	return 0;
}

int result_save_prepare(const struct result *r, const char *path, struct result_save *s, char *err,
			size_t errlen)
{
	int ret;

	*s = (struct result_save){.fd = -1};
	if (text_copy(s->path, sizeof(s->path), path) >= sizeof(s->path)) {
		text_fmt(err, errlen, "%.64s...: path too long", path);
		return -ENAMETOOLONG;
	}
	s->own = r->lock && !strcmp(r->lock->path, path);
	if (s->own) {
		s->dev = r->lock->dev;
		s->ino = r->lock->ino;
	}
	if ((ret = result_text(r, &s->text, &s->len)) < 0)
		text_fmt(err, errlen, "%s: writing: %s", path, strerror(-ret));
	return ret;
}

void result_save_write(struct result_save *s)
{
	char tmp[4096 + 32];
	const char *step;
	int fd, ret;

	ret = write_temp(s->text, s->len, s->path, tmp, sizeof(tmp), &fd, &step);
	if (ret == 0 && s->cancel && atomic_load(s->cancel)) {
		unlink(tmp);
		close(fd);
		ret = -ECANCELED;
	} else if (ret == 0) {
		step = "renaming into place";
		/* the owner's name holds its locked inode: replaced by the next locked one */
		ret = s->own ? rename_own(tmp, s->path, s->dev, s->ino)
			     : rename_replace(tmp, s->path);
		if (ret < 0) {
			if (tmp[0])
				unlink(tmp);
			close(fd);
		}
	}
	if (ret == 0) {
		sync_dir(s->path);
		if (s->own) {
			s->fd = fd; /* the inode held from now on */
			identify(s->path, fd, &s->dev, &s->ino);
		} else {
			close(fd);
		}
	} else {
		save_error(s->err, sizeof(s->err), s->path, step, ret);
	}
	s->ret = ret;
}

int result_save_finish(const struct result *r, struct result_save *s, char *err, size_t errlen)
{
	int ret = s->ret;

	if (ret < 0)
		text_copy(err, errlen, s->err);
	else if (s->fd >= 0 && r->lock && !strcmp(r->lock->path, s->path)) {
		close(r->lock->fd);
		r->lock->fd = s->fd;
		r->lock->dev = s->dev;
		r->lock->ino = s->ino;
		s->fd = -1;
	}
	result_save_discard(s);
	return ret;
}

void result_save_discard(struct result_save *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->text);
	s->text = NULL;
}

int result_save(const struct result *r, const char *path, char *err, size_t errlen)
{
	struct result_save s;
	int ret = result_save_prepare(r, path, &s, err, errlen);

	if (ret < 0)
		return ret;
	result_save_write(&s);
	return result_save_finish(r, &s, err, errlen);
}

void result_release(struct result *r)
{
	if (!r->lock)
		return;
	close(r->lock->fd);
	free(r->lock);
	r->lock = NULL;
}

void result_unclaim(struct result *r)
{
	struct stat a, b;

	if (r->lock && r->lock->made && fstat(r->lock->fd, &a) == 0 &&
	    lstat(r->lock->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlink(r->lock->path);
	result_release(r);
}

void result_take_file(struct result *to, struct result *from)
{
	if (to == from)
		return;
	result_release(to);
	to->lock = from->lock;
	from->lock = NULL;
}

void result_forget(struct result *r)
{
	free(r->lock);
	r->lock = NULL;
}

int result_rewrite(const char *path, int (*edit)(struct result *r, void *arg), void *arg, char *err,
		   size_t errlen)
{
	struct result r;
	char tmp[4096 + 32];
	const char *step = NULL; /* set once saving starts: failures before say their own */
	int held = -1, fd, ret;

	ret = lock_current(path, LOCK_EX, &held);
	if (ret == -EAGAIN) {
		text_fmt(err, errlen, "%s: the run is still writing it (change it when it ends)",
			 path);
		return ret;
	}
	if (ret < 0 && ret != -ENOLCK) {
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* read again under the lock: what the last save left, not what a list showed */
	struct stat was;
	bool have_was = stat(path, &was) == 0;
	ret = result_load(&r, path, err, errlen);
	if (ret == 0 && (ret = edit(&r, arg)) < 0)
		text_fmt(err, errlen, "%s: %s", path, strerror(-ret));
	if (ret == 0 && (ret = result_temp(&r, path, tmp, sizeof(tmp), &fd, &step)) == 0) {
		/* the run's last save stays its time: the library lists runs by it */
		if (have_was)
			futimens(fd, (struct timespec[2]){{.tv_nsec = UTIME_OMIT}, was.st_mtim});
		step = "renaming into place";
		/* the inode at the name is ours (held): nobody else can be replacing it */
		ret = rename(tmp, path) ? -errno : 0;
		if (ret < 0)
			unlink(tmp);
		else
			sync_dir(path);
		close(fd);
	}
	if (ret < 0 && step)
		save_error(err, errlen, path, step, ret);
	result_free(&r);
	if (held >= 0)
		close(held);
	return ret;
}

bool result_being_written(const char *path)
{
	int fd, ret = lock_current(path, LOCK_SH, &fd);

	if (ret == 0)
		close(fd);
	return ret == -EAGAIN;
}
