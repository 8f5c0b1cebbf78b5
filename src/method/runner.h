/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RUNNER_H
#define DB_RUNNER_H
/*
 * The runner executes a plan (an expanded preset, or one ad-hoc workload) on a target:
 * purge -> precondition (fixed time, or rounds until steady state) -> measure steps,
 * filling a struct result as it goes and reporting everything through events. The
 * headless CLI and the TUI are two consumers of the same events (ncdu's pipeline); the
 * runner itself never prints.
 */
#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include "engine.h"
#include "purge.h"
#include "result.h"

enum runner_event_kind {
	RUN_EV_RUN_START,   /* res filled with host, target, preset; nothing measured yet */
	RUN_EV_PHASE_START, /* phase_index */
	RUN_EV_STEP_START,  /* phase_index, step_index, step (workload and label set) */
	RUN_EV_SAMPLE,      /* sample: one interval of the running step */
	RUN_EV_ROUND_DONE,  /* steady: the numbers after this round (precondition rounds) */
	RUN_EV_STEP_DONE,   /* step: summary filled */
	RUN_EV_PHASE_DONE,
	RUN_EV_RUN_DONE,    /* res->status final */
	RUN_EV_LOG,         /* msg: something worth telling the operator */
	RUN_EV_ERROR,       /* msg: what failed */
	RUN_EV_AUTOSAVE,    /* msg: the path written (by run.h's run_execute: the runner
			       itself never writes a file) */
};

struct runner_event {
	enum runner_event_kind kind;
	const struct result *res;
	unsigned phase_index;
	unsigned phases_total;   /* phases in the plan */
	unsigned step_index;     /* within the phase */
	unsigned phase_steps;    /* steps planned in this phase (rounds: the maximum) */
	unsigned step_global;    /* 0-based over the whole run */
	unsigned steps_total;    /* planned steps over the whole run */
	const struct result_step *step;
	const struct sample *sample;
	const struct steady_info *steady;
	const char *msg;
	uint64_t elapsed_ns;     /* since the run started */
	uint64_t eta_ns;         /* expected time left: until = steady phases at their
				    shortest, a fill by its bytes once it runs */
	uint64_t eta_max_ns;     /* the upper bound of the time left: every round, fills
				    at their time cap */
	bool eta_fill;           /* a fill that has not started is left out of eta_ns */
};

/*
 * Every event comes from the thread that called runner_run(): RUN_EV_SAMPLE too, from
 * inside the engine, whose collector runs on its caller's thread while the step's workers
 * (threads of their own) do the I/O. While the run lasts, only that thread touches res.
 * Pointers in an event are valid during the callback only: copy what you keep.
 */
typedef void (*runner_event_fn)(void *arg, const struct runner_event *ev);

struct plan;

struct runner_opts {
	const struct engine_ops *ops;  /* NULL: "uring" */
	struct engine_ctl *ctl;        /* NULL: the runner's own. stop=1 aborts the run */
	bool no_hist;                  /* leave per-step histograms out of the result */
	/*
	 * A run on several targets at once: all of them, the first being runner_run()'s t.
	 * Each step runs on every target together (its streams on each: step_streams.h);
	 * purges purge each in turn. 0 or 1: t alone.
	 */
	const struct target *const *targets;
	unsigned ntargets;
	enum purge_scope erase_scope; /* what a secure erase may reach (purge.h) */
	/*
	 * replay: a result of the same plan whose seeds the run reuses, step for step (the
	 * step at the same place in the same phase, of the same label), so the I/O sequence
	 * is the original's. A step the original did not run, or a preset's own seed, is as
	 * without it. NULL: every step draws a new seed.
	 */
	const struct result *seeds_from;
	/*
	 * replay: a result of the same plan whose steps' engine choices each step takes, as
	 * their definitions recorded them (step_def_replayed(), step_def_engine()): the wait
	 * (busy-poll or not), the issue (async or not), the ring setup. engine_own: bits
	 * (1u << SD_WAIT, SD_ISSUE, SD_FLAGS) of the choices the user made for this run,
	 * which ctl's options keep. NULL: ctl's options for every step.
	 */
	const struct result *engine_from;
	unsigned engine_own;
	/* Where [app] phases make their run directories (app.h): the settings' app_dir
	   ($DRIVEBENCH_APP_DIR); NULL: APP_BASE_DIR */
	const char *app_dir;
	/*
	 * The clock of the run's elapsed time and of each step's cost past its ramp and time
	 * (what the ETA learns); NULL: CLOCK_MONOTONIC. Tests script it (the steps still run
	 * on the engine's own clock).
	 */
	uint64_t (*now_ns)(void *arg);
	void *clock_arg;
};

/*
 * The result's header for a run of plan that is about to start: preset name, source, text
 * and scale, host, start time, status incomplete (target: the caller's). runner_run() does
 * it too; calling it first lets a caller save the result before the run. 0 or -ENOMEM.
 */
int runner_begin_result(const struct plan *plan, struct result *res);

/*
 * Can plan run on t? Every step fits the target (block sizes, range), and t is open
 * for writing when the plan writes. 0 or -EINVAL / -EBADF with "file:line: message".
 */
int runner_check(const struct plan *plan, const struct target *t, char *err, size_t errlen);

/*
 * Run plan on t: purge -> preconditions -> measure steps, in the plan's order, filling
 * res (result_init'ed by the caller; the host is filled in when NULL, the target section
 * is the caller's) and
 * calling fn (may be NULL) with every event. Returns 0 when complete, -ECANCELED when
 * stopped through ctl->stop (res->status aborted, everything measured kept), or -errno
 * when it failed (res->status failed, res->error says why). The caller saves res.
 */
int runner_run(const struct plan *plan, const struct target *t, const struct runner_opts *o,
	       struct result *res, runner_event_fn fn, void *arg);

#endif
