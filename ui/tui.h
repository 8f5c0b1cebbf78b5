/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_TUI_H
#define DB_UI_TUI_H
/* The TUI's entry point, for main(): what the rest of ui/ is behind. */
struct settings;
struct siteconf;

/*
 * The TUI, with the site's defaults (siteconf.h) and what main() read from the
 * environment (settings.h); argv as main() has it. An exit status.
 */
int ui_main(int argc, char **argv, const struct siteconf *site, const struct settings *settings);

#endif
