// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What reports say of the host and the targets of a run, typed (result.h: struct
 * result_host, struct result_target, struct result_health): read once out of the json-c
 * records the file keeps ("host", "target", "targets", the first target's "health") when
 * a result is loaded, started or imported. The records stay as they are, for writing the
 * file; the renderers read only these summaries. Each value is taken as the renderers took
 * it from the records before: a string only where they wanted a string, a number's text
 * where they printed the record's value as it stood.
 */
#include "result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "result_int.h"
#include "text.h"

/* A member of a record as text: a string as it is, another value as JSON; "" absent or null. */
static const char *member_text(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) && !json_object_is_type(v, json_type_null))
		return json_object_get_string(v);
	return "";
}

/* member_text() into buf, cut to fit. */
static void record_text(char *buf, size_t len, struct json_object *o, const char *key)
{
	text_copy(buf, len, member_text(o, key));
}

/* A member that is a string; "" absent or another type. */
static void record_str(char *buf, size_t len, struct json_object *o, const char *key)
{
	struct json_object *v;

	buf[0] = '\0';
	if (o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		text_copy(buf, len, json_object_get_string(v));
}

/* A member that is a number, as a count (negative: 0); 0 absent or another type. */
static uint64_t record_u64(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) &&
	    (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return json_object_get_uint64(v);
	return 0;
}

/* A member that is a number from 0 to 2^32-1; 0 otherwise. */
static uint32_t record_u32(struct json_object *o, const char *key)
{
	uint64_t v = record_u64(o, key);

	return v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* A member that is an object, or NULL. */
static struct json_object *record_obj(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_object))
		return v;
	return NULL;
}

static void host_summarize(struct result *r)
{
	struct result_host *h = &r->host_summary;

	record_text(h->hostname, sizeof(h->hostname), r->host, "hostname");
	record_text(h->kernel, sizeof(h->kernel), r->host, "kernel");
	record_text(h->cpu, sizeof(h->cpu), r->host, "cpu");
	record_text(h->cpus, sizeof(h->cpus), r->host, "cpus");
}

/* A drive string, falling back to the NVMe controller's copy (drive.h: "nvme"). */
static void drive_str(char *buf, size_t len, struct json_object *drive, const char *key)
{
	record_str(buf, len, drive, key);
	if (!buf[0] && drive)
		record_str(buf, len, record_obj(drive, "nvme"), key);
}

/*
 * The health record's warnings ("warnings": [{"phase", "text"}, ...]), in one block: the
 * array, then their strings (as long as the record's: a record holds any number). 0 or
 * -ENOMEM.
 */
static int health_warnings(struct result_health *hs, struct json_object *h)
{
	struct json_object *arr;
	size_t n, bytes = 0;

	if (!json_object_object_get_ex(h, "warnings", &arr) ||
	    !json_object_is_type(arr, json_type_array) || !(n = json_object_array_length(arr)))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *w = json_object_array_get_idx(arr, i);
		bytes += strlen(member_text(w, "phase")) + strlen(member_text(w, "text")) + 2;
	}
	hs->warnings = malloc(n * sizeof(*hs->warnings) + bytes);
	if (!hs->warnings)
		return -ENOMEM;
	char *p = (char *)(hs->warnings + n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *w = json_object_array_get_idx(arr, i);
		struct result_health_warning *hw = &hs->warnings[hs->nwarnings++];
		hw->phase = p;
		p = stpcpy(p, member_text(w, "phase")) + 1;
		hw->text = p;
		p = stpcpy(p, member_text(w, "text")) + 1;
	}
	return 0;
}

/* The target record's "health" (health_watch.h) summarized. 0 or -ENOMEM. */
static int health_summarize(struct result_health *hs, struct json_object *target)
{
	struct json_object *h, *before, *delta;
	char written[64];

	if (!target || !json_object_object_get_ex(target, "health", &h))
		return 0;
	hs->recorded = true;
	if (!h)
		return 0;
	/* "before" alone: the drive was not watched, and its note says why */
	if (json_object_object_get_ex(h, "before", &before) &&
	    !json_object_object_get_ex(h, "after", NULL)) {
		record_text(hs->note, sizeof(hs->note), before, "note");
		if (hs->note[0])
			return 0;
	}
	struct json_object *temp = record_obj(h, "temperature");
	record_text(hs->temp_min_c, sizeof(hs->temp_min_c), temp, "min_c");
	record_text(hs->temp_max_c, sizeof(hs->temp_max_c), temp, "max_c");
	if (json_object_object_get_ex(h, "delta", &delta) && delta) {
		char throttled[8];
		hs->has_delta = true;
		record_text(written, sizeof(written), delta, "data_written_bytes");
		hs->has_written = written[0] != '\0';
		hs->written_bytes = strtoull(written, NULL, 10);
		record_text(hs->wear_pct, sizeof(hs->wear_pct), delta, "percentage_used");
		record_text(throttled, sizeof(throttled), delta, "throttled");
		hs->throttled = !strcmp(throttled, "true");
	}
	return health_warnings(hs, h);
}

/* One target record summarized (t NULL or not an object: all empty). 0 or -ENOMEM. */
static int target_summarize(struct result_target *ts, struct json_object *t)
{
	struct json_object *drive = record_obj(t, "drive");

	record_str(ts->path, sizeof(ts->path), t, "path");
	record_text(ts->kind, sizeof(ts->kind), t, "kind");
	ts->size = record_u64(t, "size");
	ts->lbs = record_u32(t, "lbs");
	ts->pbs = record_u32(t, "pbs");
	drive_str(ts->model, sizeof(ts->model), drive, "model");
	drive_str(ts->serial, sizeof(ts->serial), drive, "serial");
	drive_str(ts->firmware, sizeof(ts->firmware), drive, "firmware");
	ts->capacity_bytes = record_u64(drive, "capacity_bytes");
	return health_summarize(&ts->health, t);
}

static void targets_free(struct result_target *ts, unsigned n)
{
	for (unsigned i = 0; ts && i < n; i++)
		free(ts[i].health.warnings);
	free(ts);
}

void result_summary_free(struct result *r)
{
	targets_free(r->target_summary, r->ntarget_summary);
	r->target_summary = NULL;
	r->ntarget_summary = 0;
}

/* Out of memory, the summaries stay as they were: a run's reports keep what they had. */
int result_summarize(struct result *r)
{
	unsigned n = r->targets && json_object_is_type(r->targets, json_type_array)
			     ? (unsigned)json_object_array_length(r->targets)
			     : 0;
	struct result_target *ts = calloc(n ? n : 1, sizeof(*ts));

	host_summarize(r);
	if (!ts)
		return -ENOMEM;
	n = n ? n : 1;
	/* "targets" repeats "target" first (the same record in every file written) */
	for (unsigned i = 0; i < n; i++) {
		struct json_object *t = i ? json_object_array_get_idx(r->targets, i) : r->target;
		if (target_summarize(&ts[i], t)) {
			targets_free(ts, i + 1);
			return -ENOMEM;
		}
	}
	result_summary_free(r);
	r->target_summary = ts;
	r->ntarget_summary = n;
	return 0;
}

/* ---- the summaries, read -------------------------------------------------------- */

unsigned result_ntargets(const struct result *r)
{
	return r->ntarget_summary ? r->ntarget_summary : 1;
}

const struct result_target *result_nth_target(const struct result *r, unsigned i)
{
	static const struct result_target none;

	if (i < r->ntarget_summary)
		return &r->target_summary[i];
	return i ? NULL : &none;
}

const char *result_drive_model(const struct result *r)
{
	return result_nth_target(r, 0)->model;
}

const char *result_drive_firmware(const struct result *r)
{
	return result_nth_target(r, 0)->firmware;
}

const char *result_drive_serial(const struct result *r)
{
	return result_nth_target(r, 0)->serial;
}

const char *result_target_path(const struct result *r)
{
	return result_nth_target(r, 0)->path;
}

uint64_t result_capacity_bytes(const struct result *r)
{
	const struct result_target *t = result_nth_target(r, 0);

	return t->capacity_bytes ? t->capacity_bytes : t->size;
}
