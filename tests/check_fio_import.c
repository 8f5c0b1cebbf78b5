// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio import on the fixtures in tests/fixtures/fio: json+ bins into histograms and
 * percentiles, logs into samples, plain json, numjobs without group_reporting, a failed
 * job, client/server output with its aggregate, and malformed input with file:line;
 * generated output of 256 threads whose logs are each read once.
 */
#include "testlib.h"
#include <math.h>

#include <json-c/json.h>

#include "fio_import.h"
#include "hist.h"
#include "report_match.h"
#include "result.h"
#include "result_io.h"
#include "rundir.h"

#define FIX DB_SRCDIR "/tests/fixtures/fio"

static void load(struct result *r, const char *name, const char *logs)
{
	char err[1024], path[4096];

	snprintf(path, sizeof(path), FIX "/%s", name);
	int ret = fio_import_file(r, path, logs, err, sizeof(err));
	ck_assert_msg(ret == 0, "%s", err);
}

START_TEST(test_jsonplus)
{
	struct result r;
	struct hist rd, wr;

	load(&r, "jsonplus.json", FIX "/logs");
	ck_assert_uint_eq(r.nphases, 1);
	ck_assert_str_eq(r.phases[0].name, "fio");
	ck_assert_uint_eq(r.phases[0].nsteps, 1);
	const struct result_step *st = &r.phases[0].steps[0];
	const struct dir_stats *d = st->summary.d;
	ck_assert_str_eq(st->label, "mixed");
	ck_assert_int_eq(st->status, RS_COMPLETE);
	ck_assert_str_eq(st->engine, "fio-3.33 io_uring (clat_ns)");
	ck_assert_uint_eq(st->summary.dur_ns, 1000000000ull);
	/* fio's own numbers, as it printed them */
	ck_assert_uint_eq(d[DIR_READ].ios, 7);
	ck_assert_uint_eq(d[DIR_READ].bytes, 57344);
	ck_assert(d[DIR_READ].iops == 7.0);
	ck_assert(d[DIR_READ].mean_ns == 143000.5);
	ck_assert(d[DIR_READ].std_ns == 377500.25);
	ck_assert_uint_eq(d[DIR_READ].min_ns, 100);
	ck_assert_uint_eq(d[DIR_READ].max_ns, 1000000);
	ck_assert_uint_eq(d[DIR_WRITE].ios, 3);
	ck_assert_uint_eq(d[DIR_ALL].ios, 10);
	ck_assert_uint_eq(d[DIR_ALL].bytes, 81920);
	ck_assert(d[DIR_ALL].iops == 10.0);
	ck_assert_double_eq_tol(d[DIR_ALL].mean_ns, 100850.35, 1e-6);
	ck_assert_uint_eq(d[DIR_ALL].min_ns, 100);
	ck_assert_uint_eq(d[DIR_ALL].max_ns, 1000000);
	/* bins: each fio midpoint is the value of a drivebench bucket */
	ck_assert_ptr_nonnull(st->hist);
	result_step_get_hist(st, &rd, &wr);
	ck_assert_uint_eq(hist_count(&rd), 7);
	ck_assert_uint_eq(hist_count(&wr), 3);
	ck_assert_uint_eq(rd.bucket[hist_index(131)], 3);
	ck_assert_uint_eq(hist_bucket_value(hist_index(1003520)), 1003520);
	ck_assert_uint_eq(d[DIR_READ].pct_ns[PCT_50], 131);
	ck_assert_uint_eq(d[DIR_READ].pct_ns[PCT_90], 1003520);
	ck_assert_uint_eq(d[DIR_WRITE].pct_ns[PCT_50], 2512);
	ck_assert_uint_eq(d[DIR_WRITE].pct_ns[PCT_90], 3024);
	ck_assert_uint_eq(d[DIR_ALL].pct_ns[PCT_50], 2024);
	ck_assert_uint_eq(d[DIR_ALL].pct_ns[PCT_90], 4128);
	ck_assert_uint_eq(d[DIR_ALL].pct_ns[PCT_99], 1003520);
	ck_assert_ptr_null(result_step_warning(st, "no-histogram"));
	/* the options */
	ck_assert_uint_eq(st->wl.read_pct, 70);
	ck_assert_uint_eq(st->wl.bs, 8192);
	ck_assert_uint_eq(st->wl.qdepth, 4);
	ck_assert_uint_eq(st->wl.threads, 2); /* one entry for numjobs=2: a group report */
	ck_assert_int_eq(st->wl.pattern, WL_RANDOM);
	ck_assert_str_eq(result_target_path(&r), "/dev/nvme9n1");
	struct json_object *fio, *v;
	ck_assert(json_object_object_get_ex(r.host, "fio", &fio));
	ck_assert(json_object_object_get_ex(fio, "version", &v));
	ck_assert_str_eq(json_object_get_string(v), "fio-3.33");
	ck_assert_str_eq(r.started, "2026-12-01T05:55:03Z");

	/* the logs of threads 1 and 2: IOPS summed, latency weighted by IOPS */
	struct sample s;
	ck_assert_uint_eq(st->nsamples, 2);
	ck_assert(result_step_sample(st, 0, &s));
	ck_assert_uint_eq(s.start_ns, 0);
	ck_assert_uint_eq(s.dur_ns, 500000000ull);
	ck_assert(s.d[DIR_READ].iops == 10.0);
	ck_assert_uint_eq(s.d[DIR_READ].ios, 5);
	ck_assert_uint_eq(s.d[DIR_READ].bytes, 5 * 8192);
	ck_assert(s.d[DIR_READ].mean_ns == 1600.0);
	ck_assert(s.d[DIR_WRITE].iops == 4.0);
	ck_assert(s.d[DIR_WRITE].mean_ns == 2000.0);
	ck_assert(s.d[DIR_ALL].iops == 14.0);
	ck_assert(result_step_sample(st, 1, &s));
	ck_assert_uint_eq(s.start_ns, 500000000ull);
	ck_assert_uint_eq(s.d[DIR_READ].ios, 2);
	ck_assert(s.d[DIR_READ].mean_ns == 3000.0);
	ck_assert(s.d[DIR_WRITE].mean_ns == 4000.0);
	result_free(&r);

	/* without --logs: no samples */
	load(&r, "jsonplus.json", NULL);
	ck_assert_uint_eq(r.phases[0].steps[0].nsamples, 0);
	result_free(&r);
}
END_TEST

/*
 * fio's total latency (lat) is kept; clat only when lat is absent, marked completion-only.
 * The fixtures: fio 4k randread QD16 with lat 201.8 us and clat 198.4 us means.
 */
START_TEST(test_lat_kinds)
{
	struct result r;

	load(&r, "lat.json", NULL); /* json+ without lat_percentiles: bins are clat's */
	const struct result_step *st = &r.phases[0].steps[0];
	const struct dir_stats *d = &st->summary.d[DIR_READ];
	ck_assert(d->mean_ns == 201800.0);
	ck_assert_uint_eq(d->min_ns, 5200);
	ck_assert_uint_eq(d->max_ns, 900300);
	ck_assert(d->std_ns == 1500.5);
	ck_assert(st->summary.d[DIR_ALL].mean_ns == 201800.0);
	ck_assert_int_eq(st->def.lat, SL_TOTAL);
	ck_assert_int_eq(st->def.wait, SWT_INTERRUPT);
	ck_assert_str_eq(st->def.engine, "fio io_uring");
	ck_assert_ptr_nonnull(result_step_warning(st, "clat-percentiles"));
	ck_assert_str_eq(st->engine, "fio-3.36 io_uring (lat_ns)");
	result_free(&r);

	load(&r, "lat-pct.json", NULL); /* lat_percentiles=1: percentiles and bins of lat */
	st = &r.phases[0].steps[0];
	ck_assert(st->summary.d[DIR_READ].mean_ns == 201800.0);
	ck_assert_uint_eq(st->summary.d[DIR_READ].pct_ns[PCT_99], 905216);
	ck_assert_int_eq(st->def.lat, SL_TOTAL);
	ck_assert_ptr_null(result_step_warning(st, "clat-percentiles"));
	result_free(&r);

	load(&r, "clat-only.json", NULL); /* no lat_ns: clat, completion-only; hipri: polled */
	st = &r.phases[0].steps[0];
	ck_assert(st->summary.d[DIR_READ].mean_ns == 198400.0);
	ck_assert_uint_eq(st->summary.d[DIR_READ].min_ns, 5000);
	ck_assert_int_eq(st->def.lat, SL_COMPLETION);
	ck_assert_int_eq(st->def.wait, SWT_POLLED);
	ck_assert_str_eq(st->def.flags, "hipri");
	ck_assert_ptr_null(result_step_warning(st, "clat-percentiles"));
	result_free(&r);
}
END_TEST

START_TEST(test_plain)
{
	struct result r;

	load(&r, "plain.json", NULL);
	ck_assert_uint_eq(r.phases[0].nsteps, 2);
	const struct result_step *a = &r.phases[0].steps[0], *b = &r.phases[0].steps[1];
	/* numjobs=2 without group_reporting: an entry per thread */
	ck_assert_str_eq(a->label, "seq #1");
	ck_assert_str_eq(b->label, "seq #2");
	ck_assert_uint_eq(a->wl.threads, 1);
	ck_assert_int_eq(a->wl.pattern, WL_SEQUENTIAL);
	ck_assert_uint_eq(a->wl.read_pct, 50);
	ck_assert_uint_eq(a->wl.bs, 128 * 1024);
	/* fio's percentiles per direction, none for both together, no histogram */
	ck_assert_ptr_null(a->hist);
	ck_assert_ptr_nonnull(result_step_warning(a, "no-histogram"));
	ck_assert_uint_eq(a->summary.d[DIR_READ].pct_ns[PCT_50], 50);
	ck_assert_uint_eq(a->summary.d[DIR_READ].pct_ns[PCT_90], 80);
	ck_assert_uint_eq(a->summary.d[DIR_WRITE].pct_ns[PCT_99], 300);
	ck_assert_uint_eq(a->summary.d[DIR_ALL].pct_ns[PCT_50], 0);
	ck_assert(a->summary.d[DIR_ALL].mean_ns == 100.0);
	ck_assert_double_eq_tol(a->summary.d[DIR_ALL].std_ns, sqrt(54500.0 / 19), 1e-9);
	ck_assert_uint_eq(a->summary.dur_ns, 2000000000ull);
	/* a job fio reports an error of */
	ck_assert_int_eq(b->status, RS_FAILED);
	ck_assert_ptr_nonnull(strstr(b->error, "fio error 5"));
	ck_assert_int_eq(r.status, RS_FAILED);
	ck_assert_uint_eq(b->summary.d[DIR_ALL].pct_ns[PCT_50], 700); /* writes only */
	ck_assert_str_eq(result_target_path(&r), "a.img");
	result_free(&r);
}
END_TEST

START_TEST(test_client)
{
	struct result r;

	load(&r, "client.json", NULL);
	ck_assert_uint_eq(r.nphases, 3);
	ck_assert_str_eq(r.phases[0].name, "fio");
	ck_assert_str_eq(r.phases[1].name, "fio @host1:8765");
	ck_assert_str_eq(r.phases[2].name, "fio @host2:8765");
	ck_assert_uint_eq(r.phases[0].nsteps, 1); /* "All clients" left out */
	const struct result_step *agg = &r.phases[0].steps[0];
	const struct dir_stats *d = &agg->summary.d[DIR_READ];
	ck_assert_uint_eq(d->ios, 6);
	ck_assert_uint_eq(d->bytes, 24576);
	ck_assert(d->iops == 6.0);
	ck_assert_double_eq_tol(d->mean_ns, 5000.0 / 6, 1e-9);
	ck_assert_uint_eq(d->min_ns, 100);
	ck_assert_uint_eq(d->max_ns, 3000);
	ck_assert_uint_eq(d->pct_ns[PCT_50], 302);
	ck_assert_uint_eq(d->pct_ns[PCT_90], 3024);
	ck_assert_uint_eq(agg->summary.d[DIR_ALL].ios, 6);
	ck_assert_uint_eq(agg->wl.threads, 4);
	ck_assert_uint_eq(r.phases[2].steps[0].summary.d[DIR_READ].ios, 2);
	struct json_object *h;
	ck_assert(json_object_object_get_ex(r.host, "hostname", &h));
	ck_assert_str_eq(json_object_get_string(h), "host1:8765, host2:8765");
	ck_assert_str_eq(result_target_path(&r), "/tmp/x.img");
	/* fio's steady-state verdict, in the job's record, without the per-second data */
	struct json_object *fio, *jobs, *ss, *v;
	ck_assert(json_object_object_get_ex(r.host, "fio", &fio));
	ck_assert(json_object_object_get_ex(fio, "jobs", &jobs));
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(jobs, 0), "steadystate", &ss));
	ck_assert(json_object_object_get_ex(ss, "attained", &v));
	ck_assert_int_eq(json_object_get_int64(v), 1);
	ck_assert(json_object_object_get_ex(ss, "criterion", &v));
	ck_assert_str_eq(json_object_get_string(v), "12.500000%");
	/* a falling slope keeps its sign */
	ck_assert(json_object_object_get_ex(ss, "slope", &v));
	ck_assert(json_object_get_double(v) == -0.75);
	ck_assert(!json_object_object_get_ex(ss, "data", &v));
	ck_assert(!json_object_object_get_ex(json_object_array_get_idx(jobs, 1), "steadystate", &v));
	result_free(&r);
}
END_TEST

/*
 * Hosts as fio reports them: an IPv6 one ("::1", its logs named after it whole), and two
 * whose names agree in more than a phase's name holds: three phases, none merged, each
 * host whole in host.fio.hosts. A ':' of the filename is fio's "\\:".
 */
START_TEST(test_client_hosts)
{
	static const char *const full[] = {"::1:8765", "bench-rack-07-node-0042.lab.example.org:8765",
					   "bench-rack-07-node-0042.lab.example.net:8765"};
	static const uint64_t ios[] = {4, 2, 3};
	struct json_object *fio, *hosts;
	struct result r;

	load(&r, "client-hosts.json", FIX "/logs-hosts");
	ck_assert_uint_eq(r.nphases, 4);
	ck_assert_str_eq(r.phases[0].name, "fio");
	ck_assert_str_eq(r.phases[1].name, "fio @::1:8765");
	ck_assert_str_eq(r.phases[2].name, "fio @bench-rack-07-node-0042.~2");
	ck_assert_str_eq(r.phases[3].name, "fio @bench-rack-07-node-0042.~3");
	ck_assert_uint_eq(r.phases[0].steps[0].summary.d[DIR_READ].ios, 9);
	for (unsigned h = 0; h < 3; h++) {
		ck_assert_uint_eq(r.phases[h + 1].nsteps, 1);
		ck_assert_uint_eq(r.phases[h + 1].steps[0].summary.d[DIR_READ].ios, ios[h]);
	}
	/* the IPv6 host's logs: NAME.N.log.::1 */
	ck_assert_uint_eq(r.phases[1].steps[0].nsamples, 2);
	ck_assert(json_object_object_get_ex(r.host, "fio", &fio));
	ck_assert(json_object_object_get_ex(fio, "hosts", &hosts));
	ck_assert_uint_eq(json_object_array_length(hosts), 3);
	for (unsigned h = 0; h < 3; h++)
		ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(hosts, h)), full[h]);
	ck_assert_str_eq(result_target_path(&r), "/dev/disk/by-path/pci-0000:00:1f.2-ata-1");
	result_free(&r);
}
END_TEST

/* A host's phase name: whole when it fits, else cut and numbered. */
START_TEST(test_host_phase_name)
{
	char name[32];

	fio_import_host_phase_name(name, sizeof(name), "measure", "::1:8765", 1);
	ck_assert_str_eq(name, "measure @::1:8765");
	fio_import_host_phase_name(name, sizeof(name), "measure", "0123456789012345678901:1", 12);
	ck_assert_str_eq(name, "measure @0123456789012345678~12");
	ck_assert_uint_eq(strlen(name), 31);
	fio_import_host_phase_name(name, sizeof(name), "a-phase-name-of-31-characters-x", "h:1", 2);
	ck_assert_str_eq(name, "a-phase-name-of-31-characters-x");
}
END_TEST

/* An imported result is an ordinary result file: saved and loaded back the same. */
START_TEST(test_roundtrip)
{
	struct result r, back;
	char err[1024], path[] = "/tmp/check_fio_import.XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	load(&r, "jsonplus.json", FIX "/logs");
	ck_assert_msg(result_save(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(result_load(&back, path, err, sizeof(err)) == 0, "%s", err);
	unlink(path);
	const struct result_step *a = &r.phases[0].steps[0], *b = &back.phases[0].steps[0];
	ck_assert_mem_eq(&a->summary, &b->summary, sizeof(a->summary));
	ck_assert_uint_eq(b->nsamples, 2);
	ck_assert_ptr_nonnull(b->hist);
	ck_assert_str_eq(result_target_path(&back), "/dev/nvme9n1");
	result_free(&r);
	result_free(&back);
}
END_TEST

/*
 * One log for both threads (per_job_logs=0), from fio 3.33: fio ends a thread's latency
 * log with its last window at exit, and here that was the same millisecond as the window
 * before ("1000" twice). That line is the same thread's: the next thread's part starts
 * where the time goes back, and each interval weighs both threads' latency by their IOPS.
 */
START_TEST(test_shared_log_same_time)
{
	static const double iops[2][3] = {{100876, 107852, 114260}, {74316, 57640, 72748}};
	static const double lat[2][3] = {{207374, 276560, 221670}, {157121, 148754, 137319}};
	struct result r;
	struct sample s;

	load(&r, "shared-dup.json", FIX "/logs-shared");
	const struct result_step *st = &r.phases[0].steps[0];
	ck_assert_uint_eq(st->wl.threads, 2);
	ck_assert_uint_eq(st->nsamples, 3);
	for (unsigned i = 0; i < 3; i++) {
		double w = iops[0][i] + iops[1][i];
		double mean = (lat[0][i] * iops[0][i] + lat[1][i] * iops[1][i]) / w;
		ck_assert(result_step_sample(st, i, &s));
		ck_assert(s.d[DIR_READ].iops == w);
		ck_assert_msg(fabs(s.d[DIR_READ].mean_ns - mean) < 1e-6,
			      "interval %u: %.3f, not %.3f", i, s.d[DIR_READ].mean_ns, mean);
	}
	result_free(&r);
}
END_TEST

/*
 * fio 3.33 groups (group_reporting) of two job sections: [r] randread 4k iodepth=4 and
 * [w] randwrite 64k iodepth=16, whose reads fio reports under [w]'s options; and two of
 * randread 4k that differ in iodepth only, which fio's listing before the JSON
 * (--output-format=normal,json) tells. Each step is marked group-mixed, with its reason,
 * and compare matches it only with a step marked alike, never with an unmarked one of
 * the workload its options name. A group of one job section is not marked.
 */
START_TEST(test_group_mixed)
{
	struct result r, r2;
	const struct result_warning *w;

	load(&r, "group-mixed.json", NULL);
	ck_assert_uint_eq(r.phases[0].nsteps, 1);
	const struct result_step *st = &r.phases[0].steps[0];
	ck_assert_uint_eq(st->summary.d[DIR_READ].ios, 1024);
	ck_assert_ptr_nonnull(w = result_step_warning(st, "group-mixed"));
	ck_assert_msg(strstr(w->text, "rw=randwrite bs=64k iodepth=16") &&
			      strstr(w->text, "reads, which its options do not do"),
		      "%s", w->text);
	/* the same workload, unmarked: not the same step; marked alike: the same */
	struct result_step plain = *st;
	plain.nwarnings = 0;
	ck_assert(!report_same_step(st, &plain));
	ck_assert(!report_same_step(&plain, st));
	ck_assert(report_marks_hash(st) != report_marks_hash(&plain));
	load(&r2, "group-mixed.json", NULL);
	ck_assert(report_same_step(st, &r2.phases[0].steps[0]));
	ck_assert(report_step_hash(st, 0) == report_step_hash(&r2.phases[0].steps[0], 0));
	result_free(&r2);
	result_free(&r);

	load(&r, "group-listed.txt", NULL);
	st = &r.phases[0].steps[0];
	ck_assert_uint_eq(st->wl.qdepth, 16);
	ck_assert_ptr_nonnull(w = result_step_warning(st, "group-mixed"));
	ck_assert_msg(strstr(w->text, "fio's listing"), "%s", w->text);
	result_free(&r);

	load(&r, "jsonplus.json", NULL); /* numjobs=2 of one section */
	ck_assert_ptr_null(result_step_warning(&r.phases[0].steps[0], "group-mixed"));
	result_free(&r);
}
END_TEST

/*
 * fio 3.33's sizes per direction: bs=4k,64k of randrw (reads 4k, writes 64k) is no one
 * size; of randread it is 4k; bsrange=4k-16k is no one size either; bssplit per
 * direction is no one split. No one size: bs 0 (never the smallest), and the sizes in
 * the bs-varied warning, which marks the step apart as group-mixed does.
 */
START_TEST(test_bs_dirs)
{
	static const struct {
		const char *label;
		uint32_t bs;
		const char *note; /* NULL: no bs-varied */
	} want[] = {
		{"rw", 0, "fio's block sizes: reads 4k, writes 64k"},
		{"r", 4096, NULL},
		{"range", 0, "fio's block sizes: reads 4k-16k"},
		{"split", 0, "fio's block sizes: reads bssplit 4k/50:8k/50, writes bssplit 64k"},
	};
	struct result r;

	load(&r, "bs-dirs.json", NULL);
	ck_assert_uint_eq(r.phases[0].nsteps, 4);
	for (unsigned i = 0; i < 4; i++) {
		const struct result_step *st = &r.phases[0].steps[i];
		const struct result_warning *w = result_step_warning(st, "bs-varied");
		ck_assert_str_eq(st->label, want[i].label);
		ck_assert_uint_eq(st->wl.bs, want[i].bs);
		ck_assert_uint_eq(st->wl.nsplit, 0);
		ck_assert_ptr_null(result_step_warning(st, "group-mixed"));
		if (!want[i].note) {
			ck_assert_ptr_null(w);
			continue;
		}
		ck_assert_ptr_nonnull(w);
		ck_assert_str_eq(w->text, want[i].note);
		struct result_step plain = *st;
		plain.nwarnings = 0;
		ck_assert(!report_same_step(st, &plain));
	}
	result_free(&r);
}
END_TEST

static const struct {
	const char *file, *logs, *want; /* want: in the message, after "FILE:" */
} bad[] = {
	{"bad-truncated.json", NULL, "the file ends too early"},
	{"bad-negative.json", NULL, "bad-negative.json:47: \"total_ios\" is negative"},
	{"bad-bins.json", NULL, "bad-bins.json:38: bins: \"4k\" is not a latency in ns"},
	{"bad-noversion.json", NULL, "not fio output: no \"fio version\""},
	{"bad-usec.json", NULL, "bad-usec.json:29: latencies in microseconds"},
	{"bad-notfio.txt", NULL, "bad-notfio.txt:3: not fio's JSON output"},
	{"bad-noavg.json", "logs", "without log_avg_msec"},
	{"jsonplus.json", "logs-bad", "logs-bad/lg_iops.1.log:2: not a line of a fio log"},
	{"jsonplus.json", "logs-huge", "its logs give interval 0 a count past 9.2e+18"},
	{"jsonplus.json", ".", "lg_iops"},
	{"nonexistent.json", NULL, "nonexistent.json"},
	{"bad-steady.json", NULL, "bad-steady.json:16: steadystate: \"criterion\" is not a string"},
	/* fio 3.33 with log_max_value=1: each window's maximum, not its mean */
	{"lat-max.json", "logs-max",
	 "lat-max.json:6: job 'm' logged with log_max_value=1 (each interval's maximum)"},
};

START_TEST(test_bad)
{
	struct result r;
	char err[1024] = "", path[4096], logs[4096];

	snprintf(path, sizeof(path), FIX "/%s", bad[_i].file);
	snprintf(logs, sizeof(logs), FIX "/%s", bad[_i].logs ? bad[_i].logs : "");
	int ret = fio_import_file(&r, path, bad[_i].logs ? logs : NULL, err, sizeof(err));
	ck_assert_int_lt(ret, 0);
	ck_assert_msg(strstr(err, bad[_i].want), "%s: got '%s'", bad[_i].file, err);
	ck_assert_msg(!strncmp(err, FIX "/", strlen(FIX "/")), "no file name: %s", err);
	ck_assert_uint_eq(r.nphases, 0);
}
END_TEST

/*
 * fio's output and logs of one job of nthreads threads, generated: one entry (a group
 * report) or one per thread, per-thread logs or one shared log (per_job_logs=0, the
 * threads' parts in reverse order, as threads that ended in that order). Thread k's
 * interval i: IOPS k + i, latency 100 k + i ns; the last thread logs one interval less.
 */
#define MANY_THREADS 256
#define MANY_INTERVALS 20

static void many_log(FILE *f, unsigned k, bool lat)
{
	unsigned n = k == MANY_THREADS ? MANY_INTERVALS - 1 : MANY_INTERVALS;

	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%u, %u, 0, 0, 0\n", (i + 1) * 1000, lat ? 100 * k + i : k + i);
}

static uint64_t many_write(const char *dir, bool group, bool shared, unsigned nthreads)
{
	char path[600];
	uint64_t bytes = 0;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/many.json", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fprintf(f, "{\n\"fio version\" : \"fio-3.33\",\n\"timestamp\" : 1796104527,\n\"jobs\" : [\n");
	for (unsigned e = 0; e < (group ? 1 : nthreads); e++)
		fprintf(f,
			"%s{\"jobname\" : \"many\", \"groupid\" : 0, \"error\" : 0,\n"
			"\"job options\" : {\"name\" : \"many\", \"filename\" : \"a.img\", \"rw\" : "
			"\"randread\", \"bs\" : \"4k\", \"numjobs\" : \"%u\", \"write_iops_log\" : "
			"\"lg\", \"write_lat_log\" : \"lg\", \"log_avg_msec\" : \"1000\"%s},\n"
			"\"read\" : {\"io_bytes\" : 40960, \"bw_bytes\" : 2048, \"iops\" : 0.5, "
			"\"runtime\" : 20000, \"total_ios\" : 10,\n\"clat_ns\" : {\"min\" : 10, "
			"\"max\" : 90, \"mean\" : 50.0, \"stddev\" : 10.0, \"N\" : 10}},\n"
			"\"write\" : {\"io_bytes\" : 0, \"bw_bytes\" : 0, \"iops\" : 0.0, \"runtime\" "
			": 0, \"total_ios\" : 0,\n\"clat_ns\" : {\"min\" : 0, \"max\" : 0, \"mean\" : "
			"0.0, \"stddev\" : 0.0, \"N\" : 0}}}\n",
			e ? "," : "", nthreads, shared ? ", \"per_job_logs\" : \"0\"" : "");
	fprintf(f, "]\n}\n");
	fclose(f);
	for (unsigned lat = 0; lat < 2; lat++) {
		for (unsigned k = nthreads; shared && k >= 1; k--) {
			snprintf(path, sizeof(path), "%s/lg_%s.log", dir, lat ? "clat" : "iops");
			ck_assert_ptr_nonnull(f = fopen(path, "a"));
			many_log(f, k, lat);
			fclose(f);
		}
		for (unsigned k = 1; !shared && k <= nthreads; k++) {
			snprintf(path, sizeof(path), "%s/lg_%s.%u.log", dir, lat ? "clat" : "iops", k);
			ck_assert_ptr_nonnull(f = fopen(path, "w"));
			many_log(f, k, lat);
			fclose(f);
			ck_assert_int_eq(stat(path, &st), 0);
			bytes += (uint64_t)st.st_size;
		}
		if (shared) {
			ck_assert_int_eq(stat(path, &st), 0);
			bytes += (uint64_t)st.st_size;
		}
	}
	return bytes;
}

static const struct {
	bool group, shared;
} many[] = {{true, false}, {false, false}, {true, true}, {false, true}};

/*
 * Every log is opened once and read once, whatever the number of threads; the samples
 * are the sums the logs hold: IOPS summed over threads, latency weighted by IOPS, the
 * intervals every thread has. One entry per thread of a shared log: the parts in order.
 */
START_TEST(test_many_threads)
{
	struct fio_import_io io = {0};
	struct result r;
	struct sample s;
	char path[600], err[1024];
	bool group = many[_i].group, shared = many[_i].shared;
	uint64_t bytes = many_write(tmpdir, group, shared, MANY_THREADS);

	snprintf(path, sizeof(path), "%s/many.json", tmpdir);
	ck_assert_msg(fio_import_file_io(&r, path, tmpdir, &io, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(io.log_files, shared ? 2 : 2 * MANY_THREADS);
	ck_assert_uint_eq(io.log_bytes, bytes);
	ck_assert_uint_eq(r.nphases, 1);
	ck_assert_uint_eq(r.phases[0].nsteps, group ? 1 : MANY_THREADS);
	for (unsigned e = 0; e < r.phases[0].nsteps; e++) {
		const struct result_step *st = &r.phases[0].steps[e];
		/* the threads of the step: all of them, or the entry's (a shared log's parts
		 * go to the entries in the order they were written) */
		unsigned k0 = group ? 1 : shared ? MANY_THREADS - e : e + 1;
		unsigned k1 = group ? MANY_THREADS : k0;
		bool short_one = k1 == MANY_THREADS;
		ck_assert_uint_eq(st->nsamples, short_one ? MANY_INTERVALS - 1 : MANY_INTERVALS);
		for (unsigned i = 0; i < st->nsamples; i++) {
			double iops = 0, lat_sum = 0;
			for (unsigned k = k0; k <= k1; k++) {
				iops += k + i;
				lat_sum += (double)(100 * k + i) * (k + i);
			}
			ck_assert(result_step_sample(st, i, &s));
			ck_assert_uint_eq(s.start_ns, i * 1000000000ull);
			ck_assert_uint_eq(s.dur_ns, 1000000000ull);
			ck_assert_msg(s.d[DIR_READ].iops == iops, "step %u interval %u: %g, not %g", e,
				      i, s.d[DIR_READ].iops, iops);
			ck_assert_uint_eq(s.d[DIR_READ].ios, (uint64_t)iops);
			ck_assert(fabs(s.d[DIR_READ].mean_ns - lat_sum / iops) <= 1e-9 * lat_sum / iops);
			ck_assert(s.d[DIR_WRITE].iops == 0);
		}
	}
	result_free(&r);
}
END_TEST

/* Past fio's own limit on threads, the logs are refused: file:line, before any is read. */
START_TEST(test_too_many_threads)
{
	struct fio_import_io io = {0};
	struct result r;
	char path[600], err[1024] = "";

	many_write(tmpdir, true, true, FIO_IMPORT_MAX_LOG_THREADS + 1);
	snprintf(path, sizeof(path), "%s/many.json", tmpdir);
	ck_assert_int_eq(fio_import_file_io(&r, path, tmpdir, &io, err, sizeof(err)), -E2BIG);
	ck_assert_msg(strstr(err, "many.json:5: job 'many': the logs of more than 4096 threads"),
		      "%s", err);
	ck_assert_uint_eq(io.log_files, 0);
	/* without logs, the same output imports */
	ck_assert_msg(fio_import_file(&r, path, NULL, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.phases[0].steps[0].wl.threads, FIO_IMPORT_MAX_LOG_THREADS + 1);
	result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fio_import");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_jsonplus);
	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_lat_kinds);
	tcase_add_test(tc, test_client);
	tcase_add_test(tc, test_client_hosts);
	tcase_add_test(tc, test_host_phase_name);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_shared_log_same_time);
	tcase_add_test(tc, test_group_mixed);
	tcase_add_test(tc, test_bs_dirs);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("many");
	tcase_add_unchecked_fixture(tc, setup_run, teardown_run);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_many_threads, 0, sizeof(many) / sizeof(many[0]));
	tcase_add_test(tc, test_too_many_threads);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(suite)
