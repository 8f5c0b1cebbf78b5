/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_CPU_H
#define DB_CPU_H
/*
 * CPU use across a step: the drivebench process (getrusage: every thread, the workers
 * included) and the whole host (/proc/stat: user, system, iowait), from a mark taken
 * when the step starts to one taken when it ends. A benchmark that is CPU-bound measures
 * the host, not the drive; cpu_bound() says when a step looks so.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

struct cpu_mark {
	uint64_t mono_ns;		     /* CLOCK_MONOTONIC */
	uint64_t proc_user_ns, proc_sys_ns; /* getrusage(RUSAGE_SELF) */
	bool host;			     /* /proc/stat was read */
	uint64_t user, system, iowait, total; /* /proc/stat ticks, all CPUs */
};

/* Where CPU use stands now. */
void cpu_mark(struct cpu_mark *m);
/* The use between two marks into *out (out->measured false when nothing can be said). */
void cpu_between(const struct cpu_mark *a, const struct cpu_mark *b, struct step_cpu *out);

#define CPU_BOUND_PROC_PCT 90.0 /* of a CPU per worker thread (CPUs permitting) */
#define CPU_BOUND_HOST_PCT 95.0 /* of all CPUs busy, drivebench the main user */

/*
 * Was a step with `threads` workers CPU-bound: the process near a full CPU per thread
 * (unless its workers busy-polled, which spins by design), or the host's CPUs near all
 * busy with drivebench the main user? When true, why holds a sentence.
 */
bool cpu_bound(const struct step_cpu *c, unsigned threads, bool busy_poll, char *why,
	       size_t len);

#define CPU_HOST_BUSY_PCT 25.0 /* of all CPUs in user time of other processes */

/*
 * Was the host busy with other processes during the step: their CPU use
 * (step_cpu_others_pct(), the step's measurement definition's host load) at
 * CPU_HOST_BUSY_PCT or more of all its CPUs? When true, why holds a sentence.
 */
bool cpu_host_busy(const struct step_cpu *c, char *why, size_t len);

#endif
