// SPDX-License-Identifier: GPL-2.0-or-later
/* The processes and the run directory of the application phases (app.h). */
#include "app.h"
#include "app_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

unsigned long long app_pid_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pid <= 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* the name may hold anything: the fields start after its last ')' */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ' || !p[2])
		return 0;
	/* a zombie is gone for our purposes */
	if (p[2] == 'Z' || p[2] == 'X')
		return 0;
	/* p + 2 is field 3 (the state); the start time is field 22 */
	p += 2;
	for (int f = 3; f < 22 && p; f++)
		p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
	if (p)
		start = strtoull(p, NULL, 10);
	return start;
}

bool app_pid_alive(const struct app_pid *p)
{
	return p->pid > 0 && p->start && app_pid_start(p->pid) == p->start;
}

/* app_dir: the settings' ($DRIVEBENCH_APP_DIR), or NULL */
static const char *base_dir(const char *app_dir)
{
	return app_dir && app_dir[0] == '/' ? app_dir : APP_BASE_DIR;
}

static int mkdirs(const char *path, mode_t mode)
{
	char buf[APP_PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return chmod(buf, mode) ? -errno : 0;
}

int app_rundir_make(struct app_rundir *rd, const char *app_dir, uid_t uid, gid_t gid, char *err,
		    size_t errlen)
{
	const char *base = base_dir(app_dir);
	int ret;

	rd->owner.pid = getpid();
	rd->owner.start = app_pid_start(rd->owner.pid);
	snprintf(rd->dir, sizeof(rd->dir), "%s/%d-%llu", base, (int)rd->owner.pid, rd->owner.start);
	snprintf(rd->mnt, sizeof(rd->mnt), "%s/mnt", rd->dir);
	snprintf(rd->sock, sizeof(rd->sock), "%s/sock", rd->dir);
	/* the server's identity passes through the base and RUNDIR to its socket */
	if ((ret = mkdirs(base, 0711)) || (ret = mkdirs(rd->dir, 0711)) ||
	    (ret = mkdirs(rd->mnt, 0755)) || (ret = mkdirs(rd->sock, 0700)) ||
	    (chown(rd->sock, uid, gid) && (ret = -errno))) {
		snprintf(err, errlen, "%s: cannot make the run's directory: %s", rd->dir,
			 strerror(-ret));
		return ret;
	}
	return app_rundir_save(rd);
}

int app_rundir_save(const struct app_rundir *rd)
{
	char tmp[APP_PATH_MAX + 16], path[APP_PATH_MAX + 16];
	FILE *f;
	int ret = 0;

	snprintf(tmp, sizeof(tmp), "%s/state.tmp", rd->dir);
	snprintf(path, sizeof(path), "%s/state", rd->dir);
	if (!(f = fopen(tmp, "we")))
		return -errno;
	fprintf(f, "owner %d %llu\nkeeper %d %llu\nserver %d %llu\nmount %s\n",
		(int)rd->owner.pid, rd->owner.start, (int)rd->keeper.pid, rd->keeper.start,
		(int)rd->server.pid, rd->server.start, rd->mnt);
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	return ret;
}

static void remove_at(int dfd, const char *name, int depth)
{
	int fd;
	DIR *d;
	struct dirent *e;

	if (!unlinkat(dfd, name, 0) || depth > 8)
		return;
	if ((fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_at(fd, e->d_name, depth + 1);
	closedir(d);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

void app_rundir_remove(const char *dir)
{
	remove_at(AT_FDCWD, dir, 0);
}

static int open_out(const char *out, char *err, size_t errlen)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
	return fd < 0 ? -errno : fd;
}

int app_spawn(char *const argv[], const char *out, pid_t *pid, char *err, size_t errlen)
{
	int fd = open_out(out, err, errlen), ret;

	if (fd < 0)
		return fd;
	ret = child_spawn(argv, NULL, fd, fd, pid, err, errlen);
	close(fd);
	return ret;
}

/* Wait for our child pid until it exits or ms pass: its status, or -1 still running. */
static int reap(pid_t pid, unsigned ms)
{
	int st;

	for (unsigned waited = 0;; waited += 20) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (w < 0 && errno != EINTR)
			return 255;
		if (waited >= ms)
			return -1;
		sleep_ms(20);
	}
}

void app_child_end(pid_t pid, int sig, unsigned wait_s)
{
	if (pid <= 0)
		return;
	kill(-pid, sig);
	kill(pid, sig);
	if (reap(pid, wait_s * 1000) >= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	reap(pid, 10000);
}

int app_exec(char *const argv[], const char *out, atomic_int *stop, unsigned timeout_s,
	     int *status, char *err, size_t errlen)
{
	return app_exec_watch(argv, out, stop, timeout_s, NULL, NULL, status, err, errlen);
}

int app_exec_watch(char *const argv[], const char *out, atomic_int *stop, unsigned timeout_s,
		   void (*tick)(void *arg), void *arg, int *status, char *err, size_t errlen)
{
	pid_t pid;
	int ret = app_spawn(argv, out, &pid, err, errlen), st;

	if (ret)
		return ret;
	for (unsigned waited = 0;; waited += 50) {
		if (tick)
			tick(arg);
		if ((st = reap(pid, 0)) >= 0) {
			if (tick)
				tick(arg);
			*status = st;
			return 0;
		}
		if (stop && atomic_load(stop)) {
			app_child_end(pid, SIGTERM, 10);
			snprintf(err, errlen, "%s: stopped", argv[0]);
			return -ECANCELED;
		}
		if (timeout_s && waited >= timeout_s * 1000u) {
			app_child_end(pid, SIGKILL, 10);
			snprintf(err, errlen, "%s: killed after %u s", argv[0], timeout_s);
			return -ETIMEDOUT;
		}
		sleep_ms(50);
	}
}

void app_last_line(const char *file, char *buf, size_t len)
{
	char chunk[4096];
	ssize_t n = 0;
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	off_t size;

	buf[0] = '\0';
	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > 0)
		n = pread(fd, chunk, sizeof(chunk) - 1, size > (off_t)sizeof(chunk) - 1
							    ? size - (off_t)sizeof(chunk) + 1
							    : 0);
	close(fd);
	while (n > 0 && (chunk[n - 1] == '\n' || chunk[n - 1] == ' '))
		n--;
	chunk[n > 0 ? n : 0] = '\0';
	char *nl = strrchr(chunk, '\n');
	snprintf(buf, len, "%s", nl ? nl + 1 : chunk);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < ' ')
			*p = ' ';
}

/* ---- leftovers of a drivebench that was killed ---------------------------------- */

static bool read_state(const char *dir, struct app_rundir *rd)
{
	char path[APP_PATH_MAX + 16], line[APP_PATH_MAX + 16];
	FILE *f;
	int got = 0;

	memset(rd, 0, sizeof(*rd));
	snprintf(rd->dir, sizeof(rd->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/state", dir);
	if (!(f = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		int pid;
		unsigned long long start;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "owner %d %llu", &pid, &start) == 2)
			rd->owner = (struct app_pid){pid, start}, got |= 1;
		else if (sscanf(line, "keeper %d %llu", &pid, &start) == 2)
			rd->keeper = (struct app_pid){pid, start};
		else if (sscanf(line, "server %d %llu", &pid, &start) == 2)
			rd->server = (struct app_pid){pid, start};
		else if (!strncmp(line, "mount /", 7))
			snprintf(rd->mnt, sizeof(rd->mnt), "%s", line + 6);
	}
	fclose(f);
	return got;
}

/* SIGKILL to a process that is not our child, and wait (up to 10 s) until it is gone. */
static void kill_gone(const struct app_pid *p)
{
	if (!app_pid_alive(p))
		return;
	kill(p->pid, SIGKILL);
	for (unsigned i = 0; i < 500 && app_pid_alive(p); i++)
		sleep_ms(20);
}

/* The mount namespace of pid (its inode), 0 when it cannot be read. */
static ino_t mnt_ns(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	return stat(path, &st) ? 0 : st.st_ino;
}

/*
 * SIGKILL to every process but the keeper in the keeper's mount namespace (what the server
 * left, such as a postmaster's backends, holds the file system and umount would fail), and
 * wait (up to 10 s) until they are gone. Never ourselves or init, whatever namespace they
 * are in; a zombie is gone already.
 */
static void kill_namespace(const struct app_pid *keeper)
{
	ino_t ns = app_pid_alive(keeper) ? mnt_ns(keeper->pid) : 0;

	if (!ns || ns == mnt_ns(getpid()) || ns == mnt_ns(1))
		return;
	for (unsigned i = 0; i < 500; i++) {
		struct app_pid left[64];
		unsigned n = 0;
		struct dirent *e;
		DIR *d = opendir("/proc");

		if (!d)
			return;
		while ((e = readdir(d)) && n < 64) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			struct app_pid p = {(pid_t)pid, 0};

			if (*end || pid <= 1 || pid == keeper->pid || pid == getpid())
				continue;
			if (mnt_ns((pid_t)pid) != ns || !(p.start = app_pid_start(p.pid)))
				continue;
			left[n++] = p;
		}
		closedir(d);
		if (!n)
			return;
		for (unsigned k = 0; k < n; k++)
			if (app_pid_alive(&left[k]))
				kill(left[k].pid, SIGKILL);
		sleep_ms(20);
	}
}

static void clean_one(const struct app_rundir *rd, void (*log)(void *, const char *), void *arg)
{
	char pid[16], msg[APP_PATH_MAX + 256], tmp[APP_PATH_MAX + 16], e[128];
	int st;

	snprintf(msg, sizeof(msg),
		 "cleaning up after drivebench %d, which ended without tearing down: %s%s%s",
		 (int)rd->owner.pid, app_pid_alive(&rd->server) ? "server stopped, " : "",
		 app_pid_alive(&rd->keeper) ? "file system unmounted, " : "", rd->dir);
	kill_gone(&rd->server);
	kill_namespace(&rd->keeper);
	if (app_pid_alive(&rd->keeper) && rd->mnt[0]) {
		char *argv[] = {"nsenter", "-t", pid, "-m", "--", "umount", (char *)rd->mnt, NULL};
		snprintf(pid, sizeof(pid), "%d", (int)rd->keeper.pid);
		snprintf(tmp, sizeof(tmp), "%s/umount.log", rd->dir);
		(void)app_exec(argv, tmp, NULL, 60, &st, e, sizeof(e));
	}
	kill_gone(&rd->keeper);
	app_rundir_remove(rd->dir);
	if (log)
		log(arg, msg);
}

unsigned app_leftovers_clean(const char *app_dir, void (*log)(void *arg, const char *msg),
			     void *arg)
{
	const char *base = base_dir(app_dir);
	char dir[APP_PATH_MAX];
	struct app_rundir rd;
	struct dirent *e;
	unsigned n = 0;
	/* only root runs [app] phases, and only root can end what they left */
	DIR *d = geteuid() == 0 ? opendir(base) : NULL;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(base) + strlen(e->d_name) + 2 > sizeof(dir))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		if (!read_state(dir, &rd) || app_pid_alive(&rd.owner))
			continue;
		clean_one(&rd, log, arg);
		n++;
	}
	closedir(d);
	return n;
}
