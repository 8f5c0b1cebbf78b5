// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The theme parser (ui/theme.c). ui/ is not in the core library, and the parser does not
 * use curses, so the module is compiled into this test directly.
 */
#include "theme.h"

#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include <stdlib.h>
#include <sys/stat.h>

static const struct {
	const char *in;
	short fg, bg;
	unsigned attrs;
} good_styles[] = {
	{"default", -1, -1, 0},
	{"fg=red", 1, -1, 0},
	{"fg=white,bg=blue,bold", 7, 4, UI_A_BOLD},
	{"bg=colour236", -1, 236, 0},
	{"fg=color9", 9, -1, 0},
	{"fg=brightblack", 8, -1, 0},
	{"fg=#ff0000", 196, -1, 0},
	{"fg=#000000,bg=#ffffff", 16, 231, 0},
	{"bold,underscore,reverse", -1, -1, UI_A_BOLD | UI_A_UNDERLINE | UI_A_REVERSE},
	{"bold, dim ,italics", -1, -1, UI_A_BOLD | UI_A_DIM | UI_A_ITALIC},
	{"bold,nobold", -1, -1, 0},
	{"bold,none,blink", -1, -1, UI_A_BLINK},
	{"fg=default,bg=terminal", -1, -1, 0},
	{"", -1, -1, 0},
};

START_TEST(test_style_good)
{
	struct ui_style st;
	char err[256] = "";

	ck_assert_msg(theme_parse_style(good_styles[_i].in, &st, err, sizeof(err)) == 0, "%s: %s",
		      good_styles[_i].in, err);
	ck_assert_int_eq(st.fg, good_styles[_i].fg);
	ck_assert_int_eq(st.bg, good_styles[_i].bg);
	ck_assert_uint_eq(st.attrs, good_styles[_i].attrs);
}
END_TEST

static const struct {
	const char *in;
	const char *msg;
} bad_styles[] = {
	{"fg=purple", "unknown colour 'purple'"}, {"fg=colour256", "unknown colour 'colour256'"},
	{"bg=colour", "unknown colour 'colour'"}, {"fg=#12345", "unknown colour '#12345'"},
	{"fg=", "unknown style 'fg='"},		  {"bolder", "unknown style 'bolder'"},
	{"fg=red,blue", "unknown style 'blue'"},
};

START_TEST(test_style_bad)
{
	struct ui_style st = {.fg = 3};
	char err[256] = "";

	ck_assert_int_eq(theme_parse_style(bad_styles[_i].in, &st, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, bad_styles[_i].msg), "'%s' gave '%s'", bad_styles[_i].in, err);
	ck_assert_int_eq(st.fg, 3); /* untouched on error */
}
END_TEST

START_TEST(test_style_roundtrip)
{
	struct ui_style a, b;
	char buf[128], err[128];

	ck_assert_int_eq(theme_parse_style(good_styles[_i].in, &a, err, sizeof(err)), 0);
	theme_fmt_style(&a, buf, sizeof(buf));
	ck_assert_msg(theme_parse_style(buf, &b, err, sizeof(err)) == 0, "%s: %s", buf, err);
	ck_assert_int_eq(a.fg, b.fg);
	ck_assert_int_eq(a.bg, b.bg);
	ck_assert_uint_eq(a.attrs, b.attrs);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad_themes[] = {
	{"title = fg=white\nborder fg=blue\n", "t.theme:2: expected 'role = style'"},
	{"\n\n= bold\n", "t.theme:3: missing role name"},
	{"title = bold\ntitle = dim\n", "t.theme:2: role 'title' given twice"},
	{"# c\nwarning =\n", "t.theme:2: role 'warning' has no style"},
	{"ok = fg=greeen\n", "t.theme:1: unknown colour 'greeen'"},
	{"ok = fg=green\n\n  error = bold,loud # comment\n", "t.theme:3: unknown style 'loud'"},
};

START_TEST(test_theme_bad)
{
	struct theme t = {0};
	char err[512] = "";

	theme_builtin(&t);
	ck_assert_int_eq(
		theme_parse(&t, bad_themes[_i].text, "t.theme", NULL, NULL, err, sizeof(err)),
		-EINVAL);
	ck_assert_msg(strstr(err, bad_themes[_i].msg), "got '%s'", err);
}
END_TEST

struct warnings {
	unsigned n;
	char last[512];
};

static void collect(void *arg, const char *msg)
{
	struct warnings *w = arg;
	w->n++;
	snprintf(w->last, sizeof(w->last), "%s", msg);
}

START_TEST(test_theme_fallback_and_warning)
{
	struct theme t = {0}, builtin;
	struct warnings w = {0};
	char err[256] = "";
	const char *text = "# a partial theme\n"
			   "title = fg=red,bold   # the top bar\n"
			   "sparkle = fg=yellow\n"
			   "plot-read = fg=#00ff00\n";

	ck_assert_msg(theme_parse(&t, text, "p.theme", collect, &w, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_str_eq(w.last, "p.theme:3: unknown role 'sparkle' ignored");
	ck_assert_int_eq(t.role[ROLE_TITLE].fg, 1);
	ck_assert_uint_eq(t.role[ROLE_TITLE].attrs, UI_A_BOLD);
	ck_assert_int_eq(t.role[ROLE_PLOT_READ].fg, 46);
	/* what the file leaves out is the built-in style of the role */
	theme_builtin(&builtin);
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (r == ROLE_TITLE || r == ROLE_PLOT_READ)
			continue;
		ck_assert_int_eq(t.role[r].fg, builtin.role[r].fg);
		ck_assert_int_eq(t.role[r].bg, builtin.role[r].bg);
		ck_assert_uint_eq(t.role[r].attrs, builtin.role[r].attrs);
	}
}
END_TEST

START_TEST(test_builtin_styles_parse)
{
	struct ui_style st;
	char err[256];

	for (int r = 0; r < ROLE_COUNT; r++) {
		ck_assert_msg(ui_role_info[r].name && ui_role_info[r].help, "role %d", r);
		ck_assert_msg(theme_parse_style(ui_role_info[r].builtin, &st, err, sizeof(err)) ==
				      0,
			      "%s: %s", ui_role_info[r].name, err);
		ck_assert_int_eq(theme_role_find(ui_role_info[r].name), r);
	}
	ck_assert_int_eq(theme_role_find("nonsense"), -1);
}
END_TEST

/* Every shipped theme loads without a warning and names every role. */
static const char *const shipped[] = {"default", "light", "monochrome", "high-contrast"};

START_TEST(test_shipped_themes)
{
	char path[4200], err[512] = "";
	struct theme t = {0};
	struct warnings w = {0};
	FILE *f;
	char line[512];
	bool named[ROLE_COUNT] = {false};

	snprintf(path, sizeof(path), "%s/themes/%s.theme", DB_SRCDIR, shipped[_i]);
	ck_assert_msg(theme_load_file(&t, path, collect, &w, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(w.n == 0, "%s", w.last);
	ck_assert_str_eq(t.name, shipped[_i]);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char role[64];
		if (sscanf(line, " %63[a-z-] =", role) == 1 && theme_role_find(role) >= 0)
			named[theme_role_find(role)] = true;
	}
	fclose(f);
	for (int r = 0; r < ROLE_COUNT; r++)
		ck_assert_msg(named[r], "%s does not set '%s'", shipped[_i], ui_role_info[r].name);
	if (!strcmp(shipped[_i], "monochrome"))
		for (int r = 0; r < ROLE_COUNT; r++)
			ck_assert_msg(t.role[r].fg == -1 && t.role[r].bg == -1,
				      "monochrome colours '%s'", ui_role_info[r].name);
}
END_TEST

START_TEST(test_load_by_name_and_missing)
{
	char dir[] = "/tmp/check_ui_theme.XXXXXX", sub[256], path[512], err[1024] = "";
	struct theme t = {0};
	char names[16][64];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/drivebench", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/drivebench/themes", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/mine.theme", sub);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("selection = fg=colour200\n", f);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1);

	int r1 = theme_load(&t, "mine", NULL, NULL, err, sizeof(err));
	int r2 = theme_load(&t, "no-such-theme", NULL, NULL, err, sizeof(err));
	unsigned n = theme_list(names, 16);
	bool found = false;
	for (unsigned i = 0; i < n; i++)
		found |= !strcmp(names[i], "mine");

	unlink(path);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/drivebench", dir);
	rmdir(sub);
	rmdir(dir);

	ck_assert_int_eq(r1, 0);
	ck_assert_int_eq(r2, -ENOENT);
	ck_assert_msg(strstr(err, "no theme 'no-such-theme'") && strstr(err, dir), "%s", err);
	ck_assert(found);
}
END_TEST

START_TEST(test_strip_colours)
{
	struct theme t;

	theme_builtin(&t);
	theme_strip_colours(&t);
	for (int r = 0; r < ROLE_COUNT; r++)
		ck_assert(t.role[r].fg == -1 && t.role[r].bg == -1);
	/* the selection was a background colour: it must stay visible */
	ck_assert(t.role[ROLE_SELECTION].attrs & UI_A_REVERSE);
}
END_TEST

/* drivebench-theme(5) lists every role of the table, as ".B name" in its ROLES section. */
START_TEST(test_man_page_roles)
{
	char path[4200], line[512], want[128];
	bool found = false, in_roles = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/man/drivebench-theme.5", DB_SRCDIR);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	/* role names are written with escaped hyphens, as roff wants them */
	size_t n = 0;
	for (const char *c = ui_role_info[_i].name; *c && n + 3 < sizeof(want); c++) {
		if (*c == '-')
			want[n++] = '\\';
		want[n++] = *c;
	}
	want[n] = '\0';
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, ".SH ", 4))
			in_roles = !strcmp(line, ".SH ROLES");
		if (in_roles && !strncmp(line, ".B ", 3) && !strcmp(line + 3, want))
			found = true;
	}
	fclose(f);
	ck_assert_msg(found, "role '%s' is not in the ROLES section of %s", ui_role_info[_i].name,
		      path);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("ui_theme");
	TCase *tc = tcase_create("theme");

	tcase_add_loop_test(tc, test_style_good, 0, N(good_styles));
	tcase_add_loop_test(tc, test_style_bad, 0, N(bad_styles));
	tcase_add_loop_test(tc, test_style_roundtrip, 0, N(good_styles));
	tcase_add_loop_test(tc, test_theme_bad, 0, N(bad_themes));
	tcase_add_test(tc, test_theme_fallback_and_warning);
	tcase_add_test(tc, test_builtin_styles_parse);
	tcase_add_loop_test(tc, test_shipped_themes, 0, N(shipped));
	tcase_add_test(tc, test_load_by_name_and_missing);
	tcase_add_test(tc, test_strip_colours);
	tcase_add_loop_test(tc, test_man_page_roles, 0, ROLE_COUNT);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
