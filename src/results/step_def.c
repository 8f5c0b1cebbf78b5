// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A step's measurement definition (step_def.h): the table of its fields, their text
 * forms, and which differences make two steps incomparable.
 */
#include "step_def.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "json_write.h"
#include "result.h"
#include "target.h"
#include "text.h"
#include "version.h"
#include "workload.h"

const char *const step_lat_name[SL_COUNT] = {
	[SL_UNKNOWN] = "",
	[SL_TOTAL] = "total",
	[SL_COMPLETION] = "completion-only",
};

const char *const step_wait_name[SWT_COUNT] = {
	[SWT_UNKNOWN] = "",
	[SWT_INTERRUPT] = "interrupt",
	[SWT_BUSY_POLL] = "busy-poll",
	[SWT_POLLED] = "polled",
};

const char *const step_issue_name[SI_COUNT] = {
	[SI_UNKNOWN] = "",
	[SI_NOWAIT_FIRST] = "nowait-first",
	[SI_ASYNC] = "async",
};

const struct step_def_info step_def_info[SD_COUNT] = {
#define X(id, key_, code_, incomparable_, number_, about_)                                         \
	[id] = {.key = key_,                                                                       \
		.code = code_,                                                                     \
		.incomparable = incomparable_,                                                     \
		.number = number_,                                                                 \
		.about = about_},
	STEP_DEF_FIELDS(X)
#undef X
};

/* "512/512+4096/4096": n pairs, as the file holds them; "" when they do not fit. */
static char *sectors_text(const struct step_sectors *sec, unsigned n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u/%u", i ? "+" : "",
					 sec[i].lbs, sec[i].pbs);
	if (used >= len)
		buf[0] = '\0';
	return buf;
}

char *step_def_text(const struct step_def *d, enum step_def_field f, char *buf, size_t len)
{
	buf[0] = '\0';
	switch (f) {
	case SD_LATENCY:
		text_copy(buf, len, step_lat_name[d->lat < SL_COUNT ? d->lat : SL_UNKNOWN]);
		break;
	case SD_PCT_LATENCY:
		text_copy(buf, len, step_lat_name[d->pct_lat < SL_COUNT ? d->pct_lat : SL_UNKNOWN]);
		break;
	case SD_WAIT:
		text_copy(buf, len, step_wait_name[d->wait < SWT_COUNT ? d->wait : SWT_UNKNOWN]);
		break;
	case SD_ISSUE:
		text_copy(buf, len, step_issue_name[d->issue < SI_COUNT ? d->issue : SI_UNKNOWN]);
		break;
	case SD_ENGINE:
		text_copy(buf, len, d->engine);
		break;
	case SD_FLAGS:
		text_copy(buf, len, d->flags);
		break;
	case SD_SCALE:
		if (d->scale > 0)
			snprintf(buf, len, "%g", d->scale);
		break;
	case SD_LBS:
		if (d->lbs)
			snprintf(buf, len, "%u", d->lbs);
		break;
	case SD_PBS:
		if (d->pbs)
			snprintf(buf, len, "%u", d->pbs);
		break;
	case SD_SECTORS:
		if (d->nsectors)
			sectors_text(d->sectors, d->nsectors, buf, len);
		else if (d->lbs && d->pbs)
			snprintf(buf, len, "%u/%u", d->lbs, d->pbs);
		break;
	case SD_HOST_LOAD:
		if (d->has_host_load)
			snprintf(buf, len, "%.1f", d->host_other_pct);
		break;
	case SD_VERSION:
		text_copy(buf, len, d->version);
		break;
	case SD_BS_FOLDED:
		text_copy(buf, len, d->bs_folded);
		break;
	default:
		break;
	}
	return buf;
}

static int parse_name(const char *const *names, unsigned n, const char *s, unsigned *out)
{
	for (unsigned i = 1; i < n; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Put p into sec[n] (n below STEP_DEF_MAX_TARGETS) in order: smallest lbs, then pbs. */
static void sectors_insert(struct step_sectors *sec, unsigned n, struct step_sectors p)
{
	unsigned i = n;

	while (i &&
	       (sec[i - 1].lbs > p.lbs || (sec[i - 1].lbs == p.lbs && sec[i - 1].pbs > p.pbs))) {
		sec[i] = sec[i - 1];
		i--;
	}
	sec[i] = p;
}

/* One size of "512/4096", from *s on, which is left after it. */
static int parse_size(const char **s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	v = strtoul(*s, &end, 10);
	if (!v || v > 1ul << 30)
		return -EINVAL;
	*out = (uint32_t)v;
	*s = end;
	return 0;
}

/* "512/512+4096/4096", in any order, into d's sectors (sorted); -EINVAL: none. */
static int parse_sectors(struct step_def *d, const char *s)
{
	struct step_sectors p;

	d->nsectors = 0;
	do {
		if (d->nsectors == STEP_DEF_MAX_TARGETS || parse_size(&s, &p.lbs) || *s++ != '/' ||
		    parse_size(&s, &p.pbs) || (*s && *s != '+')) {
			d->nsectors = 0;
			return -EINVAL;
		}
		sectors_insert(d->sectors, d->nsectors++, p);
	} while (*s++);
	return 0;
}

int step_def_parse(struct step_def *d, enum step_def_field f, const char *s)
{
	unsigned e = 0;
	double v = 0;
	int ret;

	switch (f) {
	case SD_LATENCY:
		ret = parse_name(step_lat_name, SL_COUNT, s, &e);
		d->lat = ret ? SL_UNKNOWN : (enum step_lat)e;
		return ret;
	case SD_PCT_LATENCY:
		ret = parse_name(step_lat_name, SL_COUNT, s, &e);
		d->pct_lat = ret ? SL_UNKNOWN : (enum step_lat)e;
		return ret;
	case SD_WAIT:
		ret = parse_name(step_wait_name, SWT_COUNT, s, &e);
		d->wait = ret ? SWT_UNKNOWN : (enum step_wait)e;
		return ret;
	case SD_ISSUE:
		ret = parse_name(step_issue_name, SI_COUNT, s, &e);
		d->issue = ret ? SI_UNKNOWN : (enum step_issue)e;
		return ret;
	case SD_ENGINE:
		text_copy(d->engine, sizeof(d->engine), s);
		return 0;
	case SD_FLAGS:
		text_copy(d->flags, sizeof(d->flags), s);
		return 0;
	case SD_SCALE:
		ret = parse_num(s, 1e-9, 1e9, &v);
		d->scale = ret ? 0 : v;
		return ret;
	case SD_LBS:
	case SD_PBS:
		ret = parse_num(s, 1, 1u << 30, &v);
		if (!ret && v != floor(v))
			ret = -EINVAL;
		*(f == SD_LBS ? &d->lbs : &d->pbs) = ret ? 0 : (uint32_t)v;
		return ret;
	case SD_SECTORS:
		return parse_sectors(d, s);
	case SD_HOST_LOAD:
		ret = parse_num(s, 0, 100, &v);
		d->has_host_load = !ret;
		d->host_other_pct = ret ? 0 : v;
		return ret;
	case SD_VERSION:
		text_copy(d->version, sizeof(d->version), s);
		return 0;
	case SD_BS_FOLDED:
		text_copy(d->bs_folded, sizeof(d->bs_folded), s);
		return 0;
	default:
		return -EINVAL;
	}
}

int step_def_find(const char *key)
{
	for (unsigned f = 0; f < SD_COUNT; f++)
		if (!strcmp(key, step_def_info[f].key))
			return (int)f;
	return -1;
}

bool step_def_known(const struct step_def *d)
{
	char buf[256];

	for (unsigned f = 0; f < SD_COUNT; f++)
		if (step_def_text(d, (enum step_def_field)f, buf, sizeof(buf))[0])
			return true;
	return false;
}

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * What compare holds sectors by: each size with its share of the step's targets, the
 * counts divided by their greatest common divisor ("512/512:1+4096/4096:1" for 512+4096
 * and for 512+512+4096+4096); "" when unknown. A step's figures are the sum over its
 * targets, each doing the same share of the work, so the order of --target does not
 * matter, nor does the number of targets of one size (the run's label says how many).
 */
static char *sectors_key(const struct step_def *d, char *buf, size_t len)
{
	struct step_sectors one = {d->lbs, d->pbs};
	const struct step_sectors *sec = d->nsectors ? d->sectors : &one;
	unsigned n = d->nsectors ? d->nsectors : (d->lbs && d->pbs), count[STEP_DEF_MAX_TARGETS];
	unsigned distinct = 0, g = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		bool same = i && !memcmp(&sec[i], &sec[i - 1], sizeof(*sec));
		if (!same)
			count[distinct++] = 0;
		count[distinct - 1]++;
	}
	for (unsigned k = 0; k < distinct; k++)
		g = gcd(count[k], g);
	for (unsigned i = 0, k = 0; i < n && used < len; i += count[k++])
		used += (size_t)snprintf(buf + used, len - used, "%s%u/%u:%u", k ? "+" : "",
					 sec[i].lbs, sec[i].pbs, count[k] / g);
	return buf;
}

bool step_def_differs(const struct step_def *a, const struct step_def *b, enum step_def_field f)
{
	char x[256], y[256];

	if (f == SD_SECTORS) {
		sectors_key(a, x, sizeof(x));
		sectors_key(b, y, sizeof(y));
	} else {
		step_def_text(a, f, x, sizeof(x));
		step_def_text(b, f, y, sizeof(y));
	}
	return x[0] && y[0] && strcmp(x, y);
}

unsigned step_def_incomparable(const struct step_def *a, const struct step_def *b)
{
	unsigned bits = 0;

	for (unsigned f = 0; f < SD_COUNT; f++)
		if (step_def_info[f].incomparable &&
		    step_def_differs(a, b, (enum step_def_field)f))
			bits |= 1u << f;
	return bits;
}

void step_def_write(struct jwrite *w, const struct step_def *d)
{
	jwrite_begin_object(w);
	for (unsigned f = 0; f < SD_COUNT; f++) {
		char buf[256];
		if (!step_def_text(d, (enum step_def_field)f, buf, sizeof(buf))[0])
			continue;
		if (f == SD_SECTORS && !d->nsectors) /* one target's: lbs and pbs say them */
			continue;
		if (!step_def_info[f].number)
			jwrite_kstr(w, step_def_info[f].key, buf);
		else if (f == SD_LBS || f == SD_PBS)
			jwrite_ku64(w, step_def_info[f].key, f == SD_LBS ? d->lbs : d->pbs);
		else
			jwrite_kdbl(w, step_def_info[f].key,
				    f == SD_SCALE ? d->scale : d->host_other_pct);
	}
	jwrite_end_object(w);
}

char *step_def_describe(const struct step_def *d, char *buf, size_t len)
{
	char v[256];
	size_t used = 0;

	buf[0] = '\0';
#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (used < len)                                                                    \
			used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__);             \
	} while (0)
	if (d->lat)
		ADD("%slatency %s", used ? ", " : "", step_lat_name[d->lat]);
	if (d->pct_lat && d->pct_lat != d->lat)
		ADD("%spercentiles %s", used ? ", " : "", step_lat_name[d->pct_lat]);
	if (d->wait)
		ADD("%swait %s", used ? ", " : "", step_wait_name[d->wait]);
	if (d->engine[0])
		ADD("%sengine %s", used ? ", " : "", d->engine);
	if (d->flags[0]) /* "(no I/O)", the null engine's, is in parentheses already */
		ADD(d->flags[0] == '(' ? " %s" : " (%s)", d->flags);
	if (d->issue)
		ADD("%sissue %s", used ? ", " : "", step_issue_name[d->issue]);
	if (step_def_text(d, SD_SCALE, v, sizeof(v))[0])
		ADD("%sscale x%s", used ? ", " : "", v);
	if (d->nsectors)
		ADD("%ssectors %s", used ? ", " : "", step_def_text(d, SD_SECTORS, v, sizeof(v)));
	else if (d->lbs || d->pbs)
		ADD("%ssectors %s/%s", used ? ", " : "", d->lbs ? step_def_text(d, SD_LBS, v, 32) : "?",
		    d->pbs ? step_def_text(d, SD_PBS, v + 32, 32) : "?");
	if (d->has_host_load)
		ADD("%sother processes %.0f%% of the CPUs", used ? ", " : "", d->host_other_pct);
	if (d->version[0])
		ADD("%sdrivebench %s", used ? ", " : "", d->version);
	if (d->bs_folded[0])
		ADD("%sblock sizes %s (below the logical block size)", used ? ", " : "",
		    d->bs_folded);
#undef ADD
	if (!used)
		text_copy(buf, len, "not recorded (a result from before definitions)");
	return buf;
}

/* A round's step without its round: "round 7 again 4k read" is "4k read", "round 7" "";
   NULL for a label that is no round's. */
static const char *round_step(const char *label)
{
	unsigned n;
	int at = 0;

	if (sscanf(label, "round %u%n", &n, &at) != 1 || !at)
		return NULL;
	label += at;
	if (!strncmp(label, " again", 6))
		label += 6;
	return *label == ' ' ? label + 1 : label;
}

const struct step_def *step_def_replayed(const struct result *from, unsigned phase, unsigned index,
					 const char *label)
{
	const struct result_phase *p;
	const char *step = round_step(label);

	if (!from || phase >= from->nphases)
		return NULL;
	p = &from->phases[phase];
	if (index < p->nsteps && !strcmp(p->steps[index].label, label))
		return &p->steps[index].def;
	for (unsigned s = p->nsteps; step && s-- > 0;) {
		const char *other = round_step(p->steps[s].label);
		if (other && !strcmp(other, step))
			return &p->steps[s].def;
	}
	return NULL;
}

void step_def_engine(const struct step_def *d, unsigned own, struct engine_opts *o)
{
	bool uring = d && !strcmp(d->engine, "io_uring");
	int setup;

	if (d && !(own & (1u << SD_WAIT)) && (d->wait == SWT_INTERRUPT || d->wait == SWT_BUSY_POLL))
		o->poll = d->wait == SWT_BUSY_POLL ? ENGINE_POLL_YES : ENGINE_POLL_NO;
	if (uring && !(own & (1u << SD_ISSUE)) && d->issue != SI_UNKNOWN)
		o->async = d->issue == SI_ASYNC;
	if (uring && !(own & (1u << SD_FLAGS)) && (setup = engine_uring_setup_find(d->flags)) >= 0)
		o->ring_setup = (unsigned)setup;
}

double step_cpu_others_pct(const struct step_cpu *c)
{
	double others;

	if (!c->measured || !c->cpus)
		return -1;
	others = c->host_user_pct - c->proc_user_pct / c->cpus;
	return others < 0 ? 0 : others > 100 ? 100 : others;
}

void step_def_engine_set(struct step_def *d, const char *desc, bool busy_poll)
{
	const char *sp = strchr(desc, ' ');

	d->wait = busy_poll ? SWT_BUSY_POLL : SWT_INTERRUPT;
	snprintf(d->engine, sizeof(d->engine), "%.*s", (int)(sp ? sp - desc : (long)strlen(desc)),
		 desc);
	text_copy(d->flags, sizeof(d->flags), sp ? sp + 1 : "");
	/* the uring engine says IOSQE_ASYNC in its flags when it marked its I/O async */
	d->issue = SI_UNKNOWN;
	if (!strcmp(d->engine, "io_uring"))
		d->issue = strstr(d->flags, "IOSQE_ASYNC") ? SI_ASYNC : SI_NOWAIT_FIRST;
}

void step_def_measured(struct step_def *d, const char *desc, bool busy_poll, double scale,
		       uint32_t lbs, uint32_t pbs, double others_pct)
{
	memset(d, 0, sizeof(*d));
	/* drivebench times an I/O from before the io_uring_enter that submits it */
	d->lat = d->pct_lat = SL_TOTAL;
	step_def_engine_set(d, desc, busy_poll);
	d->scale = scale > 0 ? scale : 1;
	d->lbs = lbs;
	d->pbs = pbs;
	if (others_pct >= 0) {
		d->has_host_load = true;
		d->host_other_pct = others_pct;
	}
	text_copy(d->version, sizeof(d->version), DB_VERSION);
}

/*
 * The sector sizes of a step on targets[ntargets]: lbs and pbs theirs when they all have
 * the same, and with several targets each one's in sectors (unknown when one is).
 */
static void def_targets(struct step_def *d, const struct target *const *targets, unsigned ntargets)
{
	bool known = ntargets <= STEP_DEF_MAX_TARGETS;

	d->lbs = ntargets ? targets[0]->lbs : 0;
	d->pbs = ntargets ? targets[0]->pbs : 0;
	d->nsectors = 0;
	for (unsigned i = 0; ntargets > 1 && i < ntargets && known; i++) {
		struct step_sectors p = {targets[i]->lbs, targets[i]->pbs};
		d->lbs = p.lbs == d->lbs ? d->lbs : 0;
		d->pbs = p.pbs == d->pbs ? d->pbs : 0;
		known = p.lbs && p.pbs;
		sectors_insert(d->sectors, d->nsectors++, p);
	}
	if (!known)
		d->nsectors = 0;
}

void step_def_record(struct result_step *st, const struct step_result *sr, double scale,
		     const struct target *const *targets, unsigned ntargets)
{
	double others = step_cpu_others_pct(&st->cpu);
	const struct target *t;

	step_def_measured(&st->def, sr->engine_desc, sr->busy_poll, scale, 0, 0, others);
	def_targets(&st->def, targets, ntargets);
	for (unsigned i = 0; i < st->nstreams; i++) {
		struct result_step *s = &st->streams[i];
		unsigned ti = s->target_index < ntargets ? s->target_index : 0;
		const struct stream_result *sres = i < sr->nstreams ? &sr->streams[i] : NULL;

		t = ntargets ? targets[ti] : NULL;
		step_def_measured(&s->def, sres ? sres->engine_desc : sr->engine_desc,
				  sres ? sres->busy_poll : sr->busy_poll, scale, t ? t->lbs : 0,
				  t ? t->pbs : 0, others);
	}
}

void step_def_begin(struct step_def *d, double scale, const struct target *const *targets,
		    unsigned ntargets)
{
	memset(d, 0, sizeof(*d));
	d->lat = d->pct_lat = SL_TOTAL;
	d->scale = scale;
	def_targets(d, targets, ntargets);
	text_copy(d->version, sizeof(d->version), DB_VERSION);
}

uint32_t step_def_fold_lbs(const struct target *const *targets, unsigned ntargets)
{
	uint32_t lbs = 0;

	for (unsigned i = 0; i < ntargets; i++)
		lbs = targets[i]->lbs > lbs ? targets[i]->lbs : lbs;
	return lbs > 512 ? lbs : 0;
}

void step_def_fold(struct step_def *d, const struct workload *planned, uint32_t lbs)
{
	struct workload wl = *planned;

	workload_fold_split(&wl, lbs, d->bs_folded, sizeof(d->bs_folded));
}
