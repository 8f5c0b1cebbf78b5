// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's per-interval logs (write_iops_log, write_lat_log with log_avg_msec) as a step's
 * samples (fio_import.h, fio_import_int.h): "time, value, direction, ..." lines, one file
 * per thread and kind, added up interval by interval.
 *
 * Each log file is read once, a buffer at a time, and never held whole: a thread's IOPS
 * are kept while its latency log is weighted by them, then added to the step's running
 * sums. Memory is the step's intervals (the samples it keeps) plus one thread's, whatever
 * the number of threads; a shared log (per_job_logs=0) is read on from where the step
 * before left it.
 */
#include "fio_import_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "fio_import.h"
#include "grow.h"
#include "text.h"

static const char *const lat_log[LK_N] = {"clat", "lat"}; /* the logs of fio_import_lat_key[] */

#define LOG_LINE_MAX  1024 /* bytes; fio writes lines of 20-80 */
#define LOG_BUF_BYTES 65536

struct log_entry {
	uint64_t t_ms;
	double v;
};

/* An open log, read a buffer at a time. */
struct fio_log_stream {
	int fd;
	bool shared; /* prefix_kind.log: every thread's log, one after another */
	bool ahead;  /* next holds a line read past the end of the last thread's part */
	bool eof;
	unsigned line;
	uint64_t bytes; /* read so far, against FIO_IMPORT_MAX_BYTES */
	struct {
		uint64_t t_ms;
		double v;
		unsigned d;
	} next;
	size_t pos, len;
	char path[4096];
	char buf[LOG_BUF_BYTES];
};

/*
 * A step's logs as they are read: the thread being read (its IOPS, kept until its
 * latency log has been weighted by them) and the sums over the threads before it.
 */
struct step_logs {
	double *v[FD_N]; /* the thread's IOPS, per interval */
	unsigned nv[FD_N];
	size_t capv[FD_N];    /* v's room */
	unsigned nlat[FD_N];  /* the thread's latency entries so far */
	bool first;	      /* the step's first thread: its times end the intervals */
	uint64_t *t_ms[FD_N]; /* [nsum]: the first thread's interval ends (ms) */
	double *iops[FD_N], *lat_sum[FD_N], *lat_w[FD_N]; /* [nsum]: sums over threads */
	unsigned nsum[FD_N];
	size_t capt[FD_N];   /* t_ms' room */
	unsigned nint[FD_N]; /* the fewest intervals of a thread so far */
};

void fio_import_logs_close(struct importer *im)
{
	for (unsigned k = 0; k < 2; k++) {
		if (im->log[k] && im->log[k]->fd >= 0)
			close(im->log[k]->fd);
		free(im->log[k]);
		im->log[k] = NULL;
	}
}

/* Open path as a log into ls: 0, -ENOENT (quietly), or an error with its message. */
static int stream_open(struct importer *im, struct fio_log_stream *ls, const char *path,
		       bool shared)
{
	struct stat st;
	char lim[32];
	int ret;

	if (ls->fd >= 0)
		close(ls->fd);
	memset(ls, 0, offsetof(struct fio_log_stream, buf));
	ls->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (ls->fd < 0) {
		ret = -errno;
		if (ret != -ENOENT)
			text_fmt(im->err, im->errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	text_copy(ls->path, sizeof(ls->path), path);
	ls->shared = shared;
	if (fstat(ls->fd, &st)) {
		ret = -errno;
		text_fmt(im->err, im->errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		text_fmt(im->err, im->errlen, "%s: %s, not a fio log", path,
			 fileio_kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((uint64_t)st.st_size > FIO_IMPORT_MAX_BYTES) {
		text_fmt(im->err, im->errlen, "%s: %llu bytes, over the limit of %s for a fio log",
			 path, (unsigned long long)st.st_size,
			 fileio_fmt_limit(lim, sizeof(lim), FIO_IMPORT_MAX_BYTES));
		return -EFBIG;
	}
	if (im->io)
		im->io->log_files++;
	return 0;
}

size_t fio_import_host_len(const char *host)
{
	const char *colon = strrchr(host, ':');

	return colon ? (size_t)(colon - host) : strlen(host);
}

/*
 * The log of thread's kind for pd into im->log[k]: prefix_kind.N.log in the logs
 * directory, else prefix_kind.log (fio wrote one log for all threads, per_job_logs=0),
 * which stays open for the threads after; for an entry of a server (host "HOST:PORT"),
 * the copy fio's client wrote of it, the same name with ".HOST" after it (the whole host:
 * "::1" of "::1:8765").
 */
static int log_open(struct importer *im, unsigned k, const char *prefix, const char *kind,
		    unsigned thread, const char *host)
{
	char path[4096], shared[4096], suffix[130] = "";
	const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
	struct fio_log_stream *ls = im->log[k];
	int ret;

	if (!ls) {
		if (!(ls = im->log[k] = malloc(sizeof(*ls))))
			return fio_import_nomem(im);
		ls->fd = -1;
	}
	if (host[0])
		snprintf(suffix, sizeof(suffix), ".%.*s", (int)fio_import_host_len(host), host);
	snprintf(path, sizeof(path), "%s/%s_%s.%u.log%s", im->logs_dir, base, kind, thread, suffix);
	snprintf(shared, sizeof(shared), "%s/%s_%s.log%s", im->logs_dir, base, kind, suffix);
	if (ls->fd >= 0 && ls->shared && !strcmp(ls->path, shared) && access(path, F_OK))
		return 0; /* the next thread's part of the shared log */
	ret = stream_open(im, ls, path, false);
	if (ret == -ENOENT)
		ret = stream_open(im, ls, shared, true);
	if (ret == -ENOENT)
		text_fmt(im->err, im->errlen, "%s: %s", path, strerror(ENOENT));
	return ret;
}

/* The next line of ls (NUL-terminated in line), or 0 at its end; -errno on an error. */
static int stream_line(struct importer *im, struct fio_log_stream *ls, char *line, size_t *len)
{
	size_t n = 0;

	for (;;) {
		if (ls->pos == ls->len) {
			ssize_t got = ls->eof ? 0 : read(ls->fd, ls->buf, sizeof(ls->buf));
			if (got < 0) {
				int ret = -errno;
				text_fmt(im->err, im->errlen, "%s: %s", ls->path, strerror(-ret));
				return ret;
			}
			if (got == 0 || ls->bytes >= FIO_IMPORT_MAX_BYTES) {
				ls->eof = true; /* a file that grows is read no further */
				break;
			}
			ls->bytes += (uint64_t)got;
			if (im->io)
				im->io->log_bytes += (uint64_t)got;
			ls->pos = 0;
			ls->len = (size_t)got;
		}
		char c = ls->buf[ls->pos++];
		if (c == '\n') {
			ls->line++;
			line[n] = '\0';
			*len = n;
			return 1;
		}
		if (n + 1 == LOG_LINE_MAX) {
			text_fmt(im->err, im->errlen, "%s:%u: a line longer than %u bytes",
				 ls->path, ls->line + 1, LOG_LINE_MAX);
			return -EINVAL;
		}
		line[n++] = c;
	}
	if (!n)
		return 0;
	ls->line++;
	line[n] = '\0';
	*len = n;
	return 1;
}

/* The next entry of ls into ls->next: 1, 0 at the end of the file, or -errno. */
static int stream_entry(struct importer *im, struct fio_log_stream *ls)
{
	char p[LOG_LINE_MAX];
	size_t len = 0;
	int ret;

	while ((ret = stream_line(im, ls, p, &len)) > 0) {
		unsigned long long t, ddir;
		double v;
		int used = 0;
		if (strspn(p, " \t\r") == strlen(p) && strlen(p) == len)
			continue;
		if (strlen(p) != len) {
			text_fmt(im->err, im->errlen, "%s:%u: a NUL byte in the line", ls->path,
				 ls->line);
			return -EINVAL;
		}
		if (sscanf(p, " %llu , %lf , %llu ,%n", &t, &v, &ddir, &used) < 3 || used == 0 ||
		    !isfinite(v) || v < 0) {
			text_fmt(im->err, im->errlen,
				 "%s:%u: not a line of a fio log (time, value, direction, ...)",
				 ls->path, ls->line);
			return -EINVAL;
		}
		if (t > UINT64_MAX / 1000000 / 2) {
			text_fmt(im->err, im->errlen, "%s:%u: the time %llu ms is out of range",
				 ls->path, ls->line, t);
			return -EINVAL;
		}
		if (ddir >= FD_N)
			continue; /* trim */
		ls->next.t_ms = t;
		ls->next.v = v;
		ls->next.d = (unsigned)ddir;
		return 1;
	}
	return ret;
}

/*
 * Hand each entry of one thread's part of ls to fn (per direction, in order). A shared
 * log's part ends where a direction's time goes back (the next thread's log starts). Not
 * where it stays: fio ends a thread's latency log with the window its exit closed, which
 * can be the millisecond of the window before ("1000" twice), and that line is the same
 * thread's; ending the part there gave it to the next thread, whose own lines were then
 * not read.
 */
static int stream_part(struct importer *im, struct fio_log_stream *ls,
		       int (*fn)(struct importer *im, struct fio_log_stream *ls, void *arg),
		       void *arg)
{
	uint64_t last[FD_N] = {0};
	bool seen[FD_N] = {false};
	int ret;

	for (;;) {
		if (!ls->ahead && (ret = stream_entry(im, ls)) <= 0)
			return ret;
		unsigned d = ls->next.d;
		if (ls->shared && seen[d] && ls->next.t_ms < last[d]) {
			ls->ahead = true; /* the next thread's */
			return 0;
		}
		ls->ahead = false;
		seen[d] = true;
		last[d] = ls->next.t_ms;
		if ((ret = fn(im, ls, arg)))
			return ret;
	}
}

/* An IOPS entry of the thread being read (and of the first, the interval's end). */
static int take_iops(struct importer *im, struct fio_log_stream *ls, void *arg)
{
	struct step_logs *sl = arg;
	unsigned d = ls->next.d, i = sl->nv[d];

	if (i >= RESULT_MAX_SAMPLES) {
		text_fmt(im->err, im->errlen, "%s:%u: more than %u intervals", ls->path, ls->line,
			 RESULT_MAX_SAMPLES);
		return -E2BIG;
	}
	if (GROW(sl->v[d], i, sl->capv[d], 64))
		return fio_import_nomem(im);
	if (sl->first) {
		if (GROW(sl->t_ms[d], i, sl->capt[d], 64))
			return fio_import_nomem(im);
		sl->t_ms[d][i] = ls->next.t_ms;
	}
	sl->v[d][sl->nv[d]++] = ls->next.v;
	return 0;
}

/* A latency entry of the thread: weighted by its IOPS of the same interval. */
static int take_lat(struct importer *im, struct fio_log_stream *ls, void *arg)
{
	struct step_logs *sl = arg;
	unsigned d = ls->next.d, i = sl->nlat[d]++;

	(void)im;
	if (i < sl->nv[d] && i < sl->nsum[d]) {
		sl->lat_sum[d][i] += ls->next.v * sl->v[d][i];
		sl->lat_w[d][i] += sl->v[d][i];
	}
	return 0;
}

static void step_logs_free(struct step_logs *sl)
{
	for (unsigned d = 0; d < FD_N; d++) {
		free(sl->v[d]);
		free(sl->t_ms[d]);
		free(sl->iops[d]);
		free(sl->lat_sum[d]);
		free(sl->lat_w[d]);
	}
}

/*
 * Thread number thread of pd into the step's sums: its IOPS log read (the first thread's
 * sizes the sums), its latency log weighted by them, its IOPS added.
 */
static int thread_read(struct importer *im, struct step_logs *sl, const struct pending *pd,
		       const char *iops_prefix, const char *lat_prefix, unsigned thread)
{
	int ret;

	memset(sl->nv, 0, sizeof(sl->nv));
	memset(sl->nlat, 0, sizeof(sl->nlat));
	if ((ret = log_open(im, 0, iops_prefix, "iops", thread, pd->host)) ||
	    (ret = stream_part(im, im->log[0], take_iops, sl)))
		return ret;
	for (unsigned d = 0; sl->first && d < FD_N; d++) {
		unsigned n = sl->nsum[d] = sl->nint[d] = sl->nv[d];
		if (!n)
			continue;
		sl->iops[d] = calloc(n, sizeof(double));
		sl->lat_sum[d] = calloc(n, sizeof(double));
		sl->lat_w[d] = calloc(n, sizeof(double));
		if (!sl->iops[d] || !sl->lat_sum[d] || !sl->lat_w[d])
			return fio_import_nomem(im);
	}
	sl->first = false;
	if (lat_prefix && ((ret = log_open(im, 1, lat_prefix, lat_log[pd->lk], thread, pd->host)) ||
			   (ret = stream_part(im, im->log[1], take_lat, sl))))
		return ret;
	for (unsigned d = 0; d < FD_N; d++) {
		if (sl->nv[d] < sl->nint[d])
			sl->nint[d] = sl->nv[d];
		for (unsigned i = 0; i < sl->nv[d] && i < sl->nsum[d]; i++)
			sl->iops[d][i] += sl->v[d][i];
	}
	return 0;
}

#define COUNT_MAX 9.2e18 /* a sample's count from logs, at most (its read + write fit) */

/* A count from a rate, rounded: false when past COUNT_MAX (a hostile log's rates). */
static bool to_count(double v, uint64_t *out)
{
	*out = v < COUNT_MAX ? (uint64_t)(v + 0.5) : 0;
	return v < COUNT_MAX;
}

/* The step's samples from its sums: the intervals every thread has. */
static int add_samples(struct importer *im, struct result_step *st, const struct step_logs *sl)
{
	unsigned nint = UINT32_MAX;
	double avg_bs[FD_N];

	for (unsigned d = 0; d < FD_N; d++) {
		if (st->summary.d[d].ios && sl->nint[d] < nint)
			nint = sl->nint[d];
		avg_bs[d] = st->summary.d[d].ios
				    ? (double)st->summary.d[d].bytes / (double)st->summary.d[d].ios
				    : 0;
	}
	if (nint == UINT32_MAX)
		nint = 0;
	uint64_t prev_ms = 0;
	for (unsigned i = 0; i < nint; i++) {
		struct sample s;
		uint64_t end_ms = 0;
		memset(&s, 0, sizeof(s));
		for (unsigned d = 0; d < FD_N && !end_ms; d++)
			if (st->summary.d[d].ios)
				end_ms = sl->t_ms[d][i];
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
			if (!st->summary.d[d].ios)
				continue;
			ds->iops = sl->iops[d][i];
			if (!to_count(ds->iops * (double)s.dur_ns / 1e9, &ds->ios) ||
			    !to_count((double)ds->ios * avg_bs[d], &ds->bytes)) {
				text_fmt(im->err, im->errlen,
					 "%s: step '%s': its logs give interval %u a count past "
					 "%.3g, more than any drive does",
					 im->file, st->label, i, COUNT_MAX);
				return -EINVAL;
			}
			ds->mbps = ds->iops * avg_bs[d] / 1e6;
			ds->mean_ns = sl->lat_w[d][i] > 0 ? sl->lat_sum[d][i] / sl->lat_w[d][i] : 0;
		}
		fio_import_combine(&s);
		s.d[DIR_ALL].std_ns = 0; /* not in the logs, as the directions' */
		if (result_step_add_sample(st, &s)) {
			text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
			return -ENOMEM;
		}
	}
	return 0;
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
	struct step_logs sl;
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
	if (pd->log_window[0]) {
		text_fmt(im->err, im->errlen,
			 "%s:%u: job '%s' logged with log_max_value=%s (each interval's "
			 "maximum), not the mean alone: run fio without it to import its logs",
			 im->file, fio_import_line(im, pd->at), pd->name, pd->log_window);
		return -EINVAL;
	}
	memset(&sl, 0, sizeof(sl));
	sl.first = true;
	for (unsigned t = 0; t < n && !ret; t++)
		ret = thread_read(im, &sl, pd, iops_prefix, lat_prefix, first + t);
	if (!ret)
		ret = add_samples(im, st, &sl);
	step_logs_free(&sl);
	return ret;
}
