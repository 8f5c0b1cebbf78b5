/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FIO_EXPORT_H
#define DB_FIO_EXPORT_H
/*
 * A plan as an equivalent fio job file: one job section per step, each with stonewall so
 * it waits for the one before, as drivebench runs them. The target comes from the
 * environment (filename=${DRIVEBENCH_TARGET}). A phase of one step run until steady
 * state uses fio's steady-state detection (steadystate=, steadystate_duration=,
 * steadystate_ramp_time=). Where fio has no equivalent (purge, rounds of several steps
 * until SNIA steady state, rates given as a share of a measured maximum) a comment in
 * the job file says so and what the job does instead.
 */
#include <stddef.h>

struct plan;

/*
 * The name of the n-th job (from 1, over the steps of every phase but purges, in plan
 * order): "001-measure-2T2Q", only letters, digits, '-', '_' and '.', as fio prints it
 * back in its output.
 */
void fio_export_job_name(char *buf, size_t len, unsigned n, const char *phase, const char *label);
/*
 * The name fio reports step n of phase ph under: its job's, or for a step of several
 * streams its first stream's job ("002-sql-max-data"), which names the group.
 */
struct plan_phase;
struct plan_step;
void fio_export_step_job_name(char *buf, size_t len, unsigned n, const struct plan_phase *ph,
			      const struct plan_step *st);
/*
 * path as fio's filename= takes it (and DRIVEBENCH_TARGET, which fio puts in it): fio
 * separates several files by ':', so each ':' of a name (every /dev/disk/by-path/ name
 * has some) is written "\:". 0, or -ENAMETOOLONG when it does not fit in len bytes.
 */
int fio_export_filename(char *buf, size_t len, const char *path);
/* The job file text, malloc'd; NULL when out of memory. */
char *fio_export(const struct plan *p);
/*
 * With FIO_EXPORT_LOGS, each job of a step of one stream also writes fio's per-interval
 * logs at the step's sampling interval (write_iops_log and write_lat_log named as the job,
 * log_avg_msec), which fio_import reads back as the step's samples; a step of several
 * streams, reported by fio as one group, gets none (its threads' logs are not one job's).
 * A phase judged for steady state (in rounds) writes them always: the judgement needs
 * them. Every export sets lat_percentiles=1, so fio's percentiles are of the total
 * latency, as drivebench's are.
 */
#define FIO_EXPORT_LOGS 1u
char *fio_export_opts(const struct plan *p, unsigned flags);

#endif
