/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FIO_CLIENT_H
#define DB_FIO_CLIENT_H
/*
 * Labs of benches: one plan run on several hosts at once through fio's client/server
 * mode, the field's own engine for scale-out. Each host runs `fio --server`; drivebench
 * exports the plan as fio jobs (fio_export.h), runs
 *
 *	fio --output-format=json+ --client=H1 JOBS --client=H2 JOBS
 *
 * with DRIVEBENCH_TARGET=TARGET in fio's environment (the client puts the path into the
 * jobs it sends), hands fio's lines to a callback as they come, and imports the
 * per-host results (fio_import.h) into one result laid out as the plan: per phase, the
 * steps added up over the hosts (named as the plan's phase; threads: the plan's times
 * the hosts), then the phase as each host ran it ("measure @HOST:PORT", as fio names the
 * host). Purge phases are not run (fio has no purge); a phase of several steps run until
 * steady state runs one round (fio_export.h); a phase of one step ends by fio's
 * steady-state detection, and its steady_info is fio's verdict (attained on every host,
 * for the sum; the round fio's runtime reached; fio's deviation as the data excursion;
 * no slope: its limit and excursion 0).
 *
 * Nothing is checked on the remote hosts: not whether TARGET is mounted there, in use, a
 * device or a file. That is the caller's to confirm (drivebench(1), SAFETY).
 */
#include <stdatomic.h>
#include <stddef.h>

#include "result.h"

struct plan;

#define FIO_LAB_MAX_HOSTS 64
/*
 * ms: a server whose connection brings fio's client no data for this long is given up
 * on (a live one answers the client's progress requests about once a second). The
 * command line gives the no-progress limit (DRIVEBENCH_NO_PROGRESS), at least
 * FIO_LAB_SILENCE_MIN_MS: a few of those requests
 */
#define FIO_LAB_SILENCE_MS 60000
#define FIO_LAB_SILENCE_MIN_MS 5000

struct fio_lab {
	const struct plan *plan;
	const char *const *hosts; /* as fio's --client takes them: HOST, "ip:ADDR,PORT" */
	unsigned nhosts;
	const char *target;	  /* the path on every host */
	const char *fio;	  /* the fio program; NULL: "fio" on PATH */
	/* each line fio prints (progress, errors), without its newline; may be NULL */
	void (*on_line)(void *arg, const char *line);
	void *arg;
	atomic_int *stop; /* becomes non-zero: fio is interrupted, the result is aborted */
	unsigned silence_ms; /* a server silent this long ends the run; 0: FIO_LAB_SILENCE_MS */
};

/*
 * Run the plan on the hosts and fill *out (result_init()'d here). 0 when fio ran and
 * its output was read (out->status says how the run went: complete, failed, aborted),
 * or it was stopped through lab->stop before it gave any (aborted, nothing measured);
 * or when a server went silent (fio is interrupted, then killed after 15 s; out is
 * failed, with no phases, its error naming the server);
 * -ENOENT fio is not installed; -EINVAL fio gave no result or an unreadable one;
 * -errno otherwise. The message is in err; on 0, err is "" or a warning: the lab's
 * temporary directory could not be removed and is left behind (its path, and why).
 */
int fio_lab_run(const struct fio_lab *lab, struct result *out, char *err, size_t errlen);

#endif
