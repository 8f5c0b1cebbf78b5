// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running one step: its streams' workers (engine_worker.c), each with its own backend
 * queue of depth Q on its stream's target, and the collector (engine_collect.c) on the
 * calling thread, which turns the workers' interval records into samples. This file sets
 * the step up, starts, releases and joins the workers, and reports what went wrong; it
 * also holds the busy-poll choice (engine_opts) and the table of backends.
 *
 * A step of n streams is one struct step_run: stream i's workers are w[first, first + threads)
 * and do its workload on its target, with its own offsets table and seed. All of them
 * pass the one start barrier and run on the one clock (stream 0's time, ramp and
 * interval), so their samples line up interval by interval.
 */
#include "engine_int.h"

#include "settings.h"
#include "units.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const engine_poll_name[] = {"no", "yes", "auto"};

int engine_poll_parse(const char *s, enum engine_poll *out)
{
	for (int i = ENGINE_POLL_NO; i <= ENGINE_POLL_AUTO; i++)
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

int engine_auto_parse(const char *s, bool *on)
{
	if (strcmp(s, "no") != 0 && strcmp(s, "auto") != 0)
		return -EINVAL;
	*on = !strcmp(s, "auto");
	return 0;
}

uint64_t engine_no_progress_ns(const struct engine_ctl *ctl)
{
	return ctl && ctl->no_progress_ns	 ? ctl->no_progress_ns
	       : ctl && ctl->opts.no_progress_ns ? ctl->opts.no_progress_ns
						 : ENGINE_NO_PROGRESS_NS;
}

int engine_opts_from_settings(struct engine_opts *o, const struct settings *s)
{
	int ret = 0;

	*o = (struct engine_opts){.poll = ENGINE_POLL_NO};
	o->ring_setup = s->uring_setup ? (unsigned)atoi(s->uring_setup) : 0;
	if (s->uring_async && engine_auto_parse(s->uring_async, &o->async))
		ret = -EINVAL;
	bool gather = true;
	if (s->uring_gather && engine_auto_parse(s->uring_gather, &gather))
		ret = -EINVAL;
	o->gather_off = !gather;
	if (s->busy_poll && engine_poll_parse(s->busy_poll, &o->poll)) {
		o->poll = ENGINE_POLL_NO;
		ret = -EINVAL;
	}
	if (s->no_progress && (units_parse_duration(s->no_progress, &o->no_progress_ns) ||
			       o->no_progress_ns < ENGINE_NO_PROGRESS_MIN_NS)) {
		o->no_progress_ns = 0;
		ret = -EINVAL;
	}
	return ret;
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

bool engine_busy_poll(const struct engine_opts *o, unsigned threads)
{
	switch (o ? o->poll : ENGINE_POLL_NO) {
	case ENGINE_POLL_YES:
		return true;
	case ENGINE_POLL_NO:
		return false;
	default:
		return threads < usable_cpus();
	}
}

bool engine_async(const struct engine_opts *o, unsigned threads)
{
	return o && o->async && threads < usable_cpus();
}

unsigned engine_gather(const struct engine_opts *o, unsigned threads)
{
	if (o && o->gather_off)
		return 0;
	return ENGINE_OPEN_GATHER | (2ull * threads <= usable_cpus() ? 0 : ENGINE_OPEN_GATHER_ALL);
}

const struct engine_ops *engine_find(const char *name)
{
	static const struct engine_ops *const all[] = {&engine_uring, &engine_null};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

static void stream_result_free(struct stream_result *r)
{
	free(r->samples);
	free(r->acc);
	free(r->drain_acc);
	free(r->ramp_acc);
}

void step_result_free(struct step_result *r)
{
	free(r->samples);
	free(r->acc);
	free(r->drain_acc);
	free(r->ramp_acc);
	for (unsigned i = 0; i < r->nstreams; i++)
		stream_result_free(&r->streams[i]);
	free(r->streams);
	r->samples = NULL;
	r->acc = NULL;
	r->drain_acc = NULL;
	r->ramp_acc = NULL;
	r->nsamples = 0;
	r->streams = NULL;
	r->nstreams = 0;
}

/* ---- setting a step up ------------------------------------------------------------ */

/* Each stream's workload fits its target, which is writable when the workload writes. */
static int check_streams(const struct engine_stream *streams, unsigned n, char *err,
			 size_t errlen)
{
	if (n == 0 || n > ENGINE_MAX_STREAMS) {
		snprintf(err, errlen, "a step has 1 to %d streams, not %u", ENGINE_MAX_STREAMS, n);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct target *t = streams[i].t;
		const struct workload *wl = streams[i].wl;
		int ret = workload_validate(wl, t->lbs, t->size, err, errlen);

		if (ret < 0)
			return ret;
		if (wl->read_pct < 100 && !t->writable) {
			snprintf(err, errlen, "%s: opened read-only, but the workload writes",
				 t->path);
			return -EBADF;
		}
	}
	return 0;
}

/* A seed of its own for each stream; stream 0 keeps the step's (a step of one stream). */
static uint64_t stream_seed(uint64_t seed, unsigned index)
{
	uint64_t z = seed + index * 0x9e3779b97f4a7c15ull;

	if (index == 0)
		return seed;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static struct io_acc *acc_pair(void)
{
	struct io_acc *a = calloc(2, sizeof(*a));

	if (a) {
		io_acc_init(&a[0]);
		io_acc_init(&a[1]);
	}
	return a;
}

/* The step's and, with several streams, each stream's accumulators in out. */
static int alloc_results(struct step_result *out, unsigned nstreams)
{
	out->acc = acc_pair();
	out->drain_acc = acc_pair();
	out->ramp_acc = acc_pair();
	if (!out->acc || !out->drain_acc || !out->ramp_acc)
		return -ENOMEM;
	if (nstreams == 1)
		return 0;
	out->streams = calloc(nstreams, sizeof(*out->streams));
	if (!out->streams)
		return -ENOMEM;
	out->nstreams = nstreams;
	for (unsigned i = 0; i < nstreams; i++) {
		struct stream_result *r = &out->streams[i];
		r->acc = acc_pair();
		r->drain_acc = acc_pair();
		r->ramp_acc = acc_pair();
		if (!r->acc || !r->drain_acc || !r->ramp_acc)
			return -ENOMEM;
	}
	return 0;
}

/* The streams, their offsets tables and their workers; the step's clock from stream 0. */
static int step_setup(struct step_run *step, const struct engine_stream *streams, unsigned n,
		      struct step_result *out, char *err, size_t errlen)
{
	const struct workload *wl0 = streams[0].wl;
	int ret;

	step->ramp_ns = wl0->ramp_ns;
	step->time_ns = wl0->time_ns;
	step->interval_ns = wl0->interval_ns;
	step->seed = wl0->seed ? wl0->seed : mono_now_ns() * 0x9e3779b97f4a7c15ull;
	out->seed = step->seed;
	step->nstreams = n;
	step->s = calloc(n, sizeof(*step->s));
	if (!step->s || alloc_results(out, n) < 0)
		goto nomem;
	for (unsigned i = 0; i < n; i++) {
		struct stream_run *st = &step->s[i];
		st->t = streams[i].t;
		st->wl = streams[i].wl;
		st->seed = stream_seed(step->seed, i);
		st->max_bs = workload_max_bs(st->wl);
		st->qdepth = st->wl->qdepth;
		st->first = step->nworkers;
		st->nworkers = st->wl->threads;
		st->res = out->streams ? &out->streams[i] : NULL;
		step->nworkers += st->nworkers;
		st->dist = malloc(sizeof(*st->dist));
		if (!st->dist)
			goto nomem;
		ret = wl_dist_table_build(st->dist, st->wl, st->t->size, err, errlen);
		if (ret == 0 && st->wl->trace[0])
			ret = engine_trace_setup(st, step->ops, err, errlen);
		if (ret < 0)
			return ret;
	}
	step->busy_poll = engine_busy_poll(&step->ctl->opts, step->nworkers);
	step->async = engine_async(&step->ctl->opts, step->nworkers);
	step->gather = engine_gather(&step->ctl->opts, step->nworkers);
	step->w = calloc(step->nworkers, sizeof(*step->w));
	if (!step->w)
		goto nomem;
	for (unsigned si = 0; si < n; si++)
		for (unsigned k = 0; k < step->s[si].nworkers; k++) {
			struct worker *w = &step->w[step->s[si].first + k];
			w->step = step;
			w->s = &step->s[si];
			w->index = k;
		}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for %u streams", n);
	return -ENOMEM;
}

static void step_free(struct step_run *step)
{
	if (step->w)
		for (unsigned i = 0; i < step->nworkers; i++) {
			free(step->w[i].buf_mem);
			free(step->w[i].bufs);
		}
	free(step->w);
	if (step->s)
		for (unsigned i = 0; i < step->nstreams; i++) {
			free(step->s[i].dist);
			trace_mem_free(&step->s[i].trace);
		}
	free(step->s);
}

/* ---- running it ------------------------------------------------------------------- */

/*
 * An abandoned worker that comes back from the kernel ends at once (struct worker's
 * wait); one that has not within this long is left to the kernel, detached.
 */
#define ORPHAN_JOIN_NS 200000000ull /* 200 ms */

/*
 * Steps with abandoned workers, whose queues may still have I/O in flight into the
 * steps' buffers: never freed, and kept here rather than lost (a leak checker sees them
 * reachable).
 */
static struct step_run *orphans;
static pthread_mutex_t orphans_lock = PTHREAD_MUTEX_INITIALIZER;

/* Join thread t if it ends within ns; else detach it. */
static void join_within(pthread_t t, uint64_t ns)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)(ns / 1000000000ull);
	until.tv_nsec += (long)(ns % 1000000000ull);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	if (pthread_timedjoin_np(t, NULL, &until) != 0)
		pthread_detach(t);
}

/*
 * What the backend set up (engine_desc, busy_poll) into out, and each stream's, once
 * every worker is: the sample callback may save the step so far, and its definition says
 * how it was measured before the step ends.
 */
static void describe_setup(const struct step_run *step, struct step_result *out)
{
	snprintf(out->engine_desc, sizeof(out->engine_desc), "%s", step->w[0].desc);
	out->busy_poll = step->w[0].busy_poll;
	for (unsigned si = 0; si < step->nstreams && out->streams; si++) {
		const struct stream_run *st = &step->s[si];
		snprintf(st->res->engine_desc, sizeof(st->res->engine_desc), "%s",
			 step->w[st->first].desc);
		st->res->busy_poll = step->w[st->first].busy_poll;
	}
}

/*
 * Start every worker, release them together once all are set up, collect until all have
 * ended, and join them. Returns 0, or -errno with a message when a worker could not
 * start or set up, or the collector ran out of memory.
 */
static int run_workers(struct step_run *step, engine_sample_fn on_sample, void *arg,
		       struct step_result *out, char *err, size_t errlen)
{
	unsigned started = 0;
	int ret = 0;

	for (unsigned i = 0; i < step->nworkers; i++) {
		ret = -pthread_create(&step->w[i].tid, NULL, engine_worker_main, &step->w[i]);
		if (ret < 0)
			break;
		started++;
	}
	while (atomic_load(&step->nready) < started)
		nanosleep(&(struct timespec){0, 200000}, NULL);
	if (ret == 0)
		ret = atomic_load(&step->setup_error);
	go_set(step, ret == 0 ? 1 : -1);
	if (ret == 0) {
		/* the last worker to reach its loop sets t0 (clock_in) */
		go_wait(step, 1);
		describe_setup(step, out);
		ret = engine_collect(step, on_sample, arg, out);
	}
	for (unsigned i = 0; i < started; i++)
		if (!step->w[i].abandoned)
			pthread_join(step->w[i].tid, NULL);
		else
			join_within(step->w[i].tid, ORPHAN_JOIN_NS);
	if (ret == 0)
		return 0;
	if (atomic_load(&step->go) == 2) {
		snprintf(err, errlen, "out of memory for the step's samples");
		return ret;
	}
	if (started < step->nworkers) {
		snprintf(err, errlen, "cannot start %u worker threads: %s", step->nworkers,
			 strerror(-ret));
		return ret;
	}
	/* the target of the first worker that failed to set up, else the first stream's */
	const struct target *t = step->s[0].t;
	for (unsigned i = 0; i < step->nworkers; i++)
		if (step->w[i].error) {
			t = step->w[i].s->t;
			break;
		}
	snprintf(err, errlen, "%s: cannot set up %s I/O: %s", t->path, step->ops->name,
		 strerror(-ret));
	return ret;
}

/*
 * The first failed I/O of any worker, as the step's error, else no progress (-ETIMEDOUT).
 * Returns 0 or the -errno.
 */
static int step_error(struct step_run *step, struct step_result *out, char *err, size_t errlen)
{
	for (unsigned i = 0; i < step->nworkers; i++) {
		const struct worker *w = &step->w[i];
		if (!w->error || w->abandoned)
			continue;
		out->error = w->error;
		out->error_offset = w->error_offset;
		out->error_write = w->error_write;
		snprintf(err, errlen, "%s: %s error at offset %llu: %s", w->s->t->path,
			 out->error_write ? "write" : "read",
			 (unsigned long long)out->error_offset, strerror(-out->error));
		return out->error;
	}
	if (atomic_load(&step->stuck)) {
		const struct worker *w = &step->w[step->stuck_worker];
		out->error = -ETIMEDOUT;
		char left[96] = "";
		if (step->abandoned)
			snprintf(left, sizeof(left), "; %u %s left waiting in the kernel",
				 step->abandoned,
				 step->abandoned > 1 ? "threads are" : "thread is");
		snprintf(err, errlen,
			 "%s: no progress: worker thread %u completed no I/O for %.3g s (the "
			 "no-progress limit), the time the host did not run drivebench left out%s",
			 w->s->t->path, w->index + 1, (double)step->no_progress_ns / 1e9, left);
		return out->error;
	}
	return 0;
}

int engine_run_streams(const struct engine_ops *ops, const struct engine_stream *streams,
		       unsigned n, struct engine_ctl *ctl, engine_sample_fn on_sample, void *arg,
		       struct step_result *out, char *err, size_t errlen)
{
	struct step_run *step;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = check_streams(streams, n, err, errlen);
	if (ret < 0)
		return ret;
	step = calloc(1, sizeof(*step));
	if (!step) {
		snprintf(err, errlen, "out of memory for a step");
		return -ENOMEM;
	}
	step->ops = ops;
	step->ctl = ctl ? ctl : &step->own_ctl;
	step->no_progress_ns = engine_no_progress_ns(step->ctl);
	ret = step_setup(step, streams, n, out, err, errlen);
	if (ret == 0)
		ret = run_workers(step, on_sample, arg, out, err, errlen);
	if (ret == 0) {
		engine_summarize(step, out);
		engine_trace_summarize(step, out);
		out->stopped = atomic_load(&step->ctl->stop) != 0;
		ret = step_error(step, out, err, errlen);
	}
	if (step->abandoned) {
		/* what an abandoned worker had in flight may still land in the step's buffers */
		pthread_mutex_lock(&orphans_lock);
		step->next_orphan = orphans;
		orphans = step;
		pthread_mutex_unlock(&orphans_lock);
	} else {
		step_free(step);
		free(step);
	}
	return ret;
}

int engine_run(const struct engine_ops *ops, const struct target *t, const struct workload *wl,
	       struct engine_ctl *ctl, engine_sample_fn on_sample, void *arg,
	       struct step_result *out, char *err, size_t errlen)
{
	const struct engine_stream one = {.t = t, .wl = wl};

	return engine_run_streams(ops, &one, 1, ctl, on_sample, arg, out, err, errlen);
}
