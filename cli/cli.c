// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench's main(): the command table, and the option parser every command uses. */
#include "cli.h"
#include "drive.h"
#include "engine.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	const char *poll = getenv("DRIVEBENCH_BUSY_POLL");
	enum engine_poll mode;
	FILE *err;

	/*
	 * Messages quote what came from outside (paths, names from result files and presets,
	 * drive strings): whatever prints to standard error reaches the terminal with control
	 * characters made visible and ill-formed UTF-8 repaired (text.h), newlines kept.
	 */
	if ((err = text_filter_stream(STDERR_FILENO)))
		stderr = err;

	if (poll && engine_poll_parse(poll, &mode)) {
		fprintf(stderr, "drivebench: DRIVEBENCH_BUSY_POLL: '%s' is not auto, yes or no\n",
			poll);
		return EXIT_USAGE;
	}
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].fn(argc - 1, argv + 1);
		fprintf(stderr, "drivebench: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("drivebench %s\n", DB_VERSION);
		return EXIT_OK;
	}
	return ui_main(argc, argv);
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
		char left[64];
		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		fprintf(out, "  %-24s %s\n", left, o->help);
	}
	fprintf(out, "  %-24s %s\n", "--help", "this text");
}

int cli_busy_poll(const struct cli_parser *p)
{
	enum engine_poll mode;

	if (engine_poll_parse(p->arg, &mode))
		return cli_usage_error(p, "--busy-poll: '%s' is not auto, yes or no", p->arg);
	engine_set_poll(mode);
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
		const struct cli_opt *o = NULL;
		if (a[1] != '-') {
			/* a short option: only those whose key is a letter */
			for (const struct cli_opt *q = p->opts; q && q->name; q++)
				if (q->key == a[1] && a[2] == '\0')
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
