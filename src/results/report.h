/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_REPORT_H
#define DB_REPORT_H
/*
 * Comparison reports: several runs side by side, the "comparables" of a review.
 *
 * One model, several renderers (fio's stat.c): report_build() matches the runs' steps
 * and decides what is compared; report_table() lays one metric of one workload group out
 * as rows x columns of numbers; renderers (text, Markdown, CSV, JSON, HTML with SVG
 * charts) only format what the model holds. The TUI's Results screen uses the same
 * report_build()/report_table() calls and draws the tables itself.
 *
 * Matching: a row is a step every run has, matched by its parameters (pattern, bs or
 * bssplit, read mix, threads, queue depth, rate), in measuring phases (measure, run);
 * when a run has the same parameters twice, the n-th occurrence matches the n-th. Rows
 * are grouped by workload without threads and queue depth ("8k 70/30 random"), so a
 * group is a ladder. A step that mixes reads and writes adds a read row and a write row
 * under its combined row. A step of several streams adds a row per stream under its rows,
 * matched across runs by the stream's name ("2T2Q / reader"). Steps and streams that not
 * every run has are listed in the notes.
 *
 * Columns are runs, labelled by drive model and capacity, with the firmware when two
 * runs share a model, and the target path when a run has no drive record; a run on
 * several targets at once says how many ("..., 2 targets").
 *
 * A compared step that carries warnings (result.h, STEP_WARNINGS) marks its values with
 * REPORT_WARN_MARK, and each of its warnings is a note: "run, group step: ! code: text".
 *
 * Comparability (report_defs.c): a group whose steps differ in a field of their
 * measurement definitions that makes steps incomparable (step_def.h, STEP_DEF_FIELDS)
 * carries those fields (report_group.differ) and a note saying each run's values; every
 * renderer marks its tables with the stable codes ("not-comparable:scale"), and the
 * note is in the notes too. With report_opts.strict, report_build() refuses instead.
 * What the percentiles span marks the tables and charts of percentiles alone
 * (report_differ()), and is refused only when the report shows them.
 * A field some of its steps know and others do not (an import's scale) is marked
 * "not-known:scale" (report_group.unknown) with the same note, in the tables of the
 * field's scope; --strict takes it, since nothing says the steps differ.
 *
 * Ownership: the report points into the results it was built from; they must outlive it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"
#include "specs.h"

/*
 * Metrics, declared once: id, --metric name, title, unit, CSV column, which is better.
 * Latencies are reported in milliseconds, as reviews chart them. The last two are the
 * drive's own counters over a step (struct step_drive: NVMe health), not measured I/O:
 * they have no interval samples, and are compared by default only when a run has them.
 */
#define REPORT_METRICS(X)                                                                          \
	X(RM_IOPS, "iops", "Throughput", "IOPS", "iops", true)                                     \
	X(RM_MBPS, "mbps", "Bandwidth", "MB/s", "bandwidth_MB/s", true)                            \
	X(RM_LAT_AVG, "avg-lat", "Average latency", "ms", "avg_latency_ms", false)                 \
	X(RM_LAT_MAX, "max-lat", "Max latency", "ms", "max_latency_ms", false)                     \
	X(RM_LAT_STD, "lat-stddev", "Latency standard deviation", "ms", "latency_stddev_ms",       \
	  false)                                                                                   \
	X(RM_P99, "p99", "99th percentile latency", "ms", "p99_latency_ms", false)                 \
	X(RM_P999, "p99.9", "99.9th percentile latency", "ms", "p99.9_latency_ms", false)          \
	X(RM_P9999, "p99.99", "99.99th percentile latency", "ms", "p99.99_latency_ms", false)      \
	X(RM_HOST_WRITTEN, "host-written", "Host data written (drive)", "GB",                      \
	  "host_written_GB", false)                                                                \
	X(RM_TEMP_MAX, "max-temp", "Maximum temperature (drive)", "C", "max_temp_C", false)

/* clang-format off */
enum report_metric {
#define X(id, name, title, unit, csv, higher) id,
	REPORT_METRICS(X)
#undef X
	RM_COUNT
};
/* clang-format on */

struct report_metric_info {
	const char *name;  /* for --metric */
	const char *title; /* "Average latency" */
	const char *unit;  /* "IOPS", "MB/s", "ms" */
	const char *csv;   /* CSV column: name and unit */
	bool higher_better;
};
extern const struct report_metric_info report_metric_info[RM_COUNT];

/* The metrics measured from I/O (every interval sample has them); the rest are drive's. */
#define REPORT_IO_METRICS ((1u << RM_HOST_WRITTEN) - 1)
/* The latency percentiles, which a histogram's percentile chart shows too. */
#define REPORT_PCT_METRICS   ((1u << RM_P99) | (1u << RM_P999) | (1u << RM_P9999))
#define REPORT_DRIVE_METRICS ((1u << RM_HOST_WRITTEN) | (1u << RM_TEMP_MAX))

/* The metric's value in a direction's statistics, in its unit. */
double report_metric_value(enum report_metric m, const struct dir_stats *d);
/* By --metric name (also accepts the title's words: "avg", "stddev", "bw"). */
int report_metric_parse(const char *s, enum report_metric *m);

/* ---- the model ------------------------------------------------------------------ */

struct report_run {
	const struct result *res;
	char label[192];	       /* column heading and legend entry */
	const struct spec_sheet *spec; /* the vendor ratings for its model, or NULL */
	unsigned nunshared;	       /* its measured steps that not every run has */
};

/*
 * A row: a step every run has, or one direction of it, or one of its streams (a step of
 * several streams run at once: result.h), which follow its rows, matched by name.
 */
struct report_row {
	unsigned group;			  /* index into report.groups */
	char name[144];			  /* "2T2Q", "16T16Q read", "4T8Q @ 5000 IOPS",
					     "2T2Q / reader" */
	enum io_dir dir;		  /* DIR_ALL, or the split of a mixed step */
	const char *stream;		  /* a stream row: the stream's name; NULL: a step's */
	const struct result_step **steps; /* [nruns]: each run's matching step or stream */
};

struct report_group {
	char title[128]; /* "8k 70/30 random" */
	unsigned first_row, nrows;
	unsigned differ;       /* bits (1u << step_def_field) of the incomparable fields its
				  steps differ in, for tables of every metric; 0: comparable */
	unsigned unknown;      /* bits of those fields some of its steps know and others,
				  with a recorded definition, do not */
	char *differ_note;     /* malloc'd when differ or unknown: "scale: run A 0.01, run B
				  0.02", "scale: run A 0.01, run B unknown" */
	unsigned differ_pct;   /* ... for its tables and charts of percentiles: differ and the
				  fields of percentiles alone (step_def_scope) */
	unsigned unknown_pct;  /* ... and unknown likewise */
	char *differ_pct_note; /* malloc'd when differ_pct or unknown_pct */
};

struct report {
	struct report_run *runs;
	unsigned nruns;
	struct report_row *rows;
	unsigned nrows;
	struct report_group *groups;
	unsigned ngroups;
	char **notes; /* what is not compared, and why */
	unsigned nnotes;
	unsigned metric_mask; /* bit (1u << metric) for each metric reported */
	struct spec_list specs;
	char title[256];
	struct report_charts *charts; /* set by the caller before rendering; NULL: none */
};

/*
 * compare --charts: every chart of the HTML report also as files of its own. The HTML
 * renderer hands write() each chart as a standalone SVG document with its stem: its
 * section and metric ("8k-70-30-random-iops", "preconditioning-avg-lat"), lowercase ASCII
 * letters, digits and '-', unique in the report (-2, -3 ... in the order drawn), the same
 * for the same results; the page links "<href>/<stem>.svg" and ".png" under the figure.
 * write() returns 0 or -errno (which stops the rendering).
 */
struct report_charts {
	int (*write)(void *ctx, const char *stem, const char *svg, size_t len);
	void *ctx;
	const char *href; /* the folder as the page links it: relative to the page, or absolute */
	char **stems;	  /* handed out so far: malloc'd, report_charts_free() */
	unsigned nstems;
};
void report_charts_free(struct report_charts *ch);

struct report_opts {
	unsigned metric_mask; /* 0: every metric */
	const char *spec_dir; /* NULL: the default search path (spec_load_default) */
	const struct settings *settings; /* main()'s, for that path; NULL: no user specs */
	bool no_specs;	      /* do not look for spec sheets */
	bool strict;	      /* refuse (-EDOM, the groups named in err) when a group's
				 steps are not comparable */
};

/*
 * Build the model over nruns results. 0 or -errno, message in err; -EDOM with strict
 * when a table would put steps that are not comparable side by side.
 */
int report_build(struct report *rep, const struct result *const *runs, unsigned nruns,
		 const struct report_opts *opts, char *err, size_t errlen);
void report_free(struct report *rep);

/* ---- tables: what text, Markdown, HTML and the TUI show ------------------------- */

/* The mark a value carries in tables when its step has warnings (they are in the notes). */
#define REPORT_WARN_MARK "!"

struct report_cell {
	bool present; /* false: the step failed or measured nothing, or the value is not known */
	bool warned;	     /* the step has warnings: show REPORT_WARN_MARK with the value */
	double value;	     /* in the metric's unit */
	double rated;	     /* the vendor rating in the same unit, 0 = none */
	double pct_of_rated; /* value / rated * 100 */
};

/* "8k 70/30 random": a workload without threads, queue depth and rate (a group's title). */
char *report_group_title(char *buf, size_t len, const struct workload *wl);
/*
 * The rate curve step st of phase ph belongs to, into buf: a step of a preset's streams
 * by its phase's name ("sql 90-10"; true), any other by its workload with threads and
 * queue depth ("8k 70/30 random 4T32Q"; false).
 */
bool report_curve_title(char *buf, size_t len, const struct result_phase *ph,
			const struct result_step *st);

/* One cell: run `run`'s value of metric m in row `row`. */
struct report_cell report_cell(const struct report *rep, unsigned row, unsigned run,
			       enum report_metric m);

struct report_table {
	enum report_metric metric;
	unsigned group;
	char title[192];	   /* "Throughput (IOPS), 8k 70/30 random" */
	unsigned nrows, ncols;	   /* rows of the group x runs */
	const char **row_names;	   /* [nrows] */
	const char **col_names;	   /* [ncols] */
	struct report_cell *cells; /* [nrows * ncols], row-major */
	unsigned differ;	   /* its group's: incomparable fields its steps differ in */
	unsigned unknown;	   /* its group's: fields some of its steps do not know */
	const char *differ_note;   /* its group's note, or NULL */
};

/* Lay out metric m over group g. 0 or -ENOMEM. */
int report_table(const struct report *rep, enum report_metric m, unsigned g,
		 struct report_table *t);
void report_table_free(struct report_table *t);

/* report_defs.c: each group's differ, unknown, their _pct and notes. 0 or -ENOMEM. */
int report_check_defs(struct report *rep);
/*
 * The incomparable fields of group g for what shows the metrics in metric_mask (a
 * table: its metric; a row of CSV or JSON, the notes and --strict: rep->metric_mask), as
 * bits, those some of its steps do not know into *unknown, and their note into *note
 * (NULL when none; unknown and note may be NULL): differ_pct, unknown_pct when a
 * percentile is among them, else differ, unknown.
 */
unsigned report_differ(const struct report *rep, unsigned g, unsigned metric_mask,
		       unsigned *unknown, const char **note);
/*
 * "not-comparable:scale not-comparable:wait not-known:sector": the codes of the fields
 * in differ, then of those in unknown, each once (lbs and pbs share "sector"), sep
 * between them. Returns buf.
 */
char *report_differ_codes(char *buf, size_t len, unsigned differ, unsigned unknown,
			  const char *sep);

/* ---- chart series: what the HTML charts draw, from the model ------------------- */

/* How many points a run's preconditioning has over time: a sample each, or a round's. */
unsigned report_precondition_count(const struct result *r);
/*
 * The next precondition phase of the report's runs from run *run, phase *phase on (both
 * updated to it); false after the last. for (i = 0, p = 0; report_next_precondition(rep,
 * &i, &p); p++) visits each.
 */
bool report_next_precondition(const struct report *rep, unsigned *run, unsigned *phase);
/*
 * Those points, every interval sample of every precondition phase on one time line:
 * t_s[] in seconds and, for each metric in mask, v[m][] (NAN for an interval without
 * I/O); at most max. One pass over the packed samples.
 */
void report_precondition_points(const struct result *r, unsigned mask, double *t_s,
				double *v[RM_COUNT], unsigned max);

/* A single-step section: a group with one combined row (4K random at 16T16Q). */
bool report_group_single(const struct report *rep, unsigned g);

/*
 * Grouped bars for single-step sections, as reviews draw them: the rows of every
 * single-step group with one block size and pattern (4k random: read, write) are the
 * categories of one set, each with one bar per run (report_cell gives the values).
 */
struct report_bars {
	char title[128];   /* "4k random" */
	unsigned ncats;
	unsigned *rows;	   /* [ncats]: report rows */
	char (*cats)[160]; /* [ncats]: "4k read random 16T16Q", "8k 70/30 random 16T16Q read" */
};
/* The sets, in order of their first row. 0 or -ENOMEM. */
int report_bars(const struct report *rep, struct report_bars **sets, unsigned *nsets);
void report_bars_free(struct report_bars *sets, unsigned nsets);

/*
 * A latency percentile ("exceedance") curve of run's step in row, from its stored
 * histogram (the direction of the row; reads and writes together for a combined row):
 * at the point k, a share 10^-nines[k] of the I/Os took lat_ms[k] or longer. nines runs
 * from 0 (every I/O) to log10(I/Os) (the slowest one); n is 0 when the step kept no
 * histogram.
 */
struct report_exceed {
	unsigned n;
	double *nines;	/* [n]: -log10(share of I/Os at or past lat_ms) */
	double *lat_ms; /* [n] */
};
int report_exceedance(const struct report *rep, unsigned row, unsigned run,
		      struct report_exceed *out);
void report_exceed_free(struct report_exceed *e);

/*
 * SNIA PTS style block size x read mix (the IOPS test's 7x8, the latency test's 3x3):
 * when a run measured several block sizes under several mixes (fixed block size, random,
 * the first such step's threads and queue depth, no rate limit), each cell's IOPS and
 * average latency averaged over the steady-state window (the last `window` rounds the
 * phase judged; without a judge, the last measurement) and its maximum latency the
 * window's highest, and each block size's tracked figure at the lowest read mix round by
 * round (SNIA's convergence plot): IOPS, or average latency when the phase tracked a
 * latency (the latency test). nbs is 0 when the run has no such matrix.
 */
struct report_matrix {
	const struct result_phase *phase; /* the phase it comes from */
	const struct result_step *first;  /* its threads and queue depth */
	unsigned nbs, nmix;
	uint32_t *bs, *mix;	  /* descending: 1024k ... 512b; 100 ... 0 % reads */
	char (*bs_names)[32];	  /* [nbs]: "4k" */
	double *iops;		  /* [nbs * nmix]: NAN where nothing was measured */
	double *lat_avg_ms;	  /* [nbs * nmix]: likewise */
	double *lat_max_ms;	  /* [nbs * nmix]: likewise */
	bool latency;		  /* the phase tracked a latency: conv is average latency */
	unsigned window_rounds;	  /* the rounds averaged; 0: last measurement */
	unsigned last_round;	  /* the window's last round */
	unsigned nrounds;	  /* rounds that ran */
	double *conv;		  /* [nbs * nrounds]: IOPS or ms (latency); NAN where missing */
	char verdict[512];	  /* report_phase_summary of its phase */
};
int report_matrix(const struct report *rep, unsigned run, struct report_matrix *out);
void report_matrix_free(struct report_matrix *m);
/* Is st one of m's cells (a step of its phase, at any round)? */
bool report_matrix_covers(const struct report_matrix *m, const struct result_step *st);
/* Every run's matrix, *out malloc'd [rep->nruns] (nbs 0 for a run without). 0 or -ENOMEM. */
int report_matrices(const struct report *rep, struct report_matrix **out);
void report_matrices_free(struct report_matrix *mx, unsigned n);
/*
 * Is group g a matrix's cells, round by round (a run's step of it is one)? The renderers
 * show such a group as its matrix, convergence and verdict instead of a table a round.
 */
bool report_matrices_cover(const struct report *rep, const struct report_matrix *mx,
			   unsigned g);

/*
 * SNIA PTS write saturation (WSAT, the snia-wsat preset): a run's first step of a
 * measuring phase named REPORT_WSAT_PHASE (random writes until an amount is written),
 * each interval sample as IOPS against the time since the step began and against the
 * data written by its end. n is 0 when the run has no such step (or it kept no samples).
 */
#define REPORT_WSAT_PHASE "wsat"
struct report_wsat {
	const struct result_step *step;
	unsigned n;
	double *t_s;	     /* [n]: the sample's end, seconds from the step's start */
	double *written_gb;  /* [n]: data written by then (the ramp's too), 10^9 bytes */
	double *iops;	     /* [n] */
	double capacity_gb;  /* the target's, 10^9 bytes; 0 unknown */
};
int report_wsat(const struct report *rep, unsigned run, struct report_wsat *out);
void report_wsat_free(struct report_wsat *w);

/* A run's scale (result.h) as the runs tables print it: "x0.01"; "?" when not known. */
char *report_fmt_scale(char *buf, size_t len, double scale);
/* "58,550", "380.2", "12.07": a value in the metric's unit as tables print it. */
char *report_fmt_value(char *buf, size_t len, enum report_metric m, double v);
/* "58,550 IOPS against a rated 54,000 (108%)" for the notes under a table. */
char *report_fmt_rating(char *buf, size_t len, enum report_metric m, const struct report_cell *c);

/*
 * "8k 70/30 random 16T16Q, 7 rounds of 1m 00s: steady state reached at round 7 (data
 * excursion 12.5% of 20% allowed, slope excursion 3.2% of 10%)", for a preconditioning
 * (or any) phase.
 */
char *report_phase_summary(char *buf, size_t len, const struct result_phase *ph);
/*
 * The steady-state verdict a step of r was measured under: its own phase's when that
 * ran in rounds judged for steady state (SNIA's measurement rounds), else the latest
 * such phase before it (the precondition); NULL when none.
 */
const struct steady_info *report_step_steady(const struct result *r, const struct result_step *st);

/* A run's CPU use over its compared steps (result.h, struct step_cpu). */
struct report_cpu {
	unsigned nmeasured;	/* compared steps that recorded it; 0: nothing to say */
	double proc_max_pct;	/* drivebench's most, % of one CPU */
	const char *proc_max_group; /* in which group (report_group.title) */
	const char *proc_max_row;   /* and row (report_row.name) */
	double host_busy_max_pct; /* the host's most (user + system), % of all CPUs */
	double iowait_max_pct;
	unsigned nbound;	/* steps with the cpu-bound warning */
};
void report_run_cpu(const struct report *rep, unsigned run, struct report_cpu *out);
/*
 * "drivebench up to 95% of a CPU (4k read random 16T16Q), the host up to 97% busy, iowait up to 3%;
 * 2 steps CPU-bound". NULL when the run recorded no CPU use.
 */
char *report_fmt_cpu(char *buf, size_t len, const struct report_cpu *c);
/* The same for run `run` of the report (report_run_cpu, then report_fmt_cpu). */
char *report_run_cpu_text(char *buf, size_t len, const struct report *rep, unsigned run);

/*
 * What a step ran, in words: its workload ("8k 70/30 random 8T8Q"), "... on 2 targets"
 * when it ran on several, or each stream's ("data 8k 70/30 random 8T8Q + log 64k write
 * sequential 1T1Q").
 */
char *report_step_workload(char *buf, size_t len, const struct result_step *st);
/*
 * What a step of phase ph is, named as it is: "purge: discard", "fill: 128k write
 * sequential 1T32Q, 134MB written", "precondition: 4k write random 16T16Q until steady
 * state", or the workload of a measuring step.
 */
char *report_step_what(char *buf, size_t len, const struct result_phase *ph,
		       const struct result_step *st);

/*
 * One result, readable (drivebench show): header lines (Result, Drive, Target, or
 * Targets naming each of a run on several, Size, Host, Preset, Run), then per phase its
 * summary line and a table of its steps, each step of several streams followed by a
 * line per stream ("2T2Q / reader").
 * *text is malloc'd, NUL-terminated, *len bytes. Returns 0 or -errno.
 */
int report_show(const struct result *r, char **text, size_t *len);
struct replay_stats;
/* A replay step's figures in one line, newline included: what it issued, its lag. */
void report_replay_line(FILE *out, const struct replay_stats *r);
/* report_app.c: an [app] phase's table for show; compare's application tables (text, md) */
void report_show_app(FILE *out, const struct result_phase *ph);
void report_app_text(const struct report *rep, FILE *out, bool md);
/* ... and its charts, TPS and latencies against threads, a line per run. 0 or -ENOMEM. */
int report_app_html(const struct report *rep, FILE *out);
/*
 * ... and in JSON: [{"tool", "threads", "runs": [{"tps", "lat_avg_ms", "lat_p95_ms",
 * "lat_p99_ms", "device_iops"} or null per run]}] (report_json.c's "applications").
 */
struct jwrite;
void report_app_json(const struct report *rep, struct jwrite *w);

/*
 * One CSV field (RFC 4180), made safe for spreadsheets (a cell that would run as a
 * formula gets a leading ') and terminals (no control character); then "," or, when
 * last, a newline. Every CSV drivebench writes goes through it.
 */
void report_csv_field(FILE *out, const char *s, bool last);
/*
 * A result's interval samples as CSV: a header row, then one row per sample of every
 * step and of every stream of a step of several, named "<step> / <stream>" (phase, step,
 * interval, time, IOPS, MB/s, latency mean, max and std dev, host stall, read and write
 * IOPS), for gnuplot and spreadsheets. 0 or -EIO.
 */
int report_samples_csv(const struct result *r, FILE *out);

/* ---- renderers ------------------------------------------------------------------ */

#define REPORT_FORMATS(X)                                                                          \
	X(RF_TEXT, "text", report_render_text)                                                     \
	X(RF_MD, "md", report_render_md)                                                           \
	X(RF_CSV, "csv", report_render_csv)                                                        \
	X(RF_JSON, "json", report_render_json)                                                     \
	X(RF_HTML, "html", report_render_html)

/* clang-format off */
enum report_format {
#define X(id, name, fn) id,
	REPORT_FORMATS(X)
#undef X
	RF_COUNT
};
/* clang-format on */

/* Each writes the whole report to out; 0 or -errno. */
#define X(id, name, fn) int fn(const struct report *rep, FILE *out);
REPORT_FORMATS(X)
#undef X

extern const char *const report_format_name[RF_COUNT];
int report_format_parse(const char *s, enum report_format *f);
/* The report in a format, into a malloc'd NUL-terminated buffer. 0 or -errno. */
int report_render(const struct report *rep, enum report_format f, char **out, size_t *len);

#define REPORT_FORMAT  "drivebench-compare"
#define REPORT_VERSION 1

#endif
