/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_JSON_READ_H
#define DB_JSON_READ_H
/*
 * A pull reader for JSON (RFC 8259) held in memory, for result files: no tree is built,
 * so reading a file costs the file and what the caller keeps, and a value the caller has
 * no use for is skipped without being stored. A 6-hour run's samples read at the speed
 * of a scan instead of as a million json-c objects.
 *
 * Use: jread_object() then `while (jread_member(j, key, sizeof(key)))` with one value
 * read or skipped per member; jread_array() then `while (jread_element(j))` likewise.
 * The first error sticks: every later call fails and j->ret holds it, with the message
 * ("file:line: ...") in the caller's err buffer. Nesting is limited to JREAD_MAX_DEPTH,
 * so hostile input cannot exhaust the stack.
 *
 * Strings are returned decoded: escapes resolved, an escaped lone surrogate or NUL read
 * as U+FFFD, ill-formed UTF-8 repaired, cut on a character boundary when the buffer is
 * short. Numbers are checked against the JSON grammar (no NaN, no Infinity, no hex).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JREAD_MAX_DEPTH 64

enum jread_type { JR_BAD, JR_OBJECT, JR_ARRAY, JR_STRING, JR_NUMBER, JR_BOOL, JR_NULL, JR_END };

struct jread_style;

struct jread {
	const char *buf; /* the text, for line numbers */
	const char *p;	 /* the next byte */
	const char *end;
	const char *file; /* named in messages */
	char *err;
	size_t errlen;
	int ret;			 /* 0, or the first error: -EINVAL, -E2BIG, -ENOMEM */
	unsigned depth;			 /* objects and arrays open */
	bool first;			 /* no member or element read yet in the innermost one */
	const struct jread_style *style; /* how the typed readers word errors; NULL: plainly */
};

/* A number as read: integer when written without fraction or exponent and within 64 bits. */
struct jread_num {
	bool negative;
	bool integer;
	uint64_t u; /* the magnitude, when integer */
	double d;   /* the value (may be inf when out of range) */
};

/* buf[len] must be a NUL (as fileio_read() leaves it): scans stop there. */
void jread_init(struct jread *j, const char *buf, size_t len, const char *file, char *err,
		size_t errlen);
/* Record an error "file:line: message" (the line of the current position); returns it. */
__attribute__((format(printf, 2, 3))) int jread_fail(struct jread *j, const char *fmt, ...);
__attribute__((format(printf, 2, 0))) int jread_vfail(struct jread *j, const char *fmt, va_list ap);
/* The 1-based line of the current position. */
unsigned jread_line(const struct jread *j);

/* The type of the next value (after blanks); JR_END at the end of the text. */
enum jread_type jread_peek(struct jread *j);
/* Enter an object / array; false (with an error) when the next value is not one. */
bool jread_object(struct jread *j);
bool jread_array(struct jread *j);
/* The next member's key (decoded, cut to fit); false at the closing brace or on error. */
bool jread_member(struct jread *j, char *key, size_t keylen);
/* Whether another element follows; false at the closing bracket or on error. */
bool jread_element(struct jread *j);
/*
 * Skip one value of any type. 0 or the error. A container is only checked for structure
 * (brackets that nest and match, strings that end): what is skipped is not read.
 */
int jread_skip(struct jread *j);
/* Skip one value and give the text it spans. */
int jread_raw(struct jread *j, const char **start, size_t *len);
/* Consume a null if one is next: true then. */
bool jread_null(struct jread *j);

/* Read a value of one type; -EINVAL without an error recorded when the type differs. */
int jread_number(struct jread *j, struct jread_num *n);
/*
 * An array of numbers or nulls (a row of a table), at most max, into out[] and null[]:
 * *n values. -EINVAL without an error when the next value is no array.
 */
int jread_numbers(struct jread *j, struct jread_num *out, bool *null, unsigned max, unsigned *n);
/*
 * A number read (jread_number(), jread_numbers()) as a value that cannot be negative.
 * jread_num_u64(): a count, size or time, whole from 0 to 2^64-1 (a fraction is
 * dropped). jread_num_double(): a rate, mean or percentage, finite and at least 0 (-0
 * reads as 0). NULL when *v holds the value; else *v is 0 and the reason is returned,
 * worded to follow the value's quoted name in the caller's message: "is negative", "is
 * out of range (0 to 2^64-1)", "is not a finite number". No error is recorded, so the
 * caller words where the value sits.
 */
const char *jread_num_u64(const struct jread_num *n, uint64_t *v);
const char *jread_num_double(const struct jread_num *n, double *v);
int jread_bool(struct jread *j, bool *v);
int jread_string(struct jread *j, char *buf, size_t len);
/*
 * A string of any length up to max bytes (decoded), malloc'd into *out; -E2BIG (error
 * recorded, naming the limit) when longer.
 */
int jread_string_dup(struct jread *j, size_t max, char **out, size_t *len);

/* ---- typed values (json_read_typed.c) --------------------------------------------- */
/*
 * The value just reached (a member's or an element's) read as one type and checked: a
 * count, a rate, a string cut to a buffer, a flag, a name from a table. null reads as
 * absent (0, "", false, the default given). Anything else is an error that names key
 * ("\"bs\" should be a number", "\"bs\" is negative") recorded by jread_bad(), and the
 * absent value is returned. Like every read, they do nothing once an error is recorded.
 *
 * How the error is worded depends on the format read: a reader sets j->style once, after
 * jread_init(). NULL (the default): as result files word it, with no place named.
 */
struct jread_style {
	/*
	 * Record msg, naming where in the document the value sits (say with jread_fail());
	 * returns j->ret. NULL: jread_fail(j, "%s", msg).
	 */
	int (*bad)(struct jread *j, const char *msg);
	bool is_not;	  /* a wrong type is "\"key\" is not a number"; else "should be" */
	bool bad_is_type; /* a value that is not JSON (NaN): a wrong type; else the syntax error */
	bool null_string; /* a null where a string goes: a wrong type; else "" */
};

/* Record an error about a value, worded as fmt, through j->style; returns j->ret. */
__attribute__((format(printf, 2, 3))) int jread_bad(struct jread *j, const char *fmt, ...);
/* The value reached is not `what` ("a number", "an array of strings"): the error. */
void jread_wrong_type(struct jread *j, const char *key, const char *what);
/* A number already read (jread_numbers()) checked as a count / a rate: true when valid. */
bool jread_check_u64(struct jread *j, const char *key, const struct jread_num *n, uint64_t *v);
bool jread_check_double(struct jread *j, const char *key, const struct jread_num *n, double *v);
/* Counts and sizes (0 to 2^64-1, or to UINT_MAX), rates (finite, not negative). */
uint64_t jread_get_u64(struct jread *j, const char *key);
unsigned jread_get_uint(struct jread *j, const char *key);
double jread_get_double(struct jread *j, const char *key);
/* A string, cut to len bytes (on a character boundary). */
void jread_get_string(struct jread *j, const char *key, char *buf, size_t len);
bool jread_get_bool(struct jread *j, const char *key);
/* The index of a name in names[n] (NULL entries skipped); dflt when null or unknown. */
int jread_get_enum(struct jread *j, const char *key, const char *const *names, size_t n, int dflt);
/*
 * Enter an object / array; false (error recorded) when the value is anything else, null
 * too (where null may stand for one, check jread_null() first).
 */
bool jread_get_object(struct jread *j, const char *key);
bool jread_get_array(struct jread *j, const char *key);

#endif
