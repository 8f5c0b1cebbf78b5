// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading result files: the value readers (numbers, strings, enums, objects, samples,
 * workloads), strict about types and ranges and naming where a bad value sits.
 */
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

#include "json_read.h"
#include "result_int.h"

int loader_bad(struct loader *L, const char *fmt, ...)
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

int loader_nomem(struct loader *L)
{
	loader_bad(L, "out of memory");
	L->j.ret = -ENOMEM;
	return L->j.ret;
}

/* A value that should be `what` but is not: the error (unless a syntax error came first). */
void loader_wrong_type(struct loader *L, const char *key, const char *what)
{
	if (jread_peek(&L->j) == JR_BAD) /* not a value at all: NaN, Infinity, garbage */
		jread_skip(&L->j);
	if (!L->j.ret)
		loader_bad(L, "\"%s\" should be %s", key, what);
}

/*
 * Numbers. Counts, sizes and times: whole, from 0 to 2^64-1 (a fraction is dropped, as
 * json-c did). Rates, means, percentages: finite and not negative. Anything else is an
 * error naming the key: a negative count no longer reads silently as 0.
 */
bool loader_num_u64(struct loader *L, const char *key, const struct jread_num *n, uint64_t *v)
{
	const char *why = jread_num_u64(n, v);

	if (why)
		loader_bad(L, "\"%s\" %s", key, why);
	return !why;
}

bool loader_num_dbl(struct loader *L, const char *key, const struct jread_num *n, double *v)
{
	const char *why = jread_num_double(n, v);

	if (why)
		loader_bad(L, "\"%s\" %s", key, why);
	return !why;
}

/* The member value just reached, by type. null counts as absent (0, "", false). */
uint64_t loader_u64(struct loader *L, const char *key)
{
	struct jread_num n;
	uint64_t v = 0;

	if (jread_null(&L->j))
		return 0;
	if (jread_number(&L->j, &n))
		loader_wrong_type(L, key, "a number");
	else
		loader_num_u64(L, key, &n, &v);
	return v;
}

unsigned loader_uint(struct loader *L, const char *key)
{
	uint64_t v = loader_u64(L, key);

	if (v > UINT_MAX) {
		loader_bad(L, "\"%s\" is out of range (0 to %u)", key, UINT_MAX);
		return 0;
	}
	return (unsigned)v;
}

double loader_dbl(struct loader *L, const char *key)
{
	struct jread_num n;
	double v = 0;

	if (jread_null(&L->j))
		return 0;
	if (jread_number(&L->j, &n))
		loader_wrong_type(L, key, "a number");
	else
		loader_num_dbl(L, key, &n, &v);
	return v;
}

void loader_str(struct loader *L, const char *key, char *buf, size_t len)
{
	buf[0] = '\0';
	if (jread_null(&L->j))
		return;
	if (jread_string(&L->j, buf, len))
		loader_wrong_type(L, key, "a string");
}

bool loader_bool(struct loader *L, const char *key)
{
	bool v = false;

	if (jread_null(&L->j))
		return false;
	if (jread_bool(&L->j, &v))
		loader_wrong_type(L, key, "true or false");
	return v;
}

/* The index of a name in a table of names; dflt (with an error) when it is not there. */
int loader_enum(struct loader *L, const char *key, const char *const *names, size_t n, int dflt)
{
	char s[64];

	if (jread_null(&L->j))
		return dflt;
	if (jread_string(&L->j, s, sizeof(s))) {
		loader_wrong_type(L, key, "a string");
		return dflt;
	}
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	loader_bad(L, "unknown %s \"%s\"", key, s);
	return dflt;
}

/* Enter an object member's value; false (error recorded) when it is not an object. */
bool loader_object(struct loader *L, const char *key)
{
	if (jread_peek(&L->j) == JR_OBJECT)
		return jread_object(&L->j);
	loader_wrong_type(L, key, "an object");
	return false;
}

bool loader_array(struct loader *L, const char *key)
{
	if (jread_peek(&L->j) == JR_ARRAY)
		return jread_array(&L->j);
	loader_wrong_type(L, key, "an array");
	return false;
}

static void load_dir(struct loader *L, const char *key, struct dir_stats *d)
{
	char k[16];

	memset(d, 0, sizeof(*d));
	if (jread_null(&L->j) || !loader_object(L, key))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned f;
		for (f = 0; f < NDF && strcmp(k, result_dfield[f].key); f++)
			;
		if (f == NDF)
			jread_skip(&L->j);
		else if (result_dfield[f].is_double)
			*df_dbl(d, (enum dfield)f) = loader_dbl(L, result_dfield[f].key);
		else
			*df_u64(d, (enum dfield)f) = loader_u64(L, result_dfield[f].key);
	}
}

/*
 * A sample as an object: a step's summary, its drain and ramp (no index or start), and
 * version 1's interval samples.
 */
void loader_sample(struct loader *L, const char *key, struct sample *s)
{
	char k[16];

	memset(s, 0, sizeof(*s));
	if (jread_null(&L->j) || !loader_object(L, key))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned d;
		if (!strcmp(k, "index")) {
			s->index = loader_uint(L, k);
			continue;
		}
		if (!strcmp(k, "start_ns")) {
			s->start_ns = loader_u64(L, k);
			continue;
		}
		if (!strcmp(k, "dur_ns")) {
			s->dur_ns = loader_u64(L, k);
			continue;
		}
		if (!strcmp(k, "host_stall_ns")) {
			s->host_stall_ns = loader_u64(L, k);
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

void loader_workload(struct loader *L, struct workload *wl)
{
	char k[32];

	workload_defaults(wl);
	if (jread_null(&L->j) || !loader_object(L, "workload"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "pattern")) {
			wl->pattern =
				(enum wl_pattern)loader_enum(L, k, wl_pattern_name, 2, WL_RANDOM);
		} else if (!strcmp(k, "bssplit")) {
			char split[WL_MAX_SPLIT * 24], msg[256];
			loader_str(L, k, split, sizeof(split));
			if (split[0] && workload_parse_bssplit(wl, split, msg, sizeof(msg)))
				loader_bad(L, "bssplit: %s", msg);
		} else if (!strcmp(k, "bs")) {
			uint64_t bs = loader_u64(L, k);
			if (bs > UINT32_MAX)
				loader_bad(L, "\"bs\" is out of range (0 to %u)", UINT32_MAX);
			wl->bs = (uint32_t)bs;
		} else if (!strcmp(k, "read_pct")) {
			wl->read_pct = loader_uint(L, k);
			if (wl->read_pct > 100)
				loader_bad(L, "read_pct %u is over 100", wl->read_pct);
		} else if (!strcmp(k, "range_start")) {
			wl->range_start = loader_u64(L, k);
		} else if (!strcmp(k, "range_size")) {
			wl->range_size = loader_u64(L, k);
		} else if (!strcmp(k, "range_pct")) {
			wl->range_pct = loader_dbl(L, k);
		} else if (!strcmp(k, "threads")) {
			wl->threads = loader_uint(L, k);
		} else if (!strcmp(k, "qdepth")) {
			wl->qdepth = loader_uint(L, k);
		} else if (!strcmp(k, "time_ns")) {
			wl->time_ns = loader_u64(L, k);
		} else if (!strcmp(k, "ramp_ns")) {
			wl->ramp_ns = loader_u64(L, k);
		} else if (!strcmp(k, "rate_iops")) {
			wl->rate_iops = loader_u64(L, k);
		} else if (!strcmp(k, "data")) {
			wl->data = (enum wl_data)loader_enum(L, k, wl_data_name, 3, WL_DATA_RANDOM);
		} else if (!strcmp(k, "compress_pct")) {
			wl->compress_pct = loader_uint(L, k);
			if (wl->compress_pct > 100)
				loader_bad(L, "compress_pct %u is over 100", wl->compress_pct);
		} else if (!strcmp(k, "interval_ns")) {
			wl->interval_ns = loader_u64(L, k);
		} else if (!strcmp(k, "seed")) {
			wl->seed = loader_u64(L, k);
		} else if (!strcmp(k, "distribution")) {
			char dist[256], msg[256];
			loader_str(L, k, dist, sizeof(dist));
			if (workload_parse_dist(wl, dist, msg, sizeof(msg)))
				loader_bad(L, "%s", msg);
		} else if (!strcmp(k, "trace")) {
			loader_str(L, k, wl->trace, sizeof(wl->trace));
		} else if (!strcmp(k, "trace_speed")) {
			wl->trace_speed = loader_dbl(L, k);
			if (!(wl->trace_speed >= 0 && wl->trace_speed <= 1000))
				loader_bad(L, "trace_speed %g is not 0..1000", wl->trace_speed);
		} else {
			jread_skip(&L->j);
		}
	}
}

void loader_replay(struct loader *L, struct replay_stats *r)
{
	static const char *const modes[] = {"fast", "timed"};
	char k[32];

	memset(r, 0, sizeof(*r));
	if (jread_null(&L->j) || !loader_object(L, "replay"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "mode"))
			r->timed = loader_enum(L, k, modes, 2, 0) == 1;
		else if (!strcmp(k, "qdepth"))
			r->qdepth = loader_uint(L, k);
		else if (!strcmp(k, "trace_ios"))
			r->trace_ios = loader_u64(L, k);
		else if (!strcmp(k, "issued"))
			r->issued = loader_u64(L, k);
		else if (!strcmp(k, "flushes"))
			r->flushes = loader_u64(L, k);
		else if (!strcmp(k, "discards"))
			r->discards = loader_u64(L, k);
		else if (!strcmp(k, "discard_bytes"))
			r->discard_bytes = loader_u64(L, k);
		else if (!strcmp(k, "lag_mean_ns"))
			r->lag_mean_ns = loader_dbl(L, k);
		else if (!strcmp(k, "lag_max_ns"))
			r->lag_max_ns = loader_u64(L, k);
		else if (!strcmp(k, "late_ios"))
			r->late_ios = loader_u64(L, k);
		else
			jread_skip(&L->j);
	}
	if (r->issued > r->trace_ios)
		loader_bad(L, "replay: issued %llu of %llu", (unsigned long long)r->issued,
			   (unsigned long long)r->trace_ios);
}
