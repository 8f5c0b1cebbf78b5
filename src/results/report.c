// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison model: which steps the runs share, how runs are named, tables of one
 * metric, and number formatting. The series charts draw from are built in
 * report_series.c, values and phases put into words in report_fmt.c; renderers live in
 * report_*.c and only format.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grow.h"
#include "hist.h"
#include "report_match.h"
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
			for (h = report_step_hash(ref->step, 0) & last.mask; last.slot[h];
			     h = (h + 1) & last.mask) {
				const struct step_ref *prev = &rr->refs[last.slot[h] - 1];
				if (report_same_step(prev->step, ref->step)) {
					ref->occurrence = prev->occurrence + 1;
					break;
				}
			}
			last.slot[h] = k + 1;
			for (h = report_step_hash(ref->step, ref->occurrence) & rr->by_step.mask;
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
	for (size_t h = report_step_hash(want->step, want->occurrence) & rr->by_step.mask;
	     rr->by_step.slot[h]; h = (h + 1) & rr->by_step.mask) {
		struct step_ref *ref = &rr->refs[rr->by_step.slot[h] - 1];
		if (ref->occurrence == want->occurrence && report_same_step(ref->step, want->step))
			return ref;
	}
	return NULL;
}

static bool mixed(const struct workload *wl)
{
	return wl->read_pct > 0 && wl->read_pct < 100;
}

static const char *const dir_suffix[NDIR] = {
	[DIR_READ] = " read",
	[DIR_WRITE] = " write",
	[DIR_ALL] = "",
};

/*
 * "1T32Q @ 10% of max"; a step of a preset's streams, whose group is named after its
 * phase and whose threads and queue depth are its streams', by its label ("max") or rate.
 */
static void step_name(char *buf, size_t len, const struct step_ref *ref, enum io_dir dir)
{
	char tq[32], rate[48] = "", occ[16] = "";

	workload_tq(&ref->step->wl, tq, sizeof(tq));
	if (report_named_streams(ref->step)) {
		tq[0] = '\0';
		if (ref->step->rate_pct > 0)
			snprintf(rate, sizeof(rate), "%g%% of max", ref->step->rate_pct);
		else if (ref->step->wl.rate_iops)
			snprintf(rate, sizeof(rate), "%llu IOPS",
				 (unsigned long long)ref->step->wl.rate_iops);
		else
			text_copy(rate, sizeof(rate), ref->step->label);
	} else if (ref->step->rate_pct > 0)
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
	/* a run on several targets at once: how many (its drive is the first target's) */
	for (unsigned i = 0; i < rep->nruns; i++) {
		size_t l = strlen(rep->runs[i].label), n = result_ntargets(rep->runs[i].res);
		if (n > 1)
			snprintf(rep->runs[i].label + l, sizeof(rep->runs[i].label) - l,
				 ", %zu targets", n);
	}
}

/* A row named name (the stream's name: a stream row), each run's step or stream in steps. */
static int add_named_row(struct report *rep, unsigned group, const char *name, enum io_dir dir,
			 const struct result_step **steps, const char *stream)
{
	/* the capacity implied by the count (a power of two from 16 on) */
	if (GROW_POW2(rep->rows, rep->nrows, 16))
		return -ENOMEM;
	struct report_row *row = &rep->rows[rep->nrows];
	memset(row, 0, sizeof(*row));
	row->group = group;
	row->dir = dir;
	row->stream = stream;
	text_copy(row->name, sizeof(row->name), name);
	row->steps = malloc(rep->nruns * sizeof(*row->steps));
	if (!row->steps)
		return -ENOMEM;
	memcpy(row->steps, steps, rep->nruns * sizeof(*row->steps));
	rep->nrows++;
	return 0;
}

static int add_row(struct report *rep, unsigned group, const struct step_ref *ref, enum io_dir dir,
		   const struct result_step **steps)
{
	char name[sizeof(rep->rows[0].name)];

	step_name(name, sizeof(name), ref, dir);
	return add_named_row(rep, group, name, dir, steps, NULL);
}

/* The stream of st named name, or NULL. */
static const struct result_step *find_stream(const struct result_step *st, const char *name)
{
	for (unsigned k = 0; k < st->nstreams; k++)
		if (!strcmp(st->streams[k].label, name))
			return &st->streams[k];
	return NULL;
}

/*
 * Under a step's rows, a row per stream of run 0's step that every run's step has (by
 * name): "2T2Q / reader". Streams not every run has are noted.
 */
static int add_stream_rows(struct report *rep, unsigned group, const struct step_ref *ref,
			   const struct result_step **steps)
{
	const struct result_step **sst = malloc(rep->nruns * sizeof(*sst));
	char step[sizeof(rep->rows[0].name)], name[sizeof(rep->rows[0].name)];
	int ret = sst ? 0 : -ENOMEM;

	step_name(step, sizeof(step), ref, DIR_ALL);
	for (unsigned k = 0; k < steps[0]->nstreams && !ret; k++) {
		const char *sname = steps[0]->streams[k].label;
		unsigned r;
		for (r = 0; r < rep->nruns; r++)
			if (!(sst[r] = find_stream(steps[r], sname)))
				break;
		if (r < rep->nruns) {
			ret = note(rep, "%s %s: stream \"%s\" is not in every run, not compared",
				   group < rep->ngroups ? rep->groups[group].title : "", step, sname);
			continue;
		}
		snprintf(name, sizeof(name), "%s / %s", step, sname);
		ret = add_named_row(rep, group, name, DIR_ALL, sst, sname);
	}
	free(sst);
	return ret;
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
			  : spec_load_default(o->settings, &rep->specs, err, errlen);
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

/* The group of ref's workload, added when it is new; its index, or -ENOMEM. */
static int find_group(struct report *rep, struct index *groups, const struct step_ref *ref)
{
	size_t h;
	unsigned g = rep->ngroups;

	uint64_t key = report_mix(
		report_mix(report_group_hash(&ref->step->wl), report_streams_hash(ref->step)),
		report_marks_hash(ref->step));

	for (h = key & groups->mask; groups->slot[h]; h = (h + 1) & groups->mask) {
		unsigned cand = groups->slot[h] - 1;
		const struct result_step *first = rep->rows[rep->groups[cand].first_row].steps[0];
		if (report_same_group(&first->wl, &ref->step->wl) &&
		    report_same_streams(first, ref->step) && report_same_marks(first, ref->step))
			return (int)cand;
	}
	if (GROW_POW2(rep->groups, g, 16)) /* as for rows */
		return -ENOMEM;
	struct report_group *p = rep->groups;
	memset(&p[g], 0, sizeof(p[g]));
	/* a preset's streams make a curve named as the preset names it: "sql 90-10" */
	if (report_named_streams(ref->step) && ref->phase->name[0])
		text_copy(p[g].title, sizeof(p[g].title), ref->phase->name);
	else
		report_group_title(p[g].title, sizeof(p[g].title), &ref->step->wl);
	/* a workload that is not what the step ran says so: "64k 0/100 random [group-mixed]" */
	for (unsigned w = 0; w < ref->step->nwarnings; w++) {
		size_t used = strlen(p[g].title);
		if (report_is_mark(&ref->step->warnings[w]))
			snprintf(p[g].title + used, sizeof(p[g].title) - used, " [%s]",
				 ref->step->warnings[w].code);
	}
	p[g].first_row = rep->nrows; /* provisional: fixed after sorting */
	rep->ngroups++;
	groups->slot[h] = g + 1;
	return (int)g;
}

/* Run 0's step ref, when every run has it: its rows (and its streams'). 0 or -ENOMEM. */
static int add_ref_rows(struct report *rep, struct run_refs *rr, struct index *groups,
			struct step_ref *ref, const struct result_step **steps)
{
	steps[0] = ref->step;
	for (unsigned r = 1; r < rep->nruns; r++) {
		struct step_ref *other = find_ref(&rr[r], ref);
		if (!other)
			return 0;
		steps[r] = other->step;
	}
	for (unsigned r = 1; r < rep->nruns; r++)
		find_ref(&rr[r], ref)->shared = true;
	ref->shared = true;

	int g = find_group(rep, groups, ref);
	if (g < 0)
		return g;
	if (add_row(rep, (unsigned)g, ref, DIR_ALL, steps))
		return -ENOMEM;
	if (mixed(&ref->step->wl) && (add_row(rep, (unsigned)g, ref, DIR_READ, steps) ||
				      add_row(rep, (unsigned)g, ref, DIR_WRITE, steps)))
		return -ENOMEM;
	return add_stream_rows(rep, (unsigned)g, ref, steps);
}

/* Rows of one group together, in first-use order within it (a counting sort). */
static int sort_rows(struct report *rep)
{
	struct report_row *sorted = malloc((rep->nrows ? rep->nrows : 1) * sizeof(*sorted));
	unsigned *next = calloc(rep->ngroups + 1, sizeof(*next));

	if (!sorted || !next) {
		free(sorted);
		free(next);
		return -ENOMEM;
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
	return 0;
}

static int add_notes(struct report *rep, const struct run_refs *rr)
{
	char codes[256];

	if (note_presets(rep) || report_check_defs(rep))
		return -ENOMEM;
	for (unsigned g = 0; g < rep->ngroups; g++) {
		const char *how;
		unsigned unknown, bits = report_differ(rep, g, rep->metric_mask, &unknown, &how);
		if ((bits || unknown) &&
		    note(rep, "%s: %s: %s", rep->groups[g].title,
			 report_differ_codes(codes, sizeof(codes), bits, unknown, " "), how))
			return -ENOMEM;
	}
	/* 4K-sector targets: what a run's mix folded (step_def.h, bs_folded), once a group */
	for (unsigned g = 0; g < rep->ngroups; g++)
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct step_def *d = &rep->rows[rep->groups[g].first_row].steps[i]->def;
			if (d->bs_folded[0] &&
			    note(rep, "%s, %s: block sizes %s, the target's logical block size "
				      "(bs-folded)", rep->runs[i].label, rep->groups[g].title,
				 d->bs_folded))
				return -ENOMEM;
		}
	/* ... and the steps of a block size they cannot take (plan_fit_target) */
	for (unsigned i = 0; i < rep->nruns; i++)
		for (unsigned p = 0; p < rep->runs[i].res->nphases; p++) {
			const struct result_phase *ph = &rep->runs[i].res->phases[p];
			if (ph->skipped[0] && note(rep, "%s, %s: not run on the target: %s",
						   rep->runs[i].label, ph->name, ph->skipped))
				return -ENOMEM;
		}
	if (!rep->nrows && note(rep, "The runs share no measured steps: there is nothing to put "
				     "side by side."))
		return -ENOMEM;
	if (note_warnings(rep))
		return -ENOMEM;
	for (unsigned r = 0; r < rep->nruns; r++) {
		const struct result *res = rep->runs[r].res;
		if (note_unshared(rep, r, rr[r].refs, rr[r].n))
			return -ENOMEM;
		if (res->status != RS_COMPLETE &&
		    note(rep, "%s: the run is %s%s%s", rep->runs[r].label,
			 result_status_name[res->status], res->error[0] ? ": " : "", res->error))
			return -ENOMEM;
		/* a step the run died in keeps its figures so far (an autosave's), as one
		   stopped (aborted) or ended by an error (failed) does */
		for (unsigned p = 0; p < res->nphases; p++)
			for (unsigned s = 0; s < res->phases[p].nsteps; s++) {
				const struct result_step *st = &res->phases[p].steps[s];
				if (st->status != RS_COMPLETE && st->status != RS_PENDING &&
				    st->summary.dur_ns &&
				    note(rep,
					 "%s: step %s (%s) %s: its figures are over the %.1f s it "
					 "measured",
					 rep->runs[r].label, st->label, res->phases[p].name,
					 st->status == RS_ABORTED  ? "was aborted"
					 : st->status == RS_FAILED ? "failed"
								   : "was cut short",
					 (double)st->summary.dur_ns / 1e9))
					return -ENOMEM;
			}
	}
	return 0;
}

/* --strict: the groups whose steps are not comparable, named in err. -EDOM, or 0 none. */
static int refuse_incomparable(const struct report *rep, char *err, size_t errlen)
{
	size_t used = 0;
	char codes[256];

	for (unsigned g = 0; g < rep->ngroups && used < errlen; g++) {
		const char *how;
		unsigned bits = report_differ(rep, g, rep->metric_mask, NULL, &how);
		if (bits)
			used += (size_t)snprintf(
				err + used, errlen - used, "%s%s: %s: %s",
				used ? "; " : "not comparable (--strict): ", rep->groups[g].title,
				report_differ_codes(codes, sizeof(codes), bits, 0, " "), how);
	}
	return used ? -EDOM : 0;
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
	for (unsigned i = 0; i < rr[0].n; i++)
		if (add_ref_rows(rep, rr, &groups, &rr[0].refs[i], steps))
			goto fail_nomem;
	if (sort_rows(rep) || add_notes(rep, rr))
		goto fail_nomem;
	ret = load_specs(rep, o, err, errlen);
	if (ret || (o->strict && (ret = refuse_incomparable(rep, err, errlen))))
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
	for (unsigned g = 0; g < rep->ngroups; g++) {
		free(rep->groups[g].differ_note);
		free(rep->groups[g].differ_pct_note);
	}
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
	c.value = report_metric_value(m, d);
	/* a percentile of I/Os that is 0 is one the step does not know (fio's plain json) */
	if ((m == RM_P99 || m == RM_P999 || m == RM_P9999) && c.value <= 0)
		return (struct report_cell){0};
	c.present = true;
	c.warned = s->nwarnings > 0;
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
	t->differ = report_differ(rep, g, 1u << m, &t->unknown, &t->differ_note);
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
