/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_STRBUF_H
#define DB_STRBUF_H
/*
 * A growable string, built with printf-like appends: the one string builder (preset text,
 * fio job files). An allocation failure is remembered, every later append is a no-op,
 * and strbuf_take() then gives NULL, so a builder checks once, at the end.
 */
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *s; /* NUL-terminated once anything was added */
	size_t len, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3))) void strbuf_add(struct strbuf *b, const char *fmt, ...);
/* The string, now the caller's to free (an empty one when nothing was added); NULL when
 * an append ran out of memory. The builder is left empty. */
char *strbuf_take(struct strbuf *b);

#endif
