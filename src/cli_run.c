// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench run: one ad-hoc workload on a target, progress on stderr, a result file. */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "preset.h"
#include "result.h"
#include "runner.h"
#include "safety.h"
#include "units.h"
#include "workload.h"

enum {
	O_TARGET = 256, O_PRESET, O_SCALE, O_OUT, O_YES, O_QUIET, O_RW, O_READ, O_BS, O_BSSPLIT,
	O_THREADS, O_QDEPTH, O_TIME, O_RAMP, O_RANGE, O_RATE, O_ENGINE, O_INTERVAL, O_DATA,
	O_SEED, O_AUTOSAVE, O_BUSY_POLL,
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
	{"busy-poll", O_BUSY_POLL, "MODE", "spin for completions: auto (default), yes, no"},
	{"interval", O_INTERVAL, "DUR", "sampling interval (default 1s)"},
	{"data", O_DATA, "KIND", "write data: random (default), zero, or compress:PCT"},
	{"seed", O_SEED, "N", "random seed for offsets and data (default: new each run)"},
	{"autosave", O_AUTOSAVE, "DUR", "save the result this often while running (default 30s)"},
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
};

static void print_sample(const struct runner_event *ev)
{
	const struct sample *s = ev->sample;
	const struct dir_stats *a = &s->d[DIR_ALL];
	char iops[16], r[16], w[16], avg[16], max[16], std[16];

	fprintf(stderr, "%7.1fs  %s IOPS (R %s W %s)  %.1f MB/s  avg %s  max %s  std %s\n",
		(double)(s->start_ns + s->dur_ns) / 1e9,
		units_fmt_count(iops, sizeof(iops), a->iops),
		units_fmt_count(r, sizeof(r), s->d[DIR_READ].iops),
		units_fmt_count(w, sizeof(w), s->d[DIR_WRITE].iops), a->mbps,
		units_fmt_latency(avg, sizeof(avg), a->mean_ns),
		units_fmt_latency(max, sizeof(max), (double)a->max_ns),
		units_fmt_latency(std, sizeof(std), a->std_ns));
}

static void print_summary(const char *what, const struct sample *s)
{
	const struct dir_stats *a = &s->d[DIR_ALL];
	char iops[16], avg[16], max[16], std[16], p99[16], p999[16];

	fprintf(stderr, "%s  %s IOPS  %.1f MB/s  avg %s  max %s  std %s  p99 %s  p99.9 %s\n", what,
		units_fmt_count(iops, sizeof(iops), a->iops), a->mbps,
		units_fmt_latency(avg, sizeof(avg), a->mean_ns),
		units_fmt_latency(max, sizeof(max), (double)a->max_ns),
		units_fmt_latency(std, sizeof(std), a->std_ns),
		units_fmt_latency(p99, sizeof(p99), (double)a->pct_ns[PCT_99]),
		units_fmt_latency(p999, sizeof(p999), (double)a->pct_ns[PCT_999]));
}

/* The headless consumer of runner events: one line per interval, step and round. */
static void on_event(void *arg, const struct runner_event *ev)
{
	struct progress *p = arg;
	char el[32], eta[32];

	if (ev->kind == RUN_EV_ERROR) {
		fprintf(stderr, "drivebench run: %s\n", ev->msg);
		return;
	}
	if (p->quiet)
		return;
	switch (ev->kind) {
	case RUN_EV_PHASE_START:
		fprintf(stderr, "phase %s (%u of %u)\n", ev->res->phases[ev->phase_index].name,
			ev->phase_index + 1, ev->phases_total);
		break;
	case RUN_EV_STEP_START:
		fprintf(stderr, "step %u/%u  %s  elapsed %s  ETA %s\n", ev->step_global + 1,
			ev->steps_total, ev->step->label,
			units_fmt_duration(el, sizeof(el), ev->elapsed_ns),
			units_fmt_duration(eta, sizeof(eta), ev->eta_ns));
		break;
	case RUN_EV_SAMPLE:
		print_sample(ev);
		break;
	case RUN_EV_STEP_DONE:
		print_summary("  step", &ev->step->summary);
		break;
	case RUN_EV_ROUND_DONE:
		fprintf(stderr,
			"  round %u: window range %.1f%% of avg (limit %.0f%%) · slope %.1f%% "
			"(limit %.0f%%)%s\n",
			ev->steady->round, ev->steady->data_excursion_pct, ev->steady->data_limit_pct,
			ev->steady->slope_excursion_pct, ev->steady->slope_limit_pct,
			ev->steady->reached ? " -> steady" : "");
		break;
	case RUN_EV_LOG:
		fprintf(stderr, "%s\n", ev->msg);
		break;
	default:
		break;
	}
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

/* Where the result goes: --out, or a new file in the results directory. */
static int result_path(char *path, size_t len, const char *out, const char *target,
		       const char *name)
{
	char dir[4096];
	const char *base = strrchr(target, '/');
	int ret;

	if (out) {
		snprintf(path, len, "%s", out);
		return 0;
	}
	ret = result_dir(dir, sizeof(dir));
	if (ret == 0)
		ret = result_default_path(path, len, dir, base ? base + 1 : target, name);
	if (ret < 0)
		fprintf(stderr, "drivebench: %s: cannot make the results directory: %s\n", dir,
			strerror(-ret));
	return ret;
}

int cli_run_plan(const char *cmd, struct plan *plan, const char *target_path,
		 const struct run_options *ro)
{
	struct progress prog = {.quiet = ro->quiet};
	struct target t = {.fd = -1};
	struct result res;
	char err[1024], path[4096];
	int ret, status;
	bool writes = plan_writes(plan);

	if (writes && ro->ops != &engine_null) {
		ret = safety_check_write(target_path, ro->yes_destroy, NULL, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "drivebench %s: %s\n", cmd, err);
			return ret == -EPERM ? EXIT_REFUSED : EXIT_USAGE;
		}
	}
	ret = target_open(&t, target_path, writes, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return ret == -EBUSY ? EXIT_REFUSED : EXIT_USAGE;
	}
	ret = runner_check(plan, &t, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "drivebench %s: %s (target %s)\n", cmd, err, target_path);
		target_close(&t);
		return EXIT_USAGE;
	}
	if (result_path(path, sizeof(path), ro->out, target_path,
			plan->name[0] ? plan->name : "run") < 0) {
		target_close(&t);
		return EXIT_USAGE;
	}

	result_init(&res);
	res.target = target_to_json(&t);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!prog.quiet) {
		char d[32];
		fprintf(stderr, "drivebench %s: %s on %s, at most %s; result %s\n", cmd,
			plan->name[0] ? plan->name : "run", target_path,
			units_fmt_duration(d, sizeof(d), plan_duration_ns(plan)), path);
	}
	struct runner_opts opts = {
		.ops = ro->ops,
		.ctl = &run_ctl,
		.autosave_path = path,
		.autosave_period_ns = ro->autosave_ns ? ro->autosave_ns : 30000000000ull,
	};
	ret = runner_run(plan, &t, &opts, &res, on_event, &prog);
	target_close(&t);
	status = ret == 0 ? EXIT_OK : EXIT_RUN_FAILED;
	if (ret == -ECANCELED)
		fprintf(stderr, "drivebench %s: aborted; saving what was measured\n", cmd);

	if (result_save(&res, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		status = EXIT_RUN_FAILED;
	} else if (!prog.quiet) {
		fprintf(stderr, "%s: %s\n", result_status_name[res.status], path);
	}
	result_free(&res);
	return status;
}

int cli_run(int argc, char **argv)
{
	struct cli_parser p;
	struct workload wl;
	struct run_options ro = {.ops = &engine_uring};
	const char *target_path = NULL, *preset = NULL, *workload_opt_name = NULL;
	double scale = 1.0;
	bool rw_set = false;
	struct plan *plan;
	char err[1024];
	int key, ret;

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
			ro.out = p.arg;
			break;
		case O_YES:
			ro.yes_destroy = p.arg;
			break;
		case O_QUIET:
			ro.quiet = true;
			break;
		case O_SCALE:
			if (units_parse_double(p.arg, 1e-6, 1e6, &scale))
				return cli_usage_error(&p, "--scale: '%s' is not a positive factor",
						       p.arg);
			break;
		case O_AUTOSAVE:
			if (units_parse_duration(p.arg, &ro.autosave_ns) || ro.autosave_ns < 100000000ull)
				return cli_usage_error(&p, "--autosave: '%s' is not a duration of "
							   "at least 100ms", p.arg);
			break;
		case O_ENGINE:
			ro.ops = engine_find(p.arg);
			if (!ro.ops)
				return cli_usage_error(&p, "--engine: no engine '%s' (uring, null)",
						       p.arg);
			break;
		case O_BUSY_POLL:
			if (cli_busy_poll(&p))
				return EXIT_USAGE;
			break;
		default:
			workload_opt_name = p.name;
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
	if (preset && workload_opt_name)
		return cli_usage_error(&p, "--%s: workload options are for runs without --preset",
				       workload_opt_name);
	if (!preset && scale != 1.0)
		return cli_usage_error(&p, "--scale applies to presets");

	if (preset)
		plan = preset_load(preset, scale, err, sizeof(err));
	else
		plan = plan_from_workload(&wl, "run", err, sizeof(err));
	if (!plan) {
		fprintf(stderr, "drivebench run: %s\n", err);
		return EXIT_USAGE;
	}
	ret = cli_run_plan("run", plan, target_path, &ro);
	plan_free(plan);
	return ret;
}
