// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading result files: a step's interval samples (versions 1 and 2) and histograms. */
#include "result_load_int.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json_read.h"
#include "result_int.h"
#include "stats.h"

static void add_sample(struct loader *L, struct result_step *st, const struct sample *s)
{
	int ret = result_step_add_sample(st, s);

	if (ret == -E2BIG)
		jread_bad(&L->j, "more than %u samples in a step (the limit)", RESULT_MAX_SAMPLES);
	else if (ret)
		loader_nomem(L);
}

/* Version 1: an array of sample objects. */
void loader_samples_v1(struct loader *L, struct result_step *st)
{
	size_t base = strlen(L->where);

	if (!jread_get_array(&L->j, "samples"))
		return;
	while (jread_element(&L->j)) {
		struct sample s;
		snprintf(L->where + base, sizeof(L->where) - base, ": samples[%u]", st->nsamples);
		if (jread_peek(&L->j) != JR_OBJECT) {
			jread_bad(&L->j, "should be an object");
			break;
		}
		loader_sample(L, "sample", &s);
		if (!L->j.ret)
			add_sample(L, st, &s);
		if (L->j.ret)
			break;
	}
	L->where[base] = '\0';
}

/* What a version 2 table's "all" and "fields" said, for reading its rows. */
struct v2_table {
	int col[NCOLS]; /* field position -> column; -1: a field this version does not know */
	unsigned nfields;
	bool have[NCOLS]; /* columns given */
	bool fields_seen;
	int all_from; /* DIR_READ, DIR_WRITE: "all" equals it; -1 stored */
};

/* "fields": names of columns, each once; unknown ones are kept as -1 (skipped). */
static void load_v2_fields(struct loader *L, struct v2_table *t)
{
	char field[40];

	if (!jread_get_array(&L->j, "samples.fields"))
		return;
	t->fields_seen = true;
	while (jread_element(&L->j)) {
		unsigned c;
		if (t->nfields == NCOLS) {
			jread_bad(&L->j, "samples.fields: more than %u fields", NCOLS);
			return;
		}
		if (jread_string(&L->j, field, sizeof(field))) {
			jread_wrong_type(&L->j, "samples.fields", "an array of strings");
			return;
		}
		c = result_col_find(field);
		if (c < NCOLS && t->have[c]) {
			jread_bad(&L->j, "samples.fields: \"%s\" twice", field);
			return;
		}
		if (c < NCOLS)
			t->have[c] = true;
		t->col[t->nfields++] = c < NCOLS ? (int)c : -1;
	}
}

/* One value of a row into its column of s (an error recorded when it is not valid). */
static void load_v2_value(struct loader *L, int c, const struct jread_num *num, struct sample *s)
{
	/* the common case, a count or a rate as it should be, at once */
	if (c >= COL_DIRS) {
		struct dir_stats *d = &s->d[(c - COL_DIRS) / NDF];
		enum dfield f = (enum dfield)((c - COL_DIRS) % NDF);
		if (!result_dfield[f].is_double && num->integer && !num->negative) {
			*df_u64(d, f) = num->u;
			return;
		}
		if (result_dfield[f].is_double && num->d >= 0 && num->d <= DBL_MAX) {
			*df_dbl(d, f) = num->d + 0.0;
			return;
		}
	}
	const char *name = result_col_name((unsigned)c);
	if (c == COL_INDEX) {
		uint64_t v;
		if (jread_check_u64(&L->j, name, num, &v) && v > UINT32_MAX)
			jread_bad(&L->j, "\"index\" is out of range");
		s->index = (uint32_t)v;
	} else if (c == COL_START) {
		jread_check_u64(&L->j, name, num, &s->start_ns);
	} else if (c == COL_DUR) {
		jread_check_u64(&L->j, name, num, &s->dur_ns);
	} else if (c == COL_STALL) {
		jread_check_u64(&L->j, name, num, &s->host_stall_ns);
	} else {
		struct dir_stats *d = &s->d[(c - COL_DIRS) / NDF];
		enum dfield f = (enum dfield)((c - COL_DIRS) % NDF);
		if (result_dfield[f].is_double)
			jread_check_double(&L->j, name, num, df_dbl(d, f));
		else
			jread_check_u64(&L->j, name, num, df_u64(d, f));
	}
}

/* One row (the current element) into s, with what the columns left out stands for. */
static bool load_v2_row(struct loader *L, const struct v2_table *t, uint64_t next_start,
			unsigned nth, struct sample *s)
{
	struct jread_num num[NCOLS + 1];
	bool null[NCOLS + 1];
	unsigned n = 0;

	memset(s, 0, sizeof(*s));
	int rc = jread_numbers(&L->j, num, null, t->nfields + 1, &n);
	if (rc == -EINVAL && !L->j.ret)
		jread_wrong_type(&L->j, "row", "an array");
	if (L->j.ret)
		return false;
	if (n > t->nfields) {
		jread_bad(&L->j, "more values than the %u fields", t->nfields);
		return false;
	}
	for (unsigned i = 0; i < n && !L->j.ret; i++)
		if (t->col[i] >= 0 && !null[i]) /* unknown field; null: 0, as in version 1 */
			load_v2_value(L, t->col[i], &num[i], s);
	if (L->j.ret)
		return false;
	if (n != t->nfields) {
		jread_bad(&L->j, "%u values for %u fields", n, t->nfields);
		return false;
	}
	if (!t->have[COL_INDEX])
		s->index = nth;
	if (!t->have[COL_START])
		s->start_ns = next_start;
	for (unsigned d = 0; d < NDIR; d++) {
		if (!t->have[COL_DIRS + d * NDF + DF_IOPS])
			s->d[d].iops = stats_per_sec(s->d[d].ios, s->dur_ns);
		if (!t->have[COL_DIRS + d * NDF + DF_MBPS])
			s->d[d].mbps = stats_per_sec(s->d[d].bytes, s->dur_ns) / 1e6;
	}
	if (t->all_from >= 0)
		s->d[DIR_ALL] = s->d[t->all_from];
	return true;
}

static void load_v2_rows(struct loader *L, const struct v2_table *t, struct result_step *st)
{
	uint64_t next_start = 0;
	struct sample s;

	if (!jread_get_array(&L->j, "samples.rows"))
		return;
	/* a row's place in messages, formatted only when there is one */
	L->row = &st->nsamples;
	while (jread_element(&L->j)) {
		if (!load_v2_row(L, t, next_start, st->nsamples, &s))
			break;
		next_start = s.start_ns + s.dur_ns;
		add_sample(L, st, &s);
		if (L->j.ret)
			break;
	}
	L->row = NULL;
}

/* Version 2: {"all", "fields", "rows"} (result.h). */
void loader_samples_v2(struct loader *L, struct result_step *st)
{
	struct v2_table t = {.all_from = -1};
	size_t base = strlen(L->where);
	char k[16];

	if (!jread_get_object(&L->j, "samples"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "all")) {
			char from[16];
			jread_get_string(&L->j, k, from, sizeof(from));
			if (!strcmp(from, "read"))
				t.all_from = DIR_READ;
			else if (!strcmp(from, "write"))
				t.all_from = DIR_WRITE;
			else
				jread_bad(&L->j, "samples.all: \"%s\" is not \"read\" or \"write\"",
					  from);
		} else if (!strcmp(k, "fields")) {
			load_v2_fields(L, &t);
		} else if (!strcmp(k, "rows")) {
			if (!t.fields_seen)
				jread_bad(&L->j, "samples: \"rows\" before \"fields\"");
			else if (!(L->what & RESULT_LOAD_SAMPLES))
				jread_skip(&L->j);
			else
				load_v2_rows(L, &t, st);
		} else {
			jread_skip(&L->j);
		}
	}
	L->where[base] = '\0';
}

/* {"read": [[bucket, count], ...], "write": [...]}: each bucket once, inside the histogram. */
void loader_hist(struct loader *L, struct result_step *st)
{
	struct step_hist *h = calloc(1, sizeof(*h));
	unsigned total = 0;
	size_t cap = 0; /* h->pair's room */
	char k[16];

	if (!h) {
		loader_nomem(L);
		return;
	}
	result_hist_free(st->hist);
	st->hist = h;
	if (!jread_get_object(&L->j, "hist"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned d = !strcmp(k, "read") ? 0 : !strcmp(k, "write") ? 1 : 2;
		uint64_t seen[(HIST_NBUCKETS + 63) / 64] = {0};
		if (d == 2 || h->n[d]) {
			/* another key, or a direction given twice (the first one counts) */
			jread_skip(&L->j);
			continue;
		}
		if (d == 0 && h->n[1]) {
			jread_bad(&L->j, "hist: \"read\" after \"write\"");
			return;
		}
		if (!jread_get_array(&L->j, k))
			return;
		while (jread_element(&L->j)) {
			struct jread_num b, c;
			unsigned i = h->n[d];
			if (!jread_get_array(&L->j, "pair") || !jread_element(&L->j) ||
			    jread_number(&L->j, &b) || !jread_element(&L->j) ||
			    jread_number(&L->j, &c) || jread_element(&L->j)) {
				if (!L->j.ret)
					jread_bad(&L->j,
						  "hist.%s[%u] should be a [bucket, count] pair", k,
						  i);
				return;
			}
			if (!b.integer || (b.negative && b.u) || b.u >= HIST_NBUCKETS) {
				jread_bad(&L->j, "hist.%s[%u]: bucket %s%llu is outside 0..%u", k,
					  i, b.negative ? "-" : "", (unsigned long long)b.u,
					  HIST_NBUCKETS - 1);
				return;
			}
			if (seen[b.u / 64] & (1ull << (b.u % 64))) {
				jread_bad(&L->j, "hist.%s[%u]: bucket %llu appears twice", k, i,
					  (unsigned long long)b.u);
				return;
			}
			seen[b.u / 64] |= 1ull << (b.u % 64);
			uint64_t count;
			if (!jread_check_u64(&L->j, "count", &c, &count))
				return;
			if (GROW(h->pair, total, cap, 64)) {
				loader_nomem(L);
				return;
			}
			h->pair[total++] = (struct hist_pair){(uint32_t)b.u, count};
			h->n[d]++;
		}
	}
}
