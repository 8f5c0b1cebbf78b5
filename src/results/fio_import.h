/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FIO_IMPORT_H
#define DB_FIO_IMPORT_H
/*
 * fio's results as drivebench results: the document fio writes with
 * --output-format=json or json+ (fio 3.x, latencies in ns), run locally ("jobs") or
 * through its client/server mode ("client_stats", one entry per job per host).
 *
 * One step per entry of fio's "jobs": a job, or a whole group when fio ran with
 * group_reporting. Of each direction (read, write; trim is left out) the step keeps
 * fio's own numbers: total_ios, io_bytes, iops, bw_bytes (as MB/s), and of the latency
 * fio reports percentiles of (lat_ns with lat_percentiles=1, else clat_ns, the
 * completion latency) min, max, mean and standard deviation, as fio printed them. The
 * summary's duration is fio's runtime (ms). Reads and writes together ("all") add
 * counts and rates, weight means by I/O count and pool the variances.
 *
 * json+ latency bins become the step's histogram. fio's histogram has the design of
 * drivebench's (hist.h): 64 buckets per power of two, exact below 128 ns, a bucket
 * reported by its midpoint. Each bin value fio prints (its bucket's midpoint) falls in
 * the drivebench bucket of the same bounds, so the mapping adds no error: percentiles
 * read back are within hist.h's bound (0.78 %) of the true latency, and equal fio's own
 * percentiles. fio counts latencies of 2^34 ns (17.2 s) and more in its last bucket,
 * just below that; they stay there. Plain json has no bins: the step keeps fio's
 * own p50/p90/p99/p99.9/p99.99 per direction, carries no histogram, and its "all"
 * percentiles (reads and writes mixed) are 0, with the warning "no-histogram".
 *
 * The workload is the options' (a group's: its last job's), block sizes per direction
 * (bs=R,W, bsrange, bssplit): one size or split when the directions done agree, else bs 0
 * and the warning "bs-varied"; a group whose figures are not its options' workload
 * (fio's listing before the JSON, I/O of a direction it does not do, sizes out of its
 * options') carries "group-mixed". Both mark the step apart in compare (report_match.h).
 *
 * fio's version, global and job options, and the steady-state verdict of a job run with
 * steadystate= ("ss", "duration", "attained", "criterion"), go to the host record as
 * host.fio: {"version", "source", "time", "global options", "jobs": [{"name", "host",
 * "options", "steadystate"}]}; the target record's path is the jobs' filename.
 *
 * Client/server output: one phase "fio" of aggregate steps (a job's entries of all
 * hosts added up, histograms merged), then a phase "fio @HOST:PORT" per host, in the
 * order fio first reported them (fio_import_host_phase_name(): a name too long for a
 * phase is cut and numbered, so hosts alike in their first characters stay apart), and
 * host.fio.hosts: each host as fio reported it ("HOST:PORT", "::1:8765"), whole, in the
 * order of their phases. fio's own "All clients" entry (every group summed into one) is
 * left out.
 *
 * fio's per-interval logs (write_iops_log, write_lat_log with log_avg_msec, each window's
 * mean: log_max_value=1's maxima are refused) become a
 * step's samples when a directory is given: the files "<prefix>_iops.<N>.log" and
 * "<prefix>_clat.<N>.log" (or _lat, as the summary's latency) of the threads the entry
 * covers, N counted as fio numbers its threads (1 up, in job order). Interval i of a
 * step adds the threads' i-th entries: IOPS summed, mean latency weighted by IOPS, I/Os
 * as IOPS times the interval; std dev, min, max and percentiles are not in the logs (0).
 * Of client/server output, the copies fio's client wrote of each server's logs
 * ("<prefix>_iops.<N>.log.<HOST>", HOST without the port, N counted per server) become
 * each host's samples;
 * two servers on one host (other ports) overwrite each other's copies, so theirs are
 * not read.
 *
 * Each log file is read once, a buffer at a time: the memory logs take is the step's
 * intervals (its samples) plus one thread's, whatever the number of threads. A log that
 * fio wrote for all threads of a job (per_job_logs=0: "<prefix>_iops.log", each
 * thread's intervals after the one before, in the order the threads ended) is read on
 * from thread to thread, a thread's part ending where its times go back.
 *
 * Limits: the JSON document and each log FIO_IMPORT_MAX_BYTES (RESULT_MAX_FILE_BYTES),
 * the threads of one host whose logs are read FIO_IMPORT_MAX_LOG_THREADS,
 * steps RESULT_MAX_STEPS, samples per step RESULT_MAX_SAMPLES, the job options of the
 * document RESULT_MAX_RECORD_BYTES. Errors: "file:line: message".
 */
#include <stddef.h>
#include <stdint.h>

#include "result.h"

#define FIO_IMPORT_MAX_BYTES RESULT_MAX_FILE_BYTES
/* Threads of one host whose logs are read: fio's own limit on jobs (REAL_MAX_JOBS). */
#define FIO_IMPORT_MAX_LOG_THREADS 4096

/* What reading the logs took: the tests and the bench count it. */
struct fio_import_io {
	unsigned log_files; /* opened */
	uint64_t log_bytes; /* read */
};

/*
 * The fio output in buf (len bytes, buf[len] a NUL), named file in messages, into r
 * (result_init()'d, empty). Text before the document (fio's normal output, or the
 * "<host>" lines of its client) is skipped. logs_dir: where the per-interval logs are,
 * or NULL. 0, or -errno / -EINVAL with "file:line: message" in err; r is then freed.
 */
int fio_import_buf(struct result *r, const char *buf, size_t len, const char *file,
		   const char *logs_dir, char *err, size_t errlen);
/*
 * The name of host number n's phase (from 1) into name (a phase's name, len bytes):
 * "PREFIX @HOST" when it fits, else cut and ended by "~n".
 */
void fio_import_host_phase_name(char *name, size_t len, const char *prefix, const char *host,
				unsigned n);
/* The same, from a file. */
int fio_import_file(struct result *r, const char *path, const char *logs_dir, char *err,
		    size_t errlen);
/* fio_import_file(), adding to *io what reading the logs took. */
int fio_import_file_io(struct result *r, const char *path, const char *logs_dir,
		       struct fio_import_io *io, char *err, size_t errlen);

#endif
