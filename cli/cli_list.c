// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `drivebench list`: one line per drive, with the two things a reviewer must not miss
 * marked where the eye lands: a drive in use, and a PCIe link that trained below what the
 * drive can do. The reasons follow the table in words. --json prints every field.
 */
#include "cli.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drive.h"
#include "json_write.h"
#include "text.h"
#include "units.h"

enum {
	OPT_JSON = 'j',
	OPT_ALL = 'a',
	OPT_SYSFS_ROOT = 256,
	OPT_PROC_ROOT,
	OPT_DEV_ROOT,
	OPT_PCI_DUMP,
	O_OUT,
};

static const struct opt list_opts[] = {
	{"json", OPT_JSON, NULL, "every field, as a versioned JSON document"},
	{"all", OPT_ALL, NULL, "also list empty disks (unattached loop, unsized zram)"},
	{"sysfs-root", OPT_SYSFS_ROOT, "DIR", "read sysfs from DIR instead of /sys (fixtures)"},
	{"proc-root", OPT_PROC_ROOT, "DIR", "read mounts, swaps and open files from DIR, not /proc"},
	{"dev-root", OPT_DEV_ROOT, "DIR", "look for disk/by-id links in DIR instead of /dev"},
	{"pci-dump", OPT_PCI_DUMP, "FILE", "read PCI config space from an `lspci -xxx` dump"},
	CLI_OPT_OUT(O_OUT),
	{NULL, 0, NULL, NULL},
};

/*
 * The table's columns, declared once: heading, the widest a cell may be (longer cells
 * are cut with "~"), and how a drive fills it.
 */
typedef void (*cell_fn)(const struct drive *d, char *buf, size_t len);

static void cell_device(const struct drive *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s", d->name);
}

static void cell_model(const struct drive *d, char *buf, size_t len)
{
	const char *m = d->model[0] ? d->model : d->pci.device[0] ? d->pci.device : "-";
	snprintf(buf, len, "%s", m);
}

static void cell_capacity(const struct drive *d, char *buf, size_t len)
{
	units_fmt_capacity(buf, len, d->capacity_bytes);
}

static void cell_bus(const struct drive *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s", drive_transport_name(d->transport));
}

static void cell_link(const struct drive *d, char *buf, size_t len)
{
	char cur[32], max[32];

	if (!d->pci.link_known) {
		snprintf(buf, len, "-");
		return;
	}
	drive_link_fmt(cur, sizeof(cur), &d->pci.link_cur);
	if (d->pci.link_degraded)
		snprintf(buf, len, "%s ! of %s", cur, drive_link_fmt(max, sizeof(max),
								  &d->pci.link_max));
	else
		snprintf(buf, len, "%s", cur);
}

static void cell_firmware(const struct drive *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s", d->firmware[0] ? d->firmware : "-");
}

static void cell_state(const struct drive *d, char *buf, size_t len)
{
	size_t o;

	if (!d->inuse_known) {
		snprintf(buf, len, "?");
		return;
	}
	if (!inuse_busy(&d->inuse)) {
		snprintf(buf, len, "free");
		return;
	}
	o = (size_t)snprintf(buf, len, "IN USE:");
	for (unsigned k = 0; k < INUSE_NKINDS && o < len; k++)
		if (d->inuse.flags & INUSE_BIT(k))
			o += (size_t)snprintf(buf + o, len - o, " %s", inuse_kind_name[k]);
}

static const struct column {
	const char *heading;
	int max_width;
	bool right; /* numbers align right */
	cell_fn fill;
} columns[] = {
	{"DEVICE", 16, false, cell_device},
	{"MODEL", 32, false, cell_model},
	{"CAPACITY", 10, true, cell_capacity},
	{"BUS", 6, false, cell_bus},
	{"LINK", 22, false, cell_link},
	{"FIRMWARE", 12, false, cell_firmware},
	{"STATE", 40, false, cell_state},
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/*
 * A cell as printed: the visible form of what the drive reports (firmware strings can
 * hold control characters), cut to max_width characters with "~", never inside one.
 */
static void fit(char *cell, size_t len, int max_width)
{
	char vis[512];
	size_t chars = 0, i;

	text_visible(vis, sizeof(vis), cell);
	for (i = 0; vis[i]; i++) {
		if (((unsigned char)vis[i] & 0xc0) == 0x80)
			continue;
		if ((int)chars == max_width - 1 && (int)text_width(vis + i) > 1) {
			vis[i] = '\0';
			text_fmt(cell, len, "%s~", vis);
			return;
		}
		chars++;
	}
	text_copy(cell, len, vis);
}

/* s padded with blanks to width characters (printf pads bytes). */
static void pad(const char *s, int width, bool right)
{
	int n = width - (int)text_width(s);

	if (right)
		printf("%*s%s", n > 0 ? n : 0, "", s);
	else
		printf("%s%*s", s, n > 0 ? n : 0, "");
}

static void print_table(const struct drive_list *l)
{
	int width[NCOLUMNS];
	char cell[512];

	for (size_t c = 0; c < NCOLUMNS; c++)
		width[c] = (int)strlen(columns[c].heading);
	for (size_t i = 0; i < l->count; i++)
		for (size_t c = 0; c < NCOLUMNS; c++) {
			columns[c].fill(&l->drives[i], cell, sizeof(cell));
			fit(cell, sizeof(cell), columns[c].max_width);
			if ((int)text_width(cell) > width[c])
				width[c] = (int)text_width(cell);
		}
	for (size_t c = 0; c < NCOLUMNS; c++)
		if (c + 1 < NCOLUMNS)
			printf("%-*s  ", width[c], columns[c].heading);
		else
			printf("%s\n", columns[c].heading);
	for (size_t i = 0; i < l->count; i++)
		for (size_t c = 0; c < NCOLUMNS; c++) {
			columns[c].fill(&l->drives[i], cell, sizeof(cell));
			fit(cell, sizeof(cell), columns[c].max_width);
			if (c + 1 == NCOLUMNS) {
				printf("%s\n", cell);
			} else {
				pad(cell, width[c], columns[c].right);
				fputs("  ", stdout);
			}
		}
}

/* A string from the drive or the system, with its control characters made visible. */
static void V(const char *s)
{
	text_fput_visible(stdout, s);
}

static void print_notes(const struct drive_list *l)
{
	bool first = true;

	for (size_t i = 0; i < l->count; i++) {
		const struct drive *d = &l->drives[i];
		char cur[32], max[32];

		if (d->partition[0]) {
			fputs(first ? "\n" : "", stdout);
			V(d->name);
			fputs(": ", stdout);
			V(d->partition);
			fputs(" is a partition of this disk\n", stdout);
			first = false;
		}
		if (d->pci.link_degraded) {
			fputs(first ? "\n" : "", stdout);
			V(d->name);
			printf(": PCIe link degraded: trained at %s, capable of %s (",
			       drive_link_fmt(cur, sizeof(cur), &d->pci.link_cur),
			       drive_link_fmt(max, sizeof(max), &d->pci.link_max));
			V(d->pci.address);
			fputs(")\n", stdout);
			first = false;
		}
		for (unsigned r = 0; r < d->inuse.nreasons; r++) {
			fputs(first ? "\n" : "", stdout);
			V(d->name);
			fputs(": ", stdout);
			V(d->inuse.reason[r].text);
			fputs("\n", stdout);
			first = false;
		}
		if (d->inuse.dropped) {
			V(d->name);
			printf(": and %u more\n", d->inuse.dropped);
		}
	}
}

static int print_json(const struct drive_list *l)
{
	struct json_object *doc = drive_list_to_json(l, DB_VERSION);

	if (!doc) {
		fprintf(stderr, "drivebench list: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	struct jwrite w;
	jwrite_init(&w, stdout, "  ");
	jwrite_json(&w, doc);
	json_object_put(doc);
	return jwrite_finish(&w) ? EXIT_OUTPUT : EXIT_OK; /* main() says why */
}

int cli_list(int argc, char **argv)
{
	struct opt_parser p;
	struct drive_scan_opts opts = {0};
	struct drive_list list = {0};
	bool json = false;
	const char *out = NULL;
	int key, ret, status = EXIT_OK;

	opt_parser_init(&p, "list", "[--json] [--all] [PATH...]", list_opts, argc, argv);
	while ((key = opt_next(&p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case OPT_JSON:
			json = true;
			break;
		case OPT_ALL:
			opts.include_empty = true;
			break;
		case OPT_SYSFS_ROOT:
			opts.sys_root = p.arg;
			break;
		case OPT_PROC_ROOT:
			opts.proc_root = p.arg;
			break;
		case OPT_DEV_ROOT:
			opts.dev_root = p.arg;
			break;
		case OPT_PCI_DUMP:
			opts.pci_dump = p.arg;
			break;
		case O_OUT:
			out = p.arg;
			break;
		}
	}
	if (key < 0) {
		return EXIT_USAGE;
	}
	if (out && (status = cli_out_stdout(&p, out)))
		return status;

	if (opts.pci_dump && access(opts.pci_dump, R_OK)) {
		ret = opt_usage_error(&p, "--pci-dump: %s: %s", opts.pci_dump, strerror(errno));
		return ret;
	}
	/* libpci reads the dump itself, and would wait forever on a FIFO */
	struct stat st;
	if (opts.pci_dump && (stat(opts.pci_dump, &st) || !S_ISREG(st.st_mode)))
		return opt_usage_error(&p, "--pci-dump: %s: not a regular file", opts.pci_dump);
	status = cli_drives(&p, &opts, &list);
	if (status == EXIT_RUN_FAILED)
		return status;

	if (json) {
		ret = print_json(&list);
		if (ret)
			status = ret;
	} else if (list.count == 0 && status == EXIT_OK) {
		printf("no drives found%s\n", opts.include_empty ? "" : " (--all lists empty ones)");
	} else if (list.count) {
		print_table(&list);
		print_notes(&list);
	}
	drive_list_free(&list);
	return status;
}
