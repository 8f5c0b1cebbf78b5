/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_STEP_DEF_H
#define DB_STEP_DEF_H
/*
 * What a step's numbers mean: its measurement definition (docs/DESIGN.md, "What a
 * number means"). Every step carries one, in the result file as the step's
 * "definition" object; compare puts two steps side by side only when the fields marked
 * incomparable agree, and says how they differ when they do not.
 *
 * A field nobody recorded is unknown: "" in its text form, left out of the file. A
 * result written before definitions existed loads with every field unknown, and an
 * unknown field never makes two steps incomparable (nothing says they differ).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jwrite;

/* What a latency spans. */
enum step_lat {
	SL_UNKNOWN,
	SL_TOTAL,      /* from before submission to completion: fio's "lat" */
	SL_COMPLETION, /* from submission's return to completion: fio's "clat" */
	SL_COUNT
};
extern const char *const step_lat_name[SL_COUNT]; /* "", "total", "completion-only" */

/* How the submitting thread waited for its completions. */
enum step_wait {
	SWT_UNKNOWN,
	SWT_INTERRUPT, /* slept in the kernel until completions came (fio's default; the
			  uring engine's gathered waits, see engine_uring.c) */
	SWT_BUSY_POLL, /* spun on the completion queue before sleeping (--busy-poll) */
	SWT_POLLED,    /* polled I/O: the kernel polls the device (IOPOLL, fio's hipri) */
	SWT_COUNT
};
extern const char *const step_wait_name[SWT_COUNT]; /* "", "interrupt", "busy-poll", "polled" */

/* How the uring engine issued reads and writes (docs/DESIGN.md, "Async issue"). */
enum step_issue {
	SI_UNKNOWN,
	SI_NOWAIT_FIRST, /* non-blocking first, io_uring's workers for what cannot be (fio's) */
	SI_ASYNC,        /* IOSQE_ASYNC up front (DRIVEBENCH_URING_ASYNC=auto; fio's force_async) */
	SI_COUNT
};
extern const char *const step_issue_name[SI_COUNT]; /* "", "nowait-first", "async" */

/* Which of compare's tables a difference in a field makes incomparable. */
enum step_def_scope {
	SDS_NONE,	 /* none: the field is shown, not compared */
	SDS_ALL,	 /* every table of the steps */
	SDS_PERCENTILES, /* only the tables and charts of latency percentiles and histograms */
};

/*
 * The definition's fields, declared once: id, key in the file, the code compare marks
 * tables with ("not-comparable:<code>", two fields may share one), which tables a
 * difference makes incomparable (step_def_scope), whether the file holds a number (else
 * a string), and what the field says.
 */
#define STEP_DEF_FIELDS(X)                                                                         \
	X(SD_LATENCY, "latency", "latency-kind", SDS_ALL, false,                                   \
	  "what a latency spans: total (before submission to completion, fio's lat) or "           \
	  "completion-only (fio's clat, without the submission)")                                  \
	X(SD_PCT_LATENCY, "percentiles", "latency-kind", SDS_PERCENTILES, false,                   \
	  "what the latency percentiles and histogram span, total or completion-only: an fio "     \
	  "import without lat_percentiles=1 has clat's beside lat's mean")                         \
	X(SD_WAIT, "wait", "wait", SDS_ALL, false,                                                 \
	  "how completions were waited for: interrupt (sleeping), busy-poll (spinning on the "     \
	  "completion queue first) or polled (the kernel polling the device)")                     \
	X(SD_ISSUE, "issue", "issue", SDS_ALL, false,                                              \
	  "how the uring engine issued reads and writes: nowait-first (non-blocking first, "       \
	  "io_uring's worker threads for what cannot be: fio's default) or async (marked "         \
	  "IOSQE_ASYNC up front, on a target that cannot take non-blocking I/O)")                  \
	X(SD_ENGINE, "engine", "engine", SDS_NONE, false,                                          \
	  "what issued the I/O: drivebench's uring or null engine, or fio and its ioengine")       \
	X(SD_FLAGS, "flags", "flags", SDS_NONE, false,                                             \
	  "the ring's setup flags and registrations, or fio's ioengine options")                   \
	X(SD_SCALE, "scale", "scale", SDS_ALL, true,                                               \
	  "the run's --scale: step times and rounds are this share of the preset's")               \
	X(SD_LBS, "lbs", "sector", SDS_ALL, true,                                                  \
	  "the target's logical sector size, bytes (of a step on several targets: theirs when "    \
	  "they all have one, else unknown)")                                                      \
	X(SD_PBS, "pbs", "sector", SDS_ALL, true,                                                  \
	  "the target's physical sector size, bytes (likewise)")                                   \
	X(SD_SECTORS, "sectors", "sector", SDS_ALL, false,                                         \
	  "a step on several targets: each one's logical/physical sector sizes, smallest first "   \
	  "(\"512/512+4096/4096\"); steps differ when the share of their targets of a size "       \
	  "differs. One target's are lbs and pbs")                                                 \
	X(SD_HOST_LOAD, "host_other_pct", "host-load", SDS_NONE, true,                             \
	  "CPU time other processes used during the step, % of all the host's CPUs")               \
	X(SD_VERSION, "version", "version", SDS_NONE, false,                                       \
	  "the drivebench that measured (or imported) the step")                                   \
	X(SD_BS_FOLDED, "bs_folded", "bs-folded", SDS_NONE, false,                                 \
	  "the preset's block sizes below the target's logical block size, their shares "          \
	  "folded into it (\"512b/10:1k/5:2k/5 into 4k\"): the mix the step ran is in its "        \
	  "workload")

/* clang-format off */
enum step_def_field {
#define X(id, key, code, incomparable, number, about) id,
	STEP_DEF_FIELDS(X)
#undef X
	SD_COUNT
};
/* clang-format on */

struct step_def_info {
	const char *key;		  /* in the file's "definition" object */
	const char *code;		  /* "scale": compare's mark is "not-comparable:scale" */
	enum step_def_scope incomparable; /* the tables in which steps that differ here are
					     not compared silently; SDS_NONE: none */
	bool number;			  /* a JSON number in the file; else a string */
	const char *about;
};
extern const struct step_def_info step_def_info[SD_COUNT];

#define STEP_DEF_MARK "not-comparable:" /* followed by the field's code */
/* ... and where some steps know the field and others do not (docs/DESIGN.md) */
#define STEP_DEF_UNKNOWN_MARK "not-known:"

/*
 * A step's targets at most: a run's (RUN_MAX_TARGETS, a layer above), which sectors
 * below holds and step_def_record() takes no more of.
 */
#define STEP_DEF_MAX_TARGETS 8

struct step_sectors {
	uint32_t lbs, pbs; /* bytes */
};

struct step_def {
	enum step_lat lat;
	enum step_lat pct_lat; /* what its percentiles and histogram span (an fio import's
				  may be clat's when its mean is lat's) */
	enum step_wait wait;
	enum step_issue issue;
	char engine[48];       /* "uring", "null", "fio-3.33 io_uring" */
	char flags[128];       /* "SINGLE_ISSUER|DEFER_TASKRUN|TASKRUN_FLAG, registered file" */
	double scale;	       /* 0: unknown */
	uint32_t lbs, pbs;     /* bytes; 0: unknown (several targets of different sizes) */
	unsigned nsectors;     /* a step on several targets: how many; else 0 (lbs, pbs) */
	struct step_sectors sectors[STEP_DEF_MAX_TARGETS]; /* theirs, smallest first */
	bool has_host_load;
	double host_other_pct; /* % of all CPUs used by other processes over the step */
	char version[32];      /* "0.1.0" */
	char bs_folded[96];    /* "512b/10:1k/5:2k/5 into 4k"; "": nothing folded */
};

/*
 * Field f of d in words ("total", "0.01", "4096"); "" when unknown. Returns buf. The
 * sectors of a step on one target are its lbs/pbs ("512/4096"), which the file holds
 * alone.
 */
char *step_def_text(const struct step_def *d, enum step_def_field f, char *buf, size_t len);
/* Set field f of d from its text form (as the file holds it). -EINVAL leaves it unknown. */
int step_def_parse(struct step_def *d, enum step_def_field f, const char *s);
/* By key in the file; -1 when there is no such field (a newer drivebench's: skipped). */
int step_def_find(const char *key);
/* Does any field hold something? (A step from before definitions holds nothing.) */
bool step_def_known(const struct step_def *d);
/*
 * Both known and different: the two steps differ in field f. Sectors differ when the
 * share of the steps' targets of some size differs (512+4096 and 4096+512 agree, two
 * targets of 512 and one agree, 512+4096 and 512+512 do not).
 */
bool step_def_differs(const struct step_def *a, const struct step_def *b, enum step_def_field f);
/* Each incomparable field (of any scope) in which a and b differ, as bits (1u << field). */
unsigned step_def_incomparable(const struct step_def *a, const struct step_def *b);
/* The known fields as a "definition" object (the key before it is the caller's). */
void step_def_write(struct jwrite *w, const struct step_def *d);
/*
 * "latency total, wait interrupt, engine uring (flags), scale 0.01, sectors 512/4096,
 * other processes 3% of the CPUs, drivebench 0.1.0": the known fields, for show (the
 * percentiles' kind when it is not the latency's; a step on several targets' sectors
 * "512/512+4096/4096").
 */
char *step_def_describe(const struct step_def *d, char *buf, size_t len);

/*
 * The definition of a step drivebench measured: desc is what the backend set up (its
 * first word the engine, the rest the flags), busy_poll whether its workers spun, then
 * the run's scale, the target's sector sizes, and other processes' CPU use over the step
 * (others_pct of all CPUs, step_cpu_others_pct(); < 0: not measured).
 */
void step_def_measured(struct step_def *d, const char *desc, bool busy_poll, double scale,
		       uint32_t lbs, uint32_t pbs, double others_pct);

/*
 * The engine's part of d (wait, issue, engine, flags) from what the backend set up (desc:
 * its first word the engine, the rest the flags) and whether its workers spin: known once
 * a step's workers are set up, so a step saved while it runs (an autosave) says it too.
 */
void step_def_engine_set(struct step_def *d, const char *desc, bool busy_poll);

struct result;
/*
 * replay: the definition of the step of `from` that a replay's step (its place in phase
 * `phase`, at `index`, and its label) runs again: the one at the same place with the
 * same label; else, for a round the original did not run (a steady phase that runs
 * longer), the original phase's last round of the same step (its label less "round N[
 * again]"). NULL when there is none.
 */
const struct step_def *step_def_replayed(const struct result *from, unsigned phase, unsigned index,
					 const char *label);
struct engine_opts;
/*
 * replay: the engine options o (the run's) changed to run a step as d says its step ran:
 * its wait (busy-poll yes or no: what its workers did), and of drivebench's io_uring its
 * issue (async: engine_opts.async, which marks I/O async where the rule of
 * engine_async() lets it) and its ring setup (the list starts at the setup it had).
 * What d does not know stays o's, and so does each field whose bit (1u << SD_WAIT,
 * SD_ISSUE, SD_FLAGS) is in own: the user chose it for this run. d NULL: o unchanged.
 */
void step_def_engine(const struct step_def *d, unsigned own, struct engine_opts *o);

struct step_cpu;
/*
 * Other processes' CPU use over a step, % of all the host's CPUs: the host's user time
 * less drivebench's own, 0..100; -1 when the step's CPU use was not measured. User time
 * only: the kernel's system, irq and softirq time is largely the step's own I/O
 * completing, whoever it is charged to.
 */
double step_cpu_others_pct(const struct step_cpu *c);

struct result_step;
struct step_result;
struct target;
/*
 * step_def_measured() for a step the engine ran (sr) on every one of the targets, and
 * each of its streams, each with the sector sizes of its own target (targets[stream's
 * target_index]); its CPU use is the step's.
 */
void step_def_record(struct result_step *st, const struct step_result *sr, double scale,
		     const struct target *const *targets, unsigned ntargets);
/*
 * What a step's definition holds before the engine has run it (latency kinds, scale,
 * the targets' sectors, this drivebench): what a result saved while the step runs, or
 * left by a run that died in it, says; step_def_record() completes it.
 */
void step_def_begin(struct step_def *d, double scale, const struct target *const *targets,
		    unsigned ntargets);

/*
 * 4K-sector targets: the block size a split's smaller sizes are folded into
 * (workload_fold_split), the largest logical block size of the targets when above 512
 * bytes, else 0 (nothing folded).
 */
uint32_t step_def_fold_lbs(const struct target *const *targets, unsigned ntargets);
struct workload;
/* What folding the planned workload into lbs folds, as d's bs_folded ("" for nothing). */
void step_def_fold(struct step_def *d, const struct workload *planned, uint32_t lbs);

#endif
