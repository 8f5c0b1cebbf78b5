// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One result, readable: the drive, the target, the host, the preset, how the run ended,
 * and per phase a table of every step (IOPS, MB/s, average, maximum and standard
 * deviation of latency, percentiles) with the phase's verdict. drivebench show prints
 * it; the TUI's Results screen shows it for the selected result.
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "result.h"
#include "result_io.h"
#include "units.h"

/* The per-step table's columns, declared once: heading and value. */
enum col { C_IOPS, C_MBPS, C_AVG, C_MAX, C_STD, C_P50, C_P90, C_P99, C_P999, C_P9999, NCOLS };

static const char *const col_head[NCOLS] = {
	[C_IOPS] = "IOPS",     [C_MBPS] = "MB/s",	[C_AVG] = "avg ms", [C_MAX] = "max ms",
	[C_STD] = "stddev ms", [C_P50] = "p50 ms",	[C_P90] = "p90 ms", [C_P99] = "p99 ms",
	[C_P999] = "p99.9 ms", [C_P9999] = "p99.99 ms",
};

static void col_value(char *buf, size_t len, enum col c, const struct dir_stats *d)
{
	static const enum stats_pct pct[NCOLS] = {
		[C_P50] = PCT_50,   [C_P90] = PCT_90,	  [C_P99] = PCT_99,
		[C_P999] = PCT_999, [C_P9999] = PCT_9999,
	};
	switch (c) {
	case C_IOPS:
		report_fmt_value(buf, len, RM_IOPS, d->iops);
		return;
	case C_MBPS:
		report_fmt_value(buf, len, RM_MBPS, d->mbps);
		return;
	case C_AVG:
		report_fmt_value(buf, len, RM_LAT_AVG, d->mean_ns / 1e6);
		return;
	case C_MAX:
		report_fmt_value(buf, len, RM_LAT_MAX, (double)d->max_ns / 1e6);
		return;
	case C_STD:
		report_fmt_value(buf, len, RM_LAT_STD, d->std_ns / 1e6);
		return;
	default:
		report_fmt_value(buf, len, RM_P99, (double)d->pct_ns[pct[c]] / 1e6);
		return;
	}
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (o && json_object_object_get_ex(o, key, &v) && !json_object_is_type(v, json_type_null))
		return json_object_get_string(v);
	return "";
}

static void show_header(FILE *out, const struct result *r)
{
	char label[256], cap[32] = "";
	const char *serial = result_drive_serial(r), *fw = result_drive_firmware(r);

	fprintf(out, "Result   %s (format version %d, drivebench %s)\n", r->path, r->version,
	       r->tool_version[0] ? r->tool_version : "?");
	if (result_drive_model(r)[0]) {
		fprintf(out, "Drive    %s", result_label(r, false, label, sizeof(label)));
		if (fw[0])
			fprintf(out, ", firmware %s", fw);
		if (serial[0])
			fprintf(out, ", serial %s", serial);
		fprintf(out, "\n");
	}
	if (result_capacity_bytes(r))
		result_fmt_capacity(cap, sizeof(cap), result_capacity_bytes(r));
	fprintf(out, "Target   %s%s%s%s\n", result_target_path(r)[0] ? result_target_path(r) : "?",
	       jstr(r->target, "kind")[0] ? " (" : "", jstr(r->target, "kind"),
	       jstr(r->target, "kind")[0] ? ")" : "");
	if (cap[0])
		fprintf(out, "Size     %s\n", cap);
	if (r->host && jstr(r->host, "hostname")[0])
		fprintf(out, "Host     %s, Linux %s, %s x %s\n", jstr(r->host, "hostname"),
		       jstr(r->host, "kernel"), jstr(r->host, "cpu"), jstr(r->host, "cpus"));
	if (r->preset_name[0])
		fprintf(out, "Preset   %s (%s)%s\n", r->preset_name,
		       r->preset_source[0] ? r->preset_source : "?",
		       r->scale != 1.0 ? ", durations scaled" : "");
	else
		fprintf(out, "Preset   none (an ad-hoc workload)\n");
	if (r->preset_name[0] && r->scale != 1.0)
		fprintf(out, "Scale    %g\n", r->scale);
	fprintf(out, "Run      %s%s%s: %s%s%s\n", r->started, r->ended[0] ? " to " : "", r->ended,
	       result_status_name[r->status], r->error[0] ? ": " : "", r->error);
}

/*
 * Under a phase's table: each step's warnings, and the drain when it holds the step's
 * maximum latency and that is well past the rest (a stall across the step's end).
 */
static void show_edges(FILE *out, const struct result_phase *ph)
{
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct result_step *st = &ph->steps[s];
		const struct dir_stats *all = &st->summary.d[DIR_ALL], *dr = &st->drain.d[DIR_ALL];
		char max[32], len[32];

		for (unsigned w = 0; w < st->nwarnings; w++)
			fprintf(out, "  " REPORT_WARN_MARK " %s: %s: %s\n", st->label,
				st->warnings[w].code, st->warnings[w].text);
		if (dr->ios && dr->max_ns >= all->max_ns && dr->max_ns > 4 * all->pct_ns[PCT_99])
			fprintf(out,
				"  drain %s: its maximum is from the %llu I/Os still in flight at "
				"its end, which took up to %s (the drain lasted %s)\n",
				st->label, (unsigned long long)dr->ios,
				units_fmt_latency(max, sizeof(max), (double)dr->max_ns),
				units_fmt_duration(len, sizeof(len), st->drain.dur_ns));
	}
}

static void show_phase(FILE *out, const struct result_phase *ph)
{
	size_t w[NCOLS + 1] = {strlen("step")};
	char summary[512];

	fprintf(out, "\n%s (%s): %s\n", ph->name, phase_kind_name[ph->kind],
	       report_phase_summary(summary, sizeof(summary), ph));
	if (!ph->nsteps)
		return;

	/* two passes: measure the columns, then print them */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			fprintf(out, "  %-*s", (int)w[0], "step");
			for (unsigned c = 0; c < NCOLS; c++)
				fprintf(out, "  %*s", (int)w[c + 1], col_head[c]);
			fprintf(out, "  status\n");
		} else {
			for (unsigned c = 0; c < NCOLS; c++)
				w[c + 1] = strlen(col_head[c]);
		}
		for (unsigned s = 0; s < ph->nsteps; s++) {
			const struct result_step *st = &ph->steps[s];
			bool mix = st->wl.read_pct > 0 && st->wl.read_pct < 100;
			static const enum io_dir dirs[] = {DIR_ALL, DIR_READ, DIR_WRITE};
			for (unsigned k = 0; k < (mix ? 3u : 1u); k++) {
				char name[96], v[32];
				if (k == 0)
					snprintf(name, sizeof(name), "%s", st->label);
				else
					snprintf(name, sizeof(name), "  %s",
						 dirs[k] == DIR_READ ? "read" : "write");
				if (!pass && strlen(name) > w[0])
					w[0] = strlen(name);
				if (pass)
					fprintf(out, "  %-*s", (int)w[0], name);
				for (unsigned c = 0; c < NCOLS; c++) {
					col_value(v, sizeof(v), (enum col)c,
						  &st->summary.d[dirs[k]]);
					if (!pass && strlen(v) > w[c + 1])
						w[c + 1] = strlen(v);
					if (pass)
						fprintf(out, "  %*s", (int)w[c + 1], v);
				}
				if (pass && k)
					fprintf(out, "\n");
				else if (pass)
					fprintf(out, "  %s%s%s%s\n", result_status_name[st->status],
					       st->nwarnings ? " " REPORT_WARN_MARK : "",
					       st->error[0] ? ": " : "", st->error);
			}
		}
	}
	show_edges(out, ph);
	if (ph->steps[0].wl.nsplit) {
		char split[WL_MAX_SPLIT * 24];
		fprintf(out, "  block sizes: %s\n",
		       workload_fmt_bssplit(&ph->steps[0].wl, split, sizeof(split)));
	}
}

int report_show(const struct result *r, char **text, size_t *len)
{
	FILE *out = open_memstream(text, len);

	if (!out)
		return -errno;
	show_header(out, r);
	for (unsigned i = 0; i < r->nphases; i++)
		show_phase(out, &r->phases[i]);
	if (fclose(out) != 0) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}
