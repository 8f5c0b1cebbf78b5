// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The typed summaries of a result's target records (result_summary.c): what reports read
 * of each target, its drive and its health, taken from the json-c records as the reports
 * took them before (strings only where a string was wanted, a number's text where the
 * record's value was printed), one per target of a run on several; and the health line
 * `drivebench show` prints from them.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report.h"
#include "result.h"

static const struct {
	const char *record; /* "target" */
	const char *path, *kind;
	uint64_t size;
	uint32_t lbs, pbs;
	const char *model, *serial, *firmware;
	uint64_t capacity; /* result_capacity_bytes() */
} targets[] = {
	{"{\"path\": \"/dev/sdb\", \"kind\": \"block\", \"size\": 200049647616, \"lbs\": 512, "
	 "\"pbs\": 4096, \"drive\": {\"model\": \"Micron P400m\", \"serial\": \"S1\", "
	 "\"firmware\": \"0200\", \"capacity_bytes\": 200049647616}}",
	 "/dev/sdb", "block", 200049647616, 512, 4096, "Micron P400m", "S1", "0200", 200049647616},
	/* the NVMe controller's copy when the drive record's own is empty or not a string */
	{"{\"path\": \"/dev/nvme0n1\", \"drive\": {\"model\": \"\", \"serial\": 5, "
	 "\"capacity_bytes\": 1.5e11, \"nvme\": {\"model\": \"SAMSUNG\", \"serial\": \"N1\", "
	 "\"firmware\": \"GDC\"}}}",
	 "/dev/nvme0n1", "", 0, 0, 0, "SAMSUNG", "N1", "GDC", 150000000000},
	/* a file: no drive, the capacity is the size; a kind that is no string, as text */
	{"{\"path\": \"/tmp/a.img\", \"kind\": 7, \"size\": 1073741824, \"lbs\": 4294967296}",
	 "/tmp/a.img", "7", 1073741824, 0, 0, "", "", "", 1073741824},
	/* wrong types: left out */
	{"{\"path\": 5, \"kind\": null, \"size\": \"1\", \"drive\": \"x\"}", "", "", 0, 0, 0, "",
	 "", "", 0},
	{"{}", "", "", 0, 0, 0, "", "", "", 0},
	{"{\"drive\": {\"capacity_bytes\": -1, \"nvme\": 3}, \"size\": 4096}", "", "", 4096, 0, 0,
	 "", "", "", 4096},
};

START_TEST(target_record)
{
	struct result r;

	result_init(&r);
	r.target = json_tokener_parse(targets[_i].record);
	ck_assert_ptr_nonnull(r.target);
	ck_assert_int_eq(result_summarize(&r), 0);
	const struct result_target *t = result_nth_target(&r, 0);
	ck_assert_uint_eq(result_ntargets(&r), 1);
	ck_assert_ptr_null(result_nth_target(&r, 1));
	ck_assert_str_eq(t->path, targets[_i].path);
	ck_assert_str_eq(result_target_path(&r), targets[_i].path);
	ck_assert_str_eq(t->kind, targets[_i].kind);
	ck_assert_uint_eq(t->size, targets[_i].size);
	ck_assert_uint_eq(t->lbs, targets[_i].lbs);
	ck_assert_uint_eq(t->pbs, targets[_i].pbs);
	ck_assert_str_eq(result_drive_model(&r), targets[_i].model);
	ck_assert_str_eq(result_drive_serial(&r), targets[_i].serial);
	ck_assert_str_eq(result_drive_firmware(&r), targets[_i].firmware);
	ck_assert_uint_eq(result_capacity_bytes(&r), targets[_i].capacity);
	ck_assert(!t->health.recorded);
	result_free(&r);
	ck_assert_ptr_null(r.target_summary);
}
END_TEST

/* "health" of the target record, and the line `show` prints of it ("" none). */
static const struct {
	const char *health;
	const char *line;
	unsigned nwarnings;
} healths[] = {
	{"{\"before\": {\"note\": \"x\"}, \"after\": {}, \"delta\": {\"data_written_bytes\": "
	 "1200000000000, \"percentage_used\": 1, \"throttled\": true}, \"temperature\": "
	 "{\"min_c\": 41, \"max_c\": 71}, \"warnings\": [{\"phase\": \"measure\", \"text\": "
	 "\"hot\"}]}",
	 "Health   41..71 C during the run; 1.20 TB written by the host; wear +1 %; THROTTLED\n"
	 "Warning  hot (measure)\n",
	 1},
	/* not watched: the note alone */
	{"{\"before\": {\"note\": \"no health data for this transport (loop)\"}}",
	 "Health   no health data for this transport (loop)\n", 0},
	/* an "after" (even null) means it was watched: no note */
	{"{\"before\": {\"note\": \"x\"}, \"after\": null, \"delta\": null}", "Health  \n", 0},
	{"null", "Health  \n", 0},
	{"5", "Health  \n", 0},
	/* values as the record writes them; a delta that is no object still says throttling */
	{"{\"after\": {}, \"delta\": 3, \"temperature\": {\"min_c\": 40.5, \"max_c\": \"hot\"}}",
	 "Health   40.5..hot C during the run; no throttling\n", 0},
	{"{\"after\": {}, \"delta\": {\"data_written_bytes\": \"12abc\", \"percentage_used\": 2.5, "
	 "\"throttled\": \"true\"}, \"temperature\": {\"max_c\": 70}, \"warnings\": [5, "
	 "{\"text\": 7}]}",
	 "Health   ..70 C during the run; 12 B written by the host; wear +2.5 %; THROTTLED\n"
	 "Warning   ()\nWarning  7 ()\n",
	 2},
	{"{\"after\": {}, \"temperature\": 5, \"warnings\": {\"phase\": \"x\"}}", "Health  \n", 0},
};

START_TEST(health_record)
{
	struct result r;
	char rec[1024], *text = NULL;
	size_t len = 0;

	result_init(&r);
	snprintf(rec, sizeof(rec), "{\"path\": \"/dev/nvme0n1\", \"health\": %s}",
		 healths[_i].health);
	r.target = json_tokener_parse(rec);
	r.host = json_object_new_object();
	ck_assert_ptr_nonnull(r.target);
	ck_assert_int_eq(result_summarize(&r), 0);
	const struct result_health *h = &result_nth_target(&r, 0)->health;
	ck_assert(h->recorded);
	ck_assert_uint_eq(h->nwarnings, healths[_i].nwarnings);
	ck_assert_int_ge(report_show(&r, &text, &len), 0);
	const char *at = strstr(text, "Health  ");
	ck_assert_msg(at, "%s", text);
	ck_assert_msg(!strncmp(at, healths[_i].line, strlen(healths[_i].line)), "%s", at);
	ck_assert_msg(at[strlen(healths[_i].line)] != 'W', "%s", at);
	free(text);
	result_free(&r);
}
END_TEST

/* A run on several targets: one summary each, "target" first; none before summarizing. */
START_TEST(several_targets)
{
	struct result r;

	result_init(&r);
	ck_assert_uint_eq(result_ntargets(&r), 1);
	ck_assert_str_eq(result_nth_target(&r, 0)->path, "");
	ck_assert_uint_eq(result_capacity_bytes(&r), 0);
	r.target = json_tokener_parse("{\"path\": \"/tmp/a.img\", \"kind\": \"file\", \"size\": 1, "
				      "\"health\": {\"before\": {\"note\": \"none\"}}}");
	r.targets = json_object_new_array();
	json_object_array_add(r.targets, json_object_get(r.target));
	json_object_array_add(r.targets, json_tokener_parse("{\"path\": \"/tmp/b.img\", \"kind\": "
							    "\"file\", \"size\": 2}"));
	json_object_array_add(r.targets, json_tokener_parse("{\"kind\": \"block\"}"));
	ck_assert_int_eq(result_summarize(&r), 0);
	ck_assert_uint_eq(result_ntargets(&r), 3);
	ck_assert_str_eq(result_nth_target(&r, 0)->path, "/tmp/a.img");
	ck_assert_str_eq(result_nth_target(&r, 0)->health.note, "none");
	ck_assert_str_eq(result_nth_target(&r, 1)->path, "/tmp/b.img");
	ck_assert_uint_eq(result_nth_target(&r, 1)->size, 2);
	ck_assert(!result_nth_target(&r, 1)->health.recorded);
	ck_assert_str_eq(result_nth_target(&r, 2)->path, "");
	ck_assert_str_eq(result_nth_target(&r, 2)->kind, "block");
	ck_assert_ptr_null(result_nth_target(&r, 3));
	/* summarized again after a record changes: the summary follows */
	json_object_object_add(r.target, "path", json_object_new_string("/tmp/c.img"));
	ck_assert_int_eq(result_summarize(&r), 0);
	ck_assert_str_eq(result_target_path(&r), "/tmp/c.img");
	ck_assert_uint_eq(result_ntargets(&r), 3);
	result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("result_summary");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, target_record, 0, (int)(sizeof(targets) / sizeof(targets[0])));
	tcase_add_loop_test(tc, health_record, 0, (int)(sizeof(healths) / sizeof(healths[0])));
	tcase_add_test(tc, several_targets);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
