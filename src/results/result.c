// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results: the in-memory model of a run (this file: steps, phases, packed samples,
 * sparse histograms, the host record), the typed summaries of its host and target
 * records that reports read (result_summary.c), its "drivebench-result" JSON form written
 * by result_write.c and read by result_load.c, and the library of saved results
 * (result_io.h, result_library.c); result_int.h is what they share.
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
#include "grow.h"
#include "json_read.h"
#include "json_write.h"
#include "result_int.h"
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
	[PH_APP] = "app",
};


#define X(id, code, about) [id] = code,
const char *const step_warning_code[SW_COUNT] = {STEP_WARNINGS(X)};
#undef X
#define X(id, code, about) [id] = about,
const char *const step_warning_about[SW_COUNT] = {STEP_WARNINGS(X)};
#undef X

const char *const result_dir_key[NDIR] = {
	[DIR_READ] = "read",
	[DIR_WRITE] = "write",
	[DIR_ALL] = "all",
};

const struct result_dfield result_dfield[NDF] = {
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
				 result_dir_key[(c - COL_DIRS) / NDF], result_dfield[(c - COL_DIRS) % NDF].key);
}

/* A column by its name; NCOLS when there is none. */
unsigned result_col_find(const char *name)
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
		if (strlen(result_dir_key[d]) != (size_t)(dot - name) ||
		    strncmp(name, result_dir_key[d], (size_t)(dot - name)))
			continue;
		for (unsigned f = 0; f < NDF; f++)
			if (!strcmp(dot + 1, result_dfield[f].key))
				return COL_DIRS + d * NDF + f;
	}
	return NCOLS;
}

/* "index", "read.ios", ...: a column's name in "fields". */
const char *result_col_name(unsigned c)
{
	pthread_once(&col_names_once, make_col_names);
	return col_names[c];
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

void result_hist_free(struct step_hist *h)
{
	if (h)
		free(h->pair);
	free(h);
}

/* A step and its streams (one level: a stream has none of its own). */
void result_step_free(struct result_step *s)
{
	for (unsigned i = 0; i < s->nstreams; i++)
		result_step_free(&s->streams[i]);
	free(s->streams);
	s->streams = NULL;
	s->nstreams = 0;
	result_step_clear_samples(s);
	result_hist_free(s->hist);
	free(s->warnings);
	s->hist = NULL;
	s->warnings = NULL;
	s->nwarnings = 0;
}

/* Codes and texts are repaired and cut on a character boundary (they may come from a file). */
int result_add_warning(struct result_step *s, const char *code, const char *text)
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
	return result_add_warning(s, step_warning_code[w], text);
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
	result_release(r);
	for (unsigned p = 0; p < r->nphases; p++) {
		struct result_phase *ph = &r->phases[p];
		for (unsigned s = 0; s < ph->nsteps; s++)
			result_step_free(&ph->steps[s]);
		free(ph->steps);
	}
	free(r->phases);
	free(r->preset_text);
	if (r->host)
		json_object_put(r->host);
	if (r->target)
		json_object_put(r->target);
	if (r->targets)
		json_object_put(r->targets);
	result_summary_free(r);
	result_init(r);
}

/*
 * Arrays grow by doubling (GROW_POW2); capacity is implied by the count (4, then the next
 * power of two), so the structs in result.h need no capacity field. Growing may move the
 * array: callers hold a pointer to the last phase or step only until they add the next one.
 */
struct result_phase *result_add_phase(struct result *r, const char *name, enum phase_kind kind)
{
	if (GROW_POW2(r->phases, r->nphases, 4))
		return NULL;
	struct result_phase *ph = &r->phases[r->nphases++];
	memset(ph, 0, sizeof(*ph));
	text_copy(ph->name, sizeof(ph->name), name);
	ph->kind = kind;
	ph->status = RS_PENDING;
	return ph;
}

/* A new step at the end of (*arr)[*n]: a phase's steps, or a step's streams. */
static struct result_step *append_step(struct result_step **arr, unsigned *n, const char *label,
				       const struct workload *wl)
{
	if (GROW_POW2(*arr, *n, 4))
		return NULL;
	struct result_step *s = &(*arr)[(*n)++];
	memset(s, 0, sizeof(*s));
	text_copy(s->label, sizeof(s->label), label);
	if (wl)
		s->wl = *wl;
	else
		workload_defaults(&s->wl);
	s->status = RS_PENDING;
	return s;
}

struct result_step *result_add_step(struct result_phase *ph, const char *label,
				    const struct workload *wl)
{
	return append_step(&ph->steps, &ph->nsteps, label, wl);
}

struct result_step *result_step_add_stream(struct result_step *st, const char *name,
					   const struct workload *wl)
{
	return append_step(&st->streams, &st->nstreams, name, wl);
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

bool result_same_bits(double a, double b)
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
	if (!result_same_bits(d->iops, stats_per_sec(d->ios, dur_ns)))
		flags |= PK_IOPS;
	if (!result_same_bits(d->mbps, stats_per_sec(d->bytes, dur_ns) / 1e6))
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
void result_pack_shrink(struct sample_pack *pk)
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
	result_hist_free(st->hist);
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

uint64_t result_step_written(const struct result_step *st)
{
	return st->summary.d[DIR_WRITE].bytes + st->ramp.d[DIR_WRITE].bytes +
	       st->drain.d[DIR_WRITE].bytes;
}
