// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "null" engine: every staged I/O completes successfully at the next reap, without
 * touching the target. Tests use it to drive the engine and runner deterministically and
 * fast; it also shows what the engine costs on its own.
 *
 * Its wait gives up the CPU (sched_yield), as a thread waiting for a device does. Without
 * that a null worker kept its CPU for a whole scheduler slice, and with more workers than
 * CPUs (16 on two) some did not run at all in a short step.
 */
#include "engine.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

struct engine_io {
	unsigned depth;
	unsigned n;            /* staged and not yet reaped */
	struct engine_cqe *done;
};

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

static int null_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	(void)io, (void)min_complete, (void)timeout_ns;
	sched_yield();
	return 0;
}

static unsigned null_reap(struct engine_io *io, struct engine_cqe *out, unsigned max)
{
	unsigned n = io->n < max ? io->n : max;

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
	.submit_wait = null_submit_wait,
	.reap = null_reap,
	.describe = null_describe,
};
