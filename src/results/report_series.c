// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series of the comparison's charts, built from the report model (report.h): bars of
 * single-step sections, latency exceedance curves, the SNIA block size x mix matrix and
 * preconditioning over time. Renderers only draw them.
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

/* ---- chart series ------------------------------------------------------------------ */

bool report_group_single(const struct report *rep, unsigned g)
{
	const struct report_group *grp = &rep->groups[g];
	unsigned n = 0;

	for (unsigned r = 0; r < grp->nrows; r++)
		n += rep->rows[grp->first_row + r].dir == DIR_ALL &&
		     !rep->rows[grp->first_row + r].stream;
	return n == 1;
}

/* A row's first step: the workload all runs share in it. */
static const struct result_step *row_step(const struct report *rep, unsigned row)
{
	for (unsigned i = 0; i < rep->nruns; i++)
		if (rep->rows[row].steps[i])
			return rep->rows[row].steps[i];
	return NULL;
}

/* "4k random": what a bar set shares, the block size (or split) and the pattern. */
static void bars_key(char *buf, size_t len, const struct workload *wl)
{
	char bs[WL_MAX_SPLIT * 24];

	if (wl->nsplit)
		workload_fmt_bssplit(wl, bs, sizeof(bs));
	else
		units_fmt_size(bs, sizeof(bs), wl->bs);
	text_fmt(buf, len, "%s %s", bs, wl_pattern_name[wl->pattern]);
}

struct bar_row {
	char key[128];
	unsigned row;
};

static int cmp_bar_row(const void *a, const void *b)
{
	const struct bar_row *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int cmp_bar_set(const void *a, const void *b)
{
	const struct report_bars *x = a, *y = b;
	return (x->rows[0] > y->rows[0]) - (x->rows[0] < y->rows[0]);
}

int report_bars(const struct report *rep, struct report_bars **sets, unsigned *nsets)
{
	struct bar_row *br = malloc((rep->nrows ? rep->nrows : 1) * sizeof(*br));
	unsigned n = 0;

	*sets = NULL;
	*nsets = 0;
	if (!br)
		return -ENOMEM;
	for (unsigned g = 0; g < rep->ngroups; g++) {
		if (!report_group_single(rep, g))
			continue;
		const struct report_group *grp = &rep->groups[g];
		const struct result_step *st = row_step(rep, grp->first_row);
		for (unsigned r = 0; st && r < grp->nrows; r++) {
			bars_key(br[n].key, sizeof(br[n].key), &st->wl);
			br[n++].row = grp->first_row + r;
		}
	}
	/* sorted by key, the sets come out in one pass (linear after the sort) */
	qsort(br, n, sizeof(*br), cmp_bar_row);
	struct report_bars *out = calloc(n ? n : 1, sizeof(*out));
	unsigned ns = 0;
	int ret = out ? 0 : -ENOMEM;
	for (unsigned i = 0, j; i < n && !ret; i = j) {
		for (j = i; j < n && !strcmp(br[j].key, br[i].key); j++)
			;
		struct report_bars *b = &out[ns++];
		text_copy(b->title, sizeof(b->title), br[i].key);
		b->rows = malloc((j - i) * sizeof(*b->rows));
		b->cats = malloc((j - i) * sizeof(*b->cats));
		if (!b->rows || !b->cats) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned k = i; k < j; k++) {
			const struct report_row *row = &rep->rows[br[k].row];
			b->rows[b->ncats] = br[k].row;
			text_fmt(b->cats[b->ncats++], sizeof(b->cats[0]), "%s %s",
				 rep->groups[row->group].title, row->name);
		}
	}
	free(br);
	if (ret) {
		report_bars_free(out, ns);
		return ret;
	}
	if (ns > 1)
		qsort(out, ns, sizeof(*out), cmp_bar_set);
	*sets = out;
	*nsets = ns;
	return 0;
}

void report_bars_free(struct report_bars *sets, unsigned nsets)
{
	for (unsigned i = 0; sets && i < nsets; i++) {
		free(sets[i].rows);
		free(sets[i].cats);
	}
	free(sets);
}

int report_exceedance(const struct report *rep, unsigned row, unsigned run,
		      struct report_exceed *out)
{
	const struct result_step *st = rep->rows[row].steps[run];
	enum io_dir dir = rep->rows[row].dir;
	struct hist *h;
	uint64_t total = 0, seen = 0;

	memset(out, 0, sizeof(*out));
	if (!st || !st->hist)
		return 0;
	h = malloc(2 * sizeof(*h));
	if (!h)
		return -ENOMEM;
	result_step_get_hist(st, &h[0], &h[1]);
	/* the row's direction; a combined row adds writes to reads */
	if (dir == DIR_WRITE)
		h[0] = h[1];
	else if (dir == DIR_ALL)
		hist_merge(&h[0], &h[1]);
	unsigned nb = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		total += h[0].bucket[i];
		nb += h[0].bucket[i] != 0;
	}
	if (!total) {
		free(h);
		return 0;
	}
	out->nines = malloc((nb + 1) * sizeof(double));
	out->lat_ms = malloc((nb + 1) * sizeof(double));
	if (!out->nines || !out->lat_ms) {
		free(h);
		report_exceed_free(out);
		return -ENOMEM;
	}
	/* a point per bucket: the share of I/Os that took at least its latency */
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h[0].bucket[i])
			continue;
		out->nines[out->n] = -log10((double)(total - seen) / (double)total);
		out->lat_ms[out->n++] = (double)hist_bucket_value(i) / 1e6;
		seen += h[0].bucket[i];
	}
	/* and the slowest I/O, one in all of them: the curve's end */
	if (out->nines[out->n - 1] < log10((double)total)) {
		out->nines[out->n] = log10((double)total);
		out->lat_ms[out->n] = out->lat_ms[out->n - 1];
		out->n++;
	}
	free(h);
	return 0;
}

void report_exceed_free(struct report_exceed *e)
{
	free(e->nines);
	free(e->lat_ms);
	e->nines = e->lat_ms = NULL;
	e->n = 0;
}

/* ---- SNIA matrix ---------------------------------------------------------------- */

static int cmp_u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x < y) - (x > y);
}

/* The distinct values of v[0..n), sorted descending, in place; how many. */
static unsigned unique_desc(uint32_t *v, unsigned n)
{
	unsigned k = 0;

	qsort(v, n, sizeof(*v), cmp_u32_desc);
	for (unsigned i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* The position of x in v[0..n) sorted descending (x is there). */
static unsigned find_desc(const uint32_t *v, unsigned n, uint32_t x)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (v[mid] > x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A step of the matrix: fixed block size, random, no rate limit, the first one's T/Q. */
static bool matrix_step(const struct result_step *st, const struct result_step *first)
{
	return !st->wl.nsplit && !st->wl.rate_iops && st->wl.pattern == WL_RANDOM &&
	       (!first ||
		(st->wl.threads == first->wl.threads && st->wl.qdepth == first->wl.qdepth));
}

static bool measuring_phase(const struct result_phase *ph)
{
	return ph->kind == PH_MEASURE || ph->kind == PH_RUN;
}

/* A step's round, from its label ("round 7 4k 65/35"); 0 outside rounds. */
static unsigned step_round(const struct result_step *st)
{
	unsigned r = 0;
	return sscanf(st->label, "round %u", &r) == 1 ? r : 0;
}

void report_matrix_free(struct report_matrix *m)
{
	free(m->bs);
	free(m->mix);
	free(m->bs_names);
	free(m->iops);
	free(m->lat_avg_ms);
	free(m->lat_max_ms);
	free(m->conv);
	memset(m, 0, sizeof(*m));
}

int report_matrix(const struct report *rep, unsigned run, struct report_matrix *m)
{
	const struct result *r = rep->runs[run].res;
	const struct result_phase *ph = NULL;
	unsigned n = result_nsteps(r), *cnt = NULL;

	memset(m, 0, sizeof(*m));
	m->bs = calloc(n + 1, sizeof(*m->bs));
	m->mix = calloc(n + 1, sizeof(*m->mix));
	if (!m->bs || !m->mix)
		goto oom;
	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned s = 0; measuring_phase(&r->phases[p]) && s < r->phases[p].nsteps;
		     s++) {
			const struct result_step *st = &r->phases[p].steps[s];
			/* the first phase with such steps is the matrix */
			if ((ph && ph != &r->phases[p]) || !matrix_step(st, m->first))
				continue;
			if (!m->first) {
				m->first = st;
				ph = m->phase = &r->phases[p];
			}
			m->bs[m->nbs++] = st->wl.bs;
			m->mix[m->nmix++] = st->wl.read_pct;
		}
	m->nbs = unique_desc(m->bs, m->nbs);
	m->nmix = unique_desc(m->mix, m->nmix);
	if (m->nbs < 2 || m->nmix < 2) {
		report_matrix_free(m);
		return 0;
	}
	/* the window: the phase's judged rounds, the last `window` of them */
	const struct steady_info *sd = &ph->steady;
	for (unsigned s = 0; s < ph->nsteps; s++)
		if (step_round(&ph->steps[s]) > m->nrounds)
			m->nrounds = step_round(&ph->steps[s]);
	if (sd->used && sd->round && sd->window) {
		m->last_round = sd->round;
		m->window_rounds = sd->window < sd->round ? sd->window : sd->round;
	}
	size_t cells = (size_t)m->nbs * m->nmix;
	m->latency = strstr(sd->tracked, "_ns") != NULL; /* mean_ns, max_ns, p99_ns ... */
	m->iops = malloc(cells * sizeof(*m->iops));
	m->lat_avg_ms = malloc(cells * sizeof(*m->lat_avg_ms));
	m->lat_max_ms = malloc(cells * sizeof(*m->lat_max_ms));
	cnt = calloc(cells, sizeof(*cnt));
	m->bs_names = calloc(m->nbs, sizeof(*m->bs_names));
	m->conv = malloc(((size_t)m->nbs * m->nrounds + 1) * sizeof(*m->conv));
	if (!m->iops || !m->lat_avg_ms || !m->lat_max_ms || !cnt || !m->bs_names || !m->conv)
		goto oom;
	for (size_t i = 0; i < cells; i++)
		m->iops[i] = m->lat_avg_ms[i] = m->lat_max_ms[i] = NAN;
	for (size_t i = 0; i < (size_t)m->nbs * m->nrounds; i++)
		m->conv[i] = NAN;
	for (unsigned b = 0; b < m->nbs; b++)
		units_fmt_size(m->bs_names[b], sizeof(m->bs_names[b]), m->bs[b]);
	/* one pass over the phase's steps: window sums, or the last value, and convergence */
	for (unsigned s = 0; s < ph->nsteps; s++) {
		const struct result_step *st = &ph->steps[s];
		if (!matrix_step(st, m->first) || !st->summary.d[DIR_ALL].ios)
			continue;
		unsigned b = find_desc(m->bs, m->nbs, st->wl.bs);
		unsigned c = find_desc(m->mix, m->nmix, st->wl.read_pct), rd = step_round(st);
		size_t i = (size_t)b * m->nmix + c;
		const struct dir_stats *d = &st->summary.d[DIR_ALL];
		double v = d->iops, avg = d->mean_ns / 1e6, max = d->max_ns / 1e6;
		if (rd && c == m->nmix - 1)
			m->conv[(size_t)b * m->nrounds + rd - 1] = m->latency ? avg : v;
		bool in = rd + m->window_rounds > m->last_round && rd <= m->last_round;
		if (!m->window_rounds || (in && !cnt[i])) {
			/* the last one measured, or the window's first */
			m->iops[i] = v;
			m->lat_avg_ms[i] = avg;
			m->lat_max_ms[i] = max;
		} else if (in) {
			m->iops[i] += v;
			m->lat_avg_ms[i] += avg;
			m->lat_max_ms[i] = fmax(m->lat_max_ms[i], max);
		}
		cnt[i] += m->window_rounds && in;
	}
	for (size_t i = 0; i < cells && m->window_rounds; i++)
		if (cnt[i]) {
			m->iops[i] /= cnt[i];
			m->lat_avg_ms[i] /= cnt[i];
		}
	free(cnt);
	report_phase_summary(m->verdict, sizeof(m->verdict), ph);
	return 0;
oom:
	free(cnt);
	report_matrix_free(m);
	return -ENOMEM;
}

bool report_matrix_covers(const struct report_matrix *m, const struct result_step *st)
{
	return m->nbs && st && st >= m->phase->steps && st < m->phase->steps + m->phase->nsteps &&
	       matrix_step(st, m->first);
}

int report_matrices(const struct report *rep, struct report_matrix **out)
{
	struct report_matrix *mx = calloc(rep->nruns ? rep->nruns : 1, sizeof(*mx));
	int ret = mx ? 0 : -ENOMEM;

	for (unsigned i = 0; i < rep->nruns && !ret; i++)
		ret = report_matrix(rep, i, &mx[i]);
	if (ret) {
		report_matrices_free(mx, rep->nruns);
		mx = NULL;
	}
	*out = mx;
	return ret;
}

void report_matrices_free(struct report_matrix *mx, unsigned n)
{
	for (unsigned i = 0; mx && i < n; i++)
		report_matrix_free(&mx[i]);
	free(mx);
}

bool report_matrices_cover(const struct report *rep, const struct report_matrix *mx, unsigned g)
{
	for (unsigned i = 0; i < rep->nruns; i++)
		if (report_matrix_covers(&mx[i], rep->rows[rep->groups[g].first_row].steps[i]))
			return true;
	return false;
}

/* ---- SNIA write saturation --------------------------------------------------------- */

void report_wsat_free(struct report_wsat *w)
{
	free(w->t_s);
	free(w->written_gb);
	free(w->iops);
	memset(w, 0, sizeof(*w));
}

int report_wsat(const struct report *rep, unsigned run, struct report_wsat *w)
{
	const struct result *r = rep->runs[run].res;
	uint64_t written = 0;

	memset(w, 0, sizeof(*w));
	for (unsigned p = 0; p < r->nphases && !w->step; p++)
		if (measuring_phase(&r->phases[p]) && r->phases[p].nsteps &&
		    !strcmp(r->phases[p].name, REPORT_WSAT_PHASE))
			w->step = &r->phases[p].steps[0];
	if (!w->step || !w->step->nsamples)
		return 0;
	w->t_s = malloc(w->step->nsamples * sizeof(double));
	w->written_gb = malloc(w->step->nsamples * sizeof(double));
	w->iops = malloc(w->step->nsamples * sizeof(double));
	if (!w->t_s || !w->written_gb || !w->iops) {
		report_wsat_free(w);
		return -ENOMEM;
	}
	struct sample_iter it;
	struct sample sm;
	written = w->step->ramp.d[DIR_ALL].bytes; /* what completed before the first sample */
	sample_iter_init(&it, w->step);
	while (w->n < w->step->nsamples && sample_iter_next(&it, &sm)) {
		written += sm.d[DIR_ALL].bytes;
		w->t_s[w->n] = (double)(sm.start_ns + sm.dur_ns) / 1e9;
		w->written_gb[w->n] = (double)written / 1e9;
		w->iops[w->n++] = sm.d[DIR_ALL].iops;
	}
	w->capacity_gb = (double)result_capacity_bytes(r) / 1e9;
	return 0;
}

/* ---- preconditioning over time --------------------------------------------------- */

/* How many chart points a run's preconditioning has: a sample each, or a round's summary. */
unsigned report_precondition_count(const struct result *r)
{
	unsigned n = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		for (unsigned s = 0;
		     r->phases[p].kind == PH_PRECONDITION && s < r->phases[p].nsteps; s++)
			n += r->phases[p].steps[s].nsamples ? r->phases[p].steps[s].nsamples : 1;
	return n;
}

/*
 * Points of a run's preconditioning, every interval sample on one time line: t_s[] in
 * seconds and, for each metric in mask, v[m][]. One pass over the (packed) samples.
 */
void report_precondition_points(const struct result *r, unsigned mask, double *t_s,
				double *v[RM_COUNT], unsigned max)
{
	uint64_t offset_ns = 0;
	unsigned n = 0;

	for (unsigned p = 0; p < r->nphases; p++) {
		const struct result_phase *ph = &r->phases[p];
		if (ph->kind != PH_PRECONDITION)
			continue;
		for (unsigned s = 0; s < ph->nsteps && n < max; s++) {
			const struct result_step *st = &ph->steps[s];
			uint64_t end_ns = st->summary.dur_ns;
			struct sample_iter it;
			struct sample sm;
			sample_iter_init(&it, st);
			while (n < max && sample_iter_next(&it, &sm)) {
				t_s[n] = (double)(offset_ns + sm.start_ns + sm.dur_ns) / 1e9;
				for (unsigned m = 0; m < RM_COUNT; m++)
					if (mask & (1u << m))
						v[m][n] = sm.d[DIR_ALL].ios
								  ? report_metric_value(
									    (enum report_metric)m,
									    &sm.d[DIR_ALL])
								  : NAN;
				n++;
				if (sm.start_ns + sm.dur_ns > end_ns)
					end_ns = sm.start_ns + sm.dur_ns;
			}
			if (!st->nsamples && n < max) {
				/* a round without interval samples: its summary as one point */
				t_s[n] = (double)(offset_ns + st->summary.dur_ns) / 1e9;
				for (unsigned m = 0; m < RM_COUNT; m++)
					if (mask & (1u << m))
						v[m][n] = report_metric_value(
							(enum report_metric)m,
							&st->summary.d[DIR_ALL]);
				n++;
			}
			offset_ns += end_ns;
		}
	}
}
