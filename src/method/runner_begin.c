// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Before a run: the result a plan starts (or carries on), and whether a target can take
 * the plan at all.
 */
#include "runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset.h"
#include "units.h"

int runner_begin_result(const struct plan *plan, struct result *res)
{
	if (!res->preset_text || strcmp(res->preset_text, plan->text)) {
		free(res->preset_text);
		res->preset_text = strdup(plan->text);
	}
	snprintf(res->preset_name, sizeof(res->preset_name), "%s", plan->name);
	snprintf(res->preset_source, sizeof(res->preset_source), "%s", plan->file);
	res->scale = plan->scale;
	if (!res->host)
		res->host = result_host_json();
	if (!res->started[0])
		units_fmt_utc(res->started, sizeof(res->started), -1);
	res->ended[0] = '\0';
	res->status = RS_INCOMPLETE;
	return res->preset_text && res->host && !result_summarize(res) ? 0 : -ENOMEM;
}

int runner_check(const struct plan *plan, const struct target *t, char *err, size_t errlen)
{
	if (plan_writes(plan) && !t->writable) {
		snprintf(err, errlen, "%s: %s writes, and the target is open read-only", plan->file,
			 plan->name);
		return -EBADF;
	}
	return plan_check_target(plan, t->lbs, t->size, err, errlen);
}
