// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading result files: the pull reader over a "drivebench-result" document, its
 * phases, steps and streams. The value readers are in result_load_read.c, the samples
 * and histograms in result_load_samples.c (result_load_int.h).
 */
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "engine.h"
#include "fileio.h"
#include "json_read.h"
#include "result_int.h"
#include "result_load_int.h"
#include "text.h"
#include "version.h"

/*
 * [{"code", "text"}, ...]: each kept as it is, codes this drivebench does not know too (a
 * newer one wrote them); a code given twice is kept once, with its last text.
 */
static void load_warnings(struct loader *L, struct result_step *st)
{
	char k[16];

	if (!jread_get_array(&L->j, "warnings"))
		return;
	for (unsigned i = 0; jread_element(&L->j); i++) {
		char code[sizeof(st->warnings[0].code)] = "";
		char text[sizeof(st->warnings[0].text)] = "";
		int ret;

		if (jread_peek(&L->j) != JR_OBJECT) {
			if (jread_peek(&L->j) == JR_BAD)
				jread_skip(&L->j);
			jread_bad(&L->j, "warnings[%u] should be an object", i);
			return;
		}
		if (!jread_object(&L->j))
			return;
		while (jread_member(&L->j, k, sizeof(k))) {
			if (!strcmp(k, "code"))
				jread_get_string(&L->j, k, code, sizeof(code));
			else if (!strcmp(k, "text"))
				jread_get_string(&L->j, k, text, sizeof(text));
			else
				jread_skip(&L->j);
		}
		if (L->j.ret)
			return;
		if (!code[0]) {
			jread_bad(&L->j, "warnings[%u] has no \"code\"", i);
			return;
		}
		ret = result_add_warning(st, code, text);
		if (ret == -E2BIG) {
			jread_bad(&L->j, "more than %u warnings in a step (the limit)",
				  RESULT_MAX_WARNINGS);
			return;
		}
		if (ret) {
			loader_nomem(L);
			return;
		}
	}
}

static void load_step_drive(struct loader *L, struct step_drive *d)
{
	char k[32];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "drive"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "host_written_bytes")) {
			d->written_bytes = jread_get_u64(&L->j, k);
			d->has_written = true;
		} else if (!strcmp(k, "temp_max_c")) {
			/* degrees Celsius: below zero is a temperature, past 1000 is not */
			struct jread_num n;
			if (jread_number(&L->j, &n)) {
				jread_wrong_type(&L->j, k, "a number");
			} else if (!isfinite(n.d) || n.d < -273 || n.d > 1000) {
				jread_bad(&L->j, "\"%s\" is out of range (-273 to 1000)", k);
			} else {
				d->temp_max_c = (int)n.d;
				d->has_temp = true;
			}
		} else {
			jread_skip(&L->j);
		}
	}
}

static void load_cpu(struct loader *L, struct step_cpu *c)
{
	char k[32];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "cpu"))
		return;
	c->measured = true;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "process_user_pct"))
			c->proc_user_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "process_system_pct"))
			c->proc_system_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "host_user_pct"))
			c->host_user_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "host_system_pct"))
			c->host_system_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "host_iowait_pct"))
			c->host_iowait_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "cpus"))
			c->cpus = jread_get_uint(&L->j, k);
		else
			jread_skip(&L->j);
	}
}

static void load_app(struct loader *L, struct step_app *a)
{
	char k[32];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "app"))
		return;
	a->used = true;
	while (jread_member(&L->j, k, sizeof(k))) {
		double *d = !strcmp(k, "seconds")      ? &a->seconds
			    : !strcmp(k, "tps")	       ? &a->tps
			    : !strcmp(k, "lat_avg_ms") ? &a->lat_avg_ms
			    : !strcmp(k, "lat_p95_ms") ? &a->lat_p95_ms
			    : !strcmp(k, "lat_p99_ms") ? &a->lat_p99_ms
			    : !strcmp(k, "lat_max_ms") ? &a->lat_max_ms
						       : NULL;
		uint64_t *u = !strcmp(k, "transactions") ? &a->transactions
			      : !strcmp(k, "errors")	 ? &a->errors
			      : !strcmp(k, "reconnects") ? &a->reconnects
							 : NULL;
		if (d)
			*d = jread_get_double(&L->j, k);
		else if (u)
			*u = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "threads"))
			a->threads = jread_get_uint(&L->j, k);
		else if (!strcmp(k, "tool"))
			jread_get_string(&L->j, k, a->tool, sizeof(a->tool));
		else if (!strcmp(k, "load"))
			a->load = jread_get_bool(&L->j, k);
		else
			jread_skip(&L->j);
	}
}

/* A step's definition: fields it does not know (a newer drivebench's) are skipped. */
static void load_def(struct loader *L, struct step_def *d)
{
	char k[32], v[256];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "definition"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		int f = step_def_find(k);
		if (f < 0) {
			jread_skip(&L->j);
			continue;
		}
		if (step_def_info[f].number)
			snprintf(v, sizeof(v), "%.17g", jread_get_double(&L->j, k));
		else
			jread_get_string(&L->j, k, v, sizeof(v));
		/* a value it does not know stays unknown */
		step_def_parse(d, (enum step_def_field)f, v);
	}
}

static void load_streams(struct loader *L, struct result_step *st);

/* A step, or (stream true) one of a step's streams, which has no "streams" of its own. */
static void load_step(struct loader *L, struct result_step *s, bool stream)
{
	char k[32];

	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "label")) {
			jread_get_string(&L->j, k, s->label, sizeof(s->label));
		} else if (stream && !strcmp(k, "target")) {
			s->target_index = jread_get_uint(&L->j, k);
		} else if (stream && !strcmp(k, "share_pct")) {
			s->share_pct = jread_get_double(&L->j, k);
		} else if (!strcmp(k, "streams")) {
			if (stream)
				jread_bad(&L->j, "a stream has no \"streams\" of its own");
			else if (!jread_null(&L->j))
				load_streams(L, s);
		} else if (!strcmp(k, "workload")) {
			loader_workload(L, &s->wl);
		} else if (!strcmp(k, "rate_pct")) {
			s->rate_pct = jread_get_double(&L->j, k);
		} else if (!strcmp(k, "status")) {
			s->status = (enum result_status)jread_get_enum(&L->j, k, result_status_name,
								       NSTATUS, RS_COMPLETE);
		} else if (!strcmp(k, "error")) {
			jread_get_string(&L->j, k, s->error, sizeof(s->error));
		} else if (!strcmp(k, "error_offset")) {
			s->error_offset = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "engine")) {
			jread_get_string(&L->j, k, s->engine, sizeof(s->engine));
		} else if (!strcmp(k, "definition")) {
			load_def(L, &s->def);
		} else if (!strcmp(k, "cpu")) {
			load_cpu(L, &s->cpu);
		} else if (!strcmp(k, "app")) {
			load_app(L, &s->app);
		} else if (!strcmp(k, "summary")) {
			loader_sample(L, k, &s->summary);
		} else if (!strcmp(k, "drain")) {
			loader_sample(L, k, &s->drain);
		} else if (!strcmp(k, "ramp")) {
			loader_sample(L, k, &s->ramp);
		} else if (!strcmp(k, "replay")) {
			loader_replay(L, &s->replay);
		} else if (!strcmp(k, "drive")) {
			load_step_drive(L, &s->drive);
		} else if (!strcmp(k, "warnings")) {
			if (!jread_null(&L->j))
				load_warnings(L, s);
		} else if (!strcmp(k, "samples")) {
			if (jread_null(&L->j))
				continue;
			if (L->version >= 2)
				loader_samples_v2(L, s);
			else if (L->what & RESULT_LOAD_SAMPLES)
				loader_samples_v1(L, s);
			else
				jread_skip(&L->j);
			result_pack_shrink(&s->pack);
		} else if (!strcmp(k, "hist")) {
			if (!(L->what & RESULT_LOAD_HIST))
				jread_skip(&L->j);
			else if (!jread_null(&L->j))
				loader_hist(L, s);
		} else {
			jread_skip(&L->j);
		}
	}
	/* a definition from before "percentiles": they are of the mean's kind, unless the
	   import warned they are clat's (fio without lat_percentiles=1) */
	if (s->def.lat && !s->def.pct_lat)
		s->def.pct_lat = result_step_warning(s, step_warning_code[SW_CLAT_PERCENTILES])
					 ? SL_COMPLETION
					 : s->def.lat;
}

/*
 * A step's streams: step objects, at most ENGINE_MAX_STREAMS, each counted against
 * RESULT_MAX_STEPS as a step is.
 */
static void load_streams(struct loader *L, struct result_step *st)
{
	size_t base = strlen(L->where);

	if (!jread_get_array(&L->j, "streams"))
		return;
	while (jread_element(&L->j)) {
		snprintf(L->where + base, sizeof(L->where) - base, ".streams[%u]", st->nstreams);
		if (jread_peek(&L->j) != JR_OBJECT) {
			jread_bad(&L->j, "should be an object");
			break;
		}
		if (st->nstreams >= ENGINE_MAX_STREAMS) {
			jread_bad(&L->j, "more than %u streams in a step (the limit)",
				  ENGINE_MAX_STREAMS);
			break;
		}
		if (++L->nsteps > RESULT_MAX_STEPS) {
			jread_bad(&L->j, "more than %u steps (the limit), streams counted",
				  RESULT_MAX_STEPS);
			break;
		}
		struct result_step *s = result_step_add_stream(st, "", NULL);
		if (!s) {
			loader_nomem(L);
			break;
		}
		s->status = RS_COMPLETE;
		jread_object(&L->j);
		load_step(L, s, true);
		if (L->j.ret)
			break;
	}
	L->where[base] = '\0';
}

static const char *const steady_mode_name[] = {"until-steady", "fixed"};

static void load_steady(struct loader *L, struct steady_info *st)
{
	char k[32];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "steady"))
		return;
	st->used = true;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "tracked"))
			jread_get_string(&L->j, k, st->tracked, sizeof(st->tracked));
		else if (!strcmp(k, "window"))
			st->window = jread_get_uint(&L->j, k);
		else if (!strcmp(k, "data_limit_pct"))
			st->data_limit_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "slope_limit_pct"))
			st->slope_limit_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "max_rounds"))
			st->max_rounds = jread_get_uint(&L->j, k);
		else if (!strcmp(k, "reached"))
			st->reached = jread_get_bool(&L->j, k);
		else if (!strcmp(k, "round"))
			st->round = jread_get_uint(&L->j, k);
		else if (!strcmp(k, "data_excursion_pct"))
			st->data_excursion_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "slope_excursion_pct"))
			st->slope_excursion_pct = jread_get_double(&L->j, k);
		else if (!strcmp(k, "first_round"))
			st->first_round = jread_get_uint(&L->j, k);
		else if (!strcmp(k, "mode"))
			st->fixed = jread_get_enum(&L->j, k, steady_mode_name, 2, 0) == 1;
		else
			jread_skip(&L->j);
	}
}

static void load_phase(struct loader *L, struct result_phase *ph)
{
	size_t base = strlen(L->where);
	char k[16];

	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "name")) {
			jread_get_string(&L->j, k, ph->name, sizeof(ph->name));
		} else if (!strcmp(k, "kind")) {
			ph->kind = (enum phase_kind)jread_get_enum(&L->j, k, phase_kind_name, NKIND,
								   PH_RUN);
		} else if (!strcmp(k, "status")) {
			ph->status = (enum result_status)jread_get_enum(
				&L->j, k, result_status_name, NSTATUS, RS_COMPLETE);
		} else if (!strcmp(k, "steady")) {
			load_steady(L, &ph->steady);
		} else if (!strcmp(k, "skipped")) {
			jread_get_string(&L->j, k, ph->skipped, sizeof(ph->skipped));
		} else if (!strcmp(k, "steps")) {
			if (jread_null(&L->j) || !jread_get_array(&L->j, k))
				continue;
			while (jread_element(&L->j)) {
				snprintf(L->where + base, sizeof(L->where) - base, ".steps[%u]",
					 ph->nsteps);
				if (jread_peek(&L->j) != JR_OBJECT) {
					jread_bad(&L->j, "should be an object");
					break;
				}
				if (++L->nsteps > RESULT_MAX_STEPS) {
					jread_bad(&L->j,
						  "more than %u steps (the limit), streams counted",
						  RESULT_MAX_STEPS);
					break;
				}
				struct result_step *s = result_add_step(ph, "", NULL);
				if (!s) {
					loader_nomem(L);
					break;
				}
				s->status = RS_COMPLETE;
				jread_object(&L->j);
				load_step(L, s, false);
				if (L->j.ret)
					break;
			}
			L->where[base] = '\0';
		} else {
			jread_skip(&L->j);
		}
	}
}

/*
 * Older versions are read by the same code, which knows where they differ (version 1:
 * samples as an array of objects). RESULT_OLDEST_VERSION is the first released format.
 */
#define RESULT_OLDEST_VERSION 1

/*
 * json-c keeps an escaped NUL ("\u0000") inside a string, where C code would stop
 * reading: such strings are repaired as the reader repairs its own (U+FFFD).
 */
static int repair_tree(struct json_object *o, unsigned depth)
{
	if (depth > JREAD_MAX_DEPTH)
		return 0;
	if (json_object_is_type(o, json_type_string)) {
		const char *s = json_object_get_string(o);
		size_t n = (size_t)json_object_get_string_len(o);
		if (strlen(s) == n && text_utf8_valid(s, n))
			return 0;
		char *fixed = malloc(3 * n + 1);
		size_t k = 0;
		if (!fixed)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			if (s[i]) {
				fixed[k++] = s[i];
			} else {
				memcpy(fixed + k, TEXT_REPLACEMENT, 3);
				k += 3;
			}
		}
		fixed[k] = '\0';
		char *clean = text_utf8_repair(fixed, k, &n);
		free(fixed);
		if (!clean)
			return -ENOMEM;
		json_object_set_string_len(o, clean, (int)n);
		free(clean);
		return 0;
	}
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val)
		{
			(void)key;
			if (repair_tree(val, depth + 1))
				return -ENOMEM;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);
		for (size_t i = 0; i < n; i++)
			if (repair_tree(json_object_array_get_idx(o, i), depth + 1))
				return -ENOMEM;
	}
	return 0;
}

/* "targets": 1 to ENGINE_MAX_STREAMS records, each an object. */
static void check_targets(struct loader *L, struct json_object *o)
{
	size_t n = json_object_array_length(o);

	if (n < 1 || n > ENGINE_MAX_STREAMS) {
		jread_bad(&L->j, "\"targets\" has %zu records (1 to %u)", n, ENGINE_MAX_STREAMS);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(o, i), json_type_object)) {
			jread_bad(&L->j, "targets[%zu] should be an object", i);
			return;
		}
}

/*
 * "host", "target" (objects), "targets" (array: an array of target records): small
 * records kept as json-c objects, for what names a run.
 */
static struct json_object *load_record(struct loader *L, const char *key, bool array)
{
	struct json_tokener *tok;
	struct json_object *o;
	const char *start;
	size_t len;

	if (jread_null(&L->j))
		return NULL;
	if (jread_peek(&L->j) != (array ? JR_ARRAY : JR_OBJECT)) {
		jread_wrong_type(&L->j, key, array ? "an array" : "an object");
		return NULL;
	}
	if (jread_raw(&L->j, &start, &len))
		return NULL;
	if (len > RESULT_MAX_RECORD_BYTES) {
		jread_bad(&L->j, "\"%s\" is %zu bytes, over the limit of %u", key, len,
			  RESULT_MAX_RECORD_BYTES);
		return NULL;
	}
	tok = json_tokener_new_ex(JREAD_MAX_DEPTH);
	if (!tok) {
		loader_nomem(L);
		return NULL;
	}
	o = json_tokener_parse_ex(tok, start, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success)
		jread_bad(&L->j, "\"%s\": %s", key,
			  json_tokener_error_desc(json_tokener_get_error(tok)));
	else if (repair_tree(o, 0))
		loader_nomem(L);
	else if (array)
		check_targets(L, o);
	json_tokener_free(tok);
	if (L->j.ret && o) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

static void load_preset(struct loader *L, struct result *r)
{
	char k[16];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "preset"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "name")) {
			jread_get_string(&L->j, k, r->preset_name, sizeof(r->preset_name));
		} else if (!strcmp(k, "source")) {
			jread_get_string(&L->j, k, r->preset_source, sizeof(r->preset_source));
		} else if (!strcmp(k, "text")) {
			free(r->preset_text);
			r->preset_text = NULL;
			if (jread_null(&L->j))
				continue;
			int ret = jread_string_dup(&L->j, RESULT_MAX_PRESET_BYTES, &r->preset_text,
						   NULL);
			if (ret == -EINVAL && !L->j.ret)
				jread_wrong_type(&L->j, "text", "a string");
		} else if (!strcmp(k, "scale")) {
			r->scale = jread_null(&L->j) ? 1.0 : jread_get_double(&L->j, k);
		} else {
			jread_skip(&L->j);
		}
	}
}

/* "version": an integer this drivebench reads; false (error recorded) when it is not. */
static bool load_version(struct loader *L, struct result *r)
{
	struct jread_num n;

	if (jread_number(&L->j, &n) || !n.integer) {
		jread_bad(&L->j, "format %s without an integer \"version\"", RESULT_FORMAT);
		return false;
	}
	if (!n.negative && n.u > RESULT_VERSION) {
		jread_bad(&L->j,
			  "format version %llu is newer than this drivebench " DB_VERSION
			  " reads (versions %d to %d); use a newer drivebench",
			  (unsigned long long)n.u, RESULT_OLDEST_VERSION, RESULT_VERSION);
		return false;
	}
	if (n.negative || n.u < RESULT_OLDEST_VERSION) {
		jread_bad(&L->j,
			  "format version %s%llu is older than this "
			  "drivebench " DB_VERSION " reads (versions %d to %d)",
			  n.negative ? "-" : "", (unsigned long long)n.u, RESULT_OLDEST_VERSION,
			  RESULT_VERSION);
		return false;
	}
	r->version = L->version = (int)n.u;
	return true;
}

static void load_phases(struct loader *L, struct result *r)
{
	if (jread_null(&L->j) || !jread_get_array(&L->j, "phases"))
		return;
	while (jread_element(&L->j)) {
		snprintf(L->where, sizeof(L->where), "phases[%u]", r->nphases);
		if (jread_peek(&L->j) != JR_OBJECT) {
			jread_bad(&L->j, "should be an object");
			return;
		}
		struct result_phase *ph = result_add_phase(r, "", PH_RUN);
		if (!ph) {
			loader_nomem(L);
			return;
		}
		ph->status = RS_COMPLETE;
		jread_object(&L->j);
		load_phase(L, ph);
		if (L->j.ret)
			return;
	}
	L->where[0] = '\0';
}

static void load_tool(struct loader *L, struct result *r)
{
	char k[16];

	if (jread_null(&L->j) || !jread_get_object(&L->j, "tool"))
		return;
	while (jread_member(&L->j, k, sizeof(k)))
		if (!strcmp(k, "version"))
			jread_get_string(&L->j, k, r->tool_version, sizeof(r->tool_version));
		else
			jread_skip(&L->j);
}

/* Every stream names one of the run's targets: "targets" has it, or it is the only one. */
static void check_stream_targets(struct loader *L, const struct result *r)
{
	unsigned ntargets = r->targets ? (unsigned)json_object_array_length(r->targets) : 1;

	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned i = 0; i < r->phases[p].nsteps; i++) {
			const struct result_step *st = &r->phases[p].steps[i];
			for (unsigned k = 0; k < st->nstreams; k++) {
				if (st->streams[k].target_index < ntargets)
					continue;
				snprintf(L->where, sizeof(L->where),
					 "phases[%u].steps[%u].streams[%u]", p, i, k);
				jread_bad(&L->j,
					  "\"target\" %u is not one of the run's %u target%s",
					  st->streams[k].target_index, ntargets,
					  ntargets == 1 ? "" : "s");
				return;
			}
		}
}

/* One member of the document (not "format" or "version"). */
static void load_member(struct loader *L, struct result *r, const char *k)
{
	if (!strcmp(k, "tool")) {
		load_tool(L, r);
	} else if (!strcmp(k, "status")) {
		r->status = (enum result_status)jread_get_enum(&L->j, k, result_status_name,
							       NSTATUS, RS_INCOMPLETE);
	} else if (!strcmp(k, "error")) {
		jread_get_string(&L->j, k, r->error, sizeof(r->error));
	} else if (!strcmp(k, "started")) {
		jread_get_string(&L->j, k, r->started, sizeof(r->started));
	} else if (!strcmp(k, "ended")) {
		jread_get_string(&L->j, k, r->ended, sizeof(r->ended));
	} else if (!strcmp(k, "label")) {
		jread_get_string(&L->j, k, r->label, sizeof(r->label));
	} else if (!strcmp(k, "note")) {
		jread_get_string(&L->j, k, r->note, sizeof(r->note));
	} else if (!strcmp(k, "host")) {
		if (r->host)
			json_object_put(r->host);
		r->host = load_record(L, k, false);
	} else if (!strcmp(k, "target")) {
		if (r->target)
			json_object_put(r->target);
		r->target = load_record(L, k, false);
	} else if (!strcmp(k, "targets")) {
		if (r->targets)
			json_object_put(r->targets);
		r->targets = load_record(L, k, true);
	} else if (!strcmp(k, "preset")) {
		load_preset(L, r);
	} else {
		jread_skip(&L->j);
	}
}

static void load_root(struct loader *L, struct result *r)
{
	bool have_format = false, have_version = false;
	char k[16];

	if (!jread_object(&L->j))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "format")) {
			char fmt[64];
			if (jread_string(&L->j, fmt, sizeof(fmt))) {
				jread_wrong_type(&L->j, k, "a string");
				return;
			}
			if (strcmp(fmt, RESULT_FORMAT)) {
				jread_bad(
					&L->j,
					"not a drivebench result (format \"%s\", expected \"%s\")",
					fmt, RESULT_FORMAT);
				return;
			}
			have_format = true;
		} else if (!strcmp(k, "version")) {
			if (!load_version(L, r))
				return;
			have_version = true;
		} else if (!strcmp(k, "phases")) {
			/* what the phases hold depends on the version: it comes first */
			if (!have_format) {
				jread_bad(&L->j, "not a drivebench result (no \"format\" field)");
				return;
			}
			if (!have_version) {
				jread_bad(&L->j,
					  "format %s without an integer \"version\" before "
					  "\"phases\"",
					  RESULT_FORMAT);
				return;
			}
			load_phases(L, r);
		} else {
			load_member(L, r, k);
		}
		if (L->j.ret)
			return;
	}
	if (L->j.ret)
		return;
	if (!have_format)
		jread_bad(&L->j, "not a drivebench result (no \"format\" field)");
	else if (!have_version)
		jread_bad(&L->j, "format %s without an integer \"version\"", RESULT_FORMAT);
	else if (jread_peek(&L->j) != JR_END)
		jread_bad(&L->j, "not valid JSON: more after the end of the document");
	else
		check_stream_targets(L, r);
}

int result_load_opts(struct result *r, const char *path, unsigned what, char *err, size_t errlen)
{
	struct loader L = {.what = what};
	char *text = NULL;
	size_t len = 0;
	int ret;

	result_init(r);
	/* every string in it well-formed, once, here */
	ret = fileio_read_text(path, "a result file", RESULT_MAX_FILE_BYTES, &text, &len, err,
			       errlen);
	if (ret)
		return ret;
	jread_init(&L.j, text, len, path, err, errlen);
	L.j.style = &loader_style;
	switch (jread_peek(&L.j)) {
	case JR_OBJECT:
		load_root(&L, r);
		break;
	case JR_END:
	case JR_BAD:
		jread_fail(&L.j, "not valid JSON%s",
			   jread_peek(&L.j) == JR_END ? ": the file ends too early" : "");
		break;
	default:
		jread_fail(&L.j, "not a drivebench result (not a JSON object)");
	}
	ret = L.j.ret;
	if (!ret) {
		if (!r->host)
			r->host = json_object_new_object();
		if (!r->target)
			r->target = json_object_new_object();
		if (!r->host || !r->target || result_summarize(r)) {
			text_fmt(err, errlen, "%s: out of memory", path);
			ret = -ENOMEM;
		}
		/* an import of fio's output: no preset, and a scale nobody knows */
		if (!r->preset_name[0] && !r->preset_text && r->host &&
		    json_object_object_get_ex(r->host, "fio", NULL))
			r->scale = 0;
		text_copy(r->path, sizeof(r->path), path);
	}
	if (ret)
		result_free(r);
	free(text);
	return ret;
}

int result_load(struct result *r, const char *path, char *err, size_t errlen)
{
	return result_load_opts(r, path, RESULT_LOAD_ALL, err, errlen);
}
