// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "uring" engine: one io_uring per worker thread, created in that thread (a
 * SINGLE_ISSUER ring belongs to the task that made it), with the target file and the
 * slot buffers registered when the kernel allows. Ring flags are tried best first with
 * fallbacks, as fio does: PLATFORM.md lists which combinations this kernel refuses.
 */
#include "engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct engine_io {
	struct io_uring ring;
	const struct iovec *bufs;
	int fd;
	bool fixed_file;
	bool fixed_bufs;
	bool ring_fd_registered;
	char desc[128];
};

struct ring_setup {
	unsigned flags;
	const char *name;
};

/* Best first. DEFER_TASKRUN runs completion work only when this thread waits, so a
 * worker that is busy submitting is not interrupted; COOP_TASKRUN is the fallback. */
static const struct ring_setup setups[] = {
	{IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, "SINGLE_ISSUER|DEFER_TASKRUN"},
	{IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN, "SINGLE_ISSUER|COOP_TASKRUN"},
	{IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN"},
	{0, "default"},
};

/* DRIVEBENCH_URING_SETUP=N starts the fallback list at entry N (for comparisons). */
static unsigned first_setup(void)
{
	const char *s = getenv("DRIVEBENCH_URING_SETUP");
	unsigned n = s ? (unsigned)atoi(s) : 0;

	return n < sizeof(setups) / sizeof(setups[0]) ? n : 0;
}

static int uring_open(struct engine_io **iop, int fd, unsigned depth, const struct iovec *bufs)
{
	struct engine_io *io = calloc(1, sizeof(*io));
	int ret = -EINVAL;
	size_t i;

	if (!io)
		return -ENOMEM;
	for (i = first_setup(); i < sizeof(setups) / sizeof(setups[0]); i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof(p));
		p.flags = setups[i].flags | IORING_SETUP_CQSIZE;
		p.cq_entries = depth * 2;
		ret = io_uring_queue_init_params(depth, &io->ring, &p);
		if (ret == 0)
			break;
	}
	if (ret < 0) {
		free(io);
		return ret;
	}
	io->fd = fd;
	io->bufs = bufs;
	/* a registered ring fd saves a file lookup in every io_uring_enter */
	io->ring_fd_registered = io_uring_register_ring_fd(&io->ring) == 1;
	io->fixed_file = io_uring_register_files(&io->ring, &fd, 1) == 0;
	/* registration pins memory: RLIMIT_MEMLOCK may refuse it for non-root users */
	io->fixed_bufs = io_uring_register_buffers(&io->ring, bufs, depth) == 0;
	snprintf(io->desc, sizeof(io->desc), "io_uring %s%s%s%s", setups[i].name,
		 io->fixed_file ? ", registered file" : "",
		 io->fixed_bufs ? ", registered buffers" : "",
		 io->ring_fd_registered ? ", registered ring" : "");
	*iop = io;
	return 0;
}

static void uring_close(struct engine_io *io)
{
	if (!io)
		return;
	io_uring_queue_exit(&io->ring);
	free(io);
}

static void uring_queue(struct engine_io *io, unsigned slot, bool write, uint64_t off,
			uint32_t len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&io->ring);
	void *buf = io->bufs[slot].iov_base;
	int fd = io->fixed_file ? 0 : io->fd;

	/* the ring has an entry per slot, and a slot is queued only once at a time */
	if (io->fixed_bufs) {
		if (write)
			io_uring_prep_write_fixed(sqe, fd, buf, len, off, (int)slot);
		else
			io_uring_prep_read_fixed(sqe, fd, buf, len, off, (int)slot);
	} else {
		if (write)
			io_uring_prep_write(sqe, fd, buf, len, off);
		else
			io_uring_prep_read(sqe, fd, buf, len, off);
	}
	if (io->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, slot);
}

static int uring_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = {
		.tv_sec = (long long)(timeout_ns / 1000000000ull),
		.tv_nsec = (long long)(timeout_ns % 1000000000ull),
	};
	int ret;

	ret = io_uring_submit_and_wait_timeout(&io->ring, &cqe, min_complete,
					       timeout_ns ? &ts : NULL, NULL);
	if (ret == -ETIME || ret == -EINTR || ret == -EAGAIN || ret == -EBUSY)
		return 0;
	return ret < 0 ? ret : 0;
}

static unsigned uring_reap(struct engine_io *io, struct engine_cqe *out, unsigned max)
{
	struct io_uring_cqe *cqes[64];
	unsigned total = 0;

	while (total < max) {
		unsigned want = max - total < 64 ? max - total : 64;
		unsigned n = io_uring_peek_batch_cqe(&io->ring, cqes, want);
		if (!n)
			break;
		for (unsigned i = 0; i < n; i++) {
			out[total + i].slot = (unsigned)io_uring_cqe_get_data64(cqes[i]);
			out[total + i].res = cqes[i]->res;
		}
		io_uring_cq_advance(&io->ring, n);
		total += n;
	}
	return total;
}

static const char *uring_describe(struct engine_io *io)
{
	return io->desc;
}

const struct engine_ops engine_uring = {
	.name = "uring",
	.open = uring_open,
	.close = uring_close,
	.queue = uring_queue,
	.submit_wait = uring_submit_wait,
	.reap = uring_reap,
	.describe = uring_describe,
};
