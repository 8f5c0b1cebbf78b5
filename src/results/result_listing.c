// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library listed in a thread of its own (result_io.h): the results directory made if
 * it is missing and listed, then each place the library names. A directory on a share
 * that stopped answering (an NFS server gone, a hung FUSE daemon) waits for ever in
 * opendir() or stat(); the screen goes on meanwhile, showing the list it had.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "result_int.h"
#include "result_io.h"
#include "errbuf.h"
#include "text.h"

struct result_listing {
	struct bg_job bg; /* first: the thread's */
	const struct settings *settings;
	char (*places)[4096];
	unsigned nplaces;
	struct result_listing_answer ans;
};

static void listing_do(struct result_listing *l)
{
	struct result_listing_answer *a = &l->ans;
	char err[DB_ERR_LEN];
	int ret = result_dir(l->settings, a->dir, sizeof(a->dir));

	if (ret < 0) {
		text_fmt(a->err, sizeof(a->err), "%s: cannot create the results directory: %s",
			 a->dir, strerror(-ret));
	} else if ((ret = result_list_dir(a->dir, &a->list, a->err, sizeof(a->err))) < 0 &&
		   ret != -E2BIG) { /* past the limit, the first so many files are listed */
		memset(&a->list, 0, sizeof(a->list));
	}
	for (unsigned i = 0; i < l->nplaces; i++) {
		if (!strcmp(l->places[i], a->dir) ||
		    result_list_add(&a->list, l->places[i], err, sizeof(err)) >= 0 || a->warning[0])
			continue;
		text_fmt(a->warning, sizeof(a->warning), "library: %s", err);
	}
}

static struct result_listing *listing_new(const struct settings *s, const char *const *places,
					  unsigned nplaces)
{
	struct result_listing *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->settings = s;
	if (nplaces && !(l->places = calloc(nplaces, sizeof(*l->places)))) {
		free(l);
		return NULL;
	}
	for (unsigned i = 0; i < nplaces; i++)
		text_copy(l->places[i], sizeof(l->places[i]), places[i]);
	l->nplaces = nplaces;
	return l;
}

static void listing_free(struct bg_job *b)
{
	struct result_listing *l = (struct result_listing *)b;

	result_list_free(&l->ans.list);
	free(l->places);
	free(l);
}

static void listing_work(struct bg_job *b)
{
	listing_do((struct result_listing *)b);
}

struct result_listing *result_listing_start(const struct settings *s, const char *const *places,
					    unsigned nplaces)
{
	struct result_listing *l = listing_new(s, places, nplaces);

	if (!l)
		return NULL;
	bg_job_init(&l->bg, listing_work, listing_free);
	if (bg_job_start(&l->bg)) {
		bg_job_free(&l->bg);
		return NULL;
	}
	return l;
}

bool result_listing_done(struct result_listing *l)
{
	return bg_job_done(&l->bg);
}

void result_listing_take(struct result_listing *l, struct result_listing_answer *ans)
{
	*ans = l->ans;
	memset(&l->ans.list, 0, sizeof(l->ans.list)); /* the caller's now */
	bg_job_free(&l->bg);
}

void result_listing_drop(struct result_listing *l)
{
	if (l)
		bg_job_drop(&l->bg);
}

int result_listing_run(const struct settings *s, const char *const *places, unsigned nplaces,
		       struct result_listing_answer *ans)
{
	struct result_listing *l = listing_new(s, places, nplaces);

	memset(ans, 0, sizeof(*ans));
	if (!l) {
		text_fmt(ans->err, sizeof(ans->err), "listing the results: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	listing_do(l);
	*ans = l->ans;
	free(l->places);
	free(l);
	return 0;
}
