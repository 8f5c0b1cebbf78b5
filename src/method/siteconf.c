// SPDX-License-Identifier: GPL-2.0-or-later
/* The site configuration file (siteconf.h): found, read and checked; applied by main(). */
#include "siteconf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "fileio.h"
#include "settings.h"

#define SITECONF_MAX_BYTES (64u << 10)

/* A key's value into c: NULL, or why it is refused. */
typedef const char *(*siteconf_set)(struct siteconf *c, const char *v, unsigned line);

static const char *absolute(const char *v, char *dst, size_t len)
{
	if (v[0] != '/')
		return "not an absolute path";
	if (strlen(v) >= len)
		return "a path too long";
	snprintf(dst, len, "%s", v);
	return NULL;
}

static const char *set_results(struct siteconf *c, const char *v, unsigned line)
{
	(void)line;
	return absolute(v, c->results, sizeof(c->results));
}

static const char *set_theme(struct siteconf *c, const char *v, unsigned line)
{
	if (strlen(v) >= sizeof(c->theme))
		return "a theme name too long";
	snprintf(c->theme, sizeof(c->theme), "%s", v);
	c->theme_line = line;
	return NULL;
}

static const char *set_busy_poll(struct siteconf *c, const char *v, unsigned line)
{
	enum engine_poll mode;

	(void)line;
	if (engine_poll_parse(v, &mode))
		return "busy-poll is auto, yes or no";
	snprintf(c->busy_poll, sizeof(c->busy_poll), "%s", v);
	return NULL;
}

static const char *set_library(struct siteconf *c, const char *v, unsigned line)
{
	(void)line;
	if (c->nlibrary == SITECONF_LIBRARY_MAX)
		return "more library entries than the limit (16)";
	const char *why = absolute(v, c->library[c->nlibrary], sizeof(c->library[0]));
	if (!why)
		c->nlibrary++;
	return why;
}

/* The keys; each but a repeatable one may be given once (a second is refused, not let win). */
static const struct {
	const char *key;
	siteconf_set set;
	bool repeatable;
} siteconf_keys[] = {
	{"results", set_results, false},
	{"theme", set_theme, false},
	{"busy-poll", set_busy_poll, false},
	{"library", set_library, true},
};
#define SITECONF_NKEYS (sizeof(siteconf_keys) / sizeof(siteconf_keys[0]))

/* Blanks off both ends of s, in place. */
static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/*
 * One line (not blank, not a comment): NULL, or why it is refused. first[k] is the line
 * key k was first given on (0: not yet).
 */
static const char *parse_line(struct siteconf *c, char *l, unsigned line, unsigned *first,
			      char *why, size_t len)
{
	char *eq = strchr(l, '=');

	if (!eq)
		return "expected 'key = value'";
	*eq = '\0';
	char *key = trim(l), *value = trim(eq + 1);
	if (!*value) {
		snprintf(why, len, "%s: no value", key);
		return why;
	}
	for (size_t i = 0; i < SITECONF_NKEYS; i++) {
		if (strcmp(key, siteconf_keys[i].key))
			continue;
		if (first[i] && !siteconf_keys[i].repeatable) {
			snprintf(why, len, "%s given twice (first on line %u)", key, first[i]);
			return why;
		}
		if (!first[i])
			first[i] = line;
		const char *bad = siteconf_keys[i].set(c, value, line);
		if (bad)
			snprintf(why, len, "%s: %s", key, bad);
		return bad ? why : NULL;
	}
	snprintf(why, len, "unknown key '%.64s' (results, theme, busy-poll, library)", key);
	return why;
}

/* The first drivebench.conf of $XDG_CONFIG_DIRS/drivebench, then /etc/drivebench. */
static int find_file(const struct settings *s, char *buf, size_t len)
{
	const char *dirs = s->config_dirs;
	char list[4096];
	char *save = NULL;

	snprintf(list, sizeof(list), "%s", dirs && *dirs ? dirs : "/etc/xdg");
	for (char *d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (d[0] != '/') /* relative entries are ignored, as the spec says */
			continue;
		snprintf(buf, len, "%s/drivebench/drivebench.conf", d);
		if (!access(buf, F_OK))
			return 0;
	}
	snprintf(buf, len, "/etc/drivebench/drivebench.conf");
	return access(buf, F_OK) ? -ENOENT : 0;
}

int siteconf_load(struct siteconf *c, const struct settings *s, char *err, size_t errlen)
{
	char *text = NULL, why[256];
	size_t len = 0;
	unsigned line = 0, first[SITECONF_NKEYS] = {0};
	int ret;

	memset(c, 0, sizeof(*c));
	if (find_file(s, c->path, sizeof(c->path))) {
		c->path[0] = '\0';
		return 0;
	}
	ret = fileio_read_text(c->path, "the site configuration", SITECONF_MAX_BYTES, &text, &len,
			       err, errlen);
	if (ret)
		return ret;
	/* a NUL would end a line early, and what follows it would go unread */
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		unsigned at = 1;
		for (const char *p = text; p < nul; p++)
			at += *p == '\n';
		snprintf(err, errlen, "%s:%u: binary data (a NUL byte): not a configuration",
			 c->path, at);
		free(text);
		return -EINVAL;
	}
	/* strsep, not strtok: empty lines count */
	for (char *rest = text, *l; (l = strsep(&rest, "\n"));) {
		const char *bad;
		line++;
		l = trim(l);
		if (!*l || *l == '#')
			continue;
		if ((bad = parse_line(c, l, line, first, why, sizeof(why)))) {
			snprintf(err, errlen, "%s:%u: %s", c->path, line, bad);
			ret = -EINVAL;
			break;
		}
	}
	free(text);
	return ret;
}
