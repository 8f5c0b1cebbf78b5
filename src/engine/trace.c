// SPDX-License-Identifier: GPL-2.0-or-later
/* The dbtrace format (trace.h): a streaming writer, a checking reader, a replay's copy. */
#include "trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

const char *const trace_op_name[] = {"read", "write", "flush", "discard"};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* A logical block size the header may carry: 0 (unknown) or a power of two in range. */
static bool lbs_ok(uint32_t lbs)
{
	return lbs == 0 || (lbs >= TRACE_MIN_LBS && lbs <= TRACE_MAX_LBS && !(lbs & (lbs - 1)));
}

int trace_write_begin(struct trace_writer *w, FILE *f, const struct trace_info *info)
{
	uint8_t h[TRACE_HEADER_SIZE] = {0};

	*w = (struct trace_writer){.f = f};
	if (info && !lbs_ok(info->lbs))
		return -EINVAL;
	memcpy(h, TRACE_MAGIC, 8);
	put32(h + 8, TRACE_VERSION);
	put32(h + 12, TRACE_RECORD_SIZE);
	put64(h + 16, info ? info->dev_size : 0);
	put32(h + 24, info ? info->lbs : 0);
	if (fwrite(h, sizeof(h), 1, f) != 1)
		return errno ? -errno : -EIO;
	return 0;
}

int trace_write(struct trace_writer *w, const struct trace_rec *r)
{
	uint8_t b[TRACE_RECORD_SIZE] = {0};

	/* never a record the reader would refuse */
	if (trace_check(r, w->last_ns))
		return -EINVAL;
	put64(b, r->time_ns);
	put64(b + 8, r->off);
	put32(b + 16, r->len);
	put32(b + 20, r->pid);
	b[24] = r->op;
	b[25] = r->flags & TRACE_F_ALL;
	put16(b + 26, r->depth);
	put32(b + 28, r->cpu);
	if (fwrite(b, sizeof(b), 1, w->f) != 1)
		return errno ? -errno : -EIO;
	w->last_ns = r->time_ns;
	w->n++;
	w->count[r->op]++;
	w->bytes[r->op] += r->len;
	return 0;
}

int trace_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int trace_open(struct trace_reader *r, const char *path, char *err, size_t errlen)
{
	uint8_t h[TRACE_HEADER_SIZE];
	size_t got;
	int ret;

	*r = (struct trace_reader){.path = path};
	/* a FIFO or a directory is refused at once, as every input is */
	if ((ret = fileio_fopen(path, "a drivebench trace", UINT64_MAX, &r->f, err, errlen)))
		return ret;
	got = fread(h, 1, sizeof(h), r->f);
	if (got < 8 || memcmp(h, TRACE_MAGIC, 8)) {
		trace_close(r);
		return trace_errf(err, errlen, "%s: offset 0: not a drivebench trace (no DBTRACE magic)",
			    path);
	}
	if (got < sizeof(h)) {
		trace_close(r);
		return trace_errf(err, errlen, "%s: offset %zu: the header is cut short (%u bytes)", path,
			    got, TRACE_HEADER_SIZE);
	}
	if (get32(h + 8) != TRACE_VERSION) {
		trace_close(r);
		return trace_errf(err, errlen, "%s: offset 8: trace version %u, this drivebench reads %u",
			    path, get32(h + 8), TRACE_VERSION);
	}
	if (get32(h + 12) != TRACE_RECORD_SIZE) {
		trace_close(r);
		return trace_errf(err, errlen, "%s: offset 12: record size %u, version 1 has %u", path,
			    get32(h + 12), TRACE_RECORD_SIZE);
	}
	r->info.dev_size = get64(h + 16);
	r->info.lbs = get32(h + 24);
	if (!lbs_ok(r->info.lbs)) {
		trace_close(r);
		return trace_errf(
			err, errlen,
			"%s: offset 24: logical block size %u, not 0 (unknown) or a power "
			"of two from %u to %u",
			path, r->info.lbs, TRACE_MIN_LBS, TRACE_MAX_LBS);
	}
	return 0;
}

const char *trace_check(const struct trace_rec *t, uint64_t last_ns)
{
	if (t->op >= TRACE_NOPS)
		return "unknown op (0 read, 1 write, 2 flush, 3 discard)";
	if (t->flags & ~TRACE_F_ALL)
		return "unknown flags";
	if (t->time_ns < last_ns)
		return "time goes back";
	if (t->time_ns > TRACE_MAX_TIME_NS)
		return "a time past 720h (a replay lasts no longer than a preset's step)";
	if (t->op == TRACE_FLUSH)
		return t->len || t->off ? "a flush with an offset or a length" : NULL;
	if (t->len == 0)
		return "length 0";
	if (t->len % 512)
		return "length not a multiple of 512";
	if (t->op != TRACE_DISCARD && t->len > TRACE_MAX_LEN)
		return "a read or write over 64 MiB";
	if (t->off % 512)
		return "offset not a multiple of 512";
	if (t->off > (UINT64_C(1) << 62))
		return "offset past 2^62";
	return NULL;
}

int trace_next(struct trace_reader *r, struct trace_rec *out, char *err, size_t errlen)
{
	uint8_t b[TRACE_RECORD_SIZE];
	uint64_t at = TRACE_HEADER_SIZE + r->n * TRACE_RECORD_SIZE;
	size_t got = fread(b, 1, sizeof(b), r->f);
	const char *why;

	if (got == 0 && !ferror(r->f))
		return 0;
	if (got < sizeof(b))
		return trace_errf(err, errlen, "%s: offset %llu: record %llu: cut short (%zu of %u bytes)",
			    r->path, (unsigned long long)at, (unsigned long long)r->n + 1, got,
			    TRACE_RECORD_SIZE);
	out->time_ns = get64(b);
	out->off = get64(b + 8);
	out->len = get32(b + 16);
	out->pid = get32(b + 20);
	out->op = b[24];
	out->flags = b[25];
	out->depth = get16(b + 26);
	out->cpu = get32(b + 28);
	why = trace_check(out, r->last_ns);
	if (why)
		return trace_errf(err, errlen, "%s: offset %llu: record %llu: %s", r->path,
			    (unsigned long long)at, (unsigned long long)r->n + 1, why);
	r->last_ns = out->time_ns;
	r->n++;
	return 1;
}

void trace_close(struct trace_reader *r)
{
	if (r->f)
		fclose(r->f);
	r->f = NULL;
}

static void summary_add(struct trace_summary *s, const struct trace_rec *t)
{
	s->n++;
	s->duration_ns = t->time_ns;
	s->count[t->op]++;
	s->bytes[t->op] += t->len;
	if (t->op != TRACE_FLUSH && t->off + t->len > s->max_end)
		s->max_end = t->off + t->len;
	if (t->depth > s->max_depth)
		s->max_depth = t->depth;
	if (t->len > s->max_len)
		s->max_len = t->len;
	if (t->op <= TRACE_WRITE && t->len > s->max_rw_len)
		s->max_rw_len = t->len;
}

int trace_scan(const char *path, struct trace_summary *s, char *err, size_t errlen)
{
	struct trace_reader r;
	struct trace_rec t;
	int ret = trace_open(&r, path, err, errlen);

	*s = (struct trace_summary){0};
	if (ret)
		return ret;
	s->info = r.info;
	while ((ret = trace_next(&r, &t, err, errlen)) > 0)
		summary_add(s, &t);
	trace_close(&r);
	if (ret == 0 && s->n == 0)
		ret = trace_errf(err, errlen, "%s: offset %u: the trace has no I/O", path,
			   TRACE_HEADER_SIZE);
	return ret;
}

int trace_load(const char *path, struct trace_mem *m, char *err, size_t errlen)
{
	struct trace_reader r;
	struct trace_rec t;
	int ret = trace_scan(path, &m->sum, err, errlen);

	m->io = NULL;
	m->n = 0;
	if (ret)
		return ret;
	if (m->sum.n > TRACE_MAX_RECORDS)
		return trace_errf(err, errlen, "%s: %llu records, over the replay limit of %u", path,
			    (unsigned long long)m->sum.n, TRACE_MAX_RECORDS);
	m->io = malloc(m->sum.n * sizeof(*m->io));
	if (!m->io)
		return trace_errf(err, errlen, "%s: out of memory", path), -ENOMEM;
	if ((ret = trace_open(&r, path, err, errlen))) {
		trace_mem_free(m);
		return ret;
	}
	/* the file may have changed since the scan: never past what was counted */
	while (m->n < m->sum.n && (ret = trace_next(&r, &t, err, errlen)) > 0)
		m->io[m->n++] = (struct trace_io){t.time_ns, t.off, t.len, t.op, t.flags, t.depth};
	trace_close(&r);
	if (ret < 0 || m->n != m->sum.n) {
		if (ret >= 0)
			ret = trace_errf(err, errlen, "%s: changed while it was read", path);
		trace_mem_free(m);
	}
	return ret < 0 ? ret : 0;
}

void trace_mem_free(struct trace_mem *m)
{
	free(m->io);
	m->io = NULL;
	m->n = 0;
}
