/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_CHILD_H
#define DB_CHILD_H
/*
 * Running the tools of the field (smartctl, hdparm) as child processes: found as tool.h
 * says (as root, in the system's directories, never on PATH),
 * stdin from /dev/null, stdout captured up to a bound, stderr kept apart (its first
 * line is the message when a tool fails), a time limit over the whole child (its output
 * and its exit) after which it is killed (SIGKILL to its own process group, which it
 * was started in, so whatever it started dies too) and reaped.
 * Nothing is run through a shell: arguments go to the tool as they are.
 */
#include <stddef.h>
#include <stdint.h>

struct child_output {
	char *out;           /* stdout, NUL-terminated; malloc'd, the caller frees it */
	size_t out_len;      /* bytes in out */
	char err_line[256];  /* the first non-empty line of stderr, or "" */
	int status;          /* the exit status (0..255), or -1 when killed by a signal */
	int signal;          /* the signal that ended it, or 0 */
	int truncated;       /* stdout was longer than max_out; the rest was read and dropped */
};

/*
 * Run argv[0] (found by tool_find()) with argv, for at most timeout_ms (0: no limit) from
 * its start to its exit, keeping at most max_out bytes of stdout. Returns 0 when the
 * tool ran (whatever its exit status), -ENOENT when it is not installed, -ETIMEDOUT when
 * it was killed for taking too long (a tool that closed its output but did not exit, or
 * left a process holding its pipes, included), -errno otherwise; the message is in err.
 * After the kill the child is given 5 s to die; one stuck in the kernel is left
 * unreaped, and err says so.
 */
int child_run(char *const argv[], unsigned timeout_ms, size_t max_out, struct child_output *o,
	      char *err, size_t errlen);
void child_output_free(struct child_output *o);

#endif
