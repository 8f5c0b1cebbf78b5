// SPDX-License-Identifier: GPL-2.0-or-later
/* The check of standard output at exit (exit_status.h). */
#include "exit_status.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* What standard output is, for messages: "standard output" or the --out file. */
static char stdout_name[4096] = "standard output";

void exit_status_stdout_name(const char *name)
{
	snprintf(stdout_name, sizeof(stdout_name), "%s", name);
}

/*
 * A command that finds its write to standard output failed returns EXIT_OUTPUT and leaves
 * the message to this. fclose() for the error a file system reports only at close.
 */
int exit_status_close_stdout(const char *cmd, int status)
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
