/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_OPT_H
#define DB_OPT_H
/*
 * The command line of both front ends: each command (and the TUI) declares its options
 * once, in a table of struct opt that drives both parsing and its --help text. The parser
 * prints --help, --version and usage errors itself: it is the front ends' (as is
 * exit_status.h), the one part of the core that speaks to the terminal.
 */
#include <stdbool.h>
#include <stdio.h>

struct opt {
	const char *name;    /* long name without "--"; NULL ends the table */
	int key;             /* returned by opt_next(); a short option letter or >= 256 */
	const char *metavar; /* NULL: takes no argument */
	const char *help;
	int letter;          /* also -letter, when key is not a letter itself; 0: none */
};

struct opt_parser {
	const char *cmd;             /* "run", for messages */
	const char *usage;           /* the synopsis after "drivebench CMD" */
	const struct opt *opts;
	int argc;
	char **argv;
	int index;                   /* next argv element */
	const char *arg;             /* the current option's argument */
	const char *name;            /* the current option's name, for messages */
	char **pos;                  /* positional arguments, packed into argv[1..] */
	int npos;
	bool version;                /* 'h' came from --version, not --help */
	/* another tool's names for options, {theirs, ours}, ended by {NULL}, and whose they
	   are ("fio's"): an unknown option with one of these names says which option it is
	   here (opt_next()) */
	const struct opt_alias *aliases;
	const char *aliases_of;
};
struct opt_alias {
	const char *theirs, *ours;
};

/* Start parsing argv[1..] of a command. */
void opt_parser_init(struct opt_parser *p, const char *cmd, const char *usage,
		     const struct opt *opts, int argc, char **argv);
/*
 * The next option's key; 0 when done; -1 after printing a usage error (unknown option,
 * missing argument). "--help"/"-h" print the help, "--version" the version, and return 'h'.
 * An unknown option says what was likely meant: another tool's name for one of ours
 * (p->aliases: "fio's --iodepth is --qdepth here"), else one of ours a letter or two
 * away ("did you mean --qdepth?").
 */
int opt_next(struct opt_parser *p);
void opt_help(const struct opt_parser *p, FILE *out);
/* "drivebench CMD: --opt: message" and exit status 2 (EXIT_USAGE). */
int opt_usage_error(const struct opt_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
