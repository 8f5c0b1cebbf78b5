// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Weak fallbacks for commands whose module is not linked in; a module's own definition
 * replaces each one.
 */
#include "cli.h"

static int pending(const char *what)
{
	fprintf(stderr, "drivebench: %s is not available in this build\n", what);
	return EXIT_USAGE;
}

__attribute__((weak)) int ui_main(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("the TUI");
}
