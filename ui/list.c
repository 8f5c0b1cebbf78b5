// SPDX-License-Identifier: GPL-2.0-or-later
/* Cursors and scrolling, for every screen's lists (list.h). */
#include "list.h"

void ui_list_count(struct ui_list *l, unsigned n)
{
	l->n = n;
	if (l->sel >= n)
		l->sel = n ? n - 1 : 0;
}

bool ui_list_key(struct ui_list *l, enum key_action act)
{
	switch (act) {
	case ACT_UP:
		if (l->sel > 0)
			l->sel--;
		break;
	case ACT_DOWN:
		if (l->sel + 1 < l->n)
			l->sel++;
		break;
	case ACT_PAGE_UP:
		l->sel = l->sel > UI_LIST_PAGE ? l->sel - UI_LIST_PAGE : 0;
		break;
	case ACT_PAGE_DOWN:
		l->sel = l->sel + UI_LIST_PAGE < l->n ? l->sel + UI_LIST_PAGE : l->n - 1;
		break;
	case ACT_HOME:
		l->sel = 0;
		break;
	case ACT_END:
		l->sel = l->n - 1;
		break;
	default:
		return false;
	}
	if (l->sel >= l->n)
		l->sel = l->n ? l->n - 1 : 0;
	return true;
}

void ui_list_show(struct ui_list *l, unsigned rows)
{
	if (rows == 0)
		return;
	if (l->sel < l->top)
		l->top = l->sel;
	else if (l->sel >= l->top + rows)
		l->top = l->sel - rows + 1;
}

void ui_list_page(struct ui_list *l, unsigned rows)
{
	if (l->sel + rows > l->n)
		l->sel = l->n > rows ? l->n - rows : 0;
	l->top = l->sel;
}

void ui_list_scroll_by(struct ui_list *l, int delta)
{
	if (delta >= 0)
		l->sel += (unsigned)delta;
	else
		l->sel = l->sel > (unsigned)-delta ? l->sel - (unsigned)-delta : 0;
}
