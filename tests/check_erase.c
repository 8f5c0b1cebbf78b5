// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Secure erase: NVMe Format NVM and Sanitize through libnvme against a fake controller
 * under umockdev (the command dwords checked against the specification's layout), the
 * choice of auto and secure-erase from identify data, sanitize progress, a format that
 * fails with a status, a sanitize the operator stops, the guard that refuses an erase of
 * every namespace while another namespace is mounted, and ATA security erase through
 * fake smartctl and hdparm, refused on a frozen drive.
 */
#include "fake_nvme.h"

#include <sys/sysmacros.h>

#include "purge.h"
#include "safety.h"
#include "target.h"

#define FIX DB_SRCDIR "/tests/fixtures"

static struct fake_nvme fake;
static struct target t;
static char tools[4096];

static void nvme_setup(void)
{
	fake_nvme_default(&fake);
	fake_nvme_attach(&fake, NULL);
	memset(&t, 0, sizeof(t));
	t.fd = open("/dev/nvme0n1", O_RDONLY);
	ck_assert_int_ge(t.fd, 0);
	snprintf(t.path, sizeof(t.path), "/dev/nvme0n1");
	snprintf(t.resolved, sizeof(t.resolved), "/dev/nvme0n1");
	t.is_blockdev = t.writable = true;
	t.rdev = makedev(259, 0);
	t.size = 3907029168ull * 4096;
	t.lbs = t.pbs = 4096;
}

static void nvme_teardown(void)
{
	close(t.fd);
	fake_nvme_detach(&fake);
}

/* ---- Format NVM ------------------------------------------------------------------- */

static const struct {
	uint8_t fna;
	uint32_t cdw10;   /* LBAF 3:0 = 1 (in use), MSET 4, PI 7:5, PIL 8, SES 11:9 */
	const char *detail;
	bool all;
} format_cases[] = {
	{0x04, 0x1 | 2 << 9, "crypto erase", false},
	{0x00, 0x1 | 1 << 9, "user data erase", false},
	{0x01, 0x1 | 1 << 9, "user data erase, all namespaces", true},
	{0x06, 0x1 | 2 << 9, "crypto erase, all namespaces", true},
};

START_TEST(test_format)
{
	const struct purge_opts o = {.scope = PURGE_SCOPE_SUBSYSTEM};
	struct purge_outcome out;
	char err[512] = "";
	bool all;

	fake.id_ctrl[IDC_FNA] = format_cases[_i].fna;
	ck_assert_msg(purge_resolve(&t, PURGE_NVME_FORMAT, &o, &out, &all, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(all, format_cases[_i].all);
	ck_assert_msg(purge_run(&t, PURGE_NVME_FORMAT, 0, 0, &o, &out, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(fake.formats, 1);
	ck_assert_uint_eq(fake.format_nsid, 1);
	ck_assert_uint_eq(fake.format_cdw10, format_cases[_i].cdw10);
	ck_assert_int_eq(out.used, PURGE_NVME_FORMAT);
	ck_assert_str_eq(out.detail, format_cases[_i].detail);
	ck_assert_uint_eq(fake.sanitizes, 0);
}
END_TEST

/* Metadata and protection settings in use are kept by the format. */
START_TEST(test_format_keeps_settings)
{
	char err[512] = "";

	fake.id_ns[IDN_FLBAS] = 0x10 | 0; /* format 0, extended metadata */
	fake.id_ns[IDN_DPS] = 0x08 | 1;   /* PI type 1, first */
	ck_assert_msg(purge_run(&t, PURGE_NVME_FORMAT, 0, 0, NULL, NULL, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(fake.format_cdw10, 0 | 1 << 4 | 1 << 5 | 1 << 8 | 2 << 9);
}
END_TEST

START_TEST(test_format_fails)
{
	char err[512] = "";

	fake.format_status = NVME_SC_DNR | (NVME_SCT_CMD_SPECIFIC << NVME_SCT_SHIFT) |
			     NVME_SC_INVALID_FORMAT;
	ck_assert_int_eq(purge_run(&t, PURGE_NVME_FORMAT, 0, 0, NULL, NULL, err, sizeof(err)),
			 -EIO);
	ck_assert_msg(strstr(err, "nvme-format failed: NVMe status 0x410a"), "%s", err);
	ck_assert_msg(strstr(err, "/dev/nvme0n1"), "%s", err);
}
END_TEST

START_TEST(test_format_unsupported)
{
	char err[512] = "";

	put16(fake.id_ctrl, IDC_OACS, 0);
	ck_assert_int_eq(purge_run(&t, PURGE_NVME_FORMAT, 0, 0, NULL, NULL, err, sizeof(err)),
			 -ENOTSUP);
	ck_assert_msg(strstr(err, "does not support Format NVM"), "%s", err);
	ck_assert_uint_eq(fake.formats, 0);
}
END_TEST

/* ---- Sanitize ----------------------------------------------------------------------- */

struct progress_log {
	double pct[16];
	unsigned n;
	atomic_int *stop;
	unsigned stop_after;
};

static void on_progress(void *arg, double pct, const char *what)
{
	struct progress_log *l = arg;

	(void)what;
	if (l->n < 16)
		l->pct[l->n++] = pct;
	if (l->stop && l->n >= l->stop_after)
		atomic_store(l->stop, 1);
}

static const struct {
	uint32_t sanicap;
	uint32_t cdw10;   /* SANACT 2:0, AUSE 3, OWPASS 7:4 */
	const char *detail;
} sanitize_cases[] = {
	{0x3, 2 | 1 << 4, "block erase, all namespaces"},
	{0x1, 4 | 1 << 4, "crypto erase, all namespaces"},
	{0x4, 3 | 1 << 4, "overwrite, all namespaces"},
	{0x7, 2 | 1 << 4, "block erase, all namespaces"},
};

START_TEST(test_sanitize)
{
	struct progress_log log = {0};
	struct purge_opts o = {.progress = on_progress,
			       .arg = &log,
			       .poll_ns = 1000000,
			       .scope = PURGE_SCOPE_SUBSYSTEM};
	struct purge_outcome out;
	char err[512] = "";

	put32(fake.id_ctrl, IDC_SANICAP, sanitize_cases[_i].sanicap);
	ck_assert_msg(purge_run(&t, PURGE_NVME_SANITIZE, 0, 0, &o, &out, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(fake.sanitizes, 1);
	ck_assert_uint_eq(fake.sanitize_cdw10 & 0xff, sanitize_cases[_i].cdw10);
	ck_assert_str_eq(out.detail, sanitize_cases[_i].detail);
	/* progress from the sanitize status log: 1/3, 2/3, then done */
	ck_assert_uint_eq(log.n, 3);
	ck_assert(log.pct[0] > 33 && log.pct[0] < 34);
	ck_assert(log.pct[1] > 66 && log.pct[1] < 67);
	ck_assert(log.pct[2] == 100);
	ck_assert_uint_eq(fake.formats, 0);
}
END_TEST

START_TEST(test_sanitize_fails)
{
	char err[512] = "";
	struct purge_opts o = {.poll_ns = 1000000, .scope = PURGE_SCOPE_SUBSYSTEM};

	fake.sanitize_fails = true;
	ck_assert_int_eq(purge_run(&t, PURGE_NVME_SANITIZE, 0, 0, &o, NULL, err, sizeof(err)), -EIO);
	ck_assert_msg(strstr(err, "nvme-sanitize failed"), "%s", err);
}
END_TEST

/* The operator stops waiting: the purge is not complete, and the message says the drive
 * goes on. */
START_TEST(test_sanitize_stopped)
{
	atomic_int stop = 0;
	struct progress_log log = {.stop = &stop, .stop_after = 1};
	struct purge_opts o = {.stop = &stop, .progress = on_progress, .arg = &log,
			       .poll_ns = 1000000, .scope = PURGE_SCOPE_SUBSYSTEM};
	char err[512] = "";

	fake.sanitize_polls_to_finish = 100;
	ck_assert_int_eq(purge_run(&t, PURGE_NVME_SANITIZE, 0, 0, &o, NULL, err, sizeof(err)),
			 -ECANCELED);
	ck_assert_msg(strstr(err, "goes on sanitizing") && strstr(err, "not complete"), "%s", err);
	ck_assert_uint_lt(fake.sanitize_polls, 100);
}
END_TEST

/* ---- auto and secure-erase choose from identify data -------------------------------- */

static const struct {
	enum purge_method m;
	uint32_t sanicap;
	uint16_t oacs;
	int ret;
	enum purge_method used;
	bool fallback;
} choose_cases[] = {
	{PURGE_AUTO, 0x3, 0x2, 0, PURGE_NVME_SANITIZE, false},
	{PURGE_AUTO, 0x0, 0x2, 0, PURGE_NVME_FORMAT, false},
	{PURGE_AUTO, 0x0, 0x0, 0, PURGE_DISCARD, true},
	{PURGE_SECURE_ERASE, 0x1, 0x0, 0, PURGE_NVME_SANITIZE, false},
	{PURGE_SECURE_ERASE, 0x0, 0x2, 0, PURGE_NVME_FORMAT, false},
	{PURGE_SECURE_ERASE, 0x0, 0x0, -ENOTSUP, PURGE_NONE, false},
	{PURGE_NVME_SANITIZE, 0x0, 0x2, -ENOTSUP, PURGE_NONE, false},
	{PURGE_ATA_ERASE, 0x3, 0x2, -ENOTSUP, PURGE_NONE, false},
};

START_TEST(test_choose)
{
	const __typeof__(choose_cases[0]) *c = &choose_cases[_i];
	const struct purge_opts o = {.scope = PURGE_SCOPE_SUBSYSTEM};
	struct purge_outcome out;
	char err[512] = "";
	bool all;

	put32(fake.id_ctrl, IDC_SANICAP, c->sanicap);
	put16(fake.id_ctrl, IDC_OACS, c->oacs);
	ck_assert_int_eq(purge_resolve(&t, c->m, &o, &out, &all, err, sizeof(err)), c->ret);
	if (c->ret)
		return;
	ck_assert_int_eq(out.used, c->used);
	ck_assert_int_eq(out.fallback[0] != '\0', c->fallback);
	if (c->fallback)
		ck_assert_msg(strstr(out.fallback, "neither sanitize nor format") &&
				      strstr(out.fallback, "discarded instead"),
			      "%s", out.fallback);
	ck_assert_int_eq(all, c->used == PURGE_NVME_SANITIZE);
}
END_TEST

/* ---- the guard: every namespace of the controller ----------------------------------- */

static char proc[4096];

static void write_proc(const char *mounts)
{
	char path[4200];
	FILE *f;

	snprintf(proc, sizeof(proc), "/tmp/drivebench-proc-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(proc));
	snprintf(path, sizeof(path), "%s/self", proc);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/self/mountinfo", proc);
	f = fopen(path, "w");
	fprintf(f, "22 1 0:21 / /proc rw - proc proc rw\n%s", mounts);
	fclose(f);
	snprintf(path, sizeof(path), "%s/swaps", proc);
	f = fopen(path, "w");
	fprintf(f, "Filename\tType\tSize\tUsed\tPriority\n");
	fclose(f);
}

static void rm_proc(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", proc);
	if (system(cmd) != 0)
		fprintf(stderr, "NOTE: could not remove %s\n", proc);
}

/*
 * An erase's scope against what the confirmation covers: without the controller confirmed,
 * an erase of every namespace is refused when asked for by name (and no admin command is
 * sent), and auto picks a format of this namespace alone or falls back to discard.
 */
static const struct {
	enum purge_method m;
	uint32_t sanicap;
	uint16_t oacs;
	uint8_t fna;
	int ret;
	enum purge_method used;
	const char *fallback; /* words in the fallback, or NULL for none */
} scope_cases[] = {
	{PURGE_NVME_SANITIZE, 0x3, 0x2, 0x0, -EPERM, PURGE_NONE, NULL},
	{PURGE_NVME_FORMAT, 0x0, 0x2, 0x1, -EPERM, PURGE_NONE, NULL},
	{PURGE_SECURE_ERASE, 0x1, 0x0, 0x0, -EPERM, PURGE_NONE, NULL},
	{PURGE_SECURE_ERASE, 0x1, 0x2, 0x0, 0, PURGE_NVME_FORMAT, NULL},
	{PURGE_AUTO, 0x3, 0x2, 0x0, 0, PURGE_NVME_FORMAT, NULL},
	{PURGE_AUTO, 0x3, 0x2, 0x1, 0, PURGE_DISCARD, "every namespace of the NVM subsystem"},
	{PURGE_AUTO, 0x3, 0x0, 0x0, 0, PURGE_DISCARD, "every namespace of the NVM subsystem"},
	{PURGE_NVME_FORMAT, 0x0, 0x2, 0x0, 0, PURGE_NVME_FORMAT, NULL},
};

START_TEST(test_scope)
{
	const __typeof__(scope_cases[0]) *c = &scope_cases[_i];
	const struct purge_opts o = {.scope = PURGE_SCOPE_DEVICE};
	struct purge_outcome out;
	char err[512] = "";
	bool all;

	put32(fake.id_ctrl, IDC_SANICAP, c->sanicap);
	put16(fake.id_ctrl, IDC_OACS, c->oacs);
	fake.id_ctrl[IDC_FNA] = c->fna;
	ck_assert_int_eq(purge_resolve(&t, c->m, &o, &out, &all, err, sizeof(err)), c->ret);
	if (c->ret) {
		ck_assert_msg(strstr(err, "refusing to") && strstr(err, "every namespace") &&
				      strstr(err, "--yes-destroy=/dev/nvmeN"),
			      "%s", err);
		ck_assert_int_eq(purge_run(&t, c->m, 0, 0, &o, &out, err, sizeof(err)), c->ret);
		ck_assert_uint_eq(fake.formats + fake.sanitizes, 0);
		return;
	}
	ck_assert_int_eq(out.used, c->used);
	ck_assert_int_eq(all, false);
	if (c->fallback)
		ck_assert_msg(strstr(out.fallback, c->fallback) &&
				      strstr(out.fallback, "discarded instead"),
			      "%s", out.fallback);
	else
		ck_assert_str_eq(out.fallback, "");
	if (c->used == PURGE_NVME_FORMAT) {
		ck_assert_int_eq(purge_run(&t, c->m, 0, 0, &o, &out, err, sizeof(err)), 0);
		ck_assert_uint_eq(fake.formats, 1);
		ck_assert_uint_eq(fake.sanitizes, 0);
	}
}
END_TEST

/* A partition of a namespace: every secure erase is wider, whatever is confirmed. */
static const char partition_devices_extra[] =
	"P: /devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1/nvme0n1p1\n"
	"N: nvme0n1p1\nE: DEVNAME=/dev/nvme0n1p1\nE: DEVTYPE=partition\nE: MAJOR=259\n"
	"E: MINOR=2\nE: SUBSYSTEM=block\nA: dev=259:2\nA: partition=1\nA: start=2048\n"
	"A: size=1000000\n\n";

static const enum purge_method partition_cases[] = {
	PURGE_NVME_FORMAT, PURGE_NVME_SANITIZE, PURGE_SECURE_ERASE, PURGE_AUTO,
};

START_TEST(test_partition)
{
	const struct purge_opts o = {.scope = PURGE_SCOPE_SUBSYSTEM};
	enum purge_method m = partition_cases[_i];
	struct purge_outcome out;
	GError *error = NULL;
	char err[512] = "";
	int ret;

	ck_assert_msg(umockdev_testbed_add_from_string(fake.tb, partition_devices_extra, &error),
		      "%s", error ? error->message : "");
	t.rdev = makedev(259, 2);
	snprintf(t.path, sizeof(t.path), "/dev/nvme0n1p1");
	ret = purge_resolve(&t, m, &o, &out, NULL, err, sizeof(err));
	if (m == PURGE_AUTO) {
		ck_assert_int_eq(ret, 0);
		ck_assert_int_eq(out.used, PURGE_DISCARD);
		ck_assert_msg(strstr(out.fallback, "whole disk nvme0n1, not only the partition") &&
				      strstr(out.fallback, "discarded instead"),
			      "%s", out.fallback);
		return;
	}
	ck_assert_int_eq(ret, -EPERM);
	ck_assert_msg(strstr(err, "refusing to") &&
			      strstr(err, "/dev/nvme0n1p1: a secure erase erases the whole disk "
					  "nvme0n1"),
		      "%s", err);
	ck_assert_int_eq(purge_run(&t, m, 0, 0, &o, &out, err, sizeof(err)), -EPERM);
	ck_assert_uint_eq(fake.formats + fake.sanitizes, 0);
}
END_TEST

static const struct {
	const char *mounts;
	int ret;
} guard_cases[] = {
	{"", 0},
	{"40 22 259:1 / /mnt/data rw,relatime - ext4 /dev/nvme0n2 rw\n", -EPERM},
	{"41 22 259:0 / /mnt/self rw,relatime - ext4 /dev/nvme0n1 rw\n", -EPERM},
	{"42 22 8:1 / /mnt/other rw,relatime - ext4 /dev/sda1 rw\n", 0},
};

START_TEST(test_guard_namespaces)
{
	gchar *sys = umockdev_testbed_get_sys_dir(fake.tb);
	struct inuse_roots roots = {.proc = proc, .sys = sys};
	char err[512] = "";
	int ret;

	write_proc(guard_cases[_i].mounts);
	ret = safety_check_namespaces(&t, "nvme-sanitize", &roots, err, sizeof(err));
	rm_proc();
	g_free(sys);
	ck_assert_msg(ret == guard_cases[_i].ret, "%d: %s", ret, err);
	if (_i == 1)
		ck_assert_str_eq(err, "refusing to nvme-sanitize /dev/nvme0n1: it erases every "
				      "namespace of the controller, and nvme0n2 is in use (mounted: "
				      "nvme0n2 on /mnt/data)");
}
END_TEST

/* ---- a file target: auto discards, secure-erase is refused -------------------------- */

START_TEST(test_file_target)
{
	char *path = test_tmpfile(NULL, 1 << 20), err[512] = "";
	struct target ft;
	struct purge_outcome out;

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(target_open(&ft, path, true, err, sizeof(err)), 0);
	ck_assert_int_eq(purge_run(&ft, PURGE_SECURE_ERASE, 0, 0, NULL, &out, err, sizeof(err)),
			 -ENOTSUP);
	ck_assert_msg(strstr(err, "no secure erase for this kind of target"), "%s", err);
	ck_assert_msg(purge_run(&ft, PURGE_AUTO, 0, 0, NULL, &out, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(out.used, PURGE_DISCARD);
	ck_assert_msg(strstr(out.fallback, "discarded instead"), "%s", out.fallback);
	target_close(&ft);
	unlink(path);
	free(path);
}
END_TEST

/* ---- ATA security erase through smartctl and hdparm --------------------------------- */

static UMockdevTestbed *sata_tb;

static void sata_setup(void)
{
	GError *error = NULL;

	sata_tb = umockdev_testbed_new();
	ck_assert(umockdev_testbed_add_from_file(sata_tb, FIX "/drive/sata.umockdev", &error));
	snprintf(tools, sizeof(tools), "/tmp/drivebench-tools-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tools));
	setenv("DRIVEBENCH_FAKE_TOOLS", tools, 1);
	memset(&t, 0, sizeof(t));
	t.fd = -1;
	snprintf(t.path, sizeof(t.path), "/dev/sda");
	snprintf(t.resolved, sizeof(t.resolved), "/dev/sda");
	t.is_blockdev = t.writable = true;
	t.rdev = makedev(8, 0);
	t.size = 1000204886016ull;
}

static void sata_teardown(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tools);
	if (system(cmd) != 0)
		fprintf(stderr, "NOTE: could not remove %s\n", tools);
	g_object_unref(sata_tb);
}

static void security_state(unsigned state, const char *hdparm_rc)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sda-security.json", tools);
	f = fopen(path, "w");
	fprintf(f, "{\"json_format_version\": [1, 0], \"smartctl\": {\"version\": [7, 3], "
		   "\"exit_status\": 0}, \"device\": {\"name\": \"/dev/sda\", \"protocol\": \"ATA\"},"
		   " \"ata_security\": {\"state\": %u, \"string\": \"x\", \"enabled\": false, "
		   "\"frozen\": %s, \"master_password_id\": 65534}}\n",
		state, state & 8 ? "true" : "false");
	fclose(f);
	snprintf(path, sizeof(path), "%s/hdparm.rc", tools);
	f = fopen(path, "w");
	fprintf(f, "%s\n", hdparm_rc);
	fclose(f);
}

static char *read_log(const char *name)
{
	static char buf[4096];
	char path[4200];
	FILE *f;
	size_t n = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", tools, name);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static const struct purge_opts ata_opts = {.smartctl = FIX "/health/bin/smartctl",
					   .hdparm = FIX "/health/bin/hdparm"};

START_TEST(test_ata_frozen)
{
	char err[512] = "";

	security_state(0x1 | 0x8 | 0x20, "0"); /* supported, frozen */
	ck_assert_int_eq(purge_run(&t, PURGE_ATA_ERASE, 0, 0, &ata_opts, NULL, err, sizeof(err)),
			 -ENOTSUP);
	ck_assert_msg(strstr(err, "/dev/sda is frozen") && strstr(err, "suspend") &&
			      strstr(err, "hot-plug"),
		      "%s", err);
	ck_assert_str_eq(read_log("hdparm.log"), "");
}
END_TEST

START_TEST(test_ata_erase)
{
	struct purge_outcome out;
	char err[512] = "";

	security_state(0x1 | 0x20, "0"); /* supported, enhanced, not frozen, no password */
	ck_assert_msg(purge_run(&t, PURGE_ATA_ERASE, 0, 0, &ata_opts, &out, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_str_eq(read_log("hdparm.log"),
			 "hdparm --user-master u --security-set-pass drivebench /dev/sda\n"
			 "hdparm --user-master u --security-erase-enhanced drivebench /dev/sda\n");
	ck_assert_str_eq(out.detail, "enhanced security erase");
}
END_TEST

/* A partition of the SATA disk: the erase is the whole disk's, so it is refused (named in
 * words) before smartctl or hdparm is asked anything; auto discards the partition. */
START_TEST(test_ata_partition)
{
	struct purge_outcome out;
	char err[512] = "";

	security_state(0x1 | 0x20, "0");
	t.rdev = makedev(8, 1);
	snprintf(t.path, sizeof(t.path), "/dev/sda1");
	ck_assert_int_eq(purge_run(&t, PURGE_ATA_ERASE, 0, 0, &ata_opts, &out, err, sizeof(err)),
			 -EPERM);
	ck_assert_msg(strstr(err, "refusing to ata-secure-erase /dev/sda1: a secure erase erases "
				  "the whole disk sda"),
		      "%s", err);
	ck_assert_str_eq(read_log("hdparm.log"), "");
	ck_assert_int_eq(purge_resolve(&t, PURGE_AUTO, &ata_opts, &out, NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(out.used, PURGE_DISCARD);
	ck_assert_msg(strstr(out.fallback, "whole disk sda"), "%s", out.fallback);
}
END_TEST

START_TEST(test_ata_erase_fails)
{
	char err[512] = "";

	security_state(0x1, "5");
	ck_assert_int_eq(purge_run(&t, PURGE_ATA_ERASE, 0, 0, &ata_opts, NULL, err, sizeof(err)),
			 -EIO);
	ck_assert_msg(strstr(err, "--security-disable drivebench /dev/sda") ||
			      strstr(err, "--security-set-pass"),
		      "%s", err);
}
END_TEST

START_TEST(test_ata_password_set)
{
	char err[512] = "";

	security_state(0x1 | 0x2, "0"); /* enabled: someone set a password */
	ck_assert_int_eq(purge_run(&t, PURGE_ATA_ERASE, 0, 0, &ata_opts, NULL, err, sizeof(err)),
			 -ENOTSUP);
	ck_assert_msg(strstr(err, "password set"), "%s", err);
	/* auto does not guess either: it discards, saying why (the discard itself is the
	 * fake device's to refuse) */
	struct purge_outcome out;
	ck_assert_int_eq(purge_resolve(&t, PURGE_AUTO, &ata_opts, &out, NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(out.used, PURGE_DISCARD);
	ck_assert_msg(strstr(out.fallback, "password set"), "%s", out.fallback);
}
END_TEST

static Suite *erase_suite(void)
{
	Suite *s = suite_create("erase");
	TCase *tc = tcase_create("nvme");

	tcase_add_checked_fixture(tc, nvme_setup, nvme_teardown);
	tcase_add_loop_test(tc, test_format, 0,
			    (int)(sizeof(format_cases) / sizeof(format_cases[0])));
	tcase_add_test(tc, test_format_keeps_settings);
	tcase_add_test(tc, test_format_fails);
	tcase_add_test(tc, test_format_unsupported);
	tcase_add_loop_test(tc, test_sanitize, 0,
			    (int)(sizeof(sanitize_cases) / sizeof(sanitize_cases[0])));
	tcase_add_test(tc, test_sanitize_fails);
	tcase_add_test(tc, test_sanitize_stopped);
	tcase_add_loop_test(tc, test_choose, 0,
			    (int)(sizeof(choose_cases) / sizeof(choose_cases[0])));
	tcase_add_loop_test(tc, test_scope, 0, (int)(sizeof(scope_cases) / sizeof(scope_cases[0])));
	tcase_add_loop_test(tc, test_partition, 0,
			    (int)(sizeof(partition_cases) / sizeof(partition_cases[0])));
	tcase_add_loop_test(tc, test_guard_namespaces, 0,
			    (int)(sizeof(guard_cases) / sizeof(guard_cases[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("file");
	tcase_add_test(tc, test_file_target);
	suite_add_tcase(s, tc);

	tc = tcase_create("ata");
	tcase_add_checked_fixture(tc, sata_setup, sata_teardown);
	tcase_add_test(tc, test_ata_frozen);
	tcase_add_test(tc, test_ata_erase);
	tcase_add_test(tc, test_ata_erase_fails);
	tcase_add_test(tc, test_ata_partition);
	tcase_add_test(tc, test_ata_password_set);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	fake_nvme_reexec(argc, argv);
	return test_run_suite(erase_suite());
}
