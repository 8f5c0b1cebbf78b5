// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading result files: how an error names where a bad value sits, and the readers of
 * the objects steps share (samples, workloads, replays) over the typed readers
 * (json_read.h).
 */
#include "result_load_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "result_int.h"

/* The reader's style (json_read.h): errors name L->where and the samples row, if any. */
static int loader_where(struct jread *j, const char *msg)
{
	const struct loader *L =
		(const struct loader *)((const char *)j - offsetof(struct loader, j));

	if (L->row)
		return jread_fail(j, "%s: samples.rows[%u]: %s", L->where, *L->row, msg);
	return jread_fail(j, "%s%s%s", L->where, L->where[0] ? ": " : "", msg);
}

const struct jread_style loader_style = {.bad = loader_where};

int loader_nomem(struct loader *L)
{
	jread_bad(&L->j, "out of memory");
	L->j.ret = -ENOMEM;
	return L->j.ret;
}

static void load_dir(struct loader *L, const char *key, struct dir_stats *d)
{
	char k[16];

	memset(d, 0, sizeof(*d));
	if (jread_null(&L->j) || !jread_get_object(&L->j, key))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned f;
		for (f = 0; f < NDF && strcmp(k, result_dfield[f].key); f++)
			;
		if (f == NDF)
			jread_skip(&L->j);
		else if (result_dfield[f].is_double)
			*df_dbl(d, (enum dfield)f) = jread_get_double(&L->j, result_dfield[f].key);
		else
			*df_u64(d, (enum dfield)f) = jread_get_u64(&L->j, result_dfield[f].key);
	}
}

/*
 * A sample as an object: a step's summary, its drain and ramp (no index or start), and
 * version 1's interval samples.
 */
void loader_sample(struct loader *L, const char *key, struct sample *s)
{
	char k[16];

	memset(s, 0, sizeof(*s));
	if (jread_null(&L->j) || !jread_get_object(&L->j, key))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		unsigned d;
		if (!strcmp(k, "index")) {
			s->index = jread_get_uint(&L->j, k);
			continue;
		}
		if (!strcmp(k, "start_ns")) {
			s->start_ns = jread_get_u64(&L->j, k);
			continue;
		}
		if (!strcmp(k, "dur_ns")) {
			s->dur_ns = jread_get_u64(&L->j, k);
			continue;
		}
		if (!strcmp(k, "host_stall_ns")) {
			s->host_stall_ns = jread_get_u64(&L->j, k);
			continue;
		}
		for (d = 0; d < NDIR && strcmp(k, result_dir_key[d]); d++)
			;
		if (d < NDIR)
			load_dir(L, k, &s->d[d]);
		else
			jread_skip(&L->j);
	}
}

void loader_workload(struct loader *L, struct workload *wl)
{
	char k[32];

	workload_defaults(wl);
	if (jread_null(&L->j) || !jread_get_object(&L->j, "workload"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "pattern")) {
			wl->pattern = (enum wl_pattern)jread_get_enum(&L->j, k, wl_pattern_name, 2,
								      WL_RANDOM);
		} else if (!strcmp(k, "bssplit")) {
			char split[WL_MAX_SPLIT * 24], msg[256];
			jread_get_string(&L->j, k, split, sizeof(split));
			if (split[0] && workload_parse_bssplit(wl, split, msg, sizeof(msg)))
				jread_bad(&L->j, "bssplit: %s", msg);
		} else if (!strcmp(k, "bs")) {
			uint64_t bs = jread_get_u64(&L->j, k);
			if (bs > UINT32_MAX)
				jread_bad(&L->j, "\"bs\" is out of range (0 to %u)", UINT32_MAX);
			wl->bs = (uint32_t)bs;
		} else if (!strcmp(k, "read_pct")) {
			wl->read_pct = jread_get_uint(&L->j, k);
			if (wl->read_pct > 100)
				jread_bad(&L->j, "read_pct %u is over 100", wl->read_pct);
		} else if (!strcmp(k, "range_start")) {
			wl->range_start = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "range_size")) {
			wl->range_size = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "range_pct")) {
			wl->range_pct = jread_get_double(&L->j, k);
		} else if (!strcmp(k, "threads")) {
			wl->threads = jread_get_uint(&L->j, k);
		} else if (!strcmp(k, "qdepth")) {
			wl->qdepth = jread_get_uint(&L->j, k);
		} else if (!strcmp(k, "time_ns")) {
			wl->time_ns = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "ramp_ns")) {
			wl->ramp_ns = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "rate_iops")) {
			wl->rate_iops = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "data")) {
			wl->data = (enum wl_data)jread_get_enum(&L->j, k, wl_data_name, 3,
								WL_DATA_RANDOM);
		} else if (!strcmp(k, "compress_pct")) {
			wl->compress_pct = jread_get_uint(&L->j, k);
			if (wl->compress_pct > 100)
				jread_bad(&L->j, "compress_pct %u is over 100", wl->compress_pct);
		} else if (!strcmp(k, "interval_ns")) {
			wl->interval_ns = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "seed")) {
			wl->seed = jread_get_u64(&L->j, k);
		} else if (!strcmp(k, "distribution")) {
			char dist[256], msg[256];
			jread_get_string(&L->j, k, dist, sizeof(dist));
			if (workload_parse_dist(wl, dist, msg, sizeof(msg)))
				jread_bad(&L->j, "%s", msg);
		} else if (!strcmp(k, "trace")) {
			jread_get_string(&L->j, k, wl->trace, sizeof(wl->trace));
		} else if (!strcmp(k, "trace_speed")) {
			wl->trace_speed = jread_get_double(&L->j, k);
			if (!(wl->trace_speed >= 0 && wl->trace_speed <= 1000))
				jread_bad(&L->j, "trace_speed %g is not 0..1000", wl->trace_speed);
		} else {
			jread_skip(&L->j);
		}
	}
}

void loader_replay(struct loader *L, struct replay_stats *r)
{
	static const char *const modes[] = {"fast", "timed"};
	char k[32];

	memset(r, 0, sizeof(*r));
	if (jread_null(&L->j) || !jread_get_object(&L->j, "replay"))
		return;
	while (jread_member(&L->j, k, sizeof(k))) {
		if (!strcmp(k, "mode"))
			r->timed = jread_get_enum(&L->j, k, modes, 2, 0) == 1;
		else if (!strcmp(k, "qdepth"))
			r->qdepth = jread_get_uint(&L->j, k);
		else if (!strcmp(k, "trace_ios"))
			r->trace_ios = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "issued"))
			r->issued = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "flushes"))
			r->flushes = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "discards"))
			r->discards = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "discard_bytes"))
			r->discard_bytes = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "lag_mean_ns"))
			r->lag_mean_ns = jread_get_double(&L->j, k);
		else if (!strcmp(k, "lag_max_ns"))
			r->lag_max_ns = jread_get_u64(&L->j, k);
		else if (!strcmp(k, "late_ios"))
			r->late_ios = jread_get_u64(&L->j, k);
		else
			jread_skip(&L->j);
	}
	if (r->issued > r->trace_ios)
		jread_bad(&L->j, "replay: issued %llu of %llu", (unsigned long long)r->issued,
			  (unsigned long long)r->trace_ios);
}
