// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading result files: the pull reader over a "drivebench-result" document. */
#include "result.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fileio.h"
#include "json_read.h"
#include "json_write.h"
#include "result_int.h"
#include "result_io.h"
#include "text.h"
#include "units.h"
#include "version.h"

/* ---- loading --------------------------------------------------------------------- */

struct loader {
	struct jread j;
	unsigned what;	     /* RESULT_LOAD_* */
	int version;	     /* of the file */
	unsigned nsteps;     /* over all phases so far */
	char where[256];     /* "phases[1].steps[3]": where in the file a bad value sits */
	const unsigned *row; /* in a samples table: the row being read (its number) */
};

__attribute__((format(printf, 2, 3))) static int bad(struct loader *L, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (L->j.ret)
		return L->j.ret;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (L->row)
		return jread_fail(&L->j, "%s: samples.rows[%u]: %s", L->where, *L->row, msg);
	return jread_fail(&L->j, "%s%s%s", L->where, L->where[0] ? ": " : "", msg);
}

static int nomem(struct loader *L)
{
	bad(L, "out of memory");
	L->j.ret = -ENOMEM;
	return L->j.ret;
}

/* A value that should be `what` but is not: the error (unless a syntax error came first). */
static void wrong_type(struct loader *L, const char *key, const char *what)
{
	if (jread_peek(&L->j) == JR_BAD) /* not a value at all: NaN, Infinity, garbage */
		jread_skip(&L->j);
	if (!L->j.ret)
		bad(L, "\"%s\" should be %s", key, what);
}

/*
 * Numbers. Counts, sizes and times: whole, from 0 to 2^64-1 (a fraction is dropped, as
 * json-c did). Rates, means, percentages: finite and not negative. Anything else is an
 * error naming the key: a negative count no longer reads silently as 0.
 */
static bool num_u64(struct loader *L, const char *key, const struct jread_num *n, uint64_t *v)
{
	*v = 0;
	if (n->negative && (n->integer ? n->u != 0 : n->d != 0)) {
		bad(L, "\"%s\" is negative", key);
		return false;
	}
	if (n->integer) {
		*v = n->u;
		return true;
	}
	if (!(n->d >= 0 && n->d < 18446744073709551616.0)) {
		bad(L, "\"%s\" is out of range (0 to 2^64-1)", key);
		return false;
	}
	*v = (uint64_t)fabs(n->d);
	return true;
}

static bool num_dbl(struct loader *L, const char *key, const struct jread_num *n, double *v)
{
	*v = 0;
	if (!isfinite(n->d)) {
		bad(L, "\"%s\" is not a finite number", key);
		return false;
	}
	if (n->d < 0) {
		bad(L, "\"%s\" is negative", key);
		return false;
	}
	*v = n->d + 0.0; /* -0 reads as 0 */
	return true;
}

/* The member value just reached, by type. null counts as absent (0, "", false). */
static uint64_t get_u64(struct loader *L, const char *key)
{
	struct jread_num n;
	uint64_t v = 0;

	if (jread_null(&L->j))
		return 0;
	if (jread_number(&L->j, &n))
		wrong_type(L, key, "a number");
	else
		num_u64(L, key, &n, &v);
	return v;
}

static unsigned get_uint(struct loader *L, const char *key)
{
	uint64_t v = get_u64(L, key);

	if (v > UINT_MAX) {
		bad(L, "\"%s\" is out of range (0 to %u)", key, UINT_MAX);
		return 0;
	}
	return (unsigned)v;
}

static double get_dbl(struct loader *L, const char *key)
{
	struct jread_num n;
	double v = 0;

	if (jread_null(&L->j))
		return 0;
	if (jread_number(&L->j, &n))
		wrong_type(L, key, "a number");
	else
		num_dbl(L, key, &n, &v);
	return v;
}

static void get_str(struct loader *L, const char *key, char *buf, size_t len)
{
	buf[0] = '\0';
	if (jread_null(&L->j))
		return;
	if (jread_string(&L->j, buf, len))
		wrong_type(L, key, "a string");
}

static bool get_bool(struct loader *L, const char *key)
{
	bool v = false;

	if (jread_null(&L->j))
		return false;
	if (jread_bool(&L->j, &v))
		wrong_type(L, key, "true or false");
	return v;
}

/* The index of a name in a table of names; dflt (with an error) when it is not there. */
static int get_enum(struct loader *L, const char *key, const char *const *names, size_t n, int dflt)
{
	char s[64];

	if (jread_null(&L->j))
		return dflt;
	if (jread_string(&L->j, s, sizeof(s))) {
		wrong_type(L, key, "a string");
		return dflt;
	}
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	bad(L, "unknown %s \"%s\"", key, s);
	return dflt;
}

/* Enter an object member's value; false (error recorded) when it is not an object. */
static bool enter_object(struct loader *L, const char *key)
{
	if (jread_peek(&L->j) == JR_OBJECT)
		return jread_object(&L->j);
	wrong_type(L, key, "an object");
	return false;
}

static bool enter_array(struct loader *L, const char *key)
{
	if (jread_peek(&L->j) == JR_ARRAY)
		return jread_array(&L->j);
	wrong_type(L, key, "an array");
	return false;
}

static void load_dir(struct loader *L, const char *key, struct dir_stats *d)
{
	char k[16];

	memset(d, 0, sizeof(*d));
	if (jread_null(&L->j) || !enter_object(L, key))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned f;
		for (f = 0; f < NDF && strcmp(k, result_dfield[f].key); f++)
			;
		if (f == NDF)
			jread_skip(&L->j);
		else if (result_dfield[f].is_double)
			*df_dbl(d, (enum dfield)f) = get_dbl(L, result_dfield[f].key);
		else
			*df_u64(d, (enum dfield)f) = get_u64(L, result_dfield[f].key);
	}
}

/*
 * A sample as an object: a step's summary, its drain and ramp (no index or start), and
 * version 1's interval samples.
 */
static void load_sample(struct loader *L, const char *key, struct sample *s)
{
	char k[16];

	memset(s, 0, sizeof(*s));
	if (jread_null(&L->j) || !enter_object(L, key))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned d;
		if (!strcmp(k, "index")) {
			s->index = get_uint(L, k);
			continue;
		}
		if (!strcmp(k, "start_ns")) {
			s->start_ns = get_u64(L, k);
			continue;
		}
		if (!strcmp(k, "dur_ns")) {
			s->dur_ns = get_u64(L, k);
			continue;
		}
		if (!strcmp(k, "host_stall_ns")) {
			s->host_stall_ns = get_u64(L, k);
			continue;
		}
		for (d = 0; d < NDIR && strcmp(k, result_dir_key[d]); d++)
			;
		if (d < NDIR)
			load_dir(L, k, &s->d[d]);
		else
			jread_skip(&L->j);
	}
}

static void load_workload(struct loader *L, struct workload *wl)
{
	char k[32];

	workload_defaults(wl);
	if (jread_null(&L->j) || !enter_object(L, "workload"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "pattern")) {
			wl->pattern =
				(enum wl_pattern)get_enum(L, k, wl_pattern_name, 2, WL_RANDOM);
		} else if (!strcmp(k, "bssplit")) {
			char split[WL_MAX_SPLIT * 24], msg[256];
			get_str(L, k, split, sizeof(split));
			if (split[0] && workload_parse_bssplit(wl, split, msg, sizeof(msg)))
				bad(L, "bssplit: %s", msg);
		} else if (!strcmp(k, "bs")) {
			uint64_t bs = get_u64(L, k);
			if (bs > UINT32_MAX)
				bad(L, "\"bs\" is out of range (0 to %u)", UINT32_MAX);
			wl->bs = (uint32_t)bs;
		} else if (!strcmp(k, "read_pct")) {
			wl->read_pct = get_uint(L, k);
			if (wl->read_pct > 100)
				bad(L, "read_pct %u is over 100", wl->read_pct);
		} else if (!strcmp(k, "range_start")) {
			wl->range_start = get_u64(L, k);
		} else if (!strcmp(k, "range_size")) {
			wl->range_size = get_u64(L, k);
		} else if (!strcmp(k, "range_pct")) {
			wl->range_pct = get_dbl(L, k);
		} else if (!strcmp(k, "threads")) {
			wl->threads = get_uint(L, k);
		} else if (!strcmp(k, "qdepth")) {
			wl->qdepth = get_uint(L, k);
		} else if (!strcmp(k, "time_ns")) {
			wl->time_ns = get_u64(L, k);
		} else if (!strcmp(k, "ramp_ns")) {
			wl->ramp_ns = get_u64(L, k);
		} else if (!strcmp(k, "rate_iops")) {
			wl->rate_iops = get_u64(L, k);
		} else if (!strcmp(k, "data")) {
			wl->data = (enum wl_data)get_enum(L, k, wl_data_name, 3, WL_DATA_RANDOM);
		} else if (!strcmp(k, "compress_pct")) {
			wl->compress_pct = get_uint(L, k);
			if (wl->compress_pct > 100)
				bad(L, "compress_pct %u is over 100", wl->compress_pct);
		} else if (!strcmp(k, "interval_ns")) {
			wl->interval_ns = get_u64(L, k);
		} else if (!strcmp(k, "seed")) {
			wl->seed = get_u64(L, k);
		} else if (!strcmp(k, "distribution")) {
			char dist[256], msg[256];
			get_str(L, k, dist, sizeof(dist));
			if (workload_parse_dist(wl, dist, msg, sizeof(msg)))
				bad(L, "%s", msg);
		} else {
			jread_skip(&L->j);
		}
	}
}

static void add_sample(struct loader *L, struct result_step *st, const struct sample *s)
{
	int ret = result_step_add_sample(st, s);

	if (ret == -E2BIG)
		bad(L, "more than %u samples in a step (the limit)", RESULT_MAX_SAMPLES);
	else if (ret)
		nomem(L);
}

/* Version 1: an array of sample objects. */
static void load_samples_v1(struct loader *L, struct result_step *st)
{
	size_t base = strlen(L->where);

	if (!enter_array(L, "samples"))
		return;
	while (jread_element(&L->j)) {
		struct sample s;
		snprintf(L->where + base, sizeof(L->where) - base, ": samples[%u]", st->nsamples);
		if (jread_peek(&L->j) != JR_OBJECT) {
			bad(L, "should be an object");
			break;
		}
		load_sample(L, "sample", &s);
		if (!L->j.ret)
			add_sample(L, st, &s);
		if (L->j.ret)
			break;
	}
	L->where[base] = '\0';
}

/* Version 2: {"all", "fields", "rows"} (result.h). */
static void load_samples_v2(struct loader *L, struct result_step *st)
{
	int col[NCOLS]; /* field position -> column; -1: a field this version does not know */
	unsigned nfields = 0;
	bool have[NCOLS] = {0}, fields_seen = false;
	int all_from = -1;
	char k[16], field[40];
	size_t base = strlen(L->where);

	if (!enter_object(L, "samples"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "all")) {
			char from[16];
			get_str(L, k, from, sizeof(from));
			if (!strcmp(from, "read"))
				all_from = DIR_READ;
			else if (!strcmp(from, "write"))
				all_from = DIR_WRITE;
			else
				bad(L, "samples.all: \"%s\" is not \"read\" or \"write\"", from);
		} else if (!strcmp(k, "fields")) {
			if (!enter_array(L, "samples.fields"))
				break;
			fields_seen = true;
			while (jread_element(&L->j)) {
				unsigned c;
				if (nfields == NCOLS) {
					bad(L, "samples.fields: more than %u fields", NCOLS);
					break;
				}
				if (jread_string(&L->j, field, sizeof(field))) {
					wrong_type(L, "samples.fields", "an array of strings");
					break;
				}
				c = result_col_find(field);
				if (c < NCOLS && have[c]) {
					bad(L, "samples.fields: \"%s\" twice", field);
					break;
				}
				if (c < NCOLS)
					have[c] = true;
				col[nfields++] = c < NCOLS ? (int)c : -1;
			}
		} else if (!strcmp(k, "rows")) {
			if (!fields_seen) {
				bad(L, "samples: \"rows\" before \"fields\"");
				break;
			}
			if (!(L->what & RESULT_LOAD_SAMPLES)) {
				jread_skip(&L->j);
				continue;
			}
			if (!enter_array(L, "samples.rows"))
				break;
			uint64_t next_start = 0;
			/* a row's place in messages, formatted only when there is one */
			L->row = &st->nsamples;
			while (jread_element(&L->j)) {
				struct jread_num num[NCOLS + 1];
				bool null[NCOLS + 1];
				struct sample s;
				unsigned n = 0;
				memset(&s, 0, sizeof(s));
				int rc = jread_numbers(&L->j, num, null, nfields + 1, &n);
				if (rc == -EINVAL && !L->j.ret)
					wrong_type(L, "row", "an array");
				if (L->j.ret)
					break;
				if (n > nfields) {
					bad(L, "more values than the %u fields", nfields);
					break;
				}
				for (unsigned i = 0; i < n && !L->j.ret; i++) {
					int c = col[i];
					if (c < 0 || null[i])
						continue; /* unknown field; null: 0, as in version 1
							   */
					/* the common case, a count or a rate as it should be, at
					 * once */
					if (c >= COL_DIRS) {
						struct dir_stats *d = &s.d[(c - COL_DIRS) / NDF];
						enum dfield f = (enum dfield)((c - COL_DIRS) % NDF);
						if (!result_dfield[f].is_double && num[i].integer &&
						    !num[i].negative) {
							*df_u64(d, f) = num[i].u;
							continue;
						}
						if (result_dfield[f].is_double && num[i].d >= 0 &&
						    num[i].d <= DBL_MAX) {
							*df_dbl(d, f) = num[i].d + 0.0;
							continue;
						}
					}
					const char *name = result_col_name((unsigned)c);
					if (c == COL_INDEX) {
						uint64_t v;
						if (num_u64(L, name, &num[i], &v) && v > UINT32_MAX)
							bad(L, "\"index\" is out of range");
						s.index = (uint32_t)v;
					} else if (c == COL_START) {
						num_u64(L, name, &num[i], &s.start_ns);
					} else if (c == COL_DUR) {
						num_u64(L, name, &num[i], &s.dur_ns);
					} else if (c == COL_STALL) {
						num_u64(L, name, &num[i], &s.host_stall_ns);
					} else {
						struct dir_stats *d = &s.d[(c - COL_DIRS) / NDF];
						enum dfield f = (enum dfield)((c - COL_DIRS) % NDF);
						if (result_dfield[f].is_double)
							num_dbl(L, name, &num[i], df_dbl(d, f));
						else
							num_u64(L, name, &num[i], df_u64(d, f));
					}
				}
				if (L->j.ret)
					break;
				if (n != nfields) {
					bad(L, "%u values for %u fields", n, nfields);
					break;
				}
				/* what the columns left out stands for */
				if (!have[COL_INDEX])
					s.index = st->nsamples;
				if (!have[COL_START])
					s.start_ns = next_start;
				next_start = s.start_ns + s.dur_ns;
				for (unsigned d = 0; d < NDIR; d++) {
					if (!have[COL_DIRS + d * NDF + DF_IOPS])
						s.d[d].iops = stats_per_sec(s.d[d].ios, s.dur_ns);
					if (!have[COL_DIRS + d * NDF + DF_MBPS])
						s.d[d].mbps =
							stats_per_sec(s.d[d].bytes, s.dur_ns) / 1e6;
				}
				if (all_from >= 0)
					s.d[DIR_ALL] = s.d[all_from];
				add_sample(L, st, &s);
				if (L->j.ret)
					break;
			}
			L->row = NULL;
		} else {
			jread_skip(&L->j);
		}
	}
	L->where[base] = '\0';
}

/* {"read": [[bucket, count], ...], "write": [...]}: each bucket once, inside the histogram. */
static void load_hist(struct loader *L, struct result_step *st)
{
	struct step_hist *h = calloc(1, sizeof(*h));
	unsigned cap = 0, total = 0;
	char k[16];

	if (!h) {
		nomem(L);
		return;
	}
	result_hist_free(st->hist);
	st->hist = h;
	if (!enter_object(L, "hist"))
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
			bad(L, "hist: \"read\" after \"write\"");
			return;
		}
		if (!enter_array(L, k))
			return;
		while (jread_element(&L->j)) {
			struct jread_num b, c;
			unsigned i = h->n[d];
			if (!enter_array(L, "pair") || !jread_element(&L->j) ||
			    jread_number(&L->j, &b) || !jread_element(&L->j) ||
			    jread_number(&L->j, &c) || jread_element(&L->j)) {
				if (!L->j.ret)
					bad(L, "hist.%s[%u] should be a [bucket, count] pair", k,
					    i);
				return;
			}
			if (!b.integer || (b.negative && b.u) || b.u >= HIST_NBUCKETS) {
				bad(L, "hist.%s[%u]: bucket %s%llu is outside 0..%u", k, i,
				    b.negative ? "-" : "", (unsigned long long)b.u,
				    HIST_NBUCKETS - 1);
				return;
			}
			if (seen[b.u / 64] & (1ull << (b.u % 64))) {
				bad(L, "hist.%s[%u]: bucket %llu appears twice", k, i,
				    (unsigned long long)b.u);
				return;
			}
			seen[b.u / 64] |= 1ull << (b.u % 64);
			uint64_t count;
			if (!num_u64(L, "count", &c, &count))
				return;
			if (total == cap) {
				cap = cap ? cap * 2 : 64;
				struct hist_pair *p = realloc(h->pair, cap * sizeof(*p));
				if (!p) {
					nomem(L);
					return;
				}
				h->pair = p;
			}
			h->pair[total++] = (struct hist_pair){(uint32_t)b.u, count};
			h->n[d]++;
		}
	}
}

/*
 * [{"code", "text"}, ...]: each kept as it is, codes this drivebench does not know too (a
 * newer one wrote them); a code given twice is kept once, with its last text.
 */
static void load_warnings(struct loader *L, struct result_step *st)
{
	char k[16];

	if (!enter_array(L, "warnings"))
		return;
	for (unsigned i = 0; jread_element(&L->j); i++) {
		char code[sizeof(st->warnings[0].code)] = "";
		char text[sizeof(st->warnings[0].text)] = "";
		int ret;

		if (jread_peek(&L->j) != JR_OBJECT) {
			if (jread_peek(&L->j) == JR_BAD)
				jread_skip(&L->j);
			bad(L, "warnings[%u] should be an object", i);
			return;
		}
		if (!jread_object(&L->j))
			return;
		while (jread_member(&L->j, k, sizeof(k))) {
			if (!strcmp(k, "code"))
				get_str(L, k, code, sizeof(code));
			else if (!strcmp(k, "text"))
				get_str(L, k, text, sizeof(text));
			else
				jread_skip(&L->j);
		}
		if (L->j.ret)
			return;
		if (!code[0]) {
			bad(L, "warnings[%u] has no \"code\"", i);
			return;
		}
		ret = result_add_warning(st, code, text);
		if (ret == -E2BIG) {
			bad(L, "more than %u warnings in a step (the limit)", RESULT_MAX_WARNINGS);
			return;
		}
		if (ret) {
			nomem(L);
			return;
		}
	}
}

static void load_step_drive(struct loader *L, struct step_drive *d)
{
	char k[32];

	if (jread_null(&L->j) || !enter_object(L, "drive"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "host_written_bytes")) {
			d->written_bytes = get_u64(L, k);
			d->has_written = true;
		} else if (!strcmp(k, "temp_max_c")) {
			/* degrees Celsius: below zero is a temperature, past 1000 is not */
			struct jread_num n;
			if (jread_number(&L->j, &n)) {
				wrong_type(L, k, "a number");
			} else if (!isfinite(n.d) || n.d < -273 || n.d > 1000) {
				bad(L, "\"%s\" is out of range (-273 to 1000)", k);
			} else {
				d->temp_max_c = (int)n.d;
				d->has_temp = true;
			}
		} else {
			jread_skip(&L->j);
		}
	}
}

static void load_cpu(struct loader *L, struct step_cpu *c)
{
	char k[32];

	if (jread_null(&L->j) || !enter_object(L, "cpu"))
		return;
	c->measured = true;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "process_user_pct"))
			c->proc_user_pct = get_dbl(L, k);
		else if (!strcmp(k, "process_system_pct"))
			c->proc_system_pct = get_dbl(L, k);
		else if (!strcmp(k, "host_user_pct"))
			c->host_user_pct = get_dbl(L, k);
		else if (!strcmp(k, "host_system_pct"))
			c->host_system_pct = get_dbl(L, k);
		else if (!strcmp(k, "host_iowait_pct"))
			c->host_iowait_pct = get_dbl(L, k);
		else if (!strcmp(k, "cpus"))
			c->cpus = get_uint(L, k);
		else
			jread_skip(&L->j);
	}
}

static void load_step(struct loader *L, struct result_step *s)
{
	char k[32];

	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "label")) {
			get_str(L, k, s->label, sizeof(s->label));
		} else if (!strcmp(k, "workload")) {
			load_workload(L, &s->wl);
		} else if (!strcmp(k, "rate_pct")) {
			s->rate_pct = get_dbl(L, k);
		} else if (!strcmp(k, "status")) {
			s->status = (enum result_status)get_enum(L, k, result_status_name, NSTATUS,
								 RS_COMPLETE);
		} else if (!strcmp(k, "error")) {
			get_str(L, k, s->error, sizeof(s->error));
		} else if (!strcmp(k, "error_offset")) {
			s->error_offset = get_u64(L, k);
		} else if (!strcmp(k, "engine")) {
			get_str(L, k, s->engine, sizeof(s->engine));
		} else if (!strcmp(k, "cpu")) {
			load_cpu(L, &s->cpu);
		} else if (!strcmp(k, "summary")) {
			load_sample(L, k, &s->summary);
		} else if (!strcmp(k, "drain")) {
			load_sample(L, k, &s->drain);
		} else if (!strcmp(k, "ramp")) {
			load_sample(L, k, &s->ramp);
		} else if (!strcmp(k, "drive")) {
			load_step_drive(L, &s->drive);
		} else if (!strcmp(k, "warnings")) {
			if (!jread_null(&L->j))
				load_warnings(L, s);
		} else if (!strcmp(k, "samples")) {
			if (jread_null(&L->j))
				continue;
			if (L->version >= 2)
				load_samples_v2(L, s);
			else if (L->what & RESULT_LOAD_SAMPLES)
				load_samples_v1(L, s);
			else
				jread_skip(&L->j);
			result_pack_shrink(&s->pack);
		} else if (!strcmp(k, "hist")) {
			if (!(L->what & RESULT_LOAD_HIST))
				jread_skip(&L->j);
			else if (!jread_null(&L->j))
				load_hist(L, s);
		} else {
			jread_skip(&L->j);
		}
	}
}

static const char *const steady_mode_name[] = {"until-steady", "fixed"};

static void load_steady(struct loader *L, struct steady_info *st)
{
	char k[32];

	if (jread_null(&L->j) || !enter_object(L, "steady"))
		return;
	st->used = true;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "tracked"))
			get_str(L, k, st->tracked, sizeof(st->tracked));
		else if (!strcmp(k, "window"))
			st->window = get_uint(L, k);
		else if (!strcmp(k, "data_limit_pct"))
			st->data_limit_pct = get_dbl(L, k);
		else if (!strcmp(k, "slope_limit_pct"))
			st->slope_limit_pct = get_dbl(L, k);
		else if (!strcmp(k, "max_rounds"))
			st->max_rounds = get_uint(L, k);
		else if (!strcmp(k, "reached"))
			st->reached = get_bool(L, k);
		else if (!strcmp(k, "round"))
			st->round = get_uint(L, k);
		else if (!strcmp(k, "data_excursion_pct"))
			st->data_excursion_pct = get_dbl(L, k);
		else if (!strcmp(k, "slope_excursion_pct"))
			st->slope_excursion_pct = get_dbl(L, k);
		else if (!strcmp(k, "first_round"))
			st->first_round = get_uint(L, k);
		else if (!strcmp(k, "mode"))
			st->fixed = get_enum(L, k, steady_mode_name, 2, 0) == 1;
		else
			jread_skip(&L->j);
	}
}

static void load_phase(struct loader *L, struct result_phase *ph)
{
	size_t base = strlen(L->where);
	char k[16];

	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "name")) {
			get_str(L, k, ph->name, sizeof(ph->name));
		} else if (!strcmp(k, "kind")) {
			ph->kind = (enum phase_kind)get_enum(L, k, phase_kind_name, NKIND, PH_RUN);
		} else if (!strcmp(k, "status")) {
			ph->status = (enum result_status)get_enum(L, k, result_status_name, NSTATUS,
								  RS_COMPLETE);
		} else if (!strcmp(k, "steady")) {
			load_steady(L, &ph->steady);
		} else if (!strcmp(k, "steps")) {
			if (jread_null(&L->j) || !enter_array(L, k))
				continue;
			while (jread_element(&L->j)) {
				snprintf(L->where + base, sizeof(L->where) - base, ".steps[%u]",
					 ph->nsteps);
				if (jread_peek(&L->j) != JR_OBJECT) {
					bad(L, "should be an object");
					break;
				}
				if (++L->nsteps > RESULT_MAX_STEPS) {
					bad(L, "more than %u steps (the limit)", RESULT_MAX_STEPS);
					break;
				}
				struct result_step *s = result_add_step(ph, "", NULL);
				if (!s) {
					nomem(L);
					break;
				}
				s->status = RS_COMPLETE;
				jread_object(&L->j);
				load_step(L, s);
				if (L->j.ret)
					break;
			}
			L->where[base] = '\0';
		} else {
			jread_skip(&L->j);
		}
	}
}

/*
 * Older versions are read by the same code, which knows where they differ (version 1:
 * samples as an array of objects). RESULT_OLDEST_VERSION is the first released format.
 */
#define RESULT_OLDEST_VERSION 1

/*
 * json-c keeps an escaped NUL ("\u0000") inside a string, where C code would stop
 * reading: such strings are repaired as the reader repairs its own (U+FFFD).
 */
static int repair_tree(struct json_object *o, unsigned depth)
{
	if (depth > JREAD_MAX_DEPTH)
		return 0;
	if (json_object_is_type(o, json_type_string)) {
		const char *s = json_object_get_string(o);
		size_t n = (size_t)json_object_get_string_len(o);
		if (strlen(s) == n && text_utf8_valid(s, n))
			return 0;
		char *fixed = malloc(3 * n + 1);
		size_t k = 0;
		if (!fixed)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			if (s[i]) {
				fixed[k++] = s[i];
			} else {
				memcpy(fixed + k, TEXT_REPLACEMENT, 3);
				k += 3;
			}
		}
		fixed[k] = '\0';
		char *clean = text_utf8_repair(fixed, k, &n);
		free(fixed);
		if (!clean)
			return -ENOMEM;
		json_object_set_string_len(o, clean, (int)n);
		free(clean);
		return 0;
	}
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val)
		{
			(void)key;
			if (repair_tree(val, depth + 1))
				return -ENOMEM;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);
		for (size_t i = 0; i < n; i++)
			if (repair_tree(json_object_array_get_idx(o, i), depth + 1))
				return -ENOMEM;
	}
	return 0;
}

/* "host", "target": small records kept as json-c objects, for what names a run. */
static struct json_object *load_record(struct loader *L, const char *key)
{
	struct json_tokener *tok;
	struct json_object *o;
	const char *start;
	size_t len;

	if (jread_null(&L->j))
		return NULL;
	if (jread_peek(&L->j) != JR_OBJECT) {
		wrong_type(L, key, "an object");
		return NULL;
	}
	if (jread_raw(&L->j, &start, &len))
		return NULL;
	if (len > RESULT_MAX_RECORD_BYTES) {
		bad(L, "\"%s\" is %zu bytes, over the limit of %u", key, len,
		    RESULT_MAX_RECORD_BYTES);
		return NULL;
	}
	tok = json_tokener_new_ex(JREAD_MAX_DEPTH);
	if (!tok) {
		nomem(L);
		return NULL;
	}
	o = json_tokener_parse_ex(tok, start, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success)
		bad(L, "\"%s\": %s", key, json_tokener_error_desc(json_tokener_get_error(tok)));
	else if (repair_tree(o, 0))
		nomem(L);
	json_tokener_free(tok);
	if (L->j.ret && o) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

static void load_preset(struct loader *L, struct result *r)
{
	char k[16];

	if (jread_null(&L->j) || !enter_object(L, "preset"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "name")) {
			get_str(L, k, r->preset_name, sizeof(r->preset_name));
		} else if (!strcmp(k, "source")) {
			get_str(L, k, r->preset_source, sizeof(r->preset_source));
		} else if (!strcmp(k, "text")) {
			free(r->preset_text);
			r->preset_text = NULL;
			if (jread_null(&L->j))
				continue;
			int ret = jread_string_dup(&L->j, RESULT_MAX_PRESET_BYTES, &r->preset_text,
						   NULL);
			if (ret == -EINVAL && !L->j.ret)
				wrong_type(L, "text", "a string");
		} else if (!strcmp(k, "scale")) {
			r->scale = jread_null(&L->j) ? 1.0 : get_dbl(L, k);
		} else {
			jread_skip(&L->j);
		}
	}
}

static void load_root(struct loader *L, struct result *r)
{
	bool have_format = false, have_version = false;
	char k[16];

	if (!jread_object(&L->j))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "format")) {
			char fmt[64];
			if (jread_string(&L->j, fmt, sizeof(fmt))) {
				wrong_type(L, k, "a string");
				return;
			}
			if (strcmp(fmt, RESULT_FORMAT)) {
				bad(L, "not a drivebench result (format \"%s\", expected \"%s\")",
				    fmt, RESULT_FORMAT);
				return;
			}
			have_format = true;
		} else if (!strcmp(k, "version")) {
			struct jread_num n;
			if (jread_number(&L->j, &n) || !n.integer) {
				bad(L, "format %s without an integer \"version\"", RESULT_FORMAT);
				return;
			}
			if (!n.negative && n.u > RESULT_VERSION) {
				bad(L,
				    "format version %llu is newer than this drivebench " DB_VERSION
				    " reads (versions %d to %d); use a newer drivebench",
				    (unsigned long long)n.u, RESULT_OLDEST_VERSION, RESULT_VERSION);
				return;
			}
			if (n.negative || n.u < RESULT_OLDEST_VERSION) {
				bad(L,
				    "format version %s%llu is older than this "
				    "drivebench " DB_VERSION " reads (versions %d to %d)",
				    n.negative ? "-" : "", (unsigned long long)n.u,
				    RESULT_OLDEST_VERSION, RESULT_VERSION);
				return;
			}
			r->version = L->version = (int)n.u;
			have_version = true;
		} else if (!strcmp(k, "phases")) {
			/* what the phases hold depends on the version: it comes first */
			if (!have_format) {
				bad(L, "not a drivebench result (no \"format\" field)");
				return;
			}
			if (!have_version) {
				bad(L, "format %s without an integer \"version\" before \"phases\"",
				    RESULT_FORMAT);
				return;
			}
			if (jread_null(&L->j) || !enter_array(L, k))
				continue;
			while (jread_element(&L->j)) {
				snprintf(L->where, sizeof(L->where), "phases[%u]", r->nphases);
				if (jread_peek(&L->j) != JR_OBJECT) {
					bad(L, "should be an object");
					return;
				}
				struct result_phase *ph = result_add_phase(r, "", PH_RUN);
				if (!ph) {
					nomem(L);
					return;
				}
				ph->status = RS_COMPLETE;
				jread_object(&L->j);
				load_phase(L, ph);
				if (L->j.ret)
					return;
			}
			L->where[0] = '\0';
		} else if (!strcmp(k, "tool")) {
			char tk[16];
			if (jread_null(&L->j) || !enter_object(L, k))
				continue;
			while (jread_member(&L->j, tk, sizeof(tk)))
				if (!strcmp(tk, "version"))
					get_str(L, tk, r->tool_version, sizeof(r->tool_version));
				else
					jread_skip(&L->j);
		} else if (!strcmp(k, "status")) {
			r->status = (enum result_status)get_enum(L, k, result_status_name, NSTATUS,
								 RS_INCOMPLETE);
		} else if (!strcmp(k, "error")) {
			get_str(L, k, r->error, sizeof(r->error));
		} else if (!strcmp(k, "started")) {
			get_str(L, k, r->started, sizeof(r->started));
		} else if (!strcmp(k, "ended")) {
			get_str(L, k, r->ended, sizeof(r->ended));
		} else if (!strcmp(k, "label")) {
			get_str(L, k, r->label, sizeof(r->label));
		} else if (!strcmp(k, "note")) {
			get_str(L, k, r->note, sizeof(r->note));
		} else if (!strcmp(k, "host")) {
			if (r->host)
				json_object_put(r->host);
			r->host = load_record(L, k);
		} else if (!strcmp(k, "target")) {
			if (r->target)
				json_object_put(r->target);
			r->target = load_record(L, k);
		} else if (!strcmp(k, "preset")) {
			load_preset(L, r);
		} else {
			jread_skip(&L->j);
		}
		if (L->j.ret)
			return;
	}
	if (L->j.ret)
		return;
	if (!have_format)
		bad(L, "not a drivebench result (no \"format\" field)");
	else if (!have_version)
		bad(L, "format %s without an integer \"version\"", RESULT_FORMAT);
	else if (jread_peek(&L->j) != JR_END)
		bad(L, "not valid JSON: more after the end of the document");
}

int result_load_opts(struct result *r, const char *path, unsigned what, char *err, size_t errlen)
{
	struct loader L = {.what = what};
	char *text = NULL;
	size_t len = 0;
	int ret;

	result_init(r);
	ret = fileio_read(path, "a result file", RESULT_MAX_FILE_BYTES, &text, &len, err, errlen);
	if (ret)
		return ret;
	/* every string in it well-formed, once, here */
	if (text_utf8_fix_buf(&text, &len)) {
		text_fmt(err, errlen, "%s: out of memory", path);
		free(text);
		return -ENOMEM;
	}
	jread_init(&L.j, text, len, path, err, errlen);
	switch (jread_peek(&L.j)) {
	case JR_OBJECT:
		load_root(&L, r);
		break;
	case JR_END:
	case JR_BAD:
		jread_fail(&L.j, "not valid JSON%s",
			   jread_peek(&L.j) == JR_END ? ": the file ends too early" : "");
		break;
	default:
		jread_fail(&L.j, "not a drivebench result (not a JSON object)");
	}
	ret = L.j.ret;
	if (ret) {
		result_free(r);
	} else {
		if (!r->host)
			r->host = json_object_new_object();
		if (!r->target)
			r->target = json_object_new_object();
		text_copy(r->path, sizeof(r->path), path);
	}
	free(text);
	return ret;
}

int result_load(struct result *r, const char *path, char *err, size_t errlen)
{
	return result_load_opts(r, path, RESULT_LOAD_ALL, err, errlen);
}
