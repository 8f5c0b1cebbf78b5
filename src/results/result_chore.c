// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the TUI's Results screen asks of one result file, done in a thread of its own
 * (result_io.h): read its label and note for the editor, label it, write its note, see
 * whether a run still writes it, delete it; and where a path typed to be listed leads. Each
 * opens or looks at a file or a directory, and on a share that stopped answering (an NFS
 * server gone, a hung FUSE daemon) that waits for ever; the screen goes on meanwhile and
 * takes the answer when it comes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result.h"
#include "result_int.h"
#include "result_io.h"
#include "text.h"

struct result_chore {
	struct bg_job bg; /* first: the thread's */
	enum result_chore_kind kind;
	char path[4096];
	char text[RESULT_NOTE_BYTES];
	struct result_chore_answer ans;
};

static int annotate_edit(struct result *r, void *arg)
{
	const struct result_chore *c = arg;

	if (c->kind == RESULT_CHORE_LABEL)
		text_copy(r->label, sizeof(r->label), c->text);
	else
		text_copy(r->note, sizeof(r->note), c->text);
	return 0;
}

/* The run that holds the file saves it again until it ends: what to change waits. */
static int refuse_held(struct result_chore *c, const char *what)
{
	text_fmt(c->ans.err, sizeof(c->ans.err), "a run is saving this result: %s it when it ends",
		 what);
	return c->ans.ret = -EBUSY;
}

/* A path typed to be listed: a regular file or a directory, by its absolute path. */
static void look_at(struct result_chore *c)
{
	struct result_chore_answer *a = &c->ans;
	char abs[PATH_MAX];
	struct stat st;

	if (!realpath(c->path, abs) || stat(abs, &st) < 0) {
		a->ret = -errno;
		text_fmt(a->err, sizeof(a->err), "%s: %s", c->path, strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		a->ret = -EINVAL;
		text_fmt(a->err, sizeof(a->err), "%s: not a file or a directory", abs);
		return;
	}
	text_copy(a->path, sizeof(a->path), abs);
}

static void chore_do(struct result_chore *c)
{
	struct result_chore_answer *a = &c->ans;
	struct result r;

	a->ret = 0;
	switch (c->kind) {
	case RESULT_CHORE_READ:
		if (result_being_written(c->path)) {
			refuse_held(c, "label");
			return;
		}
		if ((a->ret = result_load_opts(&r, c->path, 0, a->err, sizeof(a->err))) < 0)
			return;
		text_copy(a->label, sizeof(a->label), r.label);
		text_copy(a->note, sizeof(a->note), r.note);
		result_free(&r);
		return;
	case RESULT_CHORE_CHECK:
		if (result_being_written(c->path))
			refuse_held(c, "delete");
		return;
	case RESULT_CHORE_LABEL:
	case RESULT_CHORE_NOTE:
		a->ret = result_rewrite(c->path, annotate_edit, c, a->err, sizeof(a->err));
		return;
	case RESULT_CHORE_DELETE:
		/* taken by a run since it was asked: that run saves it again */
		if (result_being_written(c->path)) {
			refuse_held(c, "delete");
			return;
		}
		if (unlink(c->path) < 0) {
			a->ret = -errno;
			text_fmt(a->err, sizeof(a->err), "%s: %s", c->path, strerror(errno));
		}
		return;
	case RESULT_CHORE_OPEN:
		look_at(c);
		return;
	}
}

static struct result_chore *chore_new(enum result_chore_kind kind, const char *path,
				      const char *text)
{
	struct result_chore *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->kind = kind;
	text_copy(c->path, sizeof(c->path), path);
	text_copy(c->text, sizeof(c->text), text ? text : "");
	return c;
}

int result_chore_run(enum result_chore_kind kind, const char *path, const char *text,
		     struct result_chore_answer *ans)
{
	struct result_chore *c = chore_new(kind, path, text);

	if (!c) {
		memset(ans, 0, sizeof(*ans));
		text_fmt(ans->err, sizeof(ans->err), "%s: %s", path, strerror(ENOMEM));
		return ans->ret = -ENOMEM;
	}
	chore_do(c);
	*ans = c->ans;
	free(c);
	return ans->ret;
}

static void chore_work(struct bg_job *b)
{
	chore_do((struct result_chore *)b);
}

static void chore_free(struct bg_job *b)
{
	free(b);
}

struct result_chore *result_chore_start(enum result_chore_kind kind, const char *path,
					const char *text)
{
	struct result_chore *c = chore_new(kind, path, text);

	if (!c)
		return NULL;
	bg_job_init(&c->bg, chore_work, chore_free);
	if (bg_job_start(&c->bg)) {
		bg_job_free(&c->bg);
		return NULL;
	}
	return c;
}

bool result_chore_done(struct result_chore *c)
{
	return bg_job_done(&c->bg);
}

void result_chore_take(struct result_chore *c, struct result_chore_answer *ans)
{
	*ans = c->ans;
	bg_job_free(&c->bg);
}

void result_chore_drop(struct result_chore *c)
{
	if (c)
		bg_job_drop(&c->bg);
}
