// SPDX-License-Identifier: GPL-2.0-or-later
/* The help screen: the key table, scope by scope, exactly as --list-keys prints it. */
#include "ui.h"

#include <stdio.h>

void help_draw(struct app *a, int top, int bottom)
{
	char names[96];
	int y = top, line = 0;

	/* what the screen is drawn with, then the table, scrolled to help_rows.sel */
	ui_textf(a, y++, 1, a->cols - 2, ROLE_DIM,
		 "theme %s%s%s. drivebench(1) and drivebench-theme(5) say more.",
		 a->theme.name[0] ? a->theme.name : "built-in",
		 a->colours ? "" : " (no colours on this terminal)",
		 a->utf8 ? "" : "; plots in ASCII (no UTF-8 locale)");
	y++;
	for (int s = 0; s < KS_COUNT; s++) {
		if (line++ >= (int)a->help_rows.sel && y < bottom)
			ui_text(a, y++, 1, a->cols - 2, ROLE_HEADER, key_scope_name[s]);
		for (unsigned i = 0; i < key_table_len; i++) {
			if (key_table[i].scope != (enum key_scope)s)
				continue;
			if (line++ < (int)a->help_rows.sel || y >= bottom)
				continue;
			key_labels(&key_table[i], names, sizeof(names));
			ui_text(a, y, 3, 22, ROLE_VALUE, names);
			ui_text(a, y++, 25, a->cols - 26, ROLE_NORMAL, key_table[i].help);
		}
		if (line++ >= (int)a->help_rows.sel && y < bottom)
			y++;
	}
	static const enum key_action acts[] = {ACT_DOWN, ACT_HELP, ACT_QUIT};
	static const char *const words[] = {"scroll", "back", "quit"};
	ui_hints(a, bottom, KS_GLOBAL, acts, words, 3);
}

void help_key(struct app *a, enum key_action act)
{
	/* a header and a blank line per scope around the bindings */
	unsigned total = key_table_len + 2 * KS_COUNT;

	ui_list_count(&a->help_rows, total);
	ui_list_key(&a->help_rows, act);
}
