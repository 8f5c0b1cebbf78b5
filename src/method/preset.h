/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_PRESET_H
#define DB_PRESET_H
/*
 * Review presets (drivebench-preset(5)): an INI-like file parsed, validated and expanded
 * into a plan, the list of phases and steps the runner executes.
 *
 *	[preset]        name, description, source
 *	[workload]      defaults for every phase
 *	[purge]         method
 *	[precondition]  phases, any number of each, run in the order written
 *	[measure]
 *	[run]           an ad-hoc workload, as `drivebench run` writes it
 *	[app]           an application benchmark (app.h): its thread steps
 *
 * A workload key may hold a space-separated list; a phase's steps are the cartesian
 * product of its list keys, outer loop first in the order written ([workload] keys the
 * phase does not override come first). Every key is declared once, in preset_keys[],
 * which drives parsing, validation, defaults, `drivebench presets --keys` and the man
 * page check. Errors are "file:line: message"; a preset with an error yields no plan.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "engine.h"
#include "purge.h"
#include "result.h"
#include "steady.h"
#include "workload.h"

#define PRESET_SECTIONS(X)                                                                         \
	X(SEC_PRESET, "preset")                                                                    \
	X(SEC_WORKLOAD, "workload")                                                                \
	X(SEC_PURGE, "purge")                                                                      \
	X(SEC_PRECONDITION, "precondition")                                                        \
	X(SEC_MEASURE, "measure")                                                                  \
	X(SEC_RUN, "run")                                                                          \
	X(SEC_STREAM, "stream")                                                                    \
	X(SEC_APP, "app")

#define PRESET_SEC_ENUM(id, name) id,
enum preset_section { PRESET_SECTIONS(PRESET_SEC_ENUM) PRESET_NSECTIONS };
#undef PRESET_SEC_ENUM

extern const char *const preset_section_name[PRESET_NSECTIONS];

/*
 * Limits (drivebench-preset(5), LIMITS); past one, the preset is refused with the line
 * and the limit named. A preset and the text a result carries are the same thing, so
 * these match what a result may hold (result.h).
 */
#define PRESET_MAX_BYTES	RESULT_MAX_PRESET_BYTES /* the file, or the text replayed */
#define PRESET_MAX_STEPS	RESULT_MAX_STEPS	/* over the plan; a steady phase's steps
							   count max_rounds times */
#define PRESET_MAX_DURATION_NS	(720ull * 3600 * 1000000000ull) /* any one, scaled too: 30 days */
#define PRESET_MAX_STREAMS	ENGINE_MAX_STREAMS	/* [stream] sections in one phase */
#define PRESET_SCALE_MIN	1e-6 /* --scale, and the scale a result records */
#define PRESET_SCALE_MAX	1e6

struct preset_build; /* what setters fill while a step is built (preset.c) */

/* One key of the format. The table is the single declaration of the key. */
struct preset_key {
	const char *name;
	unsigned sections; /* bit (1u << SEC_x) for each section it may appear in */
	bool list;	   /* may hold a list: each element is one step of the product */
	const char *def;   /* default, written as in a preset; NULL: none */
	const char *value; /* what it takes, for listings: "SIZE", "random|sequential" */
	const char *help;
	bool text;	/* one value: the rest of the line, blanks and all */
	bool option;	/* also an option of `drivebench run`: --NAME VALUE */
	unsigned group; /* nonzero: keys of one group are alternatives (bs / bssplit) */
	/* Apply one value; 0 or -EINVAL with a message (no file:line) in err. */
	int (*set)(struct preset_build *b, const char *val, char *err, size_t errlen);
};

extern const struct preset_key preset_keys[];
extern const unsigned preset_nkeys;

/* Until when a phase runs. */
enum phase_until {
	UNTIL_TIME,   /* every step once, for its time */
	UNTIL_STEADY, /* rounds of all its steps until the tracked metric is steady */
	UNTIL_FIXED,  /* every round to max_time / max_rounds; steady state judged, recorded */
};

struct plan_step {
	char label[64];	      /* "2T2Q", "4k 65/35", "16T16Q" */
	struct workload wl;   /* durations already scaled */
	double rate_pct;      /* > 0: rate is this % of the last uncapped step's IOPS */
	bool loops_set;	      /* write the range `loops` times, then end */
	double loops_bytes_x; /* loops x scale (capped at loops): multiples of the range */
	unsigned bs_line;     /* line that set the block size, for target checks */
	uint64_t trace_ns;    /* a replay: its trace's length in time (the estimate's) */
	/*
	 * The step's [stream] sections: several workloads run at once as one step, each the
	 * step's workload with the stream's keys over it (time, ramp, interval and seed
	 * are the step's). NULL and 0: the step is its one workload.
	 */
	struct plan_stream *streams; /* malloc'd */
	unsigned nstreams;
};

struct plan_stream {
	char name[32];	  /* its `name`, or "stream N" */
	struct workload wl;
	double share_pct; /* its share of the step's rate; 0: an equal part of the rest */
	unsigned line;	  /* of its [stream] header */
	unsigned bs_line; /* that set its block size, for target checks */
};

struct plan_phase {
	char name[32]; /* section name, or its `name` key */
	enum phase_kind kind;
	unsigned line;		 /* of the section header */
	enum purge_method purge; /* PH_PURGE */
	enum phase_until until;
	uint64_t max_time_ns; /* in rounds: stop rounds after this much; 0 none */
	uint64_t min_time_ns; /* UNTIL_STEADY: steady state ends the phase only after this */
	double min_written_x; /* UNTIL_STEADY: ... and after this many x the range written */
	bool wipc;	      /* kind = wipc: SNIA's workload-independent precondition */
	struct steady_params steady;
	char track[32];		 /* in rounds: metric (steady_metric_value) */
	int track_step;		 /* in rounds: the step whose metric is tracked */
	struct app_params app;	 /* kind = app: the tool, file system and data */
	struct plan_step *steps; /* purge: one, carrying the range */
	unsigned nsteps;
	char skipped[256]; /* plan_fit_target(): the steps dropped and why; "" none */
};

struct plan {
	char name[128];	   /* [preset] name */
	char *description; /* malloc'd, may be "" */
	char *source;	   /* malloc'd: where the methodology comes from, may be "" */
	char file[4096];   /* what errors name: a path, or "<text>" */
	double scale;	   /* applied to every duration */
	char *text;	   /* malloc'd: the preset as parsed (canonical text in results) */
	struct plan_phase *phases;
	unsigned nphases;
	struct preset_doc *doc; /* the parsed sections, for plan_to_text */
};

/*
 * Parse preset text; file names it in messages. scale (PRESET_SCALE_MIN to _MAX)
 * multiplies every duration. The text is repaired to well-formed UTF-8 first. Returns a
 * plan or NULL with "file:line: message" in err.
 */
struct plan *preset_parse(const char *text, const char *file, double scale, char *err,
			  size_t errlen);
/* Read and parse a file: a regular file of at most PRESET_MAX_BYTES. */
struct plan *preset_parse_file(const char *path, double scale, char *err, size_t errlen);
/*
 * A preset by name ("8k-7030", looked up in the preset directories of s) or by path
 * (anything with a '/' or ending in ".preset"). The plan's file is the path it was read
 * from.
 */
struct settings;
struct plan *preset_load(const struct settings *s, const char *name_or_path, double scale,
			 char *err, size_t errlen);
/* Resolve a name to a path; 0 or -ENOENT. */
int preset_find(const struct settings *s, const char *name_or_path, char *path, size_t len);

/*
 * The directories searched, in order: the data directory's presets/ (db_datadir(): the
 * install's, or $DRIVEBENCH_DATADIR); then $XDG_CONFIG_HOME/drivebench/presets (or
 * $HOME/.config/...). The settings' preset_dir ($DRIVEBENCH_PRESET_DIR), when set,
 * replaces the built-in directory; XDG_CONFIG_HOME and HOME are the settings' too (s
 * NULL: none of them). Returns how many were written to dirs (each of len bytes).
 */
unsigned preset_dirs(const struct settings *s, char dirs[][4096], unsigned max);
/* true when dir is the built-in directory (not the user's). */
bool preset_dir_is_builtin(unsigned index);

void plan_free(struct plan *p);
/* Canonical preset text of the plan (no comments, one key per line); malloc'd or NULL. */
char *plan_to_text(const struct plan *p);
/* One setting of an ad-hoc run, given outside a preset file (a command-line option). */
struct preset_setting {
	const char *key;    /* the preset key it sets (an .option key) */
	const char *value;  /* as a preset writes it: "8k", "70%", "2 4 8 16" */
	const char *origin; /* what messages name in place of file:line: "--bs 1000" */
};

/*
 * The plan of an ad-hoc run: one [run] phase built from settings by the preset parser
 * itself, so an option takes exactly what the preset key takes (a list gives steps) and
 * a bad one is reported as its origin ("--bs 1000: ..."). Option keys not given take the
 * table's defaults, written out in the plan's text so a replay runs the same.
 */
struct plan *plan_from_settings(const struct preset_setting *set, unsigned n, const char *name,
				char *err, size_t errlen);

/* true when running the plan writes to the target (purge, or any step that writes). */
bool plan_writes(const struct plan *p);
/* The trace of the plan's first replay step (preset key `trace`), or NULL: fio's exports
   cannot run one. */
const char *plan_trace(const struct plan *p);
/* Steps over the whole plan (phases in rounds count every round). */
unsigned plan_steps(const struct plan *p);
/*
 * Upper bound of the run time, ns (phases in rounds: max_rounds or max_time); sums and
 * products saturate at UINT64_MAX rather than wrap.
 */
uint64_t plan_duration_ns(const struct plan *p);
/* A step's measured time as planned: its time, or a replay's trace at its speed. */
uint64_t plan_step_time_ns(const struct plan_step *st);
uint64_t plan_phase_duration_ns(const struct plan_phase *ph);
/* The most rounds a phase runs: max_rounds for a phase in rounds, else 1. */
unsigned plan_phase_rounds(const struct plan_phase *ph);

/*
 * What a plan is expected to take, beside its upper bound. expected_ns counts fixed
 * phases (until = fixed, or time) as planned, until = steady phases at their shortest
 * (the window filled and min_time passed) and fills (`loops` steps, which end when their
 * bytes are written) from the target's size and a write speed; with either unknown (0)
 * a fill is left out of expected_ns and its multiples of the range summed in fill_x.
 */
struct plan_eta {
	uint64_t expected_ns;
	uint64_t max_ns; /* plan_duration_ns() */
	double fill_x;	 /* multiples of a range written by fills not in expected_ns */
	bool early;	 /* a phase may end before its upper bound (until = steady) */
};

void plan_estimate(const struct plan *p, uint64_t size_bytes, double fill_bps, struct plan_eta *e);
/* One phase's share of expected_ns; fill_x (may be NULL) as in plan_estimate(). */
uint64_t plan_phase_expected_ns(const struct plan_phase *ph, uint64_t size_bytes, double fill_bps,
				double *fill_x);
/*
 * The time a run takes (or has left), in words: "about 6h 40m" when it is known;
 * "at least 30m, at most 6h 05m" when a phase may end early; "about 52m + fill, at most
 * 12h 52m" when a fill of unknown speed is left out of the expected time.
 */
char *plan_fmt_eta(char *buf, size_t len, uint64_t expected_ns, uint64_t max_ns, bool early,
		   bool fill);
/*
 * A preset's length on no particular drive, in words: plan_fmt_eta()'s, except for a
 * preset that is all writing until an amount is written (SNIA's write saturation), whose
 * time is the drive's speed: "until 4x the capacity is written, at most 24h 00m".
 */
char *plan_eta_words(char *buf, size_t len, const struct plan_eta *e);
/*
 * Check every step against a target with logical block size lbs and size bytes:
 * "file:line: message" in err and -EINVAL on the first that cannot run there.
 */
int plan_check_target(const struct plan *p, uint32_t lbs, uint64_t size, char *err, size_t errlen);
/*
 * Fit the plan to targets whose largest logical block size is lbs (plan_fit.c): in a
 * phase of several steps, the steps with a fixed block size lbs cannot take (below it, or
 * not a multiple of it: SNIA's 0.5K column on a 4K-sector drive) are dropped, and the
 * phase's `skipped` says which and why. A phase keeps its steps when that would leave
 * none or drop its tracked step; plan_check_target() then refuses it. Mixes are folded,
 * not dropped (workload_fold_split). Returns how many steps were dropped.
 */
unsigned plan_fit_target(struct plan *p, uint32_t lbs);
/* The first block size of wl, its split folded into lbs, that lbs cannot take; 0: none. */
uint32_t plan_workload_misfit(const struct workload *wl, uint32_t lbs);

#endif
