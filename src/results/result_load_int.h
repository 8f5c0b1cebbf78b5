/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RESULT_LOAD_INT_H
#define DB_RESULT_LOAD_INT_H
/*
 * Internal to the loader of result files: the document and its phases, steps and streams
 * (result_load.c), the value readers every part uses (result_load_read.c) and the
 * interval samples and histograms (result_load_samples.c). Each reader takes the member
 * value the pull reader has just reached; on an error it records "where: message" in the
 * reader (L->j.ret, the message in its err buffer) and later readers do nothing.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json_read.h"
#include "result.h"

struct loader {
	struct jread j;
	unsigned what;	     /* RESULT_LOAD_* */
	int version;	     /* of the file */
	unsigned nsteps;     /* over all phases so far, streams included */
	char where[256];     /* "phases[1].steps[3]": where in the file a bad value sits */
	const unsigned *row; /* in a samples table: the row being read (its number) */
};

/* Record an error at L->where (and the samples row, if any); returns L->j.ret. */
__attribute__((format(printf, 2, 3))) int loader_bad(struct loader *L, const char *fmt, ...);
int loader_nomem(struct loader *L);
/* A value that should be `what` but is not. */
void loader_wrong_type(struct loader *L, const char *key, const char *what);
/* A number already read, checked: true when it is valid for a count / a rate. */
bool loader_num_u64(struct loader *L, const char *key, const struct jread_num *n, uint64_t *v);
bool loader_num_dbl(struct loader *L, const char *key, const struct jread_num *n, double *v);
/* The value reached, by type; null reads as 0, "", false (or dflt for loader_enum). */
uint64_t loader_u64(struct loader *L, const char *key);
unsigned loader_uint(struct loader *L, const char *key);
double loader_dbl(struct loader *L, const char *key);
void loader_str(struct loader *L, const char *key, char *buf, size_t len);
bool loader_bool(struct loader *L, const char *key);
int loader_enum(struct loader *L, const char *key, const char *const *names, size_t n, int dflt);
/* Enter an object / array value; false (error recorded) when it is something else. */
bool loader_object(struct loader *L, const char *key);
bool loader_array(struct loader *L, const char *key);
/* A sample object (summary, drain, ramp, version 1 samples) and a step's workload. */
void loader_sample(struct loader *L, const char *key, struct sample *s);
void loader_workload(struct loader *L, struct workload *wl);
/* A step's "replay" object (result_write_replay). */
void loader_replay(struct loader *L, struct replay_stats *r);

/* A step's "samples": version 1 (array of objects) and version 2 (columns). */
void loader_samples_v1(struct loader *L, struct result_step *st);
void loader_samples_v2(struct loader *L, struct result_step *st);
/* A step's "hist". */
void loader_hist(struct loader *L, struct result_step *st);

#endif
