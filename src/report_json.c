// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON for tools: the comparison model as data ("drivebench-compare", versioned like
 * every saved format). Values are in each metric's unit; a run without a value is null.
 */
#include "report.h"

#include <errno.h>
#include <math.h>

#include <json-c/json.h>

#include "json_write.h"
#include "result_io.h"

static struct json_object *num(double v, bool present)
{
	return present && isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *runs_json(const struct report *rep)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < rep->nruns; i++) {
		const struct result *r = rep->runs[i].res;
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "label", json_object_new_string(rep->runs[i].label));
		json_object_object_add(o, "path", json_object_new_string(r->path));
		json_object_object_add(o, "model", json_object_new_string(result_drive_model(r)));
		json_object_object_add(o, "firmware",
				       json_object_new_string(result_drive_firmware(r)));
		json_object_object_add(o, "capacity_bytes",
				       json_object_new_uint64(result_capacity_bytes(r)));
		json_object_object_add(o, "target", json_object_new_string(result_target_path(r)));
		json_object_object_add(o, "preset", json_object_new_string(r->preset_name));
		json_object_object_add(o, "started", json_object_new_string(r->started));
		json_object_object_add(o, "status",
				       json_object_new_string(result_status_name[r->status]));
		json_object_object_add(o, "unshared_steps",
				       json_object_new_int((int)rep->runs[i].nunshared));
		if (rep->runs[i].spec)
			json_object_object_add(o, "spec",
					       json_object_new_string(rep->runs[i].spec->path));
		json_object_array_add(a, o);
	}
	return a;
}

static const char *const dir_name[NDIR] = {
	[DIR_READ] = "read",
	[DIR_WRITE] = "write",
	[DIR_ALL] = "all",
};

static struct json_object *rows_json(const struct report *rep)
{
	struct json_object *a = json_object_new_array();

	for (unsigned r = 0; r < rep->nrows; r++) {
		const struct report_row *row = &rep->rows[r];
		const struct workload *wl = &row->steps[0]->wl;
		struct json_object *o = json_object_new_object(), *vals = json_object_new_object();
		struct json_object *rated = NULL;
		char split[WL_MAX_SPLIT * 24];

		json_object_object_add(o, "group",
				       json_object_new_string(rep->groups[row->group].title));
		json_object_object_add(o, "step", json_object_new_string(row->name));
		json_object_object_add(o, "direction", json_object_new_string(dir_name[row->dir]));
		json_object_object_add(o, "pattern",
				       json_object_new_string(wl_pattern_name[wl->pattern]));
		if (wl->nsplit)
			json_object_object_add(o, "bssplit",
					       json_object_new_string(workload_fmt_bssplit(
						       wl, split, sizeof(split))));
		else
			json_object_object_add(o, "bs", json_object_new_uint64(wl->bs));
		json_object_object_add(o, "read_pct", json_object_new_int((int)wl->read_pct));
		json_object_object_add(o, "threads", json_object_new_int((int)wl->threads));
		json_object_object_add(o, "qdepth", json_object_new_int((int)wl->qdepth));
		json_object_object_add(o, "rate_iops", json_object_new_uint64(wl->rate_iops));
		for (unsigned m = 0; m < RM_COUNT; m++) {
			if (!(rep->metric_mask & (1u << m)))
				continue;
			struct json_object *per_run = json_object_new_array();
			for (unsigned i = 0; i < rep->nruns; i++) {
				struct report_cell c =
					report_cell(rep, r, i, (enum report_metric)m);
				json_object_array_add(per_run, num(c.value, c.present));
				if (c.present && c.rated > 0) {
					struct json_object *ro = json_object_new_object();
					if (!rated)
						rated = json_object_new_array();
					json_object_object_add(ro, "run",
							       json_object_new_int((int)i));
					json_object_object_add(
						ro, "metric",
						json_object_new_string(report_metric_info[m].name));
					json_object_object_add(ro, "rated", num(c.rated, true));
					json_object_object_add(ro, "pct_of_rated",
							       num(c.pct_of_rated, true));
					json_object_array_add(rated, ro);
				}
			}
			json_object_object_add(vals, report_metric_info[m].name, per_run);
		}
		json_object_object_add(o, "values", vals);
		if (rated)
			json_object_object_add(o, "rated", rated);
		/* per run, its step's warning codes (the texts are in the notes) */
		struct json_object *warn = NULL;
		for (unsigned i = 0; i < rep->nruns; i++)
			if (row->steps[i]->nwarnings && !warn)
				warn = json_object_new_array();
		for (unsigned i = 0; warn && i < rep->nruns; i++) {
			struct json_object *codes = json_object_new_array();
			for (unsigned w = 0; w < row->steps[i]->nwarnings; w++)
				json_object_array_add(
					codes, json_object_new_string(row->steps[i]->warnings[w].code));
			json_object_array_add(warn, codes);
		}
		if (warn)
			json_object_object_add(o, "warnings", warn);
		json_object_array_add(a, o);
	}
	return a;
}

int report_render_json(const struct report *rep, FILE *out)
{
	struct json_object *o = json_object_new_object(), *metrics, *notes;

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "format", json_object_new_string(REPORT_FORMAT));
	json_object_object_add(o, "version", json_object_new_int(REPORT_VERSION));
	json_object_object_add(o, "title", json_object_new_string(rep->title));
	json_object_object_add(o, "runs", runs_json(rep));
	metrics = json_object_new_array();
	for (unsigned m = 0; m < RM_COUNT; m++) {
		if (!(rep->metric_mask & (1u << m)))
			continue;
		struct json_object *mo = json_object_new_object();
		json_object_object_add(mo, "name",
				       json_object_new_string(report_metric_info[m].name));
		json_object_object_add(mo, "title",
				       json_object_new_string(report_metric_info[m].title));
		json_object_object_add(mo, "unit",
				       json_object_new_string(report_metric_info[m].unit));
		json_object_object_add(
			mo, "higher_is_better",
			json_object_new_boolean(report_metric_info[m].higher_better));
		json_object_array_add(metrics, mo);
	}
	json_object_object_add(o, "metrics", metrics);
	json_object_object_add(o, "rows", rows_json(rep));
	notes = json_object_new_array();
	for (unsigned i = 0; i < rep->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(rep->notes[i]));
	json_object_object_add(o, "notes", notes);
	/* through json_write.c: well-formed UTF-8, no raw control characters, C locale */
	struct jwrite w;
	jwrite_init(&w, out, "  ");
	jwrite_json(&w, o);
	json_object_put(o);
	return jwrite_finish(&w);
}
