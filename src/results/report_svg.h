/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_REPORT_SVG_H
#define DB_REPORT_SVG_H
/*
 * Internal to the HTML renderer: the SVG charts it draws (report_svg.c), line charts
 * and grouped horizontal bars, each a well-formed XML document of its own. Every series
 * has its own colour (Okabe-Ito), dash pattern and marker shape, so they stay apart in
 * greyscale; every axis names its quantity and unit.
 */
#include <stdbool.h>
#include <stdio.h>

#include "report.h"

struct series {
	const char *name;
	unsigned n;
	double *x, *y; /* y NAN: no value (the line breaks) */
	char **warn;   /* [n] or NULL: point i's step's warning codes ("host-busy
			  reads-unwritten"), malloc'd, NULL for none (svg_series_warn) */
};

struct chart {
	char title[256];
	char xlabel[96];
	char ylabel[96];
	const char *const *xcats; /* categorical x axis: x[i] are indices into xcats */
	unsigned ncats;
	struct series *series;
	unsigned nseries;
	bool markers;
	enum report_metric metric; /* bars: how their values are printed */
	bool ylog;		   /* y holds log10 of the value: ticks at powers of ten */
	bool xnines;		   /* x holds -log10(1 - p): ticks at 0, 90, 99, 99.9 ... % */
};

/* A line chart: one <g class="series"> per series, then the legend. */
void svg_chart(FILE *out, const struct chart *c);
/*
 * Grouped horizontal bars: c->xcats are the categories, down the page; each series is a
 * run with one bar in every category (y[k], NAN for none), in its colour and with its
 * value at the bar's end. Each run's bars are one <g class="series bars"> element.
 */
void svg_bars(FILE *out, const struct chart *c);
/* Series i's colour ("#0072B2"), as the runs table's swatches show it. */
const char *svg_colour(unsigned i);
/* Room for n points named name (n = 0 in use). 0 or -ENOMEM. */
int svg_series_alloc(struct series *s, const char *name, unsigned n);
/*
 * Mark point i (< the n it was allocated for) of s as its step's: the codes of the step's warnings ("host-busy
 * reads-unwritten"), drawn as a red "!" on the point or bar with the codes as its
 * tooltip (<title>), and a legend entry for the mark. 0 or -ENOMEM.
 */
struct result_step;
int svg_series_warn(struct series *s, unsigned i, const struct result_step *st);
/* n series' points, and the array. */
void svg_series_free(struct series *s, unsigned n);

#endif
