// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-use checks: the descriptor tables of a process, its threads' included, each read
 * once (inuse_int.h says why a thread's table can be its own).
 */
#include "inuse.h"
#include "inuse_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

void inuse_tables_start(struct inuse_tables *t, const char *proc, const char *pid)
{
	/* kcmp() takes pids as this process sees them: the real /proc's only */
	*t = (struct inuse_tables){.proc = proc, .pid = pid, .kcmp = !strcmp(proc, "/proc")};
}

static long kcmp_files(long a, long b)
{
	return syscall(SYS_kcmp, (pid_t)a, (pid_t)b, KCMP_FILES, 0, 0);
}

/*
 * Task tid's table need not be read: it is one already given, or the kernel does not let
 * this process look into that task (the ptrace access check kcmp() makes is the one
 * /proc/PID/task/TID/fd makes to follow a descriptor: nothing there could be read). A
 * zombie leader has no table; kcmp() says it differs from every other.
 */
static bool table_known(struct inuse_tables *t, long tid)
{
	bool denied = false;

	if (t->kcmp && !t->probed) {
		t->probed = true; /* no kcmp(), or a filter that refuses it (a container's) */
		t->kcmp = kcmp_files(getpid(), getpid()) == 0;
	}
	for (size_t i = 0; t->kcmp && i < t->ngiven; i++) {
		long r = kcmp_files(t->given[i], tid);
		if (r == 0)
			return true;
		denied |= r < 0 && (errno == EPERM || errno == EACCES);
	}
	/* denied for the pair: for tid itself, or only for the task it was compared with */
	return t->kcmp && denied && kcmp_files(tid, tid) != 0;
}

bool inuse_next_table(struct inuse_tables *t, char *buf, size_t len)
{
	char path[PATH_MAX];
	struct dirent *te;
	struct stat st;

	if (!t->started) {
		t->started = true;
		t->given[t->ngiven++] = strtol(t->pid, NULL, 10);
		snprintf(path, sizeof(path), "%s/%s/task", t->proc, t->pid);
		/* procfs counts a process's threads in its task directory's links (2 + the
		   threads, a zombie leader included): one thread has no other table */
		if (!t->kcmp || stat(path, &st) || st.st_nlink > 3)
			t->task = opendir(path);
		snprintf(buf, len, "%s", t->pid);
		return true;
	}
	while (t->task && (te = readdir(t->task))) {
		long tid = strtol(te->d_name, NULL, 10);
		if (tid <= 0 || !strcmp(te->d_name, t->pid) || table_known(t, tid))
			continue;
		if (t->ngiven < INUSE_TABLES_COMPARED)
			t->given[t->ngiven++] = tid;
		if ((size_t)snprintf(buf, len, "%s/task/%s", t->pid, te->d_name) >= len)
			continue;
		return true;
	}
	if (t->task)
		closedir(t->task);
	t->task = NULL;
	return false;
}
