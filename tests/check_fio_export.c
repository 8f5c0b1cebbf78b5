// SPDX-License-Identifier: GPL-2.0-or-later
/* fio export: every built-in preset exports to a job file that fio --parse-only accepts. */
#include "testlib.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio_export.h"
#include "preset.h"

static char files[64][4096];
static int nfiles;
static bool have_fio;

static unsigned count(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

START_TEST(test_export)
{
	char err[1024], path[64], cmd[256];
	struct plan *p = preset_parse_file(files[_i], 1.0, err, sizeof(err));
	unsigned steps = 0, jobs = 0;
	char *text;
	FILE *f;
	int fd;

	ck_assert_msg(p != NULL, "%s", err);
	text = fio_export(p);
	ck_assert_ptr_nonnull(text);
	for (unsigned i = 0; i < p->nphases; i++) {
		if (p->phases[i].kind == PH_PURGE)
			continue;
		steps += p->phases[i].nsteps;
		for (unsigned s = 0; s < p->phases[i].nsteps; s++)
			jobs += p->phases[i].steps[s].nstreams ? p->phases[i].steps[s].nstreams : 1;
	}
	/* one job per step (a steady phase: one round), each behind a stonewall; a step of
	 * several streams is a job per stream, the first behind the stonewall */
	ck_assert_uint_eq(count(text, "\n["), jobs + 1);
	ck_assert_uint_eq(count(text, "\nstonewall\n"), steps);
	ck_assert_ptr_nonnull(strstr(text, "[global]\nioengine=io_uring\ndirect=1\n"));
	for (unsigned i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];
		if (ph->until == UNTIL_STEADY && ph->nsteps == 1) {
			char want[64];
			snprintf(want, sizeof(want), "\nsteadystate=%s:%g%%\n",
				 strstr(ph->track, "mbps") ? "bw" : "iops", ph->steady.data_limit_pct);
			ck_assert_msg(strstr(text, want), "%s: no %s", files[_i], want + 1);
			ck_assert_ptr_nonnull(strstr(text, "\nsteadystate_duration="));
			ck_assert_ptr_nonnull(strstr(text, "\nsteadystate_ramp_time="));
		} else if (ph->until == UNTIL_STEADY) {
			ck_assert_ptr_nonnull(strstr(text, "ends one job, not a round"));
		}
		if (p->phases[i].kind == PH_PURGE && p->phases[i].purge != PURGE_NONE)
			ck_assert_ptr_nonnull(strstr(text, "fio has no purge"));
	}
	if (!have_fio)
		goto out;
	strcpy(path, "/tmp/check_fio_export.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "DRIVEBENCH_TARGET=/dev/null fio --parse-only %s >/dev/null 2>&1", path);
	int rc = system(cmd);
	unlink(path);
	ck_assert_msg(rc == 0, "fio --parse-only refuses the export of %s", files[_i]);
out:
	free(text);
	plan_free(p);
}
END_TEST

/* Rates: a cap is split over the jobs; a percentage becomes a comment. */
START_TEST(test_rates)
{
	char err[512];
	struct plan *p = preset_parse("[preset]\nname = r\n[measure]\nthreads = 3\n"
				      "rate = max 1000 50%\nread = 70\ndata = zero\n",
				      "r", 1.0, err, sizeof(err));
	char *text;

	ck_assert_msg(p != NULL, "%s", err);
	text = fio_export(p);
	ck_assert_ptr_nonnull(strstr(text, "rate_iops=334\n"));
	ck_assert_ptr_nonnull(strstr(text, "; rate: 50% of the IOPS of the last uncapped job"));
	ck_assert_ptr_nonnull(strstr(text, "rw=randrw\nrwmixread=70\n"));
	ck_assert_ptr_nonnull(strstr(text, "zero_buffers=1\n"));
	ck_assert_uint_eq(count(text, "\nstonewall\n"), 3);
	free(text);
	plan_free(p);
}
END_TEST

/* A step of streams: a job each, one group (one stonewall), the rate split by shares. */
START_TEST(test_streams)
{
	char err[512];
	struct plan *p = preset_parse_file(DB_SRCDIR "/tests/fixtures/presets/good/streams.preset",
					   1.0, err, sizeof(err));
	char *text, *data, *log;

	ck_assert_msg(p != NULL, "%s", err);
	text = fio_export(p);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(count(text, "\nstonewall\n"), 2);
	data = strstr(text, "[001-measure-1T32Q-data]\nstonewall\n");
	log = strstr(text, "[001-measure-1T32Q-log]\nrw=write\n");
	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(log);
	/* 1000 IOPS: data 80% over its 1 thread, log the other 20% */
	ck_assert_ptr_nonnull(strstr(data, "random_distribution=zoned:90/10:10/90\n"));
	ck_assert_ptr_nonnull(strstr(data, "rate_iops=800\n"));
	ck_assert(strstr(data, "rate_iops=800\n") < log);
	ck_assert_ptr_nonnull(strstr(log, "bs=64k\nnumjobs=1\niodepth=1\nsize=2%\n"));
	ck_assert_ptr_nonnull(strstr(log, "rate_iops=200\n"));
	/* the second step: 2 data threads share 800 */
	ck_assert_ptr_nonnull(strstr(text, "[002-measure-2T32Q-data]\nstonewall\n"));
	ck_assert_ptr_nonnull(strstr(strstr(text, "[002-measure-2T32Q-data]"), "rate_iops=400\n"));
	free(text);
	plan_free(p);
}
END_TEST

/* A path as fio's filename= takes it: each ':' escaped, fio's separator of files. */
static const struct {
	const char *path, *want;
	int ret;
	size_t len; /* of the buffer; 0: 64 bytes */
} filenames[] = {
	{"/dev/nvme0n1", "/dev/nvme0n1", 0},
	{"/dev/disk/by-path/pci-0000:00:1f.2-ata-1", "/dev/disk/by-path/pci-0000\\:00\\:1f.2-ata-1", 0},
	{":", "\\:", 0},
	{"a:b:", "a\\:b\\:", 0},
	{"0123456789:", NULL, -ENAMETOOLONG, 12}, /* 12 bytes do not hold it and its NUL */
	{"0123456789:", "0123456789\\:", 0, 13},
	{"0123456789", "0123456789", 0, 11},
};

START_TEST(test_filename)
{
	char buf[64];
	size_t len = filenames[_i].len ? filenames[_i].len : sizeof(buf);

	ck_assert_int_eq(fio_export_filename(buf, len, filenames[_i].path), filenames[_i].ret);
	if (filenames[_i].want)
		ck_assert_str_eq(buf, filenames[_i].want);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fio_export");
	TCase *tc = tcase_create("core");
	DIR *d = opendir(DB_SRCDIR "/presets");
	struct dirent *e;

	while (d && (e = readdir(d)) && nfiles < 64) {
		size_t l = strlen(e->d_name);
		if (l > 7 && !strcmp(e->d_name + l - 7, ".preset"))
			snprintf(files[nfiles++], 4096, DB_SRCDIR "/presets/%s", e->d_name);
	}
	if (d)
		closedir(d);
	have_fio = system("fio --version >/dev/null 2>&1") == 0;
	if (!have_fio)
		printf("SKIP: check_fio_export: fio is not installed; job files are checked "
		       "without fio --parse-only\n");
	if (nfiles < 11) {
		fprintf(stderr, "check_fio_export: only %d built-in presets\n", nfiles);
		return EXIT_FAILURE;
	}
	tcase_add_loop_test(tc, test_export, 0, nfiles);
	tcase_add_test(tc, test_rates);
	tcase_add_test(tc, test_streams);
	tcase_add_loop_test(tc, test_filename, 0, (int)(sizeof(filenames) / sizeof(filenames[0])));
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
