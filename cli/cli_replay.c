// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench replay: run again exactly the preset text, scale and random seeds a result
 * recorded, and each step's engine choices (its wait, issue and ring setup), on another
 * target, so a new firmware or a comparable drive gets the identical test, I/O for I/O.
 * The run itself goes the way of `drivebench run` (cli_run_plan).
 */
#include "cli.h"

#include <stdlib.h>

#include "engine.h"
#include "errbuf.h"
#include "preset.h"
#include "result.h"
#include "settings.h"
#include "step_def.h"

enum { O_NEW_SEEDS = CLI_O_RUN_END };

static const struct opt replay_own_opts[] = {
	{"new-seeds", O_NEW_SEEDS, NULL, "draw new random seeds instead of the result's"},
};

static int replay_args(struct opt_parser *p, struct run_options *ro, bool *new_seeds)
{
	int key, status;

	while ((key = opt_next(p)) > 0) {
		if (key == 'h')
			return EXIT_OK;
		if (key == O_NEW_SEEDS)
			*new_seeds = true;
		else if ((status = cli_run_opt(p, key, ro)))
			return status;
		/* the user's wait for this replay, rather than the original's */
		if (key == CLI_O_BUSY_POLL)
			ro->engine_own |= 1u << SD_WAIT;
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos != 1)
		return opt_usage_error(p, p->npos ? "one result at a time" : "which result?");
	if (!ro->target)
		return opt_usage_error(p, "--target is required");
	return -1;
}

int cli_replay(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	struct run_options ro;
	struct opt *opts = cli_run_opts_with(replay_own_opts, 1);
	bool new_seeds = false;
	struct result res;
	struct plan *plan;
	char err[DB_ERR_LEN];
	int status;

	if (!opts) {
		fprintf(stderr, "drivebench replay: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	cli_run_options_init(&ro);
	opt_parser_init(p, "replay",
			"RESULT --target PATH [--yes-destroy=PATH] [--out FILE] [--new-seeds]", opts,
			argc, argv);
	status = replay_args(p, &ro, &new_seeds);
	if (status >= 0) {
		free(opts);
		return status;
	}
	result_init(&res);
	if (result_load(&res, p->pos[0], err, sizeof(err)) < 0) {
		fprintf(stderr, "drivebench replay: %s\n", err);
		status = EXIT_USAGE;
		goto out;
	}
	if (!res.preset_text) {
		fprintf(stderr,
			"drivebench replay: %s: the result does not carry the preset text it ran\n",
			p->pos[0]);
		status = EXIT_USAGE;
		goto out;
	}
	/* the text names its origin in messages; the scale is the one recorded */
	plan = preset_parse(res.preset_text, res.preset_source[0] ? res.preset_source : p->pos[0],
			    res.scale > 0 ? res.scale : 1.0, err, sizeof(err));
	if (!plan) {
		fprintf(stderr, "drivebench replay: %s: %s\n", p->pos[0], err);
		status = EXIT_USAGE;
		goto out;
	}
	/* the same I/O sequence: each step's seed is the original's */
	ro.seeds_from = new_seeds ? NULL : &res;
	/* measured the same way: each step's wait, issue and ring setup are the original's,
	   but for those chosen for this replay: --busy-poll, and DRIVEBENCH_URING_ASYNC and
	   DRIVEBENCH_URING_SETUP when set (no option sets them). DRIVEBENCH_BUSY_POLL and the
	   site's busy-poll are a bench's default for new runs, not a choice for this one. */
	ro.engine_from = &res;
	ro.engine_own |= (cli_settings()->uring_async ? 1u << SD_ISSUE : 0) |
			 (cli_settings()->uring_setup ? 1u << SD_FLAGS : 0);
	status = cli_run_plan("replay", plan, &ro);
	plan_free(plan);
out:
	result_free(&res);
	free(opts);
	return status;
}
