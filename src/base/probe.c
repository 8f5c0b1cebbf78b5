// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBE_MSG_MAX 4096 /* the largest answer (struct sig_list fits) */

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

int probe_within(const struct probe *p, void *msg, size_t len, unsigned ms)
{
	struct answer *a;
	struct pollfd pfd;
	int pipefd[2], ret, st;
	pid_t pid;

	if (len > PROBE_MSG_MAX)
		return -EINVAL;
	if (!(a = malloc(sizeof(*a))))
		return -ENOMEM;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		ret = -errno;
		free(a);
		return ret;
	}
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		if (fork() == 0)
			prober(p, len, pipefd[1]);
		_exit(0);
	}
	ret = pid < 0 ? -errno : 0;
	close(pipefd[1]);
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	pfd = (struct pollfd){.fd = pipefd[0], .events = POLLIN};
	while (!ret && (ret = poll(&pfd, 1, (int)ms)) < 0)
		ret = errno == EINTR ? 0 : -errno; /* a signal (a resize): wait again */
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
