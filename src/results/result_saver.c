// SPDX-License-Identifier: GPL-2.0-or-later
/* A result's saves on a thread of their own (result_saver.h). */
#include "result_saver.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "result_int.h"
#include "text.h"
#include "units.h"

#define WAIT_SLICE_NS 100000000ull /* a final save's wait looks for a signal this often */

enum saver_state { SAVER_IDLE, SAVER_GIVEN, SAVER_WRITTEN };

struct result_saver {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* the state changed, or quit */
	enum saver_state state;
	bool quit;	 /* the owner is done: end when idle */
	atomic_bool abandoned; /* the owner is gone: the thread frees everything, and the
				  save it was writing is not renamed into place */
	uint64_t given_ns;
	struct result_save save;
};

static void saver_free(struct result_saver *v)
{
	result_save_discard(&v->save);
	pthread_cond_destroy(&v->cond);
	pthread_mutex_destroy(&v->lock);
	free(v);
}

static void *saver_main(void *arg)
{
	struct result_saver *v = arg;

	pthread_mutex_lock(&v->lock);
	for (;;) {
		while (v->state != SAVER_GIVEN && !v->quit)
			pthread_cond_wait(&v->cond, &v->lock);
		if (v->state != SAVER_GIVEN)
			break;
		pthread_mutex_unlock(&v->lock);
		result_save_write(&v->save); /* where a dead file system holds the thread */
		pthread_mutex_lock(&v->lock);
		if (atomic_load(&v->abandoned)) {
			pthread_mutex_unlock(&v->lock);
			saver_free(v);
			return NULL;
		}
		v->state = SAVER_WRITTEN;
		pthread_cond_broadcast(&v->cond);
	}
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

struct result_saver *result_saver_start(void)
{
	struct result_saver *v = calloc(1, sizeof(*v));
	pthread_condattr_t ca;

	if (!v)
		return NULL;
	v->save.fd = -1;
	pthread_mutex_init(&v->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&v->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* signals stay the measuring thread's */
	if (bg_thread_start(&v->thread, false, saver_main, v)) {
		saver_free(v);
		return NULL;
	}
	return v;
}

int result_saver_give(struct result_saver *v, struct result_save *s)
{
	int ret = 0;

	pthread_mutex_lock(&v->lock);
	if (v->state != SAVER_IDLE) {
		ret = -EBUSY;
	} else {
		v->save = *s;
		v->save.cancel = &v->abandoned;
		*s = (struct result_save){.fd = -1};
		v->state = SAVER_GIVEN;
		v->given_ns = mono_now_ns();
		pthread_cond_broadcast(&v->cond);
	}
	pthread_mutex_unlock(&v->lock);
	return ret;
}

bool result_saver_take(struct result_saver *v, struct result_save *s, uint64_t wait_ns)
{
	uint64_t end = mono_now_ns() + wait_ns;
	struct timespec ts = {.tv_sec = (time_t)(end / 1000000000ull),
			      .tv_nsec = (long)(end % 1000000000ull)};
	bool taken = false;

	pthread_mutex_lock(&v->lock);
	while (wait_ns && v->state == SAVER_GIVEN &&
	       pthread_cond_timedwait(&v->cond, &v->lock, &ts) != ETIMEDOUT)
		;
	if (v->state == SAVER_WRITTEN) {
		*s = v->save;
		s->cancel = NULL;
		v->save = (struct result_save){.fd = -1};
		v->state = SAVER_IDLE;
		taken = true;
	}
	pthread_mutex_unlock(&v->lock);
	return taken;
}

uint64_t result_saver_busy_ns(struct result_saver *v)
{
	uint64_t ns = 0;

	pthread_mutex_lock(&v->lock);
	if (v->state == SAVER_GIVEN)
		ns = mono_now_ns() - v->given_ns;
	pthread_mutex_unlock(&v->lock);
	return ns;
}

bool result_saver_take_by(struct result_saver *v, struct result_save *s,
			  const struct result_wait *w)
{
	for (;;) {
		uint64_t now = mono_now_ns(), left = now < w->end ? w->end - now : 0;
		if (result_saver_take(v, s, left < WAIT_SLICE_NS ? left : WAIT_SLICE_NS))
			return true;
		if (!result_saver_busy_ns(v)) /* none given, or written just now */
			return result_saver_take(v, s, 0);
		if (now >= w->end || (w->stop && atomic_load(w->stop) != w->seen))
			return false;
	}
}

int result_saver_save_by(struct result_saver *v, const struct result *r, const char *path,
			 const struct result_wait *w, char *err, size_t errlen)
{
	struct result_save s;
	char d[32];
	int ret;

	if (!v)
		return result_save(r, path, err, errlen);
	if (!result_saver_busy_ns(v)) {
		if ((ret = result_save_prepare(r, path, &s, err, errlen)) < 0)
			return ret;
		if (result_saver_give(v, &s) < 0) { /* not while idle */
			result_save_write(&s);
			return result_save_finish(r, &s, err, errlen);
		}
		if (result_saver_take_by(v, &s, w))
			return result_save_finish(r, &s, err, errlen);
	}
	text_fmt(err, errlen,
		 "%s: its directory did not answer a save within %s (is its file system's server "
		 "gone, or its FUSE daemon hung?)",
		 path, units_fmt_duration(d, sizeof(d), mono_now_ns() - w->start));
	return -ETIMEDOUT;
}

void result_saver_stop(struct result_saver *v)
{
	if (!v)
		return;
	pthread_mutex_lock(&v->lock);
	if (v->state == SAVER_GIVEN) {
		/* still writing: the thread is the last to hold v, and frees it (maybe at once) */
		pthread_t t = v->thread;
		atomic_store(&v->abandoned, true);
		pthread_mutex_unlock(&v->lock);
		pthread_detach(t);
		return;
	}
	v->quit = true;
	pthread_cond_broadcast(&v->cond);
	pthread_mutex_unlock(&v->lock);
	pthread_join(v->thread, NULL);
	saver_free(v);
}
