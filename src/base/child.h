/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_CHILD_H
#define DB_CHILD_H
/*
 * Running the tools of the field (smartctl, hdparm) as child processes: found as tool.h
 * says (as root, in the system's directories, never on PATH),
 * stdin from /dev/null, stdout captured up to a bound, stderr kept apart (its first
 * line is the message when a tool fails), a time limit over the whole child (its output
 * and its exit) after which it is killed (SIGKILL to its own process group, which it
 * was started in, so whatever it started dies too) and reaped.
 * Nothing is run through a shell: arguments go to the tool as they are.
 *
 * One runner does it all (child_run_job()): the start (child_spawn()), the output read
 * line by line as it comes, a stop flag, a time limit, the reaping; child_run() is that
 * runner keeping stdout and the first line of stderr, and fio's client (fio_client.h)
 * runs fio through it.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct child_output {
	char *out;           /* stdout, NUL-terminated; malloc'd, the caller frees it */
	size_t out_len;      /* bytes in out */
	char err_line[256];  /* the first non-empty line of stderr, or "" */
	int status;          /* the exit status (0..255), or -1 when killed by a signal */
	int signal;          /* the signal that ended it, or 0 */
	int truncated;       /* stdout was longer than max_out; the rest was read and dropped */
};

/*
 * Run argv[0] (found by tool_find()) with argv, for at most timeout_ms (0: no limit) from
 * its start to its exit, keeping at most max_out bytes of stdout. Returns 0 when the
 * tool ran (whatever its exit status), -ENOENT when it is not installed, -ETIMEDOUT when
 * it was killed for taking too long (a tool that closed its output but did not exit, or
 * left a process holding its pipes, included), -errno otherwise; the message is in err.
 * After the kill the child is given 5 s to die; one stuck in the kernel is left
 * unreaped, and err says so.
 */
int child_run(char *const argv[], unsigned timeout_ms, size_t max_out, struct child_output *o,
	      char *err, size_t errlen);
void child_output_free(struct child_output *o);

struct guest;

struct child_spawn_opts {
	char *const *envp;	   /* its environment; NULL: drivebench's */
	const char *cwd;	   /* its working directory; NULL: drivebench's (not with guest) */
	const struct guest *guest; /* run as this guest (guest.h), in its directory; NULL: not */
};

/*
 * The start that child_run_job() makes, for a caller that reads the output itself:
 * argv[0] (found by tool_find()) in a process group of its own, stdin from
 * /dev/null, stdout and stderr to out_fd and err_fd, the signals drivebench catches back
 * to their defaults and none blocked, with o's environment, in o's directory or as o's
 * guest. Everything is made before the fork; between fork and exec the child makes only
 * async-signal-safe calls (guest_enter()'s included). A guest that cannot be made one
 * exits 126 before its exec and is reaped here. 0 with its pid, -ENOENT when it is not
 * installed, -errno otherwise, the message in err ("fio: could not drop to nobody: ...").
 * The caller reaps a child that was started.
 */
int child_spawn(char *const argv[], const struct child_spawn_opts *o, int out_fd, int err_fd,
		pid_t *pid, char *err, size_t errlen);

enum child_stream { CHILD_STDOUT, CHILD_STDERR };

/* a longer line is handed to child_job.on_line in pieces of this many bytes */
#define CHILD_LINE_MAX 4096

/* What child_run_job() runs a child with; zeroed: drivebench's environment, no limit. */
struct child_job {
	const struct child_spawn_opts *spawn; /* environment, directory, guest; NULL: none */
	/*
	 * Each line the child writes to stdout or stderr, as it comes, without its newline
	 * and NUL-terminated (len bytes: a NUL in it is passed on). ended: the line had its
	 * newline; a line longer than CHILD_LINE_MAX comes in pieces, and an unended last
	 * line at the end of the output as one piece, not ended. NULL: the output is read
	 * and dropped.
	 */
	void (*on_line)(void *arg, enum child_stream s, const char *line, size_t len,
			bool ended);
	/* while the output is open, before each look at it (at least every 200 ms): the
	   caller's watch, which may set *stop. NULL: none */
	void (*on_tick)(void *arg, pid_t pid);
	void *arg;
	/*
	 * Becomes non-zero (the caller's, or on_tick's): the child is sent stop_signal
	 * (0: SIGKILL to its process group), and SIGKILL to its group stop_grace_ms later
	 * if its output is still open. NULL: never.
	 */
	atomic_int *stop;
	int stop_signal;
	unsigned stop_grace_ms;
	/* the limit over the whole child, its start to its exit; 0: none. Past it its group
	   is killed (SIGKILL) and it is given 5 s to die */
	unsigned timeout_ms;
	bool end_group; /* once it has exited, SIGKILL to whatever is left in its group */
};

/*
 * Run argv (argv[0] found by tool_find()) as j says, until its output is closed and it
 * has exited: 0 with its wait status in *wstatus; -ETIMEDOUT when it was killed for
 * passing j->timeout_ms (err: "TOOL did not finish within N s; it was stopped", or
 * "killed but is stuck in the kernel" when it was left unreaped); -ENOENT when it is not
 * installed; -errno otherwise (err: why).
 */
int child_run_job(char *const argv[], const struct child_job *j, int *wstatus, char *err,
		  size_t errlen);

#endif
