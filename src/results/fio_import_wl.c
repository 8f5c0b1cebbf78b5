// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio's options as a step's workload (fio_import.h, fio_import_int.h): what a job's (or a
 * group's) options say it ran, each direction's block sizes (bs=R,W[,T], bsrange, bssplit)
 * as far as one workload holds them, and whether the figures fio reports are those of
 * that workload at all (a group of different jobs).
 */
#include "fio_import_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "text.h"
#include "units.h"

const char *fio_import_opt(const struct importer *im, const struct fio_entry *e, const char *key)
{
	struct json_object *v;

	if (e->opts && json_object_object_get_ex(e->opts, key, &v))
		return json_object_get_string(v);
	if (im->global && json_object_object_get_ex(im->global, key, &v))
		return json_object_get_string(v);
	return NULL;
}

bool fio_import_opt_bool(const struct importer *im, const struct fio_entry *e, const char *key)
{
	const char *v = fio_import_opt(im, e, key);
	/* a bare "group_reporting" reads as "" */
	return v && strcmp(v, "0") && strcmp(v, "false");
}

unsigned fio_import_opt_uint(const struct importer *im, const struct fio_entry *e, const char *key,
			     unsigned dflt)
{
	const char *v = fio_import_opt(im, e, key);
	uint64_t n;

	if (!v || units_parse_uint(v, 1, 1u << 20, &n))
		return dflt;
	return (unsigned)n;
}

/* ---- block sizes per direction -------------------------------------------------- */

/* What fio was told of one direction's I/O sizes. */
struct dir_bs {
	uint64_t min, max; /* bytes */
	char split[96];	   /* a bssplit's own text; "" when none */
	char text[112];	   /* as said to the reader: "4k", "4k-16k", "bssplit 4k/50:8k/50" */
};

/*
 * Field d (0 read, 1 write) of fio's "R,W,T" syntax into out: a field left empty is fio's
 * default (dflt); one not given is the last one given ("bs=8k,32k": 32k for writes and
 * trims).
 */
static void dir_field(const char *spec, unsigned d, const char *dflt, char *out, size_t len)
{
	const char *f = spec, *end;
	unsigned i = 0;

	for (;;) {
		end = strchr(f, ',');
		if (i == d || !end)
			break;
		f = end + 1;
		i++;
	}
	size_t n = end ? (size_t)(end - f) : strlen(f);
	if (!n)
		text_copy(out, len, dflt);
	else
		snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), f);
}

/* "4k" or "4k-16k" (fio also takes "4k:16k"): false when it is neither. */
static bool parse_range(const char *s, uint64_t *min, uint64_t *max)
{
	char a[32];
	size_t n = strcspn(s, "-:");

	if (n >= sizeof(a))
		return false;
	snprintf(a, sizeof(a), "%.*s", (int)n, s);
	if (units_parse_size(a, min) || !*min)
		return false;
	*max = *min;
	if (s[n] && (units_parse_size(s + n + 1, max) || *max < *min))
		return false;
	return true;
}

/* Direction d's sizes from bssplit, else bsrange, else bs (fio's default 4k). */
static void dir_bs_read(const struct importer *im, const struct fio_entry *e, unsigned d,
			struct dir_bs *b)
{
	const char *split = fio_import_opt(im, e, "bssplit"), *v;
	char f[96], a[32], z[32];

	memset(b, 0, sizeof(*b));
	b->min = b->max = 4096;
	if (split && *split) {
		struct workload wl;
		char err[256];
		dir_field(split, d, "4k", f, sizeof(f));
		if (!workload_parse_bssplit(&wl, f, err, sizeof(err)) && wl.nsplit) {
			text_copy(b->split, sizeof(b->split), f);
			snprintf(b->text, sizeof(b->text), "bssplit %s", f);
			b->min = workload_min_bs(&wl);
			b->max = workload_max_bs(&wl);
			return;
		}
	}
	if (!(v = fio_import_opt(im, e, "bsrange")) &&
	    !(v = fio_import_opt(im, e, "blocksize_range")) && !(v = fio_import_opt(im, e, "bs")))
		v = fio_import_opt(im, e, "blocksize");
	if (v && *v) {
		dir_field(v, d, "4k", f, sizeof(f));
		if (!parse_range(f, &b->min, &b->max))
			b->min = b->max = 4096;
	}
	units_fmt_size(a, sizeof(a), b->min);
	units_fmt_size(z, sizeof(z), b->max);
	if (b->min == b->max)
		snprintf(b->text, sizeof(b->text), "%s", a);
	else
		snprintf(b->text, sizeof(b->text), "%s-%s", a, z);
}

/*
 * The block size of wl from the directions the workload does (dirs, a bit per direction):
 * one fixed size, or one bssplit, when every such direction has the same; otherwise none
 * (bs 0, no split) and the sizes said in note.
 */
static void workload_bs(struct workload *wl, const struct dir_bs b[FD_N], unsigned dirs, char *note,
			size_t len)
{
	static const char *const dir_name[FD_N] = {"reads", "writes"};
	int first = -1;
	bool same = true;
	char err[256];

	for (unsigned d = 0; d < FD_N; d++) {
		if (!(dirs & (1u << d)))
			continue;
		if (first < 0)
			first = (int)d;
		else if (strcmp(b[d].text, b[first].text))
			same = false;
	}
	if (first < 0)
		first = FD_READ;
	const struct dir_bs *f = &b[first];
	if (same && f->split[0] && !workload_parse_bssplit(wl, f->split, err, sizeof(err)))
		return;
	wl->nsplit = 0;
	if (same && f->min == f->max && f->min <= UINT32_MAX) {
		wl->bs = (uint32_t)f->min;
		return;
	}
	wl->bs = 0; /* not one size: said so, never the smallest */
	size_t used = (size_t)snprintf(note, len, "fio's block sizes:");
	bool any = false;
	for (unsigned d = 0; d < FD_N && used < len; d++) {
		if (!(dirs & (1u << d)))
			continue;
		used += (size_t)snprintf(note + used, len - used, "%s %s %s", any ? "," : "",
					 dir_name[d], b[d].text);
		any = true;
	}
}

/* ---- groups of different jobs ---------------------------------------------------- */

/* A group of fio's listing: the first job's description, or len (size_t)-1 when they differ. */
struct listed {
	unsigned g;
	const char *desc;
	size_t len;
};

/*
 * fio's listing before its JSON (--output-format=normal,json: "NAME: (g=N): rw=..., bs=...,
 * ioengine=..., iodepth=N", one line a job section): the groups whose sections differ, into
 * im->mixed_groups. Lines of fio's client ("<host> ...") are not read. 0 or -ENOMEM.
 */
int fio_import_listing(struct importer *im, const char *text, size_t len)
{
	struct listed *seen = NULL;
	unsigned nseen = 0;
	const char *end = text + len;

	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
		const char *g = memmem(p, (size_t)(eol - p), ": (g=", 5);
		char *after = NULL;
		unsigned long n = g && g[5] >= '0' && g[5] <= '9' ? strtoul(g + 5, &after, 10) : 0;
		if (after && *p != '<' && after + 3 <= eol && !strncmp(after, "): ", 3) &&
		    n <= UINT32_MAX) {
			const char *desc = after + 3;
			size_t dlen = (size_t)(eol - desc);
			unsigned k = 0;
			while (k < nseen && seen[k].g != n)
				k++;
			if (k == nseen) {
				void *grown = realloc(seen, (nseen + 1) * sizeof(*seen));
				if (!grown) {
					free(seen);
					return fio_import_nomem(im);
				}
				seen = grown;
				seen[nseen++] = (struct listed){(unsigned)n, desc, dlen};
			} else if (seen[k].len != dlen || memcmp(seen[k].desc, desc, dlen)) {
				seen[k].len = (size_t)-1; /* differs: a group of different jobs */
			}
		}
		p = nl ? nl + 1 : end;
	}
	for (unsigned k = 0; k < nseen; k++) {
		if (seen[k].len != (size_t)-1)
			continue;
		unsigned *grown = realloc(im->mixed_groups, (im->nmixed + 1) * sizeof(*grown));
		if (!grown) {
			free(seen);
			return fio_import_nomem(im);
		}
		im->mixed_groups = grown;
		im->mixed_groups[im->nmixed++] = seen[k].g;
	}
	free(seen);
	return 0;
}

/*
 * Are e's figures those of another workload than its options? Under group_reporting fio
 * reports a group of job sections as one entry: the figures every job's, the "job options"
 * the last job's. What tells: fio's listing (above), I/O in a direction the options do
 * not do (reads of a write job that verifies are its own), or a direction's bytes out
 * of its I/Os times the sizes its options give, give or take a queue of I/Os per thread
 * (fio counts the bytes of those in flight when ramp_time ends, not the I/Os).
 * The reason into why, in words that do not change from run to run of the same jobs
 * (compare holds steps of the same reasons together); false when nothing tells.
 */
static bool group_mixed(const struct importer *im, const struct fio_entry *e, unsigned dirs,
			const struct dir_bs b[FD_N], char *why, size_t len)
{
	static const char *const dir_name[FD_N] = {"reads", "writes"};
	const char *verify = fio_import_opt(im, e, "verify");
	/* fio counts the bytes of the I/Os in flight when ramp_time ends, and not the I/Os */
	long double slack = (long double)fio_import_opt_uint(im, e, "numjobs", 1) *
			    (fio_import_opt_uint(im, e, "iodepth", 1) + 1);

	for (unsigned k = 0; !e->host[0] && k < im->nmixed; k++)
		if (im->mixed_groups[k] == e->groupid) {
			snprintf(why, len, "fio's listing gives its jobs other options");
			return true;
		}
	for (unsigned d = 0; dirs && d < FD_N; d++) {
		const struct fio_dir *fd = &e->d[d];
		if (!fd->ios)
			continue;
		if (!(dirs & (1u << d))) {
			if (d == FD_READ && verify && strcmp(verify, "0") && strcmp(verify, "none"))
				continue;
			snprintf(why, len, "%s, which its options do not do", dir_name[d]);
			return true;
		}
		long double lo = ((long double)fd->ios - slack) * b[d].min;
		long double hi = ((long double)fd->ios + slack) * b[d].max;
		if ((long double)fd->bytes > hi || (long double)fd->bytes < lo) {
			snprintf(why, len, "%s of other sizes than its options' %s", dir_name[d],
				 b[d].text);
			return true;
		}
	}
	return false;
}

/* ---- the workload ------------------------------------------------------------------ */

void fio_import_workload(const struct importer *im, const struct fio_entry *e, struct workload *wl,
			 struct fio_wl_notes *notes)
{
	const char *v;
	uint64_t n;
	struct dir_bs b[FD_N];

	memset(notes, 0, sizeof(*notes));
	workload_defaults(wl);
	/* fio's rw: read (its default), write, randread, randwrite, rw, randrw; ":N" after */
	char rw[32] = "";
	if ((v = fio_import_opt(im, e, "rw")) || (v = fio_import_opt(im, e, "readwrite")))
		text_copy(rw, sizeof(rw), v);
	else if (!e->opts)
		snprintf(rw, sizeof(rw), "unknown"); /* fio's client leaves them out at times */
	else
		snprintf(rw, sizeof(rw), "read"); /* fio's default */
	rw[strcspn(rw, ":")] = '\0';
	wl->pattern = strncmp(rw, "rand", 4) ? WL_SEQUENTIAL : WL_RANDOM;
	unsigned dirs = 0; /* the directions the options do; 0: not known */
	if (!strcmp(rw, "read") || !strcmp(rw, "randread")) {
		wl->read_pct = 100;
		dirs = 1u << FD_READ;
	} else if (!strcmp(rw, "write") || !strcmp(rw, "randwrite")) {
		wl->read_pct = 0;
		dirs = 1u << FD_WRITE;
	} else if (!strcmp(rw, "rw") || !strcmp(rw, "readwrite") || !strcmp(rw, "randrw")) {
		wl->read_pct = fio_import_opt_uint(
			im, e, "rwmixread", 100 - fio_import_opt_uint(im, e, "rwmixwrite", 50));
		dirs = wl->read_pct >= 100 ? 1u << FD_READ
		       : wl->read_pct == 0 ? 1u << FD_WRITE
					   : (1u << FD_READ) | (1u << FD_WRITE);
	} else { /* trims, or unknown: what was read and written says the mix */
		wl->read_pct =
			(unsigned)(100 * e->d[FD_READ].ios /
				   (e->d[FD_READ].ios + e->d[FD_WRITE].ios + !e->d[FD_READ].ios));
	}
	if (wl->read_pct > 100)
		wl->read_pct = 100;
	for (unsigned d = 0; d < FD_N; d++)
		dir_bs_read(im, e, d, &b[d]);
	/* the sizes of the directions done: those of the options, else those with I/O */
	unsigned done = dirs;
	for (unsigned d = 0; !dirs && d < FD_N; d++)
		if (e->d[d].ios)
			done |= 1u << d;
	workload_bs(wl, b, done ? done : 1u << FD_READ, notes->bs, sizeof(notes->bs));
	if (group_mixed(im, e, dirs, b, notes->why, sizeof(notes->why)))
		snprintf(notes->mixed, sizeof(notes->mixed), "rw=%s bs=%s iodepth=%s", rw,
			 fio_import_opt(im, e, "bs") ? fio_import_opt(im, e, "bs") : "4k",
			 fio_import_opt(im, e, "iodepth") ? fio_import_opt(im, e, "iodepth") : "1");
	wl->threads = 1; /* resolve_threads() */
	wl->qdepth = fio_import_opt_uint(im, e, "iodepth", 1);
	if ((v = fio_import_opt(im, e, "ramp_time")) && !units_parse_duration(v, &n))
		wl->ramp_ns = n;
	if ((v = fio_import_opt(im, e, "rate_iops")) && !units_parse_uint(v, 0, UINT32_MAX, &n))
		wl->rate_iops = n; /* per job: resolve_threads() makes it the total */
	if ((v = fio_import_opt(im, e, "size")) && *v) {
		double pct;
		size_t l = strlen(v);
		char num[32];
		if (v[l - 1] == '%' && l < sizeof(num)) {
			snprintf(num, sizeof(num), "%.*s", (int)(l - 1), v);
			if (!units_parse_double(num, 0.000001, 100, &pct))
				wl->range_pct = pct;
		} else if (!units_parse_size(v, &n)) {
			wl->range_size = n;
		}
	}
	if ((v = fio_import_opt(im, e, "offset")) && !units_parse_size(v, &n))
		wl->range_start = n;
	if ((v = fio_import_opt(im, e, "log_avg_msec")) && !units_parse_uint(v, 1, UINT32_MAX, &n))
		wl->interval_ns = n * 1000000;
	if ((v = fio_import_opt(im, e, "randseed")) && !units_parse_uint(v, 0, UINT64_MAX, &n))
		wl->seed = n;
	if (fio_import_opt_bool(im, e, "zero_buffers"))
		wl->data = WL_DATA_ZERO;
	else if ((v = fio_import_opt(im, e, "buffer_compress_percentage")) &&
		 !units_parse_uint(v, 1, 100, &n)) {
		wl->data = WL_DATA_COMPRESS;
		wl->compress_pct = (unsigned)n;
	}
}
