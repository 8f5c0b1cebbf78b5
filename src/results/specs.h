/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SPECS_H
#define DB_SPECS_H
/*
 * Vendor spec sheets: what a drive model is rated for, so comparison tables can show
 * measured against rated the way reviews do ("58,550 IOPS against a rated 54,000").
 *
 * A spec sheet is a small key = value file (specs/NAME.spec):
 *
 *	# Micron P400m 200GB, from Micron's product brief
 *	name            = Micron P400m 200GB
 *	model           = MTFDDAK200MAN*      # glob on the drive's model; may repeat
 *	rand_read_iops  = 54000               # 4 KiB random read, the drive's best queue depth
 *	seq_bs          = 64k                 # block size the sequential ratings are for
 *	seq_read_mbps   = 380
 *	read_latency    = 0.51ms              # 4 KiB random read at queue depth 1
 *
 * Ratings apply to the steps they describe and to nothing else: IOPS ratings to pure
 * random read or write steps of rand_bs (4k unless said), MB/s ratings to pure
 * sequential steps of seq_bs (any size when not given), latency ratings to average
 * latency at one thread and queue depth 1.
 *
 * A sheet is a regular file of at most SPEC_MAX_BYTES; its text is repaired to
 * well-formed UTF-8 as it is read.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload.h"

#define SPEC_MAX_BYTES (64u << 10)

/* What a rating measures; the report maps its metrics onto these. */
enum spec_measure { SPEC_M_IOPS, SPEC_M_MBPS, SPEC_M_LAT_NS };

/* Ratings, declared once: id, key in the file, measure, pattern, read %, what it is. */
#define SPEC_RATINGS(X)                                                                            \
	X(SPEC_RAND_READ_IOPS, "rand_read_iops", SPEC_M_IOPS, WL_RANDOM, 100, "random read")       \
	X(SPEC_RAND_WRITE_IOPS, "rand_write_iops", SPEC_M_IOPS, WL_RANDOM, 0, "random write")      \
	X(SPEC_SEQ_READ_MBPS, "seq_read_mbps", SPEC_M_MBPS, WL_SEQUENTIAL, 100, "sequential read") \
	X(SPEC_SEQ_WRITE_MBPS, "seq_write_mbps", SPEC_M_MBPS, WL_SEQUENTIAL, 0,                    \
	  "sequential write")                                                                      \
	X(SPEC_READ_LAT, "read_latency", SPEC_M_LAT_NS, WL_RANDOM, 100, "random read latency")     \
	X(SPEC_WRITE_LAT, "write_latency", SPEC_M_LAT_NS, WL_RANDOM, 0, "random write latency")

/* clang-format off */
enum spec_rating {
#define X(id, key, measure, pattern, read_pct, what) id,
	SPEC_RATINGS(X)
#undef X
	SPEC_NRATINGS
};
/* clang-format on */

struct spec_rating_info {
	const char *key;
	enum spec_measure measure;
	enum wl_pattern pattern;
	unsigned read_pct;
	const char *what;
};
extern const struct spec_rating_info spec_rating_info[SPEC_NRATINGS];

#define SPEC_MAX_MODELS 8

struct spec_sheet {
	char name[128];			  /* how tables name the rated drive */
	char path[4096];		  /* the file it came from */
	char model[SPEC_MAX_MODELS][128]; /* globs, case-insensitive */
	unsigned nmodels;
	uint32_t rand_bs;	     /* bytes; the random ratings' block size */
	uint32_t seq_bs;	     /* bytes; 0 = the sequential ratings fit any */
	double rated[SPEC_NRATINGS]; /* IOPS, MB/s or ns; 0 = not rated */
};

struct spec_list {
	struct spec_sheet *sheets; /* malloc'd */
	size_t n;
};

/* Parse one spec file. 0, or -EINVAL with "file:line: message" (-errno when unreadable). */
int spec_parse_file(const char *path, struct spec_sheet *out, char *err, size_t errlen);
/* Every *.spec in dir, appended to l; a missing dir is not an error. */
int spec_load_dir(struct spec_list *l, const char *dir, char *err, size_t errlen);
/*
 * The default search path, first match wins: $XDG_DATA_HOME/drivebench/specs (or
 * $HOME/.local/share/...), XDG_DATA_HOME and HOME being the settings' (settings.h; s NULL:
 * neither), then the data directory's specs/ (db_datadir(): the install's, or
 * $DRIVEBENCH_DATADIR).
 */
struct settings;
int spec_load_default(const struct settings *s, struct spec_list *l, char *err, size_t errlen);
void spec_list_free(struct spec_list *l);
/* The first sheet one of whose model globs matches model; NULL when none does. */
const struct spec_sheet *spec_find(const struct spec_list *l, const char *model);
/*
 * The rating that applies to a step running wl, for a measure: its value (0 when none
 * applies) and, through which (may be NULL), which rating it is.
 */
double spec_rated(const struct spec_sheet *s, const struct workload *wl, enum spec_measure m,
		  enum spec_rating *which);

#endif
