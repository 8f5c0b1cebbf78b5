// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's per-interval logs (write_iops_log, write_lat_log with log_avg_msec) as a step's
 * samples (fio_import.h, fio_import_int.h): "time, value, direction, ..." lines, one file
 * per thread and kind, added up interval by interval.
 */
#include "fio_import_int.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "fio_import.h"
#include "text.h"

static const char *const lat_log[LK_N] = {"clat", "lat"}; /* the logs of fio_import_lat_key[] */

struct log_entry {
	uint64_t t_ms;
	double v;
};

struct log {
	struct log_entry *e[FD_N];
	unsigned n[FD_N];
};

static void log_free(struct log *l)
{
	for (unsigned d = 0; d < FD_N; d++)
		free(l->e[d]);
	memset(l, 0, sizeof(*l));
}

size_t fio_import_host_len(const char *host)
{
	const char *colon = strrchr(host, ':');

	return colon ? (size_t)(colon - host) : strlen(host);
}

/*
 * The file prefix_kind.N.log in the logs directory ("prefix_kind.log" when fio wrote one
 * log for all threads, per_job_logs=0); for an entry of a server (host "HOST:PORT"), the
 * copy fio's client wrote of it, the same name with ".HOST" after it (the whole host:
 * "::1" of "::1:8765"). 0, -ENOENT (no such log), or an error.
 */
static int log_read(struct importer *im, const char *prefix, const char *kind, unsigned thread,
		    const char *host, struct log *out)
{
	char path[4096], suffix[130] = "", *text = NULL;
	size_t len;
	const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
	int ret;

	memset(out, 0, sizeof(*out));
	if (host[0])
		snprintf(suffix, sizeof(suffix), ".%.*s", (int)fio_import_host_len(host), host);
	snprintf(path, sizeof(path), "%s/%s_%s.%u.log%s", im->logs_dir, base, kind, thread,
		 suffix);
	ret = fileio_read(path, "a fio log", FIO_IMPORT_MAX_BYTES, &text, &len, im->err,
			  im->errlen);
	if (ret == -ENOENT) {
		snprintf(path, sizeof(path), "%s/%s_%s.log%s", im->logs_dir, base, kind, suffix);
		ret = fileio_read(path, "a fio log", FIO_IMPORT_MAX_BYTES, &text, &len, im->err,
				  im->errlen);
	}
	if (ret)
		return ret;
	unsigned line = 1, cap[FD_N] = {0};
	for (char *p = text, *next; p < text + len; p = next, line++) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p));
		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		if (strspn(p, " \t\r") == strlen(p))
			continue;
		unsigned long long t, ddir;
		double v;
		int used = 0;
		if (strlen(p) != (size_t)((nl ? nl : text + len) - p)) {
			ret = -EINVAL;
			text_fmt(im->err, im->errlen, "%s:%u: a NUL byte in the line", path, line);
			goto out;
		}
		if (sscanf(p, " %llu , %lf , %llu ,%n", &t, &v, &ddir, &used) < 3 || used == 0 ||
		    !isfinite(v) || v < 0) {
			ret = -EINVAL;
			text_fmt(im->err, im->errlen,
				 "%s:%u: not a line of a fio log (time, value, direction, ...)",
				 path, line);
			goto out;
		}
		if (t > UINT64_MAX / 1000000 / 2) {
			ret = -EINVAL;
			text_fmt(im->err, im->errlen, "%s:%u: the time %llu ms is out of range", path,
				 line, t);
			goto out;
		}
		if (ddir >= FD_N)
			continue; /* trim */
		if (out->n[ddir] >= RESULT_MAX_SAMPLES) {
			ret = -E2BIG;
			text_fmt(im->err, im->errlen, "%s:%u: more than %u intervals", path, line,
				 RESULT_MAX_SAMPLES);
			goto out;
		}
		if (out->n[ddir] == cap[ddir]) {
			unsigned c = cap[ddir] ? cap[ddir] * 2 : 64;
			struct log_entry *ne = realloc(out->e[ddir], c * sizeof(*ne));
			if (!ne) {
				ret = -ENOMEM;
				text_fmt(im->err, im->errlen, "%s: out of memory", path);
				goto out;
			}
			out->e[ddir] = ne;
			cap[ddir] = c;
		}
		out->e[ddir][out->n[ddir]++] = (struct log_entry){t, v};
	}
out:
	if (ret)
		log_free(out);
	free(text);
	return ret;
}

/* A count from a rate: rounded, and held at 2^64-1 (a hostile log's rates). */
static uint64_t to_u64(double v)
{
	return v < 18446744073709549568.0 ? (uint64_t)(v + 0.5) : UINT64_MAX;
}

/*
 * The samples of step st from the logs of the threads first..first+n-1. IOPS are summed
 * and latency means weighted by IOPS, interval by interval; the interval's time is the
 * first thread's.
 */
int fio_import_samples(struct importer *im, struct result_step *st, const struct pending *pd,
		       unsigned first, unsigned n)
{
	const char *iops_prefix = pd->iops_prefix, *lat_prefix = pd->lat_prefix;
	struct log *iops = NULL, *lat = NULL;
	unsigned nint = UINT32_MAX, lk = pd->lk;
	int ret = 0;

	if (!iops_prefix)
		return 0;
	/* a log option without a name: fio names the files after the job */
	if (!*iops_prefix)
		iops_prefix = pd->name;
	if (lat_prefix && !*lat_prefix)
		lat_prefix = pd->name;
	if (!pd->log_avg) {
		text_fmt(im->err, im->errlen,
			 "%s:%u: job '%s' logged IOPS without log_avg_msec: every I/O, not "
			 "intervals; run fio with log_avg_msec=1000",
			 im->file, fio_import_line(im, pd->at), pd->name);
		return -EINVAL;
	}
	iops = calloc(n, sizeof(*iops));
	lat = calloc(n, sizeof(*lat));
	if (!iops || !lat) {
		ret = -ENOMEM;
		text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
		goto out;
	}
	for (unsigned t = 0; t < n; t++) {
		if ((ret = log_read(im, iops_prefix, "iops", first + t, pd->host, &iops[t])))
			goto out;
		if (lat_prefix &&
		    (ret = log_read(im, lat_prefix, lat_log[lk], first + t, pd->host, &lat[t])))
			goto out;
		for (unsigned d = 0; d < FD_N; d++)
			if (st->summary.d[d].ios && iops[t].n[d] < nint)
				nint = iops[t].n[d];
	}
	if (nint == UINT32_MAX)
		nint = 0;
	double avg_bs[FD_N];
	for (unsigned d = 0; d < FD_N; d++)
		avg_bs[d] = st->summary.d[d].ios
				    ? (double)st->summary.d[d].bytes / (double)st->summary.d[d].ios
				    : 0;
	uint64_t prev_ms = 0;
	for (unsigned i = 0; i < nint; i++) {
		struct sample s;
		uint64_t end_ms = 0;
		memset(&s, 0, sizeof(s));
		for (unsigned d = 0; d < FD_N && !end_ms; d++)
			if (st->summary.d[d].ios)
				end_ms = iops[0].e[d][i].t_ms;
		if (end_ms <= prev_ms)
			end_ms = prev_ms + st->wl.interval_ns / 1000000;
		if (end_ms > UINT64_MAX / 1000000 / 2)
			break; /* past any time a log can have */
		s.index = i;
		s.start_ns = prev_ms * 1000000;
		s.dur_ns = (end_ms - prev_ms) * 1000000;
		prev_ms = end_ms;
		for (unsigned d = 0; d < FD_N; d++) {
			struct dir_stats *ds = &s.d[d];
			double lat_w = 0, lat_sum = 0;
			if (!st->summary.d[d].ios)
				continue;
			for (unsigned t = 0; t < n; t++) {
				double v = iops[t].e[d][i].v;
				ds->iops += v;
				if (lat[t].n[d] > i) {
					lat_sum += lat[t].e[d][i].v * v;
					lat_w += v;
				}
			}
			ds->ios = to_u64(ds->iops * (double)s.dur_ns / 1e9);
			ds->bytes = to_u64((double)ds->ios * avg_bs[d]);
			ds->mbps = ds->iops * avg_bs[d] / 1e6;
			ds->mean_ns = lat_w > 0 ? lat_sum / lat_w : 0;
		}
		fio_import_combine(&s);
		s.d[DIR_ALL].std_ns = 0; /* not in the logs, as the directions' */
		if ((ret = result_step_add_sample(st, &s))) {
			text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
			goto out;
		}
	}
out:
	for (unsigned t = 0; iops && t < n; t++)
		log_free(&iops[t]);
	for (unsigned t = 0; lat && t < n; t++)
		log_free(&lat[t]);
	free(iops);
	free(lat);
	return ret;
}
