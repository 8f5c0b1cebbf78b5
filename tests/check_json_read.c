// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pull reader's checked numbers (counts and rates that cannot be negative) and its
 * typed values, in both wordings of a bad one.
 */
#include "testlib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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
	{"2.75", 0, "is not a whole number", 2.75, NULL},
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

enum kind { K_U64, K_UINT, K_DBL, K_STR, K_BOOL, K_ENUM };

static int placed_bad(struct jread *j, const char *msg)
{
	return jread_fail(j, "steps[1]: %s", msg);
}

static const struct jread_style placed = {.bad = placed_bad};
static const struct jread_style is_not = {.is_not = true, .bad_is_type = true, .null_string = true};

static const struct {
	const char *value; /* of member "k" */
	enum kind kind;
	const struct jread_style *style;
	const char *got; /* the value read, as text */
	const char *err; /* the error after "t.json:1: "; "" none */
} typed[] = {
	{"12", K_U64, NULL, "12", ""},
	{"null", K_U64, NULL, "0", ""},
	{"null", K_U64, &is_not, "0", ""},
	{"-1", K_U64, NULL, "0", "\"k\" is negative"},
	{"\"1\"", K_U64, NULL, "0", "\"k\" should be a number"},
	{"\"1\"", K_U64, &is_not, "0", "\"k\" is not a number"},
	{"[1]", K_U64, &placed, "0", "steps[1]: \"k\" should be a number"},
	{"NaN", K_U64, NULL, "0", "not valid JSON: expected a value"},
	{"NaN", K_DBL, &is_not, "0", "\"k\" is not a number"},
	{"1e3", K_U64, NULL, "1000", ""},
	{"1.5", K_U64, NULL, "0", "\"k\" is not a whole number"},
	{"2.5", K_UINT, NULL, "0", "\"k\" is not a whole number"},
	{"4294967295", K_UINT, NULL, "4294967295", ""},
	{"4294967296", K_UINT, NULL, "0", "\"k\" is out of range (0 to 4294967295)"},
	{"2.5", K_DBL, NULL, "2.5", ""},
	{"-2.5", K_DBL, &placed, "0", "steps[1]: \"k\" is negative"},
	{"\"x\"", K_STR, NULL, "x", ""},
	{"\"abcdef\"", K_STR, NULL, "abc", ""}, /* cut to the buffer */
	{"null", K_STR, NULL, "", ""},
	{"null", K_STR, &is_not, "", "\"k\" is not a string"},
	{"7", K_STR, NULL, "", "\"k\" should be a string"},
	{"true", K_BOOL, NULL, "1", ""},
	{"null", K_BOOL, NULL, "0", ""},
	{"1", K_BOOL, NULL, "0", "\"k\" should be true or false"},
	{"\"fixed\"", K_ENUM, NULL, "1", ""},
	{"null", K_ENUM, NULL, "-1", ""},
	{"\"other\"", K_ENUM, &placed, "-1", "steps[1]: unknown k \"other\""},
};

START_TEST(test_typed)
{
	static const char *const names[] = {"steady", "fixed"};
	char text[64], err[256] = "", key[8], got[32] = "", want[300] = "";
	struct jread j;

	snprintf(text, sizeof(text), "{\"k\": %s}", typed[_i].value);
	jread_init(&j, text, strlen(text), "t.json", err, sizeof(err));
	j.style = typed[_i].style;
	ck_assert(jread_object(&j));
	ck_assert(jread_member(&j, key, sizeof(key)));
	switch (typed[_i].kind) {
	case K_U64:
		snprintf(got, sizeof(got), "%llu", (unsigned long long)jread_get_u64(&j, key));
		break;
	case K_UINT:
		snprintf(got, sizeof(got), "%u", jread_get_uint(&j, key));
		break;
	case K_DBL:
		snprintf(got, sizeof(got), "%g", jread_get_double(&j, key));
		break;
	case K_STR:
		jread_get_string(&j, key, got, 4);
		break;
	case K_BOOL:
		snprintf(got, sizeof(got), "%d", jread_get_bool(&j, key));
		break;
	case K_ENUM:
		snprintf(got, sizeof(got), "%d", jread_get_enum(&j, key, names, 2, -1));
		break;
	}
	ck_assert_str_eq(got, typed[_i].got);
	if (typed[_i].err[0])
		snprintf(want, sizeof(want), "t.json:1: %s", typed[_i].err);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(j.ret, typed[_i].err[0] ? -EINVAL : 0);
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("json_read");
	tcase_add_loop_test(tc, test_num, 0, (int)(sizeof(nums) / sizeof(nums[0])));
	tcase_add_loop_test(tc, test_typed, 0, (int)(sizeof(typed) / sizeof(typed[0])));
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(json_read_suite)
