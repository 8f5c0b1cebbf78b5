// SPDX-License-Identifier: GPL-2.0-or-later
/* The option parser every command and the TUI use (opt.h). */
#include "opt.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "exit_status.h"
#include "version.h"

void opt_parser_init(struct opt_parser *p, const char *cmd, const char *usage_line,
		     const struct opt *opts, int argc, char **argv)
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

void opt_help(const struct opt_parser *p, FILE *out)
{
	fprintf(out, "usage: drivebench %s %s\n", p->cmd, p->usage);
	for (const struct opt *o = p->opts; o && o->name; o++) {
		char left[64], letter[8] = "";
		int c = o->letter ? o->letter : o->key > 0 && o->key < 128 && isalnum(o->key) ? o->key : 0;
		/* an alias (a row with the key of an earlier one) is named long only */
		for (const struct opt *q = p->opts; c && q < o; q++)
			if (q->key == o->key)
				c = 0;
		if (c)
			snprintf(letter, sizeof(letter), "-%c, ", c);
		snprintf(left, sizeof(left), "%s--%s%s%s", letter, o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		fprintf(out, "  %-24s %s\n", left, o->help);
	}
	fprintf(out, "  %-24s %s\n", "--version", "the version");
	fprintf(out, "  %-24s %s\n", "-h, --help", "this text");
}

int opt_usage_error(const struct opt_parser *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "drivebench %s: ", p->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: drivebench %s %s\n", p->cmd, p->usage);
	return EXIT_USAGE;
}

/* Edits (insert, delete, change, swap two neighbours) from a[0..na) to b[0..nb); 3 at most. */
static unsigned edits(const char *a, size_t na, const char *b, size_t nb)
{
	unsigned d[34][34];

	if (na > 32 || nb > 32)
		return 3;
	for (size_t i = 0; i <= na; i++)
		for (size_t j = 0; j <= nb; j++) {
			if (!i || !j) {
				d[i][j] = (unsigned)(i + j);
				continue;
			}
			unsigned best = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) !=
							   tolower((unsigned char)b[j - 1]));
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb] < 3 ? d[na][nb] : 3;
}

/* "unknown option", and what was likely meant: another tool's name, or a near one. */
static void unknown(const struct opt_parser *p, const char *a, const char *name, size_t nlen)
{
	const struct opt *near = NULL;
	unsigned best = nlen > 4 ? 3 : 2; /* fewer edits than this: "--ab" is no "--bs" */

	for (const struct opt_alias *al = p->aliases; al && al->theirs; al++)
		if (strlen(al->theirs) == nlen && !strncmp(al->theirs, name, nlen)) {
			opt_usage_error(p, "unknown option '%s' (%s --%s is --%s here)", a,
					p->aliases_of, al->theirs, al->ours);
			return;
		}
	for (const struct opt *q = p->opts; nlen > 1 && q && q->name; q++) {
		unsigned e = edits(name, nlen, q->name, strlen(q->name));
		if (e < best) {
			best = e;
			near = q;
		}
	}
	if (near)
		opt_usage_error(p, "unknown option '%s' (did you mean --%s?)", a, near->name);
	else
		opt_usage_error(p, "unknown option '%s'", a);
}

int opt_next(struct opt_parser *p)
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
			opt_help(p, stdout);
			return 'h';
		}
		if (!strcmp(a, "--version")) {
			printf("drivebench %s\n", DB_VERSION);
			p->version = true;
			return 'h';
		}
		const struct opt *o = NULL;
		if (a[1] != '-') {
			/* a short option: only those whose key is a letter */
			for (const struct opt *q = p->opts; q && q->name; q++)
				if ((q->key == a[1] || q->letter == a[1]) && a[2] == '\0')
					o = q;
			eq = NULL;
		} else {
			eq = strchr(a + 2, '=');
			nlen = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
			for (const struct opt *q = p->opts; q && q->name; q++)
				if (strlen(q->name) == nlen && !strncmp(q->name, a + 2, nlen))
					o = q;
		}
		if (!o) {
			if (a[1] == '-')
				unknown(p, a, a + 2, nlen);
			else
				opt_usage_error(p, "unknown option '%s'", a);
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
				opt_usage_error(p, "--%s needs %s", o->name, o->metavar);
				return -1;
			}
		} else if (eq) {
			opt_usage_error(p, "--%s takes no value", o->name);
			return -1;
		}
		return o->key;
	}
	return 0;
}
