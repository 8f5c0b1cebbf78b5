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

#include "result.h"
#include "result_io.h"
#include "text.h"
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
		/* I/Os and a percentile of 0: not known (fio's plain json, reads and writes) */
		if (d->ios && !d->pct_ns[pct[c]])
			snprintf(buf, len, "-");
		else
			report_fmt_value(buf, len, RM_P99, (double)d->pct_ns[pct[c]] / 1e6);
		return;
	}
}

/* CPU columns: drivebench's use (% of one CPU), the host's user/system/iowait (% of all). */
static const char *const cpu_head[2] = {"cpu %", "host usr/sys/io %"};

static void cpu_value(char *buf, size_t len, unsigned c, const struct step_cpu *cpu)
{
	if (!cpu || !cpu->measured)
		snprintf(buf, len, "%s", cpu ? "-" : "");
	else if (c == 0)
		snprintf(buf, len, "%.0f", cpu->proc_user_pct + cpu->proc_system_pct);
	else
		snprintf(buf, len, "%.0f/%.0f/%.0f", cpu->host_user_pct, cpu->host_system_pct,
			 cpu->host_iowait_pct);
}

/*
 * Every string from the result file goes out through V(): control characters made
 * visible, so a hostile model or error string cannot drive the terminal.
 */
#define V(s) text_fput_visible(out, s)

/* A run on several targets at once: "Targets  2: /dev/nvme0n1 (block), /dev/nvme1n1 (block)". */
static void show_targets(FILE *out, const struct result *r)
{
	unsigned n = result_ntargets(r);

	fprintf(out, "Targets  %u: ", n);
	for (unsigned i = 0; i < n; i++) {
		const struct result_target *t = result_nth_target(r, i);
		fputs(i ? ", " : "", out);
		V(t->path[0] ? t->path : "?");
		if (t->kind[0]) {
			fputs(" (", out);
			V(t->kind);
			fputs(")", out);
		}
	}
	fputs("\n", out);
}

/*
 * "Host     bench1, Linux 6.1.0, Intel Xeon E5-2680 x 16": the fields the host record
 * holds, and no more (fio's client names a lab's host alone: "Host     10.0.0.2:8765").
 */
static void show_host(FILE *out, const struct result_host *h)
{
	if (!h->hostname[0])
		return;
	fputs("Host     ", out);
	V(h->hostname);
	if (h->kernel[0]) {
		fputs(", Linux ", out);
		V(h->kernel);
	}
	if (h->cpu[0]) {
		fputs(", ", out);
		V(h->cpu);
	}
	if (h->cpus[0]) {
		fputs(h->cpu[0] ? " x " : ", ", out);
		V(h->cpus);
		fputs(h->cpu[0] ? "" : " CPUs", out);
	}
	fputs("\n", out);
}

static void show_header(FILE *out, const struct result *r)
{
	char label[256], cap[32] = "";
	const char *serial = result_drive_serial(r), *fw = result_drive_firmware(r);
	const char *kind = result_nth_target(r, 0)->kind;

	fputs("Result   ", out);
	V(r->path);
	fprintf(out, " (format version %d, drivebench ", r->version);
	V(r->tool_version[0] ? r->tool_version : "?");
	fputs(")\n", out);
	if (r->label[0]) {
		fputs("Label    ", out);
		V(r->label);
		fputs("\n", out);
	}
	if (r->note[0]) {
		fputs("Note     ", out);
		V(r->note);
		fputs("\n", out);
	}
	if (result_drive_model(r)[0]) {
		fputs("Drive    ", out);
		V(result_label(r, false, label, sizeof(label)));
		if (fw[0]) {
			fputs(", firmware ", out);
			V(fw);
		}
		if (serial[0]) {
			fputs(", serial ", out);
			V(serial);
		}
		fputs("\n", out);
	}
	if (result_capacity_bytes(r))
		units_fmt_capacity_compact(cap, sizeof(cap), result_capacity_bytes(r));
	if (result_ntargets(r) > 1) {
		show_targets(out, r);
	} else {
		fputs("Target   ", out);
		V(result_target_path(r)[0] ? result_target_path(r) : "?");
		if (kind[0]) {
			fputs(" (", out);
			V(kind);
			fputs(")", out);
		}
		fputs("\n", out);
	}
	if (cap[0])
		fprintf(out, "Size     %s\n", cap);
	show_host(out, &r->host_summary);
	if (r->preset_name[0]) {
		fputs("Preset   ", out);
		V(r->preset_name);
		fputs(" (", out);
		V(r->preset_source[0] ? r->preset_source : "?");
		fprintf(out, ")%s\n", r->scale != 1.0 ? ", durations scaled" : "");
	} else {
		fputs(r->scale > 0 ? "Preset   none (an ad-hoc workload)\n"
				   : "Preset   none (an import of fio's output: scale not known)\n",
		      out);
	}
	if (r->preset_name[0] && r->scale != 1.0)
		fprintf(out, "Scale    %g\n", r->scale);
	fputs("Run      ", out);
	V(r->started);
	if (r->ended[0]) {
		fputs(" to ", out);
		V(r->ended);
	}
	fprintf(out, ": %s", result_status_name[r->status]);
	if (r->error[0]) {
		fputs(": ", out);
		V(r->error);
	}
	fputs("\n", out);
}

/* The drive's own view around the run (target.health, health_watch.h), and its warnings. */
static void show_health(FILE *out, const struct result *r)
{
	const struct result_health *h = &result_nth_target(r, 0)->health;
	char cap[32];

	/* the note, values and warnings come from the file: escaped like every outside string */
	if (!h->recorded)
		return;
	if (h->note[0]) {
		fputs("Health   ", out);
		V(h->note);
		fputs("\n", out);
		return;
	}
	fprintf(out, "Health  ");
	if (h->temp_max_c[0]) {
		fputs(" ", out);
		V(h->temp_min_c);
		fputs("..", out);
		V(h->temp_max_c);
		fputs(" C during the run;", out);
	}
	if (h->has_delta) {
		if (h->has_written) {
			units_fmt_capacity(cap, sizeof(cap), h->written_bytes);
			fprintf(out, " %s written by the host;", cap);
		}
		if (h->wear_pct[0]) {
			fputs(" wear +", out);
			V(h->wear_pct);
			fputs(" %;", out);
		}
		fprintf(out, " %s", h->throttled ? "THROTTLED" : "no throttling");
	}
	fprintf(out, "\n");
	for (unsigned i = 0; i < h->nwarnings; i++) {
		fputs("Warning  ", out);
		V(h->warnings[i].text);
		fputs(" (", out);
		V(h->warnings[i].phase);
		fputs(")\n", out);
	}
}

/* A step's or a stream's warnings ("2T2Q / reader: code: text" for a stream of step). */
static void show_warnings(FILE *out, const struct result_step *st, const struct result_step *step)
{
	/* labels, codes and texts come from the file: escaped like every outside string */
	for (unsigned w = 0; w < st->nwarnings; w++) {
		fputs("  " REPORT_WARN_MARK " ", out);
		if (step) {
			V(step->label);
			fputs(" / ", out);
		}
		V(st->label);
		fputs(": ", out);
		V(st->warnings[w].code);
		fputs(": ", out);
		V(st->warnings[w].text);
		fputs("\n", out);
	}
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

		show_warnings(out, st, NULL);
		for (unsigned k = 0; k < st->nstreams; k++)
			show_warnings(out, &st->streams[k], st);
		if (dr->ios && dr->max_ns >= all->max_ns && dr->max_ns > 4 * all->pct_ns[PCT_99]) {
			fputs("  drain ", out);
			V(st->label);
			fprintf(out,
				": its maximum is from the %llu I/Os still in flight at "
				"its end, which took up to %s (the drain lasted %s)\n",
				(unsigned long long)dr->ios,
				units_fmt_latency(max, sizeof(max), (double)dr->max_ns),
				units_fmt_duration(len, sizeof(len), st->drain.dur_ns));
		}
	}
}

/* Skewed offsets: one line when every step has the same distribution, else one a step. */
static void show_offsets(FILE *out, const struct result_phase *ph)
{
	char dist[WL_MAX_ZONES * 8 + 16];
	bool same = true, skewed = false;

	for (unsigned s = 0; s < ph->nsteps; s++) {
		skewed |= ph->steps[s].wl.dist != WL_DIST_UNIFORM;
		same &= workload_same_dist(&ph->steps[0].wl, &ph->steps[s].wl);
	}
	if (!skewed)
		return;
	if (same) {
		fprintf(out, "  offsets: %s\n",
			workload_fmt_dist(&ph->steps[0].wl, dist, sizeof(dist)));
		return;
	}
	for (unsigned s = 0; s < ph->nsteps; s++) {
		fputs("  offsets ", out);
		V(ph->steps[s].label);
		fprintf(out, ": %s\n", workload_fmt_dist(&ph->steps[s].wl, dist, sizeof(dist)));
	}
}

void report_replay_line(FILE *out, const struct replay_stats *r)
{
	char mean[32], max[32];

	fprintf(out, "%llu of %llu I/Os (%llu flushes, %llu discards) at QD%u, %s",
		(unsigned long long)r->issued, (unsigned long long)r->trace_ios,
		(unsigned long long)r->flushes, (unsigned long long)r->discards, r->qdepth,
		r->timed ? "timed" : "as fast as possible\n");
	if (r->timed)
		fprintf(out, ": behind the trace by %s on average, %s at most; %llu I/Os more "
			"than 1 ms late\n",
			units_fmt_latency(mean, sizeof(mean), r->lag_mean_ns),
			units_fmt_latency(max, sizeof(max), (double)r->lag_max_ns),
			(unsigned long long)r->late_ios);
}

/* Each replay's own line: what it issued, and how far behind its trace it was. */
static void show_replays(FILE *out, const struct result_phase *ph)
{
	for (unsigned s = 0; s < ph->nsteps; s++) {
		if (!ph->steps[s].replay.trace_ios)
			continue;
		fputs("  replay ", out);
		V(ph->steps[s].label);
		fputs(": ", out);
		report_replay_line(out, &ph->steps[s].replay);
	}
}

/* A definition in words without the host's load, which changes from step to step. */
static char *def_words(char *buf, size_t len, const struct step_def *d)
{
	struct step_def c = *d;

	c.has_host_load = false;
	return step_def_describe(&c, buf, len);
}

/*
 * What the numbers mean (step_def.h): one line when every step was measured alike, else
 * one a step; then the most CPU other processes used during a step, when recorded.
 */
static void show_defs(FILE *out, const struct result_phase *ph)
{
	char a[512], b[512];
	bool same = true, load = false;
	double load_max = 0;

	if (ph->kind == PH_PURGE) /* measures nothing */
		return;
	def_words(a, sizeof(a), &ph->steps[0].def);
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct step_def *d = &ph->steps[s].def;
		same &= !strcmp(a, def_words(b, sizeof(b), d));
		if (d->has_host_load && (!load || d->host_other_pct > load_max))
			load_max = d->host_other_pct;
		load |= d->has_host_load;
	}
	for (unsigned s = 0; s < (same ? 1 : ph->nsteps); s++) {
		fputs("  measured", out);
		if (!same) {
			fputs(" ", out);
			V(ph->steps[s].label);
		}
		fputs(": ", out);
		V(def_words(a, sizeof(a), &ph->steps[s].def));
		fputs("\n", out);
	}
	if (load)
		fprintf(out, "  other processes: up to %.0f%% of the host's CPUs during a step\n",
			load_max);
	/* 4K-sector targets: the preset's smaller block sizes, folded (step_def.h) */
	if (ph->nsteps && ph->steps[0].def.bs_folded[0]) {
		fputs("  note: block sizes ", out);
		V(ph->steps[0].def.bs_folded);
		fputs(", the target's logical block size\n", out);
	}
	/* 4K-sector targets: the preset's steps of a block size they cannot take */
	if (ph->skipped[0]) {
		fputs("  not run on this target: ", out);
		V(ph->skipped);
		fputs("\n", out);
	}
}

/* The widths of a phase's table: measured in a first pass, used in the second. */
struct widths {
	size_t name, col[NCOLS], cpu[2];
	bool with_cpu; /* CPU columns: the steps recorded it (files from before did not) */
};

/*
 * One line of the table (pass 1), or its widths (pass 0): name, the columns of d, the
 * CPU columns when cpu (blank for a NULL cpu), and when st its status and error.
 */
static void show_line(FILE *out, int pass, struct widths *w, const char *name,
		      const struct dir_stats *d, const struct step_cpu *cpu,
		      const struct result_step *st)
{
	char v[32];
	/* columns are as wide as their characters, not their bytes */
	size_t nw = text_width(name);

	if (!pass && nw > w->name)
		w->name = nw;
	if (pass)
		fprintf(out, "  %s%*s", name, (int)(w->name - nw), "");
	for (unsigned c = 0; c < NCOLS; c++) {
		col_value(v, sizeof(v), (enum col)c, d);
		if (!pass && strlen(v) > w->col[c])
			w->col[c] = strlen(v);
		if (pass)
			fprintf(out, "  %*s", (int)w->col[c], v);
	}
	for (unsigned c = 0; w->with_cpu && c < 2; c++) {
		cpu_value(v, sizeof(v), c, cpu);
		if (!pass && strlen(v) > w->cpu[c])
			w->cpu[c] = strlen(v);
		if (pass)
			fprintf(out, "  %*s", (int)w->cpu[c], v);
	}
	if (!pass)
		return;
	if (st) {
		fprintf(out, "  %s%s", result_status_name[st->status],
			st->nwarnings ? " " REPORT_WARN_MARK : "");
		if (st->error[0]) {
			fputs(": ", out);
			V(st->error);
		}
	}
	fputs("\n", out);
}

/*
 * A step's lines: the step (all of it), its reads and writes when it mixes them, and
 * one line per stream when it ran several at once ("2T2Q / reader").
 */
static void show_step(FILE *out, int pass, struct widths *w, const struct result_phase *ph,
		      const struct result_step *st)
{
	char name[256], what[256], label[256];
	bool mix = st->wl.read_pct > 0 && st->wl.read_pct < 100;

	/* a purge or a fill step is named as what it is, not as rounds */
	if (ph->kind == PH_PURGE || (ph->kind == PH_PRECONDITION && !ph->steady.used))
		text_visible(name, sizeof(name), report_step_what(what, sizeof(what), ph, st));
	else
		text_visible(name, sizeof(name), st->label);
	show_line(out, pass, w, name, &st->summary.d[DIR_ALL], &st->cpu, st);
	if (mix) {
		show_line(out, pass, w, "  read", &st->summary.d[DIR_READ], NULL, NULL);
		show_line(out, pass, w, "  write", &st->summary.d[DIR_WRITE], NULL, NULL);
	}
	text_visible(label, sizeof(label), st->label);
	for (unsigned k = 0; k < st->nstreams; k++) {
		const struct result_step *sm = &st->streams[k];
		text_visible(what, sizeof(what), sm->label);
		snprintf(name, sizeof(name), "%s / %s", label, what);
		show_line(out, pass, w, name, &sm->summary.d[DIR_ALL], &sm->cpu, sm);
	}
}

static void show_phase(FILE *out, const struct result_phase *ph)
{
	struct widths w = {.name = strlen("step"),
			   .cpu = {strlen(cpu_head[0]), strlen(cpu_head[1])}};
	char summary[512];

	fputs("\n", out);
	V(ph->name);
	fprintf(out, " (%s): ", phase_kind_name[ph->kind]);
	if (ph->kind == PH_APP) {
		fprintf(out, "%s, %u steps\n", ph->nsteps ? ph->steps[0].engine : "", ph->nsteps);
		report_show_app(out, ph);
		return;
	}
	V(report_phase_summary(summary, sizeof(summary), ph));
	fputs("\n", out);
	if (!ph->nsteps)
		return;
	for (unsigned s = 0; s < ph->nsteps; s++)
		w.with_cpu |= ph->steps[s].cpu.measured;
	for (unsigned c = 0; c < NCOLS; c++)
		w.col[c] = strlen(col_head[c]);
	/* two passes: measure the columns, then print them */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			fprintf(out, "  %-*s", (int)w.name, "step");
			for (unsigned c = 0; c < NCOLS; c++)
				fprintf(out, "  %*s", (int)w.col[c], col_head[c]);
			for (unsigned c = 0; w.with_cpu && c < 2; c++)
				fprintf(out, "  %*s", (int)w.cpu[c], cpu_head[c]);
			fprintf(out, "  status\n");
		}
		for (unsigned s = 0; s < ph->nsteps; s++)
			show_step(out, pass, &w, ph, &ph->steps[s]);
	}
	show_edges(out, ph);
	show_defs(out, ph);
	if (ph->steps[0].wl.nsplit) {
		char split[WL_MAX_SPLIT * 24];
		fprintf(out, "  block sizes: %s\n",
			workload_fmt_bssplit(&ph->steps[0].wl, split, sizeof(split)));
	}
	show_offsets(out, ph);
	show_replays(out, ph);
}

int report_show(const struct result *r, char **text, size_t *len)
{
	FILE *out = open_memstream(text, len);

	if (!out)
		return -errno;
	show_header(out, r);
	show_health(out, r);
	for (unsigned i = 0; i < r->nphases; i++)
		show_phase(out, &r->phases[i]);
	if (fclose(out) != 0) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}
