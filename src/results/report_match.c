// SPDX-License-Identifier: GPL-2.0-or-later
/* Matching steps across runs, and naming their groups and curves (see report_match.h). */
#include "report_match.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "text.h"
#include "units.h"

/* Same workload apart from threads, queue depth and rate: the same ladder or curve. */
bool report_same_group(const struct workload *a, const struct workload *b)
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

static bool same_shape(const struct workload *a, const struct workload *b)
{
	return report_same_group(a, b) && a->threads == b->threads && a->qdepth == b->qdepth;
}

/*
 * A step of a preset's [stream] sections: its streams are what it ran, its own workload
 * only the preset's defaults. One stream per target of a run on several targets, each
 * the step's workload, is not: the step's workload says what it ran.
 */
bool report_named_streams(const struct result_step *st)
{
	for (unsigned k = 0; k < st->nstreams; k++)
		if (!same_shape(&st->streams[k].wl, &st->wl))
			return true;
	return false;
}

/*
 * Same streams, paired by name in whatever order, each pair of one workload and share:
 * the same curve of a preset's streams. A stream only one of them has does not make
 * them different steps (compare notes it as not in every run); a stream of the same
 * name that ran something else does (db-sql's curves share their streams' names).
 */
bool report_same_streams(const struct result_step *a, const struct result_step *b)
{
	unsigned common = 0;

	if (report_named_streams(a) != report_named_streams(b))
		return false;
	if (!report_named_streams(a))
		return true;
	for (unsigned k = 0; k < a->nstreams; k++)
		for (unsigned j = 0; j < b->nstreams; j++) {
			if (strcmp(a->streams[k].label, b->streams[j].label))
				continue;
			if (!same_shape(&a->streams[k].wl, &b->streams[j].wl) ||
			    a->streams[k].share_pct != b->streams[j].share_pct)
				return false;
			common++;
		}
	return common > 0;
}

bool report_is_mark(const struct result_warning *w)
{
	return !strcmp(w->code, step_warning_code[SW_GROUP_MIXED]) ||
	       !strcmp(w->code, step_warning_code[SW_BS_VARIED]);
}

/* Does every mark of a appear in b? */
static bool marks_in(const struct result_step *a, const struct result_step *b)
{
	for (unsigned i = 0; i < a->nwarnings; i++) {
		const struct result_warning *w = &a->warnings[i];
		bool found = false;
		if (!report_is_mark(w))
			continue;
		for (unsigned j = 0; j < b->nwarnings && !found; j++)
			found = !strcmp(w->code, b->warnings[j].code) &&
				!strcmp(w->text, b->warnings[j].text);
		if (!found)
			return false;
	}
	return true;
}

bool report_same_marks(const struct result_step *a, const struct result_step *b)
{
	return marks_in(a, b) && marks_in(b, a);
}

uint64_t report_marks_hash(const struct result_step *st)
{
	uint64_t h = 0;

	for (unsigned i = 0; i < st->nwarnings; i++) {
		const struct result_warning *w = &st->warnings[i];
		uint64_t one = 0;
		if (!report_is_mark(w))
			continue;
		for (const char *c = w->code; *c; c++)
			one = report_mix(one, (unsigned char)*c);
		for (const char *c = w->text; *c; c++)
			one = report_mix(one, (unsigned char)*c);
		h += one; /* in any order */
	}
	return h;
}

bool report_same_step(const struct result_step *a, const struct result_step *b)
{
	return same_shape(&a->wl, &b->wl) && rate_key(a) == rate_key(b) &&
	       report_same_streams(a, b) && report_same_marks(a, b);
}

/*
 * Lookups by workload go through hash tables, so matching is linear in the steps: with
 * 10000 steps a run (the limit), pairwise comparison was 10^8 per pair of runs.
 */
uint64_t report_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

/* What report_same_group() compares, and then what report_same_step() adds. */
uint64_t report_group_hash(const struct workload *wl)
{
	uint64_t h = report_mix(
		report_mix(report_mix(report_mix(0, wl->pattern), wl->read_pct), wl->nsplit),
		wl->dist);

	if (!wl->nsplit)
		return report_mix(h, wl->bs);
	for (unsigned i = 0; i < wl->nsplit; i++)
		h = report_mix(report_mix(h, wl->split[i].bs), wl->split[i].pct);
	return h;
}

/*
 * What report_same_streams() compares, bar the names and the shares: the streams'
 * workloads, in any order (a sum), since streams pair by name whatever their order and
 * a stream only one run has does not part two steps.
 */
uint64_t report_streams_hash(const struct result_step *st)
{
	uint64_t h = 0;

	if (!report_named_streams(st))
		return 0;
	for (unsigned k = 0; k < st->nstreams; k++) {
		const struct workload *wl = &st->streams[k].wl;
		h += report_mix(report_mix(report_mix(0, report_group_hash(wl)), wl->threads),
				wl->qdepth);
	}
	return h;
}

uint64_t report_step_hash(const struct result_step *st, unsigned occurrence)
{
	const struct workload *wl = &st->wl;

	return report_mix(
		report_mix(report_mix(report_mix(report_mix(report_group_hash(wl), wl->threads),
						 wl->qdepth),
				      rate_key(st)),
			   report_mix(report_streams_hash(st), report_marks_hash(st))),
		occurrence);
}

/* "8k 70/30 random": the workload without threads, queue depth and rate. */
char *report_group_title(char *buf, size_t len, const struct workload *wl)
{
	char bs[WL_MAX_SPLIT * 24], mix[32];

	if (wl->nsplit) {
		char split[WL_MAX_SPLIT * 24];
		snprintf(bs, sizeof(bs), "bssplit %s",
			 workload_fmt_bssplit(wl, split, sizeof(split)));
	} else if (!wl->bs) {
		snprintf(bs, sizeof(bs), "bs ?"); /* an import's sizes of no one workload */
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

bool report_curve_title(char *buf, size_t len, const struct result_phase *ph,
			const struct result_step *st)
{
	char tq[32];

	if (report_named_streams(st) && ph->name[0]) {
		text_copy(buf, len, ph->name);
		return true;
	}
	report_group_title(buf, len > 32 ? len - 32 : len, &st->wl);
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, " %s", workload_tq(&st->wl, tq, sizeof(tq)));
	return false;
}
