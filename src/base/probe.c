// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBE_MSG_MAX 4096 /* the largest answer (struct sig_list fits) */
#define PROBE_LOOK_MS 250  /* how often a prober that has not answered is looked at */

/* What the prober sends back through its pipe. */
struct answer {
	int ret;
	_Alignas(max_align_t) unsigned char msg[PROBE_MSG_MAX]; /* any struct's answer */
};

/* Close every descriptor from 3 up but keep[0] and keep[1] (-1: none). */
static void shed(int k0, int k1)
{
	int keep[2] = {k0 < k1 ? k0 : k1, k0 < k1 ? k1 : k0};
	unsigned from = 3;

	for (int k = 0; k < 2; k++) {
		if (keep[k] > (int)from)
			close_range(from, (unsigned)keep[k] - 1, 0);
		if (keep[k] + 1 > (int)from)
			from = (unsigned)keep[k] + 1;
	}
	close_range(from, ~0u, 0);
}

/*
 * The grandchild: everything of the caller's shed but the pipe (and a descriptor the
 * path names, /proc/self/fd/N), its own session and /dev/null for its standard streams,
 * all before the open, which may be what never returns; then ask, answer through wr,
 * and end.
 */
static void prober(const struct probe *p, size_t len, int wr)
{
	struct answer a;
	int named = -1, fd, err;

	if (!strncmp(p->path, "/proc/self/fd/", 14))
		named = atoi(p->path + 14);
	shed(wr, named);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int i = 0; null >= 0 && i < 3; i++)
		if (i != null)
			dup2(null, i);
	setsid();
	fd = open(p->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	err = fd < 0 ? errno : 0;
	if (named >= 0 && named != fd && named != wr)
		close(named); /* the one it opened from it is its own */
	memset(&a, 0, sizeof(a));
	a.ret = fd < 0 ? -err : p->ask ? p->ask(fd, a.msg, len, p->arg) : 0;
	_exit(write(wr, &a, offsetof(struct answer, msg) + len) ==
			      (ssize_t)(offsetof(struct answer, msg) + len)
		      ? 0
		      : 1);
}

static int ask_stat(int fd, void *msg, size_t len, void *arg)
{
	struct stat st;

	(void)msg, (void)len, (void)arg;
	return fstat(fd, &st) < 0 ? -errno : 0;
}

int probe_path_answers(const char *path, unsigned ms)
{
	const struct probe p = {.path = path, .ask = ask_stat};

	return probe_within(&p, NULL, 0, ms);
}

/*
 * Has the prober moved since *mark: is it runnable (waiting for a CPU on a loaded host),
 * or has it used CPU time or read anything since the last look? A read that never
 * returns (a dead server's file, a hung FUSE daemon) sleeps with neither.
 */
static bool prober_moves(pid_t pid, unsigned long long *mark)
{
	unsigned long long ticks[2] = {0, 0}, rchar = 0, now;
	char path[64], buf[1024], *p;
	bool runnable = false;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	/* the name may hold anything: the fields start after its last ')' */
	if (n <= 0 || (buf[n] = '\0', !(p = strrchr(buf, ')'))) || p[1] != ' ' || !p[2])
		return false;
	runnable = p[2] == 'R';
	/* p + 2 is field 3 (the state); utime and stime are fields 14 and 15 */
	p += 2;
	for (int f = 3; f < 14 && p; f++)
		p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
	if (p)
		sscanf(p, "%llu %llu", &ticks[0], &ticks[1]);
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0 && (buf[n] = '\0', (p = strstr(buf, "rchar: "))))
			rchar = strtoull(p + 7, NULL, 10);
	}
	now = ticks[0] + ticks[1] + rchar;
	if (now != *mark) {
		*mark = now;
		return true;
	}
	return runnable;
}

/*
 * Wait for an answer on rd: until ms pass in which the prober (pid, or 0 when not known)
 * did not move, or PROBE_SLOW_MS in all. > 0 when there is one, 0 when not, -errno.
 */
static int await_answer(int rd, pid_t pid, unsigned ms)
{
	struct pollfd pfd = {.fd = rd, .events = POLLIN};
	unsigned long long mark = 0;
	unsigned waited = 0, still = 0, step;
	int r;

	for (;;) {
		step = pid > 0 && ms > PROBE_LOOK_MS ? PROBE_LOOK_MS : ms;
		while ((r = poll(&pfd, 1, (int)step)) < 0 && errno == EINTR)
			; /* a signal (a resize): wait again */
		if (r != 0)
			return r < 0 ? -errno : r;
		waited += step;
		still = pid > 0 && prober_moves(pid, &mark) ? 0 : still + step;
		if (still >= ms || waited >= PROBE_SLOW_MS)
			return 0;
	}
}

int probe_within(const struct probe *p, void *msg, size_t len, unsigned ms)
{
	struct answer *a;
	int pipefd[2], pidfd[2], ret, st;
	pid_t pid, prober_pid = 0;

	if (len > PROBE_MSG_MAX)
		return -EINVAL;
	if (!(a = malloc(sizeof(*a))))
		return -ENOMEM;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		ret = -errno;
		free(a);
		return ret;
	}
	if (pipe2(pidfd, O_CLOEXEC) < 0) {
		ret = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		free(a);
		return ret;
	}
	pid = fork();
	if (pid == 0) {
		pid_t g;

		close(pipefd[0]);
		close(pidfd[0]);
		if ((g = fork()) == 0) {
			close(pidfd[1]);
			prober(p, len, pipefd[1]);
		}
		/* the pipe holds it whole: the caller reads it once this child has ended */
		_exit(g > 0 && write(pidfd[1], &g, sizeof(g)) == (ssize_t)sizeof(g) ? 0 : 1);
	}
	ret = pid < 0 ? -errno : 0;
	close(pipefd[1]);
	close(pidfd[1]);
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (read(pidfd[0], &prober_pid, sizeof(prober_pid)) != (ssize_t)sizeof(prober_pid))
			prober_pid = 0;
	}
	close(pidfd[0]);
	if (!ret)
		ret = await_answer(pipefd[0], prober_pid, ms);
	if (ret > 0) {
		size_t want = offsetof(struct answer, msg) + len, got = 0;
		ssize_t n = 1;
		while (got < want && (n = read(pipefd[0], (char *)a + got, want - got)) != 0)
			if (n > 0)
				got += (size_t)n;
			else if (errno != EINTR)
				break;
		ret = got == want ? a->ret : -EIO;
	} else if (ret == 0 && pid > 0)
		ret = -ETIMEDOUT;
	if (ret == 0 && len)
		memcpy(msg, a->msg, len);
	close(pipefd[0]);
	free(a);
	return ret;
}
