// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench's main(): the site's defaults applied, then the one dispatcher. A first
 * argument that is a word picks a headless command (cli/); --help and --version are
 * answered here; anything else starts the TUI (ui/). The two front ends know nothing of
 * each other: what they share (the option parser, the exit statuses) is in src/base.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "exit_status.h"
#include "settings.h"
#include "siteconf.h"
#include "text.h"
#include "tui.h"
#include "units.h"
#include "version.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
};

static const struct command commands[] = {
	{"list", cli_list, "list [--json] [--all] [PATH...]  discovered drives and their in-use state"},
	{"health", cli_health, "health [DEVICE...] [--json]    the drives' own health: SMART, temperature, wear"},
	{"presets", cli_presets, "presets [--json]              the preset library"},
	{"run", cli_run, "run --target PATH (--preset NAME|FILE | WORKLOAD OPTIONS) ..."},
	{"replay", cli_replay, "replay RESULT --target PATH    re-run what a saved result ran"},
	{"show", cli_show, "show RESULT [--format text|json]"},
	{"compare", cli_compare, "compare RESULT... [--metric M] [--format text|md|csv|json|html]"},
	{"export-fio", cli_export_fio, "export-fio PRESET             the preset as a fio job file"},
	{"export-samples", cli_export_samples, "export-samples RESULT [-o FILE]  interval samples as CSV"},
	{"import", cli_import, "import FILE.json... [--logs DIR]  fio's JSON output as results"},
	{"capture", cli_capture, "capture DEVICE [--time T] -o FILE  a device's block I/O as a trace"},
	{"trace", cli_trace, "trace import FILE -o FILE | show FILE  other tools' traces, a summary"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: drivebench [--theme NAME] [--target PATH] [--list-keys]   the TUI\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "       drivebench %s\n", commands[i].synopsis);
	fprintf(out, "       drivebench --version\n"
		     "Run 'drivebench COMMAND --help' for a command's options; see drivebench(1).\n");
}

/*
 * What main() reads from the environment, once (settings.h), with the site's defaults
 * under it: handed to the commands (cli_settings()) and the TUI.
 */
static struct settings settings;

/*
 * The site configuration applied under what the user says: DRIVEBENCH_RESULTS and
 * DRIVEBENCH_BUSY_POLL (and the options) override it. Where they are unset, the settings
 * take the site's results directory and busy-poll; the results directory becomes
 * DRIVEBENCH_RESULTS too, so that child processes see the same. 0 or EXIT_USAGE.
 */
static int site_apply(struct siteconf *site)
{
	char err[4352];

	if (siteconf_load(site, &settings, err, sizeof(err))) {
		fprintf(stderr, "drivebench: %s\n", err);
		return EXIT_USAGE;
	}
	if (site->results[0] && !settings.results) {
		if (setenv("DRIVEBENCH_RESULTS", site->results, 0))
			return EXIT_USAGE;
		settings.results = site->results;
	}
	if (site->busy_poll[0] && !settings.busy_poll)
		settings.busy_poll = site->busy_poll;
	return 0;
}

int main(int argc, char **argv)
{
	static struct siteconf site;
	enum engine_poll mode;
	bool on; /* what a no-or-auto variable says; main() only checks that it parses */
	FILE *err;

	/*
	 * Messages quote what came from outside (paths, names from result files and presets,
	 * drive strings): whatever prints to standard error reaches the terminal with control
	 * characters made visible and ill-formed UTF-8 repaired (text.h), newlines kept.
	 */
	if ((err = text_filter_stream(STDERR_FILENO)))
		stderr = err;

	/* the environment, read here once (settings.h) */
	settings_from_env(&settings);
	if (settings.busy_poll && engine_poll_parse(settings.busy_poll, &mode)) {
		fprintf(stderr, "drivebench: DRIVEBENCH_BUSY_POLL: '%s' is not auto, yes or no\n",
			settings.busy_poll);
		return EXIT_USAGE;
	}
	if (settings.uring_async && engine_auto_parse(settings.uring_async, &on)) {
		fprintf(stderr, "drivebench: DRIVEBENCH_URING_ASYNC: '%s' is not no or auto\n",
			settings.uring_async);
		return EXIT_USAGE;
	}
	if (settings.uring_gather && engine_auto_parse(settings.uring_gather, &on)) {
		fprintf(stderr, "drivebench: DRIVEBENCH_URING_GATHER: '%s' is not auto or no\n",
			settings.uring_gather);
		return EXIT_USAGE;
	}
	const char *u = settings.uring_setup;
	if (u && (u[0] < '0' || u[0] > '3' || u[1])) {
		fprintf(stderr, "drivebench: DRIVEBENCH_URING_SETUP: '%s' is not 0, 1, 2 or 3\n",
			u);
		return EXIT_USAGE;
	}
	uint64_t ns;
	if (settings.no_progress &&
	    (units_parse_duration(settings.no_progress, &ns) || ns < ENGINE_NO_PROGRESS_MIN_NS)) {
		fprintf(stderr,
			"drivebench: DRIVEBENCH_NO_PROGRESS: '%s' is not a duration of 100ms or "
			"more\n",
			settings.no_progress);
		return EXIT_USAGE;
	}
	if (site_apply(&site))
		return EXIT_USAGE;
	cli_use_settings(&settings);
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[1], commands[i].name)) {
				int status = commands[i].fn(argc - 1, argv + 1);
				status = exit_status_close_stdout(argv[1], status);
				return cli_out_finish(argv[1], status);
			}
		fprintf(stderr, "drivebench: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return exit_status_close_stdout(NULL, EXIT_OK);
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("drivebench %s\n", DB_VERSION);
		return exit_status_close_stdout(NULL, EXIT_OK);
	}
	return exit_status_close_stdout(NULL, ui_main(argc, argv, &site, &settings));
}
