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

#include "engine.h"
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
	RUN_EV_AUTOSAVE,    /* msg: the path written */
};

struct runner_event {
	enum runner_event_kind kind;
	const struct result *res;
	unsigned phase_index;
	unsigned step_index;     /* within the phase */
	unsigned phase_steps;    /* steps planned in this phase (rounds: the maximum) */
	unsigned step_global;    /* 0-based over the whole run */
	unsigned steps_total;    /* planned steps over the whole run */
	const struct result_step *step;
	const struct sample *sample;
	const struct steady_info *steady;
	const char *msg;
	uint64_t elapsed_ns;     /* since the run started */
	uint64_t eta_ns;         /* estimated time left (upper bound for steady phases) */
};

typedef void (*runner_event_fn)(void *arg, const struct runner_event *ev);

#endif
