// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench compare: several results side by side, as text, Markdown, CSV, JSON or HTML. */
#include "cli.h"
#include "cli_charts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "report.h"
#include "result.h"
#include "result_io.h"
#include "safety.h"
#include "strbuf.h"

enum { O_METRIC = 256, O_FORMAT, O_SPECS, O_NO_SPECS, O_STRICT, O_CHARTS };

static const struct opt compare_opts[] = {
	{"metric", O_METRIC, "M", "only these metrics (repeat or comma-separate; listed below)"},
	{"format", O_FORMAT, "FMT", "text (default), md, csv, json or html"},
	{"out", 'o', "FILE", "write the report to FILE instead of standard output"},
	{"output", 'o', "FILE", "the same as --out (its former name)"},
	{"charts", O_CHARTS, "DIR",
	 "also write each chart of the HTML report to DIR as SVG and PNG, named by section "
	 "and metric (the HTML report links them)"},
	{"specs", O_SPECS, "DIR", "read vendor spec sheets from DIR only"},
	{"no-specs", O_NO_SPECS, NULL, "do not show measured against rated figures"},
	{"strict", O_STRICT, NULL,
	 "refuse (exit 1, no report) when a table would put steps measured differently "
	 "side by side (not-comparable:...)"},
	{NULL, 0, NULL, NULL},
};

/* "iops, mbps, ...": every --metric name, from the metric table (report.h); free() it. */
static char *metric_names(const char *sep)
{
	struct strbuf b = {0};

	for (unsigned m = 0; m < RM_COUNT; m++)
		strbuf_add(&b, "%s%s", m ? sep : "", report_metric_info[m].name);
	return strbuf_take(&b);
}

static int parse_metrics(struct opt_parser *p, const char *arg, unsigned *mask)
{
	char *copy = strdup(arg), *save = NULL;
	int ret = 0;

	if (!copy)
		return EXIT_USAGE;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum report_metric m;
		if (report_metric_parse(tok, &m)) {
			char *names = metric_names(", ");
			ret = opt_usage_error(p, "--metric: unknown metric '%s' (%s)", tok,
					      names ? names : "see --help");
			free(names);
			break;
		}
		*mask |= 1u << m;
	}
	free(copy);
	return ret;
}

static int write_out(const char *path, const char *buf, size_t len)
{
	char err[DB_ERR_LEN];
	int ret;

	if (!path) /* standard output's error is main()'s to say */
		return fwrite(buf, 1, len, stdout) != len || fflush(stdout) ? EXIT_OUTPUT : EXIT_OK;
	if (!(ret = safety_output_write(path, buf, len, NULL, err, sizeof(err))))
		return EXIT_OK;
	fprintf(stderr, "drivebench compare: %s\n", err);
	return ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
}

/*
 * The report in fmt into *buf, then freed; with charts_dir, its charts to that folder
 * too: the HTML report draws them, so another format renders it once for them alone.
 * An exit status, the message printed.
 */
static int render(struct report *rep, enum report_format fmt, const char *charts_dir,
		  const char *output, char **buf, size_t *len)
{
	struct cli_charts charts = {0};
	int ret = 0, rc;

	if (charts_dir && (rc = cli_charts_open(&charts, charts_dir, output))) {
		report_free(rep);
		return rc;
	}
	if (charts_dir) {
		rep->charts = &charts.rc;
		if (fmt != RF_HTML) {
			char *html = NULL;
			size_t n;
			ret = report_render(rep, RF_HTML, &html, &n);
			free(html);
			rep->charts = NULL;
		}
	}
	if (!ret)
		ret = report_render(rep, fmt, buf, len);
	report_free(rep);
	if (ret && charts.err[0])
		fprintf(stderr, "drivebench compare: --charts: %s\n", charts.err);
	else if (ret)
		fprintf(stderr, "drivebench compare: rendering %s: %s\n", report_format_name[fmt],
			strerror(-ret));
	cli_charts_close(&charts);
	/* a chart's file that could not be written (a full disk) is an output's failure */
	return !ret ? EXIT_OK : ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
}

int cli_compare(int argc, char **argv)
{
	struct opt_parser p;
	struct report_opts ro = {.settings = cli_settings()};
	enum report_format fmt = RF_TEXT;
	const char *output = NULL, *charts_dir = NULL;
	struct result *res = NULL;
	const struct result **ptrs = NULL;
	struct report rep;
	char err[DB_ERR_LEN], *buf = NULL;
	size_t len = 0;
	int key, rc = EXIT_OK, loaded = 0;

	opt_parser_init(&p, "compare",
			"RESULT... [--metric M] [--format text|md|csv|json|html] "
			"[-o FILE] [--charts DIR] [--strict]",
			compare_opts, argc, argv);
	while ((key = opt_next(&p)) > 0) {
		switch (key) {
		case 'h':
			if (!p.version) {
				char *names = metric_names(" ");
				printf("metrics: %s\n", names ? names : "");
				free(names);
			}
			return EXIT_OK;
		case O_METRIC:
			if ((rc = parse_metrics(&p, p.arg, &ro.metric_mask)))
				goto out;
			break;
		case O_FORMAT:
			if (report_format_parse(p.arg, &fmt)) {
				rc = opt_usage_error(&p,
						     "--format: unknown format '%s' (text, md, "
						     "csv, json, html)",
						     p.arg);
				goto out;
			}
			break;
		case 'o':
			output = p.arg;
			break;
		case O_SPECS:
			ro.spec_dir = p.arg;
			break;
		case O_NO_SPECS:
			ro.no_specs = true;
			break;
		case O_STRICT:
			ro.strict = true;
			break;
		case O_CHARTS:
			charts_dir = p.arg;
			break;
		}
	}
	if (key < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (p.npos < 1) {
		rc = opt_usage_error(&p, "no result files given");
		goto out;
	}
	res = calloc((size_t)p.npos, sizeof(*res));
	ptrs = calloc((size_t)p.npos, sizeof(*ptrs));
	if (!res || !ptrs) {
		fprintf(stderr, "drivebench compare: out of memory\n");
		rc = EXIT_USAGE;
		goto out;
	}
	/* tables need the step summaries only; the HTML report charts the samples too */
	if (result_load_many(res, (const char *const *)p.pos, (unsigned)p.npos,
			     fmt == RF_HTML || charts_dir ? RESULT_LOAD_ALL : 0, err,
			     sizeof(err))) {
		fprintf(stderr, "drivebench compare: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	loaded = p.npos;
	for (int i = 0; i < p.npos; i++)
		ptrs[i] = &res[i];
	int built = report_build(&rep, ptrs, (unsigned)p.npos, &ro, err, sizeof(err));
	if (built) {
		fprintf(stderr, "drivebench compare: %s\n", err);
		/* valid input that --strict will not put side by side: not a usage error */
		rc = built == -EDOM ? EXIT_RUN_FAILED : EXIT_USAGE;
		goto out;
	}
	if (!(rc = render(&rep, fmt, charts_dir, output, &buf, &len)))
		rc = write_out(output, buf, len);
out:
	free(buf);
	for (int i = 0; i < loaded; i++)
		result_free(&res[i]);
	free(res);
	free(ptrs);
	return rc;
}
