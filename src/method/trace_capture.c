// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Capturing a device's block I/O (trace_capture.h) from the kernel's block tracepoints
 * (block_bio_queue: an I/O the workload issued, before any merge; block_rq_complete: a
 * request done), in a tracefs instance of its own, filtered to the device in the kernel.
 * Its buffer is read through trace_pipe, a line per event, and each event goes through
 * the reorder window and the depth count that import uses for blktrace files.
 *
 * Why not blktrace's relay files (BLKTRACESETUP): under kernel lockdown, which the test
 * machines run, debugfs refuses to open them (EPERM, "debugfs access is restricted");
 * tracefs is not debugfs, and the tracepoints are the ones the kernel's blk tracer uses.
 */
#include "trace_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

#include "trace_import.h"

#define TRACEFS	      "/sys/kernel/tracing"
#define CAP_BUF	      (256u * 1024) /* bytes of trace_pipe read at a time */
#define CAP_LINE_MAX  512u	    /* a longer line is not a block event */
#define CAP_POLL_NS   20000000ull   /* trace_pipe is read this often */
#define CAP_REPORT_NS 500000000ull  /* and progress reported this often */
#define CAP_BUFFER_KB "8192"	    /* the instance's ring buffer, per CPU */

static const char *const cap_events[] = {"block_bio_queue", "block_rq_complete"};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct cap {
	int dev_fd;
	struct stat st;
	char inst[128];   /* the instance's directory */
	bool inst_made;
	int pipe_fd;
	char buf[CAP_BUF];
	size_t have;
	struct trace_writer w;
	struct blk_conv conv;
	bool conv_init;
	uint64_t events;  /* block events read */
};

/* The message, then ": " and strerror(-ret); returns ret. */
static int cerr(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int cerr(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ": %s", strerror(-ret));
	return ret;
}

/* Write text into a file of the instance. 0 or -errno. */
static int put(const struct cap *c, const char *file, const char *text)
{
	char path[256];
	size_t n = strlen(text);
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", c->inst, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		ret = -errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/* tracefs (mounted when it is not), an instance of the capture's own, its events. */
static int setup_events(struct cap *c, const char *dev, char *err, size_t errlen)
{
	struct stat st;
	char filter[64], file[128];
	int ret;

	if (stat(TRACEFS "/instances", &st) < 0 &&
	    mount("nodev", TRACEFS, "tracefs", 0, NULL) < 0)
		return cerr(err, errlen, -errno, "cannot mount tracefs on %s", TRACEFS);
	snprintf(c->inst, sizeof(c->inst), TRACEFS "/instances/drivebench-capture-%d",
		 (int)getpid());
	if (mkdir(c->inst, 0700) < 0)
		return cerr(err, errlen, -errno, "%s", c->inst);
	c->inst_made = true;
	/* the device's number as the kernel's dev_t: major << 20 | minor */
	snprintf(filter, sizeof(filter), "dev == %llu",
		 (unsigned long long)major(c->st.st_rdev) << 20 | minor(c->st.st_rdev));
	if ((ret = put(c, "buffer_size_kb", CAP_BUFFER_KB)))
		return cerr(err, errlen, ret, "%s/buffer_size_kb", c->inst);
	for (size_t i = 0; i < sizeof(cap_events) / sizeof(cap_events[0]); i++) {
		snprintf(file, sizeof(file), "events/block/%s/filter", cap_events[i]);
		if ((ret = put(c, file, filter)))
			return cerr(err, errlen, ret, "%s: %s/%s (no block tracepoints?)", dev,
				    c->inst, file);
		snprintf(file, sizeof(file), "events/block/%s/enable", cap_events[i]);
		if ((ret = put(c, file, "1")))
			return cerr(err, errlen, ret, "%s/%s", c->inst, file);
	}
	snprintf(file, sizeof(file), "%s/trace_pipe", c->inst);
	c->pipe_fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->pipe_fd < 0)
		return cerr(err, errlen, -errno, "%s", file);
	return 0;
}

/* "FWS": an optional preflush, the op (W R D N, F a flush), then FUA, ahead, sync, meta. */
static void rwbs(const char *s, struct trace_rec *r)
{
	bool pre = s[0] == 'F' && s[1] && strchr("WRDNF", s[1]);
	char op = s[pre];

	r->op = op == 'W' ? TRACE_WRITE : op == 'D' ? TRACE_DISCARD
		: op == 'F' || (pre && op == 'N') ? TRACE_FLUSH : TRACE_READ;
	r->flags = pre ? TRACE_F_PREFLUSH : 0;
	for (const char *p = s + pre + (op ? 1 : 0); *p; p++)
		r->flags |= *p == 'F' ? TRACE_F_FUA : *p == 'S' ? TRACE_F_SYNC
			  : *p == 'M' ? TRACE_F_META : 0;
}

/*
 * One trace_pipe line, "COMM-PID [CPU] FLAGS SEC.USEC: EVENT: MAJ,MIN RWBS ...", into an
 * event. Returns 1 for a block event, 0 for any other line.
 */
static int parse_line(char *line, struct trace_rec *r, uint64_t *t, bool *completion)
{
	char *ev = strstr(line, ": block_"), *ts, *br, *dash, flags[16];
	unsigned maj, min, len;
	unsigned long long sector, sec, usec;

	if (!ev)
		return 0;
	*ev = '\0';
	ev += 2;
	ts = strrchr(line, ' ');
	br = strrchr(line, '[');
	if (!ts || !br || sscanf(ts + 1, "%llu.%llu", &sec, &usec) != 2)
		return 0;
	*t = sec * 1000000000ull + usec * 1000ull;
	*r = (struct trace_rec){.cpu = (uint32_t)strtoul(br + 1, NULL, 10)};
	*br = '\0';
	while (br > line && br[-1] == ' ')
		*--br = '\0';
	if ((dash = strrchr(line, '-')))
		r->pid = (uint32_t)strtoul(dash + 1, NULL, 10);
	*completion = !strncmp(ev, "block_rq_complete: ", 19);
	if (!*completion && strncmp(ev, "block_bio_queue: ", 17))
		return 0;
	ev = strchr(ev, ' ') + 1;
	if (sscanf(ev, "%u,%u %15s", &maj, &min, flags) != 3)
		return 0;
	if (*completion && !(ev = strstr(ev, ") ")))
		return 0;
	if (sscanf(*completion ? ev + 2 : strchr(strchr(ev, ' ') + 1, ' ') + 1, "%llu + %u",
		   &sector, &len) != 2)
		return 0;
	rwbs(flags, r);
	r->off = sector * 512;
	r->len = len * 512;
	return 1;
}

/* Whatever trace_pipe holds now, through the conversion. */
static int drain(struct cap *c, char *err, size_t errlen)
{
	ssize_t got;

	while ((got = read(c->pipe_fd, c->buf + c->have, CAP_BUF - 1 - c->have)) > 0) {
		char *p = c->buf, *nl;
		c->have += (size_t)got;
		c->buf[c->have] = '\0';
		while ((nl = strchr(p, '\n'))) {
			struct trace_rec r;
			uint64_t t;
			bool done;
			*nl = '\0';
			if (parse_line(p, &r, &t, &done)) {
				int ret = blk_conv_add(&c->conv, &r, t, done);
				c->events++;
				if (ret)
					return cerr(err, errlen, ret, "cannot write the trace");
			}
			p = nl + 1;
		}
		c->have -= (size_t)(p - c->buf);
		memmove(c->buf, p, c->have);
		if (c->have >= CAP_LINE_MAX)
			c->have = 0; /* no block event is this long: drop it */
	}
	if (got < 0 && errno != EAGAIN && errno != EINTR)
		return cerr(err, errlen, -errno, "%s/trace_pipe", c->inst);
	return 0;
}

/* Events the instance's buffer lost: each CPU's "overrun". */
static uint64_t dropped(const struct cap *c)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		char path[256], line[128];
		unsigned long long v;
		FILE *f;
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/stats", c->inst, i);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %llu", &v) == 1)
				sum += v;
		fclose(f);
	}
	return sum;
}

static void progress(const struct cap *c, uint64_t t0, struct capture_progress *p)
{
	p->elapsed_ns = now_ns() - t0;
	p->events = c->events;
	p->ios = c->w.n;
	memcpy(p->count, c->w.count, sizeof(p->count));
	p->dropped = dropped(c);
}

static void cap_end(struct cap *c)
{
	if (c->pipe_fd >= 0)
		close(c->pipe_fd);
	if (c->inst_made) {
		put(c, "events/enable", "0");
		rmdir(c->inst);
	}
	if (c->conv_init)
		blk_conv_free(&c->conv);
	if (c->dev_fd >= 0)
		close(c->dev_fd);
}

/* The capture's loop: read, convert and report until the time is up or it is stopped. */
static int record(struct cap *c, const struct capture_opts *o, struct capture_progress *p,
		  char *err, size_t errlen)
{
	uint64_t t0 = now_ns(), last_report = t0;
	int ret;

	for (;;) {
		uint64_t t = now_ns();
		if ((o->stop && atomic_load(o->stop)) || (o->time_ns && t - t0 >= o->time_ns))
			break;
		if ((ret = drain(c, err, errlen)))
			return ret;
		if (o->on_progress && t - last_report >= CAP_REPORT_NS) {
			progress(c, t0, p);
			o->on_progress(o->arg, p);
			last_report = t;
		}
		nanosleep(&(struct timespec){0, CAP_POLL_NS}, NULL);
	}
	/* what the buffer still holds: stop the events, then read it dry */
	put(c, "events/enable", "0");
	if ((ret = drain(c, err, errlen)))
		return ret;
	if ((ret = blk_conv_finish(&c->conv)))
		return cerr(err, errlen, ret, "%s: cannot write the trace", o->device);
	progress(c, t0, p);
	return 0;
}

static int open_device(struct cap *c, const char *dev, struct trace_info *info, char *err,
		       size_t errlen)
{
	uint64_t size = 0;
	int lbs = 0;

	c->dev_fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (c->dev_fd < 0)
		return cerr(err, errlen, -errno, "%s", dev);
	if (fstat(c->dev_fd, &c->st) < 0 || !S_ISBLK(c->st.st_mode))
		return cerr(err, errlen, -ENOTBLK, "%s: capture traces a block device", dev);
	if (ioctl(c->dev_fd, BLKGETSIZE64, &size) == 0)
		info->dev_size = size;
	if (ioctl(c->dev_fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		info->lbs = (uint32_t)lbs;
	return 0;
}

int trace_capture(const struct capture_opts *o, struct capture_progress *p, char *err,
		  size_t errlen)
{
	struct cap *c = calloc(1, sizeof(*c));
	struct trace_info info = {0};
	int ret;

	memset(p, 0, sizeof(*p));
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->dev_fd = c->pipe_fd = -1;
	if ((ret = open_device(c, o->device, &info, err, errlen)))
		goto out;
	if ((ret = trace_write_begin(&c->w, o->out, &info))) {
		cerr(err, errlen, ret, "%s: cannot write the trace", o->device);
		goto out;
	}
	if ((ret = blk_conv_init(&c->conv, &c->w))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	c->conv_init = true;
	if (!(ret = setup_events(c, o->device, err, errlen)))
		ret = record(c, o, p, err, errlen);
out:
	cap_end(c);
	free(c);
	return ret;
}
