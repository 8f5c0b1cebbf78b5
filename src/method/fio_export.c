// SPDX-License-Identifier: GPL-2.0-or-later
#include "fio_export.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset.h"
#include "strbuf.h"
#include "text.h"
#include "units.h"

/* text_visible() into buf, returning buf, for printf arguments. */
static const char *text_visible_buf(char *buf, size_t len, const char *s)
{
	text_visible(buf, len, s);
	return buf;
}

/* fio reads plain numbers as seconds and takes ms/s/m/h suffixes. */
static char *fio_time(char *buf, size_t len, uint64_t ns)
{
	uint64_t ms = (ns + 500000) / 1000000;

	if (ms % 1000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ms / 1000));
	else
		snprintf(buf, len, "%llums", (unsigned long long)(ms ? ms : 1));
	return buf;
}

void fio_export_job_name(char *buf, size_t len, unsigned n, const char *phase, const char *label)
{
	size_t i;

	snprintf(buf, len, "%03u-%s-%s", n, phase, label);
	for (i = 0; buf[i]; i++)
		if (!isalnum((unsigned char)buf[i]) && !strchr("-_.%", buf[i]))
			buf[i] = '-';
	/* '%' would be read as a format by some fio outputs */
	for (i = 0; buf[i]; i++)
		if (buf[i] == '%')
			buf[i] = 'p';
}

/* A stream's job is labelled "STEP-STREAM". */
static void stream_label(char *buf, size_t len, const struct plan_step *st, unsigned k)
{
	snprintf(buf, len, "%s-%s", st->label, st->streams[k].name);
}

void fio_export_step_job_name(char *buf, size_t len, unsigned n, const struct plan_phase *ph,
			      const struct plan_step *st)
{
	char label[160];

	if (st->nstreams)
		stream_label(label, sizeof(label), st, 0);
	else
		snprintf(label, sizeof(label), "%s", st->label);
	fio_export_job_name(buf, len, n, ph->name, label);
}

static const char *fio_rw(const struct workload *wl)
{
	bool seq = wl->pattern == WL_SEQUENTIAL;

	if (wl->read_pct == 100)
		return seq ? "read" : "randread";
	if (wl->read_pct == 0)
		return seq ? "write" : "randwrite";
	return seq ? "rw" : "randrw";
}

/*
 * fio's steady-state detection for a phase of one step run until steady: fio measures
 * once a second and ends the job when, over a rolling window (steadystate_duration: the
 * SNIA window of rounds), every measurement is within the limit of the window's mean
 * (steadystate=iops:X%, bw:X% for MB/s). That is SNIA's data-excursion criterion (max -
 * min of the round averages within X% of their average) as fio can state it; fio judges
 * one criterion per job, so the slope criterion is named in a comment only.
 */
static void steady(struct strbuf *o, const struct plan_phase *ph, const struct plan_step *st)
{
	const char *track = ph->track[0] ? ph->track : "iops";
	const char *dot = strchr(track, '.');
	const char *metric = dot ? dot + 1 : track;
	bool bw = !strcmp(metric, "mbps");
	char a[32];

	if (strcmp(metric, "iops") && !bw)
		strbuf_add(o, "; drivebench tracks %s; fio's steady state tracks IOPS or bandwidth only: "
		       "IOPS here\n",
		    track);
	strbuf_add(o, "; SNIA's slope criterion (best-fit excursion <= %g%%) has no fio equivalent "
	       "beside this one\n",
	    ph->steady.slope_limit_pct);
	strbuf_add(o, "steadystate=%s:%g%%\n", bw ? "bw" : "iops", ph->steady.data_limit_pct);
	strbuf_add(o, "steadystate_duration=%s\n",
	    fio_time(a, sizeof(a), st->wl.time_ns * ph->steady.window));
	strbuf_add(o, "steadystate_ramp_time=%s\n", fio_time(a, sizeof(a), st->wl.ramp_ns));
}

/*
 * One fio job: a step, or one stream of a step of several (the streams after the first
 * start with it, without stonewall: one group, reported together as drivebench's step).
 * wl is the step's or the stream's workload, with rate_iops its cap.
 */
static void job(struct strbuf *o, unsigned n, const struct plan_phase *ph, const struct plan_step *st,
		const struct workload *wl, uint64_t time_ns, const char *label, bool stonewall,
		bool logs)
{
	char name[128], a[64];

	fio_export_job_name(name, sizeof(name), n, ph->name, label);
	strbuf_add(o, "[%s]\n%srw=%s\n", name, stonewall ? "stonewall\n" : "", fio_rw(wl));
	if (logs)
		strbuf_add(o, "write_iops_log=%s\nwrite_lat_log=%s\nlog_avg_msec=%llu\n", name, name,
			   (unsigned long long)(wl->interval_ns >= 1000000 ? wl->interval_ns / 1000000
									 : 1));
	if (wl->read_pct != 100 && wl->read_pct != 0)
		strbuf_add(o, "rwmixread=%u\n", wl->read_pct);
	if (wl->nsplit)
		strbuf_add(o, "bssplit=%s\n", workload_fmt_bssplit(wl, a, sizeof(a)));
	else
		strbuf_add(o, "bs=%s\n", units_fmt_size(a, sizeof(a), wl->bs));
	strbuf_add(o, "numjobs=%u\niodepth=%u\n", wl->threads, wl->qdepth);
	if (wl->range_start)
		strbuf_add(o, "offset=%s\n", units_fmt_size(a, sizeof(a), wl->range_start));
	/* drivebench gives each sequential thread its own slice, as offset_increment does */
	if (wl->pattern == WL_SEQUENTIAL && wl->threads > 1 && !wl->range_size) {
		double pct = (wl->range_pct > 0 ? wl->range_pct : 100.0) / wl->threads;
		strbuf_add(o, "size=%.6g%%\noffset_increment=%.6g%%\n", pct, pct);
	} else if (wl->range_pct > 0) {
		strbuf_add(o, "size=%.6g%%\n", wl->range_pct);
	} else if (wl->range_size) {
		if (wl->pattern == WL_SEQUENTIAL && wl->threads > 1) {
			uint64_t slice = wl->range_size / wl->threads;
			strbuf_add(o, "size=%llu\noffset_increment=%llu\n", (unsigned long long)slice,
			    (unsigned long long)slice);
		} else {
			strbuf_add(o, "size=%s\n", units_fmt_size(a, sizeof(a), wl->range_size));
		}
	}
	if (st->loops_set) {
		strbuf_add(o, "; drivebench ends this step after %g x the range; fio loops whole passes\n",
		    st->loops_bytes_x);
		strbuf_add(o, "loops=%u\n",
		    st->loops_bytes_x >= 1 ? (unsigned)(st->loops_bytes_x + 0.5) : 1u);
		strbuf_add(o, "runtime=%s\n", fio_time(a, sizeof(a), time_ns));
	} else {
		strbuf_add(o, "time_based=1\nruntime=%s\n", fio_time(a, sizeof(a), time_ns));
	}
	if (wl->ramp_ns)
		strbuf_add(o, "ramp_time=%s\n", fio_time(a, sizeof(a), wl->ramp_ns));
	if (st->rate_pct > 0)
		strbuf_add(o,
		    "; rate: %g%% of the IOPS of the last uncapped job, which drivebench "
		    "measures as it runs;\n; fio has no such rate: set rate_iops= (per job, "
		    "i.e. total / numjobs) by hand\n",
		    st->rate_pct);
	else if (wl->rate_iops)
		strbuf_add(o,
		    "; drivebench caps the total at %llu IOPS; fio's rate_iops is per job\n"
		    "rate_iops=%llu\n",
		    (unsigned long long)wl->rate_iops,
		    (unsigned long long)((wl->rate_iops + wl->threads - 1) / wl->threads));
	if (wl->read_pct < 100) {
		if (wl->data == WL_DATA_ZERO)
			strbuf_add(o, "zero_buffers=1\n");
		else if (wl->data == WL_DATA_COMPRESS)
			strbuf_add(o, "refill_buffers=1\nbuffer_compress_percentage=%u\n",
			    wl->compress_pct);
		else
			strbuf_add(o, "refill_buffers=1\n");
	}
	if (wl->dist != WL_DIST_UNIFORM && wl->pattern == WL_RANDOM) {
		char dist[WL_MAX_ZONES * 8 + 16];
		if (wl->dist != WL_DIST_ZONED)
			strbuf_add(o,
			    "; fio spreads the hot blocks over the range by a hash; drivebench "
			    "keeps them\n; at its %s: the same shares, other blocks\n",
			    wl->dist == WL_DIST_NORMAL ? "middle" : "start");
		/* drivebench keeps no map of the blocks touched, skewed or not */
		strbuf_add(o, "random_distribution=%s\nnorandommap=1\n",
		    workload_fmt_dist(wl, dist, sizeof(dist)));
	}
	if (wl->seed)
		strbuf_add(o, "randseed=%llu\n", (unsigned long long)wl->seed);
	if (ph->until == UNTIL_STEADY && ph->nsteps == 1)
		steady(o, ph, st);
	strbuf_add(o, "\n");
}

/* A step of several streams: one job per stream, all in one group. */
static void streams(struct strbuf *o, unsigned n, const struct plan_phase *ph,
		    const struct plan_step *st, uint64_t time_ns)
{
	double shared = 0;
	unsigned unshared = 0;
	char label[160];

	for (unsigned k = 0; k < st->nstreams; k++) {
		shared += st->streams[k].share_pct;
		unshared += st->streams[k].share_pct == 0;
	}
	strbuf_add(o, "; step %u: %u streams at once, one group (group_reporting sums them as "
		      "drivebench's step)\n",
		   n, st->nstreams);
	for (unsigned k = 0; k < st->nstreams; k++) {
		struct workload wl = st->streams[k].wl;
		double pct = st->streams[k].share_pct > 0 ? st->streams[k].share_pct
							  : (100.0 - shared) / unshared;
		wl.rate_iops = st->wl.rate_iops ? (uint64_t)((double)st->wl.rate_iops * pct / 100.0 + 0.5)
					       : 0;
		if (st->wl.rate_iops && !wl.rate_iops)
			wl.rate_iops = 1;
		stream_label(label, sizeof(label), st, k);
		job(o, n, ph, st, &wl, time_ns, label, k == 0, false);
	}
}

static void purge(struct strbuf *o, const struct plan_phase *ph)
{
	const struct workload *wl = &ph->steps[0].wl;
	char a[32], b[32];

	char name[128];
	strbuf_add(o, "; ---- %s: %s ----\n", text_visible_buf(name, sizeof(name), ph->name),
	    purge_method_name[ph->purge]);
	if (ph->purge == PURGE_NONE) {
		strbuf_add(o, "; nothing to do\n\n");
		return;
	}
	strbuf_add(o, "; fio has no purge of drivebench's kind; before the jobs below, run\n");
	if (wl->range_pct > 0)
		snprintf(b, sizeof(b), "%.6g%% of the target", wl->range_pct);
	else if (wl->range_size)
		units_fmt_size(b, sizeof(b), wl->range_size);
	else
		snprintf(b, sizeof(b), "the rest of the target");
	units_fmt_size(a, sizeof(a), wl->range_start);
	if (ph->purge == PURGE_DISCARD)
		strbuf_add(o, ";   blkdiscard (block device) or fallocate --punch-hole (file)\n");
	else
		strbuf_add(o, ";   blkdiscard --zeroout (block device), or write zeroes (file)\n");
	strbuf_add(o, "; over the range from %s, length %s.\n\n", a, b);
}

int fio_export_filename(char *buf, size_t len, const char *path)
{
	size_t n = 0;

	for (; *path; path++) {
		if (*path == ':' && n + 1 < len)
			buf[n++] = '\\';
		if (n + 1 >= len)
			return -ENAMETOOLONG;
		buf[n++] = *path;
	}
	if (n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

char *fio_export(const struct plan *p)
{
	return fio_export_opts(p, 0);
}

char *fio_export_opts(const struct plan *p, unsigned flags)
{
	struct strbuf o = {0};
	char a[32], name[512], file[4096];
	unsigned n = 0;

	/* names are the preset's (and the file's): shown, not passed through, in comments */
	strbuf_add(&o, "; fio job file exported by drivebench from the preset \"%s\" (%s), scale %g\n",
	    text_visible_buf(name, sizeof(name), p->name),
	    text_visible_buf(file, sizeof(file), p->file), p->scale);
	strbuf_add(&o, "; Run it with the target in the environment (fio refuses the file without it):\n"
		";   DRIVEBENCH_TARGET=/dev/nvme0n1 fio THIS_FILE\n"
		"; fio separates files by ':': write each ':' of the path as '\\:'\n"
		";   DRIVEBENCH_TARGET='/dev/disk/by-path/pci-0000\\:01\\:00.0-nvme-1' fio THIS_FILE\n"
		"; One job per drivebench step, in drivebench's order; stonewall makes each wait\n"
		"; for the one before. Every writing job destroys data on the target.\n\n");
	/*
	 * lat_percentiles: fio's percentiles (and json+ bins) of its total latency, lat,
	 * which is what drivebench measures; without it fio gives them of clat only.
	 */
	strbuf_add(&o, "; lat_percentiles=1: percentiles of the total latency (submission to "
		"completion),\n; as drivebench measures it, not of the completion latency alone.\n");
	/* allow_file_create=0: a target that is not there is an error, as drivebench's own
	   runs never create one (a name mistyped under /dev would become a file) */
	strbuf_add(&o, "; allow_file_create=0: the target must be there; none is created.\n");
	strbuf_add(&o, "[global]\nioengine=io_uring\ndirect=1\nthread=1\ngroup_reporting=1\n"
		       "lat_percentiles=1\nallow_file_create=0\nfilename=${DRIVEBENCH_TARGET}\n\n");
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];

		if (ph->kind == PH_PURGE) {
			purge(&o, ph);
			continue;
		}
		strbuf_add(&o, "; ---- %s: %u step%s ----\n", text_visible_buf(name, sizeof(name), ph->name),
		    ph->nsteps, ph->nsteps == 1 ? "" : "s");
		if (ph->until != UNTIL_TIME) {
			strbuf_add(&o,
			    "; drivebench repeats this phase in rounds %s %s of step %u is "
			    "steady (SNIA PTS:\n; window %u rounds, max-min <= %g%% and best-fit "
			    "excursion <= %g%% of the average),\n; at most %u rounds%s%s.\n",
			    ph->until == UNTIL_FIXED ? "(all of them), judging whether" : "until",
			    ph->track, ph->track_step + 1, ph->steady.window,
			    ph->steady.data_limit_pct, ph->steady.slope_limit_pct,
			    ph->steady.max_rounds, ph->max_time_ns ? " or " : "",
			    ph->max_time_ns ? units_fmt_duration(a, sizeof(a), ph->max_time_ns)
					    : "");
			if (ph->until == UNTIL_FIXED)
				strbuf_add(&o, "; this job runs the whole phase, as drivebench does; judge its "
					"steady state\n; from its log (write_iops_log, log_avg_msec).\n\n");
			else if (ph->nsteps == 1)
				strbuf_add(&o, "; fio's steady-state detection (steadystate=) ends this job, "
					"which runs at most\n; the longest the phase may take.\n\n");
			else
				strbuf_add(&o, "; fio's steady-state detection ends one job, not a round of "
					"several: these\n; jobs are one round; repeat them (e.g. run "
					"the file again) until the\n; tracked job's numbers settle.\n\n");
		} else {
			strbuf_add(&o, "\n");
		}
		uint64_t whole = plan_phase_duration_ns(ph);
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct plan_step *st = &ph->steps[s];
			uint64_t t = st->wl.time_ns;
			if (ph->until != UNTIL_TIME && ph->nsteps == 1)
				t = whole - st->wl.ramp_ns;
			if (st->nstreams)
				streams(&o, ++n, ph, st, t);
			else /* a phase judged for steady state logs what the judgement needs */
				job(&o, ++n, ph, st, &st->wl, t, st->label, true,
				    (flags & FIO_EXPORT_LOGS) || ph->until != UNTIL_TIME);
		}
	}
	return strbuf_take(&o);
}
