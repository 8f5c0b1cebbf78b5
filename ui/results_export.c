// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Results screen's export (e, then a format): the comparison shown is rendered here,
 * from memory, and written in a thread of its own (bgjob.h) to the exports directory next
 * to the results directory. That directory may be on a share (a site's `results = DIR`),
 * and on one that stopped answering the write waits for ever: the screen goes on
 * meanwhile, the status line saying "exporting NAME..." until it is written. One at a
 * time: an export asked for while one waits is refused, and q asks before leaving one
 * unfinished (the export is then not made: its file is written whole or not at all).
 */
#include "ui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bgjob.h"
#include "errbuf.h"
#include "report.h"
#include "safety.h"
#include "text.h"

struct export_job {
	struct bg_job bg; /* first: the thread's */
	char dir[4096], path[4300];
	char *text;
	size_t len;
	int ret;
	char err[DB_ERR_LEN];
};

/* Its directory made, then the file written whole (or not at all). */
static void export_work(struct bg_job *b)
{
	struct export_job *j = (struct export_job *)b;

	if (mkdir(j->dir, 0755) < 0 && errno != EEXIST) {
		j->ret = -errno;
		text_fmt(j->err, sizeof(j->err), "%s: cannot create the exports directory: %s",
			 j->dir, strerror(errno));
		return;
	}
	j->ret = safety_output_write(j->path, j->text, j->len, NULL, j->err, sizeof(j->err));
}

static void export_release(struct bg_job *b)
{
	struct export_job *j = (struct export_job *)b;

	free(j->text);
	free(j);
}

static const char *export_name(const struct app *a)
{
	return text_base_name(a->export->path);
}

static void export_say(struct app *a)
{
	ui_status(a, ROLE_DIM, "exporting %s...", export_name(a));
}

static void export_answer(struct app *a)
{
	struct export_job *j = a->export;
	char saying[4400];

	snprintf(saying, sizeof(saying), "exporting %s...", export_name(a));
	if (!strcmp(a->status, saying))
		a->status_ticks = 0; /* what it said is over */
	if (j->ret)
		ui_status(a, ROLE_ERROR, "%s", j->err);
	else
		ui_status(a, ROLE_OK, "exported %s", j->path);
	bg_job_free(&j->bg);
	a->export = NULL;
}

/* The comparison rendered, and a job to write it; NULL when it is not (said). */
static struct export_job *export_make(struct app *a, int format)
{
	static const char *const ext[RF_COUNT] = {[RF_TEXT] = "txt",
						  [RF_MD] = "md",
						  [RF_CSV] = "csv",
						  [RF_JSON] = "json",
						  [RF_HTML] = "html"};
	const char *slash = strrchr(a->results_dir, '/');
	struct export_job *j;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	if (!slash) {
		ui_status(a, ROLE_ERROR, "%s: cannot create the exports directory: %s",
			  a->results_dir, strerror(ENOENT));
		return NULL;
	}
	if (!(j = calloc(1, sizeof(*j)))) {
		ui_status(a, ROLE_ERROR, "export failed: %s", strerror(ENOMEM));
		return NULL;
	}
	bg_job_init(&j->bg, export_work, export_release);
	/* $XDG_DATA_HOME/drivebench/exports: next to the results directory */
	snprintf(j->dir, sizeof(j->dir), "%.*s/exports", (int)(slash - a->results_dir),
		 a->results_dir);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H-%M-%S", &tm);
	snprintf(j->path, sizeof(j->path), "%s/compare-%s.%s", j->dir, stamp, ext[format]);
	ret = report_render(compare_report(a), (enum report_format)format, &j->text, &j->len);
	if (ret < 0) {
		ui_status(a, ROLE_ERROR, "%s: export failed: %s", j->path, strerror(-ret));
		bg_job_free(&j->bg);
		return NULL;
	}
	return j;
}

void results_export(struct app *a, int format)
{
	if (a->export) {
		ui_status(a, ROLE_WARNING,
			  "%s: still being exported; its directory has not answered (export "
			  "again when it has)",
			  export_name(a));
		return;
	}
	if (a->cmp_dirty)
		compare_build(a);
	compare_poll(a);
	if (compare_reading(a)) {
		ui_status(a, ROLE_WARNING,
			  "the comparison is still being read: export it when it shows");
		return;
	}
	if (!compare_report(a)) {
		ui_status(a, ROLE_WARNING, "nothing to export: mark results with Space");
		return;
	}
	if (format < 0 || format >= RF_COUNT || !(a->export = export_make(a, format)))
		return;
	if (bg_job_start(&a->export->bg) == 0) {
		export_say(a);
		return;
	}
	/* no thread: here and now */
	export_work(&a->export->bg);
	export_answer(a);
}

void results_export_poll(struct app *a)
{
	if (!a->export)
		return;
	if (!bg_job_done(&a->export->bg)) {
		/* said again once another message has had its time */
		if (a->status_ticks <= 1)
			export_say(a);
		return;
	}
	export_answer(a);
}

bool results_exporting(const struct app *a, char *what, size_t len)
{
	if (!a->export)
		return false;
	snprintf(what, len,
		 "Exporting %s has not finished: its directory has not answered. If you quit "
		 "now, the export is not made.",
		 export_name(a));
	return true;
}

void results_export_free(struct app *a)
{
	if (a->export)
		bg_job_drop(&a->export->bg);
	a->export = NULL;
}
