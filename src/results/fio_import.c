// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's JSON output as a drivebench result (fio_import.h): the builder. Entries read from
 * the document (fio_import_read.c) become steps, their threads and samples (from the
 * logs, fio_import_log.c) are resolved once the document is read, and with several hosts
 * a phase sums them. Shared within the module: fio_import_int.h.
 */
#include "fio_import.h"
#include "fio_import_int.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "fileio.h"
#include "grow.h"
#include "hist.h"
#include "json_read.h"
#include "result_int.h"
#include "result_io.h"
#include "text.h"
#include "units.h"
#include "version.h"

const char *const fio_import_lat_key[LK_N] = {"clat_ns", "lat_ns"};

unsigned fio_import_line(const struct importer *im, size_t at)
{
	struct jread j = im->j;

	j.p = j.buf + at;
	return jread_line(&j);
}

int fio_import_nomem(struct importer *im)
{
	if (!im->j.ret) {
		text_fmt(im->err, im->errlen, "%s: out of memory", im->file);
		im->j.ret = -ENOMEM;
	}
	return im->j.ret;
}

/* ---- the model --------------------------------------------------------------------- */

/*
 * The latency of the step's mean, min, max and std dev: fio's total "lat" when every
 * direction that did I/O has it, else the completion latency "clat" (fio output without
 * lat_ns, such as fio before 3.0's ns units or a trimmed document).
 */
static unsigned entry_stat_kind(const struct fio_entry *e)
{
	for (unsigned d = 0; d < FD_N; d++)
		if (e->d[d].ios && (!e->d[d].lat[LK_LAT].seen || !e->d[d].lat[LK_LAT].n))
			return LK_CLAT;
	return LK_LAT;
}

/* The latency of the step's percentiles: the one fio gave percentiles or bins of. */
static unsigned entry_lat_kind(const struct fio_entry *e)
{
	for (unsigned d = 0; d < FD_N; d++) {
		const struct fio_lat *l = &e->d[d].lat[LK_LAT];
		if (l->have_bins)
			return LK_LAT;
	}
	for (unsigned d = 0; d < FD_N; d++)
		if (e->d[d].lat[LK_CLAT].have_bins)
			return LK_CLAT;
	for (unsigned d = 0; d < FD_N; d++)
		for (unsigned p = 0; p < NPCT; p++)
			if (e->d[d].lat[LK_LAT].have_pct[p])
				return LK_LAT;
	return LK_CLAT;
}

static bool entry_has_bins(const struct fio_entry *e, unsigned lk)
{
	bool any = false;

	for (unsigned d = 0; d < FD_N; d++) {
		if (e->d[d].ios && !e->d[d].lat[lk].have_bins)
			return false;
		any |= e->d[d].lat[lk].have_bins;
	}
	return any;
}

void fio_import_combine(struct sample *s)
{
	const struct dir_stats *a = &s->d[DIR_READ], *b = &s->d[DIR_WRITE];
	struct dir_stats *all = &s->d[DIR_ALL];
	long double n = (long double)a->ios + b->ios;

	if (!a->ios || !b->ios) {
		*all = a->ios ? *a : *b;
		return;
	}
	memset(all, 0, sizeof(*all));
	all->ios = a->ios + b->ios;
	all->bytes = a->bytes + b->bytes;
	all->iops = a->iops + b->iops;
	all->mbps = a->mbps + b->mbps;
	long double mean = ((long double)a->mean_ns * a->ios + (long double)b->mean_ns * b->ios) / n;
	long double sq = 0;
	const struct dir_stats *ds[2] = {a, b};
	for (unsigned i = 0; i < 2; i++)
		sq += (long double)ds[i]->std_ns * ds[i]->std_ns * (ds[i]->ios - 1) +
		      (long double)ds[i]->mean_ns * ds[i]->mean_ns * ds[i]->ios;
	long double var = n > 1 ? (sq - n * mean * mean) / (n - 1) : 0;
	all->mean_ns = (double)mean;
	all->std_ns = var > 0 ? (double)sqrtl(var) : 0;
	all->min_ns = a->min_ns < b->min_ns ? a->min_ns : b->min_ns;
	all->max_ns = a->max_ns > b->max_ns ? a->max_ns : b->max_ns;
}

/* A direction: mean, min, max and std dev of latency sk, percentiles of latency lk. */
static void fill_dir(struct dir_stats *ds, const struct fio_dir *d, unsigned sk, unsigned lk)
{
	const struct fio_lat *l = &d->lat[sk], *pl = &d->lat[lk];

	memset(ds, 0, sizeof(*ds));
	ds->ios = d->ios;
	ds->bytes = d->bytes;
	ds->iops = d->iops;
	ds->mbps = (double)d->bw_bytes / 1e6;
	if (!d->ios)
		return;
	ds->mean_ns = l->mean;
	ds->std_ns = l->std;
	ds->min_ns = l->min;
	ds->max_ns = l->max;
	for (unsigned p = 0; p < NPCT; p++)
		ds->pct_ns[p] = pl->have_pct[p] ? pl->pct[p] : 0;
}

/* Percentiles from histograms, as drivebench computes its own (hist.h). */
static void hist_pcts(struct dir_stats *ds, const struct hist *h)
{
	if (hist_count(h))
		hist_percentiles(h, stats_pct_value, NPCT, ds->pct_ns);
}

/*
 * What the step's numbers mean: the latency kinds of its mean and of its percentiles
 * (and a warning when they differ), fio's wait (polled I/O with hipri), its ioengine
 * and the options of it that change how I/O is issued. Scale and sector sizes are not
 * in fio's output: unknown. 0 or -ENOMEM.
 */
static int entry_def(const struct importer *im, struct result_step *st, const struct fio_entry *e,
		     unsigned sk, unsigned lk)
{
	static const char *const issue_opts[] = {"hipri",	"sqthread_poll", "fixedbufs",
						 "registerfiles", "nonvectored",  "direct"};
	struct step_def *d = &st->def;
	const char *eng = fio_import_opt(im, e, "ioengine");
	size_t used = 0;

	d->lat = sk == LK_LAT ? SL_TOTAL : SL_COMPLETION;
	d->pct_lat = lk == LK_LAT ? SL_TOTAL : SL_COMPLETION;
	d->wait = fio_import_opt_bool(im, e, "hipri") ? SWT_POLLED : SWT_INTERRUPT;
	text_fmt(d->engine, sizeof(d->engine), "fio %s", eng ? eng : "psync");
	/* io_uring's issue: non-blocking first, or every request async (force_async=1); a
	   force_async of N > 1 makes every Nth async, a mix that stays unknown */
	if (eng && !strcmp(eng, "io_uring")) {
		const char *fa = fio_import_opt(im, e, "force_async");
		if (!fa || !strcmp(fa, "0"))
			d->issue = SI_NOWAIT_FIRST;
		else if (!strcmp(fa, "1"))
			d->issue = SI_ASYNC;
	}
	for (size_t i = 0; i < sizeof(issue_opts) / sizeof(issue_opts[0]); i++)
		if (fio_import_opt_bool(im, e, issue_opts[i]) && used < sizeof(d->flags))
			used += (size_t)snprintf(d->flags + used, sizeof(d->flags) - used, "%s%s",
						 used ? "," : "", issue_opts[i]);
	text_fix(d->flags, sizeof(d->flags));
	text_copy(d->version, sizeof(d->version), DB_VERSION);
	if (sk == lk || !(st->hist || st->summary.d[DIR_READ].pct_ns[PCT_50] ||
			  st->summary.d[DIR_WRITE].pct_ns[PCT_50]))
		return 0;
	return result_step_warn(st, SW_CLAT_PERCENTILES,
				"fio gave percentiles of its completion latency only (clat_ns; "
				"lat_percentiles=1 was not set): the mean, min, max and std dev "
				"are total latency (lat_ns), the percentiles and histogram "
				"completion-only");
}

/* Fill step st from entry e (no samples). 0 or -ENOMEM. */
static int make_step(struct importer *im, struct result_step *st, const struct fio_entry *e)
{
	unsigned lk = entry_lat_kind(e), sk = entry_stat_kind(e);
	bool bins = entry_has_bins(e, lk);
	static const struct hist empty;
	uint64_t runtime_ms = 0;

	for (unsigned d = 0; d < FD_N; d++) {
		fill_dir(&st->summary.d[d], &e->d[d], sk, lk);
		if (e->d[d].runtime_ms > runtime_ms)
			runtime_ms = e->d[d].runtime_ms;
	}
	if (!runtime_ms)
		runtime_ms = e->job_runtime_ms;
	st->summary.dur_ns = runtime_ms > UINT64_MAX / 1000000 ? UINT64_MAX : runtime_ms * 1000000;
	st->wl.time_ns = st->summary.dur_ns;
	if (bins) {
		const struct hist *rd = e->d[FD_READ].lat[lk].bins, *wr = e->d[FD_WRITE].lat[lk].bins;
		struct hist *all = malloc(sizeof(*all));
		if (!all)
			return -ENOMEM;
		*all = rd ? *rd : empty;
		if (wr)
			hist_merge(all, wr);
		if (result_step_set_hist(st, rd ? rd : &empty, wr ? wr : &empty)) {
			free(all);
			return -ENOMEM;
		}
		hist_pcts(&st->summary.d[DIR_READ], rd ? rd : &empty);
		hist_pcts(&st->summary.d[DIR_WRITE], wr ? wr : &empty);
		fio_import_combine(&st->summary);
		hist_pcts(&st->summary.d[DIR_ALL], all);
		free(all);
	} else {
		fio_import_combine(&st->summary);
		if (st->summary.d[DIR_READ].ios && st->summary.d[DIR_WRITE].ios)
			memset(st->summary.d[DIR_ALL].pct_ns, 0, sizeof(st->summary.d[0].pct_ns));
		if (result_step_warn(st, SW_NO_HISTOGRAM,
				     "fio's plain json output: %s percentiles are fio's own, "
				     "no histogram",
				     fio_import_lat_key[lk]))
			return -ENOMEM;
	}
	snprintf(st->engine, sizeof(st->engine), "%s %s (%s)", im->version,
		 fio_import_opt(im, e, "ioengine") ? fio_import_opt(im, e, "ioengine") : "psync",
		 fio_import_lat_key[sk]);
	text_fix(st->engine, sizeof(st->engine));
	if (entry_def(im, st, e, sk, lk))
		return -ENOMEM;
	if (e->error) {
		st->status = RS_FAILED;
		text_fmt(st->error, sizeof(st->error), "fio error %d (%s)", e->error,
			 strerror(e->error));
	} else {
		st->status = RS_COMPLETE;
	}
	return 0;
}

/* ---- aggregates over hosts ---------------------------------------------------------- */

/* Add step b (another host's run of the same job) into a. */
static int step_add(struct result_step *a, const struct result_step *b)
{
	struct hist *ha = NULL, *hb = NULL;
	int ret = 0;

	for (unsigned d = DIR_READ; d <= DIR_WRITE; d++) {
		struct dir_stats *x = &a->summary.d[d];
		const struct dir_stats *y = &b->summary.d[d];
		struct sample two = {0};
		if (!y->ios)
			continue;
		if (!x->ios) {
			*x = *y;
			continue;
		}
		/* the two hosts as the two directions of fio_import_combine() */
		two.d[DIR_READ] = *x;
		two.d[DIR_WRITE] = *y;
		fio_import_combine(&two);
		*x = two.d[DIR_ALL];
	}
	if (b->summary.dur_ns > a->summary.dur_ns)
		a->summary.dur_ns = b->summary.dur_ns;
	if (!a->hist || !b->hist) {
		/* no histogram on one host: percentiles are not known for the sum */
		for (unsigned d = 0; d < NDIR; d++)
			memset(a->summary.d[d].pct_ns, 0, sizeof(a->summary.d[d].pct_ns));
		fio_import_combine(&a->summary);
		return 0;
	}
	ha = calloc(2, sizeof(*ha));
	hb = calloc(2, sizeof(*hb));
	if (!ha || !hb) {
		ret = -ENOMEM;
		goto out;
	}
	result_step_get_hist(a, &ha[0], &ha[1]);
	result_step_get_hist(b, &hb[0], &hb[1]);
	hist_merge(&ha[0], &hb[0]);
	hist_merge(&ha[1], &hb[1]);
	if ((ret = result_step_set_hist(a, &ha[0], &ha[1])))
		goto out;
	hist_pcts(&a->summary.d[DIR_READ], &ha[0]);
	hist_pcts(&a->summary.d[DIR_WRITE], &ha[1]);
	fio_import_combine(&a->summary);
	hist_merge(&ha[0], &ha[1]);
	hist_pcts(&a->summary.d[DIR_ALL], &ha[0]);
out:
	free(ha);
	free(hb);
	return ret;
}

/* ---- the document ------------------------------------------------------------------- */

void fio_import_host_phase_name(char *name, size_t len, const char *prefix, const char *host,
				unsigned n)
{
	char tail[16];
	int keep;

	if (strlen(prefix) + 2 + strlen(host) < len) {
		snprintf(name, len, "%s @%s", prefix, host);
		return;
	}
	snprintf(tail, sizeof(tail), "~%u", n);
	keep = (int)len - 1 - (int)strlen(prefix) - 2 - (int)strlen(tail);
	snprintf(name, len, "%s @%.*s%s", prefix, keep > 0 ? keep : 0, host, tail);
}

/* The phase of host (its full "HOST:PORT"; "" run locally), made when it is new. */
static struct result_phase *phase_for(struct importer *im, const char *host)
{
	char name[sizeof(im->r->phases[0].name)];
	struct result *r = im->r;
	unsigned h;

	for (h = 0; host[0] && h < im->nhosts; h++)
		if (!strcmp(im->hosts[h], host))
			return &r->phases[im->host_phase[h]];
	if (!host[0]) {
		snprintf(name, sizeof(name), "fio");
		for (unsigned p = 0; p < r->nphases; p++)
			if (!strcmp(r->phases[p].name, name))
				return &r->phases[p];
	} else {
		if (h >= FIO_IMPORT_MAX_HOSTS) {
			jread_fail(&im->j, "more than %u hosts", FIO_IMPORT_MAX_HOSTS);
			return NULL;
		}
		if (!im->hosts) {
			im->hosts = calloc(FIO_IMPORT_MAX_HOSTS, sizeof(*im->hosts));
			im->host_phase = calloc(FIO_IMPORT_MAX_HOSTS, sizeof(*im->host_phase));
			if (!im->hosts || !im->host_phase)
				return NULL;
		}
		fio_import_host_phase_name(name, sizeof(name), "fio", host, h + 1);
	}
	struct result_phase *ph = result_add_phase(r, name, PH_RUN);
	if (!ph)
		return NULL;
	ph->status = RS_COMPLETE;
	if (host[0]) {
		text_copy(im->hosts[h], sizeof(im->hosts[h]), host);
		im->host_phase[h] = r->nphases - 1;
		im->nhosts++;
	}
	return ph;
}

int fio_import_add_entry(struct importer *im, struct fio_entry *e)
{
	struct result *r = im->r;
	struct result_phase *ph;
	struct result_step *st;
	struct workload wl;
	struct fio_wl_notes notes;
	int ret;

	if (!strcmp(e->name, "All clients"))
		return 0; /* fio's sum of every group: the aggregate phase does it per job */
	if (result_nsteps(r) >= RESULT_MAX_STEPS) {
		text_fmt(im->err, im->errlen, "%s:%u: more than %u jobs", im->file, fio_import_line(im, e->at),
			 RESULT_MAX_STEPS);
		return -E2BIG;
	}
	fio_import_workload(im, e, &wl, &notes);
	if (!(ph = phase_for(im, e->host)) || !(st = result_add_step(ph, e->name, &wl)))
		return fio_import_nomem(im);
	if ((ret = make_step(im, st, e)))
		return fio_import_nomem(im);
	if (notes.bs[0] && result_step_warn(st, SW_BS_VARIED, "%s", notes.bs))
		return fio_import_nomem(im);
	if (notes.mixed[0] &&
	    result_step_warn(st, SW_GROUP_MIXED,
			     "a group of jobs of other workloads (group_reporting): fio gave the "
			     "options of its last job (%s), the figures of every job: %s",
			     notes.mixed, notes.why))
		return fio_import_nomem(im);
	if (st->status == RS_FAILED)
		ph->status = r->status = RS_FAILED;
	if (GROW_POW2(im->pend, im->npend, 1))
		return fio_import_nomem(im);
	struct pending *pd = &im->pend[im->npend++];
	const char *iops_log = fio_import_opt(im, e, "write_iops_log"),
		   *lat_log_opt = fio_import_opt(im, e, "write_lat_log");
	memset(pd, 0, sizeof(*pd));
	pd->phase = (unsigned)(ph - r->phases);
	pd->step = ph->nsteps - 1;
	memcpy(pd->name, e->name, sizeof(pd->name));
	memcpy(pd->host, e->host, sizeof(pd->host));
	pd->groupid = e->groupid;
	pd->numjobs = fio_import_opt_uint(im, e, "numjobs", 1);
	pd->lk = entry_stat_kind(e); /* the logs' mean latency is the summary's kind */
	pd->at = e->at;
	pd->log_avg = fio_import_opt(im, e, "log_avg_msec") != NULL;
	const char *win = fio_import_opt(im, e, "log_window_value");
	if (!win)
		win = fio_import_opt(im, e, "log_max_value");
	/* fio's values for a window's mean: avg, 0 (fio 3.33's bool: false) */
	if (win && strcmp(win, "avg") && strcmp(win, "0") && strcmp(win, "false"))
		text_copy(pd->log_window, sizeof(pd->log_window), win);
	if ((iops_log && !(pd->iops_prefix = strdup(iops_log))) ||
	    (lat_log_opt && !(pd->lat_prefix = strdup(lat_log_opt))))
		return fio_import_nomem(im);

	/* the job's options, as fio printed them, in the host record */
	struct json_object *job = json_object_new_object();
	if (!job)
		return fio_import_nomem(im);
	json_object_object_add(job, "name", json_object_new_string(st->label));
	if (e->host[0])
		json_object_object_add(job, "host", json_object_new_string(e->host));
	json_object_object_add(job, "options", e->opts ? e->opts : json_object_new_object());
	if (e->ss) {
		json_object_object_add(job, "steadystate", e->ss);
		e->ss = NULL;
	}
	e->opts = NULL;
	json_object_array_add(im->jobs_rec, job);
	return 0;
}

/*
 * Threads per step, and the steps' samples from the logs (numbering threads as fio does:
 * from 1, in job order). A run of entries of one job (name, group, host) as long as its
 * numjobs is one entry per thread; a shorter one is a group report.
 */
/*
 * Where thread numbering stands for host (fio numbers each server's threads from 1): its
 * counter in hosts (at most FIO_IMPORT_MAX_HOSTS), or NULL when there are more.
 */
struct host_threads {
	const char *host;
	unsigned next;
};

static unsigned *host_thread(struct host_threads *h, unsigned *nh, const char *host)
{
	for (unsigned i = 0; i < *nh; i++)
		if (!strcmp(h[i].host, host))
			return &h[i].next;
	if (*nh == FIO_IMPORT_MAX_HOSTS)
		return NULL;
	h[*nh] = (struct host_threads){host, 1};
	return &h[(*nh)++].next;
}

/*
 * Are pd's logs its own? fio's client names a server's copy after the host alone (what
 * comes before the port: "::1" of "::1:8765"), so two servers on one host (other ports)
 * write the same files, and neither's logs are read.
 */
static bool logs_own(const struct importer *im, const struct pending *pd)
{
	size_t n = fio_import_host_len(pd->host);

	for (unsigned i = 0; pd->host[0] && i < im->npend; i++) {
		const char *h = im->pend[i].host;
		if (fio_import_host_len(h) == n && !strncmp(h, pd->host, n) && strcmp(h, pd->host))
			return false;
	}
	return true;
}

static int resolve_threads(struct importer *im)
{
	struct host_threads hosts[FIO_IMPORT_MAX_HOSTS];
	unsigned nhosts = 0;

	for (unsigned i = 0, j; i < im->npend; i = j) {
		const struct pending *a = &im->pend[i];
		for (j = i + 1; j < im->npend; j++) {
			const struct pending *b = &im->pend[j];
			if (strcmp(a->name, b->name) || strcmp(a->host, b->host) ||
			    a->groupid != b->groupid || a->numjobs != b->numjobs)
				break;
		}
		unsigned per = j - i >= a->numjobs ? 1 : a->numjobs;
		for (unsigned k = i; k < j; k++) {
			const struct pending *pd = &im->pend[k];
			struct result_step *st = &im->r->phases[pd->phase].steps[pd->step];
			st->wl.threads = per;
			st->wl.rate_iops *= per;
			/* one entry per thread: told apart as "job #1", "job #2" ... */
			if (per == 1 && j - i > 1)
				text_fmt(st->label, sizeof(st->label), "%.50s #%u", pd->name, k - i + 1);
			unsigned *thread = host_thread(hosts, &nhosts, pd->host);
			if (im->logs_dir && thread && *thread - 1 + per > FIO_IMPORT_MAX_LOG_THREADS) {
				text_fmt(im->err, im->errlen,
					 "%s:%u: job '%s': the logs of more than %u threads%s%s, "
					 "fio's own limit",
					 im->file, fio_import_line(im, pd->at), pd->name,
					 FIO_IMPORT_MAX_LOG_THREADS, pd->host[0] ? " on " : "",
					 pd->host);
				return im->j.ret = -E2BIG;
			}
			if (im->logs_dir && thread && logs_own(im, pd)) {
				int ret = fio_import_samples(im, st, pd, *thread, per);
				if (ret) {
					im->j.ret = ret;
					return ret;
				}
			}
			if (thread)
				*thread += per;
		}
	}
	return 0;
}

/* With several hosts, phase "fio" becomes the sum of the hosts' runs of each job. */
static int aggregate(struct importer *im)
{
	struct result *r = im->r;
	unsigned nhosts = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		nhosts += !strncmp(r->phases[p].name, "fio @", 5);
	if (nhosts < 2)
		return 0;
	struct result_phase *agg = result_add_phase(r, "fio", PH_RUN);
	if (!agg)
		return fio_import_nomem(im);
	agg->status = RS_COMPLETE;
	/* the aggregate first: move it to the front */
	struct result_phase tmp = r->phases[r->nphases - 1];
	memmove(&r->phases[1], &r->phases[0], (r->nphases - 1) * sizeof(*r->phases));
	r->phases[0] = tmp;
	agg = &r->phases[0];
	for (unsigned p = 1; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct result_step *src = &ph->steps[s];
			struct result_step *dst = NULL;
			for (unsigned k = 0; k < agg->nsteps && !dst; k++)
				if (!strcmp(agg->steps[k].label, src->label))
					dst = &agg->steps[k];
			if (dst) {
				if (step_add(dst, src))
					return fio_import_nomem(im);
				dst->wl.threads += src->wl.threads;
				if (src->status == RS_FAILED)
					dst->status = RS_FAILED;
				continue;
			}
			dst = result_add_step(agg, src->label, &src->wl);
			if (!dst)
				return fio_import_nomem(im);
			dst->summary = src->summary;
			dst->status = src->status;
			memcpy(dst->error, src->error, sizeof(dst->error));
			memcpy(dst->engine, src->engine, sizeof(dst->engine));
			dst->def = src->def;
			for (unsigned w = 0; w < src->nwarnings; w++)
				if (result_add_warning(dst, src->warnings[w].code,
						       src->warnings[w].text))
					return fio_import_nomem(im);
			if (src->hist) {
				struct hist *h = calloc(2, sizeof(*h));
				if (!h)
					return fio_import_nomem(im);
				result_step_get_hist(src, &h[0], &h[1]);
				int ret = result_step_set_hist(dst, &h[0], &h[1]);
				free(h);
				if (ret)
					return fio_import_nomem(im);
			}
		}
	}
	return 0;
}

/* fio's timestamp; one past any calendar (a hostile file's) is no time at all */
static void iso_time(char *buf, size_t len, uint64_t t)
{
	if (t > (uint64_t)INT32_MAX * 64)
		snprintf(buf, len, "%s", "");
	else
		units_fmt_utc(buf, len, (time_t)t);
}
/* The target: the first job's filename (a device under /dev is a block device). */
static struct json_object *target_record(const struct importer *im)
{
	struct json_object *t = json_object_new_object(), *jobs = im->jobs_rec, *o, *v;
	const char *path = NULL;

	if (!t)
		return NULL;
	for (size_t i = 0; !path && i < json_object_array_length(jobs); i++) {
		o = json_object_array_get_idx(jobs, i);
		if (json_object_object_get_ex(o, "options", &o) &&
		    json_object_object_get_ex(o, "filename", &v))
			path = json_object_get_string(v);
	}
	if (!path && im->global && json_object_object_get_ex(im->global, "filename", &v))
		path = json_object_get_string(v);
	if (!path)
		path = "";
	/* fio's filename separates files by ':'; one of a name is written "\:" */
	char *unescaped = strdup(path);
	if (!unescaped) {
		json_object_put(t);
		return NULL;
	}
	for (char *from = unescaped, *to = unescaped;; from++) {
		if (from[0] == '\\' && from[1] == ':')
			from++;
		if (!(*to++ = *from))
			break;
	}
	json_object_object_add(t, "path", json_object_new_string(unescaped));
	free(unescaped);
	json_object_object_add(t, "kind", json_object_new_string(
						  strncmp(path, "/dev/", 5) ? "file" : "block"));
	return t;
}

static int import_buf(struct result *r, const char *buf, size_t len, const char *file,
		      const char *logs_dir, struct fio_import_io *io, char *err, size_t errlen)
{
	struct importer im = {.r = r, .file = file, .logs_dir = logs_dir, .io = io, .err = err,
			      .errlen = errlen};
	const char *start = buf;
	struct json_object *fio = NULL;
	char hosts[1024] = "";
	int ret;

	result_init(r);
	/* the document starts at the first line that opens an object */
	while (start < buf + len && *start != '{') {
		const char *nl = memchr(start, '\n', (size_t)(buf + len - start));
		start = nl ? nl + 1 : buf + len;
	}
	jread_init(&im.j, buf, len, file, err, errlen);
	im.j.p = start;
	if (start >= buf + len) {
		jread_fail(&im.j, "not fio's JSON output (--output-format=json or json+): no "
				  "line starts an object");
		goto out;
	}
	im.jobs_rec = json_object_new_array();
	fio = json_object_new_object();
	r->host = json_object_new_object();
	if (!im.jobs_rec || !fio || !r->host) {
		fio_import_nomem(&im);
		goto out;
	}
	r->status = RS_COMPLETE;
	r->scale = 0; /* fio's output says nothing of a preset's scale */
	if (fio_import_listing(&im, buf, (size_t)(start - buf)))
		goto out;
	fio_import_read_document(&im);
	if (im.j.ret || resolve_threads(&im) || aggregate(&im))
		goto out;
	if (!r->nphases) {
		jread_fail(&im.j, "fio ran no job");
		goto out;
	}

	/* host: fio's version and the options of every job; the hosts' names when known */
	struct json_object *list = im.nhosts ? json_object_new_array() : NULL;
	for (unsigned h = 0; h < im.nhosts; h++) {
		text_fmt(hosts + strlen(hosts), sizeof(hosts) - strlen(hosts), "%s%s",
			 hosts[0] ? ", " : "", im.hosts[h]);
		if (list)
			json_object_array_add(list, json_object_new_string(im.hosts[h]));
	}
	if (list)
		json_object_object_add(fio, "hosts", list);
	if (hosts[0])
		json_object_object_add(r->host, "hostname", json_object_new_string(hosts));
	json_object_object_add(fio, "version", json_object_new_string(im.version));
	json_object_object_add(fio, "source", json_object_new_string(file));
	json_object_object_add(fio, "time", json_object_new_string(im.time));
	json_object_object_add(fio, "global options",
			       im.global ? json_object_get(im.global) : json_object_new_object());
	if (!(r->target = target_record(&im))) {
		fio_import_nomem(&im);
		goto out;
	}
	json_object_object_add(fio, "jobs", im.jobs_rec);
	im.jobs_rec = NULL;
	json_object_object_add(r->host, "fio", fio);
	fio = NULL;
	if (result_summarize(r)) {
		fio_import_nomem(&im);
		goto out;
	}
	/* fio's timestamp is when it wrote its output */
	iso_time(r->started, sizeof(r->started), im.timestamp);
	iso_time(r->ended, sizeof(r->ended), im.timestamp);
out:
	ret = im.j.ret;
	fio_import_logs_close(&im);
	for (unsigned i = 0; i < im.npend; i++) {
		free(im.pend[i].iops_prefix);
		free(im.pend[i].lat_prefix);
	}
	free(im.pend);
	free(im.hosts);
	free(im.host_phase);
	free(im.mixed_groups);
	if (im.jobs_rec)
		json_object_put(im.jobs_rec);
	if (fio)
		json_object_put(fio);
	if (im.global)
		json_object_put(im.global);
	if (ret)
		result_free(r);
	return ret;
}

int fio_import_buf(struct result *r, const char *buf, size_t len, const char *file,
		   const char *logs_dir, char *err, size_t errlen)
{
	return import_buf(r, buf, len, file, logs_dir, NULL, err, errlen);
}

int fio_import_file(struct result *r, const char *path, const char *logs_dir, char *err,
		    size_t errlen)
{
	return fio_import_file_io(r, path, logs_dir, NULL, err, errlen);
}

int fio_import_file_io(struct result *r, const char *path, const char *logs_dir,
		       struct fio_import_io *io, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	result_init(r);
	ret = fileio_read_text(path, "fio's JSON output", FIO_IMPORT_MAX_BYTES, &text, &len, err,
			       errlen);
	if (ret)
		return ret;
	ret = import_buf(r, text, len, path, logs_dir, io, err, errlen);
	free(text);
	return ret;
}
