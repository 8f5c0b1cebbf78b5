// SPDX-License-Identifier: GPL-2.0-or-later
/* A streaming JSON writer (json_write.h). */
#include "json_write.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "text.h"

void jwrite_init(struct jwrite *w, FILE *out, const char *indent)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->indent = indent;
	w->first[0] = true;
}

static void newline(struct jwrite *w)
{
	if (!w->indent || (w->depth && w->inline_[w->depth]))
		return;
	fputc('\n', w->out);
	for (unsigned i = 0; i < w->depth; i++)
		fputs(w->indent, w->out);
}

/* Before a value or a key: the separator from what came before at this level. */
static void before(struct jwrite *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->depth)
		return;
	if (!w->first[w->depth])
		fputc(',', w->out);
	if (w->inline_[w->depth]) {
		if (!w->first[w->depth])
			fputc(' ', w->out);
	} else {
		newline(w);
	}
	w->first[w->depth] = false;
}

static void begin(struct jwrite *w, char c, bool inline_)
{
	before(w);
	fputc(c, w->out);
	if (w->depth + 1 < JWRITE_MAX_DEPTH) {
		w->depth++;
		w->first[w->depth] = true;
		/* inside a one-line container everything stays on its line */
		w->inline_[w->depth] = inline_ || w->inline_[w->depth - 1];
	}
}

static void end(struct jwrite *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth) {
		w->depth--;
		if (!empty && !w->inline_[w->depth + 1])
			newline(w);
	}
	fputc(c, w->out);
}

void jwrite_begin_object(struct jwrite *w)
{
	begin(w, '{', false);
}

void jwrite_end_object(struct jwrite *w)
{
	end(w, '}');
}

void jwrite_begin_array(struct jwrite *w)
{
	begin(w, '[', false);
}

void jwrite_begin_array_inline(struct jwrite *w)
{
	begin(w, '[', true);
}

void jwrite_end_array(struct jwrite *w)
{
	end(w, ']');
}

static void put_string(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	fputc('"', out);
	for (size_t i = 0; i < n;) {
		/* runs that need nothing done */
		size_t k = i;
		while (k < n && (unsigned char)s[k] >= 0x20 && (unsigned char)s[k] < 0x7f &&
		       s[k] != '"' && s[k] != '\\')
			k++;
		if (k > i) {
			fwrite(s + i, 1, k - i, out);
			i = k;
			continue;
		}
		uint32_t cp;
		size_t l = text_utf8_next(s + i, n - i, &cp);
		if (cp == '"' || cp == '\\') {
			fputc('\\', out);
			fputc((char)cp, out);
		} else if (cp == '\n') {
			fputs("\\n", out);
		} else if (cp == '\t') {
			fputs("\\t", out);
		} else if (cp == TEXT_BAD) {
			fputs(TEXT_REPLACEMENT, out);
		} else if (text_is_hidden(cp)) {
			fprintf(out, "\\u%04x", (unsigned)cp);
		} else {
			fwrite(s + i, 1, l, out);
		}
		i += l;
	}
	fputc('"', out);
}

void jwrite_key(struct jwrite *w, const char *key)
{
	before(w);
	put_string(w->out, key);
	fputs(": ", w->out);
	w->after_key = true;
}

void jwrite_string(struct jwrite *w, const char *s)
{
	before(w);
	put_string(w->out, s);
}

void jwrite_u64(struct jwrite *w, uint64_t v)
{
	before(w);
	fprintf(w->out, "%llu", (unsigned long long)v);
}

void jwrite_i64(struct jwrite *w, int64_t v)
{
	before(w);
	fprintf(w->out, "%lld", (long long)v);
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

char *jwrite_fmt_double(char *buf, size_t len, double v)
{
	locale_t old = (locale_t)0;

	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return buf;
	}
	pthread_once(&c_locale_once, make_c_locale);
	if (c_locale)
		old = uselocale(c_locale);
	/* the shortest of 15, 16 or 17 significant digits that reads back as v */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	if (c_locale)
		uselocale(old);
	return buf;
}

void jwrite_double(struct jwrite *w, double v)
{
	char buf[40];

	before(w);
	fputs(jwrite_fmt_double(buf, sizeof(buf), v), w->out);
}

void jwrite_bool(struct jwrite *w, bool v)
{
	before(w);
	fputs(v ? "true" : "false", w->out);
}

void jwrite_null(struct jwrite *w)
{
	before(w);
	fputs("null", w->out);
}

void jwrite_json(struct jwrite *w, struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		jwrite_null(w);
		return;
	case json_type_boolean:
		jwrite_bool(w, json_object_get_boolean(o));
		return;
	case json_type_double:
		jwrite_double(w, json_object_get_double(o));
		return;
	case json_type_int:
		/* json-c keeps ints above INT64_MAX as unsigned */
		if (json_object_get_int64(o) == INT64_MAX)
			jwrite_u64(w, json_object_get_uint64(o));
		else
			jwrite_i64(w, json_object_get_int64(o));
		return;
	case json_type_string:
		jwrite_string(w, json_object_get_string(o));
		return;
	case json_type_object: {
		jwrite_begin_object(w);
		json_object_object_foreach(o, key, val)
		{
			jwrite_key(w, key);
			jwrite_json(w, val);
		}
		jwrite_end_object(w);
		return;
	}
	case json_type_array: {
		size_t n = json_object_array_length(o);
		jwrite_begin_array(w);
		for (size_t i = 0; i < n; i++)
			jwrite_json(w, json_object_array_get_idx(o, i));
		jwrite_end_array(w);
		return;
	}
	}
	jwrite_null(w);
}

int jwrite_finish(struct jwrite *w)
{
	fputc('\n', w->out);
	return ferror(w->out) ? -EIO : 0;
}

void jwrite_kstr(struct jwrite *w, const char *key, const char *v)
{
	jwrite_key(w, key);
	jwrite_string(w, v);
}

void jwrite_ku64(struct jwrite *w, const char *key, uint64_t v)
{
	jwrite_key(w, key);
	jwrite_u64(w, v);
}

void jwrite_kdbl(struct jwrite *w, const char *key, double v)
{
	jwrite_key(w, key);
	jwrite_double(w, v);
}
