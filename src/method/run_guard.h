/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RUN_GUARD_H
#define DB_RUN_GUARD_H
/*
 * The door's check again while a run writes (docs/DESIGN.md, "Never the wrong disk"):
 * the door looks once, before the first I/O, and holds what it can exclusively, but a
 * file system can still be mounted during the run through what the run does not hold (a
 * second loop device over the image of a loop target, a loop over a target device). A
 * thread woken by every change of the mount table and of active swap looks again at what
 * each target's writes reach; when a mount, swap or holder has appeared there, the run is
 * stopped (ctl's stop, as a signal does) and the guard says why.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct target;
struct run_guard;

/*
 * Watch targets[n] (held by the caller until run_guard_end()) for the run whose stop is
 * stop. NULL when the watch could not be set up (out of memory, no /proc): the run goes
 * on as the door let it.
 */
struct run_guard *run_guard_start(const struct target *targets, unsigned n, atomic_int *stop);
/*
 * End the watch and free it. true when it stopped the run, why ("loop7 was mounted during
 * the run: ...") in buf.
 */
bool run_guard_end(struct run_guard *g, char *buf, size_t len);

#endif
