// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a run wrote of a block device its purge deallocated (unwritten.h): a purge of the
 * whole device or of a range, then sequential and random writes, and the share of a read
 * range left unwritten, which warns reads-unwritten from 1 %.
 */
#include "testlib.h"

#include <math.h>

#include "unwritten.h"

#define GIB (1ull << 30)

static struct target dev(void)
{
	return (struct target){.is_blockdev = true, .size = GIB, .fd = -1, .path = "/dev/fake"};
}

/* The share of wl's range unwritten, from the warning's own words; 0 when it says none. */
static double share(const struct target *t, const struct workload *wl, const struct written *w)
{
	char text[512];
	double pct = 0;
	const char *p;

	if (!unwritten_reads(t, wl, w, NULL, text, sizeof(text)))
		return 0;
	p = strstr(text, "deallocated: ");
	ck_assert_msg(p && sscanf(p + 13, "%lf%%", &pct) == 1, "%s", text);
	return pct;
}

START_TEST(map_of_writes)
{
	static struct written w;
	struct target t = dev();
	struct workload rd, wr;

	workload_defaults(&rd);
	rd.read_pct = 100;
	wr = rd;
	wr.read_pct = 0;
	/* nothing purged: nothing to say */
	ck_assert(share(&t, &rd, NULL) == 0);
	ck_assert(share(&t, &rd, &w) == 0);
	/* all of it deallocated */
	written_purged(&w, &t, 0, GIB);
	ck_assert_double_eq_tol(share(&t, &rd, &w), 100.0, 0.05);
	/* a sequential fill of 2 threads, each a quarter of its slice: a quarter written */
	wr.pattern = WL_SEQUENTIAL;
	wr.threads = 2;
	written_add(&w, &t, &wr, GIB / 4, 0);
	ck_assert_double_eq_tol(share(&t, &rd, &w), 75.0, 0.05);
	/* the rest of each slice: all written, no warning */
	written_add(&w, &t, &wr, GIB, 0);
	ck_assert(share(&t, &rd, &w) == 0);
	/* a discard of the first tenth, then random writes of as many bytes over it: e^-1 */
	written_purged(&w, &t, 0, GIB / 10);
	ck_assert_double_eq_tol(share(&t, &rd, &w), 10.0, 0.05);
	wr.pattern = WL_RANDOM;
	wr.range_pct = 10;
	written_add(&w, &t, &wr, GIB / 10, 0);
	ck_assert_double_eq_tol(share(&t, &rd, &w), 10.0 * exp(-1), 0.1);
	/* reads of the last half never touch the discarded tenth */
	rd.range_start = GIB / 2;
	ck_assert(share(&t, &rd, &w) == 0);
	/* a sequential mix: its writes are their share of the span it streamed over */
	written_purged(&w, &t, 0, GIB);
	wr.pattern = WL_SEQUENTIAL;
	wr.range_pct = 0;
	wr.threads = 1;
	written_add(&w, &t, &wr, GIB / 2, GIB / 2);
	rd.range_start = 0;
	ck_assert_double_eq_tol(share(&t, &rd, &w), 50.0, 0.05);
}
END_TEST

static Suite *unwritten_suite(void)
{
	Suite *s = suite_create("unwritten");
	TCase *tc = tcase_create("map");

	tcase_add_test(tc, map_of_writes);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(unwritten_suite)
