/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_PURGE_ERASE_H
#define DB_PURGE_ERASE_H
/*
 * The secure erases behind purge.h (internal to src/method/purge*.c): NVMe Format NVM and
 * Sanitize through libnvme on the namespace the run opened, ATA SECURITY ERASE UNIT
 * through hdparm after smartctl has read the security state.
 */
#include "purge.h"

uint64_t purge_now_ns(void);

/* The plain range methods (purge.c), for auto's fallback to discard. */
int purge_range(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
		atomic_int *stop, char *err, size_t errlen);

/* Resolve m (purge_resolve) and run it on t; out filled. As purge_run(). */
int purge_erase(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
		const struct purge_opts *o, struct purge_outcome *out, char *err, size_t errlen);

#endif
