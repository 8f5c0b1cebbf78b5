// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Preset files: the parser (text -> sections of key = value lists), the library of
 * presets and the text form of a plan. The key table is in preset_keys.c, the expansion
 * of sections into a plan in plan.c (preset_int.h: what they share). Parsing and expansion are separate passes so
 * that every value is checked once with its own line, whether or not a phase uses it,
 * and cross-key rules (rate percentages, tracked steps) are checked on the steps as they
 * will run.
 */
#include "preset.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"
#include "fileio.h"
#include "lines.h"
#include "settings.h"
#include "strbuf.h"
#include "text.h"
#include "preset_int.h"
#include "units.h"

#define PRESET_SEC_NAME(id, name) [id] = name,
const char *const preset_section_name[PRESET_NSECTIONS] = {PRESET_SECTIONS(PRESET_SEC_NAME)};
#undef PRESET_SEC_NAME

/* ---- the parsed text ------------------------------------------------------------- */

void doc_free(struct preset_doc *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < d->n; i++) {
		for (unsigned j = 0; j < d->s[i].n; j++) {
			struct preset_entry *e = &d->s[i].e[j];
			if (e->vals && e->vals[0] != e->raw)
				free(e->vals[0]);
			free(e->vals);
			free(e->raw);
		}
		free(d->s[i].e);
	}
	free(d->s);
	free(d);
}

static const char *origin_of(const struct parser *p, unsigned line)
{
	return p->origin && line < p->norigin ? p->origin[line] : NULL;
}

int perr(const struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;
	const char *origin = origin_of(p, line);
	int n = origin ? snprintf(p->err, p->errlen, "%s: ", origin)
		       : snprintf(p->err, p->errlen, "%s:%u: ", p->file, line);

	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[64];

	if (lb >= 63 || la >= 63)
		return UINT_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The closest name, if it is close enough to be what was meant. */
static const char *did_you_mean(const char *word, const char *const *names, unsigned n,
				size_t stride)
{
	const char *best = NULL;
	unsigned bestd = UINT_MAX;

	for (unsigned i = 0; i < n; i++) {
		const char *name = *(const char *const *)((const char *)names + i * stride);
		unsigned d = edit_distance(word, name);
		if (d < bestd) {
			bestd = d;
			best = name;
		}
	}
	size_t len = strlen(word);
	return bestd <= (len > 6 ? 3u : 2u) && bestd < len ? best : NULL;
}

/* Runs of blanks made one space, in place. */
static void squeeze(char *s)
{
	char *w = s;
	bool blank = false;

	for (char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			blank = true;
			continue;
		}
		if (blank && w != s)
			*w++ = ' ';
		blank = false;
		*w++ = *r;
	}
	*w = '\0';
}

int section_begin(const struct parser *p, struct preset_doc *d, char *line, unsigned lineno)
{
	char *close = strchr(line, ']');
	char *name;
	int kind = -1;

	if (!close)
		return perr(p, lineno, "expected ']' to close the section name");
	if (*lines_trim(close + 1))
		return perr(p, lineno, "unexpected text after ']'");
	*close = '\0';
	name = lines_trim(line + 1);
	for (int i = 0; i < PRESET_NSECTIONS; i++)
		if (!strcmp(name, preset_section_name[i]))
			kind = i;
	if (kind < 0) {
		const char *m = did_you_mean(name, preset_section_name, PRESET_NSECTIONS,
					     sizeof(preset_section_name[0]));
		if (m)
			return perr(p, lineno, "unknown section [%s]; did you mean [%s]?", name, m);
		return perr(p, lineno,
			    "unknown section [%s] (preset, workload, purge, precondition, "
			    "measure, run)",
			    name);
	}
	if (kind == SEC_PRESET || kind == SEC_WORKLOAD) {
		for (unsigned i = 0; i < d->n; i++)
			if (d->s[i].kind == (enum preset_section)kind)
				return perr(p, lineno,
					    "section [%s] given twice (first on line %u)", name,
					    d->s[i].line);
	}
	struct preset_sec *s = realloc(d->s, (d->n + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	d->s = s;
	memset(&d->s[d->n], 0, sizeof(d->s[0]));
	d->s[d->n].kind = (enum preset_section)kind;
	d->s[d->n].line = lineno;
	d->n++;
	return 0;
}

static int first_section(unsigned sections)
{
	for (int i = 0; i < PRESET_NSECTIONS; i++)
		if (sections & S(i))
			return i;
	return 0;
}

/* Where an earlier entry was given, for messages: "line 12", or its option. */
static const char *place(const struct parser *p, unsigned line, char *buf, size_t len)
{
	const char *origin = origin_of(p, line);

	if (origin)
		snprintf(buf, len, "%s", origin);
	else
		snprintf(buf, len, "line %u", line);
	return buf;
}

/* One "key = value" into the document's last section. */
int entry_put(const struct parser *p, struct preset_doc *d, const char *name,
		     const char *val, unsigned lineno)
{
	const struct preset_key *k;
	struct preset_sec *sec;
	char where[160];

	if (d->n == 0)
		return perr(p, lineno, "key '%s' before any [section]", name);
	sec = &d->s[d->n - 1];
	k = key_find(name);
	if (!k) {
		const char *m = did_you_mean(name, &preset_keys[0].name, preset_nkeys,
					     sizeof(preset_keys[0]));
		if (m)
			return perr(p, lineno, "unknown key '%s'; did you mean '%s'?", name, m);
		return perr(p, lineno, "unknown key '%s' (drivebench presets --keys lists them)",
			    name);
	}
	if (!(k->sections & S(sec->kind)))
		return perr(p, lineno, "key '%s' does not belong in [%s] (it goes in [%s])", name,
			    preset_section_name[sec->kind],
			    preset_section_name[first_section(k->sections)]);
	for (unsigned i = 0; i < sec->n; i++) {
		if (sec->e[i].key == k)
			return perr(p, lineno, "duplicate key '%s' (first set on %s)", name,
				    place(p, sec->e[i].line, where, sizeof(where)));
		if (key_group(k) != G_NONE && key_group(sec->e[i].key) == key_group(k))
			return perr(p, lineno, "'%s' and '%s' (%s) both set: give one", name,
				    sec->e[i].key->name,
				    place(p, sec->e[i].line, where, sizeof(where)));
	}
	struct preset_entry *e = realloc(sec->e, (sec->n + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	sec->e = e;
	e = &sec->e[sec->n++];
	memset(e, 0, sizeof(*e));
	e->key = k;
	e->line = lineno;
	e->raw = strdup(val);
	if (!e->raw)
		return -ENOMEM;
	e->len = strlen(val);
	e->cap = e->len + 1;
	return 0;
}

static int entry_add(const struct parser *p, struct preset_doc *d, char *line, unsigned lineno)
{
	char *name, *val;

	if (!lines_split(line, &name, &val))
		return perr(p, lineno, "expected 'key = value'");
	if (!*name)
		return perr(p, lineno, "a value without a key");
	return entry_put(p, d, name, val, lineno);
}

/*
 * The caller knows there is an entry to continue. The value grows by doubling, so joining
 * n lines copies each byte a bounded number of times: a copy of the whole value for each
 * line took 199 s for the 340,000 lines a 1 MiB preset can hold.
 */
static int entry_continue(struct preset_doc *d, const char *more)
{
	struct preset_sec *sec = &d->s[d->n - 1];
	struct preset_entry *e = &sec->e[sec->n - 1];
	size_t add = strlen(more), need = e->len + 1 + add + 1;

	if (need > e->cap) {
		size_t cap = e->cap * 2 > need ? e->cap * 2 : need;
		char *raw = realloc(e->raw, cap);
		if (!raw)
			return -ENOMEM;
		e->raw = raw;
		e->cap = cap;
	}
	if (e->len)
		e->raw[e->len++] = ' ';
	memcpy(e->raw + e->len, more, add + 1);
	e->len += add;
	return 0;
}

/* Split values and check each one with its key's setter, so errors name its line. */
int entry_finish(const struct parser *p, struct preset_entry *e)
{
	struct preset_build b;
	char msg[512];

	squeeze(e->raw);
	if (!*e->raw)
		return perr(p, e->line, "'%s' has no value", e->key->name);
	if (e->key->text) {
		e->vals = malloc(sizeof(char *));
		if (!e->vals)
			return -ENOMEM;
		e->vals[0] = e->raw;
		e->nvals = 1;
	} else {
		char *copy = strdup(e->raw);
		unsigned n = 1;

		if (!copy)
			return -ENOMEM;
		for (char *c = copy; *c; c++)
			n += *c == ' ';
		e->vals = malloc(n * sizeof(char *));
		if (!e->vals) {
			free(copy);
			return -ENOMEM;
		}
		e->nvals = 0;
		for (char *save = NULL, *t = strtok_r(copy, " ", &save); t;
		     t = strtok_r(NULL, " ", &save))
			e->vals[e->nvals++] = t;
		if (e->nvals > 1 && !e->key->list)
			return perr(p, e->line, "'%s' takes one value, not a list", e->key->name);
	}
	for (unsigned i = 0; i < e->nvals; i++) {
		build_defaults(&b);
		b.line = e->line;
		if (e->key->set(&b, e->vals[i], msg, sizeof(msg)))
			return origin_of(p, e->line)
				       ? perr(p, e->line, "%s", msg)
				       : perr(p, e->line, "%s: %s", e->key->name, msg);
	}
	return 0;
}

int doc_finish(const struct parser *p, struct preset_doc *d)
{
	int ret;

	for (unsigned i = 0; i < d->n; i++)
		for (unsigned j = 0; j < d->s[i].n; j++)
			if ((ret = entry_finish(p, &d->s[i].e[j])))
				return ret;
	return 0;
}

int doc_parse(const struct parser *p, const char *text, struct preset_doc **out)
{
	struct preset_doc *d = calloc(1, sizeof(*d));
	char *copy = strdup(text), *s;
	struct lines lines;
	int ret = 0;

	if (!d || !copy) {
		ret = -ENOMEM;
		goto fail;
	}
	/* '#' or ';' at the start of a line or after a blank starts a comment */
	lines_init(&lines, copy, "#;");
	while (!ret && (s = lines_next(&lines))) {
		unsigned lineno = lines.lineno;
		bool indented = lines.indented;
		if (indented && *s != '[' && d->n && d->s[d->n - 1].n)
			ret = entry_continue(d, s);
		else if (indented && *s != '[' && d->n && !strchr(s, '='))
			ret = perr(p, lineno, "indented line continues nothing");
		else if (*s == '[')
			ret = section_begin(p, d, s, lineno);
		else
			ret = entry_add(p, d, s, lineno);
	}
	if (ret)
		goto fail;
	if (!d->n) {
		ret = perr(p, lines.lineno ? lines.lineno : 1, "no sections: not a drivebench preset");
		goto fail;
	}
	if ((ret = doc_finish(p, d)))
		goto fail;
	free(copy);
	*out = d;
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(p->err, p->errlen, "%s: out of memory", p->file);
	free(copy);
	doc_free(d);
	return ret;
}

/* ---- where presets live ---------------------------------------------------------- */

unsigned preset_dirs(const struct settings *s, char dirs[][4096], unsigned max)
{
	const char *env = s ? s->preset_dir : NULL;
	const char *xdg = s ? s->config_home : NULL;
	const char *home = s ? s->home : NULL;
	unsigned n = 0;

	if (n < max) {
		if (env && *env)
			snprintf(dirs[n++], 4096, "%s", env);
		else
			snprintf(dirs[n++], 4096, "%s/presets", db_datadir());
	}
	if (n < max && xdg && *xdg)
		snprintf(dirs[n++], 4096, "%s/drivebench/presets", xdg);
	else if (n < max && home && *home)
		snprintf(dirs[n++], 4096, "%s/.config/drivebench/presets", home);
	return n;
}

bool preset_dir_is_builtin(unsigned index)
{
	return index == 0;
}

int preset_find(const struct settings *s, const char *name, char *path, size_t len)
{
	char dirs[2][4096];
	unsigned n;
	size_t nl = strlen(name);

	if (strchr(name, '/') || (nl > 7 && !strcmp(name + nl - 7, ".preset"))) {
		snprintf(path, len, "%s", name);
		return access(path, R_OK) ? -ENOENT : 0;
	}
	/* built-ins first: a name always means the published methodology */
	n = preset_dirs(s, dirs, 2);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, len, "%s/%s.preset", dirs[i], name);
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

struct plan *preset_load(const struct settings *s, const char *name, double scale, char *err,
			 size_t errlen)
{
	char path[4096];

	if (preset_find(s, name, path, sizeof(path))) {
		snprintf(err, errlen,
			 "%s: no such preset (drivebench presets lists them; a file needs a "
			 "'/' or .preset)",
			 name);
		return NULL;
	}
	return preset_parse_file(path, scale, err, errlen);
}

/* ---- back to text ---------------------------------------------------------------- */

/* "key         = value", long values wrapped onto indented continuation lines. */
static void render_entry(struct strbuf *b, const struct preset_entry *e)
{
	const char *v = e->raw;
	size_t col = 0;

	strbuf_add(b, "%-11s =", e->key->name);
	col = 13;
	while (*v) {
		const char *sp = strchr(v, ' ');
		size_t wl = sp ? (size_t)(sp - v) : strlen(v);
		if (col > 14 && col + 1 + wl > RENDER_WIDTH) {
			strbuf_add(b, "\n%14s", "");
			col = 14;
		} else {
			strbuf_add(b, " ");
			col++;
		}
		strbuf_add(b, "%.*s", (int)wl, v);
		col += wl;
		v += wl;
		while (*v == ' ')
			v++;
	}
	strbuf_add(b, "\n");
}

char *plan_to_text(const struct plan *p)
{
	struct strbuf b = {0};

	for (unsigned i = 0; i < p->doc->n; i++) {
		const struct preset_sec *s = &p->doc->s[i];
		strbuf_add(&b, "%s[%s]\n", i ? "\n" : "", preset_section_name[s->kind]);
		for (unsigned j = 0; j < s->n; j++)
			render_entry(&b, &s->e[j]);
	}
	return strbuf_take(&b);
}

/* A section header into d, as if read on line lineno. */
static int doc_section(const struct parser *p, struct preset_doc *d, enum preset_section kind,
		       unsigned lineno)
{
	char line[32];

	snprintf(line, sizeof(line), "[%s]", preset_section_name[kind]);
	return section_begin(p, d, line, lineno);
}

/*
 * The document of an ad-hoc run: [preset] with its name, then [run] with every setting
 * given, and the table's default of every option key not given (unless another key of
 * its group was), so the canonical text records exactly what ran.
 */
static int settings_doc(const struct parser *p, const struct preset_setting *set, unsigned n,
			const char *name, struct preset_doc *d)
{
	unsigned given_groups = 0;
	int ret;

	if ((ret = doc_section(p, d, SEC_PRESET, 0)) || (ret = entry_put(p, d, "name", name, 0)) ||
	    (ret = doc_section(p, d, SEC_RUN, 0)))
		return ret;
	for (unsigned i = 0; i < n; i++) {
		const struct preset_key *k = key_find(set[i].key);
		if (k && !k->option)
			return perr(p, i + 1, "'%s' is not an option of a run", set[i].key);
		if ((ret = entry_put(p, d, set[i].key, set[i].value, i + 1)))
			return ret;
		given_groups |= 1u << k->group;
	}
	for (unsigned i = 0; i < preset_nkeys; i++) {
		const struct preset_key *k = &preset_keys[i];
		bool given = false;
		for (unsigned j = 0; j < n && !given; j++)
			given = !strcmp(set[j].key, k->name);
		if (!k->option || !k->def || given ||
		    (k->group != G_NONE && (given_groups & (1u << k->group))))
			continue;
		if ((ret = entry_put(p, d, k->name, k->def, 0)))
			return ret;
	}
	return doc_finish(p, d);
}

struct plan *plan_from_settings(const struct preset_setting *set, unsigned n, const char *name,
				char *err, size_t errlen)
{
	const char **origin = calloc(n + 1, sizeof(*origin));
	struct parser p = {.file = "<run options>", .err = err, .errlen = errlen};
	struct plan *plan = calloc(1, sizeof(*plan));
	char desc[256];
	int ret = -ENOMEM;

	if (!origin || !plan || !(plan->doc = calloc(1, sizeof(*plan->doc))))
		goto fail;
	/* line 0 is what drivebench adds itself; line i + 1 is setting i */
	origin[0] = "run options";
	for (unsigned i = 0; i < n; i++)
		origin[i + 1] = set[i].origin;
	p.origin = origin;
	p.norigin = n + 1;
	snprintf(plan->file, sizeof(plan->file), "%s", p.file);
	plan->scale = 1.0;
	ret = settings_doc(&p, set, n, name && *name ? name : "ad-hoc", plan->doc);
	if (!ret)
		ret = expand(&p, plan->doc, plan);
	if (ret)
		goto fail;
	/* one step: say what it does; a list of steps: how many */
	if (plan->nphases == 1 && plan->phases[0].nsteps == 1)
		workload_describe(&plan->phases[0].steps[0].wl, desc, sizeof(desc));
	else
		snprintf(desc, sizeof(desc), "%u steps", plan_steps(plan));
	free(plan->description);
	plan->description = strdup(desc);
	ret = -ENOMEM;
	if (!plan->description)
		goto fail;
	/* the description goes with the name ([preset] is the first section), in the text */
	struct preset_doc head = {.s = &plan->doc->s[0], .n = 1};
	ret = entry_put(&p, &head, "description", desc, 0);
	if (!ret)
		ret = entry_finish(&p, &head.s[0].e[head.s[0].n - 1]);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	plan->text = plan_to_text(plan);
	if (!plan->text)
		goto fail;
	free(origin);
	return plan;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(origin);
	plan_free(plan);
	return NULL;
}
