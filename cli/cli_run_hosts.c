// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench run --host H1 --host H2: the plan on several hosts through fio's
 * client/server mode (fio_client.h), fio's lines streamed to stderr, one result.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "fio_client.h"
#include "preset.h"
#include "result.h"
#include "result_io.h"
#include "safety.h"
#include "text.h"

static atomic_int hosts_stop;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&hosts_stop, 1);
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

int cli_run_hosts(const char *cmd, const struct plan *plan, const struct run_options *ro,
		  const char *const *hosts, unsigned nhosts, const char *const *yes, unsigned nyes)
{
	struct fio_lab lab = {.plan = plan, .hosts = hosts, .nhosts = nhosts, .target = ro->target,
			      .on_line = on_line, .arg = (void *)&ro->quiet, .stop = &hosts_stop};
	char err[DB_ERR_LEN], dir[4096], path[4096];
	struct result res;
	int ret;

	/* a --yes-destroy that names no host and target of this run is a mistake */
	for (unsigned i = 0; i < nyes; i++) {
		bool used = false;
		for (unsigned h = 0; h < nhosts; h++)
			used |= confirmed(hosts[h], ro->target, &yes[i], 1) != NULL;
		if (!used) {
			fprintf(stderr,
				"drivebench %s: --yes-destroy=%s: with --host, say HOST:%s for each "
				"host\n",
				cmd, yes[i], ro->target);
			return EXIT_USAGE;
		}
	}
	/* nothing can be checked on another host: each one needs its own confirmation */
	if (plan_writes(plan)) {
		for (unsigned h = 0; h < nhosts; h++) {
			if (confirmed(hosts[h], ro->target, yes, nyes))
				continue;
			fprintf(stderr,
				"drivebench %s: refusing to write to %s on %s: drivebench cannot "
				"see a remote host's mounts or users; confirm with "
				"--yes-destroy=%s:%s (see drivebench(1), SAFETY)\n",
				cmd, ro->target, hosts[h], hosts[h], ro->target);
			return EXIT_REFUSED;
		}
	}
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
	ret = fio_lab_run(&lab, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return ret == -ENOENT ? EXIT_USAGE : EXIT_RUN_FAILED;
	}
	if (err[0])
		fprintf(stderr, "drivebench %s: warning: %s\n", cmd, err);
	if (result_create(&res, path, sizeof(path), ro->out ? RESULT_REPLACE : RESULT_NEW, err,
			  sizeof(err))) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		result_free(&res);
		return EXIT_RUN_FAILED;
	}
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
