/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_HEALTH_WATCH_H
#define DB_HEALTH_WATCH_H
/*
 * The drive's health around a run (health.h): a full snapshot before and after every
 * phase and at the end, the thermal counters before and after every step (NVMe: one
 * SMART / health log read, about a hundred microseconds), and the temperature sampled
 * at a low rate on a thread of its own while the run goes on (NVMe every 10 s by
 * default; smartctl, a process per sample, at most once a minute). A step during which
 * a thermal-management transition happened, or the warning or critical temperature time
 * grew, gets a warning: "thermally throttled during 16T16Q". Each step also gets the
 * host data written and its highest temperature (struct step_drive, result.h).
 *
 * Everything is kept as the "health" section of the result's target (run.c attaches it):
 *   before, after    health records (health_to_json) at the start and the end
 *   delta            what the run changed (health_delta_json)
 *   phases           [{"name", "before", "after", "delta"}]
 *   temperature      {"interval_s", "min_c", "max_c", "samples": [[elapsed_s, c], ...]}
 *   warnings         [{"phase", "step", "text"}]
 * A drive without health data gets {"before": {..., "note": why}} and nothing else.
 *
 * Phase and step calls come from the runner's thread; the sampler has its own; a mutex
 * keeps them apart.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "health.h"

struct drive;
struct step_drive;
struct health_watch;

/* Start watching drive d. sample_ns: temperature period (0: 10 s). NULL on no memory. */
struct health_watch *health_watch_start(const struct drive *d, const struct health_opts *o,
					uint64_t sample_ns);
void health_watch_phase_begin(struct health_watch *w, const char *phase);
void health_watch_phase_end(struct health_watch *w);
void health_watch_step_begin(struct health_watch *w);
/*
 * true, with the warning in msg, when the drive throttled during the step. sd (may be
 * NULL) gets the host data written over the step and the highest temperature read in it
 * (the step's begin and end and the sampler's reads between).
 */
bool health_watch_step_end(struct health_watch *w, const char *label, struct step_drive *sd,
			   char *msg, size_t len);
/* The section as it stands (a new object, the caller owns it). */
struct json_object *health_watch_json(struct health_watch *w);
/* Stop the sampler and take the last snapshot. */
void health_watch_finish(struct health_watch *w);
void health_watch_free(struct health_watch *w);

#endif
