// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "null" engine: every staged I/O completes successfully at the next reap, without
 * touching the target. Tests use it to drive the engine and runner deterministically and
 * fast; it also shows what the engine costs on its own. Its one test hook,
 * engine_null_stall_next(), makes a step measure nothing (engine.h).
 *
 * Every NULL_YIELD_EVERY waits it gives up the CPU (sched_yield), as a thread waiting
 * for a device would. A null worker that never does keeps its CPU for a whole scheduler
 * slice: with more workers than CPUs (16 on two) and other load, steps took twice as long
 * to start and drain, and more workers went idle in a short step. Yielding at every wait
 * did no better than every 64th, and costs a system call per batch.
 */
#include "engine.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define NULL_YIELD_EVERY 64
/*
 * A stalled queue's wait sleeps at least this long, so the worker's next wait is a slow
 * one's, with a timeout (engine_worker.c's SLOW_WAIT_NS): from then on only a worker that
 * has stopped issuing waits without one.
 */
#define NULL_STALL_WAIT_NS 1100000ull

struct engine_io {
	unsigned depth;
	unsigned n;            /* staged and not yet reaped */
	unsigned waits;        /* submit_wait calls, for yielding every NULL_YIELD_EVERY */
	bool stall;            /* engine_null_stall_next: complete nothing yet */
	bool timed;            /* stalled, and a wait with a timeout was seen */
	struct engine_cqe *done;
};

static atomic_uint stall_queues; /* queues still to open stalled */

void engine_null_stall_next(unsigned n)
{
	atomic_store(&stall_queues, n);
}

/* Take one of the queues engine_null_stall_next() asked for, if any are left. */
static bool take_stall(void)
{
	unsigned n = atomic_load(&stall_queues);

	while (n && !atomic_compare_exchange_weak(&stall_queues, &n, n - 1))
		;
	return n > 0;
}

static int null_open(struct engine_io **iop, int fd, unsigned depth, const struct iovec *bufs,
		     unsigned flags)
{
	struct engine_io *io = calloc(1, sizeof(*io));

	(void)fd, (void)bufs, (void)flags;
	if (!io)
		return -ENOMEM;
	io->done = calloc(depth, sizeof(*io->done));
	if (!io->done) {
		free(io);
		return -ENOMEM;
	}
	io->depth = depth;
	io->stall = take_stall();
	*iop = io;
	return 0;
}

static void null_close(struct engine_io *io)
{
	if (!io)
		return;
	free(io->done);
	free(io);
}

static void null_queue(struct engine_io *io, unsigned slot, bool write, uint64_t off,
		       uint32_t len)
{
	(void)write, (void)off;
	io->done[io->n].slot = slot;
	io->done[io->n].res = (int)len;
	io->n++;
}

static void null_queue_other(struct engine_io *io, unsigned slot, unsigned op, uint64_t off,
			     uint32_t len)
{
	(void)op, (void)off, (void)len;
	io->done[io->n].slot = slot;
	io->done[io->n].res = 0;
	io->n++;
}

/*
 * A stalled queue waits out the timeout and completes nothing, until a wait without one
 * after one with: its worker has stopped issuing and drains.
 */
static void stall_wait(struct engine_io *io, uint64_t timeout_ns)
{
	uint64_t ns = timeout_ns > NULL_STALL_WAIT_NS ? timeout_ns : NULL_STALL_WAIT_NS;

	if (!timeout_ns && io->timed) {
		io->stall = false;
		return;
	}
	io->timed |= timeout_ns != 0;
	nanosleep(&(struct timespec){(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)},
		  NULL);
}

static int null_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	(void)min_complete;
	if (io->stall) {
		stall_wait(io, timeout_ns);
		return 0;
	}
	if (++io->waits % NULL_YIELD_EVERY == 0)
		sched_yield();
	return 0;
}

static unsigned null_reap(struct engine_io *io, struct engine_cqe *out, unsigned max)
{
	unsigned n = io->n < max ? io->n : max;

	if (io->stall)
		return 0;
	for (unsigned i = 0; i < n; i++)
		out[i] = io->done[i];
	for (unsigned i = n; i < io->n; i++)
		io->done[i - n] = io->done[i];
	io->n -= n;
	return n;
}

static const char *null_describe(struct engine_io *io)
{
	(void)io;
	return "null (no I/O)";
}

const struct engine_ops engine_null = {
	.name = "null",
	.open = null_open,
	.close = null_close,
	.queue = null_queue,
	.queue_other = null_queue_other,
	.submit_wait = null_submit_wait,
	.reap = null_reap,
	.describe = null_describe,
};
