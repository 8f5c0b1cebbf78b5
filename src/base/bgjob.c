// SPDX-License-Identifier: GPL-2.0-or-later
/* Work on a thread of its own that its caller may let go of first (bgjob.h). */
#include "bgjob.h"

#include <signal.h>

int bg_thread_start(pthread_t *tid, bool detached, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	pthread_attr_t at;
	int ret;

	/* signals stay the caller's threads': the thread starts with all of them blocked */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&at);
	if (detached)
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	ret = pthread_create(tid, &at, fn, arg);
	pthread_attr_destroy(&at);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static void *job_main(void *arg)
{
	struct bg_job *b = arg;

	b->work(b);
	pthread_mutex_lock(&b->mu);
	b->done = true;
	bool last = b->dropped;
	pthread_mutex_unlock(&b->mu);
	if (last)
		bg_job_free(b);
	return NULL;
}

void bg_job_init(struct bg_job *b, void (*work)(struct bg_job *), void (*release)(struct bg_job *))
{
	pthread_mutex_init(&b->mu, NULL);
	b->done = b->dropped = false;
	b->work = work;
	b->release = release;
}

int bg_job_start(struct bg_job *b)
{
	pthread_t tid;

	/* the thread is never waited for */
	return bg_thread_start(&tid, true, job_main, b);
}

bool bg_job_done(struct bg_job *b)
{
	pthread_mutex_lock(&b->mu);
	bool done = b->done;
	pthread_mutex_unlock(&b->mu);
	return done;
}

void bg_job_drop(struct bg_job *b)
{
	pthread_mutex_lock(&b->mu);
	bool last = b->done;
	b->dropped = true;
	pthread_mutex_unlock(&b->mu);
	if (last)
		bg_job_free(b);
}

void bg_job_free(struct bg_job *b)
{
	pthread_mutex_destroy(&b->mu);
	b->release(b);
}
