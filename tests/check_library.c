// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library of results on a folder of 20,000 (result_io.h): listing reads no file,
 * an entry asked for reads its page and no more, pages are kept up to their bound, and
 * the memory is a few hundred bytes a file, not what reading every file took (6 KB an
 * entry and a parse each: 1 GB and 16 s for 100,000). Entries peeked at are read by the
 * list's threads, and results loaded by a thread of their own, while the caller goes on.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "result.h"
#include "result_io.h"
#include "rundir.h"
#include "settings.h"

#define NFILES 20000

/* Peak resident set of this process (Check runs each test in its own child), in KiB. */
static long vm_hwm_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* NFILES copies of one small result, file i saved at second i (the newest last). */
static void make_folder(const char *dir)
{
	struct result r;
	char path[600], err[512], *text;
	size_t len;

	result_init(&r);
	r.status = RS_COMPLETE;
	snprintf(r.started, sizeof(r.started), "2026-12-01T10:00:00Z");
	snprintf(r.preset_name, sizeof(r.preset_name), "lazy");
	ck_assert_ptr_nonnull(result_add_phase(&r, "run", PH_RUN));
	snprintf(path, sizeof(path), "%s/.one", dir);
	ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
	result_free(&r);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	text = malloc(65536);
	len = fread(text, 1, 65536, f);
	fclose(f);
	unlink(path);
	for (unsigned i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/run-%05u.json", dir, i);
		ck_assert_ptr_nonnull(f = fopen(path, "w"));
		ck_assert_uint_eq(fwrite(text, 1, len, f), len);
		fclose(f);
		struct timespec ts[2] = {{.tv_sec = 1790000000 + i}, {.tv_sec = 1790000000 + i}};
		ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
	}
	free(text);
}

START_TEST(lazy_folder)
{
	struct result_list l;
	const struct result_entry *e;
	char err[512], want[600];

	make_folder(tmpdir);
	long before = vm_hwm_kib();
	ck_assert_msg(result_list_dir(tmpdir, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.n, NFILES);
	ck_assert_uint_eq(l.reads, 0); /* listing reads no file */

	/* newest first, by the time of the last save; a row's page read once */
	ck_assert_ptr_nonnull(e = result_list_entry(&l, 0));
	snprintf(want, sizeof(want), "%s/run-%05u.json", tmpdir, NFILES - 1);
	ck_assert_str_eq(e->path, want);
	ck_assert_str_eq(e->started, "2026-12-01T10:00:00Z");
	ck_assert_str_eq(e->preset, "lazy");
	ck_assert_str_eq(e->error, "");
	ck_assert_uint_eq(l.reads, RESULT_LIST_PAGE);
	for (unsigned i = 0; i < RESULT_LIST_PAGE; i++)
		ck_assert_ptr_nonnull(result_list_entry(&l, i));
	ck_assert_uint_eq(l.reads, RESULT_LIST_PAGE);
	snprintf(want, sizeof(want), "%s/run-00000.json", tmpdir);
	ck_assert_str_eq(result_list_path(&l, NFILES - 1), want);
	ck_assert_uint_eq(l.reads, RESULT_LIST_PAGE); /* a path reads nothing */

	/* scrolling through every row reads each file once; the pages kept are bounded, so
	 * going back reads again */
	for (size_t i = 0; i < l.n; i++)
		ck_assert_ptr_nonnull(result_list_entry(&l, i));
	ck_assert_uint_eq(l.reads, RESULT_LIST_PAGE + NFILES - RESULT_LIST_PAGE);
	ck_assert_ptr_nonnull(result_list_entry(&l, 0));
	ck_assert_uint_eq(l.reads, NFILES + RESULT_LIST_PAGE);

	/* memory: the paths and the pages, not an entry per file. 20,000 entries of the old
	 * list took 120 MB; the bound is 3 times what the listing needs */
	long grew = vm_hwm_kib() - before;
#ifdef __SANITIZE_ADDRESS__
	grew = 0; /* ASan keeps what is freed in quarantine (256 MB): it measures nothing here */
#endif
	long bound_kib =
		(long)(NFILES * 3 * (strlen(want) + 16 + sizeof(struct result_file)) +
		       3 * RESULT_LIST_PAGES * sizeof(struct result_entry) * RESULT_LIST_PAGE) /
		1024;
	ck_assert_msg(grew < bound_kib, "the peak grew by %ld KiB (bound %ld KiB)", grew,
		      bound_kib);
	result_list_free(&l);
}
END_TEST

/* dir/run-N.json for N in first..first+n-1: a result labelled "run N", saved at second N. */
static void make_runs(const char *dir, unsigned first, unsigned n)
{
	char path[600], err[512];

	for (unsigned i = first; i < first + n; i++) {
		struct result r;
		result_init(&r);
		r.status = RS_COMPLETE;
		snprintf(r.label, sizeof(r.label), "run %u", i);
		snprintf(r.started, sizeof(r.started), "2026-12-01T10:00:00Z");
		ck_assert_ptr_nonnull(result_add_phase(&r, "run", PH_RUN));
		snprintf(path, sizeof(path), "%s/run-%u.json", dir, i);
		ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
		result_free(&r);
		struct timespec ts[2] = {{.tv_sec = 1790000000 + i}, {.tv_sec = 1790000000 + i}};
		ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
	}
}

/* Entry i, peeked at until its page's readers have read it (a minute at most). */
static const struct result_entry *peek_until(struct result_list *l, size_t i)
{
	const struct result_entry *e = NULL;
	bool pending = true;

	for (unsigned t = 0; t < 6000 && !e && pending; t++)
		if (!(e = result_list_entry_peek(l, i, &pending)) && pending)
			usleep(10000);
	return e;
}

START_TEST(peek_reads_in_background)
{
	const struct result_entry *e;
	struct result_list l;
	char err[512], path[600], want[32];
	bool pending;

	make_runs(tmpdir, 0, 40);
	ck_assert_msg(result_list_dir(tmpdir, &l, err, sizeof(err)) == 0, "%s", err);
	/* the caller reads nothing: the page is asked of the readers */
	ck_assert_ptr_null(result_list_entry_peek(&l, 0, &pending));
	ck_assert(pending);
	ck_assert_uint_eq(l.reads, 0);
	for (unsigned i = 0; i < RESULT_LIST_PAGE; i++) {
		ck_assert_ptr_nonnull(e = peek_until(&l, i));
		snprintf(want, sizeof(want), "run %u", 39 - i);
		ck_assert_str_eq(e->label, want);
	}
	ck_assert_uint_eq(l.reads, RESULT_LIST_PAGE); /* each file of the page read once */
	ck_assert_ptr_nonnull(result_list_entry(&l, 5));
	ck_assert_uint_eq(l.reads, RESULT_LIST_PAGE);
	ck_assert_ptr_null(result_list_entry_peek(&l, 40, &pending));
	ck_assert(!pending); /* past the end */

	/* the list changes while a page is asked: what shows is read in the new order */
	ck_assert_ptr_null(result_list_entry_peek(&l, 16, &pending));
	ck_assert(pending);
	make_runs(tmpdir, 40, 1);
	snprintf(path, sizeof(path), "%s/run-40.json", tmpdir);
	ck_assert_msg(result_list_add(&l, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_nonnull(e = peek_until(&l, 16));
	ck_assert_str_eq(e->label, "run 24");
	ck_assert_ptr_nonnull(e = peek_until(&l, 0));
	ck_assert_str_eq(e->label, "run 40");
	ck_assert_ptr_nonnull(e = peek_until(&l, 40));
	ck_assert_str_eq(e->label, "run 0");

	/* freed with pages asked: nothing waits for the readers, nothing is left (ASan) */
	result_list_free(&l);
	ck_assert_msg(result_list_dir(tmpdir, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_null(result_list_entry_peek(&l, 0, &pending));
	ck_assert_ptr_null(result_list_entry_peek(&l, 16, &pending));
	result_list_free(&l);
}
END_TEST

START_TEST(loading_in_background)
{
	struct result_loading *ld;
	struct result *rs;
	char p[3][600], err[512];
	const char *paths[3] = {p[0], p[1], p[2]};
	unsigned n;

	make_runs(tmpdir, 0, 3);
	for (unsigned i = 0; i < 3; i++)
		snprintf(p[i], sizeof(p[i]), "%s/run-%u.json", tmpdir, i);
	ck_assert_ptr_nonnull(ld = result_loading_start(paths, 3, RESULT_LOAD_ALL));
	for (unsigned t = 0; t < 6000 && !result_loading_done(ld); t++)
		usleep(10000);
	ck_assert(result_loading_done(ld));
	ck_assert_int_eq(result_loading_take(ld, &rs, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(rs[1].label, "run 1");
	for (unsigned i = 0; i < n; i++)
		result_free(&rs[i]);
	free(rs);

	/* a file that does not load: its error, and no results */
	snprintf(p[1], sizeof(p[1]), "%s/missing.json", tmpdir);
	ck_assert_ptr_nonnull(ld = result_loading_start(paths, 3, 0));
	for (unsigned t = 0; t < 6000 && !result_loading_done(ld); t++)
		usleep(10000);
	ck_assert_int_lt(result_loading_take(ld, &rs, &n, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "missing.json: No such file"), "%s", err);
	ck_assert_ptr_null(rs);
	ck_assert_uint_eq(n, 0);

	/* dropped before it is done and after: freed either way (ASan) */
	snprintf(p[1], sizeof(p[1]), "%s/run-1.json", tmpdir);
	ck_assert_ptr_nonnull(ld = result_loading_start(paths, 3, RESULT_LOAD_ALL));
	result_loading_drop(ld);
	ck_assert_ptr_nonnull(ld = result_loading_start(paths, 3, RESULT_LOAD_ALL));
	for (unsigned t = 0; t < 6000 && !result_loading_done(ld); t++)
		usleep(10000);
	result_loading_drop(ld);
	/* the first one's thread ends on its own; give it the time (it is not waited for) */
	usleep(200000);
}
END_TEST

/*
 * The Results screen's list, made in a thread (result_listing_start): the results
 * directory made and listed, then the library's places (a file, a directory, one that is
 * not there: the first warning), the results directory itself not twice; the same here
 * and now; dropped before and after it is done (ASan).
 */
START_TEST(listing_in_background)
{
	struct settings s = {0};
	struct result_listing_answer ans;
	struct result_listing *l;
	char results[600], other[600], file[600], gone[600];
	const char *places[4];

	snprintf(results, sizeof(results), "%s/results", tmpdir); /* made by the listing */
	snprintf(other, sizeof(other), "%s/other", tmpdir);
	ck_assert_int_eq(mkdir(other, 0755), 0);
	make_runs(other, 0, 2);
	snprintf(file, sizeof(file), "%s/run-1.json", other);
	snprintf(gone, sizeof(gone), "%s/gone", tmpdir);
	s.results = results;
	places[0] = gone, places[1] = other, places[2] = results, places[3] = file;

	ck_assert_ptr_nonnull(l = result_listing_start(&s, places, 4));
	for (unsigned t = 0; t < 6000 && !result_listing_done(l); t++)
		usleep(10000);
	ck_assert(result_listing_done(l));
	result_listing_take(l, &ans);
	ck_assert_str_eq(ans.dir, results);
	ck_assert_str_eq(ans.err, "");
	ck_assert_msg(strstr(ans.warning, "library: ") &&
			      strstr(ans.warning, "/gone: No such file"),
		      "%s", ans.warning);
	/* other's two, and run-1.json again as the file named: the library lists what it names */
	ck_assert_uint_eq(ans.list.n, 3);
	ck_assert_str_eq(result_list_path(&ans.list, 0), file);
	ck_assert_int_eq(access(results, F_OK), 0);
	result_list_free(&ans.list);

	make_runs(results, 5, 1);
	ck_assert_int_eq(result_listing_run(&s, places + 2, 1, &ans), 0);
	ck_assert_uint_eq(ans.list.n, 1);
	ck_assert_str_eq(ans.warning, "");
	result_list_free(&ans.list);

	ck_assert_ptr_nonnull(l = result_listing_start(&s, places, 4));
	result_listing_drop(l);
	ck_assert_ptr_nonnull(l = result_listing_start(&s, NULL, 0));
	for (unsigned t = 0; t < 6000 && !result_listing_done(l); t++)
		usleep(10000);
	result_listing_drop(l);
	usleep(200000); /* the first one's thread ends on its own (it is not waited for) */
}
END_TEST

/* A chore started, waited for (a minute at most), its answer taken. */
static int chore(enum result_chore_kind kind, const char *path, const char *text,
		 struct result_chore_answer *ans)
{
	struct result_chore *c = result_chore_start(kind, path, text);

	ck_assert_ptr_nonnull(c);
	for (unsigned t = 0; t < 6000 && !result_chore_done(c); t++)
		usleep(10000);
	ck_assert(result_chore_done(c));
	result_chore_take(c, ans);
	return ans->ret;
}

/*
 * What the Results screen asks of a file (result_chore_start): label and note read and
 * rewritten, a deletion; each refused while a run holds the file (its lock, as here).
 */
START_TEST(chores_in_background)
{
	struct result_chore_answer ans;
	char path[600], gone[600];
	struct result_chore *c;

	make_runs(tmpdir, 0, 2);
	snprintf(path, sizeof(path), "%s/run-0.json", tmpdir);
	ck_assert_int_eq(chore(RESULT_CHORE_READ, path, NULL, &ans), 0);
	ck_assert_str_eq(ans.label, "run 0");
	ck_assert_str_eq(ans.note, "");
	ck_assert_int_eq(chore(RESULT_CHORE_LABEL, path, "P400m FW 0200", &ans), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_NOTE, path, "after the retest", &ans), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_READ, path, NULL, &ans), 0);
	ck_assert_str_eq(ans.label, "P400m FW 0200");
	ck_assert_str_eq(ans.note, "after the retest");
	ck_assert_int_eq(chore(RESULT_CHORE_CHECK, path, NULL, &ans), 0);

	/* a run holds it: every chore refuses, and the file keeps what it had */
	int held = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(held, 0);
	ck_assert_int_eq(flock(held, LOCK_EX), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_READ, path, NULL, &ans), -EBUSY);
	ck_assert_msg(strstr(ans.err, "a run is saving this result: label it when it ends"), "%s",
		      ans.err);
	ck_assert_int_eq(chore(RESULT_CHORE_CHECK, path, NULL, &ans), -EBUSY);
	ck_assert_msg(strstr(ans.err, "delete it when it ends"), "%s", ans.err);
	ck_assert_int_eq(chore(RESULT_CHORE_DELETE, path, NULL, &ans), -EBUSY);
	ck_assert_int_lt(chore(RESULT_CHORE_LABEL, path, "too soon", &ans), 0);
	ck_assert_msg(strstr(ans.err, "run-0.json: the run is still writing it"), "%s", ans.err);
	close(held);
	ck_assert_int_eq(access(path, F_OK), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_READ, path, NULL, &ans), 0);
	ck_assert_str_eq(ans.label, "P400m FW 0200");

	/* deleted; then a file that is not there says so */
	ck_assert_int_eq(chore(RESULT_CHORE_DELETE, path, NULL, &ans), 0);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_lt(chore(RESULT_CHORE_READ, path, NULL, &ans), 0);
	ck_assert_msg(strstr(ans.err, "run-0.json"), "%s", ans.err);
	snprintf(gone, sizeof(gone), "%s/gone.json", tmpdir);
	ck_assert_int_eq(chore(RESULT_CHORE_DELETE, gone, NULL, &ans), -ENOENT);
	ck_assert_msg(strstr(ans.err, "gone.json: No such file"), "%s", ans.err);

	/* here and now, the same answers */
	snprintf(path, sizeof(path), "%s/run-1.json", tmpdir);
	ck_assert_int_eq(result_chore_run(RESULT_CHORE_LABEL, path, "", &ans), 0);
	ck_assert_int_eq(result_chore_run(RESULT_CHORE_READ, path, NULL, &ans), 0);
	ck_assert_str_eq(ans.label, "");

	/* dropped before it is done and after: freed either way (ASan) */
	ck_assert_ptr_nonnull(c = result_chore_start(RESULT_CHORE_READ, path, NULL));
	result_chore_drop(c);
	ck_assert_ptr_nonnull(c = result_chore_start(RESULT_CHORE_READ, path, NULL));
	for (unsigned t = 0; t < 6000 && !result_chore_done(c); t++)
		usleep(10000);
	result_chore_drop(c);
	usleep(200000); /* the first one's thread ends on its own (it is not waited for) */
}
END_TEST

/*
 * o on the Results screen: where a typed path leads is looked at in the chore's thread. A
 * file and a directory answer their absolute paths (a symbolic link and a relative path
 * resolved); what is neither, or not there, says so.
 */
START_TEST(open_looks_in_background)
{
	struct result_chore_answer ans;
	char path[600], link[600], fifo[600], want[4096], cwd[4096];

	make_runs(tmpdir, 0, 1);
	ck_assert_ptr_nonnull(realpath(tmpdir, want));
	ck_assert_int_eq(chore(RESULT_CHORE_OPEN, tmpdir, NULL, &ans), 0);
	ck_assert_str_eq(ans.path, want);
	snprintf(path, sizeof(path), "%s/run-0.json", tmpdir);
	snprintf(link, sizeof(link), "%s/the-run", tmpdir);
	ck_assert_int_eq(symlink("run-0.json", link), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_OPEN, link, NULL, &ans), 0);
	ck_assert_ptr_nonnull(realpath(path, want));
	ck_assert_str_eq(ans.path, want);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(chdir(tmpdir), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_OPEN, "run-0.json", NULL, &ans), 0);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_str_eq(ans.path, want);

	snprintf(fifo, sizeof(fifo), "%s/a-fifo", tmpdir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(chore(RESULT_CHORE_OPEN, fifo, NULL, &ans), -EINVAL);
	ck_assert_msg(strstr(ans.err, "a-fifo: not a file or a directory"), "%s", ans.err);
	ck_assert_str_eq(ans.path, "");
	snprintf(path, sizeof(path), "%s/nowhere", tmpdir);
	ck_assert_int_eq(chore(RESULT_CHORE_OPEN, path, NULL, &ans), -ENOENT);
	ck_assert_msg(strstr(ans.err, "nowhere: No such file"), "%s", ans.err);
	ck_assert_int_eq(result_chore_run(RESULT_CHORE_OPEN, tmpdir, NULL, &ans), 0);
	ck_assert_int_eq(unlink(fifo), 0);
	ck_assert_int_eq(unlink(link), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("library");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, lazy_folder);
	tcase_add_test(tc, peek_reads_in_background);
	tcase_add_test(tc, loading_in_background);
	tcase_add_test(tc, chores_in_background);
	tcase_add_test(tc, listing_in_background);
	tcase_add_test(tc, open_looks_in_background);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
