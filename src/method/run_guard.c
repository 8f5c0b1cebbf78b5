// SPDX-License-Identifier: GPL-2.0-or-later
/* The door's check again while a run writes: run_guard.h. */
#include "run_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "inuse.h"
#include "target.h"
#include "text.h"

/* What appears with a mount or swap table change: a file system or swap over the reach,
   or a stack (dm, md, a loop) held on it. A process that opens it is the door's alone. */
#define TRIPS (INUSE_BIT(INUSE_MOUNTED) | INUSE_BIT(INUSE_SWAP) | INUSE_BIT(INUSE_HOLDER))

struct run_guard {
	const struct target *t;
	unsigned n;
	atomic_int *stop;
	int fds[3]; /* mountinfo, swaps: changes; an eventfd: the end */
	pthread_t tid;
	unsigned start[8]; /* what the door found at the start, per target: not news */
	bool tripped;
	char why[512];
};

/* A change of the table behind fd is read away, so that poll() waits for the next. */
static void drain(int fd)
{
	char buf[4096];

	lseek(fd, 0, SEEK_SET);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* The uses of what target i's writes reach, as kinds (INUSE_BIT()); reason[0] into why. */
static unsigned look(const struct run_guard *g, unsigned i, char *why, size_t len)
{
	const struct target *t = &g->t[i];
	struct inuse_obj o = {.is_file = !t->is_blockdev,
			      .dev = t->is_blockdev ? t->rdev : t->dev,
			      .ino = t->is_blockdev ? 0 : t->ino,
			      .path = !t->is_blockdev && t->resolved[0] ? t->resolved : NULL,
			      .len = INUSE_WHOLE};
	struct inuse_snapshot *snap;
	struct inuse use;
	char err[256];
	unsigned kinds = 0;

	if (inuse_snapshot_take(&snap, NULL, err, sizeof(err)) < 0)
		return 0;
	if (inuse_snapshot_check_obj(snap, &o, t->path, &use) == 0) {
		kinds = use.flags & TRIPS;
		for (unsigned k = 0; why && k < use.nreasons; k++)
			if (INUSE_BIT(use.reason[k].kind) & TRIPS & ~g->start[i]) {
				snprintf(why, len, "%s", use.reason[k].text);
				break;
			}
	}
	inuse_snapshot_free(snap);
	return kinds;
}

static void *watch(void *arg)
{
	struct run_guard *g = arg;
	struct pollfd p[3];

	for (unsigned i = 0; i < 3; i++)
		p[i] = (struct pollfd){.fd = g->fds[i], .events = i < 2 ? POLLPRI : POLLIN};
	for (;;) {
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (p[2].revents)
			return NULL;
		for (unsigned i = 0; i < 2; i++)
			if (p[i].revents)
				drain(g->fds[i]);
		for (unsigned i = 0; i < g->n; i++) {
			char what[256] = "";
			unsigned now = look(g, i, what, sizeof(what));
			if (!(now & ~g->start[i]))
				continue;
			snprintf(g->why, sizeof(g->why),
				 "%s came into use during the run (%s): stopped, its writes would "
				 "have gone on under it",
				 g->t[i].path, what);
			g->tripped = true;
			atomic_fetch_add(g->stop, 1);
			return NULL;
		}
	}
}

struct run_guard *run_guard_start(const struct target *targets, unsigned n, atomic_int *stop)
{
	struct run_guard *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	*g = (struct run_guard){.t = targets, .n = n < 8 ? n : 8, .stop = stop, .fds = {-1, -1, -1}};
	g->fds[0] = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	g->fds[1] = open("/proc/swaps", O_RDONLY | O_CLOEXEC);
	g->fds[2] = eventfd(0, EFD_CLOEXEC);
	if (g->fds[0] < 0 || g->fds[1] < 0 || g->fds[2] < 0)
		goto fail;
	drain(g->fds[0]);
	drain(g->fds[1]);
	/* what is there now was the door's to judge (a read-only mount of a file the run
	   only reads, say): news alone stops the run */
	for (unsigned i = 0; i < g->n; i++)
		g->start[i] = look(g, i, NULL, 0);
	if (pthread_create(&g->tid, NULL, watch, g))
		goto fail;
	return g;
fail:
	for (unsigned i = 0; i < 3; i++)
		if (g->fds[i] >= 0)
			close(g->fds[i]);
	free(g);
	return NULL;
}

bool run_guard_end(struct run_guard *g, char *buf, size_t len)
{
	bool tripped;

	if (!g)
		return false;
	if (write(g->fds[2], &(uint64_t){1}, sizeof(uint64_t)) < 0) {
		/* an eventfd counter never fills with one write */
	}
	pthread_join(g->tid, NULL);
	tripped = g->tripped;
	if (tripped)
		text_copy(buf, len, g->why);
	for (unsigned i = 0; i < 3; i++)
		close(g->fds[i]);
	free(g);
	return tripped;
}
