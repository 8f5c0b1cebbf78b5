// SPDX-License-Identifier: GPL-2.0-or-later
/* An [app] phase from mkfs to teardown (app.h). */
#include "app.h"
#include "app_int.h"
#include "app_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "inuse.h"
#include "preset.h"
#include "runner.h"
#include "target.h"
#include "tool.h"

#define APP_OUT_MAX   (16u << 20) /* bytes of a tool's report that are read */
#define APP_START_S   120 /* a server that is not ready by then has failed */
#define APP_LOAD_S    (6 * 3600)
#define APP_STEP_GRACE_S 300

const char *const app_tool_name[APP_NTOOLS] = {"sysbench-oltp", "pgbench"};
const char *const app_fs_name[APP_NFS] = {"ext4", "xfs"};

/* what one phase needs while it runs */
struct app_run {
	const struct plan_phase *ph;
	const struct app_params *a;
	const struct target *t;
	atomic_int *stop;
	struct result_phase *rp;
	app_event_fn fn;
	void *arg;
	struct app_rundir rd;
	uid_t uid;
	gid_t gid;
	char keeper_pid[16];
	char pgbin[256]; /* PostgreSQL's versioned bin directory */
	char *err;
	size_t errlen;
	pid_t keeper, server;
	unsigned step;
	struct hist *h;
};

uint64_t app_setup_ns(const struct app_params *a)
{
	/* server start and init, then rows at about 50,000 a second on a small host */
	double rows = a->tool == APP_PGBENCH ? a->scale_factor * 100000.0
					     : (double)a->tables * (double)a->table_size;
	return 15000000000ull + (uint64_t)(rows / 50000.0 * 1e9);
}

bool app_plan(const struct plan *p)
{
	for (unsigned i = 0; i < p->nphases; i++)
		if (p->phases[i].kind == PH_APP)
			return true;
	return false;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The device's counters (/sys/dev/block/M:m/stat, the first 11 fields). */
static int dev_stat(const struct target *t, uint64_t v[11])
{
	char path[96], buf[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(t->rdev), minor(t->rdev));
	if (!(f = fopen(path, "re")))
		return -errno;
	n = fgets(buf, sizeof(buf), f)
		    ? sscanf(buf, "%lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu", &v[0], &v[1], &v[2],
			     &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10])
		    : 0;
	fclose(f);
	return n == 11 ? 0 : -EINVAL;
}

/* dev_stat(), its failure named in r's message */
static int dev_read(struct app_run *r, uint64_t v[11])
{
	int ret = dev_stat(r->t, v);

	if (ret)
		snprintf(r->err, r->errlen, "%s: its I/O counters (/sys/dev/block/%u:%u/stat): %s",
			 r->t->path, major(r->t->rdev), minor(r->t->rdev), strerror(-ret));
	return ret;
}

static void dev_dir(struct dir_stats *d, uint64_t ios, uint64_t sectors, uint64_t ticks_ms,
		    uint64_t dur_ns)
{
	d->ios = ios;
	d->bytes = sectors * 512;
	d->iops = stats_per_sec(ios, dur_ns);
	d->mbps = stats_per_sec(d->bytes, dur_ns) / 1e6;
	d->mean_ns = ios ? (double)ticks_ms * 1e6 / (double)ios : 0;
}

/* The device's I/O between two reads of its counters, as the step's summary. */
static void dev_summary(struct sample *s, const uint64_t a[11], const uint64_t b[11],
			uint64_t dur_ns)
{
	memset(s, 0, sizeof(*s));
	s->dur_ns = dur_ns;
	dev_dir(&s->d[DIR_READ], b[0] - a[0], b[2] - a[2], b[3] - a[3], dur_ns);
	dev_dir(&s->d[DIR_WRITE], b[4] - a[4], b[6] - a[6], b[7] - a[7], dur_ns);
	dev_dir(&s->d[DIR_ALL], b[0] - a[0] + b[4] - a[4], b[2] - a[2] + b[6] - a[6],
		b[3] - a[3] + b[7] - a[7], dur_ns);
}

__attribute__((format(printf, 3, 4))) static int fail(struct app_run *r, int ret,
							 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static void tell(struct app_run *r, enum runner_event_kind kind, const struct result_step *st,
		 const struct sample *s, const char *msg)
{
	struct runner_event ev = {
		.kind = kind, .step_index = r->step, .step = st, .sample = s, .msg = msg};

	r->fn(r->arg, &ev);
}

/*
 * Run a tool to its end, tick(arg) called while it runs; its output in RUNDIR/NAME.out.
 * Exit status not 0 is an error.
 */
static int tool_watch(struct app_run *r, char *const argv[], const char *name,
		      unsigned timeout_s, void (*tick)(void *), void *arg)
{
	char out[APP_PATH_MAX + 32], last[256];
	int ret, st;

	snprintf(out, sizeof(out), "%s/%s.out", r->rd.dir, name);
	ret = app_exec_watch(argv, out, r->stop, timeout_s, tick, arg, &st, r->err, r->errlen);
	if (ret)
		return ret;
	if (st) {
		app_last_line(out, last, sizeof(last));
		snprintf(r->err, r->errlen, "%s failed (exit status %d): %s", name, st,
			 last[0] ? last : "no message");
		return -EIO;
	}
	return 0;
}

static int tool(struct app_run *r, char *const argv[], const char *name, unsigned timeout_s)
{
	return tool_watch(r, argv, name, timeout_s, NULL, NULL);
}

/* argv run in the keeper's mount namespace (as nobody when drop), into buf. */
static unsigned in_ns(struct app_run *r, bool drop, char **buf, unsigned max)
{
	static char u[32], g[32];
	unsigned n = 0;

	snprintf(u, sizeof(u), "--reuid=%u", (unsigned)r->uid);
	snprintf(g, sizeof(g), "--regid=%u", (unsigned)r->gid);
	char *pre[] = {"nsenter", "-t", r->keeper_pid, "-m", "--"};
	char *priv[] = {"setpriv", u, g, "--clear-groups", "--"};
	for (unsigned i = 0; i < 5 && n < max; i++)
		buf[n++] = pre[i];
	if (drop) {
		static char setpriv[256];
		if (tool_find("setpriv", setpriv, sizeof(setpriv)) == 0)
			priv[0] = setpriv;
		for (unsigned i = 0; i < 5 && n < max; i++)
			buf[n++] = priv[i];
	}
	return n;
}

/* An absolute path for a program run inside the namespace (nsenter does not look it up). */
static const char *prog(struct app_run *r, const char *name, bool pg, char *buf, size_t len)
{
	if (pg) {
		snprintf(buf, len, "%s/%s", r->pgbin, name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return tool_find(name, buf, len) ? name : buf;
}

static int find_pgbin(struct app_run *r)
{
	glob_t g;

	if (glob("/usr/lib/postgresql/*/bin/postgres", 0, NULL, &g))
		return fail(r, -ENOENT, "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres)");
	/* glob sorts: the last is the newest of one-digit-width versions alike */
	snprintf(r->pgbin, sizeof(r->pgbin), "%.*s", (int)(strlen(g.gl_pathv[g.gl_pathc - 1]) - 9),
		 g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return 0;
}

/* Nothing may use the device now that the door has let go of it; then its file system. */
static int make_fs(struct app_run *r)
{
	struct inuse iu;
	char e[256];
	int ret = inuse_check(r->t->rdev, NULL, &iu, e, sizeof(e));

	if (ret)
		return fail(r, ret, "%s: %s", r->t->path, e);
	if (iu.flags)
		return fail(r, -EBUSY, "%s is in use (%s): refused before mkfs", r->t->path,
			    iu.nreasons ? iu.reason[0].text : "in use");
	if (r->a->fs == APP_XFS) {
		char *argv[] = {"mkfs.xfs", "-f", "-q", (char *)r->t->resolved, NULL};
		return tool(r, argv, "mkfs.xfs", 3600);
	}
	char *argv[] = {"mkfs.ext4", "-F", "-q", (char *)r->t->resolved, NULL};
	return tool(r, argv, "mkfs.ext4", 3600);
}

/* Is the keeper in a mount namespace other than ours (within 10 s of its start)? */
static bool keeper_apart(pid_t keeper)
{
	char self[64], its[64], path[64];
	struct timespec ts = {0, 20000000};

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)keeper);
	for (unsigned i = 0; i < 500; i++) {
		ssize_t a = readlink("/proc/self/ns/mnt", self, sizeof(self) - 1);
		ssize_t b = readlink(path, its, sizeof(its) - 1);
		if (a > 0 && b > 0 && (a != b || memcmp(self, its, (size_t)a)))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* The keeper in its own mount namespace, and the file system mounted there. */
static int mount_fs(struct app_run *r)
{
	char out[APP_PATH_MAX + 32], mnt[APP_PATH_MAX + 16], inst[256];
	char *argv[24];
	unsigned n;
	int ret;

	{
		char *k[] = {"unshare", "--mount", "--propagation", "private", "--", "sleep",
			     "infinity", NULL};
		snprintf(out, sizeof(out), "%s/keeper.out", r->rd.dir);
		if ((ret = app_spawn(k, out, &r->keeper, r->err, r->errlen)))
			return ret;
	}
	/* named at once: a drivebench killed from here on leaves it to the next one */
	r->rd.keeper = (struct app_pid){r->keeper, app_pid_start(r->keeper)};
	app_rundir_save(&r->rd);
	if (!keeper_apart(r->keeper)) /* never a mount in drivebench's own namespace */
		return fail(r, -EIO, "unshare: the keeper %d has no mount namespace of its own",
			    (int)r->keeper);
	snprintf(r->keeper_pid, sizeof(r->keeper_pid), "%d", (int)r->keeper);
	n = in_ns(r, false, argv, 16);
	argv[n++] = "mount";
	argv[n++] = "-t";
	argv[n++] = (char *)app_fs_name[r->a->fs];
	argv[n++] = (char *)r->t->resolved;
	argv[n++] = r->rd.mnt;
	argv[n] = NULL;
	if ((ret = tool(r, argv, "mount", 300)))
		return ret;
	/* the data directory, the server's own */
	snprintf(mnt, sizeof(mnt), "%s/data", r->rd.mnt);
	char uid[16], gid[16];
	snprintf(uid, sizeof(uid), "%u", (unsigned)r->uid);
	snprintf(gid, sizeof(gid), "%u", (unsigned)r->gid);
	n = in_ns(r, false, argv, 16);
	argv[n++] = (char *)prog(r, "install", false, inst, sizeof(inst));
	argv[n++] = "-d";
	argv[n++] = "-o";
	argv[n++] = uid;
	argv[n++] = "-g";
	argv[n++] = gid;
	argv[n++] = "-m";
	argv[n++] = "0700";
	argv[n++] = mnt;
	argv[n] = NULL;
	return tool(r, argv, "install", 60);
}

/* The server's files initialised in its data directory, as nobody. */
static int server_init(struct app_run *r)
{
	char data[APP_PATH_MAX + 16], opt[APP_PATH_MAX + 32], bin[300];
	char *argv[24];
	unsigned n = in_ns(r, true, argv, 16);

	snprintf(data, sizeof(data), "%s/data", r->rd.mnt);
	if (r->a->tool == APP_PGBENCH) {
		argv[n++] = (char *)prog(r, "initdb", true, bin, sizeof(bin));
		argv[n++] = "-D";
		argv[n++] = data;
		argv[n++] = "-A";
		argv[n++] = "trust";
		argv[n++] = "-U";
		argv[n++] = "bench";
		argv[n++] = "--no-sync";
		argv[n] = NULL;
		return tool(r, argv, "initdb", 600);
	}
	snprintf(opt, sizeof(opt), "--datadir=%s", data);
	argv[n++] = (char *)prog(r, "mariadb-install-db", false, bin, sizeof(bin));
	argv[n++] = "--no-defaults";
	argv[n++] = opt;
	argv[n++] = "--auth-root-authentication-method=normal";
	argv[n++] = "--skip-test-db";
	argv[n] = NULL;
	return tool(r, argv, "mariadb-install-db", 600);
}

/* Is the server answering on its socket? */
static bool server_ready(struct app_run *r)
{
	char bin[300], sock[APP_PATH_MAX + 32], name[APP_PATH_MAX + 16];
	int st;

	snprintf(name, sizeof(name), "%s/ping.out", r->rd.dir);
	if (r->a->tool == APP_PGBENCH) {
		char *argv[] = {(char *)prog(r, "pg_isready", true, bin, sizeof(bin)), "-q", "-h",
				r->rd.sock, "-U", "bench", "-d", "postgres", NULL};
		return !app_exec(argv, name, r->stop, 30, &st, r->err, r->errlen) && !st;
	}
	snprintf(sock, sizeof(sock), "--socket=%s/mysqld.sock", r->rd.sock);
	char *argv[] = {"mariadb-admin", "--no-defaults", sock, "-uroot", "ping", NULL};
	return !app_exec(argv, name, r->stop, 30, &st, r->err, r->errlen) && !st;
}

static int server_start(struct app_run *r)
{
	char data[APP_PATH_MAX + 16], o1[APP_PATH_MAX + 32], o2[APP_PATH_MAX + 32];
	char o3[APP_PATH_MAX + 32], bin[300], log[APP_PATH_MAX + 16];
	char *argv[32];
	unsigned n = in_ns(r, true, argv, 16);
	int ret;

	snprintf(data, sizeof(data), "%s/data", r->rd.mnt);
	snprintf(log, sizeof(log), "%s/server.log", r->rd.dir);
	if (r->a->tool == APP_PGBENCH) {
		char *pg[] = {(char *)prog(r, "postgres", true, bin, sizeof(bin)), "-D", data,
			      "-k", r->rd.sock, "-c", "listen_addresses=", NULL};
		for (unsigned i = 0; pg[i]; i++)
			argv[n++] = pg[i];
	} else {
		snprintf(o1, sizeof(o1), "--datadir=%s", data);
		snprintf(o2, sizeof(o2), "--socket=%s/mysqld.sock", r->rd.sock);
		snprintf(o3, sizeof(o3), "--pid-file=%s/mysqld.pid", r->rd.sock);
		char *my[] = {(char *)prog(r, "mariadbd", false, bin, sizeof(bin)),
			      "--no-defaults", o1, o2, o3, "--skip-networking", NULL};
		for (unsigned i = 0; my[i]; i++)
			argv[n++] = my[i];
	}
	argv[n] = NULL;
	if ((ret = app_spawn(argv, log, &r->server, r->err, r->errlen)))
		return ret;
	r->rd.server = (struct app_pid){r->server, app_pid_start(r->server)};
	app_rundir_save(&r->rd);
	char last[256];

	for (unsigned waited = 0; waited < APP_START_S * 2; waited++) {
		if (atomic_load(r->stop))
			return fail(r, -ECANCELED, "stopped while the server started");
		if (!app_pid_alive(&r->rd.server)) {
			app_last_line(log, last, sizeof(last));
			return fail(r, -EIO, "the server ended as it started: %s", last);
		}
		if (server_ready(r))
			return 0;
		struct timespec ts = {0, 500000000};
		nanosleep(&ts, NULL);
	}
	app_last_line(log, last, sizeof(last));
	return fail(r, -ETIMEDOUT, "the server was not ready after %u s: %s", APP_START_S,
		    last[0] ? last : "it said nothing");
}

/* A client's arguments for a run of secs at threads (0: the load) into argv. */
static unsigned client_args(struct app_run *r, char **argv, unsigned threads, unsigned secs,
			    bool logged, char opts[6][APP_PATH_MAX + 48], char *bin, size_t binlen)
{
	unsigned n = 0;

	if (r->a->tool == APP_PGBENCH) {
		argv[n++] = (char *)prog(r, "pgbench", true, bin, binlen);
		if (!threads) {
			snprintf(opts[0], sizeof(opts[0]), "%u", r->a->scale_factor);
			char *i[] = {"-i", "-q", "-s", opts[0]};
			for (unsigned k = 0; k < 4; k++)
				argv[n++] = i[k];
		} else {
			snprintf(opts[0], sizeof(opts[0]), "-c%u", threads);
			snprintf(opts[1], sizeof(opts[1]), "-j%u", threads);
			snprintf(opts[2], sizeof(opts[2]), "-T%u", secs);
			snprintf(opts[3], sizeof(opts[3]), "--log-prefix=%s/tx", r->rd.dir);
			argv[n++] = opts[0];
			argv[n++] = opts[1];
			argv[n++] = opts[2];
			argv[n++] = "-P1";
			if (logged) {
				argv[n++] = "-l";
				argv[n++] = opts[3];
			}
		}
		char *c[] = {"-h", r->rd.sock, "-U", "bench", "postgres"};
		for (unsigned k = 0; k < 5; k++)
			argv[n++] = c[k];
		argv[n] = NULL;
		return n;
	}
	argv[n++] = (char *)prog(r, "sysbench", false, bin, binlen);
	snprintf(opts[0], sizeof(opts[0]), "--mysql-socket=%s/mysqld.sock", r->rd.sock);
	snprintf(opts[1], sizeof(opts[1]), "--tables=%u", r->a->tables);
	snprintf(opts[2], sizeof(opts[2]), "--table-size=%llu", (unsigned long long)r->a->table_size);
	snprintf(opts[3], sizeof(opts[3]), "--threads=%u", threads ? threads : 1);
	snprintf(opts[4], sizeof(opts[4]), "--time=%u", secs);
	char *c[] = {"oltp_read_write", "--db-driver=mysql", opts[0], "--mysql-user=root",
		     "--mysql-db=sbtest", opts[1], opts[2], opts[3]};
	for (unsigned k = 0; k < 8; k++)
		argv[n++] = c[k];
	if (threads) {
		argv[n++] = opts[4];
		argv[n++] = "--percentile=99";
		argv[n++] = "--histogram=on";
		argv[n++] = "--report-interval=1";
	}
	argv[n++] = threads ? "run" : "prepare";
	argv[n] = NULL;
	return n;
}

static int sysbench_db(struct app_run *r)
{
	char sock[APP_PATH_MAX + 32];

	snprintf(sock, sizeof(sock), "--socket=%s/mysqld.sock", r->rd.sock);
	char *argv[] = {"mariadb", "--no-defaults", sock, "-uroot", "-e",
			"CREATE DATABASE IF NOT EXISTS sbtest", NULL};
	return tool(r, argv, "mariadb", 60);
}

/* A new step of the phase, told to the caller as started. */
static struct result_step *step_new(struct app_run *r, const char *label, unsigned threads,
				    const struct workload *wl)
{
	struct result_step *st = result_add_step(r->rp, label, wl);

	if (!st)
		return NULL;
	st->status = RS_INCOMPLETE;
	st->app.used = true;
	st->app.load = threads == 0;
	st->app.threads = threads;
	snprintf(st->app.tool, sizeof(st->app.tool), "%s", app_tool_name[r->a->tool]);
	snprintf(st->engine, sizeof(st->engine), "%s on %s (%s)", app_tool_name[r->a->tool],
		 app_fs_name[r->a->fs], r->a->tool == APP_PGBENCH ? "PostgreSQL" : "MariaDB");
	tell(r, RUN_EV_STEP_START, st, NULL, NULL);
	return st;
}

static void step_end(struct app_run *r, struct result_step *st, int ret)
{
	st->status = !ret ? RS_COMPLETE : ret == -ECANCELED ? RS_ABORTED : RS_FAILED;
	if (ret && ret != -ECANCELED)
		snprintf(st->error, sizeof(st->error), "%s", r->err);
	tell(r, RUN_EV_STEP_DONE, st, NULL, NULL);
	r->step++;
}

static int load(struct app_run *r)
{
	char opts[6][APP_PATH_MAX + 48], bin[300];
	char *argv[32];
	uint64_t a[11] = {0}, b[11] = {0}, t0;
	struct result_step *st;
	struct workload wl = r->ph->steps[0].wl;
	int ret = 0;

	wl.time_ns = wl.ramp_ns = 0;
	if (!(st = step_new(r, "load", 0, &wl)))
		return -ENOMEM;
	if (r->a->tool == APP_SYSBENCH_OLTP)
		ret = sysbench_db(r);
	client_args(r, argv, 0, 0, false, opts, bin, sizeof(bin));
	t0 = mono_ns();
	if (!ret && !(ret = dev_read(r, a)) && !(ret = tool(r, argv, "load", APP_LOAD_S)))
		ret = dev_read(r, b);
	if (!ret) {
		dev_summary(&st->summary, a, b, mono_ns() - t0);
		st->app.seconds = (double)st->summary.dur_ns / 1e9;
	}
	step_end(r, st, ret);
	return ret;
}

/*
 * A per-second report as a sample: transactions as its I/Os, TPS as its IOPS, the
 * second's latency as its average (pgbench) or 99th percentile (sysbench).
 */
static void interval_sample(const struct app_interval *iv, double prev, unsigned index,
			    struct sample *s)
{
	struct dir_stats *d = &s->d[DIR_ALL];

	memset(s, 0, sizeof(*s));
	s->index = index;
	s->start_ns = (uint64_t)(prev * 1e9);
	s->dur_ns = (uint64_t)((iv->end_s - prev) * 1e9);
	d->iops = iv->tps;
	d->ios = (uint64_t)(iv->tps * (iv->end_s - prev) + 0.5);
	if (iv->p99)
		d->pct_ns[PCT_99] = (uint64_t)(iv->lat_ms * 1e6);
	else
		d->mean_ns = iv->lat_ms * 1e6;
}

/* The tool's per-second reports, all of them, as the step's samples. */
static void step_samples(struct result_step *st, const char *text, size_t len, unsigned secs)
{
	struct app_interval *iv = calloc(secs + 16, sizeof(*iv));
	unsigned n = iv ? app_parse_intervals(text, len, iv, secs + 16) : 0;
	struct sample s;

	for (unsigned i = 0; i < n; i++) {
		interval_sample(&iv[i], i ? iv[i - 1].end_s : 0, i, &s);
		if (result_step_add_sample(st, &s))
			break;
	}
	free(iv);
}

/* The measured run's output as it grows: each new per-second report told as a sample. */
struct live {
	struct app_run *r;
	const struct result_step *st;
	char path[APP_PATH_MAX + 16];
	off_t off;
	unsigned n;
	double prev;
	size_t have;
	char buf[APP_PARSE_LINE_MAX];
	struct app_txlog *tx; /* pgbench: its transaction logs, read as they grow */
	int tx_ret;
	uint64_t failed;
	char tx_err[256];
};

static void live_lines(struct live *l, size_t whole)
{
	struct app_interval iv[16];
	unsigned n = app_parse_intervals(l->buf, whole, iv, 16);
	struct sample s;

	for (unsigned i = 0; i < n; i++)
		if (iv[i].end_s > l->prev) {
			interval_sample(&iv[i], l->prev, l->n++, &s);
			tell(l->r, RUN_EV_SAMPLE, l->st, &s, NULL);
			l->prev = iv[i].end_s;
		}
}

static void live_tick(void *arg)
{
	struct live *l = arg;
	int fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t got;

	if (fd < 0)
		return;
	while ((got = pread(fd, l->buf + l->have, sizeof(l->buf) - 1 - l->have, l->off)) > 0) {
		char *nl;
		l->off += got;
		l->have += (size_t)got;
		if (!(nl = memrchr(l->buf, '\n', l->have))) {
			if (l->have >= sizeof(l->buf) - 1)
				l->have = 0; /* a line past the bound: not a report */
			continue;
		}
		size_t whole = (size_t)(nl + 1 - l->buf);
		live_lines(l, whole);
		memmove(l->buf, l->buf + whole, l->have - whole);
		l->have -= whole;
	}
	close(fd);
	if (l->tx && !l->tx_ret)
		l->tx_ret = app_txlog_read(l->tx, l->r->h, &l->failed, false, l->tx_err,
					   sizeof(l->tx_err));
}

static struct live *live_new(struct app_run *r, const struct result_step *st)
{
	struct live *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	*l = (struct live){.r = r, .st = st};
	snprintf(l->path, sizeof(l->path), "%s/step.out", r->rd.dir);
	if (r->a->tool == APP_PGBENCH && !(l->tx = app_txlog_new(r->rd.dir))) {
		free(l);
		return NULL;
	}
	return l;
}

static void live_free(struct live *l)
{
	if (l)
		app_txlog_free(l->tx);
	free(l);
}

/* The measured run's report (RUNDIR/step.out) into the step. */
static int step_parse(struct app_run *r, struct result_step *st, unsigned secs,
		      const struct live *l)
{
	char path[APP_PATH_MAX + 16], e[256];
	struct app_figures f;
	char *text;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/step.out", r->rd.dir);
	if ((ret = fileio_read(path, "the tool's report", APP_OUT_MAX, &text, &len, e, sizeof(e))))
		return fail(r, ret, "%s", e);
	if (r->a->tool == APP_PGBENCH) {
		ret = app_parse_pgbench(text, len, &f, e, sizeof(e));
		if (!ret && l->tx_ret)
			ret = fail(r, l->tx_ret, "%s", l->tx_err);
		else if (!ret && !app_txlog_files(l->tx))
			ret = fail(r, -EINVAL, "pgbench: wrote no transaction log");
		if (!ret)
			app_figures_from_hist(&f, r->h);
	} else {
		ret = app_parse_sysbench(text, len, &f, r->h, e, sizeof(e));
	}
	if (!ret)
		step_samples(st, text, len, secs);
	free(text);
	if (ret)
		return r->err[0] ? ret : fail(r, ret, "%s", e);
	st->app.tps = f.tps;
	st->app.transactions = f.transactions;
	st->app.errors = f.errors;
	st->app.reconnects = f.reconnects;
	st->app.seconds = f.seconds;
	st->app.lat_avg_ms = f.lat_avg_ms;
	st->app.lat_p95_ms = f.lat_p95_ms;
	st->app.lat_p99_ms = f.lat_p99_ms;
	st->app.lat_max_ms = f.lat_max_ms;
	return 0;
}

static unsigned secs_of(uint64_t ns)
{
	uint64_t s = (ns + 999999999ull) / 1000000000ull;
	return s < 1 ? 1 : s > 86400 * 30 ? 86400 * 30 : (unsigned)s;
}

static int thread_step(struct app_run *r, const struct plan_step *ps)
{
	char opts[6][APP_PATH_MAX + 48], bin[300], label[64];
	unsigned threads = ps->wl.threads, secs = secs_of(ps->wl.time_ns);
	uint64_t a[11], b[11], t0;
	struct result_step *st;
	char *argv[32];
	int ret = 0;

	snprintf(label, sizeof(label), "%u threads", threads);
	if (!(st = step_new(r, label, threads, &ps->wl)))
		return -ENOMEM;
	r->err[0] = '\0';
	if (ps->wl.ramp_ns) {
		client_args(r, argv, threads, secs_of(ps->wl.ramp_ns), false, opts, bin,
			    sizeof(bin));
		ret = tool(r, argv, "warmup", secs_of(ps->wl.ramp_ns) + APP_STEP_GRACE_S);
	}
	client_args(r, argv, threads, secs, true, opts, bin, sizeof(bin));
	t0 = mono_ns();
	struct live *l = live_new(r, st);
	if (!l)
		ret = -ENOMEM;
	memset(r->h, 0, sizeof(*r->h));
	if (!ret && !(ret = dev_read(r, a)) &&
	    !(ret = tool_watch(r, argv, "step", secs + APP_STEP_GRACE_S, live_tick, l)) &&
	    !(ret = dev_read(r, b))) {
		dev_summary(&st->summary, a, b, mono_ns() - t0);
		if (l->tx && !l->tx_ret)
			l->tx_ret = app_txlog_read(l->tx, r->h, &l->failed, true, l->tx_err,
						   sizeof(l->tx_err));
		ret = step_parse(r, st, secs, l);
	}
	live_free(l);
	step_end(r, st, ret);
	return ret;
}

/* Server stopped, file system unmounted, keeper ended, RUNDIR removed: always. */
static void teardown(struct app_run *r)
{
	char e[128], out[APP_PATH_MAX + 32];
	char *argv[16];
	int st;

	/* PostgreSQL's fast shutdown is SIGINT (SIGTERM waits for clients) */
	if (r->server > 0)
		app_child_end(r->server, r->a->tool == APP_PGBENCH ? SIGINT : SIGTERM, 120);
	if (r->keeper > 0) {
		unsigned n = in_ns(r, false, argv, 10);
		argv[n++] = "umount";
		argv[n++] = r->rd.mnt;
		argv[n] = NULL;
		snprintf(out, sizeof(out), "%s/umount.out", r->rd.dir);
		if (app_exec(argv, out, NULL, 120, &st, e, sizeof(e)) || st)
			tell(r, RUN_EV_LOG, NULL, NULL,
			     "the file system did not unmount: it goes with its namespace");
		app_child_end(r->keeper, SIGKILL, 10);
	}
	if (r->rd.dir[0])
		app_rundir_remove(r->rd.dir);
}

int app_phase_run(const struct plan_phase *ph, const struct target *t, const char *app_dir,
		  atomic_int *stop, struct result_phase *rp, app_event_fn fn, void *arg, char *err,
		  size_t errlen)
{
	struct app_run r = {.ph = ph, .a = &ph->app, .t = t, .stop = stop, .rp = rp,
			    .fn = fn, .arg = arg, .err = err, .errlen = errlen};
	struct passwd *pw = getpwnam("nobody");
	int ret;

	err[0] = '\0';
	if (!t->is_blockdev) {
		snprintf(err, errlen, "%s: an [app] phase makes a file system: it needs a block device",
			 t->path);
		return -EINVAL;
	}
	r.uid = pw ? pw->pw_uid : 65534;
	r.gid = pw ? pw->pw_gid : 65534;
	if (!(r.h = malloc(sizeof(*r.h))))
		return -ENOMEM;
	if (!(ret = r.a->tool == APP_PGBENCH ? find_pgbin(&r) : 0) && !(ret = make_fs(&r)) &&
	    !(ret = app_rundir_make(&r.rd, app_dir, r.uid, r.gid, err, errlen)) &&
	    !(ret = mount_fs(&r)) && !(ret = server_init(&r)) && !(ret = server_start(&r))) {
		char msg[APP_PATH_MAX + 128];
		snprintf(msg, sizeof(msg), "%s: %s made on %s, server %d ready (socket in %s)",
			 app_tool_name[r.a->tool], app_fs_name[r.a->fs], t->path, (int)r.server,
			 r.rd.sock);
		tell(&r, RUN_EV_LOG, NULL, NULL, msg);
		ret = load(&r);
	}
	for (unsigned s = 0; !ret && s < ph->nsteps; s++)
		ret = atomic_load(stop) ? -ECANCELED : thread_step(&r, &ph->steps[s]);
	teardown(&r);
	free(r.h);
	return ret;
}
