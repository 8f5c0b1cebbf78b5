// SPDX-License-Identifier: GPL-2.0-or-later
#include "app_parse.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of text (without its newline) into buf; false at the end. */
static bool next_line(const char **p, const char *end, char *buf, size_t len, bool *cut)
{
	const char *s = *p, *nl;
	size_t n;

	if (s >= end)
		return false;
	nl = memchr(s, '\n', (size_t)(end - s));
	n = (size_t)((nl ? nl : end) - s);
	*cut = n >= len;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0' || buf[i] == '\r')
			buf[i] = ' ';
	*p = nl ? nl + 1 : end;
	return true;
}

/* A finite number that is not negative, from s (leading blanks skipped); end past it. */
static bool number(const char *s, double *v, const char **end)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+')
		return false;
	*v = strtod(s, &e);
	if (e == s || !isfinite(*v) || *v < 0)
		return false;
	if (end)
		*end = e;
	return true;
}

/* The value after "key" at the start of line (blanks before it skipped); NULL: not it. */
static const char *after(const char *line, const char *key)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return strncmp(line, key, strlen(key)) ? NULL : line + strlen(key);
}

static uint64_t ms_to_ns(double ms)
{
	double ns = ms * 1e6;
	return ns >= 1.8e19 ? UINT64_MAX : (uint64_t)ns;
}

void app_figures_from_hist(struct app_figures *f, const struct hist *h)
{
	static const double pcts[] = {95, 99, 100};
	uint64_t v[3];

	hist_percentiles(h, pcts, 3, v);
	f->lat_p95_ms = (double)v[0] / 1e6;
	f->lat_p99_ms = (double)v[1] / 1e6;
	f->lat_max_ms = (double)v[2] / 1e6;
}

enum sb_seen { SB_TX = 1, SB_AVG = 2, SB_P99 = 4, SB_TIME = 8, SB_ERR = 16, SB_MAX = 32 };

/* One line of sysbench's report; *seen gets what it was. -EINVAL on a bad figure. */
static int sysbench_line(const char *line, struct app_figures *f, struct hist *h, bool *in_hist,
			 unsigned *seen)
{
	const char *v, *e;
	double x, c;

	if (strstr(line, "Latency histogram")) {
		*in_hist = true;
		return 0;
	}
	if (*in_hist) {
		/* "       2.001 |****                 3" */
		const char *bar = strchr(line, '|');
		if (!bar || !number(line, &x, &e) || e > bar) {
			*in_hist = strstr(line, "distribution") != NULL;
			return 0;
		}
		e = bar + 1 + strspn(bar + 1, "* ");
		if (!number(e, &c, NULL) || c > 1e15)
			return -EINVAL;
		h->bucket[hist_index(ms_to_ns(x))] += (uint64_t)c;
		return 0;
	}
	if ((v = after(line, "transactions:"))) {
		if (!number(v, &x, &e) || !(e = strchr(e, '(')) || !number(e + 1, &f->tps, NULL))
			return -EINVAL;
		f->transactions = (uint64_t)x;
		*seen |= SB_TX;
	} else if ((v = after(line, "ignored errors:"))) {
		if (!number(v, &x, NULL))
			return -EINVAL;
		f->errors = (uint64_t)x;
		*seen |= SB_ERR;
	} else if ((v = after(line, "reconnects:"))) {
		if (!number(v, &x, NULL))
			return -EINVAL;
		f->reconnects = (uint64_t)x;
	} else if ((v = after(line, "total time:"))) {
		if (!number(v, &f->seconds, NULL))
			return -EINVAL;
		*seen |= SB_TIME;
	} else if ((v = after(line, "avg:"))) {
		if (!number(v, &f->lat_avg_ms, NULL))
			return -EINVAL;
		*seen |= SB_AVG;
	} else if ((v = after(line, "max:"))) {
		if (!number(v, &f->lat_max_ms, NULL))
			return -EINVAL;
		*seen |= SB_MAX;
	} else if ((v = after(line, "99th percentile:"))) {
		if (!number(v, &f->lat_p99_ms, NULL))
			return -EINVAL;
		*seen |= SB_P99;
	}
	return 0;
}

static int missing(char *err, size_t errlen, const char *tool, const char *what)
{
	snprintf(err, errlen, "%s: %s", tool, what);
	return -EINVAL;
}

int app_parse_sysbench(const char *text, size_t len, struct app_figures *f, struct hist *h,
		       char *err, size_t errlen)
{
	static const struct {
		unsigned bit;
		const char *what;
	} need[] = {
		{SB_TX, "no transactions line"},      {SB_ERR, "no ignored errors line"},
		{SB_TIME, "no total time line"},      {SB_AVG, "no average latency line"},
		{SB_MAX, "no maximum latency line"},  {SB_P99, "no 99th percentile line"},
	};
	const char *p = text, *end = text + len;
	char line[APP_PARSE_LINE_MAX];
	unsigned seen = 0, n = 0;
	bool in_hist = false, cut;
	double p99 = 0, max = 0;

	memset(f, 0, sizeof(*f));
	memset(h, 0, sizeof(*h));
	while (next_line(&p, end, line, sizeof(line), &cut)) {
		n++;
		if (cut)
			return missing(err, errlen, "sysbench", "a line longer than the limit");
		if (sysbench_line(line, f, h, &in_hist, &seen)) {
			snprintf(err, errlen, "sysbench: output line %u: not a figure: %.80s", n,
				 line);
			return -EINVAL;
		}
	}
	for (unsigned i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!(seen & need[i].bit))
			return missing(err, errlen, "sysbench", need[i].what);
	if (!hist_count(h))
		return missing(err, errlen, "sysbench", "no latency histogram");
	/* the tool's own p99 and max are exact; its histogram gives p95 */
	p99 = f->lat_p99_ms;
	max = f->lat_max_ms;
	app_figures_from_hist(f, h);
	f->lat_p99_ms = p99;
	f->lat_max_ms = max;
	return 0;
}

int app_parse_pgbench(const char *text, size_t len, struct app_figures *f, char *err,
		      size_t errlen)
{
	const char *p = text, *end = text + len, *v;
	char line[APP_PARSE_LINE_MAX];
	unsigned seen = 0;
	bool cut;
	double x;

	memset(f, 0, sizeof(*f));
	while (next_line(&p, end, line, sizeof(line), &cut)) {
		if (cut)
			return missing(err, errlen, "pgbench", "a line longer than the limit");
		if ((v = after(line, "number of transactions actually processed:"))) {
			if (!number(v, &x, NULL))
				return missing(err, errlen, "pgbench", "a bad transactions count");
			f->transactions = (uint64_t)x;
			seen |= SB_TX;
		} else if ((v = after(line, "number of failed transactions:"))) {
			if (!number(v, &x, NULL))
				return missing(err, errlen, "pgbench", "a bad failed count");
			f->errors = (uint64_t)x;
		} else if ((v = after(line, "latency average ="))) {
			if (!number(v, &f->lat_avg_ms, NULL))
				return missing(err, errlen, "pgbench", "a bad latency average");
			seen |= SB_AVG;
		} else if ((v = after(line, "duration:"))) {
			if (!number(v, &f->seconds, NULL))
				return missing(err, errlen, "pgbench", "a bad duration");
			seen |= SB_TIME;
		} else if ((v = after(line, "tps ="))) {
			if (!number(v, &f->tps, NULL))
				return missing(err, errlen, "pgbench", "a bad tps figure");
			seen |= SB_P99; /* the tps line */
		}
	}
	if (!(seen & SB_TX))
		return missing(err, errlen, "pgbench", "no transactions line");
	if (!(seen & SB_AVG))
		return missing(err, errlen, "pgbench", "no latency average line");
	if (!(seen & SB_TIME))
		return missing(err, errlen, "pgbench", "no duration line");
	if (!(seen & SB_P99))
		return missing(err, errlen, "pgbench", "no tps line");
	return 0;
}

int app_parse_pgbench_log(const char *text, size_t len, struct hist *h, uint64_t *failed,
			  char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	char line[APP_PARSE_LINE_MAX], f3[32];
	unsigned long long client, tx;
	unsigned n = 0;
	bool cut;

	while (next_line(&p, end, line, sizeof(line), &cut)) {
		char *e;
		unsigned long long us;
		n++;
		if (cut || sscanf(line, "%llu %llu %31s", &client, &tx, f3) != 3)
			goto bad;
		if (!strcmp(f3, "failed") || !strcmp(f3, "skipped")) {
			(*failed)++;
			continue;
		}
		if (f3[0] < '0' || f3[0] > '9')
			goto bad;
		errno = 0;
		us = strtoull(f3, &e, 10);
		if (*e || errno)
			goto bad;
		hist_add(h, us > UINT64_MAX / 1000 ? UINT64_MAX : us * 1000);
	}
	return 0;
bad:
	snprintf(err, errlen, "pgbench: transaction log line %u: not a transaction: %.80s", n,
		 line);
	return -EINVAL;
}

/* One per-second report, or false. */
static bool interval(const char *line, struct app_interval *iv)
{
	const char *v;

	memset(iv, 0, sizeof(*iv));
	if ((v = after(line, "["))) {
		/* sysbench: "[ 3s ] thds: 2 tps: 123.45 qps: ... lat (ms,99%): 21.89 ..." */
		const char *tps = strstr(v, " tps: "), *lat = strstr(v, "lat (ms,99%): ");
		iv->p99 = true;
		return number(v, &iv->end_s, NULL) && tps && number(tps + 6, &iv->tps, NULL) &&
		       lat && number(lat + 14, &iv->lat_ms, NULL);
	}
	if ((v = after(line, "progress:"))) {
		/* pgbench: "progress: 3.0 s, 142.0 tps, lat 7.021 ms stddev 3.185, 0 failed" */
		const char *e, *lat = strstr(v, ", lat ");
		return number(v, &iv->end_s, &e) && (e = strchr(e, ',')) &&
		       number(e + 1, &iv->tps, &e) && !strncmp(e, " tps", 4) && lat &&
		       number(lat + 6, &iv->lat_ms, NULL);
	}
	return false;
}

unsigned app_parse_intervals(const char *text, size_t len, struct app_interval *out,
			     unsigned max)
{
	const char *p = text, *end = text + len;
	char line[APP_PARSE_LINE_MAX];
	unsigned n = 0;
	bool cut;

	while (n < max && next_line(&p, end, line, sizeof(line), &cut)) {
		struct app_interval iv;
		if (!cut && interval(line, &iv) && iv.end_s > (n ? out[n - 1].end_s : 0) &&
		    iv.end_s < 1e7)
			out[n++] = iv;
	}
	return n;
}
