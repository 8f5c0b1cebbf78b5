/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_ENGINE_INT_H
#define DB_ENGINE_INT_H
/*
 * The engine's insides, shared by its three files and by nothing else:
 *   engine.c          setting a step up (its streams, its workers), starting and joining
 *                     the workers, the step's result and error; the busy-poll setting
 *   engine_worker.c   a worker thread: its buffers, the start barrier, the per-I/O loop
 *                     and the records it publishes
 *   engine_collect.c  the collector: merging records into samples (the step's and each
 *                     stream's), the host-stall watch, the step's and streams' totals
 *
 * Threads: the caller of engine_run() sets the step up, starts the workers (one thread
 * each) and, once the step's clock has started, is the collector itself: it consumes the
 * workers' records and calls the sample callback on its own thread until every worker has
 * ended, then joins them and makes the totals. There is no collector thread of its own.
 *
 * A step has n streams (engine_run_streams); each worker belongs to one of them and does
 * that stream's workload on its target. The workers of stream i are w[first, first + n).
 */
#include "engine.h"
#include "trace.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REC_RING 8    /* records a worker may have published and not yet consumed */

enum { WAIT_OUT, WAIT_IN, WAIT_ABANDONED }; /* struct worker's wait */

struct rec {
	uint32_t first;          /* first interval this record covers */
	uint32_t last;           /* last interval it covers */
	bool final;              /* the worker's last record */
	uint64_t end_ns;         /* final: measured time at which the worker stopped */
	struct io_acc acc[2];    /* DIR_READ, DIR_WRITE */
};

struct step_run;
struct stream_run;

struct worker {
	struct step_run *step;
	struct stream_run *s;    /* the stream it belongs to */
	unsigned index;          /* in its stream, from 0: its thread of the stream's workload */
	pthread_t tid;
	struct rec ring[REC_RING];
	_Atomic uint32_t head;   /* records published; written by the worker */
	_Atomic uint32_t tail;   /* records consumed; written by the collector */
	bool finished;           /* collector: the final record is consumed */
	uint64_t end_ns;	 /* collector: measured time at which the worker stopped; until
				    then, the end of the records taken (an abandoned one's) */
	uint64_t ios;            /* collector: I/Os in the records consumed so far */
	struct io_acc drain[2];  /* completions after the measured time; the worker's until
				    it is joined */
	struct io_acc ramp[2];   /* completions before it (the ramp, and the warm-up while
				    the other workers start) */
	uint64_t stop_ns;        /* step clock when the worker stopped issuing */
	uint64_t last_ns;        /* step clock when its loop ended (its last completion) */
	uint64_t completed;      /* every completion it saw: ramp, window and drain */
	bool may_idle;           /* its share of a rate limit may issue nothing in the window */
	pid_t os_tid;            /* the kernel's id of the thread, for its schedstat */
	_Atomic uint64_t turns;  /* loop turns so far (relaxed: the watch only sees change) */
	_Atomic uint64_t progress; /* turns that completed I/O or had none in flight (relaxed) */
	uint64_t progress_turns; /* the worker's own count of them */
	uint64_t seen_progress;  /* collector: progress at its last look */
	uint64_t quiet_ns;       /* collector: watched time since it last changed, host stalls
				    and pauses left out */
	atomic_bool ended;       /* its loop is over */
	bool abandoned;		 /* collector: given up on, asleep in the kernel for a device
				    that stopped answering (engine_collect.c, abandon_stuck) */
	/*
	 * WAIT_OUT, WAIT_IN while it is in its queue's submit_wait (in the kernel), and
	 * WAIT_ABANDONED once the collector abandoned it there (a compare-and-swap from
	 * WAIT_IN, so never while it runs its own code). Back from the kernel, an abandoned
	 * worker ends at once, touching none of its records (its current one is then the
	 * collector's) and nothing of the caller's (its workload, its ctl), which
	 * engine_run_streams() no longer waits for; it drains nothing, and what it still
	 * has in flight lands in buffers of the step, which is then never freed.
	 */
	atomic_uint wait;
	/* the collector's watch (see workers_stalled) */
	int stat_fd;             /* /proc/self/task/TID/schedstat, or -1 */
	uint64_t seen_turns;
	uint64_t run_delay_ns;   /* its run-queue wait at the last look */
	bool quiet;              /* did not turn in the last watch period: run_delay_ns is fresh */
	int error;               /* its setup's or its first failed I/O's -errno */
	uint64_t error_offset;
	bool error_write;
	char desc[160];
	bool busy_poll;          /* its queue spins for completions */
	struct replay_stats replay; /* a replay's worker: its lag sum in lag_mean_ns */
	void *buf_mem;
	struct iovec *bufs;
};

/* One stream of the step: built before the workers start, then read-only. */
struct stream_run {
	const struct target *t;
	const struct workload *wl;
	struct wl_dist_table *dist; /* malloc'd */
	uint64_t seed;           /* the step's seed mixed with the stream's index */
	uint32_t max_bs;         /* bytes: each of its workers' slot buffers */
	unsigned qdepth;         /* each worker's queue: the workload's, or a timed replay's
				    observed concurrency */
	struct trace_mem trace;  /* a replay's trace (engine_trace.c); n = 0: none */
	double trace_speed;      /* > 0: timing mode */
	unsigned first;          /* its first worker in step->w */
	unsigned nworkers;
	struct stream_result *res; /* out->streams[i]; NULL in a step of one stream */
};

/*
 * One step as the engine runs it (engine_run_streams), from setup to the joined workers:
 * a step's run, beside its streams' (struct stream_run). Named apart from the runner's
 * struct plan_run (a plan's phases, runner.c) and the door's struct run (a session, run.h),
 * which run many steps each.
 */
struct step_run {
	const struct engine_ops *ops;
	struct engine_ctl *ctl;
	struct engine_ctl own_ctl; /* ctl when the caller gives none */
	atomic_int failed;       /* an I/O failed, or no progress: every worker stops */
	uint64_t no_progress_ns; /* the limit (ctl's, or ENGINE_NO_PROGRESS_NS) */
	atomic_int stuck;        /* 1: a worker made no progress for no_progress_ns */
	unsigned stuck_worker;   /* which (index in w), once stuck */
	unsigned abandoned;	 /* workers the collector abandoned: the step is never freed */
	struct step_run *next_orphan; /* engine.c's list of such steps */
	atomic_uint nready;      /* workers set up (or failed to) */
	atomic_uint nrunning;    /* workers in their loop (clock_in) */
	atomic_int go;           /* 1: run; 2: t0 is set too; -1: give up */
	atomic_int setup_error;
	uint64_t t0_ns;          /* CLOCK_MONOTONIC at the start of the ramp, set by the last
				    worker to reach its loop before go = 2 (release) */
	uint64_t ramp_ns;        /* the step's clock: stream 0's workload's */
	uint64_t time_ns;
	uint64_t interval_ns;
	uint64_t seed;
	unsigned nworkers;       /* of every stream */
	bool busy_poll;          /* workers spin for completions (engine_busy_poll) */
	bool async;              /* workers' queues may mark I/O async (engine_async) */
	unsigned gather;         /* ENGINE_OPEN_GATHER* for workers' queues (engine_gather) */
	struct stream_run *s;
	unsigned nstreams;
	struct worker *w;
};

/*
 * The start barrier's waits on step->go sleep in the kernel (a futex on its word) until it
 * changes. They used to poll it every 200 us: with N workers waiting on 2 CPUs the polls
 * took the CPUs from the thread starting the rest, so starting N workers cost O(N^2)
 * (1024 threads: minutes). Now a worker waits once and is woken once.
 */
_Static_assert(sizeof(atomic_int) == sizeof(int), "step->go is a futex word");

/* Sleep while step->go is `from` (acquire: what was written before it changed is seen). */
static inline void go_wait(struct step_run *step, int from)
{
	while (atomic_load_explicit(&step->go, memory_order_acquire) == from)
		syscall(SYS_futex, (int *)&step->go, FUTEX_WAIT_PRIVATE, from, NULL, NULL, 0);
}

/* Set step->go (release) and wake every thread waiting on it. */
static inline void go_set(struct step_run *step, int go)
{
	atomic_store_explicit(&step->go, go, memory_order_release);
	syscall(SYS_futex, (int *)&step->go, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void rec_reset(struct rec *r, uint32_t interval)
{
	r->first = r->last = interval;
	r->final = false;
	r->end_ns = 0;
	io_acc_init(&r->acc[0]);
	io_acc_init(&r->acc[1]);
}

static inline bool rec_empty(const struct rec *r)
{
	return r->acc[0].ios == 0 && r->acc[1].ios == 0;
}

/*
 * A replay (engine_trace.c): load the stream's trace, check it fits the target and the
 * backend, and set the stream's queue depth and buffer size from it. 0 or -errno.
 */
int engine_trace_setup(struct stream_run *st, const struct engine_ops *ops, char *err,
		       size_t errlen);
/* The replay's figures from its worker, into out (once joined). */
void engine_trace_summarize(struct step_run *step, struct step_result *out);

/* A worker thread (pthread_create's start routine, arg: its struct worker). */
void *engine_worker_main(void *arg);
/*
 * The collector, on the thread that started the step, once the step's clock has started:
 * merges the workers' records into out->samples (and each stream's into its own) until
 * every worker has published its final record. Returns 0 or -ENOMEM.
 */
int engine_collect(struct step_run *step, engine_sample_fn on_sample, void *arg,
		   struct step_result *out);
/* The step's and each stream's total, drain, ramp and idle workers, once all are joined. */
void engine_summarize(struct step_run *step, struct step_result *out);

#endif
