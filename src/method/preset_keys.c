// SPDX-License-Identifier: GPL-2.0-or-later
/* The preset format's keys, declared once (preset_keys[]), and their setters: what each value does to the step being built. */
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

#include "errbuf.h"
#include "fileio.h"
#include "lines.h"
#include "strbuf.h"
#include "text.h"
#include "preset_int.h"
#include "units.h"

/* ---- what setters fill ----------------------------------------------------------- */

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
	struct strbuf names = {0};
	char *s;
	int ret;

	if (purge_method_parse(v, &b->method) == 0)
		return 0;
	for (int i = 0; i < PURGE_NMETHODS; i++)
		strbuf_add(&names, "%s%s", i ? ", " : "", purge_method_name[i]);
	s = strbuf_take(&names);
	ret = set_err(err, errlen, "'%s' is not one of %s", v, s ? s : "the purge methods");
	free(s);
	return ret;
}

int set_pattern(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	for (int i = WL_RANDOM; i <= WL_SEQUENTIAL; i++) {
		if (!strcmp(v, wl_pattern_name[i])) {
			b->wl.pattern = (enum wl_pattern)i;
			return 0;
		}
	}
	return set_err(err, errlen, "'%s' is not random or sequential", v);
}

int set_bs(struct preset_build *b, const char *v, char *err, size_t errlen)
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

int set_distribution(struct preset_build *b, const char *v, char *err, size_t errlen)
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

int set_read(struct preset_build *b, const char *v, char *err, size_t errlen)
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

int set_threads(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (get_uint(v, 1, 1024, &n, err, errlen))
		return -EINVAL;
	b->wl.threads = (unsigned)n;
	return 0;
}

int set_qdepth(struct preset_build *b, const char *v, char *err, size_t errlen)
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
	b->time_written = b->line != 0; /* line 0: a run option's default (settings_doc) */
	return 0;
}

static int set_ramp(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return get_duration(v, &b->wl.ramp_ns, err, errlen);
}

int set_rate(struct preset_build *b, const char *v, char *err, size_t errlen)
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

static int set_share(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	double pct;

	if (parse_pct(v, 0, 100, &pct) || pct <= 0)
		return set_err(err, errlen, "'%s' is not a percentage in (0, 100]", v);
	b->share_pct = pct;
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
	b->time_written = b->line != 0;
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

const struct preset_key *key_find(const char *name);

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

/* The format, declared once. Order: as listings and the man page present them. */
const struct preset_key preset_keys[] = {
	{.name = "name",
	 .sections = S(SEC_PRESET) | SEC_PHASES | S(SEC_PURGE) | SEC_ST | S(SEC_APP),
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
	 .value = "none|discard|zeroout|nvme-format|nvme-sanitize|ata-secure-erase|secure-erase|auto",
	 .set = set_method,
	 .help = "how the range is purged (files: discard punches a hole, zeroout writes zeroes); "
		 "the secure erases erase the whole drive, auto the strongest or a discard"},
	{.name = "pattern",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .def = "random",
	 .value = "random|sequential",
	 .set = set_pattern,
	 .help = "access pattern"},
	{.name = "bs",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .def = "4k",
	 .value = "SIZE",
	 .group = G_BLOCKSIZE,
	 .set = set_bs,
	 .help = "block size"},
	{.name = "bssplit",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .value = "SPLIT",
	 .group = G_BLOCKSIZE,
	 .set = set_bssplit,
	 .help = "block-size mix in fio's syntax, 4k/60:8k/40; replaces bs"},
	{.name = "distribution",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .def = "uniform",
	 .value = "uniform|zipf:T|pareto:H|normal:S|zoned:A/R:...",
	 .set = set_distribution,
	 .help = "where random offsets land, in fio's random_distribution syntax"},
	{.name = "read",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .def = "100",
	 .value = "PCT",
	 .set = set_read,
	 .help = "share of I/Os that read; the rest write"},
	{.name = "offset",
	 .option = true,
	 .sections = SEC_RANGE | SEC_ST,
	 .list = true,
	 .def = "0",
	 .value = "SIZE",
	 .set = set_offset,
	 .help = "where the tested range starts"},
	{.name = "size",
	 .option = true,
	 .sections = SEC_RANGE | SEC_ST,
	 .list = true,
	 .def = "0",
	 .value = "SIZE",
	 .group = G_RANGE,
	 .set = set_size,
	 .help = "length of the tested range, 0 to the end of the target"},
	{.name = "range",
	 .option = true,
	 .sections = SEC_RANGE | SEC_ST,
	 .list = true,
	 .value = "PCT",
	 .group = G_RANGE,
	 .set = set_range,
	 .help = "length of the tested range as a share of the target; replaces size"},
	{.name = "threads",
	 .option = true,
	 .sections = SEC_WL | SEC_ST | S(SEC_APP),
	 .list = true,
	 .def = "1",
	 .value = "N",
	 .set = set_threads,
	 .help = "worker threads, 1..1024"},
	{.name = "qdepth",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .def = "32",
	 .value = "N",
	 .set = set_qdepth,
	 .help = "queue depth per thread, 1..4096"},
	{.name = "time",
	 .option = true,
	 .sections = SEC_WL | S(SEC_APP),
	 .list = true,
	 .def = "10s",
	 .value = "DURATION",
	 .set = set_time,
	 .help = "measured time of each step"},
	{.name = "ramp",
	 .option = true,
	 .sections = SEC_WL | S(SEC_APP),
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
	{.name = "share",
	 .sections = SEC_ST,
	 .value = "PCT",
	 .set = set_share,
	 .help = "a stream's share of its step's rate (rate = IOPS or %); streams without one "
		 "split the rest equally"},
	{.name = "loops",
	 .option = true,
	 .sections = SEC_WL,
	 .def = "0",
	 .value = "N",
	 .set = set_loops,
	 .help = "end each step after transferring the range N times (time still caps it)"},
	{.name = "data",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
	 .list = true,
	 .def = "random",
	 .value = "random|zero|compress",
	 .set = set_data,
	 .help = "what writes carry"},
	{.name = "compress",
	 .option = true,
	 .sections = SEC_WL | SEC_ST,
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
	{.name = "trace",
	 .option = true,
	 .sections = SEC_WL,
	 .value = "FILE",
	 .set = set_trace,
	 .help = "replay this block trace (drivebench capture, trace import) instead of "
		 "pattern, bs and read; the step ends with the trace"},
	{.name = "trace_speed",
	 .option = true,
	 .sections = SEC_WL,
	 .list = true,
	 .def = "1",
	 .value = "X|fast",
	 .set = set_trace_speed,
	 .help = "a replay keeps the trace's times divided by X and its concurrency; fast: "
		 "as fast as possible at qdepth"},
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
	{.name = "tool",
	 .sections = S(SEC_APP),
	 .def = "sysbench-oltp",
	 .value = "sysbench-oltp|pgbench",
	 .set = set_app_tool,
	 .help = "[app]: sysbench oltp_read_write on MariaDB, or pgbench on PostgreSQL"},
	{.name = "fs",
	 .sections = S(SEC_APP),
	 .def = "ext4",
	 .value = "ext4|xfs",
	 .set = set_app_fs,
	 .help = "[app]: the file system made on the target"},
	{.name = "tables",
	 .sections = S(SEC_APP),
	 .def = "8",
	 .value = "N",
	 .set = set_app_tables,
	 .help = "[app] sysbench: tables, 1..1024"},
	{.name = "table_size",
	 .sections = S(SEC_APP),
	 .def = "100000",
	 .value = "ROWS",
	 .set = set_app_table_size,
	 .help = "[app] sysbench: rows a table, 1..10^10"},
	{.name = "scale_factor",
	 .sections = S(SEC_APP),
	 .def = "50",
	 .value = "N",
	 .set = set_app_scale_factor,
	 .help = "[app] pgbench: its -s, 100,000 accounts each, 1..100000"},
};

const unsigned preset_nkeys = sizeof(preset_keys) / sizeof(preset_keys[0]);

enum key_group key_group(const struct preset_key *k)
{
	return (enum key_group)k->group;
}

const struct preset_key *key_find(const char *name)
{
	for (unsigned i = 0; i < preset_nkeys; i++)
		if (!strcmp(preset_keys[i].name, name))
			return &preset_keys[i];
	return NULL;
}

void build_defaults(struct preset_build *b)
{
	char err[DB_ERR_LEN];

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
