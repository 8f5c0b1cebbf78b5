// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result files: the in-memory model of a run and its "drivebench-result" JSON form.
 *
 * Writing streams the document in the order documented in result.h ("format" and
 * "version" first, so `head -c 60` tells what a file is) without building a tree: saving
 * a 6-hour run costs no memory beyond the run. Reading pulls values from the file as it
 * goes (json_read.h), strict about structure and numbers (a phase that is not an object,
 * a negative count, a value past a limit: an error naming where it is) and lenient about
 * missing leaves (a missing number reads as 0), so hand-trimmed files and autosaves
 * still load. Strings are repaired to well-formed UTF-8 as they are read.
 */
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
#include "result_io.h"
#include "text.h"
#include "units.h"
#include "version.h"

const char *const result_status_name[] = {
	[RS_COMPLETE] = "complete",	[RS_ABORTED] = "aborted", [RS_FAILED] = "failed",
	[RS_INCOMPLETE] = "incomplete", [RS_PENDING] = "pending",
};

const char *const phase_kind_name[] = {
	[PH_PURGE] = "purge",
	[PH_PRECONDITION] = "precondition",
	[PH_MEASURE] = "measure",
	[PH_RUN] = "run",
};

#define NSTATUS (sizeof(result_status_name) / sizeof(result_status_name[0]))
#define NKIND	(sizeof(phase_kind_name) / sizeof(phase_kind_name[0]))

#define X(id, code, about) [id] = code,
const char *const step_warning_code[SW_COUNT] = {STEP_WARNINGS(X)};
#undef X
#define X(id, code, about) [id] = about,
const char *const step_warning_about[SW_COUNT] = {STEP_WARNINGS(X)};
#undef X

static const char *const dir_key[NDIR] = {
	[DIR_READ] = "read",
	[DIR_WRITE] = "write",
	[DIR_ALL] = "all",
};

/* The fields of struct dir_stats, declared once: key in files, and where it lives. */
enum dfield {
	DF_IOS,
	DF_BYTES,
	DF_IOPS,
	DF_MBPS,
	DF_MEAN,
	DF_STD,
	DF_MIN,
	DF_MAX,
	DF_P50,
	DF_P90,
	DF_P99,
	DF_P999,
	DF_P9999,
	NDF
};

static const struct {
	const char *key;
	bool is_double;
	size_t off;
} dfield[NDF] = {
#define U(id, k, f) [id] = {k, false, offsetof(struct dir_stats, f)}
#define D(id, k, f) [id] = {k, true, offsetof(struct dir_stats, f)}
	U(DF_IOS, "ios", ios),
	U(DF_BYTES, "bytes", bytes),
	D(DF_IOPS, "iops", iops),
	D(DF_MBPS, "mbps", mbps),
	D(DF_MEAN, "mean_ns", mean_ns),
	D(DF_STD, "std_ns", std_ns),
	U(DF_MIN, "min_ns", min_ns),
	U(DF_MAX, "max_ns", max_ns),
	/* "<stats_pct_name>_ns" */
	U(DF_P50, "p50_ns", pct_ns[PCT_50]),
	U(DF_P90, "p90_ns", pct_ns[PCT_90]),
	U(DF_P99, "p99_ns", pct_ns[PCT_99]),
	U(DF_P999, "p99.9_ns", pct_ns[PCT_999]),
	U(DF_P9999, "p99.99_ns", pct_ns[PCT_9999]),
#undef U
#undef D
};

static uint64_t *df_u64(struct dir_stats *d, enum dfield f)
{
	return (uint64_t *)((char *)d + dfield[f].off);
}

static double *df_dbl(struct dir_stats *d, enum dfield f)
{
	return (double *)((char *)d + dfield[f].off);
}

static uint64_t df_get_u64(const struct dir_stats *d, enum dfield f)
{
	return *(const uint64_t *)((const char *)d + dfield[f].off);
}

static double df_get_dbl(const struct dir_stats *d, enum dfield f)
{
	return *(const double *)((const char *)d + dfield[f].off);
}

/* ---- the model ------------------------------------------------------------------ */

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	r->version = RESULT_VERSION;
	snprintf(r->tool_version, sizeof(r->tool_version), "%s", DB_VERSION);
	r->status = RS_PENDING;
	r->scale = 1.0;
}

static void hist_free(struct step_hist *h)
{
	if (h)
		free(h->pair);
	free(h);
}

static void step_free(struct result_step *s)
{
	result_step_clear_samples(s);
	hist_free(s->hist);
	free(s->warnings);
	s->hist = NULL;
	s->warnings = NULL;
	s->nwarnings = 0;
}

/* Codes and texts are repaired and cut on a character boundary (they may come from a file). */
static int add_warning(struct result_step *s, const char *code, const char *text)
{
	struct result_warning *w = NULL;

	for (unsigned i = 0; i < s->nwarnings; i++)
		if (!strcmp(s->warnings[i].code, code))
			w = &s->warnings[i];
	if (!w) {
		if (s->nwarnings >= RESULT_MAX_WARNINGS)
			return -E2BIG;
		w = realloc(s->warnings, (s->nwarnings + 1) * sizeof(*w));
		if (!w)
			return -ENOMEM;
		s->warnings = w;
		w = &s->warnings[s->nwarnings++];
		text_copy(w->code, sizeof(w->code), code);
	}
	text_copy(w->text, sizeof(w->text), text);
	return 0;
}

int result_step_warn(struct result_step *s, enum step_warning w, const char *fmt, ...)
{
	char text[sizeof(s->warnings[0].text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return add_warning(s, step_warning_code[w], text);
}

const struct result_warning *result_step_warning(const struct result_step *s, const char *code)
{
	for (unsigned i = 0; i < s->nwarnings; i++)
		if (!strcmp(s->warnings[i].code, code))
			return &s->warnings[i];
	return NULL;
}

void result_free(struct result *r)
{
	for (unsigned p = 0; p < r->nphases; p++) {
		struct result_phase *ph = &r->phases[p];
		for (unsigned s = 0; s < ph->nsteps; s++)
			step_free(&ph->steps[s]);
		free(ph->steps);
	}
	free(r->phases);
	free(r->preset_text);
	if (r->host)
		json_object_put(r->host);
	if (r->target)
		json_object_put(r->target);
	result_init(r);
}

/*
 * Arrays grow by doubling; capacity is implied by the count (next power of two), so the
 * structs in result.h need no capacity field. Growing may move the array: callers hold
 * a pointer to the last phase or step only until they add the next one.
 */
static int grow(void **arr, unsigned n, size_t elem)
{
	bool full = n == 0 || (n >= 4 && !(n & (n - 1)));
	if (!full)
		return 0;
	size_t cap = n ? (size_t)n * 2 : 4;
	void *p = realloc(*arr, cap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

struct result_phase *result_add_phase(struct result *r, const char *name, enum phase_kind kind)
{
	if (grow((void **)&r->phases, r->nphases, sizeof(*r->phases)))
		return NULL;
	struct result_phase *ph = &r->phases[r->nphases++];
	memset(ph, 0, sizeof(*ph));
	text_copy(ph->name, sizeof(ph->name), name);
	ph->kind = kind;
	ph->status = RS_PENDING;
	return ph;
}

struct result_step *result_add_step(struct result_phase *ph, const char *label,
				    const struct workload *wl)
{
	if (grow((void **)&ph->steps, ph->nsteps, sizeof(*ph->steps)))
		return NULL;
	struct result_step *s = &ph->steps[ph->nsteps++];
	memset(s, 0, sizeof(*s));
	text_copy(s->label, sizeof(s->label), label);
	if (wl)
		s->wl = *wl;
	else
		workload_defaults(&s->wl);
	s->status = RS_PENDING;
	return s;
}

/* ---- packed samples -------------------------------------------------------------- */

/*
 * One sample: a header byte (how "all" is kept, and whether a host stall follows), the
 * index against its position, the start against where the previous sample ended and the
 * duration against the previous duration (zigzag varints: 0 costs one byte), the host
 * stall (a varint, only when not 0), then read, write and (unless it equals one of
 * them) all. A direction: a flag byte, then ios and bytes (varints), IOPS and MB/s
 * only when they are not what stats_per_sec() gives, mean and std dev (raw doubles), min,
 * max and the percentiles (varints). An empty direction is its flag byte alone.
 */
enum { PK_ALL_STORED, PK_ALL_IS_READ, PK_ALL_IS_WRITE, PK_ALL_MASK = 3, PK_STALL = 4 };
enum { PK_EMPTY = 1, PK_IOPS = 2, PK_MBPS = 4 };
/* bytes one sample can take: 1 + 4 * 10 + 3 * (1 + 9 * 10 + 4 * 8) */
#define PK_MAX_SAMPLE 512

static unsigned char *put_varint(unsigned char *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

static const unsigned char *get_varint(const unsigned char *p, uint64_t *v)
{
	uint64_t r = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		b = *p++;
		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*v = r;
	return p;
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

static uint64_t unzigzag(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

static bool same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

static unsigned char *put_double(unsigned char *o, double v)
{
	memcpy(o, &v, sizeof(v));
	return o + sizeof(v);
}

static unsigned char *put_dir(unsigned char *o, const struct dir_stats *d, uint64_t dur_ns)
{
	static const struct dir_stats zero;
	unsigned char flags = 0;

	/* dir_stats is all 8-byte fields, no padding: equal bytes are equal values */
	if (!memcmp(d, &zero, sizeof(zero))) {
		*o++ = PK_EMPTY;
		return o;
	}
	if (!same_bits(d->iops, stats_per_sec(d->ios, dur_ns)))
		flags |= PK_IOPS;
	if (!same_bits(d->mbps, stats_per_sec(d->bytes, dur_ns) / 1e6))
		flags |= PK_MBPS;
	*o++ = flags;
	o = put_varint(o, d->ios);
	o = put_varint(o, d->bytes);
	if (flags & PK_IOPS)
		o = put_double(o, d->iops);
	if (flags & PK_MBPS)
		o = put_double(o, d->mbps);
	o = put_double(o, d->mean_ns);
	o = put_double(o, d->std_ns);
	o = put_varint(o, d->min_ns);
	o = put_varint(o, d->max_ns);
	for (unsigned i = 0; i < NPCT; i++)
		o = put_varint(o, d->pct_ns[i]);
	return o;
}

static const unsigned char *get_dir(const unsigned char *p, struct dir_stats *d, uint64_t dur_ns)
{
	unsigned char flags = *p++;

	memset(d, 0, sizeof(*d));
	if (flags & PK_EMPTY)
		return p;
	p = get_varint(p, &d->ios);
	p = get_varint(p, &d->bytes);
	if (flags & PK_IOPS) {
		memcpy(&d->iops, p, sizeof(double));
		p += sizeof(double);
	} else {
		d->iops = stats_per_sec(d->ios, dur_ns);
	}
	if (flags & PK_MBPS) {
		memcpy(&d->mbps, p, sizeof(double));
		p += sizeof(double);
	} else {
		d->mbps = stats_per_sec(d->bytes, dur_ns) / 1e6;
	}
	memcpy(&d->mean_ns, p, sizeof(double));
	memcpy(&d->std_ns, p + sizeof(double), sizeof(double));
	p += 2 * sizeof(double);
	p = get_varint(p, &d->min_ns);
	p = get_varint(p, &d->max_ns);
	for (unsigned i = 0; i < NPCT; i++)
		p = get_varint(p, &d->pct_ns[i]);
	return p;
}

int result_step_add_sample(struct result_step *st, const struct sample *s)
{
	struct sample_pack *pk = &st->pack;
	unsigned char *o;
	unsigned all = PK_ALL_STORED;

	if (st->nsamples >= RESULT_MAX_SAMPLES)
		return -E2BIG;
	if (pk->cap - pk->len < PK_MAX_SAMPLE) {
		size_t cap = pk->cap ? pk->cap * 2 : 4096;
		unsigned char *b = realloc(pk->buf, cap);
		if (!b)
			return -ENOMEM;
		pk->buf = b;
		pk->cap = cap;
	}
	if (!memcmp(&s->d[DIR_ALL], &s->d[DIR_READ], sizeof(s->d[0])))
		all = PK_ALL_IS_READ;
	else if (!memcmp(&s->d[DIR_ALL], &s->d[DIR_WRITE], sizeof(s->d[0])))
		all = PK_ALL_IS_WRITE;
	o = pk->buf + pk->len;
	*o++ = (unsigned char)(all | (s->host_stall_ns ? PK_STALL : 0));
	o = put_varint(o, zigzag((uint64_t)s->index - st->nsamples));
	o = put_varint(o, zigzag(s->start_ns - pk->next_start_ns));
	o = put_varint(o, zigzag(s->dur_ns - pk->last_dur_ns));
	if (s->host_stall_ns)
		o = put_varint(o, s->host_stall_ns);
	o = put_dir(o, &s->d[DIR_READ], s->dur_ns);
	o = put_dir(o, &s->d[DIR_WRITE], s->dur_ns);
	if (all == PK_ALL_STORED)
		o = put_dir(o, &s->d[DIR_ALL], s->dur_ns);
	pk->len = (size_t)(o - pk->buf);
	pk->next_start_ns = s->start_ns + s->dur_ns;
	pk->last_dur_ns = s->dur_ns;
	st->nsamples++;
	return 0;
}

void result_step_clear_samples(struct result_step *st)
{
	free(st->pack.buf);
	memset(&st->pack, 0, sizeof(st->pack));
	st->nsamples = 0;
}

/* Give back what doubling left over, once a step's samples are all in. */
static void pack_shrink(struct sample_pack *pk)
{
	if (pk->buf && pk->cap > pk->len + pk->len / 8) {
		unsigned char *b = realloc(pk->buf, pk->len ? pk->len : 1);
		if (b) {
			pk->buf = b;
			pk->cap = pk->len ? pk->len : 1;
		}
	}
}

void sample_iter_init(struct sample_iter *it, const struct result_step *st)
{
	memset(it, 0, sizeof(*it));
	it->st = st;
}

bool sample_iter_next(struct sample_iter *it, struct sample *s)
{
	const struct result_step *st = it->st;
	const unsigned char *p;
	uint64_t v;

	if (it->i >= st->nsamples)
		return false;
	p = st->pack.buf + it->off;
	unsigned head = *p++, all = head & PK_ALL_MASK;
	p = get_varint(p, &v);
	s->index = (uint32_t)(it->i + unzigzag(v));
	p = get_varint(p, &v);
	s->start_ns = it->next_start_ns + unzigzag(v);
	p = get_varint(p, &v);
	s->dur_ns = it->last_dur_ns + unzigzag(v);
	s->host_stall_ns = 0;
	if (head & PK_STALL)
		p = get_varint(p, &s->host_stall_ns);
	p = get_dir(p, &s->d[DIR_READ], s->dur_ns);
	p = get_dir(p, &s->d[DIR_WRITE], s->dur_ns);
	if (all == PK_ALL_IS_READ)
		s->d[DIR_ALL] = s->d[DIR_READ];
	else if (all == PK_ALL_IS_WRITE)
		s->d[DIR_ALL] = s->d[DIR_WRITE];
	else
		p = get_dir(p, &s->d[DIR_ALL], s->dur_ns);
	it->off = (size_t)(p - st->pack.buf);
	it->i++;
	it->next_start_ns = s->start_ns + s->dur_ns;
	it->last_dur_ns = s->dur_ns;
	return true;
}

bool result_step_sample(const struct result_step *st, unsigned i, struct sample *out)
{
	struct sample_iter it;

	sample_iter_init(&it, st);
	while (sample_iter_next(&it, out))
		if (it.i == i + 1)
			return true;
	return false;
}

/* ---- sparse histograms ----------------------------------------------------------- */

int result_step_set_hist(struct result_step *st, const struct hist *rd, const struct hist *wr)
{
	const struct hist *h[2] = {rd, wr};
	struct step_hist *sh = calloc(1, sizeof(*sh));
	unsigned k = 0;

	if (!sh)
		return -ENOMEM;
	for (unsigned d = 0; d < 2; d++)
		for (unsigned b = 0; b < HIST_NBUCKETS; b++)
			sh->n[d] += h[d]->bucket[b] != 0;
	sh->pair = malloc((sh->n[0] + sh->n[1] + 1) * sizeof(*sh->pair));
	if (!sh->pair) {
		free(sh);
		return -ENOMEM;
	}
	for (unsigned d = 0; d < 2; d++)
		for (unsigned b = 0; b < HIST_NBUCKETS; b++)
			if (h[d]->bucket[b])
				sh->pair[k++] = (struct hist_pair){b, h[d]->bucket[b]};
	hist_free(st->hist);
	st->hist = sh;
	return 0;
}

void result_step_get_hist(const struct result_step *st, struct hist *rd, struct hist *wr)
{
	struct hist *h[2] = {rd, wr};

	memset(rd, 0, sizeof(*rd));
	memset(wr, 0, sizeof(*wr));
	if (!st->hist)
		return;
	for (unsigned d = 0, k = 0; d < 2; d++)
		for (unsigned i = 0; i < st->hist->n[d]; i++, k++)
			h[d]->bucket[st->hist->pair[k].bucket] = st->hist->pair[k].count;
}

/* ---- host facts ------------------------------------------------------------------ */

/* The CPU model as /proc/cpuinfo names it ("model name" on x86, "Model"/"Hardware" on Arm). */
static void cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = {"model name", "Model", "Hardware", "cpu model", "cpu"};
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t best = sizeof(keys) / sizeof(keys[0]);

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *end = colon;
		while (end > line && isspace((unsigned char)end[-1]))
			end--;
		for (size_t k = 0; k < best; k++) {
			if (strlen(keys[k]) != (size_t)(end - line) ||
			    strncmp(line, keys[k], (size_t)(end - line)))
				continue;
			char *v = colon + 1;
			while (isspace((unsigned char)*v))
				v++;
			v[strcspn(v, "\n")] = '\0';
			if (*v) {
				snprintf(buf, len, "%s", v);
				best = k;
			}
			break;
		}
	}
	fclose(f);
}

struct json_object *result_host_json(void)
{
	struct json_object *h = json_object_new_object();
	struct utsname u;
	char host[256] = "", cpu[256];

	if (!h)
		return NULL;
	if (gethostname(host, sizeof(host) - 1))
		host[0] = '\0';
	json_object_object_add(h, "hostname", json_object_new_string(host));
	if (!uname(&u)) {
		json_object_object_add(h, "kernel", json_object_new_string(u.release));
		json_object_object_add(h, "kernel_build", json_object_new_string(u.version));
		json_object_object_add(h, "arch", json_object_new_string(u.machine));
	}
	cpu_model(cpu, sizeof(cpu));
	json_object_object_add(h, "cpu", json_object_new_string(cpu));
	json_object_object_add(h, "cpus", json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	return h;
}

/* ---- writing --------------------------------------------------------------------- */

static void write_dir(struct jwrite *w, const struct dir_stats *d)
{
	jwrite_begin_object(w);
	for (unsigned f = 0; f < NDF; f++) {
		jwrite_key(w, dfield[f].key);
		if (dfield[f].is_double)
			jwrite_double(w, df_get_dbl(d, (enum dfield)f));
		else
			jwrite_u64(w, df_get_u64(d, (enum dfield)f));
	}
	jwrite_end_object(w);
}

static void write_sample(struct jwrite *w, const struct sample *s)
{
	jwrite_begin_object(w);
	jwrite_ku64(w, "index", s->index);
	jwrite_ku64(w, "start_ns", s->start_ns);
	jwrite_ku64(w, "dur_ns", s->dur_ns);
	if (s->host_stall_ns)
		jwrite_ku64(w, "host_stall_ns", s->host_stall_ns);
	for (unsigned d = 0; d < NDIR; d++) {
		jwrite_key(w, dir_key[d]);
		write_dir(w, &s->d[d]);
	}
	jwrite_end_object(w);
}

/* The ramp or the drain of a step: a sample without index or start. */
static void write_edge(struct jwrite *w, const struct sample *s)
{
	jwrite_begin_object(w);
	jwrite_ku64(w, "dur_ns", s->dur_ns);
	for (unsigned d = 0; d < NDIR; d++) {
		jwrite_key(w, dir_key[d]);
		write_dir(w, &s->d[d]);
	}
	jwrite_end_object(w);
}

static void write_workload(struct jwrite *w, const struct workload *wl)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "pattern", wl_pattern_name[wl->pattern]);
	if (wl->nsplit) {
		char split[WL_MAX_SPLIT * 24];
		jwrite_kstr(w, "bssplit", workload_fmt_bssplit(wl, split, sizeof(split)));
	} else {
		jwrite_ku64(w, "bs", wl->bs);
	}
	jwrite_ku64(w, "read_pct", wl->read_pct);
	jwrite_ku64(w, "range_start", wl->range_start);
	jwrite_ku64(w, "range_size", wl->range_size);
	jwrite_kdbl(w, "range_pct", wl->range_pct);
	jwrite_ku64(w, "threads", wl->threads);
	jwrite_ku64(w, "qdepth", wl->qdepth);
	jwrite_ku64(w, "time_ns", wl->time_ns);
	jwrite_ku64(w, "ramp_ns", wl->ramp_ns);
	jwrite_ku64(w, "rate_iops", wl->rate_iops);
	jwrite_kstr(w, "data", wl_data_name[wl->data]);
	jwrite_ku64(w, "compress_pct", wl->compress_pct);
	jwrite_ku64(w, "interval_ns", wl->interval_ns);
	jwrite_ku64(w, "seed", wl->seed);
	if (wl->dist != WL_DIST_UNIFORM) {
		char dist[WL_MAX_ZONES * 8 + 16];
		jwrite_kstr(w, "distribution", workload_fmt_dist(wl, dist, sizeof(dist)));
	}
	jwrite_end_object(w);
}

/*
 * Columns of the version 2 samples table: index, start, duration, host stall, then
 * dir x field.
 */
enum { COL_INDEX, COL_START, COL_DUR, COL_STALL, COL_DIRS };
#define NCOLS (COL_DIRS + NDIR * NDF)

static char col_names[NCOLS][24];
static pthread_once_t col_names_once = PTHREAD_ONCE_INIT;

static void make_col_names(void)
{
	static const char *const fixed[] = {"index", "start_ns", "dur_ns", "host_stall_ns"};
	for (unsigned c = 0; c < NCOLS; c++)
		if (c < COL_DIRS)
			snprintf(col_names[c], sizeof(col_names[c]), "%s", fixed[c]);
		else
			snprintf(col_names[c], sizeof(col_names[c]), "%s.%s",
				 dir_key[(c - COL_DIRS) / NDF], dfield[(c - COL_DIRS) % NDF].key);
}

/* A column by its name; NCOLS when there is none. */
static unsigned col_find(const char *name)
{
	static const char *const fixed[] = {"index", "start_ns", "dur_ns", "host_stall_ns"};
	const char *dot = strchr(name, '.');

	if (!dot) {
		for (unsigned c = 0; c < COL_DIRS; c++)
			if (!strcmp(name, fixed[c]))
				return c;
		return NCOLS;
	}
	for (unsigned d = 0; d < NDIR; d++) {
		if (strlen(dir_key[d]) != (size_t)(dot - name) ||
		    strncmp(name, dir_key[d], (size_t)(dot - name)))
			continue;
		for (unsigned f = 0; f < NDF; f++)
			if (!strcmp(dot + 1, dfield[f].key))
				return COL_DIRS + d * NDF + f;
	}
	return NCOLS;
}

/* "index", "read.ios", ...: a column's name in "fields". */
static const char *col_name(unsigned c)
{
	pthread_once(&col_names_once, make_col_names);
	return col_names[c];
}

/*
 * Version 2 samples: a table with only the columns that say something (see result.h).
 * Two passes over the packed samples: which columns, then the rows.
 */
static void write_samples(struct jwrite *w, const struct result_step *st)
{
	bool need[NCOLS] = {[COL_DUR] = true};
	bool all_is[NDIR] = {[DIR_READ] = true, [DIR_WRITE] = true};
	uint64_t next_start = 0;
	struct sample_iter it;
	struct sample s;

	sample_iter_init(&it, st);
	while (sample_iter_next(&it, &s)) {
		need[COL_INDEX] |= s.index != it.i - 1;
		need[COL_START] |= s.start_ns != next_start;
		need[COL_STALL] |= s.host_stall_ns != 0;
		next_start = s.start_ns + s.dur_ns;
		for (unsigned d = 0; d < NDIR; d++) {
			const struct dir_stats *ds = &s.d[d];
			bool *col = need + COL_DIRS + d * NDF;
			for (unsigned f = 0; f < NDF; f++) {
				if (f == DF_IOPS)
					col[f] |= !same_bits(ds->iops,
							     stats_per_sec(ds->ios, s.dur_ns));
				else if (f == DF_MBPS)
					col[f] |= !same_bits(
						ds->mbps, stats_per_sec(ds->bytes, s.dur_ns) / 1e6);
				else if (dfield[f].is_double)
					col[f] |= !same_bits(df_get_dbl(ds, (enum dfield)f), 0);
				else
					col[f] |= df_get_u64(ds, (enum dfield)f) != 0;
			}
		}
		for (unsigned d = DIR_READ; d <= DIR_WRITE; d++)
			all_is[d] = all_is[d] && !memcmp(&s.d[DIR_ALL], &s.d[d], sizeof(s.d[0]));
	}
	int all_from = st->nsamples && all_is[DIR_READ]	   ? DIR_READ
		       : st->nsamples && all_is[DIR_WRITE] ? DIR_WRITE
							   : -1;
	if (all_from >= 0)
		for (unsigned f = 0; f < NDF; f++)
			need[COL_DIRS + DIR_ALL * NDF + f] = false;

	jwrite_begin_object(w);
	if (all_from >= 0)
		jwrite_kstr(w, "all", dir_key[all_from]);
	jwrite_key(w, "fields");
	jwrite_begin_array_inline(w);
	for (unsigned c = 0; c < NCOLS; c++)
		if (need[c])
			jwrite_string(w, col_name(c));
	jwrite_end_array(w);
	jwrite_key(w, "rows");
	jwrite_begin_array(w);
	sample_iter_init(&it, st);
	while (sample_iter_next(&it, &s)) {
		jwrite_begin_array_inline(w);
		if (need[COL_INDEX])
			jwrite_u64(w, s.index);
		if (need[COL_START])
			jwrite_u64(w, s.start_ns);
		jwrite_u64(w, s.dur_ns);
		if (need[COL_STALL])
			jwrite_u64(w, s.host_stall_ns);
		for (unsigned c = COL_DIRS; c < NCOLS; c++) {
			if (!need[c])
				continue;
			const struct dir_stats *ds = &s.d[(c - COL_DIRS) / NDF];
			enum dfield f = (enum dfield)((c - COL_DIRS) % NDF);
			if (dfield[f].is_double)
				jwrite_double(w, df_get_dbl(ds, f));
			else
				jwrite_u64(w, df_get_u64(ds, f));
		}
		jwrite_end_array(w);
	}
	jwrite_end_array(w);
	jwrite_end_object(w);
}

static void write_hist(struct jwrite *w, const struct step_hist *h)
{
	jwrite_begin_object(w);
	for (unsigned d = 0, k = 0; d < 2; d++) {
		jwrite_key(w, dir_key[d]);
		jwrite_begin_array_inline(w);
		for (unsigned i = 0; i < h->n[d]; i++, k++) {
			jwrite_begin_array(w);
			jwrite_u64(w, h->pair[k].bucket);
			jwrite_u64(w, h->pair[k].count);
			jwrite_end_array(w);
		}
		jwrite_end_array(w);
	}
	jwrite_end_object(w);
}

static void write_step(struct jwrite *w, const struct result_step *s)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "label", s->label);
	jwrite_key(w, "workload");
	write_workload(w, &s->wl);
	if (s->rate_pct > 0)
		jwrite_kdbl(w, "rate_pct", s->rate_pct);
	jwrite_kstr(w, "status", result_status_name[s->status]);
	if (s->error[0]) {
		jwrite_kstr(w, "error", s->error);
		jwrite_ku64(w, "error_offset", s->error_offset);
	}
	jwrite_kstr(w, "engine", s->engine);
	if (s->cpu.measured) {
		jwrite_key(w, "cpu");
		jwrite_begin_object(w);
		jwrite_kdbl(w, "process_user_pct", s->cpu.proc_user_pct);
		jwrite_kdbl(w, "process_system_pct", s->cpu.proc_system_pct);
		jwrite_kdbl(w, "host_user_pct", s->cpu.host_user_pct);
		jwrite_kdbl(w, "host_system_pct", s->cpu.host_system_pct);
		jwrite_kdbl(w, "host_iowait_pct", s->cpu.host_iowait_pct);
		jwrite_ku64(w, "cpus", s->cpu.cpus);
		jwrite_end_object(w);
	}
	if (s->nwarnings) {
		jwrite_key(w, "warnings");
		jwrite_begin_array(w);
		for (unsigned i = 0; i < s->nwarnings; i++) {
			jwrite_begin_object(w);
			jwrite_kstr(w, "code", s->warnings[i].code);
			jwrite_kstr(w, "text", s->warnings[i].text);
			jwrite_end_object(w);
		}
		jwrite_end_array(w);
	}
	jwrite_key(w, "summary");
	write_sample(w, &s->summary);
	if (s->drain.d[DIR_ALL].ios || s->drain.dur_ns) {
		jwrite_key(w, "drain");
		write_edge(w, &s->drain);
	}
	if (s->ramp.d[DIR_ALL].ios) {
		jwrite_key(w, "ramp");
		write_edge(w, &s->ramp);
	}
	if (s->drive.has_written || s->drive.has_temp) {
		jwrite_key(w, "drive");
		jwrite_begin_object(w);
		if (s->drive.has_written)
			jwrite_ku64(w, "host_written_bytes", s->drive.written_bytes);
		if (s->drive.has_temp) {
			jwrite_key(w, "temp_max_c");
			jwrite_i64(w, s->drive.temp_max_c);
		}
		jwrite_end_object(w);
	}
	jwrite_key(w, "samples");
	write_samples(w, s);
	if (s->hist) {
		jwrite_key(w, "hist");
		write_hist(w, s->hist);
	}
	jwrite_end_object(w);
}

void result_write_steady(struct jwrite *w, const struct steady_info *st)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "tracked", st->tracked);
	jwrite_ku64(w, "window", st->window);
	jwrite_kdbl(w, "data_limit_pct", st->data_limit_pct);
	jwrite_kdbl(w, "slope_limit_pct", st->slope_limit_pct);
	jwrite_ku64(w, "max_rounds", st->max_rounds);
	jwrite_key(w, "reached");
	jwrite_bool(w, st->reached);
	jwrite_ku64(w, "round", st->round);
	jwrite_kdbl(w, "data_excursion_pct", st->data_excursion_pct);
	jwrite_kdbl(w, "slope_excursion_pct", st->slope_excursion_pct);
	jwrite_kstr(w, "mode", st->fixed ? "fixed" : "until-steady");
	jwrite_ku64(w, "first_round", st->first_round);
	jwrite_end_object(w);
}

static void write_phase(struct jwrite *w, const struct result_phase *ph)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "name", ph->name);
	jwrite_kstr(w, "kind", phase_kind_name[ph->kind]);
	jwrite_kstr(w, "status", result_status_name[ph->status]);
	if (ph->steady.used) {
		jwrite_key(w, "steady");
		result_write_steady(w, &ph->steady);
	}
	jwrite_key(w, "steps");
	jwrite_begin_array(w);
	for (unsigned i = 0; i < ph->nsteps; i++)
		write_step(w, &ph->steps[i]);
	jwrite_end_array(w);
	jwrite_end_object(w);
}

static void write_record(struct jwrite *w, const char *key, struct json_object *o)
{
	jwrite_key(w, key);
	if (o && json_object_is_type(o, json_type_object)) {
		jwrite_json(w, o);
	} else {
		jwrite_begin_object(w);
		jwrite_end_object(w);
	}
}

int result_write(const struct result *r, FILE *out)
{
	struct jwrite w;

	jwrite_init(&w, out, "\t");
	jwrite_begin_object(&w);
	jwrite_kstr(&w, "format", RESULT_FORMAT);
	jwrite_ku64(&w, "version", RESULT_VERSION);
	jwrite_key(&w, "tool");
	jwrite_begin_object(&w);
	jwrite_kstr(&w, "name", "drivebench");
	jwrite_kstr(&w, "version", r->tool_version[0] ? r->tool_version : DB_VERSION);
	jwrite_end_object(&w);
	jwrite_kstr(&w, "status", result_status_name[r->status]);
	if (r->error[0])
		jwrite_kstr(&w, "error", r->error);
	jwrite_kstr(&w, "started", r->started);
	if (r->ended[0])
		jwrite_kstr(&w, "ended", r->ended);
	if (r->label[0])
		jwrite_kstr(&w, "label", r->label);
	if (r->note[0])
		jwrite_kstr(&w, "note", r->note);
	write_record(&w, "host", r->host);
	write_record(&w, "target", r->target);
	if (r->preset_name[0] || r->preset_text) {
		jwrite_key(&w, "preset");
		jwrite_begin_object(&w);
		jwrite_kstr(&w, "name", r->preset_name);
		jwrite_kstr(&w, "source", r->preset_source);
		jwrite_kstr(&w, "text", r->preset_text ? r->preset_text : "");
		jwrite_kdbl(&w, "scale", r->scale);
		jwrite_end_object(&w);
	}
	jwrite_key(&w, "phases");
	jwrite_begin_array(&w);
	for (unsigned i = 0; i < r->nphases; i++)
		write_phase(&w, &r->phases[i]);
	jwrite_end_array(&w);
	jwrite_end_object(&w);
	return jwrite_finish(&w);
}

/* ---- saving ---------------------------------------------------------------------- */

int result_save(const struct result *r, const char *path, char *err, size_t errlen)
{
	char dir[4096], tmp[4096 + 32];
	const char *slash, *step = "writing";
	FILE *f = NULL;
	int fd = -1, ret;

	if (strlen(path) >= sizeof(dir)) {
		text_fmt(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	/* the temp file sits beside the target so rename() is atomic (same file system) */
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		step = "creating a temporary file";
		goto fail;
	}
	if (fchmod(fd, 0644)) {
		ret = -errno;
		goto fail_unlink;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		goto fail_unlink;
	}
	fd = -1;
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	errno = 0;
	ret = result_write(r, f);
	if (ret == -EIO && errno) /* what the failed write said: ENOSPC, EFBIG */
		ret = -errno;
	if (!ret && fflush(f))
		ret = -errno;
	if (ret)
		goto fail_unlink;
	if (fsync(fileno(f))) {
		ret = -errno;
		goto fail_unlink;
	}
	if (fclose(f)) {
		f = NULL;
		ret = -errno;
		goto fail_unlink;
	}
	f = NULL;
	if (rename(tmp, path)) {
		ret = -errno;
		step = "renaming into place";
		goto fail_unlink;
	}
	/* the rename itself is durable only once the directory is */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;

fail_unlink:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
fail:
	text_fmt(err, errlen, "%s: %s: %s%s", path, step, strerror(-ret),
		 access(path, F_OK) == 0 ? " (the previous file is untouched)" : "");
	return ret;
}

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
		for (f = 0; f < NDF && strcmp(k, dfield[f].key); f++)
			;
		if (f == NDF)
			jread_skip(&L->j);
		else if (dfield[f].is_double)
			*df_dbl(d, (enum dfield)f) = get_dbl(L, dfield[f].key);
		else
			*df_u64(d, (enum dfield)f) = get_u64(L, dfield[f].key);
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
		for (d = 0; d < NDIR && strcmp(k, dir_key[d]); d++)
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
				c = col_find(field);
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
						if (!dfield[f].is_double && num[i].integer &&
						    !num[i].negative) {
							*df_u64(d, f) = num[i].u;
							continue;
						}
						if (dfield[f].is_double && num[i].d >= 0 &&
						    num[i].d <= DBL_MAX) {
							*df_dbl(d, f) = num[i].d + 0.0;
							continue;
						}
					}
					const char *name = col_name((unsigned)c);
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
						if (dfield[f].is_double)
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
	hist_free(st->hist);
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
		ret = add_warning(st, code, text);
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
			pack_shrink(&s->pack);
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

/* ---- where results live ---------------------------------------------------------- */

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc && errno != EEXIST)
			return -errno;
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	struct stat st;
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int result_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/') {
		n = snprintf(buf, len, "%s/drivebench/results", xdg);
	} else {
		if (!home || !home[0]) {
			struct passwd *pw = getpwuid(getuid());
			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return -ENOENT;
		n = snprintf(buf, len, "%s/.local/share/drivebench/results", home);
	}
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return mkdir_p(buf);
}

/* Lower-case letters, digits, '.', '-' and '_'; spaces become '-'; the rest go. */
static void slug(char *dst, size_t len, const char *src)
{
	size_t j = 0;

	for (; src && *src && j + 1 < len; src++) {
		unsigned char c = (unsigned char)*src;
		if (isalnum(c) || c == '.' || c == '_' || c == '-')
			dst[j++] = (char)tolower(c);
		else if (isspace(c) && j && dst[j - 1] != '-')
			dst[j++] = '-';
	}
	while (j && dst[j - 1] == '-')
		j--;
	dst[j] = '\0';
}

int result_default_path(char *buf, size_t len, const char *dir, const char *target_name,
			const char *preset_name)
{
	char when[32], tgt[64], pre[64], name[200];
	const char *base = target_name ? strrchr(target_name, '/') : NULL;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H-%M-%S", &tm);
	slug(tgt, sizeof(tgt), base ? base + 1 : target_name);
	slug(pre, sizeof(pre), preset_name);
	snprintf(name, sizeof(name), "%s%s%s%s%s", when, tgt[0] ? "_" : "", tgt, pre[0] ? "_" : "",
		 pre);
	for (unsigned n = 1; n < 1000; n++) {
		int w = n == 1 ? snprintf(buf, len, "%s/%s.json", dir, name)
			       : snprintf(buf, len, "%s/%s-%u.json", dir, name, n);
		if (w < 0 || (size_t)w >= len)
			return -ENAMETOOLONG;
		if (access(buf, F_OK) && errno == ENOENT)
			return 0;
	}
	return -EEXIST;
}

/* ---- naming a run ---------------------------------------------------------------- */

static const char *obj_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "";
}

static uint64_t obj_u64(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) &&
	    (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return json_object_get_uint64(v);
	return 0;
}

static struct json_object *drive_rec(const struct result *r)
{
	struct json_object *v;

	if (r->target && json_object_object_get_ex(r->target, "drive", &v) &&
	    json_object_is_type(v, json_type_object))
		return v;
	return NULL;
}

/* A drive field, falling back to the NVMe controller's copy (drive.h: "nvme"). */
static const char *drive_str(const struct result *r, const char *key)
{
	struct json_object *d = drive_rec(r), *nvme;
	const char *s = obj_str(d, key);

	if (!s[0] && d && json_object_object_get_ex(d, "nvme", &nvme))
		s = obj_str(nvme, key);
	return s;
}

const char *result_drive_model(const struct result *r)
{
	return drive_str(r, "model");
}

const char *result_drive_firmware(const struct result *r)
{
	return drive_str(r, "firmware");
}

const char *result_drive_serial(const struct result *r)
{
	return drive_str(r, "serial");
}

const char *result_target_path(const struct result *r)
{
	return obj_str(r->target, "path");
}

uint64_t result_capacity_bytes(const struct result *r)
{
	uint64_t b = obj_u64(drive_rec(r), "capacity_bytes");
	return b ? b : obj_u64(r->target, "size");
}

char *result_label(const struct result *r, bool with_firmware, char *buf, size_t len)
{
	const char *model = result_drive_model(r), *fw = result_drive_firmware(r);
	uint64_t cap = result_capacity_bytes(r);
	char capbuf[32];

	if (r->label[0]) {
		text_fmt(buf, len, "%s%s%s", r->label, with_firmware && fw[0] ? " FW " : "",
			 with_firmware ? fw : "");
		return buf;
	}
	if (!model[0]) {
		const char *path = result_target_path(r);
		text_fmt(buf, len, "%s", path[0] ? path : (r->path[0] ? r->path : "unnamed run"));
		return buf;
	}
	text_fmt(buf, len, "%s%s%s%s%s", model, cap ? " " : "",
		 cap ? units_fmt_capacity_compact(capbuf, sizeof(capbuf), cap) : "",
		 with_firmware && fw[0] ? " FW " : "", with_firmware ? fw : "");
	return buf;
}

unsigned result_nsteps(const struct result *r)
{
	unsigned n = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		n += r->phases[p].nsteps;
	return n;
}

/* ---- the library of results ------------------------------------------------------ */

static int entry_cmp(const void *a, const void *b)
{
	const struct result_entry *x = a, *y = b;

	if (!x->error[0] != !y->error[0])
		return x->error[0] ? 1 : -1;
	int c = strcmp(y->started, x->started); /* ISO 8601 sorts as text; newest first */
	return c ? c : strcmp(x->path, y->path);
}

/* Append the entry of the file at path (its facts, or why it cannot be read). */
static int list_append(struct result_list *l, size_t *cap, const char *path)
{
	if (l->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		struct result_entry *p = realloc(l->entries, ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		l->entries = p;
		*cap = ncap;
	}
	struct result_entry *en = &l->entries[l->n++];
	struct result r;
	memset(en, 0, sizeof(*en));
	snprintf(en->path, sizeof(en->path), "%s", path);
	/* the list shows what names a run: no samples, no histograms */
	if (result_load_opts(&r, en->path, 0, en->error, sizeof(en->error))) {
		if (!en->error[0])
			text_fmt(en->error, sizeof(en->error), "%s: unreadable", en->path);
		return 0;
	}
	text_copy(en->model, sizeof(en->model), result_drive_model(&r));
	text_copy(en->firmware, sizeof(en->firmware), result_drive_firmware(&r));
	text_copy(en->target, sizeof(en->target), result_target_path(&r));
	en->capacity_bytes = result_capacity_bytes(&r);
	text_copy(en->preset, sizeof(en->preset), r.preset_name);
	text_copy(en->label, sizeof(en->label), r.label);
	text_copy(en->started, sizeof(en->started), r.started);
	en->status = r.status;
	en->nphases = r.nphases;
	en->nsteps = result_nsteps(&r);
	en->version = r.version;
	result_free(&r);
	return 0;
}

/* Every *.json of dir appended to out (unsorted). */
static int list_append_dir(const char *dir, struct result_list *out, size_t *cap, char *err,
			   size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	int ret = 0;

	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	while ((e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		if (e->d_name[0] == '.' || nl < 6 || strcmp(e->d_name + nl - 5, ".json"))
			continue; /* hidden names include save()'s temp files */
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			continue;
		if (list_append(out, cap, path) < 0) {
			ret = -ENOMEM;
			snprintf(err, errlen, "%s: out of memory", dir);
			break;
		}
	}
	closedir(d);
	return ret;
}

int result_list_dir(const char *dir, struct result_list *out, char *err, size_t errlen)
{
	size_t cap = 0;
	int ret;

	out->entries = NULL;
	out->n = 0;
	ret = list_append_dir(dir, out, &cap, err, errlen);
	if (ret) {
		result_list_free(out);
		return ret;
	}
	if (out->n)
		qsort(out->entries, out->n, sizeof(*out->entries), entry_cmp);
	return 0;
}

int result_list_add(struct result_list *l, const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t cap = l->n; /* the array is exactly full: the first append grows it */
	int ret;

	if (stat(path, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = list_append_dir(path, l, &cap, err, errlen);
	} else {
		ret = list_append(l, &cap, path);
		if (ret)
			snprintf(err, errlen, "%s: out of memory", path);
	}
	if (l->n)
		qsort(l->entries, l->n, sizeof(*l->entries), entry_cmp);
	return ret;
}

void result_list_free(struct result_list *l)
{
	free(l->entries);
	l->entries = NULL;
	l->n = 0;
}

/* ---- loading many ---------------------------------------------------------------- */

struct load_job {
	struct result *rs;
	const char *const *paths;
	unsigned n;
	atomic_uint next;
	unsigned what;
	int *rc;
	char (*errs)[512];
};

static void *load_worker(void *arg)
{
	struct load_job *job = arg;
	unsigned i;

	while ((i = atomic_fetch_add(&job->next, 1)) < job->n)
		job->rc[i] = result_load_opts(&job->rs[i], job->paths[i], job->what, job->errs[i],
					      sizeof(job->errs[i]));
	return NULL;
}

int result_load_many(struct result *rs, const char *const *paths, unsigned n, unsigned what,
		     char *err, size_t errlen)
{
	struct load_job job = {.rs = rs, .paths = paths, .n = n, .what = what};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned nthreads = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
	pthread_t tid[8];
	unsigned started = 0;
	int ret = 0;

	if (nthreads > n)
		nthreads = n ? n : 1;
	job.rc = calloc(n ? n : 1, sizeof(*job.rc));
	job.errs = calloc(n ? n : 1, sizeof(*job.errs));
	if (!job.rc || !job.errs) {
		free(job.rc);
		free(job.errs);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	atomic_init(&job.next, 0);
	/* this thread works too; extra threads are a speed-up, not a requirement */
	for (unsigned t = 1; t < nthreads; t++)
		if (!pthread_create(&tid[started], NULL, load_worker, &job))
			started++;
	load_worker(&job);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	for (unsigned i = 0; i < n; i++)
		if (job.rc[i]) {
			ret = job.rc[i];
			snprintf(err, errlen, "%s", job.errs[i]);
			break;
		}
	if (ret)
		for (unsigned i = 0; i < n; i++)
			if (!job.rc[i])
				result_free(&rs[i]);
	free(job.rc);
	free(job.errs);
	return ret;
}
