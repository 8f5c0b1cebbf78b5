// SPDX-License-Identifier: GPL-2.0-or-later
/* The run worker and the model the Run screen draws from (see runmodel.h). */
#include "runmodel.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "errbuf.h"
#include "marks.h"
#include "preset.h"
#include "result_io.h"
#include "run.h"
#include "runner.h"
#include "settings.h"
#include "steady.h"
#include "text.h"

struct run_model {
	pthread_mutex_t lock;
	pthread_t thread;
	bool thread_live; /* joined in run_model_free or the next start */
	bool abort_queue; /* no further presets after the running one */
	struct engine_ctl ctl; /* its opts: the settings' */
	const struct settings *settings;
	struct run_job *job; /* the running queue's (run_model_start), or NULL */
	struct run_snapshot s;
	double series[RMM_COUNT][RML_COUNT][RM_HISTORY];
	unsigned nseries;
	struct plot_hist whole;	  /* the running phase, downsampled */
	unsigned round_end[64]; /* whole.samples when each of the latest rounds ended */
};

_Static_assert(RMM_COUNT * RML_COUNT == PLOT_HIST_SERIES, "one history series per line");

struct run_model *run_model_new(const struct settings *settings)
{
	struct run_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->settings = settings;
	/* main() has refused a DRIVEBENCH_BUSY_POLL, DRIVEBENCH_URING_ASYNC or
	   DRIVEBENCH_URING_GATHER that does not parse */
	(void)engine_opts_from_settings(&m->ctl.opts, settings);
	pthread_mutex_init(&m->lock, NULL);
	return m;
}

static void join_worker(struct run_model *m)
{
	if (m->thread_live) {
		pthread_join(m->thread, NULL);
		m->thread_live = false;
	}
}

void run_model_free(struct run_model *m)
{
	if (!m)
		return;
	run_model_abort(m);
	join_worker(m);
	free(m->job);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

bool run_model_active(struct run_model *m)
{
	bool active;

	pthread_mutex_lock(&m->lock);
	active = m->s.active;
	pthread_mutex_unlock(&m->lock);
	return active;
}

void run_model_pause(struct run_model *m, bool pause)
{
	pthread_mutex_lock(&m->lock);
	if (m->s.active && !m->s.stopping) {
		atomic_store(&m->ctl.pause, pause ? 1 : 0);
		m->s.paused = pause;
		m->s.version++;
	}
	pthread_mutex_unlock(&m->lock);
}

void run_model_abort(struct run_model *m)
{
	pthread_mutex_lock(&m->lock);
	if (m->s.active) {
		m->abort_queue = true;
		m->s.stopping = true;
		m->s.paused = false;
		/* a paused engine must wake to see the stop */
		atomic_store(&m->ctl.stop, 1);
		atomic_store(&m->ctl.pause, 0);
		m->s.version++;
	}
	pthread_mutex_unlock(&m->lock);
}

unsigned run_model_snapshot(struct run_model *m, struct run_snapshot *out,
			    double series[RMM_COUNT][RML_COUNT][RM_HISTORY],
			    struct plot_hist *whole)
{
	unsigned n;

	pthread_mutex_lock(&m->lock);
	*out = m->s;
	n = m->nseries;
	if (series)
		for (int k = 0; k < RMM_COUNT; k++)
			for (int l = 0; l < RML_COUNT; l++)
				memcpy(series[k][l], m->series[k][l], n * sizeof(double));
	if (whole) {
		/* the buckets in use only: a few kilobytes while a phase is young */
		whole->n = m->whole.n;
		whole->per = m->whole.per;
		whole->fill = m->whole.fill;
		whole->samples = m->whole.samples;
		for (int k = 0; k < PLOT_HIST_SERIES; k++) {
			memcpy(whole->lo[k], m->whole.lo[k], m->whole.n * sizeof(double));
			memcpy(whole->hi[k], m->whole.hi[k], m->whole.n * sizeof(double));
		}
	}
	pthread_mutex_unlock(&m->lock);
	return n;
}

/* ---- events (worker side, under the lock) --------------------------------------- */

static void push_sample(struct run_model *m, const struct sample *s)
{
	if (m->nseries == RM_HISTORY) {
		/* drop the oldest quarter at once rather than shifting every sample */
		unsigned drop = RM_HISTORY / 4;
		for (int k = 0; k < RMM_COUNT; k++)
			for (int l = 0; l < RML_COUNT; l++)
				memmove(m->series[k][l], m->series[k][l] + drop,
					(RM_HISTORY - drop) * sizeof(double));
		m->nseries -= drop;
	}
	static const enum io_dir dir_of[RML_COUNT] = {
		[RML_ALL] = DIR_ALL, [RML_READ] = DIR_READ, [RML_WRITE] = DIR_WRITE};
	double v[PLOT_HIST_SERIES];
	for (int l = 0; l < RML_COUNT; l++) {
		const struct dir_stats *d = &s->d[dir_of[l]];
		m->series[RMM_IOPS][l][m->nseries] = d->iops;
		m->series[RMM_MEAN][l][m->nseries] = d->ios ? d->mean_ns : 0;
		m->series[RMM_MAX][l][m->nseries] = (double)d->max_ns;
		m->series[RMM_STD][l][m->nseries] = d->ios > 1 ? d->std_ns : 0;
		for (int k = 0; k < RMM_COUNT; k++)
			v[RM_WHOLE_SERIES(k, l)] = m->series[k][l][m->nseries];
	}
	m->nseries++;
	plot_hist_add(&m->whole, v);
}

/* Each stream's IOPS and mean latency, when the step had several; else none. */
static void keep_streams(struct run_snapshot *s, const struct result_step *st)
{
	s->nstreams = 0;
	for (unsigned i = 0; i < st->nstreams && i < RM_STREAMS; i++) {
		const struct dir_stats *d = &st->streams[i].summary.d[DIR_ALL];
		struct rm_stream *o = &s->streams[s->nstreams++];
		snprintf(o->label, sizeof(o->label), "%s", st->streams[i].label);
		o->iops = d->iops;
		o->mean_ns = d->ios ? d->mean_ns : 0;
	}
	snprintf(s->streams_step, sizeof(s->streams_step), "%s", st->label);
}

/* A steady-state round ended: its verdict, where the window starts, the tracked value. */
static void round_done(struct run_model *m, const struct runner_event *ev)
{
	struct run_snapshot *s = &m->s;

	s->steady = *ev->steady;
	s->have_steady = true;
	/* the window: the last `window` rounds, from where the one before ended */
	unsigned r = ev->steady->round, w = ev->steady->window;
	m->round_end[r % 64] = m->whole.samples;
	if (w && r >= w && w < 64)
		s->window_from = r == w ? 0 : m->round_end[(r - w) % 64];
	double v = 0;
	if (ev->step && steady_metric_value(ev->steady->tracked[0] ? ev->steady->tracked : "iops",
					    &ev->step->summary, &v) == 0) {
		if (s->nrounds == sizeof(s->rounds) / sizeof(s->rounds[0])) {
			memmove(s->rounds, s->rounds + 1, (s->nrounds - 1) * sizeof(s->rounds[0]));
			s->nrounds--;
		}
		s->rounds[s->nrounds++] = v;
	}
}

/* A step ended: its summary, its place in the ladder, its streams. */
static void step_done(struct run_snapshot *s, const struct runner_event *ev)
{
	s->step_summary = ev->step->summary;
	s->have_summary = true;
	keep_streams(s, ev->step);
	if (ev->step_index < s->nladder && s->phase_kind != PH_PRECONDITION) {
		struct rm_step *c = &s->ladder[ev->step_index];
		snprintf(c->label, sizeof(c->label), "%s", ev->step->label);
		c->done = true;
		c->status = ev->step->status;
		c->iops = ev->step->summary.d[DIR_ALL].iops;
		c->mean_ns = ev->step->summary.d[DIR_ALL].mean_ns;
		c->p99_ns = (double)ev->step->summary.d[DIR_ALL].pct_ns[PCT_99];
	}
}

static void on_event(void *arg, const struct runner_event *ev)
{
	struct run_model *m = arg;
	struct run_snapshot *s = &m->s;
	const struct result *res = ev->res;

	pthread_mutex_lock(&m->lock);
	s->elapsed_ns = ev->elapsed_ns;
	s->eta_ns = ev->eta_ns;
	s->eta_max_ns = ev->eta_max_ns;
	s->eta_fill = ev->eta_fill;
	s->phase_index = ev->phase_index;
	s->step_global = ev->step_global;
	s->steps_total = ev->steps_total;
	switch (ev->kind) {
	case RUN_EV_RUN_START:
		s->phase[0] = s->step_label[0] = '\0';
		s->have_sample = s->have_summary = s->have_steady = false;
		s->nladder = s->nrounds = s->nstreams = 0;
		if (res) {
			s->nphases = res->nphases;
			if (res->preset_name[0])
				snprintf(s->preset, sizeof(s->preset), "%s", res->preset_name);
		}
		break;
	case RUN_EV_PHASE_START:
		if (res && ev->phase_index < res->nphases) {
			const struct result_phase *ph = &res->phases[ev->phase_index];
			snprintf(s->phase, sizeof(s->phase), "%s", ph->name);
			s->phase_kind = ph->kind;
			if (res->nphases > s->nphases)
				s->nphases = res->nphases;
		}
		s->phase_steps = ev->phase_steps;
		s->phase_start_ns = ev->elapsed_ns;
		s->window_from = UINT_MAX;
		plot_hist_reset(&m->whole);
		/* the last verdict stays on screen until another steady phase starts */
		if (s->phase_kind == PH_PRECONDITION)
			s->nrounds = 0;
		/* a measure phase of several steps is a ladder (or a curve): tabulate it */
		if (s->phase_kind == PH_MEASURE || s->phase_kind == PH_RUN) {
			s->nladder = ev->phase_steps < RM_LADDER ? ev->phase_steps : RM_LADDER;
			memset(s->ladder, 0, sizeof(s->ladder));
		}
		break;
	case RUN_EV_STEP_START:
		s->step_index = ev->step_index;
		s->phase_steps = ev->phase_steps;
		s->step_start_ns = ev->elapsed_ns;
		if (ev->step) {
			snprintf(s->step_label, sizeof(s->step_label), "%s", ev->step->label);
			s->mixed = ev->step->wl.read_pct > 0 && ev->step->wl.read_pct < 100;
			s->step_time_ns = ev->step->wl.time_ns + ev->step->wl.ramp_ns;
			if (ev->step_index < s->nladder && s->phase_kind != PH_PRECONDITION)
				snprintf(s->ladder[ev->step_index].label,
					 sizeof(s->ladder[0].label), "%s", ev->step->label);
		}
		break;
	case RUN_EV_SAMPLE:
		if (ev->sample) {
			s->last = *ev->sample;
			s->have_sample = true;
			push_sample(m, ev->sample);
		}
		break;
	case RUN_EV_ROUND_DONE:
		if (ev->steady)
			round_done(m, ev);
		break;
	case RUN_EV_STEP_DONE:
		if (ev->step)
			step_done(s, ev);
		break;
	case RUN_EV_PHASE_DONE:
		break;
	case RUN_EV_RUN_DONE:
		if (res)
			s->status = res->status;
		break;
	case RUN_EV_LOG:
	case RUN_EV_AUTOSAVE:
		if (ev->msg)
			snprintf(s->log, sizeof(s->log), "%s%s",
				 ev->kind == RUN_EV_AUTOSAVE ? "autosaved " : "", ev->msg);
		break;
	case RUN_EV_ERROR:
		if (ev->msg)
			snprintf(s->error, sizeof(s->error), "%s", ev->msg);
		break;
	}
	s->version++;
	pthread_mutex_unlock(&m->lock);
}

/* ---- the worker ----------------------------------------------------------------- */

static void set_error(struct run_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct run_model *m, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&m->lock);
	va_start(ap, fmt);
	vsnprintf(m->s.error, sizeof(m->s.error), fmt, ap);
	va_end(ap);
	m->s.status = RS_FAILED;
	m->s.version++;
	pthread_mutex_unlock(&m->lock);
}

/* A leftover of a killed drivebench cleaned before the run (app.h): told in the log line. */
static void tell_leftover(void *arg, const char *msg)
{
	struct run_model *m = arg;

	pthread_mutex_lock(&m->lock);
	snprintf(m->s.log, sizeof(m->s.log), "%s", msg);
	m->s.version++;
	pthread_mutex_unlock(&m->lock);
}

/* "quick" from ".../presets/quick.preset" */
static void preset_short_name(const char *path, char *buf, size_t len)
{
	const char *b = text_base_name(path);
	size_t n = strlen(b);

	if (n > 7 && !strcmp(b + n - 7, ".preset"))
		n -= 7;
	snprintf(buf, len, "%.*s", (int)n, b);
}

/*
 * Run one preset of the queue through the run module, the door every run takes, which
 * checks the target and the operator's confirmation at this moment; 0, or -errno when it
 * could not run (a refusal stops the queue).
 */
static int run_one(struct run_model *m, unsigned qi)
{
	const struct run_job *job = m->job;
	char err[DB_ERR_LEN], name[64];
	struct plan *plan;
	struct run *run;
	int ret, run_ret;

	preset_short_name(job->presets[qi], name, sizeof(name));
	pthread_mutex_lock(&m->lock);
	snprintf(m->s.preset, sizeof(m->s.preset), "%s", name);
	m->s.queue_index = qi;
	m->s.error[0] = '\0';
	m->nseries = 0;
	m->s.version++;
	pthread_mutex_unlock(&m->lock);

	plan = preset_load(m->settings, job->presets[qi], job->scale, err, sizeof(err));
	if (!plan) {
		set_error(m, "%s", err);
		return -EINVAL;
	}
	const char *paths[RUN_MAX_TARGETS], *confirms[RUN_MAX_TARGETS];
	char several[96];
	for (unsigned i = 0; i < job->ntargets; i++)
		paths[i] = job->targets[i].path;
	for (unsigned i = 0; i < job->nconfirms; i++)
		confirms[i] = job->confirms[i];
	/* the file is named for the first target and how many more, as `run` names it */
	snprintf(several, sizeof(several), "%s+%u", job->targets[0].name, job->ntargets - 1);
	struct run_request rq = {
		.plan = plan,
		.target_path = paths[0],
		.target_paths = job->ntargets > 1 ? paths : NULL,
		.ntargets = job->ntargets > 1 ? job->ntargets : 0,
		.confirms = confirms,
		.nconfirms = job->nconfirms,
		.diskseqs = job->diskseqs,
		.results_dir = job->results_dir,
		.target_name = job->ntargets > 1 ? several : job->targets[0].name,
		.plan_label = name,
		.ops = job->engine,
		.settings = m->settings,
	};
	app_leftovers_clean(m->settings->app_dir, tell_leftover, m);
	ret = run_open(&run, &rq, err, sizeof(err));
	if (ret < 0) {
		set_error(m, "%s", err);
		goto free_plan;
	}
	/* autosaves go to the result's own file, marked incomplete until the end */
	run_ret = run_execute(run, &m->ctl, 0, on_event, m, err, sizeof(err));
	const struct result *res = run_result(run);

	pthread_mutex_lock(&m->lock);
	m->s.status = res->status;
	if (run_ret != -EIO) {
		snprintf(m->s.saved, sizeof(m->s.saved), "%s", run_result_path(run));
		m->s.nsaved++;
	} else {
		snprintf(m->s.error, sizeof(m->s.error),
			 "the result was not saved where it belongs: %s", err);
	}
	if (res->status == RS_FAILED && res->error[0])
		snprintf(m->s.error, sizeof(m->s.error), "%s", res->error);
	m->s.version++;
	pthread_mutex_unlock(&m->lock);
	ret = run_ret;
	run_close(run);
free_plan:
	plan_free(plan);
	return ret;
}

static void *worker(void *arg)
{
	struct run_model *m = arg;

	for (unsigned qi = 0; qi < m->job->npresets; qi++) {
		pthread_mutex_lock(&m->lock);
		bool stop = m->abort_queue;
		pthread_mutex_unlock(&m->lock);
		if (stop)
			break;
		if (run_one(m, qi) < 0)
			break;
	}
	pthread_mutex_lock(&m->lock);
	m->s.active = false;
	m->s.paused = false;
	m->s.stopping = false;
	m->s.finished = true;
	m->s.version++;
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

char *run_model_target_line(const struct run_job *job, char *buf, size_t len)
{
	const struct rm_target *t = &job->targets[0];
	const char *names[RUN_MAX_TARGETS];

	if (job->ntargets == 1 && t->is_drive) {
		snprintf(buf, len, "%s %s", t->name, t->drive.model);
		return buf;
	}
	for (unsigned i = 0; i < job->ntargets && i < RUN_MAX_TARGETS; i++)
		names[i] = job->targets[i].name;
	return marks_join(buf, len, names, job->ntargets, " + ");
}

int run_model_start(struct run_model *m, struct run_job *job, char *err, size_t errlen)
{
	int ret;

	if (run_model_active(m)) {
		snprintf(err, errlen, "a run is already active");
		free(job);
		return -EBUSY;
	}
	if (job->ntargets == 0 || job->ntargets > RUN_MAX_TARGETS) {
		snprintf(err, errlen, "a run goes on 1 to %d targets, not %u", RUN_MAX_TARGETS,
			 job->ntargets);
		free(job);
		return -EINVAL;
	}
	join_worker(m);
	free(m->job); /* the last queue's, its worker done */
	m->job = job;
	m->abort_queue = false;
	atomic_store(&m->ctl.stop, 0);
	atomic_store(&m->ctl.pause, 0);
	memset(&m->s, 0, sizeof(m->s));
	m->nseries = 0;
	m->s.active = true;
	m->s.queue_len = job->npresets;
	run_model_target_line(job, m->s.target, sizeof(m->s.target));
	ret = pthread_create(&m->thread, NULL, worker, m);
	if (ret) {
		m->s.active = false;
		snprintf(err, errlen, "cannot start the run: %s", strerror(ret));
		return -ret;
	}
	m->thread_live = true;
	return 0;
}
