// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Application benchmarks: the parsers of sysbench's and pgbench's output on recorded
 * outputs (tests/fixtures/app), cut short and made hostile; the [app] preset section.
 */
#include <math.h>

#include "app.h"
#include "app_int.h"
#include "app_parse.h"
#include "fileio.h"
#include "preset.h"
#include "testlib.h"

#define FIX DB_SRCDIR "/tests/fixtures/app"

static char *fixture(const char *name, size_t *len)
{
	char path[512], err[256], *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", FIX, name);
	ck_assert_msg(fileio_read(path, "fixture", 1 << 20, &text, len, err, sizeof(err)) == 0,
		      "%s", err);
	return text;
}

START_TEST(sysbench_recorded)
{
	struct hist *h = malloc(sizeof(*h));
	struct app_figures f;
	char err[256];
	size_t len;
	char *text = fixture("sysbench-oltp.out", &len);

	ck_assert_int_eq(app_parse_sysbench(text, len, &f, h, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(f.tps, 355.17, 1e-9);
	ck_assert_uint_eq(f.transactions, 712);
	ck_assert_uint_eq(f.errors, 0);
	ck_assert_uint_eq(f.reconnects, 0);
	ck_assert_double_eq_tol(f.lat_avg_ms, 2.81, 1e-9);
	ck_assert_double_eq_tol(f.lat_p99_ms, 21.89, 1e-9);
	ck_assert_double_eq_tol(f.lat_max_ms, 37.95, 1e-9);
	ck_assert_double_eq_tol(f.seconds, 2.004, 1e-9);
	/* every event is in the histogram, and p95 lies between the average and p99 */
	ck_assert_uint_eq(hist_count(h), 712);
	ck_assert_msg(f.lat_p95_ms > f.lat_avg_ms && f.lat_p95_ms < f.lat_p99_ms, "p95 %g",
		      f.lat_p95_ms);
	free(text);
	free(h);
}
END_TEST

START_TEST(pgbench_recorded)
{
	struct hist *h = calloc(1, sizeof(*h));
	struct app_figures f;
	uint64_t failed = 0, lines = 0;
	char err[256];
	size_t len, loglen;
	char *text = fixture("pgbench.out", &len), *log = fixture("pgbench-log.txt", &loglen);

	ck_assert_int_eq(app_parse_pgbench(text, len, &f, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(f.tps, 142.297687, 1e-9);
	ck_assert_uint_eq(f.transactions, 284);
	ck_assert_uint_eq(f.errors, 0);
	ck_assert_double_eq_tol(f.lat_avg_ms, 7.028, 1e-9);
	ck_assert_double_eq_tol(f.seconds, 2, 1e-9);
	ck_assert_int_eq(app_parse_pgbench_log(log, loglen, h, &failed, err, sizeof(err)), 0);
	for (size_t i = 0; i < loglen; i++)
		lines += log[i] == '\n';
	ck_assert_uint_eq(hist_count(h), lines);
	ck_assert_uint_eq(failed, 0);
	app_figures_from_hist(&f, h);
	/* the log's first line is 23,403 us: within the histogram's 0.8 % */
	ck_assert_msg(f.lat_max_ms >= 23.403 * 0.99, "max %g", f.lat_max_ms);
	ck_assert_msg(f.lat_p99_ms >= f.lat_p95_ms && f.lat_p95_ms > 0, "p95 %g", f.lat_p95_ms);
	free(text);
	free(log);
	free(h);
}
END_TEST

/* The recorded sysbench report cut before each line that carries a figure. */
static const struct {
	const char *cut_at; /* the text is cut where this first appears */
	const char *want;   /* in the message */
} sb_cuts[] = {
	{"Latency histogram", "no transactions line"},
	{"SQL statistics", "no transactions line"},
	{"    transactions:", "no transactions line"},
	{"    ignored errors:", "no ignored errors line"},
	{"General statistics", "no total time line"},
	{"         avg:", "no average latency line"},
	{"         max:", "no maximum latency line"},
	{"         99th percentile:", "no 99th percentile line"},
};

START_TEST(sysbench_truncated)
{
	struct hist *h = malloc(sizeof(*h));
	struct app_figures f;
	char err[256] = "";
	size_t len;
	char *text = fixture("sysbench-oltp.out", &len), *at = strstr(text, sb_cuts[_i].cut_at);

	ck_assert_ptr_nonnull(at);
	ck_assert_int_eq(app_parse_sysbench(text, (size_t)(at - text), &f, h, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, sb_cuts[_i].want), "%s: %s", sb_cuts[_i].cut_at, err);
	free(text);
	free(h);
}
END_TEST

/* Hostile text: every figure that is not a finite number of at least 0 is refused. */
static const struct {
	int tool; /* 0 sysbench, 1 pgbench, 2 pgbench's log */
	const char *from, *to; /* replaced in the fixture ("" to: the whole text is to) */
	const char *want;
} hostile[] = {
	{0, "712    (355.17 per sec.)", "-712    (355.17 per sec.)", "not a figure"},
	{0, "(355.17 per sec.)", "(nan per sec.)", "not a figure"},
	{0, "avg:                                    2.81", "avg: inf", "not a figure"},
	{0, "99th percentile:                       21.89", "99th percentile: 1e999", "not a figure"},
	{0, "|*                                        1\n", "|*   -5\n", "not a figure"},
	{1, "tps = 142.297687", "tps = -1", "bad tps"},
	{1, "tps = 142.297687", "tps: 1", "no tps line"},
	{1, "latency average = 7.028 ms", "latency average = x ms", "bad latency average"},
	{1, "duration: 2 s", "", "no duration line"},
	{2, "0 1 23403 0", "0 1 abc 0", "not a transaction"},
	{2, "0 1 23403 0", "0 1 99999999999999999999999 0", "not a transaction"},
	{2, "0 1 23403 0", "0 1\n", "not a transaction"},
};

static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	ck_assert_ptr_nonnull(at);
	out = malloc(strlen(text) + strlen(to) + 1);
	memcpy(out, text, (size_t)(at - text));
	strcpy(out + (at - text), to);
	strcat(out, at + strlen(from));
	return out;
}

START_TEST(hostile_text)
{
	static const char *const files[] = {"sysbench-oltp.out", "pgbench.out", "pgbench-log.txt"};
	struct hist *h = calloc(1, sizeof(*h));
	struct app_figures f;
	uint64_t failed = 0;
	char err[256] = "";
	size_t len;
	char *text = fixture(files[hostile[_i].tool], &len);
	char *bad = replace(text, hostile[_i].from, hostile[_i].to);
	int ret = hostile[_i].tool == 0	  ? app_parse_sysbench(bad, strlen(bad), &f, h, err, sizeof(err))
		  : hostile[_i].tool == 1 ? app_parse_pgbench(bad, strlen(bad), &f, err, sizeof(err))
			: app_parse_pgbench_log(bad, strlen(bad), h, &failed, err, sizeof(err));

	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(strstr(err, hostile[_i].want), "case %d: %s", _i, err);
	free(bad);
	free(text);
	free(h);
}
END_TEST

/* A line past the bound, NUL bytes, and pgbench's failed transactions. */
START_TEST(bounds)
{
	struct hist *h = calloc(1, sizeof(*h));
	struct app_figures f;
	uint64_t failed = 0;
	char err[256];
	size_t n = APP_PARSE_LINE_MAX * 2;
	char *big = malloc(n);
	const char log[] = "0 1 100 0 1 2\n0 2 failed 0 1 2\n0 3 skipped 0 1 2\n0 4 200 0 1 2";

	memset(big, 'x', n);
	ck_assert_int_eq(app_parse_sysbench(big, n, &f, h, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "longer than the limit"), "%s", err);
	ck_assert_int_eq(app_parse_pgbench(big, n, &f, err, sizeof(err)), -EINVAL);
	memset(big, 0, n);
	ck_assert_int_eq(app_parse_pgbench(big, n, &f, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(app_parse_pgbench_log(log, sizeof(log) - 1, h, &failed, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(hist_count(h), 2);
	ck_assert_uint_eq(failed, 2);
	free(big);
	free(h);
}
END_TEST

static const struct {
	const char *text;
	const char *want; /* NULL: parses */
} presets[] = {
	{"[preset]\nname=a\n[app]\ntool=pgbench\nscale_factor=3\nthreads=2 4\ntime=5s\n", NULL},
	{"[preset]\nname=a\n[app]\ntool=mysql\n", "x:4: tool: 'mysql': one of sysbench-oltp, pgbench"},
	{"[preset]\nname=a\n[app]\nfs=btrfs\n", "x:4: fs: 'btrfs': one of ext4, xfs"},
	{"[preset]\nname=a\n[app]\ntables=0\n", "x:4: tables: '0': a whole number from 1 to 1024"},
	{"[preset]\nname=a\n[app]\nbs=4k\n", "x:4:"},
	{"[preset]\nname=a\n[measure]\ntime=1s\n[app]\n", "x:5: [app] phases make a file system"},
	{"[preset]\nname=a\n[app]\n[measure]\ntime=1s\n", "x:4: [app] phases make a file system"},
};

START_TEST(app_presets)
{
	char err[512] = "";
	struct plan *p = preset_parse(presets[_i].text, "x", 1, err, sizeof(err));

	if (!presets[_i].want) {
		ck_assert_msg(p, "%s", err);
		ck_assert_uint_eq(p->nphases, 1);
		ck_assert_int_eq(p->phases[0].kind, PH_APP);
		ck_assert_int_eq(p->phases[0].app.tool, APP_PGBENCH);
		ck_assert_uint_eq(p->phases[0].app.scale_factor, 3);
		ck_assert_int_eq(p->phases[0].app.fs, APP_EXT4);
		ck_assert_uint_eq(p->phases[0].nsteps, 2);
		ck_assert_uint_eq(p->phases[0].steps[1].wl.threads, 4);
		ck_assert(plan_writes(p));
		ck_assert(app_plan(p));
		/* two 5 s steps and the setup */
		ck_assert_uint_eq(plan_duration_ns(p), 10000000000ull + app_setup_ns(&p->phases[0].app));
		plan_free(p);
		return;
	}
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(err, presets[_i].want), "%s", err);
}
END_TEST

/* Per-second reports: both tools' lines, in order; anything else, or backwards, skipped. */
START_TEST(intervals)
{
	const char text[] =
		"[ 1s ] thds: 2 tps: 120.50 qps: 2410.00 (r/w/o: 1687.00/482.00/241.00) lat (ms,99%): 21.89 err/s: 0.00 reconn/s: 0.00\n"
		"[ 2s ] thds: 2 tps: nan qps: 1 lat (ms,99%): 1.00\n"
		"[ 1s ] thds: 2 tps: 99.00 qps: 1 lat (ms,99%): 1.00\n"
		"progress: 2.0 s, 142.0 tps, lat 7.021 ms stddev 3.185, 0 failed\n"
		"progress: 3.0 s, -1 tps, lat 7.021 ms stddev 3.185, 0 failed\n"
		"progress: 3.0 s, 150.5 tps, lat 6.500 ms stddev 3.185, 0 failed\n"
		"transactions:  712    (355.17 per sec.)\n";
	struct app_interval iv[8];
	unsigned n = app_parse_intervals(text, sizeof(text) - 1, iv, 8);

	ck_assert_uint_eq(n, 3);
	ck_assert(iv[0].p99 && !iv[1].p99);
	ck_assert_double_eq_tol(iv[0].end_s, 1, 1e-9);
	ck_assert_double_eq_tol(iv[0].tps, 120.5, 1e-9);
	ck_assert_double_eq_tol(iv[0].lat_ms, 21.89, 1e-9);
	ck_assert_double_eq_tol(iv[1].tps, 142, 1e-9);
	ck_assert_double_eq_tol(iv[1].lat_ms, 7.021, 1e-9);
	ck_assert_double_eq_tol(iv[2].end_s, 3, 1e-9);
	ck_assert_uint_eq(app_parse_intervals(text, sizeof(text) - 1, iv, 2), 2);
}
END_TEST

/*
 * pgbench's logs read as they grow: a line cut between two reads is counted once, two
 * files each keep their own, and what was read is given back (the file's blocks freed).
 */
START_TEST(txlog_growing)
{
	char dir[] = "/var/tmp/drivebench-txlog-XXXXXX", a[128], b[128], err[256] = "";
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t failed = 0;
	struct app_txlog *x;
	struct stat sa;
	FILE *fa, *fb;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/tx.100", dir);
	snprintf(b, sizeof(b), "%s/tx.100.1", dir);
	x = app_txlog_new(dir);
	fa = fopen(a, "w");
	fb = fopen(b, "w");
	for (unsigned i = 0; i < 20000; i++)
		fprintf(fa, "0 %u %u 0 1796190799 431880\n", i, 1000 + i % 977);
	fputs("0 20000 12", fa); /* cut mid-line */
	fputs("1 0 failed 0 1796190799 431880\n1 1 5", fb);
	fflush(fa);
	fflush(fb);
	ck_assert_int_eq(app_txlog_read(x, h, &failed, false, err, sizeof(err)), 0);
	ck_assert_uint_eq(hist_count(h), 20000);
	ck_assert_uint_eq(failed, 1);
	fputs("34 0 1796190799 431880\n", fa);
	fputs("00 0 1796190799 431880", fb); /* the last line, without its newline */
	fclose(fa);
	fclose(fb);
	ck_assert_int_eq(app_txlog_read(x, h, &failed, true, err, sizeof(err)), 0);
	ck_assert_uint_eq(hist_count(h), 20002);
	/* the two lines cut in half: 1,234 us and 500 us */
	ck_assert_uint_ge(h->bucket[hist_index(1234000)], 1);
	ck_assert_uint_eq(h->bucket[hist_index(500000)], 1);
	ck_assert_uint_eq(app_txlog_files(x), 2);
	ck_assert_int_eq(stat(a, &sa), 0);
	ck_assert_msg(sa.st_blocks < 16, "%lld blocks kept", (long long)sa.st_blocks);
	app_txlog_free(x);
	ck_assert_int_ne(access(a, F_OK), 0);
	rmdir(dir);
	free(h);
}
END_TEST

/* [app] of defaults alone, as the key table gives them */
START_TEST(app_defaults)
{
	char err[512] = "";
	struct plan *p = preset_parse("[preset]\nname=a\n[app]\n", "x", 1, err, sizeof(err));

	ck_assert_msg(p, "%s", err);
	ck_assert_int_eq(p->phases[0].app.tool, APP_SYSBENCH_OLTP);
	ck_assert_int_eq(p->phases[0].app.fs, APP_EXT4);
	ck_assert_uint_eq(p->phases[0].app.tables, 8);
	ck_assert_uint_eq(p->phases[0].app.table_size, 100000);
	ck_assert_uint_eq(p->phases[0].nsteps, 1);
	ck_assert_uint_eq(p->phases[0].steps[0].wl.threads, 1);
	plan_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("app");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, sysbench_recorded);
	tcase_add_test(tc, pgbench_recorded);
	tcase_add_loop_test(tc, sysbench_truncated, 0, sizeof(sb_cuts) / sizeof(sb_cuts[0]));
	tcase_add_loop_test(tc, hostile_text, 0, sizeof(hostile) / sizeof(hostile[0]));
	tcase_add_test(tc, bounds);
	tcase_add_test(tc, app_defaults);
	tcase_add_test(tc, intervals);
	tcase_add_test(tc, txlog_growing);
	tcase_add_loop_test(tc, app_presets, 0, sizeof(presets) / sizeof(presets[0]));
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
