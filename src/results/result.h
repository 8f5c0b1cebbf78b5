/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RESULT_H
#define DB_RESULT_H
/*
 * The result of one run: what was run, on what, and everything measured, phase by phase
 * and step by step. It is the in-memory model of a "drivebench-result" JSON file.
 *
 * File format (JSON object; keys in this order; "format" and "version" first):
 *   format      "drivebench-result"
 *   version     RESULT_VERSION
 *   tool        {"name": "drivebench", "version": "0.1.0"}
 *   status      "complete" | "aborted" | "failed" | "incomplete" (an autosave)
 *   error       string, present when failed
 *   started, ended   ISO 8601 UTC strings; "ended" absent while incomplete
 *   label, note the operator's name for the run and a remark (--label, --note, or set
 *               later on the TUI's Results screen); absent when empty
 *   host        {"hostname", "kernel", "kernel_build", "arch", "cpu", "cpus"}
 *   target      {"path", "kind": "block"|"file", "size", "lbs", "pbs", "drive": {...}}
 *               drive is the discovery record (drive.h), when the target is a drive
 *   targets     [ target ... ]  a run on several targets at once: each one's record, in
 *               the order given ("target" is the first); absent for one target
 *   preset      {"name", "source": path or "builtin", "text": the resolved preset text,
 *                "scale": F}          absent for an ad-hoc `drivebench run` workload
 *   phases      [ phase ... ]
 * phase:
 *   name        "purge" | "precondition" | "measure" | "run" (ad-hoc) ...
 *   kind        same vocabulary as enum phase_kind
 *   status      as above, per phase
 *   steady      {"tracked": "iops", "window", "data_limit_pct", "slope_limit_pct",
 *                "max_rounds", "reached": bool, "round": n, "data_excursion_pct",
 *                "slope_excursion_pct", "mode": "until-steady" | "fixed",
 *                "first_round": n}          when the phase ran in rounds judged for
 *               steady state: reached, round and the excursions are the verdict at
 *               the last round run, first_round the first round whose window was
 *               steady (0: none). A file without mode is until-steady
 *   steps       [ step ... ]
 * step:
 *   label       "2T2Q", "round 7", "4k 65/35" ...
 *   workload    {"pattern", "bs" (bytes) or "bssplit" (fio syntax), "read_pct", "range_start",
 *                "range_size", "range_pct", "threads", "qdepth", "time_ns", "ramp_ns", "rate_iops",
 *                "data", "compress_pct", "interval_ns", "seed",
 *                "distribution" (fio's random_distribution syntax; absent: uniform)}
 *   rate_pct    present when the rate was a share of the last uncapped step's IOPS
 *               (`rate = 10%`): that share, the step's place on a rate curve
 *   status, error, error_offset
 *   engine      backend description
 *   definition  {"latency": "total"|"completion-only", "percentiles" (the same), "wait":
 *                "interrupt"|"busy-poll"|"polled", "issue", "engine", "flags", "scale", "lbs",
 *                "pbs", "sectors" (several targets: "512/512+4096/4096"), "host_other_pct",
 *                "version", "bs_folded"}: what the step's numbers mean (step_def.h,
 *                STEP_DEF_FIELDS);
 *               a field not known is left out, and so is the whole object in files
 *               from before it existed: they load with every field unknown
 *   app         {"tool", "load", "threads", "seconds", "tps", "transactions", "errors",
 *                "reconnects", "lat_avg_ms", "lat_p95_ms", "lat_p99_ms", "lat_max_ms"}: an
 *               application benchmark's step ([app] phases, app.h); its summary is then the
 *               device's own I/O over the step, and its samples the tool's per-second
 *               reports: transactions as "ios", TPS as "iops", the second's latency as
 *               "mean_ns" (pgbench) or "p99_ns" (sysbench), in "all". Absent for
 *               drivebench's own steps
 *   cpu         {"process_user_pct", "process_system_pct" (% of one CPU), "host_user_pct",
 *                "host_system_pct", "host_iowait_pct" (% of all CPUs), "cpus"}: CPU use
 *               from the step's start to its end; absent when not measured
 *   warnings    [{"code": "reads-unwritten", "text": "..."}, ...]  absent when none
 *               (codes: STEP_WARNINGS below; a reader keeps codes it does not know)
 *   summary     sample (below) over the whole measured time; its max and percentiles
 *               include the drain's completions, its counts and rates do not
 *   drain       sample-like {"dur_ns", "read", "write", "all"}: the I/Os that completed
 *               after the measured time; dur_ns from the end of issuing to the last
 *               completion. Absent when nothing drained
 *   ramp        the same for the I/Os that completed before the measured time (the ramp,
 *               and the warm-up while the worker threads start); dur_ns the ramp's length.
 *               Window, ramp and drain together hold every I/O the step did
 *   drive       {"host_written_bytes", "temp_max_c"}: the drive's own counters over the
 *               step (struct step_drive); absent, or either key absent, when it gave none
 *   streams     [ step ... ]  a step of several streams run at once: each stream as a step
 *               object of its own ("label" its name, plus "target": index into "targets"
 *               when the run had several, "share_pct" when it had a share of the rate),
 *               without "streams"; the step's own fields are the streams together.
 *               Absent for a step of one stream
 *   samples     the interval samples, one per interval: version 1 an array of sample
 *               objects; version 2 columns (below)
 *   hist        {"read": [[bucket_index, count], ...], "write": [...]}  non-zero buckets,
 *               the drain's completions included
 * sample:
 *   {"index", "start_ns", "dur_ns", "host_stall_ns", "read": dir, "write": dir, "all": dir}
 *   host_stall_ns: of dur_ns, time in which the host did not run drivebench; absent
 *   when 0
 * dir:
 *   {"ios", "bytes", "iops", "mbps", "mean_ns", "std_ns", "min_ns", "max_ns",
 *    "p50_ns", "p90_ns", "p99_ns", "p99.9_ns", "p99.99_ns"}
 * samples, version 2 (columns: a third of the size of version 1, and read 4x faster):
 *   {"all": "read" or "write" (optional), "fields": ["dur_ns", "read.ios", ...],
 *    "rows": [[value per field], ...]}   one row per sample; fields are "index",
 *   "start_ns", "dur_ns", "host_stall_ns" and "<dir>.<dir field>" ("read.ios",
 *   "all.p99_ns"). Fields left out: "index" counts from 0; "start_ns" is where the
 *   previous sample ended (0 for the first); "iops" and "mbps" are ios and bytes over
 *   dur_ns (as drivebench computes them); any other field is 0 ("host_stall_ns" is
 *   written only when some sample has one); "all" says "all.*" equals that direction in
 *   every sample (a workload that only reads or only writes). A reader skips fields it
 *   does not know.
 *
 * Fields added since version 1 was first written (warnings, drain, ramp, host_stall_ns,
 * cpu, label, note, streams, targets, definition, in either version) are optional: files without
 * them load as before.
 *
 * Numbers that are not finite are written as null. Counts, sizes and times are whole
 * numbers from 0 to 2^64-1; rates, means and percentages are finite and not negative.
 * Files are written atomically: a temporary file in the same directory, fsync, rename,
 * fsync of the directory.
 *
 * Limits, on reading (drivebench(1), LIMITS): the file RESULT_MAX_FILE_BYTES, steps over
 * all phases RESULT_MAX_STEPS (streams counted as steps), streams per step
 * ENGINE_MAX_STREAMS (none with "streams" of its own, each "target" an index into
 * "targets", or 0 without it), samples per step RESULT_MAX_SAMPLES, histogram pairs per
 * direction HIST_NBUCKETS (each bucket once), the preset text RESULT_MAX_PRESET_BYTES, the
 * host, target and targets records RESULT_MAX_RECORD_BYTES each ("targets" 1 to
 * ENGINE_MAX_STREAMS objects), warnings per step RESULT_MAX_WARNINGS (codes told apart: a
 * code given twice is kept once). Past one, the file is refused.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine.h"
#include "stats.h"
#include "step_def.h"
#include "workload.h"

#define RESULT_FORMAT  "drivebench-result"
#define RESULT_VERSION 2

#define RESULT_MAX_FILE_BYTES	(512ull << 20) /* a 6-hour precondition at 1 s is ~8 MiB */
#define RESULT_MAX_STEPS	10000u	       /* over all phases; PRESET_MAX_STEPS too */
#define RESULT_MAX_SAMPLES	1000000u       /* per step: 11.5 days at 1 s, 2.8 h at 10 ms */
#define RESULT_MAX_RECORD_BYTES (1u << 20)     /* "host", "target" */
#define RESULT_MAX_PRESET_BYTES (1u << 20)     /* the preset text: PRESET_MAX_BYTES */
#define RESULT_MAX_WARNINGS	64u	       /* per step, codes told apart */
#define RESULT_LABEL_BYTES	128u	       /* "label": longer is cut on reading */
#define RESULT_NOTE_BYTES	1024u	       /* "note": longer is cut on reading */

struct json_object;
struct result_lock;

enum result_status { RS_COMPLETE, RS_ABORTED, RS_FAILED, RS_INCOMPLETE, RS_PENDING };
extern const char *const result_status_name[]; /* "complete", ... , "pending" */

enum phase_kind { PH_PURGE, PH_PRECONDITION, PH_MEASURE, PH_RUN, PH_APP };
/* "purge", "precondition", "measure", "run", "app" */
extern const char *const phase_kind_name[];

struct steady_info {
	bool used;                 /* the phase ran until steady state */
	bool reached;
	unsigned window;           /* rounds */
	double data_limit_pct;     /* max - min of the window, % of its average */
	double slope_limit_pct;    /* least-squares excursion across the window, % of average */
	unsigned max_rounds;
	unsigned round;            /* the round at which it was judged (1-based) */
	double data_excursion_pct;
	double slope_excursion_pct;
	char tracked[32];          /* "iops", "mbps", "mean_ns" ... */
	bool fixed;                /* every round ran (until = fixed), steady or not */
	unsigned first_round;      /* the first round judged steady (1-based); 0 none */
};

/*
 * What a step's numbers may not show, declared once: id, stable code (scripts match it),
 * and what it means. A step records each with a sentence about itself.
 */
#define STEP_WARNINGS(X)                                                                           \
	X(SW_READS_UNWRITTEN, "reads-unwritten",                                                   \
	  "reads of space never written (file holes, or a device discarded and not written "       \
	  "since): the drive or file system answers them without reading media")                   \
	X(SW_HOST_STALL, "host-stall",                                                             \
	  "the host did not run drivebench for a while (stopped, suspended, or CPUs busy with "    \
	  "other work): the samples affected carry host_stall_ns, and latencies include it")       \
	X(SW_THREADS_IDLE, "threads-idle",                                                         \
	  "some worker threads completed no I/O in the measured time (the host did not run "       \
	  "them then): the step ran with fewer threads than its label says")                       \
	X(SW_THERMAL, "thermal-throttle",                                                          \
	  "the drive reported a thermal-management transition, or time above its warning or "      \
	  "critical temperature, during the step: it slowed itself down to cool")                  \
	X(SW_NO_HISTOGRAM, "no-histogram",                                                         \
	  "imported from fio's plain json output, which has no latency histogram: percentiles "    \
	  "are fio's own per direction, those of reads and writes together are not known (0)")     \
	X(SW_CLAT_PERCENTILES, "clat-percentiles",                                                 \
	  "imported from fio run without lat_percentiles=1: mean, min, max and std dev are "       \
	  "fio's total latency (lat), the percentiles and histogram its completion latency "       \
	  "(clat), which leaves the submission out")                                               \
	X(SW_CPU_BOUND, "cpu-bound",                                                               \
	  "drivebench used about a full CPU per worker thread, or the host's CPUs were nearly "    \
	  "all busy with it: the figures may show the host's CPU limit, not the drive's")          \
	X(SW_HOST_BUSY, "host-busy",                                                               \
	  "other processes kept a quarter or more of the host's CPUs busy during the step: "       \
	  "drivebench shared the host, and its figures may show that, not the drive")              \
	X(SW_DEVICE_SHARED, "device-shared",                                                       \
	  "the target's drive moved more data during the step than the step did (its own "         \
	  "counters): another program, a file system or another partition used it at the "         \
	  "same time, and the figures may show that")                                              \
	X(SW_NO_IO, "no-io",                                                                       \
	  "no I/O completed in the measured time (the host did not run drivebench then, or the "   \
	  "device answered only after it): the step's numbers are zeros; a steady-state round "    \
	  "is run again once, and is never judged when it measured nothing")                       \
	X(SW_GROUP_MIXED, "group-mixed",                                                           \
	  "imported from an fio group (group_reporting) of jobs that ran different workloads: "    \
	  "fio gives the last job's options, which are the step's workload, and every job's "      \
	  "figures; compare holds it apart from steps of that workload")                           \
	X(SW_BS_VARIED, "bs-varied",                                                               \
	  "imported from fio with I/O sizes one workload does not hold (reads and writes of "      \
	  "different sizes, a bsrange, bssplits per direction): the step's block size is not "     \
	  "known (0), the sizes are in the warning; compare holds it apart from one size's")

/* clang-format off */
enum step_warning {
#define X(id, code, about) id,
	STEP_WARNINGS(X)
#undef X
	SW_COUNT
};
/* clang-format on */
extern const char *const step_warning_code[SW_COUNT];  /* "reads-unwritten", ... */
extern const char *const step_warning_about[SW_COUNT]; /* what each means */

/*
 * The drive's own counters over one step (health_watch.h; NVMe only): host data written
 * by its SMART / health log (counted in units of 512,000 bytes) and the highest
 * composite temperature read during the step. has_* false when the drive gave none.
 */
struct step_drive {
	bool has_written, has_temp;
	uint64_t written_bytes;
	int temp_max_c;
};

/* CPU use over a step (cpu.h), from its start to its end, the ramp included. */
struct step_cpu {
	bool measured;		/* false: not recorded (a file from before, or a purge) */
	double proc_user_pct;	/* drivebench, % of one CPU: 200 is two CPUs' worth */
	double proc_system_pct;
	double host_user_pct;	/* the whole host, % of all its CPUs: user and nice */
	double host_system_pct; /* system, irq and softirq */
	double host_iowait_pct;
	unsigned cpus;		/* online */
};

/*
 * An application benchmark's step (a preset's [app] phase, app.h): the tool's own figures.
 * The step's summary is then the device's own I/O over the step (/sys/block stat).
 */
struct step_app {
	bool used;	 /* false: a step of drivebench's own I/O */
	char tool[16];	 /* "sysbench-oltp", "pgbench" */
	bool load;	 /* the data load, not a thread step */
	unsigned threads; /* client threads (connections) */
	double seconds;	 /* measured time the tool reports; the load: its wall time */
	double tps;	 /* transactions a second */
	uint64_t transactions, errors, reconnects;
	double lat_avg_ms, lat_p95_ms, lat_p99_ms, lat_max_ms; /* per transaction */
};

struct result_warning {
	char code[32];  /* a step_warning_code, or one from a newer drivebench */
	char text[256]; /* what happened in this step */
};

/*
 * A step's interval samples, packed: each is stored against the one before it (index,
 * start and duration as differences, counts and nanoseconds as variable-length integers,
 * the host stall only when not 0, IOPS and MB/s left out when they are what ios, bytes
 * and the duration give, "all" left out when it equals reads or writes), 50 to 160 bytes
 * instead of sizeof(struct sample) = 344. Read them back in order with a struct sample_iter. Private to result.c.
 */
struct sample_pack {
	unsigned char *buf;
	size_t len, cap;
	uint64_t next_start_ns; /* where the last sample ended */
	uint64_t last_dur_ns;
};

/* A step's latency histograms, sparse: the non-zero buckets of reads, then of writes. */
struct step_hist {
	unsigned n[2]; /* pairs of reads, of writes */
	struct hist_pair {
		uint32_t bucket;
		uint64_t count;
	} *pair; /* [n[0] + n[1]] */
};

struct result_step {
	char label[64];
	struct workload wl;
	double rate_pct; /* > 0: wl.rate_iops was this % of the last uncapped step's IOPS */
	enum result_status status;
	char error[256];
	uint64_t error_offset;
	char engine[160];
	struct step_def def;	 /* what its numbers mean (step_def.h); unknown in old files */
	struct sample summary;
	struct sample drain;	 /* completions after the measured time; dur_ns = its length */
	struct sample ramp;	 /* completions before it (ramp, warm-up); dur_ns = the ramp */
	unsigned nsamples;	 /* interval samples, in pack */
	struct sample_pack pack; /* result_step_add_sample(), sample_iter_*() */
	struct step_hist *hist;	 /* NULL when not kept; result_step_set_hist() */
	struct result_warning *warnings; /* malloc'd */
	unsigned nwarnings;
	struct step_drive drive; /* what the drive itself counted over the step */
	struct step_cpu cpu;
	struct replay_stats replay; /* a replay (wl.trace): its lag, flushes and discards */
	struct step_app app;	 /* an application benchmark's figures; app.used false: none */
	/*
	 * A step of several streams run at once (a preset's [stream] sections, or one stream
	 * per target of a run on several targets): each stream's own record, in the same
	 * shape (label = the stream's name, wl its workload, summary, drain, ramp, samples on
	 * the step's intervals, hist, warnings); the step's own fields are all its streams
	 * together. A stream has no streams of its own. NULL and 0 for a step of one stream.
	 */
	struct result_step *streams; /* malloc'd */
	unsigned nstreams;
	unsigned target_index; /* a stream: which of the run's targets it ran on (0-based) */
	double share_pct;      /* a stream: its share of the step's rate; 0 none */
};

struct result_phase {
	char name[32];
	enum phase_kind kind;
	enum result_status status;
	struct steady_info steady;
	struct result_step *steps; /* malloc'd */
	unsigned nsteps;
	/* the plan's steps this target could not take, and why (plan_fit_target()); "" none */
	char skipped[256];
};

/*
 * What reports say of the host a run was on: the "host" record's values as text (a
 * number as the record writes it), "" when absent or null, cut to fit. Filled from the
 * record by result_summarize() when a result is loaded, started or imported.
 */
struct result_host {
	char hostname[1024]; /* fio imports: the fio servers' "HOST:PORT", comma separated */
	char kernel[256];    /* uname's release */
	char cpu[256];	     /* the CPU model */
	char cpus[32];	     /* CPUs online */
};

/*
 * What reports say of the drive's health around a run: a target record's "health"
 * (health_watch.h; the first target's drive), summarized by result_summarize(). Numbers
 * shown as the record writes them are kept as text, "" when absent or null, cut to fit.
 */
struct result_health_warning {
	const char *phase, *text; /* in the block of warnings */
};

struct result_health {
	bool recorded;	   /* the record has "health" (null included) */
	char note[512];	   /* the drive was not watched ("before" alone): why; "" it was */
	char temp_min_c[32]; /* over the run */
	char temp_max_c[32]; /* "" none */
	bool has_delta;	   /* "delta": the drive's counters from before the run to after */
	bool has_written;
	uint64_t written_bytes; /* data the host wrote, by the drive's count */
	char wear_pct[32];	/* "percentage_used" over the run: points of rated wear */
	bool throttled;		/* the drive throttled itself */
	/* malloc'd, with their strings: what the watch warned of ("warnings") */
	struct result_health_warning *warnings;
	unsigned nwarnings;
};

/*
 * What reports say of one of the run's targets: its record ("target", or one of
 * "targets") and the drive's discovery record in it (drive.h), summarized by
 * result_summarize(). Strings "" and numbers 0 when absent or of another type; strings
 * cut to fit.
 */
struct result_target {
	char path[4096];
	char kind[32];		 /* "block", "file": the record's value as text */
	uint64_t size;		 /* bytes */
	uint32_t lbs, pbs;	 /* logical, physical block size, bytes */
	char model[256];	 /* the drive's, or its NVMe controller's ("nvme") */
	char serial[128];
	char firmware[128];
	uint64_t capacity_bytes; /* the drive's */
	struct result_health health;
};

struct result {
	int version;                 /* of the file it came from (RESULT_VERSION when new) */
	char tool_version[32];
	enum result_status status;
	char error[512];
	char started[32];            /* ISO 8601 UTC */
	char ended[32];
	char label[RESULT_LABEL_BYTES]; /* the operator's name for the run; "" none */
	char note[RESULT_NOTE_BYTES];   /* the operator's remark; "" none */
	struct json_object *host;    /* owned */
	struct result_host host_summary; /* of host, for reports */
	struct json_object *target;  /* owned: path, kind, size, lbs, pbs, drive */
	struct json_object *targets; /* owned: a run on several targets, the array of them
					(target is the first); NULL for one target */
	/* of target, then of targets[1..]: for reports. malloc'd; result_summarize() */
	struct result_target *target_summary;
	unsigned ntarget_summary;
	char preset_name[128];       /* "" for an ad-hoc run */
	char preset_source[4096];
	char *preset_text;           /* malloc'd; NULL for an ad-hoc run */
	double scale;		     /* the preset's --scale, 1 for an ad-hoc run; 0: not
					known (an import of fio's output: no preset, its host
					has "fio"; it is loaded so) */
	struct result_phase *phases; /* malloc'd */
	unsigned nphases;
	char path[4096];             /* where it was loaded from or saved to */
	struct result_lock *lock;    /* owned: the file this result owns (result_create()),
					locked until result_free(); NULL none */
};

void result_init(struct result *r);
void result_free(struct result *r);
/*
 * Append an empty phase / step; returns it or NULL (out of memory). The arrays may move:
 * pointers to earlier phases or steps are invalid afterwards.
 */
struct result_phase *result_add_phase(struct result *r, const char *name, enum phase_kind kind);
struct result_step *result_add_step(struct result_phase *ph, const char *label,
				    const struct workload *wl);
/*
 * Append an empty stream to step st (label = its name); returns it or NULL. As with
 * steps, earlier stream pointers are invalid afterwards.
 */
struct result_step *result_step_add_stream(struct result_step *st, const char *name,
					   const struct workload *wl);
/* Append an interval sample to a step (packed). 0 or -ENOMEM (the step is unchanged). */
int result_step_add_sample(struct result_step *st, const struct sample *s);
/* Bytes a step wrote: in its measured time, its ramp and its drain. */
uint64_t result_step_written(const struct result_step *st);
/* Drop a step's samples. */
void result_step_clear_samples(struct result_step *st);
/* Reading a step's samples back, oldest first. */
struct sample_iter {
	const struct result_step *st;
	size_t off;
	unsigned i;
	uint64_t next_start_ns, last_dur_ns;
};
void sample_iter_init(struct sample_iter *it, const struct result_step *st);
/* The next sample into *out: true, or false after the last one. */
bool sample_iter_next(struct sample_iter *it, struct sample *out);
/* The i-th sample (from the start: for tests and single look-ups). true when it exists. */
bool result_step_sample(const struct result_step *st, unsigned i, struct sample *out);

/* Keep a step's read and write histograms (sparse). 0 or -ENOMEM. */
int result_step_set_hist(struct result_step *st, const struct hist *rd, const struct hist *wr);
/* Expand them again into rd and wr (zeroed when the step kept none). */
void result_step_get_hist(const struct result_step *st, struct hist *rd, struct hist *wr);

/*
 * Give step s warning w with a sentence (printf format); a second one of the same code
 * replaces the first. 0 or -ENOMEM.
 */
int result_step_warn(struct result_step *s, enum step_warning w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The warning of code `code` that s carries, or NULL. */
const struct result_warning *result_step_warning(const struct result_step *s, const char *code);
/* Host facts for the "host" section (uname, CPU model, CPU count). */
struct json_object *result_host_json(void);
/*
 * Fill r->host_summary and r->target_summary from the records r->host, r->target and
 * r->targets (NULL: all "" and 0): after any of them is set or changed. 0 or -ENOMEM.
 */
int result_summarize(struct result *r);
/* The run's targets: 1, or how many "targets" holds (a run on several at once). */
unsigned result_ntargets(const struct result *r);
/* Target i's summary (all "" before result_summarize()), or NULL past the last. */
const struct result_target *result_nth_target(const struct result *r, unsigned i);
/* Facts of the first target and its drive; "" or 0 when absent. */
const char *result_drive_model(const struct result *r);
const char *result_drive_firmware(const struct result *r);
const char *result_drive_serial(const struct result *r);
const char *result_target_path(const struct result *r);
/* The drive's capacity, else the target's size. */
uint64_t result_capacity_bytes(const struct result *r);

/*
 * The result as a "drivebench-result" document of the current version, to out (a
 * streaming writer: no copy of the samples is made). 0 or -errno (-EIO on a write error).
 */
int result_write(const struct result *r, FILE *out);
/*
 * Result files and who writes them (result_file.c; docs/DESIGN.md, "Result files"). A
 * file is owned by the process that writes it (a run, for as long as it runs) through
 * flock(LOCK_EX) on the inode at its name: every save writes a temporary file beside it,
 * locks that, and renames it into place, so the inode at the name is locked for as long
 * as its owner holds it. Readers take no lock (a rename is atomic); writers that do not
 * own the file lock it first and refuse while someone else holds it.
 */
enum result_claim {
	RESULT_NEW,	/* a new file: path if free, else path-2, path-3, ... (before .json) */
	RESULT_REPLACE, /* path, replacing what is there unless another writer holds it */
	RESULT_HOLD,	/* path, a file there locked as it is (what it holds kept until the
			   first result_save()) unless another writer holds it; none, and
			   r is written there */
};
/*
 * The first save of r, which then owns the file: later result_save()s to that path replace
 * it, and result_free() (or result_release()) lets it go. RESULT_NEW takes the name
 * exclusively (O_EXCL semantics: renameat2 RENAME_NOREPLACE, falling back to link() and to
 * an O_EXCL placeholder), writing the name it took into path (len bytes); two processes
 * never get the same one. 0 or -errno, message in err: -EAGAIN when another process is
 * writing the file (RESULT_REPLACE), -EEXIST when 999 names are taken.
 */
int result_create(struct result *r, char *path, size_t len, enum result_claim how, char *err,
		  size_t errlen);
/*
 * Write atomically to path: the file r owns (result_create()), or any other file, which is
 * locked while it is replaced. 0 or -errno, message in err; -EAGAIN when another process
 * is writing the file.
 */
int result_save(const struct result *r, const char *path, char *err, size_t errlen);
/*
 * result_save() in three parts, for a file system that may stop answering (a server gone,
 * a FUSE daemon hung) while r's thread must not wait for it:
 * - prepare, on r's thread: r as its file will hold it, into s (r may change afterwards);
 * - write, on any thread: all of the file system's part, touching s alone, so a thread
 *   that never comes back holds nothing of r's; s->ret is then 0 or -errno, with s->err;
 * - finish, on r's thread again: the file r owns keeps the new, locked inode.
 * discard lets go of a prepared or written s instead of finishing it.
 */
struct result_save {
	char *text; /* r as its file holds it */
	size_t len;
	char path[4096];
	bool own; /* path is the file r owns */
	dev_t dev; /* own: the inode r holds, which only the save may replace */
	ino_t ino;
	int fd;	  /* written: the new inode, locked, when own; else -1 */
	int ret;  /* written: 0 or -errno, and err saying what failed */
	char err[1024];
	const atomic_bool *cancel; /* NULL, or set once the owner gave up on the save: what
				      is written is not renamed into place (-ECANCELED) */
};
int result_save_prepare(const struct result *r, const char *path, struct result_save *s, char *err,
			size_t errlen);
void result_save_write(struct result_save *s);
int result_save_finish(const struct result *r, struct result_save *s, char *err, size_t errlen);
void result_save_discard(struct result_save *s);
/* Let go of the file r owns (no-op when none). */
void result_release(struct result *r);
/* Let go of the file r owns, and remove it if r wrote it there (not a file it held). */
void result_unclaim(struct result *r);
/* to owns the file from owned (its own, if any, let go of): its next save replaces it. */
void result_take_file(struct result *to, struct result *from);
/*
 * Let go of it without closing it: its file system stopped answering, and a close may
 * wait for it (NFS's unlock, FUSE's flush). The descriptor is closed with the process.
 */
void result_forget(struct result *r);
/*
 * Change the result file at path in place: under its lock, read it again (all of it), let
 * edit change it (0, or -errno to leave the file as it was), save it. 0 or -errno, message
 * in err: -EAGAIN ("path: the run is still writing it") while another process owns it.
 */
int result_rewrite(const char *path, int (*edit)(struct result *r, void *arg), void *arg,
		   char *err, size_t errlen);
/* Does another process (a run) hold the file at path: is it still being written? */
bool result_being_written(const char *path);

/* What result_load_opts() reads beyond the run's facts and step summaries. */
enum {
	RESULT_LOAD_SAMPLES = 1u << 0, /* interval samples */
	RESULT_LOAD_HIST = 1u << 1,    /* histograms */
	RESULT_LOAD_ALL = RESULT_LOAD_SAMPLES | RESULT_LOAD_HIST,
};
/*
 * Load a result file: 0, or -errno / -EINVAL / -EFBIG with "file[:line]: message" in err
 * (an unknown format, a version newer than this drivebench reads, a limit passed, say
 * which). Only regular files are read. What `what` leaves out is skipped (and checked as
 * JSON only): a comparison table needs neither samples nor histograms.
 */
int result_load_opts(struct result *r, const char *path, unsigned what, char *err, size_t errlen);
/* result_load_opts(..., RESULT_LOAD_ALL, ...) */
int result_load(struct result *r, const char *path, char *err, size_t errlen);
/*
 * The results directory (created), into buf: the settings' results ($DRIVEBENCH_RESULTS,
 * or the site's), else $XDG_DATA_HOME/drivebench/results, else
 * $HOME/.local/share/drivebench/results, HOME being the password file's when the settings
 * have none. s NULL: as with none of them set. 0 or -errno; on an error buf holds the
 * directory that could not be made (for the message).
 */
struct settings;
int result_dir(const struct settings *s, char *buf, size_t len);
/* Its name alone, nothing made (a directory that may not answer is asked first). */
int result_dir_name(const struct settings *s, char *buf, size_t len);
/*
 * The name of a new result in dir: "2026-11-30T13-05-21_bench3_nvme0n1_8k-7030.json" (UTC
 * time, the host's short name, the target, the preset). It may be
 * taken: result_create(..., RESULT_NEW, ...) takes it or the next free -2, -3, ... one.
 */
int result_default_path(char *buf, size_t len, const char *dir, const char *target_name,
			const char *preset_name);

#endif
