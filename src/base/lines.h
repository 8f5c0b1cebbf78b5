/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_LINES_H
#define DB_LINES_H
/*
 * The one line reader of drivebench's "key = value" files (presets, spec sheets, themes).
 * It walks a text in place: every line counted (for "file:line: message" errors), its
 * comment cut, blanks trimmed, and lines with nothing left skipped. A comment starts
 * with one of the reader's comment characters at the start of a line or after a blank,
 * so a value such as "fg=#ff8800" keeps its '#'.
 */
#include <stdbool.h>

struct lines {
	char *next;           /* the rest of the text; NULL at its end */
	const char *comments; /* the characters that start a comment: "#", "#;" */
	unsigned lineno;      /* 1-based, of the line last returned (or of the last line) */
	bool indented;        /* the line last returned began with a blank */
};

/* Read text (NUL-terminated, changed in place) with these comment characters. */
void lines_init(struct lines *l, char *text, const char *comments);
/* The next line that has something on it, its comment cut and blanks trimmed; NULL at
 * the end of the text. */
char *lines_next(struct lines *l);
/* A line split at its first '=' into a trimmed key and value; false without a '='. */
bool lines_split(char *line, char **key, char **val);
/* s with its leading blanks skipped and trailing ones cut, in place. */
char *lines_trim(char *s);

#endif
