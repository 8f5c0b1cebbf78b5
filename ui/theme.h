/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_THEME_H
#define DB_UI_THEME_H
/*
 * Themes: semantic colour roles (title, selection, plot lines per direction, warning, ...)
 * mapped to tmux-like style strings, "fg=colour,bg=colour,bold". Drawing code asks for a
 * role, never for a colour. This file knows nothing about curses: it parses and holds
 * styles; ui/draw.c turns them into colour pairs. The format is drivebench-theme(5).
 *
 * A theme file is lines of "role = style"; '#' starts a comment. An unknown role is a
 * warning (a newer theme on an older drivebench still loads); a role the file leaves out
 * takes the built-in default from the role table; a malformed line is an error with
 * "file:line: message". A theme is a regular file of at most THEME_MAX_BYTES; its text,
 * and the name taken from its file name, are repaired to well-formed UTF-8.
 */
#include <stdbool.h>
#include <stddef.h>

#define THEME_MAX_BYTES (64u << 10)

/* Every role, declared once: X(enum suffix, name in theme files, built-in style, meaning). */
#define UI_ROLES(X)                                                                                \
	X(NORMAL, "normal", "default", "ordinary text")                                            \
	X(TITLE, "title", "fg=white,bg=blue,bold", "the top bar")                                  \
	X(TAB, "tab", "fg=white,bg=blue", "a screen name in the top bar")                          \
	X(TAB_ACTIVE, "tab-active", "fg=black,bg=cyan,bold", "the current screen's name")          \
	X(BORDER, "border", "fg=blue", "rules between panes")                                      \
	X(HEADER, "header", "bold", "table column headings")                                       \
	X(SELECTION, "selection", "fg=black,bg=cyan", "the selected row")                          \
	X(MARKED, "marked", "fg=yellow,bold", "marked rows and their mark")                        \
	X(DIM, "dim", "fg=brightblack", "secondary text")                                          \
	X(LABEL, "label", "fg=cyan", "field names in detail panes")                                \
	X(VALUE, "value", "bold", "measured numbers")                                              \
	X(OK, "ok", "fg=green", "good state: free, steady, complete")                              \
	X(WARNING, "warning", "fg=yellow,bold", "needs attention: degraded link, aborted")         \
	X(ERROR, "error", "fg=red,bold", "failure, in use, refused")                               \
	X(PLOT_ALL, "plot-all", "fg=cyan", "plot line: read and write together")                   \
	X(PLOT_READ, "plot-read", "fg=green", "plot line: reads")                                  \
	X(PLOT_WRITE, "plot-write", "fg=magenta", "plot line: writes")                             \
	X(AXIS, "axis", "fg=brightblack", "plot scale and labels")                                 \
	X(PROGRESS, "progress", "fg=black,bg=green", "the filled part of a progress bar")          \
	X(KEYHINT, "keyhint", "fg=brightblack", "the key hints on the bottom line")                \
	X(DIALOG, "dialog", "fg=white,bg=red,bold", "confirmation dialogs")

enum ui_role {
#define X(id, name, style, help) ROLE_##id,
	UI_ROLES(X)
#undef X
		ROLE_COUNT
};

struct ui_role_info {
	const char *name;
	const char *builtin; /* the style a theme that leaves the role out gets */
	const char *help;
};
extern const struct ui_role_info ui_role_info[ROLE_COUNT];

enum ui_attr {
	UI_A_BOLD = 1u << 0,
	UI_A_DIM = 1u << 1,
	UI_A_UNDERLINE = 1u << 2,
	UI_A_BLINK = 1u << 3,
	UI_A_REVERSE = 1u << 4,
	UI_A_ITALIC = 1u << 5,
};

#define UI_COLOUR_DEFAULT (-1)

struct ui_style {
	short fg; /* 0..255, or UI_COLOUR_DEFAULT (the terminal's own) */
	short bg;
	unsigned attrs; /* enum ui_attr bits */
};

struct theme {
	char name[64];
	char path[4096]; /* the file it came from; "" for the built-in */
	struct ui_style role[ROLE_COUNT];
};

/* Parse "fg=red,bg=colour236,bold" into *st. 0 or -EINVAL with a message in err. */
int theme_parse_style(const char *s, struct ui_style *st, char *err, size_t errlen);
/* The style back as a string, in the same syntax. */
char *theme_fmt_style(const struct ui_style *st, char *buf, size_t len);
/* The built-in defaults of every role (what a missing role falls back to). */
void theme_builtin(struct theme *t);
/* A role by its name in theme files; -1 when there is none. */
int theme_role_find(const char *name);

/* Warnings (unknown roles) go here, one call per warning: "file:line: message". */
typedef void (*theme_warn_fn)(void *arg, const char *msg);

/*
 * Parse theme text (the contents of file `fname`, used in messages) over the built-in
 * defaults. 0, or -EINVAL with "fname:line: message" in err.
 */
int theme_parse(struct theme *t, const char *text, const char *fname, theme_warn_fn warn,
		void *warn_arg, char *err, size_t errlen);
int theme_load_file(struct theme *t, const char *path, theme_warn_fn warn, void *warn_arg,
		    char *err, size_t errlen);

/*
 * The directories themes are looked up in, most specific first:
 * $XDG_CONFIG_HOME/drivebench/themes, then the data directory's themes/ (db_datadir(): the
 * install's, or $DRIVEBENCH_DATADIR). Returns how many were written.
 */
unsigned theme_dirs(char dirs[][4096], unsigned max);
/*
 * Find theme `name` (a name, or a path containing '/') and load it. 0, -ENOENT with a
 * message naming the directories searched, or the parser's error.
 */
int theme_load(struct theme *t, const char *name, theme_warn_fn warn, void *warn_arg, char *err,
	       size_t errlen);
/* The names of the installed themes, sorted, without duplicates; returns the count. */
unsigned theme_list(char names[][64], unsigned max);
/*
 * Strip colours, keeping attributes: what a terminal without colours gets when the
 * monochrome theme file cannot be found.
 */
void theme_strip_colours(struct theme *t);

#endif
