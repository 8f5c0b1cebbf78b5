// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CSV for spreadsheets: one header row, then one row per compared step, direction and
 * run ("tidy" data: a pivot table turns it into any of the review's tables). Numbers are
 * plain (no grouping, no units); units are in the column names. Text fields are made
 * safe for spreadsheets (no formula runs) and terminals (no control character).
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result_io.h"
#include "text.h"
#include "units.h"

/* A decimal number as CSV writers and spreadsheets read one: [+-]digits[.digits][e[+-]digits]. */
static bool is_number(const char *s)
{
	bool digits = false;

	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits = true;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits = true;
	if (digits && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return digits && !*s;
}

/*
 * One field. Text is written in its visible form (no control characters: a CSV is read
 * by people in terminals too). A cell a spreadsheet would take for a formula (starting
 * with = + - @, TAB or CR; numbers excepted) gets a leading ' as OWASP's advice for CSV
 * injection says, so "=cmd|' /C calc'!A0" stays text. RFC 4180: fields holding a
 * separator or a quote are quoted.
 */
void report_csv_field(FILE *out, const char *s, bool last)
{
	char *v = text_visible_dup(s ? s : "");
	const char *t = v ? v : "";
	bool formula = strchr("=+-@\t\r", t[0]) && t[0] && !is_number(t);

	if (formula || strpbrk(t, ",\"\r\n")) {
		fputc('"', out);
		if (formula)
			fputc('\'', out);
		for (; *t; t++) {
			if (*t == '"')
				fputc('"', out);
			fputc(*t, out);
		}
		fputc('"', out);
	} else {
		fputs(t, out);
	}
	free(v);
	fputs(last ? "\n" : ",", out);
}

/* A number, or an empty cell when there is none (not finite: no "inf" or "nan"). */
static void num(FILE *out, double v, bool present, bool last)
{
	char buf[48] = "";
	if (present && isfinite(v))
		snprintf(buf, sizeof(buf), "%.10g", v);
	report_csv_field(out, buf, last);
}

static void unum(FILE *out, unsigned long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%llu", v);
	report_csv_field(out, buf, false);
}

/* The step's warning codes, space-separated (the texts are in the other formats' notes). */
static void warnings(FILE *out, const struct result_step *st)
{
	char buf[512] = "";
	size_t used = 0;

	for (unsigned w = 0; w < st->nwarnings && used < sizeof(buf); w++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", w ? " " : "",
					 st->warnings[w].code);
	report_csv_field(out, buf, true);
}

static const char *const fixed_cols[] = {
	"run",	    "drive",   "model",	    "firmware",	 "capacity_bytes", "preset",
	"group",    "step",    "direction", "pattern",	 "bs_bytes",	   "bssplit",
	"read_pct", "threads", "qdepth",    "rate_iops",
};

static const char *const dir_name[NDIR] = {
	[DIR_READ] = "read",
	[DIR_WRITE] = "write",
	[DIR_ALL] = "all",
};

int report_render_csv(const struct report *rep, FILE *out)
{
	const unsigned nfixed = sizeof(fixed_cols) / sizeof(fixed_cols[0]);

	for (unsigned c = 0; c < nfixed; c++)
		report_csv_field(out, fixed_cols[c], false);
	for (unsigned m = 0; m < RM_COUNT; m++)
		if (rep->metric_mask & (1u << m))
			report_csv_field(out, report_metric_info[m].csv, false);
	report_csv_field(out, "rated_metric", false);
	report_csv_field(out, "rated_value", false);
	report_csv_field(out, "pct_of_rated", false);
	report_csv_field(out, "steady", false);
	report_csv_field(out, "steady_first_round", false);
	report_csv_field(out, "steady_data_excursion_pct", false);
	report_csv_field(out, "steady_slope_excursion_pct", false);
	report_csv_field(out, "not_comparable", false);
	report_csv_field(out, "warnings", true);

	for (unsigned r = 0; r < rep->nrows; r++) {
		const struct report_row *row = &rep->rows[r];
		for (unsigned i = 0; i < rep->nruns; i++) {
			const struct result *res = rep->runs[i].res;
			const struct workload *wl = &row->steps[i]->wl;
			char split[WL_MAX_SPLIT * 24] = "";
			struct report_cell rated = {0};
			int rated_metric = -1;

			unum(out, i + 1);
			report_csv_field(out, rep->runs[i].label, false);
			report_csv_field(out, result_drive_model(res), false);
			report_csv_field(out, result_drive_firmware(res), false);
			unum(out, result_capacity_bytes(res));
			report_csv_field(out, res->preset_name, false);
			report_csv_field(out, rep->groups[row->group].title, false);
			report_csv_field(out, row->name, false);
			report_csv_field(out, dir_name[row->dir], false);
			report_csv_field(out, wl_pattern_name[wl->pattern], false);
			unum(out, wl->nsplit ? 0 : wl->bs);
			report_csv_field(out, wl->nsplit ? workload_fmt_bssplit(wl, split, sizeof(split)) : "",
			      false);
			unum(out, wl->read_pct);
			unum(out, wl->threads);
			unum(out, wl->qdepth);
			unum(out, wl->rate_iops);
			for (unsigned m = 0; m < RM_COUNT; m++) {
				if (!(rep->metric_mask & (1u << m)))
					continue;
				struct report_cell c =
					report_cell(rep, r, i, (enum report_metric)m);
				num(out, c.value, c.present, false);
				if (c.present && c.rated > 0 && rated_metric < 0) {
					rated = c;
					rated_metric = (int)m;
				}
			}
			report_csv_field(out, rated_metric >= 0 ? report_metric_info[rated_metric].csv : "",
			      false);
			num(out, rated.rated, rated_metric >= 0, false);
			num(out, rated.pct_of_rated, rated_metric >= 0, false);
			/* the steady-state verdict the step was measured under */
			const struct steady_info *sv = report_step_steady(res, row->steps[i]);
			report_csv_field(out, sv ? (sv->reached ? "yes" : "no") : "", false);
			num(out, sv ? sv->first_round : 0, sv && sv->first_round, false);
			num(out, sv ? sv->data_excursion_pct : 0, sv != NULL, false);
			num(out, sv ? sv->slope_excursion_pct : 0, sv != NULL, false);
			/* the codes of the row's tables (its group's, for the metrics shown), the
			   note is in other formats */
			char codes[256];
			unsigned unknown, bits = report_differ(rep, row->group, rep->metric_mask,
							       &unknown, NULL);
			report_csv_field(
				out, report_differ_codes(codes, sizeof(codes), bits, unknown, " "),
				false);
			warnings(out, row->steps[i]);
		}
	}
	return ferror(out) ? -EIO : 0;
}
