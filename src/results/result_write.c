// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing and saving result files (result.h: the format). */
#include "result.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fileio.h"
#include "json_read.h"
#include "json_write.h"
#include "result_int.h"
#include "result_io.h"
#include "text.h"
#include "units.h"
#include "version.h"

/* ---- writing --------------------------------------------------------------------- */

static void write_dir(struct jwrite *w, const struct dir_stats *d)
{
	jwrite_begin_object(w);
	for (unsigned f = 0; f < NDF; f++) {
		jwrite_key(w, result_dfield[f].key);
		if (result_dfield[f].is_double)
			jwrite_double(w, df_get_dbl(d, (enum dfield)f));
		else
			jwrite_u64(w, df_get_u64(d, (enum dfield)f));
	}
	jwrite_end_object(w);
}

static void write_sample(struct jwrite *w, const struct sample *s)
{
	jwrite_begin_object(w);
	jwrite_ku64(w, "index", s->index);
	jwrite_ku64(w, "start_ns", s->start_ns);
	jwrite_ku64(w, "dur_ns", s->dur_ns);
	if (s->host_stall_ns)
		jwrite_ku64(w, "host_stall_ns", s->host_stall_ns);
	for (unsigned d = 0; d < NDIR; d++) {
		jwrite_key(w, result_dir_key[d]);
		write_dir(w, &s->d[d]);
	}
	jwrite_end_object(w);
}

/* The ramp or the drain of a step: a sample without index or start. */
static void write_edge(struct jwrite *w, const struct sample *s)
{
	jwrite_begin_object(w);
	jwrite_ku64(w, "dur_ns", s->dur_ns);
	for (unsigned d = 0; d < NDIR; d++) {
		jwrite_key(w, result_dir_key[d]);
		write_dir(w, &s->d[d]);
	}
	jwrite_end_object(w);
}

static void write_workload(struct jwrite *w, const struct workload *wl)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "pattern", wl_pattern_name[wl->pattern]);
	if (wl->nsplit) {
		char split[WL_MAX_SPLIT * 24];
		jwrite_kstr(w, "bssplit", workload_fmt_bssplit(wl, split, sizeof(split)));
	} else {
		jwrite_ku64(w, "bs", wl->bs);
	}
	jwrite_ku64(w, "read_pct", wl->read_pct);
	jwrite_ku64(w, "range_start", wl->range_start);
	jwrite_ku64(w, "range_size", wl->range_size);
	jwrite_kdbl(w, "range_pct", wl->range_pct);
	jwrite_ku64(w, "threads", wl->threads);
	jwrite_ku64(w, "qdepth", wl->qdepth);
	jwrite_ku64(w, "time_ns", wl->time_ns);
	jwrite_ku64(w, "ramp_ns", wl->ramp_ns);
	jwrite_ku64(w, "rate_iops", wl->rate_iops);
	jwrite_kstr(w, "data", wl_data_name[wl->data]);
	jwrite_ku64(w, "compress_pct", wl->compress_pct);
	jwrite_ku64(w, "interval_ns", wl->interval_ns);
	jwrite_ku64(w, "seed", wl->seed);
	if (wl->dist != WL_DIST_UNIFORM) {
		char dist[WL_MAX_ZONES * 8 + 16];
		jwrite_kstr(w, "distribution", workload_fmt_dist(wl, dist, sizeof(dist)));
	}
	if (wl->trace[0]) {
		jwrite_kstr(w, "trace", wl->trace);
		jwrite_kdbl(w, "trace_speed", wl->trace_speed);
	}
	jwrite_end_object(w);
}

/*
 * Version 2 samples: a table with only the columns that say something (see result.h).
 * Two passes over the packed samples: which columns, then the rows.
 */
static void write_samples(struct jwrite *w, const struct result_step *st)
{
	bool need[NCOLS] = {[COL_DUR] = true};
	bool all_is[NDIR] = {[DIR_READ] = true, [DIR_WRITE] = true};
	uint64_t next_start = 0;
	struct sample_iter it;
	struct sample s;

	sample_iter_init(&it, st);
	while (sample_iter_next(&it, &s)) {
		need[COL_INDEX] |= s.index != it.i - 1;
		need[COL_START] |= s.start_ns != next_start;
		need[COL_STALL] |= s.host_stall_ns != 0;
		next_start = s.start_ns + s.dur_ns;
		for (unsigned d = 0; d < NDIR; d++) {
			const struct dir_stats *ds = &s.d[d];
			bool *col = need + COL_DIRS + d * NDF;
			for (unsigned f = 0; f < NDF; f++) {
				if (f == DF_IOPS)
					col[f] |= !result_same_bits(
						ds->iops, stats_per_sec(ds->ios, s.dur_ns));
				else if (f == DF_MBPS)
					col[f] |= !result_same_bits(
						ds->mbps, stats_per_sec(ds->bytes, s.dur_ns) / 1e6);
				else if (result_dfield[f].is_double)
					col[f] |= !result_same_bits(df_get_dbl(ds, (enum dfield)f),
								    0);
				else
					col[f] |= df_get_u64(ds, (enum dfield)f) != 0;
			}
		}
		for (unsigned d = DIR_READ; d <= DIR_WRITE; d++)
			all_is[d] = all_is[d] && !memcmp(&s.d[DIR_ALL], &s.d[d], sizeof(s.d[0]));
	}
	int all_from = st->nsamples && all_is[DIR_READ]	   ? DIR_READ
		       : st->nsamples && all_is[DIR_WRITE] ? DIR_WRITE
							   : -1;
	if (all_from >= 0)
		for (unsigned f = 0; f < NDF; f++)
			need[COL_DIRS + DIR_ALL * NDF + f] = false;

	jwrite_begin_object(w);
	if (all_from >= 0)
		jwrite_kstr(w, "all", result_dir_key[all_from]);
	jwrite_key(w, "fields");
	jwrite_begin_array_inline(w);
	for (unsigned c = 0; c < NCOLS; c++)
		if (need[c])
			jwrite_string(w, result_col_name(c));
	jwrite_end_array(w);
	jwrite_key(w, "rows");
	jwrite_begin_array(w);
	sample_iter_init(&it, st);
	while (sample_iter_next(&it, &s)) {
		jwrite_begin_array_inline(w);
		if (need[COL_INDEX])
			jwrite_u64(w, s.index);
		if (need[COL_START])
			jwrite_u64(w, s.start_ns);
		jwrite_u64(w, s.dur_ns);
		if (need[COL_STALL])
			jwrite_u64(w, s.host_stall_ns);
		for (unsigned c = COL_DIRS; c < NCOLS; c++) {
			if (!need[c])
				continue;
			const struct dir_stats *ds = &s.d[(c - COL_DIRS) / NDF];
			enum dfield f = (enum dfield)((c - COL_DIRS) % NDF);
			if (result_dfield[f].is_double)
				jwrite_double(w, df_get_dbl(ds, f));
			else
				jwrite_u64(w, df_get_u64(ds, f));
		}
		jwrite_end_array(w);
	}
	jwrite_end_array(w);
	jwrite_end_object(w);
}

static void write_hist(struct jwrite *w, const struct step_hist *h)
{
	jwrite_begin_object(w);
	for (unsigned d = 0, k = 0; d < 2; d++) {
		jwrite_key(w, result_dir_key[d]);
		jwrite_begin_array_inline(w);
		for (unsigned i = 0; i < h->n[d]; i++, k++) {
			jwrite_begin_array(w);
			jwrite_u64(w, h->pair[k].bucket);
			jwrite_u64(w, h->pair[k].count);
			jwrite_end_array(w);
		}
		jwrite_end_array(w);
	}
	jwrite_end_object(w);
}

static void write_cpu(struct jwrite *w, const struct step_cpu *c)
{
	jwrite_begin_object(w);
	jwrite_kdbl(w, "process_user_pct", c->proc_user_pct);
	jwrite_kdbl(w, "process_system_pct", c->proc_system_pct);
	jwrite_kdbl(w, "host_user_pct", c->host_user_pct);
	jwrite_kdbl(w, "host_system_pct", c->host_system_pct);
	jwrite_kdbl(w, "host_iowait_pct", c->host_iowait_pct);
	jwrite_ku64(w, "cpus", c->cpus);
	jwrite_end_object(w);
}

static void write_app(struct jwrite *w, const struct step_app *a)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "tool", a->tool);
	jwrite_key(w, "load");
	jwrite_bool(w, a->load);
	jwrite_ku64(w, "threads", a->threads);
	jwrite_kdbl(w, "seconds", a->seconds);
	jwrite_kdbl(w, "tps", a->tps);
	jwrite_ku64(w, "transactions", a->transactions);
	jwrite_ku64(w, "errors", a->errors);
	jwrite_ku64(w, "reconnects", a->reconnects);
	jwrite_kdbl(w, "lat_avg_ms", a->lat_avg_ms);
	jwrite_kdbl(w, "lat_p95_ms", a->lat_p95_ms);
	jwrite_kdbl(w, "lat_p99_ms", a->lat_p99_ms);
	jwrite_kdbl(w, "lat_max_ms", a->lat_max_ms);
	jwrite_end_object(w);
}

static void write_warnings(struct jwrite *w, const struct result_step *s)
{
	jwrite_begin_array(w);
	for (unsigned i = 0; i < s->nwarnings; i++) {
		jwrite_begin_object(w);
		jwrite_kstr(w, "code", s->warnings[i].code);
		jwrite_kstr(w, "text", s->warnings[i].text);
		jwrite_end_object(w);
	}
	jwrite_end_array(w);
}

static void write_drive(struct jwrite *w, const struct step_drive *d)
{
	jwrite_begin_object(w);
	if (d->has_written)
		jwrite_ku64(w, "host_written_bytes", d->written_bytes);
	if (d->has_temp) {
		jwrite_key(w, "temp_max_c");
		jwrite_i64(w, d->temp_max_c);
	}
	jwrite_end_object(w);
}

/*
 * A step, or (stream true) one of a step's streams: the same object, with "target" when
 * the run had several targets (with_target) and "share_pct", and never "streams".
 */
static void write_step(struct jwrite *w, const struct result_step *s, bool stream, bool with_target)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "label", s->label);
	if (stream && with_target)
		jwrite_ku64(w, "target", s->target_index);
	if (stream && s->share_pct > 0)
		jwrite_kdbl(w, "share_pct", s->share_pct);
	jwrite_key(w, "workload");
	write_workload(w, &s->wl);
	if (s->rate_pct > 0)
		jwrite_kdbl(w, "rate_pct", s->rate_pct);
	jwrite_kstr(w, "status", result_status_name[s->status]);
	if (s->error[0]) {
		jwrite_kstr(w, "error", s->error);
		jwrite_ku64(w, "error_offset", s->error_offset);
	}
	jwrite_kstr(w, "engine", s->engine);
	if (step_def_known(&s->def)) {
		jwrite_key(w, "definition");
		step_def_write(w, &s->def);
	}
	if (s->app.used) {
		jwrite_key(w, "app");
		write_app(w, &s->app);
	}
	if (s->cpu.measured) {
		jwrite_key(w, "cpu");
		write_cpu(w, &s->cpu);
	}
	if (s->nwarnings) {
		jwrite_key(w, "warnings");
		write_warnings(w, s);
	}
	jwrite_key(w, "summary");
	write_sample(w, &s->summary);
	if (s->drain.d[DIR_ALL].ios || s->drain.dur_ns) {
		jwrite_key(w, "drain");
		write_edge(w, &s->drain);
	}
	if (s->ramp.d[DIR_ALL].ios) {
		jwrite_key(w, "ramp");
		write_edge(w, &s->ramp);
	}
	if (s->replay.trace_ios) {
		jwrite_key(w, "replay");
		result_write_replay(w, &s->replay);
	}
	if (s->drive.has_written || s->drive.has_temp) {
		jwrite_key(w, "drive");
		write_drive(w, &s->drive);
	}
	if (!stream && s->nstreams) {
		jwrite_key(w, "streams");
		jwrite_begin_array(w);
		for (unsigned i = 0; i < s->nstreams; i++)
			write_step(w, &s->streams[i], true, with_target);
		jwrite_end_array(w);
	}
	jwrite_key(w, "samples");
	write_samples(w, s);
	if (s->hist) {
		jwrite_key(w, "hist");
		write_hist(w, s->hist);
	}
	jwrite_end_object(w);
}

/* A replay's figures (engine.h, struct replay_stats). */
void result_write_replay(struct jwrite *w, const struct replay_stats *r)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "mode", r->timed ? "timed" : "fast");
	jwrite_ku64(w, "qdepth", r->qdepth);
	jwrite_ku64(w, "trace_ios", r->trace_ios);
	jwrite_ku64(w, "issued", r->issued);
	jwrite_ku64(w, "flushes", r->flushes);
	jwrite_ku64(w, "discards", r->discards);
	jwrite_ku64(w, "discard_bytes", r->discard_bytes);
	if (r->timed) {
		jwrite_kdbl(w, "lag_mean_ns", r->lag_mean_ns);
		jwrite_ku64(w, "lag_max_ns", r->lag_max_ns);
		jwrite_ku64(w, "late_ios", r->late_ios);
	}
	jwrite_end_object(w);
}

void result_write_steady(struct jwrite *w, const struct steady_info *st)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "tracked", st->tracked);
	jwrite_ku64(w, "window", st->window);
	jwrite_kdbl(w, "data_limit_pct", st->data_limit_pct);
	jwrite_kdbl(w, "slope_limit_pct", st->slope_limit_pct);
	jwrite_ku64(w, "max_rounds", st->max_rounds);
	jwrite_key(w, "reached");
	jwrite_bool(w, st->reached);
	jwrite_ku64(w, "round", st->round);
	jwrite_kdbl(w, "data_excursion_pct", st->data_excursion_pct);
	jwrite_kdbl(w, "slope_excursion_pct", st->slope_excursion_pct);
	jwrite_kstr(w, "mode", st->fixed ? "fixed" : "until-steady");
	jwrite_ku64(w, "first_round", st->first_round);
	jwrite_end_object(w);
}

static void write_phase(struct jwrite *w, const struct result_phase *ph, bool with_target)
{
	jwrite_begin_object(w);
	jwrite_kstr(w, "name", ph->name);
	jwrite_kstr(w, "kind", phase_kind_name[ph->kind]);
	jwrite_kstr(w, "status", result_status_name[ph->status]);
	if (ph->steady.used) {
		jwrite_key(w, "steady");
		result_write_steady(w, &ph->steady);
	}
	if (ph->skipped[0])
		jwrite_kstr(w, "skipped", ph->skipped);
	jwrite_key(w, "steps");
	jwrite_begin_array(w);
	for (unsigned i = 0; i < ph->nsteps; i++)
		write_step(w, &ph->steps[i], false, with_target);
	jwrite_end_array(w);
	jwrite_end_object(w);
}

static void write_record(struct jwrite *w, const char *key, struct json_object *o)
{
	jwrite_key(w, key);
	if (o && json_object_is_type(o, json_type_object)) {
		jwrite_json(w, o);
	} else {
		jwrite_begin_object(w);
		jwrite_end_object(w);
	}
}

int result_write(const struct result *r, FILE *out)
{
	bool with_target = r->targets && json_object_is_type(r->targets, json_type_array);
	struct jwrite w;

	jwrite_init(&w, out, "\t");
	jwrite_begin_object(&w);
	jwrite_kstr(&w, "format", RESULT_FORMAT);
	jwrite_ku64(&w, "version", RESULT_VERSION);
	jwrite_key(&w, "tool");
	jwrite_begin_object(&w);
	jwrite_kstr(&w, "name", "drivebench");
	jwrite_kstr(&w, "version", r->tool_version[0] ? r->tool_version : DB_VERSION);
	jwrite_end_object(&w);
	jwrite_kstr(&w, "status", result_status_name[r->status]);
	if (r->error[0])
		jwrite_kstr(&w, "error", r->error);
	jwrite_kstr(&w, "started", r->started);
	if (r->ended[0])
		jwrite_kstr(&w, "ended", r->ended);
	if (r->label[0])
		jwrite_kstr(&w, "label", r->label);
	if (r->note[0])
		jwrite_kstr(&w, "note", r->note);
	write_record(&w, "host", r->host);
	write_record(&w, "target", r->target);
	if (with_target) {
		jwrite_key(&w, "targets");
		jwrite_json(&w, r->targets);
	}
	if (r->preset_name[0] || r->preset_text) {
		jwrite_key(&w, "preset");
		jwrite_begin_object(&w);
		jwrite_kstr(&w, "name", r->preset_name);
		jwrite_kstr(&w, "source", r->preset_source);
		jwrite_kstr(&w, "text", r->preset_text ? r->preset_text : "");
		jwrite_kdbl(&w, "scale", r->scale);
		jwrite_end_object(&w);
	}
	jwrite_key(&w, "phases");
	jwrite_begin_array(&w);
	for (unsigned i = 0; i < r->nphases; i++)
		write_phase(&w, &r->phases[i], with_target);
	jwrite_end_array(&w);
	jwrite_end_object(&w);
	return jwrite_finish(&w);
}
