// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A child process as a guest (guest.h): its place (a 0711 top of the caller's, its own
 * 0700 directory), its identity as root (nobody, no groups, no new privileges), its fence
 * (with Landlock, nothing written outside its directory), and what the caller finds when
 * it takes the directory back: the guest's plain files only, never a link to one of the
 * caller's, a FIFO or a directory of its making. Where the place is made: TMPDIR only
 * when it is a directory no one else can change.
 */
#include "testlib.h"

#include <ftw.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "guest.h"

/* Run fn as the guest in a forked child; its exit status (0: every step did as told). */
static int as_guest(const struct guest *g, int (*fn)(const char *arg), const char *arg)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (guest_enter(g))
			_exit(100);
		_exit(fn(arg));
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The guest: who it is, and what it leaves in its directory for the caller. */
static int guest_acts(const char *secret)
{
	char cwd[256];

	if (!getcwd(cwd, sizeof(cwd)) || strncmp(cwd, "/tmp/check-guest-", 17))
		return 1;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return 2;
	if (geteuid() == 0 || getegid() == 0 || getgroups(0, NULL) > 0 || !setuid(0))
		return 3;
	if (open(secret, O_RDONLY) >= 0)
		return 4; /* root's file: not the guest's to read */
	int fd = open("log", O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || write(fd, "1, 2\n", 5) != 5 || close(fd))
		return 5;
	/* what the caller must not read as the guest's: a link to its file, a FIFO, a
	   directory with a link in it */
	if (symlink(secret, "log.link") || mkfifo("log.fifo", 0600) || mkdir("sub", 0700) ||
	    symlink(secret, "sub/log"))
		return 6;
	return 0;
}

START_TEST(test_guest_as_root)
{
	char secret[] = "/tmp/check-guest-secret-XXXXXX", path[256];
	struct guest g;
	struct stat st;
	char err[256];

	if (geteuid() != 0) {
		printf("SKIP: check_guest: not root, the guest keeps the caller's identity\n");
		return;
	}
	int fd = mkstemp(secret);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "secret\n", 7), 7);
	close(fd);
	ck_assert_int_eq(guest_open(&g, "check-guest", err, sizeof(err)), 0);
	ck_assert(g.drop);
	ck_assert_int_eq(stat(g.top, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0711);
	ck_assert_uint_eq(st.st_uid, 0);
	ck_assert_int_eq(stat(g.dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	ck_assert_uint_eq(st.st_uid, g.uid);
	ck_assert_uint_ne(g.uid, 0);
	ck_assert_int_eq(as_guest(&g, guest_acts, secret), 0);

	ck_assert_int_eq(guest_reclaim(&g), 0);
	ck_assert_int_eq(stat(g.dir, &st), 0);
	ck_assert_uint_eq(st.st_uid, 0); /* the caller's again: the guest cannot change it */
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	snprintf(path, sizeof(path), "%s/log", g.dir);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	const char *gone[] = {"log.link", "log.fifo", "sub"};
	for (unsigned i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", g.dir, gone[i]);
		ck_assert_msg(lstat(path, &st) < 0 && errno == ENOENT, "%s is left", gone[i]);
	}
	char top[sizeof(g.top)];
	snprintf(top, sizeof(top), "%s", g.top);
	guest_close(&g);
	ck_assert_int_lt(stat(top, &st), 0);
	ck_assert_int_eq(stat(secret, &st), 0); /* the link's target untouched */
	unlink(secret);
}
END_TEST

/* Behind the fence: a file in a directory anyone may write to is out of reach. */
static int guest_writes_outside(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/from-guest", dir);
	if (open(path, O_WRONLY | O_CREAT, 0644) >= 0)
		return 1;
	if (errno != EACCES)
		return 2;
	return open("inside", O_WRONLY | O_CREAT, 0644) < 0 ? 3 : 0;
}

START_TEST(test_guest_fence)
{
	char open_dir[] = "/tmp/check-guest-open-XXXXXX", path[300], err[256];
	struct guest g;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(open_dir));
	ck_assert_int_eq(chmod(open_dir, 01777), 0);
	ck_assert_int_eq(guest_open(&g, "check-guest", err, sizeof(err)), 0);
	if (!g.landlock_abi) {
		printf("SKIP: check_guest: no Landlock in this kernel, no fence to test\n");
	} else {
		ck_assert_int_eq(as_guest(&g, guest_writes_outside, open_dir), 0);
		snprintf(path, sizeof(path), "%s/from-guest", open_dir);
		ck_assert_int_lt(stat(path, &st), 0);
	}
	guest_close(&g);
	rmdir(open_dir);
}
END_TEST

/* TMPDIR ("DIR": a new directory of this mode, "-": unset) and whether TOP is made in it. */
static const struct {
	const char *tmpdir;
	unsigned mode;
	bool used;
} bases[] = {
	{"-", 0, false},
	{"DIR", 0711, true},
	{"DIR", 01777, true},	/* sticky: no one renames another's */
	{"DIR", 0777, false},	/* anyone could swap TOP */
	{"DIR", 0771, false},
	{"relative", 0, false},
	{"/nonexistent/tmp", 0, false},
};

START_TEST(test_guest_base)
{
	char dir[] = "/tmp/check-guest-base-XXXXXX", err[256], want[300];
	struct guest g;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, bases[_i].mode ? bases[_i].mode : 0700), 0);
	if (!strcmp(bases[_i].tmpdir, "-"))
		unsetenv("TMPDIR");
	else
		setenv("TMPDIR", strcmp(bases[_i].tmpdir, "DIR") ? bases[_i].tmpdir : dir, 1);
	ck_assert_int_eq(guest_open(&g, "check-guest", err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/check-guest-", bases[_i].used ? dir : "/tmp");
	ck_assert_msg(!strncmp(g.top, want, strlen(want)), "%s, not %s", g.top, want);
	guest_close(&g);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(path);
}

/*
 * A place that cannot be removed (directories deeper than guest_close() goes) is said to
 * be left behind, not passed over: fio's lab logs used to stay in /tmp unannounced. One
 * that can is gone, with 0.
 */
START_TEST(test_guest_left_behind)
{
	char err[256], path[4096], top[sizeof(((struct guest *)0)->top)];
	struct guest g;
	struct stat st;
	size_t n;

	ck_assert_int_eq(guest_open(&g, "check-guest", err, sizeof(err)), 0);
	snprintf(top, sizeof(top), "%s", g.top);
	ck_assert_int_eq(guest_close(&g), 0);
	ck_assert_int_lt(stat(top, &st), 0);

	ck_assert_int_eq(guest_open(&g, "check-guest", err, sizeof(err)), 0);
	snprintf(top, sizeof(top), "%s", g.top);
	n = (size_t)snprintf(path, sizeof(path), "%s", g.dir);
	for (unsigned depth = 0; depth < 24; depth++) {
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/d");
		ck_assert_int_eq(mkdir(path, 0700), 0);
	}
	int ret = guest_close(&g);
	int left = stat(top, &st) == 0;
	if (left)
		nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	ck_assert_int_eq(ret, -ENOTEMPTY);
	ck_assert(left);
}
END_TEST

static Suite *guest_suite(void)
{
	Suite *s = suite_create("guest");
	TCase *tc = tcase_create("guest");

	tcase_add_test(tc, test_guest_as_root);
	tcase_add_test(tc, test_guest_fence);
	tcase_add_test(tc, test_guest_left_behind);
	tcase_add_loop_test(tc, test_guest_base, 0, (int)(sizeof(bases) / sizeof(bases[0])));
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(guest_suite)
