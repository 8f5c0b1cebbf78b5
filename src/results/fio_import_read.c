// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's JSON document, read (fio_import.h, fio_import_int.h): the pull reader
 * (json_read.h) walks it one job entry at a time, so a json+ file of many jobs costs one
 * entry's bins at a time beyond the result itself. Each entry goes to the builder
 * (fio_import_add_entry()); options and steady-state verdicts are kept as json-c records.
 */
#include "fio_import_int.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fileio.h"
#include "hist.h"
#include "json_read.h"
#include "text.h"

/* ---- reading values ------------------------------------------------------------ */

/* As fio imports have always said it: "\"iops\" is not a number", of NaN and null strings too. */
static const struct jread_style fio_style = {
	.is_not = true, .bad_is_type = true, .null_string = true};

/* A json-c object to fill from the JSON object that comes next; NULL on an error. */
static struct json_object *begin_record(struct importer *im)
{
	struct json_object *o = json_object_new_object();

	if (!o) {
		fio_import_nomem(im);
		return NULL;
	}
	if (!jread_object(&im->j)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* o when the object was read without an error; else NULL (o freed). */
static struct json_object *end_record(struct importer *im, struct json_object *o)
{
	if (!im->j.ret)
		return o;
	json_object_put(o);
	return NULL;
}

/* An object of strings (fio's options) as a json-c object; numbers are kept as text. */
static struct json_object *read_options(struct importer *im, const char *what)
{
	struct json_object *o = begin_record(im);
	char key[256];

	if (!o)
		return NULL;
	while (jread_member(&im->j, key, sizeof(key))) {
		char *val = NULL;
		size_t len = 0;
		struct jread_num n;
		char num[64];

		if (jread_peek(&im->j) == JR_STRING) {
			if (jread_string_dup(&im->j, RESULT_MAX_RECORD_BYTES, &val, &len))
				break;
		} else if (jread_peek(&im->j) == JR_NUMBER && !jread_number(&im->j, &n)) {
			snprintf(num, sizeof(num), "%.17g", n.d);
			if (n.integer)
				snprintf(num, sizeof(num), "%s%llu", n.negative ? "-" : "",
					 (unsigned long long)n.u);
			if (!(val = strdup(num))) {
				fio_import_nomem(im);
				break;
			}
			len = strlen(val);
		} else {
			jread_fail(&im->j, "%s: \"%s\" is neither a string nor a number", what,
				   key);
			break;
		}
		im->opt_bytes += strlen(key) + len;
		if (im->opt_bytes > RESULT_MAX_RECORD_BYTES) {
			char lim[32];
			free(val);
			jread_fail(&im->j, "the job options pass the limit of %s",
				   fileio_fmt_limit(lim, sizeof(lim), RESULT_MAX_RECORD_BYTES));
			break;
		}
		/* fio's client repeats global options: the last one counts, as in a job file */
		json_object_object_add(o, key, json_object_new_string(val));
		free(val);
	}
	return end_record(im, o);
}

/* "99.900000": fio writes percentiles with six decimals; read here without the locale. */
static bool pct_key(const char *key, enum stats_pct *which)
{
	uint64_t whole = 0, frac = 0, scale = 1;
	const char *p = key;

	if (!(*p >= '0' && *p <= '9'))
		return false;
	for (; *p >= '0' && *p <= '9' && whole < 1000; p++)
		whole = whole * 10 + (uint64_t)(*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && scale < 1000000000000ull; p++) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	if (*p)
		return false;
	double v = (double)whole + (double)frac / (double)scale;
	for (unsigned i = 0; i < NPCT; i++) {
		if (fabs(v - stats_pct_value[i]) < 1e-9) {
			*which = (enum stats_pct)i;
			return true;
		}
	}
	return false;
}

static void read_lat(struct importer *im, struct fio_lat *l)
{
	char key[64];

	l->seen = true;
	if (!jread_object(&im->j))
		return;
	while (jread_member(&im->j, key, sizeof(key))) {
		if (!strcmp(key, "min")) {
			l->min = jread_get_u64(&im->j, key);
		} else if (!strcmp(key, "max")) {
			l->max = jread_get_u64(&im->j, key);
		} else if (!strcmp(key, "mean")) {
			l->mean = jread_get_double(&im->j, key);
		} else if (!strcmp(key, "stddev")) {
			l->std = jread_get_double(&im->j, key);
		} else if (!strcmp(key, "N")) {
			l->n = jread_get_u64(&im->j, key);
		} else if (!strcmp(key, "percentile")) {
			if (!jread_object(&im->j))
				return;
			while (jread_member(&im->j, key, sizeof(key))) {
				enum stats_pct p;
				if (!pct_key(key, &p)) {
					jread_skip(&im->j);
					continue;
				}
				l->pct[p] = jread_get_u64(&im->j, "percentile");
				l->have_pct[p] = !im->j.ret;
			}
		} else if (!strcmp(key, "bins")) {
			if (!l->bins && !(l->bins = calloc(1, sizeof(*l->bins)))) {
				fio_import_nomem(im);
				return;
			}
			l->have_bins = true;
			if (!jread_object(&im->j))
				return;
			while (jread_member(&im->j, key, sizeof(key))) {
				uint64_t value, count;
				char *end;
				errno = 0;
				value = strtoull(key, &end, 10);
				if (end == key || *end || errno || key[0] == '-') {
					jread_fail(&im->j, "bins: \"%s\" is not a latency in ns", key);
					return;
				}
				count = jread_get_u64(&im->j, "bins");
				if (im->j.ret)
					return;
				/* fio's bin value is its bucket's midpoint: inside ours (hist.h) */
				unsigned b = hist_index(value);
				if (l->bins->bucket[b] > UINT64_MAX - count) {
					jread_fail(&im->j, "bins: counts overflow");
					return;
				}
				l->bins->bucket[b] += count;
			}
		} else {
			jread_skip(&im->j);
		}
		if (im->j.ret)
			return;
	}
}

static void read_dir(struct importer *im, struct fio_dir *d)
{
	char key[64];

	if (!jread_object(&im->j))
		return;
	while (jread_member(&im->j, key, sizeof(key))) {
		if (!strcmp(key, "io_bytes"))
			d->bytes = jread_get_u64(&im->j, key);
		else if (!strcmp(key, "bw_bytes"))
			d->bw_bytes = jread_get_u64(&im->j, key);
		else if (!strcmp(key, "iops"))
			d->iops = jread_get_double(&im->j, key);
		else if (!strcmp(key, "runtime"))
			d->runtime_ms = jread_get_u64(&im->j, key);
		else if (!strcmp(key, "total_ios"))
			d->ios = jread_get_u64(&im->j, key);
		else if (!strcmp(key, fio_import_lat_key[LK_CLAT]))
			read_lat(im, &d->lat[LK_CLAT]);
		else if (!strcmp(key, fio_import_lat_key[LK_LAT]))
			read_lat(im, &d->lat[LK_LAT]);
		else if (!strcmp(key, "clat") || !strcmp(key, "lat"))
			jread_fail(&im->j, "latencies in microseconds (\"%s\"): fio before 3.0 "
				   "is not read; run fio 3", key);
		else
			jread_skip(&im->j);
		if (im->j.ret)
			return;
	}
}

/*
 * fio's steady-state verdict of a job run with steadystate=: "ss" (criterion:limit),
 * "duration" (s), "attained" (0/1), "criterion" (the deviation or slope reached), as
 * fio wrote them; the per-second "data" is left out.
 */
static struct json_object *read_steady(struct importer *im)
{
	struct json_object *o = begin_record(im);
	char key[64], str[64];
	uint64_t v;
	double d;

	if (!o)
		return NULL;
	while (jread_member(&im->j, key, sizeof(key))) {
		if (!strcmp(key, "ss") || !strcmp(key, "criterion")) {
			if (jread_string(&im->j, str, sizeof(str))) {
				jread_fail(&im->j, "steadystate: \"%s\" is not a string", key);
				break;
			}
			json_object_object_add(o, key, json_object_new_string(str));
		} else if (!strcmp(key, "duration") || !strcmp(key, "attained")) {
			v = jread_get_u64(&im->j, key);
			if (im->j.ret)
				break;
			json_object_object_add(o, key, json_object_new_int64(
							       v > INT64_MAX ? INT64_MAX : (int64_t)v));
		} else if (!strcmp(key, "max_deviation") || !strcmp(key, "slope")) {
			struct jread_num n;
			if (jread_number(&im->j, &n)) {
				jread_fail(&im->j, "steadystate: \"%s\" is not a number", key);
				break;
			}
			d = n.d;
			json_object_object_add(o, key, json_object_new_double(d));
		} else if (jread_skip(&im->j)) {
			break;
		}
	}
	return end_record(im, o);
}

static void entry_reset(struct fio_entry *e)
{
	if (e->opts)
		json_object_put(e->opts);
	if (e->ss)
		json_object_put(e->ss);
	for (unsigned d = 0; d < FD_N; d++)
		for (unsigned k = 0; k < LK_N; k++)
			free(e->d[d].lat[k].bins);
	memset(e, 0, sizeof(*e));
}

static void read_entry(struct importer *im, struct fio_entry *e)
{
	char key[64], port[16] = "";
	uint64_t v;

	e->at = (size_t)(im->j.p - im->j.buf);
	if (!jread_object(&im->j))
		return;
	while (jread_member(&im->j, key, sizeof(key))) {
		if (!strcmp(key, "jobname")) {
			jread_get_string(&im->j, key, e->name, sizeof(e->name));
		} else if (!strcmp(key, "hostname")) {
			jread_get_string(&im->j, key, e->host, sizeof(e->host) - sizeof(port));
		} else if (!strcmp(key, "port")) {
			v = jread_get_u64(&im->j, key);
			snprintf(port, sizeof(port), ":%llu", (unsigned long long)v);
		} else if (!strcmp(key, "groupid")) {
			v = jread_get_u64(&im->j, key);
			e->groupid = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		} else if (!strcmp(key, "error")) {
			v = jread_get_u64(&im->j, key);
			e->error = v > INT32_MAX ? INT32_MAX : (int)v;
		} else if (!strcmp(key, "job_runtime")) {
			e->job_runtime_ms = jread_get_u64(&im->j, key);
		} else if (!strcmp(key, "steadystate")) {
			if (e->ss)
				json_object_put(e->ss);
			e->ss = read_steady(im);
		} else if (!strcmp(key, "job options")) {
			if (e->opts)
				json_object_put(e->opts);
			e->opts = read_options(im, "job options");
		} else if (!strcmp(key, "read")) {
			read_dir(im, &e->d[FD_READ]);
		} else if (!strcmp(key, "write")) {
			read_dir(im, &e->d[FD_WRITE]);
		} else {
			jread_skip(&im->j);
		}
		if (im->j.ret)
			return;
	}
	if (e->host[0])
		strcat(e->host, port);
}

void fio_import_read_document(struct importer *im)
{
	struct fio_entry e = {0};
	char key[64];
	bool any = false;

	im->j.style = &fio_style;
	if (!jread_object(&im->j))
		return;
	while (jread_member(&im->j, key, sizeof(key))) {
		if (!strcmp(key, "fio version")) {
			jread_get_string(&im->j, key, im->version, sizeof(im->version));
		} else if (!strcmp(key, "time")) {
			jread_get_string(&im->j, key, im->time, sizeof(im->time));
		} else if (!strcmp(key, "timestamp")) {
			im->timestamp = jread_get_u64(&im->j, key);
		} else if (!strcmp(key, "global options")) {
			if (im->global)
				json_object_put(im->global);
			im->global = read_options(im, "global options");
		} else if (!strcmp(key, "jobs") || !strcmp(key, "client_stats")) {
			any = true;
			if (!jread_array(&im->j))
				break;
			while (jread_element(&im->j)) {
				if (jread_peek(&im->j) != JR_OBJECT) {
					jread_fail(&im->j, "%s: an entry is not an object", key);
					break;
				}
				read_entry(im, &e);
				if (im->j.ret || fio_import_add_entry(im, &e))
					break;
				entry_reset(&e);
			}
		} else {
			jread_skip(&im->j);
		}
		if (im->j.ret)
			break;
	}
	entry_reset(&e);
	if (!im->j.ret && !any)
		jread_fail(&im->j, "not fio output: no \"jobs\" or \"client_stats\"");
	if (!im->j.ret && !im->version[0])
		jread_fail(&im->j, "not fio output: no \"fio version\"");
}
