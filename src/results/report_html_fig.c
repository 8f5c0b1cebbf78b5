// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How the HTML report's charts reach the page (report_html.h): inline, and with compare
 * --charts as standalone files under stable names, linked from their figures; and the
 * page's table of contents over its sections' headings.
 */
#include "report_html.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

char *html_slug(char *buf, size_t len, const char *s)
{
	size_t n = 0;
	bool dash = false;

	for (; *s && n + 1 < len; s++) {
		if (*s == '&' && strchr(s, ';')) {
			s = strchr(s, ';');
			dash = n > 0;
			continue;
		}
		if (!isascii((unsigned char)*s) || !isalnum((unsigned char)*s)) {
			dash = n > 0;
			continue;
		}
		if (dash && n + 2 < len)
			buf[n++] = '-';
		dash = false;
		buf[n++] = (char)tolower((unsigned char)*s);
	}
	buf[n] = '\0';
	if (!n)
		snprintf(buf, len, "chart");
	return buf;
}

/* Make s (of size bytes) differ from the n names taken: "-2", "-3" ... appended. */
static void uniquify(char *s, size_t size, char *const *taken, unsigned n)
{
	size_t base = strlen(s);

	if (base > size - 8)
		s[base = size - 8] = '\0';
	for (unsigned k = 2;; k++) {
		bool clash = false;
		for (unsigned i = 0; i < n && !clash; i++)
			clash = !strcmp(taken[i], s);
		if (!clash)
			return;
		snprintf(s + base, size - base, "-%u", k);
	}
}

/* Make name unique among *names (uniquify), and add a copy of it. 0 or -ENOMEM. */
static int name_add(char ***names, unsigned *n, char *name, size_t size)
{
	char **more = realloc(*names, (*n + 1) * sizeof(*more));

	if (!more)
		return -ENOMEM;
	*names = more;
	uniquify(name, size, *names, *n);
	if (!(more[*n] = strdup(name)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

void report_charts_free(struct report_charts *ch)
{
	for (unsigned i = 0; i < ch->nstems; i++)
		free(ch->stems[i]);
	free(ch->stems);
	ch->stems = NULL;
	ch->nstems = 0;
}

/* A path in an href: RFC 3986's unreserved characters and '/' as they are, the rest %XX. */
static void put_href(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (isascii(c) && (isalnum(c) || strchr("/-._~", c)))
			fputc(c, out);
		else
			fprintf(out, "%%%02X", c);
	}
}

int html_svg(FILE *out, const struct report *rep, html_draw_fn draw, const struct chart *c,
	     const char *section, const char *what)
{
	struct report_charts *ch = rep->charts;
	char stem[160], *svg = NULL;
	size_t len = 0, n;
	FILE *mem;
	int ret;

	if (!ch) {
		draw(out, c);
		return 0;
	}
	html_slug(stem, sizeof(stem) / 2, section);
	n = strlen(stem);
	stem[n] = '-';
	html_slug(stem + n + 1, sizeof(stem) - n - 1, what);
	if ((ret = name_add(&ch->stems, &ch->nstems, stem, sizeof(stem))))
		return ret;
	if (!(mem = open_memstream(&svg, &len)))
		return -errno;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", mem);
	size_t body = (size_t)ftell(mem);
	draw(mem, c);
	if (fclose(mem)) {
		free(svg);
		return -ENOMEM;
	}
	fwrite(svg + body, 1, len - body, out);
	ret = ch->write(ch->ctx, stem, svg, len);
	free(svg);
	fputs("<p class=\"files\">Chart files: ", out);
	for (unsigned i = 0; i < 2; i++) {
		const char *ext = i ? "png" : "svg";
		fputs(i ? ", <a href=\"" : "<a href=\"", out);
		if (ch->href && ch->href[0]) {
			put_href(out, ch->href);
			fputc('/', out);
		}
		fprintf(out, "%s.%s\">%s.%s</a>", stem, ext, stem, ext);
	}
	fputs("</p>\n", out);
	return ret;
}

/* Heading text (len bytes, escaped) as a unique id among *ids; NULL when out of memory. */
static const char *anchor_add(char ***ids, unsigned *n, const char *text, size_t len)
{
	char *t = strndup(text, len), id[96];

	if (!t)
		return NULL;
	html_slug(id, sizeof(id), t);
	free(t);
	return name_add(ids, n, id, sizeof(id)) ? NULL : (*ids)[*n - 1];
}

int html_page(FILE *out, const char *body, size_t len)
{
	static const char open[] = "<h2>", close[] = "</h2>";
	char **ids = NULL;
	unsigned nids = 0;
	const char *end = body + len;
	int ret = 0;

	/* the contents: each heading's text (already escaped) linking its anchor */
	fputs("<nav class=\"toc\"><h2>Contents</h2>\n<ol>\n", out);
	for (const char *p = body; (p = memmem(p, (size_t)(end - p), open, 4)); ) {
		const char *t = p + 4, *e = memmem(t, (size_t)(end - t), close, 5);
		const char *id;
		if (!e)
			break;
		if (!(id = anchor_add(&ids, &nids, t, (size_t)(e - t)))) {
			ret = -ENOMEM;
			break;
		}
		fprintf(out, "<li><a href=\"#%s\">%.*s</a></li>\n", id, (int)(e - t), t);
		p = e + 5;
	}
	fputs("</ol>\n</nav>\n", out);
	/* the body, each heading with the same id */
	unsigned k = 0;
	const char *p = body;
	for (const char *h; !ret && (h = memmem(p, (size_t)(end - p), open, 4)) && k < nids; k++) {
		fwrite(p, 1, (size_t)(h - p), out);
		fprintf(out, "<h2 id=\"%s\">", ids[k]);
		p = h + 4;
	}
	fwrite(p, 1, (size_t)(end - p), out);
	for (unsigned i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	return ret;
}
