// SPDX-License-Identifier: GPL-2.0-or-later
/* compare --charts DIR: each chart of the report as SVG and PNG files (cli_charts.h). */
#include "cli_charts.h"

#include <cairo.h>
#include <errno.h>
#include <librsvg/rsvg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fileio.h"
#include "safety.h"

#define PNG_SCALE 2.0 /* PNG pixels per SVG pixel */

static cairo_status_t png_out(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
						     : CAIRO_STATUS_WRITE_ERROR;
}

/* Open DIR/stem.ext through the output guard into o: 0, or -EINVAL with the reason in c->err. */
static int open_file(struct cli_charts *c, const char *stem, const char *ext,
		     struct safety_output *o)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s.%s", c->dir, stem, ext);
	return safety_output_open(o, path, NULL, c->err, sizeof(c->err)) ? -EINVAL : 0;
}

/* The file whole in place when ret (how its writing went) is 0, else left as it was. */
static int close_file(struct cli_charts *c, struct safety_output *o, int ret)
{
	char err[sizeof(c->err)];

	if (ret) {
		if (!c->err[0])
			snprintf(c->err, sizeof(c->err), "%s: %s", o->path, strerror(-ret));
		safety_output_abort(o);
		return ret;
	}
	if ((ret = safety_output_commit(o, err, sizeof(err))) && !c->err[0])
		snprintf(c->err, sizeof(c->err), "%s", err);
	c->nfiles += !ret;
	return ret;
}

/* The SVG rendered by librsvg onto a cairo surface, written as PNG to path. */
static int write_png(struct cli_charts *c, const char *stem, const char *svg, size_t len)
{
	struct safety_output o;
	GError *gerr = NULL;
	RsvgHandle *h = rsvg_handle_new_from_data((const guint8 *)svg, len, &gerr);
	double w = 0, ht = 0;
	int ret = 0;

	if (!h || !rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &ht) || w < 1 || ht < 1) {
		snprintf(c->err, sizeof(c->err), "%s.svg: librsvg cannot read it: %s", stem,
			 gerr ? gerr->message : "no size");
		ret = -EINVAL;
		goto out;
	}
	cairo_surface_t *s = cairo_image_surface_create(
		CAIRO_FORMAT_ARGB32, (int)(w * PNG_SCALE + 0.5), (int)(ht * PNG_SCALE + 0.5));
	cairo_t *cr = cairo_create(s);
	RsvgRectangle vp = {0, 0, w, ht};
	cairo_scale(cr, PNG_SCALE, PNG_SCALE);
	if (!rsvg_handle_render_document(h, cr, &vp, &gerr)) {
		snprintf(c->err, sizeof(c->err), "%s.png: librsvg cannot draw it: %s", stem,
			 gerr ? gerr->message : "unknown error");
		ret = -EINVAL;
	}
	cairo_destroy(cr);
	if (!ret && !(ret = open_file(c, stem, "png", &o))) {
		if (cairo_surface_write_to_png_stream(s, png_out, o.f) != CAIRO_STATUS_SUCCESS)
			ret = -EIO;
		ret = close_file(c, &o, ret);
	}
	cairo_surface_destroy(s);
out:
	if (gerr)
		g_error_free(gerr);
	if (h)
		g_object_unref(h);
	return ret;
}

static int write_chart(void *ctx, const char *stem, const char *svg, size_t len)
{
	struct cli_charts *c = ctx;
	struct safety_output o;
	int ret = open_file(c, stem, "svg", &o);

	if (ret)
		return ret;
	if (fwrite(svg, 1, len, o.f) != len)
		ret = -EIO;
	if ((ret = close_file(c, &o, ret)))
		return ret;
	return write_png(c, stem, svg, len);
}

/* DIR as the page at `page` links it: relative when it lies under the page's folder. */
static void link_dir(struct cli_charts *c, const char *dir, const char *page)
{
	char real[PATH_MAX], pdir[PATH_MAX], preal[PATH_MAX];

	snprintf(c->href, sizeof(c->href), "%s", dir);
	if (!page || !realpath(dir, real))
		return;
	snprintf(pdir, sizeof(pdir), "%s", page);
	char *slash = strrchr(pdir, '/');
	if (!slash)
		snprintf(pdir, sizeof(pdir), ".");
	else
		slash[slash == pdir] = '\0';
	if (!realpath(pdir, preal)) {
		snprintf(c->href, sizeof(c->href), "%s", real);
		return;
	}
	size_t n = strlen(preal);
	if (!strcmp(real, preal))
		snprintf(c->href, sizeof(c->href), ".");
	else if (!strncmp(real, preal, n) && (real[n] == '/' || n == 1))
		snprintf(c->href, sizeof(c->href), "%s", real + n + (n > 1));
	else
		snprintf(c->href, sizeof(c->href), "%s", real);
}

int cli_charts_open(struct cli_charts *c, const char *dir, const char *page)
{
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (!dir[0]) {
		fprintf(stderr, "drivebench compare: --charts: an empty folder name\n");
		return EXIT_USAGE;
	}
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "drivebench compare: --charts: %s: %s\n", dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"drivebench compare: --charts: %s: refusing to write charts there: it is "
			"%s\n",
			dir, stat(dir, &st) < 0 ? strerror(errno) : fileio_kind(st.st_mode));
		return EXIT_USAGE;
	}
	link_dir(c, dir, page);
	c->rc = (struct report_charts){.write = write_chart, .ctx = c, .href = c->href};
	return EXIT_OK;
}

void cli_charts_close(struct cli_charts *c)
{
	report_charts_free(&c->rc);
}
