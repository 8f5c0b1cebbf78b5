// SPDX-License-Identifier: GPL-2.0-or-later
#include "steady.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

void steady_defaults(struct steady_params *p)
{
	p->window = STEADY_WINDOW;
	p->data_limit_pct = STEADY_DATA_PCT;
	p->slope_limit_pct = STEADY_SLOPE_PCT;
	p->max_rounds = STEADY_MAX_ROUNDS;
}

void steady_fit(const double *y, unsigned n, double *slope, double *intercept)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;

	if (n == 0) {
		*slope = *intercept = 0;
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		sx += i;
		sy += y[i];
		sxx += (double)i * i;
		sxy += i * y[i];
	}
	double den = n * sxx - sx * sx;
	*slope = den != 0 ? (n * sxy - sx * sy) / den : 0;
	*intercept = (sy - *slope * sx) / n;
}

bool steady_check(const struct steady_params *p, const double *y, unsigned n,
		  struct steady_info *info)
{
	unsigned w = n < p->window ? n : p->window;
	const double *win = y + (n - w);
	double lo = 0, hi = 0, sum = 0, avg, slope, icept;

	info->used = true;
	info->reached = false;
	info->window = p->window;
	info->data_limit_pct = p->data_limit_pct;
	info->slope_limit_pct = p->slope_limit_pct;
	info->max_rounds = p->max_rounds;
	info->round = n;
	info->data_excursion_pct = 0;
	info->slope_excursion_pct = 0;
	if (w < 2)
		return false;
	lo = hi = win[0];
	for (unsigned i = 0; i < w; i++) {
		sum += win[i];
		if (win[i] < lo)
			lo = win[i];
		if (win[i] > hi)
			hi = win[i];
	}
	avg = sum / w;
	/* a window that measured nothing is not a steady device, just a silent one */
	if (avg <= 0)
		return false;
	steady_fit(win, w, &slope, &icept);
	info->data_excursion_pct = (hi - lo) / avg * 100.0;
	info->slope_excursion_pct = fabs(slope) * (w - 1) / avg * 100.0;
	info->reached = n >= p->window && info->data_excursion_pct <= p->data_limit_pct &&
			info->slope_excursion_pct <= p->slope_limit_pct;
	return info->reached;
}

/* ---- metrics -------------------------------------------------------------------- */

enum metric_type { MT_DOUBLE, MT_U64 };

static const struct metric {
	const char *name;
	size_t off; /* into struct dir_stats */
	enum metric_type type;
} metrics[] = {
	{"iops", offsetof(struct dir_stats, iops), MT_DOUBLE},
	{"mbps", offsetof(struct dir_stats, mbps), MT_DOUBLE},
	{"mean_ns", offsetof(struct dir_stats, mean_ns), MT_DOUBLE},
	{"std_ns", offsetof(struct dir_stats, std_ns), MT_DOUBLE},
	{"max_ns", offsetof(struct dir_stats, max_ns), MT_U64},
	{"p50_ns", offsetof(struct dir_stats, pct_ns[PCT_50]), MT_U64},
	{"p90_ns", offsetof(struct dir_stats, pct_ns[PCT_90]), MT_U64},
	{"p99_ns", offsetof(struct dir_stats, pct_ns[PCT_99]), MT_U64},
	{"p99.9_ns", offsetof(struct dir_stats, pct_ns[PCT_999]), MT_U64},
	{"p99.99_ns", offsetof(struct dir_stats, pct_ns[PCT_9999]), MT_U64},
};

#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

const char *steady_metric_name(unsigned i)
{
	return i < NMETRICS ? metrics[i].name : NULL;
}

static const struct metric *metric_find(const char *name, enum io_dir *dir)
{
	static const struct {
		const char *prefix;
		enum io_dir dir;
	} dirs[] = {{"read.", DIR_READ}, {"write.", DIR_WRITE}};

	*dir = DIR_ALL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t l = strlen(dirs[i].prefix);
		if (!strncmp(name, dirs[i].prefix, l)) {
			*dir = dirs[i].dir;
			name += l;
			break;
		}
	}
	for (size_t i = 0; i < NMETRICS; i++)
		if (!strcmp(name, metrics[i].name))
			return &metrics[i];
	return NULL;
}

bool steady_metric_valid(const char *name)
{
	enum io_dir dir;

	return metric_find(name, &dir) != NULL;
}

int steady_metric_value(const char *name, const struct sample *s, double *out)
{
	enum io_dir dir;
	const struct metric *m = metric_find(name, &dir);
	const char *base;

	if (!m)
		return -EINVAL;
	base = (const char *)&s->d[dir] + m->off;
	if (m->type == MT_DOUBLE) {
		double v;
		memcpy(&v, base, sizeof(v));
		*out = v;
	} else {
		uint64_t v;
		memcpy(&v, base, sizeof(v));
		*out = (double)v;
	}
	return 0;
}
