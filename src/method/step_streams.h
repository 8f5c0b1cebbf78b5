/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_STEP_STREAMS_H
#define DB_STEP_STREAMS_H
/*
 * A step of several streams, as the runner runs it: the plan step's [stream]s (or its one
 * workload) on each of the run's targets, with the step's rate shared out, handed to
 * engine_run_streams(); and what each stream measured, into the result step's streams.
 * Internal to the runner (runner.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "preset.h"
#include "result.h"

struct step_streams {
	unsigned n;
	struct engine_stream es[ENGINE_MAX_STREAMS];
	struct workload wl[ENGINE_MAX_STREAMS];
	char name[ENGINE_MAX_STREAMS][64];
	unsigned target[ENGINE_MAX_STREAMS];
	double share[ENGINE_MAX_STREAMS];
};

/*
 * How many streams step ps runs on nt targets: its streams (at least 1) on each. More
 * than one makes it a step of several streams.
 */
unsigned step_streams_count(const struct plan_step *ps, unsigned nt);
/*
 * The streams of step ps, whose workload as it runs is wl (the rate resolved), on targets
 * (nt of them). Stream names: the stream's, the target's base name, or both ("loop1
 * data"). The step's rate is split evenly over the targets, and on each target by the
 * streams' shares (the streams without one share the rest equally). 0, or -E2BIG with a
 * message when there are more than ENGINE_MAX_STREAMS.
 */
/*
 * Slot buffers: every worker of a stream holds qdepth buffers of the stream's largest
 * block size, so a stream asks for threads x qdepth x bs bytes, a target for the sum over
 * the step's streams, and the step for that on each of its targets. No step may ask for
 * more than STEP_BUFFERS_MAX or a quarter of the RAM, whichever is smaller: a plan over
 * it is bad input, found before anything is opened or allocated.
 */
#define STEP_BUFFERS_MAX (1ull << 30) /* bytes */
/* bytes: the ceiling on a step's slot buffers with ram_bytes of RAM (0: not known) */
uint64_t step_buffers_ceiling(uint64_t ram_bytes);
/* bytes: the slot buffers step ps asks for on nt targets (saturating) */
uint64_t step_buffers_bytes(const struct plan_step *ps, unsigned nt);
/*
 * Every measured step of plan on nt targets against the ceiling with ram_bytes of RAM.
 * 0, or -EINVAL with a message (file:line: the step, its figures and the ceiling).
 */
int step_buffers_check(const struct plan *plan, unsigned nt, uint64_t ram_bytes, char *err,
		       size_t errlen);
int step_streams_build(const struct plan_step *ps, const struct workload *wl,
		       const struct target *const *targets, unsigned nt, struct step_streams *out,
		       char *err, size_t errlen);
/*
 * A fill (ps->loops_set): each stream's range on its target, `loops` times, as the bytes
 * its workers issue before they stop (the engine stops at the byte, not at a sample's
 * end), set in each stream's workload (wl, on t, when ss is NULL). The total.
 */
uint64_t step_streams_loops(const struct plan_step *ps, struct workload *wl,
			    struct step_streams *ss, const struct target *t);
/*
 * The step's streams in the result before the engine runs them (when there are several,
 * as the engine keeps them), each with what its definition knows then, so a result
 * saved during the step has each stream's figures so far. 0 or -ENOMEM.
 */
int step_streams_begin(struct result_step *st, const struct step_streams *ss, double scale,
		       const struct target *const *targets, unsigned nt);
/*
 * The step so far, on the runner's thread after each of the engine's samples (live is
 * the step_result engine_run() is filling): st's summary from the engine's running
 * totals over measured_ns, and each stream's (its newest sample added too), so a result
 * saved now, or left by a run that dies now, has the step's figures, not zeros.
 */
void step_streams_so_far(struct result_step *st, const struct step_result *live,
			 uint64_t measured_ns);
/*
 * What each stream measured (sr->streams) into st's streams (those step_streams_begin()
 * made, their samples so far replaced by the engine's), with histograms unless no_hist.
 * 0 or -ENOMEM.
 */
int step_streams_record(struct result_step *st, const struct step_streams *ss,
			const struct step_result *sr, bool no_hist);
/*
 * Did the step, run its course, measure nothing: no I/O in its measured time, or none in
 * one of its streams (ss, NULL for a step of one stream; a stream whose share of a rate
 * is too small for an I/O to fall due is not empty)? Then what is known of why (a host
 * stall, completions in the drain), into msg, and true. Not a failure: the host may not
 * have run drivebench then (ENGINE_NO_PROGRESS_NS fails a device that stopped answering).
 */
bool step_streams_empty(const struct step_result *sr, const struct step_streams *ss, char *msg,
			size_t len);
/* A step's (or stream's) histograms: its window's and its drain's latencies together. */
void step_streams_set_hist(struct result_step *st, const struct io_acc *acc,
			   const struct io_acc *drain_acc);

#endif
