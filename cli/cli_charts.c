// SPDX-License-Identifier: GPL-2.0-or-later
/* compare --charts DIR: each chart of the report as SVG and PNG files (cli_charts.h). */
#include "cli_charts.h"

#include <cairo.h>
#include <errno.h>
#include <librsvg/rsvg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fileio.h"
#include "safety.h"

#define PNG_SCALE 2.0 /* PNG pixels per SVG pixel */

#define PNG_MAX_PX 32000 /* cairo's image surfaces end at 32767 pixels a side */

static cairo_status_t png_out(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
						     : CAIRO_STATUS_WRITE_ERROR;
}

/* The PNG's pixels per SVG pixel: PNG_SCALE, less for a chart too tall for cairo (the
   runs of a compare of hundreds), which is drawn smaller rather than refused. */
static double png_scale(double w, double h)
{
	double side = w > h ? w : h;

	return side * PNG_SCALE <= PNG_MAX_PX ? PNG_SCALE : PNG_MAX_PX / side;
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

/*
 * The SVG rendered by librsvg onto a cairo surface, as PNG into *png (malloc'd, *pnglen
 * bytes): drawn before either file is written, so a chart librsvg cannot draw replaces
 * neither.
 */
static int render_png(struct cli_charts *c, const char *stem, const char *svg, size_t len,
		      char **png, size_t *pnglen)
{
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
	double k = png_scale(w, ht);
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w * k + 0.5),
							(int)(ht * k + 0.5));
	cairo_t *cr = cairo_create(s);
	RsvgRectangle vp = {0, 0, w, ht};
	cairo_scale(cr, k, k);
	if (!rsvg_handle_render_document(h, cr, &vp, &gerr)) {
		snprintf(c->err, sizeof(c->err), "%s.png: librsvg cannot draw it: %s", stem,
			 gerr ? gerr->message : "unknown error");
		ret = -EINVAL;
	}
	cairo_destroy(cr);
	FILE *mem = ret ? NULL : open_memstream(png, pnglen);
	if (!ret && !mem)
		ret = -ENOMEM;
	if (mem) {
		if (cairo_surface_write_to_png_stream(s, png_out, mem) != CAIRO_STATUS_SUCCESS)
			ret = -ENOMEM;
		if (fclose(mem) && !ret)
			ret = -ENOMEM;
	}
	cairo_surface_destroy(s);
out:
	if (gerr)
		g_error_free(gerr);
	if (h)
		g_object_unref(h);
	return ret;
}

/* DIR/stem.ext holding data (len bytes), whole or not at all. */
static int write_file(struct cli_charts *c, const char *stem, const char *ext, const char *data,
		      size_t len)
{
	struct safety_output o;
	int ret = open_file(c, stem, ext, &o);

	if (ret)
		return ret;
	errno = 0;
	if (fwrite(data, 1, len, o.f) != len)
		ret = errno ? -errno : -EIO;
	return close_file(c, &o, ret);
}

static int write_chart(void *ctx, const char *stem, const char *svg, size_t len)
{
	struct cli_charts *c = ctx;
	char *png = NULL;
	size_t pnglen = 0;
	int ret = render_png(c, stem, svg, len, &png, &pnglen);

	if (!ret)
		ret = write_file(c, stem, "svg", svg, len);
	if (!ret)
		ret = write_file(c, stem, "png", png, pnglen);
	free(png);
	return ret;
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
