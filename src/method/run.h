/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RUN_H
#define DB_RUN_H
/*
 * The one door every run goes through: `drivebench run`, `drivebench replay` and the TUI's
 * queue gather their inputs into a struct run_request and hand it here; none of them opens
 * a target or starts I/O itself. run_open() decides, in this order:
 *
 *   1. the result file: --out, or a new name in the results directory; it is written once
 *      (status "incomplete") before anything touches the target, so an output that
 *      cannot be written is found before the run, not after it;
 *   2. the target, resolved once and opened once (target.h), read-write with O_EXCL when
 *      the plan writes (a purge, a fill, a precondition or any write step: a property of
 *      the plan, never of the engine). An exclusive open the kernel refuses is explained
 *      (safety_explain_busy); with nothing found to explain it, it is retried for a
 *      bounded time, since a claim given up by a process that just ended can take a
 *      moment to be released;
 *   3. the write guard (safety.h) on what was opened, for every plan that writes;
 *   4. the plan against the target (block sizes, range), after dropping the steps of a
 *      block size no target can take from phases that keep others (plan_fit_target).
 *
 * run_execute() then runs the plan (runner.h) with autosave to the result file, releases
 * the target and saves the result. The target's discovery record is attached here, so the
 * engine's target stays a path and a descriptor.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inuse.h"
#include "result.h"
#include "runner.h"
#include "target.h"

struct plan;
struct settings;

struct run_request {
	struct plan *plan; /* fitted to the targets by run_open() (plan_fit_target) */
	const char *target_path;
	const char *confirm;      /* the device the operator confirmed, or NULL (safety.h) */
	/*
	 * A run on several targets at once (RUN_MAX_TARGETS at most): all of them, in order;
	 * target_path is then ignored. Each is opened, guarded and checked as the one target
	 * is, and a target named twice (the same device or file) is bad input. A writing
	 * plan needs each block device confirmed: by confirm, or by one of confirms.
	 */
	const char *const *target_paths;
	unsigned ntargets;
	const char *const *confirms;
	unsigned nconfirms;
	const char *out_path;     /* NULL: a new file in results_dir */
	const char *results_dir;  /* NULL: result_dir() of settings */
	/*
	 * What main() read from the environment (settings.h): the results directory when
	 * results_dir is NULL, and where [app] phases make their run directories. NULL: as
	 * with none of those variables set.
	 */
	const struct settings *settings;
	const char *target_name;  /* names the default file; NULL: the target's base name */
	const char *plan_label;   /* names it too; NULL: the plan's name */
	const char *label;        /* the result's label (result.h); NULL: none */
	const char *note;         /* the result's note; NULL: none */
	const struct engine_ops *ops;    /* NULL: uring */
	const struct inuse_roots *roots; /* NULL: the real /proc and /sys */
	uint64_t busy_retry_ns;   /* an unexplained EBUSY is retried this long; 0: 2 s */
	const struct result *seeds_from; /* replay: reuse its steps' seeds (runner.h); NULL */
	/* replay: run each step with its engine choices but those in engine_own (runner.h) */
	const struct result *engine_from;
	unsigned engine_own;
	/*
	 * The disk sequence number each target (in target_paths' order, or the one) had when
	 * the operator chose it (drive.h), 0 for one not checked; NULL: none checked. A device
	 * whose number differs is another disk that took the chosen one's name since (a drive
	 * pulled and another plugged, a loop device set up again): refused (exit 3).
	 */
	const uint64_t *diskseqs;
};

#define RUN_MAX_TARGETS 8

struct run;

/*
 * Check and open everything a run needs. 0 with *out set, or -errno with the reason in
 * err: run_refused() tells a refusal for safety (exit 3) from bad input (exit 2).
 */
int run_open(struct run **out, const struct run_request *rq, char *err, size_t errlen);
/* Was this run_open() error a refusal for safety (in use, unconfirmed, busy)? */
bool run_refused(int ret);

/* Where the result goes, the (first) target as opened, and the result as it stands. */
const char *run_result_path(const struct run *r);
const struct target *run_target(const struct run *r);
const struct result *run_result(const struct run *r);

/*
 * Run the plan; ctl, fn and arg as for runner_run(); autosave_ns 0: every 30 s. The
 * result is saved at the end whatever happened: where it belongs within the no-progress
 * limit, or until ctl->stop changes (another signal), else elsewhere. Returns the runner's
 * status (0, -ECANCELED, -errno); a result that could not be saved where it belongs makes
 * it -EIO, reason (and where it went) in err.
 */
int run_execute(struct run *r, struct engine_ctl *ctl, uint64_t autosave_ns, runner_event_fn fn,
		void *arg, char *err, size_t errlen);
void run_close(struct run *r);
/*
 * The result res could not be saved at where (a full disk, a server gone; err says why):
 * the measured run is not lost while a copy fits elsewhere. Under the name asked for (or
 * the next free one of its series) in results_dir (NULL: the settings' results
 * directory), else the temp directory, each checked as any output, and asked first
 * whether it answers; res then owns the copy, and err ends with where it went.
 */
void run_save_elsewhere(struct result *res, const char *where, const char *results_dir,
			const struct settings *set, char *err, size_t errlen);

#endif
