// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strings from outside: UTF-8 checked, repaired and cut on character boundaries, and
 * escaped for terminals, HTML/SVG and Markdown (text.h).
 */
#include "text.h"

#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "fileio.h"

size_t text_utf8_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t need;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0; /* no overlongs */
		if (c == 0xed)
			hi = 0x9f; /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f; /* nothing past U+10FFFF */
	} else {
		*cp = TEXT_BAD;
		return 1;
	}
	for (size_t i = 1; i <= need; i++) {
		if (i >= n || p[i] < lo || p[i] > hi) {
			*cp = TEXT_BAD;
			return i;
		}
		v = (v << 6) | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}

bool text_utf8_valid(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		/* ASCII eight bytes at a time: most of a result file */
		if (len - i >= 8) {
			uint64_t w;
			memcpy(&w, s + i, 8);
			if (!(w & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		if (!((unsigned char)s[i] & 0x80)) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t l = text_utf8_next(s + i, len - i, &cp);
		if (cp == TEXT_BAD)
			return false;
		i += l;
	}
	return true;
}

char *text_utf8_repair(const char *s, size_t len, size_t *outlen)
{
	size_t bad = 0, i = 0, o = 0;
	uint32_t cp;
	char *out;

	/* each ill-formed subpart (at least one byte) grows to at most three */
	for (i = 0; i < len;) {
		size_t l = text_utf8_next(s + i, len - i, &cp);
		bad += cp == TEXT_BAD;
		i += l;
	}
	out = malloc(len + 2 * bad + 1);
	if (!out)
		return NULL;
	for (i = 0; i < len;) {
		size_t l = text_utf8_next(s + i, len - i, &cp);
		if (cp == TEXT_BAD) {
			memcpy(out + o, TEXT_REPLACEMENT, 3);
			o += 3;
		} else {
			memcpy(out + o, s + i, l);
			o += l;
		}
		i += l;
	}
	out[o] = '\0';
	if (outlen)
		*outlen = o;
	return out;
}

int text_utf8_fix_buf(char **s, size_t *len)
{
	if (text_utf8_valid(*s, *len))
		return 0;
	size_t n;
	char *fixed = text_utf8_repair(*s, *len, &n);
	if (!fixed)
		return -ENOMEM;
	free(*s);
	*s = fixed;
	*len = n;
	return 0;
}

const char *text_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

size_t text_copy(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0, i = 0, o = 0;

	if (!size)
		return 0;
	while (i < n) {
		uint32_t cp;
		size_t l = text_utf8_next(src + i, n - i, &cp);
		const char *put = cp == TEXT_BAD ? TEXT_REPLACEMENT : src + i;
		size_t plen = cp == TEXT_BAD ? 3 : l;
		if (o + plen >= size)
			break;
		memmove(dst + o, put, plen);
		o += plen;
		i += l;
	}
	dst[o] = '\0';
	return o;
}

void text_fix(char *buf, size_t size)
{
	char small[512], *tmp = small;
	size_t n = strnlen(buf, size);

	if (n == size)
		buf[--n] = '\0';
	if (text_utf8_valid(buf, n))
		return;
	if (n + 1 > sizeof(small) && !(tmp = malloc(n + 1))) {
		/* no memory for the repair: keep the ASCII prefix, which is well-formed */
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)buf[i] >= 0x80) {
				buf[i] = '\0';
				break;
			}
		return;
	}
	memcpy(tmp, buf, n + 1);
	text_copy(buf, size, tmp);
	if (tmp != small)
		free(tmp);
}

/* Where the character holding byte i starts (i inside a well-formed string). */
static size_t char_start(const char *s, size_t i)
{
	size_t back = 0;
	while (i > 0 && back < 3 && ((unsigned char)s[i] & 0xc0) == 0x80) {
		i--;
		back++;
	}
	return i;
}

void text_cut(char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return;
	s[char_start(s, max)] = '\0';
}

int text_fmt(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(dst, size, fmt, ap);
	va_end(ap);
	if (n < 0) {
		dst[0] = '\0';
		return n;
	}
	if ((size_t)n >= size) {
		/* the last character may have been cut: drop it unless it is whole */
		size_t end = size - 1, start = char_start(dst, end > 0 ? end - 1 : 0);
		uint32_t cp;
		if (end > 0 && text_utf8_next(dst + start, end - start, &cp) != end - start)
			dst[start] = '\0';
		else if (end > 0 && cp == TEXT_BAD)
			dst[start] = '\0';
	}
	return n;
}

/* C.UTF-8's character classes, for wcwidth() in any locale; (locale_t)0 when missing. */
static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_locale_open(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/*
 * Columns as the TUI counts them (wcwidth() in a UTF-8 locale, 1 for what it cannot
 * say), whatever the caller's locale: a table of the CLI's lines up as on screen.
 */
size_t text_width(const char *s)
{
	size_t n = 0, len = strlen(s);
	locale_t old = (locale_t)0;

	pthread_once(&utf8_once, utf8_locale_open);
	if (utf8_locale)
		old = uselocale(utf8_locale);
	while (len) {
		uint32_t cp;
		size_t l = text_utf8_next(s, len, &cp);
		int w = utf8_locale && cp != TEXT_BAD ? wcwidth((wchar_t)cp) : 1;

		n += w < 0 ? 1 : (size_t)w;
		s += l;
		len -= l;
	}
	if (utf8_locale)
		uselocale(old);
	return n;
}

bool text_is_hidden(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || /* C0, DEL, C1 */
	       (cp >= 0x202a && cp <= 0x202e) ||	 /* bidirectional embeddings */
	       (cp >= 0x2066 && cp <= 0x2069) ||	 /* and isolates */
	       (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe || /* non-characters */
	       cp == TEXT_BAD;
}

/*
 * The visible form of the character at s (n bytes available) into out (at least 4 bytes):
 * its length there. *used is how many input bytes it took.
 */
static size_t visible_char(const char *s, size_t n, char *out, size_t *used)
{
	uint32_t cp;
	size_t l = text_utf8_next(s, n, &cp);

	*used = l;
	if (!text_is_hidden(cp)) {
		memcpy(out, s, l);
		return l;
	}
	if (cp < 0x20 || cp == 0x7f) {
		out[0] = '^';
		out[1] = cp == 0x7f ? '?' : (char)(cp + 0x40);
		return 2;
	}
	memcpy(out, TEXT_REPLACEMENT, 3);
	return 3;
}

size_t text_visible(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0, i = 0, o = 0;

	if (!size)
		return 0;
	while (i < n) {
		char c[4];
		size_t used, l = visible_char(src + i, n - i, c, &used);
		if (o + l >= size)
			break;
		memcpy(dst + o, c, l);
		o += l;
		i += used;
	}
	dst[o] = '\0';
	return o;
}

char *text_visible_dup(const char *src)
{
	size_t n = src ? strlen(src) : 0;
	/* every byte grows to at most three ("^[" is two; U+FFFD three) */
	char *out = malloc(3 * n + 1);

	if (out)
		text_visible(out, 3 * n + 1, src);
	return out;
}

void text_fput_visible(FILE *out, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	for (size_t i = 0; i < n;) {
		char c[4];
		size_t used, l = visible_char(src + i, n - i, c, &used);
		fwrite(c, 1, l, out);
		i += used;
	}
}

void text_fput_xml(FILE *out, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	for (size_t i = 0; i < n;) {
		char c[4];
		size_t used, l = visible_char(src + i, n - i, c, &used);
		i += used;
		if (l == 1) {
			switch (c[0]) {
			case '&':
				fputs("&amp;", out);
				continue;
			case '<':
				fputs("&lt;", out);
				continue;
			case '>':
				fputs("&gt;", out);
				continue;
			case '"':
				fputs("&quot;", out);
				continue;
			case '\'':
				fputs("&#39;", out);
				continue;
			}
		}
		fwrite(c, 1, l, out);
	}
}

/*
 * Markdown: the characters that can open or close an inline construct (emphasis, code,
 * links, strike-through, raw HTML, a table cell) are escaped everywhere. At the start of
 * a line (line_start: a list item, a line of its own) so are those that would make it a
 * block: a heading ("# "), a list item ("- ", "+ ", "12. ", "7) "), a thematic break.
 */
void text_fput_md(FILE *out, const char *src, bool line_start)
{
	char *v = text_visible_dup(src);
	size_t i = 0, n;

	if (!v)
		return;
	n = strlen(v);
	if (line_start) {
		while (i < n && v[i] == ' ')
			fputc(v[i++], out);
		size_t d = i;
		while (d < n && d - i < 9 && v[d] >= '0' && v[d] <= '9')
			d++;
		char next = i + 1 < n ? v[i + 1] : ' ';
		bool ends = next == ' ' || next == '\t';
		if (i < n && ((v[i] == '#' && (ends || next == '#')) ||
			      ((v[i] == '-' || v[i] == '+') && (ends || next == v[i])))) {
			fputc('\\', out);
			fputc(v[i++], out);
		} else if (d > i && d < n && (v[d] == '.' || v[d] == ')') &&
			   (d + 1 == n || v[d + 1] == ' ')) {
			fwrite(v + i, 1, d - i, out);
			fputc('\\', out);
			fputc(v[d], out);
			i = d + 1;
		}
	}
	for (; i < n; i++) {
		switch (v[i]) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '\\':
		case '`':
		case '*':
		case '_':
		case '[':
		case ']':
		case '|':
		case '~':
			fputc('\\', out);
			fputc(v[i], out);
			break;
		default:
			fputc(v[i], out);
		}
	}
	free(v);
}

/* ---- a filtering stream for terminals ------------------------------------------- */

struct filter {
	bool used;
	int fd;
	char held[4]; /* the start of a character whose end has not been written yet */
	size_t nheld;
};

/* The visible form of buf, newlines kept; an incomplete last character is held back. */
static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct filter *f = cookie;
	char out[4096];
	size_t o = 0, i = 0;

	while (i < size || f->nheld) {
		char in[8];
		size_t n = 0, avail;
		const char *s;
		if (f->nheld) {
			/* a held character with what follows it */
			n = f->nheld;
			memcpy(in, f->held, n);
			while (n < 4 && i < size)
				in[n++] = buf[i++];
			s = in;
			avail = n;
			f->nheld = 0;
		} else {
			s = buf + i;
			avail = size - i;
		}
		uint32_t cp;
		size_t l = text_utf8_next(s, avail, &cp);
		if (cp == TEXT_BAD && l == avail && avail < 4 && (unsigned char)s[0] >= 0xc2) {
			/* possibly the start of a character cut by the stdio buffer */
			memcpy(f->held, s, avail);
			f->nheld = avail;
			if (s != in)
				i = size;
			break;
		}
		char c[4];
		size_t used, cl;
		if (s[0] == '\n') {
			c[0] = '\n';
			cl = used = 1;
		} else {
			cl = visible_char(s, avail, c, &used);
		}
		if (s == in) {
			/* bytes of `in` past the character go back to buf */
			i -= n - used;
		} else {
			i += used;
		}
		if (o + cl > sizeof(out)) {
			if (fileio_write_all(f->fd, out, o))
				return -1;
			o = 0;
		}
		memcpy(out + o, c, cl);
		o += cl;
	}
	if (o && fileio_write_all(f->fd, out, o))
		return -1;
	return (ssize_t)size;
}

/*
 * The state lives here, not on the heap: standard error is never closed (exit only
 * flushes it), and a leak checker would count an allocation that lives until then.
 */
static struct filter filters[2];
static pthread_mutex_t filters_lock = PTHREAD_MUTEX_INITIALIZER;

static int filter_close(void *cookie)
{
	struct filter *f = cookie;

	if (f->nheld)
		fileio_write_all(f->fd, TEXT_REPLACEMENT, 3);
	f->nheld = 0;
	pthread_mutex_lock(&filters_lock);
	f->used = false;
	pthread_mutex_unlock(&filters_lock);
	return 0;
}

FILE *text_filter_stream(int fd)
{
	static const cookie_io_functions_t io = {.write = filter_write, .close = filter_close};
	struct filter *f = NULL;
	FILE *out;

	pthread_mutex_lock(&filters_lock);
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]) && !f; i++)
		if (!filters[i].used) {
			f = &filters[i];
			f->used = true;
			f->fd = fd;
			f->nheld = 0;
		}
	pthread_mutex_unlock(&filters_lock);
	if (!f)
		return NULL;
	out = fopencookie(f, "w", io);
	if (!out) {
		filter_close(f);
		return NULL;
	}
	setvbuf(out, NULL, _IOLBF, BUFSIZ);
	return out;
}
