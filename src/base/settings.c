// SPDX-License-Identifier: GPL-2.0-or-later
#include "settings.h"

#include <stdlib.h>

void settings_from_env(struct settings *s)
{
	*s = (struct settings){
		.results = getenv("DRIVEBENCH_RESULTS"),
		.preset_dir = getenv("DRIVEBENCH_PRESET_DIR"),
		.app_dir = getenv("DRIVEBENCH_APP_DIR"),
		.config_home = getenv("XDG_CONFIG_HOME"),
		.config_dirs = getenv("XDG_CONFIG_DIRS"),
		.cache_home = getenv("XDG_CACHE_HOME"),
		.scratch_size = getenv("DRIVEBENCH_SCRATCH_SIZE"),
		.data_home = getenv("XDG_DATA_HOME"),
		.home = getenv("HOME"),
		.busy_poll = getenv("DRIVEBENCH_BUSY_POLL"),
		.uring_setup = getenv("DRIVEBENCH_URING_SETUP"),
		.uring_async = getenv("DRIVEBENCH_URING_ASYNC"),
		.uring_gather = getenv("DRIVEBENCH_URING_GATHER"),
		.no_progress = getenv("DRIVEBENCH_NO_PROGRESS"),
	};
}
