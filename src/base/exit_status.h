/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_EXIT_STATUS_H
#define DB_EXIT_STATUS_H
/*
 * How drivebench exits, for both front ends: the statuses scripts rely on, and the one
 * check of standard output every status passes through in main(). Like opt.h, this is
 * the front ends' and prints its message; nothing else in the core does.
 */

/* Exit status, the contract scripts rely on (drivebench(1), EXIT STATUS). */
enum {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1, /* the run failed or was aborted; its result is still saved */
	EXIT_USAGE = 2,      /* bad input or usage: message names the file and line, or option */
	EXIT_REFUSED = 3,    /* refused for safety */
	EXIT_OUTPUT = 4,     /* standard output (or --out) could not be written: disk full, EPIPE */
};

/* What standard output is called in messages from now on (an --out file); "standard
 * output" until then. */
void exit_status_stdout_name(const char *name);
/*
 * Standard output checked and closed once the command (cmd; NULL for none) is done: a
 * write that failed (a full disk, a closed pipe with SIGPIPE ignored) is EXIT_OUTPUT,
 * said here; a command that failed otherwise keeps its status and its own message.
 * Returns the status to exit with.
 */
int exit_status_close_stdout(const char *cmd, int status);

#endif
