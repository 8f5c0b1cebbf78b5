// SPDX-License-Identifier: GPL-2.0-or-later
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct unit {
	const char *suffix;
	uint64_t mult;
};

static const struct unit size_units[] = {
	{"", 1},
	{"b", 1},
	{"k", 1ull << 10},
	{"kb", 1ull << 10},
	{"kib", 1ull << 10},
	{"m", 1ull << 20},
	{"mb", 1ull << 20},
	{"mib", 1ull << 20},
	{"g", 1ull << 30},
	{"gb", 1ull << 30},
	{"gib", 1ull << 30},
	{"t", 1ull << 40},
	{"tb", 1ull << 40},
	{"tib", 1ull << 40},
};

static const struct unit time_units[] = {
	{"", 1000000000ull},
	{"ns", 1},
	{"us", 1000ull},
	{"ms", 1000000ull},
	{"s", 1000000000ull},
	{"m", 60000000000ull},
	{"min", 60000000000ull},
	{"h", 3600000000000ull},
};

static int parse_scaled(const char *s, const struct unit *units, size_t nunits, uint64_t *out)
{
	char *end;
	double v;
	size_t i;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	size_t len = strlen(end);
	while (len && isspace((unsigned char)end[len - 1]))
		len--;
	for (i = 0; i < nunits; i++) {
		if (strlen(units[i].suffix) == len && !strncasecmp(end, units[i].suffix, len)) {
			double r = v * (double)units[i].mult;
			if (r >= 18446744073709551615.0)
				return -ERANGE;
			/* sizes must come out whole: 1.5k is 1536, 1.1b is not a size */
			if (units == size_units && r != floor(r))
				return -EINVAL;
			*out = (uint64_t)llround(r);
			return 0;
		}
	}
	return -EINVAL;
}

int units_parse_size(const char *s, uint64_t *bytes)
{
	return parse_scaled(s, size_units, sizeof(size_units) / sizeof(size_units[0]), bytes);
}

int units_parse_duration(const char *s, uint64_t *ns)
{
	return parse_scaled(s, time_units, sizeof(time_units) / sizeof(time_units[0]), ns);
}

int units_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int units_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

char *units_fmt_utc(char *buf, size_t len, time_t t)
{
	struct tm tm;

	if (t == (time_t)-1)
		t = time(NULL);
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%s", "");
	return buf;
}

char *units_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char suf[] = "bkmgt";
	unsigned i = 0;

	while (i < 4 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llub", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, suf[i]);
	return buf;
}

/*
 * Decimal capacity in one of two spellings: "1.92 TB" (two decimals) or, compact, "1.92TB"
 * (three significant digits, trailing zeros dropped). The unit is the largest one the
 * value reaches once rounded as printed: 999.7 GB is "1TB", never "1e+03GB".
 */
static char *fmt_capacity(char *buf, size_t len, uint64_t bytes, bool compact)
{
	static const char *const suf[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
	double v = (double)bytes;
	unsigned i = 0;

	while (v >= 1000 && i < 6) {
		v /= 1000;
		i++;
	}
	for (;;) {
		if (i == 0)
			snprintf(buf, len, compact ? "%lluB" : "%llu B", (unsigned long long)bytes);
		else
			snprintf(buf, len, compact ? "%.3g%s" : "%.2f %s", v, suf[i]);
		if (i == 0 || i == 6 || strtod(buf, NULL) < 1000)
			return buf;
		v /= 1000;
		i++;
	}
}

char *units_fmt_capacity(char *buf, size_t len, uint64_t bytes)
{
	return fmt_capacity(buf, len, bytes, false);
}

char *units_fmt_capacity_compact(char *buf, size_t len, uint64_t bytes)
{
	return fmt_capacity(buf, len, bytes, true);
}

char *units_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	/* rounded to the second without wrapping: near 2^64 it read "0 s" */
	uint64_t s = ns / 1000000000ull + (ns % 1000000000ull >= 500000000ull);

	if (ns == UINT64_MAX) /* a saturated total (plan_time.c): 2^64 ns is 584.5 years */
		snprintf(buf, len, "more than 584 years");
	else if (ns < 1000000000ull && ns > 0)
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
	else if (s < 60)
		snprintf(buf, len, "%llu s", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%llum %02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%lluh %02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	return buf;
}

/* decimals that leave three significant digits */
static int sig3(double v)
{
	return v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
}

char *units_fmt_latency(char *buf, size_t len, double ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.*f us", sig3(ns / 1e3), ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.*f ms", sig3(ns / 1e6), ns / 1e6);
	else
		snprintf(buf, len, "%.*f s", sig3(ns / 1e9), ns / 1e9);
	return buf;
}

char *units_fmt_count(char *buf, size_t len, double v)
{
	if (v < 1000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, len, "%.*fK", sig3(v / 1e3), v / 1e3);
	else
		snprintf(buf, len, "%.*fM", sig3(v / 1e6), v / 1e6);
	return buf;
}
