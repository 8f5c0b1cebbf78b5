// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result files and who writes them (result_file.c): a new file's name taken exclusively,
 * however many processes want it at once; the lock a run holds on its file across every
 * save; and rewrites (the TUI's label and note) refused while it is held, losing neither
 * the run's data nor the label. Other processes are forked children, kept in step by pipes
 * (never by sleeps).
 */
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result.h"
#include "result_saver.h"
#include "rundir.h"

/* A small run of nsteps steps of one sample each, status st. */
static void mini(struct result *r, unsigned nsteps, enum result_status st)
{
	struct workload wl;
	struct sample s = {.dur_ns = 1000000000ull};

	result_init(r);
	r->status = st;
	snprintf(r->started, sizeof(r->started), "2026-12-02T02:00:00Z");
	workload_defaults(&wl);
	struct result_phase *ph = result_add_phase(r, "run", PH_MEASURE);
	ck_assert_ptr_nonnull(ph);
	ph->status = st;
	for (unsigned i = 0; i < nsteps; i++) {
		char label[16];
		snprintf(label, sizeof(label), "step%u", i);
		struct result_step *rs = result_add_step(ph, label, &wl);
		ck_assert_ptr_nonnull(rs);
		rs->status = RS_COMPLETE;
		s.index = 0;
		s.d[DIR_READ].ios = 1000 + i;
		ck_assert_int_eq(result_step_add_sample(rs, &s), 0);
	}
}

/* Add one step to r's only phase (a run going on). */
static void one_more_step(struct result *r)
{
	struct workload wl;
	struct sample s = {.dur_ns = 1000000000ull};
	char label[16];

	workload_defaults(&wl);
	snprintf(label, sizeof(label), "step%u", r->phases[0].nsteps);
	struct result_step *rs = result_add_step(&r->phases[0], label, &wl);
	ck_assert_ptr_nonnull(rs);
	rs->status = RS_COMPLETE;
	ck_assert_int_eq(result_step_add_sample(rs, &s), 0);
}

/* The files in tmpdir, hidden ones (temporary files) included. */
static unsigned count_files(bool *hidden)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	unsigned n = 0;

	*hidden = false;
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			n++;
			*hidden |= e->d_name[0] == '.';
		}
	closedir(d);
	return n;
}

static void put_byte(int fd, char c)
{
	ck_assert_int_eq(write(fd, &c, 1), 1);
}

static char get_byte(int fd)
{
	char c = 0;
	ck_assert_int_eq(read(fd, &c, 1), 1);
	return c;
}

/* A name asked for three times: taken, then the next ones of its series. */
static const struct {
	const char *ask, *got[3];
} series[] = {
	{"a.json", {"a.json", "a-2.json", "a-3.json"}},
	{"2026_x.img_run-4.json",
	 {"2026_x.img_run-4.json", "2026_x.img_run-4-2.json", "2026_x.img_run-4-3.json"}},
	{"noext", {"noext", "noext-2", "noext-3"}},
	{"v1.0.json.bak", {"v1.0.json.bak", "v1.0.json.bak-2", "v1.0.json.bak-3"}},
};

START_TEST(new_name_series)
{
	struct result r[3];
	char path[4096], want[4096], err[512];
	bool hidden;

	for (unsigned i = 0; i < 3; i++) {
		mini(&r[i], 1 + i, RS_COMPLETE);
		snprintf(path, sizeof(path), "%s/%s", tmpdir, series[_i].ask);
		snprintf(want, sizeof(want), "%s/%s", tmpdir, series[_i].got[i]);
		ck_assert_msg(
			result_create(&r[i], path, sizeof(path), RESULT_NEW, err, sizeof(err)) == 0,
			"%s", err);
		ck_assert_str_eq(path, want);
		ck_assert_str_eq(r[i].path, want);
	}
	for (unsigned i = 0; i < 3; i++) {
		struct result back;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, series[_i].got[i]);
		ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_eq(back.phases[0].nsteps, 1 + i); /* each its own, none replaced */
		result_free(&back);
		result_free(&r[i]);
	}
	ck_assert_uint_eq(count_files(&hidden), 3);
	ck_assert(!hidden); /* no temporary file left behind */
}
END_TEST

#define RACERS 8

/*
 * RACERS processes let go at once (a pipe's end closed) each take a new file of one name:
 * all get their own, none is replaced, each file is its taker's whole result.
 */
START_TEST(new_names_race)
{
	int go[2], names[2];
	pid_t pid[RACERS];
	char seen[RACERS][4096] = {{0}};
	bool hidden;

	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(names), 0);
	for (unsigned i = 0; i < RACERS; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (pid[i] == 0) {
			struct result r;
			char path[4096], err[512], c;
			close(go[1]);
			mini(&r, 1 + i, RS_COMPLETE);
			snprintf(path, sizeof(path), "%s/same-second.json", tmpdir);
			if (read(go[0], &c, 1) != 0) /* EOF: everyone at once */
				_exit(2);
			if (result_create(&r, path, sizeof(path), RESULT_NEW, err, sizeof(err)))
				_exit(3);
			char line[4200];
			int n = snprintf(line, sizeof(line), "%u %s\n", i, path);
			_exit(write(names[1], line, (size_t)n) == n ? 0
								    : 4); /* atomic: < PIPE_BUF */
		}
	}
	close(go[0]);
	close(go[1]);
	close(names[1]);
	for (unsigned i = 0; i < RACERS; i++) {
		int st;
		ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "racer %u: status %d", i, st);
	}
	FILE *f = fdopen(names[0], "r");
	char line[4200];
	unsigned n = 0, who;
	while (fgets(line, sizeof(line), f)) {
		char path[4096];
		ck_assert_int_eq(sscanf(line, "%u %4095s", &who, path), 2);
		ck_assert_uint_lt(who, RACERS);
		for (unsigned k = 0; k < RACERS; k++)
			ck_assert_msg(strcmp(seen[k], path), "%s taken twice", path);
		snprintf(seen[who], sizeof(seen[who]), "%s", path);
		n++;
	}
	fclose(f);
	ck_assert_uint_eq(n, RACERS);
	for (unsigned i = 0; i < RACERS; i++) {
		struct result back;
		char err[512];
		ck_assert_msg(result_load(&back, seen[i], err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_eq(back.phases[0].nsteps, 1 + i); /* the taker's own result */
		result_free(&back);
	}
	ck_assert_uint_eq(count_files(&hidden), RACERS);
	ck_assert(!hidden);
}
END_TEST

/* The owner's lock holds across its saves (each a new inode) and ends with it. */
START_TEST(owner_lock_across_saves)
{
	struct result r;
	char path[4096], err[512];
	bool hidden;

	mini(&r, 1, RS_INCOMPLETE);
	snprintf(path, sizeof(path), "%s/own.json", tmpdir);
	ck_assert(!result_being_written(path));
	ck_assert_msg(result_create(&r, path, sizeof(path), RESULT_REPLACE, err, sizeof(err)) == 0,
		      "%s", err);
	for (unsigned i = 0; i < 5; i++) {
		/* flock: another open of the file conflicts, in this process too */
		ck_assert(result_being_written(path));
		one_more_step(&r);
		ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
	}
	ck_assert(result_being_written(path));
	result_free(&r);
	ck_assert(!result_being_written(path));
	ck_assert_uint_eq(count_files(&hidden), 1);
	ck_assert(!hidden);
}
END_TEST

/*
 * Saves written by the saver's thread (result_saver.h): each finished on this one keeps the
 * owner's lock on the new inode; one written and not yet taken refuses the next; a save
 * its owner gave up on is not renamed into place; and stop discards one never taken.
 */
START_TEST(saver_off_thread)
{
	struct result r, back;
	struct result_save s, t;
	struct result_saver *v = result_saver_start();
	char path[4096], err[512];
	atomic_bool gave_up = true;
	bool hidden;

	ck_assert_ptr_nonnull(v);
	mini(&r, 1, RS_INCOMPLETE);
	snprintf(path, sizeof(path), "%s/bg.json", tmpdir);
	ck_assert_msg(result_create(&r, path, sizeof(path), RESULT_REPLACE, err, sizeof(err)) == 0,
		      "%s", err);
	for (unsigned i = 0; i < 3; i++) {
		one_more_step(&r);
		ck_assert_int_eq(result_save_prepare(&r, path, &s, err, sizeof(err)), 0);
		ck_assert(s.own);
		ck_assert_int_eq(result_saver_give(v, &s), 0);
		ck_assert_ptr_null(s.text); /* the saver's now */
		ck_assert(result_saver_take(v, &s, 30000000000ull));
		ck_assert_msg(result_save_finish(&r, &s, err, sizeof(err)) == 0, "%s", err);
		ck_assert(result_being_written(path));
		ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_eq(back.phases[0].nsteps, i + 2);
		result_free(&back);
	}
	/* written, not taken: the next save waits its turn */
	one_more_step(&r);
	ck_assert_int_eq(result_save_prepare(&r, path, &s, err, sizeof(err)), 0);
	ck_assert_int_eq(result_saver_give(v, &s), 0);
	while (result_saver_busy_ns(v))
		usleep(1000);
	ck_assert_int_eq(result_save_prepare(&r, path, &t, err, sizeof(err)), 0);
	ck_assert_int_eq(result_saver_give(v, &t), -EBUSY);
	ck_assert_ptr_nonnull(t.text); /* still the caller's */
	ck_assert(result_saver_take(v, &s, 0));
	ck_assert_int_eq(result_save_finish(&r, &s, err, sizeof(err)), 0);
	/* given up on: written, never renamed into place, nothing left behind */
	one_more_step(&r);
	result_save_discard(&t);
	ck_assert_int_eq(result_save_prepare(&r, path, &t, err, sizeof(err)), 0);
	t.cancel = &gave_up;
	result_save_write(&t);
	ck_assert_int_eq(t.ret, -ECANCELED);
	result_save_discard(&t);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(back.phases[0].nsteps, 5);
	result_free(&back);
	ck_assert(result_being_written(path));
	/* stopped with a save written and never taken: that save goes with it */
	ck_assert_int_eq(result_save_prepare(&r, path, &s, err, sizeof(err)), 0);
	ck_assert_int_eq(result_saver_give(v, &s), 0);
	while (result_saver_busy_ns(v))
		usleep(1000);
	result_saver_stop(v);
	result_free(&r);
	ck_assert(!result_being_written(path));
	ck_assert_uint_eq(count_files(&hidden), 1);
	ck_assert(!hidden);
}
END_TEST

static int set_label(struct result *r, void *arg)
{
	snprintf(r->label, sizeof(r->label), "%s", (const char *)arg);
	return 0;
}

/*
 * A "run" in another process autosaves its result, one step a save; between saves (the
 * parent told of each through a pipe) every rewrite, second writer and unowned save is
 * refused, and the file is the run's latest save. Once the run has ended, the label is
 * written over the run's final file: both kept.
 */
START_TEST(rewrite_during_autosave)
{
	enum { SAVES = 6 };
	int told[2], go[2];
	char path[4096], err[512];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/live.json", tmpdir);
	ck_assert_int_eq(pipe(told), 0);
	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct result r;
		close(told[0]);
		close(go[1]);
		mini(&r, 1, RS_INCOMPLETE);
		if (result_create(&r, path, sizeof(path), RESULT_NEW, err, sizeof(err)))
			_exit(2);
		for (unsigned i = 0; i < SAVES; i++) {
			put_byte(told[1], 's');
			if (get_byte(go[0]) != 'g') /* the parent has looked */
				_exit(3);
			one_more_step(&r);
			if (i == SAVES - 1)
				r.status = r.phases[0].status = RS_COMPLETE;
			if (result_save(&r, path, err, sizeof(err)))
				_exit(4);
		}
		result_free(&r);
		_exit(0);
	}
	close(told[1]);
	close(go[0]);
	for (unsigned i = 0; i < SAVES; i++) {
		struct result mine, back;
		ck_assert_int_eq(get_byte(told[0]), 's');
		ck_assert(result_being_written(path));
		ck_assert_int_eq(result_rewrite(path, set_label, "too soon", err, sizeof(err)),
				 -EAGAIN);
		ck_assert_msg(strstr(err, "live.json: the run is still writing it"), "%s", err);
		mini(&mine, 1, RS_COMPLETE);
		char again[4096];
		snprintf(again, sizeof(again), "%s", path);
		ck_assert_int_eq(result_create(&mine, again, sizeof(again), RESULT_REPLACE, err,
					       sizeof(err)),
				 -EAGAIN);
		ck_assert_msg(strstr(err, "still writing it"), "%s", err);
		ck_assert_int_eq(result_save(&mine, path, err, sizeof(err)), -EAGAIN);
		result_free(&mine);
		ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_eq(back.phases[0].nsteps, 1 + i); /* the run's last save */
		ck_assert_str_eq(back.label, "");
		result_free(&back);
		put_byte(go[1], 'g');
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the run: status %d", st);
	ck_assert(!result_being_written(path));
	ck_assert_msg(result_rewrite(path, set_label, "after the run", err, sizeof(err)) == 0, "%s",
		      err);
	struct result back;
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(back.label, "after the run");
	ck_assert_uint_eq(back.phases[0].nsteps, 1 + SAVES);
	ck_assert_int_eq(back.status, RS_COMPLETE);
	ck_assert_uint_eq(back.phases[0].steps[SAVES].nsamples, 1);
	result_free(&back);
}
END_TEST

/*
 * Files nobody holds: replaced (an --out named twice in turn), rewritten (keeping its
 * time), missing.
 */
START_TEST(replace_when_free)
{
	struct result a, b, back;
	char path[4096], err[512];

	snprintf(path, sizeof(path), "%s/out.json", tmpdir);
	mini(&a, 1, RS_COMPLETE);
	mini(&b, 2, RS_COMPLETE);
	ck_assert_msg(result_create(&a, path, sizeof(path), RESULT_REPLACE, err, sizeof(err)) == 0,
		      "%s", err);
	result_release(&a);
	ck_assert(!result_being_written(path));
	ck_assert_msg(result_create(&b, path, sizeof(path), RESULT_REPLACE, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_str_eq(path + strlen(tmpdir), "/out.json"); /* replaced, not renamed */
	/* a's save to b's file: refused while b owns it */
	ck_assert_int_eq(result_save(&a, path, err, sizeof(err)), -EAGAIN);
	result_free(&b);
	ck_assert_msg(result_save(&a, path, err, sizeof(err)) == 0, "%s", err);
	/* a label keeps the time of the run's last save: the library's order */
	struct timespec saved[2] = {{.tv_sec = 1700000000}, {.tv_sec = 1700000000}};
	struct stat st;
	ck_assert_int_eq(utimensat(AT_FDCWD, path, saved, 0), 0);
	ck_assert_msg(result_rewrite(path, set_label, "x", err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mtim.tv_sec, 1700000000);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(back.phases[0].nsteps, 1);
	ck_assert_str_eq(back.label, "x");
	result_free(&back);
	result_free(&a);
	snprintf(path, sizeof(path), "%s/gone.json", tmpdir);
	ck_assert_int_eq(result_rewrite(path, set_label, "x", err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "gone.json"), "%s", err);
}
END_TEST

/* A file held as it is: its content kept until the first save, and it is left so when
   nothing is saved; none there, and the result is written, and removed on letting go. */
START_TEST(hold_as_it_is)
{
	struct result a, b, back;
	char path[4096], err[512], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/held.json", tmpdir);
	test_put_text(path, "an earlier file");
	mini(&a, 1, RS_INCOMPLETE);
	mini(&b, 2, RS_COMPLETE);
	ck_assert_msg(result_create(&a, path, sizeof(path), RESULT_HOLD, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert(result_being_written(path));
	/* another holder, or a replacer, is refused while a holds it */
	ck_assert_int_eq(result_create(&b, path, sizeof(path), RESULT_HOLD, err, sizeof(err)),
			 -EAGAIN);
	ck_assert_msg(strstr(err, "another drivebench is still writing it"), "%s", err);
	ck_assert_int_eq(result_create(&b, path, sizeof(path), RESULT_REPLACE, err, sizeof(err)),
			 -EAGAIN);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "an earlier file");
	/* let go without a save: the file stays as it was, free */
	result_unclaim(&a);
	ck_assert(!result_being_written(path));
	ck_assert_int_eq(access(path, F_OK), 0);
	/* held again, the owner's save replaces it and keeps it locked; taken over by b */
	ck_assert_int_eq(result_create(&a, path, sizeof(path), RESULT_HOLD, err, sizeof(err)), 0);
	result_take_file(&b, &a);
	ck_assert_msg(result_save(&b, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert(result_being_written(path));
	result_free(&b);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(back.phases[0].nsteps, 2);
	result_free(&back);
	/* none there: a is written at the name, and letting go of it removes it */
	snprintf(path, sizeof(path), "%s/made.json", tmpdir);
	ck_assert_int_eq(result_create(&a, path, sizeof(path), RESULT_HOLD, err, sizeof(err)), 0);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	result_free(&back);
	result_unclaim(&a);
	ck_assert_int_eq(access(path, F_OK), -1);
	result_free(&a);
}
END_TEST

/*
 * A run's file removed by hand under it: its next save makes it again while the name is
 * free, and leaves whatever holds the name since (another run's file, locked or not) as it
 * is, with an error that says so; the run's saves then go elsewhere (run.c).
 */
START_TEST(removed_under_the_owner)
{
	struct result a, b, back;
	char path[4096], other[4096], err[512], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/owned.json", tmpdir);
	mini(&a, 1, RS_INCOMPLETE);
	mini(&b, 2, RS_COMPLETE);
	ck_assert_msg(result_create(&a, path, sizeof(path), RESULT_NEW, err, sizeof(err)) == 0,
		      "%s", err);
	/* removed by hand, nobody else there: made again, and still held */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_msg(result_save(&a, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert(result_being_written(path));
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	result_free(&back);
	/* removed, and taken by another run: that run's file stays, locked by it */
	ck_assert_int_eq(unlink(path), 0);
	snprintf(other, sizeof(other), "%s", path);
	ck_assert_int_eq(result_create(&b, other, sizeof(other), RESULT_NEW, err, sizeof(err)), 0);
	ck_assert_str_eq(other, path);
	ck_assert_int_eq(result_save(&a, path, err, sizeof(err)), -ENOTUNIQ);
	ck_assert_msg(strstr(err, "holds another file since the last save"), "%s", err);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(back.phases[0].nsteps, 2);
	result_free(&back);
	ck_assert(result_being_written(path));
	result_unclaim(&b);
	/* a file nobody holds put at the name is not replaced either */
	test_put_text(path, "put there by hand");
	ck_assert_int_eq(result_save(&a, path, err, sizeof(err)), -ENOTUNIQ);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "put there by hand");
	/* no temporary file is left beside it */
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 1", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
	result_free(&a);
	result_free(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("result_file");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, new_name_series, 0, (int)(sizeof(series) / sizeof(series[0])));
	tcase_add_test(tc, new_names_race);
	tcase_add_test(tc, owner_lock_across_saves);
	tcase_add_test(tc, saver_off_thread);
	tcase_add_test(tc, rewrite_during_autosave);
	tcase_add_test(tc, replace_when_free);
	tcase_add_test(tc, hold_as_it_is);
	tcase_add_test(tc, removed_under_the_owner);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
