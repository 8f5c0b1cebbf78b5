// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench run --host H1 --host H2: the plan on several hosts through fio's
 * client/server mode (fio_client.h), fio's lines streamed to stderr, one result.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "errbuf.h"
#include "fio_client.h"
#include "preset.h"
#include "probe.h"
#include "result.h"
#include "result_io.h"
#include "result_saver.h"
#include "run.h"
#include "runner.h"
#include "safety.h"
#include "text.h"

/* each signal adds one: the first stops fio, another stops the wait for a save */
static atomic_int hosts_stop;

static void on_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&hosts_stop, 1);
}

static void on_line(void *arg, const char *line)
{
	if (!*(const bool *)arg)
		fprintf(stderr, "%s\n", line);
}

/* The --yes-destroy=HOST:PATH given for host h and target, or NULL. */
static const char *confirmed(const char *host, const char *target, const char *const *yes,
			     unsigned nyes)
{
	size_t hl = strlen(host);

	for (unsigned i = 0; i < nyes; i++)
		if (!strncmp(yes[i], host, hl) && yes[i][hl] == ':' && !strcmp(yes[i] + hl + 1, target))
			return yes[i];
	return NULL;
}

/*
 * Every --yes-destroy names a host and the target of this run, and a plan that writes has
 * one for each host: nothing can be checked on another host. 0, or an exit status said.
 */
static int check_confirmations(const char *cmd, const struct plan *plan, const char *target,
			       const char *const *hosts, unsigned nhosts, const char *const *yes,
			       unsigned nyes)
{
	for (unsigned i = 0; i < nyes; i++) {
		bool used = false;
		for (unsigned h = 0; h < nhosts; h++)
			used |= confirmed(hosts[h], target, &yes[i], 1) != NULL;
		if (!used) {
			fprintf(stderr,
				"drivebench %s: --yes-destroy=%s: with --host, say HOST:%s for "
				"each "
				"host\n",
				cmd, yes[i], target);
			return EXIT_USAGE;
		}
	}
	for (unsigned h = 0; plan_writes(plan) && h < nhosts; h++) {
		if (confirmed(hosts[h], target, yes, nyes))
			continue;
		fprintf(stderr,
			"drivebench %s: refusing to write to %s on %s: drivebench cannot see a "
			"remote host's mounts or users; confirm with --yes-destroy=%s:%s (see "
			"drivebench(1), SAFETY)\n",
			cmd, target, hosts[h], hosts[h], target);
		return EXIT_REFUSED;
	}
	return 0;
}

/*
 * Take the result's file before anything runs, as a run here does: an output another run
 * is writing is refused now, not after hours of fio, and nothing takes the name meanwhile.
 * claim holds it: a --out that is there is locked as it is (a run that measures nothing
 * leaves it so), a new one holds the plan, status incomplete. 0, or an exit status said.
 */
static int claim_output(const char *cmd, const struct plan *plan, struct result *claim, char *path,
			size_t len, bool replace)
{
	char err[DB_ERR_LEN], dir[4096];
	const char *slash = strrchr(path, '/');

	text_fmt(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	if (probe_path_answers(dir, PROBE_ANSWER_MS) == -ETIMEDOUT) {
		fprintf(stderr,
			"drivebench %s: %s: the output's directory did not answer within %u s (is "
			"its file system's server gone, or its FUSE daemon hung?); not waiting for "
			"it\n",
			cmd, path, PROBE_ANSWER_MS / 1000);
		return EXIT_USAGE;
	}
	if (runner_begin_result(plan, claim) < 0) {
		fprintf(stderr, "drivebench %s: out of memory\n", cmd);
		return EXIT_RUN_FAILED;
	}
	if (result_create(claim, path, len, replace ? RESULT_HOLD : RESULT_NEW, err, sizeof(err)) <
	    0) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The end of the run: res saved into the file claim took, within the no-progress limit
 * or until another signal, else elsewhere (run.h), as a run here is. 0 when it is where
 * it belongs; -EIO with err saying why (and where it went, when it fits anywhere).
 */
static int keep(struct result *res, struct result *claim, const char *path, uint64_t limit_ns,
		char *err, size_t errlen)
{
	uint64_t t0 = mono_now_ns();
	const struct result_wait w = {.start = t0,
				      .end = t0 + limit_ns,
				      .stop = &hosts_stop,
				      .seen = atomic_load(&hosts_stop)};
	struct result_saver *v = result_saver_start();
	int ret;

	result_take_file(res, claim);
	ret = result_saver_save_by(v, res, path, &w, err, errlen);
	result_saver_stop(v);
	if (ret == -ETIMEDOUT)
		result_forget(res);
	if (ret < 0) {
		run_save_elsewhere(res, path, NULL, cli_settings(), err, errlen);
		return -EIO;
	}
	return 0;
}

/* How long a server may send nothing: the no-progress limit, FIO_LAB_SILENCE_MIN_MS at least. */
static unsigned silence_ms(uint64_t limit_ns)
{
	uint64_t ms = limit_ns / 1000000;

	return ms < FIO_LAB_SILENCE_MIN_MS ? FIO_LAB_SILENCE_MIN_MS
	       : ms > UINT_MAX		   ? UINT_MAX
					   : (unsigned)ms;
}

int cli_run_hosts(const char *cmd, const struct plan *plan, const struct run_options *ro,
		  const char *const *hosts, unsigned nhosts, const char *const *yes, unsigned nyes)
{
	struct fio_lab lab = {.plan = plan, .hosts = hosts, .nhosts = nhosts, .target = ro->target,
			      .on_line = on_line, .arg = (void *)&ro->quiet, .stop = &hosts_stop};
	/* the no-progress limit: how long a server may say nothing, and a save may take */
	uint64_t limit_ns = ro->engine.no_progress_ns ?: engine_no_progress_ns(NULL);
	char err[DB_ERR_LEN], dir[4096], path[4096];
	struct result res, claim;
	int ret;

	result_init(&claim);

	if ((ret = check_confirmations(cmd, plan, ro->target, hosts, nhosts, yes, nyes)))
		return ret;
	if (ro->out) {
		text_copy(path, sizeof(path), ro->out);
	} else if (result_dir(cli_settings(), dir, sizeof(dir)) ||
		   result_default_path(path, sizeof(path), dir, ro->target, plan->name)) {
		fprintf(stderr, "drivebench %s: %s: cannot make a result file there\n", cmd, dir);
		return EXIT_USAGE;
	}
	if (safety_check_output(path, NULL, 0, false, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	if ((ret = claim_output(cmd, plan, &claim, path, sizeof(path), ro->out != NULL))) {
		result_free(&claim);
		return ret;
	}
	for (unsigned i = 0; i < plan->nphases; i++)
		if (plan->phases[i].kind == PH_PURGE && plan->phases[i].purge != PURGE_NONE &&
		    !ro->quiet)
			fprintf(stderr, "drivebench %s: phase %s: fio has no purge; it is not run "
					"on the hosts\n",
				cmd, plan->phases[i].name);
	if (!ro->quiet)
		fprintf(stderr, "drivebench %s: %s on %s on %u host%s through fio; result %s\n", cmd,
			plan->name[0] ? plan->name : "run", ro->target, nhosts,
			nhosts == 1 ? "" : "s", path);

	cli_catch_stop_signals(on_signal);
	lab.silence_ms = silence_ms(limit_ns);
	ret = fio_lab_run(&lab, &res, err, sizeof(err));
	if (ret) {
		/* nothing measured, no result: the file is left as it was, or none */
		result_unclaim(&claim);
		result_free(&claim);
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return ret == -ENOENT ? EXIT_USAGE : EXIT_RUN_FAILED;
	}
	if (err[0])
		fprintf(stderr, "drivebench %s: warning: %s\n", cmd, err);
	text_copy(res.label, sizeof(res.label), ro->label ? ro->label : "");
	text_copy(res.note, sizeof(res.note), ro->note ? ro->note : "");
	if (keep(&res, &claim, path, limit_ns, err, sizeof(err)) < 0) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		result_free(&claim);
		result_free(&res);
		return EXIT_RUN_FAILED;
	}
	result_free(&claim);
	result_release(&res);
	/* as a run here: the result's path, and nothing else, on stdout */
	text_fput_visible(stdout, path);
	putchar('\n');
	if (res.status == RS_ABORTED)
		fprintf(stderr, "drivebench %s: aborted; saved what fio measured\n", cmd);
	if (res.status == RS_FAILED && res.error[0]) {
		fprintf(stderr, "drivebench %s: ", cmd);
		text_fput_visible(stderr, res.error);
		fputc('\n', stderr);
	}
	if (!ro->quiet || res.status != RS_COMPLETE)
		fprintf(stderr, "%s: %s\n", result_status_name[res.status], path);
	ret = res.status == RS_COMPLETE ? EXIT_OK : EXIT_RUN_FAILED;
	result_free(&res);
	return ret;
}
