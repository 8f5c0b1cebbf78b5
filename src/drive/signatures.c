// SPDX-License-Identifier: GPL-2.0-or-later
#include "signatures.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
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

static int ask_sigs(int fd, void *msg, size_t len, void *arg)
{
	(void)len, (void)arg;
	return sig_probe_fd(fd, msg);
}

int sig_probe_path_within(const char *path, struct sig_list *out, unsigned ms)
{
	const struct probe p = {.path = path, .ask = ask_sigs};

	memset(out, 0, sizeof(*out));
	return probe_within(&p, out, sizeof(*out), ms);
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
