// SPDX-License-Identifier: GPL-2.0-or-later
/* Drawing helpers: theme roles to curses attributes, clipped UTF-8 text, rules, plots. */
#include "ui.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "text.h"
#include "units.h"

/* Colour pair n+1 belongs to role n; pair 0 is the terminal's default. */
void ui_theme_apply(struct app *a)
{
	if (!a->colours)
		return;
	for (int r = 0; r < ROLE_COUNT; r++) {
		short fg = a->theme.role[r].fg, bg = a->theme.role[r].bg;
		/* a 256-colour theme on an 8- or 16-colour terminal: keep what exists */
		if (fg >= COLORS)
			fg = fg < 16 ? fg % 8 : UI_COLOUR_DEFAULT;
		if (bg >= COLORS)
			bg = bg < 16 ? bg % 8 : UI_COLOUR_DEFAULT;
		if (r + 1 < COLOR_PAIRS)
			init_pair((short)(r + 1), fg, bg);
	}
	bkgdset((chtype)ui_attr(a, ROLE_NORMAL) | ' ');
}

int ui_attr(const struct app *a, enum ui_role role)
{
	const struct ui_style *st = &a->theme.role[role];
	int at = A_NORMAL;

	if (a->colours && (int)role + 1 < COLOR_PAIRS &&
	    (st->fg != UI_COLOUR_DEFAULT || st->bg != UI_COLOUR_DEFAULT))
		at |= (int)COLOR_PAIR(role + 1);
	if (st->attrs & UI_A_BOLD)
		at |= A_BOLD;
	if (st->attrs & UI_A_DIM)
		at |= A_DIM;
	if (st->attrs & UI_A_UNDERLINE)
		at |= A_UNDERLINE;
	if (st->attrs & UI_A_BLINK)
		at |= A_BLINK;
	if (st->attrs & UI_A_REVERSE)
		at |= A_REVERSE;
#ifdef A_ITALIC
	if (st->attrs & UI_A_ITALIC)
		at |= A_ITALIC;
#endif
	return at;
}

/* s as wide characters; under a non-UTF-8 locale bytes above ASCII become '?'. */
static size_t widen(const struct app *a, const char *s, wchar_t *out, size_t max)
{
	size_t n = 0;

	if (a->utf8) {
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		while (*s && n + 1 < max) {
			wchar_t wc;
			size_t l = mbrtowc(&wc, s, strlen(s), &st);
			if (l == (size_t)-1 || l == (size_t)-2 || l == 0) {
				memset(&st, 0, sizeof(st));
				wc = L'?';
				l = 1;
			}
			out[n++] = wc;
			s += l;
		}
	} else {
		for (; *s && n + 1 < max; s++)
			out[n++] = (unsigned char)*s < 0x80 ? (wchar_t)*s : L'?';
	}
	out[n] = L'\0';
	return n;
}

static int wc_width(wchar_t c)
{
	int w = wcwidth(c);
	return w < 0 ? 1 : w;
}

/*
 * Strings on screen come from outside (drive strings, result files, preset names): they
 * are drawn in their visible form (text.h), so a control character can neither move
 * the cursor nor tell the terminal anything.
 */
static const char *visible(const char *s, char *buf, size_t len)
{
	text_visible(buf, len, s);
	return buf;
}

int ui_width(const struct app *a, const char *s)
{
	wchar_t w[1024];
	char vis[4096];
	size_t n = widen(a, visible(s, vis, sizeof(vis)), w, 1024);
	int cols = 0;

	for (size_t i = 0; i < n; i++)
		cols += wc_width(w[i]);
	return cols;
}

int ui_text(const struct app *a, int y, int x, int maxw, enum ui_role role, const char *s)
{
	wchar_t w[1024];
	char vis[4096];
	size_t n = widen(a, visible(s, vis, sizeof(vis)), w, 1024), k;
	int cols = 0;

	if (maxw <= 0 || y < 0 || y >= a->rows || x >= a->cols)
		return 0;
	if (x + maxw > a->cols)
		maxw = a->cols - x;
	for (k = 0; k < n; k++) {
		int cw = wc_width(w[k]);
		if (cols + cw > maxw)
			break;
		cols += cw;
	}
	attrset(ui_attr(a, role));
	mvaddnwstr(y, x, w, (int)k);
	attrset(ui_attr(a, ROLE_NORMAL));
	return cols;
}

int ui_textf(const struct app *a, int y, int x, int maxw, enum ui_role role, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ui_text(a, y, x, maxw, role, buf);
}

int ui_text_right(const struct app *a, int y, int x, int maxw, enum ui_role role, const char *s)
{
	int w = ui_width(a, s);

	if (w > maxw)
		w = maxw;
	return ui_text(a, y, x + maxw - w, w, role, s);
}

void ui_fill(const struct app *a, int y, int x, int w, enum ui_role role)
{
	if (y < 0 || y >= a->rows)
		return;
	if (x + w > a->cols)
		w = a->cols - x;
	if (w <= 0)
		return;
	attrset(ui_attr(a, role));
	mvhline(y, x, ' ', w);
	attrset(ui_attr(a, ROLE_NORMAL));
}

void ui_rule(const struct app *a, int y, const char *title)
{
	int x = 0;

	for (int i = 0; i < a->cols; i++)
		ui_text(a, y, i, 1, ROLE_BORDER, a->g->hline);
	if (title && *title) {
		x = 2;
		x += ui_text(a, y, x, a->cols - x, ROLE_BORDER, " ");
		x += ui_text(a, y, x, a->cols - x - 1, ROLE_LABEL, title);
		ui_text(a, y, x, 1, ROLE_BORDER, " ");
	}
}

void ui_plot(const struct app *a, int y, int x, const struct plot_grid *g)
{
	char u[8];

	for (unsigned r = 0; r < g->h; r++)
		for (unsigned c = 0; c < g->w; c++) {
			const struct plot_cell *cell = &g->cells[r * g->w + c];
			if (cell->ch == ' ')
				continue;
			plot_utf8(cell->ch, u);
			ui_text(a, y + (int)r, x + (int)c, 1,
				cell->role >= 0 ? (enum ui_role)cell->role : ROLE_NORMAL, u);
		}
}

void ui_status(struct app *a, enum ui_role role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_role = role;
	a->status_ticks = 5000 / UI_TICK_MS; /* five seconds */
}

/* A binding not in the screen's own scope lives in Lists or Everywhere. */
static void hint_key(enum key_scope scope, enum key_action act, char *key, size_t len)
{
	key_hint(scope, act, key, len);
	if (!strcmp(key, "?"))
		key_hint(KS_LIST, act, key, len);
	if (!strcmp(key, "?"))
		key_hint(KS_GLOBAL, act, key, len);
}

void ui_hints(const struct app *a, int y, enum key_scope scope, const enum key_action *acts,
	      const char *const *words, unsigned n)
{
	char key[32];
	int x = 1;

	for (unsigned i = 0; i < n && x < a->cols - 4; i++) {
		if (i)
			x += ui_text(a, y, x, a->cols - x, ROLE_KEYHINT, a->g->dot);
		hint_key(scope, acts[i], key, sizeof(key));
		/* a pair of directions is one hint: "Up/Down", "Left/Right" */
		if (acts[i] == ACT_DOWN || acts[i] == ACT_METRIC_NEXT || acts[i] == ACT_CMP_DOWN) {
			char back[32], fwd[32];
			hint_key(scope,
				 acts[i] == ACT_DOWN	     ? ACT_UP
				 : acts[i] == ACT_CMP_DOWN ? ACT_CMP_UP
							   : ACT_METRIC_PREV,
				 back, sizeof(back));
			snprintf(fwd, sizeof(fwd), "%s", key);
			snprintf(key, sizeof(key), "%s/%s", back, fwd);
		}
		x += ui_text(a, y, x, a->cols - x, ROLE_VALUE, key);
		x += ui_text(a, y, x, a->cols - x, ROLE_KEYHINT, " ");
		x += ui_text(a, y, x, a->cols - x, ROLE_KEYHINT, words[i]);
	}
}

bool ui_axis_label(const struct app *a, int y, int x, int w, int at, enum ui_role role,
		   const char *s, bool *busy)
{
	int len = ui_width(a, s);

	if (at < 0 || len <= 0 || at + len > w)
		return false;
	for (int i = at > 0 ? at - 1 : 0; i < w && i <= at + len; i++)
		if (busy[i])
			return false;
	ui_text(a, y, x + at, len, role, s);
	for (int i = at; i < at + len; i++)
		busy[i] = true;
	return true;
}

void ui_axis_ticks(const struct app *a, int y, int x, int w, double span, bool time,
		   bool back, ui_fmt_fn fmt, bool *busy)
{
	unsigned col[32];
	double val[32];
	char v[48], l[64];
	/* a label every ten cells at most: "1m 30s" and its gaps */
	unsigned n = plot_ticks(span, (unsigned)w, (unsigned)w / 10, time, col, val, 32);

	for (unsigned i = 0; i < n; i++) {
		int c = back ? w - 1 - (int)col[i] : (int)col[i];
		snprintf(l, sizeof(l), "%s%s%s", a->utf8 ? "\u2534" : "+", back ? "-" : "",
			 fmt(v, sizeof(v), val[i]));
		/* the label where it fits; else the tick alone */
		if (!ui_axis_label(a, y, x, w, c, ROLE_AXIS, l, busy))
			ui_axis_label(a, y, x, w, c, ROLE_AXIS, a->utf8 ? "\u2534" : "+", busy);
	}
}

void ui_yscale(const struct app *a, int y, int x, int lw, int rows, double ymax, ui_fmt_fn fmt)
{
	unsigned col[32];
	double val[32];
	char v[48], l[64];
	int last = 0; /* the row of the label above, from the top one */

	if (rows < 1)
		return;
	snprintf(l, sizeof(l), "%s %s", a->g->tick, fmt(v, sizeof(v), ymax));
	ui_text(a, y, x, lw, ROLE_AXIS, l);
	snprintf(l, sizeof(l), "%s 0", a->g->tick);
	if (rows > 1)
		ui_text(a, y + rows - 1, x, lw, ROLE_AXIS, l);
	/* the ticks between, a free row either side of each */
	unsigned n = plot_ticks(ymax, (unsigned)rows, (unsigned)(rows - 1) / 4, false, col, val,
				32);
	for (unsigned i = n; i-- > 0;) {
		int r = rows - 1 - (int)col[i];
		if (r - last < 2 || rows - 1 - r < 2)
			continue;
		snprintf(l, sizeof(l), "%s %s", a->g->tick, fmt(v, sizeof(v), val[i]));
		ui_text(a, y + r, x, lw, ROLE_AXIS, l);
		last = r;
	}
}

char *ui_fmt_secs(char *buf, size_t len, double s)
{
	/* a tick of a short phase, 0.25 s, is not rounded onto its neighbours */
	if (s > 0 && s < 60 && fabs(s - round(s)) > 1e-9) {
		snprintf(buf, len, "%.3g s", s);
		return buf;
	}
	return units_fmt_duration(buf, len, s > 0 ? (uint64_t)llround(s * 1e9) : 0);
}
