/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_ENGINE_H
#define DB_ENGINE_H
/*
 * The measurement engine: runs one workload step on one target with T worker threads,
 * each owning one I/O queue of depth Q, and hands per-interval samples to a callback; or
 * several such streams at once, as one step (engine_run_streams).
 *
 * I/O backends are const ops tables chosen by name (fio's ioengines.h): "uring" (one
 * io_uring per worker, registered buffers and file) and "null" (completes every I/O at
 * once without touching the target, for tests and for measuring the engine itself).
 *
 * Threads: workers never lock, allocate, print or make syscalls beyond their backend's
 * on the per-I/O path. Each worker accumulates into its own interval record and
 * publishes it, when the interval ends, through a single-producer/single-consumer ring
 * to the collector, which merges the workers' records of one interval into a struct
 * sample and calls the sample callback. The collector is the thread that called
 * engine_run(): it starts the workers, collects until they have ended, and joins them;
 * the engine starts no thread but the workers. Every completion counts in exactly one
 * interval, so the samples of a step add up exactly to its total.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

#include "stats.h"
#include "target.h"
#include "workload.h"

/* CLOCK_MONOTONIC in nanoseconds (vDSO): the clock every latency and interval is on. */
static inline uint64_t mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- backends ------------------------------------------------------------------- */

struct engine_io; /* a backend's per-worker queue */

struct engine_cqe {
	unsigned slot; /* the slot given to queue() */
	int res;       /* bytes transferred or -errno */
};

/* Spin for completions before sleeping for them (see enum engine_poll). */
#define ENGINE_OPEN_BUSY_POLL 1u
/* Mark reads and writes async up front if the target cannot take non-blocking I/O (the
   uring engine's "async issue", see engine_uring.c; engine_async()). */
#define ENGINE_OPEN_ASYNC 2u
/* Let completions gather in the kernel before waking, if the target's completions come from
   io_uring's worker threads (the uring engine's "gathered waits", see engine_uring.c;
   engine_gather()): for up to 10 us once one is there, or with ENGINE_OPEN_GATHER_ALL (the
   thread shares its CPU with those workers) until all are there. */
#define ENGINE_OPEN_GATHER     4u
#define ENGINE_OPEN_GATHER_ALL 8u
/* The first of the uring engine's ring setups to try (engine_opts.ring_setup), in the
   flags from bit 8 up; the other engines have one setup. */
#define ENGINE_OPEN_SETUP(n)        ((unsigned)(n) << 8)
#define ENGINE_OPEN_SETUP_OF(flags) ((flags) >> 8)

struct engine_ops {
	const char *name;
	/*
	 * Set up one queue of depth slots over fd, with bufs[slot] as each slot's buffer.
	 * flags: ENGINE_OPEN_*.
	 */
	int (*open)(struct engine_io **io, int fd, unsigned depth, const struct iovec *bufs,
		    unsigned flags);
	void (*close)(struct engine_io *io);
	/* Stage one I/O; it is sent with the next submit_wait(). */
	void (*queue)(struct engine_io *io, unsigned slot, bool write, uint64_t off, uint32_t len);
	/*
	 * Send what is staged, and wait until at least min_complete completions are ready
	 * or timeout_ns passes (0: no timeout). Returns 0 or -errno (-ETIME is fine).
	 */
	int (*submit_wait)(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns);
	/* Move up to max ready completions into out; returns how many. */
	unsigned (*reap)(struct engine_io *io, struct engine_cqe *out, unsigned max);
	/* Describe the setup actually in force ("SINGLE_ISSUER|DEFER_TASKRUN, fixed bufs"). */
	const char *(*describe)(struct engine_io *io);
	/*
	 * Does the queue busy-poll as ENGINE_OPEN_BUSY_POLL asked? NULL: it does whatever
	 * was asked (the null engine, which waits for nothing, records the mode chosen).
	 */
	bool (*busy_polls)(const struct engine_io *io);
	/*
	 * Stage a flush (len 0) or a discard of [off, off + len), a replay's
	 * (ENGINE_OP_FLUSH, ENGINE_OP_DISCARD); it completes with res 0. NULL: the backend
	 * has none, and a trace that holds them does not replay.
	 */
	void (*queue_other)(struct engine_io *io, unsigned slot, unsigned op, uint64_t off,
			    uint32_t len);
};

/* What a slot does: the read and write of queue(), and queue_other()'s (trace_op's). */
enum { ENGINE_OP_READ, ENGINE_OP_WRITE, ENGINE_OP_FLUSH, ENGINE_OP_DISCARD };

extern const struct engine_ops engine_uring;
extern const struct engine_ops engine_null;
/*
 * The uring engine's ring setup that a queue's description names first (its flags:
 * "SINGLE_ISSUER|COOP_TASKRUN|TASKRUN_FLAG, registered file"), as its place in the list
 * engine_opts.ring_setup starts at; -1 when it names none. A replay starts there.
 */
int engine_uring_setup_find(const char *flags);
/*
 * A test hook of the null engine: the next n queues it opens (one a worker thread) stall.
 * A stalled queue completes nothing until its worker stops issuing (the step's time is
 * up, it was stopped, or it failed), then completes everything in flight, in the drain.
 * A step whose queues all stall measures nothing, deterministically: the zero round of
 * a host that did not run drivebench, or, with the step long enough, no progress.
 */
void engine_null_stall_next(unsigned n);
/* By name; NULL when there is no such engine. */
const struct engine_ops *engine_find(const char *name);

/*
 * Whether workers busy-poll for their completions (spin up to 100 us after each
 * submission, then sleep). AUTO does when every worker thread can have a CPU to itself
 * with one left over (threads < CPUs this process may use): then a thread whose I/O
 * completes within the spin never sleeps, nothing has to wake it, and the latency measured
 * is the device's and the kernel's, not the time an idle CPU takes to wake up. YES always
 * does, NO never (the CPU stays idle while I/O is in flight, as with fio). NO is the
 * default (and 0, so that a zeroed engine_opts has it): fio's wait, so that a figure does
 * not depend on how many CPUs the bench has; spinning is a choice each step records (its
 * measurement definition) and compare flags.
 */
enum engine_poll { ENGINE_POLL_NO, ENGINE_POLL_YES, ENGINE_POLL_AUTO };

extern const char *const engine_poll_name[]; /* "no", "yes", "auto" */
/* "auto", "yes"/"on", "no"/"off"; -EINVAL for anything else. */
int engine_poll_parse(const char *s, enum engine_poll *out);
/* $DRIVEBENCH_URING_ASYNC and $DRIVEBENCH_URING_GATHER: "no" or "auto" (*on: auto);
   -EINVAL for anything else, *on unchanged. */
int engine_auto_parse(const char *s, bool *on);

/*
 * How the engine runs a step, as the user chose it; all zero is the default. main() makes
 * it from the settings (engine_opts_from_settings) and the options, and hands it down in
 * the step's struct engine_ctl. The engine keeps no setting of its own.
 */
struct engine_opts {
	enum engine_poll poll; /* --busy-poll, $DRIVEBENCH_BUSY_POLL, the site's busy-poll */
	/*
	 * $DRIVEBENCH_URING_SETUP: the uring engine starts its list of ring setups, best
	 * first, at this entry (for comparisons); past the end is 0.
	 */
	unsigned ring_setup;
	/*
	 * $DRIVEBENCH_URING_ASYNC=auto: on a target that cannot take non-blocking I/O, the
	 * uring engine marks every read and write async up front (IOSQE_ASYNC) in steps of
	 * fewer threads than CPUs (engine_async()). Not the default (no: every I/O is tried
	 * non-blocking first, as fio does): docs/DESIGN.md, "Async issue", says why.
	 */
	bool async;
	/*
	 * $DRIVEBENCH_URING_GATHER=no: the uring engine wakes for its wait target on every
	 * target. The default (auto) lets completions gather in the kernel on a target whose
	 * I/O io_uring's worker threads complete (engine_gather()).
	 */
	bool gather_off;
	/*
	 * $DRIVEBENCH_NO_PROGRESS: the no-progress limit (ENGINE_NO_PROGRESS_NS), for a
	 * device that legitimately stalls for longer, or a script that would rather know
	 * sooner; 0: the default.
	 */
	uint64_t no_progress_ns;
};

struct settings;
/*
 * The engine's options from the settings (settings.h): busy_poll
 * ($DRIVEBENCH_BUSY_POLL, or the site's) else NO, uring_setup ($DRIVEBENCH_URING_SETUP)
 * else 0, uring_async ($DRIVEBENCH_URING_ASYNC: no or auto) else no, uring_gather
 * ($DRIVEBENCH_URING_GATHER: auto or no) else auto, no_progress ($DRIVEBENCH_NO_PROGRESS:
 * a duration of ENGINE_NO_PROGRESS_MIN_NS or more) else the default. 0, or -EINVAL for a
 * busy_poll that is not auto, yes or no, a uring_async or uring_gather that is not no or
 * auto, or a no_progress that is not such a duration (that field is then the default).
 */
int engine_opts_from_settings(struct engine_opts *o, const struct settings *s);
/* Does a step with this many threads busy-poll under o (NULL: the defaults)? */
bool engine_busy_poll(const struct engine_opts *o, unsigned threads);
/*
 * May a step with this many threads mark its I/O async (ENGINE_OPEN_ASYNC) under o? Only
 * with o->async, and only with fewer threads than the CPUs this process may use: async
 * lets one thread's I/O run on several CPUs, and with a CPU per thread or fewer the
 * threads' own io_uring workers already fill them (8K 70/30 at 2T2Q on zram, 2 CPUs:
 * 108K IOPS async against 146K for fio).
 */
bool engine_async(const struct engine_opts *o, unsigned threads);
/*
 * How a step with this many threads lets its completions gather under o (NULL: the
 * defaults): 0 with o->gather_off, else ENGINE_OPEN_GATHER, and ENGINE_OPEN_GATHER_ALL
 * too with fewer than two CPUs per thread. With two or more, a thread woken by a timer
 * has a CPU of its own beside the worker thread that completes its I/O; with fewer, such
 * wake-ups take the worker's CPU (8K 70/30 at 2T16Q on zram, 2 CPUs: 0.55x of fio with a
 * 10 us timer, 0.92x with 50 us, 1.54x with 200 us, 1.78x waiting for all).
 */
unsigned engine_gather(const struct engine_opts *o, unsigned threads);

/* ---- running a step ------------------------------------------------------------- */

/*
 * What the collector asks of the host between its looks at the records: the time, a
 * sleep, a worker thread's run-queue wait (its schedstat), and room for samples. The
 * real ones are CLOCK_MONOTONIC, nanosleep, /proc/self/task/TID/schedstat and realloc;
 * a test gives its own to run the host-stall and no-progress watch on time it scripts.
 * None of them is on the workers' per-I/O path.
 */
struct engine_host {
	uint64_t (*now_ns)(void *arg);
	void (*sleep_ns)(void *arg, uint64_t ns);
	/* worker: its index in the step; fd: its schedstat, open, or -1 */
	bool (*run_delay_ns)(void *arg, unsigned worker, int fd, uint64_t *ns);
	void *(*grow)(void *arg, void *p, size_t bytes);
	void *arg;
};

/* Shared with whoever may stop or pause the step (signal handler, TUI, runner). */
struct engine_ctl {
	atomic_int stop;  /* set (not 0): workers stop issuing, drain, and the step ends; a
			     signal handler adds one per signal (run.h's final save) */
	atomic_int pause; /* set to 1: workers drain and wait; measured time stops too */
	uint64_t no_progress_ns; /* 0: ENGINE_NO_PROGRESS_NS. Tests shrink it */
	const struct engine_host *host; /* NULL: the real one. Tests script it */
	struct engine_opts opts; /* the user's choices; zero: the defaults */
};

/*
 * No progress: a worker thread that completes none of its I/O for this long (the time
 * the host did not run drivebench, and pauses, left out) fails the step with -ETIMEDOUT,
 * as an I/O error does: the device stopped answering. Anything shorter is a slow device
 * or a starved host, which the step's numbers and warnings show. The collector's watch
 * sees it, every ENGINE_WATCH_NS; a worker asleep in the kernel for a device that never
 * answers at all is then abandoned there (engine_collect.c), so the step still ends.
 */
#define ENGINE_NO_PROGRESS_NS 60000000000ull /* a minute */
#define ENGINE_NO_PROGRESS_MIN_NS 100000000ull	 /* the least $DRIVEBENCH_NO_PROGRESS: 100 ms */
/* The limit under ctl (NULL: none): its own, else its options', else the default. */
uint64_t engine_no_progress_ns(const struct engine_ctl *ctl);

typedef void (*engine_sample_fn)(void *arg, const struct sample *s);

/*
 * Host stalls: the collector (the caller's thread) sleeps ENGINE_WATCH_NS between looks
 * at the workers' records. When it wakes more than ENGINE_HOST_STALL_NS late, the host
 * did not run drivebench (SIGSTOP, a suspended VM, a CPU starved by other work) for that
 * long, and the samples it overlaps carry it in host_stall_ns. A slow drive never makes
 * it late.
 */
#define ENGINE_WATCH_NS      5000000ull  /* 5 ms */
#define ENGINE_HOST_STALL_NS 20000000ull /* 20 ms */

/*
 * A replay's own figures: how far behind the trace's times its I/Os were issued (timing
 * mode only: the step's clock against the trace's time divided by the speed), and the
 * flushes and discards it issued, which are not in the read and write counts.
 */
struct replay_stats {
	uint64_t trace_ios;   /* records in the trace */
	uint64_t issued;      /* of them, issued (all of them unless stopped or failed) */
	uint64_t late_ios;    /* issued more than ENGINE_REPLAY_LATE_NS behind */
	uint64_t lag_max_ns;  /* the largest lag */
	double lag_mean_ns;   /* over every issued I/O */
	uint64_t flushes, discards; /* completed */
	uint64_t discard_bytes;
	unsigned qdepth;      /* the queue depth replayed at */
	bool timed;           /* timing mode (trace_speed > 0) */
};

#define ENGINE_REPLAY_LATE_NS 1000000ull /* 1 ms */

struct step_result {
	struct sample total;      /* the whole measured time; index = number of intervals.
				     Counts, rates, mean and std dev are the window's; max and
				     percentiles include the drain's completions too */
	struct sample *samples;   /* one per interval, malloc'd */
	unsigned nsamples;
	struct io_acc *acc;       /* [DIR_READ], [DIR_WRITE] over the whole step, malloc'd */
	/*
	 * The drain: I/Os in flight when the measured time ended complete after it. They are
	 * not in the window's counts or rates (the IOPS window), but their latencies are in
	 * total's max and percentiles. drain.dur_ns: from the end of issuing (time up, or
	 * stopped) to the last completion.
	 */
	struct io_acc *drain_acc; /* [DIR_READ], [DIR_WRITE], malloc'd */
	struct sample drain;
	/*
	 * The I/Os that completed before the measured time: the ramp, and the warm-up of
	 * the workers that started before the last one did (the step's clock starts when
	 * every worker runs). ramp.dur_ns is the ramp's length. With the window and the
	 * drain, every I/O the step did is in one of the three.
	 */
	struct io_acc *ramp_acc;  /* [DIR_READ], [DIR_WRITE], malloc'd */
	struct sample ramp;
	unsigned idle_workers;    /* workers meant to do I/O that completed none in the window */
	unsigned first_idle;      /* the first of them, 0-based */
	unsigned silent_workers;  /* of those, the ones that completed no I/O at all */
	uint64_t host_stall_ns;   /* measured time in which the host did not run drivebench */
	uint64_t host_stall_max_ns; /* the longest single stall (ramp and drain included) */
	bool stopped;             /* ended early through ctl->stop */
	int error;                /* 0 or -errno of the first failed I/O */
	uint64_t error_offset;    /* byte offset of that I/O */
	bool error_write;
	char engine_desc[160];    /* what the backend set up */
	bool busy_poll;           /* its workers spun for completions (engine_busy_poll) */
	uint64_t seed;            /* the seed actually used */
	struct replay_stats replay; /* a replay (wl->trace); zero otherwise */
	/*
	 * A step of several streams (engine_run_streams with n > 1): what each stream's own
	 * workers did, in the order given; NULL and 0 for a step of one stream. The step's
	 * fields above are the sum of its streams: every count, interval by interval, is
	 * exactly the sum of the streams' counts.
	 */
	struct stream_result *streams;
	unsigned nstreams;
};

#define ENGINE_MAX_STREAMS 16 /* streams in one step (targets x a step's streams) */

/* One stream of a step: its own workload (threads, queue depth, mix, sizes, range,
   distribution, rate) on its own target. */
struct engine_stream {
	const struct target *t;
	const struct workload *wl;
};

/* What one stream of a several-stream step measured: step_result's fields, for its
   workers only. Its samples are the step's intervals (same index, start and duration). */
struct stream_result {
	struct sample total;
	struct sample *samples;
	unsigned nsamples;
	struct io_acc *acc;       /* [DIR_READ], [DIR_WRITE] */
	struct io_acc *drain_acc; /* [DIR_READ], [DIR_WRITE] */
	struct sample drain;
	struct io_acc *ramp_acc;  /* [DIR_READ], [DIR_WRITE] */
	struct sample ramp;
	unsigned idle_workers, first_idle, silent_workers; /* first_idle: in the stream, from 0 */
	char engine_desc[160];
	bool busy_poll;
};

void step_result_free(struct step_result *r);

/*
 * Run wl on t (opened writable when wl writes). Calls on_sample on the calling thread
 * (the collector) once per interval, in order; it must return quickly (copy what it
 * needs): the workers' rings fill while it runs.
 * Returns 0 when the step ran (out->stopped tells if it was cut short), -errno when it
 * could not start or an I/O failed (out->error, out->error_offset; samples up to the
 * failure are kept), with a message in err.
 */
int engine_run(const struct engine_ops *ops, const struct target *t, const struct workload *wl,
	       struct engine_ctl *ctl, engine_sample_fn on_sample, void *arg,
	       struct step_result *out, char *err, size_t errlen);
/*
 * Run n streams at once as one step: each stream's workers on its own target with its own
 * workload, all started together behind one start barrier and measured on one clock.
 * The step's time, ramp, sampling interval and seed are the first stream's (the others'
 * are ignored); each stream draws from its own seed (the step's, mixed with the stream's
 * index). on_sample sees the step's samples (all streams summed); out->streams holds each
 * stream's. n = 1 is engine_run(). A stream whose target is the same as another's shares
 * nothing with it but the device. Returns as engine_run().
 */
int engine_run_streams(const struct engine_ops *ops, const struct engine_stream *streams,
		       unsigned n, struct engine_ctl *ctl, engine_sample_fn on_sample, void *arg,
		       struct step_result *out, char *err, size_t errlen);

#endif
