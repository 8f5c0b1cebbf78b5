// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A step that replays a block trace (wl->trace): its stream's trace in memory, the queue
 * depth it replays at, and its figures once it has run. The I/O itself goes through the
 * engine's worker loop like any workload's (engine_worker.c, replay_next()): the same
 * rings, slots, intervals, samples and latency accounting.
 */
#include "engine_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define REPLAY_MAX_QDEPTH 1024 /* a timed replay's depth is the trace's, up to this */

int engine_trace_setup(struct stream_run *st, const struct engine_ops *ops, char *err,
		       size_t errlen)
{
	const struct workload *wl = st->wl;
	const struct trace_summary *sum = &st->trace.sum;
	uint32_t lbs = st->t->lbs ? st->t->lbs : 512;
	int ret;

	if (wl->threads != 1) {
		snprintf(err, errlen, "a trace replays in order on one thread, not %u", wl->threads);
		return -EINVAL;
	}
	ret = trace_load(wl->trace, &st->trace, err, errlen);
	if (ret < 0)
		return ret;
	if ((sum->count[TRACE_FLUSH] || sum->count[TRACE_DISCARD]) && !ops->queue_other) {
		snprintf(err, errlen, "%s: holds flushes or discards, which the %s engine cannot "
			 "issue", wl->trace, ops->name);
		return -EOPNOTSUPP;
	}
	if ((uint64_t)(sum->max_rw_len + lbs - 1) / lbs * lbs > st->t->size) {
		snprintf(err, errlen, "%s: an I/O of %u bytes is larger than %s", wl->trace,
			 sum->max_rw_len, st->t->path);
		return -EINVAL;
	}
	st->trace_speed = wl->trace_speed;
	/* timing mode keeps the trace's own concurrency; a trace that recorded none, and
	   the fast mode, take the workload's queue depth */
	if (wl->trace_speed > 0 && sum->max_depth)
		st->qdepth = sum->max_depth < REPLAY_MAX_QDEPTH ? sum->max_depth
								: REPLAY_MAX_QDEPTH;
	st->max_bs = (sum->max_rw_len + lbs - 1) / lbs * lbs;
	if (st->max_bs < 4096)
		st->max_bs = 4096;
	return 0;
}

void engine_trace_summarize(struct step_run *step, struct step_result *out)
{
	struct replay_stats *r = &out->replay;

	for (unsigned i = 0; i < step->nworkers; i++) {
		const struct worker *w = &step->w[i];
		const struct stream_run *s = w->s;
		if (!s->trace.n || w->abandoned)
			continue;
		r->trace_ios += s->trace.n;
		r->issued += w->replay.issued;
		r->late_ios += w->replay.late_ios;
		r->lag_mean_ns += w->replay.lag_mean_ns; /* the workers' sums */
		if (w->replay.lag_max_ns > r->lag_max_ns)
			r->lag_max_ns = w->replay.lag_max_ns;
		r->flushes += w->replay.flushes;
		r->discards += w->replay.discards;
		r->discard_bytes += w->replay.discard_bytes;
		r->qdepth = s->qdepth;
		r->timed = s->trace_speed > 0;
	}
	if (r->issued)
		r->lag_mean_ns /= (double)r->issued;
}
