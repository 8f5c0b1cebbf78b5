// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Discovery records as JSON: the "target.drive" section of every result file and the
 * `drivebench list --json` document. Every field is always present (empty string, 0,
 * null) so that scripts can index without guarding; "pci" and "nvme" are null when the
 * drive has none.
 */
#include "drive.h"

#include <json-c/json.h>
#include <stdio.h>

static void put_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static void put_str_or_null(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v[0] ? json_object_new_string(v) : NULL);
}

static void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static void put_bool(struct json_object *o, const char *key, bool v)
{
	json_object_object_add(o, key, json_object_new_boolean(v));
}

static struct json_object *link_end_json(const struct drive_link_end *e)
{
	struct json_object *o = json_object_new_object();
	char buf[32];

	json_object_object_add(o, "speed_gts", json_object_new_double(e->speed_mts / 1000.0));
	put_u64(o, "speed_mts", e->speed_mts);
	put_u64(o, "gen", drive_pcie_gen(e->speed_mts));
	put_u64(o, "width", e->width);
	put_str(o, "text", drive_link_fmt(buf, sizeof(buf), e));
	return o;
}

static struct json_object *pci_json(const struct drive_pci *p)
{
	struct json_object *o, *link = NULL;
	char id[8];

	if (!p->present)
		return NULL;
	o = json_object_new_object();
	put_str(o, "address", p->address);
	snprintf(id, sizeof(id), "%04x", p->vendor_id & 0xffff);
	put_str(o, "vendor_id", id);
	snprintf(id, sizeof(id), "%04x", p->device_id & 0xffff);
	put_str(o, "device_id", id);
	snprintf(id, sizeof(id), "%04x", p->subsys_vendor_id & 0xffff);
	put_str(o, "subsystem_vendor_id", id);
	snprintf(id, sizeof(id), "%04x", p->subsys_device_id & 0xffff);
	put_str(o, "subsystem_device_id", id);
	put_str(o, "vendor", p->vendor);
	put_str(o, "device", p->device);
	if (p->link_known) {
		link = json_object_new_object();
		json_object_object_add(link, "current", link_end_json(&p->link_cur));
		json_object_object_add(link, "max", link_end_json(&p->link_max));
		put_bool(link, "degraded", p->link_degraded);
		put_str(link, "source", p->link_source);
	}
	json_object_object_add(o, "link", link);
	json_object_object_add(o, "numa_node", json_object_new_int(p->numa_node));
	put_str(o, "local_cpus", p->local_cpus);
	return o;
}

static struct json_object *nvme_json(const struct drive_nvme *n)
{
	struct json_object *o;

	if (!n->present)
		return NULL;
	o = json_object_new_object();
	put_str(o, "controller", n->controller);
	put_str(o, "model", n->model);
	put_str(o, "serial", n->serial);
	put_str(o, "firmware", n->firmware);
	put_u64(o, "nsid", n->nsid);
	return o;
}

static struct json_object *inuse_json(const struct drive *d)
{
	struct json_object *o = json_object_new_object(), *reasons = json_object_new_array();

	put_bool(o, "known", d->inuse_known);
	put_bool(o, "busy", d->inuse_known && inuse_busy(&d->inuse));
	for (unsigned k = 0; k < INUSE_NKINDS; k++)
		put_bool(o, inuse_kind_name[k], (d->inuse.flags & INUSE_BIT(k)) != 0);
	for (unsigned i = 0; i < d->inuse.nreasons; i++) {
		struct json_object *r = json_object_new_object();
		put_str(r, "kind", inuse_kind_name[d->inuse.reason[i].kind]);
		put_str(r, "text", d->inuse.reason[i].text);
		json_object_array_add(reasons, r);
	}
	json_object_object_add(o, "reasons", reasons);
	put_u64(o, "more_reasons", d->inuse.dropped);
	return o;
}

struct json_object *drive_to_json(const struct drive *d)
{
	struct json_object *o = json_object_new_object(), *ids = json_object_new_array();
	char buf[32];

	put_str(o, "name", d->name);
	put_str(o, "node", d->node);
	for (unsigned i = 0; i < d->nby_id; i++)
		json_object_array_add(ids, json_object_new_string(d->by_id[i]));
	json_object_object_add(o, "by_id", ids);
	snprintf(buf, sizeof(buf), "%u:%u", d->major, d->minor);
	put_str(o, "dev", buf);
	put_u64(o, "major", d->major);
	put_u64(o, "minor", d->minor);
	put_str_or_null(o, "partition", d->partition);
	put_u64(o, "partitions", d->npartitions);
	put_str(o, "transport", drive_transport_name(d->transport));
	put_str(o, "model", d->model);
	put_str(o, "serial", d->serial);
	put_str(o, "firmware", d->firmware);
	put_str(o, "vendor", d->vendor);
	put_str(o, "wwn", d->wwn);
	put_u64(o, "capacity_bytes", d->capacity_bytes);
	put_u64(o, "logical_block_bytes", d->logical_block_bytes);
	put_u64(o, "physical_block_bytes", d->physical_block_bytes);
	put_bool(o, "rotational", d->rotational);
	put_bool(o, "rotational_reliable", !d->rotational_unreliable);
	put_bool(o, "removable", d->removable);
	put_str(o, "scheduler", d->scheduler);
	put_u64(o, "nr_requests", d->nr_requests);
	put_str(o, "write_cache", drive_wcache_name[d->write_cache]);
	put_bool(o, "discard", d->discard);
	put_u64(o, "discard_max_bytes", d->discard_max_bytes);
	put_bool(o, "read_only", d->read_only);
	json_object_object_add(o, "pci", pci_json(&d->pci));
	json_object_object_add(o, "nvme", nvme_json(&d->nvme));
	json_object_object_add(o, "in_use", inuse_json(d));
	put_str(o, "syspath", d->syspath);
	return o;
}

struct json_object *drive_list_to_json(const struct drive_list *l, const char *tool_version)
{
	struct json_object *o = json_object_new_object(), *tool = json_object_new_object();
	struct json_object *arr = json_object_new_array();

	put_str(o, "format", DRIVE_LIST_FORMAT);
	json_object_object_add(o, "version", json_object_new_int(DRIVE_LIST_VERSION));
	put_str(tool, "name", "drivebench");
	put_str(tool, "version", tool_version);
	json_object_object_add(o, "tool", tool);
	for (size_t i = 0; i < l->count; i++)
		json_object_array_add(arr, drive_to_json(&l->drives[i]));
	json_object_object_add(o, "drives", arr);
	return o;
}
