// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Measurement definitions (step_def.h): their file form and old files without them,
 * and compare's comparability marks: runs that differ in scale, wait, sector size or
 * latency kind are flagged with their code in every format, and --strict refuses; runs
 * on several targets by every target's sector sizes, and percentiles by their own kind;
 * a scale or sector sizes one run does not know (an import's) are said to be not known,
 * and taken.
 */
#include "testlib.h"
#include "rundir.h"

#include <json-c/json.h>

#include "engine.h"
#include "fio_import.h"
#include "report.h"
#include "result.h"
#include "result_io.h"
#include "target.h"
#include "text.h"
#include "version.h"

#define FIX DB_SRCDIR "/tests/fixtures"

/* A run of one 4k random read step at 16T16Q, measured as drivebench does. */
static void one_step(struct result *r, const char *model, double scale, enum step_wait wait,
		     uint32_t lbs, enum step_lat lat)
{
	char target[512];
	struct workload wl;

	result_init(r);
	r->status = RS_COMPLETE;
	r->scale = scale;
	snprintf(r->started, sizeof(r->started), "2026-11-30T13:00:00Z");
	snprintf(target, sizeof(target),
		 "{\"path\": \"/dev/sdx\", \"size\": 200049647616, \"drive\": {\"model\": "
		 "\"%s\", \"firmware\": \"1\", \"capacity_bytes\": 200049647616}}",
		 model);
	r->target = json_tokener_parse(target);
	r->host = json_object_new_object();
	ck_assert_int_eq(result_summarize(r), 0);
	workload_defaults(&wl);
	wl.threads = wl.qdepth = 16;
	struct result_phase *ph = result_add_phase(r, "measure", PH_MEASURE);
	ph->status = RS_COMPLETE;
	struct result_step *st = result_add_step(ph, "16T16Q", &wl);
	st->status = RS_COMPLETE;
	st->summary.dur_ns = 1000000000ull;
	st->summary.d[DIR_ALL].ios = st->summary.d[DIR_READ].ios = 100000;
	st->summary.d[DIR_ALL].iops = st->summary.d[DIR_READ].iops = 100000;
	st->summary.d[DIR_ALL].mean_ns = st->summary.d[DIR_READ].mean_ns = 160000;
	step_def_measured(&st->def, "io_uring SINGLE_ISSUER|DEFER_TASKRUN", wait == SWT_BUSY_POLL,
			  scale, lbs, 4096, 30);
	st->def.lat = lat;
}

static const struct {
	const char *code;
	double scale[2];
	enum step_wait wait[2];
	uint32_t lbs[2];
	enum step_lat lat[2];
} differ[] = {
	{"not-comparable:scale", {0.01, 0.02}, {SWT_INTERRUPT, SWT_INTERRUPT}, {512, 512},
	 {SL_TOTAL, SL_TOTAL}},
	{"not-comparable:wait", {1, 1}, {SWT_INTERRUPT, SWT_BUSY_POLL}, {512, 512},
	 {SL_TOTAL, SL_TOTAL}},
	{"not-comparable:sector", {1, 1}, {SWT_INTERRUPT, SWT_INTERRUPT}, {512, 4096},
	 {SL_TOTAL, SL_TOTAL}},
	{"not-comparable:latency-kind", {1, 1}, {SWT_INTERRUPT, SWT_INTERRUPT}, {512, 512},
	 {SL_TOTAL, SL_COMPLETION}},
	{NULL, {1, 1}, {SWT_INTERRUPT, SWT_INTERRUPT}, {512, 512}, {SL_TOTAL, SL_TOTAL}},
};

/* Does HTML mark a table (not-comparable outside the percentile charts' captions)? */
static bool html_marks_table(const char *html)
{
	static const char span[] = "<span class=\"warn not-comparable\">";

	for (const char *at = strstr(html, span); at; at = strstr(at + 1, span)) {
		const char *line = at;
		while (line > html && line[-1] != '\n')
			line--;
		if (strncmp(line, "<figcaption>Latency percentiles", 31))
			return true;
	}
	return false;
}

/*
 * Comparing a and b with the metrics in mask (0: every metric): is code (NULL: nothing)
 * flagged in every format, does --strict refuse it, or build when nothing is? The run
 * header of every format but CSV shows scale (0: not checked).
 */
static void check_flagged(const struct result *a, const struct result *b, unsigned mask,
			  const char *code, double scale)
{
	const struct result *ptrs[2] = {a, b};
	struct report_opts o = {.no_specs = true, .metric_mask = mask};
	struct report rep;
	char err[1024];

	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(rep.ngroups, 1);
	for (unsigned f = 0; f < RF_COUNT; f++) {
		char *buf = NULL, want[32];
		size_t len = 0;
		ck_assert_int_eq(report_render(&rep, (enum report_format)f, &buf, &len), 0);
		/* HTML's percentile charts are marked whatever the metric */
		if (code)
			ck_assert_msg(strstr(buf, code), "%s: no %s in\n%s", report_format_name[f],
				      code, buf);
		else
			ck_assert_msg(f == RF_HTML ? !html_marks_table(buf)
						   : !strstr(buf, "not-comparable:"),
				      "%s: marked alike runs:\n%s", report_format_name[f], buf);
		/* with a note of how the runs differ */
		if (code && f == RF_TEXT)
			ck_assert_msg(!strncmp(strstr(buf, code) + strlen(code), ": ", 2), "%s",
				      buf);
		snprintf(want, sizeof(want), f == RF_JSON ? "\"scale\": %g" : "x%g", scale);
		if (scale > 0 && f != RF_CSV)
			ck_assert_msg(strstr(buf, want), "%s: no %s", report_format_name[f], want);
		free(buf);
	}
	report_free(&rep);

	o.strict = true;
	int ret = report_build(&rep, ptrs, 2, &o, err, sizeof(err));
	if (code) {
		ck_assert_int_eq(ret, -EDOM);
		ck_assert_ptr_nonnull(strstr(err, code));
	} else {
		ck_assert_msg(ret == 0, "--strict refused: %s", err);
		report_free(&rep);
	}
}

/* Each pair flagged with its code in text, Markdown, CSV, JSON and HTML; none when alike. */
START_TEST(flagged_in_every_format)
{
	struct result runs[2];

	for (unsigned i = 0; i < 2; i++)
		one_step(&runs[i], i ? "Drive B" : "Drive A", differ[_i].scale[i],
			 differ[_i].wait[i], differ[_i].lbs[i], differ[_i].lat[i]);
	check_flagged(&runs[0], &runs[1], 0, differ[_i].code, differ[_i].scale[1]);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

/* The definition survives a save and a load; a file without one loads with it unknown. */
START_TEST(file_form)
{
	struct result r, back;
	char path[400], err[512];

	snprintf(path, sizeof(path), "%s/defs.json", tmpdir);
	one_step(&r, "Drive A", 0.01, SWT_BUSY_POLL, 4096, SL_TOTAL);
	ck_assert_int_eq(result_save(&r, path, err, sizeof(err)), 0);
	ck_assert_int_eq(result_load(&back, path, err, sizeof(err)), 0);
	const struct step_def *d = &back.phases[0].steps[0].def;
	ck_assert_int_eq(d->lat, SL_TOTAL);
	ck_assert_int_eq(d->wait, SWT_BUSY_POLL);
	ck_assert(d->scale == 0.01);
	ck_assert_uint_eq(d->lbs, 4096);
	ck_assert_uint_eq(d->pbs, 4096);
	ck_assert_str_eq(d->engine, "io_uring");
	ck_assert_str_eq(d->flags, "SINGLE_ISSUER|DEFER_TASKRUN");
	ck_assert(d->has_host_load);
	ck_assert_double_eq_tol(d->host_other_pct, 30, 1e-9); /* as measured (step_cpu_others_pct) */
	ck_assert_str_eq(d->version, DB_VERSION);
	result_free(&back);
	result_free(&r);
	unlink(path);

	/* written before definitions: every field unknown, and nothing flagged against it */
	ck_assert_int_eq(result_load(&back, FIX "/results/file-target.json", err, sizeof(err)), 0);
	for (unsigned p = 0; p < back.nphases; p++)
		for (unsigned s = 0; s < back.phases[p].nsteps; s++)
			ck_assert(!step_def_known(&back.phases[p].steps[s].def));
	struct step_def known = {.lat = SL_TOTAL, .wait = SWT_INTERRUPT, .scale = 1, .lbs = 512};
	ck_assert_uint_eq(step_def_incomparable(&known, &back.phases[0].steps[0].def), 0);
	result_free(&back);
}
END_TEST

/* An fio json+ import's definition, and compare of it against a drivebench run. */
START_TEST(fio_kinds_flagged)
{
	struct result fio, db;
	const struct result *ptrs[2] = {&db, &fio};
	struct report_opts o = {.no_specs = true};
	struct report rep;
	char err[1024], *buf = NULL;
	size_t len = 0;

	ck_assert_int_eq(fio_import_file(&fio, FIX "/fio/clat-only.json", NULL, err, sizeof(err)),
			 0);
	ck_assert_int_eq(fio.phases[0].steps[0].def.lat, SL_COMPLETION);
	one_step(&db, "Drive A", 1, SWT_INTERRUPT, 512, SL_TOTAL);
	db.phases[0].steps[0].wl.qdepth = 16;
	db.phases[0].steps[0].wl.threads = 1;
	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(rep.nrows, 1);
	ck_assert(rep.groups[0].differ & (1u << SD_LATENCY));
	ck_assert_int_eq(report_render(&rep, RF_TEXT, &buf, &len), 0);
	ck_assert_ptr_nonnull(strstr(buf, "not-comparable:latency-kind"));
	ck_assert_ptr_nonnull(strstr(buf, "completion-only"));
	free(buf);
	report_free(&rep);
	result_free(&fio);
	result_free(&db);
}
END_TEST

/*
 * Two runs on several targets: their targets' sector sizes ({lbs, pbs}, a 0 ends them),
 * whether compare flags them, and what show says of the first.
 */
static const struct {
	uint32_t sizes[2][4][2];
	bool flagged;
	const char *shown;
} multi[] = {
	/* a 4096-byte-sector target beside a 512 one is not two 512 ones */
	{{{{512, 512}, {4096, 4096}}, {{512, 512}, {512, 512}}},
	 true,
	 "sectors 512/512+4096/4096,"},
	/* ... whichever --target came first */
	{{{{512, 512}, {512, 512}}, {{4096, 4096}, {512, 512}}}, true, "sectors 512/512+512/512,"},
	/* the order of --target does not matter */
	{{{{4096, 4096}, {512, 512}}, {{512, 512}, {4096, 4096}}},
	 false,
	 "sectors 512/512+4096/4096,"},
	/* nor how many targets of one size (the run's label says how many) */
	{{{{512, 512}, {512, 512}}, {{512, 512}}}, false, "sectors 512/512+512/512,"},
	{{{{4096, 4096}, {512, 4096}}, {{512, 4096}, {512, 4096}, {4096, 4096}, {4096, 4096}}},
	 false,
	 "sectors 512/4096+4096/4096,"},
	/* what share of the targets has each size does */
	{{{{512, 512}, {4096, 4096}}, {{4096, 4096}}}, true, "sectors 512/512+4096/4096,"},
	{{{{4096, 4096}, {512, 512}, {4096, 4096}}, {{512, 512}, {512, 512}, {4096, 4096}}},
	 true,
	 "sectors 512/512+4096/4096+4096/4096,"},
	/* and the physical size counts too */
	{{{{512, 512}, {512, 4096}}, {{512, 4096}, {512, 512}}},
	 false,
	 "sectors 512/512+512/4096,"},
	{{{{512, 512}, {512, 4096}}, {{512, 512}, {512, 512}}}, true, "sectors 512/512+512/4096,"},
};

/*
 * A step on several targets records every target's sector sizes, as the runner does
 * (step_def_record), and compare flags runs whose targets' sizes differ; the record
 * survives a save and a load, and show says it.
 */
START_TEST(multi_target_sectors)
{
	struct result runs[2];
	struct target t[2][4];
	const struct target *tp[2][4];

	memset(t, 0, sizeof(t));
	for (unsigned i = 0; i < 2; i++) {
		unsigned n = 0;
		one_step(&runs[i], "Drive A", 1, SWT_INTERRUPT, 512, SL_TOTAL);
		for (; n < 4 && multi[_i].sizes[i][n][0]; n++) {
			t[i][n].lbs = multi[_i].sizes[i][n][0];
			t[i][n].pbs = multi[_i].sizes[i][n][1];
			tp[i][n] = &t[i][n];
		}
		struct step_result sr;
		memset(&sr, 0, sizeof(sr));
		snprintf(sr.engine_desc, sizeof(sr.engine_desc), "io_uring SINGLE_ISSUER");
		step_def_record(&runs[i].phases[0].steps[0], &sr, 1, tp[i], n);
	}
	check_flagged(&runs[0], &runs[1], 1u << RM_IOPS,
		      multi[_i].flagged ? "not-comparable:sector" : NULL, 0);

	/* the file holds each target's sizes, smallest first, and show says them */
	char path[400], err[512], words[512];
	struct result back;
	snprintf(path, sizeof(path), "%s/defs.json", tmpdir);
	ck_assert_int_eq(result_save(&runs[0], path, err, sizeof(err)), 0);
	ck_assert_int_eq(result_load(&back, path, err, sizeof(err)), 0);
	unlink(path);
	step_def_describe(&back.phases[0].steps[0].def, words, sizeof(words));
	ck_assert_msg(strstr(words, multi[_i].shown), "show says \"%s\", not %s", words,
		      multi[_i].shown);
	result_free(&back);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

/*
 * fio's json+ of one job with lat_percentiles=1 (percentiles of total latency) and
 * without (of completion latency, though its mean is total): their percentile tables
 * are flagged latency-kind in every format and --strict refuses them; their means and
 * IOPS compare as before. A result saved before the definition said what its
 * percentiles span reads it from the import's clat-percentiles warning.
 */
#define KIND "not-comparable:latency-kind"
START_TEST(percentile_kinds_flagged)
{
	struct result clat, lat, old;
	char err[512], path[400];

	ck_assert_int_eq(fio_import_file(&clat, FIX "/fio/lat.json", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(fio_import_file(&lat, FIX "/fio/lat-pct.json", NULL, err, sizeof(err)), 0);
	for (unsigned m = RM_P99; m <= RM_P9999; m++)
		check_flagged(&clat, &lat, 1u << m, KIND, 0);
	check_flagged(&clat, &lat, 0, KIND, 0); /* every metric: the percentiles' tables too */
	check_flagged(&clat, &lat, 1u << RM_LAT_AVG, NULL, 0);
	check_flagged(&clat, &lat, 1u << RM_IOPS, NULL, 0);
	check_flagged(&lat, &lat, 1u << RM_P99, NULL, 0);
	/* HTML's percentile chart of the step, drawn whatever the metric, is marked */
	const struct result *ptrs[2] = {&clat, &lat};
	struct report_opts o = {.no_specs = true, .metric_mask = 1u << RM_IOPS};
	struct report rep;
	char *html = NULL;
	size_t len = 0;
	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	ck_assert_int_eq(report_render(&rep, RF_HTML, &html, &len), 0);
	ck_assert_ptr_nonnull(strstr(html, "<figcaption>Latency percentiles: 4k read random 1T16Q "
					   "<span class=\"warn not-comparable\">"
					   "not-comparable:latency-kind</span>"));
	free(html);
	report_free(&rep);

	/* the import's file without "percentiles" in its definition */
	snprintf(path, sizeof(path), "%s/defs.json", tmpdir);
	ck_assert_int_eq(result_save(&clat, path, err, sizeof(err)), 0);
	json_object *doc = json_object_from_file(path), *phases, *steps, *def;
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "phases", &phases));
	steps = json_object_object_get(json_object_array_get_idx(phases, 0), "steps");
	def = json_object_object_get(json_object_array_get_idx(steps, 0), "definition");
	ck_assert_ptr_nonnull(def);
	json_object_object_del(def, "percentiles");
	ck_assert_int_eq(json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PRETTY), 0);
	json_object_put(doc);
	ck_assert_int_eq(result_load(&old, path, err, sizeof(err)), 0);
	unlink(path);
	check_flagged(&old, &lat, 1u << RM_P99, KIND, 0);
	check_flagged(&old, &lat, 1u << RM_LAT_AVG, NULL, 0);
	result_free(&old);
	result_free(&clat);
	result_free(&lat);
}
END_TEST

/* The scale shown in each format's runs table for a run of unknown scale. */
static const char *const unknown_scale[RF_COUNT] = {
	[RF_TEXT] = "(ad hoc)  ?  ",
	[RF_MD] = "| (ad hoc) | ? |",
	[RF_JSON] = "\"scale\": null",
	[RF_HTML] = "<td>(ad hoc)</td><td>?</td>",
};

/* The metrics of the reports import_scale_not_known builds: every table, and each scope. */
static const unsigned scale_masks[] = {0, 1u << RM_IOPS, 1u << RM_P99};

/*
 * An import's scale is not known, in the file and after a load: the runs table says so
 * rather than x1, and the table of its step beside a run's at x0.01 is marked
 * not-known:scale in every format, whatever its metric, which --strict takes (nothing
 * says they differ). The import's percentiles are of total latency, as the run's.
 */
START_TEST(import_scale_not_known)
{
	struct result fio, back, db;
	const struct result *ptrs[2] = {&back, &db};
	struct report_opts o = {.no_specs = true, .metric_mask = scale_masks[_i]};
	struct report rep;
	char path[400], err[1024];

	snprintf(path, sizeof(path), "%s/defs.json", tmpdir);
	ck_assert_int_eq(fio_import_file(&fio, FIX "/fio/lat-pct.json", NULL, err, sizeof(err)), 0);
	ck_assert(fio.scale == 0);
	ck_assert_int_eq(result_save(&fio, path, err, sizeof(err)), 0);
	ck_assert_int_eq(result_load(&back, path, err, sizeof(err)), 0);
	unlink(path);
	ck_assert(back.scale == 0);
	one_step(&db, "Drive A", 0.01, SWT_INTERRUPT, 512, SL_TOTAL);
	db.phases[0].steps[0].wl.threads = 1;
	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(rep.nrows, 1);
	ck_assert_uint_eq(rep.groups[0].differ | rep.groups[0].differ_pct, 0);
	for (unsigned f = 0; f < RF_COUNT; f++) {
		char *buf = NULL;
		size_t len = 0;
		ck_assert_int_eq(report_render(&rep, (enum report_format)f, &buf, &len), 0);
		ck_assert_msg(strstr(buf, "not-known:scale"), "%s: no not-known:scale in\n%s",
			      report_format_name[f], buf);
		ck_assert_msg(!strstr(buf, "not-comparable:"), "%s: marked not comparable",
			      report_format_name[f]);
		if (unknown_scale[f])
			ck_assert_msg(strstr(buf, unknown_scale[f]), "%s: no %s in\n%s",
				      report_format_name[f], unknown_scale[f], buf);
		free(buf);
	}
	report_free(&rep);
	o.strict = true;
	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	report_free(&rep);
	result_free(&fio);
	result_free(&back);
	result_free(&db);
}
END_TEST

/*
 * A run on targets of two sizes knows its sectors, and no one lbs or pbs: beside a run
 * on one target it is compared by share, not said to be unknown; beside an import,
 * whose sector sizes nobody knows, its sectors are not-known:sector.
 */
START_TEST(multi_target_not_known)
{
	struct result several, one, fio;
	struct target t[2] = {{.lbs = 512, .pbs = 512}, {.lbs = 4096, .pbs = 4096}};
	const struct target *tp[2] = {&t[0], &t[1]};
	struct report_opts o = {.no_specs = true, .metric_mask = 1u << RM_IOPS};
	struct report rep;
	struct step_result sr;
	char err[1024], *buf = NULL;
	size_t len = 0;

	one_step(&several, "Drive A", 1, SWT_INTERRUPT, 512, SL_TOTAL);
	memset(&sr, 0, sizeof(sr));
	snprintf(sr.engine_desc, sizeof(sr.engine_desc), "io_uring SINGLE_ISSUER");
	step_def_record(&several.phases[0].steps[0], &sr, 1, tp, 2);
	ck_assert_uint_eq(several.phases[0].steps[0].def.lbs, 0);
	one_step(&one, "Drive B", 1, SWT_INTERRUPT, 512, SL_TOTAL);
	check_flagged(&several, &one, o.metric_mask, "not-comparable:sector", 0);
	const struct result *ptrs[2] = {&several, &one};
	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(rep.groups[0].unknown, 0);
	report_free(&rep);

	ck_assert_int_eq(fio_import_file(&fio, FIX "/fio/lat-pct.json", NULL, err, sizeof(err)), 0);
	several.phases[0].steps[0].wl.threads = 1;
	ptrs[1] = &fio;
	ck_assert_int_eq(report_build(&rep, ptrs, 2, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(rep.nrows, 1);
	ck_assert_uint_eq(rep.groups[0].differ, 0);
	ck_assert_uint_eq(rep.groups[0].unknown, (1u << SD_SECTORS) | (1u << SD_SCALE));
	ck_assert_int_eq(report_render(&rep, RF_TEXT, &buf, &len), 0);
	ck_assert_msg(strstr(buf, "not-known:scale not-known:sector: "), "%s", buf);
	ck_assert_msg(strstr(buf, "sectors: Drive A 200GB 512/512+4096/4096, "), "%s", buf);
	free(buf);
	report_free(&rep);
	result_free(&fio);
	result_free(&one);
	result_free(&several);
}
END_TEST

/* What a replay takes from a step's definition: each engine choice it records. */
static const struct {
	enum step_wait wait;
	enum step_issue issue;
	const char *flags;
	unsigned own;
	enum engine_poll poll; /* the options' after (before: AUTO, sync, setup 0) */
	bool async;
	unsigned ring_setup;
} replayed[] = {
	{SWT_BUSY_POLL, SI_ASYNC, "SINGLE_ISSUER|COOP_TASKRUN|TASKRUN_FLAG, registered file", 0,
	 ENGINE_POLL_YES, true, 1},
	{SWT_INTERRUPT, SI_NOWAIT_FIRST, "COOP_TASKRUN, busy-poll", 0, ENGINE_POLL_NO, false, 2},
	{SWT_INTERRUPT, SI_NOWAIT_FIRST, "default, registered ring", 0, ENGINE_POLL_NO, false, 3},
	/* the user's choices for this run stay */
	{SWT_BUSY_POLL, SI_ASYNC, "default", (1u << SD_WAIT) | (1u << SD_ISSUE) | (1u << SD_FLAGS),
	 ENGINE_POLL_AUTO, false, 0},
	/* what the definition does not know stays the run's */
	{SWT_UNKNOWN, SI_UNKNOWN, "", 0, ENGINE_POLL_AUTO, false, 0},
	{SWT_POLLED, SI_UNKNOWN, "mystery", 0, ENGINE_POLL_AUTO, false, 0},
};

START_TEST(replay_engine)
{
	struct engine_opts o = {.poll = ENGINE_POLL_AUTO};
	struct step_def d = {.wait = replayed[_i].wait, .issue = replayed[_i].issue};

	text_copy(d.engine, sizeof(d.engine), "io_uring");
	text_copy(d.flags, sizeof(d.flags), replayed[_i].flags);
	step_def_engine(&d, replayed[_i].own, &o);
	ck_assert_int_eq(o.poll, replayed[_i].poll);
	ck_assert_int_eq(o.async, replayed[_i].async);
	ck_assert_uint_eq(o.ring_setup, replayed[_i].ring_setup);
	step_def_engine(NULL, 0, &o);
	ck_assert_int_eq(o.poll, replayed[_i].poll);
}
END_TEST

/*
 * The original step a replay's step runs again: the one at the same place of the same
 * label; a round the original did not run, the last one it ran of the same step.
 */
START_TEST(replay_match)
{
	static const char *const labels[] = {"round 1 4k read", "round 1 4k write",
					     "round 2 again 4k read", "round 2 again 4k write"};
	struct result r;
	struct workload wl;

	result_init(&r);
	workload_defaults(&wl);
	result_add_phase(&r, "purge", PH_PURGE);
	struct result_phase *ph = result_add_phase(&r, "precondition", PH_PRECONDITION);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_ptr_nonnull(result_add_step(ph, labels[i], &wl));
	ck_assert_ptr_eq(step_def_replayed(&r, 1, 1, "round 1 4k write"), &ph->steps[1].def);
	ck_assert_ptr_eq(step_def_replayed(&r, 1, 5, "round 3 4k write"), &ph->steps[3].def);
	ck_assert_ptr_eq(step_def_replayed(&r, 1, 4, "round 3 again 4k read"), &ph->steps[2].def);
	ck_assert_ptr_null(step_def_replayed(&r, 1, 1, "2T2Q"));
	ck_assert_ptr_null(step_def_replayed(&r, 1, 4, "round 3"));
	ck_assert_ptr_null(step_def_replayed(&r, 2, 0, "round 1 4k read"));
	ck_assert_ptr_null(step_def_replayed(NULL, 1, 0, "round 1 4k read"));
	result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("defs");
	TCase *tc = tcase_create("core");
	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);

	tcase_add_loop_test(tc, flagged_in_every_format, 0,
			    (int)(sizeof(differ) / sizeof(differ[0])));
	tcase_add_test(tc, file_form);
	tcase_add_test(tc, fio_kinds_flagged);
	tcase_add_loop_test(tc, multi_target_sectors, 0, (int)(sizeof(multi) / sizeof(multi[0])));
	tcase_add_test(tc, percentile_kinds_flagged);
	tcase_add_loop_test(tc, import_scale_not_known, 0,
			    (int)(sizeof(scale_masks) / sizeof(scale_masks[0])));
	tcase_add_test(tc, multi_target_not_known);
	tcase_add_loop_test(tc, replay_engine, 0, (int)(sizeof(replayed) / sizeof(replayed[0])));
	tcase_add_test(tc, replay_match);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
