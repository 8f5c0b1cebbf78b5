// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU use across a step: marks from getrusage and /proc/stat, and the CPU-bound verdict. */
#include "testlib.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"

static const struct {
	const char *name;
	struct step_cpu cpu;
	unsigned threads;
	bool busy_poll;
	bool bound;
	const char *why; /* in the sentence when bound */
} cases[] = {
	{"idle", {true, 5, 3, 10, 5, 1, 4}, 4, false, false, NULL},
	{"not measured", {false, 400, 0, 100, 0, 0, 4}, 4, false, false, NULL},
	{"one thread, one full CPU", {true, 70, 25, 40, 15, 0, 4}, 1, false, true, "95% of a CPU"},
	{"four threads, one CPU's worth", {true, 70, 25, 40, 15, 0, 4}, 4, false, false, NULL},
	{"four threads, four CPUs", {true, 250, 120, 60, 33, 0, 4}, 4, false, true, "4 worker"},
	/* more threads than CPUs: the CPUs are the ceiling */
	{"16 threads on 2 CPUs", {true, 120, 65, 60, 33, 0, 2}, 16, false, true, "on 2 CPUs"},
	/* a busy-polling worker spins by design: its CPU says nothing */
	{"busy-poll", {true, 100, 0, 30, 5, 0, 4}, 1, true, false, NULL},
	/* a host busy with drivebench */
	{"host busy with it", {true, 120, 60, 60, 37, 0, 2}, 16, true, true, "97% busy"},
	/* a host busy with something else: a host stall's matter, not this */
	{"host busy with others", {true, 20, 10, 80, 18, 0, 2}, 16, false, false, NULL},
};

/* Other processes' user time, of all CPUs: drivebench's own is taken out. */
static const struct {
	const char *name;
	struct step_cpu cpu;
	bool busy;
} busy_cases[] = {
	{"idle", {true, 5, 3, 10, 5, 1, 4}, false},
	{"not measured", {false, 0, 0, 90, 0, 0, 2}, false},
	{"busy with drivebench alone", {true, 190, 10, 95, 5, 0, 2}, false},
	{"one CPU hog of two", {true, 20, 10, 60, 18, 0, 2}, true},
	{"kernel work only (irq, softirq)", {true, 20, 10, 10, 80, 0, 2}, false},
	{"a busy-polling drivebench and a hog", {true, 100, 0, 100, 0, 0, 2}, true},
	{"just under a quarter", {true, 0, 0, 24.9, 0, 0, 4}, false},
};

START_TEST(host_busy)
{
	char why[256] = "";
	bool b = cpu_host_busy(&busy_cases[_i].cpu, why, sizeof(why));

	ck_assert_msg(b == busy_cases[_i].busy, "%s: %d (%s)", busy_cases[_i].name, b, why);
	if (b)
		ck_assert_msg(strstr(why, "other processes kept"), "%s", why);
}
END_TEST

START_TEST(bound)
{
	char why[256] = "";
	bool b = cpu_bound(&cases[_i].cpu, cases[_i].threads, cases[_i].busy_poll, why,
			   sizeof(why));

	ck_assert_msg(b == cases[_i].bound, "%s: %d (%s)", cases[_i].name, b, why);
	if (b)
		ck_assert_msg(strstr(why, cases[_i].why), "%s: %s", cases[_i].name, why);
}
END_TEST

/* Burning CPU between two marks shows as the process's user time, within the wall time. */
START_TEST(marks)
{
	struct cpu_mark a, b;
	struct step_cpu c;
	struct timespec t0, t;
	volatile unsigned long x = 0;

	cpu_mark(&a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (unsigned i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 300000000L);
	cpu_mark(&b);
	cpu_between(&a, &b, &c);
	ck_assert(c.measured);
	ck_assert_uint_ge(c.cpus, 1);
	/* a loaded host may give this thread less than all of a CPU, never more */
	ck_assert_msg(c.proc_user_pct + c.proc_system_pct > 10, "%g", c.proc_user_pct);
	ck_assert_msg(c.proc_user_pct + c.proc_system_pct <= 105, "%g", c.proc_user_pct);
	ck_assert_msg(c.host_user_pct > 0 && c.host_user_pct <= 100, "%g", c.host_user_pct);
	ck_assert(c.host_system_pct >= 0 && c.host_system_pct <= 100);
	ck_assert(c.host_iowait_pct >= 0 && c.host_iowait_pct <= 100);

	/* no time between the marks: nothing to say */
	cpu_between(&a, &a, &c);
	ck_assert(!c.measured);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, bound, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_loop_test(tc, host_busy, 0, sizeof(busy_cases) / sizeof(busy_cases[0]));
	tcase_add_test(tc, marks);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
