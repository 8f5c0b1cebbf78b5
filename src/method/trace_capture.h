/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_TRACE_CAPTURE_H
#define DB_TRACE_CAPTURE_H
/*
 * `drivebench capture`: the block I/O issued to a device, recorded from the kernel's block
 * tracepoints (block_bio_queue, block_rq_complete) in a tracefs instance of the capture's
 * own, filtered to the device (tracefs is mounted when it is not), and written as it
 * arrives into drivebench's trace format (trace.h) through the same conversion as
 * `trace import` of blktrace files (trace_import.h). blktrace's relay files in debugfs
 * are not used: kernel lockdown closes them (trace_capture.c). Memory is bounded: a read
 * buffer and the reorder window. Needs root; the device is opened read-only.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

struct capture_progress {
	uint64_t elapsed_ns;
	uint64_t events;            /* kernel trace events read */
	uint64_t ios;               /* I/Os written to the trace so far */
	uint64_t count[TRACE_NOPS]; /* of them, by op */
	uint64_t dropped;           /* events the kernel dropped (its buffers were full) */
};

typedef void (*capture_fn)(void *arg, const struct capture_progress *p);

struct capture_opts {
	const char *device;
	uint64_t time_ns;     /* 0: until *stop */
	FILE *out;            /* the trace, written from its start */
	atomic_int *stop;     /* set to 1: stop (a signal handler); may be NULL */
	capture_fn on_progress; /* about twice a second; may be NULL */
	void *arg;
};

/*
 * Record until time_ns passes or *stop is set. Returns 0 with the final figures in *p,
 * or -errno with a message in err (not a block device, no permission, a trace already
 * running on the device, debugfs missing).
 */
int trace_capture(const struct capture_opts *o, struct capture_progress *p, char *err,
		  size_t errlen);

#endif
