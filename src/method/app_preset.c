// SPDX-License-Identifier: GPL-2.0-or-later
/* The [app] section's keys (drivebench-preset(5), APPLICATION BENCHMARKS). */
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset_int.h"

static int pick(const char *v, const char *const *names, unsigned n, int *out, char *err,
		size_t errlen)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v, names[i])) {
			*out = (int)i;
			return 0;
		}
	snprintf(err, errlen, "'%s': one of %s%s%s", v, names[0], n > 1 ? ", " : "",
		 n > 1 ? names[1] : "");
	return -EINVAL;
}

static int whole(const char *v, unsigned long long lo, unsigned long long hi,
		 unsigned long long *out, char *err, size_t errlen)
{
	char *e;

	errno = 0;
	*out = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &e, 10) : 0;
	if (v[0] < '0' || v[0] > '9' || *e || errno || *out < lo || *out > hi) {
		snprintf(err, errlen, "'%s': a whole number from %llu to %llu", v, lo, hi);
		return -EINVAL;
	}
	return 0;
}

int set_app_tool(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	int t, ret = pick(v, app_tool_name, APP_NTOOLS, &t, err, errlen);

	if (!ret)
		b->app.tool = (enum app_tool)t;
	return ret;
}

int set_app_fs(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	int f, ret = pick(v, app_fs_name, APP_NFS, &f, err, errlen);

	if (!ret)
		b->app.fs = (enum app_fs)f;
	return ret;
}

static int whole_uint(const char *v, unsigned hi, unsigned *out, char *err, size_t errlen)
{
	unsigned long long n;
	int ret = whole(v, 1, hi, &n, err, errlen);

	if (!ret)
		*out = (unsigned)n;
	return ret;
}

int set_app_tables(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return whole_uint(v, 1024, &b->app.tables, err, errlen);
}

int set_app_table_size(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	unsigned long long n;
	int ret = whole(v, 1, 10000000000ull, &n, err, errlen);

	if (!ret)
		b->app.table_size = n;
	return ret;
}

int set_app_scale_factor(struct preset_build *b, const char *v, char *err, size_t errlen)
{
	return whole_uint(v, 100000, &b->app.scale_factor, err, errlen);
}
