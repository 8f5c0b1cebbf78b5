// SPDX-License-Identifier: GPL-2.0-or-later
/* Vendor spec sheets: parsing specs/NAME.spec and matching ratings to steps. */
#include "specs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "fileio.h"
#include "grow.h"
#include "lines.h"
#include "settings.h"
#include "text.h"
#include "units.h"


const struct spec_rating_info spec_rating_info[SPEC_NRATINGS] = {
#define X(id, k, m, p, r, w)                                                                       \
	[id] = {.key = k, .measure = m, .pattern = p, .read_pct = r, .what = w},
	SPEC_RATINGS(X)
#undef X
};

/* The keys that are not ratings. */
enum spec_field { SF_NAME, SF_MODEL, SF_RAND_BS, SF_SEQ_BS, SF_NFIELDS };
static const char *const spec_field_key[SF_NFIELDS] = {
	[SF_NAME] = "name",
	[SF_MODEL] = "model",
	[SF_RAND_BS] = "rand_bs",
	[SF_SEQ_BS] = "seq_bs",
};

static int set_field(struct spec_sheet *s, enum spec_field f, const char *v)
{
	uint64_t bytes;

	switch (f) {
	case SF_NAME:
		text_copy(s->name, sizeof(s->name), v);
		return 0;
	case SF_MODEL:
		if (s->nmodels == SPEC_MAX_MODELS)
			return -E2BIG;
		text_copy(s->model[s->nmodels++], sizeof(s->model[0]), v);
		return 0;
	case SF_RAND_BS:
	case SF_SEQ_BS:
		if (units_parse_size(v, &bytes) || !bytes || bytes > UINT32_MAX)
			return -EINVAL;
		*(f == SF_RAND_BS ? &s->rand_bs : &s->seq_bs) = (uint32_t)bytes;
		return 0;
	case SF_NFIELDS:
		break;
	}
	return -EINVAL;
}

static int set_rating(struct spec_sheet *s, enum spec_rating r, const char *v)
{
	if (spec_rating_info[r].measure == SPEC_M_LAT_NS) {
		uint64_t ns;
		if (units_parse_duration(v, &ns) || !ns)
			return -EINVAL;
		s->rated[r] = (double)ns;
		return 0;
	}
	return units_parse_double(v, 0, 1e12, &s->rated[r]);
}

int spec_parse_file(const char *path, struct spec_sheet *out, char *err, size_t errlen)
{
	struct lines lines;
	char *text, *s;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	out->rand_bs = 4096;
	text_copy(out->path, sizeof(out->path), path);
	/* names and model patterns reach the reports: well-formed UTF-8 from here on */
	ret = fileio_read_text(path, "a spec sheet", SPEC_MAX_BYTES, &text, &len, err, errlen);
	if (ret)
		return ret;
	lines_init(&lines, text, "#");
	while (!ret && (s = lines_next(&lines))) {
		unsigned lineno = lines.lineno;
		char *key, *val;
		if (!lines_split(s, &key, &val)) {
			text_fmt(err, errlen, "%s:%u: expected key = value", path, lineno);
			ret = -EINVAL;
			break;
		}
		int rc = -ENOENT;
		for (unsigned i = 0; i < SF_NFIELDS && rc == -ENOENT; i++)
			if (!strcmp(key, spec_field_key[i]))
				rc = set_field(out, (enum spec_field)i, val);
		for (unsigned i = 0; i < SPEC_NRATINGS && rc == -ENOENT; i++)
			if (!strcmp(key, spec_rating_info[i].key))
				rc = set_rating(out, (enum spec_rating)i, val);
		if (rc == -ENOENT)
			text_fmt(err, errlen, "%s:%u: unknown key '%s'", path, lineno, key);
		else if (rc == -E2BIG)
			text_fmt(err, errlen, "%s:%u: more than %d model patterns", path, lineno,
				 SPEC_MAX_MODELS);
		else if (rc)
			text_fmt(err, errlen, "%s:%u: %s: bad value '%s'", path, lineno, key, val);
		if (rc)
			ret = -EINVAL;
	}
	free(text);
	if (!ret && !out->nmodels) {
		text_fmt(err, errlen, "%s: no 'model' key: the sheet would match no drive", path);
		ret = -EINVAL;
	}
	if (!ret && !out->name[0])
		text_copy(out->name, sizeof(out->name), out->model[0]);
	return ret;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int spec_load_dir(struct spec_list *l, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d) {
		/* no such directory: no sheets; any other failure is an error naming it */
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		ret = -errno;
		text_fmt(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".spec"))
			continue;
		if (GROW(names, n, cap, 16)) {
			ret = -ENOMEM;
			goto out;
		}
		if (!(names[n] = strdup(e->d_name))) {
			ret = -ENOMEM;
			goto out;
		}
		n++;
	}
	/* a fixed order, so that "first match wins" does not depend on readdir */
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct spec_sheet *p = realloc(l->sheets, (l->n + 1) * sizeof(*p));
		char path[4096];
		if (!p) {
			ret = -ENOMEM;
			goto out;
		}
		l->sheets = p;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ret = spec_parse_file(path, &l->sheets[l->n], err, errlen);
		if (ret)
			goto out;
		l->n++;
	}
out:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

int spec_load_default(const struct settings *s, struct spec_list *l, char *err, size_t errlen)
{
	const char *xdg = s ? s->data_home : NULL, *home = s ? s->home : NULL;
	char user[4096] = "", shipped[4096];
	const char *dirs[2];
	unsigned nd = 0;
	int ret;

	if (xdg && xdg[0] == '/')
		snprintf(user, sizeof(user), "%s/drivebench/specs", xdg);
	else if (home && home[0])
		snprintf(user, sizeof(user), "%s/.local/share/drivebench/specs", home);
	if (user[0])
		dirs[nd++] = user;
	snprintf(shipped, sizeof(shipped), "%s/specs", db_datadir());
	dirs[nd++] = shipped;
	for (unsigned i = 0; i < nd; i++) {
		ret = spec_load_dir(l, dirs[i], err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

void spec_list_free(struct spec_list *l)
{
	free(l->sheets);
	l->sheets = NULL;
	l->n = 0;
}

const struct spec_sheet *spec_find(const struct spec_list *l, const char *model)
{
	if (!model || !model[0])
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		for (unsigned m = 0; m < l->sheets[i].nmodels; m++)
			if (!fnmatch(l->sheets[i].model[m], model, FNM_CASEFOLD))
				return &l->sheets[i];
	return NULL;
}

double spec_rated(const struct spec_sheet *s, const struct workload *wl, enum spec_measure m,
		  enum spec_rating *which)
{
	if (!s || wl->nsplit)
		return 0;
	for (unsigned i = 0; i < SPEC_NRATINGS; i++) {
		const struct spec_rating_info *ri = &spec_rating_info[i];
		if (ri->measure != m || !s->rated[i] || ri->pattern != wl->pattern ||
		    ri->read_pct != wl->read_pct)
			continue;
		if (ri->pattern == WL_RANDOM && wl->bs != s->rand_bs)
			continue;
		if (ri->pattern == WL_SEQUENTIAL && s->seq_bs && wl->bs != s->seq_bs)
			continue;
		/* a latency rating is a queue-depth-1 figure: deeper queues only add waiting */
		if (m == SPEC_M_LAT_NS && (wl->threads != 1 || wl->qdepth != 1))
			continue;
		if (which)
			*which = (enum spec_rating)i;
		return s->rated[i];
	}
	return 0;
}
