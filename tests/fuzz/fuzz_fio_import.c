// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the fio import, on arbitrary bytes presented as fio's JSON output. */
// fuzz-seeds: tests/fixtures/fio
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fio_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64], err[512];
	struct result r;

	if (fd < 0)
		fd = memfd_create("fuzz-fio-import", 0);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (fio_import_file(&r, path, NULL, err, sizeof(err)) == 0)
		result_free(&r);
	return 0;
}
