// SPDX-License-Identifier: GPL-2.0-or-later
/* A plan on several hosts through fio's client/server mode (fio_client.h). */
#include "fio_client.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "app.h"
#include "child.h"
#include "fio_export.h"
#include "fio_import.h"
#include "guest.h"
#include "preset.h"
#include "text.h"
#include "units.h"

#define STOP_GRACE_MS 15000 /* after SIGINT, fio has this long to stop its servers */

extern char **environ;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * What fio printed, line by line (child.h; a line longer than CHILD_LINE_MAX in pieces):
 * lines for the callback, and the JSON document from its first "{".
 */
struct reader {
	const struct fio_lab *lab;
	bool in_json;
	char *json;
	size_t json_len, json_cap;
	bool too_big;
	char last_err[256]; /* the last line on stderr, for messages */
	char last_fio[256]; /* the last line of fio's own errors ("fio: ..."), either stream */
	char silent[256];   /* why the run was given up on a silent server, or "" */
	char gone[160];	    /* the last "client: host=... disconnected" fio printed, or "" */
};

static void json_append(struct reader *rd, const char *s, size_t n)
{
	if (rd->too_big)
		return;
	if (rd->json_len + n + 2 > FIO_IMPORT_MAX_BYTES) {
		rd->too_big = true;
		return;
	}
	if (rd->json_len + n + 2 > rd->json_cap) {
		size_t cap = rd->json_cap ? rd->json_cap : 65536;
		while (cap < rd->json_len + n + 2)
			cap *= 2;
		char *p = realloc(rd->json, cap);
		if (!p) {
			rd->too_big = true;
			return;
		}
		rd->json = p;
		rd->json_cap = cap;
	}
	memcpy(rd->json + rd->json_len, s, n);
	rd->json_len += n;
	rd->json[rd->json_len++] = '\n';
	rd->json[rd->json_len] = '\0';
}

/*
 * fio's client giving up on a server by itself (client.c: a command unanswered for its
 * 5 s, FIO_NET_CLIENT_TIMEOUT, removes the server) is a silent server as much as the one
 * drivebench's own watch finds; a server that hangs up is kept for the messages.
 */
static void client_gave_up(struct reader *rd, const char *line)
{
	char host[128], what[64] = "";

	if (!rd->silent[0] &&
	    (sscanf(line, "fio: client %127[^,], timeout on cmd %63s", host, what) == 2 ||
	     sscanf(line, "fio: client %127s timed out", host) == 1) &&
	    strstr(line, what[0] ? "timeout on cmd" : " timed out"))
		text_fmt(rd->silent, sizeof(rd->silent),
			 "fio's server at %s did not answer fio's client (%s); the run was given up",
			 host, what[0] ? what : "timed out");
	else if (sscanf(line, "client: host=%127s disconnected", host) == 1)
		text_fmt(rd->gone, sizeof(rd->gone), "fio's server at %s hung up", host);
}

/* A line (NUL-terminated, n bytes) or a piece of one, from fio's stdout or stderr. */
static void got_line(struct reader *rd, enum child_stream which, const char *s, size_t n)
{
	if (which == CHILD_STDOUT && (rd->in_json || (n && s[0] == '{'))) {
		rd->in_json = true;
		json_append(rd, s, n);
		return;
	}
	client_gave_up(rd, s);
	if (which == CHILD_STDERR && n)
		text_copy(rd->last_err, sizeof(rd->last_err), s);
	if (strstr(s, "fio: "))
		text_copy(rd->last_fio, sizeof(rd->last_fio), strstr(s, "fio: "));
	if (rd->lab->on_line)
		rd->lab->on_line(rd->lab->arg, s);
}

/* drivebench's environment with DRIVEBENCH_TARGET=target: built before fio is started. */
static char **fio_env(const char *target)
{
	static const char key[] = "DRIVEBENCH_TARGET=";
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	env[k] = malloc(sizeof(key) + strlen(target));
	if (!env[k]) {
		free(env);
		return NULL;
	}
	sprintf(env[k++], "%s%s", key, target);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], key, sizeof(key) - 1))
			env[k++] = environ[i];
	return env;
}

/*
 * How long the quietest of fio's connections to its servers that waits for an answer
 * (fio's client sent data after the last it received) has brought no data (ms), its
 * server in who ("ADDR port PORT"); -1 when none can be seen. fio's client asks each
 * running server for its progress about once a second, so a live server is never quiet
 * for long. The client's sockets are looked at through copies (pidfd_getfd: root, or
 * the parent of a process of the same user, on Linux 5.6 or later).
 */
static int64_t servers_quiet_ms(pid_t pid, int pidfd, char *who, size_t wholen)
{
	char path[64], link[64];
	int64_t quiet = -1;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		struct sockaddr_storage sa;
		socklen_t salen = sizeof(sa), tilen;
		struct tcp_info ti;
		ssize_t n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
		int fd;

		if (n < 8 || strncmp(link, "socket:", 7))
			continue;
		fd = pidfd_getfd(pidfd, atoi(e->d_name), 0);
		if (fd < 0)
			continue;
		tilen = sizeof(ti);
		/* waited on: the client spoke last (a server whose jobs are over is asked
		 * nothing, and its connection may idle while the others run) */
		if (!getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &tilen) &&
		    ti.tcpi_state == TCP_ESTABLISHED &&
		    ti.tcpi_last_data_sent <= ti.tcpi_last_data_recv &&
		    (int64_t)ti.tcpi_last_data_recv > quiet &&
		    !getpeername(fd, (struct sockaddr *)&sa, &salen)) {
			char addr[INET6_ADDRSTRLEN] = "?";
			bool v6 = sa.ss_family == AF_INET6;
			const void *in = v6 ? (const void *)&((struct sockaddr_in6 *)&sa)->sin6_addr
					    : (const void *)&((struct sockaddr_in *)&sa)->sin_addr;
			unsigned port = ntohs(v6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
						 : ((struct sockaddr_in *)&sa)->sin_port);
			inet_ntop(sa.ss_family, in, addr, sizeof(addr));
			quiet = ti.tcpi_last_data_recv;
			snprintf(who, wholen, "%s port %u", addr, port);
		}
		close(fd);
	}
	if (d)
		closedir(d);
	return quiet;
}

/* fio being run: what it printed, a pidfd on it, how it is being stopped. */
struct fio_proc {
	const struct fio_lab *lab;
	struct reader *rd;
	int pidfd;	   /* -1: its servers are not watched */
	bool pidfd_tried;  /* pidfd opened, or tried */
	int64_t looked_at; /* ms: when its servers were last looked at */
	atomic_int stop;   /* set: fio is interrupted (child_job.stop) */
	bool stopped;	   /* by the user (lab->stop), not for a silent server */
};

static void fio_line(void *arg, enum child_stream s, const char *line, size_t len, bool ended)
{
	struct fio_proc *fp = arg;

	(void)ended;
	got_line(fp->rd, s, line, len);
}

/* Interrupt fio when asked to stop or a server is silent (child_job.on_tick). */
static void fio_watch(void *arg, pid_t pid)
{
	struct fio_proc *fp = arg;
	const struct fio_lab *lab = fp->lab;
	unsigned limit = lab->silence_ms ? lab->silence_ms : FIO_LAB_SILENCE_MS;
	int64_t now = now_ms();
	char who[80] = "";

	if (!fp->pidfd_tried) {
		fp->pidfd = pidfd_open(pid, 0);
		fp->pidfd_tried = true;
	}
	if (lab->stop && atomic_load(lab->stop) && !fp->stopped && !fp->rd->silent[0]) {
		/* fio's client passes an interrupt on to its servers, which stop their jobs */
		fp->stopped = true;
		atomic_store(&fp->stop, 1);
	}
	if (fp->pidfd >= 0 && !atomic_load(&fp->stop) && now - fp->looked_at >= 250) {
		int64_t quiet = servers_quiet_ms(pid, fp->pidfd, who, sizeof(who));
		fp->looked_at = now;
		if (quiet >= limit) {
			text_fmt(fp->rd->silent, sizeof(fp->rd->silent),
				 "fio's server at %s sent nothing for %u s; the run was given up",
				 who, (limit + 999) / 1000);
			atomic_store(&fp->stop, 1);
		}
	}
}

/*
 * fio with argv, DRIVEBENCH_TARGET=target, as the guest g (guest.h), its output read as
 * it comes and its servers watched; interrupted (SIGINT) when stopped, killed with
 * whatever it started STOP_GRACE_MS later, and whatever it leaves in its process group
 * killed once it has exited. Returns 0 (with its wait status) or -errno.
 */
static int spawn_fio(const struct fio_lab *lab, const char *target, const struct guest *g,
		     char **argv, struct reader *rd, int *wstatus, bool *stopped, char *err,
		     size_t errlen)
{
	char **env = fio_env(target);
	struct fio_proc fp = {.lab = lab, .rd = rd, .pidfd = -1};
	/* fio's client writes the servers' logs into its working directory: the guest's,
	   which is all it may write to; it runs without privileges */
	const struct child_spawn_opts so = {.envp = env, .guest = g};
	const struct child_job j = {.spawn = &so,
				    .on_line = fio_line,
				    .on_tick = fio_watch,
				    .arg = &fp,
				    .stop = &fp.stop,
				    .stop_signal = SIGINT,
				    .stop_grace_ms = STOP_GRACE_MS,
				    .end_group = true};
	int ret;

	if (!env) {
		text_fmt(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = child_run_job(argv, &j, wstatus, err, errlen);
	if (ret == -ENOENT)
		text_fmt(err, errlen, "%s: not installed (Debian package fio)", argv[0]);
	*stopped = fp.stopped;
	if (fp.pidfd >= 0)
		close(fp.pidfd);
	free(env[0]);
	free(env);
	return ret;
}

/*
 * Move the step labelled `job` of imported phase src into phase dst, as the plan's step
 * (its label and workload; threads times `hosts`), its definition completed with what the
 * plan knows and fio's output does not say: the scale. *found false when fio did not run it.
 */
static int take_step(struct result_phase *dst, struct result_phase *src, const char *job,
		     const struct plan_step *ps, double scale, unsigned hosts, bool *found)
{
	*found = false;
	for (unsigned s = 0; src && s < src->nsteps; s++) {
		struct result_step *from = &src->steps[s];
		if (strcmp(from->label, job))
			continue;
		struct result_step *to = result_add_step(dst, ps->label, &ps->wl);
		if (!to)
			return -ENOMEM;
		struct workload wl = ps->wl;
		char label[sizeof(to->label)];
		memcpy(label, to->label, sizeof(label));
		wl.threads *= hosts;
		wl.time_ns = from->wl.time_ns;
		*to = *from; /* the step's memory moves with it */
		memset(from, 0, sizeof(*from));
		from->label[0] = '\0';
		memcpy(to->label, label, sizeof(label));
		to->wl = wl;
		to->def.scale = scale;
		for (unsigned i = 0; i < to->nstreams; i++)
			to->streams[i].def.scale = scale;
		*found = true;
		return 0;
	}
	return 0;
}

/* fio's steady-state record of job on host ("" any) in host.fio.jobs, or NULL. */
static struct json_object *job_steady(const struct result *r, const char *job, const char *host)
{
	struct json_object *fio, *jobs, *v;

	if (!json_object_object_get_ex(r->host, "fio", &fio) ||
	    !json_object_object_get_ex(fio, "jobs", &jobs))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *o = json_object_array_get_idx(jobs, i), *ss;
		if (!json_object_object_get_ex(o, "name", &v) ||
		    strcmp(json_object_get_string(v), job))
			continue;
		if (host[0] && (!json_object_object_get_ex(o, "host", &v) ||
				strcmp(json_object_get_string(v), host)))
			continue;
		if (json_object_object_get_ex(o, "steadystate", &ss))
			return ss;
	}
	return NULL;
}

/*
 * A steady phase's verdict from fio's (steadystate=, fio_export.h): reached when fio
 * attained it (on every host, for the sum), at the round its runtime reached, the data
 * excursion the deviation fio measured (the largest of the hosts'). fio judges no slope:
 * its limit and excursion are 0.
 */
static void set_steady(struct result_phase *dst, const struct plan_phase *pp,
		       struct json_object *ss, bool first)
{
	struct steady_info *si = &dst->steady;
	struct json_object *v;
	bool attained = json_object_object_get_ex(ss, "attained", &v) && json_object_get_int64(v);
	double crit = json_object_object_get_ex(ss, "criterion", &v)
			      ? strtod(json_object_get_string(v), NULL)
			      : 0;
	const struct result_step *st = dst->nsteps ? &dst->steps[dst->nsteps - 1] : NULL;
	uint64_t round_ns = pp->steps[0].wl.time_ns;

	if (first) {
		memset(si, 0, sizeof(*si));
		si->used = true;
		si->reached = true;
		si->window = pp->steady.window;
		si->data_limit_pct = pp->steady.data_limit_pct;
		si->max_rounds = pp->steady.max_rounds;
		text_copy(si->tracked, sizeof(si->tracked), pp->track[0] ? pp->track : "iops");
	}
	si->reached = si->reached && attained;
	if (crit > si->data_excursion_pct && crit < 1e6)
		si->data_excursion_pct = crit;
	if (st && round_ns) {
		uint64_t rounds = (st->summary.dur_ns + round_ns - 1) / round_ns;
		if (rounds > si->round)
			si->round = rounds > UINT32_MAX ? UINT32_MAX : (unsigned)rounds;
	}
}

/* The imported result (phases "fio", "fio @HOST") laid out as the plan. */
static int lay_out(const struct fio_lab *lab, struct result *imp, struct result *out)
{
	const struct plan *plan = lab->plan;
	const char *hosts[FIO_LAB_MAX_HOSTS];
	unsigned hphase[FIO_LAB_MAX_HOSTS], nhosts = 0, n = 0;
	struct json_object *fio, *list = NULL;
	bool missing = false;

	/* each host's phase, and the host whole as fio reported it (a phase's name may be
	   cut short: fio_import.h) */
	if (json_object_object_get_ex(out->host, "fio", &fio))
		json_object_object_get_ex(fio, "hosts", &list);
	for (unsigned p = 0; p < imp->nphases && nhosts < FIO_LAB_MAX_HOSTS; p++) {
		if (strncmp(imp->phases[p].name, "fio @", 5))
			continue;
		struct json_object *v = list ? json_object_array_get_idx(list, nhosts) : NULL;
		hosts[nhosts] = v ? json_object_get_string(v) : imp->phases[p].name + 5;
		hphase[nhosts++] = p;
	}
	for (unsigned i = 0; i < plan->nphases; i++) {
		const struct plan_phase *pp = &plan->phases[i];
		if (pp->kind == PH_PURGE)
			continue;
		unsigned first = n;
		for (unsigned h = 0; h <= (nhosts > 1 ? nhosts : 0); h++) {
			char name[sizeof(out->phases[0].name)];
			/* the first: the sum ("fio"), or the one host's */
			struct result_phase *src = h ? &imp->phases[hphase[h - 1]]
					    : imp->nphases ? &imp->phases[0] : NULL;
			if (h == 0)
				text_copy(name, sizeof(name), pp->name);
			else
				fio_import_host_phase_name(name, sizeof(name), pp->name,
							   hosts[h - 1], h);
			struct result_phase *dst = result_add_phase(out, name, pp->kind);
			if (!dst)
				return -ENOMEM;
			dst->status = RS_COMPLETE;
			n = first;
			for (unsigned s = 0; s < pp->nsteps; s++) {
				char job[128];
				bool found;
				fio_export_step_job_name(job, sizeof(job), ++n, pp, &pp->steps[s]);
				if (take_step(dst, src, job, &pp->steps[s], plan->scale,
					      h == 0 && nhosts ? nhosts : 1, &found))
					return -ENOMEM;
				if (!found) {
					missing = true;
					dst->status = RS_ABORTED;
					continue;
				}
				if (dst->steps[dst->nsteps - 1].status == RS_FAILED)
					dst->status = RS_FAILED;
				if (pp->until != UNTIL_STEADY || pp->nsteps != 1)
					continue;
				/* the sum: every host's verdict; a host: its own */
				for (unsigned k = h ? h : 1; k <= (h ? h : (nhosts ? nhosts : 1)); k++) {
					struct json_object *ss =
						job_steady(out, job, nhosts ? hosts[k - 1] : "");
					if (ss)
						set_steady(dst, pp, ss, !dst->steady.used);
				}
			}
		}
	}
	if (imp->status == RS_FAILED)
		out->status = RS_FAILED;
	else
		out->status = missing ? RS_ABORTED : RS_COMPLETE;
	return 0;
}

/* What fio's exit and output say before its output is read: 0, or the error. */
static int fio_output_check(const struct reader *rd, int wstatus, const char *fio, char *err,
			    size_t errlen)
{
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127) {
		text_fmt(err, errlen, "%s: not installed (Debian package fio)", fio);
		return -ENOENT;
	}
	if (rd->too_big) {
		text_fmt(err, errlen, "fio's output passes the limit of a result file");
		return -EFBIG;
	}
	if (!rd->json_len) {
		text_fmt(err, errlen, "fio gave no result (%s %d)%s%s",
			 WIFEXITED(wstatus) ? "exit" : "signal",
			 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus),
			 rd->last_err[0] ? ": " : "", rd->last_err);
		return -EINVAL;
	}
	return 0;
}

/*
 * The run's facts: the plan, the target's path and the hosts, into out->target; out's
 * summaries of its host and target made. 0 or -ENOMEM.
 */
static int lab_record(const struct fio_lab *lab, struct result *out)
{
	struct json_object *hosts = json_object_new_array();

	if (!hosts || !out->target || !(out->preset_text = strdup(lab->plan->text))) {
		if (hosts)
			json_object_put(hosts);
		return -ENOMEM;
	}
	for (unsigned h = 0; h < lab->nhosts; h++)
		json_object_array_add(hosts, json_object_new_string(lab->hosts[h]));
	json_object_object_add(out->target, "hosts", hosts);
	json_object_object_add(out->target, "path", json_object_new_string(lab->target));
	text_copy(out->preset_name, sizeof(out->preset_name), lab->plan->name);
	text_copy(out->preset_source, sizeof(out->preset_source), lab->plan->file);
	out->scale = lab->plan->scale;
	return result_summarize(out);
}

/*
 * The run's facts: fio's record of the hosts and of the target (moved from imp), the
 * plan, the target on each host. 0 or -ENOMEM.
 */
static int lab_facts(const struct fio_lab *lab, struct result *imp, struct result *out)
{
	out->host = imp->host;
	imp->host = NULL;
	/* stopped before fio said anything: no record of the target from it */
	out->target = imp->target ? imp->target : json_object_new_object();
	imp->target = NULL;
	return lab_record(lab, out);
}

/* The run's status from fio's exit: stopped (by the user), failed, or as the steps say. */
static void lab_status(struct result *out, bool stopped, int wstatus, const char *last_err)
{
	if (stopped) {
		/* fio stopped the step that was running: its phase did not complete */
		out->status = RS_ABORTED;
		for (unsigned p = 0; p < out->nphases; p++)
			if (out->phases[p].status == RS_COMPLETE)
				out->phases[p].status = RS_ABORTED;
	} else if (out->status == RS_COMPLETE && !(WIFEXITED(wstatus) && !WEXITSTATUS(wstatus))) {
		out->status = RS_FAILED;
	}
	if (out->status == RS_FAILED && !out->error[0])
		text_fmt(out->error, sizeof(out->error), "fio failed (%s %d)%s%s",
			 WIFEXITED(wstatus) ? "exit" : "signal",
			 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus),
			 last_err[0] ? ": " : "", last_err);
}

/* What fio's client is given: the target as fio takes it, its job file, its place. */
struct lab_client {
	char target[4096];
	char job_file[GUEST_PATH_MAX + 16];
	struct guest g;
};

/*
 * The run given up on a silent server: failed, no phases (what the other hosts measured
 * is not kept: fio did not finish), the plan and the hosts recorded. 0 or -ENOMEM.
 */
static int lab_given_up(const struct fio_lab *lab, const struct reader *rd, struct result *out)
{
	out->target = json_object_new_object();
	if (lab_record(lab, out))
		return -ENOMEM;
	out->status = RS_FAILED;
	text_copy(out->error, sizeof(out->error), rd->silent);
	units_fmt_utc(out->ended, sizeof(out->ended), -1);
	return 0;
}

/*
 * Escape the target (a ':' of the path is not fio's separator of files) and make the
 * guest's place (guest.h: fio's servers are not trusted) with the job file in
 * it. 0 or -errno, the message in err.
 */
static int lab_client_open(struct lab_client *c, const struct fio_lab *lab, const char *jobs,
			   char *err, size_t errlen)
{
	int ret;

	if (fio_export_filename(c->target, sizeof(c->target), lab->target)) {
		text_fmt(err, errlen, "%s: %s", lab->target, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	if ((ret = guest_open(&c->g, "drivebench-lab", err, errlen)))
		return ret;
	return guest_put(&c->g, "job.fio", jobs, c->job_file, sizeof(c->job_file), err, errlen);
}

/*
 * Remove the lab's place (its logs, the job file). One that cannot be removed is left
 * behind in the temporary directory, and said: as the message of a run that went well
 * (ret 0: a warning), after the error of one that did not.
 */
static void lab_client_close(struct lab_client *c, int ret, char *err, size_t errlen)
{
	char top[sizeof(c->g.top)];
	size_t n = ret ? strlen(err) : 0;
	int cret;

	memcpy(top, c->g.top, sizeof(top));
	if (!ret && errlen)
		err[0] = '\0'; /* what a step that was got over said is no warning */
	cret = guest_close(&c->g);
	if (cret && n < errlen)
		text_fmt(err + n, errlen - n, "%s%s: cannot remove it: %s; it is left behind",
			 n ? "; " : "", top, strerror(-cret));
}

/*
 * fio's command line: one --client= and the job file for each host, in one allocation
 * (free() it). NULL when out of memory.
 */
static char **lab_argv(const struct fio_lab *lab, const char *job_file)
{
	size_t ptrs = 2 * lab->nhosts + 3, each = 4200;
	char **argv = calloc(1, ptrs * sizeof(*argv) + lab->nhosts * each);
	char *client = (char *)(argv + ptrs);
	unsigned a = 0;

	if (!argv)
		return NULL;
	argv[a++] = (char *)(lab->fio ? lab->fio : "fio");
	argv[a++] = "--output-format=json+";
	for (unsigned h = 0; h < lab->nhosts; h++, client += each) {
		snprintf(client, each, "--client=%s", lab->hosts[h]);
		argv[a++] = client;
		argv[a++] = (char *)job_file;
	}
	return argv;
}

/*
 * What fio's client printed, imported with the logs it brought back to dir. Stopped, it
 * may not have brought every log back: what fio said it measured stands without the
 * intervals. A failure says which server hung up, if one did. 0 or -errno.
 */
static int lab_import(const struct reader *rd, const char *dir, bool stopped, struct result *imp,
		      char *err, size_t errlen)
{
	int ret = fio_import_buf(imp, rd->json, rd->json_len, "fio's client output", dir, err,
				 errlen);

	if (ret && stopped) {
		result_free(imp);
		ret = fio_import_buf(imp, rd->json, rd->json_len, "fio's client output", NULL, err,
				     errlen);
	}
	if (ret && rd->gone[0]) {
		size_t l = strnlen(err, errlen);
		if (l + 1 < errlen)
			text_fmt(err + l, errlen - l, " (%s)", rd->gone);
	}
	return ret;
}

int fio_lab_run(const struct fio_lab *lab, struct result *out, char *err, size_t errlen)
{
	struct lab_client *c = NULL;
	char **argv = NULL;
	struct reader *rd = NULL;
	struct result imp;
	char *jobs = NULL;
	int ret, wstatus = 0;
	bool stopped = false;

	result_init(out);
	result_init(&imp);
	if (!lab->nhosts || lab->nhosts > FIO_LAB_MAX_HOSTS) {
		text_fmt(err, errlen, "from 1 to %u hosts", FIO_LAB_MAX_HOSTS);
		return -EINVAL;
	}
	if (app_plan(lab->plan)) {
		text_fmt(err, errlen, "%s has an [app] phase: fio cannot run it on other hosts",
			 lab->plan->name);
		return -EINVAL;
	}
	rd = calloc(1, sizeof(*rd));
	c = calloc(1, sizeof(*c));
	if (c)
		c->g = (struct guest){.top_fd = -1, .dir_fd = -1, .null_fd = -1};
	jobs = fio_export_opts(lab->plan, FIO_EXPORT_LOGS);
	if (!rd || !c || !jobs) {
		ret = -ENOMEM;
		text_fmt(err, errlen, "out of memory");
		goto out;
	}
	if ((ret = lab_client_open(c, lab, jobs, err, errlen)))
		goto out;
	rd->lab = lab;
	if (!(argv = lab_argv(lab, c->job_file))) {
		ret = -ENOMEM;
		text_fmt(err, errlen, "out of memory");
		goto out;
	}
	units_fmt_utc(out->started, sizeof(out->started), -1);
	ret = spawn_fio(lab, c->target, &c->g, argv, rd, &wstatus, &stopped, err, errlen);
	if (!ret && (ret = guest_reclaim(&c->g)))
		text_fmt(err, errlen, "%s: %s", c->g.dir, strerror(-ret));
	if (!ret && rd->silent[0]) {
		if ((ret = lab_given_up(lab, rd, out)))
			text_fmt(err, errlen, "out of memory");
		goto out;
	}
	if (ret)
		goto out;
	ret = fio_output_check(rd, wstatus, argv[0], err, errlen);
	if (ret == -EINVAL && stopped) {
		/* stopped before fio had anything to say (SIGINT before its handler is set):
		   still an aborted run, saved with the plan and nothing measured */
		ret = lab_facts(lab, &imp, out);
		if (ret)
			text_fmt(err, errlen, "out of memory");
		else
			text_fmt(out->error, sizeof(out->error), "stopped before fio gave a result");
		goto stopped_early;
	}
	if (ret)
		goto out;
	if ((ret = lab_import(rd, c->g.dir, stopped, &imp, err, errlen))) {
		/* a job that failed to start left no logs: what fio said is the reason */
		if (!(WIFEXITED(wstatus) && !WEXITSTATUS(wstatus)) && rd->last_fio[0])
			text_fmt(err, errlen, "fio failed (exit %d): %s",
				 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
						    : 128 + WTERMSIG(wstatus),
				 rd->last_fio);
		goto out;
	}
	if ((ret = lab_facts(lab, &imp, out)) || (ret = lay_out(lab, &imp, out))) {
		text_fmt(err, errlen, "out of memory");
		goto out;
	}
stopped_early:
	if (!ret) {
		lab_status(out, stopped, wstatus, rd->last_err);
		units_fmt_utc(out->ended, sizeof(out->ended), -1);
	}
out:
	if (c)
		lab_client_close(c, ret, err, errlen);
	free(c);
	if (ret)
		result_free(out);
	result_free(&imp);
	free(jobs);
	free(argv);
	if (rd)
		free(rd->json);
	free(rd);
	return ret;
}
