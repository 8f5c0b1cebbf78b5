// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Typed values over the pull reader (json_read.h): counts, rates, strings, flags and
 * names, strict about types and ranges, each error naming the value's key and worded as
 * the format's style says.
 */
#include "json_read.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct jread_style plain;

static const struct jread_style *style(const struct jread *j)
{
	return j->style ? j->style : &plain;
}

int jread_bad(struct jread *j, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int ret;

	if (j->ret)
		return j->ret;
	va_start(ap, fmt);
	if (style(j)->bad) {
		vsnprintf(msg, sizeof(msg), fmt, ap);
		ret = style(j)->bad(j, msg);
	} else {
		ret = jread_vfail(j, fmt, ap);
	}
	va_end(ap);
	return ret;
}

void jread_wrong_type(struct jread *j, const char *key, const char *what)
{
	const struct jread_style *s = style(j);

	/* not a value at all (NaN, Infinity, garbage): the syntax error, unless a type's */
	if (!s->bad_is_type && jread_peek(j) == JR_BAD)
		jread_skip(j);
	if (s->is_not)
		jread_bad(j, "\"%s\" is not %s", key, what);
	else
		jread_bad(j, "\"%s\" should be %s", key, what);
}

/*
 * Counts, sizes and times: whole, from 0 to 2^64-1 (1e3 is one; 1.5 is refused, where
 * json-c dropped the fraction and a file's counts then disagreed with themselves). Rates, means,
 * percentages: finite and not negative. Anything else is an error naming the key: a negative count
 * does not read silently as 0.
 */
bool jread_check_u64(struct jread *j, const char *key, const struct jread_num *n, uint64_t *v)
{
	const char *why = jread_num_u64(n, v);

	if (why)
		jread_bad(j, "\"%s\" %s", key, why);
	return !why;
}

bool jread_check_double(struct jread *j, const char *key, const struct jread_num *n, double *v)
{
	const char *why = jread_num_double(n, v);

	if (why)
		jread_bad(j, "\"%s\" %s", key, why);
	return !why;
}

uint64_t jread_get_u64(struct jread *j, const char *key)
{
	struct jread_num n;
	uint64_t v = 0;

	if (jread_null(j))
		return 0;
	if (jread_number(j, &n))
		jread_wrong_type(j, key, "a number");
	else
		jread_check_u64(j, key, &n, &v);
	return v;
}

unsigned jread_get_uint(struct jread *j, const char *key)
{
	uint64_t v = jread_get_u64(j, key);

	if (v > UINT_MAX) {
		jread_bad(j, "\"%s\" is out of range (0 to %u)", key, UINT_MAX);
		return 0;
	}
	return (unsigned)v;
}

double jread_get_double(struct jread *j, const char *key)
{
	struct jread_num n;
	double v = 0;

	if (jread_null(j))
		return 0;
	if (jread_number(j, &n))
		jread_wrong_type(j, key, "a number");
	else
		jread_check_double(j, key, &n, &v);
	return v;
}

void jread_get_string(struct jread *j, const char *key, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!style(j)->null_string && jread_null(j))
		return;
	if (jread_string(j, buf, len))
		jread_wrong_type(j, key, "a string");
}

bool jread_get_bool(struct jread *j, const char *key)
{
	bool v = false;

	if (jread_null(j))
		return false;
	if (jread_bool(j, &v))
		jread_wrong_type(j, key, "true or false");
	return v;
}

int jread_get_enum(struct jread *j, const char *key, const char *const *names, size_t n, int dflt)
{
	char s[64];

	if (jread_null(j))
		return dflt;
	if (jread_string(j, s, sizeof(s))) {
		jread_wrong_type(j, key, "a string");
		return dflt;
	}
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	jread_bad(j, "unknown %s \"%s\"", key, s);
	return dflt;
}

bool jread_get_object(struct jread *j, const char *key)
{
	if (jread_peek(j) == JR_OBJECT)
		return jread_object(j);
	jread_wrong_type(j, key, "an object");
	return false;
}

bool jread_get_array(struct jread *j, const char *key)
{
	if (jread_peek(j) == JR_ARRAY)
		return jread_array(j);
	jread_wrong_type(j, key, "an array");
	return false;
}
