// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench export-samples: a result's interval samples as CSV, a row per interval. */
#include "cli.h"

#include <errno.h>
#include <string.h>

#include "errbuf.h"
#include "report.h"
#include "result.h"
#include "safety.h"

static const struct opt samples_opts[] = {
	{"out", 'o', "FILE", "write the CSV here instead of standard output"},
	{NULL, 0, NULL, NULL},
};

int cli_export_samples(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	const char *out = NULL;
	struct result r;
	struct safety_output o;
	char err[DB_ERR_LEN];
	int key, ret, status = EXIT_OK;

	opt_parser_init(p, "export-samples", "RESULT [-o FILE]", samples_opts, argc, argv);
	while ((key = opt_next(p)) > 0) {
		if (key == 'h')
			return EXIT_OK;
		if (key == 'o')
			out = p->arg;
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos != 1)
		return opt_usage_error(p, p->npos ? "one result at a time" : "which result?");
	if (result_load_opts(&r, p->pos[0], RESULT_LOAD_SAMPLES, err, sizeof(err))) {
		fprintf(stderr, "drivebench export-samples: %s\n", err);
		return EXIT_USAGE;
	}
	if (out && safety_output_open(&o, out, NULL, err, sizeof(err))) {
		fprintf(stderr, "drivebench export-samples: %s\n", err);
		result_free(&r);
		return EXIT_USAGE;
	}
	if (report_samples_csv(&r, out ? o.f : stdout)) {
		status = EXIT_OUTPUT; /* standard output's error is main()'s to say */
		if (out) {
			fprintf(stderr, "drivebench export-samples: %s: %s\n", out,
				strerror(errno ? errno : EIO));
			safety_output_abort(&o);
		}
	} else if (out && (ret = safety_output_commit(&o, err, sizeof(err)))) {
		fprintf(stderr, "drivebench export-samples: %s\n", err);
		status = ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
	} else if (!out && fflush(stdout)) {
		status = EXIT_OUTPUT;
	}
	result_free(&r);
	return status;
}
