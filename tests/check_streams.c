// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Steps of several streams and runs on several targets: their round trip through a
 * result file (every field of a stream, the "targets" array), the loader's limits and
 * refusals, and the rows they give in show, compare (every format) and export-samples.
 * Kept apart from check_result.c and check_report.c, which are at their size.
 */
#include "testlib.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "engine.h"
#include "hist.h"
#include "report.h"
#include "result.h"
#include "result_io.h"

#include "rundir.h"

static void fill_dir(struct dir_stats *d, double iops, double avg_ms)
{
	memset(d, 0, sizeof(*d));
	d->ios = (uint64_t)(iops * 10);
	d->bytes = d->ios * 4096;
	d->iops = iops;
	d->mbps = iops * 4096 / 1e6;
	d->mean_ns = avg_ms * 1e6 + 0.25; /* not a short decimal: the round trip is exact */
	d->std_ns = avg_ms * 0.4e6 / 3.0;
	d->min_ns = 1000;
	d->max_ns = (uint64_t)(avg_ms * 7e6);
	for (unsigned i = 0; i < NPCT; i++)
		d->pct_ns[i] = (uint64_t)(avg_ms * 1e6 * (1 + i));
}

static void fill_sample(struct sample *s, unsigned index, double iops, double avg_ms)
{
	memset(s, 0, sizeof(*s));
	s->index = index;
	s->start_ns = index * 1000000000ull;
	s->dur_ns = 1000000000ull;
	fill_dir(&s->d[DIR_READ], iops * 0.7, avg_ms * 0.8);
	fill_dir(&s->d[DIR_WRITE], iops * 0.3, avg_ms * 1.4);
	fill_dir(&s->d[DIR_ALL], iops, avg_ms);
}

/* A stream (or step) with every field set, its numbers from iops. */
static void fill_step(struct result_step *st, double iops, unsigned nsamples)
{
	struct hist rd, wr;

	st->status = RS_COMPLETE;
	snprintf(st->engine, sizeof(st->engine), "io_uring (test)");
	fill_sample(&st->summary, 0, iops, 2.5);
	st->summary.dur_ns = nsamples * 1000000000ull;
	fill_sample(&st->drain, 0, iops / 100, 9);
	st->drain.dur_ns = 1234567;
	fill_sample(&st->ramp, 0, iops / 10, 3);
	st->ramp.dur_ns = 2000000000ull;
	for (unsigned i = 0; i < nsamples; i++) {
		struct sample s;
		fill_sample(&s, i, iops + i, 2.5 + i);
		ck_assert_int_eq(result_step_add_sample(st, &s), 0);
	}
	memset(&rd, 0, sizeof(rd));
	memset(&wr, 0, sizeof(wr));
	hist_add(&rd, 100000);
	hist_add(&rd, 250000);
	hist_add(&wr, (uint64_t)(iops * 1000));
	ck_assert_int_eq(result_step_set_hist(st, &rd, &wr), 0);
	st->drive = (struct step_drive){.has_written = true, .written_bytes = 512000ull * 7,
					.has_temp = true, .temp_max_c = 41};
}

/* A run of one measured step "4T8Q" of two streams, "reader" on target 0 and "writer"
 * on target ntargets - 1; iops_scale tells two runs apart. */
static void build(struct result *r, unsigned ntargets, double iops_scale, bool swap)
{
	struct workload wl, rwl, wwl;

	result_init(r);
	r->status = RS_COMPLETE;
	snprintf(r->started, sizeof(r->started), "2026-12-01T10:00:00Z");
	r->host = json_object_new_object();
	r->target = json_tokener_parse("{\"path\": \"/tmp/a.img\", \"kind\": \"file\", "
				       "\"size\": 1073741824}");
	if (ntargets > 1) {
		r->targets = json_object_new_array();
		json_object_array_add(r->targets, json_object_get(r->target));
		json_object_array_add(r->targets,
				      json_tokener_parse("{\"path\": \"/tmp/b.img\", \"kind\": "
							 "\"file\", \"size\": 2147483648}"));
	}
	ck_assert_int_eq(result_summarize(r), 0);
	workload_defaults(&wl);
	wl.bs = 4096;
	wl.read_pct = 70;
	wl.threads = 4;
	wl.qdepth = 8;
	rwl = wl;
	rwl.read_pct = 100;
	rwl.threads = 1;
	rwl.rate_iops = 5000;
	wwl = wl;
	wwl.read_pct = 0;
	wwl.bs = 131072;
	wwl.threads = 3;
	wwl.range_start = 1 << 20;
	wwl.range_size = 64 << 20;

	struct result_phase *ph = result_add_phase(r, "measure", PH_MEASURE);
	ph->status = RS_COMPLETE;
	struct result_step *st = result_add_step(ph, "4T8Q", &wl);
	fill_step(st, 30000 * iops_scale, 3);
	for (unsigned k = 0; k < 2; k++) {
		bool reader = (k == 0) != swap;
		struct result_step *sm = result_step_add_stream(st, reader ? "reader" : "writer",
								 reader ? &rwl : &wwl);
		ck_assert_ptr_nonnull(sm);
		fill_step(sm, (reader ? 21000 : 9000) * iops_scale, 3);
		sm->target_index = reader ? 0 : ntargets - 1;
		sm->share_pct = reader ? 62.5 : 0;
		if (!reader)
			ck_assert_int_eq(result_step_warn(sm, SW_THREADS_IDLE, "1 of 3 idle"), 0);
	}
	st->streams[0].rate_pct = 0; /* the stream's own */
}

static void assert_step_eq(const struct result_step *a, const struct result_step *b)
{
	struct sample sa, sb;
	struct hist ha[2], hb[2];

	ck_assert_str_eq(a->label, b->label);
	ck_assert(workload_same_dist(&a->wl, &b->wl));
	ck_assert_uint_eq(a->wl.bs, b->wl.bs);
	ck_assert_uint_eq(a->wl.read_pct, b->wl.read_pct);
	ck_assert_uint_eq(a->wl.threads, b->wl.threads);
	ck_assert_uint_eq(a->wl.qdepth, b->wl.qdepth);
	ck_assert_uint_eq(a->wl.rate_iops, b->wl.rate_iops);
	ck_assert_uint_eq(a->wl.range_start, b->wl.range_start);
	ck_assert_uint_eq(a->wl.range_size, b->wl.range_size);
	ck_assert_int_eq(a->status, b->status);
	ck_assert_str_eq(a->engine, b->engine);
	ck_assert_uint_eq(a->target_index, b->target_index);
	ck_assert(a->share_pct == b->share_pct);
	ck_assert(!memcmp(&a->summary, &b->summary, sizeof(a->summary)));
	ck_assert(!memcmp(&a->drain, &b->drain, sizeof(a->drain)));
	ck_assert(!memcmp(&a->ramp, &b->ramp, sizeof(a->ramp)));
	ck_assert(!memcmp(&a->drive, &b->drive, sizeof(a->drive)));
	ck_assert_uint_eq(a->nsamples, b->nsamples);
	for (unsigned i = 0; i < a->nsamples; i++) {
		ck_assert(result_step_sample(a, i, &sa) && result_step_sample(b, i, &sb));
		ck_assert(!memcmp(&sa, &sb, sizeof(sa)));
	}
	result_step_get_hist(a, &ha[0], &ha[1]);
	result_step_get_hist(b, &hb[0], &hb[1]);
	ck_assert(!memcmp(ha, hb, sizeof(ha)));
	ck_assert_uint_eq(a->nwarnings, b->nwarnings);
	for (unsigned w = 0; w < a->nwarnings; w++) {
		ck_assert_str_eq(a->warnings[w].code, b->warnings[w].code);
		ck_assert_str_eq(a->warnings[w].text, b->warnings[w].text);
	}
	ck_assert_uint_eq(a->nstreams, b->nstreams);
	for (unsigned k = 0; k < a->nstreams; k++)
		assert_step_eq(&a->streams[k], &b->streams[k]);
}

static char *save(const struct result *r, const char *name)
{
	static char path[512];
	char err[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	ck_assert_msg(result_save(r, path, err, sizeof(err)) == 0, "%s", err);
	return path;
}

/* _i: 0 one target, 1 two targets */
START_TEST(round_trip)
{
	struct result a, b;
	char err[512];
	unsigned ntargets = (unsigned)_i + 1;

	build(&a, ntargets, 1, false);
	const char *path = save(&a, "streams.json");
	ck_assert_msg(result_load(&b, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(b.phases[0].nsteps, 1);
	ck_assert_uint_eq(b.phases[0].steps[0].nstreams, 2);
	assert_step_eq(&a.phases[0].steps[0], &b.phases[0].steps[0]);
	ck_assert_uint_eq(b.phases[0].steps[0].streams[1].target_index, ntargets - 1);
	ck_assert(b.phases[0].steps[0].streams[0].share_pct == 62.5);
	if (ntargets > 1) {
		ck_assert_ptr_nonnull(b.targets);
		ck_assert(json_object_equal(a.targets, b.targets));
		ck_assert_uint_eq(result_ntargets(&b), 2);
		ck_assert_str_eq(result_nth_target(&b, 1)->path, "/tmp/b.img");
	} else {
		ck_assert_ptr_null(b.targets);
	}
	result_free(&a);
	result_free(&b);
}
END_TEST

/* What fn writes of r (result_write, report_samples_csv), malloc'd. */
static char *written(const struct result *r, int (*fn)(const struct result *, FILE *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(fn(r, mem), 0);
	fclose(mem);
	return text;
}

/* What is written: "streams" after "drive", "target" only with targets, no nesting. */
START_TEST(format_as_written)
{
	struct result a;

	build(&a, 2, 1, false);
	char *text = written(&a, result_write);
	char *targets = strstr(text, "\"targets\""), *target = strstr(text, "\"target\": {");
	ck_assert_ptr_nonnull(targets);
	ck_assert(target && target < targets && targets < strstr(text, "\"phases\""));
	char *streams = strstr(text, "\"streams\"");
	ck_assert_ptr_nonnull(streams);
	ck_assert_ptr_null(strstr(streams + 1, "\"streams\""));
	ck_assert_ptr_nonnull(strstr(streams, "\"label\": \"writer\",\n"));
	ck_assert_ptr_nonnull(strstr(streams, "\"target\": 1,"));
	ck_assert_ptr_nonnull(strstr(streams, "\"share_pct\": 62.5,"));
	free(text);
	result_free(&a);

	build(&a, 1, 1, false);
	text = written(&a, result_write);
	ck_assert_ptr_null(strstr(text, "\"targets\""));
	ck_assert_ptr_null(strstr(text, "\"target\": 0"));
	free(text);
	result_free(&a);
}
END_TEST

static char *write_text(const char *name, const char *text)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

#define HEAD "{\"format\": \"drivebench-result\", \"version\": 2, "

static const struct {
	const char *name, *text, *expect; /* expect NULL: it loads */
} files[] = {
	{"nested streams",
	 HEAD "\"phases\": [{\"steps\": [{\"streams\": [{\"label\": \"a\", \"streams\": []}]}]}]}",
	 "phases[0].steps[0].streams[0]: a stream has no \"streams\" of its own"},
	{"target past the targets",
	 HEAD "\"targets\": [{\"path\": \"/a\"}, {\"path\": \"/b\"}], \"phases\": [{\"steps\": "
	      "[{\"streams\": [{\"target\": 0}, {\"target\": 2}]}]}]}",
	 "phases[0].steps[0].streams[1]: \"target\" 2 is not one of the run's 2 targets"},
	{"target without targets",
	 HEAD "\"phases\": [{\"steps\": [{\"streams\": [{\"target\": 1}]}]}]}",
	 "\"target\" 1 is not one of the run's 1 target"},
	{"targets after the phases",
	 HEAD "\"phases\": [{\"steps\": [{\"streams\": [{\"target\": 1}]}]}], "
	      "\"targets\": [{\"path\": \"/a\"}, {\"path\": \"/b\"}]}",
	 NULL},
	{"targets not an array", HEAD "\"targets\": {\"path\": \"/a\"}, \"phases\": []}",
	 "\"targets\" should be an array"},
	{"targets of strings", HEAD "\"targets\": [\"/a\"], \"phases\": []}",
	 "targets[0] should be an object"},
	{"targets empty", HEAD "\"targets\": [], \"phases\": []}",
	 "\"targets\" has 0 records (1 to 16)"},
	{"streams not an array", HEAD "\"phases\": [{\"steps\": [{\"streams\": {}}]}]}",
	 "\"streams\" should be an array"},
	{"a stream not an object", HEAD "\"phases\": [{\"steps\": [{\"streams\": [1]}]}]}",
	 "phases[0].steps[0].streams[0]: should be an object"},
	{"null streams", HEAD "\"phases\": [{\"steps\": [{\"streams\": null}]}]}", NULL},
};

START_TEST(load_refused)
{
	struct result r;
	char err[512] = "";
	const char *path = write_text("bad.json", files[_i].text);
	int rc = result_load(&r, path, err, sizeof(err));

	if (!files[_i].expect) {
		ck_assert_msg(rc == 0, "%s: %s", files[_i].name, err);
		result_free(&r);
		return;
	}
	ck_assert_msg(rc == -EINVAL, "%s: loaded (%d)", files[_i].name, rc);
	ck_assert_msg(strstr(err, files[_i].expect), "%s: %s", files[_i].name, err);
}
END_TEST

/* A phase of nsteps steps, the first with nstreams empty streams. */
static char *many(unsigned nsteps, unsigned nstreams)
{
	size_t cap = 64 + nsteps * 4 + nstreams * 4 + 64, n = 0;
	char *t = malloc(cap);

	ck_assert_ptr_nonnull(t);
	n += (size_t)snprintf(t + n, cap - n, HEAD "\"phases\": [{\"steps\": [{\"streams\": [");
	for (unsigned k = 0; k < nstreams; k++)
		n += (size_t)snprintf(t + n, cap - n, "%s{}", k ? "," : "");
	n += (size_t)snprintf(t + n, cap - n, "]}");
	for (unsigned s = 1; s < nsteps; s++)
		n += (size_t)snprintf(t + n, cap - n, ",{}");
	snprintf(t + n, cap - n, "]}]}");
	return t;
}

START_TEST(limits)
{
	struct result r;
	char err[512] = "";
	char *t;

	/* ENGINE_MAX_STREAMS streams load, one more does not */
	t = many(1, ENGINE_MAX_STREAMS);
	ck_assert_msg(result_load(&r, write_text("16.json", t), err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.phases[0].steps[0].nstreams, ENGINE_MAX_STREAMS);
	result_free(&r);
	free(t);
	t = many(1, ENGINE_MAX_STREAMS + 1);
	ck_assert_int_eq(result_load(&r, write_text("17.json", t), err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "streams[16]: more than 16 streams in a step (the limit)"), "%s",
		      err);
	free(t);
	/* streams count against the steps' limit */
	t = many(RESULT_MAX_STEPS - ENGINE_MAX_STREAMS, ENGINE_MAX_STREAMS);
	ck_assert_msg(result_load(&r, write_text("max.json", t), err, sizeof(err)) == 0, "%s",
		      err);
	result_free(&r);
	free(t);
	t = many(RESULT_MAX_STEPS - ENGINE_MAX_STREAMS + 1, ENGINE_MAX_STREAMS);
	ck_assert_int_eq(result_load(&r, write_text("over.json", t), err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "more than 10000 steps (the limit), streams counted"), "%s",
		      err);
	free(t);
}
END_TEST

/* ---- reports ---------------------------------------------------------------------- */

static const struct report_opts no_specs = {.no_specs = true};

static char *render(const struct report *rep, enum report_format f)
{
	char *text = NULL;
	size_t len = 0;

	ck_assert_int_eq(report_render(rep, f, &text, &len), 0);
	return text;
}

/* The row named name, or -1. */
static int row_of(const struct report *rep, const char *name)
{
	for (unsigned r = 0; r < rep->nrows; r++)
		if (!strcmp(rep->rows[r].name, name))
			return (int)r;
	return -1;
}

/* Two runs of the same step with streams (the second's in the other order) pair them. */
START_TEST(compare_pairs_streams)
{
	struct result a, b;
	const struct result *runs[2] = {&a, &b};
	struct report rep;
	char err[256];

	build(&a, 2, 1, false);
	build(&b, 1, 2, true);
	ck_assert_int_eq(report_build(&rep, runs, 2, &no_specs, err, sizeof(err)), 0);
	int step = row_of(&rep, "4T8Q"), rd = row_of(&rep, "4T8Q / reader"),
	    wr = row_of(&rep, "4T8Q / writer");
	ck_assert(step >= 0 && rd > step && wr > rd);
	ck_assert_str_eq(rep.rows[rd].stream, "reader");
	ck_assert_ptr_null(rep.rows[step].stream);
	ck_assert_ptr_eq(rep.rows[rd].steps[0], &a.phases[0].steps[0].streams[0]);
	ck_assert_ptr_eq(rep.rows[rd].steps[1], &b.phases[0].steps[0].streams[1]);
	ck_assert(report_cell(&rep, (unsigned)rd, 0, RM_IOPS).value == 21000);
	ck_assert(report_cell(&rep, (unsigned)rd, 1, RM_IOPS).value == 42000);
	ck_assert(report_cell(&rep, (unsigned)wr, 1, RM_IOPS).value == 18000);
	ck_assert(report_cell(&rep, (unsigned)wr, 0, RM_LAT_AVG).value ==
		  a.phases[0].steps[0].streams[1].summary.d[DIR_ALL].mean_ns / 1e6);
	ck_assert(report_cell(&rep, (unsigned)wr, 0, RM_IOPS).warned);
	/* the run on two targets says so in its label (columns and legends) */
	ck_assert_ptr_nonnull(strstr(rep.runs[0].label, ", 2 targets"));
	ck_assert_ptr_null(strstr(rep.runs[1].label, "targets"));
	/* the group of the step is still one step: its charts draw the step alone */
	ck_assert(report_group_single(&rep, rep.rows[step].group));

	static const struct {
		enum report_format f;
		const char *row, *value;
	} want[] = {
		{RF_TEXT, "4T8Q / reader", "21,000"},	{RF_TEXT, "4T8Q / writer", "18,000"},
		{RF_MD, "4T8Q / reader", "42,000"},	{RF_CSV, "4T8Q / writer,all", ",9000,"},
		{RF_JSON, "\"stream\": \"writer\"", "18000"}, {RF_HTML, "<th>4T8Q / reader</th>",
							      "<td>42,000"},
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *text = render(&rep, want[i].f);
		char *at = strstr(text, want[i].row);
		ck_assert_msg(at, "%s: no %s", report_format_name[want[i].f], want[i].row);
		ck_assert_msg(strstr(at, want[i].value), "%s: no %s after %s",
			      report_format_name[want[i].f], want[i].value, want[i].row);
		free(text);
	}
	char *text = render(&rep, RF_TEXT);
	ck_assert_ptr_nonnull(strstr(text, ", 2 targets"));
	free(text);
	/* the HTML runs table names every target */
	text = render(&rep, RF_HTML);
	ck_assert_ptr_nonnull(strstr(text, "<td>/tmp/a.img, /tmp/b.img</td>"));
	free(text);
	report_free(&rep);
	result_free(&a);
	result_free(&b);
}
END_TEST

/* A stream only one run has is noted, not compared. */
START_TEST(compare_unshared_stream)
{
	struct result a, b;
	const struct result *runs[2] = {&a, &b};
	struct report rep;
	char err[256];

	build(&a, 1, 1, false);
	build(&b, 1, 1, false);
	snprintf(b.phases[0].steps[0].streams[1].label, 64, "other");
	ck_assert_int_eq(report_build(&rep, runs, 2, &no_specs, err, sizeof(err)), 0);
	ck_assert_int_ge(row_of(&rep, "4T8Q / reader"), 0);
	ck_assert_int_lt(row_of(&rep, "4T8Q / writer"), 0);
	bool noted = false;
	for (unsigned i = 0; i < rep.nnotes; i++)
		noted |= strstr(rep.notes[i], "stream \"writer\" is not in every run") != NULL;
	ck_assert(noted);
	report_free(&rep);
	result_free(&a);
	result_free(&b);
}
END_TEST

START_TEST(show_streams)
{
	struct result a;
	char *text = NULL;
	size_t len = 0;

	build(&a, 2, 1, false);
	ck_assert_int_eq(report_show(&a, &text, &len), 0);
	ck_assert_msg(strstr(text, "Targets  2: /tmp/a.img (file), /tmp/b.img (file)\n"), "%s",
		      text);
	const char *step = strstr(text, "\n  4T8Q "), *rd = strstr(text, "\n  4T8Q / reader ");
	const char *wr = strstr(text, "\n  4T8Q / writer ");
	ck_assert_msg(step && rd > step && wr > rd, "%s", text);
	/* every metric of the stream: IOPS, MB/s, then the latencies */
	ck_assert_ptr_nonnull(strstr(rd, " 21,000 "));
	const char *eol = strchr(wr + 1, '\n');
	ck_assert_ptr_nonnull(eol);
	ck_assert_msg(memmem(wr, (size_t)(eol - wr), "9,000", 5), "%.*s", (int)(eol - wr), wr);
	ck_assert_msg(memmem(wr, (size_t)(eol - wr), "36.9", 4), "%.*s", (int)(eol - wr), wr);
	ck_assert_ptr_nonnull(strstr(text, "! 4T8Q / writer: threads-idle: 1 of 3 idle"));
	free(text);
	result_free(&a);

	/* one target: the Target line as before */
	build(&a, 1, 1, false);
	ck_assert_int_eq(report_show(&a, &text, &len), 0);
	ck_assert_ptr_nonnull(strstr(text, "Target   /tmp/a.img (file)\n"));
	ck_assert_ptr_null(strstr(text, "Targets"));
	free(text);
	result_free(&a);
}
END_TEST

START_TEST(samples_streams)
{
	struct result a;

	build(&a, 1, 1, false);
	char *text = written(&a, report_samples_csv);
	unsigned lines = 0, rd = 0, wr = 0;
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	for (const char *p = text; (p = strstr(p, "measure,4T8Q / reader,")); p++)
		rd++;
	for (const char *p = text; (p = strstr(p, "measure,4T8Q / writer,")); p++)
		wr++;
	ck_assert_uint_eq(lines, 1 + 3 * 3); /* the heading, the step's 3, each stream's 3 */
	ck_assert_uint_eq(rd, 3);
	ck_assert_uint_eq(wr, 3);
	/* the writer's second interval: 9001 IOPS, 3 s into the phase (after the 2 s ramp) */
	ck_assert_ptr_nonnull(strstr(text, "measure,4T8Q / writer,1,3,1,9001,"));
	free(text);
	result_free(&a);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("streams");
	TCase *tc = tcase_create("streams");

	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, round_trip, 0, 2);
	tcase_add_test(tc, format_as_written);
	tcase_add_loop_test(tc, load_refused, 0, (int)(sizeof(files) / sizeof(files[0])));
	tcase_add_test(tc, limits);
	tcase_add_test(tc, compare_pairs_streams);
	tcase_add_test(tc, compare_unshared_stream);
	tcase_add_test(tc, show_streams);
	tcase_add_test(tc, samples_streams);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
