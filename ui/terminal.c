// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether the TUI can start: asked of the file descriptors and of terminfo alone, apart
 * from app.c because <term.h> defines macros (key_print, lines) that clash with its names.
 */
#include "terminal.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

/*
 * Whether the TUI can start here: stdin and stdout a terminal, and a TERM whose terminfo
 * entry can address the cursor. Asked of terminfo alone (setupterm() writes nothing), so
 * a refusal leaves the terminal, the cache directory and the scratch file untouched.
 * 0, or -ENOTTY with the reason in why.
 */
int terminal_check(char *why, size_t len)
{
	const char *term = getenv("TERM");
	int err = 0;
	char *cup;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(why, len, "standard %s is not a terminal",
			 isatty(STDIN_FILENO) ? "output" : "input");
		return -ENOTTY;
	}
	if (!term || !*term) {
		snprintf(why, len, "TERM is not set");
		return -ENOTTY;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, len, "TERM=%.64s: %s", term,
			 err == 1   ? "a hardcopy terminal"
			 : err == 0 ? "no such terminal in the terminfo database"
				    : "no terminfo database");
		return -ENOTTY;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (!cup || cup == (char *)-1) {
		snprintf(why, len, "TERM=%.64s cannot move the cursor", term);
		return -ENOTTY;
	}
	return 0;
}
