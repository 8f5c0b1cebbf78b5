/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_KEYS_H
#define DB_UI_KEYS_H
/*
 * The one key table. Every binding is declared once, with where it applies, what it does
 * and its help text; the help screen, `drivebench --list-keys` and the man page check
 * (tests/t_man.sh) all derive from it (tmux's key-bindings.c with list-keys -N).
 */
#include <stdio.h>

/* Where a binding applies, in the order the help screen lists them. */
enum key_scope {
	KS_GLOBAL, /* every screen */
	KS_LIST,   /* every screen with a list: Drives, Presets, Results, Help */
	KS_DRIVES,
	KS_PRESETS,
	KS_RUN,
	KS_RESULTS,
	KS_COUNT
};
extern const char *const key_scope_name[KS_COUNT];

enum key_action {
	ACT_NONE,
	ACT_SCREEN_DRIVES,
	ACT_SCREEN_PRESETS,
	ACT_SCREEN_RUN,
	ACT_SCREEN_RESULTS,
	ACT_SCREEN_NEXT,
	ACT_SCREEN_PREV,
	ACT_HELP,
	ACT_THEME,
	ACT_REDRAW,
	ACT_QUIT,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_CHOOSE,
	ACT_RESCAN,
	ACT_QUEUE_ADD,
	ACT_QUEUE_REMOVE,
	ACT_SCALE_DOWN,
	ACT_SCALE_UP,
	ACT_START,
	ACT_PAUSE,
	ACT_ABORT,
	ACT_PLOT_SPAN,
	ACT_MARK,
	ACT_METRIC_PREV,
	ACT_METRIC_NEXT,
	ACT_EXPORT,
	ACT_DELETE,
	ACT_RELOAD,
	ACT_DETAILS,
	ACT_BACK,
	ACT_CMP_DOWN,
	ACT_CMP_UP,
	ACT_CMP_RIGHT,
	ACT_CMP_LEFT,
	ACT_LABEL,
	ACT_NOTE,
	ACT_CHARTS,
	ACT_CHART_QUAD,
	ACT_OPEN,
};

#define KEY_MAX_CODES 4
/* The code a terminal sends for Ctrl and a letter. */
#define CTRL_KEY(c) ((c)&0x1f)

struct key_binding {
	enum key_scope scope;
	int codes[KEY_MAX_CODES]; /* curses key codes; 0 ends the list early */
	enum key_action action;
	const char *help;
};

extern const struct key_binding key_table[];
extern const unsigned key_table_len;

/* The action of key code `key` on a screen of scope `scope` (list screens: has_list). */
enum key_action key_lookup(enum key_scope scope, int has_list, int key);
/* The name a person types: "Up", "Space", "F1", "Ctrl-L", "q". */
const char *key_label(int code, char *buf, size_t len);
/* "Up, k": a binding's distinct key names. */
char *key_labels(const struct key_binding *b, char *buf, size_t len);
/* The first key of the first binding of action in scope, for hints ("a" for abort). */
const char *key_hint(enum key_scope scope, enum key_action action, char *buf, size_t len);
/* Print the table, scope by scope, as `drivebench --list-keys` does. */
void key_print(FILE *out);

#endif
