// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench import: fio's JSON output (json or json+, local or client/server) as
 * drivebench results, one result file per fio file, for show, compare and the TUI.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "fio_import.h"
#include "result.h"
#include "result_io.h"
#include "safety.h"
#include "text.h"

enum { O_LOGS = 256, O_OUT, O_QUIET };

static const struct opt import_opts[] = {
	{"logs", O_LOGS, "DIR", "fio's per-interval logs (write_iops_log, write_lat_log) are here"},
	{"out", O_OUT, "PATH", "the result file (one input) or directory (several)", 'o'},
	{"quiet", O_QUIET, NULL, "do not print the paths of the results written"},
	{"label", CLI_O_LABEL, "TEXT", "name the run in comparisons (default: the drive or target)"},
	{"note", CLI_O_NOTE, "TEXT", "a remark kept with the result"},
	{NULL, 0, NULL, NULL},
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Save the imported results rs[0..n) of the inputs `inputs`: to out (one input), or a new
 * file each in dir, named for its target and input. EXIT_OK or the exit status.
 */
static int save_all(struct result *rs, char **inputs, int n, const char *out, const char *dir,
		    bool quiet)
{
	char err[DB_ERR_LEN], path[4096];

	for (int k = 0; k < n; k++) {
		const char *base = strrchr(inputs[k], '/') ? strrchr(inputs[k], '/') + 1 : inputs[k];
		char name[256];
		snprintf(name, sizeof(name), "%s", base);
		if (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json"))
			name[strlen(name) - 5] = '\0';
		if (out)
			snprintf(path, sizeof(path), "%s", out);
		else if (result_default_path(path, sizeof(path), dir, result_target_path(&rs[k]),
					     name)) {
			fprintf(stderr, "drivebench import: %s: cannot name a result file there\n", dir);
			return EXIT_RUN_FAILED;
		}
		if (safety_check_output(path, NULL, 0, false, NULL, err, sizeof(err)) < 0) {
			fprintf(stderr, "drivebench import: %s\n", err);
			return EXIT_USAGE;
		}
		if (result_create(&rs[k], path, sizeof(path), out ? RESULT_REPLACE : RESULT_NEW,
				  err, sizeof(err))) {
			fprintf(stderr, "drivebench import: %s\n", err);
			return EXIT_RUN_FAILED;
		}
		result_release(&rs[k]);
		if (!quiet) {
			text_fput_visible(stdout, path);
			putchar('\n');
		}
	}
	return EXIT_OK;
}

int cli_import(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	const char *logs = NULL, *out = NULL, *label = NULL, *note = NULL;
	bool quiet = false;
	char err[DB_ERR_LEN], dir[4096];
	int key;

	opt_parser_init(p, "import", "FILE.json... [--logs DIR] [--out PATH] [--label TEXT] [--note TEXT]",
			import_opts, argc, argv);
	while ((key = opt_next(p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case O_LOGS:
			logs = p->arg;
			break;
		case O_OUT:
			out = p->arg;
			break;
		case O_QUIET:
			quiet = true;
			break;
		case CLI_O_LABEL:
			label = p->arg;
			break;
		case CLI_O_NOTE:
			note = p->arg;
			break;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (!p->npos)
		return opt_usage_error(p, "which fio output? (fio --output-format=json+)");
	if (logs && !is_dir(logs))
		return opt_usage_error(p, "--logs: '%s' is not a directory", logs);
	if (out && p->npos > 1 && !is_dir(out))
		return opt_usage_error(p, "--out: '%s' is not a directory (several inputs)", out);
	if (out && is_dir(out)) {
		snprintf(dir, sizeof(dir), "%s", out);
		out = NULL;
	} else if (!out && result_dir(cli_settings(), dir, sizeof(dir))) {
		fprintf(stderr, "drivebench import: %s: %s\n", dir, strerror(errno));
		return EXIT_RUN_FAILED;
	}

	/* every input is read before any result is written: bad input writes nothing */
	struct result *rs = calloc((size_t)p->npos, sizeof(*rs));
	int status = EXIT_OK, i;
	if (!rs) {
		fprintf(stderr, "drivebench import: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	for (i = 0; i < p->npos; i++) {
		if (fio_import_file(&rs[i], p->pos[i], logs, err, sizeof(err))) {
			fprintf(stderr, "drivebench import: %s\n", err);
			status = EXIT_USAGE;
			break;
		}
		/* several inputs share the label and note, as runs of one review do */
		if (label)
			text_copy(rs[i].label, sizeof(rs[i].label), label);
		if (note)
			text_copy(rs[i].note, sizeof(rs[i].note), note);
	}
	if (status == EXIT_OK)
		status = save_all(rs, p->pos, p->npos, out, dir, quiet);
	for (int k = 0; k < i && k < p->npos; k++)
		result_free(&rs[k]);
	free(rs);
	return status;
}
