// SPDX-License-Identifier: GPL-2.0-or-later
/* A pull reader for JSON in memory (json_read.h). */
#include "json_read.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

void jread_init(struct jread *j, const char *buf, size_t len, const char *file, char *err,
		size_t errlen)
{
	memset(j, 0, sizeof(*j));
	j->buf = j->p = buf;
	j->end = buf + len;
	j->file = file;
	j->err = err;
	j->errlen = errlen;
}

unsigned jread_line(const struct jread *j)
{
	unsigned line = 1;
	const char *stop = j->p < j->end ? j->p : j->end;

	for (const char *s = j->buf; (s = memchr(s, '\n', (size_t)(stop - s))); s++)
		line++;
	return line;
}

int jread_vfail(struct jread *j, const char *fmt, va_list ap)
{
	char msg[512];

	if (j->ret)
		return j->ret;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	text_fmt(j->err, j->errlen, "%s:%u: %s", j->file, jread_line(j), msg);
	j->ret = -EINVAL;
	return j->ret;
}

int jread_fail(struct jread *j, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = jread_vfail(j, fmt, ap);
	va_end(ap);
	return ret;
}

static int syntax(struct jread *j, const char *what)
{
	if (j->p >= j->end)
		return jread_fail(j, "not valid JSON: the file ends too early");
	return jread_fail(j, "not valid JSON: %s", what);
}

static void blanks(struct jread *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

enum jread_type jread_peek(struct jread *j)
{
	if (j->ret)
		return JR_BAD;
	blanks(j);
	if (j->p >= j->end)
		return JR_END;
	switch (*j->p) {
	case '{':
		return JR_OBJECT;
	case '[':
		return JR_ARRAY;
	case '"':
		return JR_STRING;
	case 't':
	case 'f':
		return JR_BOOL;
	case 'n':
		return JR_NULL;
	default:
		return *j->p == '-' || (*j->p >= '0' && *j->p <= '9') ? JR_NUMBER : JR_BAD;
	}
}

static bool open_nest(struct jread *j, char c, const char *what)
{
	if (jread_peek(j) == JR_BAD || j->p >= j->end || *j->p != c) {
		syntax(j, what);
		return false;
	}
	if (j->depth >= JREAD_MAX_DEPTH) {
		jread_fail(j, "nested deeper than %d levels", JREAD_MAX_DEPTH);
		return false;
	}
	j->p++;
	j->depth++;
	j->first = true;
	return true;
}

bool jread_object(struct jread *j)
{
	return open_nest(j, '{', "expected an object");
}

bool jread_array(struct jread *j)
{
	return open_nest(j, '[', "expected an array");
}

/* After a member or element: ',' (not before the first), or the closing character. */
static bool next_in(struct jread *j, char close)
{
	if (j->ret)
		return false;
	blanks(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		j->first = false;
		return false;
	}
	if (j->p >= j->end) {
		syntax(j, "");
		return false;
	}
	if (!j->first) {
		if (*j->p != ',') {
			syntax(j, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
			return false;
		}
		j->p++;
		blanks(j);
	}
	j->first = false;
	return true;
}

/* ---- strings ---------------------------------------------------------------------- */

static int hex4(const char *p, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The escape at p (a backslash) as the code point *cp: where it ends, or NULL with the
 * error recorded. An escaped surrogate pair is one code point; a lone surrogate or a NUL
 * reads as U+FFFD.
 */
static const char *escape(struct jread *j, const char *p, uint32_t *cp)
{
	if (p + 1 >= j->end) {
		j->p = p + 1;
		syntax(j, "a string does not end");
		return NULL;
	}
	switch (p[1]) {
	case '"':
	case '\\':
	case '/':
		*cp = (unsigned char)p[1];
		break;
	case 'b':
		*cp = '\b';
		break;
	case 'f':
		*cp = '\f';
		break;
	case 'n':
		*cp = '\n';
		break;
	case 'r':
		*cp = '\r';
		break;
	case 't':
		*cp = '\t';
		break;
	case 'u':
		if (j->end - p < 6 || hex4(p + 2, cp)) {
			j->p = p;
			syntax(j, "a bad \\u escape in a string");
			return NULL;
		}
		if (*cp >= 0xd800 && *cp <= 0xdbff && j->end - p >= 12 && p[6] == '\\' &&
		    p[7] == 'u') {
			uint32_t lo;
			if (!hex4(p + 8, &lo) && lo >= 0xdc00 && lo <= 0xdfff) {
				*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			}
		}
		/* a lone surrogate, or a NUL that would end the C string */
		if ((*cp >= 0xd800 && *cp <= 0xdfff) || *cp == 0)
			*cp = 0xfffd;
		p += 4;
		break;
	default:
		j->p = p;
		syntax(j, "a bad escape in a string");
		return NULL;
	}
	return p + 2;
}

/*
 * Decode the string at j->p into out (outlen bytes, NULL: only scan), cut on a character
 * boundary; *full is the decoded length it would need. 0 or the error.
 */
static int decode_string(struct jread *j, char *out, size_t outlen, size_t *full)
{
	const char *p = j->p + 1;
	size_t o = 0, need = 0;
	bool cut = false;

	if (jread_peek(j) != JR_STRING)
		return syntax(j, "expected a string");
	for (;;) {
		char c[4];
		size_t cl;
		/* runs of plain bytes at once */
		const char *q = p;
		while (q < j->end && *q != '"' && *q != '\\' && (unsigned char)*q < 0x80)
			q++;
		if (q > p) {
			size_t n = (size_t)(q - p);
			if (out && !cut) {
				size_t room = outlen - 1 - o;
				memcpy(out + o, p, n < room ? n : room);
				o += n < room ? n : room;
				cut = n > room;
			}
			need += n;
			p = q;
		}
		if (p >= j->end) {
			j->p = p;
			return syntax(j, "a string does not end");
		}
		if (*p == '"')
			break;
		if (*p == '\\') {
			uint32_t cp;
			if (!(p = escape(j, p, &cp)))
				return j->ret;
			cl = utf8_put(c, cp);
		} else {
			/* a multibyte character, repaired if ill-formed */
			uint32_t cp;
			size_t l = text_utf8_next(p, (size_t)(j->end - p), &cp);
			if (cp == TEXT_BAD) {
				memcpy(c, TEXT_REPLACEMENT, 3);
				cl = 3;
			} else {
				memcpy(c, p, l);
				cl = l;
			}
			p += l;
		}
		need += cl;
		if (out && !cut) {
			if (o + cl < outlen) {
				memcpy(out + o, c, cl);
				o += cl;
			} else {
				cut = true;
			}
		}
	}
	if (out)
		out[o] = '\0';
	if (full)
		*full = need;
	j->p = p + 1;
	return 0;
}

int jread_string(struct jread *j, char *buf, size_t len)
{
	if (j->ret)
		return j->ret;
	if (jread_peek(j) != JR_STRING)
		return -EINVAL;
	return decode_string(j, buf, len, NULL);
}

int jread_string_dup(struct jread *j, size_t max, char **out, size_t *len)
{
	const char *start;
	size_t need;
	int ret;

	*out = NULL;
	if (j->ret)
		return j->ret;
	if (jread_peek(j) != JR_STRING)
		return -EINVAL;
	start = j->p;
	ret = decode_string(j, NULL, 0, &need);
	if (ret)
		return ret;
	if (need > max) {
		j->p = start;
		jread_fail(j, "a string of %zu bytes, over the limit of %zu", need, max);
		j->ret = -E2BIG;
		return j->ret;
	}
	char *s = malloc(need + 1);
	if (!s) {
		jread_fail(j, "out of memory");
		j->ret = -ENOMEM;
		return j->ret;
	}
	j->p = start;
	decode_string(j, s, need + 1, NULL);
	*out = s;
	if (len)
		*len = need;
	return 0;
}

bool jread_member(struct jread *j, char *key, size_t keylen)
{
	if (!next_in(j, '}'))
		return false;
	if (jread_peek(j) != JR_STRING) {
		syntax(j, "expected a member name");
		return false;
	}
	if (decode_string(j, key, keylen, NULL))
		return false;
	blanks(j);
	if (j->p >= j->end || *j->p != ':') {
		syntax(j, "expected ':'");
		return false;
	}
	j->p++;
	return true;
}

bool jread_element(struct jread *j)
{
	if (!next_in(j, ']'))
		return false;
	enum jread_type t = jread_peek(j);
	if (t == JR_BAD || t == JR_END) {
		syntax(j, "expected a value");
		return false;
	}
	return true;
}

/* ---- numbers and literals -------------------------------------------------------- */

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static bool delimiter(const struct jread *j, const char *p)
{
	return p >= j->end || *p == ',' || *p == ']' || *p == '}' || *p == ' ' || *p == '\n' ||
	       *p == '\t' || *p == '\r';
}

static const double pow10_exact[] = {1e0,  1e1,	 1e2,  1e3,  1e4,  1e5,	 1e6,  1e7,
				     1e8,  1e9,	 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/*
 * The common case of scan_number(), what a result's tables are made of: an integer, or a
 * decimal fraction, of at most 15 digits in all (exact in a double). Where it ends, or
 * NULL (n untouched) when the number at p is not such a one. Inlined: it is the path of
 * every number of a samples table, where a call costs 1.4 % of the reader's instructions.
 */
static inline __attribute__((always_inline)) const char *
scan_short_number(const char *p, const char *end, struct jread_num *n)
{
	const char *q = p, *d0;
	bool neg = q < end && *q == '-';
	uint64_t m = 0;
	q += neg;
	d0 = q;
	while (q < end && (unsigned char)(*q - '0') < 10 && q - d0 < 16)
		m = m * 10 + (uint64_t)(*q++ - '0');
	size_t nint = (size_t)(q - d0);
	if (nint && nint < 16 && !(*d0 == '0' && nint > 1) &&
	    (q >= end || (*q != 'e' && *q != 'E' && (unsigned char)(*q - '0') >= 10))) {
		if (q >= end || *q != '.') {
			n->negative = neg;
			n->integer = true;
			n->u = m;
			n->d = neg ? -(double)m : (double)m;
			return q;
		}
		const char *f0 = ++q;
		while (q < end && (unsigned char)(*q - '0') < 10 && nint + (size_t)(q - f0) < 15)
			m = m * 10 + (uint64_t)(*q++ - '0');
		if (q > f0 &&
		    (q >= end || (*q != 'e' && *q != 'E' && (unsigned char)(*q - '0') >= 10))) {
			double d = (double)m / pow10_exact[q - f0];
			n->negative = neg;
			n->integer = false;
			n->u = m;
			n->d = neg ? -d : d;
			return q;
		}
	}
	return NULL;
}

/*
 * The number at p (JSON's grammar: no leading zeros, no NaN, no hex) into *n: where it
 * ends, or NULL when malformed (*bad then says where).
 */
static const char *scan_number(const char *p, const char *end, struct jread_num *n,
			       const char **bad)
{
	const char *start = p, *q;
	uint64_t mant = 0;
	int digits = 0, frac = 0, exp10 = 0;
	bool overflow = false, plain = true;

	/* the common case first */
	if ((q = scan_short_number(p, end, n)))
		return q;
	n->negative = false;
	if (p < end && *p == '-') {
		n->negative = true;
		p++;
	}
	if (p >= end || *p < '0' || *p > '9')
		goto bad;
	if (*p == '0' && p + 1 < end && p[1] >= '0' && p[1] <= '9')
		goto bad; /* no leading zeros */
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned dg = (unsigned)(*p - '0');
		if (mant > UINT64_MAX / 10 || (mant == UINT64_MAX / 10 && dg > UINT64_MAX % 10))
			overflow = true;
		else if (!overflow)
			mant = mant * 10 + dg;
		if (mant || digits)
			digits++;
	}
	if (p < end && *p == '.') {
		plain = false;
		p++;
		if (p >= end || *p < '0' || *p > '9')
			goto bad;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (!overflow && mant <= (UINT64_MAX - 9) / 10) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				frac++;
				if (mant || digits)
					digits++;
			} else {
				digits = 99; /* digits dropped: strtod reads it exactly */
			}
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		int sign = 1, e = 0;
		plain = false;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			sign = *p++ == '-' ? -1 : 1;
		if (p >= end || *p < '0' || *p > '9')
			goto bad;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		exp10 = sign * e;
	}
	n->integer = plain && !overflow;
	n->u = mant;
	exp10 -= frac;
	if (!overflow && digits <= 15 && exp10 >= -22 && exp10 <= 22) {
		/* exact in a double, and one correctly rounded operation (Clinger's fast path) */
		double d = (double)mant;
		d = exp10 < 0 ? d / pow10_exact[-exp10] : d * pow10_exact[exp10];
		n->d = n->negative ? -d : d;
	} else {
		pthread_once(&c_locale_once, make_c_locale);
		n->d = c_locale ? strtod_l(start, NULL, c_locale) : strtod(start, NULL);
	}
	return p;
bad:
	*bad = p;
	return NULL;
}

int jread_number(struct jread *j, struct jread_num *n)
{
	const char *p, *bad;

	if (j->ret)
		return j->ret;
	if (jread_peek(j) != JR_NUMBER)
		return -EINVAL;
	p = scan_number(j->p, j->end, n, &bad);
	if (!p || !delimiter(j, p)) {
		j->p = p ? p : bad;
		return syntax(j, "a malformed number");
	}
	j->p = p;
	return 0;
}

int jread_numbers(struct jread *j, struct jread_num *out, bool *null, unsigned max, unsigned *n)
{
	const char *p, *end = j->end, *bad;

	*n = 0;
	if (j->ret)
		return j->ret;
	if (jread_peek(j) != JR_ARRAY)
		return -EINVAL;
	p = j->p + 1;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p == ']' && *n == 0)
			break;
		if (*n == max) {
			j->p = p;
			return jread_fail(j, "more than %u values", max);
		}
		if (p + 4 <= end && !memcmp(p, "null", 4)) {
			null[*n] = true;
			out[*n].d = 0;
			p += 4;
		} else {
			null[*n] = false;
			const char *q = scan_number(p, end, &out[*n], &bad);
			if (!q) {
				j->p = bad;
				return syntax(j, "expected a number or null");
			}
			p = q;
		}
		(*n)++;
		while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == ']')
			break;
		j->p = p;
		return syntax(j, "expected ',' or ']'");
	}
	j->p = p + 1;
	j->first = false;
	return 0;
}

const char *jread_num_u64(const struct jread_num *n, uint64_t *v)
{
	*v = 0;
	if (n->negative && (n->integer ? n->u != 0 : n->d != 0))
		return "is negative";
	if (n->integer) {
		*v = n->u;
		return NULL;
	}
	if (!(n->d >= 0 && n->d < 18446744073709551616.0))
		return "is out of range (0 to 2^64-1)";
	if (n->d != floor(n->d))
		return "is not a whole number";
	*v = (uint64_t)fabs(n->d); /* -0 as 0 */
	return NULL;
}

const char *jread_num_double(const struct jread_num *n, double *v)
{
	*v = 0;
	if (!isfinite(n->d))
		return "is not a finite number";
	if (n->d < 0)
		return "is negative";
	*v = n->d + 0.0; /* -0 reads as 0 */
	return NULL;
}

static bool literal(struct jread *j, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, word, n) && delimiter(j, j->p + n)) {
		j->p += n;
		return true;
	}
	return false;
}

int jread_bool(struct jread *j, bool *v)
{
	if (j->ret)
		return j->ret;
	if (jread_peek(j) != JR_BOOL)
		return -EINVAL;
	if (literal(j, "true"))
		*v = true;
	else if (literal(j, "false"))
		*v = false;
	else
		return syntax(j, "a malformed literal");
	return 0;
}

bool jread_null(struct jread *j)
{
	if (jread_peek(j) != JR_NULL)
		return false;
	if (!literal(j, "null")) {
		syntax(j, "a malformed literal");
		return false;
	}
	return true;
}

/*
 * A container is skipped at the speed of a scan: its brackets must nest and match and
 * its strings end, but the numbers and literals inside are not read (a value skipped is
 * a value not used). A lone scalar is read as usual. The text must end with a NUL.
 */
int jread_skip(struct jread *j)
{
	struct jread_num n;
	uint64_t arrays = 0; /* bit 0: the innermost open container is an array */
	unsigned depth = 0;
	const char *p, *end = j->end;
	bool b;

	switch (jread_peek(j)) {
	case JR_OBJECT:
	case JR_ARRAY:
		break;
	case JR_STRING:
		return decode_string(j, NULL, 0, NULL);
	case JR_NUMBER:
		return jread_number(j, &n);
	case JR_BOOL:
		return jread_bool(j, &b);
	case JR_NULL:
		return jread_null(j) ? 0 : j->ret;
	case JR_END:
	case JR_BAD:
		return j->ret ? j->ret : syntax(j, "expected a value");
	}
	p = j->p;
	do {
		/* the text is NUL-terminated (fileio.h): strcspn scans a vector at a time */
		p += strcspn(p, "{}[]\"");
		if (p >= end)
			break;
		char c = *p;
		if (!c) {
			j->p = p;
			return syntax(j, "a NUL byte");
		}
		if (c == '"') {
			for (p++;;) {
				const char *q = memchr(p, '"', (size_t)(end - p));
				if (!q) {
					j->p = end;
					return syntax(j, "a string does not end");
				}
				/* escaped when an odd number of backslashes comes before it */
				size_t bs = 0;
				while (q - bs > p && q[-1 - (ptrdiff_t)bs] == '\\')
					bs++;
				p = q + 1;
				if (!(bs & 1))
					break;
			}
			continue;
		}
		if (c == '{' || c == '[') {
			if (j->depth + depth >= JREAD_MAX_DEPTH) {
				j->p = p;
				return jread_fail(j, "nested deeper than %d levels",
						  JREAD_MAX_DEPTH);
			}
			arrays = (arrays << 1) | (c == '[');
			depth++;
		} else {
			if ((arrays & 1) != (c == ']')) {
				j->p = p;
				return syntax(j, "a bracket that does not match");
			}
			arrays >>= 1;
			depth--;
		}
		p++;
	} while (depth);
	j->p = p;
	if (depth)
		return syntax(j, "");
	return 0;
}

int jread_raw(struct jread *j, const char **start, size_t *len)
{
	blanks(j);
	*start = j->p;
	int ret = jread_skip(j);
	*len = (size_t)(j->p - *start);
	return ret;
}
