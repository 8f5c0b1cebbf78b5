// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench run: one ad-hoc workload on a target, progress on stderr, a result file. */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "drive.h"
#include "engine.h"
#include "result.h"
#include "safety.h"
#include "units.h"
#include "workload.h"

enum {
	O_TARGET = 256, O_PRESET, O_SCALE, O_OUT, O_YES, O_QUIET, O_RW, O_READ, O_BS, O_BSSPLIT,
	O_THREADS, O_QDEPTH, O_TIME, O_RAMP, O_RANGE, O_RATE, O_ENGINE, O_INTERVAL, O_DATA,
	O_SEED,
};

static const struct cli_opt run_opts[] = {
	{"target", O_TARGET, "PATH", "block device or file to test (required)"},
	{"preset", O_PRESET, "NAME|FILE", "run a review preset instead of one workload"},
	{"scale", O_SCALE, "F", "multiply every duration by F (0.01: a rehearsal)"},
	{"out", O_OUT, "FILE", "result file (default: $XDG_DATA_HOME/drivebench/results/...)"},
	{"yes-destroy", O_YES, "PATH", "confirm writing to block device PATH (destroys its data)"},
	{"quiet", O_QUIET, NULL, "no progress on stderr"},
	{"rw", O_RW, "MODE", "randread randwrite randrw read write rw (default randread)"},
	{"read", O_READ, "PCT", "read share of a mixed workload, 0..100"},
	{"bs", O_BS, "SIZE", "block size (default 4k)"},
	{"bssplit", O_BSSPLIT, "SPEC", "block size mix, fio syntax: 4k/60:8k/20:64k/20"},
	{"threads", O_THREADS, "N", "worker threads, each with its own queue (default 1)"},
	{"qdepth", O_QDEPTH, "N", "queue depth per thread (default 32)"},
	{"time", O_TIME, "DUR", "measured time (default 10s)"},
	{"ramp", O_RAMP, "DUR", "run this long first without recording (default 0)"},
	{"range", O_RANGE, "PCT", "use only the first PCT% of the target (default 100)"},
	{"rate", O_RATE, "IOPS", "limit the total rate (default: as fast as it goes)"},
	{"engine", O_ENGINE, "NAME", "I/O engine: uring (default) or null (no I/O)"},
	{"interval", O_INTERVAL, "DUR", "sampling interval (default 1s)"},
	{"data", O_DATA, "KIND", "write data: random (default), zero, or compress:PCT"},
	{"seed", O_SEED, "N", "random seed for offsets and data (default: new each run)"},
	{NULL, 0, NULL, NULL},
};

static const char run_usage[] =
	"--target PATH (--preset NAME|FILE | WORKLOAD OPTIONS) [--scale F] [--out FILE]\n"
	"       [--yes-destroy=PATH] [--quiet]";

static struct engine_ctl run_ctl;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&run_ctl.stop, 1);
}

struct progress {
	bool quiet;
	uint64_t interval_ns;
};

static void print_sample(void *arg, const struct sample *s)
{
	struct progress *p = arg;
	const struct dir_stats *a = &s->d[DIR_ALL];
	char iops[16], r[16], w[16], avg[16], max[16], std[16];

	if (p->quiet)
		return;
	fprintf(stderr, "%6.1fs  %s IOPS (R %s W %s)  %.1f MB/s  avg %s  max %s  std %s\n",
		(double)(s->start_ns + s->dur_ns) / 1e9,
		units_fmt_count(iops, sizeof(iops), a->iops),
		units_fmt_count(r, sizeof(r), s->d[DIR_READ].iops),
		units_fmt_count(w, sizeof(w), s->d[DIR_WRITE].iops), a->mbps,
		units_fmt_latency(avg, sizeof(avg), a->mean_ns),
		units_fmt_latency(max, sizeof(max), (double)a->max_ns),
		units_fmt_latency(std, sizeof(std), a->std_ns));
}

/* Parse one workload option into wl; returns 0 or a usage error's exit status. */
static int workload_opt(struct cli_parser *p, int key, struct workload *wl, bool *rw_set)
{
	uint64_t v;
	double d;
	char err[256];

	switch (key) {
	case O_RW:
		if (workload_set_rw(wl, p->arg) < 0)
			return cli_usage_error(p, "--rw: unknown mode '%s'", p->arg);
		*rw_set = true;
		return 0;
	case O_READ:
		if (units_parse_uint(p->arg, 0, 100, &v))
			return cli_usage_error(p, "--read: '%s' is not a percentage 0..100", p->arg);
		wl->read_pct = (unsigned)v;
		return 0;
	case O_BS:
		if (units_parse_size(p->arg, &v) || v == 0 || v > (64u << 20))
			return cli_usage_error(p, "--bs: '%s' is not a block size", p->arg);
		wl->bs = (uint32_t)v;
		wl->nsplit = 0;
		return 0;
	case O_BSSPLIT:
		if (workload_parse_bssplit(wl, p->arg, err, sizeof(err)) < 0)
			return cli_usage_error(p, "--bssplit: %s", err);
		return 0;
	case O_THREADS:
		if (units_parse_uint(p->arg, 1, 1024, &v))
			return cli_usage_error(p, "--threads: '%s' is not 1..1024", p->arg);
		wl->threads = (unsigned)v;
		return 0;
	case O_QDEPTH:
		if (units_parse_uint(p->arg, 1, 4096, &v))
			return cli_usage_error(p, "--qdepth: '%s' is not 1..4096", p->arg);
		wl->qdepth = (unsigned)v;
		return 0;
	case O_TIME:
	case O_RAMP:
	case O_INTERVAL:
		if (units_parse_duration(p->arg, &v))
			return cli_usage_error(p, "--%s: '%s' is not a duration (10s, 2m, 1h)",
					       p->name, p->arg);
		*(key == O_TIME ? &wl->time_ns : key == O_RAMP ? &wl->ramp_ns : &wl->interval_ns) = v;
		return 0;
	case O_RANGE:
		if (units_parse_double(p->arg, 0.000001, 100, &d))
			return cli_usage_error(p, "--range: '%s' is not a percentage 0..100", p->arg);
		wl->range_pct = d;
		return 0;
	case O_RATE:
		if (units_parse_uint(p->arg, 1, UINT64_MAX, &v))
			return cli_usage_error(p, "--rate: '%s' is not a number of IOPS", p->arg);
		wl->rate_iops = v;
		return 0;
	case O_DATA:
		if (!strcmp(p->arg, "random"))
			wl->data = WL_DATA_RANDOM;
		else if (!strcmp(p->arg, "zero"))
			wl->data = WL_DATA_ZERO;
		else if (!strncmp(p->arg, "compress:", 9) &&
			 !units_parse_uint(p->arg + 9, 0, 100, &v)) {
			wl->data = WL_DATA_COMPRESS;
			wl->compress_pct = (unsigned)v;
		} else
			return cli_usage_error(p, "--data: '%s' is not random, zero or compress:PCT",
					       p->arg);
		return 0;
	case O_SEED:
		if (units_parse_uint(p->arg, 1, UINT64_MAX, &v))
			return cli_usage_error(p, "--seed: '%s' is not a positive number", p->arg);
		wl->seed = v;
		return 0;
	}
	return cli_usage_error(p, "unexpected option");
}

static struct json_object *target_json(const struct target *t)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(t->path));
	json_object_object_add(o, "kind", json_object_new_string(t->is_blockdev ? "block" : "file"));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)t->size));
	json_object_object_add(o, "lbs", json_object_new_int((int)t->lbs));
	json_object_object_add(o, "pbs", json_object_new_int((int)t->pbs));
	if (t->is_blockdev) {
		/* the discovery record: a result always says what drive it measured */
		struct drive d;
		char err[256];
		if (drive_probe_path(t->path, &d, err, sizeof(err)) == 0)
			json_object_object_add(o, "drive", drive_to_json(&d));
	}
	return o;
}

static void iso_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int cli_run(int argc, char **argv)
{
	struct cli_parser p;
	struct workload wl;
	struct progress prog = {0};
	const char *target_path = NULL, *out = NULL, *yes = NULL, *preset = NULL;
	const struct engine_ops *ops = &engine_uring;
	bool rw_set = false;
	struct target t = {.fd = -1};
	struct step_result sr;
	struct result res;
	char err[512], path[4096];
	int key, ret, status = EXIT_OK;

	workload_defaults(&wl);
	cli_parser_init(&p, "run", run_usage, run_opts, argc, argv);
	while ((key = cli_next(&p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case O_TARGET:
			target_path = p.arg;
			break;
		case O_PRESET:
			preset = p.arg;
			break;
		case O_OUT:
			out = p.arg;
			break;
		case O_YES:
			yes = p.arg;
			break;
		case O_QUIET:
			prog.quiet = true;
			break;
		case O_SCALE:
			return cli_usage_error(&p, "--scale applies to presets");
		case O_ENGINE:
			ops = engine_find(p.arg);
			if (!ops)
				return cli_usage_error(&p, "--engine: no engine '%s' (uring, null)",
						       p.arg);
			break;
		default:
			ret = workload_opt(&p, key, &wl, &rw_set);
			if (ret)
				return ret;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p.npos)
		return cli_usage_error(&p, "unexpected argument '%s'", p.pos[0]);
	if (!target_path)
		return cli_usage_error(&p, "--target is required");
	if (preset)
		return cli_usage_error(&p, "--preset: presets are not available in this build");
	(void)rw_set;

	bool writes = wl.read_pct < 100;
	if (writes && ops != &engine_null) {
		ret = safety_check_write(target_path, yes, NULL, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "drivebench run: %s\n", err);
			return ret == -EPERM ? EXIT_REFUSED : EXIT_USAGE;
		}
	}
	ret = target_open(&t, target_path, writes, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "drivebench run: %s\n", err);
		return ret == -EBUSY ? EXIT_REFUSED : EXIT_USAGE;
	}
	ret = workload_validate(&wl, t.lbs, t.size, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "drivebench run: %s: %s\n", target_path, err);
		target_close(&t);
		return EXIT_USAGE;
	}

	result_init(&res);
	iso_now(res.started, sizeof(res.started));
	res.host = result_host_json();
	res.target = target_json(&t);
	struct result_phase *ph = result_add_phase(&res, "run", PH_RUN);
	char label[64];
	struct result_step *st = ph ? result_add_step(ph, workload_describe(&wl, label,
									      sizeof(label)), &wl)
				    : NULL;
	if (!st) {
		fprintf(stderr, "drivebench run: out of memory\n");
		target_close(&t);
		result_free(&res);
		return EXIT_RUN_FAILED;
	}

	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else {
		char dir[4096];
		const char *base = strrchr(target_path, '/');
		ret = result_dir(dir, sizeof(dir));
		if (ret == 0)
			ret = result_default_path(path, sizeof(path), dir, base ? base + 1 : target_path,
						  "run");
		if (ret < 0) {
			fprintf(stderr, "drivebench run: cannot make the results directory: %s\n",
				strerror(-ret));
			target_close(&t);
			result_free(&res);
			return EXIT_USAGE;
		}
	}

	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	prog.interval_ns = wl.interval_ns;
	if (!prog.quiet) {
		char d[128];
		fprintf(stderr, "drivebench run: %s on %s for %s\n",
			workload_describe(&wl, d, sizeof(d)), target_path,
			units_fmt_duration(label, sizeof(label), wl.time_ns));
	}
	ret = engine_run(ops, &t, &wl, &run_ctl, print_sample, &prog, &sr, err, sizeof(err));
	target_close(&t);

	st->wl.seed = sr.seed;
	snprintf(st->engine, sizeof(st->engine), "%s", sr.engine_desc);
	st->summary = sr.total;
	st->samples = sr.samples;
	st->nsamples = sr.nsamples;
	sr.samples = NULL;
	st->hist = sr.acc ? malloc(2 * sizeof(*st->hist)) : NULL;
	if (st->hist) {
		st->hist[0] = sr.acc[0].hist;
		st->hist[1] = sr.acc[1].hist;
	}
	step_result_free(&sr);
	if (ret < 0) {
		st->status = ph->status = res.status = RS_FAILED;
		snprintf(st->error, sizeof(st->error), "%s", err);
		snprintf(res.error, sizeof(res.error), "%s", err);
		st->error_offset = sr.error_offset;
		fprintf(stderr, "drivebench run: %s\n", err);
		status = EXIT_RUN_FAILED;
	} else if (sr.stopped) {
		st->status = ph->status = res.status = RS_ABORTED;
		fprintf(stderr, "drivebench run: aborted; saving what was measured\n");
		status = EXIT_RUN_FAILED;
	} else {
		st->status = ph->status = res.status = RS_COMPLETE;
	}
	iso_now(res.ended, sizeof(res.ended));

	ret = result_save(&res, path, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "drivebench run: %s\n", err);
		status = EXIT_RUN_FAILED;
	} else if (!prog.quiet) {
		const struct dir_stats *a = &st->summary.d[DIR_ALL];
		char iops[16], avg[16], max[16], std[16], p99[16];
		fprintf(stderr, "total  %s IOPS  %.1f MB/s  avg %s  max %s  std %s  p99 %s\n",
			units_fmt_count(iops, sizeof(iops), a->iops), a->mbps,
			units_fmt_latency(avg, sizeof(avg), a->mean_ns),
			units_fmt_latency(max, sizeof(max), (double)a->max_ns),
			units_fmt_latency(std, sizeof(std), a->std_ns),
			units_fmt_latency(p99, sizeof(p99), (double)a->pct_ns[PCT_99]));
		fprintf(stderr, "result %s\n", path);
	}
	result_free(&res);
	return status;
}
