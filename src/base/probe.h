/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_PROBE_H
#define DB_PROBE_H
/*
 * A question that may never be answered, asked in a process of its own: a read of a loop
 * device over a dead server's image, an open() of a file on a FUSE file system whose
 * daemon hangs. No signal ends such a wait (a FUSE request its daemon holds is waited for
 * uninterruptibly), and a thread stuck in one keeps its process from exiting, so the
 * question goes to a grandchild in a session of its own (no terminal's signals reach
 * it), which keeps the one descriptor it opens and the pipe it answers through and no
 * other (not a result's lock, not an output, not the standard streams: a pipe reading
 * drivebench's would wait for it too). While it waits it holds what it opened, so the
 * caller's own last close of that (at exit) does not wait for the read: the prober's
 * does. It is init's (or a subreaper's) to reap, never a zombie of the caller's.
 *
 * It does not exec: the child calls open() and the probe's own function after fork. That
 * is the exception docs/DESIGN.md records to "One way to start a child": glibc's fork
 * takes malloc's and stdio's locks across it, and a probe takes no lock of its own.
 */
#include <stddef.h>

struct probe {
	const char *path; /* opened (O_RDONLY | O_NONBLOCK) once everything else is shed,
			     since the open may be what never returns; /proc/self/fd/N (the
			     caller's N) is kept for it */
	/*
	 * Then, in the grandchild, with fd the path's descriptor: fills msg (len bytes) and
	 * returns 0 or -errno. NULL: the open alone is the question.
	 */
	int (*ask)(int fd, void *msg, size_t len, void *arg);
	void *arg;
};

/*
 * Ask p within ms: the answer's return (the open's -errno, or ask's), with msg filled
 * when it is 0; -ETIMEDOUT when no answer came in time (the grandchild is left to end
 * when its wait does), -errno when it could not be asked. "In time" is ms in which the
 * prober did not move: a prober that is runnable, or uses CPU time, or reads, is slow
 * (a host busy with other work), not stuck, and is waited for up to PROBE_SLOW_MS in
 * all; one that sleeps in a read that never returns is given up on after ms.
 */
int probe_within(const struct probe *p, void *msg, size_t len, unsigned ms);
/* The longest a prober that keeps moving is waited for */
#define PROBE_SLOW_MS 30000u

/*
 * Does path (a file or a directory) answer its open() and fstat() within ms? A file on a
 * network file system whose server is gone, or on a FUSE file system whose daemon hangs,
 * makes every open(), stat() and realpath() of it wait for ever. 0, -ETIMEDOUT, or the
 * open's or fstat's -errno.
 */
int probe_path_answers(const char *path, unsigned ms);
/* How long the door waits for that: a server a moment slow answers in it */
#define PROBE_ANSWER_MS 2000u

#endif
