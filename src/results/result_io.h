/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_RESULT_IO_H
#define DB_RESULT_IO_H
/*
 * Results as people look for them: the library of saved results in a directory (what the
 * TUI's Results screen lists), and how a run is named (from its target's summary,
 * result.h). Implemented in result_library.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* The facts of a result file the library shows: read from the file when asked for. */
struct result_entry {
	char path[4096];
	char model[128]; /* drive model; "" for a file target or no discovery record */
	char firmware[64];
	uint64_t capacity_bytes; /* the drive's, else the target's size */
	char target[256];	 /* the target path the run used */
	char preset[128];	 /* "" for an ad-hoc run */
	char label[RESULT_LABEL_BYTES]; /* the run's label; "" none */
	char started[32];	 /* ISO 8601 UTC */
	enum result_status status;
	unsigned nphases;
	unsigned nsteps; /* over all phases */
	int version;	 /* format version of the file */
	char error[512]; /* non-empty: the file could not be read (and why) */
};

/*
 * The library of results, listed lazily: a directory is listed (names and modification
 * times, nothing read from the files), and a file is read for its entry only when asked
 * for, a page of RESULT_LIST_PAGE files at a time, keeping the last RESULT_LIST_PAGES
 * pages. Memory: about 150 bytes a file listed (its path) plus the pages (1.4 MB),
 * whatever the files hold; at most RESULT_LIST_MAX_FILES files a list. Time: a
 * directory's listing (a stat per file) and a page of reads per page asked for.
 */
#define RESULT_LIST_PAGE      16
#define RESULT_LIST_PAGES     16
#define RESULT_LIST_MAX_FILES 1000000

/* A file listed: nothing read from it. */
struct result_file {
	char *path;	  /* malloc'd */
	int64_t mtime_ns; /* when it was last saved (a label or note keeps it) */
};

struct result_list_page;
struct result_list_reader;

/* Zeroed, an empty list. */
struct result_list {
	struct result_file *files; /* newest first (modification time), then by path */
	size_t n, cap;
	struct result_list_page *pages; /* [RESULT_LIST_PAGES], made on first use */
	uint64_t tick;			/* uses of pages, for the least recently used */
	uint64_t reads;			/* files read for their entries (the tests count them) */
	uint64_t gen;			/* moves on when the pages no longer match the files */
	struct result_list_reader *reader; /* result_list_entry_peek()'s, made on first use */
};

/*
 * Every *.json file in dir, listed (nothing read). 0 or -errno (dir unreadable), message
 * in err; -E2BIG past RESULT_LIST_MAX_FILES, the list holding the files listed before.
 */
int result_list_dir(const char *dir, struct result_list *out, char *err, size_t errlen);
void result_list_free(struct result_list *l);
/*
 * Add to l what path holds: a result file, or every *.json file of a directory (listed
 * as result_list_dir() lists them), keeping l sorted. 0 or -errno (path unreadable),
 * message in err; l keeps what it had, and what was added before an error.
 */
int result_list_add(struct result_list *l, const char *path, char *err, size_t errlen);
/* File i's path (nothing read); NULL past the end. */
const char *result_list_path(const struct result_list *l, size_t i);
/*
 * File i's entry: its page read now unless kept (files that fail to load get their
 * error, so a broken result is visible rather than silently missing). Valid until the
 * list's next call; NULL past the end or out of memory.
 */
const struct result_entry *result_list_entry(struct result_list *l, size_t i);
/*
 * File i's entry if its page has been read, else NULL with *pending set, its page asked of
 * a thread of the list's that reads it while the caller goes on (the newest asked first):
 * a later call finds it. It never waits for a file, however slow (a result of hours of
 * samples, a share that stopped answering); when no thread can be started it reads the
 * page as result_list_entry() does. NULL without *pending: past the end, out of memory.
 * Valid until the list's next call. Entries are read as the list is when asked: a page
 * asked before the list changed (added to, sorted) is dropped when read.
 */
const struct result_entry *result_list_entry_peek(struct result_list *l, size_t i, bool *pending);

/*
 * Load n files into rs[0..n-1] (what: RESULT_LOAD_*, as for result_load_opts()), on
 * several threads (reading is the cost of a big comparison). 0, or the error of the first
 * file (in argument order) that failed, with its message in err; then no result is left
 * loaded.
 */
int result_load_many(struct result *rs, const char *const *paths, unsigned n, unsigned what,
		     char *err, size_t errlen);

/*
 * Results loaded in a thread of their own (result_loading.c), for a caller that must not
 * wait: the n paths (copied) are loaded as result_load_many() loads them. NULL: out of
 * memory or no thread (load them in place). Look with result_loading_done(); once it is
 * done, result_loading_take() gives the results (an array of n, each to result_free(),
 * the array to free()) or the error of the first file that failed, with its message in
 * err, and frees the loading. result_loading_drop() lets go of one not taken: it is freed
 * when its thread ends (a read on a share that stopped answering may never end).
 */
struct result_loading;
struct result_loading *result_loading_start(const char *const *paths, unsigned n, unsigned what);
bool result_loading_done(struct result_loading *l);
int result_loading_take(struct result_loading *l, struct result **rs, unsigned *n, char *err,
			size_t errlen);
void result_loading_drop(struct result_loading *l);

/*
 * The TUI's list of results, made in a thread of its own (result_listing.c), so that a
 * results directory or library place on a share that stopped answering never holds the
 * screen: the results directory (made if missing, result_dir()) listed, then each of the
 * places (the library's, copied) but that directory, as result_list_add() lists them.
 * result_listing_start() (NULL: no memory or thread, list with result_listing_run()), then
 * result_listing_done() until it is, and result_listing_take() for the answer (its list is
 * the caller's to free; the listing is freed); result_listing_drop() lets go of one no
 * longer wanted, freed when its thread ends. s must outlive the listing.
 */
struct result_listing_answer {
	struct result_list list; /* what was listed: empty when the directory was not */
	char dir[4096];		 /* the results directory */
	char err[512];		 /* the results directory could not be made or listed */
	char warning[1024];	 /* the first library place that could not be listed, why */
};
struct result_listing;
struct result_listing *result_listing_start(const struct settings *s, const char *const *places,
					    unsigned nplaces);
bool result_listing_done(struct result_listing *l);
void result_listing_take(struct result_listing *l, struct result_listing_answer *ans);
void result_listing_drop(struct result_listing *l);
/* The same, here and now: 0, or -ENOMEM (said in ans->err). */
int result_listing_run(const struct settings *s, const char *const *places, unsigned nplaces,
		       struct result_listing_answer *ans);

/*
 * What the TUI asks of one result file, in a thread of its own (result_chore.c), so that a
 * share that stopped answering never holds the screen: result_chore_start() (the path and
 * text copied; NULL: no memory or thread, do it with result_chore_run()), then
 * result_chore_done() until it is, and result_chore_take() for the answer (which frees
 * it); result_chore_drop() lets go of one no longer wanted, freed when its thread ends.
 * Those that read or change the file refuse one a run holds (-EBUSY, "a run is saving
 * this result: ... it when it ends"); label and note are changed as result_rewrite() does.
 * RESULT_CHORE_OPEN looks at a path typed to be listed: its absolute path (symbolic links
 * resolved) in ans->path when it is a regular file or a directory, else -errno ("PATH:
 * why", -EINVAL: neither).
 */
enum result_chore_kind {
	RESULT_CHORE_READ,   /* its label and note, as the file holds them */
	RESULT_CHORE_CHECK,  /* is a run saving it (-EBUSY)? */
	RESULT_CHORE_LABEL,  /* its label becomes text ("" removes it) */
	RESULT_CHORE_NOTE,   /* its note becomes text */
	RESULT_CHORE_DELETE, /* it is deleted */
	RESULT_CHORE_OPEN,   /* a path to list: where it leads, a file or a directory */
};
struct result_chore_answer {
	int ret;						 /* 0 or -errno */
	char err[512];						 /* why, when ret < 0 */
	char label[RESULT_LABEL_BYTES], note[RESULT_NOTE_BYTES]; /* RESULT_CHORE_READ's */
	char path[4096];					 /* RESULT_CHORE_OPEN's */
};
struct result_chore;
struct result_chore *result_chore_start(enum result_chore_kind kind, const char *path,
					const char *text);
bool result_chore_done(struct result_chore *c);
void result_chore_take(struct result_chore *c, struct result_chore_answer *ans);
void result_chore_drop(struct result_chore *c);
/* The same, here and now: ans->ret. */
int result_chore_run(enum result_chore_kind kind, const char *path, const char *text,
		     struct result_chore_answer *ans);

struct jwrite;
/* A phase's steady-state verdict as a result file holds it ("steady" of a phase). */
void result_write_steady(struct jwrite *w, const struct steady_info *st);
struct replay_stats;
void result_write_replay(struct jwrite *w, const struct replay_stats *r);
/*
 * How a run is named in tables and legends: its label when it has one, else "Micron
 * P400m 200GB" (the target path when there is no drive model); plus " FW 0200" when
 * with_firmware (two runs of one model).
 */
char *result_label(const struct result *r, bool with_firmware, char *buf, size_t len);
/* Steps over all phases. */
unsigned result_nsteps(const struct result *r);

#endif
