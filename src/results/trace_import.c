// SPDX-License-Identifier: GPL-2.0-or-later
/* Block trace events and fio iologs into drivebench's trace format (trace_import.h). */
#include "trace_import.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

/* The kernel's blk_io_trace (include/uapi/linux/blktrace_api.h), 48 bytes and a payload. */
#define BLK_MAGIC	 0x65617400u
#define BLK_VERSION	 0x07u
#define BLK_REC		 48u
#define BLK_TC_SHIFT	 16
#define BLK_TA_QUEUE	 1u
#define BLK_TA_COMPLETE	 8u
#define BLK_TC_WRITE	 (1u << 1)
#define BLK_TC_FLUSH	 (1u << 2)
#define BLK_TC_SYNC	 (1u << 3)
#define BLK_TC_PC	 (1u << 9)
#define BLK_TC_NOTIFY	 (1u << 10)
#define BLK_TC_META	 (1u << 12)
#define BLK_TC_DISCARD	 (1u << 13)
#define BLK_TC_FUA	 (1u << 15)
#define BLK_MAX_PDU	 4096u /* a notify's payload: a process name, a message */

int blk_conv_init(struct blk_conv *c, struct trace_writer *w)
{
	memset(c, 0, sizeof(*c));
	c->w = w;
	c->heap = malloc(BLK_REORDER_MAX * sizeof(*c->heap));
	return c->heap ? 0 : -ENOMEM;
}

void blk_conv_free(struct blk_conv *c)
{
	free(c->heap);
	c->heap = NULL;
}

static bool ev_before(const struct blk_ev *a, const struct blk_ev *b)
{
	return a->time_ns < b->time_ns || (a->time_ns == b->time_ns && a->seq < b->seq);
}

static void heap_push(struct blk_conv *c, const struct blk_ev *e)
{
	unsigned i = c->n++;

	while (i && ev_before(e, &c->heap[(i - 1) / 2])) {
		c->heap[i] = c->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->heap[i] = *e;
}

static struct blk_ev heap_pop(struct blk_conv *c)
{
	struct blk_ev top = c->heap[0], last = c->heap[--c->n];
	unsigned i = 0;

	for (;;) {
		unsigned k = 2 * i + 1;
		if (k >= c->n)
			break;
		if (k + 1 < c->n && ev_before(&c->heap[k + 1], &c->heap[k]))
			k++;
		if (!ev_before(&c->heap[k], &last))
			break;
		c->heap[i] = c->heap[k];
		i = k;
	}
	if (c->n)
		c->heap[i] = last;
	return top;
}

/* A completion of [off, off + len) ends the I/Os inside it; one of length 0 a flush. */
static void complete(struct blk_conv *c, uint64_t off, uint32_t len)
{
	unsigned k = 0;

	for (unsigned i = 0; i < c->nfl; i++) {
		const struct blk_inflight *f = &c->fl[i];
		bool done = len == 0 ? f->len == 0 : f->off >= off && f->off < off + len;
		if (!done)
			c->fl[k++] = *f;
	}
	c->nfl = k;
}

/* The oldest event leaves the window: an I/O is written, a completion ends I/Os. */
static int emit(struct blk_conv *c)
{
	struct blk_ev e = heap_pop(c);

	if (!c->have_t0) {
		c->t0 = e.time_ns;
		c->have_t0 = 1;
	}
	if (e.kind == 1) {
		complete(c, e.r.off, e.r.len);
		return 0;
	}
	/* the tracked set is full: the oldest I/O lost its completion, forget it */
	if (c->nfl == BLK_INFLIGHT_MAX) {
		memmove(c->fl, c->fl + 1, (BLK_INFLIGHT_MAX - 1) * sizeof(*c->fl));
		c->nfl--;
	}
	c->fl[c->nfl++] = (struct blk_inflight){e.r.off, e.r.op == TRACE_FLUSH ? 0 : e.r.len};
	e.r.depth = c->nfl > UINT16_MAX ? UINT16_MAX : (uint16_t)c->nfl;
	e.r.time_ns = e.time_ns > c->t0 ? e.time_ns - c->t0 : 0;
	if (e.r.time_ns < c->last_out_ns) {
		e.r.time_ns = c->last_out_ns;
		c->late++;
	}
	/* a time past the format's limit (a damaged event's), named by the caller */
	if ((c->why = trace_check(&e.r, c->last_out_ns)))
		return -EINVAL;
	c->last_out_ns = e.r.time_ns;
	return trace_write(c->w, &e.r);
}

int blk_conv_add(struct blk_conv *c, const struct trace_rec *r, uint64_t time_ns,
		 bool completion)
{
	struct blk_ev e = {.time_ns = time_ns, .seq = c->seq++, .r = *r, .kind = completion};
	int ret;

	/* a read or write of nothing (a zero-length bio) is no I/O to replay */
	if (!completion && r->len == 0 && r->op != TRACE_FLUSH) {
		c->skipped++;
		return 0;
	}
	if (e.r.op == TRACE_FLUSH)
		e.r.off = 0;
	if (time_ns > c->newest_ns)
		c->newest_ns = time_ns;
	while (c->n == BLK_REORDER_MAX ||
	       (c->n && c->heap[0].time_ns + BLK_REORDER_NS < c->newest_ns))
		if ((ret = emit(c)))
			return ret;
	heap_push(c, &e);
	return 0;
}

/*
 * One blk_io_trace event: a queue or a completion into the window; others skipped. An
 * I/O the format cannot hold is -EINVAL with the reason in *why.
 */
static int take(struct blk_conv *c, uint64_t time, uint64_t sector, uint32_t bytes,
		uint32_t action, uint32_t pid, uint32_t cpu, const char **why)
{
	uint32_t act = action & 0xffff, cat = action >> BLK_TC_SHIFT;
	struct trace_rec r = {.off = sector * 512, .len = bytes, .pid = pid, .cpu = cpu};

	if ((cat & (BLK_TC_NOTIFY | BLK_TC_PC)) || (act != BLK_TA_QUEUE && act != BLK_TA_COMPLETE)) {
		c->skipped++;
		return 0;
	}
	if (cat & BLK_TC_DISCARD)
		r.op = TRACE_DISCARD;
	else if (bytes == 0 && (cat & BLK_TC_FLUSH))
		r.op = TRACE_FLUSH;
	else
		r.op = (cat & BLK_TC_WRITE) ? TRACE_WRITE : TRACE_READ;
	r.flags = (uint8_t)(((cat & BLK_TC_FUA) ? TRACE_F_FUA : 0) |
			    ((cat & BLK_TC_FLUSH) && bytes ? TRACE_F_PREFLUSH : 0) |
			    ((cat & BLK_TC_SYNC) ? TRACE_F_SYNC : 0) |
			    ((cat & BLK_TC_META) ? TRACE_F_META : 0));
	if (r.op == TRACE_FLUSH)
		r.off = 0;
	if (act == BLK_TA_QUEUE && (bytes || r.op == TRACE_FLUSH) &&
	    (*why = sector >> 53 ? "offset past 2^62" : trace_check(&r, 0)))
		return -EINVAL;
	return blk_conv_add(c, &r, time, act == BLK_TA_COMPLETE);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int blk_conv_feed(struct blk_conv *c, const uint8_t *buf, size_t len, size_t *used,
		  const char *name, char *err, size_t errlen)
{
	size_t at = 0;
	int ret;

	while (len - at >= BLK_REC) {
		const uint8_t *p = buf + at;
		uint32_t magic = le32(p);
		uint16_t pdu = (uint16_t)(p[46] | p[47] << 8);
		if ((magic & 0xffffff00u) != BLK_MAGIC || (magic & 0xffu) != BLK_VERSION) {
			*used = at;
			return trace_errf(err, errlen,
				    "%s: offset %" PRIu64 ": not a block trace event (magic %08x, "
				    "want %08x)",
				    name, c->offset + at, magic, BLK_MAGIC | BLK_VERSION);
		}
		if (pdu > BLK_MAX_PDU) {
			*used = at;
			return trace_errf(err, errlen, "%s: offset %" PRIu64 ": a payload of %u bytes",
				    name, c->offset + at, pdu);
		}
		if (len - at < BLK_REC + pdu)
			break;
		c->events++;
		const char *why = NULL;
		ret = take(c, le64(p + 8), le64(p + 16), le32(p + 24), le32(p + 28), le32(p + 32),
			   le32(p + 40), &why);
		if (ret) {
			*used = at;
			why = why ? why : c->why;
			trace_errf(err, errlen, "%s: offset %" PRIu64 ": %s%s", name, c->offset + at,
				   why ? "an I/O the trace format cannot hold: " : "cannot write the "
										 "trace: ",
				   why ? why : strerror(-ret));
			return ret;
		}
		at += BLK_REC + pdu;
	}
	*used = at;
	c->offset += at;
	return 0;
}

int blk_conv_finish(struct blk_conv *c)
{
	int ret;

	while (c->n)
		if ((ret = emit(c)))
			return ret;
	return 0;
}

/* ---- files ------------------------------------------------------------------------- */

static int import_blk(FILE *in, const char *name, struct trace_writer *w, char *err,
		      size_t errlen)
{
	static uint8_t buf[1 << 16];
	struct blk_conv c;
	size_t have = 0, got, used;
	int ret = blk_conv_init(&c, w);

	if (ret)
		return trace_errf(err, errlen, "out of memory"), ret;
	while ((got = fread(buf + have, 1, sizeof(buf) - have, in)) > 0) {
		have += got;
		if ((ret = blk_conv_feed(&c, buf, have, &used, name, err, errlen)))
			goto out;
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	if (have) {
		ret = trace_errf(err, errlen, "%s: offset %" PRIu64 ": the last event is cut short (%zu "
			   "bytes)", name, c.offset, have);
		goto out;
	}
	if ((ret = blk_conv_finish(&c)) && c.why)
		trace_errf(err, errlen, "%s: an I/O the trace format cannot hold: %s", name, c.why);
	else if (ret)
		trace_errf(err, errlen, "cannot write the trace: %s", strerror(-ret));
	else if (w->n == 0)
		ret = trace_errf(err, errlen, "%s: %" PRIu64 " events and no queued I/O among them",
			   name, c.events);
out:
	blk_conv_free(&c);
	return ret;
}

/* One iolog line's action: its op, or -1 for a file action (add, open, close). */
static int fio_op(const char *act)
{
	static const struct {
		const char *name;
		int op;
	} acts[] = {{"read", TRACE_READ},   {"write", TRACE_WRITE}, {"trim", TRACE_DISCARD},
		    {"sync", TRACE_FLUSH},  {"datasync", TRACE_FLUSH}, {"add", -1},
		    {"open", -1},	    {"close", -1},	      {"wait", -2}};

	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(act, acts[i].name))
			return acts[i].op;
	return -3;
}

/*
 * One line of an iolog (v3: "USEC FILE ACTION [OFFSET LENGTH]"; v2: no time, and "FILE
 * wait USEC" moves the clock). Returns 0, or -EINVAL with a message.
 */
static int fio_line(char *line, int version, uint64_t *now_ns, struct trace_writer *w,
		    char *msg, size_t msglen)
{
	unsigned long long t = 0, off = 0, len = 0;
	char file[257], act[33];
	int n = version == 3 ? sscanf(line, "%llu %256s %32s %llu %llu", &t, file, act, &off, &len)
			     : sscanf(line, "%256s %32s %llu %llu", file, act, &off, &len);
	int fields = version == 3 ? n - 1 : n;
	int op;

	if (fields < 2)
		return trace_errf(msg, msglen, "not an iolog v%d line", version);
	op = fio_op(act);
	if (op == -3)
		return trace_errf(msg, msglen, "unknown action '%s'", act);
	if (version == 3) {
		if (t > TRACE_MAX_TIME_NS / 1000)
			return trace_errf(msg, msglen, "time %llu is past 720h", t);
		if (t * 1000 < *now_ns)
			return trace_errf(msg, msglen, "time %llu goes back", t);
		*now_ns = t * 1000;
	}
	if (op == -1)
		return 0;
	if (op == -2) {
		if (version == 2 && off > (TRACE_MAX_TIME_NS - *now_ns) / 1000)
			return trace_errf(msg, msglen, "a wait of %llu brings the time past 720h",
					  off);
		if (version == 2)
			*now_ns += off * 1000;
		return 0;
	}
	if (fields < 4 && op != TRACE_FLUSH)
		return trace_errf(msg, msglen, "%s needs an offset and a length", act);
	if (op == TRACE_FLUSH)
		off = len = 0;
	if (len > UINT32_MAX)
		return trace_errf(msg, msglen, "length %llu is over 4 GiB", len);
	struct trace_rec r = {.time_ns = *now_ns, .off = off, .len = (uint32_t)len,
			      .op = (uint8_t)op};
	const char *why = trace_check(&r, w->last_ns);
	if (why)
		return trace_errf(msg, msglen, "offset %llu length %llu: %s", off, len, why);
	if (trace_write(w, &r))
		return trace_errf(msg, msglen, "cannot write the trace");
	return 0;
}

static int import_fio(FILE *in, const char *name, struct trace_writer *w, char *err,
		      size_t errlen)
{
	char line[1024], msg[256];
	unsigned lineno = 1;
	uint64_t now = 0;
	int version;

	if (!fgets(line, sizeof(line), in) ||
	    sscanf(line, "fio version %d iolog", &version) != 1 || (version != 2 && version != 3))
		return trace_errf(err, errlen, "%s:1: not a fio iolog of version 2 or 3", name);
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(in))
			return trace_errf(err, errlen, "%s:%u: a line over %zu characters", name, lineno,
				    sizeof(line) - 2);
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (fio_line(line, version, &now, w, msg, sizeof(msg)))
			return trace_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
	}
	if (w->n == 0)
		return trace_errf(err, errlen, "%s:%u: the iolog has no read, write, trim or sync",
			    name, lineno);
	return 0;
}

int trace_import(const char *in, enum trace_src src, FILE *out, const struct trace_info *info,
		 struct trace_writer *w, char *err, size_t errlen)
{
	uint8_t head[4] = {0};
	FILE *f;
	int ret = fileio_fopen(in, "a block trace or fio iolog", UINT64_MAX, &f, err, errlen);

	if (ret)
		return ret;
	if (src == TRACE_SRC_AUTO) {
		size_t got = fread(head, 1, sizeof(head), f);
		rewind(f);
		src = got == 4 && (le32(head) & 0xffffff00u) == BLK_MAGIC ? TRACE_SRC_BLKTRACE
									  : TRACE_SRC_FIO;
	}
	ret = trace_write_begin(w, out, info);
	if (ret)
		snprintf(err, errlen, "cannot write the trace: %s", strerror(-ret));
	else if (src == TRACE_SRC_BLKTRACE)
		ret = import_blk(f, in, w, err, errlen);
	else
		ret = import_fio(f, in, w, err, errlen);
	fclose(f);
	return ret;
}
