// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drivebench capture: a device's block I/O into a trace, with a live count.
 * drivebench trace import|show: other tools' traces converted, a trace summarised.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "errbuf.h"
#include "report.h"
#include "safety.h"
#include "trace.h"
#include "trace_capture.h"
#include "trace_import.h"
#include "units.h"

static atomic_int capture_stop;

static void on_stop(int sig)
{
	(void)sig;
	atomic_store(&capture_stop, 1);
}

static void print_count(void *arg, const struct capture_progress *p)
{
	bool tty = arg != NULL;

	fprintf(stderr, "%s%7.1fs  %llu I/Os (R %llu W %llu F %llu D %llu)  %llu events%s%s",
		tty ? "\r" : "", (double)p->elapsed_ns / 1e9, (unsigned long long)p->ios,
		(unsigned long long)p->count[TRACE_READ], (unsigned long long)p->count[TRACE_WRITE],
		(unsigned long long)p->count[TRACE_FLUSH],
		(unsigned long long)p->count[TRACE_DISCARD], (unsigned long long)p->events,
		p->dropped ? "  DROPPED by the kernel: " : "", tty ? "  " : "\n");
	if (p->dropped)
		fprintf(stderr, "%llu%s", (unsigned long long)p->dropped, tty ? "" : "\n");
}

static const struct opt capture_opts[] = {
	{"time", 't', "DURATION", "record this long (default: until interrupted)"},
	{"out", 'o', "FILE", "the trace file to write (required)"},
	{"quiet", 'q', NULL, "no live count"},
	{NULL, 0, NULL, NULL},
};

int cli_capture(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	struct capture_opts o = {.stop = &capture_stop};
	struct capture_progress prog;
	struct safety_output f;
	const char *out = NULL;
	bool quiet = false;
	char err[DB_ERR_LEN];
	int key, ret;

	opt_parser_init(p, "capture", "DEVICE [--time DURATION] -o FILE [--quiet]", capture_opts,
			argc, argv);
	while ((key = opt_next(p)) > 0) {
		if (key == 'h')
			return EXIT_OK;
		if (key == 'o')
			out = p->arg;
		if (key == 'q')
			quiet = true;
		if (key == 't' && (units_parse_duration(p->arg, &o.time_ns) || !o.time_ns))
			return opt_usage_error(p, "--time: '%s' is not a duration", p->arg);
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos != 1)
		return opt_usage_error(p, p->npos ? "one device at a time" : "which device?");
	if (!out)
		return opt_usage_error(p, "-o FILE is required");
	o.device = p->pos[0];
	if (safety_output_open(&f, out, NULL, err, sizeof(err))) {
		fprintf(stderr, "drivebench capture: %s\n", err);
		return EXIT_USAGE;
	}
	o.out = f.f;
	if (!quiet) {
		o.on_progress = print_count;
		o.arg = isatty(STDERR_FILENO) ? (void *)f.f : NULL;
	}
	cli_catch_stop_signals(on_stop);
	ret = trace_capture(&o, &prog, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "drivebench capture: %s\n", err);
		safety_output_abort(&f); /* no trace, or one cut where it failed: -o as it was */
		return ret == -ENOTBLK || ret == -ENOENT ? EXIT_USAGE : EXIT_RUN_FAILED;
	}
	/* a trace the kernel dropped events of is whole as far as it goes: kept, exit 1 */
	if ((ret = safety_output_commit(&f, err, sizeof(err)))) {
		fprintf(stderr, "drivebench capture: %s\n", err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
	}
	if (!quiet)
		print_count(NULL, &prog);
	fprintf(stderr, "drivebench capture: %llu I/Os in %.1f s: %s\n",
		(unsigned long long)prog.ios, (double)prog.elapsed_ns / 1e9, out);
	return prog.dropped ? EXIT_RUN_FAILED : EXIT_OK;
}

void cli_print_replay(const struct replay_stats *r)
{
	fputs("  replay  ", stderr);
	report_replay_line(stderr, r);
}

/* ---- trace import, trace show ------------------------------------------------------ */

static const struct opt trace_opts[] = {
	{"out", 'o', "FILE", "import: the trace file to write (required)"},
	{"from", 'f', "FORMAT", "import: blktrace or fio (default: told by the file)"},
	{NULL, 0, NULL, NULL},
};

static int trace_show(const char *path)
{
	struct trace_summary s;
	char err[DB_ERR_LEN], dur[32], size[32];

	if (trace_scan(path, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "drivebench trace: %s\n", err);
		return EXIT_USAGE;
	}
	printf("trace      %s (dbtrace version %u)\n", path, TRACE_VERSION);
	printf("device     %s, logical block %u\n",
	       s.info.dev_size ? units_fmt_size(size, sizeof(size), s.info.dev_size) : "unknown",
	       s.info.lbs);
	printf("I/Os       %llu in %s, highest depth %u\n", (unsigned long long)s.n,
	       units_fmt_duration(dur, sizeof(dur), s.duration_ns), s.max_depth);
	for (int op = 0; op < TRACE_NOPS; op++)
		printf("%-10s %llu, %llu bytes\n", trace_op_name[op],
		       (unsigned long long)s.count[op], (unsigned long long)s.bytes[op]);
	printf("reach      %llu bytes\n", (unsigned long long)s.max_end);
	return EXIT_OK;
}

static int trace_import_cmd(const struct opt_parser *p, const char *out, const char *from)
{
	enum trace_src src = TRACE_SRC_AUTO;
	struct trace_writer w;
	struct safety_output f;
	char err[DB_ERR_LEN];
	int ret;

	if (from && !strcmp(from, "blktrace"))
		src = TRACE_SRC_BLKTRACE;
	else if (from && !strcmp(from, "fio"))
		src = TRACE_SRC_FIO;
	else if (from)
		return opt_usage_error(p, "--from: '%s' is not blktrace or fio", from);
	if (!out)
		return opt_usage_error(p, "-o FILE is required");
	if (safety_output_open(&f, out, NULL, err, sizeof(err))) {
		fprintf(stderr, "drivebench trace: %s\n", err);
		return EXIT_USAGE;
	}
	/* the input is read whole before the output replaces any file: -o may name it */
	ret = trace_import(p->pos[1], src, f.f, NULL, &w, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "drivebench trace: %s\n", err);
		safety_output_abort(&f);
		return ret == -EINVAL || ret == -ENOENT || ret == -EISDIR ? EXIT_USAGE
									  : EXIT_RUN_FAILED;
	}
	if ((ret = safety_output_commit(&f, err, sizeof(err)))) {
		fprintf(stderr, "drivebench trace: %s\n", err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
	}
	fprintf(stderr, "drivebench trace: %llu I/Os (R %llu W %llu F %llu D %llu): %s\n",
		(unsigned long long)w.n, (unsigned long long)w.count[TRACE_READ],
		(unsigned long long)w.count[TRACE_WRITE], (unsigned long long)w.count[TRACE_FLUSH],
		(unsigned long long)w.count[TRACE_DISCARD], out);
	return EXIT_OK;
}

int cli_trace(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	const char *out = NULL, *from = NULL;
	int key;

	opt_parser_init(p, "trace", "import FILE -o FILE [--from blktrace|fio] | show FILE",
			trace_opts, argc, argv);
	while ((key = opt_next(p)) > 0) {
		if (key == 'h')
			return EXIT_OK;
		if (key == 'o')
			out = p->arg;
		if (key == 'f')
			from = p->arg;
	}
	if (key < 0)
		return EXIT_USAGE;
	if (p->npos == 2 && !strcmp(p->pos[0], "show"))
		return trace_show(p->pos[1]);
	if (p->npos == 2 && !strcmp(p->pos[0], "import"))
		return trace_import_cmd(p, out, from);
	return opt_usage_error(p, "import FILE or show FILE");
}
