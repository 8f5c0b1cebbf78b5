// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results loaded in a thread of their own (result_io.h), for a caller that must not wait
 * for them: the TUI's comparison, which follows the selected run, would otherwise hold the
 * screen for as long as a long run's file takes to read. The caller starts a loading,
 * looks whether it is done as it draws, and takes the results, or drops a loading it no
 * longer wants: the thread cannot be stopped in a read, so the last of the two to let
 * go frees the loading. Also the results layer's way to start a thread of its own.
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
	pthread_mutex_t mu;
	bool done;    /* the thread has finished with it */
	bool dropped; /* the caller has */
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

static void loading_free(struct result_loading *l)
{
	if (l->loaded && l->rs)
		for (unsigned i = 0; i < l->n; i++)
			result_free(&l->rs[i]);
	free(l->rs);
	for (unsigned i = 0; l->paths && i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

static void *loading_main(void *arg)
{
	struct result_loading *l = arg;

	l->ret = result_load_many(l->rs, (const char *const *)l->paths, l->n, l->what, l->err,
				  sizeof(l->err));
	l->loaded = l->ret == 0;
	pthread_mutex_lock(&l->mu);
	l->done = true;
	bool last = l->dropped;
	pthread_mutex_unlock(&l->mu);
	if (last)
		loading_free(l);
	return NULL;
}

struct result_loading *result_loading_start(const char *const *paths, unsigned n, unsigned what)
{
	struct result_loading *l = calloc(1, sizeof(*l));
	pthread_t tid;

	if (!l)
		return NULL;
	pthread_mutex_init(&l->mu, NULL);
	l->what = what;
	l->rs = calloc(n ? n : 1, sizeof(*l->rs));
	l->paths = calloc(n ? n : 1, sizeof(*l->paths));
	if (!l->rs || !l->paths) {
		loading_free(l);
		return NULL;
	}
	for (; l->n < n; l->n++)
		if (!(l->paths[l->n] = strdup(paths[l->n]))) {
			loading_free(l);
			return NULL;
		}
	/* the thread is never waited for */
	if (result_thread_start(&tid, true, loading_main, l)) {
		loading_free(l);
		return NULL;
	}
	return l;
}

bool result_loading_done(struct result_loading *l)
{
	pthread_mutex_lock(&l->mu);
	bool done = l->done;
	pthread_mutex_unlock(&l->mu);
	return done;
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
	loading_free(l);
	return ret;
}

void result_loading_drop(struct result_loading *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->mu);
	bool last = l->done;
	l->dropped = true;
	pthread_mutex_unlock(&l->mu);
	if (last)
		loading_free(l);
}
