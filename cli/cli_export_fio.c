// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench export-fio: a preset as an equivalent fio job file. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "errbuf.h"
#include "fio_export.h"
#include "preset.h"
#include "safety.h"
#include "units.h"

enum { O_SCALE = 256, O_OUT };

static const struct opt export_opts[] = {
	{"scale", O_SCALE, "F", "multiply every duration by F"},
	{"out", 'o', "FILE", "write the job file here instead of standard output"},
	{NULL, 0, NULL, NULL},
};

int cli_export_fio(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	const char *out = NULL;
	double scale = 1.0;
	char err[DB_ERR_LEN];
	struct plan *plan;
	char *text;
	int key, ret, status = EXIT_OK;

	opt_parser_init(p, "export-fio", "PRESET [--scale F] [-o FILE]", export_opts, argc, argv);
	while ((key = opt_next(p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case O_SCALE:
			if (units_parse_double(p->arg, PRESET_SCALE_MIN, PRESET_SCALE_MAX, &scale))
				return opt_usage_error(p, "--scale: '%s' is not a factor from %g to %g",
						       p->arg, PRESET_SCALE_MIN, PRESET_SCALE_MAX);
			break;
		case 'o':
			out = p->arg;
			break;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos != 1)
		return opt_usage_error(p, p->npos ? "one preset at a time" : "which preset?");
	plan = preset_load(cli_settings(), p->pos[0], scale, err, sizeof(err));
	if (!plan) {
		fprintf(stderr, "drivebench export-fio: %s\n", err);
		return EXIT_USAGE;
	}
	if (plan_trace(plan)) {
		fprintf(stderr, "drivebench export-fio: %s: a step replays the trace %s, which "
			"has no fio job (fio's read_iolog takes an iolog)\n", p->pos[0],
			plan_trace(plan));
		plan_free(plan);
		return EXIT_USAGE;
	}
	if (app_plan(plan)) {
		fprintf(stderr, "drivebench export-fio: %s: %s has an [app] phase: an application "
			"benchmark has no fio equivalent\n", plan->file, plan->name);
		plan_free(plan);
		return EXIT_USAGE;
	}
	text = fio_export(plan);
	if (!text) {
		fprintf(stderr, "drivebench export-fio: out of memory\n");
		plan_free(plan);
		return EXIT_RUN_FAILED;
	}
	if (out && (ret = safety_output_write(out, text, strlen(text), NULL, err, sizeof(err)))) {
		fprintf(stderr, "drivebench export-fio: %s\n", err);
		status = ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
	} else if (!out && fputs(text, stdout) < 0) {
		status = EXIT_OUTPUT; /* standard output's error is main()'s to say */
	}
	free(text);
	plan_free(plan);
	return status;
}
