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
uint64_t report_mix(uint64_t h, uint64_t v);
/* Hashes of what report_same_group(), report_same_streams() and report_same_step() compare. */
uint64_t report_group_hash(const struct workload *wl);
uint64_t report_streams_hash(const struct result_step *st);
uint64_t report_step_hash(const struct result_step *st, unsigned occurrence);

#endif
