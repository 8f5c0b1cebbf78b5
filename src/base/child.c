// SPDX-License-Identifier: GPL-2.0-or-later
#include "child.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "tool.h"

extern char **environ;

/* after SIGKILL, how long a child has to die before it is left unreaped (stuck in the kernel) */
#define KILL_GRACE_MS 5000

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void child_output_free(struct child_output *o)
{
	free(o->out);
	o->out = NULL;
	o->out_len = 0;
}

/*
 * Keep the first non-empty line of what the tool said on stderr. acc holds only the line
 * not yet ended: blank lines are dropped once they end, so a line that arrives in a later
 * read is still found after them.
 */
static void keep_err_line(struct child_output *o, char *acc, size_t *acc_len, const char *buf,
			  size_t n, size_t cap)
{
	char *line = acc, *nl;

	if (o->err_line[0])
		return;
	for (size_t i = 0; i < n && *acc_len + 1 < cap; i++)
		acc[(*acc_len)++] = buf[i];
	acc[*acc_len] = '\0';
	for (; (nl = strchr(line, '\n')); line = nl + 1) {
		if (line[strspn(line, " \t\r")] != '\n') {
			snprintf(o->err_line, sizeof(o->err_line), "%.*s", (int)(nl - line), line);
			return;
		}
	}
	*acc_len -= (size_t)(line - acc);
	memmove(acc, line, *acc_len + 1);
}

/* What a child that could not exec tells its parent: the step that failed, its errno. */
enum spawn_step { SPAWN_SETUP, SPAWN_GUEST, SPAWN_EXEC };

struct spawn_fail {
	int step; /* enum spawn_step */
	int err;  /* its errno */
};

/* In the child: the parent is told why it cannot go on, and the child ends with code. */
static _Noreturn void spawn_fail(int status_fd, enum spawn_step step, int err, int code)
{
	struct spawn_fail f = {.step = step, .err = err};

	while (write(status_fd, &f, sizeof(f)) < 0 && errno == EINTR)
		;
	_exit(code);
}

/* fd onto target, inherited by exec even when it already is target. 0 or -1. */
static int move_fd(int fd, int target)
{
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/*
 * The child of child_spawn()'s fork, until exec. Only async-signal-safe calls: the
 * parent may have other threads, whose locks (malloc's, stdio's) the child holds copies
 * of. A guest that cannot be made one exits 126, as does a child whose files cannot be
 * set up; a program that cannot be run, 127.
 */
static _Noreturn void spawn_child(const char *prog, char *const argv[], char *const envp[],
				  const struct child_spawn_opts *o, int out_fd, int err_fd,
				  int status_fd)
{
	static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;
	int null, ret;

	/* its own process group, so that a timeout kills whatever it started too */
	setpgid(0, 0);
	/* the signals drivebench catches are the tool's own again */
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaction(caught[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	null = open("/dev/null", O_RDONLY);
	if (null < 0 || move_fd(null, 0) || move_fd(out_fd, 1) || move_fd(err_fd, 2))
		spawn_fail(status_fd, SPAWN_SETUP, errno, 126);
	if (null > 2)
		close(null);
	if (o && o->guest) {
		/* into its directory, behind its fence, as nobody (guest.h) */
		ret = guest_enter(o->guest);
		if (ret)
			spawn_fail(status_fd, SPAWN_GUEST, -ret, 126);
	} else if (o && o->cwd && chdir(o->cwd)) {
		spawn_fail(status_fd, SPAWN_SETUP, errno, 126);
	}
	execve(prog, argv, envp);
	spawn_fail(status_fd, SPAWN_EXEC, errno, 127);
}

/* After the fork: what the child said before its exec (nothing: it ran). 0 or -errno. */
static int spawn_status(pid_t pid, int status_fd, const char *prog,
			const struct child_spawn_opts *o, char *err, size_t errlen)
{
	struct spawn_fail f;
	ssize_t n;
	int wstatus;

	while ((n = read(status_fd, &f, sizeof(f))) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(f))
		return 0; /* closed by its exec */
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (f.step == SPAWN_GUEST && o->guest->drop)
		snprintf(err, errlen, "%s: could not drop to nobody: %s", prog, strerror(f.err));
	else if (f.step == SPAWN_GUEST)
		snprintf(err, errlen, "%s: could not fence it in %s: %s", prog, o->guest->dir,
			 strerror(f.err));
	else
		snprintf(err, errlen, "%s: cannot run it: %s", prog, strerror(f.err));
	return f.err ? -f.err : -EIO;
}

int child_spawn(char *const argv[], const struct child_spawn_opts *o, int out_fd, int err_fd,
		pid_t *pid, char *err, size_t errlen)
{
	/* everything the child needs is made here, before the fork */
	char *const *envp = o && o->envp ? o->envp : environ;
	int status[2], ret;
	char prog[4096];

	/* found where tool.h says (never on root's PATH) */
	ret = tool_find(argv[0], prog, sizeof(prog));
	if (ret) {
		snprintf(err, errlen, "%s: %s", argv[0],
			 ret == -ENOENT ? "not installed" : strerror(-ret));
		return ret;
	}
	if (pipe2(status, O_CLOEXEC)) {
		ret = -errno;
		snprintf(err, errlen, "%s: pipe: %s", argv[0], strerror(-ret));
		return ret;
	}
	*pid = fork();
	if (*pid == 0)
		spawn_child(prog, argv, envp, o, out_fd, err_fd, status[1]);
	ret = *pid < 0 ? -errno : 0;
	close(status[1]);
	if (ret)
		snprintf(err, errlen, "%s: fork: %s", argv[0], strerror(-ret));
	else
		ret = spawn_status(*pid, status[0], argv[0], o, err, errlen);
	close(status[0]);
	return ret;
}

/*
 * The child's output until both pipes close: stdout into o->out (max_out bytes, the rest
 * dropped), stderr through erracc (erracc_cap bytes) for its first line. True when the
 * deadline (ms, 0: none) passed first.
 */
static bool collect(int out_fd, int err_fd, int64_t deadline, size_t max_out,
		    struct child_output *o, char *erracc, size_t *erracc_len, size_t erracc_cap)
{
	struct pollfd pfd[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
	bool timed_out = false;

	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		int wait_ms = -1;
		char buf[4096];

		if (deadline) {
			int64_t left = deadline - now_ms();
			if (left <= 0) {
				timed_out = true;
				break;
			}
			wait_ms = (int)left;
		}
		if (poll(pfd, 2, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			n = read(pfd[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				pfd[i].fd = -1;
				continue;
			}
			if (i == 1) {
				keep_err_line(o, erracc, erracc_len, buf, (size_t)n, erracc_cap);
				continue;
			}
			size_t keep = (size_t)n;
			if (o->out_len + keep > max_out) {
				keep = max_out - o->out_len;
				o->truncated = 1;
			}
			memcpy(o->out + o->out_len, buf, keep);
			o->out_len += keep;
			o->out[o->out_len] = '\0';
		}
	}
	return timed_out;
}

/*
 * Reap pid, waiting no later than deadline (ms, 0: no limit). 0 with its wait status, or
 * -ETIMEDOUT when it is still running then (it is not reaped).
 */
static int reap_by(pid_t pid, int64_t deadline, int *wstatus)
{
	int pidfd = pidfd_open(pid, 0);

	for (;;) {
		pid_t got = waitpid(pid, wstatus, deadline ? WNOHANG : 0);
		int64_t left;

		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			*wstatus = 0;
			break;
		}
		if (got < 0)
			continue;
		left = deadline - now_ms();
		if (left <= 0) {
			if (pidfd >= 0)
				close(pidfd);
			return -ETIMEDOUT;
		}
		if (pidfd >= 0) {
			struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
			poll(&pfd, 1, left > 1000 ? 1000 : (int)left);
		} else {
			/* no pidfd (a kernel before 5.3): look again every 10 ms */
			struct timespec ts = {.tv_nsec = 10000000};
			nanosleep(&ts, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

/*
 * Kill the child's process group and reap the child, waiting KILL_GRACE_MS at most: a
 * process stuck in the kernel cannot die before it returns. 0, or -ETIMEDOUT when it
 * was left.
 */
static int kill_reap(pid_t pid, int *wstatus)
{
	kill(-pid, SIGKILL);
	return reap_by(pid, now_ms() + KILL_GRACE_MS, wstatus);
}

int child_run(char *const argv[], unsigned timeout_ms, size_t max_out, struct child_output *o,
	      char *err, size_t errlen)
{
	int outp[2] = {-1, -1}, errp[2] = {-1, -1}, ret, wstatus;
	char erracc[1024];
	size_t erracc_len = 0, cap = max_out + 1;
	int64_t deadline = timeout_ms ? now_ms() + timeout_ms : 0;
	bool timed_out = false, left = false;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	o->out = malloc(cap);
	if (!o->out)
		return -ENOMEM;
	o->out[0] = '\0';
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: pipe: %s", argv[0], strerror(-ret));
		goto fail;
	}
	ret = child_spawn(argv, NULL, outp[1], errp[1], &pid, err, errlen);
	close(outp[1]);
	close(errp[1]);
	outp[1] = errp[1] = -1;
	if (ret < 0) {
		if (ret == -ENOENT)
			snprintf(err, errlen, "%s not installed", argv[0]);
		goto fail;
	}

	/* the limit covers the output, then the exit: a tool that closes its pipes and
	 * lingers is killed too */
	timed_out = collect(outp[0], errp[0], deadline, max_out, o, erracc, &erracc_len,
			    sizeof(erracc));
	if (!timed_out)
		timed_out = reap_by(pid, deadline, &wstatus) == -ETIMEDOUT;
	if (timed_out)
		left = kill_reap(pid, &wstatus) < 0;
	close(outp[0]);
	close(errp[0]);
	if (!o->err_line[0] && erracc_len)
		snprintf(o->err_line, sizeof(o->err_line), "%.*s", (int)strcspn(erracc, "\n"),
			 erracc);
	if (timed_out) {
		snprintf(err, errlen, "%s did not finish within %u s; it was %s", argv[0],
			 (timeout_ms + 999) / 1000,
			 left ? "killed but is stuck in the kernel" : "stopped");
		child_output_free(o);
		return -ETIMEDOUT;
	}
	if (WIFEXITED(wstatus)) {
		o->status = WEXITSTATUS(wstatus);
	} else {
		o->status = -1;
		o->signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	}
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	child_output_free(o);
	return ret;
}
