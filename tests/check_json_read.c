// SPDX-License-Identifier: GPL-2.0-or-later
/* The pull reader's checked numbers: counts and rates that cannot be negative. */
#include "testlib.h"

#include <math.h>
#include <string.h>

#include "json_read.h"

static const struct {
	const char *text;  /* one JSON number */
	uint64_t u;	   /* jread_num_u64()'s value */
	const char *u_why; /* its reason, or NULL */
	double d;	   /* jread_num_double()'s value */
	const char *d_why;
} nums[] = {
	{"0", 0, NULL, 0, NULL},
	{"-0", 0, NULL, 0, NULL},
	{"-0.0", 0, NULL, 0, NULL},
	{"42", 42, NULL, 42, NULL},
	{"18446744073709551615", UINT64_MAX, NULL, 18446744073709551615.0, NULL},
	{"2.75", 2, NULL, 2.75, NULL},
	{"1e3", 1000, NULL, 1000, NULL},
	{"-1", 0, "is negative", 0, "is negative"},
	{"-0.5", 0, "is negative", 0, "is negative"},
	{"18446744073709551616", 0, "is out of range (0 to 2^64-1)", 18446744073709551616.0, NULL},
	{"1e400", 0, "is out of range (0 to 2^64-1)", 0, "is not a finite number"},
	{"-1e400", 0, "is negative", 0, "is not a finite number"},
};

START_TEST(test_num)
{
	struct jread j;
	struct jread_num n;
	char err[256] = "";
	uint64_t u = 7;
	double d = 7;
	const char *why;

	jread_init(&j, nums[_i].text, strlen(nums[_i].text), "t.json", err, sizeof(err));
	ck_assert_int_eq(jread_number(&j, &n), 0);
	why = jread_num_u64(&n, &u);
	ck_assert_msg(why == nums[_i].u_why ||
			      (why && nums[_i].u_why && !strcmp(why, nums[_i].u_why)),
		      "%s: u64: %s", nums[_i].text, why ? why : "(accepted)");
	ck_assert_uint_eq(u, nums[_i].u);
	why = jread_num_double(&n, &d);
	ck_assert_msg(why == nums[_i].d_why ||
			      (why && nums[_i].d_why && !strcmp(why, nums[_i].d_why)),
		      "%s: double: %s", nums[_i].text, why ? why : "(accepted)");
	ck_assert_double_eq(d, nums[_i].d);
	ck_assert(!signbit(d));	    /* -0 reads as 0 */
	ck_assert_int_eq(j.ret, 0); /* the caller words the error */
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("json_read");
	tcase_add_loop_test(tc, test_num, 0, (int)(sizeof(nums) / sizeof(nums[0])));
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(json_read_suite)
