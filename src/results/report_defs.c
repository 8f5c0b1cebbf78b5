// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a comparison's tables compare like with like: the measurement definitions
 * (step_def.h) of the steps each table puts side by side. A group whose steps differ
 * in a field that makes steps incomparable carries the fields (bits) and a note saying
 * how each run's steps were measured; every renderer marks its tables with the codes
 * ("not-comparable:scale"), and report_build() with --strict refuses the comparison.
 * A field of percentiles alone (step_def_scope) marks only the tables and charts of
 * percentiles: steps whose percentiles are of other latency kinds have comparable IOPS.
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Append s to buf (len bytes, used so far *used), cut when it does not fit. */
static void put(char *buf, size_t len, size_t *used, const char *s)
{
	if (*used + 1 >= len)
		return;
	*used += text_copy(buf + *used, len - *used, s);
	if (*used >= len)
		*used = len - 1;
}

/*
 * The bits of the incomparable fields in which two steps of group g differ. Per field,
 * every step is held against the first that knows it: two known values that differ make
 * one of them differ from that first one, so one pass finds what comparing every pair
 * would (a group of 10,000 rows compares in linear time).
 */
static unsigned group_differ(const struct report *rep, const struct report_group *g)
{
	const struct step_def *first[SD_COUNT] = {0};
	unsigned bits = 0;

	for (unsigned r = g->first_row; r < g->first_row + g->nrows; r++)
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct step_def *d = &rep->rows[r].steps[i]->def;
			for (unsigned f = 0; f < SD_COUNT; f++) {
				char v[160];
				if (!step_def_info[f].incomparable || (bits & (1u << f)))
					continue;
				if (!first[f] && step_def_text(d, (enum step_def_field)f, v, sizeof(v))[0])
					first[f] = d;
				else if (first[f] && step_def_differs(first[f], d, (enum step_def_field)f))
					bits |= 1u << f;
			}
		}
	return bits;
}

/* Run i's values of field f over group g, distinct, "/" between: "busy-poll/interrupt". */
static void run_values(const struct report *rep, const struct report_group *g, unsigned i,
		       enum step_def_field f, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned r = g->first_row; r < g->first_row + g->nrows; r++) {
		char v[160], *at;
		step_def_text(&rep->rows[r].steps[i]->def, f, v, sizeof(v));
		if (!v[0])
			text_copy(v, sizeof(v), "unknown");
		at = strstr(buf, v);
		if (at && (at == buf || at[-1] == '/') && (at[strlen(v)] == '/' || !at[strlen(v)]))
			continue;
		if (used)
			put(buf, len, &used, "/");
		put(buf, len, &used, v);
	}
}

/* "scale: run A 0.01, run B 0.02; wait: ..." for the fields in bits. */
static char *differ_note(const struct report *rep, const struct report_group *g, unsigned bits)
{
	char buf[2048], v[512];
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned f = 0; f < SD_COUNT; f++) {
		if (!(bits & (1u << f)))
			continue;
		if (used)
			put(buf, sizeof(buf), &used, "; ");
		put(buf, sizeof(buf), &used, step_def_info[f].key);
		for (unsigned i = 0; i < rep->nruns; i++) {
			put(buf, sizeof(buf), &used, i ? ", " : ": ");
			put(buf, sizeof(buf), &used, rep->runs[i].label);
			put(buf, sizeof(buf), &used, " ");
			run_values(rep, g, i, (enum step_def_field)f, v, sizeof(v));
			put(buf, sizeof(buf), &used, v);
		}
	}
	return strdup(buf);
}

/* The fields a difference in which makes tables of every metric incomparable, as bits. */
static unsigned every_table(void)
{
	unsigned bits = 0;

	for (unsigned f = 0; f < SD_COUNT; f++)
		if (step_def_info[f].incomparable == SDS_ALL)
			bits |= 1u << f;
	return bits;
}

int report_check_defs(struct report *rep)
{
	for (unsigned gi = 0; gi < rep->ngroups; gi++) {
		struct report_group *g = &rep->groups[gi];
		g->differ_pct = group_differ(rep, g);
		g->differ = g->differ_pct & every_table();
		if (g->differ && !(g->differ_note = differ_note(rep, g, g->differ)))
			return -ENOMEM;
		if (g->differ_pct && !(g->differ_pct_note = differ_note(rep, g, g->differ_pct)))
			return -ENOMEM;
	}
	return 0;
}

unsigned report_differ(const struct report *rep, unsigned g, unsigned metric_mask,
		       const char **note)
{
	const struct report_group *grp = &rep->groups[g];
	bool pct = metric_mask & REPORT_PCT_METRICS;

	if (note)
		*note = pct ? grp->differ_pct_note : grp->differ_note;
	return pct ? grp->differ_pct : grp->differ;
}

char *report_differ_codes(char *buf, size_t len, unsigned bits, const char *sep)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned f = 0; f < SD_COUNT; f++) {
		bool seen = false;
		if (!(bits & (1u << f)))
			continue;
		/* fields that share a code (lbs, pbs: sector) name it once */
		for (unsigned e = 0; e < f; e++)
			seen |= (bits & (1u << e)) && !strcmp(step_def_info[e].code,
							      step_def_info[f].code);
		if (seen)
			continue;
		if (used)
			put(buf, len, &used, sep);
		put(buf, len, &used, STEP_DEF_MARK);
		put(buf, len, &used, step_def_info[f].code);
	}
	return buf;
}
