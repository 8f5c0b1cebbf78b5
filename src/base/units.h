/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UNITS_H
#define DB_UNITS_H
/*
 * Units, declared once: sizes take k/m/g/t (powers of 1024, an optional trailing "b" or
 * "ib"; "512b" is 512 bytes), durations take ns/us/ms/s/m/h (a bare number is seconds).
 * Parsers return 0 or -EINVAL and never print.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

int units_parse_size(const char *s, uint64_t *bytes);
int units_parse_duration(const char *s, uint64_t *ns);
/* A whole number within [min, max]. */
int units_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int units_parse_double(const char *s, double min, double max, double *out);

/*
 * The time t (seconds since the epoch; (time_t)-1: now) as ISO 8601 in UTC,
 * "2026-12-02T06:30:00Z", as results record it; "" when it is out of range.
 */
char *units_fmt_utc(char *buf, size_t len, time_t t);

/* "4k", "128k", "1m", "512b": the shortest exact spelling, as fio writes sizes. */
char *units_fmt_size(char *buf, size_t len, uint64_t bytes);
/* "1.00 TB": decimal capacity, as drive vendors label. */
char *units_fmt_capacity(char *buf, size_t len, uint64_t bytes);
/* "200GB", "1.92TB": the same, compact, as drive labels and reviews write it. */
char *units_fmt_capacity_compact(char *buf, size_t len, uint64_t bytes);
/*
 * "45 s", "6h 32m", "1m 05s"; UINT64_MAX, where planned totals saturate, is "more than
 * 584 years" (at least 32 bytes of buf hold any).
 */
char *units_fmt_duration(char *buf, size_t len, uint64_t ns);
/* "812 ns", "19.4 us", "12.07 ms", "1.20 s": three significant digits. */
char *units_fmt_latency(char *buf, size_t len, double ns);
/* "21.2K", "1.05M", "950". */
char *units_fmt_count(char *buf, size_t len, double v);

#endif
