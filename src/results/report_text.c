// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text and Markdown renderers. Both lay the same grids out (a heading row and rows of
 * strings); text pads columns for a terminal, Markdown writes pipe tables for articles.
 * Every string is stored in its visible form (text.h: no control character reaches the
 * terminal, none breaks a row); Markdown escapes its own punctuation and HTML on top,
 * so a model string cannot open an HTML block, a link or a new row.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result_io.h"
#include "text.h"

/* A grid of strings, row-major; row 0 is the heading. */
struct grid {
	unsigned rows, cols;
	char **cell;
};

static int grid_init(struct grid *g, unsigned rows, unsigned cols)
{
	g->rows = rows;
	g->cols = cols;
	g->cell = calloc((size_t)rows * cols + 1, sizeof(*g->cell));
	return g->cell ? 0 : -ENOMEM;
}

static int grid_set(struct grid *g, unsigned r, unsigned c, const char *s)
{
	free(g->cell[r * g->cols + c]);
	g->cell[r * g->cols + c] = text_visible_dup(s ? s : "");
	return g->cell[r * g->cols + c] ? 0 : -ENOMEM;
}

static const char *grid_get(const struct grid *g, unsigned r, unsigned c)
{
	const char *s = g->cell[r * g->cols + c];
	return s ? s : "";
}

static void grid_free(struct grid *g)
{
	for (size_t i = 0; g->cell && i < (size_t)g->rows * g->cols; i++)
		free(g->cell[i]);
	free(g->cell);
	g->cell = NULL;
}

/* Display width of UTF-8 text: terminal columns, as the TUI counts them. */
static size_t width(const char *s)
{
	return text_width(s);
}

enum style { ST_TEXT, ST_MD };

/* Text: first column left, the rest right-aligned. Markdown: a pipe table. */
static void grid_print(const struct grid *g, FILE *out, enum style st, bool left_all)
{
	size_t *w = calloc(g->cols, sizeof(*w));

	if (!w)
		return;
	for (unsigned c = 0; c < g->cols; c++)
		for (unsigned r = 0; r < g->rows; r++)
			if (width(grid_get(g, r, c)) > w[c])
				w[c] = width(grid_get(g, r, c));
	for (unsigned r = 0; r < g->rows; r++) {
		if (st == ST_MD)
			fputs("|", out);
		for (unsigned c = 0; c < g->cols; c++) {
			const char *s = grid_get(g, r, c);
			size_t pad = w[c] - width(s);
			bool left = c == 0 || left_all;
			if (st == ST_MD) {
				/* a pipe inside a cell would end it: escaped, with the rest */
				fputc(' ', out);
				text_fput_md(out, s, false);
				fputs(" |", out);
				continue;
			}
			fprintf(out, "%s%*s%s%*s", c ? "  " : "  ", left ? 0 : (int)pad, "", s,
				left && c + 1 < g->cols ? (int)pad : 0, "");
		}
		fputc('\n', out);
		if (st == ST_MD && r == 0) {
			fputs("|", out);
			for (unsigned c = 0; c < g->cols; c++)
				fputs(c == 0 || left_all ? " --- |" : " ---: |", out);
			fputc('\n', out);
		}
	}
	free(w);
}

static int runs_grid(const struct report *rep, struct grid *g)
{
	static const char *const head[] = {"#",	    "drive", "preset", "scale",
					   "started", "status", "steps", "file"};
	const unsigned ncol = sizeof(head) / sizeof(head[0]);
	int ret = grid_init(g, rep->nruns + 1, ncol);

	for (unsigned c = 0; c < ncol && !ret; c++)
		ret = grid_set(g, 0, c, head[c]);
	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		const struct result *r = rep->runs[i].res;
		char n[16], steps[16], scale[32];
		snprintf(n, sizeof(n), "%u", i + 1);
		report_fmt_scale(scale, sizeof(scale), r->scale);
		snprintf(steps, sizeof(steps), "%u", result_nsteps(r));
		ret = grid_set(g, i + 1, 0, n) || grid_set(g, i + 1, 1, rep->runs[i].label) ||
		      grid_set(g, i + 1, 2, r->preset_name[0] ? r->preset_name : "(ad hoc)") ||
		      grid_set(g, i + 1, 3, scale) || grid_set(g, i + 1, 4, r->started) ||
		      grid_set(g, i + 1, 5, result_status_name[r->status]) ||
		      grid_set(g, i + 1, 6, steps) || grid_set(g, i + 1, 7, r->path);
	}
	return ret ? -ENOMEM : 0;
}

static int table_grid(const struct report_table *t, struct grid *g)
{
	int ret = grid_init(g, t->nrows + 1, t->ncols + 1);

	if (!ret)
		ret = grid_set(g, 0, 0, "step");
	for (unsigned c = 0; c < t->ncols && !ret; c++)
		ret = grid_set(g, 0, c + 1, t->col_names[c]);
	for (unsigned r = 0; r < t->nrows && !ret; r++) {
		ret = grid_set(g, r + 1, 0, t->row_names[r]);
		for (unsigned c = 0; c < t->ncols && !ret; c++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + c];
			char v[48], s[80];
			if (!cell->present)
				snprintf(s, sizeof(s), "-");
			else if (cell->rated > 0)
				snprintf(s, sizeof(s), "%s (%.0f%%)%s",
					 report_fmt_value(v, sizeof(v), t->metric, cell->value),
					 cell->pct_of_rated, cell->warned ? " " REPORT_WARN_MARK : "");
			else
				snprintf(s, sizeof(s), "%s%s",
					 report_fmt_value(v, sizeof(v), t->metric, cell->value),
					 cell->warned ? " " REPORT_WARN_MARK : "");
			ret = grid_set(g, r + 1, c + 1, s);
		}
	}
	return ret ? -ENOMEM : 0;
}

/* An outside string in the style's escaping; line_start: it begins a line or list item. */
static void put_at(FILE *out, enum style st, const char *s, bool line_start)
{
	if (st == ST_MD)
		text_fput_md(out, s, line_start);
	else
		text_fput_visible(out, s);
}

static void put(FILE *out, enum style st, const char *s)
{
	put_at(out, st, s, false);
}

static void ratings(const struct report_table *t, FILE *out, enum style st)
{
	const char *bullet = st == ST_MD ? "- " : "  - ";
	bool first = true;

	for (unsigned r = 0; r < t->nrows; r++)
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + c];
			char s[160];
			if (!cell->present || cell->rated <= 0)
				continue;
			if (first)
				fprintf(out, "\n%sAgainst the spec sheet:\n",
					st == ST_MD ? "" : "  ");
			first = false;
			fputs(bullet, out);
			put_at(out, st, t->col_names[c], true);
			fputs(", ", out);
			put(out, st, t->row_names[r]);
			fputs(": ", out);
			put(out, st, report_fmt_rating(s, sizeof(s), t->metric, cell));
			fputs("\n", out);
		}
}

/* Under a table's title: the codes of what its steps differ in, and how. */
static void not_comparable(const struct report_table *t, FILE *out, enum style st)
{
	char codes[256];

	if (!t->differ && !t->unknown)
		return;
	report_differ_codes(codes, sizeof(codes), t->differ, t->unknown, " ");
	fputs(st == ST_MD ? "**" : "  ", out);
	put(out, st, codes);
	fputs(st == ST_MD ? "**: " : ": ", out);
	put(out, st, t->differ_note ? t->differ_note : "");
	fputs(st == ST_MD ? "\n\n" : "\n", out);
}

/* One matrix's values (report_matrix) as a grid: block sizes down, read mixes across. */
static int matrix_grid(const struct report_matrix *mx, const double *v, enum report_metric m,
		       struct grid *g)
{
	int ret = grid_init(g, mx->nbs + 1, mx->nmix + 1);
	char t[48];

	if (!ret)
		ret = grid_set(g, 0, 0, "block size");
	for (unsigned c = 0; c < mx->nmix && !ret; c++) {
		snprintf(t, sizeof(t), "%u/%u", mx->mix[c], 100 - mx->mix[c]);
		ret = grid_set(g, 0, c + 1, t);
	}
	for (unsigned b = 0; b < mx->nbs && !ret; b++) {
		ret = grid_set(g, b + 1, 0, mx->bs_names[b]);
		for (unsigned c = 0; c < mx->nmix && !ret; c++) {
			double x = v[b * mx->nmix + c];
			ret = grid_set(g, b + 1, c + 1,
				       isfinite(x) ? report_fmt_value(t, sizeof(t), m, x) : "-");
		}
	}
	return ret ? -ENOMEM : 0;
}

/* The convergence (report_matrix): a row a round, a column a block size. */
static int convergence_grid(const struct report_matrix *mx, struct grid *g)
{
	enum report_metric m = mx->latency ? RM_LAT_AVG : RM_IOPS;
	int ret = grid_init(g, mx->nrounds + 1, mx->nbs + 1);
	char t[48];

	if (!ret)
		ret = grid_set(g, 0, 0, "round");
	for (unsigned b = 0; b < mx->nbs && !ret; b++)
		ret = grid_set(g, 0, b + 1, mx->bs_names[b]);
	for (unsigned k = 0; k < mx->nrounds && !ret; k++) {
		snprintf(t, sizeof(t), "%u", k + 1);
		ret = grid_set(g, k + 1, 0, t);
		for (unsigned b = 0; b < mx->nbs && !ret; b++) {
			double x = mx->conv[b * mx->nrounds + k];
			ret = grid_set(g, k + 1, b + 1,
				       isfinite(x) ? report_fmt_value(t, sizeof(t), m, x) : "-");
		}
	}
	return ret ? -ENOMEM : 0;
}

/*
 * SNIA's tables for each run that has a matrix: IOPS (the IOPS test) or average and
 * maximum latency (the latency test) as block size x mix over the steady-state window,
 * the convergence round by round, and the verdict.
 */
static int matrices(const struct report *rep, const struct report_matrix *mx, FILE *out,
		    enum style st)
{
	bool md = st == ST_MD;
	struct grid g = {0};
	int ret = 0;

	for (unsigned i = 0; i < rep->nruns && !ret; i++) {
		static const enum report_metric iops[] = {RM_IOPS}, lat[] = {RM_LAT_AVG, RM_LAT_MAX};
		const struct report_matrix *m = &mx[i];
		char tq[32], s[160];
		if (!m->nbs)
			continue;
		for (unsigned k = 0; k < (m->latency ? 2u : 1u) && !ret; k++) {
			enum report_metric metric = (m->latency ? lat : iops)[k];
			fputs(md ? "\n## Block size x read/write mix: " : "\nBlock size x read/write mix: ",
			      out);
			put(out, st, rep->runs[i].label);
			snprintf(s, sizeof(s), ", %s random, %s (%s)",
				 workload_tq(&m->first->wl, tq, sizeof(tq)),
				 report_metric_info[metric].title, report_metric_info[metric].unit);
			put(out, st, s);
			if (m->window_rounds)
				fprintf(out, ": the steady-state window's %s, rounds %u to %u",
					metric == RM_LAT_MAX ? "highest" : "average",
					m->last_round - m->window_rounds + 1, m->last_round);
			fputs(md ? "\n\n" : "\n", out);
			ret = matrix_grid(m, metric == RM_IOPS	   ? m->iops
					     : metric == RM_LAT_AVG ? m->lat_avg_ms
								    : m->lat_max_ms,
					  metric, &g);
			if (!ret)
				grid_print(&g, out, st, false);
			grid_free(&g);
		}
		if (!ret && m->nrounds >= 2) {
			fprintf(out, md ? "\n## Steady-state convergence, %u/%u mix, %s\n\n"
					: "\nSteady-state convergence, %u/%u mix, %s\n",
				m->mix[m->nmix - 1], 100 - m->mix[m->nmix - 1],
				m->latency ? "average latency (ms)" : "throughput (IOPS)");
			if (!(ret = convergence_grid(m, &g)))
				grid_print(&g, out, st, false);
			grid_free(&g);
		}
		if (m->verdict[0]) {
			fputs(md ? "\nSteady state: " : "  steady state: ", out);
			put(out, st, m->verdict);
			fputs("\n", out);
		}
	}
	return ret;
}

static int render(const struct report *rep, FILE *out, enum style st)
{
	struct report_matrix *mx = NULL;
	struct grid g = {0};
	bool md = st == ST_MD;
	int ret;

	fputs(md ? "# " : "drivebench comparison: ", out);
	put(out, st, rep->title);
	fputs(md ? "\n\n## Runs\n\n" : "\n\nRuns\n", out);
	ret = runs_grid(rep, &g);
	if (ret)
		return ret;
	grid_print(&g, out, st, true);
	grid_free(&g);

	if (rep->nnotes) {
		fprintf(out, md ? "\n## Notes\n\n" : "\nNotes\n");
		for (unsigned i = 0; i < rep->nnotes; i++) {
			fputs(md ? "- " : "  - ", out);
			put_at(out, st, rep->notes[i], true);
			fputs("\n", out);
		}
	}

	bool any = false;
	for (unsigned i = 0, p = 0; report_next_precondition(rep, &i, &p); p++) {
		const struct result_phase *ph = &rep->runs[i].res->phases[p];
		char s[512];
		if (!any)
			fprintf(out, md ? "\n## Preconditioning\n\n" : "\nPreconditioning\n");
		any = true;
		fputs(md ? "- " : "  - ", out);
		put_at(out, st, rep->runs[i].label, true);
		fputs(", ", out);
		put(out, st, ph->name);
		fputs(": ", out);
		put(out, st, report_phase_summary(s, sizeof(s), ph));
		fputs("\n", out);
	}

	any = false;
	for (unsigned i = 0; i < rep->nruns; i++) {
		char s[512];
		if (!report_run_cpu_text(s, sizeof(s), rep, i))
			continue;
		if (!any)
			fprintf(out, md ? "\n## CPU use\n\n" : "\nCPU use\n");
		any = true;
		fputs(md ? "- " : "  - ", out);
		put_at(out, st, rep->runs[i].label, true);
		fputs(": ", out);
		put(out, st, s);
		fputs("\n", out);
	}

	/* a group of a matrix's cells, round by round, is shown as its matrix */
	if ((ret = report_matrices(rep, &mx)) || (ret = matrices(rep, mx, out, st)))
		goto out;
	report_app_text(rep, out, md);
	for (unsigned m = 0; m < RM_COUNT; m++) {
		if (!(rep->metric_mask & (1u << m)))
			continue;
		for (unsigned gi = 0; gi < rep->ngroups; gi++) {
			struct report_table t;
			if (report_matrices_cover(rep, mx, gi))
				continue;
			ret = report_table(rep, (enum report_metric)m, gi, &t);
			if (ret)
				goto out;
			ret = table_grid(&t, &g);
			if (ret) {
				report_table_free(&t);
				goto out;
			}
			fputs(md ? "\n## " : "\n", out);
			put(out, st, t.title);
			fputs(md ? "\n\n" : "\n", out);
			not_comparable(&t, out, st);
			grid_print(&g, out, st, false);
			grid_free(&g);
			ratings(&t, out, st);
			report_table_free(&t);
		}
	}
out:
	report_matrices_free(mx, rep->nruns);
	return ret;
}

int report_render_text(const struct report *rep, FILE *out)
{
	return render(rep, out, ST_TEXT);
}

int report_render_md(const struct report *rep, FILE *out)
{
	return render(rep, out, ST_MD);
}
