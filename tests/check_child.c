// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The child-process runner (child.h): output bounded, stderr's first line kept, a tool
 * that is not installed, and the time limit over the whole child: one that closes its
 * pipes and lingers, and one whose grandchild holds the pipes open, are both killed at
 * the limit with nothing of theirs left running. Where a tool is found (tool.h): never
 * in the working directory (an empty or relative entry of PATH), never on PATH as root
 * (DRIVEBENCH_TOOL_PATH or the system's directories then), a path as given. A child
 * started as a guest (guest.h): the given environment, the guest's directory and, as
 * root, nobody's identity; one that cannot be made the guest never runs, and is reaped.
 * The runner under them all (child_run_job()): stdout kept byte for byte, lines of both
 * streams to the callback (a long one in pieces), the environment and directory given,
 * the stop flag (the stop signal, SIGKILL after the grace, the group ended).
 */
#include "testlib.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "child.h"
#include "guest.h"
#include "tool.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

START_TEST(test_child_bounded)
{
	char *argv[] = {"sh", "-c", "yes 0123456789abcdef | head -c 100000; echo oops >&2; exit 3",
			NULL};
	struct child_output o;
	char err[256];

	ck_assert_int_eq(child_run(argv, 5000, 1000, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.out_len, 1000);
	ck_assert(o.truncated);
	ck_assert_int_eq(o.status, 3);
	ck_assert_str_eq(o.err_line, "oops");
	child_output_free(&o);
	/* blank lines first, in a read of their own: the line after them is the message */
	char *blank[] = {"sh", "-c", "echo >&2; printf ' \\n' >&2; sleep 0.2; echo 'no disk' >&2; "
			 "exit 1", NULL};
	ck_assert_int_eq(child_run(blank, 5000, 1000, &o, err, sizeof(err)), 0);
	ck_assert_str_eq(o.err_line, "no disk");
	child_output_free(&o);
	char *none[] = {"drivebench-no-such-tool", NULL};
	ck_assert_int_eq(child_run(none, 1000, 10, &o, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "drivebench-no-such-tool not installed");
}
END_TEST

/* Processes of process group pgid still running (zombies waiting for init not counted). */
static unsigned group_running(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[300], buf[512], state;
		int pgrp;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* pid (comm) state ppid pgrp: comm may hold spaces, so read after its ')' */
		if (fgets(buf, sizeof(buf), f)) {
			char *p = strrchr(buf, ')');
			if (p && sscanf(p + 1, " %c %*d %d", &state, &pgrp) == 2 && pgrp == pgid &&
			    state != 'Z')
				n++;
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

/* The fake tools: each writes its shell's pid (its process group's id) to PIDFILE first. */
static const struct {
	const char *what, *script;
} lingering[] = {
	{"closes its output and sleeps", "echo $$ >\"$PIDFILE\"; exec >&- 2>&-; sleep 60"},
	{"closes its output, ignores TERM and sleeps",
	 "echo $$ >\"$PIDFILE\"; trap '' TERM; exec >&- 2>&-; sleep 60"},
	{"exits, its grandchild holds the pipes",
	 "echo $$ >\"$PIDFILE\"; (sleep 60; echo late) & echo said; exit 0"},
	{"prints, its grandchild holds stderr", "echo $$ >\"$PIDFILE\"; sleep 60 >/dev/null & echo x"},
};

#define LIMIT_MS 300

START_TEST(test_child_lingers)
{
	char pidfile[] = "/tmp/drivebench-child-XXXXXX";
	char *argv[] = {"sh", "-c", (char *)lingering[_i].script, NULL};
	struct child_output o;
	char err[256];
	int64_t t0, took;
	int fd = mkstemp(pidfile);
	long pgid = 0;
	int ret, n = 0;
	FILE *f;

	ck_assert_int_ge(fd, 0);
	close(fd);
	setenv("PIDFILE", pidfile, 1);
	t0 = now_ms();
	ret = child_run(argv, LIMIT_MS, 1000, &o, err, sizeof(err));
	took = now_ms() - t0;
	f = fopen(pidfile, "r");
	if (f) {
		n = fscanf(f, "%ld", &pgid);
		fclose(f);
	}
	unlink(pidfile);
	ck_assert_int_eq(ret, -ETIMEDOUT);
	ck_assert_int_eq(n, 1);
	/* cut at the limit: generously, under ten times it */
	ck_assert_msg(took >= LIMIT_MS && took < 10 * LIMIT_MS, "%s: took %lld ms",
		      lingering[_i].what, (long long)took);
	ck_assert_str_eq(err, "sh did not finish within 1 s; it was stopped");
	ck_assert_ptr_null(o.out);
	/* the child is reaped and nothing of its process group runs on */
	ck_assert_int_eq(kill((pid_t)pgid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	for (int tries = 0; group_running((pid_t)pgid) && tries < 100; tries++)
		usleep(10000); /* SIGKILL is delivered, the dying may take a moment */
	ck_assert_uint_eq(group_running((pid_t)pgid), 0);
}
END_TEST

/* A child that exits within the limit while its output is read is not waited on longer. */
START_TEST(test_child_quick)
{
	char *argv[] = {"sh", "-c", "echo hi; exit 7", NULL};
	struct child_output o;
	char err[256];
	int64_t t0 = now_ms();

	ck_assert_int_eq(child_run(argv, 60000, 100, &o, err, sizeof(err)), 0);
	ck_assert_int_lt(now_ms() - t0, 5000);
	ck_assert_str_eq(o.out, "hi\n");
	ck_assert_int_eq(o.status, 7);
	child_output_free(&o);
}
END_TEST

/* stdout as it was written: no newline added at its end, a NUL and a long line kept. */
START_TEST(test_child_exact)
{
	char *argv[] = {"sh", "-c", "printf 'a\\000b\\n\\n'; head -c 10000 /dev/zero | tr '\\0' x; "
			"printf 'end'", NULL};
	struct child_output o;
	char err[256];

	ck_assert_int_eq(child_run(argv, 5000, 20000, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.out_len, 5 + 10000 + 3);
	ck_assert_int_eq(memcmp(o.out, "a\0b\n\n", 5), 0);
	ck_assert_uint_eq(strspn(o.out + 5, "x"), 10000);
	ck_assert_str_eq(o.out + 10005, "end");
	ck_assert(!o.truncated);
	child_output_free(&o);
}
END_TEST

/* What child_run_job() hands its callbacks: every line, in order, of each stream. */
struct job_log {
	char lines[16][64];
	enum child_stream stream[16];
	bool ended[16];
	size_t len[16];
	unsigned n;
	unsigned ticks;
	atomic_int stop;
	const char *stop_after; /* set stop once this line has come */
};

static void log_line(void *arg, enum child_stream s, const char *line, size_t len, bool ended)
{
	struct job_log *l = arg;

	if (l->stop_after && !strcmp(line, l->stop_after))
		atomic_store(&l->stop, 1);
	if (l->n == 16)
		return;
	snprintf(l->lines[l->n], sizeof(l->lines[0]), "%s", line);
	l->stream[l->n] = s;
	l->ended[l->n] = ended;
	l->len[l->n++] = len;
}

static void log_tick(void *arg, pid_t pid)
{
	(void)pid;
	((struct job_log *)arg)->ticks++;
}

/* Lines of stdout and stderr, a long one in pieces, an unended last one; env and cwd. */
START_TEST(test_job_lines)
{
	char *argv[] = {"/bin/sh", "-c", "echo \"$DRIVEBENCH_X\"; pwd; echo oops >&2; sleep 0.1; "
			"head -c 5000 /dev/zero | tr '\\0' y; echo; printf last", NULL};
	char *envp[] = {"DRIVEBENCH_X=given", "PATH=/usr/bin:/bin", NULL};
	const struct child_spawn_opts so = {.envp = envp, .cwd = "/"};
	static struct job_log l;
	const struct child_job j = {.spawn = &so, .on_line = log_line, .on_tick = log_tick,
				    .arg = &l};
	char err[256];
	int wstatus;

	memset(&l, 0, sizeof(l));
	ck_assert_msg(child_run_job(argv, &j, &wstatus, err, sizeof(err)) == 0, "%s", err);
	ck_assert(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	ck_assert_uint_eq(l.n, 6);
	ck_assert_str_eq(l.lines[0], "given");
	ck_assert_str_eq(l.lines[1], "/");
	ck_assert_int_eq(l.stream[2], CHILD_STDERR);
	ck_assert_str_eq(l.lines[2], "oops");
	/* 5000 bytes: a piece of CHILD_LINE_MAX, not ended, then the rest, ended */
	ck_assert_uint_eq(l.len[3], CHILD_LINE_MAX);
	ck_assert(!l.ended[3]);
	ck_assert_uint_eq(l.len[4], 5000 - CHILD_LINE_MAX);
	ck_assert(l.ended[4]);
	ck_assert_str_eq(l.lines[5], "last");
	ck_assert(!l.ended[5]);
	ck_assert_int_eq(l.stream[5], CHILD_STDOUT);
	ck_assert_uint_gt(l.ticks, 0);
}
END_TEST

/*
 * The stop flag: the stop signal, which a child may answer (it ends as it likes), or
 * not, when SIGKILL follows after the grace; with end_group, what it leaves in its group
 * is killed once it has exited; without a stop signal, SIGKILL at once.
 */
static const struct {
	const char *script;
	int stop_signal;
	bool end_group;
	int status;	  /* its exit status, or -SIGNAL */
	int64_t min_ms;	  /* it took at least this long: the grace */
} stops[] = {
	{"trap 'echo int; exit 5' INT; echo ready; while :; do sleep 0.05; done", SIGINT, false,
	 5, 0},
	{"trap '' INT; echo ready; while :; do sleep 0.05; done", SIGINT, false, -SIGKILL, 300},
	{"echo ready; while :; do sleep 0.05; done", 0, false, -SIGKILL, 0},
	{"echo $$ >\"$PIDFILE\"; trap 'exit 0' INT; sleep 60 >/dev/null 2>&1 & echo ready; "
	 "while :; do sleep 0.05; done", SIGINT, true, 0, 0},
};

START_TEST(test_job_stop)
{
	char pidfile[] = "/tmp/drivebench-child-XXXXXX";
	char *argv[] = {"sh", "-c", (char *)stops[_i].script, NULL};
	static struct job_log l;
	const struct child_job j = {.on_line = log_line, .arg = &l, .stop = &l.stop,
				    .stop_signal = stops[_i].stop_signal, .stop_grace_ms = 300,
				    .end_group = stops[_i].end_group, .timeout_ms = 20000};
	int fd = mkstemp(pidfile), wstatus;
	char err[256];
	long pgid = 0;
	int64_t took;
	FILE *f;

	ck_assert_int_ge(fd, 0);
	close(fd);
	setenv("PIDFILE", pidfile, 1);
	memset(&l, 0, sizeof(l));
	l.stop_after = "ready";
	int64_t t0 = now_ms();
	ck_assert_msg(child_run_job(argv, &j, &wstatus, err, sizeof(err)) == 0, "%s", err);
	took = now_ms() - t0;
	if (stops[_i].status >= 0)
		ck_assert(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == stops[_i].status);
	else
		ck_assert(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == -stops[_i].status);
	ck_assert_int_ge(took, stops[_i].min_ms);
	ck_assert_int_lt(took, 10000);
	if (stops[_i].status == 5)
		ck_assert_str_eq(l.lines[l.n - 1], "int");
	f = fopen(pidfile, "r");
	if (f) {
		if (fscanf(f, "%ld", &pgid) != 1)
			pgid = 0;
		fclose(f);
	}
	unlink(pidfile);
	if (stops[_i].end_group) {
		ck_assert_int_gt(pgid, 0);
		for (int tries = 0; group_running((pid_t)pgid) && tries < 100; tries++)
			usleep(10000);
		ck_assert_uint_eq(group_running((pid_t)pgid), 0);
	}
}
END_TEST

/* A directory with an executable "drivebench-fake-tool" in it: its path in dir. */
static void fake_tool_dir(char *dir, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(dir, len, "/tmp/check-child-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/drivebench-fake-tool", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\necho fake\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

static void fake_tool_dir_remove(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/drivebench-fake-tool", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * PATH and DRIVEBENCH_TOOL_PATH ("DIR" stands for the fake tool's directory, "-" unset),
 * run from that directory: where the tool is found as root and as anyone else ("DIR":
 * there; "": nowhere).
 */
static const struct {
	const char *path, *tool_path, *as_root, *as_user;
} lookups[] = {
	{":/nonexistent", "-", "", ""},		/* an empty entry: the working directory */
	{".", "-", "", ""},			/* so is "." */
	{"relative:/nonexistent", "-", "", ""},
	{"DIR", "-", "", "DIR"},		/* PATH: not as root */
	{"/nonexistent", "DIR", "DIR", ""},	/* DRIVEBENCH_TOOL_PATH: as root only */
	{"/nonexistent", ":relative:DIR", "DIR", ""},
};

static const char *expand(const char *s, const char *dir, char *buf, size_t len)
{
	const char *at = strstr(s, "DIR");

	if (!at)
		return s;
	snprintf(buf, len, "%.*s%s%s", (int)(at - s), s, dir, at + 3);
	return buf;
}

START_TEST(test_tool_find)
{
	char dir[64], got[512], want[512], a[512], b[512];
	bool root = geteuid() == 0;
	const char *expect;

	fake_tool_dir(dir, sizeof(dir));
	ck_assert_int_eq(chdir(dir), 0);
	setenv("PATH", expand(lookups[_i].path, dir, a, sizeof(a)), 1);
	if (strcmp(lookups[_i].tool_path, "-"))
		setenv("DRIVEBENCH_TOOL_PATH", expand(lookups[_i].tool_path, dir, b, sizeof(b)), 1);
	else
		unsetenv("DRIVEBENCH_TOOL_PATH");
	expect = root ? lookups[_i].as_root : lookups[_i].as_user;
	int ret = tool_find("drivebench-fake-tool", got, sizeof(got));
	if (!expect[0]) {
		ck_assert_int_eq(ret, -ENOENT);
		/* and child_run does not run the one in the working directory either */
		char *argv[] = {"drivebench-fake-tool", NULL};
		struct child_output o;
		char err[256];
		ck_assert_int_eq(child_run(argv, 5000, 100, &o, err, sizeof(err)), -ENOENT);
	} else {
		snprintf(want, sizeof(want), "%s/drivebench-fake-tool", dir);
		ck_assert_int_eq(ret, 0);
		ck_assert_str_eq(got, want);
	}
	/* a path with a '/' is taken as it is */
	ck_assert_int_eq(tool_find("./drivebench-fake-tool", got, sizeof(got)), 0);
	ck_assert_str_eq(got, "./drivebench-fake-tool");
	fake_tool_dir_remove(dir);
}
END_TEST

/* As root, a tool of the system is found in the system's directories, whatever PATH says. */
START_TEST(test_tool_system)
{
	char got[512];

	setenv("PATH", "/nonexistent", 1);
	unsetenv("DRIVEBENCH_TOOL_PATH");
	if (geteuid() != 0) {
		ck_assert_int_eq(tool_find("sh", got, sizeof(got)), -ENOENT);
		return;
	}
	ck_assert_int_eq(tool_find("sh", got, sizeof(got)), 0);
	ck_assert(!strcmp(got, "/usr/bin/sh") || !strcmp(got, "/bin/sh") ||
		  !strcmp(got, "/usr/local/bin/sh"));
	ck_assert_str_eq(tool_search_path(), TOOL_SYSTEM_PATH);
}
END_TEST

/* The child's stdout, read to its end, and its exit status. */
static int read_child(pid_t pid, int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int wstatus;

	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
}

/* As a guest: the environment given, the guest's directory, nobody when root. */
START_TEST(test_spawn_guest)
{
	char *argv[] = {"/bin/sh", "-c", "id -u; pwd; echo \"$DRIVEBENCH_X\"", NULL};
	char *envp[] = {"DRIVEBENCH_X=given", "PATH=/usr/bin:/bin", NULL};
	char err[256], out[1024], want[1024];
	struct guest g;
	int p[2];
	pid_t pid;

	ck_assert_int_eq(guest_open(&g, "check-child", err, sizeof(err)), 0);
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	struct child_spawn_opts o = {.envp = envp, .guest = &g};
	ck_assert_msg(child_spawn(argv, &o, p[1], p[1], &pid, err, sizeof(err)) == 0, "%s", err);
	close(p[1]);
	ck_assert_int_eq(read_child(pid, p[0], out, sizeof(out)), 0);
	close(p[0]);
	snprintf(want, sizeof(want), "%u\n%s\ngiven\n", g.drop ? (unsigned)g.uid : geteuid(),
		 g.dir);
	ck_assert_str_eq(out, want);
	guest_close(&g);
}
END_TEST

/* A guest that cannot be made one (its directory gone): not run, reaped, the reason said. */
START_TEST(test_spawn_guest_fails)
{
	char *argv[] = {"/bin/sh", "-c", "echo ran", NULL};
	char err[256];
	struct guest g;
	int p[2], wstatus;
	pid_t pid = 0;

	ck_assert_int_eq(guest_open(&g, "check-child", err, sizeof(err)), 0);
	close(g.dir_fd);
	g.dir_fd = -1;
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	struct child_spawn_opts o = {.guest = &g};
	ck_assert_int_eq(child_spawn(argv, &o, p[1], p[1], &pid, err, sizeof(err)), -EBADF);
	close(p[1]);
	ck_assert_msg(strstr(err, g.drop ? "/bin/sh: could not drop to nobody: "
					 : "/bin/sh: could not fence it in "), "%s", err);
	ck_assert_int_eq(waitpid(-1, &wstatus, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	ck_assert_int_eq(read(p[0], err, sizeof(err)), 0); /* it said nothing */
	close(p[0]);
	guest_close(&g);
}
END_TEST

/*
 * The process state the tests change (PATH, DRIVEBENCH_TOOL_PATH, PIDFILE, the working
 * directory) put back after each, so that with CK_FORK=no no test runs in another's.
 */
static char saved_cwd[4096], *saved_path, *saved_tool_path;

static void env_save(void)
{
	const char *tp = getenv("DRIVEBENCH_TOOL_PATH");

	ck_assert_ptr_nonnull(getcwd(saved_cwd, sizeof(saved_cwd)));
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	saved_tool_path = tp ? strdup(tp) : NULL;
}

static void env_restore(void)
{
	if (chdir(saved_cwd))
		perror(saved_cwd);
	setenv("PATH", saved_path, 1);
	if (saved_tool_path)
		setenv("DRIVEBENCH_TOOL_PATH", saved_tool_path, 1);
	else
		unsetenv("DRIVEBENCH_TOOL_PATH");
	unsetenv("PIDFILE");
	free(saved_path);
	free(saved_tool_path);
}

static Suite *child_suite(void)
{
	Suite *s = suite_create("child");
	TCase *tc = tcase_create("child");

	tcase_add_checked_fixture(tc, env_save, env_restore);

	tcase_add_test(tc, test_child_bounded);
	tcase_add_test(tc, test_child_quick);
	tcase_add_test(tc, test_child_exact);
	tcase_add_test(tc, test_job_lines);
	tcase_add_loop_test(tc, test_job_stop, 0, (int)(sizeof(stops) / sizeof(stops[0])));
	tcase_add_loop_test(tc, test_tool_find, 0, (int)(sizeof(lookups) / sizeof(lookups[0])));
	tcase_add_test(tc, test_tool_system);
	tcase_add_test(tc, test_spawn_guest);
	tcase_add_test(tc, test_spawn_guest_fails);
	tcase_add_loop_test(tc, test_child_lingers, 0,
			    (int)(sizeof(lingering) / sizeof(lingering[0])));
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(child_suite)
