// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine end to end: the null engine for exact accounting, io_uring on a temp file
 * and on a loop device the test creates, rate limiting, mixes, stop, bad targets.
 */
#include "testlib.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "engine.h"
#include "settings.h"
#include "enginetest.h"

#define MS 1000000ull

/* null engine: 300 ms in 50 ms intervals, several thread and depth shapes */
START_TEST(test_null_intervals)
{
	static const unsigned shapes[][2] = {{1, 1}, {1, 32}, {4, 8}, {16, 16}};
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct seen seen = {0};

	open_file_target(&t, &path, 1 << 20, false);
	workload_defaults(&wl);
	wl.threads = shapes[_i][0];
	wl.qdepth = shapes[_i][1];
	wl.time_ns = 300 * MS;
	wl.interval_ns = 50 * MS;
	wl.ramp_ns = _i == 2 ? 50 * MS : 0;
	ck_assert_msg(engine_run(&engine_null, &t, &wl, NULL, count_sample, &seen, &r, err,
				 sizeof(err)) == 0, "%s", err);
	assert_sums(&r);
	ck_assert_uint_eq(seen.n, r.nsamples);
	ck_assert_uint_eq(seen.ios, r.total.d[DIR_ALL].ios);
	ck_assert_uint_ge(r.nsamples, 5); /* 6, unless the collector coalesced a busy span */
	ck_assert_uint_le(r.nsamples, 6);
	ck_assert_uint_eq(r.total.dur_ns, 300 * MS);
	ck_assert_uint_gt(r.total.d[DIR_ALL].ios, 1000);
	ck_assert_str_eq(r.engine_desc, "null (no I/O)");
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* A rate-limited run never goes past its rate, and does not fall far short of it. */
START_TEST(test_rate_limit)
{
	static const struct {
		const char *engine;
		unsigned threads, qdepth;
		uint64_t rate;
		enum engine_poll poll;
	} cases[] = {
		{"null", 1, 4, 2000, ENGINE_POLL_AUTO}, {"null", 4, 16, 5000, ENGINE_POLL_AUTO},
		{"uring", 1, 8, 1500, ENGINE_POLL_NO}, {"uring", 3, 4, 3000, ENGINE_POLL_NO},
		{"uring", 1, 8, 1500, ENGINE_POLL_YES}, {"uring", 2, 4, 3000, ENGINE_POLL_YES},
	};
	struct engine_ctl ctl = {0};
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;

	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.threads = cases[_i].threads;
	wl.qdepth = cases[_i].qdepth;
	wl.rate_iops = cases[_i].rate;
	wl.time_ns = 1000 * MS;
	wl.interval_ns = 250 * MS;
	ctl.opts.poll = cases[_i].poll;
	ck_assert_msg(engine_run(engine_find(cases[_i].engine), &t, &wl, &ctl, NULL, NULL, &r, err,
				 sizeof(err)) == 0, "%s", err);
	assert_sums(&r);
	if (cases[_i].poll == ENGINE_POLL_NO)
		ck_assert_ptr_null(strstr(r.engine_desc, "busy-poll"));
	/*
	 * Never over the rate, by more than what is in flight when the clock starts and the
	 * I/O due then. Under it by as much as the host keeps the workers from running: an
	 * unloaded host is within 5%, one beside two CPU hogs 7% and more, so the floor is
	 * half the rate (a limiter that lost whole intervals still fails)
	 */
	double iops = r.total.d[DIR_ALL].iops, rate = (double)cases[_i].rate;
	uint64_t most = cases[_i].rate + cases[_i].threads * (cases[_i].qdepth + 1);
	ck_assert_msg(r.total.d[DIR_ALL].ios <= most && iops >= 0.5 * rate,
		      "%s: asked %llu IOPS, got %.1f", cases[_i].engine,
		      (unsigned long long)cases[_i].rate, iops);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/*
 * The share of reads realised, against the mix asked for: within 2 points, or within five
 * standard deviations of the draw when a loaded host left fewer I/Os than make 2 points
 * sure (each I/O is a read with probability pct / 100).
 */
static void assert_read_share(const struct step_result *r, double pct)
{
	double n = (double)r->total.d[DIR_ALL].ios, p = pct / 100;
	double rd = 100.0 * (double)r->total.d[DIR_READ].ios / n;
	double tol = fmax(2, 500 * sqrt(p * (1 - p) / n));

	ck_assert_msg(fabs(rd - pct) <= tol, "read share %.2f%% of %.0f I/Os (within %.2f)", rd,
		      n, tol);
}

/* io_uring on a file: a 70/30 mix realises 70 +- 2 % reads, and intervals add up. */
START_TEST(test_uring_file_mix)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;

	open_file_target(&t, &path, 32 << 20, true);
	workload_defaults(&wl);
	wl.bs = 8192;
	wl.read_pct = 70;
	wl.threads = 2;
	wl.qdepth = 8;
	wl.time_ns = 600 * MS;
	wl.interval_ns = 100 * MS;
	ck_assert_msg(engine_run(&engine_uring, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)) ==
			      0, "%s", err);
	assert_sums(&r);
	ck_assert_ptr_nonnull(strstr(r.engine_desc, "io_uring"));
	assert_read_share(&r, 70);
	ck_assert_uint_gt(r.total.d[DIR_ALL].ios, 100);
	ck_assert_uint_eq(r.total.d[DIR_ALL].bytes, r.total.d[DIR_ALL].ios * 8192);
	ck_assert(r.total.d[DIR_ALL].mean_ns > 0 && r.total.d[DIR_ALL].std_ns > 0);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* The CPUs this process may run on, as the engine counts them for busy-poll=auto. */
static long usable_cpus(void)
{
	cpu_set_t set;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	return CPU_COUNT(&set);
}

START_TEST(test_poll_parse)
{
	static const struct {
		const char *s;
		int ret;
		enum engine_poll mode;
	} cases[] = {
		{"auto", 0, ENGINE_POLL_AUTO}, {"yes", 0, ENGINE_POLL_YES}, {"on", 0, ENGINE_POLL_YES},
		{"no", 0, ENGINE_POLL_NO},     {"off", 0, ENGINE_POLL_NO},  {"", -EINVAL, 0},
		{"Yes", -EINVAL, 0},           {"maybe", -EINVAL, 0},       {"autox", -EINVAL, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum engine_poll m = ENGINE_POLL_NO;
		ck_assert_int_eq(engine_poll_parse(cases[i].s, &m), cases[i].ret);
		if (!cases[i].ret)
			ck_assert_int_eq(m, cases[i].mode);
	}
	/* the default (zero, or no options at all) is NO */
	struct engine_opts o = {0};
	ck_assert_int_eq(o.poll, ENGINE_POLL_NO);
	ck_assert(!engine_busy_poll(&o, 1));
	ck_assert(!engine_busy_poll(NULL, 1));
	o.poll = ENGINE_POLL_YES;
	ck_assert(engine_busy_poll(&o, 64));
	/* auto: only while every worker thread can have a CPU, with one left over */
	o.poll = ENGINE_POLL_AUTO;
	long ncpu = usable_cpus();
	ck_assert(!engine_busy_poll(&o, (unsigned)ncpu));
	ck_assert_int_eq(engine_busy_poll(&o, (unsigned)ncpu - 1), ncpu > 1);
	/* from the settings: busy_poll (else NO) and uring_setup (else 0) */
	struct settings s = {0};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert_int_eq(o.poll, ENGINE_POLL_NO);
	ck_assert_uint_eq(o.ring_setup, 0);
	s = (struct settings){.busy_poll = "on", .uring_setup = "2"};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert_int_eq(o.poll, ENGINE_POLL_YES);
	ck_assert_uint_eq(o.ring_setup, 2);
	s.busy_poll = "sometimes";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), -EINVAL);
	ck_assert_int_eq(o.poll, ENGINE_POLL_NO);
	/* no_progress: a duration of 100 ms or more, else the default (0) */
	s = (struct settings){.no_progress = "2m"};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert_uint_eq(o.no_progress_ns, 120000 * MS);
	s.no_progress = "50ms";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), -EINVAL);
	ck_assert_uint_eq(o.no_progress_ns, 0);
	s.no_progress = "soon";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), -EINVAL);
	/* uring_async: no (the default) or auto; auto only with fewer threads than CPUs */
	s = (struct settings){0};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert(!o.async);
	ck_assert(!engine_async(&o, 1));
	ck_assert(!engine_async(NULL, 1));
	s.uring_async = "no";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert(!o.async);
	s.uring_async = "auto";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert(o.async);
	ck_assert(!engine_async(&o, (unsigned)ncpu));
	ck_assert_int_eq(engine_async(&o, (unsigned)ncpu - 1), ncpu > 1);
	s = (struct settings){.uring_async = "yes", .busy_poll = "yes"};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), -EINVAL);
	ck_assert(!o.async);
	ck_assert_int_eq(o.poll, ENGINE_POLL_YES); /* the other fields still parsed */
	/* uring_gather: auto (the default) or no; all of the I/O in flight with fewer than two
	   CPUs per thread */
	const unsigned timed = ENGINE_OPEN_GATHER;
	const unsigned all = ENGINE_OPEN_GATHER | ENGINE_OPEN_GATHER_ALL;
	s = (struct settings){0};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert(!o.gather_off);
	ck_assert_uint_eq(engine_gather(&o, 1), ncpu >= 2 ? timed : all);
	ck_assert_uint_eq(engine_gather(NULL, 1), ncpu >= 2 ? timed : all);
	if (ncpu >= 2)
		ck_assert_uint_eq(engine_gather(&o, (unsigned)ncpu / 2), timed);
	ck_assert_uint_eq(engine_gather(&o, (unsigned)ncpu / 2 + 1), all);
	ck_assert_uint_eq(engine_gather(&o, (unsigned)ncpu), all);
	s.uring_gather = "no";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert(o.gather_off);
	ck_assert_uint_eq(engine_gather(&o, 1), 0);
	ck_assert_uint_eq(engine_gather(&o, (unsigned)ncpu), 0);
	s.uring_gather = "auto";
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), 0);
	ck_assert(!o.gather_off);
	s = (struct settings){.uring_gather = "off", .uring_async = "auto"};
	ck_assert_int_eq(engine_opts_from_settings(&o, &s), -EINVAL);
	ck_assert(!o.gather_off); /* the default */
	ck_assert(o.async);
}
END_TEST

/*
 * io_uring with each busy-poll setting on a file: the setting reaches the ring (the
 * result's engine description says so), and the accounting is as exact as ever.
 * Cases: yes, no, auto with one thread, auto with a thread per CPU.
 */
START_TEST(test_busy_poll)
{
	static const enum engine_poll modes[] = {ENGINE_POLL_YES, ENGINE_POLL_NO,
						  ENGINE_POLL_AUTO, ENGINE_POLL_AUTO};
	long ncpu = usable_cpus();
	struct engine_ctl ctl = {0};
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	bool want;

	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.threads = _i == 3 ? (unsigned)ncpu : 1;
	wl.qdepth = 4;
	wl.time_ns = 400 * MS;
	wl.interval_ns = 100 * MS;
	ctl.opts.poll = modes[_i];
	ck_assert_msg(engine_run(&engine_uring, &t, &wl, &ctl, NULL, NULL, &r, err, sizeof(err)) ==
			      0, "%s", err);
	assert_sums(&r);
	ck_assert_uint_gt(r.total.d[DIR_ALL].ios, 100);
	want = modes[_i] == ENGINE_POLL_YES || (modes[_i] == ENGINE_POLL_AUTO && _i == 2 && ncpu > 1);
	/* a kernel without TASKRUN_FLAG cannot busy-poll: the ring then says so by omission */
	if (!strstr(r.engine_desc, "TASKRUN_FLAG"))
		want = false;
	ck_assert_msg((strstr(r.engine_desc, "busy-poll") != NULL) == want, "%s: %s",
		      engine_poll_name[modes[_i]], r.engine_desc);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* After the window's first interval, the step is stopped. */
static void stop_after_first(void *arg, const struct sample *s)
{
	if (s->index == 0)
		atomic_store(&((struct engine_ctl *)arg)->stop, 1);
}

/* Stopping mid-step keeps what was measured, adding up, and says it stopped. */
START_TEST(test_stop)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct engine_ctl ctl = {0};

	open_file_target(&t, &path, 8 << 20, false);
	workload_defaults(&wl);
	wl.threads = 2;
	wl.time_ns = 60000 * MS;
	wl.interval_ns = 50 * MS;
	ck_assert_int_eq(engine_run(_i ? &engine_uring : &engine_null, &t, &wl, &ctl,
				    stop_after_first, &ctl, &r, err, sizeof(err)), 0);
	ck_assert(r.stopped);
	assert_sums(&r);
	/* stopped once its first interval was measured, long before its minute */
	ck_assert_uint_ge(r.total.dur_ns, 50 * MS);
	ck_assert_uint_lt(r.total.dur_ns, 60000 * MS);
	ck_assert_uint_ge(r.nsamples, 1);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/*
 * Starting N workers costs O(N): a worker waiting at the start barrier sleeps until it is
 * released, once. They used to poll every 200 us, and N pollers on a small host took the
 * CPUs from the thread starting the rest (1024 threads on 2 CPUs: minutes). Counted as
 * the process's voluntary context switches, each a sleep: a few per worker, where the
 * polls made hundreds per worker. 1024 is the documented maximum.
 */
START_TEST(test_many_workers)
{
	static const unsigned threads[] = {256, 1024};
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct rusage ru0, ru1;

	open_file_target(&t, &path, 64 << 20, false);
	workload_defaults(&wl);
	wl.threads = threads[_i];
	wl.qdepth = 1;
	wl.time_ns = 200 * MS;
	wl.interval_ns = 100 * MS;
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru0), 0);
	ck_assert_msg(engine_run(&engine_null, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)) ==
			      0,
		      "%s", err);
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru1), 0);
	long sleeps = ru1.ru_nvcsw - ru0.ru_nvcsw;
	ck_assert_msg(sleeps <= 16 * (long)wl.threads + 5000,
		      "%ld sleeps to start, run and join %u workers", sleeps, wl.threads);
	assert_sums(&r);
	ck_assert_uint_eq(r.total.dur_ns, 200 * MS);
	ck_assert_uint_gt(r.total.d[DIR_ALL].ios, 0);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* ---- edges: the drain, host stalls, every I/O accounted for ------------------------ */

/*
 * A test engine whose I/Os complete after a latency: SLOW_LAT_NS normally, HANG_NS for
 * those submitted once hang is set. It counts what it was given.
 */
#define SLOW_LAT_NS 200000ull /* 0.2 ms */
#define HANG_NS	    (600 * MS)

static atomic_bool hang;
static atomic_ullong queued_ios, queued_bytes;

/* Each test that uses the slow engine starts it afresh (CK_FORK=no runs them in turn). */
static void slow_reset(void)
{
	atomic_store(&hang, false);
	atomic_store(&queued_ios, 0);
	atomic_store(&queued_bytes, 0);
}

struct engine_io {
	unsigned n;
	struct {
		unsigned slot;
		int res;
		uint64_t due_ns;
	} q[64];
};

static int slow_open(struct engine_io **io, int fd, unsigned depth, const struct iovec *bufs,
		     unsigned flags)
{
	(void)fd, (void)bufs, (void)flags;
	if (depth > 64)
		return -EINVAL;
	*io = calloc(1, sizeof(**io));
	return *io ? 0 : -ENOMEM;
}

static void slow_close(struct engine_io *io)
{
	free(io);
}

static void slow_queue(struct engine_io *io, unsigned slot, bool write, uint64_t off,
		       uint32_t len)
{
	uint64_t now = mono_now_ns();

	(void)write, (void)off;
	io->q[io->n].slot = slot;
	io->q[io->n].res = (int)len;
	io->q[io->n].due_ns = now + (atomic_load(&hang) ? HANG_NS : SLOW_LAT_NS);
	io->n++;
	atomic_fetch_add(&queued_ios, 1);
	atomic_fetch_add(&queued_bytes, len);
}

static unsigned slow_ready(struct engine_io *io, uint64_t now, uint64_t *next)
{
	unsigned k = 0;

	*next = UINT64_MAX;
	for (unsigned i = 0; i < io->n; i++) {
		if (io->q[i].due_ns <= now)
			k++;
		else if (io->q[i].due_ns < *next)
			*next = io->q[i].due_ns;
	}
	return k;
}

static int slow_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	uint64_t start = mono_now_ns(), now = start, next;

	while (slow_ready(io, now, &next) < min_complete) {
		if (timeout_ns && start + timeout_ns < next)
			next = start + timeout_ns;
		if (next == UINT64_MAX)
			return 0;
		struct timespec ts = {(time_t)(next / 1000000000ull), (long)(next % 1000000000ull)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = mono_now_ns();
		if (timeout_ns && now >= start + timeout_ns)
			return 0;
	}
	return 0;
}

static unsigned slow_reap(struct engine_io *io, struct engine_cqe *out, unsigned max)
{
	uint64_t now = mono_now_ns();
	unsigned n = 0, keep = 0;

	for (unsigned i = 0; i < io->n; i++) {
		if (io->q[i].due_ns <= now && n < max) {
			out[n].slot = io->q[i].slot;
			out[n].res = io->q[i].res;
			n++;
		} else {
			io->q[keep++] = io->q[i];
		}
	}
	io->n = keep;
	return n;
}

static const char *slow_describe(struct engine_io *io)
{
	(void)io;
	return "slow (test)";
}

static const struct engine_ops engine_slow = {
	.name = "slow",
	.open = slow_open,
	.close = slow_close,
	.queue = slow_queue,
	.submit_wait = slow_submit_wait,
	.reap = slow_reap,
	.describe = slow_describe,
};

/* After the window's first interval, the device hangs (and stays hung). */
static void hang_after_first(void *arg, const struct sample *s)
{
	(void)arg;
	if (s->index == 0)
		atomic_store(&hang, true);
}

/*
 * A device that hangs, for 600 ms an I/O, from the end of the window's first interval:
 * the I/Os in flight when the step's time is up are hung ones and complete in the drain,
 * after the step, whenever the host gets round to the hang (the 900 ms left of the
 * window are the only slack). Their latencies are in the step's maximum and percentiles,
 * not in its counts; and the window, the ramp and the drain together hold every I/O the
 * engine was given.
 */
START_TEST(test_drain)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;

	slow_reset();
	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.threads = 2;
	wl.qdepth = 4;
	wl.ramp_ns = 50 * MS;
	wl.time_ns = 1000 * MS;
	wl.interval_ns = 100 * MS;
	ck_assert_msg(engine_run(&engine_slow, &t, &wl, NULL, hang_after_first, NULL, &r, err,
				 sizeof(err)) == 0, "%s", err);
	assert_sums(&r);
	/* the full queues of both workers, every one of them hung */
	ck_assert_uint_eq(r.drain.d[DIR_ALL].ios, 8);
	ck_assert_uint_ge(r.drain.d[DIR_ALL].min_ns, HANG_NS);
	ck_assert_uint_gt(r.drain.dur_ns, 0);
	ck_assert_uint_ge(r.total.d[DIR_ALL].max_ns, HANG_NS);
	ck_assert_uint_ge(r.total.d[DIR_ALL].pct_ns[PCT_9999], HANG_NS * 99 / 100);
	/* the window's counts hold none of them, and its rate is over the window alone */
	ck_assert_uint_eq(r.total.dur_ns, 1000 * MS);
	ck_assert_uint_lt(r.samples[0].d[DIR_ALL].max_ns, HANG_NS); /* before the hang */
	uint64_t queued = atomic_load(&queued_ios), qbytes = atomic_load(&queued_bytes);
	ck_assert_uint_eq(r.total.d[DIR_ALL].ios + r.ramp.d[DIR_ALL].ios + r.drain.d[DIR_ALL].ios,
			  queued);
	ck_assert_uint_eq(r.total.d[DIR_ALL].bytes + r.ramp.d[DIR_ALL].bytes +
				  r.drain.d[DIR_ALL].bytes,
			  qbytes);
	ck_assert_uint_gt(r.ramp.d[DIR_ALL].ios, 0);
	ck_assert_uint_eq(r.idle_workers, 0);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* Every I/O given to the engine is in the window, the ramp or the drain, for any shape. */
START_TEST(test_every_io_counted)
{
	static const unsigned shapes[][3] = {{1, 1, 0}, {3, 7, 0}, {8, 16, 30}, {16, 16, 0}};
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;

	open_file_target(&t, &path, 16 << 20, true);
	workload_defaults(&wl);
	workload_set_rw(&wl, "randrw");
	wl.read_pct = 60;
	workload_parse_bssplit(&wl, "4k/50:16k/30:64k/20", err, sizeof(err));
	wl.threads = shapes[_i][0];
	wl.qdepth = shapes[_i][1];
	wl.ramp_ns = shapes[_i][2] * MS;
	wl.time_ns = 200 * MS;
	wl.interval_ns = 50 * MS;
	slow_reset();
	ck_assert_msg(engine_run(&engine_slow, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)) ==
			      0, "%s", err);
	assert_sums(&r);
	uint64_t queued = atomic_load(&queued_ios), qbytes = atomic_load(&queued_bytes);
	ck_assert_uint_eq(r.total.d[DIR_ALL].ios + r.ramp.d[DIR_ALL].ios + r.drain.d[DIR_ALL].ios,
			  queued);
	ck_assert_uint_eq(r.total.d[DIR_ALL].bytes + r.ramp.d[DIR_ALL].bytes +
				  r.drain.d[DIR_ALL].bytes,
			  qbytes);
	ck_assert_uint_eq(r.idle_workers, 0);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* Stop the test process (every thread of it) from another process for a while. */
static pid_t stop_me_later(unsigned after_ms, unsigned for_ms)
{
	pid_t me = getpid(), pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		nanosleep(&(struct timespec){after_ms / 1000, (long)(after_ms % 1000) * 1000000}, NULL);
		kill(me, SIGSTOP);
		nanosleep(&(struct timespec){for_ms / 1000, (long)(for_ms % 1000) * 1000000}, NULL);
		kill(me, SIGCONT);
		_exit(0);
	}
	return pid;
}

/* Each sample's host stall is within it, and they add up to the step's. */
static void assert_stalls_add_up(const struct step_result *r)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < r->nsamples; i++) {
		ck_assert_uint_le(r->samples[i].host_stall_ns, r->samples[i].dur_ns);
		sum += r->samples[i].host_stall_ns;
	}
	ck_assert_uint_eq(sum, r->host_stall_ns);
	ck_assert_uint_eq(r->total.host_stall_ns, r->host_stall_ns);
}

/*
 * SIGSTOP for 400 ms in the middle of a step: the samples it overlaps carry it as
 * host_stall_ns (they add up to the step's), not just as lower IOPS. For the null engine
 * (workers always busy) and io_uring (workers asleep in the kernel).
 */
START_TEST(test_host_stall)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	pid_t pid;

	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.threads = 2;
	wl.qdepth = 4;
	wl.time_ns = 1200 * MS;
	wl.interval_ns = 100 * MS;
	wl.rate_iops = _i ? 4000 : 0;
	pid = stop_me_later(400, 400);
	ck_assert_msg(engine_run(_i ? &engine_uring : &engine_null, &t, &wl, NULL, NULL, NULL, &r,
				 err, sizeof(err)) == 0, "%s", err);
	waitpid(pid, NULL, 0);
	assert_sums(&r);
	assert_stalls_add_up(&r);
	/* at least the 400 ms stopped (one more loaded host may add stalls of its own) */
	ck_assert_msg(r.host_stall_ns >= 350 * MS, "host stall %llu ns",
		      (unsigned long long)r.host_stall_ns);
	ck_assert_uint_ge(r.host_stall_max_ns, 350 * MS);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* A step whose host is never late and whose workers never wait for a CPU has no stall. */
START_TEST(test_no_host_stall)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct script sc = {0};
	struct engine_host h;
	struct engine_ctl ctl = {0};

	script_host(&sc, &h, &ctl);
	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.qdepth = 4;
	wl.time_ns = 300 * MS;
	wl.interval_ns = 100 * MS;
	wl.rate_iops = 2000;
	ck_assert_msg(engine_run(&engine_uring, &t, &wl, &ctl, NULL, NULL, &r, err, sizeof(err)) ==
			      0, "%s", err);
	ck_assert_uint_gt(sc.sleeps, 0);
	ck_assert_uint_eq(r.host_stall_ns, 0);
	ck_assert_uint_eq(r.host_stall_max_ns, 0);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/*
 * The collector wakes 300 ms late once (the host ran none of drivebench), inside the
 * step: exactly 300 ms of host stall, in the samples it overlaps, adding up; a wake-up
 * 19 ms late is none.
 */
START_TEST(test_scripted_stall)
{
	static const uint64_t late[] = {300 * MS, ENGINE_HOST_STALL_NS - MS};
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct script sc = {.late_at = 10, .late_ns = late[_i], .stop_after_ns = late[_i] + 250 * MS};
	struct engine_host h;
	struct engine_ctl ctl = {0};

	script_host(&sc, &h, &ctl);
	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.threads = 2;
	wl.time_ns = 600000 * MS; /* the script stops it */
	wl.interval_ns = 100 * MS;
	ck_assert_msg(engine_run(&engine_null, &t, &wl, &ctl, NULL, NULL, &r, err, sizeof(err)) ==
			      0, "%s", err);
	assert_sums(&r);
	ck_assert(r.stopped);
	assert_stalls_add_up(&r);
	ck_assert_uint_eq(r.host_stall_ns, _i ? 0 : late[_i]);
	ck_assert_uint_eq(r.host_stall_max_ns, _i ? 0 : late[_i]);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/*
 * No room for the step's samples: the step ends at once with the reason (its workers
 * stop), rather than running its whole hour and saying it could not set up its I/O.
 */
START_TEST(test_collector_oom)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct script sc = {.grow_fail_at = 1};
	struct engine_host h;
	struct engine_ctl ctl = {0};

	script_host(&sc, &h, &ctl);
	open_file_target(&t, &path, 16 << 20, false);
	workload_defaults(&wl);
	wl.threads = 2;
	wl.time_ns = 3600000 * MS;
	wl.interval_ns = 100 * MS;
	ck_assert_int_eq(engine_run(&engine_null, &t, &wl, &ctl, NULL, NULL, &r, err, sizeof(err)),
			 -ENOMEM);
	ck_assert_str_eq(err, "out of memory for the step's samples");
	ck_assert_uint_eq(sc.grows, 1);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

START_TEST(test_bad_targets)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;

	ck_assert_int_eq(target_open(&t, "/nonexistent/drivebench", false, err, sizeof(err)),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/drivebench"));
	ck_assert_int_lt(target_open(&t, "/dev/null", false, err, sizeof(err)), 0);
	/* a write workload on a target opened read-only is refused, not attempted */
	open_file_target(&t, &path, 1 << 20, false);
	workload_defaults(&wl);
	wl.read_pct = 0;
	ck_assert_int_eq(engine_run(&engine_uring, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)),
			 -EBADF);
	/* a range too small for the block size */
	wl.read_pct = 100;
	wl.bs = 2 << 20;
	ck_assert_int_eq(engine_run(&engine_uring, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)),
			 -EINVAL);
	close_file_target(&t, path);
}
END_TEST

/* ---- on a loop device the test creates (root only) ---------------------------------- */

static char *loop_file, *loop_dev, *loop4k_file, *loop4k_dev;

static void loop_setup(void)
{
	if (!test_is_root())
		return;
	loop_file = test_tmpfile(NULL, 64 << 20);
	loop4k_file = test_tmpfile(NULL, 16 << 20);
	if (loop_file)
		loop_dev = test_loop_attach(loop_file, 0);
	if (loop4k_file)
		loop4k_dev = test_loop_attach(loop4k_file, 4096);
}

static void loop_teardown(void)
{
	if (loop_dev)
		test_loop_detach(loop_dev);
	if (loop4k_dev)
		test_loop_detach(loop4k_dev);
	if (loop_file)
		unlink(loop_file);
	if (loop4k_file)
		unlink(loop4k_file);
}

START_TEST(test_loop_randrw)
{
	struct target t;
	char err[256];
	struct workload wl;
	struct step_result r;

	if (!loop_dev) {
		printf("SKIP: check_engine loop device tests need root and losetup\n");
		return;
	}
	ck_assert_msg(target_open(&t, loop_dev, true, err, sizeof(err)) == 0, "%s", err);
	ck_assert(t.is_blockdev);
	ck_assert_uint_eq(t.size, 64 << 20);
	ck_assert_uint_eq(t.lbs, 512);
	workload_defaults(&wl);
	workload_set_rw(&wl, "randrw");
	wl.read_pct = 70;
	wl.threads = 2;
	wl.qdepth = 16;
	wl.time_ns = 500 * MS;
	wl.interval_ns = 100 * MS;
	ck_assert_msg(engine_run(&engine_uring, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)) ==
			      0, "%s", err);
	assert_sums(&r);
	assert_read_share(&r, 70);
	step_result_free(&r);
	target_close(&t);
}
END_TEST

/* 512-byte I/O on a 4K-native device is a clear error before any I/O, not a crash. */
START_TEST(test_loop_4k_native)
{
	struct target t;
	char err[256];
	struct workload wl;
	struct step_result r;

	if (!loop4k_dev) {
		printf("SKIP: check_engine 4K loop device test needs root and losetup\n");
		return;
	}
	ck_assert_msg(target_open(&t, loop4k_dev, false, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(t.lbs, 4096);
	workload_defaults(&wl);
	wl.bs = 512;
	wl.time_ns = 100 * MS;
	ck_assert_int_eq(engine_run(&engine_uring, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "logical block size (4k)"));
	wl.bs = 4096;
	ck_assert_int_eq(engine_run(&engine_uring, &t, &wl, NULL, NULL, NULL, &r, err, sizeof(err)),
			 0);
	assert_sums(&r);
	step_result_free(&r);
	target_close(&t);
}
END_TEST

/*
 * A device one queue of which stops answering after DEAD_AFTER I/Os, as a dead NFS
 * server's or a hung FUSE daemon's does: its wait never returns, whatever its timeout,
 * until dead_release is set, as a thread asleep in the kernel. The other queues complete
 * at once. It counts the dead queues closed.
 */
#define DEAD_AFTER 64
static atomic_bool dead_taken, dead_release;
static atomic_uint dead_closed;

struct dead_io {
	bool dead;
	unsigned done, n;
	unsigned slots[64];
	int res[64];
};

static int dead_open(struct engine_io **io, int fd, unsigned depth, const struct iovec *bufs,
		     unsigned flags)
{
	struct dead_io *d = calloc(1, sizeof(*d));

	(void)fd, (void)bufs, (void)flags;
	if (depth > 64 || !d) {
		free(d);
		return d ? -EINVAL : -ENOMEM;
	}
	d->dead = !atomic_exchange(&dead_taken, true);
	*io = (struct engine_io *)d;
	return 0;
}

static void dead_close(struct engine_io *io)
{
	struct dead_io *d = (struct dead_io *)io;

	if (d->dead)
		atomic_fetch_add(&dead_closed, 1);
	free(d);
}

static void dead_queue(struct engine_io *io, unsigned slot, bool write, uint64_t off, uint32_t len)
{
	struct dead_io *d = (struct dead_io *)io;

	(void)write, (void)off;
	d->slots[d->n] = slot;
	d->res[d->n++] = (int)len;
}

static int dead_submit_wait(struct engine_io *io, unsigned min_complete, uint64_t timeout_ns)
{
	struct dead_io *d = (struct dead_io *)io;

	(void)min_complete, (void)timeout_ns;
	while (d->dead && d->done >= DEAD_AFTER && !atomic_load(&dead_release))
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	return 0;
}

static unsigned dead_reap(struct engine_io *io, struct engine_cqe *out, unsigned max)
{
	struct dead_io *d = (struct dead_io *)io;
	unsigned n = d->n < max ? d->n : max;

	if (d->dead && d->done >= DEAD_AFTER)
		return 0;
	for (unsigned i = 0; i < n; i++)
		out[i] = (struct engine_cqe){.slot = d->slots[i], .res = d->res[i]};
	memmove(d->slots, d->slots + n, (d->n - n) * sizeof(d->slots[0]));
	memmove(d->res, d->res + n, (d->n - n) * sizeof(d->res[0]));
	d->n -= n;
	d->done += n;
	return n;
}

static const char *dead_describe(struct engine_io *io)
{
	(void)io;
	return "dead (test)";
}

static const struct engine_ops engine_dead = {
	.name = "dead",
	.open = dead_open,
	.close = dead_close,
	.queue = dead_queue,
	.submit_wait = dead_submit_wait,
	.reap = dead_reap,
	.describe = dead_describe,
};

/*
 * A worker held in the kernel by a device that stopped answering: once the no-progress
 * limit fails the step, the step ends without that worker, with the other's figures, its
 * samples and the error, rather than waiting for it for ever. The caller then frees its
 * workload and ctl; when the device answers at last, the abandoned worker ends without
 * touching them (an ASan build sees any use after free) and closes its queue.
 */
START_TEST(test_abandon)
{
	struct target t;
	char *path, err[256];
	struct workload *wl = calloc(1, sizeof(*wl));
	struct engine_ctl *ctl = calloc(1, sizeof(*ctl));
	struct step_result r;
	struct seen seen = {0};

	ck_assert(wl && ctl);
	atomic_store(&dead_taken, false);
	atomic_store(&dead_release, false);
	atomic_store(&dead_closed, 0);
	open_file_target(&t, &path, 1 << 20, false);
	workload_defaults(wl);
	wl->threads = _i ? 2 : 1;
	wl->qdepth = 2;
	wl->time_ns = 3600000 * MS;
	wl->interval_ns = 50 * MS;
	ctl->no_progress_ns = 200 * MS;
	ck_assert_int_eq(
		engine_run(&engine_dead, &t, wl, ctl, count_sample, &seen, &r, err, sizeof(err)),
		-ETIMEDOUT);
	ck_assert_msg(strstr(err, "no progress: worker thread ") &&
			      strstr(err, "; 1 thread is left waiting in the kernel"),
		      "%s", err);
	ck_assert_int_eq(r.error, -ETIMEDOUT);
	/* the dead worker's I/O before it died (and the other's), in samples that add up to
	   the total, over the time they cover */
	ck_assert_uint_ge(r.total.d[DIR_ALL].ios, _i ? DEAD_AFTER + 1 : DEAD_AFTER - 2);
	assert_sums(&r);
	ck_assert_uint_eq(seen.n, r.nsamples);
	ck_assert_uint_gt(r.total.dur_ns, 0);
	ck_assert(r.total.d[DIR_ALL].iops > 0);
	ck_assert_uint_eq(atomic_load(&dead_closed), 0);
	free(ctl);
	free(wl);
	close_file_target(&t, path);
	atomic_store(&dead_release, true);
	for (int i = 0; i < 5000 && !atomic_load(&dead_closed); i++)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	ck_assert_uint_eq(atomic_load(&dead_closed), 1);
	step_result_free(&r);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("file");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_null_intervals, 0, 4);
	tcase_add_loop_test(tc, test_rate_limit, 0, 6);
	tcase_add_test(tc, test_poll_parse);
	tcase_add_loop_test(tc, test_busy_poll, 0, 4);
	tcase_add_test(tc, test_uring_file_mix);
	tcase_add_loop_test(tc, test_stop, 0, 2);
	tcase_add_loop_test(tc, test_many_workers, 0, 2);
	tcase_add_test(tc, test_bad_targets);
	tcase_add_test(tc, test_drain);
	tcase_add_loop_test(tc, test_every_io_counted, 0, 4);
	tcase_add_loop_test(tc, test_host_stall, 0, 2);
	tcase_add_test(tc, test_no_host_stall);
	tcase_add_loop_test(tc, test_scripted_stall, 0, 2);
	tcase_add_test(tc, test_collector_oom);
	tcase_add_loop_test(tc, test_abandon, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("loop");
	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, loop_setup, loop_teardown);
	tcase_add_test(tc, test_loop_randrw);
	tcase_add_test(tc, test_loop_4k_native);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(engine_suite)
