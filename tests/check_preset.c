// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Preset files: the malformed corpus (each file's first line says the message expected),
 * the good corpus and the built-in library round-tripping through plan_to_text, step
 * expansion order, scaling, ad-hoc plans, lookup, and the man page against the key table.
 */
#include "testlib.h"
#include <math.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "preset.h"
#include "settings.h"

#define FIXTURES DB_SRCDIR "/tests/fixtures/presets"
#define MAXFILES 128

static char bad_files[MAXFILES][4096], good_files[MAXFILES][4096];
static int nbad, ngood;

static int list_dir(const char *dir, char files[][4096], int n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return n;
	while ((e = readdir(d)) && n < MAXFILES) {
		size_t l = strlen(e->d_name);
		if (l > 7 && !strcmp(e->d_name + l - 7, ".preset"))
			snprintf(files[n++], 4096, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

START_TEST(test_bad)
{
	const char *path = bad_files[_i];
	char *text = slurp(path), expect[1024], want[6000], err[1024] = "";
	struct plan *p;

	ck_assert_ptr_nonnull(text);
	ck_assert_msg(sscanf(text, "# expect: %1023[^\n]", expect) == 1, "%s: no expect line",
		      path);
	p = preset_parse_file(path, 1.0, err, sizeof(err));
	ck_assert_msg(p == NULL, "%s parsed", path);
	snprintf(want, sizeof(want), "%s:%s", path, expect);
	ck_assert_str_eq(err, want);
	free(text);
}
END_TEST

static void assert_wl_eq(const struct workload *a, const struct workload *b, const char *what)
{
	ck_assert_msg(a->pattern == b->pattern && a->bs == b->bs && a->nsplit == b->nsplit &&
			      a->read_pct == b->read_pct && a->range_start == b->range_start &&
			      a->range_size == b->range_size && a->range_pct == b->range_pct &&
			      a->threads == b->threads && a->qdepth == b->qdepth &&
			      a->time_ns == b->time_ns && a->ramp_ns == b->ramp_ns &&
			      a->rate_iops == b->rate_iops && a->data == b->data &&
			      a->compress_pct == b->compress_pct &&
			      a->interval_ns == b->interval_ns && a->seed == b->seed &&
			      a->dist == b->dist && a->dist_param == b->dist_param &&
			      a->nzones == b->nzones &&
			      !memcmp(a->zones, b->zones, sizeof(a->zones)),
		      "%s: workloads differ", what);
	for (unsigned i = 0; i < a->nsplit; i++)
		ck_assert(a->split[i].bs == b->split[i].bs && a->split[i].pct == b->split[i].pct);
}

static void assert_plan_eq(const struct plan *a, const struct plan *b)
{
	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->description, b->description);
	ck_assert_str_eq(a->source, b->source);
	ck_assert_uint_eq(a->nphases, b->nphases);
	for (unsigned i = 0; i < a->nphases; i++) {
		const struct plan_phase *x = &a->phases[i], *y = &b->phases[i];
		ck_assert_str_eq(x->name, y->name);
		ck_assert(x->kind == y->kind && x->until == y->until && x->purge == y->purge);
		ck_assert(x->max_time_ns == y->max_time_ns && x->track_step == y->track_step);
		ck_assert(!memcmp(&x->steady, &y->steady, sizeof(x->steady)));
		ck_assert_str_eq(x->track, y->track);
		ck_assert_uint_eq(x->nsteps, y->nsteps);
		for (unsigned s = 0; s < x->nsteps; s++) {
			ck_assert_str_eq(x->steps[s].label, y->steps[s].label);
			ck_assert(x->steps[s].rate_pct == y->steps[s].rate_pct);
			ck_assert(x->steps[s].loops_bytes_x == y->steps[s].loops_bytes_x);
			assert_wl_eq(&x->steps[s].wl, &y->steps[s].wl, x->steps[s].label);
			ck_assert_uint_eq(x->steps[s].nstreams, y->steps[s].nstreams);
			for (unsigned k = 0; k < x->steps[s].nstreams; k++) {
				const struct plan_stream *u = &x->steps[s].streams[k];
				const struct plan_stream *v = &y->steps[s].streams[k];
				ck_assert_str_eq(u->name, v->name);
				ck_assert(u->share_pct == v->share_pct);
				assert_wl_eq(&u->wl, &v->wl, u->name);
			}
		}
	}
}

/* parse -> text -> parse gives the same plan, and the text is a fixed point. */
START_TEST(test_good)
{
	const char *path = good_files[_i];
	char err[1024] = "";
	struct plan *a = preset_parse_file(path, 1.0, err, sizeof(err)), *b;
	char *t1, *t2;

	ck_assert_msg(a != NULL, "%s", err);
	ck_assert_uint_gt(a->nphases, 0);
	t1 = plan_to_text(a);
	ck_assert_ptr_nonnull(t1);
	b = preset_parse(t1, "rendered", 1.0, err, sizeof(err));
	ck_assert_msg(b != NULL, "%s: rendered text fails: %s\n%s", path, err, t1);
	assert_plan_eq(a, b);
	t2 = plan_to_text(b);
	ck_assert_str_eq(t1, t2);
	ck_assert_ptr_nonnull(strstr(a->text, "[preset]"));
	free(t1);
	free(t2);
	plan_free(a);
	plan_free(b);
}
END_TEST

/* the built-in presets of this tree, wherever the test binary was built */
static const struct settings tree = {.preset_dir = DB_SRCDIR "/presets"};

static struct plan *builtin(const char *name, double scale)
{
	char err[1024] = "";
	struct plan *p = preset_load(&tree, name, scale, err, sizeof(err));

	ck_assert_msg(p != NULL, "%s: %s", name, err);
	return p;
}

static const struct plan_phase *phase_of(const struct plan *p, enum phase_kind kind, unsigned nth)
{
	for (unsigned i = 0; i < p->nphases; i++)
		if (p->phases[i].kind == kind && nth-- == 0)
			return &p->phases[i];
	ck_abort_msg("no such phase");
	return NULL;
}

START_TEST(test_ladder)
{
	static const char *const want[16] = {
		"2T2Q", "2T4Q", "2T8Q", "2T16Q", "4T2Q",  "4T4Q",  "4T8Q",  "4T16Q",
		"8T2Q", "8T4Q", "8T8Q", "8T16Q", "16T2Q", "16T4Q", "16T8Q", "16T16Q",
	};
	struct plan *p = builtin("8k-7030", 1.0);
	const struct plan_phase *m = phase_of(p, PH_MEASURE, 0);

	ck_assert_uint_eq(m->nsteps, 16);
	for (unsigned i = 0; i < 16; i++) {
		ck_assert_str_eq(m->steps[i].label, want[i]);
		ck_assert_uint_eq(m->steps[i].wl.threads, 2u << (i / 4));
		ck_assert_uint_eq(m->steps[i].wl.qdepth, 2u << (i % 4));
		ck_assert_uint_eq(m->steps[i].wl.bs, 8192);
		ck_assert_uint_eq(m->steps[i].wl.read_pct, 70);
		ck_assert_uint_eq(m->steps[i].wl.time_ns, 120000000000ull);
		ck_assert_uint_eq(m->steps[i].wl.ramp_ns, 30000000000ull);
	}
	const struct plan_phase *pc = phase_of(p, PH_PRECONDITION, 0);
	ck_assert(pc->until == UNTIL_FIXED);
	ck_assert_uint_eq(plan_phase_rounds(pc), 360);
	ck_assert_uint_eq(pc->steps[0].wl.threads, 16);
	ck_assert_uint_eq(pc->steps[0].wl.qdepth, 16);
	ck_assert_uint_eq(pc->steps[0].wl.time_ns, 60000000000ull);
	ck_assert_uint_eq(phase_of(p, PH_PURGE, 0)->purge, PURGE_DISCARD);
	plan_free(p);
}
END_TEST

START_TEST(test_snia_order)
{
	static const unsigned mixes[7] = {100, 95, 65, 50, 35, 5, 0};
	static const uint32_t sizes[8] = {1u << 20,  128u << 10, 64u << 10, 32u << 10,
					  16u << 10, 8u << 10,	 4u << 10,  512};
	struct plan *p = builtin("snia-iops", 1.0);
	const struct plan_phase *m = phase_of(p, PH_MEASURE, 0);
	const struct plan_phase *w = phase_of(p, PH_PRECONDITION, 0);

	ck_assert_uint_eq(m->nsteps, 56);
	ck_assert(m->until == UNTIL_STEADY);
	for (unsigned i = 0; i < 56; i++) {
		ck_assert_uint_eq(m->steps[i].wl.read_pct, mixes[i / 8]);
		ck_assert_uint_eq(m->steps[i].wl.bs, sizes[i % 8]);
		ck_assert_uint_eq(m->steps[i].wl.time_ns, 60000000000ull);
	}
	/* the tracked cell: 4K, 100% write */
	ck_assert_int_eq(m->track_step, 6 * 8 + 6);
	ck_assert_str_eq(m->steps[54].label, "write 4k");
	ck_assert_str_eq(m->track, "iops");
	ck_assert_uint_eq(m->steady.window, 5);
	ck_assert_uint_eq(m->steady.max_rounds, 25);
	ck_assert_double_eq_tol(m->steady.data_limit_pct, 20, 1e-12);
	ck_assert_double_eq_tol(m->steady.slope_limit_pct, 10, 1e-12);
	/* workload-independent precondition: 2x the range in 128K sequential writes */
	ck_assert(w->steps[0].loops_set);
	ck_assert_double_eq_tol(w->steps[0].loops_bytes_x, 2, 1e-12);
	ck_assert_uint_eq(w->steps[0].wl.bs, 128u << 10);
	ck_assert(w->steps[0].wl.pattern == WL_SEQUENTIAL);
	/* written as kind = wipc: the whole range, all writes, named for what it is */
	ck_assert(w->wipc);
	ck_assert_str_eq(w->name, "wipc");
	ck_assert_uint_eq(w->steps[0].wl.read_pct, 0);
	ck_assert_double_eq_tol(w->steps[0].wl.range_pct, 100, 1e-12);
	ck_assert_uint_eq(w->steps[0].wl.qdepth, 32);
	ck_assert_uint_eq(plan_steps(p), 1 + 1 + 56 * 25);
	plan_free(p);
}
END_TEST

/*
 * What presets take: fixed-length ones "about" their length; until-steady ones at
 * least their window, at most every round; fills left out of the expected time, or
 * counted from a size and a speed; keys of the preconditioning modes as parsed.
 */
START_TEST(test_estimates)
{
	static const struct {
		const char *name;
		uint64_t expected_s, max_s;
		double fill_x;
		bool early;
		const char *text;
	} want[] = {
		{"8k-7030", 6 * 3600 + 16 * 150, 6 * 3600 + 16 * 150, 0, false, "about 6h 40m"},
		{"4k-random", 6 * 3600 + 2 * 150, 6 * 3600 + 2 * 150, 0, false, "about 6h 05m"},
		{"quick", 48, 48, 0, false, "about 48 s"},
		{"vdbench-corners", 52 * 70, 12 * 3600 + 52 * 70, 1, false,
		 "about 1h 00m + fill, at most 13h 00m"},
		{"snia-iops", 5 * 56 * 60, 24 * 3600 + 25 * 56 * 60, 2, true,
		 "at least 4h 40m + fill, at most 47h 20m"},
	};
	char buf[128];

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct plan *p = builtin(want[i].name, 1.0);
		struct plan_eta e;
		plan_estimate(p, 0, 0, &e);
		ck_assert_msg(e.expected_ns == want[i].expected_s * 1000000000ull,
			      "%s: expected %llu ns", want[i].name,
			      (unsigned long long)e.expected_ns);
		ck_assert_uint_eq(e.max_ns, want[i].max_s * 1000000000ull);
		ck_assert_uint_eq(e.max_ns, plan_duration_ns(p));
		ck_assert_double_eq_tol(e.fill_x, want[i].fill_x, 1e-12);
		ck_assert_int_eq(e.early, want[i].early);
		plan_fmt_eta(buf, sizeof(buf), e.expected_ns, e.max_ns, e.early, e.fill_x > 0);
		ck_assert_str_eq(buf, want[i].text);
		plan_free(p);
	}
	/* a saturated total (2^64-1 ns) is what it is, not "about 0 s" */
	plan_fmt_eta(buf, sizeof(buf), UINT64_MAX, UINT64_MAX, false, false);
	ck_assert_str_eq(buf, "more than 584 years");
	plan_fmt_eta(buf, sizeof(buf), 1800000000000ull, UINT64_MAX, true, false);
	ck_assert_str_eq(buf, "at least 30m 00s, perhaps more than 584 years");
	/* a fill from the size and a speed: 1 GiB at 100 MB/s is 10.7 s, not its 12 h cap */
	struct plan *p = builtin("vdbench-corners", 1.0);
	struct plan_eta e;
	plan_estimate(p, 1ull << 30, 100e6, &e);
	ck_assert_double_eq_tol(e.fill_x, 0, 1e-12);
	ck_assert_uint_eq(e.expected_ns, 52 * 70 * 1000000000ull + 10737418240ull);
	plan_free(p);

	/* until = fixed rounds: max_time over the round; min_time, min_written kept */
	char err[512];
	p = preset_parse("[preset]\nname = f\n[precondition]\nuntil = fixed\nround = 1m\n"
			 "max_time = 90m\nmax_rounds = 1000\n[measure]\nuntil = steady\n"
			 "min_time = 30m\nmin_written = 2x\ntime = 1m\nmax_rounds = 100\n",
			 "t", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert(p->phases[0].until == UNTIL_FIXED);
	ck_assert_uint_eq(plan_phase_rounds(&p->phases[0]), 90);
	ck_assert_uint_eq(plan_phase_duration_ns(&p->phases[0]), 90 * 60000000000ull);
	ck_assert_uint_eq(plan_phase_expected_ns(&p->phases[0], 0, 0, NULL), 90 * 60000000000ull);
	ck_assert(p->phases[1].until == UNTIL_STEADY);
	ck_assert_uint_eq(p->phases[1].min_time_ns, 30 * 60000000000ull);
	ck_assert_double_eq_tol(p->phases[1].min_written_x, 2, 1e-12);
	ck_assert_uint_eq(plan_phase_expected_ns(&p->phases[1], 0, 0, NULL), 30 * 60000000000ull);
	ck_assert_uint_eq(plan_steps(p), 190);
	plan_free(p);
}
END_TEST

START_TEST(test_scale)
{
	struct plan *p = builtin("8k-7030", 0.01);
	const struct plan_phase *m = phase_of(p, PH_MEASURE, 0);

	ck_assert_uint_eq(m->steps[0].wl.time_ns, 1200000000ull);
	ck_assert_uint_eq(m->steps[0].wl.ramp_ns, 300000000ull);
	/* the default interval does not shrink below 100 ms, or a tenth of the step */
	ck_assert_uint_eq(m->steps[0].wl.interval_ns, 120000000ull);
	ck_assert_uint_eq(phase_of(p, PH_PRECONDITION, 0)->max_time_ns, 216000000000ull);
	plan_free(p);
	/* tiny scales stop at 100 ms for times; loops shrink with the scale */
	p = builtin("snia-iops", 0.0001);
	m = phase_of(p, PH_MEASURE, 0);
	ck_assert_uint_eq(m->steps[0].wl.time_ns, 100000000ull);
	ck_assert_uint_eq(m->steps[0].wl.interval_ns, 100000000ull);
	ck_assert_double_eq_tol(phase_of(p, PH_PRECONDITION, 0)->steps[0].loops_bytes_x, 0.0002,
				1e-12);
	plan_free(p);
	/* and a bad scale is refused */
	char err[256];
	ck_assert_ptr_null(preset_parse("[preset]\nname=x\n[run]\n", "s", 0, err, sizeof(err)));
	ck_assert_str_eq(err, "s: scale 0 is outside 1e-06 to 1e+06");
}
END_TEST

/*
 * Limits on what a preset (or the text a result carries, for replay) may ask for: a
 * scale from a file, durations that would overflow, a step past the limit once scaled,
 * text over the size limit. Each is refused and names the limit.
 */
static const struct {
	const char *text;
	double scale;
	const char *want; /* in the message */
} limits[] = {
	{"[preset]\nname=x\n[run]\n", 1e300, "scale 1e+300 is outside 1e-06 to 1e+06"},
	{"[preset]\nname=x\n[run]\n", NAN, "scale nan is outside"},
	{"[preset]\nname=x\n[run]\n", 1e-9, "scale 1e-09 is outside"},
	{"[preset]\nname=x\n[measure]\ntime = 5000000h\n", 1, "over the limit of 720h"},
	{"[preset]\nname=x\n[measure]\ntime = 99999999999999999999h\n", 1,
	 "over the limit of 720h"},
	{"[preset]\nname=x\n[measure]\ntime = 1h\n", 1000,
	 "[measure] step 1: time of 1000h 00m at scale 1000 is over the limit of 720h 00m"},
	{"[preset]\nname=x\n[precondition]\nuntil = steady\nmax_time = 1h\n", 1000,
	 "max_time of 1000h 00m at scale 1000 is over the limit"},
	{"[preset]\nname=x\n[measure]\nthreads = 1 2 3 4 5 6 7 8 9 10\n"
	 "[precondition]\nuntil = steady\nmax_rounds = 1000\nqdepth = 1 2 3 4 5 6 7 8 9 10\n"
	 "track_step = qdepth=1\n",
	 1, "[precondition] brings the preset to 10010 steps (rounds counted), over the limit"},
	{NULL, 1, "bytes of preset text, over the limit of 1 MiB"},
};

START_TEST(test_limits)
{
	char err[512] = "", *big = NULL;
	const char *text = limits[_i].text;

	if (!text) {
		big = malloc(PRESET_MAX_BYTES + 64);
		memset(big, '#', PRESET_MAX_BYTES + 63);
		big[PRESET_MAX_BYTES + 63] = '\0';
		text = big;
	}
	struct plan *p = preset_parse(text, "t", limits[_i].scale, err, sizeof(err));
	ck_assert_msg(!p, "parsed");
	ck_assert_msg(strstr(err, limits[_i].want), "got \"%s\", want \"%s\"", err,
		      limits[_i].want);
	free(big);
}
END_TEST

/*
 * Continuation lines are joined in linear time: the 340,000 a 1 MiB preset can hold took
 * 199 s when each copied the whole value so far, and take milliseconds. The bound is CPU
 * time, 100 times under what the copies cost, and far over what the join does.
 */
START_TEST(test_long_continuation)
{
	static const char head[] = "[preset]\nname = x\ndescription = a\n";
	static const char tail[] = "[measure]\nbs = 4k\n";
	enum { NLINES = 340000 };
	char err[512];
	struct timespec t0, t1;
	size_t len = strlen(head);
	char *text = malloc(len + 3 * NLINES + sizeof(tail));

	ck_assert_ptr_nonnull(text);
	memcpy(text, head, len);
	for (unsigned i = 0; i < NLINES; i++, len += 3)
		memcpy(text + len, " b\n", 3);
	memcpy(text + len, tail, sizeof(tail));
	ck_assert_uint_le(strlen(text), PRESET_MAX_BYTES);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	struct plan *p = preset_parse(text, "t", 1, err, sizeof(err));
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ck_assert_msg(p, "%s", err);
	/* "a b b ... b": each line joined with one blank */
	ck_assert_uint_eq(strlen(p->description), 1 + 2 * NLINES);
	ck_assert_str_eq(p->description + 2 * NLINES - 4, "b b b");
	double cpu_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_msg(cpu_s < 2.0, "%.1f s of CPU to parse %d continuation lines", cpu_s, NLINES);
	plan_free(p);
	free(text);
}
END_TEST

/* The planned time saturates instead of wrapping (it printed "at most 0 s"). */
START_TEST(test_duration_saturates)
{
	char err[512];
	struct plan *p = preset_parse(
		"[preset]\nname=x\n[measure]\nthreads = 1 2 3 4\ntime = 700h\ninterval = 1m\n", "t",
		1, err, sizeof(err));
	ck_assert_msg(p, "%s", err);
	ck_assert_uint_eq(plan_duration_ns(p), 4 * 700 * 3600000000000ull);
	/* more than 64 bits of nanoseconds: the sum stops at the top */
	p->phases[0].steps[0].wl.time_ns = UINT64_MAX - 1;
	ck_assert_uint_eq(plan_duration_ns(p), UINT64_MAX);
	plan_free(p);
}
END_TEST

/*
 * The sampling interval under --scale: a preset's own interval scales like any duration
 * (down to 10 ms); the default 1 s stays at least 100 ms, or a tenth of the scaled step,
 * and never grows. Columns: interval line, step time, scale, interval wanted.
 */
static const struct {
	const char *interval;
	const char *time;
	double scale;
	uint64_t want_ns;
} interval_cases[] = {
	{"", "2m", 1, 1000000000ull},		 /* unscaled: as it is */
	{"", "2m", 2, 2000000000ull},		 /* scaled up: like any duration */
	{"", "2m", 0.5, 1000000000ull},		 /* 60 s step: a tenth is more than 1 s */
	{"", "2m", 0.05, 600000000ull},		 /* 6 s step: a tenth of it */
	{"", "2m", 0.01, 120000000ull},		 /* 1.2 s step: a tenth of it */
	{"", "1m", 0.01, 100000000ull},		 /* 0.6 s step: 100 ms */
	{"", "10s", 0.001, 100000000ull},	 /* 100 ms step (the least): 100 ms */
	{"", "2h", 0.01, 1000000000ull},	 /* 72 s step: never past 1 s */
	{"interval = 50ms\n", "2m", 0.01, 10000000ull}, /* set: scaled, 10 ms at least */
	{"interval = 2s\n", "2m", 0.1, 200000000ull},
};

/*
 * Step times under --scale: down to 100 ms, not below; a time already shorter than that
 * keeps its length, and so does any time at x1. Columns: time, scale, time wanted.
 */
static const struct {
	const char *time;
	double scale;
	uint64_t want_ns;
} time_cases[] = {
	{"2m", 0.01, 1200000000ull}, {"2m", 0.0001, 100000000ull}, {"50ms", 0.01, 50000000ull},
	{"50ms", 1, 50000000ull},    {"10ms", 1, 10000000ull},	     {"250ms", 0.1, 100000000ull},
	{"1s", 2, 2000000000ull},
};

START_TEST(test_scaled_time)
{
	char text[256], err[512] = "";

	snprintf(text, sizeof(text), "[preset]\nname = t\n[measure]\ntime = %s\n",
		 time_cases[_i].time);
	struct plan *p = preset_parse(text, "time", time_cases[_i].scale, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(p->phases[0].steps[0].wl.time_ns, time_cases[_i].want_ns);
	plan_free(p);
}
END_TEST

START_TEST(test_scaled_interval)
{
	char text[256];

	snprintf(text, sizeof(text), "[preset]\nname = i\n[measure]\ntime = %s\n%s",
		 interval_cases[_i].time, interval_cases[_i].interval);
	char err[512] = "";
	struct plan *p = preset_parse(text, "interval", interval_cases[_i].scale, err, sizeof(err));

	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(p->phases[0].steps[0].wl.interval_ns, interval_cases[_i].want_ns);
	plan_free(p);
}
END_TEST

START_TEST(test_rate_curve)
{
	struct plan *p = builtin("vdbench-7030", 1.0);
	const struct plan_phase *m = phase_of(p, PH_MEASURE, 0);
	const struct plan_phase *fill = phase_of(p, PH_PRECONDITION, 0);

	ck_assert_uint_eq(m->nsteps, 39);
	for (unsigned i = 0; i < 39; i++) {
		ck_assert_uint_eq(m->steps[i].wl.bs, (4096u << (i / 13)));
		ck_assert_double_eq_tol(m->steps[i].rate_pct, (i % 13) * 10.0, 1e-12);
		ck_assert_double_eq_tol(m->steps[i].wl.range_pct, 25, 1e-12);
		ck_assert_uint_eq(m->steps[i].wl.threads * m->steps[i].wl.qdepth, 64);
	}
	ck_assert_str_eq(m->steps[0].label, "4k max");
	ck_assert_str_eq(m->steps[14].label, "8k 10%");
	ck_assert_double_eq_tol(fill->steps[0].wl.range_pct, 100, 1e-12);
	ck_assert_uint_eq(fill->steps[0].wl.ramp_ns, 0);
	plan_free(p);
}
END_TEST

/*
 * An ad-hoc run's settings become a [run] preset through the parser itself: every value
 * means what the key means in a preset, the text parses back to the same plan, and the
 * defaults of the keys not given are written out.
 */
START_TEST(test_from_settings)
{
	static const struct preset_setting set[] = {
		{"bssplit", "4k/60:8k/30:64k/10", "--bssplit 4k/60:8k/30:64k/10"},
		{"read", "65%", "--read 65%"},
		{"offset", "1m", "--offset 1m"},
		{"range", "33.333%", "--range 33.333%"},
		{"threads", "3", "--threads 3"},
		{"qdepth", "7", "--qdepth 7"},
		{"time", "1.5s", "--time 1.5s"},
		{"ramp", "250us", "--ramp 250us"},
		{"rate", "1234", "--rate 1234"},
		{"data", "compress", "--data compress"},
		{"compress", "40", "--compress 40"},
		{"interval", "20ms", "--interval 20ms"},
		{"seed", "99", "--seed 99"},
	};
	struct workload wl;
	char err[512];
	struct plan *p, *q;
	char *text;

	workload_defaults(&wl);
	ck_assert_int_eq(workload_parse_bssplit(&wl, "4k/60:8k/30:64k/10", err, sizeof(err)), 0);
	wl.read_pct = 65;
	wl.range_pct = 33.333;
	wl.range_start = 1 << 20;
	wl.threads = 3;
	wl.qdepth = 7;
	wl.time_ns = 1500000000ull;
	wl.ramp_ns = 250000ull;
	wl.rate_iops = 1234;
	wl.data = WL_DATA_COMPRESS;
	wl.compress_pct = 40;
	wl.interval_ns = 20000000ull;
	wl.seed = 99;
	p = plan_from_settings(set, sizeof(set) / sizeof(set[0]), "ad-hoc", err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(p->nphases, 1);
	ck_assert_str_eq(p->phases[0].name, "run");
	ck_assert(p->phases[0].kind == PH_RUN);
	ck_assert_uint_eq(p->phases[0].nsteps, 1);
	assert_wl_eq(&p->phases[0].steps[0].wl, &wl, "ad-hoc");
	ck_assert(plan_writes(p));
	/* the text it carries replays to the same plan, and says what it does */
	q = preset_parse(p->text, "replayed", 1.0, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	assert_plan_eq(p, q);
	ck_assert_str_eq(q->description, p->description);
	ck_assert_ptr_nonnull(strstr(p->description, "65"));
	text = plan_to_text(q);
	ck_assert_ptr_nonnull(strstr(text, "[run]\n"));
	free(text);
	plan_free(p);
	plan_free(q);
	/* no settings: the defaults, written out */
	p = plan_from_settings(NULL, 0, NULL, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	workload_defaults(&wl);
	assert_wl_eq(&p->phases[0].steps[0].wl, &wl, "defaults");
	ck_assert_str_eq(p->name, "ad-hoc");
	ck_assert(!plan_writes(p));
	ck_assert_ptr_nonnull(strstr(p->text, "qdepth"));
	ck_assert_ptr_nonnull(strstr(p->text, "time"));
	ck_assert_ptr_null(strstr(p->text, "bssplit"));
	plan_free(p);
}
END_TEST

/* A list in a setting makes steps, as it does in a preset: --threads "2 4" --qdepth "2 4". */
START_TEST(test_settings_lists)
{
	static const struct preset_setting set[] = {
		{"threads", "2 4", "--threads 2 4"},
		{"qdepth", "2 4", "--qdepth 2 4"},
		{"time", "1s", "--time 1s"},
	};
	char err[512];
	struct plan *p = plan_from_settings(set, 3, "ladder", err, sizeof(err));

	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(p->phases[0].nsteps, 4);
	ck_assert_uint_eq(p->phases[0].steps[1].wl.threads, 2);
	ck_assert_uint_eq(p->phases[0].steps[1].wl.qdepth, 4);
	ck_assert_str_eq(p->description, "4 steps");
	plan_free(p);
}
END_TEST

/* A bad setting is reported as the option it came from, never as a line of hidden text. */
static const struct {
	struct preset_setting set[2];
	unsigned n;
	const char *want; /* the whole message */
} bad_settings[] = {
	{{{"bs", "1000", "--bs 1000"}}, 1, "--bs 1000: "},
	{{{"read", "170", "--read 170"}}, 1, "--read 170: "},
	{{{"threads", "0", "--threads 0"}}, 1, "--threads 0: "},
	{{{"bs", "4k", "--bs 4k"}, {"bssplit", "4k/50:8k/50", "--bssplit 4k/50:8k/50"}},
	 2,
	 "--bssplit 4k/50:8k/50: 'bssplit' and 'bs' (--bs 4k) both set: give one"},
	{{{"until", "steady", "--until steady"}}, 1, "--until steady: 'until' is not an option"},
	{{{"method", "discard", "--method discard"}}, 1, "--method discard: 'method' is not an "},
};

START_TEST(test_settings_errors)
{
	char err[512];
	struct plan *p = plan_from_settings(bad_settings[_i].set, bad_settings[_i].n, "run", err,
					    sizeof(err));

	ck_assert_ptr_null(p);
	ck_assert_msg(!strncmp(err, bad_settings[_i].want, strlen(bad_settings[_i].want)),
		      "got '%s', want '%s...'", err, bad_settings[_i].want);
	ck_assert_ptr_null(strstr(err, "<run options>"));
}
END_TEST

/* Every key's default, written where it belongs, parses: the table is self-consistent. */
START_TEST(test_key_defaults)
{
	char text[8192], err[512];
	size_t n = 0;
	struct plan *p;

	int order[PRESET_NSECTIONS + 1], norder = 0;

	/* [stream] twice: a phase has two or more streams, or none */
	for (int sec = 0; sec < PRESET_NSECTIONS; sec++) {
		if (sec == SEC_APP) /* a preset of its own: check_app */
			continue;
		order[norder++] = sec;
		if (sec == SEC_STREAM)
			order[norder++] = sec;
	}
	for (int j = 0; j < norder; j++) {
		int sec = order[j];
		n += (size_t)snprintf(text + n, sizeof(text) - n, "[%s]\n",
				      preset_section_name[sec]);
		if (sec == SEC_PRESET)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "name = defaults\n");
		for (unsigned i = 0; i < preset_nkeys; i++) {
			const struct preset_key *k = &preset_keys[i];
			ck_assert_ptr_nonnull(k->help);
			ck_assert_ptr_nonnull(k->value);
			if (k->def && (k->sections & (1u << sec)))
				n += (size_t)snprintf(text + n, sizeof(text) - n, "%s = %s\n",
						      k->name, k->def);
		}
	}
	p = preset_parse(text, "defaults", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s\n%s", err, text);
	/* a [measure] of only defaults is workload_defaults() */
	struct workload wl;
	workload_defaults(&wl);
	assert_wl_eq(&phase_of(p, PH_MEASURE, 0)->steps[0].wl, &wl, "defaults");
	plan_free(p);
}
END_TEST

/* man/drivebench-preset.5 documents every key in KEYS, and nothing that is not a key. */
START_TEST(test_manpage)
{
	char *man = slurp(DB_SRCDIR "/man/drivebench-preset.5");
	char *keys, *end, *line, *save = NULL;
	unsigned documented = 0;

	ck_assert_ptr_nonnull(man);
	keys = strstr(man, "\n.SH KEYS\n");
	ck_assert_ptr_nonnull(keys);
	end = strstr(keys + 1, "\n.SH ");
	if (end)
		*end = '\0';
	for (unsigned i = 0; i < preset_nkeys; i++) {
		char want[128];
		snprintf(want, sizeof(want), "\n.TP\n.B %s\n", preset_keys[i].name);
		ck_assert_msg(strstr(keys, want), "key '%s' is not documented in KEYS",
			      preset_keys[i].name);
	}
	for (line = strtok_r(keys, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool known = false;
		if (strncmp(line, ".B ", 3) || strchr(line + 3, ' '))
			continue;
		for (unsigned i = 0; i < preset_nkeys; i++)
			known |= !strcmp(preset_keys[i].name, line + 3);
		ck_assert_msg(known, "KEYS documents '%s', which is not a key", line + 3);
		documented++;
	}
	ck_assert_uint_eq(documented, preset_nkeys);
	free(man);
}
END_TEST

START_TEST(test_check_target)
{
	char err[1024];
	struct plan *p = builtin("fileserver", 1.0);
	char want[5000];

	/* bssplit has 512b, 1k and 2k: folded into 4k on a 4k-sector drive, as it runs */
	ck_assert_int_eq(plan_check_target(p, 4096, 1ull << 30, err, sizeof(err)), 0);
	ck_assert_int_eq(plan_check_target(p, 512, 1ull << 30, err, sizeof(err)), 0);
	/* a fixed block size is not: SNIA's 0.5K column, the message naming its line */
	plan_free(p);
	p = builtin("snia-iops", 1.0);
	ck_assert_int_eq(plan_check_target(p, 4096, 1ull << 30, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s:33: block size 512b is below or not a multiple of the target's logical "
		 "block size (4k)",
		 p->file);
	ck_assert_str_eq(err, want);
	/* a 100 KiB target is too small for 64k blocks on 16 sequential threads... */
	plan_free(p);
	p = builtin("128k-seq", 1.0);
	ck_assert_int_eq(plan_check_target(p, 512, 100 << 10, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "too small"));
	plan_free(p);
}
END_TEST

/*
 * 4K-sector targets: SNIA's 0.5K column dropped from the rounds, the tracked step kept and
 * found again, the note saying what and why; a phase that would lose all its steps or its
 * tracked one keeps them, and the target check refuses it as before.
 */
START_TEST(test_fit_target)
{
	char err[1024];
	struct plan *p = builtin("snia-iops", 1.0);
	const struct plan_phase *ph = phase_of(p, PH_MEASURE, 0);

	ck_assert_uint_eq(ph->nsteps, 56);
	ck_assert_uint_eq(plan_fit_target(p, 512), 0);
	ck_assert_str_eq(ph->skipped, "");
	ck_assert_uint_eq(plan_fit_target(p, 4096), 7);
	ck_assert_uint_eq(ph->nsteps, 49);
	for (unsigned s = 0; s < ph->nsteps; s++)
		ck_assert_uint_ge(ph->steps[s].wl.bs, 4096);
	ck_assert_uint_eq(ph->steps[ph->track_step].wl.bs, 4096);
	ck_assert_uint_eq(ph->steps[ph->track_step].wl.read_pct, 0);
	ck_assert_msg(strstr(ph->skipped, "(7 steps): block size 512b is below or not a multiple "
					  "of the target's logical block size (4k)"),
		      "%s", ph->skipped);
	/* the seven labels before the count */
	unsigned commas = 0;
	for (const char *c = ph->skipped; c < strstr(ph->skipped, " (7 steps)"); c++)
		commas += !strncmp(c, ", ", 2);
	ck_assert_msg(commas == 6, "%s", ph->skipped);
	ck_assert_int_eq(plan_check_target(p, 4096, 1ull << 30, err, sizeof(err)), 0);
	ck_assert_uint_eq(plan_steps(p), 1 + 1 + 49 * 25);
	/* fitted twice: nothing more to drop */
	ck_assert_uint_eq(plan_fit_target(p, 4096), 0);
	plan_free(p);

	/* the only step of a phase is not dropped: the run is refused */
	p = preset_parse("[preset]\nname = a\n[run]\nbs = 512b\n", "one", 1.0, err,
			 sizeof(err));
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(plan_fit_target(p, 4096), 0);
	ck_assert_int_eq(plan_check_target(p, 4096, 1ull << 30, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(p->phases[0].skipped, "");
	plan_free(p);
	/* nor is a tracked one; a list loses its misfit and keeps the rest */
	p = preset_parse("[preset]\nname = t\n[measure]\nuntil = steady\nbs = 512b 4k\n"
			 "track = iops\ntrack_step = bs=512b\n[run]\nbs = 512b 8k 6k\n",
			 "tracked", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(plan_fit_target(p, 4096), 2);
	ck_assert_uint_eq(p->phases[0].nsteps, 2);
	ck_assert_str_eq(p->phases[0].skipped, "");
	ck_assert_uint_eq(p->phases[1].nsteps, 1);
	ck_assert_uint_eq(p->phases[1].steps[0].wl.bs, 8192);
	ck_assert_msg(strstr(p->phases[1].skipped, " (2 steps): block size 512b is below"),
		      "%s", p->phases[1].skipped);
	ck_assert_int_eq(plan_check_target(p, 4096, 1ull << 30, err, sizeof(err)), -EINVAL);
	plan_free(p);
}
END_TEST

/* A user preset directory, made and removed by the parent process (unchecked fixture). */
static char user_dir[64], user_preset[128];

static void user_dir_make(void)
{
	char sub[96];
	FILE *f;

	snprintf(user_dir, sizeof(user_dir), "/tmp/check_preset.%d", (int)getpid());
	snprintf(sub, sizeof(sub), "%s/drivebench", user_dir);
	snprintf(user_preset, sizeof(user_preset), "%s/presets/mine.preset", sub);
	mkdir(user_dir, 0700);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/drivebench/presets", user_dir);
	mkdir(sub, 0700);
	f = fopen(user_preset, "w");
	if (f) {
		fputs("[preset]\nname = Mine\n[measure]\n", f);
		fclose(f);
	}
}

static void user_dir_remove(void)
{
	char sub[96];

	unlink(user_preset);
	snprintf(sub, sizeof(sub), "%s/drivebench/presets", user_dir);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/drivebench", user_dir);
	rmdir(sub);
	rmdir(user_dir);
}

START_TEST(test_lookup)
{
	char path[4096], err[512];
	struct settings user = tree;
	struct plan *p;

	user.config_home = user_dir;
	ck_assert_int_eq(preset_find(&tree, "quick", path, sizeof(path)), 0);
	ck_assert_str_eq(path, DB_SRCDIR "/presets/quick.preset");
	ck_assert_int_eq(preset_find(&tree, "no-such-preset", path, sizeof(path)), -ENOENT);
	ck_assert_ptr_null(preset_load(&tree, "no-such-preset", 1, err, sizeof(err)));
	ck_assert_str_eq(err, "no-such-preset: no such preset (drivebench presets lists them; "
			      "a file needs a '/' or .preset)");
	/* a user preset in $XDG_CONFIG_HOME is found by name; not without it */
	ck_assert_ptr_null(preset_load(&tree, "mine", 1, err, sizeof(err)));
	p = preset_load(&user, "mine", 1, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_str_eq(p->name, "Mine");
	ck_assert_str_eq(p->file, user_preset);
	plan_free(p);
	/* a path is taken as given */
	p = preset_load(&tree, user_preset, 1, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	plan_free(p);
}
END_TEST

/* [stream]s: each step's streams inherit the step's workload, keep the step's clock. */
START_TEST(test_streams)
{
	char err[1024] = "";
	struct plan *p = preset_parse_file(FIXTURES "/good/streams.preset", 1.0, err, sizeof(err));

	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(p->nphases, 1);
	ck_assert_uint_eq(p->phases[0].nsteps, 2);
	for (unsigned s = 0; s < 2; s++) {
		const struct plan_step *st = &p->phases[0].steps[s];
		const struct plan_stream *data = &st->streams[0], *log = &st->streams[1];
		ck_assert_uint_eq(st->nstreams, 2);
		ck_assert_str_eq(data->name, "data");
		ck_assert_str_eq(log->name, "log");
		/* data: the step's workload (the ladder's threads) with its distribution */
		ck_assert_uint_eq(data->wl.threads, s + 1);
		ck_assert_uint_eq(data->wl.bs, 8192);
		ck_assert_uint_eq(data->wl.read_pct, 70);
		ck_assert(data->wl.dist == WL_DIST_ZONED && data->wl.nzones == 2);
		ck_assert(data->share_pct == 80);
		/* log: its own keys over the step's */
		ck_assert(log->wl.pattern == WL_SEQUENTIAL && log->wl.bs == 65536);
		ck_assert_uint_eq(log->wl.read_pct, 0);
		ck_assert_uint_eq(log->wl.threads, 1);
		ck_assert(log->wl.range_pct == 2);
		ck_assert(log->wl.dist == WL_DIST_UNIFORM);
		ck_assert(log->share_pct == 0);
		/* one clock: the step's time and ramp; the rate is shared out as the step runs */
		for (unsigned k = 0; k < 2; k++) {
			ck_assert_uint_eq(st->streams[k].wl.time_ns, st->wl.time_ns);
			ck_assert_uint_eq(st->streams[k].wl.ramp_ns, st->wl.ramp_ns);
			ck_assert_uint_eq(st->streams[k].wl.rate_iops, 0);
		}
		ck_assert_uint_eq(st->wl.rate_iops, 1000);
	}
	ck_assert_str_eq(p->phases[0].steps[0].label, "1T32Q");
	/* the phase reads 70%, the log stream writes: the plan writes */
	ck_assert(plan_writes(p));
	plan_free(p);

	/* a read-only phase whose second stream writes is a plan that writes */
	p = preset_parse("[preset]\nname = t\n[measure]\ntime = 1s\n[stream]\nname = r\n"
			 "[stream]\nname = w\nread = 0\n",
			 "t", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(p->phases[0].steps[0].wl.read_pct, 100);
	ck_assert(plan_writes(p));
	ck_assert_str_eq(p->phases[0].steps[0].label, "r + w");
	plan_free(p);

	/* streams are checked against the target like steps */
	p = preset_parse("[preset]\nname = t\n[measure]\ntime = 1s\n[stream]\nname = a\n"
			 "[stream]\nname = b\nbs = 1k\n",
			 "t", 1.0, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_int_eq(plan_check_target(p, 4096, 1 << 30, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "t:9: block size 1k") != NULL, "%s", err);
	plan_free(p);
}
END_TEST

START_TEST(test_writes)
{
	char err[512];
	struct plan *p = preset_parse("[preset]\nname = r\n[measure]\nread = 100\nbs = 4k 8k\n",
				      "r", 1, err, sizeof(err));

	ck_assert_msg(p != NULL, "%s", err);
	ck_assert(!plan_writes(p));
	ck_assert_uint_eq(plan_steps(p), 2);
	ck_assert_uint_eq(plan_duration_ns(p), 20000000000ull);
	plan_free(p);
	p = builtin("quick", 1);
	ck_assert(plan_writes(p));
	/* under a minute at scale 1 */
	ck_assert_uint_lt(plan_duration_ns(p), 60000000000ull);
	plan_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("preset");
	TCase *tc = tcase_create("core");

	nbad = list_dir(FIXTURES "/bad", bad_files, 0);
	ngood = list_dir(FIXTURES "/good", good_files, 0);
	ngood = list_dir(DB_SRCDIR "/presets", good_files, ngood);
	/* the issue asks for at least 30 malformed presets and the 11 built-ins */
	if (nbad < 30 || ngood < 11 + 3) {
		fprintf(stderr, "check_preset: corpus too small (%d bad, %d good)\n", nbad, ngood);
		return EXIT_FAILURE;
	}
	tcase_add_loop_test(tc, test_bad, 0, nbad);
	tcase_add_loop_test(tc, test_good, 0, ngood);
	tcase_add_test(tc, test_ladder);
	tcase_add_test(tc, test_streams);
	tcase_add_test(tc, test_snia_order);
	tcase_add_test(tc, test_scale);
	tcase_add_test(tc, test_estimates);
	tcase_add_loop_test(tc, test_limits, 0, (int)(sizeof(limits) / sizeof(limits[0])));
	tcase_add_test(tc, test_duration_saturates);
	tcase_add_test(tc, test_long_continuation);
	tcase_add_loop_test(tc, test_scaled_time, 0,
			    (int)(sizeof(time_cases) / sizeof(time_cases[0])));
	tcase_add_loop_test(tc, test_scaled_interval, 0,
			    (int)(sizeof(interval_cases) / sizeof(interval_cases[0])));
	tcase_add_test(tc, test_rate_curve);
	tcase_add_test(tc, test_from_settings);
	tcase_add_test(tc, test_settings_lists);
	tcase_add_loop_test(tc, test_settings_errors, 0,
			    sizeof(bad_settings) / sizeof(bad_settings[0]));
	tcase_add_test(tc, test_key_defaults);
	tcase_add_test(tc, test_manpage);
	tcase_add_test(tc, test_check_target);
	tcase_add_test(tc, test_fit_target);
	tcase_add_unchecked_fixture(tc, user_dir_make, user_dir_remove);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_writes);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
