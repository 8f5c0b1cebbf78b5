// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison model: which steps the runs share, how runs are named, tables of one
 * metric, and number formatting. Renderers live in report_*.c and only format.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hist.h"
#include "result_io.h"
#include "text.h"
#include "units.h"

const struct report_metric_info report_metric_info[RM_COUNT] = {
#define X(id, n, t, u, c, h)                                                                       \
	[id] = {.name = n, .title = t, .unit = u, .csv = c, .higher_better = h},
	REPORT_METRICS(X)
#undef X
};

const char *const report_format_name[RF_COUNT] = {
#define X(id, name, fn) [id] = name,
	REPORT_FORMATS(X)
#undef X
};

static int (*const report_renderer[RF_COUNT])(const struct report *, FILE *) = {
#define X(id, name, fn) [id] = fn,
	REPORT_FORMATS(X)
#undef X
};

double report_metric_value(enum report_metric m, const struct dir_stats *d)
{
	switch (m) {
	case RM_IOPS:
		return d->iops;
	case RM_MBPS:
		return d->mbps;
	case RM_LAT_AVG:
		return d->mean_ns / 1e6;
	case RM_LAT_MAX:
		return (double)d->max_ns / 1e6;
	case RM_LAT_STD:
		return d->std_ns / 1e6;
	case RM_P99:
		return (double)d->pct_ns[PCT_99] / 1e6;
	case RM_P999:
		return (double)d->pct_ns[PCT_999] / 1e6;
	case RM_P9999:
		return (double)d->pct_ns[PCT_9999] / 1e6;
	case RM_HOST_WRITTEN: /* a step's, not a direction's: report_cell() */
	case RM_TEMP_MAX:
	case RM_COUNT:
		break;
	}
	return 0;
}

int report_metric_parse(const char *s, enum report_metric *m)
{
	static const struct {
		const char *alias;
		enum report_metric m;
	} aliases[] = {
		{"throughput", RM_IOPS}, {"bw", RM_MBPS},	  {"bandwidth", RM_MBPS},
		{"avg", RM_LAT_AVG},	 {"latency", RM_LAT_AVG}, {"max", RM_LAT_MAX},
		{"stddev", RM_LAT_STD},	 {"std", RM_LAT_STD},	  {"p999", RM_P999},
		{"p9999", RM_P9999},
	};
	for (unsigned i = 0; i < RM_COUNT; i++)
		if (!strcasecmp(s, report_metric_info[i].name)) {
			*m = (enum report_metric)i;
			return 0;
		}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(s, aliases[i].alias)) {
			*m = aliases[i].m;
			return 0;
		}
	return -EINVAL;
}

int report_format_parse(const char *s, enum report_format *f)
{
	for (unsigned i = 0; i < RF_COUNT; i++)
		if (!strcmp(s, report_format_name[i])) {
			*f = (enum report_format)i;
			return 0;
		}
	if (!strcmp(s, "markdown")) {
		*f = RF_MD;
		return 0;
	}
	return -EINVAL;
}

/* ---- matching steps -------------------------------------------------------------- */

static bool measuring(const struct result_phase *ph)
{
	return ph->kind == PH_MEASURE || ph->kind == PH_RUN;
}

/* Same workload apart from threads, queue depth and rate: the same ladder or curve. */
static bool same_group(const struct workload *a, const struct workload *b)
{
	if (a->pattern != b->pattern || a->read_pct != b->read_pct || a->nsplit != b->nsplit ||
	    !workload_same_dist(a, b))
		return false;
	if (!a->nsplit)
		return a->bs == b->bs;
	for (unsigned i = 0; i < a->nsplit; i++)
		if (a->split[i].bs != b->split[i].bs || a->split[i].pct != b->split[i].pct)
			return false;
	return true;
}

/*
 * A step's rate as compared: a rate-curve step (rate = 10%) by its share of its own run's
 * maximum, since each drive's maximum differs; a fixed cap by its IOPS. The top bit keeps
 * the two apart.
 */
static uint64_t rate_key(const struct result_step *st)
{
	if (st->rate_pct > 0)
		return (1ull << 63) | (uint64_t)llround(st->rate_pct * 1000);
	return st->wl.rate_iops & ~(1ull << 63);
}

static bool same_step(const struct result_step *a, const struct result_step *b)
{
	return same_group(&a->wl, &b->wl) && a->wl.threads == b->wl.threads &&
	       a->wl.qdepth == b->wl.qdepth && rate_key(a) == rate_key(b);
}

/*
 * Lookups by workload go through hash tables, so matching is linear in the steps: with
 * 10000 steps a run (the limit), pairwise comparison was 10^8 per pair of runs.
 */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

/* What same_group() compares, and then what same_step() adds. */
static uint64_t group_hash(const struct workload *wl)
{
	uint64_t h = mix(mix(mix(mix(0, wl->pattern), wl->read_pct), wl->nsplit), wl->dist);

	if (!wl->nsplit)
		return mix(h, wl->bs);
	for (unsigned i = 0; i < wl->nsplit; i++)
		h = mix(mix(h, wl->split[i].bs), wl->split[i].pct);
	return h;
}

static uint64_t step_hash(const struct result_step *st, unsigned occurrence)
{
	const struct workload *wl = &st->wl;

	return mix(mix(mix(mix(group_hash(wl), wl->threads), wl->qdepth), rate_key(st)),
		   occurrence);
}

/* Open addressing: slots hold an index + 1 into the caller's array, 0 when empty. */
struct index {
	unsigned *slot;
	size_t mask;
};

static int index_init(struct index *ix, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n + 2)
		cap *= 2;
	ix->slot = calloc(cap, sizeof(*ix->slot));
	ix->mask = cap - 1;
	return ix->slot ? 0 : -ENOMEM;
}

static void index_free(struct index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
}

/* A run's measured steps in order, with each one's occurrence among equal steps. */
struct step_ref {
	const struct result_phase *phase;
	const struct result_step *step;
	unsigned occurrence;
	bool shared;
};

/* A run's refs, and its index by step and occurrence (find_ref()). */
struct run_refs {
	struct step_ref *refs;
	unsigned n;
	struct index by_step;
};

static int collect(const struct result *r, struct run_refs *rr)
{
	struct index last; /* step (occurrence 0) -> its latest ref so far */
	unsigned total = 0, k = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		if (measuring(&r->phases[p]))
			total += r->phases[p].nsteps;
	rr->refs = calloc(total ? total : 1, sizeof(*rr->refs));
	if (!rr->refs || index_init(&last, total) || index_init(&rr->by_step, total)) {
		index_free(&rr->by_step);
		return -ENOMEM;
	}
	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		if (!measuring(ph))
			continue;
		for (unsigned s = 0; s < ph->nsteps; s++) {
			struct step_ref *ref = &rr->refs[k];
			size_t h;
			ref->phase = ph;
			ref->step = &ph->steps[s];
			/* the occurrence: one more than the latest equal step's */
			for (h = step_hash(ref->step, 0) & last.mask; last.slot[h];
			     h = (h + 1) & last.mask) {
				const struct step_ref *prev = &rr->refs[last.slot[h] - 1];
				if (same_step(prev->step, ref->step)) {
					ref->occurrence = prev->occurrence + 1;
					break;
				}
			}
			last.slot[h] = k + 1;
			for (h = step_hash(ref->step, ref->occurrence) & rr->by_step.mask;
			     rr->by_step.slot[h]; h = (h + 1) & rr->by_step.mask)
				;
			rr->by_step.slot[h] = k + 1;
			k++;
		}
	}
	index_free(&last);
	rr->n = total;
	return 0;
}

static struct step_ref *find_ref(struct run_refs *rr, const struct step_ref *want)
{
	for (size_t h = step_hash(want->step, want->occurrence) & rr->by_step.mask;
	     rr->by_step.slot[h]; h = (h + 1) & rr->by_step.mask) {
		struct step_ref *ref = &rr->refs[rr->by_step.slot[h] - 1];
		if (ref->occurrence == want->occurrence && same_step(ref->step, want->step))
			return ref;
	}
	return NULL;
}

static bool mixed(const struct workload *wl)
{
	return wl->read_pct > 0 && wl->read_pct < 100;
}

/* "8k 70/30 random": the workload without threads, queue depth and rate. */
char *report_group_title(char *buf, size_t len, const struct workload *wl)
{
	char bs[WL_MAX_SPLIT * 24], mix[32];

	if (wl->nsplit) {
		char split[WL_MAX_SPLIT * 24];
		snprintf(bs, sizeof(bs), "bssplit %s",
			 workload_fmt_bssplit(wl, split, sizeof(split)));
	} else {
		units_fmt_size(bs, sizeof(bs), wl->bs);
	}
	workload_fmt_mix(wl, mix, sizeof(mix));
	snprintf(buf, len, "%s %s %s", bs, mix, wl_pattern_name[wl->pattern]);
	if (wl->dist != WL_DIST_UNIFORM) {
		size_t used = strlen(buf);
		if (used + 2 < len) {
			buf[used] = ' ';
			workload_fmt_dist(wl, buf + used + 1, len - used - 1);
		}
	}
	return buf;
}

static const char *const dir_suffix[NDIR] = {
	[DIR_READ] = " read",
	[DIR_WRITE] = " write",
	[DIR_ALL] = "",
};

static void step_name(char *buf, size_t len, const struct step_ref *ref, enum io_dir dir)
{
	char tq[32], rate[48] = "", occ[16] = "";

	workload_tq(&ref->step->wl, tq, sizeof(tq));
	if (ref->step->rate_pct > 0)
		snprintf(rate, sizeof(rate), " @ %g%% of max", ref->step->rate_pct);
	else if (ref->step->wl.rate_iops)
		snprintf(rate, sizeof(rate), " @ %llu IOPS",
			 (unsigned long long)ref->step->wl.rate_iops);
	if (ref->occurrence)
		snprintf(occ, sizeof(occ), " #%u", ref->occurrence + 1);
	snprintf(buf, len, "%s%s%s%s", tq, rate, occ, dir_suffix[dir]);
}

__attribute__((format(printf, 2, 3))) static int note(struct report *rep, const char *fmt, ...)
{
	char **p = realloc(rep->notes, (rep->nnotes + 1) * sizeof(*p));
	va_list ap;

	if (!p)
		return -ENOMEM;
	rep->notes = p;
	va_start(ap, fmt);
	int n = vasprintf(&rep->notes[rep->nnotes], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	rep->nnotes++;
	return 0;
}

static void label_runs(struct report *rep)
{
	for (unsigned i = 0; i < rep->nruns; i++) {
		const struct result *r = rep->runs[i].res;
		const char *model = result_drive_model(r);
		bool twin = false, fw_differs = false;
		for (unsigned j = 0; j < rep->nruns && model[0]; j++)
			if (j != i && !strcmp(model, result_drive_model(rep->runs[j].res))) {
				twin = true;
				fw_differs |= strcmp(result_drive_firmware(r),
						     result_drive_firmware(rep->runs[j].res)) != 0;
			}
		/* a label names the run already: the firmware only tells a retest apart */
		result_label(r, r->label[0] ? fw_differs : twin, rep->runs[i].label,
			     sizeof(rep->runs[i].label));
	}
	/* the same drive and firmware twice (a repeat run): number the repeats */
	unsigned *nth = calloc(rep->nruns, sizeof(*nth));
	if (!nth)
		return; /* labels stay ambiguous but correct */
	for (unsigned i = 0; i < rep->nruns; i++)
		for (unsigned j = 0; j < rep->nruns; j++)
			if (j != i && !strcmp(rep->runs[i].label, rep->runs[j].label))
				nth[i] = nth[i] ? nth[i] + (j < i) : 1 + (j < i);
	for (unsigned i = 0; i < rep->nruns; i++) {
		size_t l = strlen(rep->runs[i].label);
		if (nth[i])
			snprintf(rep->runs[i].label + l, sizeof(rep->runs[i].label) - l, " (%u)",
				 nth[i]);
	}
	free(nth);
}

static int add_row(struct report *rep, unsigned group, const struct step_ref *ref, enum io_dir dir,
		   const struct result_step **steps)
{
	/* doubling, the capacity implied by the count (a power of two from 16 on) */
	unsigned n = rep->nrows;
	if (n == 0 || (n >= 16 && !(n & (n - 1)))) {
		struct report_row *p = realloc(rep->rows, (n ? 2 * (size_t)n : 16) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		rep->rows = p;
	}
	struct report_row *row = &rep->rows[rep->nrows];
	memset(row, 0, sizeof(*row));
	row->group = group;
	row->dir = dir;
	step_name(row->name, sizeof(row->name), ref, dir);
	row->steps = malloc(rep->nruns * sizeof(*row->steps));
	if (!row->steps)
		return -ENOMEM;
	memcpy(row->steps, steps, rep->nruns * sizeof(*row->steps));
	rep->nrows++;
	return 0;
}

static int note_unshared(struct report *rep, unsigned run, const struct step_ref *refs, unsigned n)
{
	char list[512] = "";
	size_t used = 0;
	unsigned shown = 0, count = 0;

	for (unsigned i = 0; i < n; i++) {
		if (refs[i].shared)
			continue;
		count++;
		if (shown < 6 && used < sizeof(list)) {
			char d[160];
			workload_describe(&refs[i].step->wl, d, sizeof(d));
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 shown ? ", " : "", d);
			shown++;
		}
	}
	rep->runs[run].nunshared = count;
	if (!count)
		return 0;
	return note(rep, "%s: %u measured step%s not in every run, not compared: %s%s",
		    rep->runs[run].label, count, count == 1 ? "" : "s", list,
		    count > shown ? ", ..." : "");
}

/* Each warning of a compared step, as a note the marked values refer to. */
static int note_warnings(struct report *rep)
{
	for (unsigned r = 0; r < rep->nrows; r++) {
		const struct report_row *row = &rep->rows[r];
		if (row->dir != DIR_ALL)
			continue;
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct result_step *st = row->steps[i];
			for (unsigned w = 0; w < st->nwarnings; w++)
				if (note(rep, "%s, %s %s: " REPORT_WARN_MARK " %s: %s",
					 rep->runs[i].label, rep->groups[row->group].title,
					 row->name, st->warnings[w].code, st->warnings[w].text))
					return -ENOMEM;
		}
	}
	return 0;
}

static int note_presets(struct report *rep)
{
	bool differ = false;
	char list[1024] = "";
	size_t used = 0;

	for (unsigned i = 1; i < rep->nruns; i++)
		differ |= strcmp(rep->runs[i].res->preset_name, rep->runs[0].res->preset_name) != 0;
	if (!differ)
		return 0;
	for (unsigned i = 0; i < rep->nruns && used < sizeof(list); i++) {
		const char *p = rep->runs[i].res->preset_name;
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s ran %s%s%s",
					 i ? "; " : "", rep->runs[i].label, p[0] ? "\"" : "",
					 p[0] ? p : "an ad-hoc workload", p[0] ? "\"" : "");
	}
	return note(rep,
		    "The runs used different presets (%s); they are compared on the steps "
		    "they share.",
		    list);
}

static int load_specs(struct report *rep, const struct report_opts *o, char *err, size_t errlen)
{
	int ret = 0;

	if (o->no_specs)
		return 0;
	ret = o->spec_dir ? spec_load_dir(&rep->specs, o->spec_dir, err, errlen)
			  : spec_load_default(&rep->specs, err, errlen);
	if (ret)
		return ret;
	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		rep->runs[i].spec = spec_find(&rep->specs, result_drive_model(rep->runs[i].res));
		if (rep->runs[i].spec)
			ret = note(rep, "%s: rated figures from the spec sheet for %s (%s)",
				   rep->runs[i].label, rep->runs[i].spec->name,
				   rep->runs[i].spec->path);
	}
	return ret;
}

/* Every I/O metric, and the drive's counters when a run's steps have them. */
static unsigned default_metrics(const struct result *const *runs, unsigned nruns)
{
	unsigned mask = REPORT_IO_METRICS;

	for (unsigned i = 0; i < nruns; i++)
		for (unsigned p = 0; p < runs[i]->nphases; p++)
			for (unsigned s = 0; s < runs[i]->phases[p].nsteps; s++) {
				const struct step_drive *d = &runs[i]->phases[p].steps[s].drive;
				if (d->has_written)
					mask |= 1u << RM_HOST_WRITTEN;
				if (d->has_temp)
					mask |= 1u << RM_TEMP_MAX;
			}
	return mask;
}

int report_build(struct report *rep, const struct result *const *runs, unsigned nruns,
		 const struct report_opts *opts, char *err, size_t errlen)
{
	static const struct report_opts dflt;
	const struct report_opts *o = opts ? opts : &dflt;
	struct run_refs *rr = NULL;
	struct index groups = {0}; /* group -> its index in rep->groups */
	const struct result_step **steps = NULL;
	int ret = -ENOMEM;

	memset(rep, 0, sizeof(*rep));
	if (!nruns) {
		snprintf(err, errlen, "nothing to compare: no results given");
		return -EINVAL;
	}
	rep->metric_mask = o->metric_mask ? o->metric_mask : default_metrics(runs, nruns);
	rep->nruns = nruns;
	rep->runs = calloc(nruns, sizeof(*rep->runs));
	rr = calloc(nruns, sizeof(*rr));
	steps = calloc(nruns, sizeof(*steps));
	if (!rep->runs || !rr || !steps)
		goto fail_nomem;
	for (unsigned i = 0; i < nruns; i++) {
		rep->runs[i].res = runs[i];
		if (collect(runs[i], &rr[i]))
			goto fail_nomem;
	}
	if (index_init(&groups, rr[0].n))
		goto fail_nomem;
	label_runs(rep);
	text_fmt(rep->title, sizeof(rep->title), "%s%s", rep->runs[0].label,
		 nruns > 1 ? " and its comparables" : "");

	/* rows: run 0's steps that every run has, grouped into ladders in order of first use */
	for (unsigned i = 0; i < rr[0].n; i++) {
		struct step_ref *ref = &rr[0].refs[i];
		bool all = true;
		steps[0] = ref->step;
		for (unsigned r = 1; r < nruns && all; r++) {
			struct step_ref *other = find_ref(&rr[r], ref);
			all = other != NULL;
			if (other)
				steps[r] = other->step;
		}
		if (!all)
			continue;
		for (unsigned r = 1; r < nruns; r++)
			find_ref(&rr[r], ref)->shared = true;
		ref->shared = true;

		size_t h;
		unsigned g = rep->ngroups;
		for (h = group_hash(&ref->step->wl) & groups.mask; groups.slot[h];
		     h = (h + 1) & groups.mask) {
			unsigned cand = groups.slot[h] - 1;
			if (same_group(&rep->rows[rep->groups[cand].first_row].steps[0]->wl,
				       &ref->step->wl)) {
				g = cand;
				break;
			}
		}
		if (g == rep->ngroups) {
			/* doubling, as for rows */
			if (g == 0 || (g >= 16 && !(g & (g - 1)))) {
				struct report_group *grown = realloc(
					rep->groups, (g ? 2 * (size_t)g : 16) * sizeof(*grown));
				if (!grown)
					goto fail_nomem;
				rep->groups = grown;
			}
			struct report_group *p = rep->groups;
			memset(&p[g], 0, sizeof(p[g]));
			report_group_title(p[g].title, sizeof(p[g].title), &ref->step->wl);
			p[g].first_row = rep->nrows; /* provisional: fixed after sorting */
			rep->ngroups++;
			groups.slot[h] = g + 1;
		}
		if (add_row(rep, g, ref, DIR_ALL, steps))
			goto fail_nomem;
		if (mixed(&ref->step->wl) && (add_row(rep, g, ref, DIR_READ, steps) ||
					      add_row(rep, g, ref, DIR_WRITE, steps)))
			goto fail_nomem;
	}
	/* rows of one group together, in first-use order within it (a counting sort) */
	{
		struct report_row *sorted = malloc((rep->nrows ? rep->nrows : 1) * sizeof(*sorted));
		unsigned *next = calloc(rep->ngroups + 1, sizeof(*next));
		if (!sorted || !next) {
			free(sorted);
			free(next);
			goto fail_nomem;
		}
		for (unsigned i = 0; i < rep->nrows; i++)
			rep->groups[rep->rows[i].group].nrows++;
		for (unsigned g = 0, k = 0; g < rep->ngroups; g++) {
			rep->groups[g].first_row = next[g] = k;
			k += rep->groups[g].nrows;
		}
		for (unsigned i = 0; i < rep->nrows; i++)
			sorted[next[rep->rows[i].group]++] = rep->rows[i];
		free(next);
		free(rep->rows);
		rep->rows = sorted;
	}

	if (note_presets(rep))
		goto fail_nomem;
	if (!rep->nrows && note(rep, "The runs share no measured steps: there is nothing to put "
				     "side by side."))
		goto fail_nomem;
	if (note_warnings(rep))
		goto fail_nomem;
	for (unsigned r = 0; r < nruns; r++) {
		const struct result *res = rep->runs[r].res;
		if (note_unshared(rep, r, rr[r].refs, rr[r].n))
			goto fail_nomem;
		if (res->status != RS_COMPLETE &&
		    note(rep, "%s: the run is %s%s%s", rep->runs[r].label,
			 result_status_name[res->status], res->error[0] ? ": " : "", res->error))
			goto fail_nomem;
	}
	ret = load_specs(rep, o, err, errlen);
	if (ret)
		goto fail;
	ret = 0;
	goto out;

fail_nomem:
	snprintf(err, errlen, "out of memory");
	ret = -ENOMEM;
fail:
	report_free(rep);
out:
	for (unsigned i = 0; rr && i < nruns; i++) {
		free(rr[i].refs);
		index_free(&rr[i].by_step);
	}
	free(rr);
	index_free(&groups);
	free(steps);
	return ret;
}

void report_free(struct report *rep)
{
	for (unsigned i = 0; i < rep->nrows; i++)
		free(rep->rows[i].steps);
	free(rep->rows);
	for (unsigned i = 0; i < rep->nnotes; i++)
		free(rep->notes[i]);
	free(rep->notes);
	free(rep->groups);
	free(rep->runs);
	spec_list_free(&rep->specs);
	memset(rep, 0, sizeof(*rep));
}

/* ---- tables ---------------------------------------------------------------------- */

static enum spec_measure spec_measure_of(enum report_metric m, bool *ok)
{
	*ok = true;
	if (m == RM_IOPS)
		return SPEC_M_IOPS;
	if (m == RM_MBPS)
		return SPEC_M_MBPS;
	if (m == RM_LAT_AVG)
		return SPEC_M_LAT_NS;
	*ok = false;
	return SPEC_M_IOPS;
}

struct report_cell report_cell(const struct report *rep, unsigned row, unsigned run,
			       enum report_metric m)
{
	struct report_cell c = {0};
	const struct report_row *rw = &rep->rows[row];
	const struct result_step *s = rw->steps[run];
	const struct dir_stats *d = &s->summary.d[rw->dir];
	bool rated;

	if (!d->ios)
		return c;
	if (m == RM_HOST_WRITTEN || m == RM_TEMP_MAX) {
		/* the drive's own counters, for the step as a whole */
		c.present = m == RM_HOST_WRITTEN ? s->drive.has_written : s->drive.has_temp;
		c.warned = c.present && s->nwarnings > 0;
		c.value = m == RM_HOST_WRITTEN ? (double)s->drive.written_bytes / 1e9
					       : (double)s->drive.temp_max_c;
		return c;
	}
	c.present = true;
	c.warned = s->nwarnings > 0;
	c.value = report_metric_value(m, d);
	enum spec_measure sm = spec_measure_of(m, &rated);
	if (rated && rw->dir == DIR_ALL && rep->runs[run].spec) {
		c.rated = spec_rated(rep->runs[run].spec, &s->wl, sm, NULL);
		if (sm == SPEC_M_LAT_NS)
			c.rated /= 1e6;
		if (c.rated > 0)
			c.pct_of_rated = c.value / c.rated * 100;
		/* a rating the value cannot be measured against (1e300 of a 1e-300) is none */
		if (!isfinite(c.pct_of_rated) || !isfinite(c.rated))
			c.rated = c.pct_of_rated = 0;
	}
	return c;
}

int report_table(const struct report *rep, enum report_metric m, unsigned g, struct report_table *t)
{
	const struct report_group *grp = &rep->groups[g];

	memset(t, 0, sizeof(*t));
	t->metric = m;
	t->group = g;
	snprintf(t->title, sizeof(t->title), "%s (%s), %s", report_metric_info[m].title,
		 report_metric_info[m].unit, grp->title);
	t->nrows = grp->nrows;
	t->ncols = rep->nruns;
	t->row_names = calloc(t->nrows ? t->nrows : 1, sizeof(*t->row_names));
	t->col_names = calloc(t->ncols, sizeof(*t->col_names));
	t->cells = calloc((size_t)t->nrows * t->ncols + 1, sizeof(*t->cells));
	if (!t->row_names || !t->col_names || !t->cells) {
		report_table_free(t);
		return -ENOMEM;
	}
	for (unsigned c = 0; c < t->ncols; c++)
		t->col_names[c] = rep->runs[c].label;
	for (unsigned r = 0; r < t->nrows; r++) {
		t->row_names[r] = rep->rows[grp->first_row + r].name;
		for (unsigned c = 0; c < t->ncols; c++)
			t->cells[r * t->ncols + c] = report_cell(rep, grp->first_row + r, c, m);
	}
	return 0;
}

void report_table_free(struct report_table *t)
{
	free(t->row_names);
	free(t->col_names);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* ---- numbers --------------------------------------------------------------------- */

/*
 * 58550 -> "58,550": reviews group thousands; CSV and JSON carry plain numbers. Past
 * 10^15 (no drive does that many of anything) in scientific notation, not grouped: the
 * digits of 1e300 do not fit, and grouping cut them into nonsense.
 */
static char *fmt_grouped(char *buf, size_t len, double v)
{
	char digits[32];
	size_t n, j = 0;
	bool neg = v < 0;

	if (!isfinite(v) || fabs(v) >= 1e15) {
		snprintf(buf, len, isfinite(v) ? "%.3g" : "-", v);
		return buf;
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	n = strlen(digits);
	if (neg && j + 1 < len)
		buf[j++] = '-';
	for (size_t i = 0; i < n && j + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && j + 2 < len)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
	return buf;
}

char *report_fmt_value(char *buf, size_t len, enum report_metric m, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (m == RM_IOPS)
		return fmt_grouped(buf, len, v);
	if (m == RM_MBPS) {
		snprintf(buf, len, fabs(v) >= 1e15 ? "%.3g" : "%.1f", v);
		return buf;
	}
	/* milliseconds: two decimals from 1 ms up, three significant digits below */
	if (v >= 1000)
		fmt_grouped(buf, len, v);
	else if (v >= 1 || v == 0)
		snprintf(buf, len, "%.2f", v);
	else if (v >= 0.1)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

char *report_fmt_rating(char *buf, size_t len, enum report_metric m, const struct report_cell *c)
{
	char v[32], r[32];
	const char *unit = report_metric_info[m].unit;

	snprintf(buf, len, "%s %s against a rated %s (%.0f%%)",
		 report_fmt_value(v, sizeof(v), m, c->value), unit,
		 report_fmt_value(r, sizeof(r), m, c->rated), c->pct_of_rated);
	return buf;
}

void report_run_cpu(const struct report *rep, unsigned run, struct report_cpu *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned r = 0; r < rep->nrows; r++) {
		const struct result_step *st = rep->rows[r].steps[run];
		/* a mixed step's read and write rows share it: count it once */
		if (!st || !st->cpu.measured || rep->rows[r].dir != DIR_ALL)
			continue;
		const struct step_cpu *c = &st->cpu;
		double proc = c->proc_user_pct + c->proc_system_pct;
		double host = c->host_user_pct + c->host_system_pct;
		out->nmeasured++;
		if (proc > out->proc_max_pct || !out->proc_max_row) {
			out->proc_max_pct = proc;
			out->proc_max_row = rep->rows[r].name;
			out->proc_max_group = rep->groups[rep->rows[r].group].title;
		}
		if (host > out->host_busy_max_pct)
			out->host_busy_max_pct = host;
		if (c->host_iowait_pct > out->iowait_max_pct)
			out->iowait_max_pct = c->host_iowait_pct;
		out->nbound += result_step_warning(st, step_warning_code[SW_CPU_BOUND]) != NULL;
	}
}

char *report_fmt_cpu(char *buf, size_t len, const struct report_cpu *c)
{
	if (!c->nmeasured)
		return NULL;
	int n = snprintf(buf, len,
			 "drivebench up to %.0f%% of a CPU (%s %s), the host up to %.0f%% busy, "
			 "iowait up to %.0f%%",
			 c->proc_max_pct, c->proc_max_group, c->proc_max_row, c->host_busy_max_pct, c->iowait_max_pct);
	if (c->nbound && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %u step%s CPU-bound", c->nbound,
			 c->nbound == 1 ? "" : "s");
	return buf;
}

/* A precondition that writes the range in order without judging steady state: a fill. */
static bool is_fill(const struct result_phase *ph, const struct result_step *st)
{
	return ph->kind == PH_PRECONDITION && !ph->steady.used && st->wl.pattern == WL_SEQUENTIAL &&
	       st->wl.read_pct == 0;
}

char *report_step_what(char *buf, size_t len, const struct result_phase *ph,
		       const struct result_step *st)
{
	char wl[160], written[32];

	if (ph->kind == PH_PURGE) {
		text_fmt(buf, len, "purge: %s", st->label);
	} else if (is_fill(ph, st)) {
		uint64_t b = st->ramp.d[DIR_WRITE].bytes + st->summary.d[DIR_WRITE].bytes +
			     st->drain.d[DIR_WRITE].bytes;
		workload_describe(&st->wl, wl, sizeof(wl));
		text_fmt(buf, len, "fill: %s, %s written", wl,
			 units_fmt_capacity_compact(written, sizeof(written), b));
	} else if (ph->kind == PH_PRECONDITION) {
		workload_describe(&st->wl, wl, sizeof(wl));
		text_fmt(buf, len, "precondition: %s%s", wl,
			 ph->steady.used ? " until steady state" : "");
	} else {
		workload_describe(&st->wl, buf, len);
	}
	return buf;
}

char *report_phase_summary(char *buf, size_t len, const struct result_phase *ph)
{
	const struct steady_info *st = &ph->steady;
	char wl[160] = "", dur[32];
	uint64_t total_ns = 0;
	size_t used;

	for (unsigned i = 0; i < ph->nsteps; i++)
		total_ns += ph->steps[i].summary.dur_ns;
	units_fmt_duration(dur, sizeof(dur), total_ns);
	if (ph->kind == PH_PURGE) {
		/* its step is the method, and it has a time, not a workload */
		text_fmt(buf, len, "purge by %s, %s%s%s", ph->nsteps ? ph->steps[0].label : "?",
			 dur, ph->status != RS_COMPLETE ? " " : "",
			 ph->status != RS_COMPLETE ? result_status_name[ph->status] : "");
		return buf;
	}
	/* a precondition's name says what it is; a fill says so itself */
	if (ph->nsteps && is_fill(ph, &ph->steps[0]))
		report_step_what(wl, sizeof(wl), ph, &ph->steps[0]);
	else if (ph->nsteps)
		workload_describe(&ph->steps[0].wl, wl, sizeof(wl));
	/* a round of a steady phase may be many steps (SNIA's 56): count what ran of each */
	unsigned rounds = 0;
	if (st->used && ph->nsteps &&
	    sscanf(ph->steps[ph->nsteps - 1].label, "round %u", &rounds) != 1)
		rounds = ph->nsteps;
	if (st->used && rounds != ph->nsteps)
		used = (size_t)snprintf(buf, len, "%s%s%u %s (%u steps), %s measured", wl,
					wl[0] ? ", " : "", rounds, rounds == 1 ? "round" : "rounds",
					ph->nsteps, dur);
	else
		used = (size_t)snprintf(buf, len, "%s%s%u %s, %s measured", wl, wl[0] ? ", " : "",
					ph->nsteps,
					st->used ? (ph->nsteps == 1 ? "round" : "rounds")
						 : (ph->nsteps == 1 ? "step" : "steps"),
					dur);
	if (used >= len)
		return buf;
	if (st->used && st->fixed) {
		char first[64] = "";
		if (st->first_round && !st->reached)
			snprintf(first, sizeof(first), ", though steady first at round %u",
				 st->first_round);
		else if (st->first_round)
			snprintf(first, sizeof(first), ", first at round %u", st->first_round);
		snprintf(buf + used, len - used,
			 ", fixed length: %s at the last round%s (data excursion %.1f%% of %.0f%% "
			 "allowed, slope excursion %.1f%% of %.0f%%)",
			 st->reached ? "steady state" : "NOT steady", first, st->data_excursion_pct,
			 st->data_limit_pct, st->slope_excursion_pct, st->slope_limit_pct);
	} else if (st->used && st->reached && st->first_round && st->first_round < st->round)
		snprintf(buf + used, len - used,
			 ": steady state reached at round %u, first met at round %u before the "
			 "minimum time or volume (data excursion %.1f%% of %.0f%% allowed, slope "
			 "excursion %.1f%% of %.0f%%)",
			 st->round, st->first_round, st->data_excursion_pct, st->data_limit_pct,
			 st->slope_excursion_pct, st->slope_limit_pct);
	else if (st->used && st->reached)
		snprintf(buf + used, len - used,
			 ": steady state reached at round %u (data excursion %.1f%% of %.0f%% "
			 "allowed, slope excursion %.1f%% of %.0f%%)",
			 st->round, st->data_excursion_pct, st->data_limit_pct,
			 st->slope_excursion_pct, st->slope_limit_pct);
	else if (st->used)
		snprintf(
			buf + used, len - used,
			": steady state NOT reached in %u rounds (max %u; data excursion %.1f%% of "
			"%.0f%% allowed, slope excursion %.1f%% of %.0f%%)",
			st->round, st->max_rounds, st->data_excursion_pct, st->data_limit_pct,
			st->slope_excursion_pct, st->slope_limit_pct);
	if (ph->status != RS_COMPLETE) {
		used = strlen(buf);
		snprintf(buf + used, len - used, " [%s]", result_status_name[ph->status]);
	}
	return buf;
}

const struct steady_info *report_step_steady(const struct result *r, const struct result_step *st)
{
	const struct steady_info *last = NULL;

	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		bool here = ph->nsteps && st >= ph->steps && st < ph->steps + ph->nsteps;
		if (here && ph->steady.used)
			return &ph->steady;
		if (here)
			return last;
		if (ph->steady.used)
			last = &ph->steady;
	}
	return NULL;
}

int report_render(const struct report *rep, enum report_format f, char **out, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem;
	int ret;

	if ((unsigned)f >= RF_COUNT)
		return -EINVAL;
	mem = open_memstream(&buf, &n);
	if (!mem)
		return -errno;
	ret = report_renderer[f](rep, mem);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* ---- chart series ------------------------------------------------------------------ */

bool report_group_single(const struct report *rep, unsigned g)
{
	const struct report_group *grp = &rep->groups[g];
	unsigned n = 0;

	for (unsigned r = 0; r < grp->nrows; r++)
		n += rep->rows[grp->first_row + r].dir == DIR_ALL;
	return n == 1;
}

/* A row's first step: the workload all runs share in it. */
static const struct result_step *row_step(const struct report *rep, unsigned row)
{
	for (unsigned i = 0; i < rep->nruns; i++)
		if (rep->rows[row].steps[i])
			return rep->rows[row].steps[i];
	return NULL;
}

/* "4k random": what a bar set shares, the block size (or split) and the pattern. */
static void bars_key(char *buf, size_t len, const struct workload *wl)
{
	char bs[WL_MAX_SPLIT * 24];

	if (wl->nsplit)
		workload_fmt_bssplit(wl, bs, sizeof(bs));
	else
		units_fmt_size(bs, sizeof(bs), wl->bs);
	text_fmt(buf, len, "%s %s", bs, wl_pattern_name[wl->pattern]);
}

struct bar_row {
	char key[128];
	unsigned row;
};

static int cmp_bar_row(const void *a, const void *b)
{
	const struct bar_row *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int cmp_bar_set(const void *a, const void *b)
{
	const struct report_bars *x = a, *y = b;
	return (x->rows[0] > y->rows[0]) - (x->rows[0] < y->rows[0]);
}

int report_bars(const struct report *rep, struct report_bars **sets, unsigned *nsets)
{
	struct bar_row *br = malloc((rep->nrows ? rep->nrows : 1) * sizeof(*br));
	unsigned n = 0;

	*sets = NULL;
	*nsets = 0;
	if (!br)
		return -ENOMEM;
	for (unsigned g = 0; g < rep->ngroups; g++) {
		if (!report_group_single(rep, g))
			continue;
		const struct report_group *grp = &rep->groups[g];
		const struct result_step *st = row_step(rep, grp->first_row);
		for (unsigned r = 0; st && r < grp->nrows; r++) {
			bars_key(br[n].key, sizeof(br[n].key), &st->wl);
			br[n++].row = grp->first_row + r;
		}
	}
	/* sorted by key, the sets come out in one pass (linear after the sort) */
	qsort(br, n, sizeof(*br), cmp_bar_row);
	struct report_bars *out = calloc(n ? n : 1, sizeof(*out));
	unsigned ns = 0;
	int ret = out ? 0 : -ENOMEM;
	for (unsigned i = 0, j; i < n && !ret; i = j) {
		for (j = i; j < n && !strcmp(br[j].key, br[i].key); j++)
			;
		struct report_bars *b = &out[ns++];
		text_copy(b->title, sizeof(b->title), br[i].key);
		b->rows = malloc((j - i) * sizeof(*b->rows));
		b->cats = malloc((j - i) * sizeof(*b->cats));
		if (!b->rows || !b->cats) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned k = i; k < j; k++) {
			const struct report_row *row = &rep->rows[br[k].row];
			b->rows[b->ncats] = br[k].row;
			text_fmt(b->cats[b->ncats++], sizeof(b->cats[0]), "%s %s",
				 rep->groups[row->group].title, row->name);
		}
	}
	free(br);
	if (ret) {
		report_bars_free(out, ns);
		return ret;
	}
	if (ns > 1)
		qsort(out, ns, sizeof(*out), cmp_bar_set);
	*sets = out;
	*nsets = ns;
	return 0;
}

void report_bars_free(struct report_bars *sets, unsigned nsets)
{
	for (unsigned i = 0; sets && i < nsets; i++) {
		free(sets[i].rows);
		free(sets[i].cats);
	}
	free(sets);
}

int report_exceedance(const struct report *rep, unsigned row, unsigned run,
		      struct report_exceed *out)
{
	const struct result_step *st = rep->rows[row].steps[run];
	enum io_dir dir = rep->rows[row].dir;
	struct hist *h;
	uint64_t total = 0, seen = 0;

	memset(out, 0, sizeof(*out));
	if (!st || !st->hist)
		return 0;
	h = malloc(2 * sizeof(*h));
	if (!h)
		return -ENOMEM;
	result_step_get_hist(st, &h[0], &h[1]);
	/* the row's direction; a combined row adds writes to reads */
	if (dir == DIR_WRITE)
		h[0] = h[1];
	else if (dir == DIR_ALL)
		hist_merge(&h[0], &h[1]);
	unsigned nb = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		total += h[0].bucket[i];
		nb += h[0].bucket[i] != 0;
	}
	if (!total) {
		free(h);
		return 0;
	}
	out->nines = malloc((nb + 1) * sizeof(double));
	out->lat_ms = malloc((nb + 1) * sizeof(double));
	if (!out->nines || !out->lat_ms) {
		free(h);
		report_exceed_free(out);
		return -ENOMEM;
	}
	/* a point per bucket: the share of I/Os that took at least its latency */
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h[0].bucket[i])
			continue;
		out->nines[out->n] = -log10((double)(total - seen) / (double)total);
		out->lat_ms[out->n++] = (double)hist_bucket_value(i) / 1e6;
		seen += h[0].bucket[i];
	}
	/* and the slowest I/O, one in all of them: the curve's end */
	if (out->nines[out->n - 1] < log10((double)total)) {
		out->nines[out->n] = log10((double)total);
		out->lat_ms[out->n] = out->lat_ms[out->n - 1];
		out->n++;
	}
	free(h);
	return 0;
}

void report_exceed_free(struct report_exceed *e)
{
	free(e->nines);
	free(e->lat_ms);
	e->nines = e->lat_ms = NULL;
	e->n = 0;
}

/* ---- SNIA matrix ---------------------------------------------------------------- */

static int cmp_u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x < y) - (x > y);
}

/* The distinct values of v[0..n), sorted descending, in place; how many. */
static unsigned unique_desc(uint32_t *v, unsigned n)
{
	unsigned k = 0;

	qsort(v, n, sizeof(*v), cmp_u32_desc);
	for (unsigned i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* The position of x in v[0..n) sorted descending (x is there). */
static unsigned find_desc(const uint32_t *v, unsigned n, uint32_t x)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (v[mid] > x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A step of the matrix: fixed block size, random, no rate limit, the first one's T/Q. */
static bool matrix_step(const struct result_step *st, const struct result_step *first)
{
	return !st->wl.nsplit && !st->wl.rate_iops && st->wl.pattern == WL_RANDOM &&
	       (!first ||
		(st->wl.threads == first->wl.threads && st->wl.qdepth == first->wl.qdepth));
}

static bool measuring_phase(const struct result_phase *ph)
{
	return ph->kind == PH_MEASURE || ph->kind == PH_RUN;
}

/* A step's round, from its label ("round 7 4k 65/35"); 0 outside rounds. */
static unsigned step_round(const struct result_step *st)
{
	unsigned r = 0;
	return sscanf(st->label, "round %u", &r) == 1 ? r : 0;
}

void report_matrix_free(struct report_matrix *m)
{
	free(m->bs);
	free(m->mix);
	free(m->bs_names);
	free(m->iops);
	free(m->conv);
	memset(m, 0, sizeof(*m));
}

int report_matrix(const struct report *rep, unsigned run, struct report_matrix *m)
{
	const struct result *r = rep->runs[run].res;
	const struct result_phase *ph = NULL;
	unsigned n = result_nsteps(r), *cnt = NULL;

	memset(m, 0, sizeof(*m));
	m->bs = calloc(n + 1, sizeof(*m->bs));
	m->mix = calloc(n + 1, sizeof(*m->mix));
	if (!m->bs || !m->mix)
		goto oom;
	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned s = 0; measuring_phase(&r->phases[p]) && s < r->phases[p].nsteps;
		     s++) {
			const struct result_step *st = &r->phases[p].steps[s];
			/* the first phase with such steps is the matrix */
			if ((ph && ph != &r->phases[p]) || !matrix_step(st, m->first))
				continue;
			if (!m->first) {
				m->first = st;
				ph = m->phase = &r->phases[p];
			}
			m->bs[m->nbs++] = st->wl.bs;
			m->mix[m->nmix++] = st->wl.read_pct;
		}
	m->nbs = unique_desc(m->bs, m->nbs);
	m->nmix = unique_desc(m->mix, m->nmix);
	if (m->nbs < 2 || m->nmix < 2) {
		report_matrix_free(m);
		return 0;
	}
	/* the window: the phase's judged rounds, the last `window` of them */
	const struct steady_info *sd = &ph->steady;
	for (unsigned s = 0; s < ph->nsteps; s++)
		if (step_round(&ph->steps[s]) > m->nrounds)
			m->nrounds = step_round(&ph->steps[s]);
	if (sd->used && sd->round && sd->window) {
		m->last_round = sd->round;
		m->window_rounds = sd->window < sd->round ? sd->window : sd->round;
	}
	size_t cells = (size_t)m->nbs * m->nmix;
	m->iops = malloc(cells * sizeof(*m->iops));
	cnt = calloc(cells, sizeof(*cnt));
	m->bs_names = calloc(m->nbs, sizeof(*m->bs_names));
	m->conv = malloc(((size_t)m->nbs * m->nrounds + 1) * sizeof(*m->conv));
	if (!m->iops || !cnt || !m->bs_names || !m->conv)
		goto oom;
	for (size_t i = 0; i < cells; i++)
		m->iops[i] = NAN;
	for (size_t i = 0; i < (size_t)m->nbs * m->nrounds; i++)
		m->conv[i] = NAN;
	for (unsigned b = 0; b < m->nbs; b++)
		units_fmt_size(m->bs_names[b], sizeof(m->bs_names[b]), m->bs[b]);
	/* one pass over the phase's steps: window sums, or the last value, and convergence */
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct result_step *st = &ph->steps[s];
		if (!matrix_step(st, m->first) || !st->summary.d[DIR_ALL].ios)
			continue;
		unsigned b = find_desc(m->bs, m->nbs, st->wl.bs);
		unsigned c = find_desc(m->mix, m->nmix, st->wl.read_pct), rd = step_round(st);
		size_t i = (size_t)b * m->nmix + c;
		double v = st->summary.d[DIR_ALL].iops;
		if (rd && c == m->nmix - 1)
			m->conv[(size_t)b * m->nrounds + rd - 1] = v;
		if (!m->window_rounds) {
			m->iops[i] = v; /* the last one measured */
		} else if (rd + m->window_rounds > m->last_round && rd <= m->last_round) {
			m->iops[i] = cnt[i] ? m->iops[i] + v : v;
			cnt[i]++;
		}
	}
	for (size_t i = 0; i < cells && m->window_rounds; i++)
		if (cnt[i])
			m->iops[i] /= cnt[i];
	free(cnt);
	report_phase_summary(m->verdict, sizeof(m->verdict), ph);
	return 0;
oom:
	free(cnt);
	report_matrix_free(m);
	return -ENOMEM;
}

bool report_matrix_covers(const struct report_matrix *m, const struct result_step *st)
{
	return m->nbs && st && st >= m->phase->steps && st < m->phase->steps + m->phase->nsteps &&
	       matrix_step(st, m->first);
}

/* ---- preconditioning over time --------------------------------------------------- */

/* How many chart points a run's preconditioning has: a sample each, or a round's summary. */
unsigned report_precondition_count(const struct result *r)
{
	unsigned n = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned s = 0;
		     r->phases[p].kind == PH_PRECONDITION && s < r->phases[p].nsteps; s++)
			n += r->phases[p].steps[s].nsamples ? r->phases[p].steps[s].nsamples : 1;
	return n;
}

/*
 * Points of a run's preconditioning, every interval sample on one time line: t_s[] in
 * seconds and, for each metric in mask, v[m][]. One pass over the (packed) samples.
 */
void report_precondition_points(const struct result *r, unsigned mask, double *t_s,
				double *v[RM_COUNT], unsigned max)
{
	uint64_t offset_ns = 0;
	unsigned n = 0;

	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		if (ph->kind != PH_PRECONDITION)
			continue;
		for (unsigned s = 0; s < ph->nsteps && n < max; s++) {
			const struct result_step *st = &ph->steps[s];
			uint64_t end_ns = st->summary.dur_ns;
			struct sample_iter it;
			struct sample sm;
			sample_iter_init(&it, st);
			while (n < max && sample_iter_next(&it, &sm)) {
				t_s[n] = (double)(offset_ns + sm.start_ns + sm.dur_ns) / 1e9;
				for (unsigned m = 0; m < RM_COUNT; m++)
					if (mask & (1u << m))
						v[m][n] = sm.d[DIR_ALL].ios
								  ? report_metric_value(
									    (enum report_metric)m,
									    &sm.d[DIR_ALL])
								  : NAN;
				n++;
				if (sm.start_ns + sm.dur_ns > end_ns)
					end_ns = sm.start_ns + sm.dur_ns;
			}
			if (!st->nsamples && n < max) {
				/* a round without interval samples: its summary as one point */
				t_s[n] = (double)(offset_ns + st->summary.dur_ns) / 1e9;
				for (unsigned m = 0; m < RM_COUNT; m++)
					if (mask & (1u << m))
						v[m][n] = report_metric_value(
							(enum report_metric)m,
							&st->summary.d[DIR_ALL]);
				n++;
			}
			offset_ns += end_ns;
		}
	}
}

