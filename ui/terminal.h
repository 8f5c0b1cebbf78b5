/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_TERMINAL_H
#define DB_UI_TERMINAL_H
#include <stddef.h>

/*
 * Whether the TUI can start here: stdin and stdout a terminal, and a TERM whose terminfo
 * entry can address the cursor. setupterm() writes nothing, so a refusal leaves the
 * terminal, the cache directory and the scratch file untouched. 0, or -ENOTTY with the
 * reason ("standard input is not a terminal") in why.
 */
int terminal_check(char *why, size_t len);

#endif
