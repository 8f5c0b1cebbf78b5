// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result files: the in-memory model of a run and its "drivebench-result" JSON form.
 *
 * Writing follows the order documented in result.h ("format" and "version" first, so
 * `head -c 60` tells what a file is). Reading is strict about structure (a phase that is
 * not an object is an error naming where it is) and lenient about missing leaves (a
 * missing number reads as 0), so hand-trimmed files and autosaves still load.
 */
#include "result.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "result_io.h"
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

/* ---- the model ------------------------------------------------------------------ */

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	r->version = RESULT_VERSION;
	snprintf(r->tool_version, sizeof(r->tool_version), "%s", DB_VERSION);
	r->status = RS_PENDING;
	r->scale = 1.0;
}

static void step_free(struct result_step *s)
{
	free(s->samples);
	free(s->hist);
	free(s->warnings);
	s->samples = NULL;
	s->hist = NULL;
	s->warnings = NULL;
	s->nsamples = 0;
	s->nwarnings = 0;
}

static int add_warning(struct result_step *s, const char *code, const char *text)
{
	struct result_warning *w = NULL;

	for (unsigned i = 0; i < s->nwarnings; i++)
		if (!strcmp(s->warnings[i].code, code))
			w = &s->warnings[i];
	if (!w) {
		w = realloc(s->warnings, (s->nwarnings + 1) * sizeof(*w));
		if (!w)
			return -ENOMEM;
		s->warnings = w;
		w = &s->warnings[s->nwarnings++];
		snprintf(w->code, sizeof(w->code), "%s", code);
	}
	snprintf(w->text, sizeof(w->text), "%s", text);
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
	snprintf(ph->name, sizeof(ph->name), "%s", name);
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
	snprintf(s->label, sizeof(s->label), "%s", label);
	if (wl)
		s->wl = *wl;
	else
		workload_defaults(&s->wl);
	s->status = RS_PENDING;
	return s;
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

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	put(o, key, json_object_new_uint64(v));
}

/* JSON has no NaN or infinity: a value that is not a number is written as null. */
static void put_dbl(struct json_object *o, const char *key, double v)
{
	put(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

static void put_str(struct json_object *o, const char *key, const char *v)
{
	put(o, key, json_object_new_string(v));
}

static struct json_object *dir_json(const struct dir_stats *d)
{
	struct json_object *o = json_object_new_object();
	char key[32];

	put_u64(o, "ios", d->ios);
	put_u64(o, "bytes", d->bytes);
	put_dbl(o, "iops", d->iops);
	put_dbl(o, "mbps", d->mbps);
	put_dbl(o, "mean_ns", d->mean_ns);
	put_dbl(o, "std_ns", d->std_ns);
	put_u64(o, "min_ns", d->min_ns);
	put_u64(o, "max_ns", d->max_ns);
	for (unsigned i = 0; i < NPCT; i++) {
		snprintf(key, sizeof(key), "%s_ns", stats_pct_name[i]);
		put_u64(o, key, d->pct_ns[i]);
	}
	return o;
}

static struct json_object *sample_json(const struct sample *s)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "index", s->index);
	put_u64(o, "start_ns", s->start_ns);
	put_u64(o, "dur_ns", s->dur_ns);
	if (s->host_stall_ns)
		put_u64(o, "host_stall_ns", s->host_stall_ns);
	for (unsigned d = 0; d < NDIR; d++)
		put(o, dir_key[d], dir_json(&s->d[d]));
	return o;
}

/* The ramp or the drain of a step: a sample without index or start. */
static struct json_object *edge_json(const struct sample *s)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "dur_ns", s->dur_ns);
	for (unsigned d = 0; d < NDIR; d++)
		put(o, dir_key[d], dir_json(&s->d[d]));
	return o;
}

static struct json_object *workload_json(const struct workload *wl)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "pattern", wl_pattern_name[wl->pattern]);
	if (wl->nsplit) {
		char split[WL_MAX_SPLIT * 24];
		put_str(o, "bssplit", workload_fmt_bssplit(wl, split, sizeof(split)));
	} else {
		put_u64(o, "bs", wl->bs);
	}
	put_u64(o, "read_pct", wl->read_pct);
	put_u64(o, "range_start", wl->range_start);
	put_u64(o, "range_size", wl->range_size);
	put_dbl(o, "range_pct", wl->range_pct);
	put_u64(o, "threads", wl->threads);
	put_u64(o, "qdepth", wl->qdepth);
	put_u64(o, "time_ns", wl->time_ns);
	put_u64(o, "ramp_ns", wl->ramp_ns);
	put_u64(o, "rate_iops", wl->rate_iops);
	put_str(o, "data", wl_data_name[wl->data]);
	put_u64(o, "compress_pct", wl->compress_pct);
	put_u64(o, "interval_ns", wl->interval_ns);
	put_u64(o, "seed", wl->seed);
	return o;
}

static struct json_object *hist_json(const struct hist *h)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		struct json_object *pair = json_object_new_array_ext(2);
		json_object_array_add(pair, json_object_new_uint64(i));
		json_object_array_add(pair, json_object_new_uint64(h->bucket[i]));
		json_object_array_add(a, pair);
	}
	return a;
}

static struct json_object *step_json(const struct result_step *s)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "label", s->label);
	put(o, "workload", workload_json(&s->wl));
	put_str(o, "status", result_status_name[s->status]);
	if (s->error[0]) {
		put_str(o, "error", s->error);
		put_u64(o, "error_offset", s->error_offset);
	}
	put_str(o, "engine", s->engine);
	if (s->nwarnings) {
		struct json_object *a = json_object_new_array_ext((int)s->nwarnings);
		for (unsigned i = 0; i < s->nwarnings; i++) {
			struct json_object *w = json_object_new_object();
			put_str(w, "code", s->warnings[i].code);
			put_str(w, "text", s->warnings[i].text);
			json_object_array_add(a, w);
		}
		put(o, "warnings", a);
	}
	put(o, "summary", sample_json(&s->summary));
	if (s->drain.d[DIR_ALL].ios || s->drain.dur_ns)
		put(o, "drain", edge_json(&s->drain));
	if (s->ramp.d[DIR_ALL].ios)
		put(o, "ramp", edge_json(&s->ramp));
	struct json_object *samples = json_object_new_array_ext((int)s->nsamples);
	for (unsigned i = 0; i < s->nsamples; i++)
		json_object_array_add(samples, sample_json(&s->samples[i]));
	put(o, "samples", samples);
	if (s->hist) {
		struct json_object *h = json_object_new_object();
		put(h, "read", hist_json(&s->hist[0]));
		put(h, "write", hist_json(&s->hist[1]));
		put(o, "hist", h);
	}
	return o;
}

static struct json_object *steady_json(const struct steady_info *st)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "tracked", st->tracked);
	put_u64(o, "window", st->window);
	put_dbl(o, "data_limit_pct", st->data_limit_pct);
	put_dbl(o, "slope_limit_pct", st->slope_limit_pct);
	put_u64(o, "max_rounds", st->max_rounds);
	put(o, "reached", json_object_new_boolean(st->reached));
	put_u64(o, "round", st->round);
	put_dbl(o, "data_excursion_pct", st->data_excursion_pct);
	put_dbl(o, "slope_excursion_pct", st->slope_excursion_pct);
	return o;
}

static struct json_object *phase_json(const struct result_phase *ph)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "name", ph->name);
	put_str(o, "kind", phase_kind_name[ph->kind]);
	put_str(o, "status", result_status_name[ph->status]);
	if (ph->steady.used)
		put(o, "steady", steady_json(&ph->steady));
	struct json_object *steps = json_object_new_array_ext((int)ph->nsteps);
	for (unsigned i = 0; i < ph->nsteps; i++)
		json_object_array_add(steps, step_json(&ph->steps[i]));
	put(o, "steps", steps);
	return o;
}

/* A private copy, so the caller may change or free what it gets independently of r. */
static struct json_object *copy_or_empty(struct json_object *src)
{
	struct json_object *dst = NULL;

	if (src && json_object_deep_copy(src, &dst, NULL) == 0)
		return dst;
	return json_object_new_object();
}

struct json_object *result_to_json(const struct result *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *tool;

	if (!o)
		return NULL;
	put_str(o, "format", RESULT_FORMAT);
	put(o, "version", json_object_new_int(RESULT_VERSION));
	tool = json_object_new_object();
	put_str(tool, "name", "drivebench");
	put_str(tool, "version", r->tool_version[0] ? r->tool_version : DB_VERSION);
	put(o, "tool", tool);
	put_str(o, "status", result_status_name[r->status]);
	if (r->error[0])
		put_str(o, "error", r->error);
	put_str(o, "started", r->started);
	if (r->ended[0])
		put_str(o, "ended", r->ended);
	put(o, "host", copy_or_empty(r->host));
	put(o, "target", copy_or_empty(r->target));
	if (r->preset_name[0] || r->preset_text) {
		struct json_object *p = json_object_new_object();
		put_str(p, "name", r->preset_name);
		put_str(p, "source", r->preset_source);
		put_str(p, "text", r->preset_text ? r->preset_text : "");
		put_dbl(p, "scale", r->scale);
		put(o, "preset", p);
	}
	struct json_object *phases = json_object_new_array_ext((int)r->nphases);
	for (unsigned i = 0; i < r->nphases; i++)
		json_object_array_add(phases, phase_json(&r->phases[i]));
	put(o, "phases", phases);
	return o;
}

/* ---- saving ---------------------------------------------------------------------- */

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int result_save(const struct result *r, const char *path, char *err, size_t errlen)
{
	struct json_object *o;
	const char *text;
	char dir[4096], tmp[4096 + 32];
	const char *slash, *step = "writing";
	int fd = -1, ret;

	if (strlen(path) >= sizeof(dir)) {
		snprintf(err, errlen, "%s: path too long", path);
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

	o = result_to_json(r);
	if (!o) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_PRETTY_TAB |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		ret = -ENOMEM;
		goto fail;
	}

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
	ret = write_all(fd, text, strlen(text));
	if (!ret)
		ret = write_all(fd, "\n", 1);
	if (ret)
		goto fail_unlink;
	if (fsync(fd)) {
		ret = -errno;
		goto fail_unlink;
	}
	if (close(fd)) {
		fd = -1;
		ret = -errno;
		goto fail_unlink;
	}
	fd = -1;
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
	json_object_put(o);
	return 0;

fail_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
fail:
	json_object_put(o);
	snprintf(err, errlen, "%s: %s: %s%s", path, step, strerror(-ret),
		 access(path, F_OK) == 0 ? " (the previous file is untouched)" : "");
	return ret;
}

/* ---- loading --------------------------------------------------------------------- */

struct loader {
	const char *file;
	char *err;
	size_t errlen;
	int ret;
	char where[256]; /* "phases[1].steps[3]": where in the file a bad value sits */
};

__attribute__((format(printf, 2, 3))) static int bad(struct loader *L, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (L->ret)
		return L->ret;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (L->where[0])
		snprintf(L->err, L->errlen, "%s: %s: %s", L->file, L->where, msg);
	else
		snprintf(L->err, L->errlen, "%s: %s", L->file, msg);
	L->ret = -EINVAL;
	return L->ret;
}

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* A child of o of type t, or NULL when absent (null counts as absent); wrong type: error. */
static struct json_object *child(struct loader *L, struct json_object *o, const char *key,
				 json_type t)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	if (t == json_type_double ? !is_number(v) : !json_object_is_type(v, t)) {
		bad(L, "\"%s\" should be %s %s", key,
		    t == json_type_array || t == json_type_object ? "an" : "a",
		    t == json_type_double ? "number" : json_type_to_name(t));
		return NULL;
	}
	return v;
}

static uint64_t get_u64(struct loader *L, struct json_object *o, const char *key)
{
	struct json_object *v = child(L, o, key, json_type_double);

	if (!v)
		return 0;
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);
		/* a count or a size: not negative, not past what 64 bits hold, not NaN */
		if (!(d >= 0 && d < 18446744073709551616.0)) {
			bad(L, "\"%s\" is out of range", key);
			return 0;
		}
		return (uint64_t)d;
	}
	return json_object_get_uint64(v);
}

static unsigned get_uint(struct loader *L, struct json_object *o, const char *key)
{
	uint64_t v = get_u64(L, o, key);
	return v > UINT_MAX ? UINT_MAX : (unsigned)v;
}

static double get_dbl(struct loader *L, struct json_object *o, const char *key)
{
	struct json_object *v = child(L, o, key, json_type_double);
	return v ? json_object_get_double(v) : 0;
}

static void get_str(struct loader *L, struct json_object *o, const char *key, char *buf, size_t len)
{
	struct json_object *v = child(L, o, key, json_type_string);
	snprintf(buf, len, "%s", v ? json_object_get_string(v) : "");
}

/* The index of a name in a table of names; -1 (with an error) when it is not there. */
static int get_enum(struct loader *L, struct json_object *o, const char *key,
		    const char *const *names, size_t n, int dflt)
{
	struct json_object *v = child(L, o, key, json_type_string);

	if (!v)
		return dflt;
	const char *s = json_object_get_string(v);
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	bad(L, "unknown %s \"%s\"", key, s);
	return dflt;
}

static void load_dir(struct loader *L, struct json_object *o, struct dir_stats *d)
{
	char key[32];

	memset(d, 0, sizeof(*d));
	if (!o)
		return;
	d->ios = get_u64(L, o, "ios");
	d->bytes = get_u64(L, o, "bytes");
	d->iops = get_dbl(L, o, "iops");
	d->mbps = get_dbl(L, o, "mbps");
	d->mean_ns = get_dbl(L, o, "mean_ns");
	d->std_ns = get_dbl(L, o, "std_ns");
	d->min_ns = get_u64(L, o, "min_ns");
	d->max_ns = get_u64(L, o, "max_ns");
	for (unsigned i = 0; i < NPCT; i++) {
		snprintf(key, sizeof(key), "%s_ns", stats_pct_name[i]);
		d->pct_ns[i] = get_u64(L, o, key);
	}
}

static void load_sample(struct loader *L, struct json_object *o, struct sample *s)
{
	memset(s, 0, sizeof(*s));
	if (!o)
		return;
	s->index = (uint32_t)get_u64(L, o, "index");
	s->start_ns = get_u64(L, o, "start_ns");
	s->dur_ns = get_u64(L, o, "dur_ns");
	s->host_stall_ns = get_u64(L, o, "host_stall_ns");
	for (unsigned d = 0; d < NDIR; d++)
		load_dir(L, child(L, o, dir_key[d], json_type_object), &s->d[d]);
}

static void load_workload(struct loader *L, struct json_object *o, struct workload *wl)
{
	struct json_object *split;

	workload_defaults(wl);
	if (!o)
		return;
	wl->pattern = (enum wl_pattern)get_enum(L, o, "pattern", wl_pattern_name, 2, WL_RANDOM);
	split = child(L, o, "bssplit", json_type_string);
	if (split) {
		char msg[256];
		if (workload_parse_bssplit(wl, json_object_get_string(split), msg, sizeof(msg)))
			bad(L, "bssplit: %s", msg);
	} else {
		wl->bs = (uint32_t)get_u64(L, o, "bs");
	}
	wl->read_pct = get_uint(L, o, "read_pct");
	if (wl->read_pct > 100)
		bad(L, "read_pct %u is over 100", wl->read_pct);
	wl->range_start = get_u64(L, o, "range_start");
	wl->range_size = get_u64(L, o, "range_size");
	wl->range_pct = get_dbl(L, o, "range_pct");
	wl->threads = get_uint(L, o, "threads");
	wl->qdepth = get_uint(L, o, "qdepth");
	wl->time_ns = get_u64(L, o, "time_ns");
	wl->ramp_ns = get_u64(L, o, "ramp_ns");
	wl->rate_iops = get_u64(L, o, "rate_iops");
	wl->data = (enum wl_data)get_enum(L, o, "data", wl_data_name, 3, WL_DATA_RANDOM);
	wl->compress_pct = get_uint(L, o, "compress_pct");
	wl->interval_ns = get_u64(L, o, "interval_ns");
	wl->seed = get_u64(L, o, "seed");
}

static void load_hist(struct loader *L, struct json_object *a, struct hist *h, const char *dir)
{
	size_t n = a ? json_object_array_length(a) : 0;

	for (size_t i = 0; i < n && !L->ret; i++) {
		struct json_object *pair = json_object_array_get_idx(a, i);
		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2) {
			bad(L, "hist.%s[%zu] should be a [bucket, count] pair", dir, i);
			return;
		}
		int64_t idx = json_object_get_int64(json_object_array_get_idx(pair, 0));
		if (idx < 0 || idx >= HIST_NBUCKETS) {
			bad(L, "hist.%s[%zu]: bucket %lld is outside 0..%u", dir, i, (long long)idx,
			    HIST_NBUCKETS - 1);
			return;
		}
		h->bucket[idx] = json_object_get_uint64(json_object_array_get_idx(pair, 1));
	}
}

static void load_step(struct loader *L, struct json_object *o, struct result_step *s)
{
	struct json_object *samples, *hist, *warnings;

	get_str(L, o, "label", s->label, sizeof(s->label));
	load_workload(L, child(L, o, "workload", json_type_object), &s->wl);
	s->status = (enum result_status)get_enum(L, o, "status", result_status_name, NSTATUS,
						 RS_COMPLETE);
	get_str(L, o, "error", s->error, sizeof(s->error));
	s->error_offset = get_u64(L, o, "error_offset");
	get_str(L, o, "engine", s->engine, sizeof(s->engine));
	load_sample(L, child(L, o, "summary", json_type_object), &s->summary);
	load_sample(L, child(L, o, "drain", json_type_object), &s->drain);
	load_sample(L, child(L, o, "ramp", json_type_object), &s->ramp);
	warnings = child(L, o, "warnings", json_type_array);
	for (size_t i = 0; warnings && i < json_object_array_length(warnings) && !L->ret; i++) {
		struct json_object *w = json_object_array_get_idx(warnings, i);
		char code[32], text[256];
		if (!json_object_is_type(w, json_type_object)) {
			bad(L, "warnings[%zu] should be an object", i);
			return;
		}
		get_str(L, w, "code", code, sizeof(code));
		get_str(L, w, "text", text, sizeof(text));
		if (!code[0]) {
			bad(L, "warnings[%zu] has no \"code\"", i);
			return;
		}
		if (add_warning(s, code, text)) {
			L->ret = -ENOMEM;
			snprintf(L->err, L->errlen, "%s: out of memory", L->file);
			return;
		}
	}

	samples = child(L, o, "samples", json_type_array);
	size_t n = samples ? json_object_array_length(samples) : 0;
	if (n) {
		s->samples = calloc(n, sizeof(*s->samples));
		if (!s->samples) {
			L->ret = -ENOMEM;
			snprintf(L->err, L->errlen, "%s: out of memory", L->file);
			return;
		}
		s->nsamples = (unsigned)n;
		for (size_t i = 0; i < n; i++) {
			struct json_object *so = json_object_array_get_idx(samples, i);
			if (!json_object_is_type(so, json_type_object)) {
				bad(L, "samples[%zu] should be an object", i);
				return;
			}
			load_sample(L, so, &s->samples[i]);
		}
	}

	hist = child(L, o, "hist", json_type_object);
	if (hist) {
		s->hist = calloc(2, sizeof(*s->hist));
		if (!s->hist) {
			L->ret = -ENOMEM;
			snprintf(L->err, L->errlen, "%s: out of memory", L->file);
			return;
		}
		load_hist(L, child(L, hist, "read", json_type_array), &s->hist[0], "read");
		load_hist(L, child(L, hist, "write", json_type_array), &s->hist[1], "write");
	}
}

static void load_phase(struct loader *L, struct json_object *o, struct result_phase *ph)
{
	struct json_object *steady, *steps;
	size_t base = strlen(L->where);

	get_str(L, o, "name", ph->name, sizeof(ph->name));
	ph->kind = (enum phase_kind)get_enum(L, o, "kind", phase_kind_name, NKIND, PH_RUN);
	ph->status = (enum result_status)get_enum(L, o, "status", result_status_name, NSTATUS,
						  RS_COMPLETE);
	steady = child(L, o, "steady", json_type_object);
	if (steady) {
		struct steady_info *st = &ph->steady;
		struct json_object *reached = child(L, steady, "reached", json_type_boolean);
		st->used = true;
		get_str(L, steady, "tracked", st->tracked, sizeof(st->tracked));
		st->window = get_uint(L, steady, "window");
		st->data_limit_pct = get_dbl(L, steady, "data_limit_pct");
		st->slope_limit_pct = get_dbl(L, steady, "slope_limit_pct");
		st->max_rounds = get_uint(L, steady, "max_rounds");
		st->reached = reached && json_object_get_boolean(reached);
		st->round = get_uint(L, steady, "round");
		st->data_excursion_pct = get_dbl(L, steady, "data_excursion_pct");
		st->slope_excursion_pct = get_dbl(L, steady, "slope_excursion_pct");
	}
	steps = child(L, o, "steps", json_type_array);
	size_t n = steps ? json_object_array_length(steps) : 0;
	for (size_t i = 0; i < n && !L->ret; i++) {
		struct json_object *so = json_object_array_get_idx(steps, i);
		snprintf(L->where + base, sizeof(L->where) - base, ".steps[%zu]", i);
		if (!json_object_is_type(so, json_type_object)) {
			bad(L, "should be an object");
			break;
		}
		struct result_step *s = result_add_step(ph, "", NULL);
		if (!s) {
			L->ret = -ENOMEM;
			snprintf(L->err, L->errlen, "%s: out of memory", L->file);
			break;
		}
		load_step(L, so, s);
	}
	L->where[base] = '\0';
}

/*
 * Older versions are read by upgrading their JSON tree one version at a time, then
 * reading it as the current version. upgrade[v] turns version v into v + 1; versions
 * with no entry below RESULT_VERSION were never released and cannot be read.
 */
typedef int (*upgrade_fn)(struct json_object *root, char *msg, size_t len);
static const upgrade_fn upgrade[RESULT_VERSION + 1] = {
	[0] = NULL, /* version 1 is the first released format */
};
#define RESULT_OLDEST_VERSION 1

static int check_version(struct loader *L, struct json_object *root, int *version)
{
	struct json_object *fmt, *ver;

	fmt = child(L, root, "format", json_type_string);
	if (L->ret)
		return L->ret;
	if (!fmt)
		return bad(L, "not a drivebench result (no \"format\" field)");
	if (strcmp(json_object_get_string(fmt), RESULT_FORMAT))
		return bad(L, "not a drivebench result (format \"%s\", expected \"%s\")",
			   json_object_get_string(fmt), RESULT_FORMAT);
	ver = child(L, root, "version", json_type_int);
	if (L->ret || !ver)
		return bad(L, "format %s without an integer \"version\"", RESULT_FORMAT);
	int64_t v = json_object_get_int64(ver);
	if (v > RESULT_VERSION)
		return bad(L,
			   "format version %lld is newer than this drivebench " DB_VERSION
			   " reads (versions %d to %d); use a newer drivebench",
			   (long long)v, RESULT_OLDEST_VERSION, RESULT_VERSION);
	if (v < RESULT_OLDEST_VERSION)
		return bad(L,
			   "format version %lld is older than this drivebench " DB_VERSION
			   " reads (versions %d to %d)",
			   (long long)v, RESULT_OLDEST_VERSION, RESULT_VERSION);
	*version = (int)v;
	for (int64_t u = v; u < RESULT_VERSION; u++) {
		char msg[256] = "no upgrade path";
		if (!upgrade[u] || upgrade[u](root, msg, sizeof(msg)))
			return bad(L, "cannot upgrade format version %lld: %s", (long long)u, msg);
	}
	return 0;
}

static void load_root(struct loader *L, struct json_object *root, struct result *r)
{
	struct json_object *tool, *preset, *phases, *v;

	if (check_version(L, root, &r->version))
		return;
	tool = child(L, root, "tool", json_type_object);
	get_str(L, tool, "version", r->tool_version, sizeof(r->tool_version));
	r->status = (enum result_status)get_enum(L, root, "status", result_status_name, NSTATUS,
						 RS_INCOMPLETE);
	get_str(L, root, "error", r->error, sizeof(r->error));
	get_str(L, root, "started", r->started, sizeof(r->started));
	get_str(L, root, "ended", r->ended, sizeof(r->ended));
	v = child(L, root, "host", json_type_object);
	r->host = v ? json_object_get(v) : json_object_new_object();
	v = child(L, root, "target", json_type_object);
	r->target = v ? json_object_get(v) : json_object_new_object();
	preset = child(L, root, "preset", json_type_object);
	if (preset) {
		get_str(L, preset, "name", r->preset_name, sizeof(r->preset_name));
		get_str(L, preset, "source", r->preset_source, sizeof(r->preset_source));
		v = child(L, preset, "text", json_type_string);
		if (v && !(r->preset_text = strdup(json_object_get_string(v)))) {
			L->ret = -ENOMEM;
			snprintf(L->err, L->errlen, "%s: out of memory", L->file);
			return;
		}
		r->scale = child(L, preset, "scale", json_type_double) ? get_dbl(L, preset, "scale")
								       : 1.0;
	}
	phases = child(L, root, "phases", json_type_array);
	size_t n = phases ? json_object_array_length(phases) : 0;
	for (size_t i = 0; i < n && !L->ret; i++) {
		struct json_object *po = json_object_array_get_idx(phases, i);
		snprintf(L->where, sizeof(L->where), "phases[%zu]", i);
		if (!json_object_is_type(po, json_type_object)) {
			bad(L, "should be an object");
			break;
		}
		struct result_phase *ph = result_add_phase(r, "", PH_RUN);
		if (!ph) {
			L->ret = -ENOMEM;
			snprintf(L->err, L->errlen, "%s: out of memory", L->file);
			break;
		}
		load_phase(L, po, ph);
	}
	L->where[0] = '\0';
}

/* The whole file in one malloc'd, NUL-terminated buffer. */
static int read_file(const char *path, char **out, size_t *outlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t len = 0, cap;
	int ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto out;
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (len + 1 >= cap) {
			char *p = realloc(buf, cap * 2);
			if (!p) {
				ret = -ENOMEM;
				goto out;
			}
			buf = p;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	buf = NULL;
	ret = 0;
out:
	free(buf);
	close(fd);
	return ret;
}

int result_load(struct result *r, const char *path, char *err, size_t errlen)
{
	struct loader L = {.file = path, .err = err, .errlen = errlen};
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL;
	char *text = NULL;
	size_t len = 0;
	int ret;

	result_init(r);
	ret = read_file(path, &text, &len);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	tok = json_tokener_new();
	if (!tok) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success) {
		size_t off = json_tokener_get_parse_end(tok), line = 1;
		for (size_t i = 0; i < off && i < len; i++)
			line += text[i] == '\n';
		snprintf(err, errlen, "%s:%zu: not valid JSON: %s", path, line,
			 jerr == json_tokener_continue ? "the file ends too early"
						       : json_tokener_error_desc(jerr));
		ret = -EINVAL;
		goto out;
	}
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "%s: not a drivebench result (not a JSON object)", path);
		ret = -EINVAL;
		goto out;
	}
	load_root(&L, root, r);
	ret = L.ret;
out:
	if (ret)
		result_free(r);
	else
		snprintf(r->path, sizeof(r->path), "%s", path);
	if (root)
		json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(text);
	return ret;
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

char *result_fmt_capacity(char *buf, size_t len, uint64_t bytes)
{
	static const char *const suf[] = {"B", "KB", "MB", "GB", "TB", "PB"};
	double v = (double)bytes;
	unsigned i = 0;

	while (v >= 999.5 && i < 5) {
		v /= 1000;
		i++;
	}
	/* three significant digits, trailing zeros dropped: 200GB, 1.92TB, 3.2TB */
	snprintf(buf, len, "%.3g%s", v, suf[i]);
	return buf;
}

char *result_label(const struct result *r, bool with_firmware, char *buf, size_t len)
{
	const char *model = result_drive_model(r), *fw = result_drive_firmware(r);
	uint64_t cap = result_capacity_bytes(r);
	char capbuf[32];

	if (!model[0]) {
		const char *path = result_target_path(r);
		snprintf(buf, len, "%s", path[0] ? path : (r->path[0] ? r->path : "unnamed run"));
		return buf;
	}
	snprintf(buf, len, "%s%s%s%s%s", model, cap ? " " : "",
		 cap ? result_fmt_capacity(capbuf, sizeof(capbuf), cap) : "",
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

int result_list_dir(const char *dir, struct result_list *out, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	int ret = 0;

	out->entries = NULL;
	out->n = 0;
	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	while ((e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		if (e->d_name[0] == '.' || nl < 6 || strcmp(e->d_name + nl - 5, ".json"))
			continue; /* hidden names include save()'s temp files */
		if (out->n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct result_entry *p = realloc(out->entries, ncap * sizeof(*p));
			if (!p) {
				ret = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory", dir);
				break;
			}
			out->entries = p;
			cap = ncap;
		}
		struct result_entry *en = &out->entries[out->n++];
		struct result r;
		memset(en, 0, sizeof(*en));
		snprintf(en->path, sizeof(en->path), "%s/%s", dir, e->d_name);
		if (result_load(&r, en->path, en->error, sizeof(en->error))) {
			if (!en->error[0])
				snprintf(en->error, sizeof(en->error), "%s: unreadable", en->path);
			continue;
		}
		snprintf(en->model, sizeof(en->model), "%s", result_drive_model(&r));
		snprintf(en->firmware, sizeof(en->firmware), "%s", result_drive_firmware(&r));
		snprintf(en->target, sizeof(en->target), "%s", result_target_path(&r));
		en->capacity_bytes = result_capacity_bytes(&r);
		snprintf(en->preset, sizeof(en->preset), "%s", r.preset_name);
		snprintf(en->started, sizeof(en->started), "%s", r.started);
		en->status = r.status;
		en->nphases = r.nphases;
		en->nsteps = result_nsteps(&r);
		en->version = r.version;
		result_free(&r);
	}
	closedir(d);
	if (ret) {
		result_list_free(out);
		return ret;
	}
	if (out->n)
		qsort(out->entries, out->n, sizeof(*out->entries), entry_cmp);
	return 0;
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
	int *rc;
	char (*errs)[512];
};

static void *load_worker(void *arg)
{
	struct load_job *job = arg;
	unsigned i;

	while ((i = atomic_fetch_add(&job->next, 1)) < job->n)
		job->rc[i] =
			result_load(&job->rs[i], job->paths[i], job->errs[i], sizeof(job->errs[i]));
	return NULL;
}

int result_load_many(struct result *rs, const char *const *paths, unsigned n, char *err,
		     size_t errlen)
{
	struct load_job job = {.rs = rs, .paths = paths, .n = n};
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
