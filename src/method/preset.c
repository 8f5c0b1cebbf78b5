// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Preset files: the key table, the parser (text -> sections of key = value lists), and
 * the expansion of sections into a plan. Parsing and expansion are separate passes so
 * that every value is checked once with its own line, whether or not a phase uses it,
 * and cross-key rules (rate percentages, tracked steps) are checked on the steps as they
 * will run.
 */
#include "preset.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "lines.h"
#include "strbuf.h"
#include "text.h"
#include "units.h"

#define PRESET_SEC_NAME(id, name) [id] = name,
const char *const preset_section_name[PRESET_NSECTIONS] = {PRESET_SECTIONS(PRESET_SEC_NAME)};
#undef PRESET_SEC_NAME

#define STR_(x) #x
#define STR(x)	STR_(x)

/*
 * --scale shrinks step times, rounds and max_time down to 100 ms at most (a time already
 * shorter stays as it is): a shorter step measures how fast the host starts threads, not
 * the drive (at 10 ms, 16 threads on two CPUs or a loop device at 256 I/Os in flight
 * completed nothing in the step). Times and intervals are at least 10 ms in any case;
 * the default interval scaled down, at least 100 ms.
 */
#define MIN_SCALED_NS	       100000000ull
#define MIN_INTERVAL_NS	       10000000ull
#define MIN_SCALED_INTERVAL_NS 100000000ull
#define LOOPS_CAP_NS  (24ull * 3600 * 1000000000ull) /* a `loops` step without `time` */
#define RENDER_WIDTH  92

/* ---- what setters fill ----------------------------------------------------------- */

struct preset_build {
	struct workload wl;
	unsigned line; /* of the entry being applied */
	unsigned bs_line;
	unsigned rate_line;
	unsigned dist_line; /* of the distribution key, 0: the default */
	double rate_pct;
	unsigned loops;
	bool time_set;
	bool interval_set; /* written in the preset: --scale scales it as it is */
	enum purge_method method;
	enum phase_until until;
	uint64_t round_ns; /* 0: the step's time */
	uint64_t max_time_ns;
	uint64_t min_time_ns;
	double min_written_x; /* multiples of the range */
	bool wipc;
	struct steady_params sp;
	char track[32];
	const char *track_step; /* the raw "key=value ..." text */
	unsigned track_line;
	char name[128];
	bool name_set;
	const char *description;
	const char *source;
};

static int set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "70" or "70%" within [min, max]. */
static int parse_pct(const char *v, double min, double max, double *out)
{
	char buf[64];
	size_t n = strlen(v);

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, n + 1);
	if (buf[n - 1] == '%')
		buf[n - 1] = '\0';
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '.')
		return -EINVAL;
	return units_parse_double(buf, min, max, out);
}

static int get_uint(const char *v, uint64_t min, uint64_t max, uint64_t *out, char *err,
		    size_t errlen)
{
	int r = units_parse_uint(v, min, max, out);

	if (r == -ERANGE)
		return set_err(err, errlen, "%s is not in %llu..%llu", v, (unsigned long long)min,
			       (unsigned long long)max);
	if (r)
		return set_err(err, errlen, "'%s' is not a whole number", v);
	return 0;
}

static int get_duration(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (units_parse_duration(v, ns) == -EINVAL)
		return set_err(err, errlen, "'%s' is not a duration (use ns, us, ms, s, m or h)",
			       v);
	/* refused, not saturated: a duration this long is a typo, and would overflow sums */
	if (*ns > PRESET_MAX_DURATION_NS || units_parse_duration(v, ns))
		return set_err(err, errlen, "'%s' is over the limit of %lluh (30 days)", v,
			       PRESET_MAX_DURATION_NS / 3600000000000ull);
	return 0;
}

static int get_size(const char *v, uint64_t *bytes, char *err, size_t errlen)
{
	if (units_parse_size(v, bytes))
		return set_err(err, errlen, "'%s' is not a size (use b, k, m, g or t)", v);
	return 0;
}

static int set_name(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (strlen(v) >= sizeof(b->name))
		return set_err(err, errlen, "longer than %zu characters", sizeof(b->name) - 1);
	snprintf(b->name, sizeof(b->name), "%s", v);
	b->name_set = true;
	return 0;
}

static int set_description(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	b->description = v;
	return 0;
}

static int set_source(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	b->source = v;
	return 0;
}

static int set_method(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	char names[256];
	size_t n = 0;

	if (purge_method_parse(v, &b->method) == 0)
		return 0;
	names[0] = '\0';
	for (int i = 0; i < PURGE_NMETHODS && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      purge_method_name[i]);
	return set_err(err, errlen, "'%s' is not one of %s", v, names);
}

static int set_pattern(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	for (int i = WL_RANDOM; i <= WL_SEQUENTIAL; i++) {
		if (!strcmp(v, wl_pattern_name[i])) {
			b->wl.pattern = (enum wl_pattern)i;
			return 0;
		}
	}
	return set_err(err, errlen, "'%s' is not random or sequential", v);
}

static int set_bs(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t bs;

	if (get_size(v, &bs, err, errlen))
		return -EINVAL;
	if (bs == 0 || bs > (64u << 20) || bs % 512)
		return set_err(err, errlen, "block size %s is not a multiple of 512 up to 64m", v);
	b->wl.bs = (uint32_t)bs;
	b->wl.nsplit = 0;
	b->bs_line = b->line;
	return 0;
}

static int set_bssplit(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	struct workload wl = b->wl;
	int r = workload_parse_bssplit(&wl, v, err, errlen);

	if (r) {
		/* the caller names the key already */
		size_t pre = strlen("bssplit: ");
		if (!strncmp(err, "bssplit: ", pre))
			memmove(err, err + pre, strlen(err + pre) + 1);
		return r;
	}
	for (unsigned i = 0; i < wl.nsplit; i++)
		if (wl.split[i].bs % 512)
			return set_err(err, errlen, "block size %u is not a multiple of 512",
				       wl.split[i].bs);
	b->wl = wl;
	b->bs_line = b->line;
	return 0;
}

static int set_distribution(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	int r = workload_parse_dist(&b->wl, v, err, errlen);
	size_t pre = strlen("distribution: ");

	/* the caller names the key already */
	if (r && !strncmp(err, "distribution: ", pre))
		memmove(err, err + pre, strlen(err + pre) + 1);
	if (!r)
		b->dist_line = b->line;
	return r;
}

static int set_read(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	double pct;

	if (parse_pct(v, 0, 100, &pct) || pct != floor(pct))
		return set_err(err, errlen, "'%s' is not a whole percentage 0..100", v);
	b->wl.read_pct = (unsigned)pct;
	return 0;
}

static int set_offset(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return get_size(v, &b->wl.range_start, err, errlen);
}

static int set_size(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (get_size(v, &b->wl.range_size, err, errlen))
		return -EINVAL;
	b->wl.range_pct = 0;
	return 0;
}

static int set_range(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	double pct;

	if (parse_pct(v, 0, 100, &pct) || pct <= 0)
		return set_err(err, errlen, "'%s' is not a percentage of the target above 0", v);
	b->wl.range_pct = pct;
	b->wl.range_size = 0;
	return 0;
}

static int set_threads(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (get_uint(v, 1, 1024, &n, err, errlen))
		return -EINVAL;
	b->wl.threads = (unsigned)n;
	return 0;
}

static int set_qdepth(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (get_uint(v, 1, 4096, &n, err, errlen))
		return -EINVAL;
	b->wl.qdepth = (unsigned)n;
	return 0;
}

static int set_time(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (get_duration(v, &b->wl.time_ns, err, errlen))
		return -EINVAL;
	if (b->wl.time_ns == 0)
		return set_err(err, errlen, "must be more than 0");
	b->time_set = true;
	return 0;
}

static int set_ramp(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return get_duration(v, &b->wl.ramp_ns, err, errlen);
}

static int set_rate(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	size_t n = strlen(v);
	uint64_t iops;

	b->rate_line = b->line;
	if (!strcmp(v, "max")) {
		b->wl.rate_iops = 0;
		b->rate_pct = 0;
		return 0;
	}
	if (n && v[n - 1] == '%') {
		double pct;
		if (parse_pct(v, 0, 1000, &pct) || pct <= 0)
			return set_err(err, errlen, "'%s' is not a percentage in (0, 1000]", v);
		b->rate_pct = pct;
		b->wl.rate_iops = 0;
		return 0;
	}
	if (units_parse_uint(v, 0, 1000000000, &iops))
		return set_err(err, errlen, "'%s' is not max, IOPS or a percentage", v);
	b->wl.rate_iops = iops;
	b->rate_pct = 0;
	return 0;
}

static int set_loops(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (get_uint(v, 0, 100, &n, err, errlen))
		return -EINVAL;
	b->loops = (unsigned)n;
	return 0;
}

static int set_data(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	for (int i = WL_DATA_RANDOM; i <= WL_DATA_COMPRESS; i++) {
		if (!strcmp(v, wl_data_name[i])) {
			b->wl.data = (enum wl_data)i;
			return 0;
		}
	}
	return set_err(err, errlen, "'%s' is not random, zero or compress", v);
}

static int set_compress(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	double pct;

	if (parse_pct(v, 0, 100, &pct) || pct != floor(pct))
		return set_err(err, errlen, "'%s' is not a whole percentage 0..100", v);
	b->wl.compress_pct = (unsigned)pct;
	return 0;
}

static int set_interval(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (get_duration(v, &b->wl.interval_ns, err, errlen))
		return -EINVAL;
	if (b->wl.interval_ns < MIN_INTERVAL_NS)
		return set_err(err, errlen, "must be at least 10ms");
	b->interval_set = true;
	return 0;
}

static int set_seed(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return get_uint(v, 0, UINT64_MAX, &b->wl.seed, err, errlen);
}

static int set_until(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (!strcmp(v, "steady")) {
		b->until = UNTIL_STEADY;
		return 0;
	}
	if (!strcmp(v, "fixed")) {
		b->until = UNTIL_FIXED;
		return 0;
	}
	/* a duration: shorthand for `time`, the phase runs each step once for it */
	if (units_parse_duration(v, &b->wl.time_ns) == -EINVAL || b->wl.time_ns == 0)
		return set_err(err, errlen, "'%s' is not steady, fixed or a duration", v);
	if (get_duration(v, &b->wl.time_ns, err, errlen))
		return -EINVAL;
	b->until = UNTIL_TIME;
	b->time_set = true;
	return 0;
}

static int set_round(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (get_duration(v, &b->round_ns, err, errlen))
		return -EINVAL;
	if (b->round_ns == 0)
		return set_err(err, errlen, "must be more than 0");
	return 0;
}

static int set_max_time(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return get_duration(v, &b->max_time_ns, err, errlen);
}

static int set_min_time(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return get_duration(v, &b->min_time_ns, err, errlen);
}

/* "2" or "2x": multiples of the phase's range written before steady state may end it. */
static int set_min_written(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	char buf[32];
	size_t n = strlen(v);

	if (n == 0 || n >= sizeof(buf))
		return set_err(err, errlen, "'%s' is not a multiple of the range (2 or 2x)", v);
	memcpy(buf, v, n + 1);
	if (buf[n - 1] == 'x')
		buf[n - 1] = '\0';
	if (!isdigit((unsigned char)buf[0]) || units_parse_double(buf, 0, 100, &b->min_written_x))
		return set_err(err, errlen, "'%s' is not a multiple of the range 0..100 (2 or 2x)",
			       v);
	return 0;
}

/*
 * kind = wipc: SNIA's workload-independent preconditioning, 128K sequential writes of
 * twice the whole range. Keys written after it change any of that.
 */
static int set_kind(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (!strcmp(v, "workload")) {
		b->wipc = false;
		return 0;
	}
	if (strcmp(v, "wipc"))
		return set_err(err, errlen, "'%s' is not workload or wipc", v);
	b->wipc = true;
	b->wl.pattern = WL_SEQUENTIAL;
	b->wl.bs = 128 * 1024;
	b->wl.nsplit = 0;
	b->bs_line = b->line;
	b->wl.read_pct = 0;
	b->wl.range_start = 0;
	b->wl.range_pct = 100;
	b->wl.range_size = 0;
	b->loops = 2;
	b->until = UNTIL_TIME;
	return 0;
}

static int set_max_rounds(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (get_uint(v, 1, 10000, &n, err, errlen))
		return -EINVAL;
	b->sp.max_rounds = (unsigned)n;
	return 0;
}

static int set_window(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (get_uint(v, 2, 1000, &n, err, errlen))
		return -EINVAL;
	b->sp.window = (unsigned)n;
	return 0;
}

static int set_data_limit(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (parse_pct(v, 0, 1000, &b->sp.data_limit_pct))
		return set_err(err, errlen, "'%s' is not a percentage", v);
	return 0;
}

static int set_slope_limit(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (parse_pct(v, 0, 1000, &b->sp.slope_limit_pct))
		return set_err(err, errlen, "'%s' is not a percentage", v);
	return 0;
}

static int set_track(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	if (!steady_metric_valid(v) || strlen(v) >= sizeof(b->track))
		return set_err(err, errlen,
			       "'%s' is not a metric (iops, mbps, mean_ns, std_ns, max_ns, "
			       "p99_ns, ...; read. or write. for one direction)",
			       v);
	snprintf(b->track, sizeof(b->track), "%s", v);
	return 0;
}

static const struct preset_key *key_find(const char *name);

/* "bs=4k read=0": checked here for form; matched against the steps at expansion. */
static int set_track_step(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	char *copy = strdup(v), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		const struct preset_key *k;

		if (!eq) {
			ret = set_err(err, errlen, "'%s' is not key=value", tok);
			break;
		}
		*eq = '\0';
		k = key_find(tok);
		if (!k || !k->list) {
			ret = set_err(err, errlen, "'%s' is not a workload key", tok);
			break;
		}
	}
	free(copy);
	if (!ret) {
		b->track_step = v;
		b->track_line = b->line;
	}
	return ret;
}

#define S(sec)	   (1u << (sec))
#define SEC_PHASES (S(SEC_PRECONDITION) | S(SEC_MEASURE) | S(SEC_RUN))
#define SEC_WL	   (S(SEC_WORKLOAD) | SEC_PHASES)
#define SEC_RANGE  (SEC_WL | S(SEC_PURGE))

/* Keys with the same group are alternatives: setting one in a phase drops the other. */
enum key_group { G_NONE, G_BLOCKSIZE, G_RANGE };

/* The format, declared once. Order: as listings and the man page present them. */
const struct preset_key preset_keys[] = {
	{.name = "name",
	 .sections = S(SEC_PRESET) | SEC_PHASES | S(SEC_PURGE),
	 .value = "TEXT",
	 .text = true,
	 .set = set_name,
	 .help = "the preset's name; in a phase, the phase's name in results"},
	{.name = "description",
	 .sections = S(SEC_PRESET),
	 .value = "TEXT",
	 .text = true,
	 .set = set_description,
	 .help = "what the preset shows the reviewer"},
	{.name = "source",
	 .sections = S(SEC_PRESET),
	 .value = "TEXT",
	 .text = true,
	 .set = set_source,
	 .help = "where the methodology comes from"},
	{.name = "method",
	 .sections = S(SEC_PURGE),
	 .def = "none",
	 .value = "none|discard|zeroout",
	 .set = set_method,
	 .help = "how the range is purged (files: discard punches a hole, zeroout writes zeroes)"},
	{.name = "pattern",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "random",
	 .value = "random|sequential",
	 .set = set_pattern,
	 .help = "access pattern"},
	{.name = "bs",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "4k",
	 .value = "SIZE",
	 .group = G_BLOCKSIZE,
	 .set = set_bs,
	 .help = "block size"},
	{.name = "bssplit",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .value = "SPLIT",
	 .group = G_BLOCKSIZE,
	 .set = set_bssplit,
	 .help = "block-size mix in fio's syntax, 4k/60:8k/40; replaces bs"},
	{.name = "distribution",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "uniform",
	 .value = "uniform|zipf:T|pareto:H|normal:S|zoned:A/R:...",
	 .set = set_distribution,
	 .help = "where random offsets land, in fio's random_distribution syntax"},
	{.name = "read",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "100",
	 .value = "PCT",
	 .set = set_read,
	 .help = "share of I/Os that read; the rest write"},
	{.name = "offset",
	 .option = true,
	 .sections = SEC_RANGE,
	 .list = true,
	 .def = "0",
	 .value = "SIZE",
	 .set = set_offset,
	 .help = "where the tested range starts"},
	{.name = "size",
	 .option = true,
	 .sections = SEC_RANGE,
	 .list = true,
	 .def = "0",
	 .value = "SIZE",
	 .group = G_RANGE,
	 .set = set_size,
	 .help = "length of the tested range, 0 to the end of the target"},
	{.name = "range",
	 .option = true,
	 .sections = SEC_RANGE,
	 .list = true,
	 .value = "PCT",
	 .group = G_RANGE,
	 .set = set_range,
	 .help = "length of the tested range as a share of the target; replaces size"},
	{.name = "threads",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "1",
	 .value = "N",
	 .set = set_threads,
	 .help = "worker threads, 1..1024"},
	{.name = "qdepth",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "32",
	 .value = "N",
	 .set = set_qdepth,
	 .help = "queue depth per thread, 1..4096"},
	{.name = "time",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "10s",
	 .value = "DURATION",
	 .set = set_time,
	 .help = "measured time of each step"},
	{.name = "ramp",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "0",
	 .value = "DURATION",
	 .set = set_ramp,
	 .help = "time each step runs before measuring, left out of its numbers"},
	{.name = "rate",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "max",
	 .value = "max|IOPS|PCT%",
	 .set = set_rate,
	 .help = "total IOPS cap; PCT% of the IOPS of the last uncapped step"},
	{.name = "loops",
	 .option = true,
	 .sections = SEC_WL,
	 .def = "0",
	 .value = "N",
	 .set = set_loops,
	 .help = "end each step after transferring the range N times (time still caps it)"},
	{.name = "data",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "random",
	 .value = "random|zero|compress",
	 .set = set_data,
	 .help = "what writes carry"},
	{.name = "compress",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "0",
	 .value = "PCT",
	 .set = set_compress,
	 .help = "data = compress: share of zeroes in each 4k"},
	{.name = "interval",
	 .option = true,
	 .sections = SEC_WL,
	 .def = "1s",
	 .value = "DURATION",
	 .set = set_interval,
	 .help = "sampling interval"},
	{.name = "seed",
	 .option = true,
	 .sections = SEC_WL,
	 .def = "0",
	 .value = "N",
	 .set = set_seed,
	 .help = "offsets and data; 0 chooses one at run time"},
	{.name = "until",
	 .sections = SEC_PHASES,
	 .value = "steady|fixed|DURATION",
	 .set = set_until,
	 .help = "steady: repeat rounds of the phase's steps until steady state; fixed: every "
		 "round to max_time or max_rounds, steady state judged and recorded, never "
		 "stopping early; a duration is `time`"},
	{.name = "kind",
	 .sections = S(SEC_PRECONDITION),
	 .def = "workload",
	 .value = "workload|wipc",
	 .set = set_kind,
	 .help = "wipc: SNIA's workload-independent precondition, 128k sequential writes of "
		 "twice the whole range (loops = 2; later keys change it)"},
	{.name = "min_time",
	 .sections = SEC_PHASES,
	 .def = "0",
	 .value = "DURATION",
	 .set = set_min_time,
	 .help = "until = steady: steady state ends the phase only after this much time"},
	{.name = "min_written",
	 .sections = SEC_PHASES,
	 .def = "0",
	 .value = "N",
	 .set = set_min_written,
	 .help = "until = steady: steady state ends the phase only after N x the range is "
		 "written (2 or 2x)"},
	{.name = "round",
	 .sections = SEC_PHASES,
	 .value = "DURATION",
	 .set = set_round,
	 .help = "until = steady or fixed: measured time of each step of a round (default: "
		 "time)"},
	{.name = "max_time",
	 .sections = SEC_PHASES,
	 .def = "0",
	 .value = "DURATION",
	 .set = set_max_time,
	 .help = "until = steady: no round starts after this much time; 0 no limit (fixed: the "
		 "phase's length)"},
	{.name = "max_rounds",
	 .sections = SEC_PHASES,
	 .def = STR(STEADY_MAX_ROUNDS),
	 .value = "N",
	 .set = set_max_rounds,
	 .help = "until = steady: give up after this many rounds"},
	{.name = "window",
	 .sections = SEC_PHASES,
	 .def = STR(STEADY_WINDOW),
	 .value = "N",
	 .set = set_window,
	 .help = "until = steady: rounds in the measurement window"},
	{.name = "data_limit",
	 .sections = SEC_PHASES,
	 .def = STR(STEADY_DATA_PCT) "%",
	 .value = "PCT",
	 .set = set_data_limit,
	 .help = "until = steady: largest max - min of the window, % of its average"},
	{.name = "slope_limit",
	 .sections = SEC_PHASES,
	 .def = STR(STEADY_SLOPE_PCT) "%",
	 .value = "PCT",
	 .set = set_slope_limit,
	 .help = "until = steady: largest change of the least-squares line across the window"},
	{.name = "track",
	 .sections = SEC_PHASES,
	 .def = "iops",
	 .value = "METRIC",
	 .set = set_track,
	 .help = "until = steady: the metric judged (iops, mbps, mean_ns, write.iops, ...)"},
	{.name = "track_step",
	 .sections = SEC_PHASES,
	 .value = "KEY=VALUE...",
	 .text = true,
	 .set = set_track_step,
	 .help = "until = steady with several steps: the step tracked, as bs=4k read=0"},
};

const unsigned preset_nkeys = sizeof(preset_keys) / sizeof(preset_keys[0]);

static enum key_group key_group(const struct preset_key *k)
{
	return (enum key_group)k->group;
}

static const struct preset_key *key_find(const char *name)
{
	for (unsigned i = 0; i < preset_nkeys; i++)
		if (!strcmp(preset_keys[i].name, name))
			return &preset_keys[i];
	return NULL;
}

static void build_defaults(struct preset_build *b)
{
	char err[256];

	memset(b, 0, sizeof(*b));
	workload_defaults(&b->wl);
	steady_defaults(&b->sp);
	for (unsigned i = 0; i < preset_nkeys; i++) {
		const struct preset_key *k = &preset_keys[i];
		/* the table's defaults are valid by construction; check_preset tests it */
		if (k->def && !(k->sections & S(SEC_PRESET)))
			(void)k->set(b, k->def, err, sizeof(err));
	}
	b->time_set = false;
	b->interval_set = false;
	b->bs_line = b->rate_line = b->dist_line = 0;
}

/* ---- the parsed text ------------------------------------------------------------- */

struct preset_entry {
	const struct preset_key *key;
	unsigned line;
	char *raw;   /* the value, continuation lines joined, runs of blanks made one */
	char **vals; /* list keys: the words; other keys: raw alone */
	unsigned nvals;
};

struct preset_sec {
	enum preset_section kind;
	unsigned line;
	struct preset_entry *e;
	unsigned n;
};

struct preset_doc {
	struct preset_sec *s;
	unsigned n;
};

static void doc_free(struct preset_doc *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < d->n; i++) {
		for (unsigned j = 0; j < d->s[i].n; j++) {
			struct preset_entry *e = &d->s[i].e[j];
			if (e->vals && e->vals[0] != e->raw)
				free(e->vals[0]);
			free(e->vals);
			free(e->raw);
		}
		free(d->s[i].e);
	}
	free(d->s);
	free(d);
}

struct parser {
	const char *file;
	char *err;
	size_t errlen;
	/* settings given as options: origin[line] names the option, instead of file:line */
	const char *const *origin;
	unsigned norigin;
};

static const char *origin_of(const struct parser *p, unsigned line)
{
	return p->origin && line < p->norigin ? p->origin[line] : NULL;
}

static int perr(const struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int perr(const struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;
	const char *origin = origin_of(p, line);
	int n = origin ? snprintf(p->err, p->errlen, "%s: ", origin)
		       : snprintf(p->err, p->errlen, "%s:%u: ", p->file, line);

	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[64];

	if (lb >= 63 || la >= 63)
		return UINT_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The closest name, if it is close enough to be what was meant. */
static const char *did_you_mean(const char *word, const char *const *names, unsigned n,
				size_t stride)
{
	const char *best = NULL;
	unsigned bestd = UINT_MAX;

	for (unsigned i = 0; i < n; i++) {
		const char *name = *(const char *const *)((const char *)names + i * stride);
		unsigned d = edit_distance(word, name);
		if (d < bestd) {
			bestd = d;
			best = name;
		}
	}
	size_t len = strlen(word);
	return bestd <= (len > 6 ? 3u : 2u) && bestd < len ? best : NULL;
}

/* Runs of blanks made one space, in place. */
static void squeeze(char *s)
{
	char *w = s;
	bool blank = false;

	for (char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			blank = true;
			continue;
		}
		if (blank && w != s)
			*w++ = ' ';
		blank = false;
		*w++ = *r;
	}
	*w = '\0';
}

static int section_begin(const struct parser *p, struct preset_doc *d, char *line, unsigned lineno)
{
	char *close = strchr(line, ']');
	char *name;
	int kind = -1;

	if (!close)
		return perr(p, lineno, "expected ']' to close the section name");
	if (*lines_trim(close + 1))
		return perr(p, lineno, "unexpected text after ']'");
	*close = '\0';
	name = lines_trim(line + 1);
	for (int i = 0; i < PRESET_NSECTIONS; i++)
		if (!strcmp(name, preset_section_name[i]))
			kind = i;
	if (kind < 0) {
		const char *m = did_you_mean(name, preset_section_name, PRESET_NSECTIONS,
					     sizeof(preset_section_name[0]));
		if (m)
			return perr(p, lineno, "unknown section [%s]; did you mean [%s]?", name, m);
		return perr(p, lineno,
			    "unknown section [%s] (preset, workload, purge, precondition, "
			    "measure, run)",
			    name);
	}
	if (kind == SEC_PRESET || kind == SEC_WORKLOAD) {
		for (unsigned i = 0; i < d->n; i++)
			if (d->s[i].kind == (enum preset_section)kind)
				return perr(p, lineno,
					    "section [%s] given twice (first on line %u)", name,
					    d->s[i].line);
	}
	struct preset_sec *s = realloc(d->s, (d->n + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	d->s = s;
	memset(&d->s[d->n], 0, sizeof(d->s[0]));
	d->s[d->n].kind = (enum preset_section)kind;
	d->s[d->n].line = lineno;
	d->n++;
	return 0;
}

static int first_section(unsigned sections)
{
	for (int i = 0; i < PRESET_NSECTIONS; i++)
		if (sections & S(i))
			return i;
	return 0;
}

/* Where an earlier entry was given, for messages: "line 12", or its option. */
static const char *place(const struct parser *p, unsigned line, char *buf, size_t len)
{
	const char *origin = origin_of(p, line);

	if (origin)
		snprintf(buf, len, "%s", origin);
	else
		snprintf(buf, len, "line %u", line);
	return buf;
}

/* One "key = value" into the document's last section. */
static int entry_put(const struct parser *p, struct preset_doc *d, const char *name,
		     const char *val, unsigned lineno)
{
	const struct preset_key *k;
	struct preset_sec *sec;
	char where[160];

	if (d->n == 0)
		return perr(p, lineno, "key '%s' before any [section]", name);
	sec = &d->s[d->n - 1];
	k = key_find(name);
	if (!k) {
		const char *m = did_you_mean(name, &preset_keys[0].name, preset_nkeys,
					     sizeof(preset_keys[0]));
		if (m)
			return perr(p, lineno, "unknown key '%s'; did you mean '%s'?", name, m);
		return perr(p, lineno, "unknown key '%s' (drivebench presets --keys lists them)",
			    name);
	}
	if (!(k->sections & S(sec->kind)))
		return perr(p, lineno, "key '%s' does not belong in [%s] (it goes in [%s])", name,
			    preset_section_name[sec->kind],
			    preset_section_name[first_section(k->sections)]);
	for (unsigned i = 0; i < sec->n; i++) {
		if (sec->e[i].key == k)
			return perr(p, lineno, "duplicate key '%s' (first set on %s)", name,
				    place(p, sec->e[i].line, where, sizeof(where)));
		if (key_group(k) != G_NONE && key_group(sec->e[i].key) == key_group(k))
			return perr(p, lineno, "'%s' and '%s' (%s) both set: give one", name,
				    sec->e[i].key->name,
				    place(p, sec->e[i].line, where, sizeof(where)));
	}
	struct preset_entry *e = realloc(sec->e, (sec->n + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	sec->e = e;
	e = &sec->e[sec->n++];
	memset(e, 0, sizeof(*e));
	e->key = k;
	e->line = lineno;
	e->raw = strdup(val);
	return e->raw ? 0 : -ENOMEM;
}

static int entry_add(const struct parser *p, struct preset_doc *d, char *line, unsigned lineno)
{
	char *name, *val;

	if (!lines_split(line, &name, &val))
		return perr(p, lineno, "expected 'key = value'");
	if (!*name)
		return perr(p, lineno, "a value without a key");
	return entry_put(p, d, name, val, lineno);
}

/* The caller knows there is an entry to continue. */
static int entry_continue(struct preset_doc *d, const char *more)
{
	struct preset_sec *sec = &d->s[d->n - 1];
	struct preset_entry *e;
	char *raw;

	e = &sec->e[sec->n - 1];
	raw = malloc(strlen(e->raw) + strlen(more) + 2);
	if (!raw)
		return -ENOMEM;
	sprintf(raw, "%s%s%s", e->raw, *e->raw ? " " : "", more);
	free(e->raw);
	e->raw = raw;
	return 0;
}

/* Split values and check each one with its key's setter, so errors name its line. */
static int entry_finish(const struct parser *p, struct preset_entry *e)
{
	struct preset_build b;
	char msg[512];

	squeeze(e->raw);
	if (!*e->raw)
		return perr(p, e->line, "'%s' has no value", e->key->name);
	if (e->key->text) {
		e->vals = malloc(sizeof(char *));
		if (!e->vals)
			return -ENOMEM;
		e->vals[0] = e->raw;
		e->nvals = 1;
	} else {
		char *copy = strdup(e->raw);
		unsigned n = 1;

		if (!copy)
			return -ENOMEM;
		for (char *c = copy; *c; c++)
			n += *c == ' ';
		e->vals = malloc(n * sizeof(char *));
		if (!e->vals) {
			free(copy);
			return -ENOMEM;
		}
		e->nvals = 0;
		for (char *save = NULL, *t = strtok_r(copy, " ", &save); t;
		     t = strtok_r(NULL, " ", &save))
			e->vals[e->nvals++] = t;
		if (e->nvals > 1 && !e->key->list)
			return perr(p, e->line, "'%s' takes one value, not a list", e->key->name);
	}
	for (unsigned i = 0; i < e->nvals; i++) {
		build_defaults(&b);
		b.line = e->line;
		if (e->key->set(&b, e->vals[i], msg, sizeof(msg)))
			return origin_of(p, e->line)
				       ? perr(p, e->line, "%s", msg)
				       : perr(p, e->line, "%s: %s", e->key->name, msg);
	}
	return 0;
}

static int doc_finish(const struct parser *p, struct preset_doc *d)
{
	int ret;

	for (unsigned i = 0; i < d->n; i++)
		for (unsigned j = 0; j < d->s[i].n; j++)
			if ((ret = entry_finish(p, &d->s[i].e[j])))
				return ret;
	return 0;
}

static int doc_parse(const struct parser *p, const char *text, struct preset_doc **out)
{
	struct preset_doc *d = calloc(1, sizeof(*d));
	char *copy = strdup(text), *s;
	struct lines lines;
	int ret = 0;

	if (!d || !copy) {
		ret = -ENOMEM;
		goto fail;
	}
	/* '#' or ';' at the start of a line or after a blank starts a comment */
	lines_init(&lines, copy, "#;");
	while (!ret && (s = lines_next(&lines))) {
		unsigned lineno = lines.lineno;
		bool indented = lines.indented;
		if (indented && *s != '[' && d->n && d->s[d->n - 1].n)
			ret = entry_continue(d, s);
		else if (indented && *s != '[' && d->n && !strchr(s, '='))
			ret = perr(p, lineno, "indented line continues nothing");
		else if (*s == '[')
			ret = section_begin(p, d, s, lineno);
		else
			ret = entry_add(p, d, s, lineno);
	}
	if (ret)
		goto fail;
	if (!d->n) {
		ret = perr(p, lines.lineno ? lines.lineno : 1, "no sections: not a drivebench preset");
		goto fail;
	}
	if ((ret = doc_finish(p, d)))
		goto fail;
	free(copy);
	*out = d;
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(p->err, p->errlen, "%s: out of memory", p->file);
	free(copy);
	doc_free(d);
	return ret;
}

/* ---- expansion ------------------------------------------------------------------- */

static bool sec_overrides(const struct preset_sec *phase, const struct preset_key *k)
{
	for (unsigned i = 0; i < phase->n; i++)
		if (phase->e[i].key == k ||
		    (key_group(k) != G_NONE && key_group(phase->e[i].key) == key_group(k)))
			return true;
	return false;
}

static uint64_t scaled(uint64_t ns, double scale, uint64_t min)
{
	double v = (double)ns * scale;

	if (ns == 0)
		return 0;
	if (v < (double)min)
		return min;
	return v >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(v);
}

/* A step time, round or max_time under --scale (see MIN_SCALED_NS). */
static uint64_t scaled_time(uint64_t ns, double scale)
{
	uint64_t floor = ns < MIN_SCALED_NS ? ns : MIN_SCALED_NS;

	return scaled(ns, scale, floor < MIN_INTERVAL_NS ? MIN_INTERVAL_NS : floor);
}

/*
 * The sampling interval of a step under --scale. One the preset sets is scaled like any
 * duration. The default one (1 s) shrinking with the scale made samples noise (10 ms at
 * x0.01: thousands of samples, megabytes of JSON), so scaled down it stays at least
 * 100 ms, or a tenth of the scaled step when that is longer, and never grows past itself.
 */
static uint64_t scaled_interval(uint64_t ns, bool set, double scale, uint64_t step_ns)
{
	uint64_t v = scaled(ns, scale, MIN_INTERVAL_NS), floor = MIN_SCALED_INTERVAL_NS;

	if (set || scale >= 1)
		return v;
	if (step_ns / 10 > floor)
		floor = step_ns / 10;
	if (v < floor)
		v = floor;
	return v < ns ? v : ns;
}

/* Copy as much of src as fits, always terminated, never cutting a character in two. */
static void copy_str(char *dst, size_t len, const char *src)
{
	text_copy(dst, len, src);
}

static void label_part(char *label, size_t len, const char *part)
{
	size_t used = strlen(label);

	if (used + 2 >= len)
		return;
	if (used)
		label[used++] = ' ';
	copy_str(label + used, len - used, part);
}

static void step_label(const struct preset_build *b, const struct preset_entry **eff, unsigned neff,
		       char *label, size_t len)
{
	bool tq_done = false;
	char part[64];

	label[0] = '\0';
	for (unsigned i = 0; i < neff; i++) {
		const struct preset_key *k = eff[i]->key;
		if (eff[i]->nvals < 2)
			continue;
		if (k->set == set_threads || k->set == set_qdepth) {
			if (tq_done)
				continue;
			tq_done = true;
			workload_tq(&b->wl, part, sizeof(part));
		} else if (k->set == set_bs) {
			units_fmt_size(part, sizeof(part), b->wl.bs);
		} else if (k->set == set_read) {
			if (b->wl.read_pct == 100 || b->wl.read_pct == 0)
				snprintf(part, sizeof(part), "%s",
					 b->wl.read_pct ? "read" : "write");
			else
				snprintf(part, sizeof(part), "%u/%u", b->wl.read_pct,
					 100 - b->wl.read_pct);
		} else if (k->set == set_pattern) {
			snprintf(part, sizeof(part), "%s", wl_pattern_name[b->wl.pattern]);
		} else if (k->set == set_distribution) {
			workload_fmt_dist(&b->wl, part, sizeof(part));
		} else if (k->set == set_rate) {
			if (b->rate_pct > 0)
				snprintf(part, sizeof(part), "%g%%", b->rate_pct);
			else if (b->wl.rate_iops)
				snprintf(part, sizeof(part), "%llu IOPS",
					 (unsigned long long)b->wl.rate_iops);
			else
				snprintf(part, sizeof(part), "max");
		} else {
			continue; /* the value itself follows below */
		}
		label_part(label, len, part);
	}
	if (!label[0])
		workload_describe(&b->wl, label, len);
}

/* Keys that vary but have no short label form get "key=value". */
static void step_label_rest(const struct preset_entry **eff, const unsigned *idx, unsigned neff,
			    char *label, size_t len)
{
	char part[64];

	for (unsigned i = 0; i < neff; i++) {
		const struct preset_key *k = eff[i]->key;
		if (eff[i]->nvals < 2 || k->set == set_threads || k->set == set_qdepth ||
		    k->set == set_bs || k->set == set_read || k->set == set_pattern ||
		    k->set == set_rate || k->set == set_distribution)
			continue;
		snprintf(part, sizeof(part), "%s=%s", k->name, eff[i]->vals[idx[i]]);
		label_part(label, len, part);
	}
}

struct expand {
	const struct parser *p;
	const struct preset_doc *d;
	struct plan *plan;
	double scale;
	bool have_uncapped; /* a step without a rate cap has been planned before */
	uint64_t steps;	    /* over the phases so far, steady rounds counted */
};

/* A scaled duration past the limit, or a step with more samples than a result holds. */
static int check_scaled(const struct expand *x, const struct preset_sec *ps, unsigned step,
			const char *what, uint64_t ns)
{
	char a[32], b[32];

	if (ns <= PRESET_MAX_DURATION_NS)
		return 0;
	return perr(x->p, ps->line, "[%s] step %u: %s of %s at scale %g is over the limit of %s",
		    preset_section_name[ps->kind], step + 1, what,
		    units_fmt_duration(a, sizeof(a), ns), x->scale,
		    units_fmt_duration(b, sizeof(b), PRESET_MAX_DURATION_NS));
}

static int match_track_step(const struct expand *x, const struct preset_build *builds, unsigned n,
			    const struct preset_build *first, int *out)
{
	char *copy = strdup(first->track_step), *save = NULL;
	int found = -1, matches = 0;
	char msg[256];

	if (!copy)
		return -ENOMEM;
	for (unsigned s = 0; s < n; s++) {
		bool all = true;
		save = NULL;
		strcpy(copy, first->track_step);
		for (char *tok = strtok_r(copy, " ", &save); tok && all;
		     tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');
			struct preset_build b = builds[s];
			*eq = '\0';
			if (key_find(tok)->set(&b, eq + 1, msg, sizeof(msg))) {
				/* tok points into copy: report before freeing it */
				int ret = perr(x->p, first->track_line, "track_step: %s: %s", tok,
					       msg);
				free(copy);
				return ret;
			}
			all = !memcmp(&b.wl, &builds[s].wl, sizeof(b.wl)) &&
			      b.rate_pct == builds[s].rate_pct;
		}
		if (all) {
			matches++;
			if (found < 0)
				found = (int)s;
		}
	}
	free(copy);
	if (matches != 1)
		return perr(x->p, first->track_line,
			    "track_step '%s' matches %d of the phase's %u steps, not one",
			    first->track_step, matches, n);
	*out = found;
	return 0;
}

static int expand_phase(struct expand *x, const struct preset_sec *wsec,
			const struct preset_sec *ps)
{
	const struct preset_entry *eff[64];
	unsigned neff = 0, idx[64] = {0};
	unsigned long nsteps = 1;
	struct preset_build base, *builds = NULL;
	struct plan_phase *ph;
	char msg[512];
	int ret = 0;

	for (unsigned i = 0; wsec && i < wsec->n; i++)
		if (!sec_overrides(ps, wsec->e[i].key))
			eff[neff++] = &wsec->e[i];
	for (unsigned i = 0; i < ps->n; i++)
		eff[neff++] = &ps->e[i];
	for (unsigned i = 0; i < neff; i++) {
		nsteps *= eff[i]->nvals;
		if (x->steps + nsteps > PRESET_MAX_STEPS)
			return perr(x->p, ps->line,
				    "[%s] brings the preset to more than %u steps (the limit)",
				    preset_section_name[ps->kind], PRESET_MAX_STEPS);
	}
	if (ps->kind == SEC_PURGE)
		nsteps = 1; /* the range is all a purge takes from its keys */

	struct plan_phase *phases =
		realloc(x->plan->phases, (x->plan->nphases + 1) * sizeof(*phases));
	if (!phases)
		return -ENOMEM;
	x->plan->phases = phases;
	ph = &phases[x->plan->nphases++];
	memset(ph, 0, sizeof(*ph));
	ph->line = ps->line;
	ph->track_step = -1;
	static const enum phase_kind kinds[PRESET_NSECTIONS] = {
		[SEC_PURGE] = PH_PURGE,
		[SEC_PRECONDITION] = PH_PRECONDITION,
		[SEC_MEASURE] = PH_MEASURE,
		[SEC_RUN] = PH_RUN,
	};
	ph->kind = kinds[ps->kind];
	ph->steps = calloc(nsteps, sizeof(*ph->steps));
	builds = calloc(nsteps, sizeof(*builds));
	if (!ph->steps || !builds) {
		free(builds);
		return -ENOMEM;
	}
	build_defaults(&base);
	for (unsigned long s = 0; s < nsteps; s++) {
		struct preset_build *b = &builds[s];
		struct plan_step *st = &ph->steps[s];

		*b = base;
		for (unsigned i = 0; i < neff; i++) {
			b->line = eff[i]->line;
			/* purge takes only the range keys; values were checked when parsed */
			if (ps->kind == SEC_PURGE && !(eff[i]->key->sections & S(SEC_PURGE)))
				continue;
			if (eff[i]->key->set(b, eff[i]->vals[ps->kind == SEC_PURGE ? 0 : idx[i]],
					     msg, sizeof(msg))) {
				ret = perr(x->p, eff[i]->line, "%s: %s", eff[i]->key->name, msg);
				goto out;
			}
		}
		step_label(b, eff, neff, st->label, sizeof(st->label));
		step_label_rest(eff, idx, neff, st->label, sizeof(st->label));
		st->wl = b->wl;
		if (b->loops && !b->time_set)
			st->wl.time_ns = LOOPS_CAP_NS;
		if (b->until != UNTIL_TIME && b->round_ns)
			st->wl.time_ns = b->round_ns;
		st->wl.time_ns = scaled_time(st->wl.time_ns, x->scale);
		st->wl.ramp_ns = scaled(st->wl.ramp_ns, x->scale, 0);
		st->wl.interval_ns = scaled_interval(st->wl.interval_ns, b->interval_set, x->scale,
						     st->wl.time_ns);
		if ((ret = check_scaled(x, ps, (unsigned)s, "time", st->wl.time_ns)) ||
		    (ret = check_scaled(x, ps, (unsigned)s, "ramp", st->wl.ramp_ns)) ||
		    (ret = check_scaled(x, ps, (unsigned)s, "interval", st->wl.interval_ns)))
			goto out;
		/* a `loops` step's time is only a cap (LOOPS_CAP_NS): it ends when the range
		 * is written, and past the limit a result keeps the first samples */
		if (ps->kind != SEC_PURGE && st->wl.interval_ns && !(b->loops && !b->time_set) &&
		    st->wl.time_ns / st->wl.interval_ns >= RESULT_MAX_SAMPLES) {
			char a[32], iv[32];
			ret = perr(x->p, ps->line,
				   "[%s] step %u: %s at %s intervals is over the limit of %u "
				   "samples a step",
				   preset_section_name[ps->kind], (unsigned)s + 1,
				   units_fmt_duration(a, sizeof(a), st->wl.time_ns),
				   units_fmt_latency(iv, sizeof(iv), (double)st->wl.interval_ns),
				   RESULT_MAX_SAMPLES);
			goto out;
		}
		if (ps->kind != SEC_PURGE && st->wl.dist != WL_DIST_UNIFORM &&
		    st->wl.pattern == WL_SEQUENTIAL) {
			ret = perr(x->p, b->dist_line ? b->dist_line : ps->line,
				   "[%s] step %u: distribution %s needs pattern = random",
				   preset_section_name[ps->kind], (unsigned)s + 1,
				   wl_dist_name[st->wl.dist]);
			goto out;
		}
		st->rate_pct = b->rate_pct;
		st->loops_set = b->loops > 0;
		st->loops_bytes_x = b->loops * (x->scale < 1 ? x->scale : 1);
		st->bs_line = b->bs_line ? b->bs_line : ps->line;
		if (ps->kind != SEC_PURGE) {
			if (st->rate_pct > 0 && !x->have_uncapped) {
				ret = perr(
					x->p, b->rate_line,
					"rate %g%% needs an uncapped step (rate = max) before it",
					st->rate_pct);
				goto out;
			}
			if (st->rate_pct == 0 && st->wl.rate_iops == 0)
				x->have_uncapped = true;
		}
		/* odometer: the last key written turns fastest */
		for (int i = (int)neff - 1; i >= 0; i--) {
			if (++idx[i] < eff[i]->nvals)
				break;
			idx[i] = 0;
		}
	}
	ph->nsteps = (unsigned)nsteps;
	if (builds[0].name_set)
		copy_str(ph->name, sizeof(ph->name), builds[0].name);
	else
		copy_str(ph->name, sizeof(ph->name),
			 builds[0].wipc ? "wipc" : preset_section_name[ps->kind]);
	ph->purge = builds[0].method;
	ph->until = builds[0].until;
	ph->wipc = builds[0].wipc;
	ph->max_time_ns = scaled_time(builds[0].max_time_ns, x->scale);
	ph->min_time_ns = scaled_time(builds[0].min_time_ns, x->scale);
	ph->min_written_x = builds[0].min_written_x * (x->scale < 1 ? x->scale : 1);
	if ((ret = check_scaled(x, ps, 0, "max_time", ph->max_time_ns)))
		goto out;
	if ((builds[0].min_time_ns || builds[0].min_written_x > 0) && ph->until != UNTIL_STEADY) {
		ret = perr(x->p, ps->line, "min_time and min_written need until = steady");
		goto out;
	}
	ph->steady = builds[0].sp;
	snprintf(ph->track, sizeof(ph->track), "%s", builds[0].track);
	if (builds[0].track_step && ph->until == UNTIL_TIME) {
		ret = perr(x->p, builds[0].track_line, "track_step needs until = steady or fixed");
		goto out;
	}
	if (ph->until != UNTIL_TIME) {
		if (ph->steady.window > ph->steady.max_rounds) {
			ret = perr(x->p, ps->line,
				   "window of %u rounds is longer than max_rounds (%u)",
				   ph->steady.window, ph->steady.max_rounds);
			goto out;
		}
		if (nsteps == 1)
			ph->track_step = 0;
		else if (!builds[0].track_step)
			ret = perr(x->p, ps->line,
				   "until = steady over %lu steps needs track_step to say which "
				   "step is judged",
				   nsteps);
		else
			ret = match_track_step(x, builds, ph->nsteps, &builds[0], &ph->track_step);
	}
	if (!ret) {
		/* the steps a result will hold: every round of a steady phase */
		x->steps += (uint64_t)nsteps * plan_phase_rounds(ph);
		if (x->steps > PRESET_MAX_STEPS)
			ret = perr(
				x->p, ps->line,
				"[%s] brings the preset to %llu steps (rounds counted), over the "
				"limit of %u",
				preset_section_name[ps->kind], (unsigned long long)x->steps,
				PRESET_MAX_STEPS);
	}
out:
	free(builds);
	return ret;
}

static int expand(const struct parser *p, const struct preset_doc *d, struct plan *plan)
{
	struct expand x = {.p = p, .d = d, .plan = plan, .scale = plan->scale};
	const struct preset_sec *wsec = NULL, *psec = NULL;
	struct preset_build b;
	char msg[256];
	int ret;

	for (unsigned i = 0; i < d->n; i++) {
		if (d->s[i].kind == SEC_WORKLOAD)
			wsec = &d->s[i];
		if (d->s[i].kind == SEC_PRESET)
			psec = &d->s[i];
	}
	if (!psec)
		return perr(p, 1, "no [preset] section: a preset needs a name");
	build_defaults(&b);
	for (unsigned i = 0; i < psec->n; i++)
		(void)psec->e[i].key->set(&b, psec->e[i].vals[0], msg, sizeof(msg));
	if (!b.name_set)
		return perr(p, psec->line, "[preset] needs a name");
	snprintf(plan->name, sizeof(plan->name), "%s", b.name);
	plan->description = strdup(b.description ? b.description : "");
	plan->source = strdup(b.source ? b.source : "");
	if (!plan->description || !plan->source)
		return -ENOMEM;
	for (unsigned i = 0; i < d->n; i++) {
		if (d->s[i].kind == SEC_PRESET || d->s[i].kind == SEC_WORKLOAD)
			continue;
		if ((ret = expand_phase(&x, wsec, &d->s[i])))
			return ret;
	}
	if (!plan->nphases)
		return perr(p, psec->line,
			    "no phases: add [purge], [precondition], [measure] or [run]");
	return 0;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nphases; i++)
		free(p->phases[i].steps);
	free(p->phases);
	free(p->description);
	free(p->source);
	free(p->text);
	doc_free(p->doc);
	free(p);
}

struct plan *preset_parse(const char *text, const char *file, double scale, char *err,
			  size_t errlen)
{
	struct parser p = {.file = file ? file : "<text>", .err = err, .errlen = errlen};
	struct plan *plan;
	int ret;

	size_t len = strlen(text);
	char lim[32];

	/* replay's scale comes from a file: the range --scale takes, not anything */
	if (!(scale >= PRESET_SCALE_MIN && scale <= PRESET_SCALE_MAX)) {
		text_fmt(err, errlen, "%s: scale %g is outside %g to %g", p.file, scale,
			 PRESET_SCALE_MIN, PRESET_SCALE_MAX);
		return NULL;
	}
	if (len > PRESET_MAX_BYTES) {
		text_fmt(err, errlen, "%s: %zu bytes of preset text, over the limit of %s", p.file,
			 len, fileio_fmt_limit(lim, sizeof(lim), PRESET_MAX_BYTES));
		return NULL;
	}
	plan = calloc(1, sizeof(*plan));
	/* well-formed UTF-8 from here on: names and descriptions reach every output */
	if (!plan || !(plan->text = text_utf8_repair(text, len, NULL))) {
		text_fmt(err, errlen, "%s: out of memory", p.file);
		free(plan);
		return NULL;
	}
	text = plan->text;
	snprintf(plan->file, sizeof(plan->file), "%s", p.file);
	plan->scale = scale;
	ret = doc_parse(&p, text, &plan->doc);
	if (!ret)
		ret = expand(&p, plan->doc, plan);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", p.file);
		plan_free(plan);
		return NULL;
	}
	return plan;
}

struct plan *preset_parse_file(const char *path, double scale, char *err, size_t errlen)
{
	struct plan *plan;
	char *text;
	size_t len;

	if (fileio_read(path, "a preset", PRESET_MAX_BYTES, &text, &len, err, errlen))
		return NULL;
	if (memchr(text, '\0', len)) {
		text_fmt(err, errlen, "%s: binary data: not a preset", path);
		free(text);
		return NULL;
	}
	plan = preset_parse(text, path, scale, err, errlen);
	free(text);
	return plan;
}

/* ---- where presets live ---------------------------------------------------------- */

/* Running from the build tree: use the presets next to the sources, not installed ones. */
static bool in_build_tree(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	return !strncmp(exe, DB_SRCDIR "/", strlen(DB_SRCDIR "/"));
}

unsigned preset_dirs(char dirs[][4096], unsigned max)
{
	const char *env = getenv("DRIVEBENCH_PRESET_DIR");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	unsigned n = 0;

	if (n < max) {
		if (env && *env)
			snprintf(dirs[n++], 4096, "%s", env);
		else
			snprintf(dirs[n++], 4096, "%s/presets",
				 in_build_tree() ? DB_SRCDIR : DB_DATADIR);
	}
	if (n < max && xdg && *xdg)
		snprintf(dirs[n++], 4096, "%s/drivebench/presets", xdg);
	else if (n < max && home && *home)
		snprintf(dirs[n++], 4096, "%s/.config/drivebench/presets", home);
	return n;
}

bool preset_dir_is_builtin(unsigned index)
{
	return index == 0;
}

int preset_find(const char *name, char *path, size_t len)
{
	char dirs[2][4096];
	unsigned n;
	size_t nl = strlen(name);

	if (strchr(name, '/') || (nl > 7 && !strcmp(name + nl - 7, ".preset"))) {
		snprintf(path, len, "%s", name);
		return access(path, R_OK) ? -ENOENT : 0;
	}
	/* built-ins first: a name always means the published methodology */
	n = preset_dirs(dirs, 2);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, len, "%s/%s.preset", dirs[i], name);
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

struct plan *preset_load(const char *name, double scale, char *err, size_t errlen)
{
	char path[4096];

	if (preset_find(name, path, sizeof(path))) {
		snprintf(err, errlen,
			 "%s: no such preset (drivebench presets lists them; a file needs a "
			 "'/' or .preset)",
			 name);
		return NULL;
	}
	return preset_parse_file(path, scale, err, errlen);
}

/* ---- back to text ---------------------------------------------------------------- */

/* "key         = value", long values wrapped onto indented continuation lines. */
static void render_entry(struct strbuf *b, const struct preset_entry *e)
{
	const char *v = e->raw;
	size_t col = 0;

	strbuf_add(b, "%-11s =", e->key->name);
	col = 13;
	while (*v) {
		const char *sp = strchr(v, ' ');
		size_t wl = sp ? (size_t)(sp - v) : strlen(v);
		if (col > 14 && col + 1 + wl > RENDER_WIDTH) {
			strbuf_add(b, "\n%14s", "");
			col = 14;
		} else {
			strbuf_add(b, " ");
			col++;
		}
		strbuf_add(b, "%.*s", (int)wl, v);
		col += wl;
		v += wl;
		while (*v == ' ')
			v++;
	}
	strbuf_add(b, "\n");
}

char *plan_to_text(const struct plan *p)
{
	struct strbuf b = {0};

	for (unsigned i = 0; i < p->doc->n; i++) {
		const struct preset_sec *s = &p->doc->s[i];
		strbuf_add(&b, "%s[%s]\n", i ? "\n" : "", preset_section_name[s->kind]);
		for (unsigned j = 0; j < s->n; j++)
			render_entry(&b, &s->e[j]);
	}
	return strbuf_take(&b);
}

/* A section header into d, as if read on line lineno. */
static int doc_section(const struct parser *p, struct preset_doc *d, enum preset_section kind,
		       unsigned lineno)
{
	char line[32];

	snprintf(line, sizeof(line), "[%s]", preset_section_name[kind]);
	return section_begin(p, d, line, lineno);
}

/*
 * The document of an ad-hoc run: [preset] with its name, then [run] with every setting
 * given, and the table's default of every option key not given (unless another key of
 * its group was), so the canonical text records exactly what ran.
 */
static int settings_doc(const struct parser *p, const struct preset_setting *set, unsigned n,
			const char *name, struct preset_doc *d)
{
	unsigned given_groups = 0;
	int ret;

	if ((ret = doc_section(p, d, SEC_PRESET, 0)) || (ret = entry_put(p, d, "name", name, 0)) ||
	    (ret = doc_section(p, d, SEC_RUN, 0)))
		return ret;
	for (unsigned i = 0; i < n; i++) {
		const struct preset_key *k = key_find(set[i].key);
		if (k && !k->option)
			return perr(p, i + 1, "'%s' is not an option of a run", set[i].key);
		if ((ret = entry_put(p, d, set[i].key, set[i].value, i + 1)))
			return ret;
		given_groups |= 1u << k->group;
	}
	for (unsigned i = 0; i < preset_nkeys; i++) {
		const struct preset_key *k = &preset_keys[i];
		bool given = false;
		for (unsigned j = 0; j < n && !given; j++)
			given = !strcmp(set[j].key, k->name);
		if (!k->option || !k->def || given ||
		    (k->group != G_NONE && (given_groups & (1u << k->group))))
			continue;
		if ((ret = entry_put(p, d, k->name, k->def, 0)))
			return ret;
	}
	return doc_finish(p, d);
}

struct plan *plan_from_settings(const struct preset_setting *set, unsigned n, const char *name,
				char *err, size_t errlen)
{
	const char **origin = calloc(n + 1, sizeof(*origin));
	struct parser p = {.file = "<run options>", .err = err, .errlen = errlen};
	struct plan *plan = calloc(1, sizeof(*plan));
	char desc[256];
	int ret = -ENOMEM;

	if (!origin || !plan || !(plan->doc = calloc(1, sizeof(*plan->doc))))
		goto fail;
	/* line 0 is what drivebench adds itself; line i + 1 is setting i */
	origin[0] = "run options";
	for (unsigned i = 0; i < n; i++)
		origin[i + 1] = set[i].origin;
	p.origin = origin;
	p.norigin = n + 1;
	snprintf(plan->file, sizeof(plan->file), "%s", p.file);
	plan->scale = 1.0;
	ret = settings_doc(&p, set, n, name && *name ? name : "ad-hoc", plan->doc);
	if (!ret)
		ret = expand(&p, plan->doc, plan);
	if (ret)
		goto fail;
	/* one step: say what it does; a list of steps: how many */
	if (plan->nphases == 1 && plan->phases[0].nsteps == 1)
		workload_describe(&plan->phases[0].steps[0].wl, desc, sizeof(desc));
	else
		snprintf(desc, sizeof(desc), "%u steps", plan_steps(plan));
	free(plan->description);
	plan->description = strdup(desc);
	ret = -ENOMEM;
	if (!plan->description)
		goto fail;
	/* the description goes with the name ([preset] is the first section), in the text */
	struct preset_doc head = {.s = &plan->doc->s[0], .n = 1};
	ret = entry_put(&p, &head, "description", desc, 0);
	if (!ret)
		ret = entry_finish(&p, &head.s[0].e[head.s[0].n - 1]);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	plan->text = plan_to_text(plan);
	if (!plan->text)
		goto fail;
	free(origin);
	return plan;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(origin);
	plan_free(plan);
	return NULL;
}

/* ---- questions about a plan ------------------------------------------------------ */

bool plan_writes(const struct plan *p)
{
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		if (ph->kind == PH_PURGE) {
			if (ph->purge != PURGE_NONE)
				return true;
			continue;
		}
		for (unsigned s = 0; s < ph->nsteps; s++)
			if (ph->steps[s].wl.read_pct < 100)
				return true;
	}
	return false;
}

unsigned plan_steps(const struct plan *p)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		n += ph->nsteps * plan_phase_rounds(ph);
	}
	return n;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/*
 * How many rounds a phase in rounds runs at most: max_rounds, or the rounds that start
 * before max_time is used up (a round starts while less than max_time has run).
 */
static unsigned rounds_run(const struct plan_phase *ph, uint64_t once)
{
	unsigned n = ph->steady.max_rounds;

	if (ph->max_time_ns && once) {
		uint64_t by_time = ph->max_time_ns / once + (ph->max_time_ns % once != 0);
		if (by_time < n)
			n = (unsigned)by_time;
	}
	return n;
}

static uint64_t round_ns(const struct plan_phase *ph)
{
	uint64_t once = 0;

	for (unsigned s = 0; s < ph->nsteps; s++)
		once = sat_add(once, sat_add(ph->steps[s].wl.ramp_ns, ph->steps[s].wl.time_ns));
	return once;
}

unsigned plan_phase_rounds(const struct plan_phase *ph)
{
	return ph->until == UNTIL_TIME ? 1 : rounds_run(ph, round_ns(ph));
}

uint64_t plan_phase_duration_ns(const struct plan_phase *ph)
{
	uint64_t once;

	if (ph->kind == PH_PURGE)
		return 0;
	once = round_ns(ph);
	return ph->until == UNTIL_TIME ? once : sat_mul(once, rounds_run(ph, once));
}

uint64_t plan_duration_ns(const struct plan *p)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < p->nphases; i++)
		total = sat_add(total, plan_phase_duration_ns(&p->phases[i]));
	return total;
}

uint64_t plan_phase_expected_ns(const struct plan_phase *ph, uint64_t size, double fill_bps,
				double *fill_x)
{
	uint64_t once, t = 0;
	unsigned n;

	if (ph->kind == PH_PURGE)
		return 0;
	once = round_ns(ph);
	if (ph->until == UNTIL_FIXED)
		return sat_mul(once, rounds_run(ph, once));
	if (ph->until == UNTIL_STEADY) {
		/* the window must fill, and min_time pass (min_written: unknown speed) */
		n = ph->steady.window;
		if (once && ph->min_time_ns / once + (ph->min_time_ns % once != 0) > n)
			n = (unsigned)(ph->min_time_ns / once + (ph->min_time_ns % once != 0));
		if (n > rounds_run(ph, once))
			n = rounds_run(ph, once);
		return sat_mul(once, n);
	}
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct plan_step *st = &ph->steps[s];
		uint64_t step = sat_add(st->wl.ramp_ns, st->wl.time_ns);
		if (st->loops_set) {
			/* a fill ends when its bytes are written: its time is a cap */
			if (size && fill_bps > 0) {
				uint64_t start, len;
				workload_range(&st->wl, size, &start, &len);
				double ns = (double)len * st->loops_bytes_x / fill_bps * 1e9;
				if (ns < (double)st->wl.time_ns)
					step = sat_add(st->wl.ramp_ns, (uint64_t)ns);
			} else {
				step = 0;
				if (fill_x)
					*fill_x += st->loops_bytes_x;
			}
		}
		t = sat_add(t, step);
	}
	return t;
}

void plan_estimate(const struct plan *p, uint64_t size, double fill_bps, struct plan_eta *e)
{
	memset(e, 0, sizeof(*e));
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		e->expected_ns = sat_add(e->expected_ns,
					 plan_phase_expected_ns(ph, size, fill_bps, &e->fill_x));
		e->max_ns = sat_add(e->max_ns, plan_phase_duration_ns(ph));
		if (ph->until == UNTIL_STEADY)
			e->early = true;
	}
}

char *plan_fmt_eta(char *buf, size_t len, uint64_t expected_ns, uint64_t max_ns, bool early,
		   bool fill)
{
	char e[32], m[32];

	units_fmt_duration(e, sizeof(e), expected_ns);
	units_fmt_duration(m, sizeof(m), max_ns);
	/* a bound that reads the same as the expected time says nothing more */
	if (!fill && (!early || !strcmp(e, m)))
		snprintf(buf, len, "about %s", e);
	else
		snprintf(buf, len, "%s %s%s, at most %s", early ? "at least" : "about", e,
			 fill ? " + fill" : "", m);
	return buf;
}

int plan_check_target(const struct plan *p, uint32_t lbs, uint64_t size, char *err, size_t errlen)
{
	char msg[512], a[32], b[32];

	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		if (ph->kind == PH_PURGE)
			continue;
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct plan_step *st = &ph->steps[s];
			const struct workload *wl = &st->wl;
			for (unsigned k = 0; lbs && k < (wl->nsplit ? wl->nsplit : 1); k++) {
				uint32_t bs = wl->nsplit ? wl->split[k].bs : wl->bs;
				if (bs % lbs == 0)
					continue;
				snprintf(err, errlen,
					 "%s:%u: block size %s is below or not a multiple of the "
					 "target's logical block size (%s)",
					 p->file, st->bs_line, units_fmt_size(a, sizeof(a), bs),
					 units_fmt_size(b, sizeof(b), lbs));
				return -EINVAL;
			}
			if (workload_validate(wl, lbs, size, msg, sizeof(msg))) {
				snprintf(err, errlen, "%s:%u: [%s] step %u (%s): %s", p->file,
					 ph->line, ph->name, s + 1, st->label, msg);
				return -EINVAL;
			}
		}
	}
	return 0;
}
