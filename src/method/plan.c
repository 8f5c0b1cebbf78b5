// SPDX-License-Identifier: GPL-2.0-or-later
/* A parsed preset expanded into a plan (phases of steps), and the questions asked of a plan (plan_*). */
#include "preset.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "lines.h"
#include "strbuf.h"
#include "text.h"
#include "preset_int.h"
#include "units.h"

/* ---- expansion ------------------------------------------------------------------- */

static bool sec_overrides(const struct preset_sec *phase, const struct preset_key *k)
{
	for (unsigned i = 0; i < phase->n; i++)
		if (phase->e[i].key == k ||
		    (key_group(k) != G_NONE && key_group(phase->e[i].key) == key_group(k)))
			return true;
	return false;
}

static uint64_t scaled(uint64_t ns, double scale, uint64_t min)
{
	double v = (double)ns * scale;

	if (ns == 0)
		return 0;
	if (v < (double)min)
		return min;
	return v >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(v);
}

/* A step time, round or max_time under --scale (see MIN_SCALED_NS). */
static uint64_t scaled_time(uint64_t ns, double scale)
{
	uint64_t floor = ns < MIN_SCALED_NS ? ns : MIN_SCALED_NS;

	return scaled(ns, scale, floor < MIN_INTERVAL_NS ? MIN_INTERVAL_NS : floor);
}

/*
 * The sampling interval of a step under --scale. One the preset sets is scaled like any
 * duration. The default one (1 s) shrinking with the scale made samples noise (10 ms at
 * x0.01: thousands of samples, megabytes of JSON), so scaled down it stays at least
 * 100 ms, or a tenth of the scaled step when that is longer, and never grows past itself.
 */
static uint64_t scaled_interval(uint64_t ns, bool set, double scale, uint64_t step_ns)
{
	uint64_t v = scaled(ns, scale, MIN_INTERVAL_NS), floor = MIN_SCALED_INTERVAL_NS;

	if (set || scale >= 1)
		return v;
	if (step_ns / 10 > floor)
		floor = step_ns / 10;
	if (v < floor)
		v = floor;
	return v < ns ? v : ns;
}

/* Copy as much of src as fits, always terminated, never cutting a character in two. */
static void copy_str(char *dst, size_t len, const char *src)
{
	text_copy(dst, len, src);
}

static void label_part(char *label, size_t len, const char *part)
{
	size_t used = strlen(label);

	if (used + 2 >= len)
		return;
	if (used)
		label[used++] = ' ';
	copy_str(label + used, len - used, part);
}

static void step_label(const struct preset_build *b, const struct preset_entry **eff, unsigned neff,
		       char *label, size_t len)
{
	bool tq_done = false;
	char part[64];

	label[0] = '\0';
	for (unsigned i = 0; i < neff; i++) {
		const struct preset_key *k = eff[i]->key;
		if (eff[i]->nvals < 2)
			continue;
		if (k->set == set_threads || k->set == set_qdepth) {
			if (tq_done)
				continue;
			tq_done = true;
			workload_tq(&b->wl, part, sizeof(part));
		} else if (k->set == set_bs) {
			units_fmt_size(part, sizeof(part), b->wl.bs);
		} else if (k->set == set_read) {
			if (b->wl.read_pct == 100 || b->wl.read_pct == 0)
				snprintf(part, sizeof(part), "%s",
					 b->wl.read_pct ? "read" : "write");
			else
				snprintf(part, sizeof(part), "%u/%u", b->wl.read_pct,
					 100 - b->wl.read_pct);
		} else if (k->set == set_pattern) {
			snprintf(part, sizeof(part), "%s", wl_pattern_name[b->wl.pattern]);
		} else if (k->set == set_distribution) {
			workload_fmt_dist(&b->wl, part, sizeof(part));
		} else if (k->set == set_rate) {
			if (b->rate_pct > 0)
				snprintf(part, sizeof(part), "%g%%", b->rate_pct);
			else if (b->wl.rate_iops)
				snprintf(part, sizeof(part), "%llu IOPS",
					 (unsigned long long)b->wl.rate_iops);
			else
				snprintf(part, sizeof(part), "max");
		} else {
			continue; /* the value itself follows below */
		}
		label_part(label, len, part);
	}
	if (!label[0])
		workload_describe(&b->wl, label, len);
}

/* Keys that vary but have no short label form get "key=value". */
static void step_label_rest(const struct preset_entry **eff, const unsigned *idx, unsigned neff,
			    char *label, size_t len)
{
	char part[64];

	for (unsigned i = 0; i < neff; i++) {
		const struct preset_key *k = eff[i]->key;
		if (eff[i]->nvals < 2 || k->set == set_threads || k->set == set_qdepth ||
		    k->set == set_bs || k->set == set_read || k->set == set_pattern ||
		    k->set == set_rate || k->set == set_distribution)
			continue;
		snprintf(part, sizeof(part), "%s=%s", k->name, eff[i]->vals[idx[i]]);
		label_part(label, len, part);
	}
}

struct expand {
	const struct parser *p;
	const struct preset_doc *d;
	struct plan *plan;
	double scale;
	bool have_uncapped; /* a step without a rate cap has been planned before */
	uint64_t steps;	    /* over the phases so far, steady rounds counted */
};

/* A scaled duration past the limit, or a step with more samples than a result holds. */
static int check_scaled(const struct expand *x, const struct preset_sec *ps, unsigned step,
			const char *what, uint64_t ns)
{
	char a[32], b[32];

	if (ns <= PRESET_MAX_DURATION_NS)
		return 0;
	return perr(x->p, ps->line, "[%s] step %u: %s of %s at scale %g is over the limit of %s",
		    preset_section_name[ps->kind], step + 1, what,
		    units_fmt_duration(a, sizeof(a), ns), x->scale,
		    units_fmt_duration(b, sizeof(b), PRESET_MAX_DURATION_NS));
}

static int match_track_step(const struct expand *x, const struct preset_build *builds, unsigned n,
			    const struct preset_build *first, int *out)
{
	char *copy = strdup(first->track_step), *save = NULL;
	int found = -1, matches = 0;
	char msg[256];

	if (!copy)
		return -ENOMEM;
	for (unsigned s = 0; s < n; s++) {
		bool all = true;
		save = NULL;
		strcpy(copy, first->track_step);
		for (char *tok = strtok_r(copy, " ", &save); tok && all;
		     tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');
			struct preset_build b = builds[s];
			*eq = '\0';
			if (key_find(tok)->set(&b, eq + 1, msg, sizeof(msg))) {
				/* tok points into copy: report before freeing it */
				int ret = perr(x->p, first->track_line, "track_step: %s: %s", tok,
					       msg);
				free(copy);
				return ret;
			}
			all = !memcmp(&b.wl, &builds[s].wl, sizeof(b.wl)) &&
			      b.rate_pct == builds[s].rate_pct;
		}
		if (all) {
			matches++;
			if (found < 0)
				found = (int)s;
		}
	}
	free(copy);
	if (matches != 1)
		return perr(x->p, first->track_line,
			    "track_step '%s' matches %d of the phase's %u steps, not one",
			    first->track_step, matches, n);
	*out = found;
	return 0;
}

/* "data + log": a step of streams whose keys vary nothing is named by its streams. */
static void streams_label(const struct plan_step *st, char *label, size_t len)
{
	label[0] = '\0';
	for (unsigned i = 0; i < st->nstreams; i++) {
		size_t used = strlen(label);
		if (used + 4 >= len)
			break;
		if (i)
			strcpy(label + used, " + "), used += 3;
		copy_str(label + used, len - used, st->streams[i].name);
	}
}

/* One [stream] of step st: the step's build b with the stream's keys over it. */
static int expand_stream(struct expand *x, const struct preset_build *b,
			 const struct preset_sec *ss, unsigned index, struct plan_step *st)
{
	struct plan_stream *out = &st->streams[index];
	struct preset_build sb = *b;
	char msg[512];

	sb.name_set = false;
	sb.share_pct = 0;
	sb.dist_line = 0;
	for (unsigned i = 0; i < ss->n; i++) {
		const struct preset_entry *e = &ss->e[i];
		if (e->nvals > 1)
			return perr(x->p, e->line,
				    "%s: a [stream] key takes one value (a list in the phase "
				    "makes steps)",
				    e->key->name);
		sb.line = e->line;
		if (e->key->set(&sb, e->vals[0], msg, sizeof(msg)))
			return perr(x->p, e->line, "%s: %s", e->key->name, msg);
	}
	if (sb.wl.dist != WL_DIST_UNIFORM && sb.wl.pattern == WL_SEQUENTIAL)
		return perr(x->p, sb.dist_line ? sb.dist_line : ss->line,
			    "[stream] %u: distribution %s needs pattern = random", index + 1,
			    wl_dist_name[sb.wl.dist]);
	if (sb.name_set)
		copy_str(out->name, sizeof(out->name), sb.name);
	else
		snprintf(out->name, sizeof(out->name), "stream %u", index + 1);
	for (unsigned i = 0; i < index; i++)
		if (!strcmp(st->streams[i].name, out->name))
			return perr(x->p, ss->line, "[stream] '%s' named twice in one step",
				    out->name);
	out->wl = sb.wl;
	/* one clock for the step: its time, ramp, interval and seed */
	out->wl.time_ns = st->wl.time_ns;
	out->wl.ramp_ns = st->wl.ramp_ns;
	out->wl.interval_ns = st->wl.interval_ns;
	out->wl.seed = st->wl.seed;
	out->wl.rate_iops = 0; /* its share of the step's rate, set when the step runs */
	out->share_pct = sb.share_pct;
	out->line = ss->line;
	out->bs_line = sb.bs_line ? sb.bs_line : ss->line;
	return 0;
}

/* The step's streams: each [stream] after the phase section, and their shares. */
static int expand_streams(struct expand *x, const struct preset_build *b,
			  const struct preset_sec *streams, unsigned nstreams,
			  const struct preset_sec *ps, struct plan_step *st)
{
	double shares = 0;
	unsigned unshared = 0;
	int ret;

	st->streams = calloc(nstreams, sizeof(*st->streams));
	if (!st->streams)
		return -ENOMEM;
	st->nstreams = nstreams;
	for (unsigned i = 0; i < nstreams; i++) {
		if ((ret = expand_stream(x, b, &streams[i], i, st)))
			return ret;
		shares += st->streams[i].share_pct;
		unshared += st->streams[i].share_pct == 0;
	}
	if (shares > 100.0001 || (!unshared && shares < 99.9999))
		return perr(x->p, ps->line, "the shares of [%s]'s streams add up to %g%%, not 100%%",
			    preset_section_name[ps->kind], shares);
	return 0;
}

/* A phase section as it expands: its effective entries, where the odometer stands. */
struct phase_exp {
	const struct preset_sec *ps;
	const struct preset_entry *eff[64]; /* [workload]'s not overridden, then the phase's */
	unsigned neff;
	unsigned idx[64]; /* each entry's value for the step being built */
	const struct preset_sec *streams;
	unsigned nstreams;
	unsigned long nsteps;
};

/* A step's time, ramp and interval under --scale, each within the limits. */
static int step_timing(struct expand *x, const struct preset_sec *ps, unsigned s,
		       const struct preset_build *b, struct plan_step *st)
{
	int ret;

	/* a replay ends with its trace unless a time was written for it */
	if ((b->loops && !b->time_set) || (b->wl.trace[0] && !b->time_written))
		st->wl.time_ns = LOOPS_CAP_NS;
	if (b->until != UNTIL_TIME && b->round_ns)
		st->wl.time_ns = b->round_ns;
	st->wl.time_ns = scaled_time(st->wl.time_ns, x->scale);
	st->wl.ramp_ns = scaled(st->wl.ramp_ns, x->scale, 0);
	st->wl.interval_ns =
		scaled_interval(st->wl.interval_ns, b->interval_set, x->scale, st->wl.time_ns);
	if ((ret = check_scaled(x, ps, s, "time", st->wl.time_ns)) ||
	    (ret = check_scaled(x, ps, s, "ramp", st->wl.ramp_ns)) ||
	    (ret = check_scaled(x, ps, s, "interval", st->wl.interval_ns)))
		return ret;
	/* a `loops` step's time is only a cap (LOOPS_CAP_NS): it ends when the range is
	 * written, and past the limit a result keeps the first samples */
	if (ps->kind != SEC_PURGE && st->wl.interval_ns && !(b->loops && !b->time_set) && !(b->wl.trace[0] && !b->time_written) &&
	    st->wl.time_ns / st->wl.interval_ns >= RESULT_MAX_SAMPLES) {
		char a[32], iv[32];
		return perr(x->p, ps->line,
			    "[%s] step %u: %s at %s intervals is over the limit of %u samples a "
			    "step",
			    preset_section_name[ps->kind], s + 1,
			    units_fmt_duration(a, sizeof(a), st->wl.time_ns),
			    units_fmt_latency(iv, sizeof(iv), (double)st->wl.interval_ns),
			    RESULT_MAX_SAMPLES);
	}
	if (ps->kind != SEC_PURGE && st->wl.dist != WL_DIST_UNIFORM &&
	    st->wl.pattern == WL_SEQUENTIAL)
		return perr(x->p, b->dist_line ? b->dist_line : ps->line,
			    "[%s] step %u: distribution %s needs pattern = random",
			    preset_section_name[ps->kind], s + 1, wl_dist_name[st->wl.dist]);
	return 0;
}

/* Step s of the phase: its entries' values at the odometer into b, then st. */
static int expand_step(struct expand *x, struct phase_exp *pe, unsigned s, struct preset_build *b,
		       struct plan_step *st)
{
	const struct preset_sec *ps = pe->ps;
	char msg[512];
	int ret;

	for (unsigned i = 0; i < pe->neff; i++) {
		const struct preset_entry *e = pe->eff[i];
		b->line = e->line;
		/* purge takes only the range keys; values were checked when parsed */
		if (ps->kind == SEC_PURGE && !(e->key->sections & S(SEC_PURGE)))
			continue;
		if (e->key->set(b, e->vals[ps->kind == SEC_PURGE ? 0 : pe->idx[i]], msg,
				sizeof(msg)))
			return perr(x->p, e->line, "%s: %s", e->key->name, msg);
	}
	/* a replay writes what its trace writes, whatever `read` says */
	if (b->wl.trace[0])
		b->wl.read_pct = b->trace_read_pct;
	step_label(b, pe->eff, pe->neff, st->label, sizeof(st->label));
	step_label_rest(pe->eff, pe->idx, pe->neff, st->label, sizeof(st->label));
	st->wl = b->wl;
	if ((ret = step_timing(x, ps, s, b, st)))
		return ret;
	if (pe->nstreams &&
	    (ret = expand_streams(x, b, pe->streams, pe->nstreams, ps, st)))
		return ret;
	if (pe->nstreams && pe->nsteps == 1)
		streams_label(st, st->label, sizeof(st->label));
	st->rate_pct = b->rate_pct;
	st->trace_ns = b->wl.trace[0] ? b->trace_ns : 0;
	st->loops_set = b->loops > 0;
	st->loops_bytes_x = b->loops * (x->scale < 1 ? x->scale : 1);
	st->bs_line = b->bs_line ? b->bs_line : ps->line;
	if (ps->kind != SEC_PURGE) {
		if (st->rate_pct > 0 && !x->have_uncapped)
			return perr(x->p, b->rate_line,
				    "rate %g%% needs an uncapped step (rate = max) before it",
				    st->rate_pct);
		if (st->rate_pct == 0 && st->wl.rate_iops == 0)
			x->have_uncapped = true;
	}
	return 0;
}

/* What the phase as a whole takes from its first step's build: name, until, steady state. */
static int phase_finish(struct expand *x, const struct preset_sec *ps, struct plan_phase *ph,
			const struct preset_build *builds)
{
	const struct preset_build *b0 = &builds[0];
	int ret;

	copy_str(ph->name, sizeof(ph->name),
		 b0->name_set ? b0->name : b0->wipc ? "wipc" : preset_section_name[ps->kind]);
	ph->purge = b0->method;
	ph->app = b0->app;
	ph->until = b0->until;
	ph->wipc = b0->wipc;
	ph->max_time_ns = scaled_time(b0->max_time_ns, x->scale);
	ph->min_time_ns = scaled_time(b0->min_time_ns, x->scale);
	ph->min_written_x = b0->min_written_x * (x->scale < 1 ? x->scale : 1);
	if ((ret = check_scaled(x, ps, 0, "max_time", ph->max_time_ns)))
		return ret;
	if ((b0->min_time_ns || b0->min_written_x > 0) && ph->until != UNTIL_STEADY)
		return perr(x->p, ps->line, "min_time and min_written need until = steady");
	ph->steady = b0->sp;
	snprintf(ph->track, sizeof(ph->track), "%s", b0->track);
	if (b0->track_step && ph->until == UNTIL_TIME)
		return perr(x->p, b0->track_line, "track_step needs until = steady or fixed");
	if (ph->until != UNTIL_TIME) {
		if (ph->steady.window > ph->steady.max_rounds)
			return perr(x->p, ps->line,
				    "window of %u rounds is longer than max_rounds (%u)",
				    ph->steady.window, ph->steady.max_rounds);
		if (ph->nsteps == 1)
			ph->track_step = 0;
		else if (!b0->track_step)
			return perr(x->p, ps->line,
				    "until = steady over %u steps needs track_step to say which "
				    "step is judged",
				    ph->nsteps);
		else if ((ret = match_track_step(x, builds, ph->nsteps, b0, &ph->track_step)))
			return ret;
	}
	/* the steps a result will hold: every round of a steady phase */
	x->steps += (uint64_t)ph->nsteps * plan_phase_rounds(ph);
	if (x->steps > PRESET_MAX_STEPS)
		return perr(x->p, ps->line,
			    "[%s] brings the preset to %llu steps (rounds counted), over the "
			    "limit of %u",
			    preset_section_name[ps->kind], (unsigned long long)x->steps,
			    PRESET_MAX_STEPS);
	return 0;
}

/* A new phase at the plan's end, with room for nsteps steps; NULL when out of memory. */
static struct plan_phase *phase_new(struct plan *plan, const struct preset_sec *ps,
				    unsigned long nsteps)
{
	static const enum phase_kind kinds[PRESET_NSECTIONS] = {
		[SEC_PURGE] = PH_PURGE,
		[SEC_PRECONDITION] = PH_PRECONDITION,
		[SEC_MEASURE] = PH_MEASURE,
		[SEC_RUN] = PH_RUN,
		[SEC_APP] = PH_APP,
	};
	struct plan_phase *phases = realloc(plan->phases, (plan->nphases + 1) * sizeof(*phases));
	struct plan_phase *ph;

	if (!phases)
		return NULL;
	plan->phases = phases;
	ph = &phases[plan->nphases++];
	memset(ph, 0, sizeof(*ph));
	ph->line = ps->line;
	ph->track_step = -1;
	ph->kind = kinds[ps->kind];
	ph->steps = calloc(nsteps, sizeof(*ph->steps));
	return ph->steps ? ph : NULL;
}

static int expand_phase(struct expand *x, const struct preset_sec *wsec,
			const struct preset_sec *ps, const struct preset_sec *streams,
			unsigned nstreams)
{
	struct phase_exp pe = {.ps = ps, .streams = streams, .nstreams = nstreams, .nsteps = 1};
	struct preset_build base, *builds = NULL;
	struct plan_phase *ph;
	int ret = 0;

	/* [workload] shapes drivebench's own I/O, which an [app] phase does not do */
	for (unsigned i = 0; wsec && ps->kind != SEC_APP && i < wsec->n; i++)
		if (!sec_overrides(ps, wsec->e[i].key))
			pe.eff[pe.neff++] = &wsec->e[i];
	for (unsigned i = 0; i < ps->n; i++)
		pe.eff[pe.neff++] = &ps->e[i];
	for (unsigned i = 0; i < pe.neff; i++) {
		pe.nsteps *= pe.eff[i]->nvals;
		if (x->steps + pe.nsteps > PRESET_MAX_STEPS)
			return perr(x->p, ps->line,
				    "[%s] brings the preset to more than %u steps (the limit)",
				    preset_section_name[ps->kind], PRESET_MAX_STEPS);
	}
	if (ps->kind == SEC_PURGE)
		pe.nsteps = 1; /* the range is all a purge takes from its keys */
	if (!(ph = phase_new(x->plan, ps, pe.nsteps)) ||
	    !(builds = calloc(pe.nsteps, sizeof(*builds))))
		return -ENOMEM;
	build_defaults(&base);
	for (unsigned long s = 0; s < pe.nsteps && !ret; s++) {
		builds[s] = base;
		ret = expand_step(x, &pe, (unsigned)s, &builds[s], &ph->steps[s]);
		/* odometer: the last key written turns fastest */
		for (int i = (int)pe.neff - 1; i >= 0; i--) {
			if (++pe.idx[i] < pe.eff[i]->nvals)
				break;
			pe.idx[i] = 0;
		}
	}
	ph->nsteps = (unsigned)pe.nsteps;
	if (!ret)
		ret = phase_finish(x, ps, ph, builds);
	for (unsigned long s = 0; ret && s < pe.nsteps; s++) {
		free(ph->steps[s].streams);
		ph->steps[s].streams = NULL;
		ph->steps[s].nstreams = 0;
	}
	free(builds);
	return ret;
}

int expand(const struct parser *p, const struct preset_doc *d, struct plan *plan)
{
	struct expand x = {.p = p, .d = d, .plan = plan, .scale = plan->scale};
	const struct preset_sec *wsec = NULL, *psec = NULL;
	struct preset_build b;
	char msg[256];
	int ret;

	for (unsigned i = 0; i < d->n; i++) {
		if (d->s[i].kind == SEC_WORKLOAD)
			wsec = &d->s[i];
		if (d->s[i].kind == SEC_PRESET)
			psec = &d->s[i];
	}
	if (!psec)
		return perr(p, 1, "no [preset] section: a preset needs a name");
	build_defaults(&b);
	for (unsigned i = 0; i < psec->n; i++)
		(void)psec->e[i].key->set(&b, psec->e[i].vals[0], msg, sizeof(msg));
	if (!b.name_set)
		return perr(p, psec->line, "[preset] needs a name");
	snprintf(plan->name, sizeof(plan->name), "%s", b.name);
	plan->description = strdup(b.description ? b.description : "");
	plan->source = strdup(b.source ? b.source : "");
	if (!plan->description || !plan->source)
		return -ENOMEM;
	for (unsigned i = 0; i < d->n; i++) {
		unsigned n = 0;
		if (d->s[i].kind == SEC_PRESET || d->s[i].kind == SEC_WORKLOAD)
			continue;
		if (d->s[i].kind == SEC_STREAM)
			return perr(p, d->s[i].line,
				    "[stream] belongs after a [precondition], [measure] or [run] "
				    "section: it is one of that phase's streams");
		while (i + 1 + n < d->n && d->s[i + 1 + n].kind == SEC_STREAM)
			n++;
		if (n && (d->s[i].kind == SEC_PURGE || d->s[i].kind == SEC_APP))
			return perr(p, d->s[i + 1].line, "[stream] cannot follow [%s]",
				    preset_section_name[d->s[i].kind]);
		if ((d->s[i].kind == SEC_APP) != (plan->nphases ? plan->phases[0].kind == PH_APP
								: d->s[i].kind == SEC_APP))
			return perr(p, d->s[i].line,
				    "[app] phases make a file system on the target: they cannot "
				    "share a preset with phases of drivebench's own I/O");
		if (n > PRESET_MAX_STREAMS)
			return perr(p, d->s[i + 1 + PRESET_MAX_STREAMS].line,
				    "more than %u [stream] sections in one phase (the limit)",
				    PRESET_MAX_STREAMS);
		if (n == 1)
			return perr(p, d->s[i + 1].line,
				    "one [stream] alone: a phase of one stream is the phase itself "
				    "(give two or more, or move its keys into [%s])",
				    preset_section_name[d->s[i].kind]);
		if ((ret = expand_phase(&x, wsec, &d->s[i], n ? &d->s[i + 1] : NULL, n)))
			return ret;
		i += n;
	}
	if (!plan->nphases)
		return perr(p, psec->line,
			    "no phases: add [purge], [precondition], [measure] or [run]");
	return 0;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nphases; i++) {
		for (unsigned j = 0; p->phases[i].steps && j < p->phases[i].nsteps; j++)
			free(p->phases[i].steps[j].streams);
		free(p->phases[i].steps);
	}
	free(p->phases);
	free(p->description);
	free(p->source);
	free(p->text);
	doc_free(p->doc);
	free(p);
}

struct plan *preset_parse(const char *text, const char *file, double scale, char *err,
			  size_t errlen)
{
	struct parser p = {.file = file ? file : "<text>", .err = err, .errlen = errlen};
	struct plan *plan;
	int ret;

	size_t len = strlen(text);
	char lim[32];

	/* replay's scale comes from a file: the range --scale takes, not anything */
	if (!(scale >= PRESET_SCALE_MIN && scale <= PRESET_SCALE_MAX)) {
		text_fmt(err, errlen, "%s: scale %g is outside %g to %g", p.file, scale,
			 PRESET_SCALE_MIN, PRESET_SCALE_MAX);
		return NULL;
	}
	if (len > PRESET_MAX_BYTES) {
		text_fmt(err, errlen, "%s: %zu bytes of preset text, over the limit of %s", p.file,
			 len, fileio_fmt_limit(lim, sizeof(lim), PRESET_MAX_BYTES));
		return NULL;
	}
	plan = calloc(1, sizeof(*plan));
	/* well-formed UTF-8 from here on: names and descriptions reach every output */
	if (!plan || !(plan->text = text_utf8_repair(text, len, NULL))) {
		text_fmt(err, errlen, "%s: out of memory", p.file);
		free(plan);
		return NULL;
	}
	text = plan->text;
	snprintf(plan->file, sizeof(plan->file), "%s", p.file);
	plan->scale = scale;
	ret = doc_parse(&p, text, &plan->doc);
	if (!ret)
		ret = expand(&p, plan->doc, plan);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", p.file);
		plan_free(plan);
		return NULL;
	}
	return plan;
}

struct plan *preset_parse_file(const char *path, double scale, char *err, size_t errlen)
{
	struct plan *plan;
	char *text;
	size_t len;

	if (fileio_read(path, "a preset", PRESET_MAX_BYTES, &text, &len, err, errlen))
		return NULL;
	if (memchr(text, '\0', len)) {
		text_fmt(err, errlen, "%s: binary data: not a preset", path);
		free(text);
		return NULL;
	}
	plan = preset_parse(text, path, scale, err, errlen);
	free(text);
	return plan;
}

/* ---- questions about a plan ------------------------------------------------------ */

bool plan_writes(const struct plan *p)
{
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		if (ph->kind == PH_APP)
			return true;
		if (ph->kind == PH_PURGE) {
			if (ph->purge != PURGE_NONE)
				return true;
			continue;
		}
		for (unsigned s = 0; s < ph->nsteps; s++) {
			if (ph->steps[s].wl.read_pct < 100)
				return true;
			/* a stream that writes makes the step write, whatever the phase says */
			for (unsigned k = 0; k < ph->steps[s].nstreams; k++)
				if (ph->steps[s].streams[k].wl.read_pct < 100)
					return true;
		}
	}
	return false;
}

unsigned plan_steps(const struct plan *p)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		n += ph->nsteps * plan_phase_rounds(ph);
	}
	return n;
}

/*
 * One workload of a step (the step's, or one of its streams') against the target, its
 * split's block sizes below the target's folded into it as the runner runs it.
 */
static int check_workload(const struct plan *p, const struct plan_phase *ph, unsigned s,
			  const struct workload *given, unsigned bs_line, uint32_t lbs,
			  uint64_t size, char *err, size_t errlen)
{
	const struct plan_step *st = &ph->steps[s];
	struct workload folded = *given, *wl = &folded;
	char msg[512], a[32], b[32];
	uint32_t bs = plan_workload_misfit(given, lbs);

	workload_fold_split(wl, lbs, msg, sizeof(msg));
	if (bs) {
		snprintf(err, errlen,
			 "%s:%u: block size %s is below or not a multiple of the target's logical "
			 "block size (%s)",
			 p->file, bs_line, units_fmt_size(a, sizeof(a), bs),
			 units_fmt_size(b, sizeof(b), lbs));
		return -EINVAL;
	}
	if (workload_validate(wl, lbs, size, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s:%u: [%s] step %u (%s): %s", p->file, ph->line, ph->name,
			 s + 1, st->label, msg);
		return -EINVAL;
	}
	return 0;
}

int plan_check_target(const struct plan *p, uint32_t lbs, uint64_t size, char *err, size_t errlen)
{
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		if (ph->kind == PH_PURGE)
			continue;
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct plan_step *st = &ph->steps[s];
			int ret = check_workload(p, ph, s, &st->wl, st->bs_line, lbs, size, err,
						 errlen);
			for (unsigned k = 0; !ret && k < st->nstreams; k++)
				ret = check_workload(p, ph, s, &st->streams[k].wl,
						     st->streams[k].bs_line, lbs, size, err, errlen);
			if (ret)
				return ret;
		}
	}
	return 0;
}
