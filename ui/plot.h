/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_PLOT_H
#define DB_UI_PLOT_H
/*
 * Time-series plots rendered into a grid of character cells, away from curses so they
 * can be tested: ui/draw.c copies a grid to the screen.
 *
 * Braille mode (UTF-8 terminals): each cell is a 2x4 dot matrix (U+2800..U+28FF), so a
 * cell holds two samples and four levels. ASCII mode (any other locale): one sample per
 * cell and three levels per cell ('_', '-', '`'), with '|' joining levels that jump.
 * The newest sample is at the right edge; older ones scroll off to the left. Values are
 * scaled from 0 (bottom) to ymax (top); a NaN is a gap.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plot_series {
	const double *v; /* oldest first */
	unsigned n;
	int role;  /* a ui_role, carried into the cells this series draws */
	bool fill; /* braille: fill the area under the line */
	const double *lo; /* NULL, or the low end of each point: v[i] is then its high end,
			     and the point is drawn as the range lo[i]..v[i] */
};

/*
 * A whole phase in bounded memory: up to PLOT_HIST_N buckets per series, each the minimum
 * and maximum of `per` consecutive samples. When the buckets are full, neighbours merge
 * and `per` doubles, so the history always covers everything since plot_hist_reset(),
 * oldest first, and a one-sample spike survives any number of merges.
 */
#define PLOT_HIST_N	 512
#define PLOT_HIST_SERIES 12

struct plot_hist {
	double lo[PLOT_HIST_SERIES][PLOT_HIST_N];
	double hi[PLOT_HIST_SERIES][PLOT_HIST_N];
	unsigned n;	  /* buckets used */
	unsigned per;	  /* samples a full bucket holds */
	unsigned fill;	  /* samples in the last bucket */
	unsigned samples; /* samples since the reset */
};

void plot_hist_reset(struct plot_hist *h);
/* One sample of every series (v[PLOT_HIST_SERIES]). */
void plot_hist_add(struct plot_hist *h, const double *v);
/*
 * Series k resampled to w points spread over the whole history (w >= 1): lo[i] and hi[i]
 * the minimum and maximum of the buckets under point i. Returns the points written: 0
 * while empty, else w: while there are fewer buckets than points, each bucket spans
 * the points under it, so the history fills the width from its first sample on.
 */
unsigned plot_hist_columns(const struct plot_hist *h, unsigned k, unsigned w, double *lo,
			   double *hi);

struct plot_cell {
	uint32_t ch; /* a Unicode code point; ' ' when empty */
	int role;    /* the role of the last series drawn in the cell; -1 when empty */
};

struct plot_grid {
	unsigned w, h; /* cells */
	bool braille;
	double ymax;		 /* the value at the top edge */
	struct plot_cell *cells; /* h rows of w, top row first; malloc'd */
};

/* How many of the newest samples a plot w cells wide shows. */
unsigned plot_capacity(unsigned w, bool braille);
/* A round number >= v for the top of a scale: 1, 2, 2.5 or 5 times a power of ten. */
double plot_nice_max(double v);
/*
 * Render series into g (allocating or reusing g->cells). ymax <= 0: scale to the largest
 * visible value, rounded up by plot_nice_max(). 0 or -ENOMEM / -EINVAL.
 */
int plot_render(struct plot_grid *g, unsigned w, unsigned h, bool braille,
		const struct plot_series *s, unsigned ns, double ymax);
void plot_free(struct plot_grid *g);
/*
 * A step between ticks on a scale from 0 to span with at most `most` ticks: 1, 2, 2.5
 * or 5 times a power of ten; for time (seconds), 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15,
 * 30 min, 1, 2, 3, 6, 12 h or a day. 0 when span is not positive.
 */
double plot_nice_step(double span, unsigned most, bool time);
/*
 * The ticks strictly inside a scale of w cells from 0 (cell 0) to span (cell w - 1), one
 * every plot_nice_step(span, most, time): their cells into col[], values into val[] (at
 * most max). Returns how many.
 */
unsigned plot_ticks(double span, unsigned w, unsigned most, bool time, unsigned *col,
		    double *val, unsigned max);
/* UTF-8 of a code point into out (at least 5 bytes); returns the length. */
size_t plot_utf8(uint32_t cp, char *out);
/* One row of the grid as UTF-8 text (for tests and plain output); returns buf. */
char *plot_row_text(const struct plot_grid *g, unsigned row, char *buf, size_t len);

#endif
