/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_CLI_CHARTS_H
#define DB_CLI_CHARTS_H
/*
 * compare --charts DIR: the HTML report's charts as files of their own, each as the
 * standalone SVG the report drew and as a PNG rendered from it by librsvg over cairo
 * (twice the SVG's size, for print and high-density screens). DIR is an output: made
 * when missing, refused when it is anything but a directory, and each file in it goes
 * through the output guard, whole or not at all (safety_output_open()).
 */
#include <limits.h>

#include "errbuf.h"
#include "report.h"

struct cli_charts {
	struct report_charts rc; /* what the report is given (rep.charts = &c.rc) */
	char dir[PATH_MAX];
	char href[PATH_MAX]; /* DIR as the page links it */
	unsigned nfiles;     /* files written */
	char err[DB_ERR_LEN]; /* why writing one failed, when it did */
};

/*
 * Ready DIR for the charts of a page written to page (NULL: standard output, then the
 * page links DIR as given). 0, or exit status 2 with the message printed.
 */
int cli_charts_open(struct cli_charts *c, const char *dir, const char *page);
void cli_charts_close(struct cli_charts *c);

#endif
