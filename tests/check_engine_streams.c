// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Steps of several streams (engine_run_streams): each stream's samples, and how they add
 * up to the step's, with the null engine; two streams on two files with io_uring; each
 * stream's own rate and offsets; how many streams a step may have.
 */
#include "testlib.h"

#include <math.h>
#include <stdatomic.h>

#include "engine.h"
#include "enginetest.h"

#define MS 1000000ull

/*
 * The null engine, keeping the first offsets each queue was given, by the order in which
 * the queues were opened (engine_rec, set up by use_engine_rec()).
 */
static struct engine_ops engine_rec;
static struct engine_io *_Atomic rec_queues[4];
static atomic_uint queues_opened;
static struct {
	unsigned n;
	uint64_t off[32];
} queue_offsets[4];

static int rec_open(struct engine_io **io, int fd, unsigned depth, const struct iovec *bufs,
		    unsigned flags)
{
	int ret = engine_null.open(io, fd, depth, bufs, flags);
	unsigned k = atomic_fetch_add(&queues_opened, 1);

	if (ret == 0 && k < 4)
		atomic_store(&rec_queues[k], *io);
	return ret;
}

static void rec_queue(struct engine_io *io, unsigned slot, bool write, uint64_t off, uint32_t len)
{
	for (unsigned k = 0; k < 4; k++)
		if (atomic_load_explicit(&rec_queues[k], memory_order_relaxed) == io &&
		    queue_offsets[k].n < 32)
			queue_offsets[k].off[queue_offsets[k].n++] = off;
	engine_null.queue(io, slot, write, off, len);
}

static void use_engine_rec(void)
{
	engine_rec = engine_null;
	engine_rec.name = "rec";
	engine_rec.open = rec_open;
	engine_rec.queue = rec_queue;
}

/* Every interval's and the total's counts of the step are the sums of its streams'. */
static void assert_stream_sums(const struct step_result *r)
{
	ck_assert_ptr_nonnull(r->streams);
	for (unsigned i = 0; i < r->nsamples; i++) {
		const struct sample *s = &r->samples[i];
		for (int d = 0; d < NDIR; d++) {
			uint64_t ios = 0, bytes = 0;
			for (unsigned k = 0; k < r->nstreams; k++) {
				const struct stream_result *sr = &r->streams[k];
				ck_assert_uint_eq(sr->nsamples, r->nsamples);
				ck_assert_uint_eq(sr->samples[i].index, s->index);
				ck_assert_uint_eq(sr->samples[i].start_ns, s->start_ns);
				ck_assert_uint_eq(sr->samples[i].dur_ns, s->dur_ns);
				ios += sr->samples[i].d[d].ios;
				bytes += sr->samples[i].d[d].bytes;
			}
			ck_assert_uint_eq(ios, s->d[d].ios);
			ck_assert_uint_eq(bytes, s->d[d].bytes);
		}
	}
	for (int d = 0; d < NDIR; d++) {
		uint64_t ios = 0, bytes = 0, drain = 0, ramp = 0;
		for (unsigned k = 0; k < r->nstreams; k++) {
			ios += r->streams[k].total.d[d].ios;
			bytes += r->streams[k].total.d[d].bytes;
			drain += r->streams[k].drain.d[d].ios;
			ramp += r->streams[k].ramp.d[d].ios;
			ck_assert_uint_eq(r->streams[k].total.dur_ns, r->total.dur_ns);
		}
		ck_assert_uint_eq(ios, r->total.d[d].ios);
		ck_assert_uint_eq(bytes, r->total.d[d].bytes);
		ck_assert_uint_eq(drain, r->drain.d[d].ios);
		ck_assert_uint_eq(ramp, r->ramp.d[d].ios);
	}
}

/* Run streams a on ta and b on tb as one step, and check that everything adds up. */
static void run_two(const struct engine_ops *ops, const struct target *ta, const struct workload *a,
		    const struct target *tb, const struct workload *b, engine_sample_fn on_sample,
		    void *arg, struct step_result *r)
{
	const struct engine_stream streams[] = {{.t = ta, .wl = a}, {.t = tb, .wl = b}};
	char err[256];

	ck_assert_msg(
		engine_run_streams(ops, streams, 2, NULL, on_sample, arg, r, err, sizeof(err)) == 0,
		"%s", err);
	assert_sums(r);
	ck_assert_uint_eq(r->nstreams, 2);
	assert_stream_sums(r);
}

/* null engine: two streams of different mixes, sizes and threads add up to the step */
START_TEST(test_streams_null_sums)
{
	struct target t;
	char *path;
	struct workload a, b;
	struct step_result r;
	struct seen seen = {0};

	open_file_target(&t, &path, 4 << 20, true);
	workload_defaults(&a);
	a.threads = 2;
	a.qdepth = 4;
	a.time_ns = 300 * MS;
	a.interval_ns = 50 * MS;
	a.ramp_ns = 50 * MS;
	b = a;
	b.read_pct = 30;
	b.bs = 16384;
	b.threads = 1;
	b.qdepth = 8;
	b.time_ns = 5000 * MS; /* the step's clock is the first stream's */
	run_two(&engine_null, &t, &a, &t, &b, count_sample, &seen, &r);
	ck_assert_uint_eq(seen.n, r.nsamples);
	ck_assert_uint_eq(r.total.dur_ns, 300 * MS);
	/* each stream did its own workload */
	ck_assert_uint_eq(r.streams[0].total.d[DIR_WRITE].ios, 0);
	ck_assert_uint_eq(r.streams[0].total.d[DIR_READ].bytes,
			  r.streams[0].total.d[DIR_READ].ios * 4096);
	ck_assert_uint_gt(r.streams[1].total.d[DIR_WRITE].ios, 0);
	ck_assert_uint_eq(r.streams[1].total.d[DIR_ALL].bytes,
			  r.streams[1].total.d[DIR_ALL].ios * 16384);
	ck_assert_uint_gt(r.streams[0].total.d[DIR_ALL].ios, 1000);
	ck_assert_uint_gt(r.streams[1].total.d[DIR_ALL].ios, 1000);
	ck_assert_str_eq(r.streams[1].engine_desc, "null (no I/O)");
	ck_assert_uint_eq(r.streams[0].idle_workers + r.streams[1].idle_workers, r.idle_workers);
	step_result_free(&r);
	ck_assert_ptr_null(r.streams);
	close_file_target(&t, path);
}
END_TEST

/* Fill a file with a byte; the number of 4 KiB blocks of path that hold other than zeros. */
static void fill_file(const char *path, uint64_t size, int byte)
{
	static char buf[65536];
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	memset(buf, byte, sizeof(buf));
	for (uint64_t off = 0; off < size; off += sizeof(buf))
		ck_assert_int_eq(pwrite(fd, buf, sizeof(buf), (off_t)off), (ssize_t)sizeof(buf));
	close(fd);
}

/* Does [from, to) of path hold only `byte`? */
static bool file_all(const char *path, uint64_t from, uint64_t to, int byte)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	bool all = true;

	ck_assert_int_ge(fd, 0);
	for (uint64_t off = from; off < to && all; off += sizeof(buf)) {
		ck_assert_int_eq(pread(fd, buf, sizeof(buf), (off_t)off), (ssize_t)sizeof(buf));
		for (size_t i = 0; i < sizeof(buf) && all; i++)
			all = buf[i] == (char)byte;
	}
	close(fd);
	return all;
}

/* io_uring: stream 0 writes a range of file A only, stream 1 only reads file B. */
START_TEST(test_streams_uring_two_files)
{
	struct target ta, tb;
	char *pa, *pb;
	struct workload a, b;
	struct step_result r;

	open_file_target(&ta, &pa, 4 << 20, true);
	open_file_target(&tb, &pb, 4 << 20, false);
	fill_file(pb, 4 << 20, 0x5a);
	workload_defaults(&a);
	a.read_pct = 0;
	a.range_start = 1 << 20;
	a.range_size = 2 << 20;
	a.qdepth = 4;
	a.time_ns = 300 * MS;
	a.interval_ns = 100 * MS;
	b = a;
	b.read_pct = 100;
	b.range_start = 0;
	b.range_size = 0;
	b.threads = 2;
	run_two(&engine_uring, &ta, &a, &tb, &b, NULL, NULL, &r);
	ck_assert_uint_gt(r.streams[0].total.d[DIR_WRITE].ios, 0);
	ck_assert_uint_eq(r.streams[0].total.d[DIR_READ].ios, 0);
	ck_assert_uint_gt(r.streams[1].total.d[DIR_READ].ios, 0);
	ck_assert_uint_eq(r.streams[1].total.d[DIR_WRITE].ios, 0);
	ck_assert_ptr_nonnull(strstr(r.streams[1].engine_desc, "io_uring"));
	step_result_free(&r);
	/* A changed inside its range and nowhere else, B not at all */
	ck_assert(file_all(pa, 0, 1 << 20, 0));
	ck_assert(!file_all(pa, 1 << 20, 3 << 20, 0));
	ck_assert(file_all(pa, 3 << 20, 4 << 20, 0));
	ck_assert(file_all(pb, 0, 4 << 20, 0x5a));
	close_file_target(&ta, pa);
	close_file_target(&tb, pb);
}
END_TEST

/* Two streams of the same workload on one target draw different offsets. */
START_TEST(test_streams_own_offsets)
{
	struct target t;
	char *path;
	struct workload wl;
	struct step_result r;

	open_file_target(&t, &path, 64 << 20, false);
	workload_defaults(&wl);
	wl.qdepth = 1;
	wl.time_ns = 100 * MS;
	wl.interval_ns = 50 * MS;
	wl.seed = 12345;
	use_engine_rec();
	run_two(&engine_rec, &t, &wl, &t, &wl, NULL, NULL, &r);
	ck_assert_uint_eq(atomic_load(&queues_opened), 2);
	ck_assert_uint_eq(queue_offsets[0].n, 32);
	ck_assert_uint_eq(queue_offsets[1].n, 32);
	unsigned same = 0;
	for (unsigned i = 0; i < 32; i++)
		same += queue_offsets[0].off[i] == queue_offsets[1].off[i];
	ck_assert_uint_lt(same, 4);
	ck_assert_uint_gt(r.streams[0].total.d[DIR_ALL].ios, 0);
	ck_assert_uint_gt(r.streams[1].total.d[DIR_ALL].ios, 0);
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* Each stream keeps its own rate limit. */
START_TEST(test_streams_rates)
{
	struct target t;
	char *path;
	struct workload a, b;
	struct step_result r;

	open_file_target(&t, &path, 4 << 20, false);
	workload_defaults(&a);
	a.threads = 2;
	a.qdepth = 4;
	a.rate_iops = 2000;
	a.time_ns = 500 * MS;
	a.interval_ns = 125 * MS;
	b = a;
	b.threads = 1;
	b.rate_iops = 500;
	run_two(&engine_null, &t, &a, &t, &b, NULL, NULL, &r);
	for (unsigned k = 0; k < 2; k++) {
		double want = (double)(k ? b.rate_iops : a.rate_iops);
		double iops = r.streams[k].total.d[DIR_ALL].iops;
		ck_assert_msg(fabs(iops - want) <= 0.1 * want,
			      "stream %u: asked %.0f IOPS, got %.1f", k, want, iops);
	}
	step_result_free(&r);
	close_file_target(&t, path);
}
END_TEST

/* One stream is engine_run(): no streams in the result; none, or too many, is refused. */
START_TEST(test_streams_count)
{
	struct target t;
	char *path, err[256];
	struct workload wl;
	struct step_result r;
	struct engine_stream streams[ENGINE_MAX_STREAMS + 1];

	open_file_target(&t, &path, 1 << 20, false);
	workload_defaults(&wl);
	wl.time_ns = 50 * MS;
	wl.interval_ns = 25 * MS;
	for (unsigned i = 0; i <= ENGINE_MAX_STREAMS; i++)
		streams[i] = (struct engine_stream){.t = &t, .wl = &wl};
	ck_assert_msg(engine_run_streams(&engine_null, streams, 1, NULL, NULL, NULL, &r, err,
					 sizeof(err)) == 0,
		      "%s", err);
	assert_sums(&r);
	ck_assert_ptr_null(r.streams);
	ck_assert_uint_eq(r.nstreams, 0);
	step_result_free(&r);
	err[0] = '\0';
	ck_assert_int_eq(engine_run_streams(&engine_null, streams, 0, NULL, NULL, NULL, &r, err,
					    sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "streams"));
	err[0] = '\0';
	ck_assert_int_eq(engine_run_streams(&engine_null, streams, ENGINE_MAX_STREAMS + 1, NULL,
					    NULL, NULL, &r, err, sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "streams"));
	close_file_target(&t, path);
}
END_TEST

static Suite *streams_suite(void)
{
	Suite *s = suite_create("engine_streams");
	TCase *tc = tcase_create("streams");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_streams_null_sums);
	tcase_add_test(tc, test_streams_uring_two_files);
	tcase_add_test(tc, test_streams_own_offsets);
	tcase_add_test(tc, test_streams_rates);
	tcase_add_test(tc, test_streams_count);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(streams_suite)
