// SPDX-License-Identifier: GPL-2.0-or-later
/* Braille and ASCII time-series plots into a cell grid (see plot.h). */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BRAILLE_BASE 0x2800u

/* Braille dot bit for column x (0, 1) and row y (0 top .. 3 bottom), Unicode's order. */
static const uint8_t braille_bit[4][2] = {
	{0x01, 0x08},
	{0x02, 0x10},
	{0x04, 0x20},
	{0x40, 0x80},
};

static const char ascii_level[3] = {'_', '-', '`'};

unsigned plot_capacity(unsigned w, bool braille)
{
	return braille ? 2 * w : w;
}

double plot_nice_max(double v)
{
	static const double steps[] = {1, 2, 2.5, 5, 10};

	if (!(v > 0) || !isfinite(v))
		return 1;
	double p = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

void plot_free(struct plot_grid *g)
{
	free(g->cells);
	g->cells = NULL;
	g->w = g->h = 0;
}

/* Level of v on a scale of nlevels steps, 0 at the bottom; -1 for a gap. */
static int level_of(double v, double ymax, unsigned nlevels)
{
	if (isnan(v))
		return -1;
	if (v <= 0)
		return 0;
	double l = v / ymax * (nlevels - 1);
	if (l >= nlevels - 1)
		return (int)nlevels - 1;
	return (int)lround(l);
}

static void set_dot(struct plot_grid *g, unsigned x, unsigned level, int role)
{
	unsigned row = g->h - 1 - level / 4, sub = 3 - level % 4;
	struct plot_cell *c = &g->cells[row * g->w + x / 2];

	if (c->ch == ' ')
		c->ch = BRAILLE_BASE;
	c->ch |= braille_bit[sub][x % 2];
	c->role = role;
}

/*
 * One point of series s drawn in column x: its level l, the level of its range's low
 * end b (when s->lo; -1 when that is off the chart) and the level of the point before
 * (prev; -1 when there is none, or it was off the chart).
 */
typedef void (*point_fn)(struct plot_grid *g, const struct plot_series *s, unsigned x, int l,
			 int b, int prev);

/* The last cap points of s that fit, right-aligned, each at its level of nlevels. */
static void walk_points(struct plot_grid *g, const struct plot_series *s, unsigned cap,
			unsigned nlevels, point_fn draw)
{
	unsigned shown = s->n < cap ? s->n : cap;
	unsigned first = s->n - shown, x0 = cap - shown;
	int prev = -1;

	for (unsigned i = 0; i < shown; i++) {
		int l = level_of(s->v[first + i], g->ymax, nlevels);
		if (l < 0) {
			prev = -1;
			continue;
		}
		draw(g, s, x0 + i, l, s->lo ? level_of(s->lo[first + i], g->ymax, nlevels) : -1,
		     prev);
		prev = l;
	}
}

static void braille_point(struct plot_grid *g, const struct plot_series *s, unsigned x, int l,
			  int b, int prev)
{
	int lo = l, hi = l;

	if (s->lo) {
		/* a range: from its low end, joined to the point before */
		lo = s->fill ? 0 : b < 0 || b > l ? l : b;
		if (prev >= 0 && prev < lo)
			lo = prev + 1 < lo ? prev + 1 : lo;
		else if (prev > hi)
			hi = prev - 1 > hi ? prev - 1 : hi;
	} else if (s->fill) {
		lo = 0;
	} else if (prev >= 0) {
		/* a vertical run joins this point to the previous one, so jumps stay a line */
		if (prev < l)
			lo = prev + 1 < l ? prev + 1 : l;
		else if (prev > l)
			hi = prev - 1 > l ? prev - 1 : l;
	}
	for (int y = lo; y <= hi; y++)
		set_dot(g, x, (unsigned)y, s->role);
}

static void ascii_point(struct plot_grid *g, const struct plot_series *s, unsigned x, int l,
			int b, int prev)
{
	unsigned row = g->h - 1 - (unsigned)l / 3;

	if (s->lo) {
		/* a range: a bar down to the row of its low end */
		unsigned brow = b < 0 || b > l ? row : g->h - 1 - (unsigned)b / 3;
		for (unsigned r = row + 1; r <= brow; r++)
			g->cells[r * g->w + x] = (struct plot_cell){'|', s->role};
	}
	if (prev >= 0) {
		unsigned prow = g->h - 1 - (unsigned)prev / 3;
		unsigned a = prow < row ? prow + 1 : row + 1, z = prow < row ? row : prow;
		/* rows strictly between the two points get a joining bar */
		for (unsigned r = a; r < z; r++) {
			if (r == row)
				continue;
			g->cells[r * g->w + x] = (struct plot_cell){'|', s->role};
		}
	}
	g->cells[row * g->w + x] = (struct plot_cell){(uint32_t)ascii_level[l % 3], s->role};
}

int plot_render(struct plot_grid *g, unsigned w, unsigned h, bool braille,
		const struct plot_series *s, unsigned ns, double ymax)
{
	if (w == 0 || h == 0)
		return -EINVAL;
	if (!g->cells || g->w * g->h < w * h) {
		struct plot_cell *c = realloc(g->cells, (size_t)w * h * sizeof(*c));
		if (!c)
			return -ENOMEM;
		g->cells = c;
	}
	g->w = w;
	g->h = h;
	g->braille = braille;
	for (unsigned i = 0; i < w * h; i++)
		g->cells[i] = (struct plot_cell){' ', -1};
	if (ymax <= 0) {
		unsigned cap = plot_capacity(w, braille);
		double m = 0;
		for (unsigned k = 0; k < ns; k++)
			for (unsigned i = s[k].n > cap ? s[k].n - cap : 0; i < s[k].n; i++)
				if (s[k].v[i] > m)
					m = s[k].v[i];
		ymax = plot_nice_max(m);
	}
	g->ymax = ymax;
	for (unsigned k = 0; k < ns; k++) {
		if (!s[k].v || !s[k].n)
			continue;
		if (braille)
			walk_points(g, &s[k], 2 * g->w, 4 * g->h, braille_point);
		else
			walk_points(g, &s[k], g->w, 3 * g->h, ascii_point);
	}
	return 0;
}

void plot_hist_reset(struct plot_hist *h)
{
	h->n = h->fill = h->samples = 0;
	h->per = 1;
}

void plot_hist_add(struct plot_hist *h, const double *v)
{
	if (h->per == 0)
		plot_hist_reset(h);
	if (h->n && h->fill < h->per) {
		unsigned b = h->n - 1;
		for (unsigned k = 0; k < PLOT_HIST_SERIES; k++) {
			h->lo[k][b] = fmin(h->lo[k][b], v[k]);
			h->hi[k][b] = fmax(h->hi[k][b], v[k]);
		}
		h->fill++;
		h->samples++;
		return;
	}
	if (h->n == PLOT_HIST_N) {
		/* full: pairs merge, so every bucket now holds twice as many samples */
		for (unsigned k = 0; k < PLOT_HIST_SERIES; k++)
			for (unsigned i = 0; i < PLOT_HIST_N / 2; i++) {
				h->lo[k][i] = fmin(h->lo[k][2 * i], h->lo[k][2 * i + 1]);
				h->hi[k][i] = fmax(h->hi[k][2 * i], h->hi[k][2 * i + 1]);
			}
		h->n = PLOT_HIST_N / 2;
		h->per *= 2;
	}
	for (unsigned k = 0; k < PLOT_HIST_SERIES; k++)
		h->lo[k][h->n] = h->hi[k][h->n] = v[k];
	h->n++;
	h->fill = 1;
	h->samples++;
}

unsigned plot_hist_columns(const struct plot_hist *h, unsigned k, unsigned w, double *lo,
			   double *hi)
{
	unsigned cols = h->n ? w : 0;

	if (k >= PLOT_HIST_SERIES)
		return 0;
	for (unsigned c = 0; c < cols; c++) {
		/* the buckets [a, b) fall under column c; at least one, shared by the columns
		 * it spans while there are fewer buckets than columns */
		unsigned a = (unsigned)((uint64_t)c * h->n / cols);
		unsigned b = (unsigned)((uint64_t)(c + 1) * h->n / cols);
		if (b <= a)
			b = a + 1;
		lo[c] = h->lo[k][a];
		hi[c] = h->hi[k][a];
		for (unsigned i = a + 1; i < b; i++) {
			lo[c] = fmin(lo[c], h->lo[k][i]);
			hi[c] = fmax(hi[c], h->hi[k][i]);
		}
	}
	return cols;
}

size_t plot_utf8(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		out[1] = '\0';
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		out[2] = '\0';
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		out[3] = '\0';
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	out[4] = '\0';
	return 4;
}

char *plot_row_text(const struct plot_grid *g, unsigned row, char *buf, size_t len)
{
	size_t n = 0;
	char u[5];

	if (len)
		buf[0] = '\0';
	for (unsigned x = 0; row < g->h && x < g->w; x++) {
		size_t l = plot_utf8(g->cells[row * g->w + x].ch, u);
		if (n + l + 1 > len)
			break;
		memcpy(buf + n, u, l);
		n += l;
		buf[n] = '\0';
	}
	return buf;
}

double plot_nice_step(double span, unsigned most, bool time)
{
	static const double tsteps[] = {1,    2,    5,	  10,	15,    30,    60,    120,   300,
					600,  900,  1800, 3600, 7200,  10800, 21600, 43200, 86400};
	static const double steps[] = {1, 2, 2.5, 5, 10};

	if (!(span > 0) || !isfinite(span) || most == 0)
		return 0;
	double want = span / most;
	/* under a second or over a day, time steps are decimal too */
	for (size_t i = 0; time && want >= 1 && i < sizeof(tsteps) / sizeof(tsteps[0]); i++)
		if (tsteps[i] >= want)
			return tsteps[i];
	double p = pow(10, floor(log10(want)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= want * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

unsigned plot_ticks(double span, unsigned w, unsigned most, bool time, unsigned *col,
		    double *val, unsigned max)
{
	double step = plot_nice_step(span, most, time);
	unsigned n = 0;

	if (!(step > 0) || w < 2)
		return 0;
	for (unsigned k = 1; n < max; k++) {
		double v = k * step;
		if (v >= span * (1 - 1e-9))
			break;
		unsigned c = (unsigned)lround(v / span * (w - 1));
		if (c == 0 || c >= w - 1)
			continue;
		col[n] = c;
		val[n++] = v;
	}
	return n;
}
