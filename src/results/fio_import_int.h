/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FIO_IMPORT_INT_H
#define DB_FIO_IMPORT_INT_H
/*
 * Internal to src/results/fio_import*.c: what the builder (fio_import.c: entries as
 * steps, hosts summed, the API), the document reader (fio_import_read.c: fio's json and
 * json+ output, one job entry at a time) and the log reader (fio_import_log.c: the
 * per-interval logs as samples) share.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "json_read.h"
#include "result.h"

struct json_object;
struct fio_import_io;
struct fio_log_stream;

enum { FD_READ, FD_WRITE, FD_N }; /* the directions imported (trim is not) */
enum { LK_CLAT, LK_LAT, LK_N };	  /* the latencies fio reports */
extern const char *const fio_import_lat_key[LK_N]; /* the summary's key: "clat_ns", "lat_ns" */

struct fio_lat {
	bool seen;
	bool have_pct[NPCT];
	bool have_bins;
	uint64_t n, min, max, pct[NPCT];
	double mean, std;
	struct hist *bins; /* malloc'd when json+ gave bins */
};

struct fio_dir {
	uint64_t ios, bytes, bw_bytes, runtime_ms;
	double iops;
	struct fio_lat lat[LK_N];
};

/* One entry of "jobs" or "client_stats". */
struct fio_entry {
	char name[128];
	char host[128]; /* "HOST:PORT" in client/server output; "" locally */
	unsigned groupid;
	int error;
	uint64_t job_runtime_ms;
	struct json_object *opts; /* "job options", owned */
	struct json_object *ss;	  /* "steadystate" without its data, owned; or NULL */
	struct fio_dir d[FD_N];
	size_t at; /* where the entry starts (offset), for messages: entry_line() */
};

/*
 * A step whose thread count waits for the whole document: without group_reporting, fio
 * writes a job of numjobs=N as N entries of one name; with it, one entry (and fio's
 * "job options" leave out an option given without a value, such as group_reporting).
 */
struct pending {
	unsigned phase, step;
	char name[128], host[128];
	unsigned groupid, numjobs, lk;
	size_t at; /* of its entry in the document */
	bool log_avg; /* log_avg_msec given: the logs hold intervals */
	char log_window[16]; /* log_max_value (log_window_value) other than the mean; "" */
	char *iops_prefix, *lat_prefix; /* malloc'd; NULL: no such log */
};

struct importer {
	struct jread j;
	struct result *r;
	const char *file;
	const char *logs_dir;
	char version[64];
	char time[64];
	uint64_t timestamp;
	struct json_object *global;   /* "global options", owned */
	struct json_object *jobs_rec; /* host.fio.jobs, owned by the host record */
	size_t opt_bytes;	      /* of all options kept, against RESULT_MAX_RECORD_BYTES */
	struct pending *pend;	      /* per step, what its threads and logs are resolved from */
	unsigned npend;
	struct fio_log_stream *log[2]; /* the IOPS and latency logs open; malloc'd or NULL */
	struct fio_import_io *io;      /* counts what reading the logs took; or NULL */
	/* the hosts in the order their phases were made, by the full "HOST:PORT" fio gave
	   (a phase's name may be cut short); malloc'd */
	char (*hosts)[128];
	unsigned *host_phase; /* the phase of each (before the aggregate is put first) */
	unsigned nhosts;
	unsigned *mixed_groups; /* groups fio's listing gives jobs of other options; malloc'd */
	unsigned nmixed;
	char *err;
	size_t errlen;
};

#define FIO_IMPORT_MAX_HOSTS 64

/* fio_import_wl.c: an option of the job, else of the global section; NULL when neither. */
const char *fio_import_opt(const struct importer *im, const struct fio_entry *e, const char *key);
/* Given and not 0 or false (a bare option reads as ""). */
bool fio_import_opt_bool(const struct importer *im, const struct fio_entry *e, const char *key);
/* A whole number 1..2^20, else dflt. */
unsigned fio_import_opt_uint(const struct importer *im, const struct fio_entry *e, const char *key,
			     unsigned dflt);

/* What an entry's workload does not hold, for its step's warnings; "" when nothing. */
struct fio_wl_notes {
	char bs[256];	 /* bs-varied: each direction's sizes ("fio's block sizes: ...") */
	char mixed[128]; /* group-mixed: the options fio gave ("rw=randwrite bs=64k ...") */
	char why[128];	 /* group-mixed: what tells ("reads, which its options do not do") */
};

/*
 * fio_import_wl.c: the workload of entry e, as far as its options say (counts fill in the
 * rest), and what it does not hold into notes.
 */
void fio_import_workload(const struct importer *im, const struct fio_entry *e, struct workload *wl,
			 struct fio_wl_notes *notes);
/* fio_import_wl.c: fio's listing before the document (text, len): its groups of jobs that
   differ into im->mixed_groups. 0 or -ENOMEM. */
int fio_import_listing(struct importer *im, const char *text, size_t len);

/*
 * How much of "HOST:PORT" is the host: all before the last ':' ("::1" of "::1:8765"),
 * as fio's client names the logs it brings back; all of it when there is no port.
 */
size_t fio_import_host_len(const char *host);

/* The line of an offset in the document; counted only for a message (not per entry). */
unsigned fio_import_line(const struct importer *im, size_t at);
/* Record "file: out of memory" unless an error came first; returns the error. */
int fio_import_nomem(struct importer *im);
/*
 * Reads and writes together: counts and rates add, means weigh by I/O count, variances
 * pool (the sums of squares each direction's mean and n-1 std dev imply).
 */
void fio_import_combine(struct sample *s);

/* fio_import_read.c: the document at im->j.p, each entry handed to fio_import_add_entry(). */
void fio_import_read_document(struct importer *im);
/* fio_import.c: entry e as a step of its phase (its options move to the host record). */
int fio_import_add_entry(struct importer *im, struct fio_entry *e);

/*
 * fio_import_log.c: the samples of step st from the logs of the threads first..first+n-1
 * in im->logs_dir, each log read once, a buffer at a time. 0 or -errno with the message
 * in im->err.
 */
int fio_import_samples(struct importer *im, struct result_step *st, const struct pending *pd,
		       unsigned first, unsigned n);
/* Close the logs left open (a shared log stays open for the next step's threads). */
void fio_import_logs_close(struct importer *im);

#endif
