// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the Results screen asks of a result file: its label and note (n, N) and its
 * deletion (d); and where a path typed to be listed (o) leads. Each is a chore of the
 * results layer's (result_io.h) done in a thread of its own, one at a time, so that a file
 * on a share that stopped answering never holds the screen: the status line says what is
 * being done ("saving the label of NAME...") until it is, and results_poll() takes the
 * answer. What a key asked (the editor, the dialog) is about the file that was selected
 * then, whatever the list shows by the time it opens.
 */
#include "ui.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "errbuf.h"
#include "library.h"
#include "text.h"

/* Reading or checking: nothing is changed yet, so a newer question can replace it. */
static bool chore_asks(enum result_chore_kind kind)
{
	return kind == RESULT_CHORE_READ || kind == RESULT_CHORE_CHECK || kind == RESULT_CHORE_OPEN;
}

/* What the status line says while a chore is being done. */
static const char *chore_saying(const struct app *a, char *buf, size_t len)
{
	static const char *const doing[] = {
		[RESULT_CHORE_READ] = "reading",
		[RESULT_CHORE_CHECK] = "reading",
		[RESULT_CHORE_LABEL] = "saving the label of",
		[RESULT_CHORE_NOTE] = "saving the note of",
		[RESULT_CHORE_DELETE] = "deleting",
		[RESULT_CHORE_OPEN] = "looking at",
	};

	snprintf(buf, len, "%s %s...", doing[a->chore_kind], text_base_name(a->chore_path));
	return buf;
}

static void chore_say(struct app *a)
{
	char buf[400];

	ui_status(a, ROLE_DIM, "%s", chore_saying(a, buf, sizeof(buf)));
}

/* Is the file the question was about still the one selected, on a screen free for it? */
static bool still_asked(struct app *a)
{
	const char *path = result_list_path(&a->results, a->result_rows.sel);

	return a->screen == SCR_RESULTS && a->dlg.kind == DLG_NONE && !a->details &&
	       !a->details_loading && path && !strcmp(path, a->chore_path);
}

/* A path typed to be listed turned out a file or a directory: listed from now on. */
static void opened(struct app *a, const char *abs)
{
	char err[DB_ERR_LEN];

	if (library_add(a->settings, abs, err, sizeof(err)) < 0) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	results_load(a);
	ui_status(a, ROLE_OK, "listed from now on: %s", abs);
}

static void chore_answer(struct app *a, enum result_chore_kind kind,
			 const struct result_chore_answer *ans)
{
	char text[600];

	if (!strcmp(a->status, chore_saying(a, text, sizeof(text))))
		a->status_ticks = 0; /* what it said is over */
	if (ans->ret < 0) {
		ui_status(a, ans->ret == -EBUSY ? ROLE_WARNING : ROLE_ERROR, "%s", ans->err);
		return;
	}
	switch (kind) {
	case RESULT_CHORE_READ:
		if (!still_asked(a))
			return;
		text_copy(a->asked_path, sizeof(a->asked_path), a->chore_path);
		ui_edit(a, a->chore_act,
			a->chore_act == ACT_LABEL ? "Label (the run's name in comparisons)"
						  : "Note",
			a->chore_act == ACT_LABEL ? ans->label : ans->note);
		return;
	case RESULT_CHORE_CHECK:
		if (!still_asked(a))
			return;
		text_copy(a->asked_path, sizeof(a->asked_path), a->chore_path);
		snprintf(text, sizeof(text), "Delete %s? The measurements in it are lost.",
			 a->asked_path);
		ui_confirm(a, ACT_DELETE, "Delete this result?", text);
		return;
	case RESULT_CHORE_LABEL:
	case RESULT_CHORE_NOTE:
		ui_status(a, ROLE_OK, "%s %s", kind == RESULT_CHORE_LABEL ? "label" : "note",
			  a->chore_emptied ? "removed" : "saved");
		break;
	case RESULT_CHORE_DELETE:
		ui_status(a, ROLE_OK, "deleted %s", a->chore_path);
		break;
	case RESULT_CHORE_OPEN:
		opened(a, ans->path);
		return;
	}
	results_load(a);
}

/* Ask kind of the file at path (what for: act); text for a label or note. */
static void chore_start(struct app *a, enum result_chore_kind kind, enum key_action act,
			const char *path, const char *text)
{
	struct result_chore_answer ans;

	if (a->chore && !chore_asks(a->chore_kind)) {
		ui_status(a, ROLE_WARNING,
			  "%s: still %s; its directory has not answered (ask again when it has)",
			  text_base_name(a->chore_path),
			  a->chore_kind == RESULT_CHORE_DELETE ? "being deleted" : "being saved");
		return;
	}
	results_files_free(a); /* a question nobody waits for any more */
	a->chore_kind = kind;
	a->chore_act = act;
	a->chore_emptied = !text || !text[0];
	text_copy(a->chore_path, sizeof(a->chore_path), path);
	if ((a->chore = result_chore_start(kind, path, text))) {
		chore_say(a);
		return;
	}
	/* no thread: here and now */
	result_chore_run(kind, path, text, &ans);
	chore_answer(a, kind, &ans);
}

void results_poll(struct app *a)
{
	struct result_chore_answer ans;

	if (!a->chore)
		return;
	if (!result_chore_done(a->chore)) {
		/* said again once another message has had its time */
		if (a->status_ticks <= 1)
			chore_say(a);
		return;
	}
	result_chore_take(a->chore, &ans);
	a->chore = NULL;
	chore_answer(a, a->chore_kind, &ans);
}

bool results_changing(const struct app *a, char *what, size_t len)
{
	if (!a->chore || chore_asks(a->chore_kind))
		return false;
	snprintf(what, len,
		 "%s %s has not finished: its directory has not answered. "
		 "Quitting now leaves the file as it was.",
		 a->chore_kind == RESULT_CHORE_DELETE  ? "Deleting"
		 : a->chore_kind == RESULT_CHORE_LABEL ? "Saving the label of"
						       : "Saving the note of",
		 text_base_name(a->chore_path));
	return true;
}

void results_files_free(struct app *a)
{
	result_chore_drop(a->chore);
	a->chore = NULL;
}

void results_ask_delete(struct app *a)
{
	const char *path = result_list_path(&a->results, a->result_rows.sel);

	if (path)
		chore_start(a, RESULT_CHORE_CHECK, ACT_DELETE, path, NULL);
}

/*
 * Open a result file or a directory of results: it is listed from now on, and the
 * library (library.h) remembers it. Where the path leads is looked at in the chore's
 * thread: a path on a share that stopped answering holds that, not the screen.
 */
void results_open(struct app *a, const char *path)
{
	if (path[0])
		chore_start(a, RESULT_CHORE_OPEN, ACT_OPEN, path, NULL);
}

void results_delete(struct app *a)
{
	if (a->asked_path[0])
		chore_start(a, RESULT_CHORE_DELETE, ACT_DELETE, a->asked_path, NULL);
}

/*
 * Labels and notes live in the result file: it is locked, read again whole, changed and
 * written back the way runs save it (atomically), so a reader never sees half a file and
 * a run still writing it (here or in another process) is never overwritten: refused.
 */
void results_annotate(struct app *a, enum key_action what, const char *text)
{
	if (a->asked_path[0])
		chore_start(a, what == ACT_LABEL ? RESULT_CHORE_LABEL : RESULT_CHORE_NOTE, what,
			    a->asked_path, text);
}

/* Open the editor for the selected result's label or note, from what the file holds. */
void results_ask_annotate(struct app *a, enum key_action what)
{
	bool pending;
	const char *path = result_list_path(&a->results, a->result_rows.sel);
	const struct result_entry *e =
		result_list_entry_peek(&a->results, a->result_rows.sel, &pending);

	if (!path || (e && e->error[0]))
		return;
	/* this process's run saves its own file until it ends (another process's holds its
	   lock: the chore finds that) */
	if (e && e->status == RS_INCOMPLETE && run_model_active(a->run)) {
		ui_status(a, ROLE_WARNING, "a run is saving this result: label it when it ends");
		return;
	}
	chore_start(a, RESULT_CHORE_READ, what, path, NULL);
}
