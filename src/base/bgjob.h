/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DRIVEBENCH_BGJOB_H
#define DRIVEBENCH_BGJOB_H
/*
 * Work on a thread of its own for a caller that must not wait for it and may let go of it
 * first: a read or a write on a share that stopped answering may never end, so the last of
 * the two to be done with it frees it (release, which frees the struct that holds this
 * one). init, then start (non-zero: no thread, free it); the caller looks with done, and
 * then frees it, or drops it at any time. The results layer's loadings, listings and
 * chores are such work, and so is the TUI's export.
 */
#include <pthread.h>
#include <stdbool.h>

/* A thread started with every signal blocked (signals stay the caller's threads'),
   detached or to be joined; 0 or pthread_create's error. */
int bg_thread_start(pthread_t *tid, bool detached, void *(*fn)(void *), void *arg);

struct bg_job {
	pthread_mutex_t mu;
	bool done;    /* the thread has finished with it */
	bool dropped; /* the caller has */
	void (*work)(struct bg_job *b);
	void (*release)(struct bg_job *b);
};
void bg_job_init(struct bg_job *b, void (*work)(struct bg_job *), void (*release)(struct bg_job *));
int bg_job_start(struct bg_job *b);
bool bg_job_done(struct bg_job *b);
void bg_job_drop(struct bg_job *b);
void bg_job_free(struct bg_job *b);

#endif
