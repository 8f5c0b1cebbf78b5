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

#define WL_MAX_SPLIT 16

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
};

extern const char *const wl_pattern_name[]; /* "random", "sequential" */
extern const char *const wl_data_name[];    /* "random", "zero", "compress" */

void workload_defaults(struct workload *wl);
/* fio's --rw names: randread randwrite randrw read write rw (readwrite). */
int workload_set_rw(struct workload *wl, const char *rw);
/* fio's bssplit syntax: "4k/60:8k/20:64k/" (an empty share takes the remainder). */
int workload_parse_bssplit(struct workload *wl, const char *spec, char *err, size_t errlen);
/* "512b/10:1k/5:..." back again. */
char *workload_fmt_bssplit(const struct workload *wl, char *buf, size_t len);
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
	bool sequential;
	uint64_t cursor;              /* sequential: next offset */
};

/* Thread `thread` of wl->threads; sequential workloads give each thread its own slice. */
void wl_gen_init(struct wl_gen *g, const struct workload *wl, uint64_t target_size,
		 unsigned thread, uint64_t seed);

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

static inline void wl_gen_next(struct wl_gen *g, bool *write, uint64_t *off, uint32_t *len)
{
	unsigned bi = g->nbs == 1 ? 0 : g->bs_index[wl_below(g, 100)];
	uint32_t bs = g->bs[bi];

	*len = bs;
	*write = g->read_pct == 100 ? false
		 : g->read_pct == 0 ? true
				    : wl_below(g, 100) >= g->read_pct;
	if (!g->sequential) {
		*off = g->start + wl_below(g, g->slots[bi]) * g->align;
		return;
	}
	if (g->cursor + bs > g->end)
		g->cursor = g->start;
	*off = g->cursor;
	g->cursor += bs;
}

#endif
