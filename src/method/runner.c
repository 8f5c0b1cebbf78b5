// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runner: a plan's phases in order, each step through the engine, every number
 * into the result and every change out as an event. Steady-state phases repeat rounds
 * of their steps and judge the tracked step's metric after each round.
 */
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"
#include "devshare.h"
#include "errbuf.h"
#include "preset.h"
#include "purge.h"
#include "replay.h"
#include "safety.h"
#include "steady.h"
#include "step_streams.h"
#include "units.h"
#include "unwritten.h"

/*
 * One runner_run(): a plan's phases in order, the clock, ETA and running step of its events.
 * Named for what it runs, apart from the engine's struct step_run (one step, engine_int.h)
 * and the door's struct run (the session around the runner, run.h).
 */
struct plan_run {
	const struct plan *plan;
	const struct target *t;		     /* the first target */
	const struct target *const *targets; /* all of them: several run at once */
	unsigned nt;
	const struct engine_ops *ops;
	struct engine_ctl *ctl;
	bool no_hist;
	enum purge_scope erase_scope;
	const struct result *seeds_from;
	const struct result *engine_from; /* replay: each step's engine choices (runner.h) */
	unsigned engine_own;
	const char *app_dir;
	struct result *res;
	runner_event_fn fn;
	void *arg;
	uint64_t (*now_ns)(void *arg); /* runner_opts' clock; NULL: CLOCK_MONOTONIC */
	void *clock_arg;

	uint64_t t0_ns; /* CLOCK_MONOTONIC at the start */
	uint64_t planned_total_ns; /* what the plan will take; shrinks when a phase ends early */
	uint64_t planned_done_ns;  /* planned time of the steps already run */
	unsigned steps_total;
	unsigned step_global;
	/* the expected time left is the bound less what phases may not take (eta()) */
	uint64_t slack_later_ns; /* bound - expected over the phases after this one */
	bool fill_later;	 /* a fill after this phase, left out of the expected time */
	const struct plan_phase *ph;
	uint64_t phase_expected_ns;
	uint64_t phase_bound_ns;
	uint64_t round_ns;	   /* phases in rounds: one round */
	unsigned round_index;	   /* phases in rounds: 0-based */
	uint64_t eta_bound_ns;	   /* of the last eta(): the upper bound of the time left */
	uint64_t overhead_ns;	   /* over the timed steps so far: wall time past ramp + time */
	unsigned overhead_steps;   /* (starting threads, the drain: what a scaled run feels) */
	bool eta_fill;		   /* of the last eta(): a fill is left out of it */
	double last_uncapped_iops; /* for rate = N% */

	/* the running step, for the sample callback */
	unsigned phase_index;
	unsigned phase_steps;
	struct result_phase *rp;
	unsigned step_index;	  /* within the phase */
	uint64_t step_planned_ns; /* ramp + time */
	uint64_t step_ramp_ns;
	uint64_t loops_bytes; /* > 0: a fill, which the engine ends after this many bytes */
	uint64_t step_bytes;
	const struct step_result *live; /* what engine_run() is filling, for the sample callback */
	bool step_empty;      /* the last step measured nothing (its no-io warning) */
	/* rounds run again in this phase, beyond its plan (run_phase gives back the rest) */
	uint64_t extra_ns;
	unsigned extra_steps;
	struct written *written; /* [nt]: what the run wrote of its block devices since a purge
				    deallocated part of one; NULL until one does */
};

static uint64_t plan_now(const struct plan_run *r)
{
	return r->now_ns ? r->now_ns(r->clock_arg) : mono_now_ns();
}

static void emit(struct plan_run *r, enum runner_event_kind kind, const struct result_step *step,
		 const struct sample *s, const struct steady_info *steady, const char *msg,
		 uint64_t eta_ns)
{
	struct runner_event ev = {
		.kind = kind,
		.res = r->res,
		.phase_index = r->phase_index,
		.phases_total = r->plan->nphases,
		.step_index = r->step_index,
		.phase_steps = r->phase_steps,
		.step_global = r->step_global,
		.steps_total = r->steps_total,
		.step = step,
		.sample = s,
		.steady = steady,
		.msg = msg,
		.elapsed_ns = plan_now(r) - r->t0_ns,
		.eta_ns = eta_ns,
		.eta_max_ns = eta_ns ? r->eta_bound_ns : 0,
		.eta_fill = eta_ns && r->eta_fill,
	};

	if (r->fn)
		r->fn(r->arg, &ev);
}

/*
 * The current phase's bound less its expected time, past the running step: an until =
 * steady phase is expected to end when its window has filled (or min_time has run) or
 * now, whichever is later; a fill not yet started has no expected time. *fill says
 * whether such a fill is left out.
 */
static uint64_t slack_now(const struct plan_run *r, bool *fill)
{
	const struct plan_phase *ph = r->ph;
	uint64_t slack = 0;

	*fill = r->fill_later;
	if (!ph || ph->kind == PH_PURGE)
		return slack;
	if (ph->until == UNTIL_STEADY) {
		uint64_t at_least = (uint64_t)(r->round_index + 1) * r->round_ns;
		uint64_t exp = at_least > r->phase_expected_ns ? at_least : r->phase_expected_ns;
		return r->phase_bound_ns > exp ? r->phase_bound_ns - exp : 0;
	}
	/* the running step is in the bound already; one not started (0 planned) is not */
	for (unsigned s = r->step_index + (r->step_planned_ns != 0);
	     ph->until == UNTIL_TIME && s < ph->nsteps; s++)
		if (ph->steps[s].loops_set) {
			slack += ph->steps[s].wl.ramp_ns + ph->steps[s].wl.time_ns;
			*fill = true;
		}
	return slack;
}

/*
 * Time left: the plan past this step, plus what this step still has to do. Returns the
 * expected time, and the upper bound in *bound (every round, fills at their time cap).
 */
static uint64_t eta2(const struct plan_run *r, uint64_t step_done_ns, const struct sample *s,
		     uint64_t *bound, bool *fill)
{
	uint64_t after = r->planned_total_ns - r->planned_done_ns;
	uint64_t left = step_done_ns < r->step_planned_ns ? r->step_planned_ns - step_done_ns : 0;
	uint64_t slack = r->slack_later_ns + slack_now(r, fill);

	after = after > r->step_planned_ns ? after - r->step_planned_ns : 0;
	uint64_t exp_after = after > slack ? after - slack : 0;
	/* each step costs a little more than its ramp and time: as measured so far */
	if (r->overhead_steps && r->steps_total > r->step_global) {
		double per = (double)r->overhead_ns / r->overhead_steps;
		double more = per * (r->steps_total - r->step_global);
		if (after)
			exp_after += (uint64_t)(more * (double)exp_after / (double)after);
		after += (uint64_t)more;
	}
	*bound = after + left;
	after = exp_after;
	/* a `loops` step ends on bytes: estimate from the rate so far; none yet, a fill */
	if (r->loops_bytes && s && s->d[DIR_ALL].mbps > 0 && r->step_bytes < r->loops_bytes) {
		double by_bytes =
			(double)(r->loops_bytes - r->step_bytes) / (s->d[DIR_ALL].mbps * 1e6) * 1e9;
		if (by_bytes < (double)left)
			left = (uint64_t)by_bytes;
	} else if (r->loops_bytes && r->step_bytes < r->loops_bytes) {
		left = 0;
		*fill = true;
	}
	return after + left;
}

/* The expected time left; the bound and the fill flag kept for the event it goes into. */
static uint64_t eta(struct plan_run *r, uint64_t step_done_ns, const struct sample *s)
{
	return eta2(r, step_done_ns, s, &r->eta_bound_ns, &r->eta_fill);
}

/* On the runner's own thread, inside engine_run() (the collector is its caller's thread). */
static void on_sample(void *arg, const struct sample *s)
{
	struct plan_run *r = arg;
	struct result_step *st = &r->rp->steps[r->step_index];

	/* out of memory: the live copy misses a sample; the engine's final list is whole */
	result_step_add_sample(st, s);
	/* the step so far (step_record() sets the final one) */
	if (r->live)
		step_streams_so_far(st, r->live, s->start_ns + s->dur_ns);
	r->step_bytes += s->d[DIR_ALL].bytes;
	emit(r, RUN_EV_SAMPLE, st, s, NULL, NULL,
	     eta(r, r->step_ramp_ns + s->start_ns + s->dur_ns, s));
}

static void fail_run(struct plan_run *r, struct result_phase *rp, struct result_step *st,
		     const char *msg, uint64_t offset)
{
	char gone[512];
	dev_t devs[16];
	unsigned nd = 0, at[16];
	int i;

	/* a drive pulled, a controller removed: said first, not left to read as an I/O error */
	for (unsigned t = 0; t < r->nt && nd < 16; t++)
		if (r->targets[t]->is_blockdev) {
			at[nd] = t;
			devs[nd++] = r->targets[t]->rdev;
		}
	if ((i = safety_removed(devs, nd, 1000, NULL)) >= 0) {
		snprintf(gone, sizeof(gone), "%s was removed from the system: %s",
			 r->targets[at[i]]->path, msg);
		msg = gone;
	}
	if (st) {
		st->status = RS_FAILED;
		snprintf(st->error, sizeof(st->error), "%s", msg);
		st->error_offset = offset;
	}
	rp->status = RS_FAILED;
	r->res->status = RS_FAILED;
	snprintf(r->res->error, sizeof(r->res->error), "%.31s: %.470s", rp->name, msg);
	emit(r, RUN_EV_ERROR, st, NULL, NULL, r->res->error, 0);
}

/* A secure erase's progress, told as a log line whenever it moves by a percent. */
struct purge_watch {
	struct plan_run *r;
	int last_pct;
};

static void on_purge_progress(void *arg, double pct, const char *what)
{
	struct purge_watch *w = arg;

	if (pct >= 0 && (int)pct == w->last_pct)
		return;
	w->last_pct = pct >= 0 ? (int)pct : w->last_pct;
	emit(w->r, RUN_EV_LOG, NULL, NULL, NULL, what, 0);
}

/* What the run wrote of target t since a purge (make: a map made when there is none). */
static struct written *written_of(struct plan_run *r, const struct target *t, bool make)
{
	if (!r->written && make)
		r->written = calloc(r->nt ? r->nt : 1, sizeof(*r->written));
	return written_map(r->written, r->targets, r->nt, t);
}

/* The purge of one target: a step of the purge phase. */
static int purge_target(struct plan_run *r, const struct plan_phase *ph, const struct target *t)
{
	struct result_phase *rp = r->rp;
	struct purge_watch watch = {.r = r, .last_pct = -1};
	struct purge_opts po = {.stop = &r->ctl->stop,
				.progress = on_purge_progress,
				.arg = &watch,
				.scope = r->erase_scope};
	struct purge_outcome out;
	struct result_step *st;
	uint64_t start, len;
	char err[DB_ERR_LEN] = "", msg[640];
	int ret;

	st = result_add_step(rp, purge_method_name[ph->purge], &ph->steps[0].wl);
	if (!st)
		return -ENOMEM;
	r->step_index = rp->nsteps - 1;
	r->step_planned_ns = 0;
	emit(r, RUN_EV_STEP_START, st, NULL, NULL, NULL, eta(r, 0, NULL));
	workload_range(&ph->steps[0].wl, t->size, &start, &len);
	ret = purge_run(t, ph->purge, start, len, &po, &out, err, sizeof(err));
	/* what ran (auto and secure-erase pick one) and how long it took */
	if (out.used != ph->purge || out.detail[0])
		snprintf(st->label, sizeof(st->label), "%s%s%s%s%.40s%s",
			 out.used != ph->purge ? purge_method_name[ph->purge] : "",
			 out.used != ph->purge ? ": " : "", purge_method_name[out.used],
			 out.detail[0] ? " (" : "", out.detail, out.detail[0] ? ")" : "");
	if (r->nt > 1) {
		size_t n = strlen(st->label);
		const char *base = strrchr(t->path, '/');
		snprintf(st->label + n, sizeof(st->label) - n, " %s", base ? base + 1 : t->path);
	}
	st->summary.dur_ns = out.elapsed_ns;
	if (out.fallback[0]) {
		snprintf(msg, sizeof(msg), "purge: %s", out.fallback);
		emit(r, RUN_EV_LOG, NULL, NULL, NULL, msg, 0);
	}
	if (ret == -ECANCELED || (!ret && atomic_load(&r->ctl->stop))) {
		/* an erase the operator interrupted is never complete */
		st->status = RS_ABORTED;
		if (ret == -ECANCELED && err[0]) {
			snprintf(st->error, sizeof(st->error), "%s", err);
			emit(r, RUN_EV_LOG, NULL, NULL, NULL, err, 0);
		}
		return -ECANCELED;
	}
	if (ret) {
		fail_run(r, rp, st, err, start);
		return ret;
	}
	/* every method but zeroout (and none) leaves the range unmapped: auto's discard too
	   (an erase of the device or namespace: all of it) */
	if (out.used != PURGE_NONE && out.used != PURGE_ZEROOUT && t->is_blockdev &&
	    written_of(r, t, true)) {
		bool whole = purge_method_erases_device(out.used);
		written_purged(written_of(r, t, false), t, whole ? 0 : start,
			       whole ? t->size : len);
	}
	st->status = RS_COMPLETE;
	r->step_global++;
	emit(r, RUN_EV_STEP_DONE, st, NULL, NULL, NULL, eta(r, 0, NULL));
	return 0;
}

/* A purge phase: each target in turn. */
static int run_purge(struct plan_run *r, const struct plan_phase *ph)
{
	for (unsigned t = 0; t < r->nt; t++) {
		int ret = purge_target(r, ph, r->targets[t]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Give the running step a warning, and tell the operator at once. */
__attribute__((format(printf, 4, 5))) static void warn(struct plan_run *r, struct result_step *st,
						       enum step_warning w, const char *fmt, ...)
{
	char text[256], msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (result_step_warn(st, w, "%s", text))
		return;
	snprintf(msg, sizeof(msg), "warning: step %s: %s [%s]", st->label, text,
		 step_warning_code[w]);
	emit(r, RUN_EV_LOG, st, NULL, NULL, msg, 0);
}

/* The step's reads of never-written space, over its streams: one warning that names each. */
static void check_unwritten(struct plan_run *r, const struct workload *wl,
			    const struct step_streams *ss, struct result_step *st)
{
	char all[256] = "", one[256];
	size_t n = 0;

	/* the null engine touches nothing */
	if (r->ops == &engine_null)
		return;
	if (!ss) {
		if (unwritten_reads(r->t, wl, written_of(r, r->t, false), NULL, one, sizeof(one)))
			warn(r, st, SW_READS_UNWRITTEN, "%s", one);
		return;
	}
	for (unsigned i = 0; i < ss->n && n < sizeof(all); i++)
		if (unwritten_reads(ss->es[i].t, &ss->wl[i], written_of(r, ss->es[i].t, false),
				    ss->name[i], one, sizeof(one)))
			n += (size_t)snprintf(all + n, sizeof(all) - n, "%s%s", n ? "; " : "", one);
	if (all[0])
		warn(r, st, SW_READS_UNWRITTEN,
		     "%s: never written (file holes, or purged and not written since): those "
		     "reads may never reach the media",
		     all);
}

/* The step's rate as it runs: a share of the last uncapped step's IOPS, or as planned. */
static int step_rate(struct plan_run *r, const struct plan_step *ps, const char *label,
		     struct workload *wl)
{
	char err[DB_ERR_LEN];

	if (ps->rate_pct <= 0)
		return 0;
	if (!(r->last_uncapped_iops >= 1)) {
		snprintf(err, sizeof(err),
			 "step %s: rate %g%% of the last uncapped step, which measured no IOPS",
			 label, ps->rate_pct);
		fail_run(r, r->rp, NULL, err, 0);
		return -EINVAL;
	}
	wl->rate_iops = (uint64_t)llround(r->last_uncapped_iops * ps->rate_pct / 100.0);
	if (wl->rate_iops == 0)
		wl->rate_iops = 1;
	return 0;
}

/* The step's streams (several targets, or [stream]s); NULL for a step of one stream. */
static int step_streams(struct plan_run *r, const struct plan_step *ps, const struct workload *wl,
			struct step_streams **out)
{
	char err[DB_ERR_LEN];
	int ret;

	*out = NULL;
	if (step_streams_count(ps, r->nt) < 2)
		return 0;
	if (!(*out = malloc(sizeof(**out))))
		return -ENOMEM;
	ret = step_streams_build(ps, wl, r->targets, r->nt, *out, err, sizeof(err));
	if (ret) {
		fail_run(r, r->rp, NULL, err, 0);
		free(*out);
		*out = NULL;
	}
	return ret;
}

/* Warnings about what the step's numbers may not show (the engine's side). */
static void step_warnings(struct plan_run *r, struct result_step *st, const struct step_result *sr,
			  const struct devshare *ds, unsigned threads, int ret)
{
	char why[320];

	if (sr->host_stall_ns) {
		char a[32], b[32], c[32];
		warn(r, st, SW_HOST_STALL,
		     "the host did not run drivebench for %s of the %s measured (the longest "
		     "stall %s): the samples concerned carry host_stall_ns",
		     units_fmt_latency(a, sizeof(a), (double)sr->host_stall_ns),
		     units_fmt_duration(b, sizeof(b), sr->total.dur_ns),
		     units_fmt_latency(c, sizeof(c), (double)sr->host_stall_max_ns));
	}
	/* a step that measured nothing at all has its no-io warning instead */
	if (sr->idle_workers && sr->total.d[DIR_ALL].ios && !sr->stopped && ret == 0) {
		char none[48] = "";
		if (sr->silent_workers)
			snprintf(none, sizeof(none), " (%u of them none at all)", sr->silent_workers);
		warn(r, st, SW_THREADS_IDLE,
		     "%u of %u worker threads (thread %u the first) completed no I/O in the "
		     "measured time%s: the host did not run them then",
		     sr->idle_workers, threads, sr->first_idle + 1, none);
	}
	if (ret != 0 || sr->stopped)
		return;
	if (cpu_bound(&st->cpu, threads, engine_busy_poll(&r->ctl->opts, threads), why,
		      sizeof(why)))
		warn(r, st, SW_CPU_BOUND, "%s", why);
	if (cpu_host_busy(&st->cpu, why, sizeof(why)))
		warn(r, st, SW_HOST_BUSY, "%s", why);
	if (devshare_shared(ds, why, sizeof(why)))
		warn(r, st, SW_DEVICE_SHARED, "%s", why);
}

/* What the engine measured into the result step (and its streams). */
static int step_record(struct plan_run *r, struct result_step *st, const struct step_result *sr,
		       const struct step_streams *ss)
{
	/* the step array is not reallocated while the engine runs; st is still good */
	result_step_clear_samples(st);
	for (unsigned i = 0; i < sr->nsamples; i++)
		if (result_step_add_sample(st, &sr->samples[i]))
			break;
	st->summary = sr->total;
	st->drain = sr->drain;
	st->ramp = sr->ramp;
	st->replay = sr->replay;
	st->wl.seed = sr->seed;
	snprintf(st->engine, sizeof(st->engine), "%s", sr->engine_desc);
	if (sr->acc && !r->no_hist)
		step_streams_set_hist(st, sr->acc, sr->drain_acc);
	return ss ? step_streams_record(st, ss, sr, r->no_hist) : 0;
}

/* A step's status, and its streams' with it. */
static void step_status(struct result_step *st, enum result_status status)
{
	st->status = status;
	for (unsigned i = 0; i < st->nstreams; i++)
		st->streams[i].status = status;
}

/* The engine on the step: one stream, or all of them at once. */
static int step_engine(struct plan_run *r, const struct workload *wl, const struct step_streams *ss,
		       struct result_step *st, struct step_result *sr, struct devshare *ds,
		       char *err, size_t errlen)
{
	struct cpu_mark cpu0, cpu1;
	int ret;

	memset(sr, 0, sizeof(*sr));
	devshare_begin(ds, r->targets, r->nt, NULL);
	cpu_mark(&cpu0);
	r->live = sr;
	if (ss)
		ret = engine_run_streams(r->ops, ss->es, ss->n, r->ctl, on_sample, r, sr, err,
					 errlen);
	else
		ret = engine_run(r->ops, r->t, wl, r->ctl, on_sample, r, sr, err, errlen);
	r->live = NULL;
	cpu_mark(&cpu1);
	cpu_between(&cpu0, &cpu1, &st->cpu);
	devshare_end(ds, sr, ss ? ss->target : NULL);
	return ret;
}

/* One step through the engine. 0, -ECANCELED (operator stop) or -errno (failed). */
static int run_step(struct plan_run *r, const struct plan_step *ps, const char *label,
		    struct result_step **out)
{
	struct workload wl = ps->wl;
	struct step_streams *ss = NULL;
	struct step_result sr;
	struct devshare ds;
	struct result_step *st;
	struct engine_opts run_opts = r->ctl->opts; /* what a replay's step changes for itself */
	unsigned threads = wl.threads;
	char err[DB_ERR_LEN];
	int ret;

	uint32_t lbs = step_def_fold_lbs(r->targets, r->nt);
	if (!wl.seed)
		wl.seed = replay_seed(r->seeds_from, r->phase_index, r->rp->nsteps, label);
	workload_fold_split(&wl, lbs, err, sizeof(err));
	if ((ret = step_rate(r, ps, label, &wl)) || (ret = step_streams(r, ps, &wl, &ss)))
		return ret;
	for (unsigned i = 0; ss && i < ss->n; i++)
		workload_fold_split(&ss->wl[i], lbs, err, sizeof(err));
	st = result_add_step(r->rp, label, &wl);
	if (!st || (ss && step_streams_begin(st, ss, r->res->scale, r->targets, r->nt))) {
		free(ss);
		return -ENOMEM;
	}
	*out = st;
	st->rate_pct = ps->rate_pct;
	st->status = RS_INCOMPLETE;
	step_def_begin(&st->def, r->res->scale, r->targets, r->nt);
	r->step_index = r->rp->nsteps - 1;
	r->step_planned_ns = wl.ramp_ns + plan_step_time_ns(ps);
	r->step_ramp_ns = wl.ramp_ns;
	r->step_bytes = 0;
	r->step_empty = false;
	r->loops_bytes = ps->loops_set ? step_streams_loops(ps, &wl, ss, r->t) : 0;
	uint64_t t0 = plan_now(r);
	emit(r, RUN_EV_STEP_START, st, NULL, NULL, NULL, eta(r, 0, NULL));
	check_unwritten(r, &wl, ss, st);
	if (ss) {
		threads = 0;
		for (unsigned i = 0; i < ss->n; i++)
			threads += ss->wl[i].threads;
	}
	step_def_engine(step_def_replayed(r->engine_from, r->phase_index, r->step_index, label),
			r->engine_own, &r->ctl->opts);
	ret = step_engine(r, &wl, ss, st, &sr, &ds, err, sizeof(err));
	if (step_record(r, st, &sr, ss))
		ret = ret ? ret : -ENOMEM;
	step_def_record(st, &sr, r->res->scale, r->targets, r->nt);
	step_def_fold(&st->def, &ps->wl, lbs);
	for (unsigned i = 0; i < st->nstreams && i < ps->nstreams; i++)
		step_def_fold(&st->streams[i].def, &ps->streams[i].wl, lbs);
	step_warnings(r, st, &sr, &ds, threads, ret);
	written_step(r->written, r->targets, r->nt, r->t, &wl, ss, &sr);
	r->ctl->opts = run_opts;
	r->planned_done_ns += r->step_planned_ns;
	r->step_global++;
	if (ret < 0) {
		fail_run(r, r->rp, st, ret == -ENOMEM ? "out of memory" : err, sr.error_offset);
	} else if (sr.stopped) {
		step_status(st, RS_ABORTED);
		emit(r, RUN_EV_STEP_DONE, st, NULL, NULL, NULL, 0);
		ret = -ECANCELED;
	} else if (step_streams_empty(&sr, ss, err, sizeof(err))) {
		/* recorded, warned of and not fatal: the host may not have run drivebench */
		r->step_empty = true;
		warn(r, st, SW_NO_IO, "%s", err);
	}
	step_result_free(&sr);
	free(ss);
	if (ret)
		return ret;
	step_status(st, RS_COMPLETE);
	if (!ps->loops_set) {
		/* the step's cost past its ramp and time: the hole walk, threads, the drain */
		uint64_t wall = plan_now(r) - t0;
		r->overhead_ns += wall > r->step_planned_ns ? wall - r->step_planned_ns : 0;
		r->overhead_steps++;
	}
	if (wl.rate_iops == 0 && !r->step_empty)
		r->last_uncapped_iops = st->summary.d[DIR_ALL].iops;
	emit(r, RUN_EV_STEP_DONE, st, NULL, NULL, NULL, eta(r, r->step_planned_ns, NULL));
	return 0;
}

static int run_fixed(struct plan_run *r, const struct plan_phase *ph)
{
	struct result_step *st;

	for (unsigned s = 0; s < ph->nsteps; s++) {
		int ret = run_step(r, &ph->steps[s], ph->steps[s].label, &st);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * One round of a phase in rounds: each of its steps, labelled "round N[ again][ STEP]".
 * The tracked step's index in the phase into *tracked, the bytes written added to
 * *written, and whether a step measured nothing (its no-io warning) into *empty.
 */
static int run_round(struct plan_run *r, const struct plan_phase *ph, unsigned round, bool again,
		     unsigned *tracked, uint64_t *written, bool *empty)
{
	char label[64];

	*empty = false;
	for (unsigned s = 0; s < ph->nsteps; s++) {
		struct result_step *st;
		snprintf(label, sizeof(label), "round %u%s%s%.48s", round, again ? " again" : "",
			 ph->nsteps == 1 ? "" : " ", ph->nsteps == 1 ? "" : ph->steps[s].label);
		int ret = run_step(r, &ph->steps[s], label, &st);
		if (ret)
			return ret;
		*written += result_step_written(st);
		*empty |= r->step_empty;
		if ((int)s == ph->track_step)
			*tracked = r->step_index;
	}
	return 0;
}

/*
 * A round that measured nothing (the host did not run drivebench, most likely) is run
 * again once, beyond the plan; a round that measured nothing twice is left out of the
 * steady-state window. Neither fails the phase.
 */
static int round_again(struct plan_run *r, const struct plan_phase *ph, unsigned round,
		       uint64_t once_ns, unsigned *tracked, uint64_t *written, bool *empty)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "round %u measured nothing: it is run again", round);
	emit(r, RUN_EV_LOG, NULL, NULL, NULL, msg, 0);
	r->extra_ns += once_ns;
	r->extra_steps += ph->nsteps;
	r->planned_total_ns += once_ns;
	r->steps_total += ph->nsteps;
	r->phase_steps += ph->nsteps;
	return run_round(r, ph, round, true, tracked, written, empty);
}

/*
 * Rounds of the phase's steps, the tracked step's metric judged after each. until =
 * steady ends at the first steady verdict once min_time has run and min_written is
 * written; until = fixed runs every round (max_rounds, max_time) whatever the verdict.
 * Either way the first round judged steady is recorded, and the verdict at the last.
 * Only rounds that measured something are judged: the window holds the last of those.
 */
static int run_steady(struct plan_run *r, const struct plan_phase *ph)
{
	struct steady_info *info = &r->rp->steady;
	uint64_t once_ns = 0, used_ns = 0, written = 0, min_bytes = 0;
	unsigned rounds = ph->steady.max_rounds, first = 0, judged = 0;
	double *series = calloc(rounds, sizeof(double));
	char msg[160];
	int ret = 0;

	if (!series)
		return -ENOMEM;
	for (unsigned s = 0; s < ph->nsteps; s++)
		once_ns += ph->steps[s].wl.ramp_ns + ph->steps[s].wl.time_ns;
	if (ph->min_written_x > 0) {
		for (unsigned t = 0; t < r->nt; t++) {
			uint64_t start, len;
			workload_range(&ph->steps[0].wl, r->targets[t]->size, &start, &len);
			min_bytes += (uint64_t)((double)len * ph->min_written_x);
		}
	}
	memset(info, 0, sizeof(*info));
	info->used = true;
	info->fixed = ph->until == UNTIL_FIXED;
	snprintf(info->tracked, sizeof(info->tracked), "%s", ph->track);
	for (unsigned round = 1; round <= rounds; round++) {
		unsigned tracked = 0;
		bool empty;
		double v = 0;

		r->round_index = round - 1;
		ret = run_round(r, ph, round, false, &tracked, &written, &empty);
		used_ns += once_ns;
		if (!ret && empty) {
			ret = round_again(r, ph, round, once_ns, &tracked, &written, &empty);
			used_ns += once_ns;
		}
		if (ret)
			goto out;
		const struct result_step *tr = &r->rp->steps[tracked];
		if (tr->summary.d[DIR_ALL].ios) {
			steady_metric_value(ph->track, &tr->summary, &v);
			series[judged++] = v;
			steady_check(&ph->steady, series, judged, info);
		} else {
			snprintf(msg, sizeof(msg),
				 "round %u measured nothing again: it is not judged for steady state",
				 round);
			emit(r, RUN_EV_LOG, NULL, NULL, info, msg, 0);
		}
		info->round = round;
		if (info->reached && !first) {
			first = round;
			if (info->fixed) {
				snprintf(
					msg, sizeof(msg),
					"steady state first reached at round %u; the phase runs on",
					round);
				emit(r, RUN_EV_LOG, NULL, NULL, info, msg, 0);
			}
		}
		info->first_round = first;
		info->fixed = ph->until == UNTIL_FIXED;
		snprintf(info->tracked, sizeof(info->tracked), "%s", ph->track);
		emit(r, RUN_EV_ROUND_DONE, tr, NULL, info, NULL, eta(r, r->step_planned_ns, NULL));
		if (info->reached && !info->fixed && used_ns >= ph->min_time_ns &&
		    written >= min_bytes) {
			snprintf(msg, sizeof(msg), "steady state after %u rounds", round);
			emit(r, RUN_EV_LOG, NULL, NULL, info, msg, 0);
			break;
		}
		if (ph->max_time_ns && used_ns >= ph->max_time_ns) {
			snprintf(msg, sizeof(msg), "max_time reached after %u rounds, %s", round,
				 info->reached ? "steady" : "not steady");
			emit(r, RUN_EV_LOG, NULL, NULL, info, msg, 0);
			break;
		}
		if (round == rounds) {
			snprintf(msg, sizeof(msg), "%s after %u rounds",
				 info->reached ? "steady" : "not steady", round);
			emit(r, RUN_EV_LOG, NULL, NULL, info, msg, 0);
		}
	}
out:
	free(series);
	return ret;
}

static void app_event(void *r, const struct runner_event *e)
{
	((struct plan_run *)r)->step_index = e->step_index; /* an [app] load is not the plan's */
	emit(r, e->kind, e->step, e->sample, NULL, e->msg, 0);
	((struct plan_run *)r)->step_global += e->kind == RUN_EV_STEP_DONE && !e->step->app.load;
}

/* Phase i: its result phase and ETA figures set up, its steps run, its status. */
static int run_phase(struct plan_run *r, unsigned i)
{
	const struct plan *plan = r->plan;
	const struct plan_phase *ph = &plan->phases[i];
	uint64_t planned = plan_phase_duration_ns(ph);
	uint64_t done_before = r->planned_done_ns;
	unsigned steps_planned = ph->nsteps * plan_phase_rounds(ph);
	unsigned global_before = r->step_global;
	char err[DB_ERR_LEN];
	int ret;

	r->rp = result_add_phase(r->res, ph->name, ph->kind);
	if (!r->rp)
		return -ENOMEM;
	r->rp->status = RS_INCOMPLETE;
	snprintf(r->rp->skipped, sizeof(r->rp->skipped), "%s", ph->skipped);
	r->phase_index = i;
	r->phase_steps = ph->kind == PH_PURGE ? r->nt : steps_planned;
	r->step_index = 0;
	r->ph = ph;
	r->phase_bound_ns = planned;
	r->phase_expected_ns = plan_phase_expected_ns(ph, r->t->size, 0, NULL);
	r->slack_later_ns -= planned - r->phase_expected_ns;
	r->round_ns = ph->nsteps ? planned / plan_phase_rounds(ph) : 0;
	r->round_index = 0;
	r->step_planned_ns = 0;
	r->extra_ns = 0;
	r->extra_steps = 0;
	r->fill_later = false;
	for (unsigned j = i + 1; j < plan->nphases; j++)
		for (unsigned s = 0; s < plan->phases[j].nsteps; s++)
			r->fill_later |= plan->phases[j].kind != PH_PURGE &&
					 plan->phases[j].steps[s].loops_set;
	emit(r, RUN_EV_PHASE_START, NULL, NULL, NULL, NULL, eta(r, 0, NULL));
	if (ph->skipped[0]) {
		char msg[320];
		snprintf(msg, sizeof(msg), "not run on this target: %s", ph->skipped);
		emit(r, RUN_EV_LOG, NULL, NULL, NULL, msg, 0);
	}
	if (ph->kind == PH_PURGE)
		ret = run_purge(r, ph);
	else if (ph->kind == PH_APP)
		ret = app_phase_run(ph, r->t, r->app_dir, &r->ctl->stop, r->rp, app_event, r, err,
				    sizeof(err));
	else if (ph->until != UNTIL_TIME)
		ret = run_steady(r, ph);
	else
		ret = run_fixed(r, ph);
	/* a phase that ended early gives its unused time and steps back (rounds run again
	   are in the plan now) */
	planned += r->extra_ns;
	steps_planned += r->extra_steps;
	r->planned_total_ns -= planned - (r->planned_done_ns - done_before < planned
						  ? r->planned_done_ns - done_before
						  : planned);
	if (ph->kind != PH_PURGE && r->step_global - global_before < steps_planned)
		r->steps_total -= steps_planned - (r->step_global - global_before);
	if (ret == -ECANCELED)
		r->rp->status = RS_ABORTED;
	else if (ret == -ENOMEM || (ret && ph->kind == PH_APP))
		fail_run(r, r->rp, NULL, ret == -ENOMEM ? "out of memory" : err, 0);
	else if (!ret)
		r->rp->status = RS_COMPLETE;
	emit(r, RUN_EV_PHASE_DONE, NULL, NULL, &r->rp->steady, NULL, eta(r, 0, NULL));
	return ret;
}

int runner_run(const struct plan *plan, const struct target *t, const struct runner_opts *o,
	       struct result *res, runner_event_fn fn, void *arg)
{
	static const struct runner_opts no_opts;
	struct engine_ctl own_ctl = {0};
	struct plan_run r = {0};
	char err[DB_ERR_LEN];
	int ret = 0;

	if (!o)
		o = &no_opts;
	r.plan = plan;
	r.t = t;
	r.targets = o->ntargets > 1 ? o->targets : &r.t;
	r.nt = o->ntargets > 1 ? o->ntargets : 1;
	r.ops = o->ops ? o->ops : &engine_uring;
	r.ctl = o->ctl ? o->ctl : &own_ctl;
	r.no_hist = o->no_hist;
	r.erase_scope = o->erase_scope;
	r.seeds_from = o->seeds_from;
	r.engine_from = o->engine_from;
	r.engine_own = o->engine_own;
	r.app_dir = o->app_dir;
	r.res = res;
	r.fn = fn;
	r.arg = arg;
	r.now_ns = o->now_ns;
	r.clock_arg = o->clock_arg;
	r.t0_ns = plan_now(&r);
	r.planned_total_ns = plan_duration_ns(plan);
	r.steps_total = plan_steps(plan);
	for (unsigned i = 0; i < plan->nphases; i++) {
		double fill_x = 0;
		uint64_t exp = plan_phase_expected_ns(&plan->phases[i], t->size, 0, &fill_x);
		r.slack_later_ns += plan_phase_duration_ns(&plan->phases[i]) - exp;
		r.fill_later |= fill_x > 0;
	}

	if (runner_begin_result(plan, res))
		return -ENOMEM;

	for (unsigned i = 0; i < r.nt && !ret; i++)
		ret = runner_check(plan, r.targets[i], err, sizeof(err));
	if (ret) {
		res->status = RS_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", err);
		emit(&r, RUN_EV_ERROR, NULL, NULL, NULL, res->error, 0);
		goto done;
	}
	emit(&r, RUN_EV_RUN_START, NULL, NULL, NULL, NULL, eta(&r, 0, NULL));

	for (unsigned i = 0; i < plan->nphases && !ret; i++) {
		if (atomic_load(&r.ctl->stop)) {
			ret = -ECANCELED;
			break;
		}
		ret = run_phase(&r, i);
	}
	if (ret == -ECANCELED) {
		res->status = RS_ABORTED;
		emit(&r, RUN_EV_LOG, NULL, NULL, NULL, "stopped: the run is aborted", 0);
	} else if (!ret) {
		res->status = RS_COMPLETE;
	}
done:
	units_fmt_utc(res->ended, sizeof(res->ended), -1);
	emit(&r, RUN_EV_RUN_DONE, NULL, NULL, NULL, NULL, 0);
	free(r.written);
	return ret;
}
