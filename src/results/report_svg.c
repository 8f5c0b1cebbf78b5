// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report's charts as SVG (report_svg.h): axes with nice ticks (linear, powers
 * of ten, percentiles as nines), line charts and grouped horizontal bars, drawn for
 * print as much as for screens.
 */
#include "report_svg.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "text.h"
#include "units.h"

/* Every string that reaches the page, from a result or not, goes through text.h. */
static void esc(FILE *out, const char *s)
{
	text_fput_xml(out, s);
}

static const struct {
	const char *colour;
	const char *dash; /* stroke-dasharray; "" for solid */
	unsigned marker;  /* 0 circle, 1 square, 2 triangle, 3 diamond */
} series_style[] = {
	{"#0072B2", "", 0}, {"#D55E00", "7 3", 1}, {"#009E73", "2 2", 2}, {"#CC79A7", "9 3 2 3", 3},
	{"#E69F00", "", 1}, {"#56B4E9", "7 3", 2}, {"#000000", "2 2", 3}, {"#999999", "9 3 2 3", 0},
};
#define NSTYLES (sizeof(series_style) / sizeof(series_style[0]))

enum { CW = 760, PLOT_L = 78, PLOT_R = 20, PLOT_T = 40, PLOT_H = 260, AXIS_B = 62, LEG_ROW = 20 };

/* A "nice" step (1, 2 or 5 x 10^k) giving about `want` intervals over span (> 0). */
static double nice_step(double span, unsigned want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* Beyond this a value is drawn at the edge: a chart of 1e308 IOPS says nothing anyway. */
#define AXIS_MAX 1e15

/*
 * An axis: its ends, a nice step, and how many ticks. Ticks are counted, never found by
 * adding steps until a value is passed: at 1e18 a step of 256 is below what a double
 * can add, and such a loop never ends.
 */
struct axis {
	double lo, hi, step;
	unsigned nticks; /* lo, lo + step, ..., hi */
};

static void axis_fit(struct axis *a, double lo, double hi, unsigned want)
{
	if (!isfinite(lo) || !isfinite(hi) || hi < lo) {
		lo = 0;
		hi = 1;
	}
	lo = fmax(fmin(lo, AXIS_MAX), -AXIS_MAX);
	hi = fmax(fmin(hi, AXIS_MAX), -AXIS_MAX);
	/* a span too small for the doubles at its magnitude: widen it around itself */
	double mag = fmax(fabs(lo), fabs(hi)), min_span = fmax(mag * 1e-9, 1e-9);
	if (hi - lo < min_span) {
		double mid = lo / 2 + hi / 2;
		lo = mid - min_span;
		hi = mid + min_span;
	}
	a->step = nice_step(hi - lo, want);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
	double n = round((a->hi - a->lo) / a->step);
	a->nticks = n >= 1 && n <= 4.0 * want ? (unsigned)n + 1 : 2;
	if (n < 1 || n > 4.0 * want)
		a->hi = a->lo + a->step;
}

static void fmt_tick(char *buf, size_t len, double v, double step)
{
	if (fabs(v) >= 10000)
		units_fmt_count(buf, len, v);
	else if (step >= 1)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.*f", (int)fmin(ceil(-log10(step) - 1e-9), 12), v);
}

/* A log10 axis in whole decades, lo..hi widened to integers (at least one decade). */
static void axis_decades(struct axis *a, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi) || hi < lo) {
		lo = 0;
		hi = 1;
	}
	a->lo = floor(fmax(lo, -30));
	a->hi = ceil(fmin(hi, 30));
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->step = 1;
	a->nticks = (unsigned)(a->hi - a->lo) + 1;
}

/* 10^v as a number: 0.001, 0.01, ..., 1, 10, 1000, 10K */
static void fmt_pow10(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "%.*f", (int)-v, pow(10, v));
	else
		units_fmt_count(buf, len, pow(10, v));
}

/* k nines as a percentile: 0 -> "0", 1 -> "90", 2 -> "99", 3 -> "99.9" */
static void fmt_nines(char *buf, size_t len, double k)
{
	if (k < 1)
		snprintf(buf, len, "0");
	else if (k < 2)
		snprintf(buf, len, "90");
	else
		snprintf(buf, len, "%.*f", (int)k - 2, 100 - pow(10, 2 - k));
}

/* A coordinate in the SVG, kept a short finite number whatever the value. */
static double clamp_px(double v)
{
	return isnan(v) ? 0 : fmax(fmin(v, 1e5), -1e5);
}

static void marker(FILE *out, unsigned shape, double x, double y, const char *colour)
{
	switch (shape) {
	case 1:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"%s\"/>",
			x - 3, y - 3, colour);
		break;
	case 2:
		fprintf(out, "<path d=\"M%.1f %.1fl3.5 6h-7z\" fill=\"%s\"/>", x, y - 4, colour);
		break;
	case 3:
		fprintf(out, "<path d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\" fill=\"%s\"/>", x, y - 4,
			colour);
		break;
	default:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\"/>", x, y,
			colour);
	}
}

/* An SVG document's start: its own xmlns, a white page, the title as <title> and text. */
static void svg_head(FILE *out, const char *attrs, unsigned height, const char *title)
{
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\"%s viewBox=\"0 0 %d %u\" width=\"%d\" "
		"height=\"%u\" role=\"img\" font-family=\"Helvetica, Arial, sans-serif\" "
		"font-size=\"12\">\n<title>",
		attrs, CW, height, CW, height);
	esc(out, title);
	fprintf(out, "</title>\n<rect width=\"%d\" height=\"%u\" fill=\"#ffffff\"/>\n", CW, height);
	fprintf(out,
		"<text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" "
		"font-weight=\"bold\">",
		CW / 2);
	esc(out, title);
	fputs("</text>\n", out);
}

/* Where a line chart's values land: the axes' ends and the plot's width. */
struct plot {
	struct axis xa, ya;
	double pw;
};

static double px(const struct plot *p, double v)
{
	return clamp_px(PLOT_L + (v - p->xa.lo) / (p->xa.hi - p->xa.lo) * p->pw);
}

static double py(const struct plot *p, double v)
{
	return clamp_px(PLOT_T + PLOT_H - (v - p->ya.lo) / (p->ya.hi - p->ya.lo) * PLOT_H);
}

/* The axes that hold every finite point of the chart's series. */
static void plot_fit(struct plot *p, const struct chart *c)
{
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0, ymin = INFINITY;

	for (unsigned s = 0; s < c->nseries; s++)
		for (unsigned i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];
			if (!isfinite(y) || !isfinite(x))
				continue;
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			ymax = fmax(ymax, y);
			ymin = fmin(ymin, y);
		}
	if (c->ylog)
		axis_decades(&p->ya, ymin, ymax);
	else
		axis_fit(&p->ya, 0, ymax > 0 ? ymax : 1, 5);
	if (c->xnines) {
		axis_decades(&p->xa, 0, xmax);
	} else if (c->xcats) {
		p->xa = (struct axis){.lo = -0.5, .hi = c->ncats - 0.5, .step = 1, .nticks = 0};
	} else {
		if (!isfinite(xmin)) {
			xmin = 0;
			xmax = 1;
		}
		xmin = xmin > 0 && xmin < (xmax - xmin) ? 0 : xmin;
		axis_fit(&p->xa, xmin, xmax, 8);
	}
}

/* The x axis's labels: the categories (thinned out when many), or ticks. */
static void plot_xlabels(FILE *out, const struct chart *c, const struct plot *p)
{
	if (c->xcats) {
		unsigned every = c->ncats > 24 ? (c->ncats + 23) / 24 : 1;
		for (unsigned i = 0; i < c->ncats; i += every) {
			fprintf(out,
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
				"transform=\"rotate(-40 "
				"%.1f %d)\">",
				px(p, (double)i), PLOT_T + PLOT_H + 14, px(p, (double)i),
				PLOT_T + PLOT_H + 14);
			esc(out, c->xcats[i]);
			fputs("</text>\n", out);
		}
		return;
	}
	for (unsigned i = 0; i < p->xa.nticks; i++) {
		char t[32];
		double x = p->xa.lo + i * p->xa.step;
		if (c->xnines)
			fmt_nines(t, sizeof(t), x);
		else
			fmt_tick(t, sizeof(t), x, p->xa.step);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			px(p, x), PLOT_T + PLOT_H + 16, t);
	}
}

/* The grid, the ticks, the axes and their names. */
static void plot_axes(FILE *out, const struct chart *c, const struct plot *p)
{
	const struct axis *ya = &p->ya;

	fputs("<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n", out);
	for (unsigned i = 0; i < ya->nticks; i++)
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", PLOT_L,
			py(p, ya->lo + i * ya->step), CW - PLOT_R, py(p, ya->lo + i * ya->step));
	fputs("</g>\n<g class=\"axes\" font-size=\"11\" fill=\"#222222\">\n", out);
	for (unsigned i = 0; i < ya->nticks; i++) {
		char t[32];
		double y = ya->lo + i * ya->step;
		if (c->ylog)
			fmt_pow10(t, sizeof(t), y);
		else
			fmt_tick(t, sizeof(t), y, ya->step);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PLOT_L - 6, py(p, y) + 4, t);
	}
	plot_xlabels(out, c, p);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222222\"/>\n", PLOT_L,
		PLOT_T + PLOT_H, CW - PLOT_R, PLOT_T + PLOT_H);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222222\"/>\n", PLOT_L,
		PLOT_T, PLOT_L, PLOT_T + PLOT_H);
	fprintf(out,
		"<text class=\"xlabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
		"font-size=\"12\">",
		PLOT_L + p->pw / 2, PLOT_T + PLOT_H + AXIS_B - 8);
	esc(out, c->xlabel);
	fprintf(out,
		"</text>\n<text class=\"ylabel\" x=\"16\" y=\"%d\" text-anchor=\"middle\" "
		"font-size=\"12\" transform=\"rotate(-90 16 %d)\">",
		PLOT_T + PLOT_H / 2, PLOT_T + PLOT_H / 2);
	esc(out, c->ylabel);
	fputs("</text>\n</g>\n", out);
}

#define WARN_COLOUR "#B00000"

/* A warned point's mark: a red "!" at x, y, its step's warning codes as the tooltip. */
static void warn_mark(FILE *out, double x, double y, const char *codes)
{
	fputs("<g class=\"warn-mark\"><title>", out);
	esc(out, codes);
	fprintf(out,
		"</title><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#ffffff\" "
		"stroke=\"" WARN_COLOUR "\" stroke-width=\"1.5\"/><text x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"middle\" font-size=\"10\" font-weight=\"bold\" "
		"fill=\"" WARN_COLOUR "\">!</text></g>\n",
		x, y, x, y + 3.5);
}

/* Does any point of the chart carry warnings? */
static bool chart_warned(const struct chart *c)
{
	for (unsigned s = 0; s < c->nseries; s++)
		for (unsigned i = 0; c->series[s].warn && i < c->series[s].n; i++)
			if (c->series[s].warn[i])
				return true;
	return false;
}

/* The warning mark's legend entry at x, y (baseline), when the chart has a marked point. */
static void warn_legend(FILE *out, const struct chart *c, double x, double y)
{
	if (!chart_warned(c))
		return;
	fputs("<g class=\"legend warn-legend\" font-size=\"12\">\n", out);
	warn_mark(out, x + 7, y - 4, "a step with warnings: the codes on each mark, the text in "
		  "the notes");
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\">step with warnings (hover a mark for its codes; "
		"see the notes)</text>\n</g>\n",
		x + 20, y);
}

/* Each series: a path (broken where a value is missing) and, when asked, markers. */
static void plot_series(FILE *out, const struct chart *c, const struct plot *p)
{
	for (unsigned s = 0; s < c->nseries; s++) {
		const struct series *se = &c->series[s];
		const char *colour = series_style[s % NSTYLES].colour;
		const char *dash = series_style[s % NSTYLES].dash;
		bool pen = false;

		fprintf(out, "<g class=\"series\" data-series=\"%u\"><title>", s);
		esc(out, se->name);
		fprintf(out,
			"</title>\n<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s%s%s "
			"d=\"",
			colour, dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
		for (unsigned i = 0; i < se->n; i++) {
			if (!isfinite(se->y[i]) || !isfinite(se->x[i])) {
				pen = false;
				continue;
			}
			fprintf(out, "%s%.1f %.1f", pen ? " L" : (i ? " M" : "M"), px(p, se->x[i]),
				py(p, se->y[i]));
			pen = true;
		}
		fputs("\"/>\n", out);
		if (c->markers)
			for (unsigned i = 0; i < se->n; i++)
				if (isfinite(se->y[i]) && isfinite(se->x[i]))
					marker(out, series_style[s % NSTYLES].marker,
					       px(p, se->x[i]), py(p, se->y[i]), colour);
		for (unsigned i = 0; se->warn && i < se->n; i++)
			if (se->warn[i] && isfinite(se->y[i]) && isfinite(se->x[i]))
				warn_mark(out, px(p, se->x[i]), py(p, se->y[i]) - 11, se->warn[i]);
		fputs("</g>\n", out);
	}
}

static void plot_legend(FILE *out, const struct chart *c, double pw, unsigned per_row)
{
	fputs("<g class=\"legend\" font-size=\"12\">\n", out);
	for (unsigned s = 0; s < c->nseries; s++) {
		double lx = PLOT_L + (s % per_row) * (pw / per_row);
		double ly = PLOT_T + PLOT_H + AXIS_B + (s / per_row) * LEG_ROW + 6;
		const char *dash = series_style[s % NSTYLES].dash;
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"%s%s%s/>",
			lx, ly, lx + 28, ly, series_style[s % NSTYLES].colour,
			dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
		marker(out, series_style[s % NSTYLES].marker, lx + 14, ly,
		       series_style[s % NSTYLES].colour);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", lx + 34, ly + 4);
		esc(out, c->series[s].name);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

void svg_chart(FILE *out, const struct chart *c)
{
	struct plot p = {.pw = CW - PLOT_L - PLOT_R};
	/* legend entries in columns wide enough for the longest name (~7 px a character) */
	size_t longest = 1;
	for (unsigned s = 0; s < c->nseries; s++)
		if (strlen(c->series[s].name) > longest)
			longest = strlen(c->series[s].name);
	unsigned per_row = (unsigned)(p.pw / (40 + 7.0 * (double)longest));
	per_row = per_row < 1 ? 1 : per_row > 4 ? 4 : per_row;
	unsigned legend_rows = (c->nseries + per_row - 1) / per_row;
	bool warned = chart_warned(c);
	unsigned height = PLOT_T + PLOT_H + AXIS_B + (legend_rows + warned) * LEG_ROW + 8;

	plot_fit(&p, c);
	svg_head(out, "", height, c->title);
	plot_axes(out, c, &p);
	plot_series(out, c, &p);
	plot_legend(out, c, p.pw, per_row);
	warn_legend(out, c, PLOT_L, PLOT_T + PLOT_H + AXIS_B + legend_rows * LEG_ROW + 6 + 4);
	fputs("</svg>\n", out);
}

enum { BAR_L = 230, BAR_H = 13, BAR_GAP = 12 };

void svg_bars(FILE *out, const struct chart *c)
{
	const double pw = CW - BAR_L - PLOT_R - 60; /* room for the value past the longest */
	unsigned band = c->nseries * BAR_H + BAR_GAP;
	unsigned legend_rows = (c->nseries + 2) / 3 + chart_warned(c);
	unsigned height = PLOT_T + c->ncats * band + 44 + legend_rows * LEG_ROW + 8;
	double vmax = 0;

	for (unsigned s = 0; s < c->nseries; s++)
		for (unsigned k = 0; k < c->series[s].n; k++)
			if (isfinite(c->series[s].y[k]))
				vmax = fmax(vmax, c->series[s].y[k]);
	struct axis xa;
	axis_fit(&xa, 0, vmax > 0 ? vmax : 1, 5);
#define BX(v) clamp_px(BAR_L + ((v)-xa.lo) / (xa.hi - xa.lo) * pw)
	svg_head(out, " class=\"bars\"", height, c->title);
	unsigned bottom = PLOT_T + c->ncats * band;
	fputs("<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n", out);
	for (unsigned i = 0; i < xa.nticks; i++)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%u\"/>\n",
			BX(xa.lo + i * xa.step), PLOT_T, BX(xa.lo + i * xa.step), bottom);
	fputs("</g>\n<g class=\"axes\" font-size=\"11\" fill=\"#222222\">\n", out);
	for (unsigned i = 0; i < xa.nticks; i++) {
		char t[32];
		fmt_tick(t, sizeof(t), xa.lo + i * xa.step, xa.step);
		fprintf(out, "<text x=\"%.1f\" y=\"%u\" text-anchor=\"middle\">%s</text>\n",
			BX(xa.lo + i * xa.step), bottom + 14, t);
	}
	for (unsigned k = 0; k < c->ncats; k++) {
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", BAR_L - 6,
			PLOT_T + k * band + (band - BAR_GAP) / 2.0 + 4);
		esc(out, c->xcats[k]);
		fputs("</text>\n", out);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%u\" stroke=\"#222222\"/>\n", BAR_L,
		PLOT_T, BAR_L, bottom);
	fprintf(out, "<text class=\"xlabel\" x=\"%.1f\" y=\"%u\" text-anchor=\"middle\">",
		BAR_L + pw / 2, bottom + 32);
	esc(out, c->xlabel);
	fputs("</text>\n</g>\n", out);
	for (unsigned s = 0; s < c->nseries; s++) {
		const struct series *se = &c->series[s];
		fprintf(out, "<g class=\"series bars\" data-series=\"%u\" fill=\"%s\"><title>", s,
			series_style[s % NSTYLES].colour);
		esc(out, se->name);
		fputs("</title>\n", out);
		for (unsigned k = 0; k < se->n && k < c->ncats; k++) {
			double y = PLOT_T + k * band + s * BAR_H, v = se->y[k];
			char t[64];
			if (!isfinite(v))
				continue;
			report_fmt_value(t, sizeof(t), c->metric, v);
			fprintf(out,
				"<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%d\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
				"fill=\"#222222\">%s</text>\n",
				BAR_L, y, BX(v) - BAR_L, BAR_H - 2, BX(v) + 4, y + BAR_H - 4, t);
			if (se->warn && se->warn[k])
				/* past the value printed at the bar's end (~6 px a character) */
				warn_mark(out, BX(v) + 14 + 6.0 * (double)strlen(t),
					  y + (BAR_H - 2) / 2.0, se->warn[k]);
		}
		fputs("</g>\n", out);
	}
	fputs("<g class=\"legend\" font-size=\"12\">\n", out);
	for (unsigned s = 0; s < c->nseries; s++) {
		double lx = BAR_L + (s % 3) * ((CW - BAR_L - PLOT_R) / 3.0);
		double ly = bottom + 44 + (s / 3) * LEG_ROW;
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%.1f\" y=\"%.1f\">",
			lx, ly - 9, series_style[s % NSTYLES].colour, lx + 20, ly);
		esc(out, c->series[s].name);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	warn_legend(out, c, BAR_L, bottom + 44 + ((c->nseries + 2) / 3) * LEG_ROW);
	fputs("</svg>\n", out);
#undef BX
}

int svg_series_alloc(struct series *s, const char *name, unsigned n)
{
	s->name = name;
	s->n = 0;
	s->x = calloc(n ? n : 1, sizeof(double));
	s->y = calloc(n ? n : 1, sizeof(double));
	s->warn = calloc(n ? n : 1, sizeof(*s->warn));
	return s->x && s->y && s->warn ? 0 : -ENOMEM;
}

int svg_series_warn(struct series *s, unsigned i, const struct result_step *st)
{
	size_t len = 1;

	if (!st || !st->nwarnings)
		return 0;
	for (unsigned w = 0; w < st->nwarnings; w++)
		len += strlen(st->warnings[w].code) + 1;
	free(s->warn[i]);
	if (!(s->warn[i] = malloc(len)))
		return -ENOMEM;
	s->warn[i][0] = '\0';
	for (unsigned w = 0; w < st->nwarnings; w++) {
		/* each code once: a step warned twice for one thing says it once */
		const char *code = st->warnings[w].code, *at = strstr(s->warn[i], code);
		size_t cl = strlen(code);
		if (at && (at == s->warn[i] || at[-1] == ' ') && (at[cl] == ' ' || !at[cl]))
			continue;
		if (s->warn[i][0])
			strcat(s->warn[i], " ");
		strcat(s->warn[i], code);
	}
	return 0;
}

void svg_series_free(struct series *s, unsigned n)
{
	for (unsigned i = 0; s && i < n; i++) {
		free(s[i].x);
		free(s[i].y);
		for (unsigned k = 0; s[i].warn && k < s[i].n; k++)
			free(s[i].warn[k]);
		free(s[i].warn);
	}
	free(s);
}

const char *svg_colour(unsigned i)
{
	return series_style[i % NSTYLES].colour;
}
