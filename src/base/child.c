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
/* how often a child with a stop flag or a watch is looked at, at least (ms) */
#define WATCH_MS 200

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

/* A pipe of the child's output, cut into lines for child_job.on_line. */
struct out_pipe {
	int fd; /* -1: closed */
	char line[CHILD_LINE_MAX + 1];
	size_t len;
};

/* The runner's state: the child, its limit, how far its stop has gone. */
struct watch {
	const struct child_job *j;
	pid_t pid;
	int64_t deadline; /* ms, 0: none */
	int64_t int_at;	  /* ms: when stop_signal was sent; 0: not, or its grace is over */
	bool signalled;	  /* the stop flag was acted on */
};

static void deliver(const struct child_job *j, enum child_stream s, struct out_pipe *p,
		    bool ended)
{
	p->line[p->len] = '\0';
	if (j->on_line)
		j->on_line(j->arg, s, p->line, p->len, ended);
	p->len = 0;
}

static void got_bytes(const struct child_job *j, enum child_stream s, struct out_pipe *p,
		      const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || p->len == CHILD_LINE_MAX) {
			deliver(j, s, p, buf[i] == '\n');
			if (buf[i] == '\n')
				continue;
		}
		p->line[p->len++] = buf[i];
	}
}

/* The caller's watch, then its stop flag: stop_signal once, SIGKILL after the grace. */
static void watch_stop(struct watch *w)
{
	const struct child_job *j = w->j;
	int64_t now = now_ms();

	if (j->on_tick)
		j->on_tick(j->arg, w->pid);
	if (j->stop && atomic_load(j->stop) && !w->signalled) {
		w->signalled = true;
		if (j->stop_signal) {
			kill(w->pid, j->stop_signal);
			w->int_at = now;
		} else {
			kill(-w->pid, SIGKILL);
		}
	}
	if (w->int_at && now - w->int_at > (int64_t)j->stop_grace_ms) {
		kill(-w->pid, SIGKILL);
		w->int_at = 0;
	}
}

/*
 * The child's output, line by line, until both pipes close (each is closed here at its
 * end) or the deadline passes (*timed_out). 0, or -errno when poll failed (its group is
 * killed).
 */
static int collect(struct watch *w, struct out_pipe p[2], bool *timed_out, char *err,
		   size_t errlen)
{
	const struct child_job *j = w->j;
	char buf[16384];

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		struct pollfd pfd[2] = {{.fd = p[0].fd, .events = POLLIN},
					{.fd = p[1].fd, .events = POLLIN}};
		int wait_ms = j->stop || j->on_tick ? WATCH_MS : -1, n;

		if (w->deadline) {
			int64_t left = w->deadline - now_ms();
			if (left <= 0) {
				*timed_out = true;
				return 0;
			}
			if (wait_ms < 0 || left < wait_ms)
				wait_ms = (int)left;
		}
		watch_stop(w);
		n = poll(pfd, 2, wait_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;
			snprintf(err, errlen, "poll: %s", strerror(-ret));
			kill(-w->pid, SIGKILL);
			return ret;
		}
		for (int i = 0; n > 0 && i < 2; i++) {
			ssize_t got;

			if (p[i].fd < 0 || !pfd[i].revents)
				continue;
			got = read(p[i].fd, buf, sizeof(buf));
			if (got > 0) {
				got_bytes(j, (enum child_stream)i, &p[i], buf, (size_t)got);
			} else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
				if (p[i].len)
					deliver(j, (enum child_stream)i, &p[i], false);
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	return 0;
}

int child_run_job(char *const argv[], const struct child_job *j, int *wstatus, char *err,
		  size_t errlen)
{
	int outp[2] = {-1, -1}, errp[2] = {-1, -1}, ret;
	struct watch w = {.j = j, .deadline = j->timeout_ms ? now_ms() + j->timeout_ms : 0};
	struct out_pipe p[2] = {{.fd = -1}, {.fd = -1}};
	bool timed_out = false, left = false;

	*wstatus = 0;
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: pipe: %s", argv[0], strerror(-ret));
		goto out;
	}
	ret = child_spawn(argv, j->spawn, outp[1], errp[1], &w.pid, err, errlen);
	close(outp[1]);
	close(errp[1]);
	outp[1] = errp[1] = -1;
	if (ret < 0)
		goto out;
	p[0].fd = outp[0];
	p[1].fd = errp[0];
	outp[0] = errp[0] = -1;
	/* the limit covers the output, then the exit: a tool that closes its pipes and
	 * lingers is killed too */
	ret = collect(&w, p, &timed_out, err, errlen);
	if (!timed_out)
		timed_out = reap_by(w.pid, w.deadline, wstatus) == -ETIMEDOUT;
	if (timed_out)
		left = kill_reap(w.pid, wstatus) < 0;
	else if (j->end_group)
		kill(-w.pid, SIGKILL);
	if (timed_out) {
		snprintf(err, errlen, "%s did not finish within %u s; it was %s", argv[0],
			 (j->timeout_ms + 999) / 1000,
			 left ? "killed but is stuck in the kernel" : "stopped");
		ret = -ETIMEDOUT;
	}
out:
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (p[i].fd >= 0)
			close(p[i].fd);
	}
	return ret;
}

/* child_run()'s output: stdout as it came, up to max_out; stderr's first line. */
struct capture {
	struct child_output *o;
	size_t max_out;
};

static void keep_out(struct capture *c, const char *s, size_t n)
{
	struct child_output *o = c->o;

	if (o->out_len + n > c->max_out) {
		n = c->max_out - o->out_len;
		o->truncated = 1;
	}
	memcpy(o->out + o->out_len, s, n);
	o->out_len += n;
	o->out[o->out_len] = '\0';
}

/*
 * stdout kept whole, its newlines put back; of stderr the first line that is not blank,
 * or the unended one it ends with.
 */
static void capture_line(void *arg, enum child_stream s, const char *line, size_t len,
			 bool ended)
{
	struct capture *c = arg;

	if (s == CHILD_STDOUT) {
		keep_out(c, line, len);
		if (ended)
			keep_out(c, "\n", 1);
		return;
	}
	if (!c->o->err_line[0] && (!ended || line[strspn(line, " \t\r")]))
		snprintf(c->o->err_line, sizeof(c->o->err_line), "%s", line);
}

int child_run(char *const argv[], unsigned timeout_ms, size_t max_out, struct child_output *o,
	      char *err, size_t errlen)
{
	struct capture c = {.o = o, .max_out = max_out};
	const struct child_job j = {.on_line = capture_line, .arg = &c, .timeout_ms = timeout_ms};
	int ret, wstatus;

	memset(o, 0, sizeof(*o));
	o->out = malloc(max_out + 1);
	if (!o->out)
		return -ENOMEM;
	o->out[0] = '\0';
	ret = child_run_job(argv, &j, &wstatus, err, errlen);
	if (ret == -ENOENT)
		snprintf(err, errlen, "%s not installed", argv[0]);
	if (ret < 0) {
		child_output_free(o);
		return ret;
	}
	if (WIFEXITED(wstatus)) {
		o->status = WEXITSTATUS(wstatus);
	} else {
		o->status = -1;
		o->signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	}
	return 0;
}
