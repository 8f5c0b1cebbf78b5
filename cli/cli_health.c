// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `drivebench health [DEVICE...] [--json]`: the drive's own view of its state, from
 * libnvme (NVMe) or smartctl (SATA, SAS), for every drive or the ones named. Strings
 * from the device arrive escaped (health.h), so a hostile model name cannot move the
 * terminal's cursor or break the JSON.
 */
#include "cli.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"
#include "errbuf.h"
#include "health.h"
#include "units.h"

enum { OPT_JSON = 'j', O_OUT = 256 };

static const struct opt health_opts[] = {
	{"json", OPT_JSON, NULL, "every field, as a versioned JSON document"},
	CLI_OPT_OUT(O_OUT),
	{NULL, 0, NULL, NULL},
};

/* How a value reads, from the unit its key ends with. */
static void fmt_value(enum health_field f, int64_t v, char *buf, size_t len)
{
	const char *key = health_field_key[f];
	size_t n = strlen(key);
	char cap[32];

#define ENDS(s) (n >= sizeof(s) - 1 && !strcmp(key + n - (sizeof(s) - 1), s))
	if (ENDS("_c"))
		snprintf(buf, len, "%lld C", (long long)v);
	else if (ENDS("_min"))
		snprintf(buf, len, "%lld min", (long long)v);
	else if (ENDS("_s"))
		snprintf(buf, len, "%lld s", (long long)v);
	else if (ENDS("_pct") || f == HF_PCT_USED)
		snprintf(buf, len, "%lld %%", (long long)v);
	else if (ENDS("_bytes"))
		snprintf(buf, len, "%s (%lld bytes)", units_fmt_capacity(cap, sizeof(cap), (uint64_t)v),
			 (long long)v);
	else if (f == HF_CRITICAL_WARNING)
		snprintf(buf, len, "0x%02llx", (long long)v);
	else
		snprintf(buf, len, "%lld", (long long)v);
#undef ENDS
}

static void print_nvme(const struct health_nvme *n)
{
	printf("  erase support:      format%s%s%s; sanitize%s%s%s%s\n",
	       n->format_supported ? " (user data" : " not supported",
	       n->format_supported && n->format_crypto ? ", crypto" : "",
	       n->format_supported ? (n->format_all_ns || n->erase_all_ns ? "; all namespaces)" : ")")
				   : "",
	       n->sanitize_block ? " block" : "", n->sanitize_crypto ? " crypto" : "",
	       n->sanitize_overwrite ? " overwrite" : "",
	       n->sanitize_block || n->sanitize_crypto || n->sanitize_overwrite ? ""
										: " not supported");
	if (n->warn_temp_c || n->crit_temp_c)
		printf("  temperature limits: warning %d C, critical %d C\n", n->warn_temp_c,
		       n->crit_temp_c);
	if (n->nsid && n->flbas < n->nlbaf)
		printf("  namespace %u:        %llu blocks of %u bytes (+%u metadata), LBA format %u "
		       "of %u\n",
		       n->nsid, (unsigned long long)n->nsze, n->lbaf[n->flbas].data_bytes,
		       n->lbaf[n->flbas].metadata_bytes, n->flbas, n->nlbaf);
	if (n->sanitize_log) {
		printf("  last sanitize:      %s",
		       n->sanitize_status == 0   ? "never sanitized"
		       : n->sanitize_status == 1 ? "completed"
		       : n->sanitize_status == 2 ? "in progress"
		       : n->sanitize_status == 3 ? "FAILED"
						 : "completed without deallocation");
		if (n->sanitize_status == 2)
			printf(" (%.1f %%)", n->sprog * 100.0 / 65536);
		printf("\n");
	}
	if (n->fw_log) {
		printf("  firmware slots:     active %u", n->fw_active);
		if (n->fw_next)
			printf(", next reset %u", n->fw_next);
		for (unsigned i = 0; i < 7 && i < n->fw_slots; i++)
			printf("%s%u%s=%s", i ? " " : "; ", i + 1, i == 0 && n->fw_slot1_ro ? "(ro)" : "",
			       n->fw_slot[i][0] ? n->fw_slot[i] : "-");
		printf("\n");
	}
}

static void print_text(const struct drive *d, const struct health *h)
{
	char val[96];

	printf("%s  %s  %s  %s  (%s, %s)\n", d->name, h->model[0] ? h->model : "-",
	       h->serial[0] ? h->serial : "-", h->firmware[0] ? h->firmware : "-",
	       drive_transport_name(d->transport), h->device[0] ? h->device : "-");
	if (h->source == HEALTH_SRC_NONE || !h->known) {
		printf("  %s\n", h->note[0] ? h->note : "no health data");
		return;
	}
	if (h->smart_passed_known)
		printf("  %-32s  %s\n", "SMART overall assessment", h->smart_passed ? "passed" : "FAILED");
	if (health_has(h, HF_CRITICAL_WARNING) && h->v[HF_CRITICAL_WARNING]) {
		printf("  CRITICAL WARNING:");
#define X(bit, key)                                                                                \
	if (h->v[HF_CRITICAL_WARNING] >> (bit) & 1)                                                \
		printf(" %s", key);
		HEALTH_CRIT_BITS(X)
#undef X
		printf("\n");
	}
	for (int f = 0; f < HEALTH_NFIELDS; f++) {
		if (!health_has(h, (enum health_field)f))
			continue;
		fmt_value((enum health_field)f, h->v[f], val, sizeof(val));
		printf("  %-32s  %s\n", health_field_label[f], val);
	}
	if (h->source == HEALTH_SRC_NVME)
		print_nvme(&h->nvme);
	if (h->note[0])
		printf("  note: %s\n", h->note);
}

int cli_health(int argc, char **argv)
{
	struct opt_parser p;
	struct drive_list list = {0};
	struct drive_scan_opts scan = {.skip_inuse = true};
	struct health *hs = NULL;
	const struct health **hp = NULL;
	char err[DB_ERR_LEN] = "";
	bool json = false;
	const char *out = NULL;
	int key, ret, status = EXIT_OK;

	opt_parser_init(&p, "health", "[DEVICE...] [--json]", health_opts, argc, argv);
	while ((key = opt_next(&p)) > 0) {
		switch (key) {
		case 'h':
			return EXIT_OK;
		case OPT_JSON:
			json = true;
			break;
		case O_OUT:
			out = p.arg;
			break;
		}
	}
	if (key < 0)
		return EXIT_USAGE;
	if (out && (status = cli_out_stdout(&p, out)))
		return status;
	status = cli_drives(&p, &scan, &list);
	if (status == EXIT_RUN_FAILED)
		return status;
	hs = calloc(list.count ? list.count : 1, sizeof(*hs));
	hp = calloc(list.count ? list.count : 1, sizeof(*hp));
	if (!hs || !hp) {
		fprintf(stderr, "drivebench health: out of memory\n");
		status = EXIT_RUN_FAILED;
		goto out;
	}
	for (size_t i = 0; i < list.count; i++) {
		hp[i] = &hs[i];
		ret = health_read(&list.drives[i], NULL, &hs[i], err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "drivebench health: %s: %s\n", list.drives[i].name, err);
			if (status == EXIT_OK)
				status = EXIT_RUN_FAILED;
		}
	}
	if (json) {
		struct json_object *doc = health_doc_to_json(hp, list.count, DB_VERSION);
		if (!doc) {
			fprintf(stderr, "drivebench health: out of memory\n");
			status = EXIT_RUN_FAILED;
			goto out;
		}
		puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(doc);
	} else {
		if (list.count == 0 && status == EXIT_OK)
			printf("no drives found\n");
		for (size_t i = 0; i < list.count; i++)
			print_text(&list.drives[i], &hs[i]);
	}
out:
	free(hs);
	free(hp);
	drive_list_free(&list);
	return status;
}
