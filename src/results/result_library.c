// SPDX-License-Identifier: GPL-2.0-or-later
/* Results as people look for them (result_io.h): where they live, how a run is named, the library of a directory, loading many at once. */
#include "result.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "grow.h"
#include "json_read.h"
#include "json_write.h"
#include "result_int.h"
#include "result_io.h"
#include "settings.h"
#include "text.h"
#include "units.h"
#include "version.h"

/* ---- where results live ---------------------------------------------------------- */

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc && errno != EEXIST)
			return -errno;
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	struct stat st;
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int result_dir(const struct settings *s, char *buf, size_t len)
{
	int ret = result_dir_name(s, buf, len);

	return ret < 0 ? ret : mkdir_p(buf);
}

int result_dir_name(const struct settings *s, char *buf, size_t len)
{
	const char *env = s ? s->results : NULL;
	const char *xdg = s ? s->data_home : NULL;
	const char *home = s ? s->home : NULL;
	int n;

	if (env && *env) {
		n = snprintf(buf, len, "%s", env);
	} else if (xdg && xdg[0] == '/') {
		n = snprintf(buf, len, "%s/drivebench/results", xdg);
	} else {
		if (!home || !home[0]) {
			struct passwd *pw = getpwuid(getuid());
			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return -ENOENT;
		n = snprintf(buf, len, "%s/.local/share/drivebench/results", home);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Lower-case letters, digits, '.', '-' and '_'; spaces become '-'; the rest go. */
static void slug(char *dst, size_t len, const char *src)
{
	size_t j = 0;

	for (; src && *src && j + 1 < len; src++) {
		unsigned char c = (unsigned char)*src;
		if (isalnum(c) || c == '.' || c == '_' || c == '-')
			dst[j++] = (char)tolower(c);
		else if (isspace(c) && j && dst[j - 1] != '-')
			dst[j++] = '-';
	}
	while (j && dst[j - 1] == '-')
		j--;
	dst[j] = '\0';
}

int result_default_path(char *buf, size_t len, const char *dir, const char *target_name,
			const char *preset_name)
{
	char when[32], host[256] = "", hslug[64], tgt[64], pre[64], name[256];
	const char *base = target_name ? strrchr(target_name, '/') : NULL;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H-%M-%S", &tm);
	/* the host's short name: results of a lab's benches gathered in one place stay apart */
	if (gethostname(host, sizeof(host) - 1) == 0)
		host[strcspn(host, ".")] = '\0';
	slug(hslug, sizeof(hslug), host);
	slug(tgt, sizeof(tgt), base ? base + 1 : target_name);
	slug(pre, sizeof(pre), preset_name);
	snprintf(name, sizeof(name), "%s%s%s%s%s%s%s", when, hslug[0] ? "_" : "", hslug,
		 tgt[0] ? "_" : "", tgt, pre[0] ? "_" : "", pre);
	/* whether it is free is result_create()'s to find, atomically: a look here would be
	 * stale by the time the file is written (six runs in one second shared two names) */
	int w = snprintf(buf, len, "%s/%s.json", dir, name);
	if (w < 0 || (size_t)w >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* ---- naming a run ---------------------------------------------------------------- */

char *result_label(const struct result *r, bool with_firmware, char *buf, size_t len)
{
	const char *model = result_drive_model(r), *fw = result_drive_firmware(r);
	uint64_t cap = result_capacity_bytes(r);
	char capbuf[32];

	if (r->label[0]) {
		text_fmt(buf, len, "%s%s%s", r->label, with_firmware && fw[0] ? " FW " : "",
			 with_firmware ? fw : "");
		return buf;
	}
	if (!model[0]) {
		const char *path = result_target_path(r);
		text_fmt(buf, len, "%s", path[0] ? path : (r->path[0] ? r->path : "unnamed run"));
		return buf;
	}
	text_fmt(buf, len, "%s%s%s%s%s", model, cap ? " " : "",
		 cap ? units_fmt_capacity_compact(capbuf, sizeof(capbuf), cap) : "",
		 with_firmware && fw[0] ? " FW " : "", with_firmware ? fw : "");
	return buf;
}

unsigned result_nsteps(const struct result *r)
{
	unsigned n = 0;

	for (unsigned p = 0; p < r->nphases; p++)
		n += r->phases[p].nsteps;
	return n;
}

/* ---- the library of results ------------------------------------------------------ */

/* A page of entries: files first..first+RESULT_LIST_PAGE-1. */
struct result_list_page {
	size_t first; /* SIZE_MAX: unused */
	uint64_t used;
	uint32_t ready; /* the entries read: bit k, e[k] */
	struct result_entry e[RESULT_LIST_PAGE];
};
_Static_assert(RESULT_LIST_PAGE <= 32, "a page's ready bits");

static int file_cmp(const void *a, const void *b)
{
	const struct result_file *x = a, *y = b;

	if (x->mtime_ns != y->mtime_ns)
		return x->mtime_ns > y->mtime_ns ? -1 : 1; /* newest first */
	return strcmp(x->path, y->path);
}

static void reader_release(struct result_list_reader *rd);

/* The pages no longer match the files (added, sorted again). */
static void list_forget(struct result_list *l)
{
	l->gen++;
	for (unsigned p = 0; l->pages && p < RESULT_LIST_PAGES; p++)
		l->pages[p].first = SIZE_MAX;
}

static void list_sort(struct result_list *l)
{
	if (l->n)
		qsort(l->files, l->n, sizeof(*l->files), file_cmp);
	list_forget(l);
}

/* Append the file at path (dirfd/name when dirfd >= 0): its name and time, nothing read. */
static int list_append(struct result_list *l, const char *path, int dirfd, const char *name)
{
	struct stat st;

	if (l->n == RESULT_LIST_MAX_FILES)
		return -E2BIG;
	if (GROW(l->files, l->n, l->cap, 64))
		return -ENOMEM;
	struct result_file *f = &l->files[l->n];
	if (!(f->path = strdup(path)))
		return -ENOMEM;
	/* a file gone since the listing is listed still: reading it says why it fails */
	f->mtime_ns = 0;
	if ((dirfd >= 0 ? fstatat(dirfd, name, &st, 0) : stat(path, &st)) == 0)
		f->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	l->n++;
	return 0;
}

/* Every *.json of dir appended to l (unsorted). */
static int list_append_dir(struct result_list *l, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	int ret = 0;

	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	while ((e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		if (e->d_name[0] == '.' || nl < 6 || strcmp(e->d_name + nl - 5, ".json"))
			continue; /* hidden names include save()'s temp files */
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			continue;
		if ((ret = list_append(l, path, dirfd(d), e->d_name)) < 0) {
			if (ret == -E2BIG)
				snprintf(err, errlen,
					 "%s: more than %u result files listed, the limit", dir,
					 RESULT_LIST_MAX_FILES);
			else
				snprintf(err, errlen, "%s: out of memory", dir);
			break;
		}
	}
	closedir(d);
	return ret;
}

int result_list_dir(const char *dir, struct result_list *out, char *err, size_t errlen)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = list_append_dir(out, dir, err, errlen);
	if (ret && ret != -E2BIG)
		result_list_free(out);
	else
		list_sort(out);
	return ret;
}

int result_list_add(struct result_list *l, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int ret;

	if (stat(path, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = list_append_dir(l, path, err, errlen);
	} else {
		ret = list_append(l, path, -1, NULL);
		if (ret)
			snprintf(err, errlen, "%s: %s", path,
				 ret == -E2BIG ? "more result files listed than the limit"
					       : "out of memory");
	}
	list_sort(l);
	return ret;
}

void result_list_free(struct result_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->files[i].path);
	free(l->files);
	free(l->pages);
	reader_release(l->reader);
	memset(l, 0, sizeof(*l));
}

const char *result_list_path(const struct result_list *l, size_t i)
{
	return i < l->n ? l->files[i].path : NULL;
}

/* The entry of the file at path: its facts, or why it cannot be read. */
static void entry_read(struct result_entry *en, const char *path)
{
	struct result r;

	memset(en, 0, sizeof(*en));
	snprintf(en->path, sizeof(en->path), "%s", path);
	/* the list shows what names a run: no samples, no histograms */
	if (result_load_opts(&r, en->path, 0, en->error, sizeof(en->error))) {
		if (!en->error[0])
			text_fmt(en->error, sizeof(en->error), "%s: unreadable", en->path);
		return;
	}
	text_copy(en->model, sizeof(en->model), result_drive_model(&r));
	text_copy(en->firmware, sizeof(en->firmware), result_drive_firmware(&r));
	text_copy(en->target, sizeof(en->target), result_target_path(&r));
	en->capacity_bytes = result_capacity_bytes(&r);
	text_copy(en->preset, sizeof(en->preset), r.preset_name);
	text_copy(en->label, sizeof(en->label), r.label);
	text_copy(en->started, sizeof(en->started), r.started);
	en->status = r.status;
	en->nphases = r.nphases;
	en->nsteps = result_nsteps(&r);
	en->version = r.version;
	result_free(&r);
}

/* The list's pages, made on first use; NULL: out of memory. */
static struct result_list_page *pages_make(struct result_list *l)
{
	if (!l->pages) {
		if (!(l->pages = malloc(RESULT_LIST_PAGES * sizeof(*l->pages))))
			return NULL;
		for (unsigned p = 0; p < RESULT_LIST_PAGES; p++)
			l->pages[p] = (struct result_list_page){.first = SIZE_MAX};
	}
	return l->pages;
}

/* The page of files first.., if it is kept. */
static struct result_list_page *page_find(struct result_list *l, size_t first)
{
	for (unsigned p = 0; l->pages && p < RESULT_LIST_PAGES; p++)
		if (l->pages[p].first == first)
			return &l->pages[p];
	return NULL;
}

/* A page to hold files first..: the least recently used makes room, never the one used
   last. */
static struct result_list_page *page_take(struct result_list *l, size_t first)
{
	struct result_list_page *pg = &l->pages[0];

	for (unsigned p = 1; p < RESULT_LIST_PAGES; p++)
		if (l->pages[p].used < pg->used)
			pg = &l->pages[p];
	pg->first = first;
	pg->ready = 0;
	return pg;
}

static void reader_collect(struct result_list *l);

const struct result_entry *result_list_entry(struct result_list *l, size_t i)
{
	size_t first = i - i % RESULT_LIST_PAGE;
	struct result_list_page *pg;

	if (i >= l->n || !pages_make(l))
		return NULL;
	reader_collect(l);
	if (!(pg = page_find(l, first)))
		pg = page_take(l, first);
	/* what the reader has not read yet, read here */
	for (size_t k = first; k < l->n && k < first + RESULT_LIST_PAGE; k++)
		if (!(pg->ready & 1u << (k - first))) {
			entry_read(&pg->e[k - first], l->files[k].path);
			pg->ready |= 1u << (k - first);
			l->reads++;
		}
	pg->used = ++l->tick;
	return &pg->e[i - first];
}

/* ---- reading entries in the background ------------------------------------------- */

/*
 * result_list_entry_peek()'s readers: READER_THREADS threads of the list's, made on first
 * use, read the files of the pages asked of them, the newest asked first, each file by
 * whichever thread is free, so that one slow file (a long run's, or one on a share that
 * stopped answering) holds one thread and not its page. Only the caller's thread touches
 * the list: a page asked carries its paths and is filled on its own, and the caller's
 * next call copies what has been read into the list's pages. Readers blocked in a read
 * are left behind when the list is freed; the last of them all to let go frees what they
 * share.
 */
#define READER_JOBS    4
#define READER_THREADS 2

struct reader_job {
	bool asked;	/* in use */
	size_t first;	/* the page's first file */
	uint64_t gen;	/* the list's generation when asked (list_forget() moves it on) */
	uint64_t when;	/* when asked: the newest is read first */
	unsigned n;	/* files in the page */
	unsigned next;	/* the next file no reader has taken */
	unsigned busy;	/* files being read */
	uint32_t read;	/* bit k: e[k] read */
	char *paths[RESULT_LIST_PAGE];
	struct result_entry *e; /* [n] */
};

struct result_list_reader {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	unsigned refs; /* the list's and each thread's */
	uint64_t tick;
	struct reader_job job[READER_JOBS];
};

static void job_clear(struct reader_job *j)
{
	for (unsigned k = 0; k < j->n; k++)
		free(j->paths[k]);
	free(j->e);
	memset(j, 0, sizeof(*j));
}

static void reader_unref(struct result_list_reader *rd)
{
	pthread_mutex_lock(&rd->mu);
	bool last = --rd->refs == 0;
	pthread_mutex_unlock(&rd->mu);
	if (!last)
		return;
	for (unsigned k = 0; k < READER_JOBS; k++)
		job_clear(&rd->job[k]);
	pthread_cond_destroy(&rd->cv);
	pthread_mutex_destroy(&rd->mu);
	free(rd);
}

static void *reader_main(void *arg)
{
	struct result_list_reader *rd = arg;
	struct result_entry *e = malloc(sizeof(*e));

	pthread_mutex_lock(&rd->mu);
	while (!rd->stop && e) {
		struct reader_job *j = NULL;
		for (unsigned k = 0; k < READER_JOBS; k++)
			if (rd->job[k].asked && rd->job[k].next < rd->job[k].n &&
			    (!j || rd->job[k].when > j->when))
				j = &rd->job[k];
		if (!j) {
			pthread_cond_wait(&rd->cv, &rd->mu);
			continue;
		}
		/* a job with files being read is the readers': the caller leaves it be */
		unsigned k = j->next++;
		j->busy++;
		pthread_mutex_unlock(&rd->mu);
		entry_read(e, j->paths[k]);
		pthread_mutex_lock(&rd->mu);
		j->e[k] = *e;
		j->read |= 1u << k;
		j->busy--;
	}
	pthread_mutex_unlock(&rd->mu);
	free(e);
	reader_unref(rd);
	return NULL;
}

/* The list's readers, started now if need be; NULL when not one can be. */
static struct result_list_reader *reader_get(struct result_list *l)
{
	struct result_list_reader *rd;
	pthread_t tid;
	unsigned started = 0;

	if (l->reader)
		return l->reader;
	if (!(rd = calloc(1, sizeof(*rd))))
		return NULL;
	pthread_mutex_init(&rd->mu, NULL);
	pthread_cond_init(&rd->cv, NULL);
	rd->refs = 1 + READER_THREADS;
	/* the readers are never waited for */
	for (unsigned t = 0; t < READER_THREADS; t++)
		started += bg_thread_start(&tid, true, reader_main, rd) == 0;
	/* the references of threads that did not start */
	rd->refs -= READER_THREADS - started;
	l->reader = rd;
	if (!started) {
		reader_release(rd);
		l->reader = NULL;
	}
	return l->reader;
}

/* Copy what the readers have read into the list's pages (the caller's thread only). */
static void reader_collect(struct result_list *l)
{
	struct result_list_reader *rd = l->reader;

	if (!rd || !l->pages)
		return;
	pthread_mutex_lock(&rd->mu);
	for (unsigned k = 0; k < READER_JOBS; k++) {
		struct reader_job *j = &rd->job[k];
		if (!j->asked)
			continue;
		if (j->gen == l->gen) {
			/* what the page lacks: all that is read when the page was let go meanwhile
			   (a job one file of which hangs stays, and so do the others it read) */
			struct result_list_page *pg = page_find(l, j->first);
			uint32_t fresh = j->read & ~(pg ? pg->ready : 0u);
			if (fresh && !pg)
				pg = page_take(l, j->first);
			for (unsigned f = 0; fresh && f < j->n; f++)
				if (fresh & 1u << f) {
					pg->e[f] = j->e[f];
					pg->ready |= 1u << f;
					l->reads++;
				}
			if (fresh)
				pg->used = ++l->tick;
		}
		/* done with: all of it read (and copied), or asked of the list as it was */
		if (!j->busy && (j->gen != l->gen || j->read == (1u << j->n) - 1))
			job_clear(j);
	}
	pthread_mutex_unlock(&rd->mu);
}

/* Ask the readers for the page of files first.. (unless it is asked already): true when
   it is (or no job is free now: asked again at the next call), false when it cannot be
   (no thread, out of memory). */
static bool reader_ask(struct result_list *l, size_t first)
{
	struct result_list_reader *rd = reader_get(l);
	struct reader_job *j = NULL;
	bool asked = false;

	if (!rd)
		return false;
	pthread_mutex_lock(&rd->mu);
	for (unsigned k = 0; k < READER_JOBS; k++)
		if (rd->job[k].asked && rd->job[k].first == first && rd->job[k].gen == l->gen) {
			rd->job[k].when = ++rd->tick; /* wanted again: read next */
			asked = true;
		}
	/* a free job, else the one asked longest ago that no reader is in (what it has not
	   read is asked again when it is wanted again) */
	for (unsigned k = 0; k < READER_JOBS && !asked && !j; k++)
		if (!rd->job[k].asked)
			j = &rd->job[k];
	for (unsigned k = 0; k < READER_JOBS && !asked && !j; k++)
		if (!rd->job[k].busy && (!j || rd->job[k].when < j->when))
			j = &rd->job[k];
	if (!asked && !j) {
		asked = true; /* every job is being read: there will be one */
	} else if (j) {
		job_clear(j);
		j->first = first;
		j->gen = l->gen;
		j->when = ++rd->tick;
		j->n = (unsigned)(l->n - first < RESULT_LIST_PAGE ? l->n - first
								  : RESULT_LIST_PAGE);
		asked = (j->e = calloc(j->n, sizeof(*j->e))) != NULL;
		for (unsigned f = 0; f < j->n; f++)
			asked = (j->paths[f] = strdup(l->files[first + f].path)) && asked;
		if (asked) {
			j->asked = true;
			pthread_cond_broadcast(&rd->cv);
		} else {
			job_clear(j);
		}
	}
	pthread_mutex_unlock(&rd->mu);
	return asked;
}

/* The list lets its readers go: what they were asked is dropped, and what they read
   now they drop. */
static void reader_release(struct result_list_reader *rd)
{
	if (!rd)
		return;
	pthread_mutex_lock(&rd->mu);
	rd->stop = true;
	for (unsigned k = 0; k < READER_JOBS; k++)
		if (!rd->job[k].busy)
			job_clear(&rd->job[k]);
	pthread_cond_broadcast(&rd->cv);
	pthread_mutex_unlock(&rd->mu);
	reader_unref(rd);
}

const struct result_entry *result_list_entry_peek(struct result_list *l, size_t i, bool *pending)
{
	size_t first = i - i % RESULT_LIST_PAGE;
	struct result_list_page *pg;

	*pending = false;
	if (i >= l->n || !pages_make(l))
		return NULL;
	reader_collect(l);
	if ((pg = page_find(l, first)) && (pg->ready & 1u << (i - first))) {
		pg->used = ++l->tick;
		return &pg->e[i - first];
	}
	/* no reader (out of memory, no thread): read it here, as result_list_entry() */
	if (!reader_ask(l, first))
		return result_list_entry(l, i);
	*pending = true;
	return NULL;
}

/* ---- loading many ---------------------------------------------------------------- */

struct load_job {
	struct result *rs;
	const char *const *paths;
	unsigned n;
	atomic_uint next;
	unsigned what;
	int *rc;
	char (*errs)[512];
};

static void *load_worker(void *arg)
{
	struct load_job *job = arg;
	unsigned i;

	while ((i = atomic_fetch_add(&job->next, 1)) < job->n)
		job->rc[i] = result_load_opts(&job->rs[i], job->paths[i], job->what, job->errs[i],
					      sizeof(job->errs[i]));
	return NULL;
}

int result_load_many(struct result *rs, const char *const *paths, unsigned n, unsigned what,
		     char *err, size_t errlen)
{
	struct load_job job = {.rs = rs, .paths = paths, .n = n, .what = what};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned nthreads = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
	pthread_t tid[8];
	unsigned started = 0;
	int ret = 0;

	if (nthreads > n)
		nthreads = n ? n : 1;
	job.rc = calloc(n ? n : 1, sizeof(*job.rc));
	job.errs = calloc(n ? n : 1, sizeof(*job.errs));
	if (!job.rc || !job.errs) {
		free(job.rc);
		free(job.errs);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	atomic_init(&job.next, 0);
	/* this thread works too; extra threads are a speed-up, not a requirement */
	for (unsigned t = 1; t < nthreads; t++)
		if (!pthread_create(&tid[started], NULL, load_worker, &job))
			started++;
	load_worker(&job);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	for (unsigned i = 0; i < n; i++)
		if (job.rc[i]) {
			ret = job.rc[i];
			snprintf(err, errlen, "%s", job.errs[i]);
			break;
		}
	if (ret)
		for (unsigned i = 0; i < n; i++)
			if (!job.rc[i])
				result_free(&rs[i]);
	free(job.rc);
	free(job.errs);
	return ret;
}
