// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plot rendering (ui/plot.c): braille and ASCII cells for known series. The module does
 * not use curses and is not in the core library, so it is compiled in directly.
 */
#include "plot.h"

#include <math.h>
#include <string.h>

#include "testlib.h"
#include <stdlib.h>

static const struct {
	double in, out;
} nice_cases[] = {
	{0, 1}, {-3, 1}, {0.7, 1}, {1, 1},	   {1.01, 2},	{2, 2},		{2.2, 2.5},
	{3, 5}, {7, 10}, {10, 10}, {21204, 25000}, {98e6, 1e8}, {0.003, 0.005},
};

START_TEST(test_nice_max)
{
	ck_assert_double_eq_tol(plot_nice_max(nice_cases[_i].in), nice_cases[_i].out, nice_cases[_i].out * 1e-9);
}
END_TEST

static const struct {
	uint32_t cp;
	const char *utf8;
} utf8[] = {
	{'A', "A"},
	{0xe9, "\xc3\xa9"},
	{0x2800, "\xe2\xa0\x80"},
	{0x28ff, "\xe2\xa3\xbf"},
	{0x1f600, "\xf0\x9f\x98\x80"},
};

START_TEST(test_utf8)
{
	char out[5];
	size_t n = plot_utf8(utf8[_i].cp, out);

	ck_assert_uint_eq(n, strlen(utf8[_i].utf8));
	ck_assert_str_eq(out, utf8[_i].utf8);
}
END_TEST

/* Table: series, size, mode, expected rows (top first). */
static const double flat_top[] = {10, 10, 10, 10};
static const double ramp[] = {0, 1, 2, 3, 4, 5, 6, 7};
static const double zeros[] = {0, 0};
static const double gap[] = {4, NAN, 4};
static const double jump[] = {0, 8};
static const double many[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9};

static const struct {
	const char *name;
	const double *v;
	unsigned n;
	unsigned w, h;
	bool braille, fill;
	double ymax;
	const char *rows[3];
} cases[] = {
	/* both dots of the top row in each cell: bits 0x01 and 0x08 */
	{"flat at max", flat_top, 4, 2, 1, true, false, 10, {"\u2809\u2809"}},
	/* zeros sit on the bottom row of dots: 0x40 and 0x80 */
	{"zeros", zeros, 2, 1, 1, true, false, 10, {"\u28c0"}},
	/* right-aligned: the first of two cells stays blank */
	{"right aligned", zeros, 2, 2, 1, true, false, 10, {" \u28c0"}},
	{"fill", flat_top, 2, 1, 1, true, true, 10, {"\u28ff"}},
	/* 0..7 over 8 levels (2 rows of 4 dots), one level a dot column: no joins needed */
	{"ramp braille", ramp, 8, 4, 2, true, false, 7, {"  \u2860\u280a", "\u2860\u280a  "}},
	/* a NaN leaves its dot column empty */
	{"gap braille", gap, 3, 2, 1, true, false, 4, {"\u2808\u2808"}},
	{"ascii ramp", ramp, 6, 6, 2, false, false, 5, {"   _-`", "_-`   "}},
	/* a jump of two rows is joined by a bar in the row between */
	{"ascii jump", jump, 2, 2, 3, false, false, 8, {" `", " |", "_ "}},
	{"ascii gap", gap, 3, 3, 1, false, false, 4, {"` `"}},
	/* only the newest w samples show, and the scale follows what shows */
	{"scroll", many, 12, 2, 1, false, false, 9, {"``"}},
	{"auto scale", many, 12, 6, 1, false, false, 0, {"____``"}},
};

START_TEST(test_render)
{
	struct plot_grid g = {0};
	struct plot_series s = {cases[_i].v, cases[_i].n, 7, cases[_i].fill};
	char row[256];

	ck_assert_int_eq(
		plot_render(&g, cases[_i].w, cases[_i].h, cases[_i].braille, &s, 1, cases[_i].ymax),
		0);
	for (unsigned r = 0; r < cases[_i].h; r++) {
		plot_row_text(&g, r, row, sizeof(row));
		ck_assert_msg(!strcmp(row, cases[_i].rows[r]), "%s row %u: '%s' want '%s'",
			      cases[_i].name, r, row, cases[_i].rows[r]);
	}
	plot_free(&g);
}
END_TEST

START_TEST(test_roles_and_two_series)
{
	static const double rd[] = {10, 10}, wr[] = {0, 0};
	struct plot_series s[2] = {{rd, 2, 5, false}, {wr, 2, 6, false}};
	struct plot_grid g = {0};

	ck_assert_int_eq(plot_render(&g, 1, 2, true, s, 2, 0), 0);
	ck_assert_double_eq(g.ymax, 10);
	ck_assert_uint_eq(g.cells[0].ch, 0x2809);
	ck_assert_int_eq(g.cells[0].role, 5);
	ck_assert_uint_eq(g.cells[1].ch, 0x28c0);
	ck_assert_int_eq(g.cells[1].role, 6);
	/* re-rendering smaller reuses the cells and clears them */
	ck_assert_int_eq(plot_render(&g, 1, 1, true, s, 0, 1), 0);
	ck_assert_uint_eq(g.cells[0].ch, ' ');
	ck_assert_int_eq(g.cells[0].role, -1);
	ck_assert_int_eq(plot_render(&g, 0, 1, true, s, 1, 1), -EINVAL);
	plot_free(&g);
}
END_TEST

START_TEST(test_capacity)
{
	ck_assert_uint_eq(plot_capacity(40, true), 80);
	ck_assert_uint_eq(plot_capacity(40, false), 40);
}
END_TEST

/*
 * The whole-phase history: after any number of samples it covers all of them in at most
 * PLOT_HIST_N buckets, and the one spike and the one dip survive every merge.
 */
static const unsigned hist_counts[] = {1, 7, 512, 513, 1000, 4096, 100000};

START_TEST(test_hist)
{
	static struct plot_hist h;
	unsigned n = hist_counts[_i], spike = n * 3 / 4, dip = n / 5;
	double v[PLOT_HIST_SERIES], lo[300], hi[300], mn = 1e30, mx = -1e30;

	plot_hist_reset(&h);
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < PLOT_HIST_SERIES; k++)
			v[k] = 100 + k + (i == spike ? 900 : 0) - (i == dip && dip != spike ? 90 : 0);
		plot_hist_add(&h, v);
	}
	ck_assert_uint_eq(h.samples, n);
	ck_assert_uint_le(h.n, PLOT_HIST_N);
	/* every sample is in a bucket: full buckets, then the last one partly */
	ck_assert_uint_eq((h.n - 1) * h.per + h.fill, n);
	unsigned w = plot_hist_columns(&h, 3, 300, lo, hi);
	ck_assert_uint_eq(w, 300);
	for (unsigned c = 0; c < w; c++) {
		mn = lo[c] < mn ? lo[c] : mn;
		mx = hi[c] > mx ? hi[c] : mx;
		ck_assert(lo[c] <= hi[c]);
	}
	ck_assert_double_eq(mx, 103 + 900);
	ck_assert_double_eq(mn, dip != spike ? 103 - 90 : 103 + 900);
	/* the spike is where it happened: three quarters along */
	for (unsigned c = 0; c < w && n > 10; c++)
		if (hi[c] == mx) {
			/* its first column: few samples span several columns each */
			ck_assert_msg(fabs((double)c / w - (double)spike / n) < 0.02,
				      "spike in column %u of %u", c, w);
			break;
		}
}
END_TEST

/* A few seconds into a phase, its samples already span the plot's width. */
START_TEST(test_hist_fills)
{
	static struct plot_hist h;
	double v[PLOT_HIST_SERIES] = {0}, lo[120], hi[120];
	struct plot_grid g = {0};

	plot_hist_reset(&h);
	for (unsigned i = 0; i < 5; i++) {
		v[0] = 100 + 10 * i;
		plot_hist_add(&h, v);
	}
	ck_assert_uint_eq(plot_hist_columns(&h, 0, 120, lo, hi), 120);
	/* in order: the first sample at the left edge, the newest at the right */
	ck_assert_double_eq(hi[0], 100);
	ck_assert_double_eq(hi[119], 140);
	for (unsigned c = 1; c < 120; c++)
		ck_assert(hi[c] >= hi[c - 1]);
	struct plot_series s = {hi, 120, 1, false, lo};
	ck_assert_int_eq(plot_render(&g, 60, 4, true, &s, 1, 0), 0);
	unsigned used = 0;
	for (unsigned x = 0; x < 60; x++)
		for (unsigned y = 0; y < 4; y++)
			if (g.cells[y * 60 + x].ch != ' ') {
				used++;
				break;
			}
	ck_assert_uint_eq(used, 60);
	plot_free(&g);
}
END_TEST

/* Ticks at round steps strictly inside the scale, in seconds for time. */
START_TEST(test_ticks)
{
	unsigned col[16];
	double val[16];

	ck_assert_double_eq(plot_nice_step(16, 4, true), 5);
	ck_assert_double_eq(plot_nice_step(100, 4, true), 30);
	ck_assert_double_eq(plot_nice_step(1000, 4, true), 300);
	ck_assert_double_eq(plot_nice_step(100, 4, false), 25);
	ck_assert_double_eq(plot_nice_step(0.3, 3, true), 0.1);
	ck_assert_double_eq(plot_nice_step(0, 3, true), 0);
	unsigned n = plot_ticks(16, 61, 4, true, col, val, 16);
	ck_assert_uint_eq(n, 3);
	ck_assert_double_eq(val[0], 5);
	ck_assert_double_eq(val[2], 15);
	ck_assert_uint_eq(col[0], 19); /* 5/16 of 60 */
	ck_assert_uint_eq(col[2], 56);
	ck_assert_uint_eq(plot_ticks(20, 61, 4, true, col, val, 16), 3); /* 5, 10, 15; not 20 */
}
END_TEST

/* A range is drawn from its low end to its high end, in both modes. */
START_TEST(test_range_render)
{
	static const double hi[2] = {8, 8}, lo[2] = {2, 8};
	struct plot_series s = {hi, 2, 1, false, lo};
	struct plot_grid g = {0};
	char row[64];

	ck_assert_int_eq(plot_render(&g, 1, 2, true, &s, 1, 8), 0);
	/* the first point (left dot column) reaches down into the bottom row */
	ck_assert_uint_ne(g.cells[1 * g.w].ch, ' ');
	ck_assert_int_eq(plot_render(&g, 2, 3, false, &s, 1, 8), 0);
	plot_row_text(&g, 1, row, sizeof(row));
	ck_assert_msg(row[0] == '|', "ascii middle row '%s'", row);
	plot_free(&g);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("ui_plot");
	TCase *tc = tcase_create("plot");

	tcase_add_loop_test(tc, test_nice_max, 0, N(nice_cases));
	tcase_add_loop_test(tc, test_utf8, 0, N(utf8));
	tcase_add_loop_test(tc, test_render, 0, N(cases));
	tcase_add_test(tc, test_roles_and_two_series);
	tcase_add_test(tc, test_capacity);
	tcase_add_loop_test(tc, test_hist, 0, N(hist_counts));
	tcase_add_test(tc, test_range_render);
	tcase_add_test(tc, test_hist_fills);
	tcase_add_test(tc, test_ticks);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
