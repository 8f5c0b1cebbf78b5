// SPDX-License-Identifier: GPL-2.0-or-later
#include "signatures.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* What the prober sends back through its pipe. */
struct probe_msg {
	int ret;
	struct sig_list sl;
};

/*
 * The prober, a grandchild of the caller, in a session of its own (no terminal's signals
 * reach it): it holds the one descriptor it probes and the pipe, and no other (not a
 * result's lock, not an output, not the standard streams), so a read that never returns
 * keeps nothing of the caller's. While it waits it holds the device open, so the caller's
 * own last close of it (at exit) does not wait for that read to end: the prober's does.
 */
static void prober(const char *path, int wr)
{
	struct probe_msg m = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* before the rest is closed */
	int err = fd < 0 ? errno : 0;
	int keep[2] = {fd < 0 || wr < fd ? wr : fd, fd < 0 || wr > fd ? wr : fd};
	unsigned from = 3;

	for (int k = 0; k < 2; k++) {
		if (keep[k] > (int)from)
			close_range(from, (unsigned)keep[k] - 1, 0);
		if (keep[k] + 1 > (int)from)
			from = (unsigned)keep[k] + 1;
	}
	close_range(from, ~0u, 0);
	/* nor the caller's standard streams: a pipe reading them would wait for it too */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int i = 0; null >= 0 && i < 3; i++)
		if (i != null)
			dup2(null, i);
	setsid();
	m.ret = fd < 0 ? -err : sig_probe_fd(fd, &m.sl);
	_exit(write(wr, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : 1);
}

int sig_probe_path_within(const char *path, struct sig_list *out, unsigned ms)
{
	struct pollfd pfd;
	struct probe_msg m;
	int p[2], ret, st;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (fork() == 0)
			prober(path, p[1]);
		_exit(0); /* the prober is init's (or a subreaper's) to reap, never a zombie here */
	}
	ret = pid < 0 ? -errno : 0;
	close(p[1]);
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	pfd = (struct pollfd){.fd = p[0], .events = POLLIN};
	while (!ret && (ret = poll(&pfd, 1, (int)ms)) < 0)
		ret = errno == EINTR ? 0 : -errno; /* a signal (a resize): wait again */
	if (ret > 0)
		ret = read(p[0], &m, sizeof(m)) == (ssize_t)sizeof(m) ? m.ret : -EIO;
	else if (ret == 0 && pid > 0)
		ret = -ETIMEDOUT;
	if (ret == 0)
		*out = m.sl;
	close(p[0]);
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
