// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process that can write a file or device through an io_uring while holding no
 * descriptor of it, for tests/t_safety.sh:
 *
 *   helper_uring register PATH READY   opens PATH for writing, registers it with the ring
 *                                      (IORING_REGISTER_FILES), closes the descriptor
 *   helper_uring direct PATH READY     opens PATH straight into the ring's file table
 *                                      (IORING_OP_OPENAT with a file index): never a
 *                                      descriptor at all
 *
 * Then it creates READY and waits to be killed. Exit 2 on a usage error, 1 when the
 * kernel refuses a step (said on standard error).
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, int err)
{
	fprintf(stderr, "helper_uring: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

/* Open path into slot 0 of ring's (sparse) file table through the ring itself. */
static int open_direct(struct io_uring *ring, const char *path)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int ret = io_uring_register_files_sparse(ring, 1);

	if (ret)
		return fail("register a sparse file table", ret);
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_openat_direct(sqe, AT_FDCWD, path, O_RDWR, 0, 0);
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		return fail("submit", ret);
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret)
		return fail("wait", ret);
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret < 0 ? fail(path, ret) : 0;
}

int main(int argc, char **argv)
{
	struct io_uring ring;
	int fd, ret;

	if (argc != 4 || (strcmp(argv[1], "register") && strcmp(argv[1], "direct"))) {
		fprintf(stderr, "usage: helper_uring register|direct PATH READY\n");
		return 2;
	}
	ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return fail("io_uring_queue_init", ret);
	if (!strcmp(argv[1], "direct")) {
		if (open_direct(&ring, argv[2]))
			return 1;
	} else {
		fd = open(argv[2], O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return fail(argv[2], errno);
		ret = io_uring_register_files(&ring, &fd, 1);
		if (ret)
			return fail("IORING_REGISTER_FILES", ret);
		close(fd);
	}
	fd = open(argv[3], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(argv[3], errno);
	close(fd);
	for (;;)
		pause();
}
