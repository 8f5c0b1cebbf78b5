/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RESULT_LOAD_INT_H
#define DB_RESULT_LOAD_INT_H
/*
 * Internal to the loader of result files: the document and its phases, steps and streams
 * (result_load.c), what every part uses (result_load_read.c) and the interval samples
 * and histograms (result_load_samples.c). Each reader takes the member value the pull
 * reader has just reached, through the typed readers (json_read.h) with loader_style: on
 * an error they record "where: message" in the reader (L->j.ret, the message in its err
 * buffer) and later readers do nothing.
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

/* The typed readers' style (json_read.h): an error names L->where and the samples row. */
extern const struct jread_style loader_style;
/* Record "out of memory" where L is; returns -ENOMEM. */
int loader_nomem(struct loader *L);
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
