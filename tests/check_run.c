// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run module, the one door: what it opens is what it checks and records, it never
 * blocks on a target, and an output it cannot write is found before the first I/O.
 * Targets are regular files in a directory of the test's own (block devices, mounts and
 * the guard's refusals are in tests/t_safety.sh).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "preset.h"
#include "result_io.h"
#include "run.h"
#include "step_streams.h"
#include "rundir.h"
#include "testlib.h"

static struct plan *write_plan(void)
{
	static const struct preset_setting set[] = {
		{"read", "0", "--read 0"},
		{"time", "100ms", "--time 100ms"},
		{"interval", "50ms", "--interval 50ms"},
	};
	char err[512];
	struct plan *p = plan_from_settings(set, 3, "door", err, sizeof(err));

	ck_assert_msg(p != NULL, "%s", err);
	return p;
}

static char *make_file(const char *name, uint64_t size)
{
	char *path = malloc(4096);
	int fd;

	snprintf(path, 4096, "%s/%s", tmpdir, name);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	close(fd);
	return path;
}

static const char *target_str(const struct result *res, const char *key)
{
	struct json_object *v;

	if (!res->target || !json_object_object_get_ex(res->target, key, &v))
		return NULL;
	return json_object_get_string(v);
}

/* Through a symlink: the file it resolved to is opened, recorded, and written first. */
START_TEST(test_open_records_what_was_opened)
{
	char *file = make_file("target.img", 8 << 20), link[4096], out[4096], err[1024];
	struct plan *p = write_plan();
	struct result saved;
	struct run *r;

	snprintf(link, sizeof(link), "%s/alias", tmpdir);
	ck_assert_int_eq(symlink(file, link), 0);
	snprintf(out, sizeof(out), "%s/r.json", tmpdir);
	struct run_request rq = {.plan = p, .target_path = link, .out_path = out,
				 .ops = &engine_null};
	ck_assert_msg(run_open(&r, &rq, err, sizeof(err)) == 0, "%s", err);
	ck_assert(!run_target(r)->is_blockdev);
	ck_assert(run_target(r)->writable);
	ck_assert_str_eq(run_target(r)->resolved, file);
	ck_assert_str_eq(target_str(run_result(r), "path"), link);
	ck_assert_str_eq(target_str(run_result(r), "resolved"), file);
	/* the result file exists before the first I/O, marked incomplete */
	result_init(&saved);
	ck_assert_msg(result_load(&saved, out, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(saved.status, RS_INCOMPLETE);
	ck_assert_uint_eq(saved.nphases, 0);
	result_free(&saved);
	/* the link now pointing elsewhere changes nothing about the run */
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(symlink("/dev/null", link), 0);
	ck_assert_int_eq(run_execute(r, NULL, 0, NULL, NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(run_result(r)->status, RS_COMPLETE);
	ck_assert_int_eq(run_target(r)->fd, -1); /* given back before the result is saved */
	run_close(r);
	result_init(&saved);
	ck_assert_msg(result_load(&saved, out, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(saved.status, RS_COMPLETE);
	result_free(&saved);
	plan_free(p);
	free(file);
}
END_TEST

/* Targets that are not opened: each fails at once, as bad input, with no result file. */
static const struct {
	const char *what;
	int want;
} bad_targets[] = {
	{"fifo", -EINVAL},
	{"directory", -EINVAL},
	{"missing", -ENOENT},
	{"dangling", -ENOENT},
};

START_TEST(test_bad_targets)
{
	char path[4096], out[4096], err[1024];
	struct plan *p = write_plan();
	struct run *r = NULL;
	struct stat st;

	snprintf(path, sizeof(path), "%s/t", tmpdir);
	snprintf(out, sizeof(out), "%s/r.json", tmpdir);
	if (!strcmp(bad_targets[_i].what, "fifo"))
		ck_assert_int_eq(mkfifo(path, 0600), 0);
	else if (!strcmp(bad_targets[_i].what, "directory"))
		ck_assert_int_eq(mkdir(path, 0700), 0);
	else if (!strcmp(bad_targets[_i].what, "dangling"))
		ck_assert_int_eq(symlink("/nonexistent/drivebench", path), 0);
	struct run_request rq = {.plan = p, .target_path = path, .out_path = out,
				 .ops = &engine_null};
	/* a FIFO with no writer would block an open(): this returns at once */
	alarm(5);
	ck_assert_int_eq(run_open(&r, &rq, err, sizeof(err)), bad_targets[_i].want);
	alarm(0);
	ck_assert_ptr_null(r);
	ck_assert(!run_refused(bad_targets[_i].want));
	ck_assert_msg(strstr(err, path) != NULL, "%s", err);
	ck_assert_int_ne(stat(out, &st), 0);
	plan_free(p);
}
END_TEST

/* An output that cannot be written: found before the run, naming the file; no I/O. */
static const char *const bad_outputs[] = {"plain/r.json", "no/such/dir/r.json", "adir"};

START_TEST(test_bad_outputs)
{
	char *file = make_file("target.img", 8 << 20), out[4096], err[1024], want[4096];
	struct plan *p = write_plan();
	struct run *r = NULL;
	struct stat st0, st1;
	int fd;

	fd = open(file, O_WRONLY);
	ck_assert_int_eq(pwrite(fd, "drivebench", 10, 0), 10);
	close(fd);
	ck_assert_int_eq(stat(file, &st0), 0);
	free(make_file("plain", 0));
	snprintf(out, sizeof(out), "%s/adir", tmpdir);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	snprintf(out, sizeof(out), "%s/%s", tmpdir, bad_outputs[_i]);
	struct run_request rq = {.plan = p, .target_path = file, .out_path = out,
				 .ops = &engine_uring};
	ck_assert_int_lt(run_open(&r, &rq, err, sizeof(err)), 0);
	ck_assert_ptr_null(r);
	snprintf(want, sizeof(want), "%s", out);
	ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	ck_assert_int_eq(stat(file, &st1), 0);
	ck_assert_int_eq(st1.st_mtim.tv_sec, st0.st_mtim.tv_sec);
	ck_assert_int_eq(st1.st_mtim.tv_nsec, st0.st_mtim.tv_nsec);
	plan_free(p);
	free(file);
}
END_TEST

/* The default result file is named after the target and the plan, or the label given. */
START_TEST(test_default_path)
{
	char *file = make_file("disk0.img", 8 << 20), dir[4096], err[1024];
	struct plan *p = write_plan();
	struct run *r;

	snprintf(dir, sizeof(dir), "%s/results", tmpdir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	struct run_request rq = {.plan = p, .target_path = file, .results_dir = dir,
				 .plan_label = "quick", .ops = &engine_null};
	ck_assert_msg(run_open(&r, &rq, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(strstr(run_result_path(r), "/results/") &&
			      strstr(run_result_path(r), "_disk0.img_quick.json"),
		      "%s", run_result_path(r));
	run_close(r);
	plan_free(p);
	free(file);
}
END_TEST

/*
 * Autosaves: the door saves the growing result (incomplete) and says so once each is
 * written, the last at the latest before the final save (its saver thread writes one at
 * a time: how many a 100 ms run has is the host's to say, one at least); the runner never.
 */
struct saves {
	const char *path;
	unsigned n;
	bool incomplete; /* every file read back at an autosave was incomplete */
};

static void on_save(void *arg, const struct runner_event *ev)
{
	struct saves *sv = arg;
	struct result back;
	char err[512];

	if (ev->kind != RUN_EV_AUTOSAVE)
		return;
	ck_assert_str_eq(ev->msg, sv->path);
	sv->n++;
	result_init(&back);
	ck_assert_msg(result_load(&back, sv->path, err, sizeof(err)) == 0, "%s", err);
	sv->incomplete &= back.status == RS_INCOMPLETE && back.nphases == 1;
	result_free(&back);
}

START_TEST(test_autosave)
{
	char *file = make_file("target.img", 8 << 20), out[4096], err[1024];
	struct plan *p = write_plan();
	struct saves sv = {.path = out, .incomplete = true};
	struct result back;
	struct run *r;

	snprintf(out, sizeof(out), "%s/r.json", tmpdir);
	struct run_request rq = {.plan = p, .target_path = file, .out_path = out,
				 .ops = &engine_null};
	ck_assert_msg(run_open(&r, &rq, err, sizeof(err)) == 0, "%s", err);
	/* every 1 ns: after every sample, the step and the phase */
	ck_assert_int_eq(run_execute(r, NULL, 1, on_save, &sv, err, sizeof(err)), 0);
	run_close(r);
	ck_assert_uint_ge(sv.n, 1);
	ck_assert(sv.incomplete);
	result_init(&back);
	ck_assert_msg(result_load(&back, out, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(back.status, RS_COMPLETE);
	result_free(&back);
	plan_free(p);
	free(file);
}
END_TEST

/*
 * Several targets: each opened and recorded, every step on all of them at once, a stream
 * per target whose counts sum to the step's, and each file written.
 */
START_TEST(test_targets)
{
	char *a = make_file("a.img", 8 << 20), *b = make_file("b.img", 4 << 20);
	const char *paths[] = {a, b};
	char out[4096], err[1024];
	struct plan *p = write_plan();
	struct result back;
	struct run *r;
	struct stat st;

	snprintf(out, sizeof(out), "%s/r.json", tmpdir);
	struct run_request rq = {.plan = p, .target_paths = paths, .ntargets = 2,
				 .out_path = out, .ops = &engine_uring};
	ck_assert_msg(run_open(&r, &rq, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(run_execute(r, NULL, 0, NULL, NULL, err, sizeof(err)), 0);
	run_close(r);
	result_init(&back);
	ck_assert_msg(result_load(&back, out, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(back.status, RS_COMPLETE);
	ck_assert_ptr_nonnull(back.targets);
	ck_assert_uint_eq(json_object_array_length(back.targets), 2);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(
				 json_object_array_get_idx(back.targets, 1), "path")),
			 b);
	ck_assert_str_eq(target_str(&back, "path"), a);
	const struct result_step *step = &back.phases[0].steps[0];
	ck_assert_uint_eq(step->nstreams, 2);
	ck_assert_str_eq(step->streams[0].label, "a.img");
	ck_assert_str_eq(step->streams[1].label, "b.img");
	ck_assert_uint_eq(step->streams[1].target_index, 1);
	for (int d = 0; d < NDIR; d++)
		ck_assert_uint_eq(step->summary.d[d].ios,
				  step->streams[0].summary.d[d].ios + step->streams[1].summary.d[d].ios);
	ck_assert_uint_gt(step->streams[0].summary.d[DIR_WRITE].ios, 0);
	ck_assert_uint_gt(step->streams[1].summary.d[DIR_WRITE].ios, 0);
	/* both written: no longer all holes */
	ck_assert_int_eq(stat(a, &st), 0);
	ck_assert_int_gt(st.st_blocks, 0);
	ck_assert_int_eq(stat(b, &st), 0);
	ck_assert_int_gt(st.st_blocks, 0);
	result_free(&back);
	plan_free(p);
	free(a);
	free(b);
}
END_TEST

/* One file given twice (by another name) is bad input, found before anything is written. */
START_TEST(test_targets_twice)
{
	char *a = make_file("a.img", 8 << 20), link[4096], out[4096], err[1024];
	const char *paths[] = {a, link}, *same[] = {a, a};
	struct plan *p = write_plan();
	struct run *r = NULL;
	struct stat st;

	snprintf(link, sizeof(link), "%s/alias", tmpdir);
	ck_assert_int_eq(symlink(a, link), 0);
	snprintf(out, sizeof(out), "%s/r.json", tmpdir);
	struct run_request rq = {.plan = p, .target_paths = paths, .ntargets = 2,
				 .out_path = out, .ops = &engine_null};
	ck_assert_int_eq(run_open(&r, &rq, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(err, "given twice") != NULL, "%s", err);
	rq.target_paths = same;
	ck_assert_int_eq(run_open(&r, &rq, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "given twice") != NULL, "%s", err);
	ck_assert_int_ne(stat(out, &st), 0);
	/* more than RUN_MAX_TARGETS */
	const char *many[RUN_MAX_TARGETS + 1];
	for (unsigned i = 0; i <= RUN_MAX_TARGETS; i++)
		many[i] = a;
	rq.target_paths = many;
	rq.ntargets = RUN_MAX_TARGETS + 1;
	ck_assert_int_eq(run_open(&r, &rq, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "at most") != NULL, "%s", err);
	plan_free(p);

	/* 3 streams on 6 targets: 18 streams a step, over the engine's 16, found at once */
	char *files[6];
	const char *six[6];
	for (unsigned i = 0; i < 6; i++) {
		char name[16];
		snprintf(name, sizeof(name), "t%u.img", i);
		six[i] = files[i] = make_file(name, 1 << 20);
	}
	p = preset_parse("[preset]\nname = s\n[measure]\ntime = 100ms\n[stream]\n[stream]\n"
			 "[stream]\n",
			 "s.preset", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	rq.plan = p;
	rq.target_paths = six;
	rq.ntargets = 6;
	ck_assert_int_eq(run_open(&r, &rq, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "s.preset:3: step stream 1 + stream 2 + stream 3: 3 streams on 6 "
			      "targets is over the limit of 16 streams a step");
	ck_assert_int_ne(stat(out, &st), 0);
	rq.ntargets = 5;
	ck_assert_msg(run_open(&r, &rq, err, sizeof(err)) == 0, "%s", err);
	run_close(r);
	for (unsigned i = 0; i < 6; i++)
		free(files[i]);
	plan_free(p);
	free(a);
}
END_TEST

/* Slot buffers (threads x qdepth x bs, over a step's streams and targets) and their ceiling. */
static const struct {
	const char *preset;
	unsigned ntargets;
	uint64_t ram;
	int want;
	const char *err;
} buffer_cases[] = {
	{"bs = 64m\nqdepth = 64\nthreads = 4\n", 1, 0, -EINVAL,
	 "b.preset:3: [measure] step 64m read random 4T64Q: slot buffers of 4 threads x "
	 "qdepth 64 x 64m blocks = 16g, over the ceiling of 1g (1 GiB or a quarter of the "
	 "RAM, whichever is smaller)"},
	{"bs = 1m\nqdepth = 128\nthreads = 8\n", 1, 0, 0, NULL}, /* 1 GiB: at the ceiling */
	{"bs = 1m\nqdepth = 128\nthreads = 8\n", 1, 2ull << 30, -EINVAL,
	 "b.preset:3: [measure] step 1m read random 8T128Q: slot buffers of 8 threads x "
	 "qdepth 128 x 1m blocks = 1g, over the ceiling of 512m (1 GiB or a quarter of the "
	 "RAM, whichever is smaller)"},
	{"bs = 1m\nqdepth = 128\nthreads = 3\n", 2, 0, 0, NULL},
	{"bs = 1m\nqdepth = 128\nthreads = 3\n", 3, 0, -EINVAL,
	 "b.preset:3: [measure] step 1m read random 3T128Q: slot buffers of 1152m over 1 "
	 "stream on 3 targets (the largest stream 3 threads x qdepth 128 x 1m blocks = 384m), "
	 "over the ceiling of 1g (1 GiB or a quarter of the RAM, whichever is smaller)"},
	{"bs = 1m\nqdepth = 128\nthreads = 3\n[stream]\n[stream]\nbssplit = 4k/50:2m/50\n", 1,
	 0, -EINVAL,
	 "b.preset:3: [measure] step stream 1 + stream 2: slot buffers of 1152m over 2 "
	 "streams on 1 target (the largest stream 3 threads x qdepth 128 x 2m blocks = 768m), "
	 "over the ceiling of 1g (1 GiB or a quarter of the RAM, whichever is smaller)"},
	{"bs = 64m\nqdepth = 4096\nthreads = 1024\n", 16, 0, -EINVAL, NULL}, /* 4 PiB */
};

START_TEST(test_buffer_ceiling)
{
	char text[512], err[1024] = "";
	struct plan *p;

	snprintf(text, sizeof(text), "[preset]\nname = b\n[measure]\ntime = 1s\n%s",
		 buffer_cases[_i].preset);
	p = preset_parse(text, "b.preset", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_int_eq(step_buffers_check(p, buffer_cases[_i].ntargets, buffer_cases[_i].ram,
					    err, sizeof(err)),
			 buffer_cases[_i].want);
	if (buffer_cases[_i].err)
		ck_assert_str_eq(err, buffer_cases[_i].err);
	plan_free(p);
	ck_assert_uint_eq(step_buffers_ceiling(0), 1ull << 30);
	ck_assert_uint_eq(step_buffers_ceiling(2ull << 30), 512ull << 20);
	ck_assert_uint_eq(step_buffers_ceiling(64ull << 30), 1ull << 30);
}
END_TEST

/* A plan over the ceiling is bad input, refused before its target is opened. */
START_TEST(test_buffer_ceiling_door)
{
	static const struct preset_setting set[] = {
		{"bs", "64m", "--bs 64m"}, {"qdepth", "64", "--qdepth 64"},
		{"threads", "4", "--threads 4"}, {"time", "1s", "--time 1s"}};
	char path[4096], out[4096], err[1024];
	struct plan *p = plan_from_settings(set, 4, "big", err, sizeof(err));
	struct run *r = NULL;
	struct stat st;

	ck_assert_msg(p != NULL, "%s", err);
	/* the target does not exist: its open would say so, had it come first */
	snprintf(path, sizeof(path), "%s/none.img", tmpdir);
	snprintf(out, sizeof(out), "%s/r.json", tmpdir);
	struct run_request rq = {.plan = p, .target_path = path, .out_path = out,
				 .ops = &engine_null};
	ck_assert_int_eq(run_open(&r, &rq, err, sizeof(err)), -EINVAL);
	ck_assert(!run_refused(-EINVAL));
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(err, "4 threads x qdepth 64 x 64m blocks = 16g, over the ceiling of "),
		      "%s", err);
	ck_assert_int_ne(stat(out, &st), 0);
	plan_free(p);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_open_records_what_was_opened);
	tcase_add_loop_test(tc, test_bad_targets, 0, sizeof(bad_targets) / sizeof(bad_targets[0]));
	tcase_add_loop_test(tc, test_bad_outputs, 0, sizeof(bad_outputs) / sizeof(bad_outputs[0]));
	tcase_add_test(tc, test_default_path);
	tcase_add_test(tc, test_autosave);
	tcase_add_test(tc, test_targets);
	tcase_add_test(tc, test_targets_twice);
	tcase_add_loop_test(tc, test_buffer_ceiling, 0,
			    sizeof(buffer_cases) / sizeof(buffer_cases[0]));
	tcase_add_test(tc, test_buffer_ceiling_door);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(run_suite)
