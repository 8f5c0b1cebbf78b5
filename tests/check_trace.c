// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Block traces: the format's writer and reader (every damaged record named by offset and
 * record), placement on a smaller target, the blktrace event conversion (reorder window,
 * depth, streaming in pieces), fio iologs, and a replay through the engine's null backend
 * (exact accounting of reads, writes, flushes and discards; never ahead of the trace).
 */
#include "testlib.h"

#include <pthread.h>

#include "engine.h"
#include "enginetest.h"
#include "trace.h"
#include "trace_import.h"

/* A trace of n records, record i: op ops[i % nops], at i * step_ns, offset i * 4096. */
static char *make_trace(unsigned n, const uint8_t *ops, unsigned nops, uint64_t step_ns)
{
	char *path = test_tmpfile(NULL, 0);
	struct trace_info info = {.dev_size = 1 << 30, .lbs = 512};
	struct trace_writer w;
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(trace_write_begin(&w, f, &info), 0);
	for (unsigned i = 0; i < n; i++) {
		struct trace_rec r = {.time_ns = i * step_ns, .op = ops[i % nops], .depth = 1};
		if (r.op != TRACE_FLUSH) {
			r.off = (uint64_t)i * 4096;
			r.len = 4096;
		}
		ck_assert_int_eq(trace_write(&w, &r), 0);
	}
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

START_TEST(test_roundtrip)
{
	static const uint8_t ops[] = {TRACE_READ, TRACE_WRITE, TRACE_FLUSH, TRACE_DISCARD};
	char *path = make_trace(10, ops, 4, 1000);
	struct trace_summary s;
	struct trace_reader r;
	struct trace_rec t;
	char err[512];
	unsigned n = 0;

	ck_assert_int_eq(trace_scan(path, &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(s.n, 10);
	ck_assert_uint_eq(s.count[TRACE_READ], 3);
	ck_assert_uint_eq(s.count[TRACE_WRITE], 3);
	ck_assert_uint_eq(s.count[TRACE_FLUSH], 2);
	ck_assert_uint_eq(s.count[TRACE_DISCARD], 2);
	ck_assert_uint_eq(s.duration_ns, 9000);
	ck_assert_uint_eq(s.info.dev_size, 1 << 30);
	ck_assert_uint_eq(s.max_depth, 1);
	ck_assert_int_eq(trace_open(&r, path, err, sizeof(err)), 0);
	while (trace_next(&r, &t, err, sizeof(err)) > 0) {
		ck_assert_uint_eq(t.op, ops[n % 4]);
		ck_assert_uint_eq(t.time_ns, n * 1000ull);
		n++;
	}
	trace_close(&r);
	ck_assert_uint_eq(n, 10);
	unlink(path);
	free(path);
}
END_TEST

/* Damage at a byte of the file, and the message it must give. */
static const struct {
	long at;	  /* byte offset; < 0: cut the file to -at bytes */
	uint8_t value;
	const char *msg;
} damage[] = {
	{0, 'X', "offset 0: not a drivebench trace"},
	{8, 9, "offset 8: trace version 9"},
	{12, 16, "offset 12: record size 16"},
	{-20, 0, "offset 20: the header is cut short"},
	{32 + 32 + 24, 7, "offset 64: record 2: unknown op"},
	{32 + 32 + 25, 0x40, "offset 64: record 2: unknown flags"},
	{32 + 64 + 3, 0x01, "offset 128: record 4: time goes back"},
	{32 + 16 + 1, 0x03, "offset 32: record 1: length not a multiple of 512"},
	{32 + 8, 1, "offset 32: record 1: offset not a multiple of 512"},
	{32 + 16 + 3, 0x08, "offset 32: record 1: a read or write over 64 MiB"},
	{32 + 15, 0x41, "offset 32: record 1: offset past 2^62"},
	{32 + 7, 0xff, "offset 32: record 1: a time past 720h"},
	{24, 3,
	 "offset 24: logical block size 515, not 0 (unknown) or a power of two from 512 to "
	 "65536"},
	{26, 1, "offset 24: logical block size 66048"},
	{-(32 + 32 * 4 + 5), 0, "offset 160: record 5: cut short (5 of 32 bytes)"},
	{-32, 0, "offset 32: the trace has no I/O"},
};

START_TEST(test_damaged)
{
	static const uint8_t ops[] = {TRACE_READ, TRACE_WRITE};
	char *path = make_trace(6, ops, 2, 1000000);
	struct trace_summary s;
	char err[512];
	int fd = open(path, O_RDWR);

	ck_assert_int_ge(fd, 0);
	if (damage[_i].at < 0) {
		ck_assert_int_eq(ftruncate(fd, -damage[_i].at), 0);
	} else {
		ck_assert_int_eq(pwrite(fd, &damage[_i].value, 1, damage[_i].at), 1);
	}
	close(fd);
	ck_assert_int_lt(trace_scan(path, &s, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, damage[_i].msg), "got '%s', want '%s'", err, damage[_i].msg);
	ck_assert_msg(!strncmp(err, path, strlen(path)), "'%s' does not start with the file", err);
	unlink(path);
	free(path);
}
END_TEST

static const struct {
	uint64_t off;
	uint32_t len;
	uint64_t size;
	uint32_t lbs;
	uint64_t want;
} places[] = {
	{0, 4096, 1 << 20, 512, 0},
	{(1 << 20) - 4096, 4096, 1 << 20, 512, (1 << 20) - 4096},	/* fits exactly */
	{1 << 20, 4096, 1 << 20, 512, (1 << 20) % ((1 << 20) - 4096 + 1) / 512 * 512},
	{5ull << 30, 8192, 1 << 20, 4096, (5ull << 30) % ((1 << 20) - 8192 + 1) / 4096 * 4096},
	{(1 << 20) - 512, 4096, 1 << 20, 512, ((1 << 20) - 512) % ((1 << 20) - 4095) / 512 * 512},
};

START_TEST(test_place)
{
	uint64_t got = trace_place(places[_i].off, places[_i].len, places[_i].size, places[_i].lbs);

	ck_assert_uint_eq(got, places[_i].want);
	ck_assert_uint_le(got + places[_i].len, places[_i].size);
	ck_assert_uint_eq(got % places[_i].lbs, 0);
}
END_TEST

/*
 * The limits a trace is held to: a time of at most 720h (a preset's step: two reads at
 * 2^64-1 ns were "2 I/Os in 0 s", and a replay planned "about 24h" and idled), and a
 * logical block size of 0 or a power of two from 512 to 64 KiB. The writer makes no
 * header the reader refuses.
 */
static const struct {
	uint64_t time_ns; /* of the second record */
	uint32_t lbs;
	const char *msg; /* NULL: read through */
} held[] = {
	{TRACE_MAX_TIME_NS, 512, NULL},
	{TRACE_MAX_TIME_NS + 1, 512, "offset 64: record 2: a time past 720h"},
	{UINT64_MAX, 512, "offset 64: record 2: a time past 720h"},
	{1000, 0, NULL},
	{1000, 4096, NULL},
	{1000, 65536, NULL},
	{1000, 3, "offset 24: logical block size 3, not 0 (unknown) or a power of two"},
	{1000, 256, "offset 24: logical block size 256"},
	{1000, 1536, "offset 24: logical block size 1536"},
	{1000, 131072, "offset 24: logical block size 131072"},
};

START_TEST(test_held)
{
	char *path = test_tmpfile(NULL, 0);
	struct trace_writer w;
	struct trace_summary s;
	char err[512];
	uint8_t h[TRACE_HEADER_SIZE] = {0}, rec[TRACE_RECORD_SIZE] = {0};
	uint64_t t = held[_i].time_ns;
	uint32_t lbs = held[_i].lbs;
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	/* written by hand, as a damaged or hostile file would be */
	memcpy(h, TRACE_MAGIC, 8);
	h[8] = TRACE_VERSION;
	h[12] = TRACE_RECORD_SIZE;
	for (int i = 0; i < 4; i++)
		h[24 + i] = (uint8_t)(lbs >> (8 * i));
	ck_assert_uint_eq(fwrite(h, sizeof(h), 1, f), 1);
	rec[18] = 0x10; /* 4096 bytes; a read at 0 */
	ck_assert_uint_eq(fwrite(rec, sizeof(rec), 1, f), 1);
	for (int i = 0; i < 8; i++)
		rec[i] = (uint8_t)(t >> (8 * i));
	ck_assert_uint_eq(fwrite(rec, sizeof(rec), 1, f), 1);
	ck_assert_int_eq(fclose(f), 0);
	int ret = trace_scan(path, &s, err, sizeof(err));
	if (!held[_i].msg) {
		ck_assert_msg(ret == 0, "%s", err);
		ck_assert_uint_eq(s.duration_ns, t);
		ck_assert_uint_eq(s.info.lbs, lbs);
	} else {
		ck_assert_int_eq(ret, -EINVAL);
		ck_assert_msg(strstr(err, held[_i].msg), "got '%s', want '%s'", err, held[_i].msg);
	}
	/* the writer: the same header and record, or the same refusal */
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	struct trace_info info = {.lbs = lbs};
	struct trace_rec r = {.time_ns = t, .len = 4096};
	ret = trace_write_begin(&w, f, &info);
	if (ret == 0)
		ret = trace_write(&w, &r);
	ck_assert_int_eq(ret, held[_i].msg ? -EINVAL : 0);
	fclose(f);
	unlink(path);
	free(path);
}
END_TEST

/* blk_io_trace records, little-endian. */
static size_t blk_ev(uint8_t *p, uint64_t t, uint64_t sector, uint32_t bytes, uint32_t action,
		     uint32_t cpu)
{
	uint32_t v32[] = {0x65617407, 0};
	memset(p, 0, 48);
	memcpy(p, v32, 8);
	memcpy(p + 8, &t, 8);
	memcpy(p + 16, &sector, 8);
	memcpy(p + 24, &bytes, 4);
	memcpy(p + 28, &action, 4);
	memcpy(p + 40, &cpu, 4);
	return 48;
}

#define QW ((1u | (1u << 4) << 16) | (2u << 16))
#define QR ((1u | (1u << 4) << 16) | (1u << 16))
#define CW ((8u | (1u << 7) << 16) | (2u << 16))

/* The imports refuse a time past the limit as the reader would, naming where it is. */
START_TEST(test_import_held)
{
	static const char *const iologs[] = {
		"fio version 3 iolog\n0 f add\n0 f open\n18446744073709551615 f read 0 4096\n",
		"fio version 2 iolog\nf add\nf open\nf read 0 4096\nf wait 2592000000001\n",
	};
	static const char *const want[] = {
		":4: time 18446744073709551615 is past 720h",
		":5: a wait of 2592000000001 brings the time past 720h",
	};
	struct trace_writer w;
	char err[512];

	for (unsigned i = 0; i < 2; i++) {
		char *in = test_tmpfile(NULL, 0);
		test_put_text(in, iologs[i]);
		FILE *out = tmpfile();
		ck_assert_int_eq(trace_import(in, TRACE_SRC_FIO, out, NULL, &w, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, want[i]), "got '%s', want '%s'", err, want[i]);
		fclose(out);
		unlink(in);
		free(in);
	}
	/* blktrace: the second read 721h after the first */
	uint8_t ev[96];
	struct blk_conv c;
	size_t used;
	FILE *out = tmpfile();
	blk_ev(ev, 1000, 0, 4096, QR, 0);
	blk_ev(ev + 48, 1000 + TRACE_MAX_TIME_NS + 3600000000000ull, 8, 4096, QR, 0);
	ck_assert_int_eq(trace_write_begin(&w, out, NULL), 0);
	ck_assert_int_eq(blk_conv_init(&c, &w), 0);
	int ret = blk_conv_feed(&c, ev, sizeof(ev), &used, "bt", err, sizeof(err));
	if (ret == 0)
		ret = blk_conv_finish(&c);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(c.why && strstr(c.why, "a time past 720h"), "%s",
		      c.why ? c.why : "no reason");
	ck_assert_uint_eq(w.n, 1);
	blk_conv_free(&c);
	fclose(out);
}
END_TEST

/*
 * Two CPUs' events as blktrace's per-CPU files give them, one after the other: the
 * conversion puts them in time order, and the depth counts what was in flight. Fed whole
 * or a byte at a time, the trace is the same.
 */
START_TEST(test_blk_reorder)
{
	uint8_t in[48 * 8], *p = in;
	char *paths[2];

	/* cpu 1's events first in the stream, though cpu 0's are older */
	p += blk_ev(p, 2000, 8, 4096, QW, 1);
	p += blk_ev(p, 4000, 8, 4096, CW, 1);
	p += blk_ev(p, 1000, 0, 4096, QR, 0);
	p += blk_ev(p, 3000, 16, 4096, QW, 0);
	p += blk_ev(p, 5000, 24, 4096, QR, 0);
	for (int piece = 0; piece < 2; piece++) {
		struct trace_writer w;
		struct blk_conv c;
		char err[256];
		size_t len = (size_t)(p - in), at = 0, used;
		paths[piece] = test_tmpfile(NULL, 0);
		FILE *f = fopen(paths[piece], "wb");
		ck_assert_int_eq(trace_write_begin(&w, f, NULL), 0);
		ck_assert_int_eq(blk_conv_init(&c, &w), 0);
		if (piece == 0) {
			ck_assert_int_eq(blk_conv_feed(&c, in, len, &used, "x", err, sizeof(err)), 0);
			ck_assert_uint_eq(used, len);
		} else {
			/* a growing buffer, one more byte at a time, as a pipe may give it */
			for (size_t have = 1; have <= len; have++) {
				ck_assert_int_eq(blk_conv_feed(&c, in + at, have - at, &used, "x", err,
							       sizeof(err)), 0);
				at += used;
			}
			ck_assert_uint_eq(at, len);
		}
		ck_assert_int_eq(blk_conv_finish(&c), 0);
		blk_conv_free(&c);
		fclose(f);
	}
	struct trace_reader r;
	struct trace_rec t;
	char err[256];
	/* time from the first event; depth: cpu 0's read still in flight (no completion) */
	const struct {
		uint64_t time, off;
		uint8_t op;
		uint16_t depth;
	} want[] = {{0, 0, TRACE_READ, 1}, {1000, 4096, TRACE_WRITE, 2},
		    {2000, 8192, TRACE_WRITE, 3}, {4000, 12288, TRACE_READ, 3}};
	for (int piece = 0; piece < 2; piece++) {
		unsigned n = 0;
		ck_assert_int_eq(trace_open(&r, paths[piece], err, sizeof(err)), 0);
		while (trace_next(&r, &t, err, sizeof(err)) > 0) {
			ck_assert_uint_lt(n, 4);
			ck_assert_uint_eq(t.time_ns, want[n].time);
			ck_assert_uint_eq(t.off, want[n].off);
			ck_assert_uint_eq(t.op, want[n].op);
			ck_assert_uint_eq(t.depth, want[n].depth);
			n++;
		}
		trace_close(&r);
		ck_assert_uint_eq(n, 4);
		unlink(paths[piece]);
		free(paths[piece]);
	}
}
END_TEST

START_TEST(test_blk_hostile)
{
	uint8_t in[96];
	struct trace_writer w;
	struct blk_conv c;
	char err[256];
	size_t used;
	FILE *f = tmpfile();

	blk_ev(in, 1000, 0, 4096, QR, 0);
	blk_ev(in + 48, 2000, 0, 4096, QR, 0);
	in[48 + 1] = 0x99; /* the second record's magic */
	ck_assert_int_eq(trace_write_begin(&w, f, NULL), 0);
	ck_assert_int_eq(blk_conv_init(&c, &w), 0);
	ck_assert_int_eq(blk_conv_feed(&c, in, sizeof(in), &used, "bt", err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bt: offset 48: not a block trace event"), "%s", err);
	/* a payload longer than any note: refused, never read into memory */
	blk_ev(in, 1000, 0, 4096, QR, 0);
	in[46] = 0xff, in[47] = 0xff;
	c.offset = 0;
	ck_assert_int_eq(blk_conv_feed(&c, in, 48, &used, "bt", err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bt: offset 0: a payload of 65535 bytes"), "%s", err);
	/* an I/O the format cannot hold: refused where it is, not written */
	blk_ev(in, 1000, 0, 1000, QR, 0);
	ck_assert_int_eq(blk_conv_feed(&c, in, 48, &used, "bt", err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bt: offset 0: an I/O the trace format cannot hold: length not "
				  "a multiple of 512"), "%s", err);
	/* a discard of 1 GiB is one (a file system's first discard of its device) */
	blk_ev(in, 1000, 0, 1u << 30, QW | ((1u << 13) << 16), 0);
	ck_assert_int_eq(blk_conv_feed(&c, in, 48, &used, "bt", err, sizeof(err)), 0);
	blk_conv_free(&c);
	fclose(f);
}
END_TEST

/* A replay of trace: a minute's cap, 10 ms intervals. */
static void trace_workload(struct workload *wl, const char *trace)
{
	workload_defaults(wl);
	snprintf(wl->trace, sizeof(wl->trace), "%s", trace);
	wl->time_ns = 60ull * 1000000000;
	wl->interval_ns = 10000000;
}

/* Replay through the null backend: every record issued once, each kind counted. */
START_TEST(test_replay_fast)
{
	static const uint8_t ops[] = {TRACE_READ, TRACE_WRITE, TRACE_READ, TRACE_FLUSH,
				      TRACE_DISCARD};
	char *trace = make_trace(1000, ops, 5, 1000);
	struct target t;
	char *path;
	struct workload wl;
	struct step_result res;
	char err[512];
	struct seen seen = {0};

	open_file_target(&t, &path, 1 << 20, true); /* smaller than the trace: it wraps */
	trace_workload(&wl, trace);
	wl.trace_speed = 0;
	wl.qdepth = 8;
	wl.read_pct = 0;
	ck_assert_msg(engine_run(&engine_null, &t, &wl, NULL, count_sample, &seen, &res, err,
				 sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(res.replay.trace_ios, 1000);
	ck_assert_uint_eq(res.replay.issued, 1000);
	ck_assert_uint_eq(res.replay.flushes, 200);
	ck_assert_uint_eq(res.replay.discards, 200);
	ck_assert_uint_eq(res.replay.discard_bytes, 200 * 4096);
	ck_assert_uint_eq(res.replay.qdepth, 8);
	ck_assert(!res.replay.timed);
	ck_assert_uint_eq(res.acc[DIR_READ].ios + res.ramp_acc[DIR_READ].ios +
				  res.drain_acc[DIR_READ].ios, 400);
	ck_assert_uint_eq(res.acc[DIR_WRITE].ios + res.ramp_acc[DIR_WRITE].ios +
				  res.drain_acc[DIR_WRITE].ios, 200);
	assert_sums(&res);
	step_result_free(&res);
	close_file_target(&t, path);
	unlink(trace);
	free(trace);
}
END_TEST

/* Timed: 50 records 2 ms apart take at least the trace's 98 ms, never less. */
START_TEST(test_replay_timed)
{
	static const uint8_t ops[] = {TRACE_READ};
	char *trace = make_trace(50, ops, 1, 2000000);
	struct target t;
	char *path;
	struct workload wl;
	struct step_result res;
	char err[512];
	struct seen seen = {0};
	uint64_t t0;

	open_file_target(&t, &path, 1 << 20, false);
	trace_workload(&wl, trace);
	t0 = mono_now_ns();
	ck_assert_msg(engine_run(&engine_null, &t, &wl, NULL, count_sample, &seen, &res, err,
				 sizeof(err)) == 0, "%s", err);
	ck_assert_uint_ge(mono_now_ns() - t0, 98000000);
	ck_assert(res.replay.timed);
	ck_assert_uint_eq(res.replay.qdepth, 1); /* the trace's depth, not qdepth's 32 */
	ck_assert_uint_eq(res.replay.issued, 50);
	ck_assert_uint_eq(res.total.d[DIR_READ].ios + res.drain.d[DIR_READ].ios +
				  res.ramp.d[DIR_READ].ios, 50);
	ck_assert_uint_le(res.replay.lag_mean_ns, (double)res.replay.lag_max_ns);
	step_result_free(&res);

	/* a backend without flushes and discards cannot replay a trace that has them */
	static const uint8_t fl[] = {TRACE_READ, TRACE_FLUSH};
	char *trace2 = make_trace(4, fl, 2, 1000);
	struct engine_ops bare = engine_null;
	bare.queue_other = NULL;
	snprintf(wl.trace, sizeof(wl.trace), "%s", trace2);
	ck_assert_int_eq(engine_run(&bare, &t, &wl, NULL, count_sample, &seen, &res, err,
				    sizeof(err)), -EOPNOTSUPP);
	ck_assert_msg(strstr(err, "holds flushes or discards"), "%s", err);
	step_result_free(&res);
	close_file_target(&t, path);
	unlink(trace);
	unlink(trace2);
	free(trace);
	free(trace2);
}
END_TEST

static void *stop_later(void *arg)
{
	nanosleep(&(struct timespec){0, 300000000}, NULL);
	atomic_store(&((struct engine_ctl *)arg)->stop, 1);
	return NULL;
}

/* A gap of a minute in a timed trace still answers a stop at once. */
START_TEST(test_replay_gap_stops)
{
	static const uint8_t ops[] = {TRACE_READ};
	char *trace = make_trace(2, ops, 1, 60000000000ull);
	struct engine_ctl ctl = {0};
	struct step_result res;
	struct workload wl;
	struct seen seen = {0};
	struct target t;
	char *path, err[512];
	pthread_t tid;
	uint64_t t0 = mono_now_ns();

	open_file_target(&t, &path, 1 << 20, false);
	trace_workload(&wl, trace);
	ck_assert_int_eq(pthread_create(&tid, NULL, stop_later, &ctl), 0);
	ck_assert_msg(engine_run(&engine_null, &t, &wl, &ctl, count_sample, &seen, &res, err,
				 sizeof(err)) == 0, "%s", err);
	pthread_join(tid, NULL);
	ck_assert(res.stopped);
	ck_assert_uint_eq(res.replay.issued, 1);
	ck_assert_uint_lt(mono_now_ns() - t0, 10000000000ull);
	step_result_free(&res);
	close_file_target(&t, path);
	unlink(trace);
	free(trace);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_loop_test(tc, test_damaged, 0, sizeof(damage) / sizeof(damage[0]));
	tcase_add_loop_test(tc, test_place, 0, sizeof(places) / sizeof(places[0]));
	tcase_add_loop_test(tc, test_held, 0, sizeof(held) / sizeof(held[0]));
	tcase_add_test(tc, test_import_held);
	tcase_add_test(tc, test_blk_reorder);
	tcase_add_test(tc, test_blk_hostile);
	tcase_add_test(tc, test_replay_fast);
	tcase_add_test(tc, test_replay_timed);
	tcase_add_test(tc, test_replay_gap_stops);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(trace_suite)
