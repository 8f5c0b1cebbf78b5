// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plan fitted to the targets it runs on: the steps a target cannot address dropped, as a
 * reviewer reports SNIA's 0.5K column "not run" on a 4K-sector drive rather than skipping
 * the whole test (docs/DESIGN.md, "4K-sector targets").
 */
#include "preset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

uint32_t plan_workload_misfit(const struct workload *given, uint32_t lbs)
{
	struct workload wl = *given;
	char note[8];

	if (!lbs)
		return 0;
	workload_fold_split(&wl, lbs, note, sizeof(note));
	for (unsigned k = 0; k < (wl.nsplit ? wl.nsplit : 1); k++) {
		uint32_t bs = wl.nsplit ? wl.split[k].bs : wl.bs;
		if (bs % lbs)
			return bs;
	}
	return 0;
}

/* The first block size of step st (its workload's, or a stream's) that lbs cannot take. */
static uint32_t step_misfit(const struct plan_step *st, uint32_t lbs)
{
	uint32_t bs = plan_workload_misfit(&st->wl, lbs);

	for (unsigned k = 0; !bs && k < st->nstreams; k++)
		bs = plan_workload_misfit(&st->streams[k].wl, lbs);
	return bs;
}

/* Can phase ph lose its misfits and still be itself: a step left, the tracked one kept? */
static bool phase_can_drop(const struct plan_phase *ph, uint32_t lbs)
{
	unsigned left = 0;

	if (ph->kind == PH_PURGE || ph->kind == PH_APP)
		return false;
	for (unsigned s = 0; s < ph->nsteps; s++) {
		bool fits = !step_misfit(&ph->steps[s], lbs);
		if (!fits && (int)s == ph->track_step)
			return false;
		left += fits;
	}
	return left > 0 && left < ph->nsteps;
}

/*
 * The phase's note: the labels dropped, then why ("512b 100/0, 512b 95/5 (2 steps): block
 * size 512 B is below or not a multiple of the target's logical block size (4 KiB)").
 */
static void note_dropped(struct plan_phase *ph, const char *labels, unsigned n, uint32_t bs,
			 uint32_t lbs)
{
	char a[32], b[32], count[32] = "";

	if (n > 1)
		snprintf(count, sizeof(count), " (%u steps)", n);
	snprintf(ph->skipped, sizeof(ph->skipped),
		 "%s%s: block size %s is below or not a multiple of the target's logical block "
		 "size (%s)",
		 labels, count, units_fmt_size(a, sizeof(a), bs), units_fmt_size(b, sizeof(b), lbs));
}

unsigned plan_fit_target(struct plan *p, uint32_t lbs)
{
	unsigned dropped = 0;

	for (unsigned i = 0; i < p->nphases; i++) {
		struct plan_phase *ph = &p->phases[i];
		unsigned kept = 0, n = 0, track = 0;
		uint32_t first_bs = 0;
		char labels[192] = "";
		size_t used = 0;

		if (!phase_can_drop(ph, lbs))
			continue;
		for (unsigned s = 0; s < ph->nsteps; s++) {
			struct plan_step *st = &ph->steps[s];
			uint32_t bs = step_misfit(st, lbs);
			if (!bs) {
				if ((int)s == ph->track_step)
					track = kept;
				ph->steps[kept++] = *st;
				continue;
			}
			if (!first_bs)
				first_bs = bs;
			/* the labels while they fit, then an ellipsis */
			if (used < sizeof(labels) - 1)
				used += (size_t)snprintf(labels + used, sizeof(labels) - used, "%s%s",
							 n ? ", " : "", st->label);
			if (used >= sizeof(labels) - 1)
				strcpy(labels + sizeof(labels) - 4, "...");
			free(st->streams);
			n++;
		}
		if (ph->track_step >= 0)
			ph->track_step = (int)track;
		ph->nsteps = kept;
		note_dropped(ph, labels, n, first_bs, lbs);
		dropped += n;
	}
	return dropped;
}
