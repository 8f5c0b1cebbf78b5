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

__attribute__((weak)) int cli_list(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("list");
}
__attribute__((weak)) int cli_presets(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("presets");
}
__attribute__((weak)) int cli_replay(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("replay");
}
__attribute__((weak)) int cli_show(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("show");
}
__attribute__((weak)) int cli_compare(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("compare");
}
__attribute__((weak)) int cli_export_fio(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("export-fio");
}
__attribute__((weak)) int ui_main(int argc, char **argv)
{
	(void)argc, (void)argv;
	return pending("the TUI");
}
