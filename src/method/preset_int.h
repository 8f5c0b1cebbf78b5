/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_PRESET_INT_H
#define DB_PRESET_INT_H
/*
 * Internal to the preset language: what the key table and its setters (preset_keys.c),
 * the parser and the text form (preset.c) and the expansion into a plan (plan.c) share.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "preset.h"

#define STR_(x) #x
#define STR(x)	STR_(x)

/*
 * --scale shrinks step times, rounds and max_time down to 100 ms at most (a time already
 * shorter stays as it is): a shorter step measures how fast the host starts threads, not
 * the drive (at 10 ms, 16 threads on two CPUs or a loop device at 256 I/Os in flight
 * completed nothing in the step). Times and intervals are at least 10 ms in any case;
 * the default interval scaled down, at least 100 ms.
 */
#define MIN_SCALED_NS	       100000000ull
#define MIN_INTERVAL_NS	       10000000ull
#define MIN_SCALED_INTERVAL_NS 100000000ull
#define LOOPS_CAP_NS  (24ull * 3600 * 1000000000ull) /* a `loops` step without `time` */
#define RENDER_WIDTH  92

struct preset_build {
	struct workload wl;
	unsigned line; /* of the entry being applied */
	unsigned bs_line;
	unsigned rate_line;
	unsigned dist_line; /* of the distribution key, 0: the default */
	double rate_pct;
	unsigned loops;
	bool time_set;
	bool time_written; /* time_set by a line of the preset or an option given, not a default */
	bool interval_set; /* written in the preset: --scale scales it as it is */
	enum purge_method method;
	enum phase_until until;
	uint64_t round_ns; /* 0: the step's time */
	uint64_t max_time_ns;
	uint64_t min_time_ns;
	double min_written_x; /* multiples of the range */
	bool wipc;
	struct steady_params sp;
	char track[32];
	const char *track_step; /* the raw "key=value ..." text */
	unsigned track_line;
	char name[128];
	bool name_set;
	unsigned trace_read_pct; /* `trace`: its read share, over whatever `read` says */
	uint64_t trace_ns;	 /* `trace`: its length in time */
	double share_pct; /* [stream]: share of the step's rate; 0 = an equal part */
	const char *description;
	const char *source;
	struct app_params app; /* [app] */
};

#define S(sec)	   (1u << (sec))
#define SEC_PHASES (S(SEC_PRECONDITION) | S(SEC_MEASURE) | S(SEC_RUN))
#define SEC_WL	   (S(SEC_WORKLOAD) | SEC_PHASES)
/* what a [stream] may set: its name, share, and a workload's shape (not its timing) */
#define SEC_ST	   S(SEC_STREAM)
#define SEC_RANGE  (SEC_WL | S(SEC_PURGE))

/* Keys with the same group are alternatives: setting one in a phase drops the other. */
enum key_group { G_NONE, G_BLOCKSIZE, G_RANGE };

struct preset_entry {
	const struct preset_key *key;
	unsigned line;
	char *raw;   /* the value, continuation lines joined, runs of blanks made one */
	size_t len;  /* bytes: raw's length while lines are joined */
	size_t cap;  /* bytes: raw's allocation, grown by doubling (entry_continue) */
	char **vals; /* list keys: the words; other keys: raw alone */
	unsigned nvals;
};

struct preset_sec {
	enum preset_section kind;
	unsigned line;
	struct preset_entry *e;
	unsigned n;
};

struct preset_doc {
	struct preset_sec *s;
	unsigned n;
};

struct parser {
	const char *file;
	char *err;
	size_t errlen;
	/* settings given as options: origin[line] names the option, instead of file:line */
	const char *const *origin;
	unsigned norigin;
};

/* preset_keys.c: the table's defaults into b, the key of a name, the setters expansion calls */
void build_defaults(struct preset_build *b);
const struct preset_key *key_find(const char *name);
enum key_group key_group(const struct preset_key *k);
int set_bs(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_distribution(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_pattern(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_qdepth(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_rate(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_read(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_threads(struct preset_build *b, const char *v, char *err, size_t errlen);
/* preset_trace.c */
int set_trace(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_trace_speed(struct preset_build *b, const char *v, char *err, size_t errlen);
/* app_preset.c: the [app] keys' setters */
int set_app_tool(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_app_fs(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_app_tables(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_app_table_size(struct preset_build *b, const char *v, char *err, size_t errlen);
int set_app_scale_factor(struct preset_build *b, const char *v, char *err, size_t errlen);
/* preset.c: the parsed document, built and checked */
int doc_finish(const struct parser *p, struct preset_doc *d);
void doc_free(struct preset_doc *d);
int doc_parse(const struct parser *p, const char *text, struct preset_doc **out);
int entry_finish(const struct parser *p, struct preset_entry *e);
int entry_put(const struct parser *p, struct preset_doc *d, const char *name, const char *val,
	      unsigned lineno);
/* "file:line: message" (or the option's name) into the parser's err; -EINVAL. */
__attribute__((format(printf, 3, 4))) int perr(const struct parser *p, unsigned line,
					      const char *fmt, ...);
int section_begin(const struct parser *p, struct preset_doc *d, char *line, unsigned lineno);
/* plan.c: a document into a plan's phases and steps; a round's length */
int expand(const struct parser *p, const struct preset_doc *d, struct plan *plan);
uint64_t round_ns(const struct plan_phase *ph);

#endif
