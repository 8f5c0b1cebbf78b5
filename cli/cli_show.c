// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench show: one result, readable (drive, preset, per-step table, steady state). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "report.h"
#include "result.h"
#include "result_io.h"

enum { O_FORMAT = 256, O_OUT };

static const struct opt show_opts[] = {
	{"format", O_FORMAT, "FMT", "text (default) or json (the result, as the current format)"},
	CLI_OPT_OUT(O_OUT),
	{NULL, 0, NULL, NULL},
};

int cli_show(int argc, char **argv)
{
	struct opt_parser p;
	struct result r;
	char err[DB_ERR_LEN];
	bool json = false;
	const char *out = NULL;
	int key, rc = EXIT_OK;

	opt_parser_init(&p, "show", "RESULT [--format text|json]", show_opts, argc, argv);
	while ((key = opt_next(&p)) > 0) {
		if (key == 'h') {
			return EXIT_OK;
		}
		if (key == O_OUT)
			out = p.arg;
		if (key == O_FORMAT) {
			if (!strcmp(p.arg, "json")) {
				json = true;
			} else if (strcmp(p.arg, "text")) {
				rc = opt_usage_error(
					&p, "--format: unknown format '%s' (text, json)", p.arg);
				return rc;
			}
		}
	}
	if (key < 0 || p.npos != 1) {
		rc = key < 0 ? EXIT_USAGE
			     : opt_usage_error(&p, p.npos ? "one result at a time (use 'drivebench "
							    "compare' for several)"
							  : "no result file given");
		return rc;
	}
	/* the text is the step summaries; the JSON is all of it */
	if (result_load_opts(&r, p.pos[0], json ? RESULT_LOAD_ALL : 0, err, sizeof(err))) {
		fprintf(stderr, "drivebench show: %s\n", err);
		return EXIT_USAGE;
	}
	if (out && (rc = cli_out_stdout(&p, out))) {
		result_free(&r);
		return rc;
	}
	if (json) {
		if (result_write(&r, stdout)) {
			result_free(&r);
			return EXIT_OUTPUT; /* main() says why */
		}
	} else {
		char *text = NULL;
		size_t len = 0;
		if (report_show(&r, &text, &len) < 0) {
			fprintf(stderr, "drivebench show: out of memory\n");
			result_free(&r);
			return EXIT_USAGE;
		}
		fwrite(text, 1, len, stdout);
		free(text);
	}
	result_free(&r);
	return fflush(stdout) ? EXIT_OUTPUT : EXIT_OK;
}
