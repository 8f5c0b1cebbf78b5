// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results loaded in a thread of their own (result_io.h), for a caller that must not wait
 * for them: the TUI's comparison, which follows the selected run, would otherwise hold the
 * screen for as long as a long run's file takes to read. The caller starts a loading,
 * looks whether it is done as it draws, and takes the results, or drops a loading it no
 * longer wants: the thread cannot be stopped in a read, so the last of the two to let
 * go frees the loading. Also the results layer's way to start a thread of its own, and
 * result_bg (result_int.h), work on such a thread that its caller may let go of first,
 * which loadings and chores (result_chore.c) are.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "result_int.h"
#include "result_io.h"

struct result_loading {
	struct result_bg bg; /* first: the thread's */
	unsigned n, what;
	char **paths;	   /* [n] */
	struct result *rs; /* [n] */
	int ret;
	bool loaded; /* rs holds n results (until taken) */
	char err[512];
};

int result_thread_start(pthread_t *tid, bool detached, void *(*fn)(void *), void *arg)
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

static void *bg_main(void *arg)
{
	struct result_bg *b = arg;

	b->work(b);
	pthread_mutex_lock(&b->mu);
	b->done = true;
	bool last = b->dropped;
	pthread_mutex_unlock(&b->mu);
	if (last)
		result_bg_free(b);
	return NULL;
}

void result_bg_init(struct result_bg *b, void (*work)(struct result_bg *),
		    void (*release)(struct result_bg *))
{
	pthread_mutex_init(&b->mu, NULL);
	b->done = b->dropped = false;
	b->work = work;
	b->release = release;
}

int result_bg_start(struct result_bg *b)
{
	pthread_t tid;

	/* the thread is never waited for */
	return result_thread_start(&tid, true, bg_main, b);
}

bool result_bg_done(struct result_bg *b)
{
	pthread_mutex_lock(&b->mu);
	bool done = b->done;
	pthread_mutex_unlock(&b->mu);
	return done;
}

void result_bg_drop(struct result_bg *b)
{
	pthread_mutex_lock(&b->mu);
	bool last = b->done;
	b->dropped = true;
	pthread_mutex_unlock(&b->mu);
	if (last)
		result_bg_free(b);
}

void result_bg_free(struct result_bg *b)
{
	pthread_mutex_destroy(&b->mu);
	b->release(b);
}

static void loading_free(struct result_bg *b)
{
	struct result_loading *l = (struct result_loading *)b;

	if (l->loaded && l->rs)
		for (unsigned i = 0; i < l->n; i++)
			result_free(&l->rs[i]);
	free(l->rs);
	for (unsigned i = 0; l->paths && i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	free(l);
}

static void loading_work(struct result_bg *b)
{
	struct result_loading *l = (struct result_loading *)b;

	l->ret = result_load_many(l->rs, (const char *const *)l->paths, l->n, l->what, l->err,
				  sizeof(l->err));
	l->loaded = l->ret == 0;
}

struct result_loading *result_loading_start(const char *const *paths, unsigned n, unsigned what)
{
	struct result_loading *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	result_bg_init(&l->bg, loading_work, loading_free);
	l->what = what;
	l->rs = calloc(n ? n : 1, sizeof(*l->rs));
	l->paths = calloc(n ? n : 1, sizeof(*l->paths));
	for (; l->rs && l->paths && l->n < n; l->n++)
		if (!(l->paths[l->n] = strdup(paths[l->n])))
			break;
	if (l->n < n || !l->rs || !l->paths || result_bg_start(&l->bg)) {
		result_bg_free(&l->bg);
		return NULL;
	}
	return l;
}

bool result_loading_done(struct result_loading *l)
{
	return result_bg_done(&l->bg);
}

int result_loading_take(struct result_loading *l, struct result **rs, unsigned *n, char *err,
			size_t errlen)
{
	int ret = l->ret;

	*rs = NULL;
	*n = 0;
	if (ret) {
		snprintf(err, errlen, "%s", l->err);
	} else {
		*rs = l->rs;
		*n = l->n;
		l->rs = NULL;
	}
	result_bg_free(&l->bg);
	return ret;
}

void result_loading_drop(struct result_loading *l)
{
	if (l)
		result_bg_drop(&l->bg);
}
