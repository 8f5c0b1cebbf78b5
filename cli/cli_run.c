// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench run: one ad-hoc workload on a target, progress on stderr, a result file. */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "engine.h"
#include "errbuf.h"
#include "fio_client.h"
#include "preset.h"
#include "result.h"
#include "runner.h"
#include "run.h"
#include "settings.h"
#include "text.h"
#include "units.h"
#include "workload.h"

enum {
	O_PRESET = CLI_O_RUN_END, O_SCALE, O_RW, O_AUTOSAVE, O_HOST,
	O_KEY = 256, /* O_KEY + i: preset_keys[i], a workload option made from the key table */
};

/* The run's own options; the shared ones come first, the workload options last. */
static const struct opt run_own_opts[] = {
	{"preset", O_PRESET, "NAME|FILE", "run a review preset instead of one workload"},
	{"scale", O_SCALE, "F", "multiply every duration by F (0.01: a rehearsal)"},
	{"autosave", O_AUTOSAVE, "DUR", "save the result this often while running (default 30s)"},
	{"rw", O_RW, "MODE", "randread randwrite randrw read write rw: sets pattern and read"},
	{"host", O_HOST, "HOST", "run on HOST's fio --server (repeat for several); fio's --client syntax"},
};
#define N_OWN (sizeof(run_own_opts) / sizeof(run_own_opts[0]))

static const char run_usage[] =
	"--target PATH [--target PATH...] (--preset NAME|FILE | WORKLOAD OPTIONS) [--scale F]\n"
	"       [--out FILE] [--yes-destroy=PATH...] [--quiet]\n"
	"       [--host HOST --yes-destroy=HOST:PATH ...]\n"
	"The workload options are the preset keys of drivebench-preset(5); each takes what the\n"
	"key takes, a list (\"2 4 8 16\") makes steps";

/*
 * The option table: the shared and the run's own options, then one per .option key, every
 * one of them (their help texts live as long as the process).
 */
static struct opt *run_opts(void)
{
	struct opt *o = calloc(N_OWN + preset_nkeys + 1, sizeof(*o));
	static char (*help)[256];
	unsigned n = N_OWN;

	if (!help)
		help = calloc(preset_nkeys, sizeof(*help));
	if (!o || !help) {
		free(o);
		return NULL;
	}
	memcpy(o, run_own_opts, sizeof(run_own_opts));
	for (unsigned i = 0; i < preset_nkeys; i++) {
		const struct preset_key *k = &preset_keys[i];
		if (!k->option)
			continue;
		snprintf(help[i], sizeof(help[i]), "%s%s%s%s", k->help, k->def ? " (default " : "",
			 k->def ? k->def : "", k->def ? ")" : "");
		o[n++] = (struct opt){k->name, O_KEY + (int)i, k->value, help[i]};
	}
	struct opt *all = cli_run_opts_with(o, n);
	free(o);
	return all;
}

static struct engine_ctl run_ctl;

/* Each signal counts: the first stops the run, and any while its result's directory does
   not answer stops the wait for it (run.h). */
static void on_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&run_ctl.stop, 1);
}

void cli_catch_stop_signals(void (*fn)(int sig))
{
	struct sigaction sa = {.sa_handler = fn}, old;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	sigaction(SIGHUP, &sa, NULL);
}

#define PROGRESS_GAP_NS 250000000ull /* sample lines: at most four a second */

struct progress {
	bool quiet;
	uint64_t last_sample_ns; /* when the last sample line was printed */
};

static void tell_leftover(void *cmd, const char *msg)
{
	fprintf(stderr, "drivebench %s: %s\n", (const char *)cmd, msg);
}

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
	char el[32], eta[96];

	if (ev->kind == RUN_EV_ERROR) {
		fprintf(stderr, "drivebench run: %s\n", ev->msg);
		return;
	}
	/* --quiet: errors only; warnings stay in the result, for show and compare */
	if (p->quiet) {
		if (ev->kind == RUN_EV_LOG && !strncmp(ev->msg, "autosave failed", 15))
			fprintf(stderr, "drivebench run: %s\n", ev->msg);
		return;
	}
	switch (ev->kind) {
	case RUN_EV_PHASE_START:
		fprintf(stderr, "phase %s (%u of %u)\n", ev->res->phases[ev->phase_index].name,
			ev->phase_index + 1, ev->phases_total);
		break;
	case RUN_EV_STEP_START:
		fprintf(stderr, "step %u/%u  %s  elapsed %s  ETA %s\n", ev->step_global + 1,
			ev->steps_total, ev->step->label,
			units_fmt_duration(el, sizeof(el), ev->elapsed_ns),
			plan_fmt_eta(eta, sizeof(eta), ev->eta_ns, ev->eta_max_ns,
				     ev->eta_max_ns > ev->eta_ns && !ev->eta_fill, ev->eta_fill));
		break;
	case RUN_EV_SAMPLE: {
		/* short intervals would flood a terminal; every sample is in the result */
		uint64_t now = mono_now_ns();
		if (p->last_sample_ns && now - p->last_sample_ns < PROGRESS_GAP_NS)
			break;
		p->last_sample_ns = now;
		if (ev->step && ev->step->app.used)
			fprintf(stderr, "  %6.1fs  %.1f TPS  %s %.2f ms\n",
				(double)(ev->sample->start_ns + ev->sample->dur_ns) / 1e9,
				ev->sample->d[DIR_ALL].iops,
				ev->sample->d[DIR_ALL].pct_ns[PCT_99] ? "p99" : "avg",
				ev->sample->d[DIR_ALL].pct_ns[PCT_99]
					? (double)ev->sample->d[DIR_ALL].pct_ns[PCT_99] / 1e6
					: ev->sample->d[DIR_ALL].mean_ns / 1e6);
		else
			print_sample(ev);
		break;
	}
	case RUN_EV_STEP_DONE:
		if (ev->step->app.used && !ev->step->app.load)
			fprintf(stderr, "  %s  %.1f TPS  avg %.2f ms  p95 %.2f ms  p99 %.2f ms\n",
				ev->step->app.tool, ev->step->app.tps, ev->step->app.lat_avg_ms,
				ev->step->app.lat_p95_ms, ev->step->app.lat_p99_ms);
		print_summary(ev->step->app.used ? "  device" : "  step", &ev->step->summary);
		if (ev->step->replay.trace_ios)
			cli_print_replay(&ev->step->replay);
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

const struct opt cli_run_opts[] = {
	{"target", CLI_O_TARGET, "PATH",
	 "block device or file to run on (required); several run at once"},
	{"yes-destroy", CLI_O_YES, "PATH",
	 "confirm writing to device or disk image PATH (destroys its data)"},
	{"out", CLI_O_OUT, "FILE", "result file (default: $XDG_DATA_HOME/drivebench/results/...)", 'o'},
	{"quiet", CLI_O_QUIET, NULL, "nothing on stderr but errors (warnings stay in the result)"},
	{"engine", CLI_O_ENGINE, "NAME", "I/O engine: uring (default) or null (no I/O)"},
	{"busy-poll", CLI_O_BUSY_POLL, "MODE", "spin for completions: no (default: fio's wait), yes, auto"},
	{"label", CLI_O_LABEL, "TEXT", "name the run in comparisons (default: the drive)"},
	{"note", CLI_O_NOTE, "TEXT", "a remark kept with the result"},
	{NULL, 0, NULL, NULL},
};

struct opt *cli_run_opts_with(const struct opt *own, size_t nown)
{
	size_t nrun = sizeof(cli_run_opts) / sizeof(cli_run_opts[0]) - 1;
	struct opt *o = calloc(nrun + nown + 1, sizeof(*o));

	if (!o)
		return NULL;
	memcpy(o, cli_run_opts, nrun * sizeof(*o));
	memcpy(o + nrun, own, nown * sizeof(*o));
	return o;
}

void cli_run_options_init(struct run_options *ro)
{
	*ro = (struct run_options){.ops = &engine_uring};
	/* main() has refused a DRIVEBENCH_BUSY_POLL or DRIVEBENCH_URING_ASYNC that does not
	   parse */
	(void)engine_opts_from_settings(&ro->engine, cli_settings());
}

int cli_run_opt(const struct opt_parser *p, int key, struct run_options *ro)
{
	switch (key) {
	case CLI_O_TARGET:
		if (ro->ntargets == sizeof(ro->targets) / sizeof(ro->targets[0]))
			return opt_usage_error(p, "--target: at most %zu targets run at once",
					       sizeof(ro->targets) / sizeof(ro->targets[0]));
		if (!ro->target)
			ro->target = p->arg;
		ro->targets[ro->ntargets++] = p->arg;
		return 0;
	case CLI_O_YES:
		ro->yes_destroy = p->arg;
		if (ro->nyes < sizeof(ro->yes) / sizeof(ro->yes[0]))
			ro->yes[ro->nyes++] = p->arg;
		return 0;
	case CLI_O_OUT:
		ro->out = p->arg;
		return 0;
	case CLI_O_QUIET:
		ro->quiet = true;
		return 0;
	case CLI_O_ENGINE:
		ro->ops = engine_find(p->arg);
		if (!ro->ops)
			return opt_usage_error(p, "--engine: no engine '%s' (uring, null)", p->arg);
		return 0;
	case CLI_O_BUSY_POLL:
		return cli_busy_poll(p, &ro->engine) ? EXIT_USAGE : 0;
	case CLI_O_LABEL:
	case CLI_O_NOTE:
		if (strlen(p->arg) >= (key == CLI_O_LABEL ? RESULT_LABEL_BYTES : RESULT_NOTE_BYTES))
			return opt_usage_error(p, "--%s: longer than %u bytes", p->name,
					       (key == CLI_O_LABEL ? RESULT_LABEL_BYTES
								   : RESULT_NOTE_BYTES) - 1);
		*(key == CLI_O_LABEL ? &ro->label : &ro->note) = p->arg;
		return 0;
	}
	return opt_usage_error(p, "unexpected option");
}

int cli_run_plan(const char *cmd, struct plan *plan, const struct run_options *ro)
{
	struct progress prog = {.quiet = ro->quiet};
	struct run_request rq = {
		.plan = plan,
		.target_path = ro->target,
		.target_paths = ro->ntargets > 1 ? ro->targets : NULL,
		.ntargets = ro->ntargets > 1 ? ro->ntargets : 0,
		.confirm = ro->yes_destroy,
		.confirms = ro->yes,
		.nconfirms = ro->nyes,
		.out_path = ro->out,
		.ops = ro->ops,
		.label = ro->label,
		.note = ro->note,
		.seeds_from = ro->seeds_from,
		.engine_from = ro->engine_from,
		.engine_own = ro->engine_own,
		.settings = cli_settings(),
	};
	struct run *run;
	char err[DB_ERR_LEN];
	int ret, status;

	/* a drivebench killed during an [app] phase left its server and mount: cleaned first,
	   or they would hold the device this run may want */
	app_leftovers_clean(cli_settings()->app_dir, tell_leftover, (void *)cmd);
	/* caught before the result file is taken: a signal from then on stops the run, which
	   saves what it has (aborted), and never leaves the file half made */
	cli_catch_stop_signals(on_signal);
	ret = run_open(&run, &rq, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return run_refused(ret) ? EXIT_REFUSED : EXIT_USAGE;
	}
	/* the result's path, and nothing else, on stdout (r=$(drivebench run ...)); now, as
	 * the file exists from here on, so a script can watch it while the run goes on */
	text_fput_visible(stdout, run_result_path(run));
	putchar('\n');
	fflush(stdout);
	if (!prog.quiet) {
		char d[96];
		struct plan_eta e;
		plan_estimate(plan, 0, 0, &e);
		char on[600] = "";
		for (unsigned i = 0; i < (ro->ntargets ? ro->ntargets : 1); i++) {
			size_t n = strlen(on);
			snprintf(on + n, sizeof(on) - n, "%s%s", i ? " + " : "",
				 ro->ntargets ? ro->targets[i] : ro->target);
		}
		fprintf(stderr, "drivebench %s: %s on %s, %s; result %s\n", cmd,
			plan->name[0] ? plan->name : "run", on,
			plan_fmt_eta(d, sizeof(d), e.expected_ns, e.max_ns, e.early, e.fill_x > 0),
			run_result_path(run));
	}
	run_ctl.opts = ro->engine;
	ret = run_execute(run, &run_ctl, ro->autosave_ns, on_event, &prog, err, sizeof(err));
	status = ret == 0 ? EXIT_OK : EXIT_RUN_FAILED;
	/* why the exit status is 1: said under --quiet too, as an error is */
	if (run_result(run)->status == RS_ABORTED)
		fprintf(stderr, "drivebench %s: aborted; saving what was measured\n", cmd);
	if (ret == -EIO && err[0]) /* saved elsewhere; an I/O error of the run is said */
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
	else if (!prog.quiet)
		fprintf(stderr, "%s: %s\n", result_status_name[run_result(run)->status],
			run_result_path(run));
	run_close(run);
	return status;
}

/* The workload options given, as settings of the preset keys: the last of each wins. */
struct key_settings {
	const char **value;	     /* [preset_nkeys], by preset key index */
	char (*origin)[160];	     /* [preset_nkeys]: "--bs 1000" */
	const char *rw;		     /* --rw MODE */
	struct preset_setting *set;  /* [preset_nkeys] */
	unsigned n;
};

static void settings_free(struct key_settings *st)
{
	if (!st)
		return;
	free(st->value);
	free(st->origin);
	free(st->set);
	free(st);
}

/* Room for a setting of every preset key, however many there are; NULL without memory. */
static struct key_settings *settings_new(void)
{
	struct key_settings *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->value = calloc(preset_nkeys, sizeof(*st->value));
	st->origin = calloc(preset_nkeys, sizeof(*st->origin));
	st->set = calloc(preset_nkeys, sizeof(*st->set));
	if (st->value && st->origin && st->set)
		return st;
	settings_free(st);
	return NULL;
}

static void setting_put(struct key_settings *st, unsigned key, const char *value, const char *opt)
{
	st->value[key] = value;
	snprintf(st->origin[key], sizeof(st->origin[key]), "--%s %s", opt, value);
}

/* --rw MODE is the pattern and the read share that fio's rw= means. */
static int settings_rw(struct key_settings *st, char *rd, size_t rdlen)
{
	struct workload wl;
	char origin[160];

	if (!st->rw)
		return 0;
	workload_defaults(&wl);
	if (workload_set_rw(&wl, st->rw) < 0)
		return -EINVAL;
	snprintf(origin, sizeof(origin), "--rw %s", st->rw);
	snprintf(rd, rdlen, "%u", wl.read_pct);
	for (unsigned i = 0; i < preset_nkeys; i++) {
		if (!strcmp(preset_keys[i].name, "pattern") && !st->value[i]) {
			st->value[i] = wl_pattern_name[wl.pattern];
			memcpy(st->origin[i], origin, sizeof(origin));
		}
		if (!strcmp(preset_keys[i].name, "read") && !st->value[i]) {
			st->value[i] = rd;
			memcpy(st->origin[i], origin, sizeof(origin));
		}
	}
	return 0;
}

static struct plan *settings_plan(struct key_settings *st, char *err, size_t errlen)
{
	st->n = 0;
	for (unsigned i = 0; i < preset_nkeys; i++)
		if (st->value[i])
			st->set[st->n++] = (struct preset_setting){preset_keys[i].name,
								   st->value[i], st->origin[i]};
	return plan_from_settings(st->set, st->n, "run", err, errlen);
}

/* The options given together: 0, or the usage error's exit status. */
static int run_args_check(const struct opt_parser *p, const struct run_options *ro,
			  const char *preset, const char *workload_opt_name, double scale,
			  unsigned nhosts)
{
	if (p->npos)
		return opt_usage_error(p, "unexpected argument '%s'", p->pos[0]);
	if (!ro->target)
		return opt_usage_error(p, "--target is required");
	if (preset && workload_opt_name)
		return opt_usage_error(p, "--%s: workload options are for runs without --preset",
				       workload_opt_name);
	if (!preset && scale != 1.0)
		return opt_usage_error(p, "--scale applies to presets");
	if (nhosts && ro->ntargets > 1)
		return opt_usage_error(p, "--host runs one --target on each host");
	return 0;
}

/* What a reviewer used to fio types: fio's option names for the options run has (opt.h). */
static const struct opt_alias fio_names[] = {
	{"iodepth", "qdepth"},
	{"numjobs", "threads"},
	{"runtime", "time"},
	{"ramp_time", "ramp"},
	{"filename", "target"},
	{"ioengine", "engine"},
	{"blocksize", "bs"},
	{"readwrite", "rw"},
	{"rwmixread", "read"},
	{"random_distribution", "distribution"},
	{"buffer_compress_percentage", "compress"},
	{"randseed", "seed"},
	{"rate_iops", "rate"},
	{"log_avg_msec", "interval"},
	{"output", "out"},
	{NULL, NULL},
};

int cli_run(int argc, char **argv)
{
	struct opt_parser p;
	struct run_options ro;
	const char *preset = NULL, *workload_opt_name = NULL;
	struct opt *opts = run_opts();
	struct key_settings *st = settings_new();
	double scale = 1.0;
	struct plan *plan = NULL;
	char err[DB_ERR_LEN], rd[16];
	int key, ret = EXIT_USAGE;
	/* --host runs through fio on each host; every --yes-destroy is kept (ro.yes) for them */
	const char *hosts[FIO_LAB_MAX_HOSTS];
	unsigned nhosts = 0;

	if (!opts || !st) {
		fprintf(stderr, "drivebench run: out of memory\n");
		goto out;
	}
	cli_run_options_init(&ro);
	opt_parser_init(&p, "run", run_usage, opts, argc, argv);
	p.aliases = fio_names;
	p.aliases_of = "fio's";
	while ((key = opt_next(&p)) > 0) {
		switch (key) {
		case 'h':
			ret = EXIT_OK;
			goto out;
		case O_PRESET:
			preset = p.arg;
			break;
		case O_SCALE:
			if (units_parse_double(p.arg, 1e-6, 1e6, &scale)) {
				ret = opt_usage_error(&p, "--scale: '%s' is not a positive factor",
						      p.arg);
				goto out;
			}
			break;
		case O_AUTOSAVE:
			if (units_parse_duration(p.arg, &ro.autosave_ns) ||
			    ro.autosave_ns < 100000000ull) {
				ret = opt_usage_error(&p, "--autosave: '%s' is not a duration of "
							  "at least 100ms", p.arg);
				goto out;
			}
			break;
		case O_RW:
			workload_opt_name = p.name;
			st->rw = p.arg;
			break;
		case O_HOST:
			if (nhosts == FIO_LAB_MAX_HOSTS) {
				ret = opt_usage_error(&p, "--host: at most %u", FIO_LAB_MAX_HOSTS);
				goto out;
			}
			hosts[nhosts++] = p.arg;
			break;
		default:
			if (key >= O_KEY) {
				workload_opt_name = p.name;
				setting_put(st, (unsigned)(key - O_KEY), p.arg, p.name);
			} else if (cli_run_opt(&p, key, &ro)) {
				goto out;
			}
		}
	}
	if (key < 0 || (ret = run_args_check(&p, &ro, preset, workload_opt_name, scale, nhosts)))
		goto out;
	ret = EXIT_USAGE;
	if (settings_rw(st, rd, sizeof(rd)) < 0) {
		ret = opt_usage_error(&p, "--rw: unknown mode '%s' (randread randwrite randrw "
					  "read write rw)", st->rw);
		goto out;
	}
	plan = preset ? preset_load(cli_settings(), preset, scale, err, sizeof(err))
		      : settings_plan(st, err, sizeof(err));
	if (!plan) {
		fprintf(stderr, "drivebench run: %s\n", err);
		goto out;
	}
	if (nhosts && plan_trace(plan))
		ret = opt_usage_error(&p, "--host: a step replays the trace %s, which fio's "
					  "server cannot run", plan_trace(plan));
	else if (nhosts)
		ret = cli_run_hosts("run", plan, &ro, hosts, nhosts, ro.yes, ro.nyes);
	else
		ret = cli_run_plan("run", plan, &ro);
out:
	plan_free(plan);
	settings_free(st);
	free(opts);
	return ret;
}
