/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_LIST_H
#define DB_UI_LIST_H
/*
 * A screen's list: its rows, the row the cursor is on and the first row in view. Every
 * screen keeps its cursors and scroll positions in these, and moves them with the same
 * keys through ui_list_key. No curses here: check_ui_list tests it as it stands.
 */
#include <stdbool.h>

#include "keys.h"

#define UI_LIST_PAGE 10 /* rows Page Up and Page Down move */

struct ui_list {
	unsigned sel; /* the cursor's row: < n, or 0 when there are no rows */
	unsigned top; /* the first row in view */
	unsigned n;   /* rows */
};

/* The list has n rows now: the cursor stays on its row, or goes to the last one. */
void ui_list_count(struct ui_list *l, unsigned n);
/* Up, Down, Page Up, Page Down, Home, End move the cursor; false for any other action. */
bool ui_list_key(struct ui_list *l, enum key_action act);
/* Scroll a window of `rows` rows so that the cursor is in it. */
void ui_list_show(struct ui_list *l, unsigned rows);
/*
 * A pager, whose cursor is the first row in view: no further than a full last page of
 * `rows` rows; top follows the cursor.
 */
void ui_list_page(struct ui_list *l, unsigned rows);
/*
 * Move the cursor by delta rows, not above the first; not limited below, for a list
 * counted only when drawn (ui_list_page, ui_list_count clamp it then).
 */
void ui_list_scroll_by(struct ui_list *l, int delta);

#endif
