// SPDX-License-Identifier: GPL-2.0-or-later
/* Unwritten ranges of a file (see holes.h). */
#include "holes.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int holes_scan(int fd, uint64_t start, uint64_t len, uint64_t *unwritten, bool *more)
{
	struct stat st;
	uint64_t end, pos = start;

	*unwritten = 0;
	*more = false;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	end = start + len < (uint64_t)st.st_size ? start + len : (uint64_t)st.st_size;
	for (unsigned n = 0; pos < end; n++) {
		if (n == HOLES_MAX_WALK) {
			*more = true;
			break;
		}
		off_t h = lseek(fd, (off_t)pos, SEEK_HOLE);
		if (h < 0)
			/* ENXIO: pos is past the end; EINVAL: no SEEK_HOLE here: no holes known */
			return errno == ENXIO || errno == EINVAL ? 0 : -errno;
		if ((uint64_t)h >= end)
			break;
		off_t d = lseek(fd, h, SEEK_DATA);
		uint64_t data = d < 0 ? end : (uint64_t)d; /* ENXIO: a hole to the end */
		if (d < 0 && errno != ENXIO)
			return -errno;
		if (data > end)
			data = end;
		*unwritten += data - (uint64_t)h;
		pos = data;
	}
	return 0;
}
