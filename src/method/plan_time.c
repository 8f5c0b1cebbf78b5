// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long a plan takes: its phases' rounds and upper bounds, what is expected of them on
 * a given drive, and that time in words (declared in preset.h).
 */
#include "preset.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "preset_int.h"
#include "units.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/*
 * How many rounds a phase in rounds runs at most: max_rounds, or the rounds that start
 * before max_time is used up (a round starts while less than max_time has run).
 */
static unsigned rounds_run(const struct plan_phase *ph, uint64_t once)
{
	unsigned n = ph->steady.max_rounds;

	if (ph->max_time_ns && once) {
		uint64_t by_time = ph->max_time_ns / once + (ph->max_time_ns % once != 0);
		if (by_time < n)
			n = (unsigned)by_time;
	}
	return n;
}

uint64_t plan_step_time_ns(const struct plan_step *st)
{
	/* a replay takes its trace's time at its speed (fast: no more than that) */
	double pace = st->wl.trace_speed > 0 ? st->wl.trace_speed : 1;

	if (st->wl.trace[0] && (double)st->trace_ns / pace < (double)st->wl.time_ns)
		return (uint64_t)((double)st->trace_ns / pace);
	return st->wl.time_ns;
}

uint64_t round_ns(const struct plan_phase *ph)
{
	uint64_t once = 0;

	for (unsigned s = 0; s < ph->nsteps; s++)
		once = sat_add(once, sat_add(ph->steps[s].wl.ramp_ns,
					     plan_step_time_ns(&ph->steps[s])));
	return once;
}

unsigned plan_phase_rounds(const struct plan_phase *ph)
{
	return ph->until == UNTIL_TIME ? 1 : rounds_run(ph, round_ns(ph));
}

uint64_t plan_phase_duration_ns(const struct plan_phase *ph)
{
	uint64_t once;

	if (ph->kind == PH_PURGE)
		return 0;
	once = round_ns(ph);
	if (ph->kind == PH_APP)
		return sat_add(once, app_setup_ns(&ph->app));
	return ph->until == UNTIL_TIME ? once : sat_mul(once, rounds_run(ph, once));
}

uint64_t plan_duration_ns(const struct plan *p)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < p->nphases; i++)
		total = sat_add(total, plan_phase_duration_ns(&p->phases[i]));
	return total;
}

uint64_t plan_phase_expected_ns(const struct plan_phase *ph, uint64_t size, double fill_bps,
				double *fill_x)
{
	uint64_t once, t = 0;
	unsigned n;

	if (ph->kind == PH_PURGE)
		return 0;
	once = round_ns(ph);
	if (ph->until == UNTIL_FIXED)
		return sat_mul(once, rounds_run(ph, once));
	if (ph->until == UNTIL_STEADY) {
		/* the window must fill, and min_time pass (min_written: unknown speed) */
		n = ph->steady.window;
		if (once && ph->min_time_ns / once + (ph->min_time_ns % once != 0) > n)
			n = (unsigned)(ph->min_time_ns / once + (ph->min_time_ns % once != 0));
		if (n > rounds_run(ph, once))
			n = rounds_run(ph, once);
		return sat_mul(once, n);
	}
	if (ph->kind == PH_APP)
		t = app_setup_ns(&ph->app);
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct plan_step *st = &ph->steps[s];
		uint64_t step = sat_add(st->wl.ramp_ns, plan_step_time_ns(st));
		if (st->loops_set) {
			/* a fill ends when its bytes are written: its time is a cap */
			if (size && fill_bps > 0) {
				uint64_t start, len;
				workload_range(&st->wl, size, &start, &len);
				double ns = (double)len * st->loops_bytes_x / fill_bps * 1e9;
				if (ns < (double)st->wl.time_ns)
					step = sat_add(st->wl.ramp_ns, (uint64_t)ns);
			} else {
				step = 0;
				if (fill_x)
					*fill_x += st->loops_bytes_x;
			}
		}
		t = sat_add(t, step);
	}
	return t;
}

void plan_estimate(const struct plan *p, uint64_t size, double fill_bps, struct plan_eta *e)
{
	memset(e, 0, sizeof(*e));
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		e->expected_ns = sat_add(e->expected_ns,
					 plan_phase_expected_ns(ph, size, fill_bps, &e->fill_x));
		e->max_ns = sat_add(e->max_ns, plan_phase_duration_ns(ph));
		if (ph->until == UNTIL_STEADY)
			e->early = true;
	}
}

char *plan_fmt_eta(char *buf, size_t len, uint64_t expected_ns, uint64_t max_ns, bool early,
		   bool fill)
{
	char e[32], m[32];

	units_fmt_duration(e, sizeof(e), expected_ns);
	units_fmt_duration(m, sizeof(m), max_ns);
	/* a saturated total is "more than 584 years", not "about" it */
	if (expected_ns == UINT64_MAX)
		snprintf(buf, len, "%s", e);
	/* a bound that reads the same as the expected time says nothing more */
	else if (!fill && (!early || !strcmp(e, m)))
		snprintf(buf, len, "about %s", e);
	else
		snprintf(buf, len, "%s %s%s, %s %s", early ? "at least" : "about", e,
			 fill ? " + fill" : "", max_ns == UINT64_MAX ? "perhaps" : "at most", m);
	return buf;
}

char *plan_eta_words(char *buf, size_t len, const struct plan_eta *e)
{
	char m[32];

	if (e->fill_x <= 0 || e->expected_ns >= 1000000000ull)
		return plan_fmt_eta(buf, len, e->expected_ns, e->max_ns, e->early, e->fill_x > 0);
	units_fmt_duration(m, sizeof(m), e->max_ns);
	snprintf(buf, len, "until %gx the capacity is written, at most %s", e->fill_x, m);
	return buf;
}
