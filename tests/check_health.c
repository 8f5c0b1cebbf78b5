// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Drive health: libnvme end to end against a fake controller under umockdev (identify,
 * SMART / health, sanitize status and firmware slot logs built from the specification's
 * byte offsets, every decoded field checked), a controller that throttles between two
 * snapshots, one whose identify fails with a status, `drivebench health --json` on the
 * fake controller, the smartctl JSON fixtures (SATA SSD, SAS SSD, a drive with
 * reallocated sectors) through a fake smartctl, smartctl missing, slow and too talkative,
 * and the escaping of hostile device strings.
 */
#include "fake_nvme.h"

#include <json-c/json.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "drive.h"
#include "health.h"
#include "health_watch.h"
#include "result.h"

#define FFFD "\xef\xbf\xbd" /* U+FFFD, what text.h shows for a byte that is not UTF-8 */

#define FIX DB_SRCDIR "/tests/fixtures/health"

static struct fake_nvme fake;

static void nvme_setup(void)
{
	fake_nvme_default(&fake);
	fake_nvme_attach(&fake, NULL);
}

static void nvme_teardown(void)
{
	fake_nvme_detach(&fake);
}

static void read_fake(struct health *h, unsigned nsid)
{
	char err[256] = "";
	int fd = open("/dev/nvme0", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	health_init(h);
	ck_assert_msg(health_read_nvme_fd(fd, nsid, h, err, sizeof(err)) == 0, "%s", err);
	close(fd);
}

/* ---- SMART / health log: every field, at its offset -------------------------------- */

static const struct {
	enum health_field f;
	int64_t want;
} smart_cases[] = {
	{HF_CRITICAL_WARNING, 0x02},
	{HF_TEMP_C, 45},
	{HF_TEMP_SENSOR1_C, 47},
	{HF_TEMP_SENSOR2_C, 57},
	{HF_WARN_TEMP_MIN, 12},
	{HF_CRIT_TEMP_MIN, 2},
	{HF_TMT1_COUNT, 5},
	{HF_TMT2_COUNT, 1},
	{HF_TMT1_TIME_S, 300},
	{HF_TMT2_TIME_S, 30},
	{HF_PCT_USED, 3},
	{HF_SPARE_PCT, 100},
	{HF_SPARE_THRESH_PCT, 10},
	{HF_DATA_READ_BYTES, 43567891ll * 512000},
	{HF_DATA_WRITTEN_BYTES, 38765432ll * 512000},
	{HF_HOST_READS, 987654321098ll},
	{HF_HOST_WRITES, 876543210987ll},
	{HF_BUSY_MIN, 4321},
	{HF_POWER_ON_HOURS, 7890},
	{HF_POWER_CYCLES, 456},
	{HF_UNSAFE_SHUTDOWNS, 23},
	{HF_MEDIA_ERRORS, 1},
	{HF_ERROR_LOG_ENTRIES, 5678},
};

START_TEST(test_nvme_smart_fields)
{
	struct health h;

	read_fake(&h, 1);
	ck_assert_int_eq(h.source, HEALTH_SRC_NVME);
	ck_assert_msg(health_has(&h, smart_cases[_i].f), "%s unknown",
		      health_field_key[smart_cases[_i].f]);
	ck_assert_msg(h.v[smart_cases[_i].f] == smart_cases[_i].want, "%s = %lld, want %lld",
		      health_field_key[smart_cases[_i].f], (long long)h.v[smart_cases[_i].f],
		      (long long)smart_cases[_i].want);
}
END_TEST

START_TEST(test_nvme_unimplemented_sensors)
{
	struct health h;

	read_fake(&h, 1);
	/* sensors 3..8 read 0 kelvin: not implemented, so unknown; ATA-only fields too */
	for (int f = HF_TEMP_SENSOR3_C; f <= HF_TEMP_SENSOR8_C; f++)
		ck_assert_msg(!health_has(&h, (enum health_field)f), "%s", health_field_key[f]);
	ck_assert(!health_has(&h, HF_REALLOCATED));
	ck_assert(!health_has(&h, HF_PENDING));
	ck_assert_str_eq(h.note, "");
}
END_TEST

START_TEST(test_nvme_identify)
{
	struct health h;
	const struct health_nvme *n = &h.nvme;

	read_fake(&h, 1);
	ck_assert_str_eq(h.model, "Samsung SSD 980 PRO 2TB");
	ck_assert_str_eq(h.serial, "S6B0NG0R123456");
	ck_assert_str_eq(h.firmware, "5B2QGXA7");
	ck_assert_uint_eq(n->vid, 0x144d);
	ck_assert_uint_eq(n->nn, 2);
	ck_assert_uint_eq(n->total_capacity, 2000398934016ull);
	ck_assert_int_eq(n->warn_temp_c, 82);
	ck_assert_int_eq(n->crit_temp_c, 85);
	ck_assert_int_eq(h.v[HF_TEMP_LIMIT_C], 82); /* WCTEMP is the drive's limit */
	ck_assert(n->format_supported);
	ck_assert(!n->format_all_ns);
	ck_assert(!n->erase_all_ns);
	ck_assert(n->format_crypto);
	ck_assert(n->sanitize_crypto);
	ck_assert(n->sanitize_block);
	ck_assert(!n->sanitize_overwrite);
	/* namespace */
	ck_assert_uint_eq(n->nsid, 1);
	ck_assert_uint_eq(n->nsze, 3907029168ull);
	ck_assert_uint_eq(n->ncap, 3907029168ull);
	ck_assert_uint_eq(n->nuse, 123456789ull);
	ck_assert_uint_eq(n->nlbaf, 2);
	ck_assert_uint_eq(n->flbas, 1);
	ck_assert(!n->metadata_extended);
	ck_assert_uint_eq(n->lbaf[0].data_bytes, 512);
	ck_assert_uint_eq(n->lbaf[0].metadata_bytes, 0);
	ck_assert_uint_eq(n->lbaf[0].relative_perf, 2);
	ck_assert_uint_eq(n->lbaf[1].data_bytes, 4096);
	ck_assert_uint_eq(n->lbaf[1].metadata_bytes, 8);
	ck_assert_uint_eq(n->lbaf[1].relative_perf, 0);
	/* sanitize status log */
	ck_assert(n->sanitize_log);
	ck_assert_uint_eq(n->sanitize_status, 1);
	ck_assert_uint_eq(n->sanitize_passes, 1);
	ck_assert_uint_eq(n->sprog, 0xffff);
	ck_assert_uint_eq(n->sanitize_cdw10, 2);
	ck_assert_uint_eq(n->est_overwrite_s, 0xffffffffu);
	ck_assert_uint_eq(n->est_block_s, 60);
	ck_assert_uint_eq(n->est_crypto_s, 5);
	/* firmware slot log */
	ck_assert(n->fw_log);
	ck_assert_uint_eq(n->fw_slots, 3);
	ck_assert(n->fw_slot1_ro);
	ck_assert_uint_eq(n->fw_active, 1);
	ck_assert_uint_eq(n->fw_next, 2);
	ck_assert_str_eq(n->fw_slot[0], "5B2QGXA7");
	ck_assert_str_eq(n->fw_slot[1], "5B2QGXB1");
	ck_assert_str_eq(n->fw_slot[2], "");
}
END_TEST

/* The namespace the descriptor belongs to comes from NVME_IOCTL_ID when none is given. */
START_TEST(test_nvme_nsid_from_fd)
{
	struct health h;
	char err[256];
	int fd = open("/dev/nvme0n1", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	health_init(&h);
	ck_assert_msg(health_read_nvme_fd(fd, 0, &h, err, sizeof(err)) == 0, "%s", err);
	close(fd);
	ck_assert_uint_eq(h.nvme.nsid, 1);
	ck_assert_uint_eq(h.nvme.nsze, 3907029168ull);
}
END_TEST

/* A controller that throttles during a run: two snapshots, the second with more TMT1
 * transitions and warning-temperature minutes. */
START_TEST(test_nvme_throttle)
{
	struct health a, b, c;
	struct json_object *d, *v;

	fake.tmt_rise = _i; /* 0: a steady controller, 1: one that throttles */
	read_fake(&a, 1);
	read_fake(&b, 1);
	ck_assert_int_eq(health_throttled(&a, &b), _i == 1);
	d = health_delta_json(&a, &b);
	ck_assert_ptr_nonnull(d);
	ck_assert(json_object_object_get_ex(d, "thermal_mgmt1_transitions", &v));
	ck_assert_int_eq(json_object_get_int(v), (int)_i);
	ck_assert(json_object_object_get_ex(d, "warning_temp_time_min", &v));
	ck_assert_int_eq(json_object_get_int(v), (int)_i);
	ck_assert(json_object_object_get_ex(d, "throttled", &v));
	ck_assert_int_eq(json_object_get_boolean(v), _i == 1);
	json_object_put(d);
	/* no data on one side: no delta */
	health_init(&c);
	ck_assert_ptr_null(health_delta_json(&a, &c));
}
END_TEST

START_TEST(test_nvme_identify_fails)
{
	struct health h;
	char err[256];
	int fd = open("/dev/nvme0", O_RDONLY);

	fake.identify_status = NVME_SC_INTERNAL | NVME_SC_DNR;
	health_init(&h);
	ck_assert_int_eq(health_read_nvme_fd(fd, 1, &h, err, sizeof(err)), -EIO);
	close(fd);
	ck_assert_msg(strstr(err, "identify controller: NVMe status 0x4006"), "%s", err);
	ck_assert_str_eq(h.note, err);
	ck_assert_uint_eq(h.known, 0);
}
END_TEST

/* Hostile identify strings: escapes in the terminal sequences, invalid UTF-8. */
START_TEST(test_nvme_hostile_strings)
{
	struct health h;
	struct json_object *j, *v;

	putstr(fake.id_ctrl, IDC_MN, 40, "\x1b[2JEvil\xff\xfe");
	read_fake(&h, 1);
	ck_assert_str_eq(h.model, "^[[2JEvil" FFFD FFFD);
	j = health_to_json(&h);
	ck_assert(json_object_object_get_ex(j, "model", &v));
	ck_assert_str_eq(json_object_get_string(v), "^[[2JEvil" FFFD FFFD);
	json_object_put(j);
}
END_TEST

/* `drivebench health --json` end to end on the fake controller. */
START_TEST(test_cli_json)
{
	const char *bin = getenv("DRIVEBENCH") ? getenv("DRIVEBENCH") : DB_SRCDIR "/build/drivebench";
	char cmd[4200], *out = calloc(1, 1 << 20);
	struct json_object *doc, *drives, *d, *v, *vals;
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s health /dev/nvme0n1 --json", bin);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (n < (1 << 20) - 1 && !feof(p))
		n += fread(out + n, 1, (1 << 20) - 1 - n, p);
	ck_assert_int_eq(pclose(p), 0);
	doc = json_tokener_parse(out);
	ck_assert_msg(doc != NULL, "not JSON: %s", out);
	ck_assert(json_object_object_get_ex(doc, "format", &v));
	ck_assert_str_eq(json_object_get_string(v), HEALTH_FORMAT);
	ck_assert(json_object_object_get_ex(doc, "version", &v));
	ck_assert_int_eq(json_object_get_int(v), HEALTH_VERSION);
	ck_assert(json_object_object_get_ex(doc, "drives", &drives));
	ck_assert_int_eq(json_object_array_length(drives), 1);
	d = json_object_array_get_idx(drives, 0);
	ck_assert(json_object_object_get_ex(d, "device", &v));
	ck_assert_str_eq(json_object_get_string(v), "/dev/nvme0");
	ck_assert(json_object_object_get_ex(d, "values", &vals));
	/* every field key is there; the ones NVMe reports carry numbers */
	for (int f = 0; f < HEALTH_NFIELDS; f++)
		ck_assert_msg(json_object_object_get_ex(vals, health_field_key[f], &v), "%s",
			      health_field_key[f]);
	for (size_t i = 0; i < sizeof(smart_cases) / sizeof(smart_cases[0]); i++) {
		ck_assert(json_object_object_get_ex(vals, health_field_key[smart_cases[i].f], &v));
		ck_assert_msg(json_object_get_int64(v) == smart_cases[i].want, "%s",
			      health_field_key[smart_cases[i].f]);
	}
	ck_assert(json_object_object_get_ex(d, "critical_warnings", &v));
	ck_assert(json_object_object_get_ex(v, "temperature", &v));
	ck_assert(json_object_get_boolean(v));
	ck_assert(json_object_object_get_ex(d, "nvme", &v));
	ck_assert(json_object_object_get_ex(v, "controller", &vals));
	ck_assert(json_object_object_get_ex(vals, "sanitize_block_erase", &v));
	ck_assert(json_object_get_boolean(v));
	json_object_put(doc);
	free(out);
}
END_TEST

/* ---- around a run: snapshots per phase, counters per step, temperature samples ------ */

/* The fake controller's namespace 1 watched, the sampler every 20 ms, in phase "measure". */
static struct health_watch *nvme_watch(void)
{
	struct health_watch *w;
	struct drive d;

	drive_init(&d);
	snprintf(d.name, sizeof(d.name), "nvme0n1");
	d.transport = DRIVE_TR_NVME;
	snprintf(d.nvme.controller, sizeof(d.nvme.controller), "nvme0");
	d.nvme.nsid = 1;
	w = health_watch_start(&d, NULL, 20000000);
	ck_assert_ptr_nonnull(w);
	health_watch_phase_begin(w, "measure");
	return w;
}

START_TEST(test_watch)
{
	struct health_watch *w = nvme_watch();
	struct json_object *j, *v, *arr;
	char msg[128] = "";
	bool throttled;

	health_watch_step_begin(w);
	/* during the step: 2000 data units written (of 512,000 bytes), a peak of 58 C that
	 * only the sampler sees (20 ms), and 50 C again when the step ends */
	put64(fake.smart, SMART_DUW, 38765432 + 2000);
	put16(fake.smart, SMART_TEMP, 331);
	nanosleep(&(struct timespec){.tv_nsec = 120000000}, NULL);
	put16(fake.smart, SMART_TEMP, 323);
	if (_i == 1) { /* the controller throttles during the step */
		put32(fake.smart, SMART_TMT1C, fake.smart[SMART_TMT1C] + 1u);
		put32(fake.smart, SMART_WCTT, fake.smart[SMART_WCTT] + 1u);
	}
	struct step_drive sd = {0};
	throttled = health_watch_step_end(w, "16T16Q", &sd, msg, sizeof(msg));
	ck_assert_int_eq(throttled, _i == 1);
	if (_i == 1)
		ck_assert_str_eq(msg, "thermally throttled during 16T16Q");
	ck_assert(sd.has_written && sd.has_temp);
	ck_assert_uint_eq(sd.written_bytes, 2000ull * 512000);
	ck_assert_int_eq(sd.temp_max_c, 58);
	nanosleep(&(struct timespec){.tv_nsec = 150000000}, NULL);
	health_watch_finish(w);
	j = health_watch_json(w);
	health_watch_free(w);

	ck_assert(json_object_object_get_ex(j, "before", &v));
	ck_assert(json_object_object_get_ex(v, "source", &v));
	ck_assert_str_eq(json_object_get_string(v), "nvme");
	ck_assert(json_object_object_get_ex(j, "after", &v) && v);
	ck_assert(json_object_object_get_ex(j, "delta", &v));
	ck_assert(json_object_object_get_ex(v, "thermal_mgmt1_transitions", &v));
	ck_assert_int_eq(json_object_get_int(v), (int)_i);
	ck_assert(json_object_object_get_ex(j, "phases", &arr));
	ck_assert_int_eq(json_object_array_length(arr), 1);
	v = json_object_array_get_idx(arr, 0);
	ck_assert(json_object_object_get_ex(v, "name", &v));
	ck_assert_str_eq(json_object_get_string(v), "measure");
	ck_assert(json_object_object_get_ex(j, "temperature", &v));
	ck_assert(json_object_object_get_ex(v, "samples", &arr));
	/* the start, the phase, the step's end and the sampler's every 20 ms */
	ck_assert_int_ge(json_object_array_length(arr), 5);
	ck_assert(json_object_object_get_ex(v, "max_c", &v));
	ck_assert_int_eq(json_object_get_int(v), 58);
	ck_assert(json_object_object_get_ex(j, "warnings", &arr));
	ck_assert_int_eq(json_object_array_length(arr), (int)_i);
	json_object_put(j);
}
END_TEST

/*
 * The drive's own limit: 82 C (WCTEMP) read by the sampler inside a step, with no
 * counter moving, warns of that step; the next step, which starts from the hot reading
 * and stays cool, is not warned.
 */
START_TEST(test_watch_limit)
{
	struct health_watch *w = nvme_watch();
	struct step_drive sd;
	char msg[320] = "";

	health_watch_step_begin(w);
	put16(fake.smart, SMART_TEMP, 355); /* 82 C */
	nanosleep(&(struct timespec){.tv_nsec = 120000000}, NULL);
	ck_assert(health_watch_step_end(w, "16T16Q", &sd, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "reached 82 C during 16T16Q, at or above the drive's limit of 82 C");
	put16(fake.smart, SMART_TEMP, 323); /* 50 C */
	health_watch_step_begin(w);
	ck_assert(!health_watch_step_end(w, "32T32Q", &sd, msg, sizeof(msg)));
	ck_assert_int_eq(sd.temp_max_c, 50);
	health_watch_free(w);
}
END_TEST

/*
 * A temperature threshold crossed inside a step (the critical warning's temperature bit
 * set, as when the host lowers the threshold with Set Features, no counter moving) warns
 * of that step; the next, which starts with the bit already set, is not warned.
 */
START_TEST(test_watch_crit_temp)
{
	struct health_watch *w;
	struct step_drive sd;
	char msg[320] = "";

	fake.smart[SMART_CRIT] = 0;
	w = nvme_watch();
	health_watch_step_begin(w);
	fake.smart[SMART_CRIT] = 0x02;
	ck_assert(health_watch_step_end(w, "16T16Q", &sd, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "the drive's temperature crossed a threshold during 16T16Q (its "
			      "critical warning, temperature bit)");
	health_watch_step_begin(w);
	ck_assert(!health_watch_step_end(w, "32T32Q", &sd, msg, sizeof(msg)));
	health_watch_free(w);
}
END_TEST

/* A drive with no health data: one record with the note, no sampler. */
START_TEST(test_watch_no_data)
{
	struct drive d;
	struct health_watch *w;
	struct json_object *j, *v;

	drive_init(&d);
	snprintf(d.name, sizeof(d.name), "loop3");
	d.transport = DRIVE_TR_LOOP;
	w = health_watch_start(&d, NULL, 1000000);
	health_watch_phase_begin(w, "run");
	health_watch_step_begin(w);
	char msg[64];
	struct step_drive sd = {.has_written = true};
	ck_assert(!health_watch_step_end(w, "x", &sd, msg, sizeof(msg)));
	ck_assert(!sd.has_written && !sd.has_temp); /* nothing counted */
	health_watch_finish(w);
	j = health_watch_json(w);
	health_watch_free(w);
	ck_assert(json_object_object_get_ex(j, "before", &v));
	ck_assert(json_object_object_get_ex(v, "note", &v));
	ck_assert_str_eq(json_object_get_string(v), "no health data for this transport (loop)");
	ck_assert(!json_object_object_get_ex(j, "temperature", &v));
	json_object_put(j);
}
END_TEST

/* ---- smartctl ----------------------------------------------------------------------- */

static const struct {
	const char *file;
	const char *model, *serial, *firmware;
	struct {
		enum health_field f;
		int64_t want; /* -1: unknown */
	} v[12];
} smartctl_cases[] = {
	{"sata-ssd.json",
	 "Samsung SSD 870 EVO 1TB",
	 "S6PTNM0T123456A",
	 "SVT02B6Q",
	 {{HF_TEMP_C, 38},
	  {HF_POWER_ON_HOURS, 1234},
	  {HF_POWER_CYCLES, 321},
	  {HF_DATA_WRITTEN_BYTES, 48828125000ll * 512},
	  {HF_PCT_USED, 3},
	  {HF_REALLOCATED, 0},
	  {HF_UNSAFE_SHUTDOWNS, 17},
	  {HF_PENDING, -1},
	  {HF_MEDIA_ERRORS, -1},
	  {HF_TMT1_COUNT, -1},
	  {HF_WARN_TEMP_MIN, 12},  /* devstat: Time in Over-Temperature */
	  {HF_TEMP_LIMIT_C, 70}}}, /* devstat: Specified Maximum Operating Temperature */
	{"sas-ssd.json",
	 "SEAGATE XS1920SE70084",
	 "HLJ0A1B2",
	 "0003",
	 {{HF_TEMP_C, 34},
	  {HF_POWER_ON_HOURS, 20511},
	  {HF_POWER_CYCLES, 57},
	  {HF_DATA_WRITTEN_BYTES, 97215004000000ll},
	  {HF_DATA_READ_BYTES, 183472311000000ll},
	  {HF_PCT_USED, 2},
	  {HF_REALLOCATED, 0},
	  {HF_MEDIA_ERRORS, 1},
	  {HF_PENDING, -1},
	  {HF_TEMP_LIMIT_C, 70}, /* the trip temperature */
	  {HF_WARN_TEMP_MIN, -1}}},
	{"realloc.json",
	 "INTEL SSDSC2BF240A5^G^[[2J",
	 "CVTR5141\xc3\xbf" "00AB240CGN",
	 "TG26",
	 {{HF_TEMP_C, 41},
	  {HF_POWER_ON_HOURS, 15324},
	  {HF_POWER_CYCLES, 1890},
	  {HF_REALLOCATED, 24},
	  {HF_PENDING, 3},
	  {HF_UNCORRECTABLE, 1},
	  {HF_PCT_USED, 19},
	  {HF_DATA_WRITTEN_BYTES, 601234ll << 25},
	  {HF_DATA_READ_BYTES, 512000ll << 25},
	  {HF_TEMP_LIMIT_C, -1}}},
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

START_TEST(test_smartctl_fixture)
{
	const __typeof__(smartctl_cases[0]) *c = &smartctl_cases[_i];
	char path[4096], err[256] = "";
	struct health h;
	size_t len;
	char *text;

	snprintf(path, sizeof(path), FIX "/%s", c->file);
	text = slurp(path, &len);
	health_init(&h);
	ck_assert_msg(health_parse_smartctl(text, len, &h, err, sizeof(err)) == 0, "%s", err);
	free(text);
	ck_assert_int_eq(h.source, HEALTH_SRC_SMARTCTL);
	ck_assert_str_eq(h.model, c->model);
	ck_assert_str_eq(h.serial, c->serial);
	ck_assert_str_eq(h.firmware, c->firmware);
	ck_assert(h.smart_passed_known && h.smart_passed);
	for (int i = 0; i < 12 && (c->v[i].f || c->v[i].want); i++) {
		enum health_field f = c->v[i].f;
		if (c->v[i].want < 0) {
			ck_assert_msg(!health_has(&h, f), "%s: %s known", c->file, health_field_key[f]);
			continue;
		}
		ck_assert_msg(health_has(&h, f), "%s: %s unknown", c->file, health_field_key[f]);
		ck_assert_msg(h.v[f] == c->v[i].want, "%s: %s = %lld, want %lld", c->file,
			      health_field_key[f], (long long)h.v[f], (long long)c->v[i].want);
	}
}
END_TEST

START_TEST(test_smartctl_not_json)
{
	struct health h;
	char err[256];

	health_init(&h);
	ck_assert_int_eq(health_parse_smartctl("smartctl 6.6 2016-05-31", 23, &h, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "JSON"), "%s", err);
	/* smartctl's own complaint, when it found nothing */
	const char *msg = "{\"smartctl\": {\"messages\": [{\"string\": \"/dev/sdz: Unable to "
			  "detect device type\", \"severity\": \"error\"}], \"exit_status\": 1}}";
	health_init(&h);
	ck_assert_int_eq(health_parse_smartctl(msg, strlen(msg), &h, err, sizeof(err)), -EIO);
	ck_assert_str_eq(err, "smartctl: /dev/sdz: Unable to detect device type");
}
END_TEST

/* A SATA drive record read through a smartctl that is missing, slow, or talks too much. */
static void sata_drive(struct drive *d)
{
	drive_init(d);
	snprintf(d->name, sizeof(d->name), "sda");
	d->transport = DRIVE_TR_SATA;
}

static char tools[4096];

static void tools_setup(void)
{
	snprintf(tools, sizeof(tools), "/tmp/drivebench-tools-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tools));
	setenv("DRIVEBENCH_FAKE_TOOLS", tools, 1);
}

static void tools_teardown(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tools);
	if (system(cmd) != 0)
		fprintf(stderr, "NOTE: could not remove %s\n", tools);
}

static void put_file(const char *name, const char *text)
{
	char path[4300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tools, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* What the fake smartctl answers for sda: over-temperature minutes, temperature, LBAs written. */
static void sata_state(int overtemp_min, int temp_c, long long lbas)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"smartctl\": {\"version\": [7, 3]}, \"device\": {\"name\": \"/dev/sda\", "
		 "\"protocol\": \"ATA\"}, \"model_name\": \"SATA SSD\", \"ata_smart_attributes\": "
		 "{\"table\": [{\"id\": 241, \"name\": \"Total_LBAs_Written\", \"value\": 99, "
		 "\"raw\": {\"value\": %lld}}]}, \"ata_device_statistics\": {\"pages\": [{\"number\": "
		 "5, \"table\": [{\"name\": \"Time in Over-Temperature\", \"value\": %d}, {\"name\": "
		 "\"Specified Maximum Operating Temperature\", \"value\": 70}]}]}, \"temperature\": "
		 "{\"current\": %d}}\n",
		 lbas, overtemp_min, temp_c);
	put_file("sda.json", text);
}

/* How many times smartctl ran. */
static int smartctl_calls(void)
{
	char path[4300], line[256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/smartctl.log", tools);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* sda watched through the fake smartctl (min_ns between readings), in phase. */
static struct health_watch *sata_watch(uint64_t min_ns, const char *phase)
{
	static const struct health_opts o = {.smartctl = FIX "/bin/smartctl"};
	struct health_watch *w;
	struct drive d;

	sata_drive(&d);
	sata_state(12, 38, 1000000);
	w = health_watch_start(&d, &o, min_ns);
	ck_assert_ptr_nonnull(w);
	health_watch_phase_begin(w, phase);
	return w;
}

/*
 * A SATA drive watched through smartctl, read before and after every step (the least
 * time between readings, 1 ns, always passed): nothing runs smartctl while a step runs;
 * a step in which the drive's time in over-temperature grew is throttled, one in which it
 * reached its specified maximum is warned of, and each step gets what the host wrote.
 */
START_TEST(test_watch_smartctl)
{
	struct health_watch *w = sata_watch(1, "measure");
	struct step_drive sd;
	struct json_object *j, *arr, *v;
	char msg[320] = "", step[64] = "";
	int calls;


	/* over-temperature time +1 min, 2000 LBAs written, 45 C */
	calls = smartctl_calls();
	health_watch_step_begin(w);
	ck_assert_int_eq(smartctl_calls(), calls); /* the step starts from the last reading */
	sata_state(13, 45, 1002000);
	ck_assert(health_watch_step_end(w, "16T16Q", &sd, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "thermally throttled during 16T16Q");
	ck_assert_int_eq(smartctl_calls(), calls + 1);
	ck_assert(sd.has_written && sd.has_temp);
	ck_assert_uint_eq(sd.written_bytes, 2000ull * 512);
	ck_assert_int_eq(sd.temp_max_c, 45);

	/* 71 C, at or above the drive's 70 C, no counter moved */
	health_watch_step_begin(w);
	sata_state(13, 71, 1002000);
	ck_assert(health_watch_step_end(w, "32T32Q", &sd, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "reached 71 C during 32T32Q, at or above the drive's limit of 70 C");
	ck_assert_int_eq(sd.temp_max_c, 71);
	ck_assert_uint_eq(sd.written_bytes, 0);

	/* a calm step */
	health_watch_step_begin(w);
	sata_state(13, 50, 1002000);
	ck_assert(!health_watch_step_end(w, "1T1Q", &sd, msg, sizeof(msg)));
	ck_assert(!health_watch_phase_end(w, step, sizeof(step), msg, sizeof(msg)));
	health_watch_finish(w);
	j = health_watch_json(w);
	health_watch_free(w);
	ck_assert(json_object_object_get_ex(j, "warnings", &arr));
	ck_assert_int_eq(json_object_array_length(arr), 2);
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(arr, 1), "step", &v));
	ck_assert_str_eq(json_object_get_string(v), "32T32Q");
	ck_assert(json_object_object_get_ex(j, "temperature", &v));
	ck_assert(json_object_object_get_ex(v, "max_c", &v));
	ck_assert_int_eq(json_object_get_int(v), 71);
	json_object_put(j);
}
END_TEST

/*
 * Steps shorter than the least time between readings (an hour here) share them: no
 * reading after either step, and the phase's last snapshot gives the verdict on both,
 * for the last of them. smartctl ran only at the start, the phase's two ends and the end.
 */
START_TEST(test_watch_smartctl_shared)
{
	struct health_watch *w = sata_watch(3600000000000ull, "ladder");
	struct step_drive sd;
	struct json_object *j, *arr, *v;
	char msg[320] = "", step[64] = "";

	health_watch_step_begin(w);
	sata_state(14, 44, 1004000);
	ck_assert(!health_watch_step_end(w, "2T2Q", &sd, msg, sizeof(msg)));
	ck_assert(!sd.has_temp && !sd.has_written); /* no reading of its own after it */
	health_watch_step_begin(w);
	ck_assert(!health_watch_step_end(w, "4T4Q", &sd, msg, sizeof(msg)));
	ck_assert(health_watch_phase_end(w, step, sizeof(step), msg, sizeof(msg)));
	ck_assert_str_eq(step, "4T4Q");
	ck_assert_str_eq(msg, "thermally throttled between the start of 2T2Q and the end of 4T4Q");
	health_watch_finish(w);
	ck_assert_int_eq(smartctl_calls(), 4);
	j = health_watch_json(w);
	health_watch_free(w);
	ck_assert(json_object_object_get_ex(j, "warnings", &arr));
	ck_assert_int_eq(json_object_array_length(arr), 1);
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(arr, 0), "phase", &v));
	ck_assert_str_eq(json_object_get_string(v), "ladder");
	json_object_put(j);
}
END_TEST

/* Numbers past any counter's range saturate; "inf" and "nan" are no numbers. */
START_TEST(test_smartctl_huge_numbers)
{
	static const char json[] =
		"{\"smartctl\": {\"version\": [7, 3]}, \"device\": {\"protocol\": \"SCSI\"}, "
		"\"power_on_time\": {\"hours\": 1e300}, \"temperature\": {\"current\": \"nan\", "
		"\"drive_trip\": \"inf\"}, \"scsi_error_counter_log\": {\"write\": "
		"{\"gigabytes_processed\": \"1e12\"}, \"read\": {\"gigabytes_processed\": -1e300}}}";
	struct health h;
	char err[256] = "";

	health_init(&h);
	ck_assert_msg(health_parse_smartctl(json, sizeof(json) - 1, &h, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert(health_has(&h, HF_POWER_ON_HOURS));
	ck_assert_int_eq(h.v[HF_POWER_ON_HOURS], INT64_MAX);
	ck_assert_int_eq(h.v[HF_DATA_WRITTEN_BYTES], INT64_MAX); /* 1e12 GB is 1e21 bytes */
	ck_assert(!health_has(&h, HF_DATA_READ_BYTES)); /* no count is below 0 */
	ck_assert(!health_has(&h, HF_TEMP_C));
	ck_assert(!health_has(&h, HF_TEMP_LIMIT_C));
}
END_TEST

START_TEST(test_smartctl_missing)
{
	struct health_opts o = {.smartctl = "drivebench-no-such-smartctl"};
	struct health h;
	struct drive d;
	char err[256];

	sata_drive(&d);
	ck_assert_int_eq(health_read(&d, &o, &h, err, sizeof(err)), 0);
	ck_assert_str_eq(h.note, "health: smartctl not installed");
	ck_assert_int_eq(h.source, HEALTH_SRC_NONE);
}
END_TEST

START_TEST(test_smartctl_read)
{
	struct health_opts o = {.smartctl = FIX "/bin/smartctl"};
	char cmd[4300], err[256] = "";
	struct health h;
	struct drive d;

	snprintf(cmd, sizeof(cmd), "cp " FIX "/sata-ssd.json %s/sda.json", tools);
	ck_assert_int_eq(system(cmd), 0);
	sata_drive(&d);
	ck_assert_msg(health_read(&d, &o, &h, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(h.device, "/dev/sda");
	ck_assert_str_eq(h.model, "Samsung SSD 870 EVO 1TB");
	ck_assert_int_eq(h.v[HF_TEMP_C], 38);
}
END_TEST

START_TEST(test_smartctl_slow)
{
	struct health_opts o = {.smartctl = FIX "/bin/smartctl", .timeout_ms = 300};
	struct health h;
	struct drive d;
	char err[256];
	struct timespec t0, t1;

	put_file("sda.sh", "sleep 30\n");
	put_file("sda.json", "{}");
	sata_drive(&d);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(health_read(&d, &o, &h, err, sizeof(err)), -ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 5);
	ck_assert_msg(strstr(h.note, "did not finish"), "%s", h.note);
}
END_TEST

START_TEST(test_no_health_transport)
{
	static const enum drive_transport none[] = {DRIVE_TR_VIRTIO, DRIVE_TR_LOOP, DRIVE_TR_ZRAM,
						    DRIVE_TR_MD, DRIVE_TR_DM};
	struct health h;
	struct drive d;
	char err[256], want[128];

	drive_init(&d);
	snprintf(d.name, sizeof(d.name), "vdb");
	d.transport = none[_i];
	ck_assert_int_eq(health_read(&d, NULL, &h, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "no health data for this transport (%s)",
		 drive_transport_name(none[_i]));
	ck_assert_str_eq(h.note, want);
	ck_assert_uint_eq(h.known, 0);
}
END_TEST

/* ---- untrusted strings ---------------------------------------------------------------- */

static const struct {
	const char *in, *out;
} sanitize_cases[] = {
	{"  Samsung SSD  ", "Samsung SSD"},
	{"a\x1b[31mred", "a^[[31mred"},   /* text.h's visible form */
	{"tab\there", "tab^Ihere"},
	{"back\\slash", "back\\slash"},
	{"caf\xc3\xa9", "caf\xc3\xa9"},      /* valid UTF-8 stays */
	{"bad\xff\xfe", "bad" FFFD FFFD},     /* not UTF-8 */
	{"over\xc0\xaf", "over" FFFD FFFD},   /* overlong '/' */
	{"c1\xc2\x9b", "c1" FFFD},           /* C1 CSI */
	{"sur\xed\xa0\x80", "sur" FFFD FFFD FFFD}, /* a surrogate */
	{"del\x7f", "del^?"},
};

START_TEST(test_sanitize)
{
	char out[HEALTH_STR];

	health_sanitize(out, sizeof(out), sanitize_cases[_i].in, strlen(sanitize_cases[_i].in));
	ck_assert_str_eq(out, sanitize_cases[_i].out);
}
END_TEST

START_TEST(test_sanitize_bounded)
{
	char in[200], out[16];

	memset(in, 0x1b, sizeof(in));
	health_sanitize(out, sizeof(out), in, sizeof(in));
	ck_assert_uint_eq(strlen(out), 14); /* whole escapes only */
	ck_assert_str_eq(out, "^[^[^[^[^[^[^[");
}
END_TEST

static Suite *health_suite(void)
{
	Suite *s = suite_create("health");
	TCase *tc = tcase_create("nvme");

	tcase_add_checked_fixture(tc, nvme_setup, nvme_teardown);
	tcase_add_loop_test(tc, test_nvme_smart_fields, 0,
			    (int)(sizeof(smart_cases) / sizeof(smart_cases[0])));
	tcase_add_test(tc, test_nvme_unimplemented_sensors);
	tcase_add_test(tc, test_nvme_identify);
	tcase_add_test(tc, test_nvme_nsid_from_fd);
	tcase_add_loop_test(tc, test_nvme_throttle, 0, 2);
	tcase_add_test(tc, test_nvme_identify_fails);
	tcase_add_test(tc, test_nvme_hostile_strings);
	tcase_add_test(tc, test_cli_json);
	tcase_add_loop_test(tc, test_watch, 0, 2);
	tcase_add_test(tc, test_watch_limit);
	tcase_add_test(tc, test_watch_crit_temp);
	tcase_add_test(tc, test_watch_no_data);
	suite_add_tcase(s, tc);

	tc = tcase_create("smartctl");
	tcase_add_checked_fixture(tc, tools_setup, tools_teardown);
	tcase_add_loop_test(tc, test_smartctl_fixture, 0,
			    (int)(sizeof(smartctl_cases) / sizeof(smartctl_cases[0])));
	tcase_add_test(tc, test_smartctl_not_json);
	tcase_add_test(tc, test_smartctl_huge_numbers);
	tcase_add_test(tc, test_smartctl_missing);
	tcase_add_test(tc, test_smartctl_read);
	tcase_add_test(tc, test_smartctl_slow);
	tcase_add_test(tc, test_watch_smartctl);
	tcase_add_test(tc, test_watch_smartctl_shared);
	tcase_add_loop_test(tc, test_no_health_transport, 0, 5);
	suite_add_tcase(s, tc);

	tc = tcase_create("strings");
	tcase_add_loop_test(tc, test_sanitize, 0,
			    (int)(sizeof(sanitize_cases) / sizeof(sanitize_cases[0])));
	tcase_add_test(tc, test_sanitize_bounded);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	fake_nvme_reexec(argc, argv);
	return test_run_suite(health_suite());
}
