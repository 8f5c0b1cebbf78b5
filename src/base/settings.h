/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_SETTINGS_H
#define DB_SETTINGS_H
/*
 * What drivebench takes from its environment, read once: main() calls settings_from_env()
 * at its start and hands the struct down (the results, preset, spec and app directories;
 * the engine's options, engine_opts_from_settings()). The core reads no environment
 * variable itself, but for the data directory (datadir.h), PATH and
 * DRIVEBENCH_TOOL_PATH (tool.h) and TMPDIR (guest.h), which are the program's own
 * surroundings rather than settings. A test that calls the core gives the settings it
 * means, or reads them from the environment it set up.
 *
 * Each field is the variable's value as the environment holds it, NULL when it is unset;
 * an empty one is kept, as each reader decides what empty means (drivebench(1),
 * ENVIRONMENT, says what each does). The strings are the environment's own: nothing
 * changes these variables once main() has read them.
 */
struct settings {
	const char *results;     /* DRIVEBENCH_RESULTS: the results directory (result.h); main()
				    sets the variable to the site's results when it is unset */
	const char *preset_dir;  /* DRIVEBENCH_PRESET_DIR: the built-in presets (preset.h) */
	const char *app_dir;     /* DRIVEBENCH_APP_DIR: [app] phases' run directories (app.h) */
	const char *config_home; /* XDG_CONFIG_HOME: user presets, the results library */
	const char *config_dirs; /* XDG_CONFIG_DIRS: the site's drivebench.conf (siteconf.h) */
	const char *cache_home;  /* XDG_CACHE_HOME: the scratch file (scratch.h) */
	const char *scratch_size; /* DRIVEBENCH_SCRATCH_SIZE: the scratch file's size */
	const char *data_home;   /* XDG_DATA_HOME: results, user specs */
	const char *home;        /* HOME: the base of the two above */
	const char *busy_poll;   /* DRIVEBENCH_BUSY_POLL: auto, yes or no (engine.h); main()
				    puts the site's busy-poll here when it is unset */
	const char *uring_setup; /* DRIVEBENCH_URING_SETUP: the first ring setup tried */
	const char *uring_async; /* DRIVEBENCH_URING_ASYNC: no or auto (engine.h) */
	const char *uring_gather; /* DRIVEBENCH_URING_GATHER: auto or no (engine.h) */
	const char *no_progress;  /* DRIVEBENCH_NO_PROGRESS: the no-progress limit (engine.h) */
};

/* Fill s from the environment. */
void settings_from_env(struct settings *s);

#endif
