/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_CLI_H
#define DB_CLI_H
/*
 * The headless front end. Each command lives in cli_<name>.c and declares its options
 * once, in a table of struct opt (opt.h) that drives both parsing and its --help text.
 * Commands print, prompt and exit; nothing in the core library does. main() (main.c)
 * picks the command.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exit_status.h"
#include "opt.h"
#include "engine.h"
#include "version.h"

/* The row of --out FILE (-o) for a command that prints its output (cli_out_stdout()). */
#define CLI_OPT_OUT(k) {"out", (k), "FILE", "write to FILE instead of standard output", 'o'}

/* --busy-poll MODE: sets o's mode; nonzero (message printed) for a bad MODE. */
int cli_busy_poll(const struct opt_parser *p, struct engine_opts *o);
/*
 * What main() read from the environment at its start (settings.h), the site's results
 * directory and busy-poll under it: what the commands hand down to the core. main()
 * gives it once, before any command runs.
 */
struct settings;
void cli_use_settings(const struct settings *s);
const struct settings *cli_settings(void);
/*
 * --out FILE of a command that prints its output: standard output goes to path's
 * temporary file from now on (safety_output_open()); main() checks the writes to it as it
 * does standard output's. 0, or an exit status after printing why.
 */
int cli_out_stdout(const struct opt_parser *p, const char *path);
/*
 * The end of the command cmd, with status after standard output's check: the --out file
 * replaced by what was written when status is EXIT_OK, else left as it was. The status to
 * exit with (EXIT_OUTPUT, or EXIT_USAGE when the name was refused since, message printed).
 */
int cli_out_finish(const char *cmd, int status);

struct engine_ops;
struct plan;
struct drive_list;
struct drive_scan_opts;

/*
 * The drives a command such as `list` or `health` is about: every drive the scan finds,
 * or the disks behind the paths given (p->pos), in the order given. A path that is not
 * a drive is reported ("drivebench CMD: ...") and skipped. Returns EXIT_OK, EXIT_USAGE
 * when a path was skipped, or EXIT_RUN_FAILED (the scan failed; list is then empty).
 */
int cli_drives(const struct opt_parser *p, const struct drive_scan_opts *o,
	       struct drive_list *list);

/* How `run` and `replay` run a plan. */
struct run_options {
	const char *target;           /* --target PATH (the first) */
	const char *targets[8];       /* every --target: a run on several at once */
	unsigned ntargets;
	const char *yes[128];         /* every --yes-destroy (2 x FIO_LAB_MAX_HOSTS) */
	unsigned nyes;
	const struct engine_ops *ops; /* uring, or null for tests */
	const char *out;              /* result file; NULL: the results directory */
	const char *yes_destroy;      /* --yes-destroy=PATH */
	const char *label;            /* --label TEXT: the result's label */
	const char *note;             /* --note TEXT: the result's note */
	bool quiet;
	uint64_t autosave_ns;         /* 0: every 30 s */
	const struct result *seeds_from; /* replay: reuse its seeds; NULL: new ones */
	/* replay: each step's engine choices from its original (runner.h); engine_own: the
	   ones the user made for this run instead (bits 1u << SD_WAIT, SD_ISSUE, SD_FLAGS) */
	const struct result *engine_from;
	unsigned engine_own;
	/* the engine's options: the settings' (cli_run_options_init), then --busy-poll */
	struct engine_opts engine;
};

/* ro zeroed, with the uring engine and the engine options of the settings. */
void cli_run_options_init(struct run_options *ro);

/*
 * The options every command that runs a plan takes (run, replay), declared once: their
 * keys (from CLI_O_RUN up), their rows (cli_run_opts, NULL-terminated), and their handling.
 */
enum { CLI_O_RUN = 200, CLI_O_TARGET = CLI_O_RUN, CLI_O_YES, CLI_O_OUT, CLI_O_QUIET,
       CLI_O_ENGINE, CLI_O_BUSY_POLL, CLI_O_LABEL, CLI_O_NOTE, CLI_O_RUN_END };
extern const struct opt cli_run_opts[];
/* One of them into ro: 0, or an exit status after printing a usage error. */
int cli_run_opt(const struct opt_parser *p, int key, struct run_options *ro);
/* A command's option table: cli_run_opts, then own (NULL-terminated); malloc'd or NULL. */
struct opt *cli_run_opts_with(const struct opt *own, size_t nown);

/*
 * SIGINT, SIGTERM and SIGHUP (the terminal or the ssh session closed) call fn, which stops
 * the run so that its result is saved, marked aborted. A SIGHUP ignored when drivebench
 * started (nohup) stays ignored, and the run goes on.
 */
void cli_catch_stop_signals(void (*fn)(int sig));

/*
 * Run plan on ro->target through the run module (run.h): the write guard, the target
 * checks, progress on stderr, SIGINT/SIGTERM/SIGHUP abort (the result is saved as aborted),
 * autosave, the final save.
 * Returns an exit status. cmd names the command in messages.
 */
int cli_run_plan(const char *cmd, struct plan *plan, const struct run_options *ro);

/*
 * Run plan on ro->target of each host through fio's client/server mode (fio_client.h):
 * writing needs yes[] to hold "HOST:TARGET" for every host. Returns an exit status.
 */
int cli_run_hosts(const char *cmd, const struct plan *plan, const struct run_options *ro,
		  const char *const *hosts, unsigned nhosts, const char *const *yes, unsigned nyes);

/* Commands: argc/argv start at the command name. Return an exit status. */
int cli_run(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_health(int argc, char **argv);
int cli_presets(int argc, char **argv);
int cli_show(int argc, char **argv);
int cli_compare(int argc, char **argv);
int cli_export_fio(int argc, char **argv);
int cli_import(int argc, char **argv);
int cli_export_samples(int argc, char **argv);
int cli_capture(int argc, char **argv);
int cli_trace(int argc, char **argv);
struct replay_stats;
/* A replay step's own line: I/Os issued, flushes, discards, how far behind the trace. */
void cli_print_replay(const struct replay_stats *r);

#endif
