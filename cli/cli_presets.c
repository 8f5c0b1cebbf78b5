// SPDX-License-Identifier: GPL-2.0-or-later
/* drivebench presets: the preset library, as text or JSON; --keys: the preset format's keys. */
#include "cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json_write.h"
#include "preset.h"
#include "strbuf.h"
#include "text.h"
#include "units.h"

enum { O_JSON = 256, O_KEYS, O_OUT };

static const struct opt presets_opts[] = {
	{"json", O_JSON, NULL, "print the library as JSON (format drivebench-presets)"},
	{"keys", O_KEYS, NULL, "list the keys a preset may use (drivebench-preset(5))"},
	CLI_OPT_OUT(O_OUT),
	{NULL, 0, NULL, NULL},
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.preset file names of dir, sorted; malloc'd. */
static unsigned list_dir(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	unsigned n = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l <= 7 || strcmp(e->d_name + l - 7, ".preset") || e->d_name[0] == '.')
			continue;
		char **grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown)
			break;
		names = grown;
		names[n] = strndup(e->d_name, l - 7);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	return n;
}

/* Wrap text at width columns, each line indented; the text shown in its visible form. */
static void print_wrapped(const char *raw, int indent, int width)
{
	char *vis = text_visible_dup(raw);
	const char *text = vis ? vis : "";
	int col = 0;

	while (*text) {
		const char *sp = strchr(text, ' ');
		int wl = sp ? (int)(sp - text) : (int)strlen(text);
		if (col == 0) {
			printf("%*s", indent, "");
			col = indent;
		} else if (col + 1 + wl > width) {
			printf("\n%*s", indent, "");
			col = indent;
		} else {
			putchar(' ');
			col++;
		}
		printf("%.*s", wl, text);
		col += wl;
		text += wl;
		while (*text == ' ')
			text++;
	}
	if (col)
		putchar('\n');
	free(vis);
}

/* s in its visible form, padded with blanks to width characters. */
static void cell(const char *s, int width)
{
	char vis[512];
	int n = (int)text_visible(vis, sizeof(vis), s);

	n = width - (int)text_width(vis);
	printf("%s%*s", vis, n > 0 ? n : 0, "");
}

static void print_keys(void)
{
	for (unsigned i = 0; i < preset_nkeys; i++) {
		const struct preset_key *k = &preset_keys[i];
		struct strbuf where = {0};
		char *in;

		for (int s = 0; s < PRESET_NSECTIONS; s++)
			if (k->sections & (1u << s))
				strbuf_add(&where, "%s%s", where.len ? "," : "",
					   preset_section_name[s]);
		in = strbuf_take(&where);
		printf("%-12s %-22s %s%s%s%s\n", k->name, k->value, k->help,
		       k->list ? "; a list" : "", k->def ? "; default " : "", k->def ? k->def : "");
		printf("%-12s %-22s in [%s]\n", "", "", in ? in : "?");
		free(in);
	}
}

/* A preset of the list as JSON: its facts, or the error that kept it from parsing. */
static struct json_object *preset_json(const char *id, const char *path, bool builtin,
				       const struct plan *pl, const char *err)
{
	struct json_object *o = json_object_new_object();
	struct plan_eta e;

	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "builtin", json_object_new_boolean(builtin));
	if (!pl) {
		json_object_object_add(o, "error", json_object_new_string(err));
		return o;
	}
	json_object_object_add(o, "name", json_object_new_string(pl->name));
	json_object_object_add(o, "description", json_object_new_string(pl->description));
	json_object_object_add(o, "source", json_object_new_string(pl->source));
	json_object_object_add(o, "phases", json_object_new_int((int)pl->nphases));
	json_object_object_add(o, "steps", json_object_new_int((int)plan_steps(pl)));
	plan_estimate(pl, 0, 0, &e);
	/* unsigned: past 2^63 ns they printed negative; 2^64-1 is a saturated total */
	json_object_object_add(o, "duration_ns", json_object_new_uint64(e.max_ns));
	json_object_object_add(o, "expected_ns", json_object_new_uint64(e.expected_ns));
	json_object_object_add(o, "fill_x", json_object_new_double(e.fill_x));
	json_object_object_add(o, "writes", json_object_new_boolean(plan_writes(pl)));
	return o;
}

/* A preset of the list as text: id, name, steps, duration, description (or "broken"). */
static void print_preset(const char *id, const struct plan *pl)
{
	char dur[96];
	struct plan_eta e;

	fputs("  ", stdout);
	cell(id, 16);
	if (!pl) {
		printf(" (broken: see the message above)\n");
		return;
	}
	fputs(" ", stdout);
	cell(pl->name, 24);
	plan_estimate(pl, 0, 0, &e);
	printf(" %5u steps  %-9s  %s\n", plan_steps(pl), plan_writes(pl) ? "writes" : "read-only",
	       plan_eta_words(dur, sizeof(dur), &e));
	print_wrapped(pl->description, 4, 92);
}

int cli_presets(int argc, char **argv)
{
	struct opt_parser parser, *p = &parser;
	char dirs[2][4096], err[1024];
	bool json = false, broken = false, keys = false;
	const char *out = NULL;
	struct json_object *arr = NULL;
	int key;
	unsigned nd;

	opt_parser_init(p, "presets", "[--json] [--keys]", presets_opts, argc, argv);
	while ((key = opt_next(p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case O_JSON:
			json = true;
			break;
		case O_KEYS:
			keys = true;
			break;
		case O_OUT:
			out = p->arg;
			break;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (out && (key = cli_out_stdout(p, out)))
		return key;
	if (keys) {
		print_keys();
		return EXIT_OK;
	}
	if (p->npos)
		return opt_usage_error(p, "unexpected argument '%s'", p->pos[0]);
	if (json)
		arr = json_object_new_array();
	nd = preset_dirs(cli_settings(), dirs, 2);
	for (unsigned d = 0; d < nd; d++) {
		char **names;
		unsigned n = list_dir(dirs[d], &names);

		if (!json && n) {
			printf("%s%s presets (", d ? "\n" : "",
			       preset_dir_is_builtin(d) ? "built-in" : "your");
			text_fput_visible(stdout, dirs[d]);
			printf(")\n");
		}
		for (unsigned i = 0; i < n; i++) {
			char path[4096 + 256 + 8];
			struct plan *pl;

			snprintf(path, sizeof(path), "%.4095s/%.255s.preset", dirs[d], names[i]);
			pl = preset_parse_file(path, 1.0, err, sizeof(err));
			if (!pl) {
				fprintf(stderr, "drivebench presets: %s\n", err);
				broken = true;
			}
			if (json)
				json_object_array_add(arr, preset_json(names[i], path,
								       preset_dir_is_builtin(d), pl,
								       err));
			else
				print_preset(names[i], pl);
			plan_free(pl);
			free(names[i]);
		}
		free(names);
	}
	if (json) {
		struct json_object *root = json_object_new_object();
		json_object_object_add(root, "format",
				       json_object_new_string("drivebench-presets"));
		json_object_object_add(root, "version", json_object_new_int(1));
		json_object_object_add(root, "presets", arr);
		struct jwrite w;
		jwrite_init(&w, stdout, "  ");
		jwrite_json(&w, root);
		json_object_put(root);
		if (jwrite_finish(&w))
			return EXIT_OUTPUT; /* main() says why */
	}
	return broken ? EXIT_USAGE : EXIT_OK;
}
