// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a run repeats and how much it writes, through the runner with a recording engine
 * (the null engine, with each queue's offsets kept): a replay with the original's seeds
 * issues the same offsets, step for step and round for round, and without them different
 * ones; a fill (`loops`) issues exactly its range x loops bytes, scaled with --scale,
 * and at most one block more per thread when the block sizes do not divide its share.
 */
#include "testlib.h"
#include <stdatomic.h>
#include <stdint.h>

#include "preset.h"
#include "runner.h"

#define TARGET_BYTES (64ull << 20)
#define NOFFS 1000u /* offsets kept per queue */
#define NQUEUES 64u /* queues kept per run */

/* ---- the recording engine: the null engine, each queue's first offsets kept ---------- */

struct rec_queue {
	struct engine_io *inner; /* the null engine's */
	unsigned index;		 /* in the order opened */
};

static uint64_t offs[NQUEUES][NOFFS];
static unsigned noffs[NQUEUES];
static atomic_uint nqueues;

static int rec_open(struct engine_io **io, int fd, unsigned depth, const struct iovec *bufs,
		    unsigned flags)
{
	struct rec_queue *q = calloc(1, sizeof(*q));
	int ret;

	if (!q)
		return -ENOMEM;
	ret = engine_null.open(&q->inner, fd, depth, bufs, flags);
	if (ret) {
		free(q);
		return ret;
	}
	q->index = atomic_fetch_add(&nqueues, 1);
	*io = (struct engine_io *)q;
	return 0;
}

static void rec_close(struct engine_io *io)
{
	struct rec_queue *q = (struct rec_queue *)io;

	engine_null.close(q->inner);
	free(q);
}

static void rec_queue(struct engine_io *io, unsigned slot, bool write, uint64_t off, uint32_t len)
{
	struct rec_queue *q = (struct rec_queue *)io;

	if (q->index < NQUEUES && noffs[q->index] < NOFFS)
		offs[q->index][noffs[q->index]++] = off;
	engine_null.queue(q->inner, slot, write, off, len);
}

static int rec_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	return engine_null.submit_wait(((struct rec_queue *)io)->inner, min_complete, timeout_ns);
}

static unsigned rec_reap(struct engine_io *io, struct engine_cqe *out, unsigned max)
{
	return engine_null.reap(((struct rec_queue *)io)->inner, out, max);
}

static const char *rec_describe(struct engine_io *io)
{
	return engine_null.describe(((struct rec_queue *)io)->inner);
}

static const struct engine_ops engine_rec = {
	.name = "rec",
	.open = rec_open,
	.close = rec_close,
	.queue = rec_queue,
	.submit_wait = rec_submit_wait,
	.reap = rec_reap,
	.describe = rec_describe,
};

/* ---- running a plan ------------------------------------------------------------------- */

static char *target_path;

static void make_target(void)
{
	target_path = test_tmpfile(NULL, TARGET_BYTES);
	if (!target_path)
		exit(EXIT_FAILURE);
}

static void drop_target(void)
{
	unlink(target_path);
	free(target_path);
}

static struct plan *parse(const char *text, double scale)
{
	char err[1024];
	struct plan *p = preset_parse(text, "test", scale, err, sizeof(err));

	ck_assert_msg(p != NULL, "%s", err);
	return p;
}

/* Run p on the target with the recording engine; seeds_from as runner_opts has it. */
static void run(const struct plan *p, const struct result *seeds_from, struct result *res)
{
	struct runner_opts o = {.ops = &engine_rec, .seeds_from = seeds_from};
	struct target t;
	char err[512];

	memset(noffs, 0, sizeof(noffs));
	atomic_store(&nqueues, 0);
	ck_assert_msg(target_open(&t, target_path, true, err, sizeof(err)) == 0, "%s", err);
	result_init(res);
	ck_assert_int_eq(runner_run(p, &t, &o, res, NULL, NULL), 0);
	target_close(&t);
	ck_assert_int_eq(res->status, RS_COMPLETE);
}

/* ---- replay: the same seeds, the same offsets ------------------------------------------ */

/* A random preset: two rounds of a fixed precondition, then two measure steps; one thread
   a step, so each queue is one step's whole sequence of offsets. */
static const char replay_preset[] = "[preset]\nname = r\n[workload]\npattern = random\n"
				    "bssplit = 4k/50:16k/50\nread = 70\nthreads = 1\nqdepth = 4\n"
				    "interval = 20ms\n[precondition]\nuntil = fixed\nround = 40ms\n"
				    "max_rounds = 2\nwindow = 2\n[measure]\nread = 100 0\ntime = 40ms\n";

START_TEST(test_replay_offsets)
{
	static uint64_t first[NQUEUES][NOFFS];
	unsigned nfirst[NQUEUES], queues;
	struct plan *p = parse(replay_preset, 1);
	struct result orig, again, fresh;

	run(p, NULL, &orig);
	queues = atomic_load(&nqueues);
	ck_assert_uint_eq(queues, 4); /* two rounds, two steps */
	memcpy(first, offs, sizeof(offs));
	memcpy(nfirst, noffs, sizeof(noffs));
	for (unsigned q = 0; q < queues; q++)
		ck_assert_uint_eq(nfirst[q], NOFFS);

	/* replayed with the original's seeds: every step's first 1000 offsets again */
	run(p, &orig, &again);
	ck_assert_uint_eq(atomic_load(&nqueues), queues);
	for (unsigned q = 0; q < queues; q++) {
		ck_assert_uint_eq(noffs[q], NOFFS);
		ck_assert_msg(!memcmp(first[q], offs[q], sizeof(offs[q])),
			      "step %u: the replay issued other offsets", q);
	}
	for (unsigned ph = 1; ph < 3; ph++)
		for (unsigned s = 0; s < 2; s++)
			ck_assert_uint_eq(again.phases[ph - 1].steps[s].wl.seed,
					  orig.phases[ph - 1].steps[s].wl.seed);

	/* new seeds: other offsets */
	run(p, NULL, &fresh);
	for (unsigned q = 0; q < queues; q++)
		ck_assert_msg(memcmp(first[q], offs[q], sizeof(offs[q])),
			      "step %u: new seeds issued the same offsets", q);
	result_free(&orig);
	result_free(&again);
	result_free(&fresh);
	plan_free(p);
}
END_TEST

/* ---- fills: range x loops bytes, no more ------------------------------------------------ */

static const struct fill_case {
	const char *what;
	const char *workload; /* keys of the fill */
	double scale;
	uint64_t bytes;	      /* range x loops (x scale) */
	uint64_t slack;	      /* at most this much more: one block per thread */
} fills[] = {
	{"sequential 128k, 3 threads", "pattern = sequential\nbs = 128k\nthreads = 3\nloops = 1\n", 1,
	 TARGET_BYTES, 0},
	{"random 4k, 4 threads, loops 2", "pattern = random\nbs = 4k\nthreads = 4\nloops = 2\n",
	 1, 2 * TARGET_BYTES, 0},
	{"sequential 128k at --scale 0.25", "pattern = sequential\nbs = 128k\nthreads = 2\nloops = 1\n",
	 0.25, TARGET_BYTES / 4, 0},
	{"bssplit 4k..64k, 3 threads", "pattern = random\nbssplit = 4k/50:64k/50\nthreads = 3\nloops = 1\n",
	 1, TARGET_BYTES, 3 * (64u << 10)},
};

START_TEST(test_fill_bytes)
{
	const struct fill_case *c = &fills[_i];
	char text[512];
	struct result res;
	struct plan *p;

	snprintf(text, sizeof(text),
		 "[preset]\nname = fill\n[precondition]\nread = 0\nqdepth = 8\n%s",
		 c->workload);
	p = parse(text, c->scale);
	run(p, NULL, &res);
	const struct result_step *st = &res.phases[0].steps[0];
	uint64_t written = st->summary.d[DIR_WRITE].bytes + st->ramp.d[DIR_WRITE].bytes +
			   st->drain.d[DIR_WRITE].bytes;
	ck_assert_msg(written >= c->bytes && written <= c->bytes + c->slack,
		      "%s: wrote %llu bytes, range x loops is %llu (+ at most %llu)", c->what,
		      (unsigned long long)written, (unsigned long long)c->bytes,
		      (unsigned long long)c->slack);
	/* the intervals add up to the measured time's count, the last one cut short */
	uint64_t in_samples = 0;
	struct sample_iter it;
	struct sample smp;
	sample_iter_init(&it, st);
	while (sample_iter_next(&it, &smp))
		in_samples += smp.d[DIR_WRITE].bytes;
	ck_assert_uint_eq(in_samples, st->summary.d[DIR_WRITE].bytes);
	result_free(&res);
	plan_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("recorded");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, make_target, drop_target);
	tcase_add_test(tc, test_replay_offsets);
	tcase_add_loop_test(tc, test_fill_bytes, 0, sizeof(fills) / sizeof(fills[0]));
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
