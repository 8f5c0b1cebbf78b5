// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench: what the drive health sampler costs the measurement (health_watch.h).
 *
 *   bench_health DEVICE SECONDS ROUNDS
 *
 * 4K random reads at QD32 on DEVICE (read only; make bench gives it its zram device), one
 * step of SECONDS each, in ROUNDS rounds of three alternating runs:
 *   none    no health watch
 *   10 s    the watch as a run on an NVMe drive has it: a snapshot at the start, the
 *           SMART / health log before and after the step, the temperature every 10 s
 *   10 ms   the same with the sampler a thousand times as often
 * The watch asks the fake NVMe controller of the health tests (fake_nvme.h, behind
 * umockdev's ioctl handler), since these machines have no NVMe drive: each of its log
 * reads goes through umockdev's preload library to a handler thread in this process,
 * more work for the host than a real controller's admin command. All three runs are under
 * the same preload library. Prints the median IOPS of each with the range of its runs (the
 * noise), its ratio to "none", and how many SMART / health log reads the watch made.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
/* fake_nvme.h's checks, outside a Check test runner (whose ck_assert reports to it) */
#undef ck_assert_msg
#undef ck_assert
#define ck_assert_msg(expr, ...)                                                                   \
	do {                                                                                       \
		if (!(expr)) {                                                                     \
			fprintf(stderr, "bench_health: %s failed: ", #expr);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#define ck_assert(expr) ck_assert_msg(expr, "%s", "")
#include "fake_nvme.h"

#include "drive.h"
#include "engine.h"
#include "health_watch.h"
#include "result.h"

#define MS 1000000ull

enum { NONE, SLOW, FAST, NMODES };
static const char *const mode_name[NMODES] = {"without the watch", "sampler every 10 s",
					      "sampler every 10 ms (1000x)"};
static const uint64_t mode_ns[NMODES] = {0, 10000 * MS, 10 * MS};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One step; its IOPS, or -1. */
static double one_run(const struct target *t, unsigned seconds, int mode)
{
	struct workload wl;
	struct engine_ctl ctl = {0};
	struct step_result res = {0};
	struct health_watch *w = NULL;
	struct drive d;
	char err[256], msg[128];
	double iops = -1;

	workload_defaults(&wl);
	workload_set_rw(&wl, "randread");
	wl.bs = 4096;
	wl.threads = 1;
	wl.qdepth = 32;
	wl.time_ns = seconds * 1000 * MS;
	wl.interval_ns = 1000 * MS;
	if (mode != NONE) {
		drive_init(&d);
		snprintf(d.name, sizeof(d.name), "nvme0n1");
		d.transport = DRIVE_TR_NVME;
		snprintf(d.nvme.controller, sizeof(d.nvme.controller), "nvme0");
		d.nvme.nsid = 1;
		w = health_watch_start(&d, NULL, mode_ns[mode]);
		if (!w)
			return -1;
		health_watch_phase_begin(w, "measure");
		health_watch_step_begin(w);
	}
	if (engine_run(&engine_uring, t, &wl, &ctl, NULL, NULL, &res, err, sizeof(err)) < 0)
		fprintf(stderr, "bench_health: %s\n", err);
	else if (res.total.dur_ns)
		iops = (double)res.total.d[DIR_ALL].ios * 1e9 / (double)res.total.dur_ns;
	if (w) {
		struct step_drive sd = {0};
		health_watch_step_end(w, "4K QD32", &sd, msg, sizeof(msg));
		char step[64];
		health_watch_phase_end(w, step, sizeof(step), msg, sizeof(msg));
		health_watch_finish(w);
		health_watch_free(w);
	}
	step_result_free(&res);
	return iops;
}

int main(int argc, char **argv)
{
	static struct fake_nvme fake;
	struct target t;
	char err[256];
	unsigned seconds, rounds, reads[NMODES] = {0};

	if (argc != 4 || !(seconds = (unsigned)atoi(argv[2])) ||
	    !(rounds = (unsigned)atoi(argv[3])) || rounds > 64) {
		fprintf(stderr, "usage: bench_health DEVICE SECONDS ROUNDS\n");
		return 2;
	}
	fake_nvme_reexec(argc, argv);
	/* the target first: the testbed that follows redirects /sys */
	if (target_open(&t, argv[1], false, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_health: %s\n", err);
		return 1;
	}
	fake_nvme_default(&fake);
	fake_nvme_attach(&fake, NULL);

	double iops[NMODES][64];
	for (unsigned r = 0; r < rounds; r++)
		for (int m = 0; m < NMODES; m++) {
			unsigned before = fake.smart_reads;
			iops[m][r] = one_run(&t, seconds, m);
			reads[m] += fake.smart_reads - before;
			if (iops[m][r] < 0) {
				fake_nvme_detach(&fake);
				target_close(&t);
				return 1;
			}
		}
	fake_nvme_detach(&fake);
	target_close(&t);

	double base = median(iops[NONE], rounds), lo[NMODES], hi[NMODES];
	for (int m = 0; m < NMODES; m++) {
		lo[m] = hi[m] = iops[m][0];
		for (unsigned r = 1; r < rounds; r++) {
			lo[m] = iops[m][r] < lo[m] ? iops[m][r] : lo[m];
			hi[m] = iops[m][r] > hi[m] ? iops[m][r] : hi[m];
		}
	}
	printf("drive health sampler on a fake NVMe controller (umockdev), 4K randread QD32; "
	       "medians of %u x %us\n", rounds, seconds);
	for (int m = 0; m < NMODES; m++) {
		double v = median(iops[m], rounds);
		printf("  %-28s %7.0f IOPS (runs %.0f..%.0f)  ratio %.3f  %u SMART log reads\n",
		       mode_name[m], v, lo[m], hi[m], v / base, reads[m]);
	}
	return 0;
}
