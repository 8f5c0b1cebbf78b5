/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_ENGINETEST_H
#define DB_ENGINETEST_H
/*
 * What the engine's tests share: a sample callback that counts, the check that a step's
 * intervals add up to its total, file targets made and removed, and the collector's host
 * on scripted time. After testlib.h and engine.h.
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

/*
 * The collector's host on scripted time (engine_host). Each look at the clock before a
 * sleep is the real time plus what was scripted so far, so stalls land where the
 * workers' records are; each sleep takes exactly its length, plus late_ns at sleep number
 * late_at; no worker thread ever waits for a CPU. Once real time is stop_after_ns past
 * the scripted stall, the step is stopped. The grow_fail_at-th growth of samples fails.
 */
struct script {
	uint64_t skew_ns;      /* scripted time ahead of the real clock */
	uint64_t looked_ns;    /* the last look at the clock */
	uint64_t woke_ns;      /* the time a sleep ended, for the look after it; 0 none */
	unsigned sleeps, late_at, grows, grow_fail_at;
	uint64_t late_ns, late_real_ns, stop_after_ns;
	struct engine_ctl *ctl;
};

static inline uint64_t script_now(void *arg)
{
	struct script *sc = arg;
	uint64_t t = sc->woke_ns;

	if (sc->late_real_ns && sc->ctl && mono_now_ns() >= sc->late_real_ns + sc->stop_after_ns)
		atomic_store(&sc->ctl->stop, 1);
	sc->woke_ns = 0;
	sc->looked_ns = t ? t : mono_now_ns() + sc->skew_ns;
	return sc->looked_ns;
}

static inline void script_sleep(void *arg, uint64_t ns)
{
	struct script *sc = arg;

	nanosleep(&(struct timespec){0, (long)ns}, NULL); /* the workers run meanwhile */
	sc->woke_ns = sc->looked_ns + ns;
	if (++sc->sleeps == sc->late_at) {
		sc->woke_ns += sc->late_ns;
		sc->skew_ns += sc->late_ns;
		sc->late_real_ns = mono_now_ns();
	}
}

static inline bool script_run_delay(void *arg, unsigned worker, int fd, uint64_t *ns)
{
	(void)arg, (void)worker, (void)fd;
	*ns = 0;
	return true;
}

static inline void *script_grow(void *arg, void *p, size_t bytes)
{
	struct script *sc = arg;

	return ++sc->grows == sc->grow_fail_at ? NULL : realloc(p, bytes);
}

static inline void script_host(struct script *sc, struct engine_host *h, struct engine_ctl *ctl)
{
	*h = (struct engine_host){script_now, script_sleep, script_run_delay, script_grow, sc};
	sc->ctl = ctl;
	ctl->host = h;
}

#endif
