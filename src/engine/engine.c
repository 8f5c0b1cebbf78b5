// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running one workload step: T worker threads, each with its own backend queue of depth
 * Q, and a collector thread that turns the workers' interval records into samples.
 *
 * Per-I/O path (worker_loop): generate (direction, offset, length), stage, submit and wait
 * for a few completions (wait_target(); spinning first when the step busy-polls, see
 * engine_busy_poll() and the uring engine), read the clock once, account every reaped
 * completion against that time, and stage the freed slots again at once. One clock read
 * serves as the completion time of what was just reaped and as the submission time of what
 * is staged next, so timing every I/O costs one vDSO call per batch. Latency is therefore
 * measured from just before the submitting system call to just after the reap that found
 * the completion: what an application sees.
 *
 * Intervals: interval k covers measured time [k*interval, (k+1)*interval). A worker
 * accumulates completions into its current record and, when it sees the clock pass the
 * record's interval, publishes the record into its ring (release store of head) and
 * starts the next. If the collector has fallen behind and the ring is nearly full, the
 * worker does not wait: it keeps accumulating into the same record, which then spans
 * several intervals, and the collector emits one longer sample for that span. Either
 * way each completion is counted once, in the record that was current when it was seen.
 *
 * Edges: the step's clock starts when every worker is in its loop (clock_in());
 * completions after the measured time (the drain) are kept apart, in the worker's drain
 * accumulator; the collector watches the clock between its looks at the records and
 * marks the time in which the host ran none of the workers (host stalls).
 */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REC_RING 8    /* records a worker may have published and not yet consumed */
#define REAP_MAX 256  /* completions taken per reap */
#define SLOW_WAIT_NS 1000000ull /* a wait longer than this arms a timeout on the next */
#define STALLS_MAX 64 /* host stalls waiting for their sample; more merge into the last */

struct rec {
	uint32_t first;          /* first interval this record covers */
	uint32_t last;           /* last interval it covers */
	bool final;              /* the worker's last record */
	uint64_t end_ns;         /* final: measured time at which the worker stopped */
	struct io_acc acc[2];    /* DIR_READ, DIR_WRITE */
};

struct run;

struct worker {
	struct run *run;
	unsigned id;
	pthread_t tid;
	bool started;
	struct rec ring[REC_RING];
	_Atomic uint32_t head;   /* records published; written by the worker */
	_Atomic uint32_t tail;   /* records consumed; written by the collector */
	bool finished;           /* collector: the final record is consumed */
	uint64_t end_ns;         /* collector: measured time at which the worker stopped */
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
	atomic_bool ended;       /* its loop is over */
	/* the collector's watch (see workers_stalled) */
	int stat_fd;             /* /proc/self/task/TID/schedstat, or -1 */
	uint64_t seen_turns;
	uint64_t run_delay_ns;   /* its run-queue wait at the last look */
	bool quiet;              /* did not turn in the last watch period: run_delay_ns is fresh */
	int error;
	uint64_t error_offset;
	bool error_write;
	char desc[128];
	void *buf_mem;
	struct iovec *bufs;
};

struct run {
	const struct engine_ops *ops;
	const struct target *t;
	const struct workload *wl;
	struct engine_ctl *ctl;
	atomic_int failed;       /* an I/O failed: every worker stops */
	atomic_uint nready;      /* workers set up (or failed to) */
	atomic_uint nrunning;    /* workers in their loop (clock_in) */
	atomic_int go;           /* 1: run; 2: t0 is set too; -1: give up */
	atomic_int setup_error;
	uint64_t t0_ns;          /* CLOCK_MONOTONIC at the start of the ramp, set by the last
				    worker to reach its loop before go = 2 (release) */
	uint64_t ramp_ns;
	uint64_t time_ns;
	uint64_t interval_ns;
	uint64_t seed;
	uint32_t max_bs;
	unsigned nworkers;
	bool busy_poll;          /* workers spin for completions (engine_busy_poll) */
	struct wl_dist_table *dist; /* built before the workers start, then read-only */
	struct worker *w;
};

static void rec_reset(struct rec *r, uint32_t interval)
{
	r->first = r->last = interval;
	r->final = false;
	r->end_ns = 0;
	io_acc_init(&r->acc[0]);
	io_acc_init(&r->acc[1]);
}

/* ---- write data ----------------------------------------------------------------- */

static uint64_t fill_rand(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/*
 * Fill a buffer with the workload's data: random (incompressible), zeros, or each 4 KiB
 * block compress_pct% zeros and the rest random, as fio's buffer_compress_percentage.
 */
static void fill_buffer(uint8_t *p, size_t len, const struct workload *wl, uint64_t *s)
{
	size_t zero = wl->data == WL_DATA_ZERO	   ? 4096
		      : wl->data == WL_DATA_COMPRESS ? 4096 * wl->compress_pct / 100
						     : 0;

	for (size_t blk = 0; blk < len; blk += 4096) {
		size_t n = len - blk < 4096 ? len - blk : 4096;
		size_t z = zero < n ? zero : n;
		memset(p + blk + n - z, 0, z);
		for (size_t i = 0; i + 8 <= n - z; i += 8) {
			uint64_t v = fill_rand(s);
			memcpy(p + blk + i, &v, 8);
		}
	}
}

/*
 * Make every written 4 KiB block unique, so neither deduplication nor a cache of
 * recently written data can answer for the drive: the first 8 bytes of each block get
 * its offset mixed with a per-worker counter (fio's scramble_buffers does the same).
 */
static inline void stamp_buffer(uint8_t *p, uint32_t len, uint64_t off, uint64_t *counter)
{
	uint64_t c = ++*counter * 0x9e3779b97f4a7c15ull;

	for (uint32_t b = 0; b < len; b += 4096) {
		uint64_t v = (off + b) ^ c;
		memcpy(p + b, &v, sizeof(v));
	}
}

/* ---- the worker ------------------------------------------------------------------- */

static inline bool rec_empty(const struct rec *r)
{
	return r->acc[0].ios == 0 && r->acc[1].ios == 0;
}

/* Publish the current record and start a fresh one for intervals [first, last]. */
static struct rec *publish(struct worker *w, struct rec *cur, uint32_t first, uint32_t last)
{
	uint32_t head = atomic_load_explicit(&w->head, memory_order_relaxed);

	/* the record's contents are visible to the collector before the new head */
	atomic_store_explicit(&w->head, head + 1, memory_order_release);
	cur = &w->ring[(head + 1) % REC_RING];
	rec_reset(cur, first);
	cur->last = last;
	return cur;
}

/* Free ring slots beyond the current record. */
static inline uint32_t ring_room(struct worker *w)
{
	uint32_t head = atomic_load_explicit(&w->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&w->tail, memory_order_acquire);

	return REC_RING - 1 - (head - tail);
}

/*
 * The clock says interval ivl: close the current record if it is older. A worker that
 * slept through whole intervals (a starved thread, a slow device) did nothing in them,
 * so they get an empty record of their own, which the collector can split at any
 * boundary; only when the ring is full does the current record stretch over them.
 */
static struct rec *roll(struct worker *w, struct rec *cur, uint32_t ivl)
{
	if (ivl <= cur->last)
		return cur;
	if (ivl > cur->last + 1 && !rec_empty(cur) && ring_room(w) >= 2)
		cur = publish(w, cur, cur->last + 1, ivl - 1);
	if (ring_room(w) >= 1) {
		cur->last = ivl - 1;
		return publish(w, cur, ivl, ivl);
	}
	cur->last = ivl - 1; /* the collector is behind: span more intervals */
	return cur;
}

static void publish_final(struct worker *w, struct rec *cur, uint64_t end_ns)
{
	uint32_t head = atomic_load_explicit(&w->head, memory_order_relaxed);

	cur->final = true;
	cur->end_ns = end_ns;
	atomic_store_explicit(&w->head, head + 1, memory_order_release);
}

static int worker_setup(struct worker *w, struct engine_io **io)
{
	struct run *run = w->run;
	const struct workload *wl = run->wl;
	size_t bs = run->max_bs;
	uint64_t s = run->seed ^ (0xd1b54a32d192ed03ull * (w->id + 1));
	int ret;

	w->os_tid = gettid();
	w->bufs = calloc(wl->qdepth, sizeof(*w->bufs));
	if (!w->bufs)
		return -ENOMEM;
	ret = posix_memalign(&w->buf_mem, 4096, bs * wl->qdepth);
	if (ret)
		return -ret;
	for (unsigned i = 0; i < wl->qdepth; i++) {
		w->bufs[i].iov_base = (uint8_t *)w->buf_mem + bs * i;
		w->bufs[i].iov_len = bs;
	}
	if (wl->read_pct < 100)
		fill_buffer(w->buf_mem, bs * wl->qdepth, wl, &s);
	else
		memset(w->buf_mem, 0, bs * wl->qdepth);
	ret = run->ops->open(io, run->t->fd, wl->qdepth, w->bufs,
			     run->busy_poll ? ENGINE_OPEN_BUSY_POLL : 0);
	if (ret == 0)
		snprintf(w->desc, sizeof(w->desc), "%s", run->ops->describe(*io));
	return ret;
}

/*
 * The step's clock starts when the last worker reaches its loop. It used to start when
 * the workers were released, and each worker began whenever the host next ran it: on a
 * loaded host that was tens of milliseconds later, taken out of its ramp and measured
 * time, so a short step could end before some worker had issued anything (and, all of
 * them late, with nothing measured at all yet "complete"). Workers that start earlier
 * already issue I/O, uncounted, until the clock is set: when it starts, every worker is
 * running with its queue full.
 */
static void clock_in(struct run *run)
{
	if (atomic_fetch_add(&run->nrunning, 1) + 1 == run->nworkers) {
		run->t0_ns = mono_now_ns();
		/* t0 is visible to whoever sees go == 2 */
		atomic_store_explicit(&run->go, 2, memory_order_release);
	}
}

static bool clock_started(struct run *run, uint64_t *t0)
{
	if (atomic_load_explicit(&run->go, memory_order_acquire) != 2)
		return false;
	*t0 = run->t0_ns;
	return true;
}

/*
 * How many completions a worker waits for before it wakes to reap and resubmit. Waking
 * for every single completion spends the CPU that devices completing through io_uring
 * worker threads (zram, some file systems) need; waiting for the whole queue leaves the
 * device idle. Measured on zram (make bench): 1 up to QD15, QD^2/256 above (4 at QD32),
 * at most a quarter of the queue (32 at QD128). The wait is also bounded in time by the
 * next interval boundary, so a slow device never holds a sample back.
 */
static unsigned wait_target(unsigned qdepth)
{
	unsigned n = qdepth * qdepth / 256;

	if (n > qdepth / 4)
		n = qdepth / 4;
	return n ? n : 1;
}

static void worker_loop(struct worker *w, struct engine_io *io)
{
	struct run *run = w->run;
	const struct engine_ops *ops = run->ops;
	const struct workload *wl = run->wl;
	const bool stamp = wl->read_pct < 100 && wl->data != WL_DATA_ZERO;
	const uint64_t meas0 = run->ramp_ns, meas_end = run->ramp_ns + run->time_ns;
	const uint64_t ivl_ns = run->interval_ns;
	const unsigned wait_for = wait_target(wl->qdepth);
	uint64_t last_wait_ns = 0;
	struct wl_gen gen;
	struct engine_cqe cqes[REAP_MAX];
	unsigned *free_slots = NULL, nfree = 0, inflight = 0;
	uint64_t *sub_ns = NULL, *slot_off = NULL; /* sub_ns: CLOCK_MONOTONIC at submission */
	uint32_t *slot_len = NULL;
	uint8_t *slot_write = NULL;
	uint64_t stamp_ctr = 0, paused_ns = 0;
	double period_ns = 0, next_due = 0;
	uint64_t turns = 0, t0 = 0, raw, now = 0; /* now: the step's clock, once clocked */
	bool stopping = false, clocked;
	struct rec *cur = &w->ring[0];

	clock_in(run);
	free_slots = calloc(wl->qdepth, sizeof(*free_slots));
	sub_ns = calloc(wl->qdepth, sizeof(*sub_ns));
	slot_off = calloc(wl->qdepth, sizeof(*slot_off));
	slot_len = calloc(wl->qdepth, sizeof(*slot_len));
	slot_write = calloc(wl->qdepth, sizeof(*slot_write));
	if (!free_slots || !sub_ns || !slot_off || !slot_len || !slot_write) {
		w->error = -ENOMEM;
		atomic_store(&run->failed, 1);
		stopping = true;
	}
	for (unsigned i = 0; i < wl->qdepth && !stopping; i++)
		free_slots[nfree++] = wl->qdepth - 1 - i;

	wl_gen_init(&gen, wl, run->t->size, w->id, run->seed, run->dist);
	if (wl->rate_iops) {
		/* share the total rate evenly; the first threads take the remainder */
		uint64_t r = wl->rate_iops / wl->threads +
			     (w->id < wl->rate_iops % wl->threads ? 1 : 0);
		period_ns = r ? 1e9 / (double)r : 1e18;
		next_due = (double)(period_ns * w->id / wl->threads);
	}
	/* a share so small that no I/O may fall due in the window may leave a worker idle */
	w->may_idle = period_ns > 0 && (double)run->time_ns < 2 * period_ns;
	for (int d = 0; d < 2; d++) {
		io_acc_init(&w->drain[d]);
		io_acc_init(&w->ramp[d]);
	}
	rec_reset(cur, 0);
	clocked = clock_started(run, &t0);
	raw = mono_now_ns();
	if (clocked)
		now = raw - t0;

	for (;;) {
		/* until the clock starts, issue (a rate-limited worker waits) and count nothing */
		if (!clocked) {
			clocked = clock_started(run, &t0);
			if (clocked) {
				paused_ns = 0;
				raw = mono_now_ns();
				now = raw - t0;
			} else if (period_ns && inflight == 0 && !stopping) {
				nanosleep(&(struct timespec){0, 200000}, NULL);
				if (!atomic_load(&run->ctl->stop) && !atomic_load(&run->failed))
					continue;
			}
		}
		/* measured-clock time: since the start, less any time spent paused */
		if (!stopping && (atomic_load_explicit(&run->ctl->stop, memory_order_relaxed) ||
				  atomic_load_explicit(&run->ctl->end_step, memory_order_relaxed) ||
				  atomic_load_explicit(&run->failed, memory_order_relaxed) ||
				  (clocked && now >= meas_end))) {
			stopping = true;
			w->stop_ns = now;
		}
		if (!stopping && inflight == 0 &&
		    atomic_load_explicit(&run->ctl->pause, memory_order_relaxed)) {
			uint64_t p0 = mono_now_ns();
			while (atomic_load(&run->ctl->pause) && !atomic_load(&run->ctl->stop))
				nanosleep(&(struct timespec){0, 20000000}, NULL);
			raw = mono_now_ns();
			paused_ns += raw - p0;
			if (clocked)
				now = raw - t0 - paused_ns;
			continue;
		}
		while (!stopping && nfree && !atomic_load_explicit(&run->ctl->pause,
								    memory_order_relaxed)) {
			if (period_ns) {
				if ((double)now < next_due)
					break;
				next_due += period_ns;
			}
			unsigned slot = free_slots[--nfree];
			bool write;
			uint64_t off;
			uint32_t len;
			wl_gen_next(&gen, &write, &off, &len);
			if (write && stamp)
				stamp_buffer(w->bufs[slot].iov_base, len, off, &stamp_ctr);
			ops->queue(io, slot, write, off, len);
			sub_ns[slot] = raw;
			slot_off[slot] = off;
			slot_len[slot] = len;
			slot_write[slot] = write;
			inflight++;
		}
		if (inflight == 0) {
			if (stopping)
				break;
			/* rate-limited and idle: sleep until the next I/O is due */
			uint64_t t = t0 + paused_ns + (uint64_t)next_due;
			struct timespec ts = {(time_t)(t / 1000000000ull), (long)(t % 1000000000ull)};
			if (!atomic_load(&run->ctl->pause))
				clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			raw = mono_now_ns();
			now = raw - t0 - paused_ns;
			continue;
		}
		/* wake at the next interval boundary or when the next rate-limited I/O is due */
		uint64_t wake = now < meas0 ? meas0 : meas0 + ((now - meas0) / ivl_ns + 1) * ivl_ns;
		if (wake > meas_end)
			wake = meas_end;
		if (period_ns && nfree && next_due < (double)wake)
			wake = (uint64_t)next_due;
		unsigned want = inflight < wait_for ? inflight : wait_for;
		/*
		 * A timed wait arms a kernel timer each time it sleeps, which costs a device
		 * that completes in microseconds; it is only needed to wake for a boundary or
		 * a due I/O when completions are slow, so arm it only after a slow wait.
		 */
		uint64_t timeout = stopping || wake <= now ? 0 : wake - now;
		if (!period_ns && now - last_wait_ns < SLOW_WAIT_NS)
			timeout = 0;
		last_wait_ns = now;
		int ret = ops->submit_wait(io, want, timeout);
		if (ret < 0) {
			w->error = ret;
			atomic_store(&run->failed, 1);
			break;
		}
		unsigned n = ops->reap(io, cqes, REAP_MAX);
		/* before the clock read: a t0 seen set is no later than it */
		if (!clocked && clock_started(run, &t0)) {
			clocked = true;
			paused_ns = 0;
		}
		raw = mono_now_ns();
		w->completed += n;
		atomic_store_explicit(&w->turns, ++turns, memory_order_relaxed);
		/* the warm-up, the ramp and the drain are kept apart from the window */
		struct io_acc *into = w->ramp;
		if (clocked)
			now = raw - t0 - paused_ns;
		if (clocked && now >= meas_end) {
			into = w->drain;
		} else if (clocked && now >= meas0) {
			cur = roll(w, cur, (uint32_t)((now - meas0) / ivl_ns));
			into = cur->acc;
		}
		for (unsigned i = 0; i < n; i++) {
			unsigned slot = cqes[i].slot;
			free_slots[nfree++] = slot;
			inflight--;
			if (cqes[i].res != (int)slot_len[slot]) {
				if (!w->error) {
					w->error = cqes[i].res < 0 ? cqes[i].res : -EIO;
					w->error_offset = slot_off[slot];
					w->error_write = slot_write[slot];
				}
				atomic_store(&run->failed, 1);
				continue;
			}
			io_acc_add(&into[slot_write[slot]], raw - sub_ns[slot], slot_len[slot]);
		}
	}
	w->last_ns = now;
	atomic_store(&w->ended, true);
	/* the last record runs to the interval in which this worker stopped measuring */
	uint64_t end = now < meas0 ? meas0 : now > meas_end ? meas_end : now;
	uint32_t last = end > meas0 ? (uint32_t)((end - meas0 - 1) / ivl_ns) : 0;
	if (last > cur->last && !rec_empty(cur) && ring_room(w) >= 1)
		cur = publish(w, cur, cur->last + 1, last);
	if (last > cur->last)
		cur->last = last;
	publish_final(w, cur, end - meas0);
	free(free_slots);
	free(sub_ns);
	free(slot_off);
	free(slot_len);
	free(slot_write);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *run = w->run;
	struct engine_io *io = NULL;
	int ret = worker_setup(w, &io);

	if (ret < 0)
		atomic_store(&run->setup_error, ret);
	atomic_fetch_add(&run->nready, 1);
	/* wait for every worker to be set up, and the start time to be chosen */
	while (atomic_load(&run->go) == 0)
		nanosleep(&(struct timespec){0, 200000}, NULL);
	if (atomic_load(&run->go) > 0)
		worker_loop(w, io);
	if (io)
		run->ops->close(io);
	return NULL;
}

/* ---- the collector ---------------------------------------------------------------- */

struct collector {
	struct run *run;
	engine_sample_fn on_sample;
	void *arg;
	struct step_result *out;
	unsigned cap;
	uint32_t next;           /* next interval to emit */
	struct io_acc *tmp;      /* [2]: the span being merged */
	uint64_t paused_ns;      /* time the collector saw the step paused (CLOCK_MONOTONIC) */
	bool open;               /* a host stall is going on */
	uint64_t open_start_ns, open_end_ns; /* CLOCK_MONOTONIC */
	struct {
		uint64_t start_ns, end_ns; /* measured clock */
	} stalls[STALLS_MAX];    /* host stalls not yet placed in a sample, in time order */
	unsigned nstalls;
};

/* The published, unconsumed record k places past the tail of w, or NULL. */
static struct rec *peek(struct worker *w, uint32_t k)
{
	uint32_t tail = atomic_load_explicit(&w->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&w->head, memory_order_acquire);

	return tail + k < head ? &w->ring[(tail + k) % REC_RING] : NULL;
}

/*
 * Find the end E of the next span every worker can account for exactly: each worker has
 * published records covering [next, E] ending at E. A worker whose final record is
 * published has nothing after it, so its coverage extends to any E. Returns false when
 * some worker has not published enough yet.
 */
static bool span_ready(struct collector *c, uint32_t *end)
{
	struct run *run = c->run;
	uint32_t e = c->next;
	bool changed = true;

	while (changed) {
		changed = false;
		for (unsigned i = 0; i < run->nworkers; i++) {
			struct worker *w = &run->w[i];
			struct rec *r = NULL;
			bool final = w->finished;
			for (uint32_t k = 0; (r = peek(w, k)); k++) {
				final |= r->final;
				if (r->last >= e)
					break;
			}
			if (!r) {
				if (final)
					continue;
				return false;
			}
			/* an empty record splits anywhere: it has nothing to place */
			if (r->last > e && !(rec_empty(r) && r->first <= e)) {
				e = r->last;
				changed = true;
			}
		}
	}
	*end = e;
	return true;
}

static bool all_finished(struct run *run)
{
	for (unsigned i = 0; i < run->nworkers; i++)
		if (!run->w[i].finished)
			return false;
	return true;
}

static uint64_t max_end_ns(struct run *run)
{
	uint64_t e = 0;

	for (unsigned i = 0; i < run->nworkers; i++)
		if (run->w[i].end_ns > e)
			e = run->w[i].end_ns;
	return e;
}

/* Host stalls on the step's measured clock: [*start, *end), false when outside it. */
static bool stall_span(struct collector *c, uint64_t from_ns, uint64_t to_ns, uint64_t *start,
		       uint64_t *end)
{
	struct run *run = c->run;
	uint64_t base = run->t0_ns + run->ramp_ns + c->paused_ns;

	*start = from_ns > base ? from_ns - base : 0;
	*end = to_ns > base ? to_ns - base : 0;
	if (*end > run->time_ns)
		*end = run->time_ns;
	return *start < *end; /* else in the ramp or the drain */
}

/* The stall going on has ended: keep it if it lasted ENGINE_HOST_STALL_NS or more. */
static void stall_close(struct collector *c)
{
	uint64_t start, end;

	if (!c->open)
		return;
	c->open = false;
	if (c->open_end_ns - c->open_start_ns < ENGINE_HOST_STALL_NS)
		return;
	if (c->open_end_ns - c->open_start_ns > c->out->host_stall_max_ns)
		c->out->host_stall_max_ns = c->open_end_ns - c->open_start_ns;
	if (!stall_span(c, c->open_start_ns, c->open_end_ns, &start, &end))
		return;
	if (c->nstalls == STALLS_MAX) {
		c->stalls[STALLS_MAX - 1].end_ns = end;
		return;
	}
	c->stalls[c->nstalls].start_ns = start;
	c->stalls[c->nstalls].end_ns = end;
	c->nstalls++;
}

static void stall_extend(struct collector *c, uint64_t from_ns, uint64_t to_ns)
{
	if (c->open && from_ns <= c->open_end_ns + ENGINE_HOST_STALL_NS) {
		c->open_end_ns = to_ns;
		return;
	}
	stall_close(c);
	c->open = true;
	c->open_start_ns = from_ns;
	c->open_end_ns = to_ns;
}

/* Run-queue wait of a thread so far (its schedstat's second field), ns. */
static bool read_run_delay(int fd, uint64_t *out)
{
	char buf[128];
	unsigned long long on_cpu, wait;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &on_cpu, &wait) != 2)
		return false;
	*out = wait;
	return true;
}

/*
 * Did the host keep every worker from running for most of the last period_ns? A worker
 * whose loop turned ran. One that did not turn either slept (waiting for its device or
 * its rate: no run-queue time) or wanted a CPU and did not get one (its run-queue wait
 * grew by about the period). Only the workers that did not turn are asked, so a step
 * that keeps its workers busy costs the watch nothing.
 */
static bool workers_stalled(struct collector *c, uint64_t period_ns)
{
	struct run *run = c->run;
	bool all = true;

	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->w[i];
		uint64_t t = atomic_load_explicit(&w->turns, memory_order_relaxed), rd;
		bool had = w->quiet;

		if (t != w->seen_turns || atomic_load_explicit(&w->ended, memory_order_relaxed)) {
			w->seen_turns = t;
			w->quiet = false;
			all = false;
			continue;
		}
		if (w->stat_fd < 0 || !read_run_delay(w->stat_fd, &rd)) {
			all = false;
			continue;
		}
		if (!had || rd - w->run_delay_ns < period_ns / 2)
			all = false;
		w->run_delay_ns = rd;
		w->quiet = true;
	}
	return all;
}

/*
 * The collector's look at the host after a sleep from from_ns that was due to end at
 * due_ns and ended at woke_ns (CLOCK_MONOTONIC). Waking ENGINE_HOST_STALL_NS or more late
 * means the host ran none of this process's threads (SIGSTOP, a suspended VM); every
 * worker wanting a CPU and getting none means it ran not them (CPU starvation). Both are
 * host stalls, kept once they last ENGINE_HOST_STALL_NS and placed in the samples they
 * overlap. A slow drive is neither: its workers sleep.
 */
static void watch(struct collector *c, uint64_t from_ns, uint64_t due_ns, uint64_t woke_ns,
		  bool paused)
{
	if (paused) {
		c->paused_ns += woke_ns - from_ns;
		stall_close(c);
		return;
	}
	if (woke_ns >= due_ns + ENGINE_HOST_STALL_NS)
		stall_extend(c, due_ns, woke_ns);
	else if (workers_stalled(c, woke_ns - from_ns))
		stall_extend(c, from_ns, woke_ns);
	else
		stall_close(c);
}

static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t a = a0 > b0 ? a0 : b0, b = a1 < b1 ? a1 : b1;

	return b > a ? b - a : 0;
}

/*
 * The stalled time within [start_ns, stop_ns); stalls that end by stop_ns are done. A
 * stall still going on counts once it is long enough: the workers may publish the
 * intervals it covers before the watch sees it end.
 */
static uint64_t place_stalls(struct collector *c, uint64_t start_ns, uint64_t stop_ns)
{
	uint64_t sum = 0, a, b;
	unsigned keep = 0;

	if (c->open && c->open_end_ns - c->open_start_ns >= ENGINE_HOST_STALL_NS &&
	    stall_span(c, c->open_start_ns, c->open_end_ns, &a, &b))
		sum += overlap(a, b, start_ns, stop_ns);
	for (unsigned i = 0; i < c->nstalls; i++) {
		sum += overlap(c->stalls[i].start_ns, c->stalls[i].end_ns, start_ns, stop_ns);
		if (c->stalls[i].end_ns > stop_ns)
			c->stalls[keep++] = c->stalls[i];
	}
	c->nstalls = keep;
	return sum;
}

/* Merge every worker's records up to interval `end` into one sample. */
static int emit(struct collector *c, uint32_t end)
{
	struct run *run = c->run;
	struct step_result *out = c->out;
	struct sample s;

	io_acc_init(&c->tmp[0]);
	io_acc_init(&c->tmp[1]);
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->w[i];
		struct rec *r;
		while ((r = peek(w, 0)) && r->last <= end) {
			io_acc_merge(&c->tmp[0], &r->acc[0]);
			io_acc_merge(&c->tmp[1], &r->acc[1]);
			w->ios += r->acc[0].ios + r->acc[1].ios;
			if (r->final) {
				w->finished = true;
				w->end_ns = r->end_ns;
			}
			/* the slot goes back to the worker only after it has been read */
			atomic_store_explicit(&w->tail, atomic_load(&w->tail) + 1,
					      memory_order_release);
		}
		/* published records are the collector's until it moves the tail past them */
		if (r && rec_empty(r) && r->first <= end)
			r->first = end + 1;
	}
	uint64_t start_ns = (uint64_t)c->next * run->interval_ns;
	uint64_t stop_ns = (uint64_t)(end + 1) * run->interval_ns;
	if (all_finished(run) && stop_ns > max_end_ns(run))
		stop_ns = max_end_ns(run);
	c->next = end + 1;
	if (stop_ns <= start_ns)
		return 0; /* stopped on a boundary: nothing was measured in this span */
	memset(&s, 0, sizeof(s));
	stats_summarize(&c->tmp[0], &c->tmp[1], stop_ns - start_ns, &s);
	s.index = out->nsamples;
	s.start_ns = start_ns;
	s.host_stall_ns = place_stalls(c, start_ns, stop_ns);
	out->host_stall_ns += s.host_stall_ns;
	io_acc_merge(&out->acc[0], &c->tmp[0]);
	io_acc_merge(&out->acc[1], &c->tmp[1]);
	if (out->nsamples == c->cap) {
		unsigned cap = c->cap ? c->cap * 2 : 64;
		struct sample *p = realloc(out->samples, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		out->samples = p;
		c->cap = cap;
	}
	out->samples[out->nsamples++] = s;
	if (c->on_sample)
		c->on_sample(c->arg, &s);
	return 0;
}

static int collect(struct collector *c)
{
	struct run *run = c->run;
	uint32_t end;
	int ret = 0;

	for (unsigned i = 0; i < run->nworkers; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)run->w[i].os_tid);
		run->w[i].stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	while (!all_finished(run)) {
		if (span_ready(c, &end)) {
			ret = emit(c, end);
			if (ret < 0)
				break;
			continue;
		}
		bool paused = atomic_load(&run->ctl->pause) != 0;
		uint64_t t = mono_now_ns();
		nanosleep(&(struct timespec){0, (long)ENGINE_WATCH_NS}, NULL);
		watch(c, t, t + ENGINE_WATCH_NS, mono_now_ns(),
		      paused || atomic_load(&run->ctl->pause) != 0);
	}
	stall_close(c);
	for (unsigned i = 0; i < run->nworkers; i++)
		if (run->w[i].stat_fd >= 0)
			close(run->w[i].stat_fd);
	return ret;
}

/* ---- engine_run ------------------------------------------------------------------- */

/*
 * The drain and the idle workers, once every worker is joined. The drain runs from the
 * moment the step stopped issuing (its time was up, or it was stopped) to the last
 * completion; its latencies join the step's maximum and percentiles.
 */
static void summarize_edges(struct run *run, struct step_result *out)
{
	uint64_t from = run->ramp_ns + run->time_ns, last = 0;

	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->w[i];
		for (int d = 0; d < 2; d++) {
			io_acc_merge(&out->drain_acc[d], &w->drain[d]);
			io_acc_merge(&out->ramp_acc[d], &w->ramp[d]);
		}
		if (w->stop_ns < from)
			from = w->stop_ns;
		if (w->last_ns > last)
			last = w->last_ns;
		if (w->ios == 0 && !w->may_idle) {
			if (!out->idle_workers)
				out->first_idle = i;
			out->idle_workers++;
			out->silent_workers += w->completed == 0;
		}
	}
	stats_summarize(&out->drain_acc[0], &out->drain_acc[1], last > from ? last - from : 0,
			&out->drain);
	stats_summarize(&out->ramp_acc[0], &out->ramp_acc[1], run->ramp_ns, &out->ramp);
	stats_fold_latency(&out->acc[0], &out->acc[1], &out->drain_acc[0], &out->drain_acc[1],
			   &out->total);
}

const char *const engine_poll_name[] = {"auto", "yes", "no"};

static atomic_int poll_mode = -1; /* -1: not yet read from the environment */

int engine_poll_parse(const char *s, enum engine_poll *out)
{
	for (int i = ENGINE_POLL_AUTO; i <= ENGINE_POLL_NO; i++)
		if (!strcmp(s, engine_poll_name[i])) {
			*out = (enum engine_poll)i;
			return 0;
		}
	/* the words people also type */
	if (!strcmp(s, "on"))
		*out = ENGINE_POLL_YES;
	else if (!strcmp(s, "off"))
		*out = ENGINE_POLL_NO;
	else
		return -EINVAL;
	return 0;
}

void engine_set_poll(enum engine_poll mode)
{
	atomic_store(&poll_mode, (int)mode);
}

enum engine_poll engine_get_poll(void)
{
	int m = atomic_load(&poll_mode);
	enum engine_poll env = ENGINE_POLL_AUTO;
	const char *s;

	if (m >= 0)
		return (enum engine_poll)m;
	/* main() has refused a bad value already; a library user gets AUTO */
	s = getenv("DRIVEBENCH_BUSY_POLL");
	if (s && engine_poll_parse(s, &env))
		env = ENGINE_POLL_AUTO;
	return env;
}

static unsigned usable_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

bool engine_busy_poll(unsigned threads)
{
	switch (engine_get_poll()) {
	case ENGINE_POLL_YES:
		return true;
	case ENGINE_POLL_NO:
		return false;
	default:
		return threads < usable_cpus();
	}
}

const struct engine_ops *engine_find(const char *name)
{
	static const struct engine_ops *const all[] = {&engine_uring, &engine_null};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

void step_result_free(struct step_result *r)
{
	free(r->samples);
	free(r->acc);
	free(r->drain_acc);
	free(r->ramp_acc);
	r->samples = NULL;
	r->acc = NULL;
	r->drain_acc = NULL;
	r->ramp_acc = NULL;
	r->nsamples = 0;
}

int engine_run(const struct engine_ops *ops, const struct target *t, const struct workload *wl,
	       struct engine_ctl *ctl, engine_sample_fn on_sample, void *arg,
	       struct step_result *out, char *err, size_t errlen)
{
	struct engine_ctl local_ctl = {0};
	struct run run = {0};
	struct collector c = {0};
	unsigned started = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = workload_validate(wl, t->lbs, t->size, err, errlen);
	if (ret < 0)
		return ret;
	if (wl->read_pct < 100 && !t->writable) {
		snprintf(err, errlen, "%s: opened read-only, but the workload writes", t->path);
		return -EBADF;
	}
	run.ops = ops;
	run.t = t;
	run.wl = wl;
	run.ctl = ctl ? ctl : &local_ctl;
	atomic_store(&run.ctl->end_step, 0);
	run.ramp_ns = wl->ramp_ns;
	run.time_ns = wl->time_ns;
	run.interval_ns = wl->interval_ns;
	run.max_bs = workload_max_bs(wl);
	run.nworkers = wl->threads;
	run.busy_poll = engine_busy_poll(wl->threads);
	run.seed = wl->seed ? wl->seed : mono_now_ns() * 0x9e3779b97f4a7c15ull;
	out->seed = run.seed;
	out->acc = calloc(2, sizeof(*out->acc));
	out->drain_acc = calloc(2, sizeof(*out->drain_acc));
	out->ramp_acc = calloc(2, sizeof(*out->ramp_acc));
	c.tmp = calloc(2, sizeof(*c.tmp));
	run.w = calloc(run.nworkers, sizeof(*run.w));
	run.dist = malloc(sizeof(*run.dist));
	if (!out->acc || !out->drain_acc || !out->ramp_acc || !c.tmp || !run.w || !run.dist) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory for %u workers", run.nworkers);
		goto out;
	}
	ret = wl_dist_table_build(run.dist, wl, t->size, err, errlen);
	if (ret < 0)
		goto out;
	for (int d = 0; d < 2; d++) {
		io_acc_init(&out->acc[d]);
		io_acc_init(&out->drain_acc[d]);
		io_acc_init(&out->ramp_acc[d]);
	}
	for (unsigned i = 0; i < run.nworkers; i++) {
		run.w[i].run = &run;
		run.w[i].id = i;
		ret = -pthread_create(&run.w[i].tid, NULL, worker_main, &run.w[i]);
		if (ret < 0)
			break;
		started++;
	}
	while (atomic_load(&run.nready) < started)
		nanosleep(&(struct timespec){0, 200000}, NULL);
	if (ret == 0)
		ret = atomic_load(&run.setup_error);
	atomic_store(&run.go, ret == 0 ? 1 : -1);
	if (ret == 0) {
		/* the last worker to reach its loop sets t0 (clock_in) */
		while (atomic_load_explicit(&run.go, memory_order_acquire) != 2)
			nanosleep(&(struct timespec){0, 200000}, NULL);
		c.run = &run;
		c.on_sample = on_sample;
		c.arg = arg;
		c.out = out;
		ret = collect(&c);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(run.w[i].tid, NULL);
	if (ret < 0) {
		if (started < run.nworkers)
			snprintf(err, errlen, "cannot start %u worker threads: %s", run.nworkers,
				 strerror(-ret));
		else
			snprintf(err, errlen, "%s: cannot set up %s I/O: %s", t->path, ops->name,
				 strerror(-ret));
		goto out;
	}

	snprintf(out->engine_desc, sizeof(out->engine_desc), "%s", run.w[0].desc);
	stats_summarize(&out->acc[0], &out->acc[1], max_end_ns(&run), &out->total);
	out->total.index = out->nsamples;
	out->total.host_stall_ns = out->host_stall_ns;
	summarize_edges(&run, out);
	out->stopped = atomic_load(&run.ctl->stop) != 0;
	for (unsigned i = 0; i < run.nworkers; i++) {
		if (run.w[i].error) {
			out->error = run.w[i].error;
			out->error_offset = run.w[i].error_offset;
			out->error_write = run.w[i].error_write;
			ret = out->error;
			snprintf(err, errlen, "%s: %s error at offset %llu: %s", t->path,
				 out->error_write ? "write" : "read",
				 (unsigned long long)out->error_offset, strerror(-out->error));
			break;
		}
	}
out:
	free(c.tmp);
	free(run.dist);
	if (run.w)
		for (unsigned i = 0; i < run.nworkers; i++) {
			free(run.w[i].buf_mem);
			free(run.w[i].bufs);
		}
	free(run.w);
	return ret;
}
