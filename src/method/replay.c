// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay: what a replay's step takes from the original's step, which the runner asks for
 * each step it runs.
 */
#include "replay.h"

#include <string.h>

uint64_t replay_seed(const struct result *from, unsigned phase, unsigned index, const char *label)
{
	const struct result_phase *p;

	if (!from || phase >= from->nphases)
		return 0;
	p = &from->phases[phase];
	if (index >= p->nsteps || strcmp(p->steps[index].label, label))
		return 0;
	return p->steps[index].wl.seed;
}
