// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The key table (ui/keys.c): names, lookup precedence, and that no key means two things
 * on one screen, through keys.h.
 */
#include "keys.h"

#include <curses.h>
#include <string.h>

#include "testlib.h"
#include <stdlib.h>

static const struct {
	int code;
	const char *name;
} names[] = {
	{KEY_UP, "Up"},
	{KEY_DOWN, "Down"},
	{'\n', "Enter"},
	{KEY_ENTER, "Enter"},
	{' ', "Space"},
	{'\t', "Tab"},
	{KEY_BTAB, "Shift-Tab"},
	{KEY_F(1), "F1"},
	{KEY_F(12), "F12"},
	{CTRL_KEY('l'), "Ctrl-L"},
	{'q', "q"},
	{'?', "?"},
	{127, "Backspace"},
	{KEY_DC, "Delete"},
	{27, "Esc"},
};

START_TEST(test_key_label)
{
	char buf[32];

	ck_assert_str_eq(key_label(names[_i].code, buf, sizeof(buf)), names[_i].name);
}
END_TEST

static const struct {
	enum key_scope scope;
	int has_list;
	int key;
	enum key_action want;
} lookups[] = {
	{KS_DRIVES, 1, 'j', ACT_DOWN},
	{KS_DRIVES, 1, KEY_UP, ACT_UP},
	{KS_DRIVES, 1, '\r', ACT_CHOOSE},
	{KS_DRIVES, 1, ' ', ACT_MARK}, /* several targets */
	{KS_DRIVES, 1, 'm', ACT_MARK},
	{KS_PRESETS, 1, '\n', ACT_QUEUE_ADD}, /* the screen's own Enter */
	{KS_PRESETS, 1, 's', ACT_START},
	{KS_RUN, 0, ' ', ACT_PAUSE},
	{KS_RUN, 0, 'j', ACT_NONE}, /* the Run screen has no list */
	{KS_RUN, 0, 'q', ACT_QUIT}, /* global keys work everywhere */
	{KS_RESULTS, 1, ' ', ACT_MARK},
	{KS_RESULTS, 1, 'l', ACT_METRIC_NEXT},
	{KS_RESULTS, 1, KEY_LEFT, ACT_METRIC_PREV},
	{KS_GLOBAL, 1, KEY_F(1), ACT_HELP},
	{KS_GLOBAL, 1, '\t', ACT_SCREEN_NEXT},
	{KS_DRIVES, 1, 'Z', ACT_NONE},
};

START_TEST(test_lookup)
{
	ck_assert_int_eq(key_lookup(lookups[_i].scope, lookups[_i].has_list, lookups[_i].key),
			 lookups[_i].want);
}
END_TEST

/* A key means one thing per scope, and no screen takes a key the Everywhere scope uses. */
START_TEST(test_no_conflicts)
{
	for (unsigned i = 0; i < key_table_len; i++) {
		const struct key_binding *a = &key_table[i];
		ck_assert_msg(a->help && *a->help, "binding %u has no help", i);
		ck_assert_msg(a->codes[0], "binding %u has no key", i);
		for (unsigned j = i + 1; j < key_table_len; j++) {
			const struct key_binding *b = &key_table[j];
			bool clash_scope = a->scope == b->scope || a->scope == KS_GLOBAL ||
					   b->scope == KS_GLOBAL;
			for (int x = 0; x < KEY_MAX_CODES && a->codes[x]; x++)
				for (int y = 0; y < KEY_MAX_CODES && b->codes[y]; y++)
					ck_assert_msg(!clash_scope || a->codes[x] != b->codes[y],
						      "'%s' and '%s' share a key", a->help,
						      b->help);
		}
	}
}
END_TEST

START_TEST(test_labels_and_print)
{
	char buf[96], *text = NULL;
	size_t len = 0;
	FILE *f;

	/* Enter is three codes and one name */
	for (unsigned i = 0; i < key_table_len; i++)
		if (key_table[i].action == ACT_CHOOSE)
			ck_assert_str_eq(key_labels(&key_table[i], buf, sizeof(buf)), "Enter");
	ck_assert_str_eq(key_hint(KS_RUN, ACT_ABORT, buf, sizeof(buf)), "a");
	ck_assert_str_eq(key_hint(KS_RUN, ACT_MARK, buf, sizeof(buf)), "?");
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	key_print(f);
	fclose(f);
	/* every scope and every help text, once */
	for (int s = 0; s < KS_COUNT; s++)
		ck_assert_msg(strstr(text, key_scope_name[s]), "no %s", key_scope_name[s]);
	for (unsigned i = 0; i < key_table_len; i++) {
		const char *at = strstr(text, key_table[i].help);
		ck_assert_msg(at, "no '%s'", key_table[i].help);
	}
	free(text);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("ui_keys");
	TCase *tc = tcase_create("keys");

	tcase_add_loop_test(tc, test_key_label, 0, N(names));
	tcase_add_loop_test(tc, test_lookup, 0, N(lookups));
	tcase_add_test(tc, test_no_conflicts);
	tcase_add_test(tc, test_labels_and_print);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
