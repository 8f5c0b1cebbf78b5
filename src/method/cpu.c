// SPDX-License-Identifier: GPL-2.0-or-later
#include "cpu.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "step_def.h"

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

/* The "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal ... */
static bool read_stat(struct cpu_mark *m)
{
	FILE *f = fopen("/proc/stat", "re");
	uint64_t v[8] = {0};
	int n;

	if (!f)
		return false;
	n = fscanf(f, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		      " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return false;
	m->user = v[0] + v[1];
	m->system = v[2] + v[5] + v[6];
	m->iowait = v[4];
	m->total = 0;
	for (int i = 0; i < 8; i++)
		m->total += v[i];
	return true;
}

void cpu_mark(struct cpu_mark *m)
{
	struct rusage ru;
	struct timespec ts;

	memset(m, 0, sizeof(*m));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	m->mono_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		m->proc_user_ns = tv_ns(&ru.ru_utime);
		m->proc_sys_ns = tv_ns(&ru.ru_stime);
	}
	m->host = read_stat(m);
}

/* b - a, 0 when the counter went backwards (a CPU taken offline takes its ticks along) */
static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* part of whole in %, to a tenth: the clocks behind it are no finer than that */
static double pct(uint64_t part, uint64_t whole)
{
	return round(1000.0 * (double)part / (double)whole) / 10.0;
}

void cpu_between(const struct cpu_mark *a, const struct cpu_mark *b, struct step_cpu *out)
{
	uint64_t wall = delta(a->mono_ns, b->mono_ns);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(out, 0, sizeof(*out));
	if (wall == 0)
		return;
	out->measured = true;
	out->cpus = cpus > 0 ? (unsigned)cpus : 1;
	out->proc_user_pct = pct(delta(a->proc_user_ns, b->proc_user_ns), wall);
	out->proc_system_pct = pct(delta(a->proc_sys_ns, b->proc_sys_ns), wall);
	uint64_t total = delta(a->total, b->total);
	if (a->host && b->host && total) {
		out->host_user_pct = pct(delta(a->user, b->user), total);
		out->host_system_pct = pct(delta(a->system, b->system), total);
		out->host_iowait_pct = pct(delta(a->iowait, b->iowait), total);
	}
}

bool cpu_host_busy(const struct step_cpu *c, char *why, size_t len)
{
	double others = step_cpu_others_pct(c);

	if (others < CPU_HOST_BUSY_PCT)
		return false;
	snprintf(why, len,
		 "other processes kept %.0f%% of the host's %u CPUs busy in user time (drivebench "
		 "%.0f%% of one CPU): the figures may show the host's load, not the drive",
		 others, c->cpus, c->proc_user_pct + c->proc_system_pct);
	return true;
}

bool cpu_bound(const struct step_cpu *c, unsigned threads, bool busy_poll, char *why,
	       size_t len)
{
	if (!c->measured)
		return false;
	double proc = c->proc_user_pct + c->proc_system_pct;
	double host = c->host_user_pct + c->host_system_pct;
	unsigned cores = threads < c->cpus ? threads : c->cpus;

	if (!busy_poll && cores && proc >= CPU_BOUND_PROC_PCT * cores) {
		snprintf(why, len,
			 "drivebench used %.0f%% of a CPU (user %.0f%%, system %.0f%%) for %u "
			 "worker thread%s on %u CPUs: the host's CPU, not the drive, may be the "
			 "limit",
			 proc, c->proc_user_pct, c->proc_system_pct, threads, threads == 1 ? "" : "s",
			 c->cpus);
		return true;
	}
	/* drivebench's share of the busy host: the CPUs it used over all there are */
	if (host >= CPU_BOUND_HOST_PCT && proc / c->cpus >= host / 2) {
		snprintf(why, len,
			 "the host's CPUs were %.0f%% busy (user %.0f%%, system %.0f%%), most of "
			 "it drivebench: the host's CPU, not the drive, may be the limit",
			 host, c->host_user_pct, c->host_system_pct);
		return true;
	}
	return false;
}
