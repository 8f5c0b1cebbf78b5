// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The udev probe: what only the udev database knows (by-id links, serials that USB
 * bridges report in descriptors rather than VPD). Without udevd there is no database and
 * libudev returns kernel properties only, so this probe fills only fields still empty.
 */
#include "drive_probe.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <string.h>

static void fill_if_empty(char *dst, size_t len, struct udev_device *dev, const char *key)
{
	const char *v = udev_device_get_property_value(dev, key);

	if (!dst[0] && v && v[0])
		probe_copy_trim(dst, len, v);
}

static bool have_by_id(const struct drive *d, const char *link)
{
	for (unsigned i = 0; i < d->nby_id; i++)
		if (!strcmp(d->by_id[i], link))
			return true;
	return false;
}

static const struct {
	const char *id_bus;
	enum drive_transport transport;
} bus_transport[] = {
	{"ata", DRIVE_TR_SATA},
	{"usb", DRIVE_TR_USB},
	{"nvme", DRIVE_TR_NVME},
};

static int udev_fill(void *state, const struct probe_ctx *ctx, struct drive *d)
{
	struct udev *udev = state;
	struct udev_device *dev;
	const char *v;

	(void)ctx;
	dev = udev_device_new_from_subsystem_sysname(udev, "block", d->name);
	if (!dev)
		return 0;
	v = udev_device_get_devnode(dev);
	if (v && !d->node[0])
		probe_fmt(d->node, sizeof(d->node), "%s", v);
	fill_if_empty(d->model, sizeof(d->model), dev, "ID_MODEL");
	fill_if_empty(d->serial, sizeof(d->serial), dev, "ID_SERIAL_SHORT");
	fill_if_empty(d->firmware, sizeof(d->firmware), dev, "ID_REVISION");
	fill_if_empty(d->vendor, sizeof(d->vendor), dev, "ID_VENDOR");
	fill_if_empty(d->wwn, sizeof(d->wwn), dev, "ID_WWN_WITH_EXTENSION");
	fill_if_empty(d->wwn, sizeof(d->wwn), dev, "ID_WWN");

	v = udev_device_get_property_value(dev, "ID_BUS");
	if (v && (d->transport == DRIVE_TR_OTHER || d->transport == DRIVE_TR_SCSI))
		for (size_t i = 0; i < sizeof(bus_transport) / sizeof(bus_transport[0]); i++)
			if (!strcmp(v, bus_transport[i].id_bus))
				d->transport = bus_transport[i].transport;

	struct udev_list_entry *e;
	udev_list_entry_foreach(e, udev_device_get_devlinks_list_entry(dev))
	{
		const char *link = udev_list_entry_get_name(e);
		if (d->nby_id < DRIVE_MAX_BYID && strstr(link, "/disk/by-id/") &&
		    !have_by_id(d, link))
			probe_fmt(d->by_id[d->nby_id++], sizeof(d->by_id[0]), "%s", link);
	}
	udev_device_unref(dev);
	return 0;
}

static int udev_open(const struct probe_ctx *ctx, void **state, char *err, size_t errlen)
{
	struct udev *udev;

	/* libudev always reads the system's /sys; a fixture tree is sysfs-only */
	if (!ctx->real_sys)
		return -ENOTSUP;
	udev = udev_new();
	if (!udev) {
		probe_fmt(err, errlen, "udev: cannot create a context");
		return -ENOMEM;
	}
	*state = udev;
	return 0;
}

static void udev_close(void *state)
{
	udev_unref(state);
}

const struct probe_ops probe_udev_ops = {
	.name = "udev",
	.open = udev_open,
	.fill = udev_fill,
	.close = udev_close,
};
