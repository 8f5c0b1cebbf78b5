// SPDX-License-Identifier: GPL-2.0-or-later
/* Result files: save -> load round trips, version handling, atomic saves, error messages. */
#include "testlib.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include <json-c/json.h>

#include "settings.h"
#include "result.h"
#include "step_def.h"
#include "result_io.h"
#include "units.h"
#include "stats.h"

#include "rundir.h"

static void fill_dir(struct dir_stats *d, double scale)
{
	d->ios = (uint64_t)(1000 * scale);
	d->bytes = d->ios * 4096;
	d->iops = 1000.0 * scale / 3.0; /* not a short decimal: round trip must be exact */
	d->mbps = d->iops * 4096 / 1e6;
	d->mean_ns = 123456.789 * scale;
	d->std_ns = 2345.6789 / scale;
	d->min_ns = 5000;
	d->max_ns = 9876543;
	for (unsigned i = 0; i < NPCT; i++)
		d->pct_ns[i] = 100000 + i * 12345;
}

static void fill_sample(struct sample *s, unsigned index)
{
	memset(s, 0, sizeof(*s));
	s->index = index;
	s->start_ns = index * 1000000000ull;
	s->dur_ns = 1000000000ull;
	fill_dir(&s->d[DIR_READ], 1 + index);
	fill_dir(&s->d[DIR_WRITE], 0.5 + index);
	fill_dir(&s->d[DIR_ALL], 1.5 + index);
}

/* A run with a steady-state precondition phase and a measure phase of nsteps steps. */
/* The file's modification time: the library lists runs newest first by it. */
static void set_mtime(const char *path, time_t t)
{
	struct timespec ts[2] = {{.tv_sec = t}, {.tv_sec = t}};

	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void build(struct result *r, unsigned nsteps)
{
	struct workload wl;
	char err[256];

	result_init(r);
	r->status = RS_COMPLETE;
	snprintf(r->started, sizeof(r->started), "2026-11-30T13:05:21Z");
	snprintf(r->ended, sizeof(r->ended), "2026-11-30T14:05:21Z");
	r->host = result_host_json();
	r->target = json_tokener_parse("{\"path\": \"/dev/nvme0n1\", \"kind\": \"block\", "
				       "\"size\": 200049647616, \"lbs\": 512, \"pbs\": 4096, "
				       "\"drive\": {\"model\": \"Micron P400m\", "
				       "\"firmware\": \"0200\"}}");
	ck_assert_int_eq(result_summarize(r), 0);
	snprintf(r->preset_name, sizeof(r->preset_name), "8K 70/30");
	snprintf(r->preset_source, sizeof(r->preset_source), "builtin");
	r->preset_text = strdup("[preset]\nname = 8K 70/30\n");
	r->scale = 0.25;
	if (nsteps % 2) { /* labelled and not: both load */
		snprintf(r->label, sizeof(r->label), "P400m FW 0200 \u00e9 retest");
		snprintf(r->note, sizeof(r->note), "after the firmware update;\nsecond line");
	}

	struct result_phase *pre = result_add_phase(r, "precondition", PH_PRECONDITION);
	ck_assert_ptr_nonnull(pre);
	pre->status = RS_COMPLETE;
	pre->steady = (struct steady_info){.used = true,
					   .reached = true,
					   .window = 5,
					   .data_limit_pct = 20,
					   .slope_limit_pct = 10,
					   .max_rounds = 25,
					   .round = 7,
					   .data_excursion_pct = 12.5,
					   .slope_excursion_pct = 3.25};
	snprintf(pre->steady.tracked, sizeof(pre->steady.tracked), "iops");
	workload_defaults(&wl);
	wl.threads = 16;
	wl.qdepth = 16;
	wl.read_pct = 0;
	struct result_step *s = result_add_step(pre, "round 1", &wl);
	s->status = RS_COMPLETE;
	fill_sample(&s->summary, 0);

	struct result_phase *m = result_add_phase(r, "measure", PH_MEASURE);
	m->status = RS_COMPLETE;
	for (unsigned i = 0; i < nsteps; i++) {
		char label[32];
		workload_defaults(&wl);
		wl.threads = 2u << (i / 4 % 4);
		wl.qdepth = 2u << (i % 4);
		wl.read_pct = 70;
		wl.bs = 8192;
		wl.seed = 0xdeadbeefcafef00dull + i;
		wl.range_pct = 25.5;
		if (i == 1)
			ck_assert_int_eq(
				workload_parse_bssplit(&wl, "4k/60:8k/30:64k/10", err, sizeof(err)),
				0);
		/* skewed offsets round-trip; the other steps have none, as old files load */
		if (i == 2 || i == 3)
			ck_assert_int_eq(workload_parse_dist(&wl,
							     i == 2 ? "zoned:60/10:30/20:8/30:2/40"
								    : "pareto:0.25",
							     err, sizeof(err)),
					 0);
		snprintf(label, sizeof(label), "%uT%uQ", wl.threads, wl.qdepth);
		s = result_add_step(m, label, &wl);
		ck_assert_ptr_nonnull(s);
		s->status = i == 2 ? RS_FAILED : RS_COMPLETE;
		if (i == 2) {
			snprintf(s->error, sizeof(s->error), "write at 4096: Input/output error");
			s->error_offset = 4096;
		}
		snprintf(s->engine, sizeof(s->engine), "uring SINGLE_ISSUER, fixed bufs");
		if (i % 2 == 0) /* measured CPU use, and a step without */
			s->cpu = (struct step_cpu){.measured = true,
						   .proc_user_pct = 87.5 + i,
						   .proc_system_pct = 12.25,
						   .host_user_pct = 40.5,
						   .host_system_pct = 9.75,
						   .host_iowait_pct = 3.5,
						   .cpus = 16};
		fill_sample(&s->summary, i);
		for (unsigned k = 0; k < 3; k++) {
			struct sample sm;
			fill_sample(&sm, k);
			if (i == 0 && k == 1) /* a stalled sample */
				sm.host_stall_ns = 400000000ull;
			ck_assert_int_eq(result_step_add_sample(s, &sm), 0);
		}
		static struct hist h[2];
		memset(h, 0, sizeof(h));
		for (unsigned b = 0; b < HIST_NBUCKETS; b += 97)
			h[0].bucket[b] = b + 1;
		h[1].bucket[HIST_NBUCKETS - 1] = 42;
		ck_assert_int_eq(result_step_set_hist(s, &h[0], &h[1]), 0);
		/* the edges: a ramp and a drain, warnings (one from a newer
		   drivebench, which a reader keeps as it is) */
		if (i == 0) {
			fill_sample(&s->ramp, 0);
			s->ramp.dur_ns = 30000000000ull;
			fill_sample(&s->drain, 0);
			s->drain.dur_ns = 2000000123ull;
			s->drive = (struct step_drive){.has_written = true,
						       .written_bytes = 98765432100000ull,
						       .has_temp = true,
						       .temp_max_c = -5};
			s->summary.host_stall_ns = 400000000ull;
			ck_assert_int_eq(result_step_warn(s, SW_HOST_STALL, "stopped %d s", 4), 0);
			ck_assert_int_eq(result_step_warn(s, SW_READS_UNWRITTEN, "holes"), 0);
			ck_assert_int_eq(result_step_warn(s, SW_HOST_STALL, "stopped %d s", 5), 0);
			ck_assert_uint_eq(s->nwarnings, 2); /* the same code replaces its text */
			ck_assert_str_eq(s->warnings[0].text, "stopped 5 s");
			s->warnings = realloc(s->warnings, 3 * sizeof(*s->warnings));
			snprintf(s->warnings[2].code, sizeof(s->warnings[2].code), "from-the-future");
			snprintf(s->warnings[2].text, sizeof(s->warnings[2].text), "kept");
			s->nwarnings = 3;
		}
	}
}

static void assert_sample_eq(const struct sample *a, const struct sample *b)
{
	ck_assert_uint_eq(a->index, b->index);
	ck_assert_uint_eq(a->start_ns, b->start_ns);
	ck_assert_uint_eq(a->dur_ns, b->dur_ns);
	ck_assert_uint_eq(a->host_stall_ns, b->host_stall_ns);
	/* dir_stats is all 8-byte fields, no padding: bytes equal means values equal */
	ck_assert(memcmp(a->d, b->d, sizeof(a->d)) == 0);
}

static void assert_wl_eq(const struct workload *a, const struct workload *b)
{
	ck_assert_int_eq(a->pattern, b->pattern);
	ck_assert_uint_eq(a->nsplit, b->nsplit);
	if (!a->nsplit)
		ck_assert_uint_eq(a->bs, b->bs);
	for (unsigned i = 0; i < a->nsplit; i++) {
		ck_assert_uint_eq(a->split[i].bs, b->split[i].bs);
		ck_assert_uint_eq(a->split[i].pct, b->split[i].pct);
	}
	ck_assert_uint_eq(a->read_pct, b->read_pct);
	ck_assert_uint_eq(a->range_start, b->range_start);
	ck_assert_uint_eq(a->range_size, b->range_size);
	ck_assert(a->range_pct == b->range_pct);
	ck_assert_uint_eq(a->threads, b->threads);
	ck_assert_uint_eq(a->qdepth, b->qdepth);
	ck_assert_uint_eq(a->time_ns, b->time_ns);
	ck_assert_uint_eq(a->ramp_ns, b->ramp_ns);
	ck_assert_uint_eq(a->rate_iops, b->rate_iops);
	ck_assert_int_eq(a->data, b->data);
	ck_assert_uint_eq(a->compress_pct, b->compress_pct);
	ck_assert_uint_eq(a->interval_ns, b->interval_ns);
	ck_assert_uint_eq(a->seed, b->seed);
	ck_assert_int_eq(a->dist, b->dist);
	ck_assert(a->dist_param == b->dist_param);
	ck_assert_uint_eq(a->nzones, b->nzones);
	ck_assert(!memcmp(a->zones, b->zones, sizeof(a->zones)));
}

static void assert_result_eq(const struct result *a, const struct result *b)
{
	ck_assert_int_eq(a->status, b->status);
	ck_assert_str_eq(a->error, b->error);
	ck_assert_str_eq(a->started, b->started);
	ck_assert_str_eq(a->ended, b->ended);
	ck_assert_str_eq(a->label, b->label);
	ck_assert_str_eq(a->note, b->note);
	ck_assert_str_eq(a->tool_version, b->tool_version);
	ck_assert_str_eq(a->preset_name, b->preset_name);
	ck_assert_str_eq(a->preset_source, b->preset_source);
	ck_assert_str_eq(a->preset_text ? a->preset_text : "",
			 b->preset_text ? b->preset_text : "");
	ck_assert(a->scale == b->scale);
	ck_assert(json_object_equal(a->host, b->host));
	ck_assert_str_eq(a->host_summary.hostname, b->host_summary.hostname);
	ck_assert_str_eq(a->host_summary.kernel, b->host_summary.kernel);
	ck_assert_str_eq(a->host_summary.cpu, b->host_summary.cpu);
	ck_assert_str_eq(a->host_summary.cpus, b->host_summary.cpus);
	ck_assert_str_ne(b->host_summary.cpus, ""); /* a number, as text */
	ck_assert(json_object_equal(a->target, b->target));
	ck_assert_uint_eq(a->nphases, b->nphases);
	for (unsigned p = 0; p < a->nphases; p++) {
		const struct result_phase *pa = &a->phases[p], *pb = &b->phases[p];
		ck_assert_str_eq(pa->name, pb->name);
		ck_assert_int_eq(pa->kind, pb->kind);
		ck_assert_int_eq(pa->status, pb->status);
		ck_assert_int_eq(pa->steady.used, pb->steady.used);
		ck_assert_int_eq(pa->steady.reached, pb->steady.reached);
		ck_assert_uint_eq(pa->steady.window, pb->steady.window);
		ck_assert_uint_eq(pa->steady.round, pb->steady.round);
		ck_assert_uint_eq(pa->steady.max_rounds, pb->steady.max_rounds);
		ck_assert(pa->steady.data_limit_pct == pb->steady.data_limit_pct);
		ck_assert(pa->steady.slope_limit_pct == pb->steady.slope_limit_pct);
		ck_assert(pa->steady.data_excursion_pct == pb->steady.data_excursion_pct);
		ck_assert(pa->steady.slope_excursion_pct == pb->steady.slope_excursion_pct);
		ck_assert_str_eq(pa->steady.tracked, pb->steady.tracked);
		ck_assert_uint_eq(pa->nsteps, pb->nsteps);
		for (unsigned s = 0; s < pa->nsteps; s++) {
			const struct result_step *sa = &pa->steps[s], *sb = &pb->steps[s];
			ck_assert_str_eq(sa->label, sb->label);
			assert_wl_eq(&sa->wl, &sb->wl);
			ck_assert_int_eq(sa->status, sb->status);
			ck_assert_str_eq(sa->error, sb->error);
			ck_assert_uint_eq(sa->error_offset, sb->error_offset);
			ck_assert_str_eq(sa->engine, sb->engine);
			ck_assert_int_eq(sa->cpu.measured, sb->cpu.measured);
			ck_assert(sa->cpu.proc_user_pct == sb->cpu.proc_user_pct);
			ck_assert(sa->cpu.proc_system_pct == sb->cpu.proc_system_pct);
			ck_assert(sa->cpu.host_user_pct == sb->cpu.host_user_pct);
			ck_assert(sa->cpu.host_system_pct == sb->cpu.host_system_pct);
			ck_assert(sa->cpu.host_iowait_pct == sb->cpu.host_iowait_pct);
			ck_assert_uint_eq(sa->cpu.cpus, sb->cpu.cpus);
			assert_sample_eq(&sa->summary, &sb->summary);
			ck_assert_uint_eq(sa->drain.dur_ns, sb->drain.dur_ns);
			ck_assert(memcmp(sa->drain.d, sb->drain.d, sizeof(sa->drain.d)) == 0);
			ck_assert_uint_eq(sa->ramp.dur_ns, sb->ramp.dur_ns);
			ck_assert(memcmp(sa->ramp.d, sb->ramp.d, sizeof(sa->ramp.d)) == 0);
			ck_assert_int_eq(sa->drive.has_written, sb->drive.has_written);
			ck_assert_uint_eq(sa->drive.written_bytes, sb->drive.written_bytes);
			ck_assert_int_eq(sa->drive.has_temp, sb->drive.has_temp);
			ck_assert_int_eq(sa->drive.temp_max_c, sb->drive.temp_max_c);
			ck_assert_uint_eq(sa->nwarnings, sb->nwarnings);
			for (unsigned w = 0; w < sa->nwarnings; w++) {
				ck_assert_str_eq(sa->warnings[w].code, sb->warnings[w].code);
				ck_assert_str_eq(sa->warnings[w].text, sb->warnings[w].text);
			}
			ck_assert_uint_eq(sa->nsamples, sb->nsamples);
			struct sample_iter ia, ib;
			struct sample ma, mb;
			sample_iter_init(&ia, sa);
			sample_iter_init(&ib, sb);
			while (sample_iter_next(&ia, &ma)) {
				ck_assert(sample_iter_next(&ib, &mb));
				assert_sample_eq(&ma, &mb);
			}
			ck_assert(!sample_iter_next(&ib, &mb));
			ck_assert_int_eq(!sa->hist, !sb->hist);
			if (sa->hist) {
				static struct hist ha[2], hb[2];
				result_step_get_hist(sa, &ha[0], &ha[1]);
				result_step_get_hist(sb, &hb[0], &hb[1]);
				ck_assert(memcmp(ha, hb, sizeof(ha)) == 0);
			}
		}
	}
}

START_TEST(round_trip)
{
	static const unsigned nsteps[] = {0, 1, 4, 16, 33};
	struct result a, b;
	char path[512], err[512];

	build(&a, nsteps[_i]);
	snprintf(path, sizeof(path), "%s/r.json", tmpdir);
	ck_assert_msg(result_save(&a, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(result_load(&b, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(b.version, RESULT_VERSION);
	ck_assert_str_eq(b.path, path);
	assert_result_eq(&a, &b);

	/* and a second generation is the same file byte for byte */
	char path2[512];
	snprintf(path2, sizeof(path2), "%s/r2.json", tmpdir);
	ck_assert_msg(result_save(&b, path2, err, sizeof(err)) == 0, "%s", err);
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", path, path2);
	ck_assert_int_eq(system(cmd), 0);
	result_free(&a);
	result_free(&b);
}
END_TEST

START_TEST(format_and_version_first)
{
	struct result r;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	build(&r, 2);
	ck_assert_int_eq(result_write(&r, f), 0);
	fclose(f);
	char want[128];
	snprintf(want, sizeof(want), "{\n\t\"format\": \"drivebench-result\",\n\t\"version\": %d,",
		 RESULT_VERSION);
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "starts: %.80s", s);
	/* histograms are sparse [bucket, count] pairs */
	ck_assert_ptr_nonnull(strstr(s, "\"write\": [[2495, 42]]"));
	/* the document order of the top level */
	static const char *const order[] = {"\"tool\"", "\"status\"", "\"started\"", "\"ended\"",
					    "\"host\"", "\"target\"", "\"preset\"",  "\"phases\""};
	const char *prev = s;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *at = strstr(s, order[i]);
		ck_assert_msg(at && at > prev, "%s out of order", order[i]);
		prev = at;
	}
	/* and it is JSON */
	struct json_object *o = json_tokener_parse(s);
	ck_assert_ptr_nonnull(o);
	json_object_put(o);
	free(s);
	result_free(&r);
}
END_TEST

START_TEST(not_a_number_is_null)
{
	struct result r, back;
	char path[512], err[512];

	build(&r, 1);
	r.phases[1].steps[0].summary.d[DIR_ALL].std_ns = NAN;
	snprintf(path, sizeof(path), "%s/nan.json", tmpdir);
	ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert(back.phases[1].steps[0].summary.d[DIR_ALL].std_ns == 0);
	result_free(&r);
	result_free(&back);
}
END_TEST

START_TEST(host_facts)
{
	struct json_object *h = result_host_json(), *v;
	ck_assert_ptr_nonnull(h);
	ck_assert(json_object_object_get_ex(h, "cpus", &v) && json_object_get_int(v) >= 1);
	ck_assert(json_object_object_get_ex(h, "cpu", &v) && json_object_get_string_len(v) > 0);
	ck_assert(json_object_object_get_ex(h, "kernel", &v) && json_object_get_string_len(v) > 0);
	ck_assert(json_object_object_get_ex(h, "hostname", &v));
	json_object_put(h);
}
END_TEST

START_TEST(many_steps_grow)
{
	struct result r;
	result_init(&r);
	for (unsigned p = 0; p < 9; p++) {
		struct result_phase *ph = result_add_phase(&r, "measure", PH_MEASURE);
		for (unsigned s = 0; s < 300; s++) {
			char label[16];
			snprintf(label, sizeof(label), "%u.%u", p, s);
			ck_assert_ptr_nonnull(result_add_step(ph, label, NULL));
		}
	}
	ck_assert_uint_eq(r.nphases, 9);
	for (unsigned p = 0; p < 9; p++)
		for (unsigned s = 0; s < 300; s += 37) {
			char label[16];
			snprintf(label, sizeof(label), "%u.%u", p, s);
			ck_assert_str_eq(r.phases[p].steps[s].label, label);
		}
	result_free(&r);
	ck_assert_uint_eq(r.nphases, 0);
}
END_TEST

/* Bad files: each gives an error that names the file and says what is wrong. */
static const struct {
	const char *name;
	const char *text; /* NULL: the file does not exist */
	const char *want;
} bad_files[] = {
	{"missing", NULL, ": No such file or directory"},
	{"garbage", "hello\n", ":1: not valid JSON"},
	{"truncated", "{\n\"format\": \"drivebench-result\",\n\"version\": 1,\n\"phases\": [",
	 ":4: not valid JSON: the file ends too early"},
	{"array", "[1, 2]", ": not a drivebench result (not a JSON object)"},
	{"no format", "{\"version\": 1}", ": not a drivebench result (no \"format\" field)"},
	{"other format", "{\"format\": \"fio\", \"version\": 1}",
	 ": not a drivebench result (format \"fio\", expected \"drivebench-result\")"},
	{"no version", "{\"format\": \"drivebench-result\"}", "without an integer \"version\""},
	{"newer", "{\"format\": \"drivebench-result\", \"version\": 99}",
	 ": format version 99 is newer than this drivebench"},
	{"older", "{\"format\": \"drivebench-result\", \"version\": 0}",
	 ": format version 0 is older than this drivebench"},
	{"phases type", "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": {}}",
	 ": \"phases\" should be an array"},
	{"bad status",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": "
	 "[{\"status\": \"melted\"}]}]}",
	 ": phases[0].steps[0]: unknown status \"melted\""},
	{"bad bucket",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{}, {\"steps\": "
	 "[{}, {\"hist\": {\"read\": [[99999, 1]]}}]}]}",
	 ": phases[1].steps[1]: hist.read[0]: bucket 99999 is outside"},
	{"bad number",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": "
	 "[{\"summary\": {\"all\": {\"iops\": \"fast\"}}}]}]}",
	 ": phases[0].steps[0]: \"iops\" should be a number"},
	{"bad bssplit",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": "
	 "[{\"workload\": {\"bssplit\": \"4k/70:8k/70\"}}]}]}",
	 ": phases[0].steps[0]: bssplit: "},
	{"bad warnings",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": "
	 "[{\"warnings\": \"none\"}]}]}",
	 ": phases[0].steps[0]: \"warnings\" should be an array"},
	{"warning without a code",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": "
	 "[{\"warnings\": [{\"text\": \"x\"}]}]}]}",
	 ": phases[0].steps[0]: warnings[0] has no \"code\""},
	{"bad drain",
	 "{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": "
	 "[{\"drain\": {\"dur_ns\": \"long\"}}]}]}",
	 ": phases[0].steps[0]: \"dur_ns\" should be a number"},
/* numbers: refused, not read as 0 or passed on as inf */
#define STEP(x)                                                                                    \
	"{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{\"steps\": [" x "]}]}"
	{"negative count", STEP("{\"summary\": {\"all\": {\"ios\": -5}}}"),
	 ":1: phases[0].steps[0]: \"ios\" is negative"},
	{"negative rate", STEP("{\"summary\": {\"read\": {\"iops\": -0.5}}}"),
	 "\"iops\" is negative"},
	{"infinite rate", STEP("{\"summary\": {\"all\": {\"mbps\": 1e999}}}"),
	 "\"mbps\" is not a finite number"},
	{"NaN", STEP("{\"summary\": {\"all\": {\"iops\": NaN}}}"), "not valid JSON"},
	{"Infinity", STEP("{\"summary\": {\"all\": {\"iops\": -Infinity}}}"), "not valid JSON"},
	{"hex", STEP("{\"error_offset\": 0x10}"), "not valid JSON: a malformed number"},
	{"past 64 bits", STEP("{\"summary\": {\"all\": {\"ios\": 18446744073709551616}}}"),
	 "\"ios\" is out of range"},
	{"threads past 32 bits", STEP("{\"workload\": {\"threads\": 4294967296}}"),
	 "\"threads\" is out of range"},
	{"version as text", "{\"format\": \"drivebench-result\", \"version\": \"2\"}",
	 "without an integer \"version\""},
	{"phases before version",
	 "{\"format\": \"drivebench-result\", \"phases\": [], \"version\": 2}",
	 "without an integer \"version\" before \"phases\""},
	/* histograms: each bucket once, inside the histogram */
	{"bucket twice", STEP("{\"hist\": {\"read\": [[5, 1], [5, 2]]}}"),
	 "hist.read[1]: bucket 5 appears twice"},
	{"negative bucket", STEP("{\"hist\": {\"write\": [[-1, 1]]}}"), "bucket -1 is outside"},
	{"negative count in hist", STEP("{\"hist\": {\"read\": [[1, -1]]}}"),
	 "\"count\" is negative"},
	/* version 2 sample tables */
	{"rows before fields", STEP("{\"samples\": {\"rows\": [], \"fields\": []}}"),
	 "\"rows\" before \"fields\""},
	{"short row",
	 STEP("{\"samples\": {\"fields\": [\"dur_ns\", \"all.ios\"], \"rows\": [[1, 2], [1]]}}"),
	 "samples.rows[1]: 1 values for 2 fields"},
	{"long row", STEP("{\"samples\": {\"fields\": [\"dur_ns\"], \"rows\": [[1, 2]]}}"),
	 "more values than the 1 fields"},
	{"field twice", STEP("{\"samples\": {\"fields\": [\"dur_ns\", \"dur_ns\"], \"rows\": []}}"),
	 "\"dur_ns\" twice"},
	{"all from nowhere",
	 STEP("{\"samples\": {\"all\": \"both\", \"fields\": [], \"rows\": []}}"),
	 "samples.all: \"both\" is not \"read\" or \"write\""},
	{"negative in a row",
	 STEP("{\"samples\": {\"fields\": [\"dur_ns\", \"write.max_ns\"], \"rows\": [[1, -3]]}}"),
	 "samples.rows[0]: \"write.max_ns\" is negative"},
	/* structure */
	{"deep",
	 STEP("{\"x\": "
	      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]"
	      "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"),
	 "nested deeper than 64 levels"},
	{"text after", "{\"format\": \"drivebench-result\", \"version\": 2} {}",
	 "more after the end of the document"},
	{"empty", "", ":1: not valid JSON: the file ends too early"},
#undef STEP
};

START_TEST(load_errors)
{
	struct result r;
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/bad%d.json", tmpdir, _i);
	if (bad_files[_i].text) {
		FILE *f = fopen(path, "w");
		fputs(bad_files[_i].text, f);
		fclose(f);
	}
	int rc = result_load(&r, path, err, sizeof(err));
	ck_assert_msg(rc < 0, "%s: loaded", bad_files[_i].name);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s: error does not name the file: %s",
		      bad_files[_i].name, err);
	ck_assert_msg(strstr(err, bad_files[_i].want), "%s: got \"%s\", want \"%s\"",
		      bad_files[_i].name, err, bad_files[_i].want);
	ck_assert_uint_eq(r.nphases, 0); /* nothing half-loaded is left behind */
}
END_TEST

static unsigned count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	unsigned n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

/* A save that cannot be completed (here: the file size limit, as a full disk would)
 * reports it and leaves the previous file as it was, with no temp file left over. */
START_TEST(save_full_disk_keeps_previous)
{
	struct result small, big, back;
	char path[512], err[512];
	struct rlimit rl;

	build(&small, 1);
	build(&big, 64);
	snprintf(path, sizeof(path), "%s/keep.json", tmpdir);
	ck_assert_msg(result_save(&small, path, err, sizeof(err)) == 0, "%s", err);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);

	struct rlimit saved;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, SIG_IGN);
	rl = saved;
	rl.rlim_cur = (rlim_t)st.st_size + 1024; /* the soft limit only, so it can be raised back */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	int rc = result_save(&big, path, err, sizeof(err));
	setrlimit(RLIMIT_FSIZE, &saved); /* the rest of the test may write freely again */
	ck_assert_int_eq(rc, -EFBIG);
	ck_assert_msg(strstr(err, "keep.json: writing: File too large (the previous file is "
				  "untouched)"),
		      "%s", err);
	ck_assert_uint_eq(count_entries(tmpdir), 1);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	assert_result_eq(&small, &back);
	result_free(&small);
	result_free(&big);
	result_free(&back);
}
END_TEST

START_TEST(save_bad_dir)
{
	struct result r;
	char path[512], err[512];
	build(&r, 1);
	snprintf(path, sizeof(path), "%s/no/such/dir/r.json", tmpdir);
	ck_assert_int_eq(result_save(&r, path, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "r.json: creating a temporary file: No such file"), "%s", err);
	result_free(&r);
}
END_TEST

START_TEST(dir_from_environment)
{
	char buf[512], want[512], results[512], xdg[512], home[512];
	struct settings s = {.results = results, .data_home = xdg};
	struct stat st;

	/* DRIVEBENCH_RESULTS first, made as the others are */
	snprintf(results, sizeof(results), "%s/site/results", tmpdir);
	snprintf(xdg, sizeof(xdg), "%s/xdg", tmpdir);
	ck_assert_int_eq(result_dir(&s, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, results);
	ck_assert(stat(buf, &st) == 0 && S_ISDIR(st.st_mode));
	/* an empty one is as none */
	s.results = "";

	snprintf(want, sizeof(want), "%s/xdg/drivebench/results", tmpdir);
	ck_assert_int_eq(result_dir(&s, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
	ck_assert(stat(buf, &st) == 0 && S_ISDIR(st.st_mode));

	s.data_home = NULL;
	snprintf(home, sizeof(home), "%s/home", tmpdir);
	s.home = home;
	snprintf(want, sizeof(want), "%s/home/.local/share/drivebench/results", tmpdir);
	ck_assert_int_eq(result_dir(&s, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
	ck_assert(stat(buf, &st) == 0 && S_ISDIR(st.st_mode));
}
END_TEST

START_TEST(default_path)
{
	char p1[600], p2[600];

	ck_assert_int_eq(result_default_path(p1, sizeof(p1), tmpdir, "/dev/nvme0n1", "8K 70/30"),
			 0);
	const char *base = strrchr(p1, '/') + 1;
	char host[256] = "", want[300];
	/* 2026-11-30T13-05-21_bench3_nvme0n1_8k-7030.json: the host's short name, lower case */
	ck_assert_int_eq(gethostname(host, sizeof(host) - 1), 0);
	host[strcspn(host, ".")] = '\0';
	for (char *c = host; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	snprintf(want, sizeof(want), "_%s_nvme0n1_8k-7030.json", host);
	ck_assert_msg(strstr(base, want) == base + 19, "%s (want %s after the time)", base, want);
	ck_assert_uint_eq(strlen(base), 19 + strlen(want));
	ck_assert(base[4] == '-' && base[10] == 'T' && base[13] == '-');
	/* whether the name is free is result_create()'s to find (check_result_file.c) */
	ck_assert_int_eq(result_default_path(p2, sizeof(p2), tmpdir, "/tmp/x.img", NULL), 0);
	ck_assert_msg(strstr(p2, "_x.img.json"), "%s", p2);
}
END_TEST

START_TEST(status_names)
{
	ck_assert_str_eq(result_status_name[RS_COMPLETE], "complete");
	ck_assert_str_eq(result_status_name[RS_INCOMPLETE], "incomplete");
	ck_assert_str_eq(phase_kind_name[PH_PRECONDITION], "precondition");
}
END_TEST

START_TEST(list_dir)
{
	static const char *const started[] = {"2026-01-02T00:00:00Z", "2026-03-01T00:00:00Z",
					      "2025-12-31T23:59:59Z"};
	static const time_t when[] = {1767312000, 1772323200, 1767225599}; /* saved then */
	const struct result_entry *e;
	struct result_list l;
	char path[512], err[512];

	for (unsigned i = 0; i < 3; i++) {
		struct result r;
		build(&r, i + 1);
		snprintf(r.started, sizeof(r.started), "%s", started[i]);
		snprintf(path, sizeof(path), "%s/r%u.json", tmpdir, i);
		ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
		result_free(&r);
		set_mtime(path, when[i]);
	}
	snprintf(path, sizeof(path), "%s/broken.json", tmpdir);
	FILE *f = fopen(path, "w");
	fputs("{\"format\": \"drivebench-result\", \"version\": 7}", f);
	fclose(f);
	set_mtime(path, 1000);
	snprintf(path, sizeof(path), "%s/.r.json.tmp123", tmpdir); /* a save in progress */
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/notes.txt", tmpdir);
	fclose(fopen(path, "w"));

	ck_assert_msg(result_list_dir(tmpdir, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_uint_eq(l.reads, 0); /* listed: nothing read yet */
	ck_assert_str_eq(result_list_entry(&l, 1)->started, started[0]);
	ck_assert_str_eq(result_list_entry(&l, 2)->started, started[2]);
	ck_assert_ptr_nonnull(e = result_list_entry(&l, 0));
	ck_assert_str_eq(e->started, started[1]);
	ck_assert_uint_eq(e->nsteps, 1 + 2); /* one precondition round + 2 steps */
	ck_assert_uint_eq(e->nphases, 2);
	ck_assert_str_eq(e->model, "Micron P400m");
	ck_assert_str_eq(e->firmware, "0200");
	ck_assert_str_eq(e->preset, "8K 70/30");
	ck_assert_str_eq(e->target, "/dev/nvme0n1");
	ck_assert_uint_eq(e->capacity_bytes, 200049647616ull);
	ck_assert_int_eq(e->status, RS_COMPLETE);
	ck_assert_ptr_nonnull(e = result_list_entry(&l, 3));
	ck_assert_msg(strstr(e->error, "broken.json:1: format version 7 is newer"), "%s", e->error);
	ck_assert_ptr_null(result_list_entry(&l, 4));
	ck_assert_uint_eq(l.reads, 4); /* one page, read once */
	result_list_free(&l);

	snprintf(path, sizeof(path), "%s/nowhere", tmpdir);
	ck_assert_int_eq(result_list_dir(path, &l, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "nowhere: No such file"), "%s", err);
}
END_TEST

/* A list grows by a file and by a directory, sorted newest first; a missing path fails. */
START_TEST(list_add)
{
	struct result_list l;
	struct result r;
	char dir[600], path[700], err[600];

	snprintf(dir, sizeof(dir), "%s/add", tmpdir);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	for (unsigned i = 0; i < 3; i++) {
		build(&r, 1);
		snprintf(r.started, sizeof(r.started), "2026-11-%02uT10:00:00Z", 10 + i);
		snprintf(path, sizeof(path), "%s/%s%u.json", i == 2 ? tmpdir : dir, "a", i);
		ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
		result_free(&r);
		set_mtime(path, 1794823200 + 86400 * i);
	}
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(result_list_add(&l, dir, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_int_eq(result_list_add(&l, path, err, sizeof(err)), 0); /* the third, a file */
	ck_assert_uint_eq(l.n, 3);
	ck_assert_str_eq(result_list_path(&l, 0), path);
	ck_assert_str_eq(result_list_entry(&l, 0)->started, "2026-11-12T10:00:00Z");
	ck_assert_str_eq(result_list_entry(&l, 2)->started, "2026-11-10T10:00:00Z");
	ck_assert_str_eq(result_list_entry(&l, 1)->label, "P400m FW 0200 \u00e9 retest");
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	ck_assert_int_eq(result_list_add(&l, path, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "none: No such file"), "%s", err);
	ck_assert_uint_eq(l.n, 3);
	result_list_free(&l);
}
END_TEST

static const struct {
	const char *target;
	bool fw;
	const char *want;
	const char *label;
} labels[] = {
	{"{\"path\": \"/dev/sdb\", \"size\": 200049647616, \"drive\": {\"model\": \"Micron "
	 "P400m\", \"firmware\": \"0200\", \"capacity_bytes\": 200049647616}}",
	 false, "Micron P400m 200GB"},
	{"{\"path\": \"/dev/sdb\", \"drive\": {\"model\": \"Micron P400m\", \"firmware\": "
	 "\"0200\", \"capacity_bytes\": 200049647616}}",
	 true, "Micron P400m 200GB FW 0200"},
	{"{\"path\": \"/dev/nvme0n1\", \"drive\": {\"model\": \"\", \"capacity_bytes\": "
	 "1920383410176, \"nvme\": {\"model\": \"SAMSUNG MZQL21T9\"}}}",
	 false, "SAMSUNG MZQL21T9 1.92TB"},
	{"{\"path\": \"/tmp/scratch.img\", \"kind\": \"file\", \"size\": 1073741824}", true,
	 "/tmp/scratch.img"},
	{"{\"path\": \"/dev/sdc\", \"drive\": {\"model\": \"Disk\", \"capacity_bytes\": "
	 "3200000000000}}",
	 false, "Disk 3.2TB"},
	{"{\"path\": \"/dev/sdb\", \"drive\": {\"model\": \"Micron P400m\", \"firmware\": "
	 "\"0200\"}}",
	 false, "old sample", "old sample"},
	{"{\"path\": \"/dev/sdb\", \"drive\": {\"model\": \"Micron P400m\", \"firmware\": "
	 "\"0200\"}}",
	 true, "old sample FW 0200", "old sample"},
	{"{\"path\": \"/tmp/scratch.img\", \"kind\": \"file\"}", true, "scratch", "scratch"},
};

START_TEST(label)
{
	struct result r;
	char buf[256];

	result_init(&r);
	r.target = json_tokener_parse(labels[_i].target);
	ck_assert_int_eq(result_summarize(&r), 0);
	ck_assert_ptr_nonnull(r.target);
	if (labels[_i].label)
		snprintf(r.label, sizeof(r.label), "%s", labels[_i].label);
	ck_assert_str_eq(result_label(&r, labels[_i].fw, buf, sizeof(buf)), labels[_i].want);
	result_free(&r);
}
END_TEST

/* Parallel loading gives what one-by-one loading gives; the first bad file (in argument
 * order) is the one reported, and nothing stays loaded. */
START_TEST(load_many)
{
	enum { N = 7 };
	struct result one[N], many[N];
	char paths[N][512], err[512];
	const char *ptrs[N];

	for (unsigned i = 0; i < N; i++) {
		struct result r;
		build(&r, i + 1);
		snprintf(paths[i], sizeof(paths[i]), "%s/m%u.json", tmpdir, i);
		ck_assert_msg(result_save(&r, paths[i], err, sizeof(err)) == 0, "%s", err);
		result_free(&r);
		ptrs[i] = paths[i];
		ck_assert_int_eq(result_load(&one[i], paths[i], err, sizeof(err)), 0);
	}
	ck_assert_msg(result_load_many(many, ptrs, N, RESULT_LOAD_ALL, err, sizeof(err)) == 0, "%s",
		      err);
	for (unsigned i = 0; i < N; i++) {
		assert_result_eq(&one[i], &many[i]);
		ck_assert_str_eq(many[i].path, paths[i]);
		result_free(&one[i]);
		result_free(&many[i]);
	}

	char bad2[512], bad5[512];
	snprintf(bad2, sizeof(bad2), "%s/none.json", tmpdir);
	snprintf(bad5, sizeof(bad5), "%s/m5.json", tmpdir);
	FILE *f = fopen(bad5, "w");
	fputs("[]", f);
	fclose(f);
	ptrs[2] = bad2;
	ck_assert_int_eq(result_load_many(many, ptrs, N, RESULT_LOAD_ALL, err, sizeof(err)),
			 -ENOENT);
	ck_assert_msg(strstr(err, "none.json: No such file"), "%s", err);
}
END_TEST

static const struct {
	uint64_t bytes;
	const char *want;
} capacities[] = {
	{200049647616ull, "200GB"}, {1920383410176ull, "1.92TB"}, {3200631791616ull, "3.2TB"},
	{960197124096ull, "960GB"}, {999999999999ull, "1TB"},	  {512ull, "512B"},
};

START_TEST(capacity_labels)
{
	char buf[32];
	ck_assert_str_eq(units_fmt_capacity_compact(buf, sizeof(buf), capacities[_i].bytes),
			 capacities[_i].want);
}
END_TEST

/* Only regular files are read: a FIFO, a device, a directory are refused at once. */
START_TEST(not_regular)
{
	struct result r;
	char path[512], err[512];

	snprintf(path, sizeof(path), "%s/fifo.json", tmpdir);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	ck_assert_int_lt(result_load(&r, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "fifo.json: a FIFO, not a result file"), "%s", err);
	ck_assert_int_eq(result_load(&r, "/dev/zero", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "/dev/zero: a character device, not a result file");
	ck_assert_int_eq(result_load(&r, tmpdir, err, sizeof(err)), -EISDIR);
	/* and the library lists the FIFO as a file it could not read, without waiting */
	struct result_list l;
	ck_assert_int_eq(result_list_dir(tmpdir, &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_msg(strstr(result_list_entry(&l, 0)->error, "a FIFO"), "%s",
		      result_list_entry(&l, 0)->error);
	result_list_free(&l);
}
END_TEST

static char *write_file(const char *name, const char *text, size_t len)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

/* A text of `n` copies of `item` joined by commas inside head and tail. */
static char *repeat(const char *head, const char *item, size_t n, const char *tail, size_t *len)
{
	size_t hl = strlen(head), il = strlen(item), tl = strlen(tail);
	char *s = malloc(hl + n * (il + 1) + tl + 1), *o = s;
	memcpy(o, head, hl);
	o += hl;
	for (size_t i = 0; i < n; i++) {
		if (i)
			*o++ = ',';
		memcpy(o, item, il);
		o += il;
	}
	memcpy(o, tail, tl + 1);
	*len = (size_t)(o - s) + tl;
	return s;
}

/* The documented limits: past each, the file is refused and the message names the limit. */
START_TEST(limits)
{
	struct result r;
	char err[512];
	size_t len;
	char *text, *path;

	/* the file size, from its size alone: nothing is read */
	snprintf(err, sizeof(err), "%s/big.json", tmpdir);
	FILE *f = fopen(err, "w");
	ck_assert_int_eq(ftruncate(fileno(f), (off_t)RESULT_MAX_FILE_BYTES + 1), 0);
	fclose(f);
	char big[512];
	snprintf(big, sizeof(big), "%s", err);
	ck_assert_int_eq(result_load(&r, big, err, sizeof(err)), -EFBIG);
	ck_assert_msg(strstr(err, "over the limit of 512 MiB for a result file"), "%s", err);

	/* steps over all phases */
	text = repeat(
		"{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{\"steps\": [",
		"{\"hist\": {}}", RESULT_MAX_STEPS + 1, "]}]}", &len);
	path = write_file("steps.json", text, len);
	free(text);
	ck_assert_int_lt(result_load(&r, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "more than 10000 steps (the limit)"), "%s", err);

	/* samples in one step */
	text = repeat(
		"{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{\"steps\": "
		"[{\"samples\": {\"fields\": [\"dur_ns\"], \"rows\": [",
		"[1]", RESULT_MAX_SAMPLES + 1, "]}}]}]}", &len);
	path = write_file("samples.json", text, len);
	free(text);
	ck_assert_int_lt(result_load(&r, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "more than 1000000 samples in a step (the limit)"), "%s", err);
	/* the step summaries alone still read (show, compare) */
	ck_assert_msg(result_load_opts(&r, path, 0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.phases[0].steps[0].nsamples, 0);
	result_free(&r);

	/* the preset text replay would run */
	text = repeat(
		"{\"format\": \"drivebench-result\", \"version\": 2, \"preset\": {\"text\": \"", "",
		RESULT_MAX_PRESET_BYTES + 2, "\"}}", &len);
	path = write_file("preset.json", text, len);
	free(text);
	ck_assert_int_lt(result_load(&r, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "over the limit of 1048576"), "%s", err);

	/* the host record */
	text = repeat("{\"format\": \"drivebench-result\", \"version\": 2, \"host\": {\"x\": [",
		      "1", RESULT_MAX_RECORD_BYTES / 2, "]}}", &len);
	path = write_file("host.json", text, len);
	free(text);
	ck_assert_int_lt(result_load(&r, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "\"host\" is 1048584 bytes, over the limit of 1048576"), "%s",
		      err);
}
END_TEST

/* Strings from a file come out well-formed, cut on character boundaries. */
START_TEST(strings_repaired)
{
	struct result r;
	char err[512], lbl[80];
	/* a label of 65 bytes: the 3-byte character at 62..64 does not fit in 64 */
	memset(lbl, 'a', 62);
	memcpy(lbl + 62, "\xe2\x82\xac", 4);
	char text[1024];
	int n = snprintf(
		text, sizeof(text),
		"{\"format\": \"drivebench-result\", \"version\": 2, "
		"\"target\": {\"drive\": {\"model\": \"Bad \xff\xfe \\ud800 \\u0000 end\"}}, "
		"\"preset\": {\"name\": \"caf\xc3\", \"text\": \"[preset]\\nname = \xc0\xaf\\n\"}, "
		"\"phases\": [{\"name\": \"p\\u00e9\", \"steps\": [{\"label\": \"%s\"}]}]}",
		lbl);
	const char *path = write_file("utf8.json", text, (size_t)n);
	ck_assert_msg(result_load(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(result_drive_model(&r),
			 "Bad \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd end");
	ck_assert_str_eq(r.preset_name, "caf\xef\xbf\xbd");
	ck_assert_str_eq(r.preset_text, "[preset]\nname = \xef\xbf\xbd\xef\xbf\xbd\n");
	ck_assert_str_eq(r.phases[0].name, "p\xc3\xa9");
	ck_assert_uint_eq(strlen(r.phases[0].steps[0].label), 62); /* the euro sign did not fit */
	result_free(&r);
}
END_TEST

/* A sample table leaves out what it can; what it left out reads back as it was. */
START_TEST(samples_v2_columns)
{
	struct result r, back;
	struct workload wl;
	char path[512], err[512];
	char *s = NULL;
	size_t len = 0;

	result_init(&r);
	workload_defaults(&wl);
	struct result_step *st = result_add_step(result_add_phase(&r, "run", PH_RUN), "x", &wl);
	for (unsigned k = 0; k < 5; k++) {
		struct sample sm = {
			.index = k, .start_ns = k * 1000000000ull, .dur_ns = 1000000000ull};
		sm.d[DIR_WRITE].ios = 1000 + k;
		sm.d[DIR_WRITE].bytes = 4096 * (1000 + k);
		sm.d[DIR_WRITE].iops = stats_per_sec(sm.d[DIR_WRITE].ios, sm.dur_ns);
		sm.d[DIR_WRITE].mbps = stats_per_sec(sm.d[DIR_WRITE].bytes, sm.dur_ns) / 1e6;
		sm.d[DIR_WRITE].mean_ns = 1234.5 + k;
		sm.d[DIR_WRITE].max_ns = 99999;
		sm.d[DIR_ALL] = sm.d[DIR_WRITE];
		ck_assert_int_eq(result_step_add_sample(st, &sm), 0);
	}
	FILE *f = open_memstream(&s, &len);
	ck_assert_int_eq(result_write(&r, f), 0);
	fclose(f);
	/* a write-only run: no read columns, no rates, "all" is "write" */
	ck_assert_ptr_nonnull(strstr(s, "\"all\": \"write\""));
	ck_assert_ptr_nonnull(strstr(s, "\"fields\": [\"dur_ns\", \"write.ios\", \"write.bytes\", "
					"\"write.mean_ns\", \"write.max_ns\"]"));
	ck_assert_ptr_nonnull(strstr(s, "[1000000000, 1004, 4112384, 1238.5, 99999]"));
	free(s);
	snprintf(path, sizeof(path), "%s/v2.json", tmpdir);
	ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	struct sample_iter a, b;
	struct sample x, y;
	sample_iter_init(&a, &r.phases[0].steps[0]);
	sample_iter_init(&b, &back.phases[0].steps[0]);
	while (sample_iter_next(&a, &x)) {
		ck_assert(sample_iter_next(&b, &y));
		assert_sample_eq(&x, &y);
	}
	ck_assert(!sample_iter_next(&b, &y));
	result_free(&r);
	result_free(&back);
}
END_TEST

/* Packed samples: a few bytes for what repeats, exact for what does not. */
START_TEST(packed_samples)
{
	struct result r;
	struct workload wl;
	struct sample sm, back;

	result_init(&r);
	workload_defaults(&wl);
	struct result_step *st = result_add_step(result_add_phase(&r, "run", PH_RUN), "x", &wl);
	for (unsigned k = 0; k < 1000; k++) {
		fill_sample(&sm, k);
		sm.d[DIR_READ].std_ns = k % 7 ? sm.d[DIR_READ].std_ns : NAN; /* not finite: kept */
		sm.d[DIR_WRITE].min_ns = UINT64_MAX - k;
		ck_assert_int_eq(result_step_add_sample(st, &sm), 0);
	}
	ck_assert_uint_eq(st->nsamples, 1000);
	/* three distinct directions, rates not what ios give: still 60% of the struct */
	ck_assert_uint_lt(st->pack.len, 1000 * sizeof(struct sample) * 6 / 10);
	for (unsigned k = 0; k < 1000; k += 37) {
		fill_sample(&sm, k);
		sm.d[DIR_READ].std_ns = k % 7 ? sm.d[DIR_READ].std_ns : NAN;
		sm.d[DIR_WRITE].min_ns = UINT64_MAX - k;
		ck_assert(result_step_sample(st, k, &back));
		assert_sample_eq(&sm, &back);
	}
	ck_assert(!result_step_sample(st, 1000, &back));
	result_free(&r);
}
END_TEST

/* host_stall_ns: packed only when not 0, a version 2 column only when some sample has one. */
START_TEST(host_stall_columns)
{
	struct result r, back;
	struct workload wl;
	char path[512], err[512];
	char *s = NULL;
	size_t len = 0;

	result_init(&r);
	workload_defaults(&wl);
	struct result_phase *ph = result_add_phase(&r, "run", PH_RUN);
	struct result_step *st = result_add_step(ph, "stalled", &wl);
	for (unsigned k = 0; k < 6; k++) {
		struct sample sm;
		fill_sample(&sm, k);
		sm.host_stall_ns = k == 2 ? 25000000ull : k == 5 ? UINT64_MAX : 0;
		ck_assert_int_eq(result_step_add_sample(st, &sm), 0);
	}
	for (unsigned k = 0; k < 6; k++) {
		struct sample sm, got;
		fill_sample(&sm, k);
		sm.host_stall_ns = k == 2 ? 25000000ull : k == 5 ? UINT64_MAX : 0;
		ck_assert(result_step_sample(st, k, &got));
		assert_sample_eq(&sm, &got);
	}
	/* a step with no stall: no column */
	st = result_add_step(ph, "calm", &wl);
	for (unsigned k = 0; k < 3; k++) {
		struct sample sm;
		fill_sample(&sm, k);
		ck_assert_int_eq(result_step_add_sample(st, &sm), 0);
	}
	FILE *f = open_memstream(&s, &len);
	ck_assert_int_eq(result_write(&r, f), 0);
	fclose(f);
	char *first = strstr(s, "\"dur_ns\", \"host_stall_ns\", ");
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_null(strstr(first + 20, "host_stall_ns")); /* not in the calm step */
	free(s);

	snprintf(path, sizeof(path), "%s/stall.json", tmpdir);
	ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(back.phases[0].nsteps, 2);
	for (unsigned i = 0; i < 2; i++) {
		struct sample_iter ia, ib;
		struct sample ma, mb;
		sample_iter_init(&ia, &r.phases[0].steps[i]);
		sample_iter_init(&ib, &back.phases[0].steps[i]);
		while (sample_iter_next(&ia, &ma)) {
			ck_assert(sample_iter_next(&ib, &mb));
			assert_sample_eq(&ma, &mb);
		}
		ck_assert(!sample_iter_next(&ib, &mb));
	}
	result_free(&back);
	result_free(&r);

	/* version 1: a sample object's host_stall_ns; absent is 0 */
	static const char v1[] =
		"{\"format\": \"drivebench-result\", \"version\": 1, \"phases\": [{\"steps\": [{"
		"\"samples\": [{\"index\": 0, \"dur_ns\": 1000, \"host_stall_ns\": 300}, "
		"{\"index\": 1, \"start_ns\": 1000, \"dur_ns\": 1000}]}]}]}";
	const char *p1 = write_file("v1stall.json", v1, strlen(v1));
	ck_assert_msg(result_load(&back, p1, err, sizeof(err)) == 0, "%s", err);
	struct sample a, b;
	ck_assert(result_step_sample(&back.phases[0].steps[0], 0, &a));
	ck_assert(result_step_sample(&back.phases[0].steps[0], 1, &b));
	ck_assert_uint_eq(a.host_stall_ns, 300);
	ck_assert_uint_eq(b.host_stall_ns, 0);
	result_free(&back);

	/* version 2 with the column; a negative stall is refused like any count */
	static const char v2[] =
		"{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{\"steps\": [{"
		"\"samples\": {\"fields\": [\"dur_ns\", \"host_stall_ns\"], "
		"\"rows\": [[1000, 0], [1000, 700]]}}]}]}";
	const char *p2 = write_file("v2stall.json", v2, strlen(v2));
	ck_assert_msg(result_load(&back, p2, err, sizeof(err)) == 0, "%s", err);
	ck_assert(result_step_sample(&back.phases[0].steps[0], 1, &b));
	ck_assert_uint_eq(b.host_stall_ns, 700);
	ck_assert_uint_eq(b.start_ns, 1000);
	result_free(&back);
	static const char v2neg[] =
		"{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{\"steps\": [{"
		"\"samples\": {\"fields\": [\"dur_ns\", \"host_stall_ns\"], "
		"\"rows\": [[1000, -1]]}}]}]}";
	const char *p3 = write_file("v2neg.json", v2neg, strlen(v2neg));
	ck_assert_int_lt(result_load(&back, p3, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "samples.rows[0]: \"host_stall_ns\" is negative"), "%s", err);
}
END_TEST

/* Warnings from a file: unknown codes kept, a code twice kept once, text repaired, a limit. */
START_TEST(warnings_loaded)
{
	struct result r;
	char err[512];
	static const char text[] =
		"{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{\"steps\": [{"
		"\"warnings\": [{\"code\": \"host-stall\", \"text\": \"first\"}, "
		"{\"code\": \"from-the-future\", \"text\": \"bad \xff byte\\u001b[31m\", \"x\": 1}, "
		"{\"code\": \"host-stall\", \"text\": \"second\"}]}]}]}";
	const char *path = write_file("warn.json", text, strlen(text));

	ck_assert_msg(result_load(&r, path, err, sizeof(err)) == 0, "%s", err);
	const struct result_step *st = &r.phases[0].steps[0];
	ck_assert_uint_eq(st->nwarnings, 2);
	ck_assert_str_eq(result_step_warning(st, "host-stall")->text, "second");
	ck_assert_str_eq(result_step_warning(st, "from-the-future")->text,
			 "bad \xef\xbf\xbd byte\x1b[31m");
	ck_assert_ptr_null(result_step_warning(st, "threads-idle"));
	result_free(&r);

	/* more distinct codes than the limit */
	char *big = malloc(64 * 1024), *o = big;
	o += sprintf(o, "{\"format\": \"drivebench-result\", \"version\": 2, \"phases\": [{"
			"\"steps\": [{\"warnings\": [");
	for (unsigned i = 0; i <= RESULT_MAX_WARNINGS; i++)
		o += sprintf(o, "%s{\"code\": \"c%u\"}", i ? ", " : "", i);
	o += sprintf(o, "]}]}]}");
	path = write_file("manywarn.json", big, (size_t)(o - big));
	free(big);
	ck_assert_int_lt(result_load(&r, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "more than 64 warnings in a step"), "%s", err);
	ck_assert_uint_eq(r.nphases, 0);
}
END_TEST

/* a step's definition in words: the null engine's "(no I/O)" is not wrapped again */
START_TEST(definition_words)
{
	struct step_def d;
	char words[512];

	step_def_measured(&d, "null (no I/O)", false, 1, 512, 512, -1);
	step_def_describe(&d, words, sizeof(words));
	ck_assert_msg(strstr(words, "engine null (no I/O),"), "%s", words);
	step_def_measured(&d, "io_uring SINGLE_ISSUER", false, 1, 512, 512, -1);
	step_def_describe(&d, words, sizeof(words));
	ck_assert_msg(strstr(words, "engine io_uring (SINGLE_ISSUER),"), "%s", words);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("result");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, round_trip, 0, 5);
	tcase_add_test(tc, format_and_version_first);
	tcase_add_test(tc, definition_words);
	tcase_add_test(tc, not_a_number_is_null);
	tcase_add_test(tc, host_facts);
	tcase_add_test(tc, many_steps_grow);
	tcase_add_loop_test(tc, load_errors, 0, (int)(sizeof(bad_files) / sizeof(bad_files[0])));
	tcase_add_test(tc, save_full_disk_keeps_previous);
	tcase_add_test(tc, save_bad_dir);
	tcase_add_test(tc, dir_from_environment);
	tcase_add_test(tc, default_path);
	tcase_add_test(tc, status_names);
	tcase_add_test(tc, list_dir);
	tcase_add_test(tc, load_many);
	tcase_add_test(tc, list_add);
	tcase_add_test(tc, not_regular);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, strings_repaired);
	tcase_add_test(tc, samples_v2_columns);
	tcase_add_test(tc, packed_samples);
	tcase_add_test(tc, host_stall_columns);
	tcase_add_test(tc, warnings_loaded);
	tcase_add_loop_test(tc, capacity_labels, 0,
			    (int)(sizeof(capacities) / sizeof(capacities[0])));
	tcase_add_loop_test(tc, label, 0, (int)(sizeof(labels) / sizeof(labels[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
