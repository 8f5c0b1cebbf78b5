// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON for tools: the comparison model as data ("drivebench-compare", versioned like
 * every saved format). Values are in each metric's unit; a run without a value is null.
 * Written as it is laid out (json_write.c), so a comparison of many steps costs no tree.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "json_write.h"
#include "result_io.h"

static void num(struct jwrite *w, double v, bool present)
{
	if (present && isfinite(v))
		jwrite_double(w, v);
	else
		jwrite_null(w);
}

static void runs_json(struct jwrite *w, const struct report *rep)
{
	jwrite_begin_array(w);
	for (unsigned i = 0; i < rep->nruns; i++) {
		const struct result *r = rep->runs[i].res;
		jwrite_begin_object(w);
		jwrite_kstr(w, "label", rep->runs[i].label);
		jwrite_kstr(w, "path", r->path);
		jwrite_kstr(w, "model", result_drive_model(r));
		jwrite_kstr(w, "firmware", result_drive_firmware(r));
		jwrite_ku64(w, "capacity_bytes", result_capacity_bytes(r));
		jwrite_kstr(w, "target", result_target_path(r));
		jwrite_kstr(w, "preset", r->preset_name);
		jwrite_key(w, "scale");
		num(w, r->scale, r->scale > 0); /* null: not known (an import of fio's output) */
		jwrite_kstr(w, "started", r->started);
		jwrite_kstr(w, "status", result_status_name[r->status]);
		jwrite_ku64(w, "unshared_steps", rep->runs[i].nunshared);
		struct report_cpu c;
		report_run_cpu(rep, i, &c);
		if (c.nmeasured) {
			jwrite_key(w, "cpu");
			jwrite_begin_object(w);
			jwrite_kdbl(w, "process_max_pct", c.proc_max_pct);
			jwrite_kstr(w, "process_max_step", c.proc_max_row);
			jwrite_kdbl(w, "host_busy_max_pct", c.host_busy_max_pct);
			jwrite_kdbl(w, "host_iowait_max_pct", c.iowait_max_pct);
			jwrite_ku64(w, "cpu_bound_steps", c.nbound);
			jwrite_end_object(w);
		}
		if (rep->runs[i].spec)
			jwrite_kstr(w, "spec", rep->runs[i].spec->path);
		/* every phase judged for steady state, with its verdict */
		jwrite_key(w, "steady");
		jwrite_begin_array(w);
		for (unsigned p = 0; p < r->nphases; p++) {
			const struct steady_info *st = &r->phases[p].steady;
			if (!st->used)
				continue;
			jwrite_begin_object(w);
			jwrite_kstr(w, "phase", r->phases[p].name);
			jwrite_key(w, "verdict");
			result_write_steady(w, st);
			jwrite_end_object(w);
		}
		jwrite_end_array(w);
		jwrite_end_object(w);
	}
	jwrite_end_array(w);
}

/* "key": ["not-comparable:scale", ..., "not-known:sector", ...]: the fields' codes. */
static void codes_json(struct jwrite *w, const char *key, unsigned differ, unsigned unknown)
{
	char codes[256], *save = NULL;

	report_differ_codes(codes, sizeof(codes), differ, unknown, " ");
	jwrite_key(w, key);
	jwrite_begin_array_inline(w);
	for (char *c = strtok_r(codes, " ", &save); c; c = strtok_r(NULL, " ", &save))
		jwrite_string(w, c);
	jwrite_end_array(w);
}

/*
 * Each group whose steps are not comparable in the metrics shown ("not_comparable"),
 * then each whose steps do not all know a field ("not_known"): its codes of the kind
 * and the group's note for those metrics.
 */
static void comparability_json(struct jwrite *w, const struct report *rep)
{
	for (unsigned k = 0; k < 2; k++) {
		jwrite_key(w, k ? "not_known" : "not_comparable");
		jwrite_begin_array(w);
		for (unsigned g = 0; g < rep->ngroups; g++) {
			const char *how;
			unsigned unknown,
				differ = report_differ(rep, g, rep->metric_mask, &unknown, &how);
			if (k ? !unknown : !differ)
				continue;
			jwrite_begin_object(w);
			jwrite_kstr(w, "group", rep->groups[g].title);
			codes_json(w, "codes", k ? 0 : differ, k ? unknown : 0);
			jwrite_kstr(w, "note", how);
			jwrite_end_object(w);
		}
		jwrite_end_array(w);
	}
}

static const char *const dir_name[NDIR] = {
	[DIR_READ] = "read",
	[DIR_WRITE] = "write",
	[DIR_ALL] = "all",
};

static void row_json(struct jwrite *w, const struct report *rep, unsigned r)
{
	const struct report_row *row = &rep->rows[r];
	const struct workload *wl = &row->steps[0]->wl;
	char split[WL_MAX_SPLIT * 24];
	bool rated = false;

	jwrite_begin_object(w);
	jwrite_kstr(w, "group", rep->groups[row->group].title);
	jwrite_kstr(w, "step", row->name);
	if (row->stream)
		jwrite_kstr(w, "stream", row->stream);
	jwrite_kstr(w, "direction", dir_name[row->dir]);
	jwrite_kstr(w, "pattern", wl_pattern_name[wl->pattern]);
	if (wl->nsplit)
		jwrite_kstr(w, "bssplit", workload_fmt_bssplit(wl, split, sizeof(split)));
	else
		jwrite_ku64(w, "bs", wl->bs);
	jwrite_ku64(w, "read_pct", wl->read_pct);
	jwrite_ku64(w, "threads", wl->threads);
	jwrite_ku64(w, "qdepth", wl->qdepth);
	jwrite_ku64(w, "rate_iops", wl->rate_iops);
	unsigned unknown, bits = report_differ(rep, row->group, rep->metric_mask, &unknown, NULL);
	if (bits)
		codes_json(w, "not_comparable", bits, 0);
	if (unknown)
		codes_json(w, "not_known", 0, unknown);
	jwrite_key(w, "values");
	jwrite_begin_object(w);
	for (unsigned m = 0; m < RM_COUNT; m++) {
		if (!(rep->metric_mask & (1u << m)))
			continue;
		jwrite_key(w, report_metric_info[m].name);
		jwrite_begin_array_inline(w);
		for (unsigned i = 0; i < rep->nruns; i++) {
			struct report_cell c = report_cell(rep, r, i, (enum report_metric)m);
			num(w, c.value, c.present);
			rated |= c.present && c.rated > 0;
		}
		jwrite_end_array(w);
	}
	jwrite_end_object(w);
	if (rated) {
		jwrite_key(w, "rated");
		jwrite_begin_array(w);
		for (unsigned m = 0; m < RM_COUNT; m++) {
			if (!(rep->metric_mask & (1u << m)))
				continue;
			for (unsigned i = 0; i < rep->nruns; i++) {
				struct report_cell c =
					report_cell(rep, r, i, (enum report_metric)m);
				if (!c.present || c.rated <= 0)
					continue;
				jwrite_begin_object(w);
				jwrite_ku64(w, "run", i);
				jwrite_kstr(w, "metric", report_metric_info[m].name);
				jwrite_key(w, "rated");
				num(w, c.rated, true);
				jwrite_key(w, "pct_of_rated");
				num(w, c.pct_of_rated, true);
				jwrite_end_object(w);
			}
		}
		jwrite_end_array(w);
	}
	/* per run, its step's warning codes (the texts are in the notes) */
	bool warned = false;
	for (unsigned i = 0; i < rep->nruns; i++)
		warned |= row->steps[i]->nwarnings > 0;
	if (warned) {
		jwrite_key(w, "warnings");
		jwrite_begin_array(w);
		for (unsigned i = 0; i < rep->nruns; i++) {
			jwrite_begin_array_inline(w);
			for (unsigned k = 0; k < row->steps[i]->nwarnings; k++)
				jwrite_string(w, row->steps[i]->warnings[k].code);
			jwrite_end_array(w);
		}
		jwrite_end_array(w);
	}
	jwrite_end_object(w);
}

int report_render_json(const struct report *rep, FILE *out)
{
	struct jwrite w;

	/* through json_write.c: well-formed UTF-8, no raw control characters, C locale */
	jwrite_init(&w, out, "  ");
	jwrite_begin_object(&w);
	jwrite_kstr(&w, "format", REPORT_FORMAT);
	jwrite_ku64(&w, "version", REPORT_VERSION);
	jwrite_kstr(&w, "title", rep->title);
	jwrite_key(&w, "runs");
	runs_json(&w, rep);
	jwrite_key(&w, "metrics");
	jwrite_begin_array(&w);
	for (unsigned m = 0; m < RM_COUNT; m++) {
		if (!(rep->metric_mask & (1u << m)))
			continue;
		jwrite_begin_object(&w);
		jwrite_kstr(&w, "name", report_metric_info[m].name);
		jwrite_kstr(&w, "title", report_metric_info[m].title);
		jwrite_kstr(&w, "unit", report_metric_info[m].unit);
		jwrite_key(&w, "higher_is_better");
		jwrite_bool(&w, report_metric_info[m].higher_better);
		jwrite_end_object(&w);
	}
	jwrite_end_array(&w);
	jwrite_key(&w, "rows");
	jwrite_begin_array(&w);
	for (unsigned r = 0; r < rep->nrows; r++)
		row_json(&w, rep, r);
	jwrite_end_array(&w);
	comparability_json(&w, rep);
	jwrite_key(&w, "applications");
	report_app_json(rep, &w);
	jwrite_key(&w, "notes");
	jwrite_begin_array(&w);
	for (unsigned i = 0; i < rep->nnotes; i++)
		jwrite_string(&w, rep->notes[i]);
	jwrite_end_array(&w);
	jwrite_end_object(&w);
	return jwrite_finish(&w);
}
