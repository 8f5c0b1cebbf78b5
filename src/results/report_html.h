/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_REPORT_HTML_H
#define DB_REPORT_HTML_H
/*
 * Internal to the HTML renderer: how a chart reaches the page (report_html_fig.c). Each
 * chart is drawn inline; with report.charts (compare --charts DIR) it is also handed over
 * as a standalone SVG document under a stable stem, named by its section and metric
 * ("8k-70-30-random-iops"), and the page links its files under the figure. The page's
 * table of contents and its sections' anchors are made from the <h2> headings of the
 * body once it is written (html_page).
 */
#include <stdio.h>

#include "report.h"
#include "report_svg.h"

/* How a chart is drawn: svg_chart or svg_bars. */
typedef void (*html_draw_fn)(FILE *out, const struct chart *c);

/*
 * Draw c into out; with rep->charts, also hand it to rep->charts->write under the stem
 * made of section and what, and link its files. 0 or -errno (the write's).
 */
int html_svg(FILE *out, const struct report *rep, html_draw_fn draw, const struct chart *c,
	     const char *section, const char *what);

/*
 * "8k-70-30-random-iops": s lowercased, every run of other characters than ASCII letters
 * and digits one '-', no '-' at either end, at most len - 1 bytes; entities (&amp;) are
 * skipped. "chart" when nothing is left. Returns buf.
 */
char *html_slug(char *buf, size_t len, const char *s);

/*
 * The body (len bytes of HTML, <h2> headings in it as the sections write them) to out,
 * after a table of contents linking every <h2>; each heading gets an id (its slug, made
 * unique with -2, -3 ...). 0 or -ENOMEM.
 */
int html_page(FILE *out, const char *body, size_t len);

/* report_html_snia.c: SNIA's matrices (report_matrix) and write saturation (report_wsat). */
int html_section_matrix(FILE *out, const struct report *rep);
int html_section_wsat(FILE *out, const struct report *rep);

#endif
