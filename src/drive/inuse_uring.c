// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-use checks: the files registered in other processes' io_uring instances. A process
 * can register a file with its ring (IORING_REGISTER_FILES) and close the descriptor, or
 * open it straight into the ring's file table (IORING_OP_OPENAT with a file index), then
 * write it through the ring with no descriptor of it in /proc/PID/fd. The fdinfo of the
 * ring's own descriptor lists them ("UserFiles:\t2", then "    0: /dev/sdb1"), but not
 * the mode each was opened in: each is taken for a writer.
 */
#include "inuse.h"
#include "inuse_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RING_TRIES 3 /* reads of a busy ring's fdinfo, 1 ms apart, before it is left out */
/* "%5u: " and a path with each of its bytes escaped (\ooo), at most */
#define RING_LINE_BYTES (4 * PATH_MAX + 32)

bool inuse_is_ring(int dirfd, const char *name)
{
	static const char ring[] = "anon_inode:[io_uring]";
	char link[sizeof(ring) + 1];
	ssize_t n = readlinkat(dirfd, name, link, sizeof(link));

	return n == sizeof(ring) - 1 && !memcmp(link, ring, sizeof(ring) - 1);
}

/* The path of a "UserFiles:" entry ("    3: /dev/sdb1\n"), its newline cut; or NULL. */
static char *entry_path(char *line)
{
	char *p = line + strspn(line, " ");
	size_t digits = strspn(p, "0123456789");

	if (!digits || p[digits] != ':' || p[digits + 1] != ' ')
		return NULL;
	p += digits + 2;
	p[strcspn(p, "\n")] = '\0';
	return p;
}

int inuse_ring_files(FILE *f, unsigned *left, int (*each)(void *arg, const char *path), void *arg)
{
	char *line = malloc(RING_LINE_BYTES), *path;
	bool listed = false, in_list = false, rest = false;
	int ret = 0;

	if (!line)
		return -ENOMEM;
	while (!ret && fgets(line, RING_LINE_BYTES, f)) {
		size_t len = strlen(line);
		bool tail = rest; /* the end of a line longer than line: no line of its own */

		rest = len && line[len - 1] != '\n' && !feof(f);
		if (tail || (!in_list && strncmp(line, "UserFiles:", 10)))
			continue;
		if (!in_list) {
			listed = in_list = true;
			continue;
		}
		path = entry_path(line);
		if (!path || !*left)
			break; /* the list has ended ("UserBufs:"), or no more may be taken */
		/* a path longer than any (cut), or no path: a kernel before 2025 shows the
		   file's name alone, a socket shows "socket:[N]" */
		if (rest || path[0] != '/')
			continue;
		(*left)--;
		inuse_unescape(path);
		ret = each(arg, path);
	}
	free(line);
	return ret ? ret : listed ? 0 : -EAGAIN;
}

struct ring_owner {
	struct inuse_snapshot *s;
	size_t *cap, from; /* for inuse_add_open() */
	const char *proc, *pid;
	char *comm;
	char root[PATH_MAX]; /* "PROC/PID/root" for a process in another mount namespace,
				else "" */
};

/*
 * One registered file, by the path the kernel showed (no symlinks; in the process's own
 * mount namespace's terms): as the fd scan takes an open file. A path that names nothing
 * now (a file deleted since, shown with " (deleted)") is left out; one on a network or
 * FUSE mount is known by its path alone, never asked.
 */
static int add_ring_file(void *arg, const char *path)
{
	struct ring_owner *o = arg;
	const struct remote_mnt *r = inuse_remote_path(o->s, path);
	char at[PATH_MAX];
	struct stat st;

	if (r) {
		st = (struct stat){.st_mode = S_IFREG, .st_dev = r->dev};
		return inuse_add_open(o->s, o->cap, o->from, &st, OPEN_RING, o->proc, o->pid,
				      o->comm, path);
	}
	if ((size_t)snprintf(at, sizeof(at), "%s%s", o->root, path) >= sizeof(at) || stat(at, &st))
		return 0;
	if (inuse_overlay_dev(o->s, st.st_dev))
		inuse_overlay_real(o->s, path, &st);
	return inuse_add_open(o->s, o->cap, o->from, &st, OPEN_RING, o->proc, o->pid, o->comm,
			      NULL);
}

/* The fdinfo of ring descriptor name, read again while the ring is too busy to show. */
static int load_ring(struct ring_owner *o, const char *name, unsigned *left)
{
	char path[PATH_MAX];
	int ret = -EAGAIN;

	snprintf(path, sizeof(path), "%s/%s/fdinfo/%s", o->proc, o->pid, name);
	for (int i = 0; ret == -EAGAIN && i < RING_TRIES; i++) {
		FILE *f;
		if (i)
			nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
		f = fopen(path, "re");
		if (!f)
			return 0; /* closed, or the process ended */
		ret = inuse_ring_files(f, left, add_ring_file, o);
		fclose(f);
	}
	return ret == -EAGAIN ? 0 : ret;
}

/*
 * Process pid is in a mount namespace other than this one's: the paths its rings show
 * start at that namespace's root (a container's), which its /proc/PID/root is.
 */
static bool other_mnt_ns(const char *proc, const char *pid)
{
	char path[PATH_MAX];
	struct stat ns, self;

	snprintf(path, sizeof(path), "%s/%s/ns/mnt", proc, pid);
	if (stat(path, &ns))
		return false;
	snprintf(path, sizeof(path), "%s/self/ns/mnt", proc);
	return !stat(path, &self) && ns.st_ino != self.st_ino;
}

int inuse_load_rings(struct inuse_snapshot *s, size_t *cap, size_t from, const char *proc,
		     const char *pid, char *comm)
{
	struct ring_owner o = {
		.s = s, .cap = cap, .from = from, .proc = proc, .pid = pid, .comm = comm};
	unsigned left = INUSE_MAX_RING_FILES;
	char path[PATH_MAX];
	struct dirent *e;
	int ret = 0;
	DIR *d;

	if (other_mnt_ns(proc, pid))
		snprintf(o.root, sizeof(o.root), "%s/%s/root", proc, pid);
	snprintf(path, sizeof(path), "%s/%s/fd", proc, pid);
	d = opendir(path);
	while (d && !ret && (e = readdir(d)))
		if (e->d_name[0] != '.' && inuse_is_ring(dirfd(d), e->d_name))
			ret = load_ring(&o, e->d_name, &left);
	if (d)
		closedir(d);
	return ret;
}
