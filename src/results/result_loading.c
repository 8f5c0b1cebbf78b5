// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results loaded in a thread of their own (result_io.h), for a caller that must not wait
 * for them: the TUI's comparison, which follows the selected run, would otherwise hold the
 * screen for as long as a long run's file takes to read. The caller starts a loading,
 * looks whether it is done as it draws, and takes the results, or drops a loading it no
 * longer wants: the thread cannot be stopped in a read, so the last of the two to let
 * go frees the loading: a loading is a bg_job (bgjob.h), as listings and chores are.
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
	struct bg_job bg; /* first: the thread's */
	unsigned n, what;
	char **paths;	   /* [n] */
	struct result *rs; /* [n] */
	int ret;
	bool loaded; /* rs holds n results (until taken) */
	char err[512];
};

static void loading_free(struct bg_job *b)
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

static void loading_work(struct bg_job *b)
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
	bg_job_init(&l->bg, loading_work, loading_free);
	l->what = what;
	l->rs = calloc(n ? n : 1, sizeof(*l->rs));
	l->paths = calloc(n ? n : 1, sizeof(*l->paths));
	for (; l->rs && l->paths && l->n < n; l->n++)
		if (!(l->paths[l->n] = strdup(paths[l->n])))
			break;
	if (l->n < n || !l->rs || !l->paths || bg_job_start(&l->bg)) {
		bg_job_free(&l->bg);
		return NULL;
	}
	return l;
}

bool result_loading_done(struct result_loading *l)
{
	return bg_job_done(&l->bg);
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
	bg_job_free(&l->bg);
	return ret;
}

void result_loading_drop(struct result_loading *l)
{
	if (l)
		bg_job_drop(&l->bg);
}
