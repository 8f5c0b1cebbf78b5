// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's JSON output as a drivebench result (fio_import.h). The document is read with the
 * pull reader (json_read.h), one job entry at a time, so a json+ file of many jobs costs
 * one entry's bins at a time beyond the result itself.
 */
#include "fio_import.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "fileio.h"
#include "hist.h"
#include "json_read.h"
#include "result_io.h"
#include "text.h"
#include "units.h"

enum { FD_READ, FD_WRITE, FD_N }; /* the directions imported (trim is not) */
enum { LK_CLAT, LK_LAT, LK_N };	  /* the latencies fio reports */
static const char *const lat_key[LK_N] = {"clat_ns", "lat_ns"};
static const char *const lat_log[LK_N] = {"clat", "lat"};

struct fio_lat {
	bool seen;
	bool have_pct[NPCT];
	bool have_bins;
	uint64_t n, min, max, pct[NPCT];
	double mean, std;
	struct hist *bins; /* malloc'd when json+ gave bins */
};

struct fio_dir {
	uint64_t ios, bytes, bw_bytes, runtime_ms;
	double iops;
	struct fio_lat lat[LK_N];
};

/* One entry of "jobs" or "client_stats". */
struct fio_entry {
	char name[128];
	char host[128]; /* "HOST:PORT" in client/server output; "" locally */
	unsigned groupid;
	int error;
	uint64_t job_runtime_ms;
	struct json_object *opts; /* "job options", owned */
	struct json_object *ss;	  /* "steadystate" without its data, owned; or NULL */
	struct fio_dir d[FD_N];
	size_t at; /* where the entry starts (offset), for messages: entry_line() */
};

/*
 * A step whose thread count waits for the whole document: without group_reporting, fio
 * writes a job of numjobs=N as N entries of one name; with it, one entry (and fio's
 * "job options" leave out an option given without a value, such as group_reporting).
 */
struct pending {
	unsigned phase, step;
	char name[128], host[128];
	unsigned groupid, numjobs, lk;
	size_t at; /* of its entry in the document */
	bool log_avg; /* log_avg_msec given: the logs hold intervals */
	char *iops_prefix, *lat_prefix; /* malloc'd; NULL: no such log */
};

struct importer {
	struct jread j;
	struct result *r;
	const char *file;
	const char *logs_dir;
	char version[64];
	char time[64];
	uint64_t timestamp;
	struct json_object *global;   /* "global options", owned */
	struct json_object *jobs_rec; /* host.fio.jobs, owned by the host record */
	size_t opt_bytes;	      /* of all options kept, against RESULT_MAX_RECORD_BYTES */
	struct pending *pend;	      /* per step, what its threads and logs are resolved from */
	unsigned npend;
	char *err;
	size_t errlen;
};

/* The line of an offset in the document; counted only for a message (not per entry). */
static unsigned entry_line(const struct importer *im, size_t at)
{
	struct jread j = im->j;

	j.p = j.buf + at;
	return jread_line(&j);
}

static int nomem(struct importer *im)
{
	if (!im->j.ret) {
		text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
		im->j.ret = -ENOMEM;
	}
	return im->j.ret;
}

/* ---- reading values ------------------------------------------------------------ */

static bool num_u64(struct importer *im, const char *key, uint64_t *v)
{
	struct jread_num n;

	if (jread_null(&im->j)) {
		*v = 0;
		return true;
	}
	if (jread_number(&im->j, &n)) {
		if (!im->j.ret)
			jread_fail(&im->j, "\"%s\" is not a number", key);
		return false;
	}
	if (n.negative && (n.u || !n.integer)) {
		jread_fail(&im->j, "\"%s\" is negative", key);
		return false;
	}
	if (!n.integer) {
		if (!(n.d >= 0 && n.d < 18446744073709551616.0)) {
			jread_fail(&im->j, "\"%s\" is out of range", key);
			return false;
		}
		*v = (uint64_t)n.d;
	} else {
		*v = n.u;
	}
	return true;
}

static bool num_dbl(struct importer *im, const char *key, double *v)
{
	struct jread_num n;

	if (jread_null(&im->j)) {
		*v = 0;
		return true;
	}
	if (jread_number(&im->j, &n)) {
		if (!im->j.ret)
			jread_fail(&im->j, "\"%s\" is not a number", key);
		return false;
	}
	if (!isfinite(n.d) || n.d < 0) {
		jread_fail(&im->j, "\"%s\" is not a finite number of at least 0", key);
		return false;
	}
	*v = n.d;
	return true;
}

/* An object of strings (fio's options) as a json-c object; numbers are kept as text. */
/* A json-c object to fill from the JSON object that comes next; NULL on an error. */
static struct json_object *begin_record(struct importer *im)
{
	struct json_object *o = json_object_new_object();

	if (!o) {
		nomem(im);
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
			snprintf(num, sizeof(num), "%.17g", n.negative ? -n.d : n.d);
			if (n.integer)
				snprintf(num, sizeof(num), "%s%llu", n.negative ? "-" : "",
					 (unsigned long long)n.u);
			if (!(val = strdup(num))) {
				nomem(im);
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
			num_u64(im, key, &l->min);
		} else if (!strcmp(key, "max")) {
			num_u64(im, key, &l->max);
		} else if (!strcmp(key, "mean")) {
			num_dbl(im, key, &l->mean);
		} else if (!strcmp(key, "stddev")) {
			num_dbl(im, key, &l->std);
		} else if (!strcmp(key, "N")) {
			num_u64(im, key, &l->n);
		} else if (!strcmp(key, "percentile")) {
			if (!jread_object(&im->j))
				return;
			while (jread_member(&im->j, key, sizeof(key))) {
				enum stats_pct p;
				if (!pct_key(key, &p)) {
					jread_skip(&im->j);
					continue;
				}
				if (num_u64(im, "percentile", &l->pct[p]))
					l->have_pct[p] = true;
			}
		} else if (!strcmp(key, "bins")) {
			if (!l->bins && !(l->bins = calloc(1, sizeof(*l->bins)))) {
				nomem(im);
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
				if (!num_u64(im, "bins", &count))
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
			num_u64(im, key, &d->bytes);
		else if (!strcmp(key, "bw_bytes"))
			num_u64(im, key, &d->bw_bytes);
		else if (!strcmp(key, "iops"))
			num_dbl(im, key, &d->iops);
		else if (!strcmp(key, "runtime"))
			num_u64(im, key, &d->runtime_ms);
		else if (!strcmp(key, "total_ios"))
			num_u64(im, key, &d->ios);
		else if (!strcmp(key, lat_key[LK_CLAT]))
			read_lat(im, &d->lat[LK_CLAT]);
		else if (!strcmp(key, lat_key[LK_LAT]))
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
			if (!num_u64(im, key, &v))
				break;
			json_object_object_add(o, key, json_object_new_int64(
							       v > INT64_MAX ? INT64_MAX : (int64_t)v));
		} else if (!strcmp(key, "max_deviation") || !strcmp(key, "slope")) {
			struct jread_num n;
			if (jread_number(&im->j, &n)) {
				jread_fail(&im->j, "steadystate: \"%s\" is not a number", key);
				break;
			}
			d = n.negative ? -n.d : n.d;
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
			if (jread_string(&im->j, e->name, sizeof(e->name)))
				jread_fail(&im->j, "\"jobname\" is not a string");
		} else if (!strcmp(key, "hostname")) {
			if (jread_string(&im->j, e->host, sizeof(e->host) - sizeof(port)))
				jread_fail(&im->j, "\"hostname\" is not a string");
		} else if (!strcmp(key, "port")) {
			if (num_u64(im, key, &v))
				snprintf(port, sizeof(port), ":%llu", (unsigned long long)v);
		} else if (!strcmp(key, "groupid")) {
			if (num_u64(im, key, &v))
				e->groupid = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		} else if (!strcmp(key, "error")) {
			if (num_u64(im, key, &v))
				e->error = v > INT32_MAX ? INT32_MAX : (int)v;
		} else if (!strcmp(key, "job_runtime")) {
			num_u64(im, key, &e->job_runtime_ms);
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

/* ---- the model --------------------------------------------------------------------- */

/* An option of the job, else of the global section; NULL when neither sets it. */
static const char *opt(const struct importer *im, const struct fio_entry *e, const char *key)
{
	struct json_object *v;

	if (e->opts && json_object_object_get_ex(e->opts, key, &v))
		return json_object_get_string(v);
	if (im->global && json_object_object_get_ex(im->global, key, &v))
		return json_object_get_string(v);
	return NULL;
}

static bool opt_bool(const struct importer *im, const struct fio_entry *e, const char *key)
{
	const char *v = opt(im, e, key);
	/* a bare "group_reporting" reads as "" */
	return v && strcmp(v, "0") && strcmp(v, "false");
}

static unsigned opt_uint(const struct importer *im, const struct fio_entry *e, const char *key,
			 unsigned dflt)
{
	const char *v = opt(im, e, key);
	uint64_t n;

	if (!v || units_parse_uint(v, 1, 1u << 20, &n))
		return dflt;
	return (unsigned)n;
}

/* The latency the step reports: the one fio gave percentiles or bins of. */
static unsigned entry_lat_kind(const struct fio_entry *e)
{
	for (unsigned d = 0; d < FD_N; d++) {
		const struct fio_lat *l = &e->d[d].lat[LK_LAT];
		if (l->have_bins)
			return LK_LAT;
	}
	for (unsigned d = 0; d < FD_N; d++)
		if (e->d[d].lat[LK_CLAT].have_bins)
			return LK_CLAT;
	for (unsigned d = 0; d < FD_N; d++)
		for (unsigned p = 0; p < NPCT; p++)
			if (e->d[d].lat[LK_LAT].have_pct[p])
				return LK_LAT;
	return LK_CLAT;
}

static bool entry_has_bins(const struct fio_entry *e, unsigned lk)
{
	bool any = false;

	for (unsigned d = 0; d < FD_N; d++) {
		if (e->d[d].ios && !e->d[d].lat[lk].have_bins)
			return false;
		any |= e->d[d].lat[lk].have_bins;
	}
	return any;
}

/* The workload the job ran, as far as its options say; counts fill in the rest. */
static void entry_workload(const struct importer *im, const struct fio_entry *e,
			   struct workload *wl)
{
	const char *v;
	uint64_t n;
	char err[256];

	workload_defaults(wl);
	/* fio's rw: read (its default), write, randread, randwrite, rw, randrw; ":N" after */
	char rw[32] = "";
	if ((v = opt(im, e, "rw")) || (v = opt(im, e, "readwrite")))
		text_copy(rw, sizeof(rw), v);
	else if (!e->opts)
		snprintf(rw, sizeof(rw), "unknown"); /* fio's client leaves them out at times */
	else
		snprintf(rw, sizeof(rw), "read"); /* fio's default */
	rw[strcspn(rw, ":")] = '\0';
	wl->pattern = strncmp(rw, "rand", 4) ? WL_SEQUENTIAL : WL_RANDOM;
	if (!strcmp(rw, "read") || !strcmp(rw, "randread"))
		wl->read_pct = 100;
	else if (!strcmp(rw, "write") || !strcmp(rw, "randwrite"))
		wl->read_pct = 0;
	else if (!strcmp(rw, "rw") || !strcmp(rw, "readwrite") || !strcmp(rw, "randrw"))
		wl->read_pct = opt_uint(im, e, "rwmixread", 100 - opt_uint(im, e, "rwmixwrite", 50));
	else /* trims, or unknown: what was read and written says the mix */
		wl->read_pct = (unsigned)(100 * e->d[FD_READ].ios /
					  (e->d[FD_READ].ios + e->d[FD_WRITE].ios + !e->d[FD_READ].ios));
	if (wl->read_pct > 100)
		wl->read_pct = 100;
	wl->nsplit = 0;
	wl->bs = 4096; /* fio's default */
	if ((v = opt(im, e, "bssplit")) && !workload_parse_bssplit(wl, v, err, sizeof(err))) {
		/* kept */
	} else if ((v = opt(im, e, "bs")) || (v = opt(im, e, "blocksize"))) {
		char bs[32];
		wl->nsplit = 0;
		text_copy(bs, sizeof(bs), v);
		bs[strcspn(bs, ",-:")] = '\0'; /* "4k,8k" read,write; "4k-16k" a range */
		if (!units_parse_size(bs, &n) && n && n <= UINT32_MAX)
			wl->bs = (uint32_t)n;
	}
	wl->threads = 1; /* resolve_threads() */
	wl->qdepth = opt_uint(im, e, "iodepth", 1);
	if ((v = opt(im, e, "ramp_time")) && !units_parse_duration(v, &n))
		wl->ramp_ns = n;
	if ((v = opt(im, e, "rate_iops")) && !units_parse_uint(v, 0, UINT32_MAX, &n))
		wl->rate_iops = n; /* per job: resolve_threads() makes it the total */
	if ((v = opt(im, e, "size")) && *v) {
		double pct;
		size_t l = strlen(v);
		char num[32];
		if (v[l - 1] == '%' && l < sizeof(num)) {
			snprintf(num, sizeof(num), "%.*s", (int)(l - 1), v);
			if (!units_parse_double(num, 0.000001, 100, &pct))
				wl->range_pct = pct;
		} else if (!units_parse_size(v, &n)) {
			wl->range_size = n;
		}
	}
	if ((v = opt(im, e, "offset")) && !units_parse_size(v, &n))
		wl->range_start = n;
	if ((v = opt(im, e, "log_avg_msec")) && !units_parse_uint(v, 1, UINT32_MAX, &n))
		wl->interval_ns = n * 1000000;
	if ((v = opt(im, e, "randseed")) && !units_parse_uint(v, 0, UINT64_MAX, &n))
		wl->seed = n;
	if (opt_bool(im, e, "zero_buffers"))
		wl->data = WL_DATA_ZERO;
	else if ((v = opt(im, e, "buffer_compress_percentage")) &&
		 !units_parse_uint(v, 1, 100, &n)) {
		wl->data = WL_DATA_COMPRESS;
		wl->compress_pct = (unsigned)n;
	}
}

/*
 * Reads and writes together: counts and rates add, means weigh by I/O count, variances
 * pool (the sums of squares each direction's mean and n-1 std dev imply).
 */
static void combine(struct sample *s)
{
	const struct dir_stats *a = &s->d[DIR_READ], *b = &s->d[DIR_WRITE];
	struct dir_stats *all = &s->d[DIR_ALL];
	long double n = (long double)a->ios + b->ios;

	if (!a->ios || !b->ios) {
		*all = a->ios ? *a : *b;
		return;
	}
	memset(all, 0, sizeof(*all));
	all->ios = a->ios + b->ios;
	all->bytes = a->bytes + b->bytes;
	all->iops = a->iops + b->iops;
	all->mbps = a->mbps + b->mbps;
	long double mean = ((long double)a->mean_ns * a->ios + (long double)b->mean_ns * b->ios) / n;
	long double sq = 0;
	const struct dir_stats *ds[2] = {a, b};
	for (unsigned i = 0; i < 2; i++)
		sq += (long double)ds[i]->std_ns * ds[i]->std_ns * (ds[i]->ios - 1) +
		      (long double)ds[i]->mean_ns * ds[i]->mean_ns * ds[i]->ios;
	long double var = n > 1 ? (sq - n * mean * mean) / (n - 1) : 0;
	all->mean_ns = (double)mean;
	all->std_ns = var > 0 ? (double)sqrtl(var) : 0;
	all->min_ns = a->min_ns < b->min_ns ? a->min_ns : b->min_ns;
	all->max_ns = a->max_ns > b->max_ns ? a->max_ns : b->max_ns;
}

static void fill_dir(struct dir_stats *ds, const struct fio_dir *d, unsigned lk)
{
	const struct fio_lat *l = &d->lat[lk];

	memset(ds, 0, sizeof(*ds));
	ds->ios = d->ios;
	ds->bytes = d->bytes;
	ds->iops = d->iops;
	ds->mbps = (double)d->bw_bytes / 1e6;
	if (!d->ios)
		return;
	ds->mean_ns = l->mean;
	ds->std_ns = l->std;
	ds->min_ns = l->min;
	ds->max_ns = l->max;
	for (unsigned p = 0; p < NPCT; p++)
		ds->pct_ns[p] = l->have_pct[p] ? l->pct[p] : 0;
}

/* Percentiles from histograms, as drivebench computes its own (hist.h). */
static void hist_pcts(struct dir_stats *ds, const struct hist *h)
{
	if (hist_count(h))
		hist_percentiles(h, stats_pct_value, NPCT, ds->pct_ns);
}

/* Fill step st from entry e (no samples). 0 or -ENOMEM. */
static int make_step(struct importer *im, struct result_step *st, const struct fio_entry *e)
{
	unsigned lk = entry_lat_kind(e);
	bool bins = entry_has_bins(e, lk);
	static const struct hist empty;
	uint64_t runtime_ms = 0;

	for (unsigned d = 0; d < FD_N; d++) {
		fill_dir(&st->summary.d[d], &e->d[d], lk);
		if (e->d[d].runtime_ms > runtime_ms)
			runtime_ms = e->d[d].runtime_ms;
	}
	if (!runtime_ms)
		runtime_ms = e->job_runtime_ms;
	st->summary.dur_ns = runtime_ms > UINT64_MAX / 1000000 ? UINT64_MAX : runtime_ms * 1000000;
	st->wl.time_ns = st->summary.dur_ns;
	if (bins) {
		const struct hist *rd = e->d[FD_READ].lat[lk].bins, *wr = e->d[FD_WRITE].lat[lk].bins;
		struct hist *all = malloc(sizeof(*all));
		if (!all)
			return -ENOMEM;
		*all = rd ? *rd : empty;
		if (wr)
			hist_merge(all, wr);
		if (result_step_set_hist(st, rd ? rd : &empty, wr ? wr : &empty)) {
			free(all);
			return -ENOMEM;
		}
		hist_pcts(&st->summary.d[DIR_READ], rd ? rd : &empty);
		hist_pcts(&st->summary.d[DIR_WRITE], wr ? wr : &empty);
		combine(&st->summary);
		hist_pcts(&st->summary.d[DIR_ALL], all);
		free(all);
	} else {
		combine(&st->summary);
		if (st->summary.d[DIR_READ].ios && st->summary.d[DIR_WRITE].ios)
			memset(st->summary.d[DIR_ALL].pct_ns, 0, sizeof(st->summary.d[0].pct_ns));
		if (result_step_warn(st, SW_NO_HISTOGRAM,
				     "fio's plain json output: %s percentiles are fio's own, "
				     "no histogram",
				     lat_key[lk]))
			return -ENOMEM;
	}
	snprintf(st->engine, sizeof(st->engine), "%s %s (%s)", im->version,
		 opt(im, e, "ioengine") ? opt(im, e, "ioengine") : "psync", lat_key[lk]);
	text_fix(st->engine, sizeof(st->engine));
	if (e->error) {
		st->status = RS_FAILED;
		text_fmt(st->error, sizeof(st->error), "fio error %d (%s)", e->error,
			 strerror(e->error));
	} else {
		st->status = RS_COMPLETE;
	}
	return 0;
}

/* ---- per-interval logs --------------------------------------------------------------- */

struct log_entry {
	uint64_t t_ms;
	double v;
};

struct log {
	struct log_entry *e[FD_N];
	unsigned n[FD_N];
};

static void log_free(struct log *l)
{
	for (unsigned d = 0; d < FD_N; d++)
		free(l->e[d]);
	memset(l, 0, sizeof(*l));
}

/*
 * The file prefix_kind.N.log in the logs directory ("prefix_kind.log" when fio wrote one
 * log for all threads, per_job_logs=0). 0, -ENOENT (no such log), or an error.
 */
static int log_read(struct importer *im, const char *prefix, const char *kind, unsigned thread,
		    struct log *out)
{
	char path[4096], *text = NULL;
	size_t len;
	const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
	int ret;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/%s_%s.%u.log", im->logs_dir, base, kind, thread);
	ret = fileio_read(path, "a fio log", FIO_IMPORT_MAX_BYTES, &text, &len, im->err,
			  im->errlen);
	if (ret == -ENOENT) {
		snprintf(path, sizeof(path), "%s/%s_%s.log", im->logs_dir, base, kind);
		ret = fileio_read(path, "a fio log", FIO_IMPORT_MAX_BYTES, &text, &len, im->err,
				  im->errlen);
	}
	if (ret)
		return ret;
	unsigned line = 1, cap[FD_N] = {0};
	for (char *p = text, *next; p < text + len; p = next, line++) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p));
		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		if (strspn(p, " \t\r") == strlen(p))
			continue;
		unsigned long long t, ddir;
		double v;
		int used = 0;
		if (strlen(p) != (size_t)((nl ? nl : text + len) - p)) {
			ret = -EINVAL;
			text_fmt(im->err, im->errlen, "%s:%u: a NUL byte in the line", path, line);
			goto out;
		}
		if (sscanf(p, " %llu , %lf , %llu ,%n", &t, &v, &ddir, &used) < 3 || used == 0 ||
		    !isfinite(v) || v < 0) {
			ret = -EINVAL;
			text_fmt(im->err, im->errlen,
				 "%s:%u: not a line of a fio log (time, value, direction, ...)",
				 path, line);
			goto out;
		}
		if (t > UINT64_MAX / 1000000 / 2) {
			ret = -EINVAL;
			text_fmt(im->err, im->errlen, "%s:%u: the time %llu ms is out of range", path,
				 line, t);
			goto out;
		}
		if (ddir >= FD_N)
			continue; /* trim */
		if (out->n[ddir] >= RESULT_MAX_SAMPLES) {
			ret = -E2BIG;
			text_fmt(im->err, im->errlen, "%s:%u: more than %u intervals", path, line,
				 RESULT_MAX_SAMPLES);
			goto out;
		}
		if (out->n[ddir] == cap[ddir]) {
			unsigned c = cap[ddir] ? cap[ddir] * 2 : 64;
			struct log_entry *ne = realloc(out->e[ddir], c * sizeof(*ne));
			if (!ne) {
				ret = -ENOMEM;
				text_fmt(im->err, im->errlen, "%s: out of memory", path);
				goto out;
			}
			out->e[ddir] = ne;
			cap[ddir] = c;
		}
		out->e[ddir][out->n[ddir]++] = (struct log_entry){t, v};
	}
out:
	if (ret)
		log_free(out);
	free(text);
	return ret;
}

/* A count from a rate: rounded, and held at 2^64-1 (a hostile log's rates). */
static uint64_t to_u64(double v)
{
	return v < 18446744073709549568.0 ? (uint64_t)(v + 0.5) : UINT64_MAX;
}

/*
 * The samples of step st from the logs of the threads first..first+n-1. IOPS are summed
 * and latency means weighted by IOPS, interval by interval; the interval's time is the
 * first thread's.
 */
static int step_samples(struct importer *im, struct result_step *st, const struct pending *pd,
			unsigned first, unsigned n)
{
	const char *iops_prefix = pd->iops_prefix, *lat_prefix = pd->lat_prefix;
	struct log *iops = NULL, *lat = NULL;
	unsigned nint = UINT32_MAX, lk = pd->lk;
	int ret = 0;

	if (!iops_prefix)
		return 0;
	/* a log option without a name: fio names the files after the job */
	if (!*iops_prefix)
		iops_prefix = pd->name;
	if (lat_prefix && !*lat_prefix)
		lat_prefix = pd->name;
	if (!pd->log_avg) {
		text_fmt(im->err, im->errlen,
			 "%s:%u: job '%s' logged IOPS without log_avg_msec: every I/O, not "
			 "intervals; run fio with log_avg_msec=1000",
			 im->file, entry_line(im, pd->at), pd->name);
		return -EINVAL;
	}
	iops = calloc(n, sizeof(*iops));
	lat = calloc(n, sizeof(*lat));
	if (!iops || !lat) {
		ret = -ENOMEM;
		text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
		goto out;
	}
	for (unsigned t = 0; t < n; t++) {
		if ((ret = log_read(im, iops_prefix, "iops", first + t, &iops[t])))
			goto out;
		if (lat_prefix && (ret = log_read(im, lat_prefix, lat_log[lk], first + t, &lat[t])))
			goto out;
		for (unsigned d = 0; d < FD_N; d++)
			if (st->summary.d[d].ios && iops[t].n[d] < nint)
				nint = iops[t].n[d];
	}
	if (nint == UINT32_MAX)
		nint = 0;
	double avg_bs[FD_N];
	for (unsigned d = 0; d < FD_N; d++)
		avg_bs[d] = st->summary.d[d].ios
				    ? (double)st->summary.d[d].bytes / (double)st->summary.d[d].ios
				    : 0;
	uint64_t prev_ms = 0;
	for (unsigned i = 0; i < nint; i++) {
		struct sample s;
		uint64_t end_ms = 0;
		memset(&s, 0, sizeof(s));
		for (unsigned d = 0; d < FD_N && !end_ms; d++)
			if (st->summary.d[d].ios)
				end_ms = iops[0].e[d][i].t_ms;
		if (end_ms <= prev_ms)
			end_ms = prev_ms + st->wl.interval_ns / 1000000;
		if (end_ms > UINT64_MAX / 1000000 / 2)
			break; /* past any time a log can have */
		s.index = i;
		s.start_ns = prev_ms * 1000000;
		s.dur_ns = (end_ms - prev_ms) * 1000000;
		prev_ms = end_ms;
		for (unsigned d = 0; d < FD_N; d++) {
			struct dir_stats *ds = &s.d[d];
			double lat_w = 0, lat_sum = 0;
			if (!st->summary.d[d].ios)
				continue;
			for (unsigned t = 0; t < n; t++) {
				double v = iops[t].e[d][i].v;
				ds->iops += v;
				if (lat[t].n[d] > i) {
					lat_sum += lat[t].e[d][i].v * v;
					lat_w += v;
				}
			}
			ds->ios = to_u64(ds->iops * (double)s.dur_ns / 1e9);
			ds->bytes = to_u64((double)ds->ios * avg_bs[d]);
			ds->mbps = ds->iops * avg_bs[d] / 1e6;
			ds->mean_ns = lat_w > 0 ? lat_sum / lat_w : 0;
		}
		combine(&s);
		s.d[DIR_ALL].std_ns = 0; /* not in the logs, as the directions' */
		if ((ret = result_step_add_sample(st, &s))) {
			text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
			goto out;
		}
	}
out:
	for (unsigned t = 0; iops && t < n; t++)
		log_free(&iops[t]);
	for (unsigned t = 0; lat && t < n; t++)
		log_free(&lat[t]);
	free(iops);
	free(lat);
	return ret;
}

/* ---- aggregates over hosts ---------------------------------------------------------- */

/* Add step b (another host's run of the same job) into a. */
static int step_add(struct result_step *a, const struct result_step *b)
{
	struct hist *ha = NULL, *hb = NULL;
	int ret = 0;

	for (unsigned d = DIR_READ; d <= DIR_WRITE; d++) {
		struct dir_stats *x = &a->summary.d[d];
		const struct dir_stats *y = &b->summary.d[d];
		struct sample two = {0};
		if (!y->ios)
			continue;
		if (!x->ios) {
			*x = *y;
			continue;
		}
		/* the two hosts as the two directions of combine() */
		two.d[DIR_READ] = *x;
		two.d[DIR_WRITE] = *y;
		combine(&two);
		*x = two.d[DIR_ALL];
	}
	if (b->summary.dur_ns > a->summary.dur_ns)
		a->summary.dur_ns = b->summary.dur_ns;
	if (!a->hist || !b->hist) {
		/* no histogram on one host: percentiles are not known for the sum */
		for (unsigned d = 0; d < NDIR; d++)
			memset(a->summary.d[d].pct_ns, 0, sizeof(a->summary.d[d].pct_ns));
		combine(&a->summary);
		return 0;
	}
	ha = calloc(2, sizeof(*ha));
	hb = calloc(2, sizeof(*hb));
	if (!ha || !hb) {
		ret = -ENOMEM;
		goto out;
	}
	result_step_get_hist(a, &ha[0], &ha[1]);
	result_step_get_hist(b, &hb[0], &hb[1]);
	hist_merge(&ha[0], &hb[0]);
	hist_merge(&ha[1], &hb[1]);
	if ((ret = result_step_set_hist(a, &ha[0], &ha[1])))
		goto out;
	hist_pcts(&a->summary.d[DIR_READ], &ha[0]);
	hist_pcts(&a->summary.d[DIR_WRITE], &ha[1]);
	combine(&a->summary);
	hist_merge(&ha[0], &ha[1]);
	hist_pcts(&a->summary.d[DIR_ALL], &ha[0]);
out:
	free(ha);
	free(hb);
	return ret;
}

/* ---- the document ------------------------------------------------------------------- */

static struct result_phase *phase_for(struct importer *im, const char *host)
{
	char name[32];
	struct result *r = im->r;

	if (!host[0])
		snprintf(name, sizeof(name), "fio");
	else
		text_fmt(name, sizeof(name), "fio @%s", host);
	for (unsigned p = 0; p < r->nphases; p++)
		if (!strcmp(r->phases[p].name, name))
			return &r->phases[p];
	struct result_phase *ph = result_add_phase(r, name, PH_RUN);
	if (ph)
		ph->status = RS_COMPLETE;
	return ph;
}

static int add_entry(struct importer *im, struct fio_entry *e)
{
	struct result *r = im->r;
	struct result_phase *ph;
	struct result_step *st;
	struct workload wl;
	int ret;

	if (!strcmp(e->name, "All clients"))
		return 0; /* fio's sum of every group: the aggregate phase does it per job */
	if (result_nsteps(r) >= RESULT_MAX_STEPS) {
		text_fmt(im->err, im->errlen, "%s:%u: more than %u jobs", im->file, entry_line(im, e->at),
			 RESULT_MAX_STEPS);
		return -E2BIG;
	}
	entry_workload(im, e, &wl);
	if (!(ph = phase_for(im, e->host)) || !(st = result_add_step(ph, e->name, &wl)))
		return nomem(im);
	if ((ret = make_step(im, st, e)))
		return nomem(im);
	if (st->status == RS_FAILED)
		ph->status = r->status = RS_FAILED;
	if (!(im->npend & (im->npend - 1))) {
		struct pending *np = realloc(im->pend, (im->npend ? im->npend * 2 : 1) * sizeof(*np));
		if (!np)
			return nomem(im);
		im->pend = np;
	}
	struct pending *pd = &im->pend[im->npend++];
	const char *iops_log = opt(im, e, "write_iops_log"), *lat_log_opt = opt(im, e, "write_lat_log");
	memset(pd, 0, sizeof(*pd));
	pd->phase = (unsigned)(ph - r->phases);
	pd->step = ph->nsteps - 1;
	memcpy(pd->name, e->name, sizeof(pd->name));
	memcpy(pd->host, e->host, sizeof(pd->host));
	pd->groupid = e->groupid;
	pd->numjobs = opt_uint(im, e, "numjobs", 1);
	pd->lk = entry_lat_kind(e);
	pd->at = e->at;
	pd->log_avg = opt(im, e, "log_avg_msec") != NULL;
	if ((iops_log && !(pd->iops_prefix = strdup(iops_log))) ||
	    (lat_log_opt && !(pd->lat_prefix = strdup(lat_log_opt))))
		return nomem(im);

	/* the job's options, as fio printed them, in the host record */
	struct json_object *job = json_object_new_object();
	if (!job)
		return nomem(im);
	json_object_object_add(job, "name", json_object_new_string(st->label));
	if (e->host[0])
		json_object_object_add(job, "host", json_object_new_string(e->host));
	json_object_object_add(job, "options", e->opts ? e->opts : json_object_new_object());
	if (e->ss) {
		json_object_object_add(job, "steadystate", e->ss);
		e->ss = NULL;
	}
	e->opts = NULL;
	json_object_array_add(im->jobs_rec, job);
	return 0;
}

/*
 * Threads per step, and the steps' samples from the logs (numbering threads as fio does:
 * from 1, in job order). A run of entries of one job (name, group, host) as long as its
 * numjobs is one entry per thread; a shorter one is a group report.
 */
static int resolve_threads(struct importer *im)
{
	unsigned thread = 1;

	for (unsigned i = 0, j; i < im->npend; i = j) {
		const struct pending *a = &im->pend[i];
		for (j = i + 1; j < im->npend; j++) {
			const struct pending *b = &im->pend[j];
			if (strcmp(a->name, b->name) || strcmp(a->host, b->host) ||
			    a->groupid != b->groupid || a->numjobs != b->numjobs)
				break;
		}
		unsigned per = j - i >= a->numjobs ? 1 : a->numjobs;
		for (unsigned k = i; k < j; k++) {
			const struct pending *pd = &im->pend[k];
			struct result_step *st = &im->r->phases[pd->phase].steps[pd->step];
			st->wl.threads = per;
			st->wl.rate_iops *= per;
			/* one entry per thread: told apart as "job #1", "job #2" ... */
			if (per == 1 && j - i > 1)
				text_fmt(st->label, sizeof(st->label), "%.50s #%u", pd->name, k - i + 1);
			if (im->logs_dir && !pd->host[0]) {
				int ret = step_samples(im, st, pd, thread, per);
				if (ret) {
					im->j.ret = ret;
					return ret;
				}
			}
			thread += per;
		}
	}
	return 0;
}

/* With several hosts, phase "fio" becomes the sum of the hosts' runs of each job. */
static int aggregate(struct importer *im)
{
	struct result *r = im->r;
	unsigned nhosts = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		nhosts += !strncmp(r->phases[p].name, "fio @", 5);
	if (nhosts < 2)
		return 0;
	struct result_phase *agg = result_add_phase(r, "fio", PH_RUN);
	if (!agg)
		return nomem(im);
	agg->status = RS_COMPLETE;
	/* the aggregate first: move it to the front */
	struct result_phase tmp = r->phases[r->nphases - 1];
	memmove(&r->phases[1], &r->phases[0], (r->nphases - 1) * sizeof(*r->phases));
	r->phases[0] = tmp;
	agg = &r->phases[0];
	for (unsigned p = 1; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct result_step *src = &ph->steps[s];
			struct result_step *dst = NULL;
			for (unsigned k = 0; k < agg->nsteps && !dst; k++)
				if (!strcmp(agg->steps[k].label, src->label))
					dst = &agg->steps[k];
			if (dst) {
				if (step_add(dst, src))
					return nomem(im);
				dst->wl.threads += src->wl.threads;
				if (src->status == RS_FAILED)
					dst->status = RS_FAILED;
				continue;
			}
			dst = result_add_step(agg, src->label, &src->wl);
			if (!dst)
				return nomem(im);
			dst->summary = src->summary;
			dst->status = src->status;
			memcpy(dst->error, src->error, sizeof(dst->error));
			memcpy(dst->engine, src->engine, sizeof(dst->engine));
			for (unsigned w = 0; w < src->nwarnings; w++)
				if (result_step_warn(dst, SW_NO_HISTOGRAM, "%s",
						     src->warnings[w].text))
					return nomem(im);
			if (src->hist) {
				struct hist *h = calloc(2, sizeof(*h));
				if (!h)
					return nomem(im);
				result_step_get_hist(src, &h[0], &h[1]);
				int ret = result_step_set_hist(dst, &h[0], &h[1]);
				free(h);
				if (ret)
					return nomem(im);
			}
		}
	}
	return 0;
}

static void iso_time(char *buf, size_t len, uint64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t > (uint64_t)INT32_MAX * 64 || !gmtime_r(&tt, &tm))
		snprintf(buf, len, "%s", "");
	else
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void read_document(struct importer *im)
{
	struct fio_entry e = {0};
	char key[64];
	bool any = false;

	if (!jread_object(&im->j))
		return;
	while (jread_member(&im->j, key, sizeof(key))) {
		if (!strcmp(key, "fio version")) {
			if (jread_string(&im->j, im->version, sizeof(im->version)))
				jread_fail(&im->j, "\"fio version\" is not a string");
		} else if (!strcmp(key, "time")) {
			if (jread_string(&im->j, im->time, sizeof(im->time)))
				jread_fail(&im->j, "\"time\" is not a string");
		} else if (!strcmp(key, "timestamp")) {
			num_u64(im, key, &im->timestamp);
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
				if (im->j.ret || add_entry(im, &e))
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

/* The target: the first job's filename (a device under /dev is a block device). */
static struct json_object *target_record(const struct importer *im)
{
	struct json_object *t = json_object_new_object(), *jobs = im->jobs_rec, *o, *v;
	const char *path = NULL;

	if (!t)
		return NULL;
	for (size_t i = 0; !path && i < json_object_array_length(jobs); i++) {
		o = json_object_array_get_idx(jobs, i);
		if (json_object_object_get_ex(o, "options", &o) &&
		    json_object_object_get_ex(o, "filename", &v))
			path = json_object_get_string(v);
	}
	if (!path && im->global && json_object_object_get_ex(im->global, "filename", &v))
		path = json_object_get_string(v);
	if (!path)
		path = "";
	json_object_object_add(t, "path", json_object_new_string(path));
	json_object_object_add(t, "kind", json_object_new_string(
						  strncmp(path, "/dev/", 5) ? "file" : "block"));
	return t;
}

int fio_import_buf(struct result *r, const char *buf, size_t len, const char *file,
		   const char *logs_dir, char *err, size_t errlen)
{
	struct importer im = {.r = r, .file = file, .logs_dir = logs_dir, .err = err,
			      .errlen = errlen};
	const char *start = buf;
	struct json_object *fio = NULL;
	char hosts[1024] = "";
	int ret;

	result_init(r);
	/* the document starts at the first line that opens an object */
	while (start < buf + len && *start != '{') {
		const char *nl = memchr(start, '\n', (size_t)(buf + len - start));
		start = nl ? nl + 1 : buf + len;
	}
	jread_init(&im.j, buf, len, file, err, errlen);
	im.j.p = start;
	if (start >= buf + len) {
		jread_fail(&im.j, "not fio's JSON output (--output-format=json or json+): no "
				  "line starts an object");
		goto out;
	}
	im.jobs_rec = json_object_new_array();
	fio = json_object_new_object();
	r->host = json_object_new_object();
	if (!im.jobs_rec || !fio || !r->host) {
		nomem(&im);
		goto out;
	}
	r->status = RS_COMPLETE;
	read_document(&im);
	if (im.j.ret || resolve_threads(&im) || aggregate(&im))
		goto out;
	if (!r->nphases) {
		jread_fail(&im.j, "fio ran no job");
		goto out;
	}

	/* host: fio's version and the options of every job; the host's name when known */
	for (unsigned p = 0; p < r->nphases; p++)
		if (!strncmp(r->phases[p].name, "fio @", 5))
			text_fmt(hosts + strlen(hosts), sizeof(hosts) - strlen(hosts), "%s%s",
				 hosts[0] ? ", " : "", r->phases[p].name + 5);
	if (hosts[0])
		json_object_object_add(r->host, "hostname", json_object_new_string(hosts));
	json_object_object_add(fio, "version", json_object_new_string(im.version));
	json_object_object_add(fio, "source", json_object_new_string(file));
	json_object_object_add(fio, "time", json_object_new_string(im.time));
	json_object_object_add(fio, "global options",
			       im.global ? json_object_get(im.global) : json_object_new_object());
	if (!(r->target = target_record(&im))) {
		nomem(&im);
		goto out;
	}
	json_object_object_add(fio, "jobs", im.jobs_rec);
	im.jobs_rec = NULL;
	json_object_object_add(r->host, "fio", fio);
	fio = NULL;
	/* fio's timestamp is when it wrote its output */
	iso_time(r->started, sizeof(r->started), im.timestamp);
	iso_time(r->ended, sizeof(r->ended), im.timestamp);
out:
	ret = im.j.ret;
	for (unsigned i = 0; i < im.npend; i++) {
		free(im.pend[i].iops_prefix);
		free(im.pend[i].lat_prefix);
	}
	free(im.pend);
	if (im.jobs_rec)
		json_object_put(im.jobs_rec);
	if (fio)
		json_object_put(fio);
	if (im.global)
		json_object_put(im.global);
	if (ret)
		result_free(r);
	return ret;
}

int fio_import_file(struct result *r, const char *path, const char *logs_dir, char *err,
		    size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	result_init(r);
	ret = fileio_read(path, "fio's JSON output", FIO_IMPORT_MAX_BYTES, &text, &len, err,
			  errlen);
	if (ret)
		return ret;
	if (text_utf8_fix_buf(&text, &len)) {
		free(text);
		text_fmt(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = fio_import_buf(r, text, len, path, logs_dir, err, errlen);
	free(text);
	return ret;
}
