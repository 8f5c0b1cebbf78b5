/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_HEALTH_WATCH_H
#define DB_HEALTH_WATCH_H
/*
 * The drive's health around a run (health.h): a full snapshot before and after every
 * phase and at the end, and the drive's counters around every step.
 *   NVMe      the SMART / health log before and after every step (one admin command, about
 *             a hundred microseconds, on the controller's admin queue, beside the I/O
 *             queues), and the temperature sampled by a thread of its own while the run
 *             goes on, every 10 s by default (its cost: tests/bench_health.c, make bench)
 *   smartctl  nothing while a step runs: on SATA a SMART command is not queued, so the
 *             drive would drain its queue for it, a latency spike inside the step. The
 *             drive is read between steps instead, once the last reading is 50 s old
 *             (a process per reading); a review preset's steps are a minute or longer,
 *             so each gets a reading before and after it; shorter steps share readings.
 * A step during which a thermal-management transition happened, or the time above the
 * warning or critical temperature grew (NVMe; ATA's time in over-temperature), gets a
 * warning: "thermally throttled during 16T16Q"; one in which the drive reached its
 * temperature limit (NVMe WCTEMP, ATA's specified maximum operating temperature, SCSI's
 * trip temperature) gets "reached 71 C during 16T16Q, at or above the drive's limit of
 * 70 C". Where readings were shared, the warning names the steps since the last one
 * ("between the start of 4T4Q and the end of 16T16Q") and goes to the last of them. Each
 * step also gets the host data written and its highest temperature (struct step_drive,
 * result.h), where a reading was taken right before and after it.
 *
 * Everything is kept as the "health" section of the result's target (run.c attaches it):
 *   before, after    health records (health_to_json) at the start and the end
 *   delta            what the run changed (health_delta_json)
 *   phases           [{"name", "before", "after", "delta"}]
 *   temperature      {"interval_s", "min_c", "max_c", "samples": [[elapsed_s, c], ...]}
 *   warnings         [{"phase", "step", "text"}]
 * A drive without health data gets {"before": {..., "note": why}} and nothing else.
 *
 * Phase and step calls come from the runner's thread; the NVMe sampler has its own; a
 * mutex keeps them apart.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "health.h"

struct drive;
struct step_drive;
struct health_watch;

/*
 * Start watching drive d. sample_ns: NVMe, the temperature sampler's period (0: 10 s);
 * smartctl, the least time between two readings between steps (0: 60 s). NULL on no memory.
 */
struct health_watch *health_watch_start(const struct drive *d, const struct health_opts *o,
					uint64_t sample_ns);
void health_watch_phase_begin(struct health_watch *w, const char *phase);
/*
 * The phase's last snapshot. true, with the warning in msg and the label of the step it
 * belongs to in step, when the steps since the last reading between steps (smartctl, below)
 * throttled: their last step was already ended without a verdict.
 */
bool health_watch_phase_end(struct health_watch *w, char *step, size_t steplen, char *msg,
			    size_t len);
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
