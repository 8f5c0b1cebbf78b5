// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pgbench's per-transaction logs (-l), read while pgbench writes them: a line per
 * transaction, a few hundred MB over a 5-minute step of a fast drive, in the run
 * directory (/run: memory). Each file is read from where the last read stopped, its whole
 * lines go into the histogram, and the bytes read are given back (a hole punched over
 * them), so neither memory nor the run directory grows with the step's length.
 */
#include "app_int.h"
#include "app_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TXLOG_CHUNK (1u << 20)

struct txfile {
	char path[APP_PATH_MAX + 32];
	off_t off;	/* read up to here */
	size_t have;	/* bytes of a line not yet whole, in part */
	char part[APP_PARSE_LINE_MAX];
};

struct app_txlog {
	char pattern[APP_PATH_MAX + 16];
	struct txfile *f;
	unsigned n;
	char *buf; /* TXLOG_CHUNK + a line */
};

struct app_txlog *app_txlog_new(const char *dir)
{
	struct app_txlog *x = calloc(1, sizeof(*x));

	if (!x || !(x->buf = malloc(TXLOG_CHUNK + APP_PARSE_LINE_MAX))) {
		free(x);
		return NULL;
	}
	snprintf(x->pattern, sizeof(x->pattern), "%s/tx.*", dir);
	return x;
}

/* Files pgbench has started since the last look. */
static int txlog_find(struct app_txlog *x)
{
	glob_t g;

	if (glob(x->pattern, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		bool known = false;
		for (unsigned k = 0; k < x->n && !known; k++)
			known = !strcmp(x->f[k].path, g.gl_pathv[i]);
		if (known || strlen(g.gl_pathv[i]) >= sizeof(x->f[0].path))
			continue;
		struct txfile *f = realloc(x->f, (x->n + 1) * sizeof(*f));
		if (!f) {
			globfree(&g);
			return -ENOMEM;
		}
		x->f = f;
		memset(&f[x->n], 0, sizeof(*f));
		snprintf(f[x->n++].path, sizeof(f->path), "%s", g.gl_pathv[i]);
	}
	globfree(&g);
	return 0;
}

/* One file's new bytes; last: a line left without its newline is parsed too. */
static int txlog_file(struct app_txlog *x, struct txfile *f, struct hist *h, uint64_t *failed,
		      bool last, char *err, size_t errlen)
{
	int fd = open(f->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW), ret = 0;
	ssize_t got;

	if (fd < 0)
		return 0;
	memcpy(x->buf, f->part, f->have);
	while (!ret && (got = pread(fd, x->buf + f->have, TXLOG_CHUNK, f->off)) > 0) {
		size_t len = f->have + (size_t)got, whole = len;
		while (whole && x->buf[whole - 1] != '\n')
			whole--;
		ret = app_parse_pgbench_log(x->buf, whole, h, failed, err, errlen);
		f->have = len - whole;
		if (!ret && f->have >= APP_PARSE_LINE_MAX) {
			snprintf(err, errlen, "pgbench: a transaction log line past the limit");
			ret = -EINVAL;
		}
		f->off += got;
		/* the bytes read are given back; a file system without holes keeps them */
		(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, f->off);
		memmove(x->buf, x->buf + whole, ret ? 0 : f->have);
	}
	if (!ret && last && f->have)
		ret = app_parse_pgbench_log(x->buf, f->have, h, failed, err, errlen);
	f->have = last || ret ? 0 : f->have;
	memcpy(f->part, x->buf, f->have);
	close(fd);
	return ret;
}

int app_txlog_read(struct app_txlog *x, struct hist *h, uint64_t *failed, bool last, char *err,
		   size_t errlen)
{
	int ret = txlog_find(x);

	if (ret) {
		snprintf(err, errlen, "pgbench's transaction logs: out of memory");
		return ret;
	}
	for (unsigned k = 0; k < x->n && !ret; k++)
		ret = txlog_file(x, &x->f[k], h, failed, last, err, errlen);
	return ret;
}

unsigned app_txlog_files(const struct app_txlog *x)
{
	return x->n;
}

void app_txlog_free(struct app_txlog *x)
{
	if (!x)
		return;
	for (unsigned k = 0; k < x->n; k++)
		unlink(x->f[k].path);
	free(x->f);
	free(x->buf);
	free(x);
}
