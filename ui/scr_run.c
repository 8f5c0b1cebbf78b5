// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Screen 3, Run: where the run is (phase, step x/N, progress and ETA), four live plots
 * (IOPS, average latency, max latency, latency standard deviation; read and write lines
 * when the step mixes them), the current numbers with percentiles, the steady-state
 * window against its limits, and the ladder filling in step by step; a step of several
 * streams (several targets, or a preset's [stream] sections) adds a line of each
 * stream's IOPS and mean latency when it ends.
 */
#include "ui.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "units.h"

struct plot_def {
	enum rm_metric metric;
	const char *title;
	bool latency; /* ns, formatted as a latency; else a count */
};

static const struct plot_def plots[RMM_COUNT] = {
	[RMM_IOPS] = {RMM_IOPS, "IOPS", false},
	[RMM_MEAN] = {RMM_MEAN, "avg latency", true},
	[RMM_MAX] = {RMM_MAX, "max latency", true},
	[RMM_STD] = {RMM_STD, "latency std dev", true},
};
/* an [app] phase's samples are the tool's per-second reports: transactions, not I/Os */
static const struct plot_def tps_plot = {RMM_IOPS, "TPS", false};

static char *fmt_metric(char *buf, size_t len, bool latency, double v)
{
	if (latency)
		return units_fmt_latency(buf, len, v);
	return units_fmt_count(buf, len, v);
}

/* "21,204" */
char *ui_fmt_int(char *buf, size_t len, double v)
{
	char tmp[32], *o = buf;
	int n = snprintf(tmp, sizeof(tmp), "%.0f", v < 0 ? 0 : v);

	for (int i = 0; i < n && (size_t)(o - buf) + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = tmp[i];
	}
	*o = '\0';
	return buf;
}

#define PLOT_LABEL_W 11 /* the scale's labels, right of each plot */
#define WHOLE_COLS   1024 /* the most points a whole-phase plot draws */

/*
 * Whole-phase mode: line l of the plot's metric as min..max ranges over the phase, one
 * point per dot column; the points go into lo/hi. Returns how many.
 */
static unsigned whole_points(const struct app *a, const struct plot_def *pd, enum rm_line l,
			     unsigned gw, double *lo, double *hi)
{
	unsigned cap = plot_capacity(gw, a->utf8);

	return plot_hist_columns(a->whole, RM_WHOLE_SERIES(pd->metric, l),
				 cap < WHOLE_COLS ? cap : WHOLE_COLS, lo, hi);
}

static void draw_plot(struct app *a, int y, int x, int w, int h, const struct plot_def *pd,
		      unsigned n)
{
	static double lo[2][WHOLE_COLS], hi[2][WHOLE_COLS];
	struct plot_series s[2];
	unsigned ns = 0;
	char cur[32];
	int label_w = PLOT_LABEL_W, gw = w - label_w;
	int tx = x;
	bool whole = !a->plot_recent;

	if (gw < 8 || h < 2)
		return;
	tx += ui_text(a, y, tx, w, ROLE_LABEL, pd->title);
	if (a->snap.mixed) {
		tx += ui_text(a, y, tx, w - (tx - x), ROLE_DIM, "  ");
		tx += ui_text(a, y, tx, w - (tx - x), ROLE_PLOT_READ, "read");
		tx += ui_text(a, y, tx, w - (tx - x), ROLE_DIM, " ");
		tx += ui_text(a, y, tx, w - (tx - x), ROLE_PLOT_WRITE, "write");
		if (whole) {
			unsigned k = whole_points(a, pd, RML_READ, (unsigned)gw, lo[0], hi[0]);
			s[ns++] = (struct plot_series){hi[0], k, ROLE_PLOT_READ, false, lo[0]};
			k = whole_points(a, pd, RML_WRITE, (unsigned)gw, lo[1], hi[1]);
			s[ns++] = (struct plot_series){hi[1], k, ROLE_PLOT_WRITE, false, lo[1]};
		} else {
			s[ns++] = (struct plot_series){a->series[pd->metric][RML_READ], n,
						       ROLE_PLOT_READ, false};
			s[ns++] = (struct plot_series){a->series[pd->metric][RML_WRITE], n,
						       ROLE_PLOT_WRITE, false};
		}
	} else {
		tx += ui_text(a, y, tx, w - (tx - x), ROLE_DIM,
			      pd->metric == RMM_IOPS ? " (R+W)" : "");
		if (whole) {
			/* ranges, not a filled area: a dip must show as well as a spike */
			unsigned k = whole_points(a, pd, RML_ALL, (unsigned)gw, lo[0], hi[0]);
			s[ns++] = (struct plot_series){hi[0], k, ROLE_PLOT_ALL, false, lo[0]};
		} else {
			s[ns++] = (struct plot_series){a->series[pd->metric][RML_ALL], n,
						       ROLE_PLOT_ALL, true};
		}
	}
	if (n) {
		fmt_metric(cur, sizeof(cur), pd->latency, a->series[pd->metric][RML_ALL][n - 1]);
		ui_text_right(a, y, x, w - 1, ROLE_VALUE, cur);
	}
	if (plot_render(&a->grid, (unsigned)gw, (unsigned)(h - 1), a->utf8, s, ns, 0) < 0)
		return;
	if (n == 0) {
		ui_text(a, y + h / 2, x + 2, gw - 2, ROLE_DIM, "no samples yet");
	} else {
		ui_plot(a, y + 1, x, &a->grid);
	}
	/* the scale: the top of the plot, zero at the bottom, round steps between */
	ui_yscale(a, y + 1, x + gw, label_w, h - 1, a->grid.ymax,
		  pd->latency ? units_fmt_latency : units_fmt_count);
}

#define AXIS_MAX 1024 /* the widest time axis, in cells */

/*
 * The steady window on the axis: "═" under the columns of its rounds; with name, its
 * name instead, where the time labels (in busy) left room for it.
 */
static void steady_marks(struct app *a, int y, int x, int gw, bool *busy, bool name)
{
	enum ui_role role = a->snap.steady.reached ? ROLE_OK : ROLE_WARNING;

	if (a->snap.window_from == UINT_MAX || a->whole->samples <= a->snap.window_from)
		return;
	int c0 = (int)((uint64_t)a->snap.window_from * (unsigned)gw / a->whole->samples);
	for (int i = c0; i < gw && !name; i++)
		ui_text(a, y, x + i, 1, role, a->utf8 ? "\u2550" : "=");
	for (int at = c0 + 1; at < gw && name; at++)
		if (ui_axis_label(a, y, x, gw, at, role, " steady window ", busy) ||
		    ui_axis_label(a, y, x, gw, at, role, " steady ", busy))
			return;
}

/*
 * The plots' time axis, under one column of plots (x, w as for draw_plot): in whole-phase
 * mode from the phase's start to now, with a tick at each round step of time and the
 * steady-state window marked under the rounds it covers; in recent mode how far back
 * the plot reaches, ticked back from now. Labels never overwrite one another.
 */
static void draw_axis(struct app *a, int y, int x, int w)
{
	int gw = w - PLOT_LABEL_W;
	bool busy[AXIS_MAX] = {false};
	char l[48], r[64], d[32];
	uint64_t span = a->snap.elapsed_ns > a->snap.phase_start_ns
				? a->snap.elapsed_ns - a->snap.phase_start_ns
				: 0;

	if (gw < 16)
		return;
	gw = gw < AXIS_MAX ? gw : AXIS_MAX;
	for (int i = 0; i < gw; i++)
		ui_text(a, y, x + i, 1, ROLE_AXIS, a->g->hline);
	if (a->plot_recent) {
		unsigned cap = plot_capacity((unsigned)gw, a->utf8);
		uint64_t back = (uint64_t)cap * a->snap.last.dur_ns;
		snprintf(l, sizeof(l), "%s-%s ", a->g->tick, units_fmt_duration(d, sizeof(d), back));
		ui_axis_label(a, y, x, gw, 0, ROLE_AXIS, l, busy);
		snprintf(r, sizeof(r), " now (w: whole phase)");
		ui_axis_label(a, y, x, gw, gw - ui_width(a, r), ROLE_AXIS, r, busy);
		ui_axis_ticks(a, y, x, gw, (double)back / 1e9, true, true, ui_fmt_secs, busy);
		return;
	}
	steady_marks(a, y, x, gw, busy, false);
	snprintf(r, sizeof(r), " %s phase %s", units_fmt_duration(d, sizeof(d), span), a->g->tick);
	ui_axis_label(a, y, x, gw, gw - ui_width(a, r), ROLE_AXIS, r, busy);
	snprintf(l, sizeof(l), "%s0 ", a->g->tick);
	ui_axis_label(a, y, x, gw, 0, ROLE_AXIS, l, busy);
	ui_axis_ticks(a, y, x, gw, (double)span / 1e9, true, false, ui_fmt_secs, busy);
	steady_marks(a, y, x, gw, busy, true);
}

static void draw_header(struct app *a, int y)
{
	char buf[512], el[32], eta[32], most[32];
	int x = 1;
	double pct = 0;
	uint64_t total = a->snap.elapsed_ns + a->snap.eta_ns;

	if (total)
		pct = 100.0 * (double)a->snap.elapsed_ns / (double)total;
	snprintf(buf, sizeof(buf), "%s%s%s", a->snap.preset[0] ? a->snap.preset : "-", a->g->dot,
		 a->snap.target);
	if (a->snap.queue_len > 1) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " (%u of %u)", a->snap.queue_index + 1,
			 a->snap.queue_len);
	}
	x += ui_text(a, y, x, a->cols / 2, ROLE_VALUE, buf);
	if (a->snap.phase[0]) {
		if (a->snap.phase_kind == PH_PRECONDITION && a->snap.phase_steps > 1)
			/* the runner labels rounds "round N": say it once */
			snprintf(buf, sizeof(buf), "  %s%sround %u of %s%u", a->snap.phase,
				 a->g->dot, a->snap.step_index + 1, a->g->le, a->snap.phase_steps);
		else {
			/* the runner shortens its plan when a phase ends early */
			unsigned steps = a->snap.steps_total ? a->snap.steps_total : 1;
			unsigned now =
				a->snap.step_global + 1 < steps ? a->snap.step_global + 1 : steps;
			snprintf(buf, sizeof(buf), "  %s %s%sstep %u/%u", a->snap.phase,
				 a->snap.step_label, a->g->dot, now, steps);
		}
		x += ui_text(a, y, x, a->cols - x - 42, ROLE_NORMAL, buf);
	}
	units_fmt_duration(el, sizeof(el), a->snap.elapsed_ns);
	units_fmt_duration(eta, sizeof(eta), a->snap.eta_ns);
	/* the expected time left, and the bound when rounds may end early or a fill waits */
	most[0] = '\0';
	if (a->snap.eta_fill || a->snap.eta_max_ns > a->snap.eta_ns + a->snap.eta_ns / 20) {
		char m[32];
		snprintf(most, sizeof(most), "%s %s%s", a->snap.eta_fill ? "+fill" : "", a->g->le,
			 units_fmt_duration(m, sizeof(m), a->snap.eta_max_ns));
	}
	if (a->snap.paused)
		snprintf(buf, sizeof(buf), "PAUSED  %s", el);
	else if (a->snap.active)
		snprintf(buf, sizeof(buf), "%s  %.0f%%  ETA ~%s%s", el, pct, eta, most);
	else
		snprintf(buf, sizeof(buf), "%s", el);
	ui_text_right(a, y, a->cols - 42, 41, a->snap.paused ? ROLE_WARNING : ROLE_NORMAL, buf);

	/* the progress bar over the whole run */
	int bw = a->cols - 2, filled = (int)(bw * pct / 100.0);
	if (!a->snap.active && a->snap.finished && a->snap.status == RS_COMPLETE)
		filled = bw;
	ui_fill(a, y + 1, 1, filled, ROLE_PROGRESS);
	ui_fill(a, y + 1, 1 + filled, bw - filled, ROLE_DIM);
	for (int i = filled; i < bw; i++)
		ui_text(a, y + 1, 1 + i, 1, ROLE_DIM, a->utf8 ? "\u2591" : ".");
}

/* Two lines: the newest interval's throughput and latency, then its percentiles. */
static void draw_now(struct app *a, int y)
{
	const struct sample *s = &a->snap.last;
	const struct dir_stats *d = &s->d[DIR_ALL];
	char iops[32], r[32], w[32], avg[32], max[32], std[32], buf[512], *pct;
	struct strbuf b = {0};
	bool wide = a->cols >= 110;

	ui_text(a, y, 1, 6, ROLE_LABEL, "now");
	ui_text(a, y + 1, 1, 6, ROLE_LABEL, "pct");
	if (!a->snap.have_sample) {
		ui_text(a, y, 7, a->cols - 8, ROLE_DIM, "waiting for the first interval");
		return;
	}
	units_fmt_latency(avg, sizeof(avg), d->mean_ns);
	units_fmt_latency(max, sizeof(max), (double)d->max_ns);
	units_fmt_latency(std, sizeof(std), d->std_ns);
	/* 80 columns get compact counts ("21.2K") */
	if (wide) {
		ui_fmt_int(iops, sizeof(iops), d->iops);
		ui_fmt_int(r, sizeof(r), s->d[DIR_READ].iops);
		ui_fmt_int(w, sizeof(w), s->d[DIR_WRITE].iops);
	} else {
		units_fmt_count(iops, sizeof(iops), d->iops);
		units_fmt_count(r, sizeof(r), s->d[DIR_READ].iops);
		units_fmt_count(w, sizeof(w), s->d[DIR_WRITE].iops);
	}
	if (a->snap.mixed) {
		/* how reads and writes differ, which the combined numbers hide */
		char ra[32], wa[32];
		units_fmt_latency(ra, sizeof(ra), s->d[DIR_READ].mean_ns);
		units_fmt_latency(wa, sizeof(wa), s->d[DIR_WRITE].mean_ns);
		snprintf(buf, sizeof(buf),
			 "%s IOPS%sR %s at %s%sW %s at %s%s%.1f MB/s%savg %s%smax %s%sstd %s", iops,
			 a->g->dot, r, ra, a->g->dot, w, wa, a->g->dot, d->mbps, a->g->dot, avg,
			 a->g->dot, max, a->g->dot, std);
	} else {
		snprintf(buf, sizeof(buf), "%s %s IOPS%s%.1f MB/s%savg %s%smax %s%sstd %s", iops,
			 s->d[DIR_WRITE].ios ? "write" : "read", a->g->dot, d->mbps, a->g->dot, avg,
			 a->g->dot, max, a->g->dot, std);
	}
	ui_text(a, y, 7, a->cols - 8, ROLE_VALUE, buf);

	for (int i = 0; i < NPCT; i++) {
		char v[32];
		units_fmt_latency(v, sizeof(v), (double)d->pct_ns[i]);
		strbuf_add(&b, "%s%s %s", i ? a->g->dot : "", stats_pct_name[i], v);
	}
	pct = strbuf_take(&b);
	ui_text(a, y + 1, 7, a->cols - 8, ROLE_NORMAL, pct ? pct : "out of memory");
	free(pct);
}

static void draw_steady(struct app *a, int y)
{
	const struct steady_info *st = &a->snap.steady;
	char buf[512];
	int x = 1;

	ui_text(a, y, x, 7, ROLE_LABEL, "steady");
	x = 8;
	if (!a->snap.have_steady) {
		ui_text(a, y, x, a->cols - x - 1, ROLE_DIM,
			a->snap.phase_kind == PH_PRECONDITION
				? "the window fills after the first rounds"
				: "no steady-state phase running");
		return;
	}
	unsigned first = st->round > st->window ? st->round - st->window + 1 : 1;
	bool data_ok = st->data_excursion_pct <= st->data_limit_pct;
	bool slope_ok = st->slope_excursion_pct <= st->slope_limit_pct;
	bool full = st->round >= st->window;

	/* 80 columns: "range 13.0% <= 20%" rather than "range 13.0% of avg (limit 20%)" */
	bool wide = a->cols >= 110;
	char lim[64];

	snprintf(buf, sizeof(buf), "%s%u%s%u (%s): ", wide ? "window rounds " : "rounds ", first,
		 a->utf8 ? "\u2013" : "-", st->round, st->tracked[0] ? st->tracked : "iops");
	x += ui_text(a, y, x, a->cols - x - 1, ROLE_NORMAL, buf);
	if (wide)
		snprintf(lim, sizeof(lim), "of avg (limit %.0f%%)", st->data_limit_pct);
	else
		snprintf(lim, sizeof(lim), "%s %.0f%%", a->g->le, st->data_limit_pct);
	snprintf(buf, sizeof(buf), "range %.1f%% %s ", st->data_excursion_pct, lim);
	x += ui_text(a, y, x, a->cols - x - 1, ROLE_NORMAL, buf);
	x += ui_text(a, y, x, a->cols - x - 1, data_ok ? ROLE_OK : ROLE_WARNING,
		     data_ok ? a->g->ok : a->g->bad);
	if (wide)
		snprintf(lim, sizeof(lim), "(limit %.0f%%)", st->slope_limit_pct);
	else
		snprintf(lim, sizeof(lim), "%s %.0f%%", a->g->le, st->slope_limit_pct);
	snprintf(buf, sizeof(buf), "%sslope %.1f%% %s ", a->g->dot, st->slope_excursion_pct, lim);
	x += ui_text(a, y, x, a->cols - x - 1, ROLE_NORMAL, buf);
	x += ui_text(a, y, x, a->cols - x - 1, slope_ok ? ROLE_OK : ROLE_WARNING,
		     slope_ok ? a->g->ok : a->g->bad);
	if (st->fixed && st->first_round)
		/* a fixed-length phase runs on: the verdict now, and when it was first met */
		snprintf(buf, sizeof(buf), "  %s (first at round %u; fixed length, runs on)",
			 st->reached ? "steady" : "not steady now", st->first_round);
	else if (st->reached && st->first_round && st->first_round < st->round)
		snprintf(buf, sizeof(buf), "  steady at round %u (first at %u)", st->round,
			 st->first_round);
	else if (st->reached)
		snprintf(buf, sizeof(buf), "  steady at round %u", st->round);
	else if (st->first_round)
		snprintf(buf, sizeof(buf),
			 "  not steady now (first at round %u; waits for the "
			 "minimum time or volume)",
			 st->first_round);
	else if (!full)
		snprintf(buf, sizeof(buf), "  (full in %u rounds)", st->window - st->round);
	else if (st->fixed)
		snprintf(buf, sizeof(buf), "  not steady yet (fixed length, %u rounds at most)",
			 st->max_rounds);
	else
		snprintf(buf, sizeof(buf), "  not steady yet (at most %u rounds)", st->max_rounds);
	ui_text(a, y, x, a->cols - x - 1, st->reached ? ROLE_OK : ROLE_DIM, buf);
}

static void draw_ladder(struct app *a, int y)
{
	int cw = 10, x0 = 9, ncols = (a->cols - x0 - 1) / cw;
	unsigned first = 0, running = a->snap.step_index;
	char buf[32];

	ui_text(a, y, 1, 8, ROLE_LABEL, "steps");
	ui_text(a, y + 1, 1, 8, ROLE_LABEL, "IOPS");
	if (a->snap.nladder == 0) {
		ui_text(a, y, x0, a->cols - x0 - 1, ROLE_DIM,
			"the measured steps fill in here as they finish");
		return;
	}
	/* scrolled to the running step, with the next one in view when there is one */
	unsigned want = running + 1 < a->snap.nladder ? running + 1 : running;
	if (ncols > 1 && want >= (unsigned)ncols)
		first = want - (unsigned)ncols + 1;
	/* steps scrolled off either side are pointed at */
	if (first)
		ui_textf(a, y + 1, x0 - 3, 3, ROLE_DIM, "%s", a->utf8 ? "\u2039" : "<");
	if (ncols > 0 && first + (unsigned)ncols < a->snap.nladder)
		ui_textf(a, y + 1, x0 + ncols * cw, 1, ROLE_DIM, "%s", a->utf8 ? "\u203a" : ">");
	for (unsigned i = first; i < a->snap.nladder && (int)(i - first) < ncols; i++) {
		const struct rm_step *c = &a->snap.ladder[i];
		int x = x0 + (int)(i - first) * cw;
		bool now = a->snap.active && i == running && !c->done;
		ui_text_right(a, y, x, cw - 1, now ? ROLE_VALUE : ROLE_HEADER,
			      c->label[0] ? c->label : "?");
		if (c->done) {
			/* "1,247,310" does not fit a column: "1.25M" does */
			if ((int)strlen(ui_fmt_int(buf, sizeof(buf), c->iops)) > cw - 1)
				units_fmt_count(buf, sizeof(buf), c->iops);
			ui_text_right(a, y + 1, x, cw - 1,
				      c->status == RS_COMPLETE ? ROLE_VALUE : ROLE_WARNING, buf);
		} else
			ui_text_right(a, y + 1, x, cw - 1, ROLE_DIM,
				      now	? "running"
				      : a->utf8 ? "\u00b7"
						: ".");
	}
}

/* "streams 4K read: loop0 21.2K IOPS 90 µs · loop1 ...", the last finished step's. */
static void draw_streams(struct app *a, int y)
{
	char iops[32], lat[32], *line;
	struct strbuf b = {0};

	ui_text(a, y, 1, 8, ROLE_LABEL, "streams");
	strbuf_add(&b, "%s: ", a->snap.streams_step);
	for (unsigned i = 0; i < a->snap.nstreams; i++) {
		const struct rm_stream *st = &a->snap.streams[i];
		units_fmt_count(iops, sizeof(iops), st->iops);
		units_fmt_latency(lat, sizeof(lat), st->mean_ns);
		strbuf_add(&b, "%s%s %s IOPS %s", i ? a->g->dot : "", st->label, iops, lat);
	}
	line = strbuf_take(&b);
	ui_text(a, y, 9, a->cols - 10, ROLE_VALUE, line ? line : "out of memory");
	free(line);
}

void run_draw(struct app *a, int top, int bottom)
{
	unsigned n = run_model_snapshot(a->run, &a->snap, a->series, a->whole);
	int y = top;

	if (!a->snap.active && !a->snap.finished) {
		char names[256];
		ui_text(a, y + 1, 3, a->cols - 4, ROLE_NORMAL, "Nothing is running.");
		ui_textf(a, y + 3, 3, a->cols - 4, ROLE_DIM,
			 "1 Drives: choose a target, or mark several (now: %s)",
			 drives_targets_name(a, names, sizeof(names)));
		ui_text(a, y + 4, 3, a->cols - 4, ROLE_DIM,
			"2 Presets: Enter queues a preset, - and + set the scale, s starts");
		ui_text(a, y + 5, 3, a->cols - 4, ROLE_DIM,
			"the run draws here: IOPS and latency live, the steady-state window, the "
			"ladder");
		static const enum key_action acts[] = {ACT_SCREEN_DRIVES, ACT_SCREEN_PRESETS,
						       ACT_HELP, ACT_QUIT};
		static const char *const words[] = {"drives", "presets", "help", "quit"};
		ui_hints(a, bottom, KS_RUN, acts, words, 4);
		return;
	}
	draw_header(a, y);
	y += 2;
	/* 2x2 plots and their time axis take what the lines under them leave */
	int fixed = a->snap.nstreams ? 9 : 8, ph = (bottom - y - fixed) / 2;
	int half = a->cols / 2, w = half - 2;
	if (ph >= 3) {
		draw_plot(a, y, 1, w, ph, a->snap.phase_kind == PH_APP ? &tps_plot : &plots[RMM_IOPS],
			  n);
		draw_plot(a, y, half + 1, w, ph, &plots[RMM_MEAN], n);
		draw_plot(a, y + ph, 1, w, ph, &plots[RMM_MAX], n);
		draw_plot(a, y + ph, half + 1, w, ph, &plots[RMM_STD], n);
		for (int i = 0; i < 2 * ph; i++)
			ui_text(a, y + i, half - 1, 1, ROLE_BORDER, a->g->vline);
		y += 2 * ph;
		draw_axis(a, y, 1, w);
		draw_axis(a, y, half + 1, w);
		y++;
	}
	draw_now(a, y);
	y += 2;
	draw_steady(a, y++);
	draw_ladder(a, y);
	y += 2;
	if (a->snap.nstreams)
		draw_streams(a, y++);
	if (a->snap.error[0])
		ui_text(a, y, 1, a->cols - 2, ROLE_ERROR, a->snap.error);
	else if (a->snap.finished && !a->snap.active) {
		/* the whole path when it fits, else the file name */
		const char *saved = a->snap.saved[0] ? a->snap.saved : "nothing";
		if ((int)strlen(saved) + 40 > a->cols && strrchr(saved, '/'))
			saved = strrchr(saved, '/') + 1;
		ui_textf(a, y, 1, a->cols - 2,
			 a->snap.status == RS_COMPLETE ? ROLE_OK : ROLE_WARNING,
			 "%s%ssaved %s (4 Results)", result_status_name[a->snap.status], a->g->dot,
			 saved);
	} else if (a->snap.stopping)
		ui_text(a, y, 1, a->cols - 2, ROLE_WARNING,
			"aborting: the step drains, then the result is saved");
	else if (a->snap.log[0])
		/* the runner's step warnings ("warning: step ...") stand out from its news */
		ui_text(a, y, 1, a->cols - 2,
			strncmp(a->snap.log, "warning:", 8) ? ROLE_DIM : ROLE_WARNING, a->snap.log);

	if (a->snap.active) {
		static const enum key_action acts[] = {ACT_PAUSE, ACT_ABORT, ACT_PLOT_SPAN,
						       ACT_SCREEN_RESULTS, ACT_HELP};
		const char *words[] = {a->snap.paused ? "resume" : "pause",
				       "abort (saves what was measured)",
				       a->plot_recent ? "whole phase" : "last minutes", "results",
				       "help"};
		ui_hints(a, bottom, KS_RUN, acts, words, 5);
	} else {
		static const enum key_action acts[] = {ACT_SCREEN_PRESETS, ACT_SCREEN_RESULTS,
						       ACT_HELP, ACT_QUIT};
		static const char *const words[] = {"presets", "results", "help", "quit"};
		ui_hints(a, bottom, KS_RUN, acts, words, 4);
	}
}

void run_key(struct app *a, enum key_action act)
{
	struct run_snapshot s;

	run_model_snapshot(a->run, &s, NULL, NULL);
	switch (act) {
	case ACT_PLOT_SPAN:
		a->plot_recent = !a->plot_recent;
		ui_status(a, ROLE_NORMAL, a->plot_recent ? "plots: the last minutes"
							 : "plots: the whole phase");
		break;
	case ACT_PAUSE:
		if (!s.active)
			break;
		run_model_pause(a->run, !s.paused);
		ui_status(a, ROLE_NORMAL, s.paused ? "resumed" : "paused: the clock stops too");
		break;
	case ACT_ABORT:
		if (s.active && !s.stopping)
			ui_confirm(a, ACT_ABORT, "Abort the run?",
				   "The running step stops; the result is saved, marked aborted, "
				   "with everything measured so far. Queued presets do not run.");
		break;
	default:
		break;
	}
}
