// SPDX-License-Identifier: GPL-2.0-or-later
#include "unwritten.h"

#include <stdint.h>
#include <stdio.h>

#include "holes.h"
#include "units.h"

bool unwritten_reads(const struct target *t, const struct workload *wl, bool purged,
		     const char *who, char *text, size_t len)
{
	uint64_t start, size, holes = 0;
	char a[32], b[32];
	bool more = false;

	if (wl->read_pct == 0)
		return false;
	if (t->is_blockdev) {
		if (who)
			snprintf(text, len, "%s: a device this run's purge deallocated", who);
		else
			snprintf(text, len,
				 "it reads a device this run's purge deallocated (discarded or "
				 "erased) and has not written since: the drive may answer without "
				 "reading media");
		return purged;
	}
	workload_range(wl, t->size, &start, &size);
	if (holes_scan(t->fd, start, size, &holes, &more) || !holes)
		return false;
	units_fmt_capacity(a, sizeof(a), holes);
	units_fmt_capacity(b, sizeof(b), size);
	snprintf(text, len, "%s%s%s%.1f%% of the range it reads (%s of %s)%s", who ? who : "",
		 who ? ": " : "", more ? "at least " : "", 100.0 * (double)holes / (double)size, a,
		 b,
		 who ? "" : " was never written (holes in the file): those reads never reach the "
			    "drive");
	return true;
}
