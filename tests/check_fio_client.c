// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's client/server mode (fio_client.h) against a server that never answers: a
 * loopback port that listens (the kernel completes the connection) and never says a
 * word. The run is given up once the server has been silent for the limit, saved as
 * failed with the server named, and fio's client is gone. Needs fio (Debian package
 * fio); without it the test says so and is left out.
 */
#include "testlib.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>

#include "fio_client.h"
#include "preset.h"
#include "result.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A socket listening on 127.0.0.1 (a port of the kernel's choice), its port in *port. */
static int stalled_server(unsigned *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(fd, 8), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	*port = ntohs(sa.sin_port);
	return fd;
}

/* Processes whose command line holds arg (fio's client, by its --client=). */
static unsigned running_with(const char *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d))) {
		char path[300], buf[4096];
		size_t got;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		got = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (size_t i = 0; i < got; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[got] = '\0';
		n += strstr(buf, arg) != NULL;
	}
	if (d)
		closedir(d);
	return n;
}

#define SILENCE_MS 1000
#define GRACE_MS   15000 /* fio_client.c's STOP_GRACE_MS: fio may ignore the interrupt */

START_TEST(test_silent_server)
{
	static const struct preset_setting set[] = {{"time", "1s", "--time 1s"}};
	char host[64], client[80], err[1024];
	struct plan *p;
	struct result res;
	unsigned port;
	int64_t t0, took;
	int fd;

	if (system("command -v fio >/dev/null 2>&1") != 0) {
		fprintf(stderr, "SKIP: silent fio server: fio is not installed (Debian package fio)\n");
		return;
	}
	fd = stalled_server(&port);
	snprintf(host, sizeof(host), "127.0.0.1,%u", port);
	snprintf(client, sizeof(client), "--client=%s ", host);
	const char *hosts[] = {host};
	p = plan_from_settings(set, 1, "silent", err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	struct fio_lab lab = {.plan = p, .hosts = hosts, .nhosts = 1,
			      .target = "/nonexistent/drivebench-silent", .silence_ms = SILENCE_MS};
	t0 = now_ms();
	ck_assert_msg(fio_lab_run(&lab, &res, err, sizeof(err)) == 0, "%s", err);
	took = now_ms() - t0;
	ck_assert_int_eq(res.status, RS_FAILED);
	snprintf(err, sizeof(err), "fio's server at 127.0.0.1 port %u sent nothing for 1 s; the "
		 "run was given up", port);
	ck_assert_str_eq(res.error, err);
	ck_assert_uint_eq(res.nphases, 0);
	ck_assert_ptr_nonnull(res.target);
	/* given up after the limit, within it and the grace (and generous room) */
	ck_assert_msg(took >= SILENCE_MS && took < 2 * (SILENCE_MS + GRACE_MS) + 10000,
		      "took %lld ms", (long long)took);
	ck_assert_uint_eq(running_with(client), 0);
	result_free(&res);
	plan_free(p);
	close(fd);
}
END_TEST

static Suite *fio_client_suite(void)
{
	Suite *s = suite_create("fio_client");
	TCase *tc = tcase_create("silent");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_silent_server);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(fio_client_suite)
