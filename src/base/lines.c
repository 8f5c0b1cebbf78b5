/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line reader of "key = value" files (lines.h). */
#include "lines.h"

#include <ctype.h>
#include <string.h>

void lines_init(struct lines *l, char *text, const char *comments)
{
	l->next = text;
	l->comments = comments;
	l->lineno = 0;
	l->indented = false;
}

char *lines_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static void cut_comment(char *s, const char *comments)
{
	for (char *c = s; *c; c++)
		if (strchr(comments, *c) && (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
}

char *lines_next(struct lines *l)
{
	while (l->next && *l->next) {
		char *line = l->next, *nl = strchr(line, '\n'), *s;

		l->next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		l->lineno++;
		l->indented = *line == ' ' || *line == '\t';
		cut_comment(line, l->comments);
		s = lines_trim(line);
		if (*s)
			return s;
	}
	return NULL;
}

bool lines_split(char *line, char **key, char **val)
{
	char *eq = strchr(line, '=');

	if (!eq)
		return false;
	*eq = '\0';
	*key = lines_trim(line);
	*val = lines_trim(eq + 1);
	return true;
}
