// SPDX-License-Identifier: GPL-2.0-or-later
/* The key table, and the names of keys for the help screen and --list-keys. */
#include "keys.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

#define KEY_ESC	    27
#define KEY_TAB	    '\t'

const char *const key_scope_name[KS_COUNT] = {
	[KS_GLOBAL] = "Everywhere", [KS_LIST] = "Lists", [KS_DRIVES] = "Drives",
	[KS_PRESETS] = "Presets",   [KS_RUN] = "Run",	 [KS_RESULTS] = "Results",
};

const struct key_binding key_table[] = {
	{KS_GLOBAL, {'1'}, ACT_SCREEN_DRIVES, "the Drives screen"},
	{KS_GLOBAL, {'2'}, ACT_SCREEN_PRESETS, "the Presets screen"},
	{KS_GLOBAL, {'3'}, ACT_SCREEN_RUN, "the Run screen"},
	{KS_GLOBAL, {'4'}, ACT_SCREEN_RESULTS, "the Results screen"},
	{KS_GLOBAL, {KEY_TAB}, ACT_SCREEN_NEXT, "the next screen"},
	{KS_GLOBAL, {KEY_BTAB}, ACT_SCREEN_PREV, "the previous screen"},
	{KS_GLOBAL, {KEY_F(1), '?'}, ACT_HELP, "this help, generated from the key table"},
	{KS_GLOBAL, {'t'}, ACT_THEME, "the next colour theme"},
	{KS_GLOBAL, {CTRL_KEY('l')}, ACT_REDRAW, "redraw the screen"},
	{KS_GLOBAL, {'q'}, ACT_QUIT, "quit, asking first while a run is active"},
	{KS_LIST, {KEY_UP, 'k'}, ACT_UP, "move up"},
	{KS_LIST, {KEY_DOWN, 'j'}, ACT_DOWN, "move down"},
	{KS_LIST, {KEY_PPAGE}, ACT_PAGE_UP, "a page up"},
	{KS_LIST, {KEY_NPAGE}, ACT_PAGE_DOWN, "a page down"},
	{KS_LIST, {KEY_HOME, 'g'}, ACT_HOME, "the first row"},
	{KS_LIST, {KEY_END, 'G'}, ACT_END, "the last row"},
	{KS_DRIVES, {KEY_ENTER, '\n', '\r'}, ACT_CHOOSE, "choose the drive to run presets on"},
	{KS_DRIVES,
	 {' ', 'm'},
	 ACT_MARK,
	 "mark or unmark the target: a queue runs on all marked targets at once"},
	{KS_DRIVES, {'r'}, ACT_RESCAN, "discover the drives again"},
	{KS_PRESETS, {KEY_ENTER, '\n', '\r', ' '}, ACT_QUEUE_ADD, "add the preset to the queue"},
	{KS_PRESETS,
	 {'x', KEY_BACKSPACE, 127, KEY_DC},
	 ACT_QUEUE_REMOVE,
	 "remove the last preset from the queue"},
	{KS_PRESETS, {'-'}, ACT_SCALE_DOWN, "shorter: scale every duration down (rehearsal)"},
	{KS_PRESETS, {'+', '='}, ACT_SCALE_UP, "longer: scale every duration up, to x1"},
	{KS_PRESETS, {'s'}, ACT_START, "start the queue on the chosen drive, or on the marked ones"},
	{KS_RUN, {' ', 'p'}, ACT_PAUSE, "pause or resume the run"},
	{KS_RUN, {'a'}, ACT_ABORT, "abort the run, after asking; what was measured is saved"},
	{KS_RUN, {'w'}, ACT_PLOT_SPAN, "plots: the whole phase, or the last minutes"},
	{KS_RESULTS, {' '}, ACT_MARK, "mark or unmark the result for comparison"},
	{KS_RESULTS, {KEY_LEFT, 'h'}, ACT_METRIC_PREV, "the previous metric (details: scroll left)"},
	{KS_RESULTS, {KEY_RIGHT, 'l'}, ACT_METRIC_NEXT, "the next metric (details: scroll right)"},
	{KS_RESULTS, {'e'}, ACT_EXPORT, "export the comparison to a file"},
	{KS_RESULTS, {'d', KEY_DC}, ACT_DELETE,
	 "delete the result file, after asking (not while a run saves it)"},
	{KS_RESULTS, {'r'}, ACT_RELOAD, "read the results directory again"},
	{KS_RESULTS,
	 {KEY_ENTER, '\n', '\r'},
	 ACT_DETAILS,
	 "the selected result in full, as drivebench show prints it; again to close"},
	{KS_RESULTS, {KEY_ESC}, ACT_BACK, "close the details"},
	{KS_RESULTS, {'J'}, ACT_CMP_DOWN, "scroll the comparison down (its headers stay)"},
	{KS_RESULTS, {'K'}, ACT_CMP_UP, "scroll the comparison up"},
	{KS_RESULTS, {'L', '>'}, ACT_CMP_RIGHT, "scroll the comparison right: the next runs"},
	{KS_RESULTS, {'H', '<'}, ACT_CMP_LEFT, "scroll the comparison left (the steps stay)"},
	{KS_RESULTS, {'n'}, ACT_LABEL, "label the run: its name in comparisons"},
	{KS_RESULTS, {'N'}, ACT_NOTE, "write a note on the run"},
	{KS_RESULTS, {'c'}, ACT_CHARTS,
	 "charts of the selected run, or of the marked runs overlaid (h, l: the next chart)"},
	{KS_RESULTS, {'v'}, ACT_CHART_QUAD,
	 "charts of the four metrics of each test, 2x2; in the charts, one metric or four (h, l: the next test)"},
	{KS_RESULTS, {'o'}, ACT_OPEN, "open a result file or a directory of them, listed from then on"},
};
const unsigned key_table_len = sizeof(key_table) / sizeof(key_table[0]);

static enum key_action find(enum key_scope scope, int key)
{
	for (unsigned i = 0; i < key_table_len; i++) {
		if (key_table[i].scope != scope)
			continue;
		for (int k = 0; k < KEY_MAX_CODES && key_table[i].codes[k]; k++)
			if (key_table[i].codes[k] == key)
				return key_table[i].action;
	}
	return ACT_NONE;
}

enum key_action key_lookup(enum key_scope scope, int has_list, int key)
{
	enum key_action a = find(scope, key);

	/* the screen's own bindings first, so a screen may reuse a list key */
	if (a == ACT_NONE && has_list)
		a = find(KS_LIST, key);
	if (a == ACT_NONE)
		a = find(KS_GLOBAL, key);
	return a;
}

const char *key_label(int code, char *buf, size_t len)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
		{KEY_UP, "Up"},	      {KEY_DOWN, "Down"},      {KEY_LEFT, "Left"},
		{KEY_RIGHT, "Right"}, {KEY_PPAGE, "PgUp"},     {KEY_NPAGE, "PgDn"},
		{KEY_HOME, "Home"},   {KEY_END, "End"},	       {KEY_ENTER, "Enter"},
		{'\n', "Enter"},      {'\r', "Enter"},	       {' ', "Space"},
		{KEY_TAB, "Tab"},     {KEY_BTAB, "Shift-Tab"}, {KEY_BACKSPACE, "Backspace"},
		{127, "Backspace"},   {KEY_DC, "Delete"},      {KEY_ESC, "Esc"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == code) {
			snprintf(buf, len, "%s", names[i].name);
			return buf;
		}
	if (code >= KEY_F(1) && code <= KEY_F(12))
		snprintf(buf, len, "F%d", code - KEY_F(0));
	else if (code > 0 && code < 32)
		snprintf(buf, len, "Ctrl-%c", code + 'A' - 1);
	else if (code > 32 && code < 127)
		snprintf(buf, len, "%c", code);
	else
		snprintf(buf, len, "key %d", code);
	return buf;
}

char *key_labels(const struct key_binding *b, char *buf, size_t len)
{
	char name[32], *s;
	struct strbuf names = {0};

	for (int k = 0; k < KEY_MAX_CODES && b->codes[k]; k++) {
		key_label(b->codes[k], name, sizeof(name));
		/* several codes share one name (Enter is KEY_ENTER, \n and \r) */
		bool dup = false;
		for (int j = 0; j < k; j++) {
			char other[32];
			if (!strcmp(key_label(b->codes[j], other, sizeof(other)), name))
				dup = true;
		}
		if (dup)
			continue;
		strbuf_add(&names, "%s%s", names.len ? ", " : "", name);
	}
	s = strbuf_take(&names);
	snprintf(buf, len, "%s", s ? s : "");
	free(s);
	return buf;
}

const char *key_hint(enum key_scope scope, enum key_action action, char *buf, size_t len)
{
	for (unsigned i = 0; i < key_table_len; i++)
		if (key_table[i].scope == scope && key_table[i].action == action)
			return key_label(key_table[i].codes[0], buf, len);
	snprintf(buf, len, "?");
	return buf;
}

void key_print(FILE *out)
{
	char names[96];

	for (int s = 0; s < KS_COUNT; s++) {
		fprintf(out, "%s%s\n", s ? "\n" : "", key_scope_name[s]);
		for (unsigned i = 0; i < key_table_len; i++) {
			if (key_table[i].scope != (enum key_scope)s)
				continue;
			key_labels(&key_table[i], names, sizeof(names));
			fprintf(out, "  %-20s  %s\n", names, key_table[i].help);
		}
	}
}
