/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RESULT_INT_H
#define DB_RESULT_INT_H
/*
 * Internal to src/results/result*.c: what the model (result.c), its summaries
 * (result_summary.c), the writer (result_write.c), the loader (result_load.c) and the
 * library (result_library.c) share.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgjob.h"
#include "result.h"

#define NSTATUS (RS_PENDING + 1) /* result_status_name[] */
#define NKIND (PH_APP + 1)     /* phase_kind_name[] */
extern const char *const result_dir_key[NDIR];

/* The fields of struct dir_stats, declared once: key in files, and where it lives. */
enum dfield {
	DF_IOS,
	DF_BYTES,
	DF_IOPS,
	DF_MBPS,
	DF_MEAN,
	DF_STD,
	DF_MIN,
	DF_MAX,
	DF_P50,
	DF_P90,
	DF_P99,
	DF_P999,
	DF_P9999,
	NDF
};

struct result_dfield {
	const char *key;
	bool is_double;
	size_t off;
};
extern const struct result_dfield result_dfield[NDF];

static inline uint64_t *df_u64(struct dir_stats *d, enum dfield f)
{
	return (uint64_t *)((char *)d + result_dfield[f].off);
}

static inline double *df_dbl(struct dir_stats *d, enum dfield f)
{
	return (double *)((char *)d + result_dfield[f].off);
}

static inline uint64_t df_get_u64(const struct dir_stats *d, enum dfield f)
{
	return *(const uint64_t *)((const char *)d + result_dfield[f].off);
}

static inline double df_get_dbl(const struct dir_stats *d, enum dfield f)
{
	return *(const double *)((const char *)d + result_dfield[f].off);
}

/*
 * Columns of the version 2 samples table: index, start, duration, host stall, then
 * dir x field.
 */
enum { COL_INDEX, COL_START, COL_DUR, COL_STALL, COL_DIRS };
#define NCOLS (COL_DIRS + NDIR * NDF)
/* A column by its name; NCOLS when there is none. */
unsigned result_col_find(const char *name);
/* "index", "read.ios", ...: a column's name in "fields". */
const char *result_col_name(unsigned c);

/* A step's warning (the same code replaces its text); 0, -E2BIG past the limit, -ENOMEM. */
int result_add_warning(struct result_step *s, const char *code, const char *text);
void result_hist_free(struct step_hist *h);
/* Free what a step holds, its streams' too (the step itself is the caller's). */
void result_step_free(struct result_step *s);
/* The packed samples' buffer cut to what they use. */
void result_pack_shrink(struct sample_pack *pk);
/* Whether two doubles are the same bits (the packing's test for "unchanged"). */
bool result_same_bits(double a, double b);
/* Free the target summaries (result_summary.c); r->target_summary NULL after. */
void result_summary_free(struct result *r);

#endif
