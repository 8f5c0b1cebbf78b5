// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparison reports: step matching, run labels, cells and tables, spec sheets, and the
 * shape of every renderer's output, on synthetic results built here.
 */
#include "testlib.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "hist.h"
#include "report.h"
#include "result.h"
#include "result_io.h"
#include "specs.h"
#include "text.h"

#include "rundir.h"

static void fill(struct dir_stats *d, double iops, double avg_ms)
{
	memset(d, 0, sizeof(*d));
	d->ios = (uint64_t)(iops * 10);
	d->bytes = d->ios * 8192;
	d->iops = iops;
	d->mbps = iops * 8192 / 1e6;
	d->mean_ns = avg_ms * 1e6;
	d->std_ns = avg_ms * 0.4e6;
	d->max_ns = (uint64_t)(avg_ms * 7e6);
	for (unsigned i = 0; i < NPCT; i++)
		d->pct_ns[i] = (uint64_t)(avg_ms * 1e6 * (1 + i));
}

static void set_summary(struct result_step *s, double iops)
{
	double eq = s->wl.threads * s->wl.qdepth, avg = eq / iops * 1000;
	unsigned r = s->wl.read_pct;

	s->status = RS_COMPLETE;
	s->summary.dur_ns = 10000000000ull;
	fill(&s->summary.d[DIR_ALL], iops, avg);
	fill(&s->summary.d[DIR_READ], iops * r / 100, avg * 0.8);
	fill(&s->summary.d[DIR_WRITE], iops * (100 - r) / 100, avg * 1.4);
}

static void new_run(struct result *r, const char *model, const char *fw, const char *preset)
{
	char target[512];

	result_init(r);
	r->status = RS_COMPLETE;
	snprintf(r->started, sizeof(r->started), "2026-11-30T13:00:00Z");
	snprintf(r->preset_name, sizeof(r->preset_name), "%s", preset);
	if (model)
		snprintf(target, sizeof(target),
			 "{\"path\": \"/dev/sdx\", \"size\": 200049647616, \"drive\": {\"model\": "
			 "\"%s\", \"firmware\": \"%s\", \"capacity_bytes\": 200049647616}}",
			 model, fw);
	else
		snprintf(target, sizeof(target), "{\"path\": \"/tmp/scratch.img\", \"size\": 1}");
	r->target = json_tokener_parse(target);
	r->host = json_object_new_object();
	ck_assert_int_eq(result_summarize(r), 0);
}

/* The 8K 70/30 ladder, skipping step `skip` (-1: none), with a 3-round precondition. */
static void ladder(struct result *r, double peak, int skip)
{
	struct workload wl;
	struct result_phase *pre = result_add_phase(r, "precondition", PH_PRECONDITION);

	workload_defaults(&wl);
	wl.bs = 8192;
	wl.read_pct = 70;
	wl.threads = wl.qdepth = 16;
	pre->status = RS_COMPLETE;
	for (unsigned i = 0; i < 3; i++) {
		struct result_step *s = result_add_step(pre, "round", &wl);
		set_summary(s, peak * (1.5 - 0.2 * i));
		for (unsigned k = 0; k < 4; k++) {
			struct sample sm = {
				.index = k, .start_ns = k * 2500000000ull, .dur_ns = 2500000000ull};
			fill(&sm.d[DIR_ALL], peak * (1.5 - 0.05 * (4 * i + k)), 12);
			ck_assert_int_eq(result_step_add_sample(s, &sm), 0);
		}
	}
	struct result_phase *m = result_add_phase(r, "measure", PH_MEASURE);
	m->status = RS_COMPLETE;
	for (unsigned i = 0; i < 16; i++) {
		if ((int)i == skip)
			continue;
		wl.threads = 2u << (i / 4);
		wl.qdepth = 2u << (i % 4);
		char label[32];
		snprintf(label, sizeof(label), "%uT%uQ", wl.threads, wl.qdepth);
		struct result_step *s = result_add_step(m, label, &wl);
		set_summary(s, peak * (1 - exp(-(double)(wl.threads * wl.qdepth) / 24.0)));
	}
}

/* The 4K random preset's measure phase: 16T16Q read, then write. */
static void four_k(struct result *r, double read_iops, double write_iops)
{
	struct workload wl;
	struct result_phase *m = result_add_phase(r, "measure", PH_MEASURE);

	workload_defaults(&wl);
	wl.threads = wl.qdepth = 16;
	wl.read_pct = 100;
	set_summary(result_add_step(m, "read", &wl), read_iops);
	wl.read_pct = 0;
	set_summary(result_add_step(m, "write", &wl), write_iops);
	wl.threads = wl.qdepth = 1;
	wl.read_pct = 100;
	set_summary(result_add_step(m, "read qd1", &wl), 2000); /* 0.5 ms */
}

static const struct report_opts no_specs = {.no_specs = true};

static int build(struct report *rep, struct result *runs, unsigned n, const struct report_opts *o)
{
	const struct result *ptrs[32];
	char err[512] = "";

	for (unsigned i = 0; i < n; i++)
		ptrs[i] = &runs[i];
	int rc = report_build(rep, ptrs, n, o ? o : &no_specs, err, sizeof(err));
	ck_assert_msg(rc == 0, "report_build: %s", err);
	return rc;
}

static bool has_note(const struct report *rep, const char *needle)
{
	for (unsigned i = 0; i < rep->nnotes; i++)
		if (strstr(rep->notes[i], needle))
			return true;
	return false;
}

START_TEST(two_runs_share_the_ladder)
{
	struct result runs[2];
	struct report rep;

	new_run(&runs[0], "Micron P400m", "0200", "8K 70/30");
	ladder(&runs[0], 21000, -1);
	new_run(&runs[1], "INTEL SSDSC2BA200G3", "5DV1", "8K 70/30");
	ladder(&runs[1], 33000, -1);
	build(&rep, runs, 2, NULL);
	ck_assert_uint_eq(rep.ngroups, 1);
	ck_assert_str_eq(rep.groups[0].title, "8k 70/30 random");
	ck_assert_uint_eq(rep.nrows, 16 * 3); /* mixed: combined, read, write */
	ck_assert_str_eq(rep.rows[0].name, "2T2Q");
	ck_assert_str_eq(rep.rows[1].name, "2T2Q read");
	ck_assert_str_eq(rep.rows[2].name, "2T2Q write");
	ck_assert_str_eq(rep.rows[47].name, "16T16Q write");
	ck_assert_str_eq(rep.runs[0].label, "Micron P400m 200GB");
	ck_assert_str_eq(rep.runs[1].label, "INTEL SSDSC2BA200G3 200GB");
	ck_assert_uint_eq(rep.nnotes, 0);

	/* cells carry the step's numbers in the metric's unit */
	const struct result_step *last = &runs[1].phases[1].steps[15];
	struct report_cell c = report_cell(&rep, 45, 1, RM_IOPS);
	ck_assert(c.present && c.value == last->summary.d[DIR_ALL].iops);
	c = report_cell(&rep, 45, 1, RM_LAT_AVG);
	ck_assert(fabs(c.value - last->summary.d[DIR_ALL].mean_ns / 1e6) < 1e-9);
	c = report_cell(&rep, 46, 1, RM_LAT_MAX);
	ck_assert(fabs(c.value - (double)last->summary.d[DIR_READ].max_ns / 1e6) < 1e-9);
	c = report_cell(&rep, 47, 1, RM_P9999);
	ck_assert(fabs(c.value - (double)last->summary.d[DIR_WRITE].pct_ns[PCT_9999] / 1e6) < 1e-9);
	/* a percentile of 0 with I/Os is not known (fio's plain json): no cell, not 0.00 */
	runs[1].phases[1].steps[15].summary.d[DIR_WRITE].pct_ns[PCT_9999] = 0;
	ck_assert(!report_cell(&rep, 47, 1, RM_P9999).present);
	ck_assert(report_cell(&rep, 47, 1, RM_P99).present);
	ck_assert(report_cell(&rep, 47, 1, RM_LAT_AVG).present);

	struct report_table t;
	ck_assert_int_eq(report_table(&rep, RM_MBPS, 0, &t), 0);
	ck_assert_uint_eq(t.nrows, 48);
	ck_assert_uint_eq(t.ncols, 2);
	ck_assert_str_eq(t.title, "Bandwidth (MB/s), 8k 70/30 random");
	ck_assert_str_eq(t.col_names[1], "INTEL SSDSC2BA200G3 200GB");
	ck_assert_str_eq(t.row_names[3], "2T4Q");
	ck_assert(t.cells[3 * 2 + 1].value == runs[1].phases[1].steps[1].summary.d[DIR_ALL].mbps);
	report_table_free(&t);
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

START_TEST(three_runs_missing_step)
{
	struct result runs[3];
	struct report rep;

	new_run(&runs[0], "A", "1", "8K 70/30");
	ladder(&runs[0], 20000, -1);
	new_run(&runs[1], "B", "1", "8K 70/30");
	ladder(&runs[1], 30000, 5); /* no 4T4Q */
	new_run(&runs[2], "C", "1", "8K 70/30");
	ladder(&runs[2], 10000, -1);
	runs[2].status = RS_ABORTED;
	build(&rep, runs, 3, NULL);
	ck_assert_uint_eq(rep.nrows, 15 * 3);
	for (unsigned i = 0; i < rep.nrows; i++)
		ck_assert_str_ne(rep.rows[i].name, "4T4Q");
	ck_assert_uint_eq(rep.runs[0].nunshared, 1);
	ck_assert_uint_eq(rep.runs[1].nunshared, 0);
	ck_assert_uint_eq(rep.runs[2].nunshared, 1);
	ck_assert(has_note(&rep, "A 200GB: 1 measured step not in every run, not compared: 8k "
				 "70/30 random 4T4Q"));
	ck_assert(has_note(&rep, "C 200GB: the run is aborted"));
	/* every row points at steps with the same parameters in every run */
	for (unsigned i = 0; i < rep.nrows; i++)
		for (unsigned r = 1; r < 3; r++) {
			ck_assert_uint_eq(rep.rows[i].steps[r]->wl.threads,
					  rep.rows[i].steps[0]->wl.threads);
			ck_assert_uint_eq(rep.rows[i].steps[r]->wl.qdepth,
					  rep.rows[i].steps[0]->wl.qdepth);
		}
	report_free(&rep);
	for (unsigned i = 0; i < 3; i++)
		result_free(&runs[i]);
}
END_TEST

START_TEST(different_presets)
{
	struct result runs[2];
	struct report rep;

	new_run(&runs[0], "A", "1", "8K 70/30");
	ladder(&runs[0], 20000, -1);
	new_run(&runs[1], "B", "1", "4K random");
	four_k(&runs[1], 50000, 20000);
	build(&rep, runs, 2, NULL);
	ck_assert_uint_eq(rep.nrows, 0);
	ck_assert(has_note(&rep, "The runs used different presets (A 200GB ran \"8K 70/30\"; B "
				 "200GB ran \"4K random\")"));
	ck_assert(has_note(&rep, "share no measured steps"));
	ck_assert(has_note(&rep, "B 200GB: 3 measured steps not in every run"));
	/* every renderer copes with nothing to compare */
	for (unsigned f = 0; f < RF_COUNT; f++) {
		char *buf;
		size_t len;
		ck_assert_int_eq(report_render(&rep, (enum report_format)f, &buf, &len), 0);
		ck_assert_uint_gt(len, 0);
		free(buf);
	}
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

/* A run that measures the same step twice: the n-th matches the n-th. */
START_TEST(repeated_steps_pair_in_order)
{
	struct result runs[2];
	struct report rep;

	for (unsigned i = 0; i < 2; i++) {
		new_run(&runs[i], i ? "B" : "A", "1", "4K random");
		four_k(&runs[i], 1000 * (i + 1), 500);
		four_k(&runs[i], 3000 * (i + 1), 700);
	}
	build(&rep, runs, 2, NULL);
	ck_assert_uint_eq(rep.nrows, 6);
	ck_assert_str_eq(rep.rows[0].name, "16T16Q");
	/* grouped: the 4k reads (16T16Q, 1T1Q, then the repeats), then the 4k writes */
	ck_assert_str_eq(rep.rows[1].name, "1T1Q");
	ck_assert_str_eq(rep.rows[2].name, "16T16Q #2");
	ck_assert_str_eq(rep.rows[5].name, "16T16Q #2");
	ck_assert(report_cell(&rep, 2, 1, RM_IOPS).value == 6000);
	ck_assert(report_cell(&rep, 0, 1, RM_IOPS).value == 2000);
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

static const struct {
	const char *model[3];
	const char *fw[3];
	const char *want[3];
	const char *label[3]; /* --label; NULL: none */
} label_cases[] = {
	{{"X1", "X1", "Y"}, {"1", "2", "1"}, {"X1 200GB FW 1", "X1 200GB FW 2", "Y 200GB"}},
	{{"X1", "X1", NULL},
	 {"1", "1", ""},
	 {"X1 200GB FW 1 (1)", "X1 200GB FW 1 (2)", "/tmp/scratch.img"}},
	{{NULL, NULL, "Z"},
	 {"", "", "9"},
	 {"/tmp/scratch.img (1)", "/tmp/scratch.img (2)", "Z 200GB"}},
	/* labelled: a firmware retest shows the firmware, one firmware twice does not */
	{{"X1", "X1", "Y"},
	 {"1", "2", "1"},
	 {"before FW 1", "after FW 2", "Y 200GB"},
	 {"before", "after", NULL}},
	{{"X1", "X1", "Y"}, {"1", "1", "1"}, {"run a", "run b", "rival"}, {"run a", "run b", "rival"}},
	{{"X1", "X1", NULL}, {"1", "1", ""}, {"same (1)", "same (2)", "file"}, {"same", "same", "file"}},
};

START_TEST(labels)
{
	struct result runs[3];
	struct report rep;

	for (unsigned i = 0; i < 3; i++) {
		new_run(&runs[i], label_cases[_i].model[i], label_cases[_i].fw[i], "4K random");
		four_k(&runs[i], 1000, 500);
		if (label_cases[_i].label[i])
			snprintf(runs[i].label, sizeof(runs[i].label), "%s", label_cases[_i].label[i]);
	}
	build(&rep, runs, 3, NULL);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_str_eq(rep.runs[i].label, label_cases[_i].want[i]);
	report_free(&rep);
	for (unsigned i = 0; i < 3; i++)
		result_free(&runs[i]);
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(spec_ratings)
{
	struct result runs[2];
	struct report rep;
	struct report_opts o = {.spec_dir = tmpdir};
	char path[512], buf[160];

	snprintf(path, sizeof(path), "%s/p400m.spec", tmpdir);
	write_file(path,
		   "# rated\nname = Micron P400m 200GB\nmodel = MTFDDAK200MAN*\n"
		   "rand_read_iops = 54000\nrand_write_iops = 26000\nread_latency = 0.51ms\n");
	new_run(&runs[0], "MTFDDAK200MAN-1S1AA", "0200", "4K random");
	four_k(&runs[0], 58550, 26984);
	new_run(&runs[1], "Other", "1", "4K random");
	four_k(&runs[1], 70000, 30000);
	build(&rep, runs, 2, &o);
	ck_assert_ptr_nonnull(rep.runs[0].spec);
	ck_assert_ptr_null(rep.runs[1].spec);
	ck_assert(has_note(&rep, "rated figures from the spec sheet for Micron P400m 200GB"));

	struct report_cell c = report_cell(&rep, 0, 0, RM_IOPS);
	ck_assert(c.rated == 54000);
	ck_assert(fabs(c.pct_of_rated - 58550.0 / 540) < 1e-9);
	ck_assert_str_eq(report_fmt_rating(buf, sizeof(buf), RM_IOPS, &c),
			 "58,550 IOPS against a rated 54,000 (108%)");
	ck_assert(report_cell(&rep, 2, 0, RM_IOPS).rated == 26000); /* the write group */
	ck_assert(report_cell(&rep, 0, 1, RM_IOPS).rated == 0);	    /* no sheet for it */
	ck_assert(report_cell(&rep, 0, 0, RM_MBPS).rated == 0);	    /* not rated */
	ck_assert(report_cell(&rep, 0, 0, RM_LAT_AVG).rated == 0);  /* 16T16Q: not a QD1 figure */
	c = report_cell(&rep, 1, 0, RM_LAT_AVG);		    /* 1T1Q read */
	ck_assert(fabs(c.rated - 0.51) < 1e-12);
	ck_assert(fabs(c.pct_of_rated - 0.5 / 0.51 * 100) < 1e-9);

	char *text;
	size_t len;
	ck_assert_int_eq(report_render(&rep, RF_TEXT, &text, &len), 0);
	ck_assert_ptr_nonnull(strstr(text, "58,550 (108%)"));
	ck_assert_ptr_nonnull(strstr(text, "16T16Q: 58,550 IOPS against a rated 54,000 (108%)"));
	free(text);
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

static const struct {
	const char *text;
	const char *want;
} bad_specs[] = {
	{"model = X\nfrobs = 3\n", ":2: unknown key 'frobs'"},
	{"model = X\n\nrand_read_iops = lots\n", ":3: rand_read_iops: bad value 'lots'"},
	{"model = X\nread_latency = -1ms\n", ":2: read_latency: bad value '-1ms'"},
	{"model = X\nseq_bs = 4q\n", ":2: seq_bs: bad value '4q'"},
	{"name = no model\n", ": no 'model' key"},
	{"model X\n", ":1: expected key = value"},
};

START_TEST(spec_errors)
{
	char path[512], err[512] = "";
	struct spec_sheet s;

	snprintf(path, sizeof(path), "%s/bad.spec", tmpdir);
	write_file(path, bad_specs[_i].text);
	ck_assert_int_eq(spec_parse_file(path, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, bad_specs[_i].want),
		      "got '%s', want '%s'", err, bad_specs[_i].want);
}
END_TEST

START_TEST(shipped_spec_parses)
{
	struct spec_list l = {0};
	char err[512] = "";

	ck_assert_msg(spec_load_dir(&l, DB_SRCDIR "/specs", err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_ge(l.n, 1);
	const struct spec_sheet *s = spec_find(&l, "MTFDDAK200MAN-1S1AA");
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "Micron P400m 200GB");
	ck_assert(s->rated[SPEC_RAND_READ_IOPS] == 54000);
	ck_assert(s->rated[SPEC_RAND_WRITE_IOPS] == 26000);
	ck_assert(s->rated[SPEC_SEQ_READ_MBPS] == 380);
	ck_assert(s->rated[SPEC_WRITE_LAT] == 2e6);
	ck_assert_ptr_null(spec_find(&l, "Samsung SSD 840 PRO"));
	spec_list_free(&l);
}
END_TEST

static const struct {
	enum report_metric m;
	double v;
	const char *want;
} values[] = {
	{RM_IOPS, 58550, "58,550"},
	{RM_IOPS, 950.4, "950"},
	{RM_IOPS, 1234567, "1,234,567"},
	{RM_MBPS, 380.24, "380.2"},
	{RM_LAT_AVG, 12.071, "12.07"},
	{RM_LAT_AVG, 0.31, "0.310"},
	{RM_LAT_AVG, 0.0194, "0.0194"},
	{RM_LAT_MAX, 1500, "1,500"},
	{RM_LAT_STD, 0, "0.00"},
	/* past what grouping can hold: scientific, not "1,000,000,000,000,000,010,979,0" */
	{RM_IOPS, 999999999999999, "999,999,999,999,999"},
	{RM_IOPS, 1.000000000000000010979e24, "1e+24"},
	{RM_IOPS, 1e300, "1e+300"},
	{RM_MBPS, 1e300, "1e+300"},
	{RM_LAT_MAX, 1e30, "1e+30"},
	{RM_IOPS, INFINITY, "-"},
	{RM_LAT_AVG, NAN, "-"},
};

START_TEST(format_values)
{
	char buf[64];
	ck_assert_str_eq(report_fmt_value(buf, sizeof(buf), values[_i].m, values[_i].v),
			 values[_i].want);
}
END_TEST

START_TEST(parse_names)
{
	enum report_metric m;
	enum report_format f;

	for (unsigned i = 0; i < RM_COUNT; i++) {
		ck_assert_int_eq(report_metric_parse(report_metric_info[i].name, &m), 0);
		ck_assert_int_eq(m, (int)i);
	}
	ck_assert_int_eq(report_metric_parse("stddev", &m), 0);
	ck_assert_int_eq(m, RM_LAT_STD);
	ck_assert_int_eq(report_metric_parse("speed", &m), -EINVAL);
	for (unsigned i = 0; i < RF_COUNT; i++) {
		ck_assert_int_eq(report_format_parse(report_format_name[i], &f), 0);
		ck_assert_int_eq(f, (int)i);
	}
	ck_assert_int_eq(report_format_parse("pdf", &f), -EINVAL);
}
END_TEST

/* The metrics a comparison shows by default when no run has the drive's counters. */
#define NIO ((unsigned)__builtin_popcount(REPORT_IO_METRICS))

static unsigned count(const char *s, const char *needle)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The drive's own counters per step: shown by default only when a run has them, in GB and
 * degrees, a run without them as "-", and never as a precondition curve. */
START_TEST(drive_metrics)
{
	struct result runs[2];
	struct report rep;
	char *out;
	size_t len;

	new_run(&runs[0], "Drive A", "1", "4K");
	four_k(&runs[0], 1000, 500);
	new_run(&runs[1], "Drive B", "1", "4K");
	four_k(&runs[1], 2000, 700);
	build(&rep, runs, 2, NULL);
	ck_assert_uint_eq(rep.metric_mask, REPORT_IO_METRICS);
	report_free(&rep);

	struct result_step *w = &runs[0].phases[0].steps[1];
	w->drive = (struct step_drive){.has_written = true, .written_bytes = 3072000000ull,
				       .has_temp = true, .temp_max_c = 71};
	build(&rep, runs, 2, NULL);
	ck_assert_uint_eq(rep.metric_mask, REPORT_IO_METRICS | REPORT_DRIVE_METRICS);
	unsigned row = 0;
	while (row < rep.nrows && rep.rows[row].steps[0] != w)
		row++;
	ck_assert_uint_lt(row, rep.nrows);
	struct report_cell c = report_cell(&rep, row, 0, RM_HOST_WRITTEN);
	ck_assert(c.present);
	ck_assert_double_eq_tol(c.value, 3.072, 1e-9);
	c = report_cell(&rep, row, 0, RM_TEMP_MAX);
	ck_assert(c.present);
	ck_assert_double_eq(c.value, 71);
	ck_assert(!report_cell(&rep, row, 1, RM_TEMP_MAX).present);
	ck_assert(!report_cell(&rep, 0, 0, RM_TEMP_MAX).present || rep.rows[0].steps[0] == w);

	ck_assert_int_eq(report_render(&rep, RF_TEXT, &out, &len), 0);
	ck_assert_ptr_nonnull(strstr(out, "Maximum temperature (drive) (C)"));
	ck_assert_ptr_nonnull(strstr(out, "Host data written (drive) (GB)"));
	free(out);
	ck_assert_int_eq(report_render(&rep, RF_CSV, &out, &len), 0);
	ck_assert_ptr_nonnull(strstr(out, "host_written_GB"));
	ck_assert_ptr_nonnull(strstr(out, ",3.072"));
	free(out);
	report_free(&rep);

	/* asked for by name, they are shown even when no run has them */
	w->drive = (struct step_drive){0};
	struct report_opts o = {.metric_mask = 1u << RM_TEMP_MAX};
	build(&rep, runs, 2, &o);
	ck_assert_uint_eq(rep.metric_mask, 1u << RM_TEMP_MAX);
	ck_assert(!report_cell(&rep, row, 0, RM_TEMP_MAX).present);
	report_free(&rep);
	for (unsigned i = 0; i < 2; i++)
		result_free(&runs[i]);
}
END_TEST

/* Three runs x 16 mixed steps: every renderer's output has the shape it promises. */
START_TEST(renderer_shapes)
{
	struct result runs[3];
	struct report rep;
	char *out;
	size_t len;

	for (unsigned i = 0; i < 3; i++) {
		char model[16];
		snprintf(model, sizeof(model), "Drive %c", 'A' + i);
		new_run(&runs[i], model, "1", "8K 70/30");
		ladder(&runs[i], 10000 * (i + 1), -1);
	}
	build(&rep, runs, 3, NULL);

	/* CSV: a header and one line per row and run, every line with the header's fields */
	ck_assert_int_eq(report_render(&rep, RF_CSV, &out, &len), 0);
	unsigned lines = 0, header_fields = 0;
	for (char *line = out, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		ck_assert_ptr_nonnull(nl);
		unsigned fields = 1;
		for (char *p = line; p < nl; p++)
			fields += *p == ',';
		if (!lines)
			header_fields = fields;
		ck_assert_uint_eq(fields, header_fields);
		lines++;
	}
	ck_assert_uint_eq(lines, 1 + rep.nrows * 3);
	ck_assert_uint_eq(header_fields, 16 + NIO + 9); /* ..., not_comparable, warnings */
	ck_assert_ptr_nonnull(strstr(out, "avg_latency_ms"));
	free(out);

	/* Markdown: one pipe table per metric, each row as many cells as its header */
	ck_assert_int_eq(report_render(&rep, RF_MD, &out, &len), 0);
	ck_assert_uint_eq(count(out, "\n## Throughput (IOPS), 8k 70/30 random\n"), 1);
	ck_assert_uint_eq(count(out, "| --- | ---: | ---: | ---: |\n"), NIO);
	free(out);

	/* JSON: valid, versioned, one value per run for each metric of each row */
	ck_assert_int_eq(report_render(&rep, RF_JSON, &out, &len), 0);
	struct json_object *o = json_tokener_parse(out), *v, *rows;
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_object_get_ex(o, "format", &v));
	ck_assert_str_eq(json_object_get_string(v), REPORT_FORMAT);
	ck_assert(json_object_object_get_ex(o, "rows", &rows));
	ck_assert_uint_eq(json_object_array_length(rows), rep.nrows);
	struct json_object *vals, *iops;
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(rows, 0), "values", &vals));
	ck_assert(json_object_object_get_ex(vals, "iops", &iops));
	ck_assert_uint_eq(json_object_array_length(iops), 3);
	json_object_put(o);
	free(out);

	/* HTML: a precondition chart and a ladder chart per metric, one series per drive */
	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_uint_eq(count(out, "<svg "), 2 * NIO);
	ck_assert_uint_eq(count(out, "<g class=\"series\""), 3 * 2 * NIO);
	ck_assert_ptr_null(strstr(out, "<script"));
	ck_assert_ptr_null(strstr(out, "http://www.w3.org/2000/svg\" href")); /* nothing fetched */
	ck_assert_ptr_null(strstr(out, "src="));
	free(out);

	/* --metric: one metric, one table */
	report_free(&rep);
	struct report_opts o1 = {.no_specs = true, .metric_mask = 1u << RM_LAT_MAX};
	build(&rep, runs, 3, &o1);
	ck_assert_int_eq(report_render(&rep, RF_TEXT, &out, &len), 0);
	ck_assert_uint_eq(count(out, "\nMax latency (ms), 8k 70/30 random\n"), 1);
	ck_assert_ptr_null(strstr(out, "Throughput"));
	free(out);
	report_free(&rep);
	for (unsigned i = 0; i < 3; i++)
		result_free(&runs[i]);
}
END_TEST

/* Rate curves and the block size x mix matrix appear when runs measure them. */
START_TEST(html_rate_curves_and_matrix)
{
	static const uint32_t sizes[] = {4096, 8192, 65536};
	static const unsigned mixes[] = {100, 65, 0};
	struct result runs[2];
	struct report rep;
	struct workload wl;
	char *out;
	size_t len;

	for (unsigned i = 0; i < 2; i++) {
		new_run(&runs[i], i ? "B" : "A", "1", "mixed bag");
		struct result_phase *m = result_add_phase(&runs[i], "measure", PH_MEASURE);
		workload_defaults(&wl);
		wl.threads = 4;
		wl.qdepth = 32;
		for (unsigned k = 1; k <= 5; k++) {
			wl.rate_iops = 10000 * k * (i + 1); /* a share of each drive's own max */
			set_summary(result_add_step(m, "rate", &wl), (double)wl.rate_iops * 0.99);
		}
		wl.rate_iops = 0;
		wl.threads = 1;
		for (unsigned b = 0; b < 3; b++)
			for (unsigned x = 0; x < 3; x++) {
				wl.bs = sizes[b];
				wl.read_pct = mixes[x];
				set_summary(result_add_step(m, "pts", &wl), 1000.0 * (b + 1) + x);
			}
	}
	build(&rep, runs, 2, NULL);
	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_ptr_nonnull(strstr(out, "<h2 id=\"rate-curves\">Rate curves</h2>"));
	ck_assert_ptr_nonnull(strstr(out, "Rate curve: 4k read random 4T32Q"));
	ck_assert_ptr_nonnull(strstr(out, "Average latency (ms)"));
	ck_assert_uint_eq(count(out, "<table class=\"data matrix\">"), 2);
	ck_assert_ptr_nonnull(strstr(out, "<th>100/0</th><th>65/35</th><th>0/100</th>"));
	ck_assert_ptr_nonnull(strstr(out, "<tr><th>64k</th><td>3,000</td><td>3,001</td>"));
	free(out);
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

/*
 * Two runs of one rate-curve preset on drives with different maxima: every step pairs
 * with the other run's step at the same share of its own maximum, in every format; the
 * HTML curve joins each run's points in step order, so a 110% step that delivered less
 * than the 100% one turns the line back.
 */
START_TEST(rate_curves_match_by_share)
{
	static const double pct[] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
	const unsigned n = sizeof(pct) / sizeof(pct[0]);
	struct result runs[2];
	struct report rep;
	struct workload wl;
	char *out;
	size_t len;

	for (unsigned i = 0; i < 2; i++) {
		double max = i ? 61234 : 40321; /* each drive's own maximum */
		new_run(&runs[i], i ? "B" : "A", "1", "vdbench four corners");
		struct result_phase *m = result_add_phase(&runs[i], "measure", PH_MEASURE);
		workload_defaults(&wl);
		wl.threads = 8;
		wl.qdepth = 16;
		for (unsigned k = 0; k < n; k++) {
			wl.rate_iops = (uint64_t)llround(max * pct[k] / 100);
			struct result_step *st = result_add_step(m, "curve", &wl);
			st->rate_pct = pct[k];
			/* past the maximum the drive falls back: 110% delivers less than 100% */
			double got = pct[k] > 100 ? max * 0.93 : (double)wl.rate_iops;
			set_summary(st, k == 0 ? max : got);
		}
	}
	build(&rep, runs, 2, NULL);
	ck_assert_uint_eq(rep.nrows, n);
	ck_assert_uint_eq(rep.nnotes, 0);
	for (unsigned k = 0; k < n; k++) {
		ck_assert_ptr_eq(rep.rows[k].steps[0], &runs[0].phases[0].steps[k]);
		ck_assert_ptr_eq(rep.rows[k].steps[1], &runs[1].phases[0].steps[k]);
	}
	ck_assert_str_eq(rep.rows[1].name, "8T16Q @ 10% of max");
	ck_assert_str_eq(rep.rows[12].name, "8T16Q @ 120% of max");
	for (enum report_format f = 0; f < RF_COUNT; f++) {
		ck_assert_int_eq(report_render(&rep, f, &out, &len), 0);
		ck_assert_ptr_null(strstr(out, "not compared"));
		free(out);
	}
	/* the curve's path: x goes up to the 100% step, then back for 110% */
	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	const char *d = strstr(out, "Rate curve: 4k read random 8T16Q");
	ck_assert_ptr_nonnull(d);
	d = strstr(d, " d=\"M");
	ck_assert_ptr_nonnull(d);
	double x[16];
	unsigned nx = 0;
	for (const char *p = d + 5; nx < 16 && *p != '"'; nx++) {
		char *end;
		x[nx] = strtod(p, &end);
		(void)strtod(end, &end); /* y */
		p = end;
		while (*p == ' ' || *p == 'L' || *p == 'M')
			p++;
	}
	ck_assert_uint_eq(nx, n - 1); /* the rate-limited steps: 10% .. 120% */
	for (unsigned k = 1; k < 10; k++)
		ck_assert(x[k] > x[k - 1]);
	ck_assert(x[10] < x[9]);
	free(out);
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

/*
 * A fixed-length precondition's verdict (steady or not at the last round, the first
 * steady round, both excursions) is in every format of a compare.
 */
START_TEST(steady_verdict_everywhere)
{
	static const char *const want[RF_COUNT] = {
		[RF_TEXT] = "fixed length: steady state at the last round, first at round 121 "
			    "(data excursion 8.5% of 20% allowed, slope excursion 2.3% of 10%)",
		[RF_MD] = "fixed length: NOT steady at the last round, though steady first at "
			  "round 240 (data excursion 24.0% of 20% allowed",
		[RF_CSV] = ",yes,121,8.5,2.3,",
		[RF_JSON] = "\"first_round\": 121",
		[RF_HTML] = "first at round 121 (data excursion 8.5%",
	};
	struct result runs[2];
	struct report rep;
	struct workload wl;
	char *out;
	size_t len;

	for (unsigned i = 0; i < 2; i++) {
		new_run(&runs[i], i ? "B" : "A", "1", "4K random");
		struct result_phase *pc =
			result_add_phase(&runs[i], "precondition", PH_PRECONDITION);
		workload_defaults(&wl);
		wl.read_pct = 0;
		set_summary(result_add_step(pc, "round 1", &wl), 1000);
		pc->status = RS_COMPLETE;
		pc->steady = (struct steady_info){
			.used = true,
			.fixed = true,
			.reached = i == 0,
			.window = 5,
			.data_limit_pct = 20,
			.slope_limit_pct = 10,
			.max_rounds = 360,
			.round = 360,
			.first_round = i ? 240 : 121,
			.data_excursion_pct = i ? 24 : 8.5,
			.slope_excursion_pct = i ? 4 : 2.3,
			.tracked = "iops",
		};
		four_k(&runs[i], 1000, 500);
	}
	build(&rep, runs, 2, NULL);
	for (enum report_format f = 0; f < RF_COUNT; f++) {
		ck_assert_int_eq(report_render(&rep, f, &out, &len), 0);
		ck_assert_msg(strstr(out, want[f]), "format %d lacks '%s'", f, want[f]);
		free(out);
	}
	/* each step is measured under its run's precondition verdict */
	ck_assert_ptr_eq(report_step_steady(&runs[1], &runs[1].phases[1].steps[0]),
			 &runs[1].phases[0].steady);
	ck_assert_ptr_eq(report_step_steady(&runs[1], &runs[1].phases[0].steps[0]),
			 &runs[1].phases[0].steady);
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

START_TEST(xml_escaping)
{
	struct result runs[1];
	struct report rep;
	char *out;
	size_t len;

	new_run(&runs[0], "Evil <Drive> & \\\"Co\\\"", "1", "4K <random>");
	four_k(&runs[0], 1000, 500);
	build(&rep, runs, 1, NULL);
	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_ptr_null(strstr(out, "<Drive>"));
	ck_assert_ptr_nonnull(strstr(out, "Evil &lt;Drive&gt; &amp; &quot;Co&quot;"));
	free(out);
	ck_assert_int_eq(report_render(&rep, RF_MD, &out, &len), 0);
	free(out);
	report_free(&rep);
	result_free(&runs[0]);
}
END_TEST

/* Whether s holds a raw control character other than newline (C0, DEL, C1). */
static bool raw_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			return true;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
			return true;
	}
	return false;
}

/*
 * Hostile strings in a result (the model, the firmware, the preset name, a step's error)
 * through every renderer: no raw control character anywhere, well-formed UTF-8, CSV
 * cells a spreadsheet takes as text, Markdown that opens no HTML block and adds no line,
 * HTML with nothing unescaped, JSON that parses.
 */
START_TEST(hostile_strings)
{
	struct result runs[2];
	struct report rep;
	char *out;
	size_t len;

	new_run(&runs[0], "=cmd|' /C calc'!A0\\u001b[2J\\u0007", "@SUM(1+1)", "8K 70/30");
	ladder(&runs[0], 10000, -1);
	new_run(&runs[1], "<img src=x onerror=alert(1)>\\n# pwned \\u009b31m \\u202eevil",
		"+HYPERLINK(1)", "<script>alert(1)</script>\n- item");
	ladder(&runs[1], 20000, -1);
	snprintf(runs[1].error, sizeof(runs[1].error), "-2+3 \x1b]0;title\x07");
	runs[1].status = RS_FAILED;
	build(&rep, runs, 2, NULL);
	for (unsigned f = 0; f < RF_COUNT; f++) {
		ck_assert_int_eq(report_render(&rep, (enum report_format)f, &out, &len), 0);
		ck_assert_msg(text_utf8_valid(out, len), "%s: not UTF-8", report_format_name[f]);
		ck_assert_msg(!raw_control(out), "%s: a raw control character",
			      report_format_name[f]);
		switch (f) {
		case RF_CSV:
			/* every cell that starts like a formula is quoted text */
			ck_assert_ptr_nonnull(strstr(out, ",\"'=cmd|' /C calc'!A0^[[2J^G\","));
			ck_assert_ptr_nonnull(strstr(out, ",\"'@SUM(1+1)\","));
			ck_assert_ptr_nonnull(strstr(out, ",\"'+HYPERLINK(1)\","));
			ck_assert_ptr_null(strstr(out, ",=cmd"));
			ck_assert_ptr_null(strstr(out, ",@SUM"));
			break;
		case RF_MD:
		case RF_HTML:
			ck_assert_ptr_null(strstr(out, "<script"));
			ck_assert_ptr_null(strstr(out, "<img"));
			ck_assert_ptr_null(strstr(out, "\n# pwned"));
			ck_assert_ptr_null(strstr(out, "\n- item"));
			break;
		case RF_TEXT:
			ck_assert_ptr_nonnull(strstr(out, "^[[2J^G"));
			ck_assert_ptr_null(strstr(out, "\n# pwned"));
			break;
		case RF_JSON: {
			struct json_object *o = json_tokener_parse(out);
			ck_assert_ptr_nonnull(o);
			json_object_put(o);
			break;
		}
		}
		free(out);
	}
	report_free(&rep);
	result_free(&runs[0]);
	result_free(&runs[1]);
}
END_TEST

/*
 * Chart axes over hostile numbers: samples at 1e18 ns and 1e18 + 256 ns (a tick step
 * below what a double can add at that value), values of 1e300, a single point. Each
 * renders, bounded, into well-formed numbers (no "nan", no "inf" in the SVG).
 */
static const struct {
	uint64_t start0, start1;
	double iops;
} axis_cases[] = {
	{1000000000000000000ull, 1000000000000000256ull, 5000},
	{0, 1, 1e300},
	{18446744073709551000ull, 18446744073709551000ull, 1},
	{5, 5, 0},
};

START_TEST(html_axes_bounded)
{
	struct result runs[1];
	struct report rep;
	struct workload wl;
	char *out;
	size_t len;

	new_run(&runs[0], "A", "1", "p");
	workload_defaults(&wl);
	struct result_phase *pre = result_add_phase(&runs[0], "precondition", PH_PRECONDITION);
	struct result_step *s = result_add_step(pre, "round", &wl);
	set_summary(s, 1000);
	for (unsigned k = 0; k < 2; k++) {
		struct sample sm = {.index = k,
				    .start_ns = k ? axis_cases[_i].start1 : axis_cases[_i].start0,
				    .dur_ns = 1};
		fill(&sm.d[DIR_ALL], axis_cases[_i].iops, 1);
		ck_assert_int_eq(result_step_add_sample(s, &sm), 0);
	}
	four_k(&runs[0], 1000, 500);
	build(&rep, runs, 1, NULL);
	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_uint_eq(count(out, "<svg "), NIO + 2 * NIO);
	ck_assert_ptr_null(strstr(out, "nan"));
	ck_assert_ptr_null(strstr(out, "inf"));
	ck_assert_uint_lt(len, 4u << 20);
	free(out);
	report_free(&rep);
	result_free(&runs[0]);
}
END_TEST

/* Purge, fill and precondition phases are named as what they are, not as a workload. */
START_TEST(phases_named)
{
	struct result r;
	struct workload wl;
	char buf[512];

	new_run(&r, "X1", "1", "p");
	workload_defaults(&wl);
	wl.threads = 1;
	wl.qdepth = 32;
	struct result_phase *pu = result_add_phase(&r, "purge", PH_PURGE);
	pu->status = RS_COMPLETE;
	result_add_step(pu, "discard", &wl)->summary.dur_ns = 2000000000ull;
	wl.pattern = WL_SEQUENTIAL;
	wl.bs = 131072;
	wl.read_pct = 0;
	struct result_phase *fi = result_add_phase(&r, "wipc", PH_PRECONDITION);
	fi->status = RS_COMPLETE;
	struct result_step *f = result_add_step(fi, "128k", &wl);
	f->summary.d[DIR_WRITE].bytes = 400000000000ull;
	f->ramp.d[DIR_WRITE].bytes = 200000000ull;
	wl.pattern = WL_RANDOM;
	wl.bs = 4096;
	wl.threads = wl.qdepth = 16;
	struct result_phase *pc = result_add_phase(&r, "precondition", PH_PRECONDITION);
	pc->status = RS_COMPLETE;
	pc->steady.used = true;
	result_add_step(pc, "round 1", &wl);
	/* the pointers are taken again: adding phases may move them */
	pu = &r.phases[0];
	fi = &r.phases[1];
	pc = &r.phases[2];

	ck_assert_str_eq(report_phase_summary(buf, sizeof(buf), pu), "purge by discard, 2 s");
	ck_assert_str_eq(report_step_what(buf, sizeof(buf), pu, &pu->steps[0]), "purge: discard");
	ck_assert_str_eq(report_step_what(buf, sizeof(buf), fi, &fi->steps[0]),
			 "fill: 128k write sequential 1T32Q, 400GB written");
	ck_assert_str_eq(report_step_what(buf, sizeof(buf), pc, &pc->steps[0]),
			 "precondition: 4k write random 16T16Q until steady state");
	ck_assert_msg(strstr(report_phase_summary(buf, sizeof(buf), fi),
			     "fill: 128k write sequential 1T32Q, 400GB written, 1 step"),
		      "%s", buf);

	/* a steady phase of rounds of two steps: the rounds that ran, and the steps */
	struct result_phase *ms = result_add_phase(&r, "measure", PH_MEASURE);
	ms->steady.used = true;
	ms->steady.round = 2;
	ms->status = RS_COMPLETE;
	for (unsigned i = 0; i < 5; i++) {
		char label[32];
		snprintf(label, sizeof(label), "round %u %s", 1 + i / 2, i % 2 ? "4k" : "8k");
		result_add_step(ms, label, &wl);
	}
	ck_assert_msg(strstr(report_phase_summary(buf, sizeof(buf), &r.phases[3]),
			     "16T16Q, 3 rounds (5 steps), "),
		      "%s", buf);

	char *text = NULL;
	size_t len = 0;
	ck_assert_int_eq(report_show(&r, &text, &len), 0);
	ck_assert_msg(strstr(text, "\n  purge: discard "), "%s", text);
	ck_assert_msg(strstr(text, "\n  fill: 128k write sequential 1T32Q"), "%s", text);
	ck_assert_msg(!strstr(text, "read random 1T32Q"), "%s", text);
	free(text);
	result_free(&r);
}
END_TEST

/* A phase is described by all its steps, not its first: a ladder, a few, many. */
START_TEST(phase_workloads)
{
	struct result r;
	struct workload wl;
	char buf[512];

	new_run(&r, "X1", "1", "p");
	workload_defaults(&wl);
	wl.bs = 8192;
	wl.read_pct = 70;
	struct result_phase *la = result_add_phase(&r, "ladder", PH_MEASURE);
	for (unsigned t = 2; t <= 16; t *= 2) {
		wl.threads = wl.qdepth = t;
		result_add_step(la, "x", &wl);
	}
	ck_assert_msg(strstr(report_phase_summary(buf, sizeof(buf), la),
			     "8k 70/30 random 2T2Q to 16T16Q, 4 steps"),
		      "%s", buf);
	/* the last like the first: not "2T2Q to 2T2Q" */
	wl.threads = wl.qdepth = 2;
	result_add_step(la, "x", &wl);
	ck_assert_msg(strstr(report_phase_summary(buf, sizeof(buf), la),
			     "4 workloads (8k 70/30 random 2T2Q; 8k 70/30 random 4T4Q; "),
		      "%s", buf);

	struct result_phase *two = result_add_phase(&r, "two", PH_MEASURE);
	wl.read_pct = 100;
	result_add_step(two, "r", &wl);
	wl.read_pct = 0;
	wl.bs = 65536;
	result_add_step(two, "w", &wl);
	result_add_step(two, "w", &wl);
	ck_assert_msg(strstr(report_phase_summary(buf, sizeof(buf), two),
			     "2 workloads (8k read random 2T2Q; 64k write random 2T2Q), 3 steps"),
		      "%s", buf);

	struct result_phase *many = result_add_phase(&r, "many", PH_MEASURE);
	for (unsigned i = 0; i < 70; i++) {
		wl.bs = 512u << (i % 10);
		wl.read_pct = i / 10 * 10;
		result_add_step(many, "m", &wl);
	}
	ck_assert_msg(strstr(report_phase_summary(buf, sizeof(buf), many),
			     "over 64 workloads, from 512b write random 2T2Q to 256k 60/40 random "
			     "2T2Q, 70 steps"),
		      "%s", buf);
	result_free(&r);
}
END_TEST

/* CPU use: a section in text, Markdown and HTML, an object in JSON; none without it. */
START_TEST(cpu_use)
{
	struct result runs[2];
	struct report rep;
	char *out = NULL;
	size_t len = 0;

	for (unsigned i = 0; i < 2; i++) {
		new_run(&runs[i], i ? "Y" : "X", "1", "4K random");
		four_k(&runs[i], 1000, 500);
	}
	build(&rep, runs, 2, NULL);
	for (unsigned f = 0; f < RF_COUNT; f++) {
		ck_assert_int_eq(report_render(&rep, (enum report_format)f, &out, &len), 0);
		ck_assert_msg(!strstr(out, "CPU use") && !strstr(out, "\"cpu\""), "%s", out);
		free(out);
	}
	report_free(&rep);
	struct result_step *st = &runs[1].phases[0].steps[1];
	st->cpu = (struct step_cpu){true, 70, 28.5, 60, 37, 2.5, 4};
	runs[1].phases[0].steps[0].cpu = (struct step_cpu){true, 20, 5, 30, 10, 7, 4};
	ck_assert_int_eq(result_step_warn(st, SW_CPU_BOUND, "bound"), 0);
	build(&rep, runs, 2, NULL);
	static const char *const want[RF_COUNT] = {
		[RF_TEXT] = "Y 200GB: drivebench up to 98% of a CPU (4k write random 16T16Q), the "
			    "host up to 97% busy, iowait up to 7%; 1 step CPU-bound",
		[RF_MD] = "## CPU use",
		[RF_HTML] = "<h2 id=\"cpu-use\">CPU use</h2>",
		[RF_JSON] = "\"process_max_pct\": 98.5",
	};
	for (unsigned f = 0; f < RF_COUNT; f++) {
		if (!want[f])
			continue;
		ck_assert_int_eq(report_render(&rep, (enum report_format)f, &out, &len), 0);
		ck_assert_msg(strstr(out, want[f]), "%s: %s", want[f], out);
		ck_assert_msg(!strstr(out, "X 200GB: drivebench"), "%s", out);
		free(out);
	}
	report_free(&rep);
	for (unsigned i = 0; i < 2; i++)
		result_free(&runs[i]);
}
END_TEST

/* Bars for single-step sections only; percentile charts where histograms are kept. */
START_TEST(html_bars_and_percentiles)
{
	struct result runs[2];
	struct report rep;
	struct report_bars *sets;
	unsigned nsets;
	char *out = NULL;
	size_t len = 0;
	static struct hist h[2];

	for (unsigned i = 0; i < 2; i++) {
		new_run(&runs[i], i ? "Y" : "X", "1", "4K random");
		four_k(&runs[i], 1000 + 100 * i, 500);
		memset(h, 0, sizeof(h));
		for (unsigned k = 0; k < 10000; k++)
			hist_add(&h[1], 100000 + 37 * k * (i + 1));
		/* the write step at 16T16Q keeps its histogram */
		ck_assert_int_eq(result_step_set_hist(&runs[i].phases[0].steps[1], &h[0], &h[1]), 0);
	}
	build(&rep, runs, 2, NULL);
	/* 4k read random is a ladder (16T16Q, 1T1Q); 4k write random one step */
	ck_assert_int_eq(report_bars(&rep, &sets, &nsets), 0);
	ck_assert_uint_eq(nsets, 1);
	ck_assert_str_eq(sets[0].title, "4k random");
	ck_assert_uint_eq(sets[0].ncats, 1);
	ck_assert_str_eq(sets[0].cats[0], "4k write random 16T16Q");
	report_bars_free(sets, nsets);

	struct report_exceed e;
	unsigned wrow = rep.groups[1].first_row;
	ck_assert_int_eq(report_exceedance(&rep, wrow, 0, &e), 0);
	ck_assert_uint_gt(e.n, 10);
	ck_assert(e.nines[0] == 0);
	ck_assert(fabs(e.nines[e.n - 1] - 4) < 0.01); /* the slowest of 10,000: 4 nines */
	for (unsigned k = 1; k < e.n; k++)
		ck_assert(e.nines[k] > e.nines[k - 1] && e.lat_ms[k] >= e.lat_ms[k - 1]);
	ck_assert(fabs(e.lat_ms[0] - 0.1) < 0.001 && fabs(e.lat_ms[e.n - 1] - 0.47) < 0.005);
	report_exceed_free(&e);
	ck_assert_int_eq(report_exceedance(&rep, rep.groups[0].first_row, 0, &e), 0);
	ck_assert_uint_eq(e.n, 0); /* no histogram kept */

	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_uint_eq(count(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\""),
			  NIO);
	ck_assert_uint_eq(count(out, "<rect class=\"bar\""), 2 * NIO);
	ck_assert_uint_eq(count(out, "<title>Latency percentiles: 4k write random 16T16Q</title>"),
			  1);
	ck_assert_uint_eq(count(out, "<title>Latency percentiles"), 1);
	/* the ladder keeps its line charts, the single step has none */
	ck_assert_uint_eq(count(out, "<title>4k read random: "), NIO);
	ck_assert_uint_eq(count(out, "<title>4k write random: "), 0);
	free(out);
	report_free(&rep);
	for (unsigned i = 0; i < 2; i++)
		result_free(&runs[i]);
}
END_TEST

/*
 * A SNIA run's measuring phase under sd: 4 rounds of 2 block sizes (small, big) x 2 mixes
 * (100 and 0 % read) at threads x qdepth, each step's IOPS 1000 x round, + 100 for the
 * big size, + 10 for writes (set_summary: average latency from it).
 */
static void snia_rounds(struct result *run, const char *preset, const struct steady_info *sd,
			unsigned threads, unsigned qdepth, uint32_t small, uint32_t big)
{
	struct workload wl;

	new_run(run, "X", "1", preset);
	struct result_phase *ph = result_add_phase(run, "measure", PH_MEASURE);
	ph->status = RS_COMPLETE;
	ph->steady = *sd;
	workload_defaults(&wl);
	wl.threads = threads;
	wl.qdepth = qdepth;
	for (unsigned rd = 1; rd <= 4; rd++)
		for (unsigned b = 0; b < 2; b++)
			for (unsigned m = 0; m < 2; m++) {
				char label[64];
				wl.bs = b ? big : small;
				wl.read_pct = m ? 0 : 100;
				snprintf(label, sizeof(label), "round %u %u %u", rd, b, m);
				set_summary(result_add_step(ph, label, &wl),
					    1000.0 * rd + 100 * b + 10 * m);
			}
}

/* SNIA's tables: the window's average per block size x mix, the convergence, the verdict. */
START_TEST(snia_matrix)
{
	struct result run;
	struct report rep;
	struct report_matrix mx;
	char *out = NULL;
	size_t len = 0;
	const struct steady_info sd = {.used = true, .reached = true, .window = 2, .round = 4,
				       .max_rounds = 25, .data_limit_pct = 20,
				       .slope_limit_pct = 10};

	snia_rounds(&run, "SNIA IOPS", &sd, 4, 32, 4096, 65536);
	build(&rep, &run, 1, NULL);
	ck_assert_int_eq(report_matrix(&rep, 0, &mx), 0);
	ck_assert_uint_eq(mx.nbs, 2);
	ck_assert_uint_eq(mx.nmix, 2);
	ck_assert_uint_eq(mx.bs[0], 65536);
	ck_assert_uint_eq(mx.mix[0], 100);
	ck_assert_uint_eq(mx.window_rounds, 2);
	ck_assert_uint_eq(mx.last_round, 4);
	ck_assert_uint_eq(mx.nrounds, 4);
	/* rounds 3 and 4: (3000 + 4000) / 2, plus the block size's and the mix's share */
	ck_assert(fabs(mx.iops[0 * 2 + 0] - 3600) < 1e-6);
	ck_assert(fabs(mx.iops[0 * 2 + 1] - 3610) < 1e-6);
	ck_assert(fabs(mx.iops[1 * 2 + 0] - 3500) < 1e-6);
	ck_assert(fabs(mx.iops[1 * 2 + 1] - 3510) < 1e-6);
	/* convergence: each block size's writes, round by round */
	for (unsigned rd = 0; rd < 4; rd++) {
		ck_assert(fabs(mx.conv[0 * 4 + rd] - (1000.0 * (rd + 1) + 110)) < 1e-6);
		ck_assert(fabs(mx.conv[1 * 4 + rd] - (1000.0 * (rd + 1) + 10)) < 1e-6);
	}
	ck_assert_msg(strstr(mx.verdict, "4 rounds (16 steps)"), "%s", mx.verdict);
	report_matrix_free(&mx);

	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_msg(strstr(out, "the steady-state window's average, rounds 3 to 4"), "%s", out);
	ck_assert_uint_eq(count(out, "<figure class=\"convergence\">"), 1);
	ck_assert_uint_eq(count(out, "<p class=\"verdict\">"), 1);
	ck_assert_msg(strstr(out, "<td>3,600</td>"), "%s", out);
	/* the per-round groups are the matrix's: no chart of them, only the convergence */
	ck_assert_uint_eq(count(out, "<svg "), 1);
	free(out);
	report_free(&rep);
	result_free(&run);
}
END_TEST

/*
 * SNIA's latency test: a phase tracking a latency gives average and maximum latency
 * matrices over the window (the highest maximum), its convergence in ms, the verdict,
 * in HTML and text, and no table a round.
 */
START_TEST(snia_latency_matrix)
{
	struct result run;
	struct report rep;
	struct report_matrix mx;
	char *out = NULL;
	size_t len = 0;
	struct steady_info sd = {.used = true, .window = 2, .round = 4, .max_rounds = 4,
				 .data_limit_pct = 20, .slope_limit_pct = 10};

	snprintf(sd.tracked, sizeof(sd.tracked), "mean_ns");
	/* average latency 1000 / IOPS ms, maximum 7 times that */
	snia_rounds(&run, "SNIA latency", &sd, 1, 1, 4096, 8192);
	build(&rep, &run, 1, NULL);
	ck_assert_int_eq(report_matrix(&rep, 0, &mx), 0);
	ck_assert(mx.latency);
	ck_assert_uint_eq(mx.nbs, 2);
	ck_assert_uint_eq(mx.bs[0], 8192);
	/* 8k at 100% read, rounds 3 and 4: the average of the averages, the highest maximum */
	ck_assert(fabs(mx.lat_avg_ms[0] - (1000 / 3100.0 + 1000 / 4100.0) / 2) < 1e-9);
	ck_assert(fabs(mx.lat_max_ms[0] - 7000 / 3100.0) < 1e-6);
	ck_assert(fabs(mx.lat_avg_ms[1 * 2 + 1] - (1000 / 3010.0 + 1000 / 4010.0) / 2) < 1e-9);
	/* convergence: 4k writes' average latency, round by round */
	for (unsigned rd = 0; rd < 4; rd++)
		ck_assert(fabs(mx.conv[1 * 4 + rd] - 1000 / (1000.0 * (rd + 1) + 10)) < 1e-9);
	report_matrix_free(&mx);

	ck_assert_int_eq(report_render(&rep, RF_HTML, &out, &len), 0);
	ck_assert_uint_eq(count(out, "<table class=\"data matrix\">"), 2);
	ck_assert_msg(strstr(out, "1T1Q random, maximum latency (ms): the steady-state window's "
				  "highest, rounds 3 to 4"), "%s", out);
	ck_assert_msg(strstr(out, "Average latency (ms)</text>"), "%s", out); /* convergence */
	ck_assert_uint_eq(count(out, "<p class=\"verdict\">"), 1);
	free(out);
	ck_assert_int_eq(report_render(&rep, RF_TEXT, &out, &len), 0);
	ck_assert_msg(strstr(out, "1T1Q random, Average latency (ms): the steady-state window's "
				  "average, rounds 3 to 4\n  block size  100/0  0/100\n"
				  "  8k          0.283  0.282\n"), "%s", out);
	ck_assert_msg(strstr(out, "Steady-state convergence, 0/100 mix, average latency (ms)"),
		      "%s", out);
	ck_assert_msg(strstr(out, "  steady state: "), "%s", out);
	/* the rounds are the matrix's: no table a round */
	ck_assert_msg(!strstr(out, "Throughput (IOPS), "), "%s", out);
	free(out);
	report_free(&rep);
	result_free(&run);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, two_runs_share_the_ladder);
	tcase_add_test(tc, three_runs_missing_step);
	tcase_add_test(tc, different_presets);
	tcase_add_test(tc, repeated_steps_pair_in_order);
	tcase_add_loop_test(tc, labels, 0, (int)(sizeof(label_cases) / sizeof(label_cases[0])));
	tcase_add_test(tc, spec_ratings);
	tcase_add_loop_test(tc, spec_errors, 0, (int)(sizeof(bad_specs) / sizeof(bad_specs[0])));
	tcase_add_test(tc, shipped_spec_parses);
	tcase_add_loop_test(tc, format_values, 0, (int)(sizeof(values) / sizeof(values[0])));
	tcase_add_test(tc, parse_names);
	tcase_add_test(tc, renderer_shapes);
	tcase_add_test(tc, drive_metrics);
	tcase_add_test(tc, html_rate_curves_and_matrix);
	tcase_add_test(tc, rate_curves_match_by_share);
	tcase_add_test(tc, steady_verdict_everywhere);
	tcase_add_test(tc, xml_escaping);
	tcase_add_test(tc, phases_named);
	tcase_add_test(tc, phase_workloads);
	tcase_add_test(tc, cpu_use);
	tcase_add_test(tc, html_bars_and_percentiles);
	tcase_add_test(tc, snia_matrix);
	tcase_add_test(tc, snia_latency_matrix);
	suite_add_tcase(s, tc);

	/* hostile input: a loop that does not end fails here instead of hanging the suite */
	TCase *hostile = tcase_create("hostile");
	tcase_set_timeout(hostile, 20);
	tcase_add_unchecked_fixture(hostile, setup_run, teardown_run);
	tcase_add_checked_fixture(hostile, setup, teardown);
	tcase_add_test(hostile, hostile_strings);
	tcase_add_loop_test(hostile, html_axes_bounded, 0,
			    (int)(sizeof(axis_cases) / sizeof(axis_cases[0])));
	suite_add_tcase(s, hostile);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
