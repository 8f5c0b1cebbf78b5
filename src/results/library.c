// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results library beyond the results directory: result files and directories of
 * them that the Results screen lists too (results saved elsewhere with --out), kept in
 * $XDG_CONFIG_HOME/drivebench/library, one absolute path a line ('#' starts a comment).
 * Written the way results are: a temporary file, then a rename.
 */
#include "library.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "settings.h"

int library_path(const struct settings *s, char *buf, size_t len)
{
	const char *xdg = s->config_home, *home = s->home;

	if (xdg && *xdg)
		snprintf(buf, len, "%s/drivebench/library", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.config/drivebench/library", home);
	else
		return -ENOENT;
	return 0;
}

int library_read(const struct settings *s, char (*paths)[4096], unsigned max, unsigned *n,
		 char *err, size_t errlen)
{
	char file[4096], *text = NULL, *save = NULL;
	size_t len = 0;
	unsigned line = 0;
	int ret;

	*n = 0;
	if (library_path(s, file, sizeof(file)) < 0)
		return 0;
	ret = fileio_read(file, "the library list", LIBRARY_MAX_BYTES, &text, &len, err, errlen);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		line++;
		while (*l == ' ' || *l == '\t')
			l++;
		size_t ll = strlen(l);
		while (ll && (l[ll - 1] == ' ' || l[ll - 1] == '\t' || l[ll - 1] == '\r'))
			l[--ll] = '\0';
		if (!ll || *l == '#')
			continue;
		if (*n == max || ll >= sizeof(paths[0]) || *l != '/') {
			snprintf(err, errlen, "%s:%u: %s", file, line,
				 *l != '/' ? "not an absolute path"
				 : *n == max ? "more entries than the limit"
					     : "a path too long");
			ret = -EINVAL;
			break;
		}
		memcpy(paths[(*n)++], l, ll + 1);
	}
	free(text);
	return ret;
}

int library_add(const struct settings *s, const char *path, char *err, size_t errlen)
{
	static char paths[LIBRARY_MAX][4096];
	char file[4096], tmp[4200], dir[4096];
	unsigned n;
	int ret = library_read(s, paths, LIBRARY_MAX, &n, err, errlen);

	if (ret)
		return ret;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(paths[i], path))
			return 0; /* listed already */
	if (n == LIBRARY_MAX) {
		snprintf(err, errlen, "the library lists %u places already, its limit", n);
		return -E2BIG;
	}
	if (library_path(s, file, sizeof(file)) < 0) {
		snprintf(err, errlen, "neither XDG_CONFIG_HOME nor HOME is set");
		return -ENOENT;
	}
	/* its directory, and drivebench's above it, as the first save makes them */
	snprintf(dir, sizeof(dir), "%s", file);
	*strrchr(dir, '/') = '\0';
	char *up = strrchr(dir, '/');
	if (up) {
		*up = '\0';
		mkdir(dir, 0755);
		*up = '/';
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	snprintf(tmp, sizeof(tmp), "%s/.library.tmp", dir);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(-ret));
		return ret;
	}
	fputs("# drivebench: result files and directories the Results screen lists too\n", f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s\n", paths[i]);
	fprintf(f, "%s\n", path);
	if (fflush(f) || fsync(fileno(f)) || ferror(f)) {
		ret = -errno ? -errno : -EIO;
		fclose(f);
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", tmp, strerror(-ret));
		return ret;
	}
	fclose(f);
	if (rename(tmp, file) < 0) {
		ret = -errno;
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", file, strerror(-ret));
		return ret;
	}
	return 0;
}
