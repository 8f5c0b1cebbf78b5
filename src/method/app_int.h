/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_APP_INT_H
#define DB_APP_INT_H
/* Internal to the application phases: processes (app_proc.c) and the run directory. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define APP_PATH_MAX 512

/* A process named by pid and start time (/proc/PID/stat's 22nd field): never a reused pid. */
struct app_pid {
	pid_t pid;
	unsigned long long start;
};

struct app_rundir {
	char dir[APP_PATH_MAX];	 /* RUNDIR */
	char mnt[APP_PATH_MAX];	 /* RUNDIR/mnt */
	char sock[APP_PATH_MAX]; /* RUNDIR/sock */
	struct app_pid owner, keeper, server;
};

/* The start time of pid, 0 when it is gone. */
unsigned long long app_pid_start(pid_t pid);
/* Is p the process it was (same pid, same start)? */
bool app_pid_alive(const struct app_pid *p);
/*
 * Make RUNDIR (mode 0711) under the base (app_dir when it is an absolute path, else
 * APP_BASE_DIR), with mnt/ and sock/ (sock owned by uid).
 */
int app_rundir_make(struct app_rundir *rd, const char *app_dir, uid_t uid, gid_t gid, char *err,
		    size_t errlen);
/* Write RUNDIR/state atomically from rd. */
int app_rundir_save(const struct app_rundir *rd);
/* Remove RUNDIR and everything in it (no link followed). */
void app_rundir_remove(const char *dir);

/*
 * Run argv (argv[0] found by tool.h; the rest as given) with stdout and stderr to out
 * (a file made anew), waiting at most timeout_s; *stop non-zero interrupts it (SIGTERM to
 * its group, SIGKILL 10 s later). 0 with its exit status in *status (128 + signal when a
 * signal ended it), -ECANCELED when stopped, -ETIMEDOUT, -errno; message in err.
 */
int app_exec(char *const argv[], const char *out, atomic_int *stop, unsigned timeout_s,
	     int *status, char *err, size_t errlen);
/* The same, calling tick(arg) about every 50 ms while it runs and once after it ended. */
int app_exec_watch(char *const argv[], const char *out, atomic_int *stop, unsigned timeout_s,
		   void (*tick)(void *arg), void *arg, int *status, char *err, size_t errlen);
/* Start argv in the background, its output to out: its pid in *pid. 0 or -errno. */
int app_spawn(char *const argv[], const char *out, pid_t *pid, char *err, size_t errlen);
/* Signal a child of ours and reap it: sig, then SIGKILL after wait_s. */
void app_child_end(pid_t pid, int sig, unsigned wait_s);
/*
 * pgbench's transaction logs DIR/tx.* (app_txlog.c), read while it writes them: new whole
 * lines into h (failed and skipped transactions counted in *failed), the bytes read given
 * back as holes; last: pgbench has ended, a line without its newline counts too. 0 or
 * -EINVAL (a malformed line), -ENOMEM, with the message in err. Free removes the files.
 */
struct app_txlog;
struct hist;
struct app_txlog *app_txlog_new(const char *dir);
int app_txlog_read(struct app_txlog *x, struct hist *h, uint64_t *failed, bool last, char *err,
		   size_t errlen);
unsigned app_txlog_files(const struct app_txlog *x);
void app_txlog_free(struct app_txlog *x);

/* The last non-empty line of file (bounded), for messages. */
void app_last_line(const char *file, char *buf, size_t len);

#endif
