// SPDX-License-Identifier: GPL-2.0-or-later
/* A step's streams on the run's targets, and what each measured (step_streams.h). */
#include "step_streams.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "text.h"
#include "units.h"

unsigned step_streams_count(const struct plan_step *ps, unsigned nt)
{
	return (nt ? nt : 1) * (ps->nstreams ? ps->nstreams : 1);
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t stream_buffers(const struct workload *wl)
{
	return sat_mul(sat_mul(wl->threads, wl->qdepth), workload_max_bs(wl));
}

uint64_t step_buffers_ceiling(uint64_t ram_bytes)
{
	return ram_bytes && ram_bytes / 4 < STEP_BUFFERS_MAX ? ram_bytes / 4 : STEP_BUFFERS_MAX;
}

uint64_t step_buffers_bytes(const struct plan_step *ps, unsigned nt)
{
	uint64_t per_target = 0;

	for (unsigned s = 0; s < (ps->nstreams ? ps->nstreams : 1); s++) {
		uint64_t b = stream_buffers(ps->nstreams ? &ps->streams[s].wl : &ps->wl);
		per_target = per_target > UINT64_MAX - b ? UINT64_MAX : per_target + b;
	}
	return sat_mul(per_target, nt ? nt : 1);
}

/* "4 threads x qdepth 64 x 64m blocks = 16g": the figures of the step's largest stream */
static void largest_stream(const struct plan_step *ps, char *buf, size_t len)
{
	const struct workload *big = &ps->wl;
	char a[32], b[32];

	for (unsigned s = 0; s < ps->nstreams; s++)
		if (s == 0 || stream_buffers(&ps->streams[s].wl) > stream_buffers(big))
			big = &ps->streams[s].wl;
	snprintf(buf, len, "%u thread%s x qdepth %u x %s blocks = %s", big->threads,
		 big->threads == 1 ? "" : "s", big->qdepth,
		 units_fmt_size(a, sizeof(a), workload_max_bs(big)),
		 units_fmt_size(b, sizeof(b), stream_buffers(big)));
}

/* The step's figures against the ceiling, after "FILE:LINE: [PHASE] step LABEL: ". */
static void over_ceiling(const struct plan_step *ps, unsigned nt, uint64_t ceiling, char *buf,
			 size_t len)
{
	unsigned per = ps->nstreams ? ps->nstreams : 1;
	char fig[128], total[32], max[32];

	largest_stream(ps, fig, sizeof(fig));
	units_fmt_size(max, sizeof(max), ceiling);
	if (per * nt == 1) {
		snprintf(buf, len, "slot buffers of %s, over the "
			 "ceiling of %s (1 GiB or a quarter of the RAM, whichever is smaller)",
			 fig, max);
		return;
	}
	snprintf(buf, len, "slot buffers of %s over %u stream%s on %u target%s (the largest "
		 "stream %s), over the ceiling of %s (1 GiB or a quarter of the RAM, whichever "
		 "is smaller)",
		 units_fmt_size(total, sizeof(total), step_buffers_bytes(ps, nt)), per,
		 per == 1 ? "" : "s", nt, nt == 1 ? "" : "s", fig, max);
}

int step_buffers_check(const struct plan *plan, unsigned nt, uint64_t ram_bytes, char *err,
		       size_t errlen)
{
	uint64_t ceiling = step_buffers_ceiling(ram_bytes);
	char why[512], at[32] = "";

	if (!nt)
		nt = 1;
	for (unsigned i = 0; i < plan->nphases; i++) {
		const struct plan_phase *ph = &plan->phases[i];
		for (unsigned s = 0; ph->kind != PH_PURGE && s < ph->nsteps; s++) {
			const struct plan_step *ps = &ph->steps[s];
			if (step_buffers_bytes(ps, nt) <= ceiling)
				continue;
			over_ceiling(ps, nt, ceiling, why, sizeof(why));
			if (ph->line)
				snprintf(at, sizeof(at), ":%u", ph->line);
			snprintf(err, errlen, "%s%s: [%s] step %s: %s", plan->file, at, ph->name,
				 ps->label, why);
			return -EINVAL;
		}
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* part of rate for share_pct (or, 0, an equal part of what the shares leave) */
static uint64_t rate_part(uint64_t rate, double share_pct, double shared_pct, unsigned unshared)
{
	double pct = share_pct > 0 ? share_pct : (100.0 - shared_pct) / (unshared ? unshared : 1);
	uint64_t v;

	if (!rate)
		return 0;
	v = (uint64_t)llround((double)rate * pct / 100.0);
	return v ? v : 1;
}

int step_streams_build(const struct plan_step *ps, const struct workload *wl,
		       const struct target *const *targets, unsigned nt, struct step_streams *out,
		       char *err, size_t errlen)
{
	unsigned per = ps->nstreams ? ps->nstreams : 1, unshared = 0;
	double shared = 0;

	memset(out, 0, sizeof(*out));
	if (!nt)
		nt = 1;
	if (step_streams_count(ps, nt) > ENGINE_MAX_STREAMS) {
		snprintf(err, errlen, "step %s: %u streams on %u targets is over the limit of %u",
			 ps->label, per, nt, ENGINE_MAX_STREAMS);
		return -E2BIG;
	}
	for (unsigned s = 0; s < ps->nstreams; s++) {
		shared += ps->streams[s].share_pct;
		unshared += ps->streams[s].share_pct == 0;
	}
	for (unsigned t = 0; t < nt; t++) {
		uint64_t trate = wl->rate_iops / nt + (t < wl->rate_iops % nt ? 1 : 0);
		for (unsigned s = 0; s < per; s++) {
			unsigned i = out->n++;
			const struct plan_stream *pst = ps->nstreams ? &ps->streams[s] : NULL;
			out->wl[i] = pst ? pst->wl : *wl;
			out->wl[i].time_ns = wl->time_ns;
			out->wl[i].ramp_ns = wl->ramp_ns;
			out->wl[i].interval_ns = wl->interval_ns;
			out->wl[i].seed = wl->seed;
			out->wl[i].rate_iops =
				pst ? rate_part(trate, pst->share_pct, shared, unshared) : trate;
			out->share[i] = pst ? pst->share_pct : 0;
			out->target[i] = t;
			out->es[i].t = targets[t];
			out->es[i].wl = &out->wl[i];
			if (nt > 1 && pst)
				snprintf(out->name[i], sizeof(out->name[i]), "%.30s %s",
					 base_name(targets[t]->path), pst->name);
			else
				text_copy(out->name[i], sizeof(out->name[i]),
					  pst ? pst->name : base_name(targets[t]->path));
		}
	}
	return 0;
}

void step_streams_set_hist(struct result_step *st, const struct io_acc *acc,
			   const struct io_acc *drain_acc)
{
	/* the drain's latencies are in the step's histogram, as in its percentiles */
	struct hist *h = malloc(2 * sizeof(*h));

	if (!h)
		return;
	h[0] = acc[DIR_READ].hist;
	h[1] = acc[DIR_WRITE].hist;
	if (drain_acc) {
		hist_merge(&h[0], &drain_acc[DIR_READ].hist);
		hist_merge(&h[1], &drain_acc[DIR_WRITE].hist);
	}
	result_step_set_hist(st, &h[0], &h[1]);
	free(h);
}

int step_streams_begin(struct result_step *st, const struct step_streams *ss, double scale,
		       const struct target *const *targets, unsigned nt)
{
	for (unsigned i = 0; ss->n > 1 && i < ss->n; i++) {
		struct result_step *s = result_step_add_stream(st, ss->name[i], &ss->wl[i]);
		if (!s)
			return -ENOMEM;
		s->target_index = ss->target[i];
		s->share_pct = ss->share[i];
		s->status = RS_INCOMPLETE;
		step_def_begin(&s->def, scale, targets + (ss->target[i] < nt ? ss->target[i] : 0),
			       nt ? 1 : 0);
	}
	return 0;
}

void step_streams_so_far(struct result_step *st, const struct step_result *live,
			 uint64_t measured_ns)
{
	stats_summarize(&live->acc[0], &live->acc[1], measured_ns, &st->summary);
	st->summary.index = live->nsamples;
	/* how it is measured, known since its workers were set up: an autosave says it */
	if (live->engine_desc[0])
		step_def_engine_set(&st->def, live->engine_desc, live->busy_poll);
	for (unsigned i = 0; i < st->nstreams && i < live->nstreams; i++) {
		const struct stream_result *r = &live->streams[i];
		struct result_step *s = &st->streams[i];
		if (!r->nsamples || !r->acc)
			continue;
		/* out of memory: the live copy misses a sample, as the step's does */
		result_step_add_sample(s, &r->samples[r->nsamples - 1]);
		if (r->engine_desc[0])
			step_def_engine_set(&s->def, r->engine_desc, r->busy_poll);
		stats_summarize(&r->acc[0], &r->acc[1], measured_ns, &s->summary);
		s->summary.index = r->nsamples;
	}
}

int step_streams_record(struct result_step *st, const struct step_streams *ss,
			const struct step_result *sr, bool no_hist)
{
	if (!sr->nstreams) { /* the engine never ran them: no rows of zeros */
		for (unsigned i = 0; i < st->nstreams; i++)
			result_step_clear_samples(&st->streams[i]);
		st->nstreams = 0;
	}
	for (unsigned i = 0; i < sr->nstreams && i < ss->n; i++) {
		const struct stream_result *r = &sr->streams[i];
		struct result_step *s =
			i < st->nstreams ? &st->streams[i]
					 : result_step_add_stream(st, ss->name[i], &ss->wl[i]);
		if (!s)
			return -ENOMEM;
		result_step_clear_samples(s);
		s->target_index = ss->target[i];
		s->share_pct = ss->share[i];
		s->summary = r->total;
		s->drain = r->drain;
		s->ramp = r->ramp;
		s->wl.seed = sr->seed;
		s->status = st->status;
		snprintf(s->engine, sizeof(s->engine), "%s", r->engine_desc);
		for (unsigned k = 0; k < r->nsamples; k++)
			if (result_step_add_sample(s, &r->samples[k]))
				return -ENOMEM;
		if (r->acc && !no_hist)
			step_streams_set_hist(s, r->acc, r->drain_acc);
	}
	return 0;
}

bool step_streams_empty(const struct step_result *sr, const struct step_streams *ss, char *msg,
			size_t len)
{
	char d[32], m[32], *s;

	if (sr->total.d[DIR_ALL].ios == 0) {
		struct strbuf b = {0};
		strbuf_add(&b, "no I/O completed in the measured time");
		if (sr->host_stall_ns)
			strbuf_add(&b, "; the host did not run drivebench for %s of it",
				   units_fmt_latency(d, sizeof(d), (double)sr->host_stall_ns));
		if (sr->drain.d[DIR_ALL].ios)
			strbuf_add(&b, "; %llu completed after it, in the drain, taking up to %s",
				   (unsigned long long)sr->drain.d[DIR_ALL].ios,
				   units_fmt_latency(m, sizeof(m),
						     (double)sr->drain.d[DIR_ALL].max_ns));
		s = strbuf_take(&b);
		snprintf(msg, len, "%s", s ? s : "no I/O completed in the measured time");
		free(s);
		return true;
	}
	for (unsigned i = 0; ss && i < sr->nstreams; i++) {
		const struct workload *wl = &ss->wl[i];
		bool may_idle = wl->rate_iops && (double)wl->rate_iops * (double)wl->time_ns < 2e9;
		if (sr->streams[i].total.d[DIR_ALL].ios == 0 && !may_idle) {
			snprintf(msg, len, "stream %s: no I/O completed in the measured time",
				 ss->name[i]);
			return true;
		}
	}
	return false;
}

uint64_t step_streams_loops(const struct plan_step *ps, struct workload *wl,
			    struct step_streams *ss, const struct target *t)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < (ss ? ss->n : 1); i++) {
		struct workload *w = ss ? &ss->wl[i] : wl;
		uint64_t start, len;

		workload_range(w, (ss ? ss->es[i].t : t)->size, &start, &len);
		w->io_bytes = (uint64_t)((double)len * ps->loops_bytes_x);
		if (!w->io_bytes)
			w->io_bytes = 1;
		total += w->io_bytes;
	}
	return total;
}
