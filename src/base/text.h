/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TEXT_H
#define DB_TEXT_H
/*
 * Strings from outside: result files, presets, themes, spec sheets, sysfs attributes,
 * file names. They are checked and repaired once, where they enter (every ill-formed
 * UTF-8 sequence becomes U+FFFD), cut only on character boundaries, and escaped for the
 * output they go to:
 *
 *   visible   terminals (text reports, listings, messages): control characters are shown,
 *             never sent. C0 controls and DEL in caret notation (ESC is "^[", a newline
 *             "^J", DEL "^?"); C1 controls, bidirectional overrides and isolates, and
 *             non-characters as U+FFFD. Everything else passes unchanged.
 *   xml       HTML and SVG: the visible form, with & < > " ' as entities.
 *   md        Markdown table cells and list items: the visible form, with < > & as
 *             entities and Markdown's punctuation backslash-escaped, so no string starts
 *             a heading, a list, a link, emphasis or an HTML block, or ends a table cell.
 *
 * Nothing here allocates except the *_dup and *_repair functions, which return NULL when
 * out of memory.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TEXT_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD, the replacement character */
#define TEXT_BAD	 0xffffffffu	/* what text_utf8_next() decodes an ill-formed byte to */

/*
 * Decode the character at s (n > 0 bytes available): its length in bytes and, in *cp, its
 * code point, or TEXT_BAD for an ill-formed sequence (then the length is that of its
 * maximal ill-formed subpart, as Unicode's "substitution of maximal subparts" wants).
 */
size_t text_utf8_next(const char *s, size_t n, uint32_t *cp);
/* Whether s[0..len) is well-formed UTF-8 (RFC 3629: no overlongs, surrogates, > U+10FFFF). */
bool text_utf8_valid(const char *s, size_t len);
/*
 * s[0..len) with every ill-formed sequence replaced by U+FFFD: malloc'd, NUL-terminated,
 * its length in *outlen (may be NULL). NULL when out of memory.
 */
char *text_utf8_repair(const char *s, size_t len, size_t *outlen);
/* A buffer in place: when s[0..*len) is not well-formed, replaced by its repair. 0/-ENOMEM. */
int text_utf8_fix_buf(char **s, size_t *len);

/*
 * Copy src into dst (size > 0 bytes), repaired, cut on a character boundary so that it
 * fits; always NUL-terminated. Returns the bytes written.
 */
size_t text_copy(char *dst, size_t size, const char *src);
/* text_copy() of a fixed buffer onto itself: repaired and terminated within size bytes. */
void text_fix(char *buf, size_t size);
/* A path's last part: what follows its last '/' (the path itself when it has none). */
const char *text_base_name(const char *path);
/* Cut a well-formed string to at most max bytes, on a character boundary. */
void text_cut(char *s, size_t max);
/* snprintf() that cuts on a character boundary when the result does not fit. */
__attribute__((format(printf, 3, 4))) int text_fmt(char *dst, size_t size, const char *fmt, ...);

/*
 * Terminal columns of a well-formed string, as the TUI counts them (wcwidth() in a UTF-8
 * locale), in any locale: 2 a wide or fullwidth character, 0 a combining mark, 1 the rest.
 */
size_t text_width(const char *s);
/* Whether a code point is shown as something else (a control, an override, ...). */
bool text_is_hidden(uint32_t cp);

/* ---- escaping for outputs ------------------------------------------------------ */

/* The visible form of src into dst (size > 0), cut on a character boundary. */
size_t text_visible(char *dst, size_t size, const char *src);
/* The visible form, malloc'd; NULL when out of memory. */
char *text_visible_dup(const char *src);
void text_fput_visible(FILE *out, const char *src);
void text_fput_xml(FILE *out, const char *src);
/* line_start: the text begins a line or list item, where block syntax counts too. */
void text_fput_md(FILE *out, const char *src, bool line_start);

/*
 * A filter for a terminal stream: text written through it reaches fd in its visible
 * form, newlines kept. text_filter_stream() returns a line-buffered FILE doing that, or
 * NULL (at most two are open at a time: standard error is the one that matters). A
 * character cut between two writes is held back until its end arrives.
 */
FILE *text_filter_stream(int fd);

#endif
