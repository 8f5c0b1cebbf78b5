/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_MARKS_H
#define DB_UI_MARKS_H
/*
 * The targets a run goes on, as the Drives screen keeps them: marked by path (so a
 * rescan keeps them), in the order marked, at most RUN_MAX_TARGETS (run.h); and the
 * typed confirmations a writing queue needs, one block device after another. No
 * curses here: check_ui_marks tests it as it stands.
 */
#include <stdbool.h>
#include <stddef.h>

#include "run.h"

#define MARK_NAME_BYTES 64 /* a device's name, as typed to confirm it */

struct marks {
	char path[RUN_MAX_TARGETS][4096];
	unsigned n;
};

/* Where path is among the marks, or -1. */
int marks_find(const struct marks *m, const char *path);
/* Mark path, or unmark it when it is marked: 1 marked, 0 unmarked, -ENOSPC when full. */
int marks_toggle(struct marks *m, const char *path);
/* "loop0 + loop1": n names joined by sep, cut to len. */
char *marks_join(char *buf, size_t len, const char *const *names, unsigned n, const char *sep);

/*
 * A writing queue's confirmations: each block device it writes to (name, as the Drives
 * screen lists it) must have its name typed, in turn. The names typed are what the run
 * door checks again (run_request.confirms).
 */
struct confirm_seq {
	char name[RUN_MAX_TARGETS][MARK_NAME_BYTES];
	char typed[RUN_MAX_TARGETS][MARK_NAME_BYTES];
	unsigned n, done;
};

void confirm_seq_reset(struct confirm_seq *c);
/* One more device to confirm; -ENOSPC past RUN_MAX_TARGETS. */
int confirm_seq_add(struct confirm_seq *c, const char *name);
/* The device to ask for next, or NULL when every one is confirmed. */
const char *confirm_seq_next(const struct confirm_seq *c);
/* The operator typed `typed` for the next device: 0, or -EINVAL when it is not its name. */
int confirm_seq_give(struct confirm_seq *c, const char *typed);

#endif
