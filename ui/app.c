// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TUI: `drivebench [--theme NAME] [--target PATH] [--list-keys]`. The main loop
 * waits for a key at most UI_TICK_MS, then redraws the whole screen from the app state
 * and a snapshot of the run model; curses sends only what changed.
 */
#include "ui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "errbuf.h"
#include "exit_status.h"
#include "opt.h"
#include "scratch.h"
#include "siteconf.h"
#include "terminal.h"
#include "text.h"
#include "tui.h"

static const struct glyphs glyphs_utf8 = {
	.sel = "\u25b6",
	.hline = "\u2500",
	.vline = "\u2502",
	.mark = "\u2713",
	.ok = "\u2713",
	.bad = "\u2717",
	.dot = " \u00b7 ",
	.degraded = "\u25bc",
	.left = "\u25c2",
	.right = "\u25b8",
	.bar = "\u2588",
	.le = "\u2264",
	.ellipsis = "\u2026",
	.tick = "\u2524",
};
static const struct glyphs glyphs_ascii = {
	.sel = ">",
	.hline = "-",
	.vline = "|",
	.mark = "*",
	.ok = "ok",
	.bad = "x",
	.dot = " - ",
	.degraded = "v",
	.left = "<",
	.right = ">",
	.bar = "#",
	.le = "<=",
	.ellipsis = "~",
	.tick = "+",
};

/* The screens, declared once: tab name, key scope, whether it has a list, draw, keys. */
static const struct screen {
	const char *name;
	enum key_scope scope;
	bool has_list;
	void (*draw)(struct app *a, int top, int bottom);
	void (*key)(struct app *a, enum key_action act);
} screens[SCR_COUNT] = {
	[SCR_DRIVES] = {"Drives", KS_DRIVES, true, drives_draw, drives_key},
	[SCR_PRESETS] = {"Presets", KS_PRESETS, true, presets_draw, presets_key},
	[SCR_RUN] = {"Run", KS_RUN, false, run_draw, run_key},
	[SCR_RESULTS] = {"Results", KS_RESULTS, true, results_draw, results_key},
	[SCR_HELP] = {"Help", KS_GLOBAL, true, help_draw, help_key},
};

/* ---- options -------------------------------------------------------------------- */

enum { O_THEME = 256, O_TARGET, O_LIST_KEYS };

static const struct opt ui_opts[] = {
	{"theme", O_THEME, "NAME",
	 "colour theme: default, light, monochrome, high-contrast, "
	 "or a file"},
	{"target", O_TARGET, "PATH", "choose this drive or file instead of the scratch file"},
	{"list-keys", O_LIST_KEYS, NULL, "print the key bindings and exit"},
	{NULL, 0, NULL, NULL},
};

/* ---- themes --------------------------------------------------------------------- */

static void theme_warn(void *arg, const char *msg)
{
	struct app *a = arg;
	snprintf(a->warning, sizeof(a->warning), "%s", msg);
}

static int load_theme(struct app *a, const char *name, char *err, size_t errlen)
{
	struct theme t;
	int ret;

	memset(&t, 0, sizeof(t));
	ret = theme_load(&t, name, theme_warn, a, err, errlen);
	if (ret)
		return ret;
	a->theme = t;
	a->theme_index = -1;
	for (unsigned i = 0; i < a->ntheme; i++)
		if (!strcmp(a->theme_names[i], t.name))
			a->theme_index = (int)i;
	return 0;
}

static void cycle_theme(struct app *a)
{
	char err[DB_ERR_LEN];

	if (!a->colours) {
		ui_status(a, ROLE_WARNING, "this terminal has no colours: monochrome only");
		return;
	}
	if (a->ntheme == 0) {
		ui_status(a, ROLE_WARNING, "no theme files found");
		return;
	}
	unsigned next = a->theme_index < 0 ? 0 : ((unsigned)a->theme_index + 1) % a->ntheme;
	if (load_theme(a, a->theme_names[next], err, sizeof(err))) {
		ui_status(a, ROLE_ERROR, "%s", err);
		return;
	}
	ui_theme_apply(a);
	clear();
	ui_status(a, ROLE_OK, "theme %s", a->theme.name);
}

/* ---- dialogs -------------------------------------------------------------------- */

void ui_confirm(struct app *a, enum key_action then, const char *title, const char *text)
{
	memset(&a->dlg, 0, sizeof(a->dlg));
	a->dlg.kind = DLG_CONFIRM;
	a->dlg.then = then;
	snprintf(a->dlg.title, sizeof(a->dlg.title), "%s", title);
	snprintf(a->dlg.text, sizeof(a->dlg.text), "%s", text);
}

void ui_type_confirm(struct app *a, enum key_action then, const char *title, const char *text,
		     const char *expect)
{
	ui_confirm(a, then, title, text);
	a->dlg.kind = DLG_TYPE;
	snprintf(a->dlg.expect, sizeof(a->dlg.expect), "%s", expect);
}

void ui_edit(struct app *a, enum key_action then, const char *title, const char *text)
{
	ui_confirm(a, then, title,
		   then == ACT_OPEN ? "Type its path; Enter opens it. Esc cancels."
				    : "Enter saves it; an empty text removes it. Esc cancels.");
	a->dlg.kind = DLG_EDIT;
	text_copy(a->dlg.edit, sizeof(a->dlg.edit), text);
}

static void dialog_draw(struct app *a)
{
	struct dialog *d = &a->dlg;
	int w = a->cols - 10 < 76 ? a->cols - 10 : 76, x = (a->cols - w) / 2;
	int y = a->rows / 2 - 4, line = 0;
	char buf[600];
	const char *p;

	for (int i = 0; i < 8; i++)
		ui_fill(a, y + i, x, w, ROLE_DIALOG);
	ui_text(a, y, x + 2, w - 4, ROLE_DIALOG, d->title);
	/* the text wraps at spaces */
	p = d->text;
	while (*p && line < 4) {
		int n = (int)strlen(p);
		if (n > w - 4) {
			n = w - 4;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = w - 4;
		}
		snprintf(buf, sizeof(buf), "%.*s", n, p);
		ui_text(a, y + 2 + line++, x + 2, w - 4, ROLE_DIALOG, buf);
		p += n;
		while (*p == ' ')
			p++;
	}
	switch (d->kind) {
	case DLG_CONFIRM:
		ui_text(a, y + 7, x + 2, w - 4, ROLE_DIALOG, "y yes · n or Esc no");
		break;
	case DLG_TYPE:
		snprintf(buf, sizeof(buf), "type %s and Enter: %s_", d->expect, d->input);
		ui_text(a, y + 7, x + 2, w - 4, ROLE_DIALOG, buf);
		break;
	case DLG_EXPORT:
		ui_text(a, y + 7, x + 2, w - 4, ROLE_DIALOG,
			"t text · m Markdown · c CSV · j JSON · h HTML · Esc cancel");
		break;
	case DLG_MESSAGE:
		ui_text(a, y + 7, x + 2, w - 4, ROLE_DIALOG, "any key to close");
		break;
	case DLG_EDIT: {
		/* the end of the text, where the cursor is, stays in view */
		const char *tail = d->edit;
		while (ui_width(a, tail) > w - 6)
			tail += text_utf8_next(tail, strlen(tail), &(uint32_t){0});
		snprintf(buf, sizeof(buf), "> %s_", tail);
		ui_text(a, y + 6, x + 2, w - 4, ROLE_DIALOG, buf);
		break;
	}
	case DLG_NONE:
		break;
	}
}

/*
 * SIGINT (Ctrl-C: the terminal is in cbreak mode, so it still sends one), SIGTERM and
 * SIGHUP end the TUI the way q does: the run stops and its result is saved as aborted,
 * and the terminal is restored, instead of the process dying with both lost.
 */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void dialog_then(struct app *a, enum key_action then)
{
	switch (then) {
	case ACT_QUIT:
		a->quit = true;
		break;
	case ACT_ABORT:
		run_model_abort(a->run);
		ui_status(a, ROLE_WARNING, "aborting: the result keeps what was measured");
		break;
	case ACT_START:
		presets_confirmed(a, a->dlg.input);
		break;
	case ACT_DELETE:
		results_delete(a);
		break;
	default:
		break;
	}
}

static void dialog_key(struct app *a, int key)
{
	struct dialog *d = &a->dlg;
	enum key_action then = d->then;

	switch (d->kind) {
	case DLG_CONFIRM:
		if (key == 'y' || key == 'Y') {
			d->kind = DLG_NONE;
			dialog_then(a, then);
		} else if (key == 'n' || key == 'N' || key == 27 || key == 'q') {
			d->kind = DLG_NONE;
		}
		break;
	case DLG_TYPE:
		if (key == 27) {
			d->kind = DLG_NONE;
			ui_status(a, ROLE_NORMAL, "cancelled");
		} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
			d->kind = DLG_NONE;
			if (!strcmp(d->input, d->expect))
				dialog_then(a, then);
			else
				ui_status(a, ROLE_ERROR, "'%s' is not %s: nothing was started",
					  d->input, d->expect);
		} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
			size_t n = strlen(d->input);
			if (n)
				d->input[n - 1] = '\0';
		} else if (key >= 32 && key < 127) {
			size_t n = strlen(d->input);
			if (n + 1 < sizeof(d->input)) {
				d->input[n] = (char)key;
				d->input[n + 1] = '\0';
			}
		}
		break;
	case DLG_EXPORT: {
		static const char fmt_keys[] = "tmcjh";
		const char *k = key > 0 && key < 128 ? strchr(fmt_keys, key) : NULL;
		if (k) {
			d->kind = DLG_NONE;
			results_export(a, (int)(k - fmt_keys));
		} else if (key == 27 || key == 'q') {
			d->kind = DLG_NONE;
		}
		break;
	}
	case DLG_MESSAGE:
		d->kind = DLG_NONE;
		break;
	case DLG_EDIT: {
		size_t n = strlen(d->edit);
		if (key == 27) {
			d->kind = DLG_NONE;
			ui_status(a, ROLE_NORMAL, "cancelled");
		} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
			d->kind = DLG_NONE;
			if (then == ACT_OPEN)
				results_open(a, d->edit);
			else
				results_annotate(a, then, d->edit);
		} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
			/* a whole character: its continuation bytes and its first */
			while (n && (d->edit[n - 1] & 0xc0) == 0x80)
				n--;
			d->edit[n ? n - 1 : 0] = '\0';
		} else if (key >= 32 && key < 256 && key != 127 && n + 1 < sizeof(d->edit)) {
			d->edit[n] = (char)key; /* UTF-8 arrives a byte at a time */
			d->edit[n + 1] = '\0';
		}
		break;
	}
	case DLG_NONE:
		break;
	}
}

/* ---- frame ---------------------------------------------------------------------- */

static void draw_top(struct app *a)
{
	struct utsname u;
	char host[160], buf[64];
	int x = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	ui_fill(a, 0, 0, a->cols, ROLE_TITLE);
	if (uname(&u) == 0)
		snprintf(host, sizeof(host), " drivebench%shost %s%sLinux %s%s%ld CPUs ", a->g->dot,
			 u.nodename, a->g->dot, u.release, a->g->dot, ncpu);
	else
		snprintf(host, sizeof(host), " drivebench ");
	/* tabs on the right; the host line gets what is left */
	int tabs_w = 0;
	for (int s = 0; s < SCR_HELP; s++)
		tabs_w += (int)strlen(screens[s].name) + 5;
	tabs_w += 9;
	/* the host facts only when they fit whole */
	if (ui_width(a, host) > a->cols - tabs_w)
		snprintf(host, sizeof(host), " drivebench");
	ui_text(a, 0, 0, a->cols - tabs_w, ROLE_TITLE, host);
	x = a->cols - tabs_w;
	for (int s = 0; s < SCR_HELP; s++) {
		snprintf(buf, sizeof(buf), " %d %s ", s + 1, screens[s].name);
		x += ui_text(a, 0, x, a->cols - x,
			     a->screen == (enum ui_screen)s ? ROLE_TAB_ACTIVE : ROLE_TAB, buf);
		x += ui_text(a, 0, x, a->cols - x, ROLE_TAB, " ");
	}
	ui_text(a, 0, x, a->cols - x, a->screen == SCR_HELP ? ROLE_TAB_ACTIVE : ROLE_TAB,
		" F1 help ");
}

static void draw_status(struct app *a)
{
	int y = a->rows - 1;

	if (a->status_ticks && a->status[0]) {
		ui_fill(a, y, 0, a->cols, ROLE_NORMAL);
		ui_text(a, y, 1, a->cols - 2, (enum ui_role)a->status_role, a->status);
	}
}

static void draw_too_small(struct app *a)
{
	char buf[160];
	int y = a->rows / 2;

	erase();
	snprintf(buf, sizeof(buf), "terminal too small: %dx%d", a->cols, a->rows);
	ui_text(a, y - 1 < 0 ? 0 : y - 1, 1, a->cols - 2, ROLE_WARNING, buf);
	snprintf(buf, sizeof(buf), "drivebench needs at least %dx%d", UI_MIN_COLS, UI_MIN_ROWS);
	ui_text(a, y, 1, a->cols - 2, ROLE_NORMAL, buf);
	ui_text(a, y + 1, 1, a->cols - 2, ROLE_DIM, "enlarge the window, or q to quit");
}

static void draw(struct app *a)
{
	getmaxyx(stdscr, a->rows, a->cols);
	if (a->cols < UI_MIN_COLS || a->rows < UI_MIN_ROWS) {
		draw_too_small(a);
		refresh();
		return;
	}
	erase();
	draw_top(a);
	/* screens own rows 1 .. rows-1; the last row is their key hints */
	screens[a->screen].draw(a, 1, a->rows - 1);
	draw_status(a);
	if (a->dlg.kind != DLG_NONE)
		dialog_draw(a);
	refresh();
}

static void switch_screen(struct app *a, enum ui_screen s)
{
	if (s == SCR_HELP && a->screen != SCR_HELP)
		a->back = a->screen;
	a->screen = s;
	if (s == SCR_RESULTS)
		results_load(a);
}

/* Is the scratch file one of the chosen targets, still being written out? */
static bool scratch_chosen_busy(const struct app *a)
{
	const struct ui_target *t[RUN_MAX_TARGETS];
	unsigned n = drives_targets(a, t);

	for (unsigned i = 0; i < n; i++)
		if (drives_scratch_busy(a, t[i]))
			return true;
	return false;
}

static void handle_key(struct app *a, int key)
{
	if (a->dlg.kind != DLG_NONE) {
		dialog_key(a, key);
		return;
	}
	if (a->cols < UI_MIN_COLS || a->rows < UI_MIN_ROWS) {
		if (key == 'q')
			a->quit = true;
		return;
	}
	enum key_action act = key_lookup(screens[a->screen].scope, screens[a->screen].has_list, key);

	switch (act) {
	case ACT_SCREEN_DRIVES:
	case ACT_SCREEN_PRESETS:
	case ACT_SCREEN_RUN:
	case ACT_SCREEN_RESULTS:
		switch_screen(a, (enum ui_screen)(SCR_DRIVES + (act - ACT_SCREEN_DRIVES)));
		return;
	case ACT_SCREEN_NEXT:
		switch_screen(a, a->screen >= SCR_RESULTS ? SCR_DRIVES : a->screen + 1);
		return;
	case ACT_SCREEN_PREV:
		switch_screen(a, a->screen == SCR_DRIVES || a->screen == SCR_HELP ? SCR_RESULTS
										  : a->screen - 1);
		return;
	case ACT_HELP:
		if (a->screen == SCR_HELP)
			switch_screen(a, a->back);
		else
			switch_screen(a, SCR_HELP);
		return;
	case ACT_THEME:
		cycle_theme(a);
		return;
	case ACT_REDRAW:
		clear();
		return;
	case ACT_QUIT: {
		char what[400];
		if (run_model_active(a->run))
			ui_confirm(a, ACT_QUIT, "Quit drivebench?",
				   "A run is active. Quitting aborts it; the result keeps what was "
				   "measured so far.");
		else if (results_changing(a, what, sizeof(what)) ||
			 results_exporting(a, what, sizeof(what)))
			ui_confirm(a, ACT_QUIT, "Quit drivebench?", what);
		else
			a->quit = true;
		return;
	}
	default:
		break;
	}
	/* a run on the scratch file waits until it is written out */
	if (a->screen == SCR_PRESETS && act == ACT_START && scratch_chosen_busy(a)) {
		ui_status(a, ROLE_WARNING,
			  "the scratch file is being written out (%u%%): its reads would "
			  "touch no disk yet; start again when it is done",
			  a->scratch_pct);
		return;
	}
	screens[a->screen].key(a, act);
}

static bool locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

/* Curses on, in the locale's character set, with the theme's colours (or none). */
/* NO_COLOR (no-color.org): present and not empty, the screen draws without colours. */
static bool no_color(void)
{
	const char *s = getenv("NO_COLOR");

	return s && *s;
}

static int screen_start(struct app *a)
{
	char err[DB_ERR_LEN];

	setlocale(LC_ALL, "");
	/* the locale's character set for the screen; numbers in files and reports stay C */
	setlocale(LC_NUMERIC, "C");
	a->utf8 = locale_is_utf8();
	a->g = a->utf8 ? &glyphs_utf8 : &glyphs_ascii;
	/* Esc answers dialogs: do not wait a second to tell it from an escape sequence */
	if (!getenv("ESCDELAY"))
		setenv("ESCDELAY", "50", 1);
	/* newterm(), not initscr(): a terminal it cannot use is an error here, not an exit */
	if (!(a->term = newterm(NULL, stdout, stdin))) {
		fprintf(stderr, "drivebench: cannot start the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return EXIT_USAGE;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(UI_TICK_MS);
	/* COLORS is known only after start_color() */
	a->colours = !no_color() && has_colors() && start_color() == OK && COLORS >= 8;
	if (a->colours) {
		use_default_colors();
		ui_theme_apply(a);
	} else {
		/* the monochrome theme, or the chosen one stripped of its colours */
		if (load_theme(a, "monochrome", err, sizeof(err)))
			theme_strip_colours(&a->theme);
	}
	getmaxyx(stdscr, a->rows, a->cols);
	return EXIT_OK;
}

/*
 * Is the terminal gone (its window closed, the ssh session dropped)? The SIGHUP that says
 * so reaches only the terminal's session: drivebench started in another one (setsid, a
 * supervisor) or under a tracer that takes it would otherwise wait for keys that end at
 * once with nothing, a tick after a tick, at full speed for ever.
 */
static bool terminal_gone(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

/* Draw, wait a tick for a key, handle it and every key typed meanwhile; until quit. */
static void main_loop(struct app *a)
{
	int key;

	while (!a->quit && !got_signal) {
		drives_poll_hotplug(a);
		drives_poll_scratch(a);
		results_poll(a);
		results_export_poll(a);
		results_list_poll(a);
		draw(a);
		key = getch();
		if (a->status_ticks)
			a->status_ticks--;
		if (key == ERR) {
			if (terminal_gone())
				got_signal = SIGHUP; /* ended as a hang-up ends it */
			continue;
		}
		if (key == KEY_RESIZE) {
			clear();
			continue;
		}
		handle_key(a, key);
		/* take every key already typed before the next redraw */
		timeout(0);
		while (!a->quit && (key = getch()) != ERR)
			if (key != KEY_RESIZE)
				handle_key(a, key);
			else
				clear();
		timeout(UI_TICK_MS);
	}
}

/* The application before the screen starts: theme, target, run model. NULL: said why. */
static struct app *app_new(const char *theme, const char *target, const struct siteconf *site,
			   const struct settings *settings, int *ret)
{
	struct app *a = calloc(1, sizeof(*a));
	char err[DB_ERR_LEN];

	*ret = EXIT_RUN_FAILED;
	if (!a) {
		fprintf(stderr, "drivebench: out of memory\n");
		return NULL;
	}
	a->chosen = -1;
	a->scale_index = 0;
	theme_builtin(&a->theme);
	a->ntheme = theme_list(a->theme_names, 16);
	a->site = site;
	a->settings = settings;
	if (theme && load_theme(a, theme, err, sizeof(err))) {
		fprintf(stderr, "drivebench: --theme: %s\n", err);
		*ret = EXIT_USAGE;
		free(a);
		return NULL;
	}
	/* the site's theme, where no --theme is given */
	if (!theme && site->theme[0] && load_theme(a, theme = site->theme, err, sizeof(err))) {
		fprintf(stderr, "drivebench: %s:%u: theme: %s\n", site->path, site->theme_line, err);
		*ret = EXIT_USAGE;
		free(a);
		return NULL;
	}
	if (!theme && load_theme(a, "default", err, sizeof(err)))
		theme_builtin(&a->theme); /* no theme files installed: the built-in roles */
	if (target) {
		if (access(target, F_OK)) {
			fprintf(stderr, "drivebench: --target %s: %s\n", target, strerror(errno));
			*ret = EXIT_USAGE;
			free(a);
			return NULL;
		}
		snprintf(a->chosen_path, sizeof(a->chosen_path), "%s", target);
	}
	a->run = run_model_new(settings);
	a->series = calloc(RMM_COUNT, sizeof(*a->series));
	a->whole = calloc(1, sizeof(*a->whole));
	if (!a->run || !a->series || !a->whole) {
		fprintf(stderr, "drivebench: out of memory\n");
		run_model_free(a->run);
		free(a->series);
		free(a->whole);
		free(a);
		return NULL;
	}
	*ret = EXIT_OK;
	return a;
}

static void app_free(struct app *a)
{
	/* what is not written out yet stays holes, for the next start */
	scratch_filler_free(a->scratch_filler);
	run_model_free(a->run);
	results_free(a);
	plot_free(&a->grid);
	free(a->series);
	free(a->whole);
	if (a->monitor)
		drive_monitor_close(a->monitor);
	drives_free(a);
	free(a->presets);
	free(a);
}

int ui_main(int argc, char **argv, const struct siteconf *site, const struct settings *settings)
{
	struct opt_parser p;
	struct app *a;
	const char *theme = NULL, *target = NULL;
	char why[160];
	int key, ret;

	opt_parser_init(&p, "", "[--theme NAME] [--target PATH] [--list-keys]", ui_opts, argc,
			argv);
	p.cmd = "(the TUI)";
	while ((key = opt_next(&p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case O_THEME:
			theme = p.arg;
			break;
		case O_TARGET:
			target = p.arg;
			break;
		case O_LIST_KEYS:
			key_print(stdout);
			return EXIT_OK;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p.npos)
		return opt_usage_error(&p, "unexpected argument '%s'", p.pos[0]);

	if (!(a = app_new(theme, target, site, settings, &ret)))
		return ret;
	if (terminal_check(why, sizeof(why))) {
		fprintf(stderr, "drivebench: cannot start the terminal interface: %s (the commands "
				"need none: drivebench --help)\n",
			why);
		app_free(a);
		return EXIT_USAGE;
	}
	if ((ret = screen_start(a)) == EXIT_OK) {
		drives_load(a);
		presets_load(a);
		results_load(a);
		if (a->warning[0])
			ui_status(a, ROLE_WARNING, "%s", a->warning);
		catch_signals();
		main_loop(a);
		endwin();
		delscreen(a->term);
		if (run_model_active(a->run)) {
			fprintf(stderr, "drivebench: stopping the run; the result keeps what was "
					"measured\n");
			if (got_signal)
				ret = EXIT_RUN_FAILED;
		}
	}
	app_free(a);
	return ret;
}
