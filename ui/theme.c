// SPDX-License-Identifier: GPL-2.0-or-later
/* Theme files: parsing tmux-like style strings into roles. No curses here (ui/draw.c). */
#include "theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "datadir.h"
#include "errbuf.h"
#include "fileio.h"
#include "lines.h"
#include "strbuf.h"
#include "text.h"


const struct ui_role_info ui_role_info[ROLE_COUNT] = {
#define X(id, name_, style, help_) [ROLE_##id] = {.name = name_, .builtin = style, .help = help_},
	UI_ROLES(X)
#undef X
};

static const char *const colour_names[] = {
	"black",      "red",	       "green",	      "yellow",	     "blue",	    "magenta",
	"cyan",	      "white",	       "brightblack", "brightred",   "brightgreen", "brightyellow",
	"brightblue", "brightmagenta", "brightcyan",  "brightwhite",
};
#define NCOLOUR_NAMES (sizeof(colour_names) / sizeof(colour_names[0]))

static const struct {
	const char *name;
	unsigned attr;
} attr_names[] = {
	{"bold", UI_A_BOLD},	       {"dim", UI_A_DIM},	{"underscore", UI_A_UNDERLINE},
	{"underline", UI_A_UNDERLINE}, {"blink", UI_A_BLINK},	{"reverse", UI_A_REVERSE},
	{"italics", UI_A_ITALIC},      {"italic", UI_A_ITALIC},
};
#define NATTR_NAMES (sizeof(attr_names) / sizeof(attr_names[0]))

static int parse_colour(const char *s, size_t len, short *out)
{
	char buf[32];
	char *end;
	long v;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!strcasecmp(buf, "default") || !strcasecmp(buf, "terminal")) {
		*out = UI_COLOUR_DEFAULT;
		return 0;
	}
	for (size_t i = 0; i < NCOLOUR_NAMES; i++)
		if (!strcasecmp(buf, colour_names[i])) {
			*out = (short)i;
			return 0;
		}
	if (!strncasecmp(buf, "colour", 6) || !strncasecmp(buf, "color", 5)) {
		const char *num = buf + (tolower((unsigned char)buf[4]) == 'u' ? 6 : 5);
		if (!isdigit((unsigned char)*num))
			return -EINVAL;
		v = strtol(num, &end, 10);
		if (*end || v < 0 || v > 255)
			return -EINVAL;
		*out = (short)v;
		return 0;
	}
	if (buf[0] == '#' && len == 7) {
		unsigned long rgb = strtoul(buf + 1, &end, 16);
		if (*end)
			return -EINVAL;
		/* the nearest cell of the 6x6x6 cube of 256-colour terminals */
		unsigned r = (unsigned)((rgb >> 16) & 0xff), g = (unsigned)((rgb >> 8) & 0xff),
			 b = (unsigned)(rgb & 0xff);
		*out = (short)(16 + 36 * ((r * 5 + 127) / 255) + 6 * ((g * 5 + 127) / 255) +
			       (b * 5 + 127) / 255);
		return 0;
	}
	return -EINVAL;
}

int theme_parse_style(const char *s, struct ui_style *st, char *err, size_t errlen)
{
	struct ui_style out = {.fg = UI_COLOUR_DEFAULT, .bg = UI_COLOUR_DEFAULT, .attrs = 0};
	const char *p = s;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		const char *e = p;
		while (*e && *e != ',' && *e != ' ' && *e != '\t')
			e++;
		size_t len = (size_t)(e - p);
		bool done = false;

		if (len > 3 && (!strncmp(p, "fg=", 3) || !strncmp(p, "bg=", 3))) {
			short c;
			if (parse_colour(p + 3, len - 3, &c)) {
				snprintf(err, errlen,
					 "unknown colour '%.*s' (black, red, ..., "
					 "brightwhite, colour0-255, #rrggbb, default)",
					 (int)(len - 3), p + 3);
				return -EINVAL;
			}
			if (p[0] == 'f')
				out.fg = c;
			else
				out.bg = c;
			done = true;
		} else if ((len == 4 && !strncmp(p, "none", 4)) ||
			   (len == 7 && !strncmp(p, "default", 7))) {
			out.attrs = 0;
			done = true;
		} else {
			bool neg = len > 2 && !strncmp(p, "no", 2);
			const char *a = neg ? p + 2 : p;
			size_t alen = neg ? len - 2 : len;
			for (size_t i = 0; i < NATTR_NAMES; i++)
				if (strlen(attr_names[i].name) == alen &&
				    !strncmp(a, attr_names[i].name, alen)) {
					if (neg)
						out.attrs &= ~attr_names[i].attr;
					else
						out.attrs |= attr_names[i].attr;
					done = true;
				}
		}
		if (!done) {
			snprintf(err, errlen,
				 "unknown style '%.*s' (fg=, bg=, bold, dim, "
				 "underscore, blink, reverse, italics, none)",
				 (int)len, p);
			return -EINVAL;
		}
		p = e;
	}
	*st = out;
	return 0;
}

static void fmt_colour(short c, char *buf, size_t len)
{
	if (c == UI_COLOUR_DEFAULT)
		snprintf(buf, len, "default");
	else if (c >= 0 && (size_t)c < NCOLOUR_NAMES)
		snprintf(buf, len, "%s", colour_names[c]);
	else
		snprintf(buf, len, "colour%d", c);
}

char *theme_fmt_style(const struct ui_style *st, char *buf, size_t len)
{
	struct strbuf b = {0};
	char c[32], *s;

	if (st->fg != UI_COLOUR_DEFAULT) {
		fmt_colour(st->fg, c, sizeof(c));
		strbuf_add(&b, "fg=%s", c);
	}
	if (st->bg != UI_COLOUR_DEFAULT) {
		fmt_colour(st->bg, c, sizeof(c));
		strbuf_add(&b, "%sbg=%s", b.len ? "," : "", c);
	}
	/* the first spelling of each attribute in attr_names is the canonical one */
	unsigned seen = 0;
	for (size_t i = 0; i < NATTR_NAMES; i++) {
		if (!(st->attrs & attr_names[i].attr) || (seen & attr_names[i].attr))
			continue;
		seen |= attr_names[i].attr;
		strbuf_add(&b, "%s%s", b.len ? "," : "", attr_names[i].name);
	}
	s = strbuf_take(&b);
	snprintf(buf, len, "%s", !s ? "" : *s ? s : "default");
	free(s);
	return buf;
}

void theme_builtin(struct theme *t)
{
	char err[DB_ERR_LEN];

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "built-in");
	for (int r = 0; r < ROLE_COUNT; r++)
		if (theme_parse_style(ui_role_info[r].builtin, &t->role[r], err, sizeof(err)))
			t->role[r] = (struct ui_style){UI_COLOUR_DEFAULT, UI_COLOUR_DEFAULT, 0};
}

int theme_role_find(const char *name)
{
	for (int r = 0; r < ROLE_COUNT; r++)
		if (!strcmp(ui_role_info[r].name, name))
			return r;
	return -1;
}

int theme_parse(struct theme *t, const char *text, const char *fname, theme_warn_fn warn,
		void *warn_arg, char *err, size_t errlen)
{
	struct theme out;
	struct lines lines;
	char *copy, *s, msg[DB_ERR_LEN], serr[DB_ERR_LEN];
	bool seen[ROLE_COUNT] = {false};
	int ret = 0;

	theme_builtin(&out);
	copy = strdup(text);
	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", fname);
		return -ENOMEM;
	}
	/* '#' starts a comment at the start of a line or after a blank; "fg=#rrggbb" */
	lines_init(&lines, copy, "#");
	while ((s = lines_next(&lines))) {
		unsigned lineno = lines.lineno;
		char *key, *val;
		if (!strchr(s, '=')) {
			snprintf(err, errlen, "%s:%u: expected 'role = style', got '%s'", fname,
				 lineno, s);
			ret = -EINVAL;
			goto free_copy;
		}
		lines_split(s, &key, &val);
		if (!*key) {
			snprintf(err, errlen, "%s:%u: missing role name before '='", fname, lineno);
			ret = -EINVAL;
			goto free_copy;
		}
		if (strpbrk(key, " \t")) {
			snprintf(err, errlen, "%s:%u: expected 'role = style', got '%s'", fname,
				 lineno, key);
			ret = -EINVAL;
			goto free_copy;
		}
		int role = theme_role_find(key);
		if (role < 0) {
			if (warn) {
				snprintf(msg, sizeof(msg), "%s:%u: unknown role '%s' ignored",
					 fname, lineno, key);
				warn(warn_arg, msg);
			}
			continue;
		}
		if (seen[role]) {
			snprintf(err, errlen, "%s:%u: role '%s' given twice", fname, lineno, key);
			ret = -EINVAL;
			goto free_copy;
		}
		seen[role] = true;
		if (!*val) {
			snprintf(err, errlen, "%s:%u: role '%s' has no style", fname, lineno, key);
			ret = -EINVAL;
			goto free_copy;
		}
		if (theme_parse_style(val, &out.role[role], serr, sizeof(serr))) {
			snprintf(err, errlen, "%s:%u: %s", fname, lineno, serr);
			ret = -EINVAL;
			goto free_copy;
		}
	}
	snprintf(out.name, sizeof(out.name), "%s", t->name[0] ? t->name : "");
	*t = out;
free_copy:
	free(copy);
	return ret;
}

/* "/x/y/light.theme" -> "light" (a file name can hold any bytes: repaired) */
static void name_from_path(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	char tmp[256];
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 6 && !strcmp(base + n - 6, ".theme"))
		n -= 6;
	snprintf(tmp, sizeof(tmp), "%.*s", (int)n, base);
	text_copy(name, len, tmp);
}

int theme_load_file(struct theme *t, const char *path, theme_warn_fn warn, void *warn_arg,
		    char *err, size_t errlen)
{
	char *text;
	size_t len;
	int ret;

	/* a regular file only (a FIFO would block the TUI's start), of a theme's size */
	ret = fileio_read(path, "a theme", THEME_MAX_BYTES, &text, &len, err, errlen);
	if (ret)
		return ret;
	if (memchr(text, '\0', len)) {
		text_fmt(err, errlen, "%s: not a text file", path);
		free(text);
		return -EINVAL;
	}
	if (text_utf8_fix_buf(&text, &len)) {
		text_fmt(err, errlen, "%s: out of memory", path);
		free(text);
		return -ENOMEM;
	}
	t->name[0] = '\0';
	ret = theme_parse(t, text, path, warn, warn_arg, err, errlen);
	if (!ret) {
		name_from_path(path, t->name, sizeof(t->name));
		snprintf(t->path, sizeof(t->path), "%s", path);
	}
	free(text);
	return ret;
}

unsigned theme_dirs(char dirs[][4096], unsigned max)
{
	unsigned n = 0;
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (n < max && xdg && *xdg)
		snprintf(dirs[n++], 4096, "%s/drivebench/themes", xdg);
	else if (n < max && home && *home)
		snprintf(dirs[n++], 4096, "%s/.config/drivebench/themes", home);
	if (n < max)
		snprintf(dirs[n++], 4096, "%s/themes", db_datadir());
	return n;
}

int theme_load(struct theme *t, const char *name, theme_warn_fn warn, void *warn_arg, char *err,
	       size_t errlen)
{
	char dirs[4][4096], path[4200], *searched;
	struct strbuf b = {0};
	unsigned n;

	if (strchr(name, '/'))
		return theme_load_file(t, name, warn, warn_arg, err, errlen);
	n = theme_dirs(dirs, 4);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.theme", dirs[i], name);
		if (access(path, F_OK) == 0) {
			free(strbuf_take(&b)); /* the places searched before */
			return theme_load_file(t, path, warn, warn_arg, err, errlen);
		}
		strbuf_add(&b, "%s%s", i ? ", " : "", dirs[i]);
	}
	searched = strbuf_take(&b);
	snprintf(err, errlen, "no theme '%s' (searched %s)", name, searched ? searched : "");
	free(searched);
	return -ENOENT;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

unsigned theme_list(char names[][64], unsigned max)
{
	char dirs[4][4096];
	unsigned ndirs = theme_dirs(dirs, 4), n = 0;

	for (unsigned i = 0; i < ndirs; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;
		if (!d)
			continue;
		while ((de = readdir(d)) && n < max) {
			size_t l = strlen(de->d_name);
			if (l <= 6 || strcmp(de->d_name + l - 6, ".theme") || de->d_name[0] == '.')
				continue;
			char nm[64];
			name_from_path(de->d_name, nm, sizeof(nm));
			bool dup = false;
			for (unsigned j = 0; j < n; j++)
				dup |= !strcmp(names[j], nm);
			if (!dup)
				memcpy(names[n++], nm, sizeof(nm));
		}
		closedir(d);
	}
	qsort(names, n, sizeof(names[0]), cmp_name);
	return n;
}

void theme_strip_colours(struct theme *t)
{
	for (int r = 0; r < ROLE_COUNT; r++) {
		/* a role that was told apart only by its background stays visible */
		if (t->role[r].bg != UI_COLOUR_DEFAULT && !(t->role[r].attrs & UI_A_REVERSE))
			t->role[r].attrs |= UI_A_REVERSE;
		t->role[r].fg = UI_COLOUR_DEFAULT;
		t->role[r].bg = UI_COLOUR_DEFAULT;
	}
}
