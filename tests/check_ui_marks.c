// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The targets marked on the Drives screen and the confirmations of a writing queue
 * (ui/marks.c): order kept, unmarking, the limit of a run's targets, the names joined
 * for the screens, and the device names asked for one after another.
 */
#include "marks.h"

#include <errno.h>
#include <string.h>

#include "runmodel.h"
#include "testlib.h"

START_TEST(test_toggle_keeps_order)
{
	struct marks m = {0};

	ck_assert_int_eq(marks_toggle(&m, "/dev/loop0"), 1);
	ck_assert_int_eq(marks_toggle(&m, "/dev/loop1"), 1);
	ck_assert_int_eq(marks_toggle(&m, "/tmp/scratch.img"), 1);
	ck_assert_uint_eq(m.n, 3);
	/* unmarking the first keeps the others in the order they were marked */
	ck_assert_int_eq(marks_toggle(&m, "/dev/loop0"), 0);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_str_eq(m.path[0], "/dev/loop1");
	ck_assert_str_eq(m.path[1], "/tmp/scratch.img");
	ck_assert_int_eq(marks_find(&m, "/dev/loop0"), -1);
	ck_assert_int_eq(marks_find(&m, "/tmp/scratch.img"), 1);
	/* marked again, it comes last */
	ck_assert_int_eq(marks_toggle(&m, "/dev/loop0"), 1);
	ck_assert_int_eq(marks_find(&m, "/dev/loop0"), 2);
}
END_TEST

START_TEST(test_limit)
{
	struct marks m = {0};
	char path[32];

	for (int i = 0; i < RUN_MAX_TARGETS; i++) {
		snprintf(path, sizeof(path), "/dev/loop%d", i);
		ck_assert_int_eq(marks_toggle(&m, path), 1);
	}
	ck_assert_int_eq(marks_toggle(&m, "/dev/loop99"), -ENOSPC);
	ck_assert_uint_eq(m.n, RUN_MAX_TARGETS);
	/* one unmarked makes room */
	ck_assert_int_eq(marks_toggle(&m, "/dev/loop3"), 0);
	ck_assert_int_eq(marks_toggle(&m, "/dev/loop99"), 1);
}
END_TEST

static const struct {
	unsigned n;
	size_t len;
	const char *want;
} joins[] = {
	{0, 64, ""},
	{1, 64, "loop0"},
	{2, 64, "loop0 + loop1"},
	{3, 64, "loop0 + loop1 + scratch"},
	{3, 10, "loop0 + l"}, /* cut to the buffer */
};

START_TEST(test_join)
{
	const char *names[] = {"loop0", "loop1", "scratch"};
	char buf[64];

	ck_assert_str_eq(marks_join(buf, joins[_i].len, names, joins[_i].n, " + "), joins[_i].want);
}
END_TEST

START_TEST(test_confirm_in_turn)
{
	struct confirm_seq c;

	confirm_seq_reset(&c);
	ck_assert_ptr_null(confirm_seq_next(&c)); /* nothing to confirm: start at once */
	ck_assert_int_eq(confirm_seq_add(&c, "loop0"), 0);
	ck_assert_int_eq(confirm_seq_add(&c, "loop1"), 0);
	ck_assert_str_eq(confirm_seq_next(&c), "loop0");
	ck_assert_int_eq(confirm_seq_give(&c, "loop0"), 0);
	ck_assert_str_eq(confirm_seq_next(&c), "loop1");
	/* the first name again is not the second's */
	ck_assert_int_eq(confirm_seq_give(&c, "loop0"), -EINVAL);
	ck_assert_str_eq(confirm_seq_next(&c), "loop1");
	ck_assert_int_eq(confirm_seq_give(&c, "loop1"), 0);
	ck_assert_ptr_null(confirm_seq_next(&c));
	ck_assert_uint_eq(c.done, 2);
	ck_assert_str_eq(c.typed[0], "loop0");
	ck_assert_str_eq(c.typed[1], "loop1");
	ck_assert_int_eq(confirm_seq_give(&c, "loop1"), -EINVAL); /* all done */
}
END_TEST

START_TEST(test_confirm_limit)
{
	struct confirm_seq c;

	confirm_seq_reset(&c);
	for (int i = 0; i < RUN_MAX_TARGETS; i++)
		ck_assert_int_eq(confirm_seq_add(&c, "loop"), 0);
	ck_assert_int_eq(confirm_seq_add(&c, "loop"), -ENOSPC);
}
END_TEST

/* The Run screen's target line: a drive with its model, several targets by name. */
START_TEST(test_target_line)
{
	static struct run_job job;
	char buf[512];

	memset(&job, 0, sizeof(job));
	job.ntargets = 1;
	snprintf(job.targets[0].name, sizeof(job.targets[0].name), "nvme0n1");
	job.targets[0].is_drive = true;
	snprintf(job.targets[0].drive.model, sizeof(job.targets[0].drive.model), "Fast SSD");
	ck_assert_str_eq(run_model_target_line(&job, buf, sizeof(buf)), "nvme0n1 Fast SSD");
	job.targets[0].is_drive = false;
	ck_assert_str_eq(run_model_target_line(&job, buf, sizeof(buf)), "nvme0n1");
	job.ntargets = 2;
	job.targets[0].is_drive = true;
	snprintf(job.targets[1].name, sizeof(job.targets[1].name), "scratch");
	ck_assert_str_eq(run_model_target_line(&job, buf, sizeof(buf)), "nvme0n1 + scratch");
}
END_TEST

static Suite *marks_suite(void)
{
	Suite *s = suite_create("ui_marks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_toggle_keeps_order);
	tcase_add_test(tc, test_limit);
	tcase_add_loop_test(tc, test_join, 0, sizeof(joins) / sizeof(joins[0]));
	tcase_add_test(tc, test_confirm_in_turn);
	tcase_add_test(tc, test_confirm_limit);
	tcase_add_test(tc, test_target_line);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(marks_suite)
