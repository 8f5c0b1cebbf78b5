/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TRACE_IMPORT_H
#define DB_TRACE_IMPORT_H
/*
 * Block traces from elsewhere into drivebench's format (trace.h):
 *  - the kernel's block trace events (struct blk_io_trace, as blktrace's per-CPU files,
 *    `blkparse -d`'s binary dump, and what `drivebench capture` reads from the kernel's
 *    relay files): each queue (Q) event is one I/O, each completion (C) ends the I/Os it
 *    covers, which gives the concurrency recorded with each I/O;
 *  - fio's iolog, versions 2 and 3 (write_iolog=, read_iolog=).
 * Both stream: memory is bounded by the reorder window and the I/Os in flight, never
 * by the length of the input.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

/*
 * Events of several CPUs arrive out of order (each CPU's own are in order): they wait in
 * a window of BLK_REORDER_NS behind the newest event seen (at most BLK_REORDER_MAX events)
 * and leave it in time order. An event older than one already written is written at
 * that one's time (counted in `late`).
 */
#define BLK_REORDER_NS	1000000000ull /* 1 s */
#define BLK_REORDER_MAX 65536u
#define BLK_INFLIGHT_MAX 4096u /* I/Os in flight tracked for the depth */

struct blk_ev {
	uint64_t time_ns;
	uint64_t seq;      /* arrival order: ties in time keep it */
	struct trace_rec r;
	uint8_t kind;      /* 0: an I/O queued, 1: a completion */
};

struct blk_inflight {
	uint64_t off;
	uint32_t len;
};

struct blk_conv {
	struct trace_writer *w;
	struct blk_ev *heap;      /* the reorder window, a min-heap on (time, seq) */
	unsigned n;
	uint64_t seq;
	uint64_t newest_ns;
	uint64_t t0;              /* the first event's time: the trace's zero */
	int have_t0;
	uint64_t last_out_ns;
	struct blk_inflight fl[BLK_INFLIGHT_MAX];
	unsigned nfl;
	uint64_t events;          /* blk_io_trace records read */
	uint64_t skipped;         /* of them, neither a queue nor a completion event */
	uint64_t late;            /* written later than their own time (see above) */
	uint64_t offset;          /* bytes consumed so far, for messages */
	const char *why;	  /* why the format could not hold an I/O it wrote out */
};

/* 0 or -ENOMEM. */
int blk_conv_init(struct blk_conv *c, struct trace_writer *w);
void blk_conv_free(struct blk_conv *c);
/*
 * Decode the complete records at the start of buf[0..len), writing out what leaves the
 * window. *used: the bytes consumed (a record cut at the end waits for more). Returns 0,
 * or -EINVAL with "NAME: offset N: message" in err (a record that is not a block trace
 * event), or the writer's -errno.
 */
int blk_conv_feed(struct blk_conv *c, const uint8_t *buf, size_t len, size_t *used,
		  const char *name, char *err, size_t errlen);
/*
 * One event from elsewhere (the capture's tracepoints): an I/O queued (r: its op, offset,
 * length, flags, process, CPU) or a completion of [r->off, r->off + r->len) (len 0: a
 * flush), at time_ns on any clock that does not go back. 0 or the writer's -errno.
 */
int blk_conv_add(struct blk_conv *c, const struct trace_rec *r, uint64_t time_ns,
		 bool completion);
/* Write out every event still in the window. 0 or -errno. */
int blk_conv_finish(struct blk_conv *c);

/* The formats `trace import` reads. */
enum trace_src { TRACE_SRC_AUTO, TRACE_SRC_BLKTRACE, TRACE_SRC_FIO };

/*
 * Convert the file at in (TRACE_SRC_AUTO: told by its first bytes) into a trace written
 * to out, with info in its header. Returns 0, or -errno with "IN:line N: message" (an
 * iolog) or "IN: offset N: message" (a block trace) in err. in is opened as every input
 * is (fileio_open()): a FIFO is refused at once (-EINVAL), a directory too (-EISDIR).
 */
int trace_import(const char *in, enum trace_src src, FILE *out, const struct trace_info *info,
		 struct trace_writer *w, char *err, size_t errlen);

#endif
