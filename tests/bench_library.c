// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench (scripts/bench_library.sh): the Results screen's library on a folder of
 * N results (default 100,000 copies of a small one, made in a temporary directory and
 * removed): the time to list it and read the first screen of rows, as the TUI does when
 * the folder opens, and the peak resident set, measured in the same run.
 *   bench_library [N]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "result.h"
#include "result_io.h"

static long vm_hwm_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* n copies of one small result in dir, file i saved at second i. */
static int make_folder(const char *dir, unsigned n)
{
	struct result r;
	char path[4200], err[512], text[65536];
	size_t len;
	FILE *f;

	result_init(&r);
	r.status = RS_COMPLETE;
	snprintf(r.started, sizeof(r.started), "2026-12-01T10:00:00Z");
	snprintf(r.preset_name, sizeof(r.preset_name), "bench");
	if (!result_add_phase(&r, "run", PH_RUN))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/.one", dir);
	if (result_save(&r, path, err, sizeof(err))) {
		fprintf(stderr, "bench_library: %s\n", err);
		result_free(&r);
		return -EIO;
	}
	result_free(&r);
	if (!(f = fopen(path, "r")))
		return -errno;
	len = fread(text, 1, sizeof(text), f);
	fclose(f);
	unlink(path);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/run-%06u.json", dir, i);
		if (!(f = fopen(path, "w")))
			return -errno;
		fwrite(text, 1, len, f);
		if (fclose(f))
			return -errno;
		struct timespec ts[2] = {{.tv_sec = 1790000000 + i}, {.tv_sec = 1790000000 + i}};
		utimensat(AT_FDCWD, path, ts, 0);
	}
	return 0;
}

static void remove_folder(const char *dir, unsigned n)
{
	char path[4200];

	for (unsigned i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/run-%06u.json", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[4096], err[512];
	struct result_list l;
	int ret;

	snprintf(dir, sizeof(dir), "%s/drivebench-bench-library.XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	if ((ret = make_folder(dir, n))) {
		fprintf(stderr, "bench_library: %s: %s\n", dir, strerror(-ret));
		remove_folder(dir, n);
		return 1;
	}
	long before = vm_hwm_kib();
	double t0 = now_ms();
	ret = result_list_dir(dir, &l, err, sizeof(err));
	double t1 = now_ms();
	for (size_t i = 0; !ret && i < RESULT_LIST_PAGE && i < l.n; i++)
		result_list_entry(&l, i);
	double t2 = now_ms();
	long after = vm_hwm_kib();
	if (ret) {
		fprintf(stderr, "bench_library: %s\n", err);
	} else {
		printf("library: a folder of %u results (warm cache): listed in %.0f ms, the first "
		       "%u rows read in %.1f ms (%llu files read); peak RSS %.1f MiB, %.1f MiB of "
		       "it the library's\n",
		       n, t1 - t0, RESULT_LIST_PAGE, t2 - t1, (unsigned long long)l.reads,
		       (double)after / 1024, (double)(after - before) / 1024);
		result_list_free(&l);
	}
	remove_folder(dir, n);
	return ret ? 1 : 0;
}
