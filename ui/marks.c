// SPDX-License-Identifier: GPL-2.0-or-later
/* The marked targets and the confirmations of a writing queue (see marks.h). */
#include "marks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

int marks_find(const struct marks *m, const char *path)
{
	for (unsigned i = 0; i < m->n; i++)
		if (!strcmp(m->path[i], path))
			return (int)i;
	return -1;
}

int marks_toggle(struct marks *m, const char *path)
{
	int i = marks_find(m, path);

	if (i >= 0) {
		/* the others keep their order: it is the order of the run's targets */
		memmove(m->path[i], m->path[i + 1], (m->n - (unsigned)i - 1) * sizeof(m->path[0]));
		m->n--;
		return 0;
	}
	if (m->n == RUN_MAX_TARGETS)
		return -ENOSPC;
	snprintf(m->path[m->n++], sizeof(m->path[0]), "%s", path);
	return 1;
}

char *marks_join(char *buf, size_t len, const char *const *names, unsigned n, const char *sep)
{
	struct strbuf b = {0};
	char *s;

	for (unsigned i = 0; i < n; i++)
		strbuf_add(&b, "%s%s", i ? sep : "", names[i]);
	s = strbuf_take(&b);
	snprintf(buf, len, "%s", s ? s : "");
	free(s);
	return buf;
}

void confirm_seq_reset(struct confirm_seq *c)
{
	memset(c, 0, sizeof(*c));
}

int confirm_seq_add(struct confirm_seq *c, const char *name)
{
	if (c->n == RUN_MAX_TARGETS)
		return -ENOSPC;
	snprintf(c->name[c->n++], sizeof(c->name[0]), "%s", name);
	return 0;
}

const char *confirm_seq_next(const struct confirm_seq *c)
{
	return c->done < c->n ? c->name[c->done] : NULL;
}

int confirm_seq_give(struct confirm_seq *c, const char *typed)
{
	const char *want = confirm_seq_next(c);

	if (!want || strcmp(typed, want))
		return -EINVAL;
	snprintf(c->typed[c->done++], sizeof(c->typed[0]), "%s", typed);
	return 0;
}
