// SPDX-License-Identifier: GPL-2.0-or-later
/* What the headless commands share: --out, --busy-poll, the drives named (cli.h). */
#include "cli.h"
#include "drive.h"
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errbuf.h"
#include "safety.h"
#include "settings.h"

/* The --out of a command that prints: its temporary file, until main() says how it ended. */
static struct safety_output out_file = {.dirfd = -1};

int cli_out_stdout(const struct opt_parser *p, const char *path)
{
	char err[DB_ERR_LEN];

	if (safety_output_open(&out_file, path, NULL, err, sizeof(err))) {
		fprintf(stderr, "drivebench %s: %s\n", p->cmd, err);
		return EXIT_USAGE;
	}
	if (fflush(stdout) || dup2(fileno(out_file.f), STDOUT_FILENO) < 0) {
		fprintf(stderr, "drivebench %s: %s: %s\n", p->cmd, path, strerror(errno));
		safety_output_abort(&out_file);
		return EXIT_OUTPUT;
	}
	exit_status_stdout_name(path);
	return 0;
}

int cli_out_finish(const char *cmd, int status)
{
	char err[DB_ERR_LEN];
	int ret;

	struct stat st;

	if (!out_file.f)
		return status;
	/* a run that failed part-way keeps what it printed (health of the drives it could
	   read); bad input, a refusal or nothing printed leave the file as it was */
	if (status != EXIT_OK &&
	    !(status == EXIT_RUN_FAILED && fstat(fileno(out_file.f), &st) == 0 && st.st_size > 0)) {
		safety_output_abort(&out_file);
		return status;
	}
	if ((ret = safety_output_commit(&out_file, err, sizeof(err)))) {
		fprintf(stderr, "drivebench %s: %s\n", cmd, err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_OUTPUT;
	}
	return status;
}

/*
 * What main() read from the environment, once, with the site's defaults under it
 * (main.c): every command hands it down to the core, which reads no environment itself
 * (settings.h).
 */
static const struct settings *settings;

void cli_use_settings(const struct settings *s)
{
	settings = s;
}

const struct settings *cli_settings(void)
{
	return settings;
}

int cli_busy_poll(const struct opt_parser *p, struct engine_opts *o)
{
	if (engine_poll_parse(p->arg, &o->poll))
		return opt_usage_error(p, "--busy-poll: '%s' is not auto, yes or no", p->arg);
	return 0;
}

int cli_drives(const struct opt_parser *p, const struct drive_scan_opts *o,
	       struct drive_list *list)
{
	char err[DB_ERR_LEN] = "";
	int status = EXIT_OK;

	memset(list, 0, sizeof(*list));
	if (p->npos == 0) {
		if (drive_scan(list, o, err, sizeof(err))) {
			fprintf(stderr, "drivebench %s: %s\n", p->cmd, err);
			return EXIT_RUN_FAILED;
		}
		return EXIT_OK;
	}
	list->drives = calloc((size_t)p->npos, sizeof(*list->drives));
	if (!list->drives) {
		fprintf(stderr, "drivebench %s: out of memory\n", p->cmd);
		return EXIT_RUN_FAILED;
	}
	for (int i = 0; i < p->npos; i++) {
		if (drive_probe_path_opts(p->pos[i], o, &list->drives[list->count], err,
					  sizeof(err))) {
			fprintf(stderr, "drivebench %s: %s\n", p->cmd, err);
			status = EXIT_USAGE;
			continue;
		}
		list->count++;
	}
	return status;
}

