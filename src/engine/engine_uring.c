// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "uring" engine: one io_uring per worker thread, created in that thread (a
 * SINGLE_ISSUER ring belongs to the task that made it), with the target file and the
 * slot buffers registered when the kernel allows. Ring flags are tried best first with
 * fallbacks, as fio does (docs/DESIGN.md, "Ring setup"): kernels refuse DEFER_TASKRUN
 * without SINGLE_ISSUER, and SQPOLL with COOP_TASKRUN or DEFER_TASKRUN (EINVAL).
 *
 * Busy polling (ENGINE_OPEN_BUSY_POLL): after submitting, the worker spins on the
 * completion queue for up to BUSY_POLL_NS before it sleeps in the kernel. A sleeping
 * submitter must be woken for its completions, and that wake-up is paid by whoever
 * completes the I/O (on zram, the one io_uring worker thread that does all the reads)
 * and adds the time an idle CPU takes to wake to every latency. With TASKRUN_FLAG the
 * kernel says in the SQ ring flags when completions are waiting as task work, so the
 * spin needs a system call only when there is something to collect.
 *
 * Async issue: io_uring issues a read or write without blocking first and hands what
 * cannot be issued so to its worker threads (io-wq). A target that cannot take
 * non-blocking I/O at all (its file has no FMODE_NOWAIT: bio-based block devices such as
 * zram without nowait support) sends every I/O there, and a request that got there that
 * way is bounded work, which io-wq runs on one worker thread while that worker is not
 * blocked: a device that completes in the CPU (zram) then completes all its I/O on one
 * CPU, one request at a time. Marked IOSQE_ASYNC up front, the same request is
 * concurrent work: io-wq starts a worker for it when none is free, so the device's I/O
 * runs in parallel across the CPUs, and the worker that picks up a QD1 thread's I/O can
 * be one on the thread's own CPU. With ENGINE_OPEN_ASYNC, uring_open() asks the file
 * (takes_nowait()) and marks every read and write of such a target async, and its waits
 * never sleep longer than ASYNC_WAIT_MAX_NS. A target that takes non-blocking I/O (NVMe,
 * SCSI, virtio, loop, files on most file systems) is left as it is: async there would
 * move I/O the kernel issues in place to worker threads. fio does the same with
 * force_async=1; its default is 0, and so is drivebench's (docs/DESIGN.md, "Async
 * issue", says why).
 *
 * Gathered waits (ENGINE_OPEN_GATHER): on such a target the worker thread that completes
 * a request also wakes the submitter sleeping for it, and on zram that worker is what
 * limits the rate: waking a thread on another, halted, CPU cost it a fifth of its time at
 * QD32. So a submitter with two or more I/Os in flight waits for all of them:
 *  - with a CPU of its own (2 CPUs a thread), only until GATHER_US after it began waiting
 *    if one has completed by then, and for the first completion as usual if none has
 *    (IORING_FEAT_MIN_TIMEOUT, kernel 6.12: a kernel timer on the submitter's CPU ends
 *    the wait), so the worker wakes nobody while I/O remains in flight, is refilled within
 *    GATHER_US and no completion waits longer than that to be reaped;
 *  - sharing CPUs with the workers (ENGINE_OPEN_GATHER_ALL), until all have completed, on
 *    a block device that no other device is under only (leaf_blockdev()): each of the
 *    submitter's wake-ups there takes CPU from a worker, and a device that does not block
 *    completes one thread's I/O one request at a time however deep its queue. A file
 *    that cannot take non-blocking I/O (on a network file system, say) or a stacked device
 *    (device-mapper, md) may block in the workers, which then run its I/O side by side:
 *    waiting for all of it would lower the depth it sees.
 * Either way the thread sleeps in the kernel throughout: a wait that gathers completions,
 * as the wait target does (engine_worker.c), not a spin. Only on a DEFER_TASKRUN ring (the
 * default), where the kernel wakes a waiter only when enough completions are there, and
 * never with busy polling or async issue.
 */
#include "engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <liburing.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* How long a busy-polling worker spins for its completions before it sleeps. */
#define BUSY_POLL_NS 100000ull
/*
 * The longest a worker sleeps for completions on a ring whose I/O is marked async: on
 * kernel 6.18.44, with SINGLE_ISSUER|DEFER_TASKRUN, 3 of about 190 runs of 4K reads at
 * QD32 on zram waited for ever with every request submitted and no completion posted.
 */
#define ASYNC_WAIT_MAX_NS 100000000ull
/*
 * How long a thread with a CPU of its own lets completions gather once one is there (see
 * the top). On zram at QD32 (1 thread, 2 CPUs, 2 s runs alternating with fio), 5 and 10 µs
 * gave 1.15x of fio against 0.92x without; 20 µs gave as much at QD128 and no more.
 */
#define GATHER_US 10u
/* Such a thread's longest sleep when nothing else bounds it (past GATHER_US with nothing
   completed, it sleeps until the first completion, as any ring does). */
#define GATHER_IDLE_NS 1000000000ull
/* IORING_FEAT_MIN_TIMEOUT (kernel 6.12): io_uring_enter takes a min_wait_usec */
#define DB_FEAT_MIN_TIMEOUT (1u << 15)
/* Spins to let each further wanted completion arrive before collecting (see below). */
#define BUSY_POLL_GATHER 16u

struct engine_io {
	struct io_uring ring;
	const struct iovec *bufs;
	int fd;
	bool fixed_file;
	bool fixed_bufs;
	bool blockdev;           /* fd is a block device: a discard is the block layer's */
	bool ring_fd_registered;
	bool busy_poll;
	bool async;              /* reads and writes go IOSQE_ASYNC (see the top) */
	unsigned gather_us;      /* waits gather completions for this long (see the top) */
	bool gather_all;         /* waits are for all I/O in flight (see the top) */
	unsigned inflight;       /* queued and not yet reaped */
	char desc[160];
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

/* ENGINE_OPEN_SETUP(N) (engine_opts.ring_setup, DRIVEBENCH_URING_SETUP) starts the
   fallback list at entry N (for comparisons). */
static unsigned first_setup(unsigned flags)
{
	unsigned n = ENGINE_OPEN_SETUP_OF(flags);

	return n < sizeof(setups) / sizeof(setups[0]) ? n : 0;
}

int engine_uring_setup_find(const char *flags)
{
	for (size_t i = 0; i < sizeof(setups) / sizeof(setups[0]); i++) {
		size_t n = strlen(setups[i].name);
		if (!strncmp(flags, setups[i].name, n) &&
		    (!flags[n] || flags[n] == ',' || !strncmp(flags + n, "|TASKRUN_FLAG", 13)))
			return (int)i;
	}
	return -1;
}

/*
 * Set up the ring with flags, and TASKRUN_FLAG too where it applies and the kernel
 * takes it. Returns 0 or -errno; *taskrun_flag says whether it was taken.
 */
static int ring_init(struct io_uring *ring, unsigned depth, unsigned flags, bool *taskrun_flag)
{
	int ret = -EINVAL;

	*taskrun_flag = false;
	for (int with = 1; with >= 0; with--) {
		struct io_uring_params p;

		if (with && !(flags & (IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN)))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = flags | IORING_SETUP_CQSIZE | (with ? IORING_SETUP_TASKRUN_FLAG : 0);
		p.cq_entries = depth * 2;
		ret = io_uring_queue_init_params(depth, ring, &p);
		if (ret == 0) {
			*taskrun_flag = with;
			break;
		}
	}
	return ret;
}

/*
 * Does fd take non-blocking I/O? A read with RWF_NOWAIT fails with EOPNOTSUPP, before any
 * I/O, exactly when the file has no FMODE_NOWAIT, which is what io_uring asks before it
 * tries a request without blocking. The read is of one byte, which the target (opened
 * O_DIRECT) refuses with EINVAL once it has passed that check, so the question costs no
 * I/O: any answer but EOPNOTSUPP is a yes, the kernel will try.
 */
static bool takes_nowait(int fd)
{
	char byte;
	struct iovec v = {.iov_base = &byte, .iov_len = 1};

	return !(preadv2(fd, &v, 1, 0, RWF_NOWAIT) < 0 && errno == EOPNOTSUPP);
}

/*
 * Is fd a block device with no other device under it (its sysfs "slaves" empty, as zram's
 * is; a device-mapper or md device lists the devices it passes its I/O on to)? A partition
 * answers for its disk; anything unreadable is a no.
 */
static bool leaf_blockdev(int fd)
{
	char path[64], real[PATH_MAX + 16];
	struct stat st;
	struct dirent *e;
	bool leaf = true;
	DIR *d;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	if (!realpath(path, real))
		return false;
	size_t n = strlen(real);
	snprintf(real + n, sizeof(real) - n, "/partition");
	if (access(real, F_OK) == 0) {
		real[n] = '\0';
		char *slash = strrchr(real, '/');
		if (slash)
			n = (size_t)(slash - real);
	}
	snprintf(real + n, sizeof(real) - n, "/slaves");
	if (!(d = opendir(real)))
		return false;
	while (leaf && (e = readdir(d)))
		leaf = e->d_name[0] == '.';
	closedir(d);
	return leaf;
}

static int uring_open(struct engine_io **iop, int fd, unsigned depth, const struct iovec *bufs,
		      unsigned flags)
{
	struct engine_io *io = calloc(1, sizeof(*io));
	bool taskrun_flag = false;
	int ret = -EINVAL;
	size_t i;

	if (!io)
		return -ENOMEM;
	for (i = first_setup(flags); i < sizeof(setups) / sizeof(setups[0]); i++) {
		ret = ring_init(&io->ring, depth, setups[i].flags, &taskrun_flag);
		if (ret == 0)
			break;
	}
	if (ret < 0) {
		free(io);
		return ret;
	}
	io->fd = fd;
	io->bufs = bufs;
	struct stat st;
	io->blockdev = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
	/* a registered ring fd saves a file lookup in every io_uring_enter */
	io->ring_fd_registered = io_uring_register_ring_fd(&io->ring) == 1;
	io->fixed_file = io_uring_register_files(&io->ring, &fd, 1) == 0;
	/* registration pins memory: RLIMIT_MEMLOCK may refuse it for non-root users */
	io->fixed_bufs = io_uring_register_buffers(&io->ring, bufs, depth) == 0;
	/*
	 * Only a ring with TASKRUN_FLAG busy-polls. Without it a DEFER_TASKRUN ring holds
	 * its completions until the submitter asks in a system call, so a spin would not
	 * see them, and a ring with neither COOP_TASKRUN nor DEFER_TASKRUN interrupts the
	 * spinning thread for each completion's task work: on zram that ran at less than
	 * half the rate of the same ring sleeping (123K against 281K IOPS at QD32).
	 */
	io->busy_poll = (flags & ENGINE_OPEN_BUSY_POLL) && taskrun_flag;
	bool nowait = !(flags & (ENGINE_OPEN_ASYNC | ENGINE_OPEN_GATHER)) || takes_nowait(fd);
	io->async = (flags & ENGINE_OPEN_ASYNC) && !nowait;
	bool gather = (flags & ENGINE_OPEN_GATHER) && !nowait && !io->async && !io->busy_poll &&
		      (setups[i].flags & IORING_SETUP_DEFER_TASKRUN);
	io->gather_all = gather && (flags & ENGINE_OPEN_GATHER_ALL) && leaf_blockdev(fd);
	io->gather_us = gather && !(flags & ENGINE_OPEN_GATHER_ALL) &&
				(io->ring.features & DB_FEAT_MIN_TIMEOUT) ? GATHER_US : 0;
	char gathers[32] = "";
	if (io->gather_us)
		snprintf(gathers, sizeof(gathers), ", gather %uus", io->gather_us);
	else if (io->gather_all)
		snprintf(gathers, sizeof(gathers), ", gather all");
	snprintf(io->desc, sizeof(io->desc), "io_uring %s%s%s%s%s%s%s%s", setups[i].name,
		 taskrun_flag ? "|TASKRUN_FLAG" : "",
		 io->fixed_file ? ", registered file" : "",
		 io->fixed_bufs ? ", registered buffers" : "",
		 io->ring_fd_registered ? ", registered ring" : "",
		 io->async ? ", IOSQE_ASYNC" : "",
		 gathers,
		 io->busy_poll ? ", busy-poll" : "");
	*iop = io;
	return 0;
}

static bool uring_busy_polls(const struct engine_io *io)
{
	return io->busy_poll;
}

static void uring_close(struct engine_io *io)
{
	if (!io)
		return;
	/*
	 * The ring's own teardown runs asynchronously after the ring fd is closed, and a
	 * registered file keeps its reference (and a block device's exclusive claim) until
	 * then: unregistering is synchronous, so the target is given back here, and a run
	 * started right after this one can claim the device again.
	 */
	if (io->fixed_file)
		io_uring_unregister_files(&io->ring);
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
	sqe->flags |= (io->fixed_file ? IOSQE_FIXED_FILE : 0) | (io->async ? IOSQE_ASYNC : 0);
	io_uring_sqe_set_data64(sqe, slot);
	io->inflight++;
}

/*
 * A replay's flush (fsync: on a block device the kernel sends a cache flush) or discard:
 * on a block device the block layer's discard command (BLOCK_URING_CMD_DISCARD, kernel
 * 6.12 on), on a file a hole punched with fallocate, as the purge's discard does.
 */
#define DB_BLOCK_URING_CMD_DISCARD 0x1200u /* _IO(0x12, 0) */

static void uring_queue_other(struct engine_io *io, unsigned slot, unsigned op, uint64_t off,
			      uint32_t len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&io->ring);
	int fd = io->fixed_file ? 0 : io->fd;

	if (op == ENGINE_OP_FLUSH) {
		io_uring_prep_fsync(sqe, fd, 0);
	} else if (io->blockdev) {
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
		sqe->cmd_op = DB_BLOCK_URING_CMD_DISCARD;
		sqe->addr = off;
		sqe->addr3 = len;
	} else {
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)off, len);
	}
	if (io->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, slot);
	io->inflight++;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * Spin until want completions are in the CQ ring; false after BUSY_POLL_NS without.
 * Completions wait as task work until this thread runs it (io_uring_get_events), which
 * takes the pending list from under whoever is adding to it. When several are wanted,
 * the spin lets them gather first, BUSY_POLL_GATHER spins per completion wanted after
 * the first: on zram at QD128 (32 wanted) that was worth 2-4% of IOPS against
 * collecting at once (3 runs of 4 s each, alternating, twice).
 */
static bool poll_completions(struct engine_io *io, unsigned want)
{
	const unsigned gather = want > 1 ? BUSY_POLL_GATHER * (want - 1) : 0;
	unsigned pending_since = 0;
	uint64_t t0 = 0;

	for (unsigned k = 1;; k++) {
		if (io_uring_cq_ready(&io->ring) >= want)
			return true;
		if (IO_URING_READ_ONCE(*io->ring.sq.kflags) & IORING_SQ_TASKRUN) {
			if (!pending_since)
				pending_since = k;
			if (k - pending_since >= gather) {
				/* running the task work fills the CQ ring */
				io_uring_get_events(&io->ring);
				pending_since = 0;
			} else {
				cpu_relax();
			}
		} else {
			cpu_relax();
		}
		if (k % 32 == 0) {
			uint64_t t = mono_now_ns();
			if (!t0)
				t0 = t;
			else if (t - t0 > BUSY_POLL_NS)
				return false;
		}
	}
}

static bool transient(int ret)
{
	return ret == -ETIME || ret == -EINTR || ret == -EAGAIN || ret == -EBUSY;
}

/* io_uring_getevents_arg as kernel 6.12 has it (liburing before 2.8 names min_wait_usec
   pad) */
struct getevents_arg {
	uint64_t sigmask;
	uint32_t sigmask_sz;
	uint32_t min_wait_usec;
	uint64_t ts;
};

/*
 * Submit what is queued and wait for everything in flight, until GATHER_US after the
 * wait began if something has completed by then, or else until the first completion or
 * timeout_ns (see the top). liburing 2.3 has no call that passes min_wait_usec, so this
 * publishes the queued entries (what io_uring_submit does first) and enters itself.
 */
static int gather_enter(struct engine_io *io, uint64_t timeout_ns)
{
	struct io_uring_sq *sq = &io->ring.sq;
	struct __kernel_timespec ts = {.tv_sec = (long long)(timeout_ns / 1000000000ull),
				       .tv_nsec = (long long)(timeout_ns % 1000000000ull)};
	struct getevents_arg arg = {.sigmask_sz = _NSIG / 8,
				    .min_wait_usec = io->gather_us,
				    .ts = (uint64_t)(uintptr_t)&ts};
	unsigned enter = IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG;
	int fd = io->ring.ring_fd;

	if (sq->sqe_head != sq->sqe_tail) {
		sq->sqe_head = sq->sqe_tail;
		io_uring_smp_store_release(sq->ktail, sq->sqe_tail);
	}
	if (io->ring_fd_registered) {
		enter |= IORING_ENTER_REGISTERED_RING;
		fd = io->ring.enter_ring_fd;
	}
	unsigned submit = sq->sqe_tail - IO_URING_READ_ONCE(*sq->khead);
	long ret = syscall(__NR_io_uring_enter, fd, submit, io->inflight, enter, &arg, sizeof(arg));
	if (ret < 0 && !transient(-errno))
		return -errno;
	return 0;
}

static int uring_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	int ret;

	if (io->gather_us && io->inflight >= 2 &&
	    (!timeout_ns || timeout_ns > io->gather_us * 1000ull))
		return gather_enter(io, timeout_ns ? timeout_ns : GATHER_IDLE_NS);
	if (io->gather_all && io->inflight > min_complete)
		min_complete = io->inflight;
	if (io->async && (!timeout_ns || timeout_ns > ASYNC_WAIT_MAX_NS))
		timeout_ns = ASYNC_WAIT_MAX_NS;
	ts.tv_sec = (long long)(timeout_ns / 1000000000ull);
	ts.tv_nsec = (long long)(timeout_ns % 1000000000ull);

	if (io->busy_poll) {
		ret = io_uring_submit(&io->ring);
		if (ret < 0 && !transient(ret))
			return ret;
		if (poll_completions(io, min_complete))
			return 0;
	}
	ret = io_uring_submit_and_wait_timeout(&io->ring, &cqe, min_complete,
					       timeout_ns ? &ts : NULL, NULL);
	if (transient(ret))
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
	io->inflight -= total;
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
	.queue_other = uring_queue_other,
	.submit_wait = uring_submit_wait,
	.reap = uring_reap,
	.describe = uring_describe,
	.busy_polls = uring_busy_polls,
};
