// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench's main(): the command table, and the option parser every command uses. */
#include "cli.h"
#include "drive.h"
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"
#include "settings.h"
#include "siteconf.h"
#include "text.h"

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
};

static const struct cli_command commands[] = {
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

/* What standard output is, for messages: "standard output" or the --out file. */
static char stdout_name[4096] = "standard output";

/*
 * Every command's output checked once it is done: a write that failed (a full disk, a
 * closed pipe with SIGPIPE ignored) is an error, EXIT_OUTPUT, said here; a command that
 * failed otherwise keeps its status and its own message. A command that finds its write
 * to standard output failed returns EXIT_OUTPUT and leaves the message to this.
 * fclose() for the error a file system reports only at close.
 */
static int stdout_close(const char *cmd, int status)
{
	bool bad = ferror(stdout);

	errno = 0;
	if (fclose(stdout))
		bad = true;
	if (!bad || (status != EXIT_OK && status != EXIT_OUTPUT))
		return status;
	fprintf(stderr, "drivebench%s%s: %s: %s\n", cmd ? " " : "", cmd ? cmd : "", stdout_name,
		errno ? strerror(errno) : "write error");
	return EXIT_OUTPUT;
}

int cli_out_stdout(const struct cli_parser *p, const char *path)
{
	char err[1024];
	FILE *f;

	if (!(f = safety_open_output(path, NULL, err, sizeof(err)))) {
		fprintf(stderr, "drivebench %s: %s\n", p->cmd, err);
		return EXIT_USAGE;
	}
	if (fflush(stdout) || dup2(fileno(f), STDOUT_FILENO) < 0) {
		fprintf(stderr, "drivebench %s: %s: %s\n", p->cmd, path, strerror(errno));
		fclose(f);
		return EXIT_OUTPUT;
	}
	fclose(f);
	snprintf(stdout_name, sizeof(stdout_name), "%s", path);
	return 0;
}

/*
 * What main() read from the environment, once, with the site's defaults under it: every
 * command hands it down to the core, which reads no environment itself (settings.h).
 */
static struct settings settings;

const struct settings *cli_settings(void)
{
	return &settings;
}

/*
 * The site configuration applied under what the user says: DRIVEBENCH_RESULTS and
 * DRIVEBENCH_BUSY_POLL (and the options) override it. Where they are unset, the settings
 * take the site's results directory and busy-poll; the results directory becomes
 * DRIVEBENCH_RESULTS too, so that child processes see the same. 0 or EXIT_USAGE.
 */
static int site_apply(struct siteconf *site)
{
	char err[4352];

	if (siteconf_load(site, err, sizeof(err))) {
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
	if (site_apply(&site))
		return EXIT_USAGE;
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[1], commands[i].name))
				return stdout_close(argv[1], commands[i].fn(argc - 1, argv + 1));
		fprintf(stderr, "drivebench: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return stdout_close(NULL, EXIT_OK);
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("drivebench %s\n", DB_VERSION);
		return stdout_close(NULL, EXIT_OK);
	}
	return stdout_close(NULL, ui_main(argc, argv, &site, &settings));
}

void cli_parser_init(struct cli_parser *p, const char *cmd, const char *usage_line,
		     const struct cli_opt *opts, int argc, char **argv)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->usage = usage_line;
	p->opts = opts;
	p->argc = argc;
	p->argv = argv;
	p->index = 1;
	/* positionals are packed into argv itself, over entries already consumed */
	p->pos = argv + 1;
}

void cli_help(const struct cli_parser *p, FILE *out)
{
	fprintf(out, "usage: drivebench %s %s\n", p->cmd, p->usage);
	for (const struct cli_opt *o = p->opts; o && o->name; o++) {
		char left[64], letter[8] = "";
		int c = o->letter ? o->letter : o->key > 0 && o->key < 128 && isalnum(o->key) ? o->key : 0;
		/* an alias (a row with the key of an earlier one) is named long only */
		for (const struct cli_opt *q = p->opts; c && q < o; q++)
			if (q->key == o->key)
				c = 0;
		if (c)
			snprintf(letter, sizeof(letter), "-%c, ", c);
		snprintf(left, sizeof(left), "%s--%s%s%s", letter, o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		fprintf(out, "  %-24s %s\n", left, o->help);
	}
	fprintf(out, "  %-24s %s\n", "--version", "the version");
	fprintf(out, "  %-24s %s\n", "-h, --help", "this text");
}

int cli_busy_poll(const struct cli_parser *p, struct engine_opts *o)
{
	if (engine_poll_parse(p->arg, &o->poll))
		return cli_usage_error(p, "--busy-poll: '%s' is not auto, yes or no", p->arg);
	return 0;
}

int cli_drives(const struct cli_parser *p, const struct drive_scan_opts *o,
	       struct drive_list *list)
{
	char err[512] = "";
	int status = EXIT_OK;

	memset(list, 0, sizeof(*list));
	if (p->npos == 0) {
		if (drive_scan(list, o, err, sizeof(err))) {
			fprintf(stderr, "drivebench %s: %s\n", p->cmd, err);
			return EXIT_RUN_FAILED;
		}
		return EXIT_OK;
	}
	list->drives = calloc((size_t)p->npos, sizeof(*list->drives));
	if (!list->drives) {
		fprintf(stderr, "drivebench %s: out of memory\n", p->cmd);
		return EXIT_RUN_FAILED;
	}
	for (int i = 0; i < p->npos; i++) {
		if (drive_probe_path_opts(p->pos[i], o, &list->drives[list->count], err,
					  sizeof(err))) {
			fprintf(stderr, "drivebench %s: %s\n", p->cmd, err);
			status = EXIT_USAGE;
			continue;
		}
		list->count++;
	}
	return status;
}

int cli_usage_error(const struct cli_parser *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "drivebench %s: ", p->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: drivebench %s %s\n", p->cmd, p->usage);
	return EXIT_USAGE;
}

int cli_next(struct cli_parser *p)
{
	while (p->index < p->argc) {
		char *a = p->argv[p->index++];
		char *eq;
		size_t nlen;

		if (!strcmp(a, "--")) {
			while (p->index < p->argc)
				p->pos[p->npos++] = p->argv[p->index++];
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			p->pos[p->npos++] = a;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli_help(p, stdout);
			return 'h';
		}
		if (!strcmp(a, "--version")) {
			printf("drivebench %s\n", DB_VERSION);
			p->version = true;
			return 'h';
		}
		const struct cli_opt *o = NULL;
		if (a[1] != '-') {
			/* a short option: only those whose key is a letter */
			for (const struct cli_opt *q = p->opts; q && q->name; q++)
				if ((q->key == a[1] || q->letter == a[1]) && a[2] == '\0')
					o = q;
			eq = NULL;
		} else {
			eq = strchr(a + 2, '=');
			nlen = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
			for (const struct cli_opt *q = p->opts; q && q->name; q++)
				if (strlen(q->name) == nlen && !strncmp(q->name, a + 2, nlen))
					o = q;
		}
		if (!o) {
			cli_usage_error(p, "unknown option '%s'", a);
			return -1;
		}
		p->name = o->name;
		p->arg = NULL;
		if (o->metavar) {
			if (eq)
				p->arg = eq + 1;
			else if (p->index < p->argc)
				p->arg = p->argv[p->index++];
			else {
				cli_usage_error(p, "--%s needs %s", o->name, o->metavar);
				return -1;
			}
		} else if (eq) {
			cli_usage_error(p, "--%s takes no value", o->name);
			return -1;
		}
		return o->key;
	}
	return 0;
}
