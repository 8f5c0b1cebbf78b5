// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a comparison's tables compare like with like: the measurement definitions
 * (step_def.h) of the steps each table puts side by side. A group whose steps differ
 * in a field that makes steps incomparable carries the fields (bits) and a note saying
 * how each run's steps were measured; every renderer marks its tables with the codes
 * ("not-comparable:scale"), and report_build() with --strict refuses the comparison.
 * A field of percentiles alone (step_def_scope) marks only the tables and charts of
 * percentiles: steps whose percentiles are of other latency kinds have comparable IOPS.
 * A field that some steps know and others do not is marked too ("not-known:scale"),
 * in the tables of its scope, and not refused: nothing says the steps differ, and
 * nothing says they do not.
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
 * Hold d against first[], per incomparable field not in bits the first step that knows
 * it (d becomes it when none does yet): the bits of the fields in which they differ.
 */
static unsigned against(const struct step_def **first, const struct step_def *d, unsigned bits)
{
	unsigned differ = 0;

	for (unsigned f = 0; f < SD_COUNT; f++) {
		char v[256];
		if (!step_def_info[f].incomparable || (bits & (1u << f)))
			continue;
		if (!first[f] && step_def_text(d, (enum step_def_field)f, v, sizeof(v))[0])
			first[f] = d;
		else if (first[f] && step_def_differs(first[f], d, (enum step_def_field)f))
			differ |= 1u << f;
	}
	return differ;
}

/*
 * The bits of the incomparable fields in which two steps of group g differ. Per field,
 * every step is held against the first that knows it: two known values that differ make
 * one of them differ from that first one, so one pass finds what comparing every pair
 * would (a group of 10,000 rows compares in linear time). A stream row is held against
 * its own row alone: the streams of a step on several targets ran on targets of their
 * own, whose sector sizes may differ; what the table compares is each across the runs.
 */
static unsigned group_differ(const struct report *rep, const struct report_group *g)
{
	const struct step_def *first[SD_COUNT] = {0};
	unsigned bits = 0;

	for (unsigned r = g->first_row; r < g->first_row + g->nrows; r++) {
		const struct step_def *row_first[SD_COUNT] = {0};
		for (unsigned i = 0; i < rep->nruns; i++)
			bits |= against(rep->rows[r].stream ? row_first : first,
					&rep->rows[r].steps[i]->def, bits);
	}
	return bits;
}

/*
 * The bits of the incomparable fields that some steps of group g know and others do not
 * (an import's scale and sector sizes). Only steps with a recorded definition count: a
 * result from before definitions knows no field, and compares as it always did. A step
 * that knows a field of the same code knows the field: one on targets of several sizes
 * has no lbs or pbs, but its sectors say them. Every row counts, stream rows too:
 * unlike their values, whether a step's streams know a field does not vary by design.
 */
static unsigned group_unknown(const struct report *rep, const struct report_group *g)
{
	unsigned known = 0, unknown = 0, code[SD_COUNT] = {0};

	for (unsigned f = 0; f < SD_COUNT; f++)
		for (unsigned e = 0; e < SD_COUNT; e++)
			if (step_def_info[e].incomparable &&
			    !strcmp(step_def_info[e].code, step_def_info[f].code))
				code[f] |= 1u << e;
	for (unsigned r = g->first_row; r < g->first_row + g->nrows; r++)
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct step_def *d = &rep->rows[r].steps[i]->def;
			unsigned has = 0;
			if (!step_def_known(d))
				continue;
			for (unsigned f = 0; f < SD_COUNT; f++) {
				char v[256];
				if (step_def_info[f].incomparable &&
				    step_def_text(d, (enum step_def_field)f, v, sizeof(v))[0])
					has |= 1u << f;
			}
			known |= has;
			for (unsigned f = 0; f < SD_COUNT; f++)
				if (step_def_info[f].incomparable && !(has & code[f]))
					unknown |= 1u << f;
		}
	return known & unknown;
}

#define VALUES_SEP " or " /* between a run's values of a field ("512/512+4096/4096" has '/') */

/* Is v one of the values in list, VALUES_SEP between them? */
static bool listed(const char *list, const char *v)
{
	size_t n = strlen(v), len;

	for (const char *at = list, *end; *at; at = end + strlen(VALUES_SEP)) {
		end = strstr(at, VALUES_SEP);
		len = end ? (size_t)(end - at) : strlen(at);
		if (len == n && !strncmp(at, v, n))
			return true;
		if (!end)
			break;
	}
	return false;
}

/*
 * Run i's values of field f over group g, distinct, VALUES_SEP between ("busy-poll or
 * interrupt"): of its steps' rows, and with streams of its stream rows too. Returns buf.
 */
static char *run_values(const struct report *rep, const struct report_group *g, unsigned i,
			enum step_def_field f, bool streams, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned r = g->first_row; r < g->first_row + g->nrows; r++) {
		char v[256];
		if (rep->rows[r].stream && !streams)
			continue;
		step_def_text(&rep->rows[r].steps[i]->def, f, v, sizeof(v));
		if (!v[0])
			text_copy(v, sizeof(v), "unknown");
		if (listed(buf, v))
			continue;
		if (used)
			put(buf, len, &used, VALUES_SEP);
		put(buf, len, &used, v);
	}
	return buf;
}

/* Do the steps' rows alone show how the runs differ in field f (else their streams do)? */
static bool steps_show(const struct report *rep, const struct report_group *g,
		       enum step_def_field f)
{
	char first[512], v[512];

	run_values(rep, g, 0, f, false, first, sizeof(first));
	for (unsigned i = 1; i < rep->nruns; i++)
		if (strcmp(first, run_values(rep, g, i, f, false, v, sizeof(v))))
			return true;
	return false;
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
		bool streams = !steps_show(rep, g, (enum step_def_field)f);
		for (unsigned i = 0; i < rep->nruns; i++) {
			put(buf, sizeof(buf), &used, i ? ", " : ": ");
			put(buf, sizeof(buf), &used, rep->runs[i].label);
			put(buf, sizeof(buf), &used, " ");
			run_values(rep, g, i, (enum step_def_field)f, streams, v, sizeof(v));
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
		g->unknown_pct = group_unknown(rep, g);
		g->unknown = g->unknown_pct & every_table();
		if ((g->differ || g->unknown) &&
		    !(g->differ_note = differ_note(rep, g, g->differ | g->unknown)))
			return -ENOMEM;
		if ((g->differ_pct || g->unknown_pct) &&
		    !(g->differ_pct_note = differ_note(rep, g, g->differ_pct | g->unknown_pct)))
			return -ENOMEM;
	}
	return 0;
}

unsigned report_differ(const struct report *rep, unsigned g, unsigned metric_mask,
		       unsigned *unknown, const char **note)
{
	const struct report_group *grp = &rep->groups[g];
	bool pct = metric_mask & REPORT_PCT_METRICS;

	if (unknown)
		*unknown = pct ? grp->unknown_pct : grp->unknown;
	if (note)
		*note = pct ? grp->differ_pct_note : grp->differ_note;
	return pct ? grp->differ_pct : grp->differ;
}

char *report_differ_codes(char *buf, size_t len, unsigned differ, unsigned unknown, const char *sep)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < 2; k++) {
		unsigned bits = k ? unknown : differ;
		for (unsigned f = 0; f < SD_COUNT; f++) {
			bool seen = false;
			if (!(bits & (1u << f)))
				continue;
			/* fields that share a code (lbs, pbs: sector) name it once */
			for (unsigned e = 0; e < f; e++)
				seen |= (bits & (1u << e)) &&
					!strcmp(step_def_info[e].code, step_def_info[f].code);
			if (seen)
				continue;
			if (used)
				put(buf, len, &used, sep);
			put(buf, len, &used, k ? STEP_DEF_UNKNOWN_MARK : STEP_DEF_MARK);
			put(buf, len, &used, step_def_info[f].code);
		}
	}
	return buf;
}
