// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: arbitrary bytes as a drivebench trace (the reader every replay and
 * `trace show` use), and as an import's input (blktrace events or a fio iolog, told by
 * the first bytes as `trace import` tells them).
 */
// fuzz-seeds: tests/fixtures/trace
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace.h"
#include "trace_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static FILE *out;
	char path[64], err[512];
	struct trace_summary s;
	struct trace_writer w;

	if (fd < 0)
		fd = memfd_create("fuzz-trace", 0);
	if (!out)
		out = fopen("/dev/null", "wb");
	if (fd < 0 || !out || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	trace_scan(path, &s, err, sizeof(err));
	rewind(out);
	trace_import(path, TRACE_SRC_AUTO, out, NULL, &w, err, sizeof(err));
	return 0;
}
