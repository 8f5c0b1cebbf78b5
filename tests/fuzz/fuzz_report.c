// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a fuzzed result file through the comparison renderers, in all five
 * formats (compared with itself and with a fixed run, so rows, groups and notes form).
 * Beyond crashes and leaks, each output must keep the promises of text.h: well-formed
 * UTF-8 and no raw control character but newline (and tab, which JSON indents with);
 * JSON must parse. A broken promise aborts, which libFuzzer reports as a finding.
 */
// fuzz-seeds: tests/fixtures/results tests/fixtures/hostile
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report.h"
#include "result.h"
#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *out, size_t len, enum report_format f)
{
	if (!text_utf8_valid(out, len)) {
		fprintf(stderr, "%s: not UTF-8\n", report_format_name[f]);
		abort();
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)out[i];
		bool tab_ok = f == RF_JSON;
		if ((c < 0x20 && c != '\n' && !(c == '\t' && tab_ok)) || c == 0x7f ||
		    (c == 0xc2 && i + 1 < len && (unsigned char)out[i + 1] >= 0x80 &&
		     (unsigned char)out[i + 1] < 0xa0)) {
			fprintf(stderr, "%s: raw control character at %zu\n", report_format_name[f],
				i);
			abort();
		}
	}
	if (f == RF_JSON) {
		struct json_object *o = json_tokener_parse(out);
		if (!o) {
			fprintf(stderr, "json: does not parse\n");
			abort();
		}
		json_object_put(o);
	}
}

/* A small run every input is compared with: a 4k read and write at 16T16Q. */
static void fixed_run(struct result *r)
{
	struct workload wl;

	result_init(r);
	r->status = RS_COMPLETE;
	r->target =
		json_tokener_parse("{\"path\": \"/dev/sdx\", \"drive\": {\"model\": \"Fixed\"}}");
	r->host = json_object_new_object();
	result_summarize(r);
	workload_defaults(&wl);
	wl.threads = wl.qdepth = 16;
	struct result_phase *ph = result_add_phase(r, "measure", PH_MEASURE);
	for (unsigned rd = 0; rd <= 100; rd += 100) {
		wl.read_pct = rd;
		struct result_step *st = result_add_step(ph, "x", &wl);
		st->status = RS_COMPLETE;
		st->summary.dur_ns = 1000000000;
		st->summary.d[DIR_ALL].ios = 1000;
		st->summary.d[DIR_ALL].iops = 1000;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64], err[512];
	struct result r, fixed;
	struct report rep;

	if (fd < 0)
		fd = memfd_create("fuzz-report", 0);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (result_load(&r, path, err, sizeof(err)))
		return 0;
	fixed_run(&fixed);
	const struct result *runs[3] = {&r, &fixed, &r};
	struct report_opts opts = {.no_specs = true};
	if (report_build(&rep, runs, 3, &opts, err, sizeof(err)) == 0) {
		for (unsigned f = 0; f < RF_COUNT; f++) {
			char *out = NULL;
			size_t len = 0;
			if (report_render(&rep, (enum report_format)f, &out, &len) == 0)
				check(out, len, (enum report_format)f);
			free(out);
		}
		char *text = NULL;
		size_t len = 0;
		if (report_show(&r, &text, &len) == 0)
			check(text, len, RF_TEXT);
		free(text);
		report_free(&rep);
	}
	result_free(&fixed);
	result_free(&r);
	return 0;
}
