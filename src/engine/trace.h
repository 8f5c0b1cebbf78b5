/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TRACE_H
#define DB_TRACE_H
/*
 * drivebench's block trace format ("dbtrace", version 1): what a workload issued to a
 * block device, one fixed-size record per I/O, in issue order. `drivebench capture`
 * writes it, `drivebench trace import` converts fio iologs and blkparse's binary output
 * into it, and a step with a trace replays it (docs/DESIGN.md, "Block traces").
 *
 * Layout, every integer little-endian:
 *   header, 32 bytes:
 *     0  char[8]  magic "DBTRACE\n"
 *     8  u32      version (1)
 *    12  u32      record size in bytes (32)
 *    16  u64      size of the traced device in bytes (0: unknown)
 *    24  u32      logical block size of the traced device (0: unknown; else a power
 *                 of two from 512 to 64 KiB)
 *    28  u32      reserved, 0
 *   then records, 32 bytes each (trace_check() says which make sense):
 *     0  u64      time: ns since the trace started; never decreases; at most 720h
 *     8  u64      offset in bytes (0 for a flush)
 *    16  u32      length in bytes (0 for a flush)
 *    20  u32      issuing process id (0: unknown)
 *    24  u8       op: 0 read, 1 write, 2 flush, 3 discard
 *    25  u8       flags: 1 FUA, 2 preflush, 4 sync, 8 metadata
 *    26  u16      I/Os in flight on the device when it was issued, itself included
 *                 (the observed concurrency; 0: unknown)
 *    28  u32      CPU (queue) it was issued from
 * The file is read and written a record at a time: memory does not grow with its length.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_MAGIC	  "DBTRACE\n"
#define TRACE_VERSION	  1u
#define TRACE_HEADER_SIZE 32u
#define TRACE_RECORD_SIZE 32u
#define TRACE_MAX_LEN	  (64u << 20)	/* bytes: a larger read or write is a damaged record
					   (a discard may reach 4 GiB) */
#define TRACE_MAX_RECORDS (16u << 20)	/* a replay holds its trace in memory: 16 Mi records,
					   24 bytes each in memory (384 MiB) at most */
#define TRACE_MAX_TIME_NS                                                                          \
	(720ull * 3600 * 1000000000ull) /* a record's time: a replay lasts                         \
			 no longer than a preset's step may (its 720h) */
#define TRACE_MIN_LBS 512u		/* bytes: a logical block size, if known, is a power */
#define TRACE_MAX_LBS (64u << 10)	/* of two from the one to the other */

enum trace_op { TRACE_READ, TRACE_WRITE, TRACE_FLUSH, TRACE_DISCARD, TRACE_NOPS };
enum { TRACE_F_FUA = 1, TRACE_F_PREFLUSH = 2, TRACE_F_SYNC = 4, TRACE_F_META = 8,
       TRACE_F_ALL = 15 };

extern const char *const trace_op_name[]; /* "read", "write", "flush", "discard" */

struct trace_rec {
	uint64_t time_ns;
	uint64_t off;   /* bytes */
	uint32_t len;   /* bytes */
	uint32_t pid;
	uint8_t op;     /* enum trace_op */
	uint8_t flags;  /* TRACE_F_* */
	uint16_t depth; /* in flight, itself included; 0: unknown */
	uint32_t cpu;
};

struct trace_info {
	uint64_t dev_size; /* bytes, 0: unknown */
	uint32_t lbs;      /* bytes, 0: unknown */
};

/* A message into err (vsnprintf); returns -EINVAL. The trace modules' one formatter. */
int trace_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- writing ------------------------------------------------------------------- */

struct trace_writer {
	FILE *f;
	uint64_t n;       /* records written */
	uint64_t last_ns; /* the last record's time */
	uint64_t count[TRACE_NOPS];
	uint64_t bytes[TRACE_NOPS];
};

/*
 * Start a trace on f (positioned at its start): writes the header. 0 or -errno (-EINVAL:
 * a block size the reader would refuse).
 */
int trace_write_begin(struct trace_writer *w, FILE *f, const struct trace_info *info);
/*
 * A record the format holds, after one at last_ns: NULL, or why not (an unknown op or
 * flag, a time going back or past TRACE_MAX_TIME_NS, a length or offset not a multiple
 * of 512, a read or write over TRACE_MAX_LEN, an offset past 2^62, a flush with an
 * offset or length).
 */
const char *trace_check(const struct trace_rec *t, uint64_t last_ns);
/* One record; -EINVAL for one trace_check() refuses. 0 or -errno. */
int trace_write(struct trace_writer *w, const struct trace_rec *r);

/* ---- reading ------------------------------------------------------------------- */

struct trace_reader {
	FILE *f;
	const char *path;  /* for messages */
	struct trace_info info;
	uint64_t n;        /* records read */
	uint64_t last_ns;
};

/*
 * Open a trace for reading and check its header (a block size that is not 0 or a power
 * of two from TRACE_MIN_LBS to TRACE_MAX_LBS is refused). 0, or -errno / -EINVAL with
 * "PATH: offset N: message" in err. What is not a regular file is refused at once, never
 * waited on (fileio_open(): -EISDIR a directory, -EINVAL a FIFO or a device).
 */
int trace_open(struct trace_reader *r, const char *path, char *err, size_t errlen);
/*
 * The next record: 1, 0 at the end, or -EINVAL with "PATH: offset N: record K: message"
 * in err (a truncated record, an unknown op or flag, a time going back or past
 * TRACE_MAX_TIME_NS, a length over
 * TRACE_MAX_LEN or not a multiple of 512, an I/O past 2^63).
 */
int trace_next(struct trace_reader *r, struct trace_rec *out, char *err, size_t errlen);
void trace_close(struct trace_reader *r);

/* What a whole trace holds, read through once (trace_scan). */
struct trace_summary {
	struct trace_info info;
	uint64_t n;
	uint64_t duration_ns;  /* the last record's time */
	uint64_t count[TRACE_NOPS];
	uint64_t bytes[TRACE_NOPS];
	uint64_t max_end;      /* bytes: the furthest byte an I/O touches */
	unsigned max_depth;    /* the highest depth recorded, 0: none recorded */
	uint32_t max_len;      /* bytes */
	uint32_t max_rw_len;   /* bytes: the largest read or write (a replay's buffers) */
};

/* Read a trace through, checking every record. 0 or -errno with a message in err. */
int trace_scan(const char *path, struct trace_summary *s, char *err, size_t errlen);

/* ---- a trace in memory, for a replay ------------------------------------------- */

struct trace_io {
	uint64_t time_ns;
	uint64_t off;  /* bytes */
	uint32_t len;  /* bytes */
	uint8_t op;
	uint8_t flags;
	uint16_t depth;
};

struct trace_mem {
	struct trace_io *io; /* malloc'd */
	uint64_t n;
	struct trace_summary sum;
};

/* Load a trace of at most TRACE_MAX_RECORDS records. 0 or -errno with a message. */
int trace_load(const char *path, struct trace_mem *m, char *err, size_t errlen);
void trace_mem_free(struct trace_mem *m);

/*
 * Where an I/O of the trace lands on a target of target_size bytes whose logical block
 * size is lbs: an I/O that fits stays where it was; one that does not wraps, its offset
 * taken modulo the room there is for it (target_size - len + 1) and aligned down to lbs.
 * Lengths are kept. A length over target_size cannot be replayed (the caller checks).
 */
static inline uint64_t trace_place(uint64_t off, uint32_t len, uint64_t target_size, uint32_t lbs)
{
	uint64_t room;

	if (off + len <= target_size)
		return off;
	room = target_size - len + 1;
	off %= room;
	return off - off % lbs;
}

#endif
