// SPDX-License-Identifier: GPL-2.0-or-later
/* The preset keys of a replay: `trace` (a block trace to replay) and `trace_speed`. */
#include "preset_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"
#include "units.h"

/* a trace's times stop where a preset's durations do */
_Static_assert(TRACE_MAX_TIME_NS == PRESET_MAX_DURATION_NS, "the trace and preset limits differ");

/*
 * The trace is read through here, so a damaged one is refused where the preset names it
 * (file:line, and the trace's own offset and record), and its mix set: a trace that
 * writes, flushes or discards makes a step that writes, which the write guard then sees.
 */
int set_trace(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	struct trace_summary s;
	uint64_t other, all;
	char why[512];

	if (strlen(v) >= sizeof(b->wl.trace)) {
		snprintf(err, errlen, "a trace path longer than %zu characters",
			 sizeof(b->wl.trace) - 1);
		return -EINVAL;
	}
	if (trace_scan(v, &s, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s", why);
		return -EINVAL;
	}
	snprintf(b->wl.trace, sizeof(b->wl.trace), "%s", v);
	other = s.count[TRACE_WRITE] + s.count[TRACE_FLUSH] + s.count[TRACE_DISCARD];
	all = other + s.count[TRACE_READ];
	b->trace_read_pct = (unsigned)(s.count[TRACE_READ] * 100 / all);
	if (other && b->trace_read_pct == 100)
		b->trace_read_pct = 99;
	b->wl.read_pct = b->trace_read_pct;
	b->trace_ns = s.duration_ns;
	return 0;
}

int set_trace_speed(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	double x;

	if (!strcmp(v, "fast")) {
		b->wl.trace_speed = 0;
		return 0;
	}
	if (units_parse_double(v, 0.001, 1000, &x)) {
		snprintf(err, errlen, "'%s' is not fast or a factor 0.001..1000", v);
		return -EINVAL;
	}
	b->wl.trace_speed = x;
	return 0;
}

const char *plan_trace(const struct plan *p)
{
	for (unsigned i = 0; i < p->nphases; i++)
		for (unsigned s = 0; s < p->phases[i].nsteps; s++)
			if (p->phases[i].steps[s].wl.trace[0])
				return p->phases[i].steps[s].wl.trace;
	return NULL;
}
