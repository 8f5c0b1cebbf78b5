// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the theme parser, on arbitrary text. */
// fuzz-seeds: themes
// fuzz-extra: ui/theme.c
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *arg, const char *msg)
{
	(void)arg, (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme t;
	char err[512];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	theme_builtin(&t);
	theme_parse(&t, text, "fuzz.theme", ignore, NULL, err, sizeof(err));
	free(text);
	return 0;
}
