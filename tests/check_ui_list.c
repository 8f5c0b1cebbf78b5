// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The screens' lists (ui/list.c): the cursor moved by the list keys within the rows,
 * kept in view as the window scrolls, a pager's last page full, a count that shrinks
 * under the cursor, and scrolling counted only when drawn.
 */
#include "list.h"

#include "testlib.h"

/* One key on a list of n rows with the cursor at sel: where the cursor goes. */
static const struct move_case {
	unsigned n, sel;
	enum key_action act;
	unsigned want;
	bool used;
} moves[] = {
	{30, 5, ACT_UP, 4, true},
	{30, 0, ACT_UP, 0, true},
	{30, 5, ACT_DOWN, 6, true},
	{30, 29, ACT_DOWN, 29, true},
	{30, 15, ACT_PAGE_UP, 5, true},
	{30, 10, ACT_PAGE_UP, 0, true},
	{30, 3, ACT_PAGE_UP, 0, true},
	{30, 5, ACT_PAGE_DOWN, 15, true},
	{30, 19, ACT_PAGE_DOWN, 29, true},
	{30, 25, ACT_PAGE_DOWN, 29, true},
	{30, 17, ACT_HOME, 0, true},
	{30, 17, ACT_END, 29, true},
	{1, 0, ACT_END, 0, true},
	{1, 0, ACT_PAGE_DOWN, 0, true},
	/* an empty list keeps the cursor at 0 whatever is pressed */
	{0, 0, ACT_DOWN, 0, true},
	{0, 0, ACT_UP, 0, true},
	{0, 0, ACT_END, 0, true},
	{0, 0, ACT_PAGE_DOWN, 0, true},
	{0, 0, ACT_PAGE_UP, 0, true},
	/* not a list key: left alone, and said so */
	{30, 7, ACT_MARK, 7, false},
	{30, 7, ACT_METRIC_NEXT, 7, false},
	{30, 7, ACT_NONE, 7, false},
};

START_TEST(test_key)
{
	const struct move_case *c = &moves[_i];
	struct ui_list l = {.sel = c->sel, .n = c->n};

	ck_assert_int_eq(ui_list_key(&l, c->act), c->used);
	ck_assert_uint_eq(l.sel, c->want);
	ck_assert_uint_lt(l.sel, c->n ? c->n : 1);
}
END_TEST

/* Walking a list with every key never leaves it and Down then Up comes back. */
START_TEST(test_walk)
{
	static const enum key_action acts[] = {ACT_DOWN,    ACT_PAGE_DOWN, ACT_END, ACT_UP,
					       ACT_PAGE_UP, ACT_HOME,	   ACT_DOWN};
	struct ui_list l = {0};

	for (unsigned n = 0; n < 25; n++) {
		ui_list_count(&l, n);
		for (unsigned k = 0; k < 50; k++) {
			ui_list_key(&l, acts[(k * 5 + n) % 7]);
			ck_assert_uint_lt(l.sel, n ? n : 1);
		}
		if (n >= 2) {
			ui_list_key(&l, ACT_HOME);
			ui_list_key(&l, ACT_DOWN);
			ui_list_key(&l, ACT_UP);
			ck_assert_uint_eq(l.sel, 0);
		}
	}
}
END_TEST

/* A list that loses rows under the cursor puts it on the last; one that gains keeps it. */
START_TEST(test_count)
{
	struct ui_list l = {.sel = 12, .n = 20};

	ui_list_count(&l, 30);
	ck_assert_uint_eq(l.n, 30);
	ck_assert_uint_eq(l.sel, 12);
	ui_list_count(&l, 5);
	ck_assert_uint_eq(l.sel, 4);
	ui_list_count(&l, 0);
	ck_assert_uint_eq(l.sel, 0);
	ck_assert_uint_eq(l.n, 0);
}
END_TEST

/* The window follows the cursor: no further than it must, and not at all when in view. */
START_TEST(test_show)
{
	struct ui_list l = {.n = 100};

	ui_list_show(&l, 10);
	ck_assert_uint_eq(l.top, 0);
	l.sel = 9;
	ui_list_show(&l, 10);
	ck_assert_uint_eq(l.top, 0);
	l.sel = 10; /* one past the window: it scrolls by one */
	ui_list_show(&l, 10);
	ck_assert_uint_eq(l.top, 1);
	ui_list_key(&l, ACT_END);
	ui_list_show(&l, 10);
	ck_assert_uint_eq(l.top, 90);
	l.sel = 95; /* in view: the window stays */
	ui_list_show(&l, 10);
	ck_assert_uint_eq(l.top, 90);
	ui_list_key(&l, ACT_HOME);
	ui_list_show(&l, 10);
	ck_assert_uint_eq(l.top, 0);
	l.sel = 50; /* no window at all: left alone */
	ui_list_show(&l, 0);
	ck_assert_uint_eq(l.top, 0);
}
END_TEST

/* A pager's cursor is its first line, no further than a full last page. */
START_TEST(test_page)
{
	struct ui_list l = {.n = 40};

	ui_list_key(&l, ACT_END);
	ck_assert_uint_eq(l.sel, 39);
	ui_list_page(&l, 15);
	ck_assert_uint_eq(l.sel, 25);
	ck_assert_uint_eq(l.top, 25);
	ui_list_key(&l, ACT_PAGE_UP);
	ui_list_page(&l, 15);
	ck_assert_uint_eq(l.top, 15);
	/* everything fits: from the first line */
	ui_list_page(&l, 40);
	ck_assert_uint_eq(l.top, 0);
	l.sel = 3;
	ui_list_page(&l, 60);
	ck_assert_uint_eq(l.sel, 0);
	ck_assert_uint_eq(l.top, 0);
}
END_TEST

/* Scrolling a list counted when drawn: not above the first row, clamped by the draw. */
START_TEST(test_scroll_by)
{
	struct ui_list l = {0};

	ui_list_scroll_by(&l, -4);
	ck_assert_uint_eq(l.sel, 0);
	for (int i = 0; i < 10; i++)
		ui_list_scroll_by(&l, 4);
	ck_assert_uint_eq(l.sel, 40); /* the rows are not known yet */
	ui_list_count(&l, 30);
	ui_list_page(&l, 8);
	ck_assert_uint_eq(l.sel, 22);
	ui_list_scroll_by(&l, -4);
	ck_assert_uint_eq(l.sel, 18);
	ui_list_scroll_by(&l, -100);
	ck_assert_uint_eq(l.sel, 0);
}
END_TEST

static Suite *list_suite(void)
{
	Suite *s = suite_create("ui_list");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_key, 0, sizeof(moves) / sizeof(moves[0]));
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_count);
	tcase_add_test(tc, test_show);
	tcase_add_test(tc, test_page);
	tcase_add_test(tc, test_scroll_by);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(list_suite)
