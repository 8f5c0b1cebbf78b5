// SPDX-License-Identifier: GPL-2.0-or-later
/* Steady-state detection on synthetic series, with exact verdicts and excursions. */
#include "testlib.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "steady.h"

#define MAXV 32

static const struct series {
	const char *name;
	double y[MAXV];
	unsigned n;
	bool reached;
	double data_pct; /* over the last window (5) */
	double slope_pct;
} series[] = {
	/* flat: nothing moves */
	{"flat", {1000, 1000, 1000, 1000, 1000}, 5, true, 0, 0},
	/* fewer rounds than the window: judged on what there is, never steady */
	{"short", {1000, 1000, 1000}, 3, false, 0, 0},
	/* a steady decline: within the data band (max-min 40 of 100), but the line falls
	 * 10 per round, 40 across the window: 40% > 10% */
	{"trending", {120, 110, 100, 90, 80}, 5, false, 40, 40},
	/* gentle trend inside both limits: slope 1/round, 4 across 100 = 4% */
	{"gentle", {98, 99, 100, 101, 102}, 5, true, 4, 4},
	/* noisy but level: max-min 30 of avg 100 = 30% > 20%; the line is flat */
	{"noisy", {85, 115, 100, 115, 85}, 5, false, 30, 0},
	/* noise inside the band: 18% and a flat line */
	{"noisy-ok", {91, 109, 100, 109, 91}, 5, true, 18, 0},
	/* a step change leaving the window: the last five rounds are flat at 50 */
	{"step-done", {100, 100, 100, 100, 50, 50, 50, 50, 50}, 9, true, 0, 0},
	/* a step change inside the window: 100,100,50,50,50 avg 70, max-min 50 = 71.43% */
	{"step-in",
	 {100, 100, 100, 100, 50, 50, 50},
	 7,
	 false,
	 50.0 / 70.0 * 100,
	 /* slope of (0,100)(1,100)(2,50)(3,50)(4,50) is -15; 60 / 70 */
	 60.0 / 70.0 * 100},
	/* a silent device: zero IOPS is not steady */
	{"zero", {0, 0, 0, 0, 0}, 5, false, 0, 0},
};

START_TEST(test_series)
{
	const struct series *s = &series[_i];
	struct steady_params p;
	struct steady_info info;

	steady_defaults(&p);
	memset(&info, 0xff, sizeof(info));
	bool r = steady_check(&p, s->y, s->n, &info);
	ck_assert_msg(r == s->reached, "%s: reached %d", s->name, r);
	ck_assert(info.reached == r);
	ck_assert(info.used);
	ck_assert_uint_eq(info.round, s->n);
	ck_assert_uint_eq(info.window, 5);
	ck_assert_uint_eq(info.max_rounds, 25);
	ck_assert_double_eq_tol(info.data_limit_pct, 20, 1e-12);
	ck_assert_double_eq_tol(info.slope_limit_pct, 10, 1e-12);
	ck_assert_msg(fabs(info.data_excursion_pct - s->data_pct) < 1e-9, "%s: data %.12g", s->name,
		      info.data_excursion_pct);
	ck_assert_msg(fabs(info.slope_excursion_pct - s->slope_pct) < 1e-9, "%s: slope %.12g",
		      s->name, info.slope_excursion_pct);
}
END_TEST

/* The limits are inclusive and configurable: exactly 20% passes, a tighter limit fails. */
START_TEST(test_limits)
{
	const double y[] = {90, 110, 100, 110, 90}; /* 20%, flat line */
	struct steady_params p;
	struct steady_info info;

	steady_defaults(&p);
	ck_assert(steady_check(&p, y, 5, &info));
	ck_assert_double_eq_tol(info.data_excursion_pct, 20, 1e-12);
	p.data_limit_pct = 19.99;
	ck_assert(!steady_check(&p, y, 5, &info));
	p.data_limit_pct = 20;
	p.window = 3; /* last three: 100 110 90 -> 20%, slope -5 x 2 / 100 = 10% */
	ck_assert(steady_check(&p, y, 5, &info));
	ck_assert_double_eq_tol(info.slope_excursion_pct, 10, 1e-12);
	p.slope_limit_pct = 9.9;
	ck_assert(!steady_check(&p, y, 5, &info));
}
END_TEST

START_TEST(test_fit)
{
	const double y[] = {3, 5, 7, 9};
	double slope, icept;

	steady_fit(y, 4, &slope, &icept);
	ck_assert_double_eq_tol(slope, 2, 1e-12);
	ck_assert_double_eq_tol(icept, 3, 1e-12);
	steady_fit(y, 1, &slope, &icept);
	ck_assert_double_eq_tol(slope, 0, 1e-12);
	ck_assert_double_eq_tol(icept, 3, 1e-12);
}
END_TEST

static const struct {
	const char *name;
	int ok;
	double want;
} metric_cases[] = {
	{"iops", 1, 1000},     {"read.iops", 1, 700},	{"write.iops", 1, 300},
	{"mbps", 1, 4.096},    {"mean_ns", 1, 90000},	{"max_ns", 1, 500000},
	{"p99_ns", 1, 250000}, {"read.p99.9_ns", 1, 0}, {"iops ", 0, 0},
	{"latency", 0, 0},     {"read.", 0, 0},		{"all.iops", 0, 0},
};

START_TEST(test_metric)
{
	struct sample s;
	double v = -1;

	memset(&s, 0, sizeof(s));
	s.d[DIR_ALL].iops = 1000;
	s.d[DIR_READ].iops = 700;
	s.d[DIR_WRITE].iops = 300;
	s.d[DIR_ALL].mbps = 4.096;
	s.d[DIR_ALL].mean_ns = 90000;
	s.d[DIR_ALL].max_ns = 500000;
	s.d[DIR_ALL].pct_ns[PCT_99] = 250000;
	int r = steady_metric_value(metric_cases[_i].name, &s, &v);
	ck_assert_int_eq(r == 0, metric_cases[_i].ok);
	ck_assert_int_eq(steady_metric_valid(metric_cases[_i].name), metric_cases[_i].ok);
	if (metric_cases[_i].ok)
		ck_assert_double_eq_tol(v, metric_cases[_i].want, 1e-9);
}
END_TEST

START_TEST(test_metric_names)
{
	unsigned n = 0;

	for (const char *m; (m = steady_metric_name(n)); n++)
		ck_assert(steady_metric_valid(m));
	ck_assert_uint_eq(n, 10);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("steady");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_series, 0, sizeof(series) / sizeof(series[0]));
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_fit);
	tcase_add_loop_test(tc, test_metric, 0, sizeof(metric_cases) / sizeof(metric_cases[0]));
	tcase_add_test(tc, test_metric_names);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
