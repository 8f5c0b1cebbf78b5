/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_APP_H
#define DB_APP_H
/*
 * Application benchmarks on the drive under test (a preset's [app] phase): sysbench's
 * oltp_read_write against a private MariaDB, or pgbench's TPC-B-like load against a
 * private PostgreSQL. The phase, once the door (run.h) has guarded and released the
 * target:
 *
 *   1. checks again that nothing uses the device, and makes the file system on it;
 *   2. starts a keeper, a process in a mount namespace of its own (unshare(1)), and
 *      mounts the file system there only, on RUNDIR/mnt: nobody else sees it;
 *   3. starts the server as `nobody` inside that namespace (nsenter(1), setpriv(1)),
 *      its data directory on the file system, its socket in RUNDIR/sock, no TCP port;
 *   4. loads the data (a step "load": its time and the device's I/O);
 *   5. runs each thread step: a warm-up run (the step's ramp), then the measured run,
 *      the device's own counters (/sys/dev/block/M:m/stat) read around it;
 *   6. tears down: server stopped, file system unmounted, keeper ended, RUNDIR removed,
 *      whether the phase completed, failed or was stopped.
 *
 * RUNDIR is BASE/PID-START, BASE being APP_BASE_DIR or the app_dir given (the settings',
 * $DRIVEBENCH_APP_DIR, when it is an absolute path), and holds a state
 * file naming the owner, keeper and server by pid and start time, so a drivebench that
 * was killed leaves enough behind for the next one to clean up (app_leftovers_clean()).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "result.h"

#define APP_BASE_DIR "/run/drivebench/app"

enum app_tool { APP_SYSBENCH_OLTP, APP_PGBENCH, APP_NTOOLS };
enum app_fs { APP_EXT4, APP_XFS, APP_NFS };
extern const char *const app_tool_name[APP_NTOOLS]; /* "sysbench-oltp", "pgbench" */
extern const char *const app_fs_name[APP_NFS];	    /* "ext4", "xfs" */

struct app_params {
	enum app_tool tool;
	enum app_fs fs;
	unsigned tables;	 /* sysbench: tables */
	uint64_t table_size;	 /* sysbench: rows a table */
	unsigned scale_factor;	 /* pgbench: -s (100,000 accounts each) */
};

/* What setting up and loading is expected to take, for ETAs (a rough rate of rows). */
uint64_t app_setup_ns(const struct app_params *a);

struct plan;
struct plan_phase;
struct target;

struct runner_event;
/*
 * An event of the phase: kind, step_index (within the phase, 0 the load), step, and
 * sample or msg set; the runner fills in the rest.
 */
typedef void (*app_event_fn)(void *arg, const struct runner_event *ev);

/*
 * Run an [app] phase on t (a block device, released by the door: closed, its claims let
 * go), filling rp's steps and calling fn with RUN_EV_STEP_START, _SAMPLE (the tool's
 * per-second reports as they come), _STEP_DONE and _LOG (runner.h), its run directory
 * under app_dir (the settings' DRIVEBENCH_APP_DIR; NULL: APP_BASE_DIR). 0, -ECANCELED
 * when *stop became non-zero (the running step aborted), or -errno with the reason in
 * err. Teardown has run in every case.
 */
int app_phase_run(const struct plan_phase *ph, const struct target *t, const char *app_dir,
		  atomic_int *stop, struct result_phase *rp, app_event_fn fn, void *arg, char *err,
		  size_t errlen);

/* true when the plan has an [app] phase (and so no other kind: preset.c sees to it). */
bool app_plan(const struct plan *p);

/*
 * Leftovers of runs whose drivebench ended without tearing down (killed), under app_dir
 * (as for app_phase_run()): their servers killed, file systems unmounted, keepers ended,
 * directories removed; each told through log. Runs whose owner is alive are left alone.
 * Returns how many were cleaned.
 */
unsigned app_leftovers_clean(const char *app_dir, void (*log)(void *arg, const char *msg),
			     void *arg);

#endif
