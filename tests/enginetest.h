/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_ENGINETEST_H
#define DB_ENGINETEST_H
/*
 * What the engine's tests share: a sample callback that counts, the check that a step's
 * intervals add up to its total, and file targets made and removed. After testlib.h and
 * engine.h.
 */

struct seen {
	unsigned n;
	uint64_t ios;
};

static inline void count_sample(void *arg, const struct sample *s)
{
	struct seen *seen = arg;
	ck_assert_uint_eq(s->index, seen->n);
	seen->n++;
	seen->ios += s->d[DIR_ALL].ios;
}

/* The intervals add up exactly to the total, for every counter that adds. */
static inline void assert_sums(const struct step_result *r)
{
	uint64_t ios[NDIR] = {0}, bytes[NDIR] = {0}, dur = 0, max = 0;

	ck_assert_uint_gt(r->nsamples, 0);
	for (unsigned i = 0; i < r->nsamples; i++) {
		const struct sample *s = &r->samples[i];
		ck_assert_uint_eq(s->index, i);
		ck_assert_uint_eq(s->start_ns, dur);
		dur += s->dur_ns;
		for (int d = 0; d < NDIR; d++) {
			ios[d] += s->d[d].ios;
			bytes[d] += s->d[d].bytes;
		}
		if (s->d[DIR_ALL].max_ns > max)
			max = s->d[DIR_ALL].max_ns;
		ck_assert_uint_eq(s->d[DIR_ALL].ios, s->d[DIR_READ].ios + s->d[DIR_WRITE].ios);
	}
	for (int d = 0; d < NDIR; d++) {
		ck_assert_uint_eq(ios[d], r->total.d[d].ios);
		ck_assert_uint_eq(bytes[d], r->total.d[d].bytes);
	}
	ck_assert_uint_eq(dur, r->total.dur_ns);
	/* the drain's latencies count in the maximum, its I/Os not in the window's counts */
	if (r->drain.d[DIR_ALL].max_ns > max)
		max = r->drain.d[DIR_ALL].max_ns;
	ck_assert_uint_eq(max, r->total.d[DIR_ALL].max_ns);
	ck_assert_uint_eq(hist_count(&r->acc[0].hist) + hist_count(&r->acc[1].hist),
			  r->total.d[DIR_ALL].ios);
	ck_assert_uint_eq(hist_count(&r->drain_acc[0].hist) + hist_count(&r->drain_acc[1].hist),
			  r->drain.d[DIR_ALL].ios);
}

static inline void open_file_target(struct target *t, char **path, uint64_t size, bool write)
{
	char err[256];
	*path = test_tmpfile(NULL, size);
	ck_assert_ptr_nonnull(*path);
	ck_assert_msg(target_open(t, *path, write, err, sizeof(err)) == 0, "%s", err);
}

static inline void close_file_target(struct target *t, char *path)
{
	target_close(t);
	unlink(path);
	free(path);
}

#endif
