// SPDX-License-Identifier: GPL-2.0-or-later
#include "signatures.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "text.h"

/* Value name of the probe's current signature into buf (visible), or "". */
static void value(blkid_probe pr, const char *name, char *buf, size_t len)
{
	const char *v = NULL;

	buf[0] = '\0';
	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		text_visible(buf, len, v);
}

int sig_probe_fd(int fd, struct sig_list *out)
{
	char link[64], off[32];
	blkid_probe pr;
	int rfd, ret = 0;

	memset(out, 0, sizeof(*out));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	rfd = open(link, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (rfd < 0)
		return -errno;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, rfd, 0, 0) != 0) {
		ret = pr ? -EIO : -ENOMEM;
		goto out;
	}
	/* as wipefs: every superblock and partition table, with where its magic is */
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID |
						      BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while (blkid_do_probe(pr) == 0) {
		struct sig s = {0};
		value(pr, "TYPE", s.type, sizeof(s.type));
		if (!s.type[0]) {
			value(pr, "PTTYPE", s.type, sizeof(s.type));
			s.table = true;
		}
		if (!s.type[0])
			continue;
		value(pr, s.table ? "PTMAGIC_OFFSET" : "SBMAGIC_OFFSET", off, sizeof(off));
		s.offset = strtoull(off, NULL, 10);
		if (!s.table) {
			value(pr, "LABEL", s.label, sizeof(s.label));
			value(pr, "UUID", s.uuid, sizeof(s.uuid));
		}
		if (out->n < SIG_MAX)
			out->s[out->n++] = s;
		else
			out->more++;
	}
out:
	if (pr)
		blkid_free_probe(pr);
	close(rfd);
	return ret;
}

int sig_probe_path(const char *path, struct sig_list *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return -errno;
	ret = sig_probe_fd(fd, out);
	close(fd);
	return ret;
}

/* One bounded probe, shared by the caller and its thread: the last of them frees it. */
struct probe_job {
	pthread_mutex_t lock;
	pthread_cond_t done_cv;
	unsigned refs;
	bool done;
	int ret;
	struct sig_list sl;
	char path[];
};

static void job_put(struct probe_job *j)
{
	bool last = --j->refs == 0;

	pthread_mutex_unlock(&j->lock);
	if (last) {
		pthread_cond_destroy(&j->done_cv);
		pthread_mutex_destroy(&j->lock);
		free(j);
	}
}

static void *probe_thread(void *arg)
{
	struct probe_job *j = arg;
	struct sig_list sl;
	int ret = sig_probe_path(j->path, &sl);

	pthread_mutex_lock(&j->lock);
	j->sl = sl;
	j->ret = ret;
	j->done = true;
	pthread_cond_signal(&j->done_cv);
	job_put(j);
	return NULL;
}

int sig_probe_path_within(const char *path, struct sig_list *out, unsigned ms)
{
	size_t n = strlen(path) + 1;
	struct probe_job *j = calloc(1, sizeof(*j) + n);
	pthread_condattr_t ca;
	sigset_t all, old;
	struct timespec end;
	pthread_t th;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!j)
		return -ENOMEM;
	memcpy(j->path, path, n);
	j->refs = 2;
	pthread_mutex_init(&j->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&j->done_cv, &ca);
	pthread_condattr_destroy(&ca);
	/* the thread takes no signals: they stay the caller's (a screen's resize, ^C) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&th, NULL, probe_thread, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_lock(&j->lock);
	if (ret) {
		j->refs = 1;
		job_put(j);
		return ret;
	}
	pthread_detach(th);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while (!j->done && pthread_cond_timedwait(&j->done_cv, &j->lock, &end) != ETIMEDOUT)
		;
	ret = j->done ? j->ret : -ETIMEDOUT;
	if (j->done)
		*out = j->sl;
	job_put(j);
	return ret;
}

/* A signature in words: "ext4 file system", "LVM2 member", "swap area", "dos partition
   table". */
static void words(const struct sig *s, char *buf, size_t len)
{
	size_t n = strlen(s->type), k = strlen("_member");

	if (s->table)
		snprintf(buf, len, "%s partition table", s->type);
	else if (!strcmp(s->type, "swap"))
		snprintf(buf, len, "swap area");
	else if (!strcmp(s->type, "crypto_LUKS"))
		snprintf(buf, len, "LUKS volume");
	else if (n > k && !strcmp(s->type + n - k, "_member"))
		snprintf(buf, len, "%.*s member", (int)(n - k), s->type);
	else
		snprintf(buf, len, "%s file system", s->type);
}

char *sig_describe(const struct sig_list *l, char *buf, size_t len)
{
	size_t o = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < l->n && o < len; i++) {
		const struct sig *s = &l->s[i];
		char what[64];
		words(s, what, sizeof(what));
		int w = snprintf(buf + o, len - o, "%s%s%s%s%s%s%s%s at 0x%llx", i ? ", " : "",
				 what, s->label[0] ? " '" : "", s->label, s->label[0] ? "'" : "",
				 s->uuid[0] ? " (UUID " : "", s->uuid, s->uuid[0] ? ")" : "",
				 (unsigned long long)s->offset);
		o += w > 0 ? (size_t)w : 0;
	}
	if (l->more && o < len)
		snprintf(buf + o, len - o, " and %u more", l->more);
	return buf;
}
