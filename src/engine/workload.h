/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_WORKLOAD_H
#define DB_WORKLOAD_H
/*
 * What one step does: access pattern, block size or block-size split, read/write mix,
 * the range of the target it touches, T threads x Q queue depth, how long, how fast,
 * and what data writes carry. The generator (struct wl_gen) turns a workload into the
 * per-I/O stream of (direction, offset, length) for one worker thread; it is inline and
 * allocation-free because it runs on the per-I/O path.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum wl_pattern { WL_RANDOM, WL_SEQUENTIAL };
enum wl_data { WL_DATA_RANDOM, WL_DATA_ZERO, WL_DATA_COMPRESS };
/*
 * Where random offsets land (fio's random_distribution). The hottest part of the range
 * is its start (zipf, pareto), its middle (normal) or the zones in the order written
 * (zoned); fio hashes zipf, pareto and normal offsets over the range instead, which moves
 * the hot blocks but keeps the share of I/O they get.
 */
enum wl_dist { WL_DIST_UNIFORM, WL_DIST_ZIPF, WL_DIST_PARETO, WL_DIST_NORMAL, WL_DIST_ZONED };

#define WL_MAX_SPLIT 16
#define WL_MAX_ZONES 16

struct wl_zone {
	uint8_t access_pct; /* share of I/Os, percent */
	uint8_t range_pct;  /* share of the range, percent; zones lie in the order written */
};

struct wl_share {
	uint32_t bs;  /* bytes */
	uint32_t pct; /* share of I/Os, percent */
};

struct workload {
	enum wl_pattern pattern;
	uint32_t bs;                        /* bytes; ignored when nsplit > 0 */
	unsigned nsplit;                    /* bssplit entries, 0 = fixed bs */
	struct wl_share split[WL_MAX_SPLIT];
	unsigned read_pct;                  /* 0..100, decided per I/O */
	uint64_t range_start;               /* bytes from the start of the target */
	uint64_t range_size;                /* bytes; 0 = to the end of the target */
	double range_pct;                   /* > 0: range_size is this % of the target */
	unsigned threads;
	unsigned qdepth;                    /* per thread */
	uint64_t time_ns;                   /* measured time */
	uint64_t ramp_ns;                   /* run before measuring, not recorded */
	uint64_t rate_iops;                 /* total over all threads, 0 = unlimited */
	enum wl_data data;
	unsigned compress_pct;              /* WL_DATA_COMPRESS: % of each 4 KiB that is zeros */
	uint64_t interval_ns;               /* sampling interval */
	uint64_t seed;                      /* offsets and data; 0 = choose at run time */
	uint64_t io_bytes;                  /* > 0: bytes to issue over all threads, then stop
					       (a fill: range x loops); not saved */
	enum wl_dist dist;		    /* random offsets only */
	double dist_param;		    /* zipf theta, pareto h, normal sigma (% of range) */
	unsigned nzones;		    /* WL_DIST_ZONED */
	struct wl_zone zones[WL_MAX_ZONES];
	char trace[256];		    /* a block trace to replay (trace.h); "": none */
	double trace_speed;		    /* replay: > 0 keeps the trace's times divided by
					       this; 0 as fast as possible at qdepth */
};

extern const char *const wl_pattern_name[]; /* "random", "sequential" */
extern const char *const wl_data_name[];    /* "random", "zero", "compress" */
extern const char *const wl_dist_name[];    /* "uniform", "zipf", "pareto", "normal", "zoned" */

void workload_defaults(struct workload *wl);
/* fio's --rw names: randread randwrite randrw read write rw (readwrite). */
int workload_set_rw(struct workload *wl, const char *rw);
/* fio's bssplit syntax: "4k/60:8k/20:64k/" (an empty share takes the remainder). */
int workload_parse_bssplit(struct workload *wl, const char *spec, char *err, size_t errlen);
/* "512b/10:1k/5:..." back again. */
char *workload_fmt_bssplit(const struct workload *wl, char *buf, size_t len);
/*
 * A 4K-sector target (lbs > 512): the split's block sizes below lbs folded into lbs, as
 * a review runs a mix on a drive that takes nothing smaller ("512b/10:1k/5:2k/5:4k/60:..."
 * becomes "4k/80:..."): their shares added to lbs's entry, which takes the place of the
 * first folded one when the split had none. A fixed block size is left alone. note gets
 * what was folded ("512b/10:1k/5:2k/5 into 4k"), "" when nothing was. Returns how many
 * entries were folded.
 */
unsigned workload_fold_split(struct workload *wl, uint32_t lbs, char *note, size_t len);
/*
 * fio's random_distribution syntax: "uniform" (fio: "random"), "zipf:THETA" (THETA > 0,
 * not 1), "pareto:H" (0 < H < 1), "normal:SIGMA" (0 < SIGMA <= 100, percent of the range),
 * "zoned:A/R:A/R..." (A percent of the I/Os to the next R percent of the range; up to
 * WL_MAX_ZONES zones, each sum 100). Sets dist, dist_param and the zones.
 */
int workload_parse_dist(struct workload *wl, const char *spec, char *err, size_t errlen);
/* Do a and b draw offsets the same way? */
bool workload_same_dist(const struct workload *a, const struct workload *b);
/* The same text back: "uniform", "zipf:1.2", "zoned:60/10:40/90". */
char *workload_fmt_dist(const struct workload *wl, char *buf, size_t len);
/* The largest and smallest block size the workload issues. */
uint32_t workload_max_bs(const struct workload *wl);
uint32_t workload_min_bs(const struct workload *wl);
/* Resolve range_pct/range_size against a target of target_size bytes. */
void workload_range(const struct workload *wl, uint64_t target_size, uint64_t *start,
		    uint64_t *size);
/*
 * Check a workload against a target: block sizes multiples of the logical block size,
 * the range inside the target and large enough for the biggest block, sane counts.
 * Returns 0 or -EINVAL with a message in err.
 */
int workload_validate(const struct workload *wl, uint32_t lbs, uint64_t target_size, char *err,
		      size_t errlen);
/* "8k 70/30 random 2T2Q", "bssplit 80/20 random 16T16Q @ 5000 IOPS". */
char *workload_describe(const struct workload *wl, char *buf, size_t len);
/* "read", "write" or "70/30" */
char *workload_fmt_mix(const struct workload *wl, char *buf, size_t len);
/* "2T2Q" */
char *workload_tq(const struct workload *wl, char *buf, size_t len);

/* ---- per-I/O generator --------------------------------------------------------- */

/*
 * A non-uniform distribution as a table built once per step and shared, read-only, by
 * the step's threads: the range cut into at most WL_DIST_BUCKETS buckets (equal ones, or
 * one per zone), each with its share of the I/Os, and a Walker alias table over them, so
 * a draw costs one random number for the bucket and one for the offset inside it, with
 * no search, division or libm call. Offsets are uniform inside a bucket (as fio's zoned
 * distribution; zipf and pareto are exact at bucket granularity, ~0.1% of the range).
 */
#define WL_DIST_BUCKETS 1024

struct wl_dist_table {
	unsigned nb;			    /* buckets; 0 = uniform */
	uint64_t edge[WL_DIST_BUCKETS + 1]; /* in align units from the range start */
	uint64_t cut[WL_DIST_BUCKETS];	    /* keep bucket k when the draw's fraction < cut */
	uint16_t alias[WL_DIST_BUCKETS];    /* else take this one */
	double share[WL_DIST_BUCKETS];	    /* the share of I/Os each bucket should get */
};

/*
 * Build the table of wl over a target of target_size bytes (units of workload_min_bs).
 * Uniform or sequential workloads get nb = 0. Returns 0, or -EINVAL with a message when
 * a zone is smaller than one block.
 */
int wl_dist_table_build(struct wl_dist_table *t, const struct workload *wl, uint64_t target_size,
			char *err, size_t errlen);

struct wl_gen {
	uint64_t rng;                 /* splitmix64 state */
	uint64_t start;               /* first byte this thread may touch */
	uint64_t end;                 /* one past the last byte */
	uint32_t align;               /* offsets are start + k * align */
	uint8_t bs_index[100];        /* percent slot -> index into bs[] */
	uint32_t bs[WL_MAX_SPLIT];    /* distinct block sizes */
	uint64_t slots[WL_MAX_SPLIT]; /* random: number of aligned offsets for bs[i] */
	unsigned nbs;
	unsigned read_pct;
	enum { WL_ORDER_UNIFORM, WL_ORDER_SKEWED, WL_ORDER_SEQUENTIAL } order;
	uint64_t cursor;              /* sequential: next offset */
	const struct wl_dist_table *dist; /* WL_ORDER_SKEWED: the step's table */
};

/*
 * Thread `thread` of wl->threads; sequential workloads give each thread its own slice.
 * dist: the step's table (wl_dist_table_build), or NULL for uniform offsets.
 */
void wl_gen_init(struct wl_gen *g, const struct workload *wl, uint64_t target_size, unsigned thread,
		 uint64_t seed, const struct wl_dist_table *dist);

static inline uint64_t wl_rand(struct wl_gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), without modulo bias worth measuring (Lemire's multiply-shift). */
static inline uint64_t wl_below(struct wl_gen *g, uint64_t n)
{
	__extension__ typedef unsigned __int128 u128;
	return (uint64_t)(((u128)wl_rand(g) * n) >> 64);
}

/* A skewed offset: a bucket from the alias table, then a block inside it. */
static inline uint64_t wl_skewed_unit(struct wl_gen *g, uint64_t last)
{
	__extension__ typedef unsigned __int128 u128;
	const struct wl_dist_table *t = g->dist;
	u128 m = (u128)wl_rand(g) * t->nb;
	unsigned k = (unsigned)(m >> 64);
	uint64_t unit;

	/* the low half of the product is a uniform fraction, independent of k */
	if ((uint64_t)m >= t->cut[k])
		k = t->alias[k];
	unit = t->edge[k] + wl_below(g, t->edge[k + 1] - t->edge[k]);
	/* a block larger than the unit must still end inside the range */
	return unit > last ? last : unit;
}

static inline void wl_gen_next(struct wl_gen *g, bool *write, uint64_t *off, uint32_t *len)
{
	unsigned bi = g->nbs == 1 ? 0 : g->bs_index[wl_below(g, 100)];
	uint32_t bs = g->bs[bi];

	*len = bs;
	*write = g->read_pct == 100 ? false
		 : g->read_pct == 0 ? true
				    : wl_below(g, 100) >= g->read_pct;
	if (g->order == WL_ORDER_UNIFORM) {
		*off = g->start + wl_below(g, g->slots[bi]) * g->align;
		return;
	}
	if (g->order == WL_ORDER_SKEWED) {
		*off = g->start + wl_skewed_unit(g, g->slots[bi] - 1) * g->align;
		return;
	}
	if (g->cursor + bs > g->end)
		g->cursor = g->start;
	*off = g->cursor;
	g->cursor += bs;
}

#endif
