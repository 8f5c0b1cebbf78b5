// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the preset parser and plan expansion, on arbitrary text. */
// fuzz-seeds: presets tests/fixtures/presets
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "preset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct plan *p = preset_parse(text, "fuzz.preset", 0.001, err, sizeof(err));
	if (p)
		plan_free(p);
	free(text);
	return 0;
}
