/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_JSON_WRITE_H
#define DB_JSON_WRITE_H
/*
 * A streaming JSON writer: every JSON document drivebench prints or saves goes through
 * it, so all of them are well-formed UTF-8 with no raw control characters, whatever the
 * strings held (ill-formed sequences become U+FFFD; C0 and C1 controls, DEL, bidirectional
 * overrides and non-characters are written as \u escapes), and numbers are written in the
 * C locale (a finite double in its shortest form that reads back exactly; not finite:
 * null). Values are written as they come: a result's samples never exist as a tree.
 *
 * Nesting is pretty-printed with `indent` per level, except inside a container begun
 * with jwrite_begin_array_inline(), which stays on one line.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

#define JWRITE_MAX_DEPTH 64

struct jwrite {
	FILE *out;
	const char *indent; /* per level; NULL: everything on one line */
	unsigned depth;
	bool first[JWRITE_MAX_DEPTH];	/* nothing written yet at this level */
	bool inline_[JWRITE_MAX_DEPTH]; /* this level is on one line */
	bool after_key;
};

void jwrite_init(struct jwrite *w, FILE *out, const char *indent);
void jwrite_begin_object(struct jwrite *w);
void jwrite_end_object(struct jwrite *w);
void jwrite_begin_array(struct jwrite *w);
void jwrite_begin_array_inline(struct jwrite *w);
void jwrite_end_array(struct jwrite *w);
void jwrite_key(struct jwrite *w, const char *key);
void jwrite_string(struct jwrite *w, const char *s);
void jwrite_u64(struct jwrite *w, uint64_t v);
void jwrite_i64(struct jwrite *w, int64_t v);
void jwrite_double(struct jwrite *w, double v);
void jwrite_bool(struct jwrite *w, bool v);
void jwrite_null(struct jwrite *w);
/* A json-c tree, written with the same rules. */
void jwrite_json(struct jwrite *w, struct json_object *o);
/* The final newline; 0, or -EIO when a write failed. */
int jwrite_finish(struct jwrite *w);

/* Shorthands: a key and its value. */
void jwrite_kstr(struct jwrite *w, const char *key, const char *v);
void jwrite_ku64(struct jwrite *w, const char *key, uint64_t v);
void jwrite_kdbl(struct jwrite *w, const char *key, double v);

/* A double as jwrite_double() writes it ("null" when not finite), into buf (>= 32 bytes). */
char *jwrite_fmt_double(char *buf, size_t len, double v);

#endif
