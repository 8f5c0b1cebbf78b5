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

int cli_replay(int argc, char **argv)
{
	struct cli_parser parser, *p = &parser;
	struct run_options ro = {.ops = &engine_uring};
	struct result res;
	struct plan *plan;
	char err[1024];
	int key, status;

	cli_parser_init(p, "replay", "RESULT --target PATH [--yes-destroy=PATH] [--out FILE]",
			cli_run_opts, argc, argv);
	while ((key = cli_next(p)) > 0) {
		if (key == 'h')
			return EXIT_OK;
		if ((status = cli_run_opt(p, key, &ro)))
			return status;
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos != 1)
		return cli_usage_error(p, p->npos ? "one result at a time" : "which result?");
	if (!ro.target)
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
	status = cli_run_plan("replay", plan, &ro);
	plan_free(plan);
	return status;
}
