// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A worker thread of a step: its slot buffers and backend queue, the start barrier, and
 * the loop that issues its stream's workload and accounts every completion.
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
 * Edges: the step's clock starts when every worker of every stream is in its loop
 * (clock_in()); completions before it (the warm-up and the ramp) and after the measured
 * time (the drain) are kept apart, in the worker's ramp and drain accumulators.
 */
#include "engine_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REAP_MAX 256  /* completions taken per reap */
#define SLOW_WAIT_NS 1000000ull /* a wait longer than this arms a timeout on the next */

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

/* Its slot buffers, each as large as its stream's largest block, and its backend queue. */
static int worker_setup(struct worker *w, struct engine_io **io)
{
	struct step_run *step = w->step;
	const struct workload *wl = w->s->wl;
	size_t bs = w->s->max_bs;
	unsigned qd = w->s->qdepth;
	uint64_t s = w->s->seed ^ (0xd1b54a32d192ed03ull * (w->index + 1));
	int ret;

	w->os_tid = gettid();
	w->bufs = calloc(qd, sizeof(*w->bufs));
	if (!w->bufs)
		return -ENOMEM;
	ret = posix_memalign(&w->buf_mem, 4096, bs * qd);
	if (ret)
		return -ret;
	for (unsigned i = 0; i < qd; i++) {
		w->bufs[i].iov_base = (uint8_t *)w->buf_mem + bs * i;
		w->bufs[i].iov_len = bs;
	}
	if (wl->read_pct < 100)
		fill_buffer(w->buf_mem, bs * qd, wl, &s);
	else
		memset(w->buf_mem, 0, bs * qd);
	ret = step->ops->open(io, w->s->t->fd, qd, w->bufs,
			      (step->busy_poll ? ENGINE_OPEN_BUSY_POLL : 0) |
				      (step->async ? ENGINE_OPEN_ASYNC : 0) |
				      step->gather |
				      ENGINE_OPEN_SETUP(step->ctl->opts.ring_setup));
	if (ret == 0) {
		snprintf(w->desc, sizeof(w->desc), "%s", step->ops->describe(*io));
		w->busy_poll =
			step->busy_poll && (!step->ops->busy_polls || step->ops->busy_polls(*io));
	}
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
static void clock_in(struct step_run *step)
{
	if (atomic_fetch_add(&step->nrunning, 1) + 1 == step->nworkers) {
		step->t0_ns = mono_now_ns();
		/* t0 is visible to whoever sees go == 2 */
		go_set(step, 2);
	}
}

static bool clock_started(struct step_run *step, uint64_t *t0)
{
	if (atomic_load_explicit(&step->go, memory_order_acquire) != 2)
		return false;
	*t0 = step->t0_ns;
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


/* ---- the loop --------------------------------------------------------------------- */

/* The collector's no-progress watch: the worker completed I/O, or owes none. */
static inline void made_progress(struct worker *w)
{
	atomic_store_explicit(&w->progress, ++w->progress_turns, memory_order_relaxed);
}

/*
 * A worker's loop state: its slots, its clock and its rate. One per worker, on its stack,
 * and its address goes to no function the compiler cannot see into (the backend's ops,
 * wl_gen_init) and holds no array, so the loop can keep it in registers as it kept the
 * locals it replaces; the generator and the completions are apart for that reason.
 */
struct loop {
	struct worker *w;
	struct step_run *step;
	const struct engine_ops *ops;
	struct engine_io *io;
	const struct workload *wl;  /* its stream's */
	bool stamp;                 /* writes get stamp_buffer() */
	uint64_t meas0, meas_end;   /* the measured time on the step's clock, ns */
	uint64_t ivl_ns;
	unsigned wait_for;          /* completions to wait for (wait_target) */
	uint64_t last_wait_ns;      /* step clock at the last submit_wait */
	struct wl_gen *gen;         /* on the worker's stack, beside this */
	unsigned *free_slots, nfree, inflight;
	uint64_t *sub_ns;           /* per slot: CLOCK_MONOTONIC at submission */
	uint64_t *slot_off;         /* per slot: bytes */
	uint32_t *slot_len;         /* per slot: bytes */
	uint8_t *slot_op;           /* per slot: ENGINE_OP_* */
	uint64_t stamp_ctr;
	uint64_t paused_ns;         /* time spent paused since the clock started */
	double period_ns, next_due; /* rate-limited: ns between I/Os, step clock of the next */
	bool paced;                 /* I/Os fall due: rate-limited, or a timed replay */
	const struct trace_mem *tr; /* a replay's trace, or NULL */
	uint64_t tr_next;           /* its next record */
	uint64_t issued, io_cap;    /* bytes issued; stop issuing at io_cap (UINT64_MAX: never) */
	uint64_t turns;
	uint64_t t0;                /* the step's t0, once clocked */
	uint64_t raw;               /* CLOCK_MONOTONIC at the last clock read */
	uint64_t now;               /* the step's clock, once clocked */
	bool stopping, clocked;
	struct rec *cur;
};

/*
 * A worker's share of its stream's byte budget (wl->io_bytes, a fill): the budget in
 * units of the smallest block, split evenly, the first threads taking the remainder, so
 * the stream issues exactly io_bytes when every block is one unit, and at most one block
 * more per thread otherwise. UINT64_MAX without a budget.
 */
static uint64_t io_share(const struct workload *wl, uint32_t unit, unsigned index)
{
	uint64_t units, share;

	if (!wl->io_bytes)
		return UINT64_MAX;
	units = (wl->io_bytes + unit - 1) / unit;
	share = units / wl->threads + (index < units % wl->threads ? 1 : 0);
	return share * unit;
}

/*
 * The loop's slots, generator and share of the stream's rate. On -ENOMEM the worker fails
 * the step and its loop ends at once.
 */
static void loop_init(struct loop *L, struct worker *w, struct engine_io *io,
		      struct wl_gen *gen)
{
	const struct workload *wl = w->s->wl;
	unsigned qd = w->s->qdepth;

	*L = (struct loop){0};
	L->w = w;
	L->step = w->step;
	L->ops = w->step->ops;
	L->io = io;
	L->wl = wl;
	L->stamp = wl->read_pct < 100 && wl->data != WL_DATA_ZERO;
	L->meas0 = L->step->ramp_ns;
	L->meas_end = L->step->ramp_ns + L->step->time_ns;
	L->ivl_ns = L->step->interval_ns;
	L->wait_for = wait_target(qd);
	L->cur = &w->ring[0];
	L->free_slots = calloc(qd, sizeof(*L->free_slots));
	L->sub_ns = calloc(qd, sizeof(*L->sub_ns));
	L->slot_off = calloc(qd, sizeof(*L->slot_off));
	L->slot_len = calloc(qd, sizeof(*L->slot_len));
	L->slot_op = calloc(qd, sizeof(*L->slot_op));
	if (!L->free_slots || !L->sub_ns || !L->slot_off || !L->slot_len || !L->slot_op) {
		w->error = -ENOMEM;
		atomic_store(&L->step->failed, 1);
		L->stopping = true;
	}
	for (unsigned i = 0; i < qd && !L->stopping; i++)
		L->free_slots[L->nfree++] = qd - 1 - i;

	L->gen = gen;
	wl_gen_init(gen, wl, w->s->t->size, w->index, w->s->seed, w->s->dist);
	if (wl->rate_iops) {
		/* share the stream's rate evenly; its first threads take the remainder */
		uint64_t r = wl->rate_iops / wl->threads +
			     (w->index < wl->rate_iops % wl->threads ? 1 : 0);
		L->period_ns = r ? 1e9 / (double)r : 1e18;
		L->next_due = (double)(L->period_ns * w->index / wl->threads);
	}
	L->paced = L->period_ns > 0 || w->s->trace_speed > 0;
	L->tr = w->s->trace.n ? &w->s->trace : NULL;
	L->io_cap = io_share(wl, gen->align, w->index);
	/* a share so small that no I/O may fall due in the window may leave a worker idle */
	w->may_idle = (L->period_ns > 0 && (double)L->step->time_ns < 2 * L->period_ns) ||
		      L->io_cap == 0;
	if (L->io_cap == 0)
		L->stopping = true;
	for (int d = 0; d < 2; d++) {
		io_acc_init(&w->drain[d]);
		io_acc_init(&w->ramp[d]);
	}
	rec_reset(L->cur, 0);
}

/*
 * Until the clock starts, issue (a rate-limited worker waits) and count nothing. Returns
 * true when the loop should look again before doing anything else.
 */
static bool before_clock(struct loop *L)
{
	L->clocked = clock_started(L->step, &L->t0);
	if (L->clocked) {
		L->paused_ns = 0;
		L->raw = mono_now_ns();
		L->now = L->raw - L->t0;
	} else if (L->period_ns && L->inflight == 0 && !L->stopping) {
		/* every released worker clocks in first thing, so the clock does start */
		go_wait(L->step, 1);
		made_progress(L->w);
		return true;
	}
	return false;
}

/*
 * Stop issuing when asked to, when another worker failed, or when the time is up (a
 * worker that has issued its share of a fill stops in issue()).
 */
static inline void check_stop(struct loop *L)
{
	struct step_run *step = L->step;

	if (!L->stopping && (atomic_load_explicit(&step->ctl->stop, memory_order_relaxed) ||
			     atomic_load_explicit(&step->failed, memory_order_relaxed) ||
			     (L->clocked && L->now >= L->meas_end))) {
		L->stopping = true;
		L->w->stop_ns = L->now;
	}
}

/* Paused with nothing in flight: wait, and take the time paused off the measured clock. */
static void pause_wait(struct loop *L)
{
	struct engine_ctl *ctl = L->step->ctl;
	uint64_t p0 = mono_now_ns();

	while (atomic_load(&ctl->pause) && !atomic_load(&ctl->stop))
		nanosleep(&(struct timespec){0, 20000000}, NULL);
	made_progress(L->w);
	L->raw = mono_now_ns();
	L->paused_ns += L->raw - p0;
	if (L->clocked)
		L->now = L->raw - L->t0 - L->paused_ns;
}

/*
 * A replay's next I/O, if it is due (timing mode: the trace's time divided by the speed,
 * on the step's clock); how late it is goes into the worker's lag. The last one stops
 * the worker. Returns false when none is due yet.
 */
static inline bool replay_next(struct loop *L, unsigned *op, uint64_t *off, uint32_t *len)
{
	const struct trace_io *t = &L->tr->io[L->tr_next];
	const struct stream_run *s = L->w->s;
	struct replay_stats *rs = &L->w->replay;

	if (s->trace_speed > 0) {
		double due = (double)t->time_ns / s->trace_speed;
		if ((double)L->now < due) {
			L->next_due = due;
			return false;
		}
		uint64_t lag = L->now - (uint64_t)due;
		rs->lag_mean_ns += (double)lag; /* a sum until engine_trace_summarize */
		rs->late_ios += lag > ENGINE_REPLAY_LATE_NS;
		if (lag > rs->lag_max_ns)
			rs->lag_max_ns = lag;
	}
	*op = t->op;
	*len = t->len ? (t->len + s->t->lbs - 1) / s->t->lbs * s->t->lbs : 0;
	/* a discard larger than the target (a file system's first, of its whole device) is
	   one of the whole target */
	if (*len > s->t->size)
		*len = (uint32_t)(s->t->size - s->t->size % s->t->lbs);
	*off = t->op == TRACE_FLUSH ? 0 : trace_place(t->off - t->off % s->t->lbs, *len,
							s->t->size, s->t->lbs);
	rs->issued++;
	if (++L->tr_next == L->tr->n) {
		L->stopping = true;
		L->w->stop_ns = L->now;
	}
	return true;
}

/* Stage an I/O in every free slot (those due, when rate-limited or timed). */
static inline void issue(struct loop *L)
{
	while (!L->stopping && L->nfree &&
	       !atomic_load_explicit(&L->step->ctl->pause, memory_order_relaxed)) {
		unsigned op = ENGINE_OP_READ;
		uint64_t off;
		uint32_t len;
		if (L->tr) {
			if (!replay_next(L, &op, &off, &len))
				break;
		} else {
			if (L->period_ns) {
				if ((double)L->now < L->next_due)
					break;
				L->next_due += L->period_ns;
			}
			bool write;
			wl_gen_next(L->gen, &write, &off, &len);
			op = write;
		}
		unsigned slot = L->free_slots[--L->nfree];
		if (op == ENGINE_OP_WRITE && L->stamp)
			stamp_buffer(L->w->bufs[slot].iov_base, len, off, &L->stamp_ctr);
		if (op <= ENGINE_OP_WRITE)
			L->ops->queue(L->io, slot, op == ENGINE_OP_WRITE, off, len);
		else
			L->ops->queue_other(L->io, slot, op, off, len);
		L->sub_ns[slot] = L->raw;
		L->slot_off[slot] = off;
		L->slot_len[slot] = len;
		L->slot_op[slot] = (uint8_t)op;
		L->inflight++;
		/* a fill's budget: an add and a compare per I/O */
		L->issued += len;
		if (L->issued >= L->io_cap) {
			L->stopping = true;
			L->w->stop_ns = L->now;
		}
	}
}

/*
 * Rate-limited or a timed replay, and idle: sleep until the next I/O is due, at most
 * DUE_SLEEP_MAX_NS at a time, so that a long gap in a trace still answers a stop and
 * shows the no-progress watch a worker that owes nothing.
 */
#define DUE_SLEEP_MAX_NS 100000000ull

static void sleep_until_due(struct loop *L)
{
	uint64_t t = L->t0 + L->paused_ns + (uint64_t)L->next_due;

	if (t > L->raw + DUE_SLEEP_MAX_NS)
		t = L->raw + DUE_SLEEP_MAX_NS;
	struct timespec ts = {(time_t)(t / 1000000000ull), (long)(t % 1000000000ull)};

	if (!atomic_load(&L->step->ctl->pause))
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	made_progress(L->w);
	L->raw = mono_now_ns();
	L->now = L->raw - L->t0 - L->paused_ns;
}

/* How long submit_wait() may sleep: until the next interval boundary or due I/O, or 0. */
static inline uint64_t wait_timeout(struct loop *L)
{
	uint64_t now = L->now, meas0 = L->meas0;
	/* wake at the next interval boundary or when the next rate-limited I/O is due */
	uint64_t wake = now < meas0 ? meas0 : meas0 + ((now - meas0) / L->ivl_ns + 1) * L->ivl_ns;

	if (wake > L->meas_end)
		wake = L->meas_end;
	if (L->paced && L->nfree && L->next_due < (double)wake)
		wake = (uint64_t)L->next_due;
	/*
	 * A timed wait arms a kernel timer each time it sleeps, which costs a device that
	 * completes in microseconds; it is only needed to wake for a boundary or a due I/O
	 * when completions are slow, so arm it only after a slow wait.
	 */
	uint64_t timeout = L->stopping || wake <= now ? 0 : wake - now;
	if (!L->paced && now - L->last_wait_ns < SLOW_WAIT_NS)
		timeout = 0;
	L->last_wait_ns = now;
	return timeout;
}

/* Count n reaped completions, all seen at L->raw, and free their slots. */
static inline void account(struct loop *L, const struct engine_cqe *cqes, unsigned n)
{
	struct worker *w = L->w;
	/* the warm-up, the ramp and the drain are kept apart from the window */
	struct io_acc *into = w->ramp;

	if (L->clocked && L->now >= L->meas_end) {
		into = w->drain;
	} else if (L->clocked && L->now >= L->meas0) {
		L->cur = roll(w, L->cur, (uint32_t)((L->now - L->meas0) / L->ivl_ns));
		into = L->cur->acc;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned slot = cqes[i].slot;
		unsigned op = L->slot_op[slot];
		L->free_slots[L->nfree++] = slot;
		L->inflight--;
		/* a flush or a discard completes with 0 */
		if (cqes[i].res != (op <= ENGINE_OP_WRITE ? (int)L->slot_len[slot] : 0)) {
			if (!w->error) {
				w->error = cqes[i].res < 0 ? cqes[i].res : -EIO;
				w->error_offset = L->slot_off[slot];
				w->error_write = op != ENGINE_OP_READ;
			}
			atomic_store(&L->step->failed, 1);
			continue;
		}
		if (op <= ENGINE_OP_WRITE) {
			io_acc_add(&into[op], L->raw - L->sub_ns[slot], L->slot_len[slot]);
		} else if (op == ENGINE_OP_FLUSH) {
			w->replay.flushes++;
		} else {
			w->replay.discards++;
			w->replay.discard_bytes += L->slot_len[slot];
		}
	}
}

/* Send what is staged, wait for a few completions and count them. Returns 0 or -errno. */
static inline int submit_and_reap(struct loop *L, struct engine_cqe *cqes)
{
	unsigned want = L->inflight < L->wait_for ? L->inflight : L->wait_for;
	atomic_store_explicit(&L->w->wait, WAIT_IN, memory_order_release);
	int ret = L->ops->submit_wait(L->io, want, wait_timeout(L));

	/* abandoned while the kernel held it: the caller may have moved on (engine_int.h) */
	if (atomic_exchange_explicit(&L->w->wait, WAIT_OUT, memory_order_acq_rel) == WAIT_ABANDONED)
		return -ECANCELED;
	if (ret < 0) {
		L->w->error = ret;
		atomic_store(&L->step->failed, 1);
		return ret;
	}
	unsigned n = L->ops->reap(L->io, cqes, REAP_MAX);
	/* before the clock read: a t0 seen set is no later than it */
	if (!L->clocked && clock_started(L->step, &L->t0)) {
		L->clocked = true;
		L->paused_ns = 0;
	}
	L->raw = mono_now_ns();
	L->w->completed += n;
	atomic_store_explicit(&L->w->turns, ++L->turns, memory_order_relaxed);
	if (n)
		made_progress(L->w);
	if (L->clocked)
		L->now = L->raw - L->t0 - L->paused_ns;
	account(L, cqes, n);
	return 0;
}

static void loop_free(struct loop *L);

/* The loop is over: publish the last record, which runs to the interval it stopped in. */
static void loop_end(struct loop *L)
{
	struct worker *w = L->w;
	uint64_t meas0 = L->meas0, meas_end = L->meas_end, now = L->now;
	struct rec *cur = L->cur;

	w->last_ns = now;
	atomic_store(&w->ended, true);
	uint64_t end = now < meas0 ? meas0 : now > meas_end ? meas_end : now;
	uint32_t last = end > meas0 ? (uint32_t)((end - meas0 - 1) / L->ivl_ns) : 0;
	if (last > cur->last && !rec_empty(cur) && ring_room(w) >= 1)
		cur = publish(w, cur, cur->last + 1, last);
	if (last > cur->last)
		cur->last = last;
	publish_final(w, cur, end - meas0);
	loop_free(L);
}

/* The loop's own arrays. */
static void loop_free(struct loop *L)
{
	free(L->free_slots);
	free(L->sub_ns);
	free(L->slot_off);
	free(L->slot_len);
	free(L->slot_op);
}

static void worker_loop(struct worker *w, struct engine_io *io)
{
	struct loop L;
	struct wl_gen gen;
	struct engine_cqe cqes[REAP_MAX];

	clock_in(w->step);
	loop_init(&L, w, io, &gen);
	L.clocked = clock_started(L.step, &L.t0);
	L.raw = mono_now_ns();
	if (L.clocked)
		L.now = L.raw - L.t0;

	for (;;) {
		if (!L.clocked && before_clock(&L))
			continue;
		/* measured-clock time: since the start, less any time spent paused */
		check_stop(&L);
		if (!L.stopping && L.inflight == 0 &&
		    atomic_load_explicit(&L.step->ctl->pause, memory_order_relaxed)) {
			pause_wait(&L);
			continue;
		}
		issue(&L);
		if (L.inflight == 0) {
			if (L.stopping)
				break;
			sleep_until_due(&L);
			continue;
		}
		int ret = submit_and_reap(&L, cqes);
		if (ret == -ECANCELED) { /* abandoned: its records are the collector's now */
			loop_free(&L);
			return;
		}
		if (ret < 0)
			break;
	}
	loop_end(&L);
}

void *engine_worker_main(void *arg)
{
	struct worker *w = arg;
	struct step_run *step = w->step;
	struct engine_io *io = NULL;
	int ret = worker_setup(w, &io);

	if (ret < 0) {
		w->error = ret;
		atomic_store(&step->setup_error, ret);
	}
	atomic_fetch_add(&step->nready, 1);
	/* wait for every worker to be set up, and the start time to be chosen */
	go_wait(step, 0);
	if (atomic_load(&step->go) > 0)
		worker_loop(w, io);
	if (io)
		step->ops->close(io);
	return NULL;
}
