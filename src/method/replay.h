/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_REPLAY_H
#define DB_REPLAY_H
/*
 * replay (runner_opts.seeds_from): what a replay's step takes from the original's step.
 * Its engine choices are its definition's (step_def_replayed(), step_def_engine()).
 */
#include <stdint.h>

#include "result.h"

/*
 * The seed of the step of `from` at the same place as a replay's step (phase `phase`, at
 * `index`) when it ran the same step (label); 0 when it did not, or from is NULL.
 */
uint64_t replay_seed(const struct result *from, unsigned phase, unsigned index, const char *label);

#endif
