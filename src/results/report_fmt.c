// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison's numbers and words (report.h): values grouped as reviews print them,
 * ratings, CPU use, what a step is, phase summaries, the steady-state verdict a step was
 * measured under.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hist.h"
#include "result_io.h"
#include "text.h"
#include "units.h"

/* ---- numbers --------------------------------------------------------------------- */

/*
 * 58550 -> "58,550": reviews group thousands; CSV and JSON carry plain numbers. Past
 * 10^15 (no drive does that many of anything) in scientific notation, not grouped: the
 * digits of 1e300 do not fit, and grouping cut them into nonsense.
 */
static char *fmt_grouped(char *buf, size_t len, double v)
{
	char digits[32];
	size_t n, j = 0;
	bool neg = v < 0;

	if (!isfinite(v) || fabs(v) >= 1e15) {
		snprintf(buf, len, isfinite(v) ? "%.3g" : "-", v);
		return buf;
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	n = strlen(digits);
	if (neg && j + 1 < len)
		buf[j++] = '-';
	for (size_t i = 0; i < n && j + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && j + 2 < len)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
	return buf;
}

char *report_fmt_value(char *buf, size_t len, enum report_metric m, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (m == RM_IOPS)
		return fmt_grouped(buf, len, v);
	if (m == RM_MBPS) {
		snprintf(buf, len, fabs(v) >= 1e15 ? "%.3g" : "%.1f", v);
		return buf;
	}
	/* milliseconds: two decimals from 1 ms up, three significant digits below */
	if (v >= 1000)
		fmt_grouped(buf, len, v);
	else if (v >= 1 || v == 0)
		snprintf(buf, len, "%.2f", v);
	else if (v >= 0.1)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

char *report_fmt_rating(char *buf, size_t len, enum report_metric m, const struct report_cell *c)
{
	char v[32], r[32];
	const char *unit = report_metric_info[m].unit;

	snprintf(buf, len, "%s %s against a rated %s (%.0f%%)",
		 report_fmt_value(v, sizeof(v), m, c->value), unit,
		 report_fmt_value(r, sizeof(r), m, c->rated), c->pct_of_rated);
	return buf;
}

void report_run_cpu(const struct report *rep, unsigned run, struct report_cpu *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned r = 0; r < rep->nrows; r++) {
		const struct result_step *st = rep->rows[r].steps[run];
		/* a mixed step's read and write rows share it: count it once */
		if (!st || !st->cpu.measured || rep->rows[r].dir != DIR_ALL)
			continue;
		const struct step_cpu *c = &st->cpu;
		double proc = c->proc_user_pct + c->proc_system_pct;
		double host = c->host_user_pct + c->host_system_pct;
		out->nmeasured++;
		if (proc > out->proc_max_pct || !out->proc_max_row) {
			out->proc_max_pct = proc;
			out->proc_max_row = rep->rows[r].name;
			out->proc_max_group = rep->groups[rep->rows[r].group].title;
		}
		if (host > out->host_busy_max_pct)
			out->host_busy_max_pct = host;
		if (c->host_iowait_pct > out->iowait_max_pct)
			out->iowait_max_pct = c->host_iowait_pct;
		out->nbound += result_step_warning(st, step_warning_code[SW_CPU_BOUND]) != NULL;
	}
}

char *report_fmt_scale(char *buf, size_t len, double scale)
{
	if (scale > 0)
		snprintf(buf, len, "x%g", scale);
	else
		snprintf(buf, len, "?");
	return buf;
}

char *report_fmt_cpu(char *buf, size_t len, const struct report_cpu *c)
{
	if (!c->nmeasured)
		return NULL;
	int n = snprintf(buf, len,
			 "drivebench up to %.0f%% of a CPU (%s %s), the host up to %.0f%% busy, "
			 "iowait up to %.0f%%",
			 c->proc_max_pct, c->proc_max_group, c->proc_max_row, c->host_busy_max_pct, c->iowait_max_pct);
	if (c->nbound && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %u step%s CPU-bound", c->nbound,
			 c->nbound == 1 ? "" : "s");
	return buf;
}

bool report_next_precondition(const struct report *rep, unsigned *run, unsigned *phase)
{
	for (; *run < rep->nruns; (*run)++, *phase = 0)
		for (; *phase < rep->runs[*run].res->nphases; (*phase)++)
			if (rep->runs[*run].res->phases[*phase].kind == PH_PRECONDITION)
				return true;
	return false;
}

char *report_run_cpu_text(char *buf, size_t len, const struct report *rep, unsigned run)
{
	struct report_cpu c;

	report_run_cpu(rep, run, &c);
	return report_fmt_cpu(buf, len, &c);
}

/* A precondition that writes the range in order without judging steady state: a fill. */
static bool is_fill(const struct result_phase *ph, const struct result_step *st)
{
	return ph->kind == PH_PRECONDITION && !ph->steady.used && st->wl.pattern == WL_SEQUENTIAL &&
	       st->wl.read_pct == 0;
}

char *report_step_workload(char *buf, size_t len, const struct result_step *st)
{
	char d[160], own[160];
	size_t used = 0;
	bool same = true;

	workload_describe(&st->wl, own, sizeof(own));
	for (unsigned i = 0; i < st->nstreams && same; i++)
		same = !strcmp(workload_describe(&st->streams[i].wl, d, sizeof(d)), own);
	if (!st->nstreams || same) {
		/* one workload (on each of several targets: the streams are its targets) */
		text_fmt(buf, len, "%s", own);
		if (st->nstreams) {
			used = strlen(buf);
			snprintf(buf + used, len - used, " on %u targets", st->nstreams);
		}
		return buf;
	}
	buf[0] = '\0';
	for (unsigned i = 0; i < st->nstreams && used < len; i++) {
		workload_describe(&st->streams[i].wl, d, sizeof(d));
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", i ? " + " : "",
					 st->streams[i].label, d);
	}
	return buf;
}

char *report_step_what(char *buf, size_t len, const struct result_phase *ph,
		       const struct result_step *st)
{
	char wl[160], written[32];

	if (ph->kind == PH_PURGE) {
		text_fmt(buf, len, "purge: %s", st->label);
	} else if (is_fill(ph, st)) {
		uint64_t b = st->ramp.d[DIR_WRITE].bytes + st->summary.d[DIR_WRITE].bytes +
			     st->drain.d[DIR_WRITE].bytes;
		workload_describe(&st->wl, wl, sizeof(wl));
		text_fmt(buf, len, "fill: %s, %s written", wl,
			 units_fmt_capacity_compact(written, sizeof(written), b));
	} else if (ph->kind == PH_PRECONDITION) {
		report_step_workload(wl, sizeof(wl), st);
		text_fmt(buf, len, "precondition: %s%s", wl,
			 ph->steady.used ? " until steady state" : "");
	} else {
		report_step_workload(buf, len, st);
	}
	return buf;
}

/*
 * What a phase's steps ran, all of them, not its first's: "8k 70/30 random 16T16Q" when
 * they ran one workload; "8k 70/30 random 2T2Q to 16T16Q" when only threads, queue depth
 * or rate changed (a ladder, a rate curve); when the workloads differ, up to four by
 * name, "2 workloads (4k read random 1T1Q; 64k write sequential 1T32Q)", more by count,
 * first and last, "56 workloads, from 1m 0/100 random 1T32Q to 512 65/35 random 1T32Q"
 * (SNIA's matrix, an fio job file's jobs).
 */
static char *phase_workload(char *buf, size_t len, const struct result_phase *ph)
{
	enum { MANY = 64, W = 160 };
	char kind[MANY][W], last[W], d[W], title[W], t[W];
	unsigned nkinds = 1, ntitles = 1;
	bool many = false, streams = false;

	report_step_workload(kind[0], W, &ph->steps[0]);
	report_group_title(title, W, &ph->steps[0].wl);
	/* kinds: the steps unlike every kind before them (a matrix repeats a few) */
	for (unsigned i = 1; i < ph->nsteps && !many; i++) {
		unsigned k = 0;
		report_step_workload(d, W, &ph->steps[i]);
		while (k < nkinds && strcmp(d, kind[k]))
			k++;
		if (k < nkinds)
			continue;
		if (nkinds == MANY) {
			many = true;
			break;
		}
		memcpy(kind[nkinds++], d, W);
		ntitles += !!strcmp(title, report_group_title(t, W, &ph->steps[i].wl));
	}
	for (unsigned i = 0; i < ph->nsteps; i++)
		streams |= ph->steps[i].nstreams > 0 || ph->steps[i].wl.trace[0];
	const char *first = kind[0];
	report_step_workload(last, W, &ph->steps[ph->nsteps - 1]);
	size_t tl = strlen(title);
	if (nkinds == 1) {
		text_fmt(buf, len, "%s", first);
	} else if (!many && ntitles == 1 && !streams && strcmp(first, last) &&
		   !strncmp(last, title, tl) && last[tl] == ' ') {
		text_fmt(buf, len, "%s to%s", first, last + tl);
	} else if (nkinds <= 4) { /* few: each of them, in the order they first ran */
		text_fmt(buf, len, "%u workloads (%s", nkinds, first);
		for (unsigned k = 1; k < nkinds; k++) {
			size_t used = strlen(buf);
			text_fmt(buf + used, len - used, "; %s", kind[k]);
		}
		size_t used = strlen(buf);
		text_fmt(buf + used, len - used, ")");
	} else {
		text_fmt(buf, len, "%s%u workloads, from %s%s%s", many ? "over " : "", nkinds,
			 first, strcmp(first, last) ? " to " : "", strcmp(first, last) ? last : "");
	}
	return buf;
}

char *report_phase_summary(char *buf, size_t len, const struct result_phase *ph)
{
	const struct steady_info *st = &ph->steady;
	char wl[400] = "", dur[32];
	uint64_t total_ns = 0;
	size_t used;

	for (unsigned i = 0; i < ph->nsteps; i++)
		total_ns += ph->steps[i].summary.dur_ns;
	units_fmt_duration(dur, sizeof(dur), total_ns);
	if (ph->kind == PH_PURGE) {
		/* its step is the method, and it has a time, not a workload */
		text_fmt(buf, len, "purge by %s, %s%s%s", ph->nsteps ? ph->steps[0].label : "?",
			 dur, ph->status != RS_COMPLETE ? " " : "",
			 ph->status != RS_COMPLETE ? result_status_name[ph->status] : "");
		return buf;
	}
	/* a precondition's name says what it is; a fill says so itself */
	if (ph->nsteps && is_fill(ph, &ph->steps[0]))
		report_step_what(wl, sizeof(wl), ph, &ph->steps[0]);
	else if (ph->nsteps)
		phase_workload(wl, sizeof(wl), ph);
	/* a round of a steady phase may be many steps (SNIA's 56): count what ran of each */
	unsigned rounds = 0;
	if (st->used && ph->nsteps &&
	    sscanf(ph->steps[ph->nsteps - 1].label, "round %u", &rounds) != 1)
		rounds = ph->nsteps;
	if (st->used && rounds != ph->nsteps)
		used = (size_t)snprintf(buf, len, "%s%s%u %s (%u steps), %s measured", wl,
					wl[0] ? ", " : "", rounds, rounds == 1 ? "round" : "rounds",
					ph->nsteps, dur);
	else
		used = (size_t)snprintf(buf, len, "%s%s%u %s, %s measured", wl, wl[0] ? ", " : "",
					ph->nsteps,
					st->used ? (ph->nsteps == 1 ? "round" : "rounds")
						 : (ph->nsteps == 1 ? "step" : "steps"),
					dur);
	if (used >= len)
		return buf;
	if (st->used && st->fixed) {
		char first[64] = "";
		if (st->first_round && !st->reached)
			snprintf(first, sizeof(first), ", though steady first at round %u",
				 st->first_round);
		else if (st->first_round)
			snprintf(first, sizeof(first), ", first at round %u", st->first_round);
		snprintf(buf + used, len - used,
			 ", fixed length: %s at the last round%s (data excursion %.1f%% of %.0f%% "
			 "allowed, slope excursion %.1f%% of %.0f%%)",
			 st->reached ? "steady state" : "NOT steady", first, st->data_excursion_pct,
			 st->data_limit_pct, st->slope_excursion_pct, st->slope_limit_pct);
	} else if (st->used && st->reached && st->first_round && st->first_round < st->round)
		snprintf(buf + used, len - used,
			 ": steady state reached at round %u, first met at round %u before the "
			 "minimum time or volume (data excursion %.1f%% of %.0f%% allowed, slope "
			 "excursion %.1f%% of %.0f%%)",
			 st->round, st->first_round, st->data_excursion_pct, st->data_limit_pct,
			 st->slope_excursion_pct, st->slope_limit_pct);
	else if (st->used && st->reached)
		snprintf(buf + used, len - used,
			 ": steady state reached at round %u (data excursion %.1f%% of %.0f%% "
			 "allowed, slope excursion %.1f%% of %.0f%%)",
			 st->round, st->data_excursion_pct, st->data_limit_pct,
			 st->slope_excursion_pct, st->slope_limit_pct);
	else if (st->used)
		snprintf(
			buf + used, len - used,
			": steady state NOT reached in %u rounds (max %u; data excursion %.1f%% of "
			"%.0f%% allowed, slope excursion %.1f%% of %.0f%%)",
			st->round, st->max_rounds, st->data_excursion_pct, st->data_limit_pct,
			st->slope_excursion_pct, st->slope_limit_pct);
	if (ph->status != RS_COMPLETE) {
		used = strlen(buf);
		snprintf(buf + used, len - used, " [%s]", result_status_name[ph->status]);
	}
	return buf;
}

const struct steady_info *report_step_steady(const struct result *r, const struct result_step *st)
{
	const struct steady_info *last = NULL;

	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		bool here = ph->nsteps && st >= ph->steps && st < ph->steps + ph->nsteps;
		if (here && ph->steady.used)
			return &ph->steady;
		if (here)
			return last;
		if (ph->steady.used)
			last = &ph->steady;
	}
	return NULL;
}
