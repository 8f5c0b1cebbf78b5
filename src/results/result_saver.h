/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RESULT_SAVER_H
#define DB_RESULT_SAVER_H
/*
 * A result's saves written on a thread of their own (result.h's result_save_prepare,
 * _write and _finish), so the thread that measures never waits for the file system its
 * result goes to: a run whose results directory is on an NFS server that goes away goes on
 * measuring, and its end gives up on that directory after a bound and saves elsewhere.
 * One save at a time: the next is refused while one is being written. A thread left
 * writing is the kernel's until its file system answers (an NFS hard mount's wait ends at
 * the process's exit; a FUSE request its daemon holds, only when the daemon answers).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

struct result_saver;

/* A saver with its thread: NULL when no thread could be had (then save in place). */
struct result_saver *result_saver_start(void);
/* Hand it s, prepared: 0 (s is the saver's now), or -EBUSY while a save is still written. */
int result_saver_give(struct result_saver *v, struct result_save *s);
/*
 * The save handed over, once written: into *s (to finish or discard) and true; false when
 * none is, waiting for it up to wait_ns (0: not at all).
 */
bool result_saver_take(struct result_saver *v, struct result_save *s, uint64_t wait_ns);
/* How long the save being written has been at it; 0 when none is. */
uint64_t result_saver_busy_ns(struct result_saver *v);
/*
 * How long the end of a run waits for its save: from start to end (monotonic times,
 * mono_now_ns()), or until *stop (a signal's count; NULL: none) moves past seen.
 */
struct result_wait {
	uint64_t start, end;
	const atomic_int *stop;
	int seen;
};
/* The save v was given, once written, within w: true and *s, else false. */
bool result_saver_take_by(struct result_saver *v, struct result_save *s,
			  const struct result_wait *w);
/*
 * Save r to path through v (NULL: on this thread), within w: 0 or -errno with err;
 * -ETIMEDOUT when its directory did not answer by then (err says so; v is left writing:
 * stop it, and forget r's file, whose close may wait too), or while v still writes an
 * earlier save.
 */
int result_saver_save_by(struct result_saver *v, const struct result *r, const char *path,
			 const struct result_wait *w, char *err, size_t errlen);
/*
 * End it (NULL: nothing): its thread joined and a written save discarded, or, while one
 * is still being written, that thread left to discard it and end when its write returns.
 */
void result_saver_stop(struct result_saver *v);

#endif
