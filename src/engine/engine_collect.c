// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector: turns the workers' interval records into samples, the step's (every
 * worker) and, in a step of several streams, each stream's (its own workers), from the
 * same records in the same pass, so a stream's samples cover the step's intervals and
 * add up to the step's exactly. It runs on the thread that called engine_run(), between
 * starting the workers and joining them (engine.c); it is not a thread of its own. All
 * the per-stream work happens here, once per interval; the workers' per-I/O path knows
 * nothing of streams.
 *
 * Between its looks at the records the collector sleeps, and watches the clock and the
 * workers' threads to mark the time in which the host ran none of them (host stalls).
 * Once every worker is joined, engine_summarize() makes the totals, the drain and the
 * ramp of the step and of each stream.
 */
#include "engine_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STALLS_MAX 64 /* host stalls waiting for their sample; more merge into the last */

struct collector {
	struct step_run *step;
	const struct engine_host *host; /* the clock, sleep, schedstat and memory it uses */
	engine_sample_fn on_sample;
	void *arg;
	struct step_result *out;
	unsigned cap;            /* out->samples' room */
	uint32_t next;           /* next interval to emit */
	struct io_acc *tmp;      /* [2]: the span being merged */
	struct io_acc *stream_tmp; /* [2 * nstreams]: each stream's share of it; NULL for one */
	unsigned stream_cap[ENGINE_MAX_STREAMS]; /* each stream's samples' room */
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
	struct step_run *step = c->step;
	uint32_t e = c->next;
	bool changed = true;

	while (changed) {
		changed = false;
		for (unsigned i = 0; i < step->nworkers; i++) {
			struct worker *w = &step->w[i];
			struct rec *r = NULL;
			bool final = w->finished || w->abandoned;
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

/* Has every worker ended (its final record consumed) or been abandoned? */
static bool all_finished(struct step_run *step)
{
	for (unsigned i = 0; i < step->nworkers; i++)
		if (!step->w[i].finished && !step->w[i].abandoned)
			return false;
	return true;
}

static uint64_t max_end_ns(struct step_run *step)
{
	uint64_t e = 0;

	for (unsigned i = 0; i < step->nworkers; i++)
		if (step->w[i].end_ns > e)
			e = step->w[i].end_ns;
	return e;
}

/* Host stalls on the step's measured clock: [*start, *end), false when outside it. */
static bool stall_span(struct collector *c, uint64_t from_ns, uint64_t to_ns, uint64_t *start,
		       uint64_t *end)
{
	struct step_run *step = c->step;
	uint64_t base = step->t0_ns + step->ramp_ns + c->paused_ns;

	*start = from_ns > base ? from_ns - base : 0;
	*end = to_ns > base ? to_ns - base : 0;
	if (*end > step->time_ns)
		*end = step->time_ns;
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

/* ---- the real host ---------------------------------------------------------------- */

static uint64_t real_now(void *arg)
{
	(void)arg;
	return mono_now_ns();
}

static void real_sleep(void *arg, uint64_t ns)
{
	(void)arg;
	nanosleep(&(struct timespec){(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)},
		  NULL);
}

/* Run-queue wait of a thread so far (its schedstat's second field), ns. */
static bool read_run_delay(void *arg, unsigned worker, int fd, uint64_t *out)
{
	char buf[128];
	unsigned long long on_cpu, wait;
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);

	(void)arg, (void)worker;
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &on_cpu, &wait) != 2)
		return false;
	*out = wait;
	return true;
}

static void *real_grow(void *arg, void *p, size_t bytes)
{
	(void)arg;
	return realloc(p, bytes);
}

static const struct engine_host real_host = {
	.now_ns = real_now,
	.sleep_ns = real_sleep,
	.run_delay_ns = read_run_delay,
	.grow = real_grow,
};

/* ---- the watch --------------------------------------------------------------------- */

/*
 * Did the host keep every worker from running for most of the last period_ns? A worker
 * whose loop turned ran. One that did not turn either slept (waiting for its device or
 * its rate: no run-queue time) or wanted a CPU and did not get one (its run-queue wait
 * grew by about the period). Only the workers that did not turn are asked, so a step
 * that keeps its workers busy costs the watch nothing.
 */
static bool workers_stalled(struct collector *c, uint64_t period_ns)
{
	struct step_run *step = c->step;
	bool all = true;

	for (unsigned i = 0; i < step->nworkers; i++) {
		struct worker *w = &step->w[i];
		uint64_t t = atomic_load_explicit(&w->turns, memory_order_relaxed), rd;
		bool had = w->quiet;

		if (t != w->seen_turns || atomic_load_explicit(&w->ended, memory_order_relaxed)) {
			w->seen_turns = t;
			w->quiet = false;
			all = false;
			continue;
		}
		if (!c->host->run_delay_ns(c->host->arg, i, w->stat_fd, &rd)) {
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
 * Did every worker that owes completions get some in the last period_ns? One that did
 * not for step->no_progress_ns of the time watched (host stalls and pauses left out:
 * counts is false for those periods) fails the step: step->stuck, then step->failed.
 */
static void progress_watch(struct collector *c, uint64_t period_ns, bool counts)
{
	struct step_run *step = c->step;

	for (unsigned i = 0; i < step->nworkers; i++) {
		struct worker *w = &step->w[i];
		uint64_t p = atomic_load_explicit(&w->progress, memory_order_relaxed);

		if (p != w->seen_progress || atomic_load_explicit(&w->ended, memory_order_relaxed)) {
			w->seen_progress = p;
			w->quiet_ns = 0;
			continue;
		}
		if (!counts)
			continue;
		w->quiet_ns += period_ns;
		if (w->quiet_ns >= step->no_progress_ns && !atomic_load(&step->stuck)) {
			step->stuck_worker = i;
			atomic_store(&step->stuck, 1);
			atomic_store(&step->failed, 1);
		}
	}
}

/*
 * Abandon: once the step has failed, a worker that has still completed nothing for the
 * no-progress limit is asleep in the kernel for a device that stopped answering (an NFS
 * server gone, a FUSE daemon hung, a multipath device queueing with no path left) and
 * may never return: no signal ends a wait on a FUSE request its daemon holds. The step
 * ends without it, with what it published: the other workers' figures, the samples so
 * far and the error are the caller's to save, rather than a run that waits for ever.
 */
static void abandon_stuck(struct collector *c)
{
	struct step_run *step = c->step;

	if (!atomic_load(&step->failed))
		return;
	for (unsigned i = 0; i < step->nworkers; i++) {
		struct worker *w = &step->w[i];
		unsigned in = WAIT_IN;
		if (w->finished || w->abandoned || w->quiet_ns < step->no_progress_ns ||
		    !atomic_compare_exchange_strong_explicit(&w->wait, &in, WAIT_ABANDONED,
							     memory_order_acq_rel,
							     memory_order_relaxed))
			continue; /* not in the kernel now: the next look sees */
		w->abandoned = true;
		step->abandoned++;
		/* the record it was filling, which it never touches again, joins its others */
		atomic_store_explicit(&w->head, atomic_load(&w->head) + 1, memory_order_release);
	}
}

/*
 * The collector's look at the host after a sleep from from_ns that was due to end at
 * due_ns and ended at woke_ns (CLOCK_MONOTONIC). Waking ENGINE_HOST_STALL_NS or more late
 * means the host ran none of this process's threads (SIGSTOP, a suspended VM); every
 * worker wanting a CPU and getting none means it ran not them (CPU starvation). Both are
 * host stalls, kept once they last ENGINE_HOST_STALL_NS and placed in the samples they
 * overlap. A slow drive is neither: its workers sleep. The rest of the time counts
 * towards the no-progress limit.
 */
static void watch(struct collector *c, uint64_t from_ns, uint64_t due_ns, uint64_t woke_ns,
		  bool paused)
{
	bool stalled = false;

	if (paused) {
		c->paused_ns += woke_ns - from_ns;
		stall_close(c);
	} else if (woke_ns >= due_ns + ENGINE_HOST_STALL_NS) {
		stall_extend(c, due_ns, woke_ns);
		stalled = true;
	} else if (workers_stalled(c, woke_ns - from_ns)) {
		stall_extend(c, from_ns, woke_ns);
		stalled = true;
	} else {
		stall_close(c);
	}
	progress_watch(c, woke_ns - from_ns, !paused && !stalled);
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

/*
 * Move worker w's records up to interval `end` into `into` ([2]): they go back to the
 * worker, and its final one marks it finished.
 */
static void take_records(struct worker *w, uint32_t end, struct io_acc *into)
{
	struct rec *r;

	while ((r = peek(w, 0)) && r->last <= end) {
		io_acc_merge(&into[0], &r->acc[0]);
		io_acc_merge(&into[1], &r->acc[1]);
		w->ios += r->acc[0].ios + r->acc[1].ios;
		if (r->final) {
			w->finished = true;
			w->end_ns = r->end_ns;
		} else {
			/* the end of what it has accounted for so far: an abandoned worker's */
			w->end_ns = (uint64_t)(r->last + 1) * w->step->interval_ns;
		}
		/* the slot goes back to the worker only after it has been read */
		atomic_store_explicit(&w->tail, atomic_load(&w->tail) + 1, memory_order_release);
	}
	/* published records are the collector's until it moves the tail past them */
	if (r && rec_empty(r) && r->first <= end)
		r->first = end + 1;
}

/*
 * Merge every worker's records up to interval `end` into c->tmp, each stream's (when the
 * step has several) into its own part of c->stream_tmp first.
 */
static void take_span(struct collector *c, uint32_t end)
{
	struct step_run *step = c->step;

	io_acc_init(&c->tmp[0]);
	io_acc_init(&c->tmp[1]);
	for (unsigned si = 0; si < step->nstreams; si++) {
		const struct stream_run *st = &step->s[si];
		struct io_acc *into = c->stream_tmp ? &c->stream_tmp[2 * si] : c->tmp;

		if (c->stream_tmp) {
			io_acc_init(&into[0]);
			io_acc_init(&into[1]);
		}
		for (unsigned i = st->first; i < st->first + st->nworkers; i++)
			take_records(&step->w[i], end, into);
		if (c->stream_tmp) {
			io_acc_merge(&c->tmp[0], &into[0]);
			io_acc_merge(&c->tmp[1], &into[1]);
		}
	}
}

/* Append s to samples (*n of them, room for *cap), growing it. Returns 0 or -ENOMEM. */
static int add_sample(const struct collector *c, struct sample **samples, unsigned *n,
		      unsigned *cap, const struct sample *s)
{
	if (*n == *cap) {
		unsigned room = *cap ? *cap * 2 : 64;
		struct sample *p = c->host->grow(c->host->arg, *samples, room * sizeof(*p));
		if (!p)
			return -ENOMEM;
		*samples = p;
		*cap = room;
	}
	(*samples)[(*n)++] = *s;
	return 0;
}

/* Each stream's sample of the span the step's sample `all` covers. */
static int emit_streams(struct collector *c, const struct sample *all)
{
	struct step_run *step = c->step;
	struct sample s;

	for (unsigned si = 0; si < step->nstreams; si++) {
		struct stream_result *res = step->s[si].res;
		const struct io_acc *acc = &c->stream_tmp[2 * si];

		memset(&s, 0, sizeof(s));
		stats_summarize(&acc[0], &acc[1], all->dur_ns, &s);
		s.index = all->index;
		s.start_ns = all->start_ns;
		s.host_stall_ns = all->host_stall_ns; /* the host's, the same for every stream */
		io_acc_merge(&res->acc[0], &acc[0]);
		io_acc_merge(&res->acc[1], &acc[1]);
		if (add_sample(c, &res->samples, &res->nsamples, &c->stream_cap[si], &s))
			return -ENOMEM;
	}
	return 0;
}

/* Merge every worker's records up to interval `end` into one sample (and one a stream). */
static int emit(struct collector *c, uint32_t end)
{
	struct step_run *step = c->step;
	struct step_result *out = c->out;
	struct sample s;

	take_span(c, end);
	uint64_t start_ns = (uint64_t)c->next * step->interval_ns;
	uint64_t stop_ns = (uint64_t)(end + 1) * step->interval_ns;
	if (all_finished(step) && stop_ns > max_end_ns(step))
		stop_ns = max_end_ns(step);
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
	if (c->stream_tmp && emit_streams(c, &s))
		return -ENOMEM;
	if (add_sample(c, &out->samples, &out->nsamples, &c->cap, &s))
		return -ENOMEM;
	if (c->on_sample)
		c->on_sample(c->arg, &s);
	return 0;
}

/*
 * The records abandoned workers published that no span took yet (every other worker has
 * ended, its records taken), as one last sample. Returns 0 or -ENOMEM.
 */
static int flush_abandoned(struct collector *c)
{
	struct step_run *step = c->step;
	uint32_t end = 0;
	bool any = false;

	for (unsigned i = 0; i < step->nworkers; i++) {
		struct rec *r;
		for (uint32_t k = 0; step->w[i].abandoned && (r = peek(&step->w[i], k)); k++)
			if (!any || r->last > end) {
				end = r->last;
				any = true;
			}
	}
	return any && end >= c->next ? emit(c, end) : 0;
}

static int collect(struct collector *c)
{
	struct step_run *step = c->step;
	uint32_t end;
	int ret = 0;

	for (unsigned i = 0; i < step->nworkers; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat",
			 (int)step->w[i].os_tid);
		step->w[i].stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	while (!all_finished(step)) {
		if (span_ready(c, &end)) {
			ret = emit(c, end);
			if (ret < 0) {
				/* no room for its samples: the step ends now, as on a failed I/O
				   (the workers stop; they never wait for the collector) */
				atomic_store(&step->failed, 1);
				break;
			}
			continue;
		}
		bool paused = atomic_load(&step->ctl->pause) != 0;
		uint64_t t = c->host->now_ns(c->host->arg);
		c->host->sleep_ns(c->host->arg, ENGINE_WATCH_NS);
		watch(c, t, t + ENGINE_WATCH_NS, c->host->now_ns(c->host->arg),
		      paused || atomic_load(&step->ctl->pause) != 0);
		abandon_stuck(c);
	}
	if (!ret && step->abandoned)
		ret = flush_abandoned(c);
	stall_close(c);
	for (unsigned i = 0; i < step->nworkers; i++)
		if (step->w[i].stat_fd >= 0)
			close(step->w[i].stat_fd);
	return ret;
}

int engine_collect(struct step_run *step, engine_sample_fn on_sample, void *arg,
		   struct step_result *out)
{
	struct collector *c = calloc(1, sizeof(*c));
	int ret = -ENOMEM;

	if (!c) {
		atomic_store(&step->failed, 1);
		return -ENOMEM;
	}
	c->step = step;
	c->host = step->ctl->host ? step->ctl->host : &real_host;
	c->on_sample = on_sample;
	c->arg = arg;
	c->out = out;
	c->tmp = calloc(2, sizeof(*c->tmp));
	if (step->nstreams > 1)
		c->stream_tmp = calloc(2 * step->nstreams, sizeof(*c->stream_tmp));
	if (c->tmp && (step->nstreams == 1 || c->stream_tmp))
		ret = collect(c);
	else
		atomic_store(&step->failed, 1);
	free(c->stream_tmp);
	free(c->tmp);
	free(c);
	return ret;
}

/* ---- the totals ------------------------------------------------------------------- */

/*
 * The total, the drain and the idle workers of workers [first, first + n), once every
 * worker is joined; r's acc, drain_acc and ramp_acc are the window's, the drain's and
 * the ramp's accumulators (the window's filled interval by interval). The drain runs from
 * the moment the first of them stopped issuing (its time was up, or it was stopped) to
 * the last completion; its latencies join the maximum and percentiles. first_idle counts
 * from first. The total spans the step's measured time, as its samples do.
 */
static void summarize_workers(struct step_run *step, unsigned first, unsigned n,
			      const struct step_result *out, struct stream_result *r)
{
	uint64_t from = step->ramp_ns + step->time_ns, last = 0;

	stats_summarize(&r->acc[0], &r->acc[1], max_end_ns(step), &r->total);
	r->total.index = out->nsamples;
	r->total.host_stall_ns = out->host_stall_ns;
	for (unsigned i = first; i < first + n; i++) {
		struct worker *w = &step->w[i];
		if (w->abandoned)
			continue; /* its own counts are its own until it ends: only its records */
		for (int d = 0; d < 2; d++) {
			io_acc_merge(&r->drain_acc[d], &w->drain[d]);
			io_acc_merge(&r->ramp_acc[d], &w->ramp[d]);
		}
		if (w->stop_ns < from)
			from = w->stop_ns;
		if (w->last_ns > last)
			last = w->last_ns;
		if (w->ios == 0 && !w->may_idle) {
			if (!r->idle_workers)
				r->first_idle = i - first;
			r->idle_workers++;
			r->silent_workers += w->completed == 0;
		}
	}
	stats_summarize(&r->drain_acc[0], &r->drain_acc[1], last > from ? last - from : 0,
			&r->drain);
	stats_summarize(&r->ramp_acc[0], &r->ramp_acc[1], step->ramp_ns, &r->ramp);
	stats_fold_latency(&r->acc[0], &r->acc[1], &r->drain_acc[0], &r->drain_acc[1],
			   &r->total);
	snprintf(r->engine_desc, sizeof(r->engine_desc), "%s", step->w[first].desc);
	r->busy_poll = step->w[first].busy_poll;
}

void engine_summarize(struct step_run *step, struct step_result *out)
{
	/* the step's fields that a stream's result has too, summarized the same way */
	struct stream_result all = {
		.acc = out->acc, .drain_acc = out->drain_acc, .ramp_acc = out->ramp_acc,
	};

	summarize_workers(step, 0, step->nworkers, out, &all);
	out->total = all.total;
	out->drain = all.drain;
	out->ramp = all.ramp;
	out->idle_workers = all.idle_workers;
	out->first_idle = all.first_idle;
	out->silent_workers = all.silent_workers;
	memcpy(out->engine_desc, all.engine_desc, sizeof(out->engine_desc));
	out->busy_poll = all.busy_poll;
	for (unsigned si = 0; si < step->nstreams && out->streams; si++) {
		const struct stream_run *st = &step->s[si];
		summarize_workers(step, st->first, st->nworkers, out, st->res);
	}
}
