// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench replay: run again exactly the preset text and scale a result recorded, on
 * another target, so a new firmware or a comparable drive gets the identical test. The
 * run itself goes the way of `drivebench run` (cli_run_plan).
 */
#include "cli.h"

#include <stdlib.h>

#include "engine.h"
#include "preset.h"
#include "result.h"

enum { O_TARGET = 256, O_YES, O_OUT, O_QUIET, O_ENGINE, O_BUSY_POLL };

static const struct cli_opt replay_opts[] = {
	{"target", O_TARGET, "PATH", "block device or file to run on (required)"},
	{"yes-destroy", O_YES, "PATH", "confirm writing to block device PATH (destroys its data)"},
	{"out", O_OUT, "FILE", "result file (default: $XDG_DATA_HOME/drivebench/results/...)"},
	{"quiet", O_QUIET, NULL, "no progress on stderr"},
	{"engine", O_ENGINE, "NAME", "I/O engine: uring (default) or null (no I/O)"},
	{"busy-poll", O_BUSY_POLL, "MODE", "spin for completions: auto (default), yes, no"},
	{NULL, 0, NULL, NULL},
};

int cli_replay(int argc, char **argv)
{
	struct cli_parser parser, *p = &parser;
	struct run_options ro = {.ops = &engine_uring};
	const char *target = NULL;
	struct result res;
	struct plan *plan;
	char err[1024];
	int key, status;

	cli_parser_init(p, "replay", "RESULT --target PATH [--yes-destroy=PATH] [--out FILE]",
			replay_opts, argc, argv);
	while ((key = cli_next(p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case O_TARGET:
			target = p->arg;
			break;
		case O_YES:
			ro.yes_destroy = p->arg;
			break;
		case O_OUT:
			ro.out = p->arg;
			break;
		case O_QUIET:
			ro.quiet = true;
			break;
		case O_ENGINE:
			ro.ops = engine_find(p->arg);
			if (!ro.ops)
				return cli_usage_error(p, "--engine: no engine '%s' (uring, null)",
						       p->arg);
			break;
		case O_BUSY_POLL:
			if (cli_busy_poll(p))
				return EXIT_USAGE;
			break;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos != 1)
		return cli_usage_error(p, p->npos ? "one result at a time" : "which result?");
	if (!target)
		return cli_usage_error(p, "--target is required");
	result_init(&res);
	if (result_load(&res, p->pos[0], err, sizeof(err)) < 0) {
		fprintf(stderr, "drivebench replay: %s\n", err);
		result_free(&res);
		return EXIT_USAGE;
	}
	if (!res.preset_text) {
		fprintf(stderr,
			"drivebench replay: %s: the result does not carry the preset text it ran\n",
			p->pos[0]);
		result_free(&res);
		return EXIT_USAGE;
	}
	/* the text names its origin in messages; the scale is the one recorded */
	plan = preset_parse(res.preset_text, res.preset_source[0] ? res.preset_source : p->pos[0],
			    res.scale > 0 ? res.scale : 1.0, err, sizeof(err));
	result_free(&res);
	if (!plan) {
		fprintf(stderr, "drivebench replay: %s: %s\n", p->pos[0], err);
		return EXIT_USAGE;
	}
	status = cli_run_plan("replay", plan, target, &ro);
	plan_free(plan);
	return status;
}
