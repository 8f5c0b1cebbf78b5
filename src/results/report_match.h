/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_REPORT_MATCH_H
#define DB_REPORT_MATCH_H
/*
 * Which steps of different runs are the same measurement (report.c's matching), and
 * their hashes for its tables: inside the comparison model only.
 */
#include <stdbool.h>
#include <stdint.h>

#include "result.h"

/* Same workload apart from threads, queue depth and rate: the same ladder or curve. */
bool report_same_group(const struct workload *a, const struct workload *b);
/* A step of a preset's [stream] sections, whose own workload is only the defaults. */
bool report_named_streams(const struct result_step *st);
/* Same streams by name, workload and share (true for two steps of no named streams). */
bool report_same_streams(const struct result_step *a, const struct result_step *b);
/* The same step: group, threads, queue depth, rate and streams. */
bool report_same_step(const struct result_step *a, const struct result_step *b);
/*
 * The same marks on their workloads: warnings that say a step's workload is not what it
 * ran (an fio import's group-mixed, bs-varied), equal in code and text. A marked step is
 * the same step or group only as one marked alike, never beside an unmarked one.
 */
bool report_same_marks(const struct result_step *a, const struct result_step *b);
/* Is w such a mark? */
bool report_is_mark(const struct result_warning *w);
/* What report_same_marks() compares (0 for a step of none). */
uint64_t report_marks_hash(const struct result_step *st);
uint64_t report_mix(uint64_t h, uint64_t v);
/* Hashes of what report_same_group(), report_same_streams() and report_same_step() compare. */
uint64_t report_group_hash(const struct workload *wl);
uint64_t report_streams_hash(const struct result_step *st);
uint64_t report_step_hash(const struct result_step *st, unsigned occurrence);

#endif
