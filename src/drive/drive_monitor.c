// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hotplug: kernel uevents for disks through a libudev monitor on the "kernel" source.
 * The "udev" source would carry the same events after udevd processed them, but there
 * is no udevd on a bare test bench, so the kernel's own messages are used.
 */
#include "drive.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const drive_event_kind_name[] = {
	[DRIVE_EV_ADDED] = "added",
	[DRIVE_EV_REMOVED] = "removed",
	[DRIVE_EV_CHANGED] = "changed",
};

static const struct {
	const char *action;
	enum drive_event_kind kind;
} actions[] = {
	{"add", DRIVE_EV_ADDED},
	{"remove", DRIVE_EV_REMOVED},
	{"change", DRIVE_EV_CHANGED}, /* a loop device attached, media changed, resized */
};

struct drive_monitor {
	struct udev *udev;
	struct udev_monitor *mon;
};

int drive_monitor_open(struct drive_monitor **out, char *err, size_t errlen)
{
	struct drive_monitor *m = calloc(1, sizeof(*m));
	int ret;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->udev = udev_new();
	if (!m->udev) {
		ret = -ENOMEM;
		snprintf(err, errlen, "udev: cannot create a context");
		goto free_m;
	}
	m->mon = udev_monitor_new_from_netlink(m->udev, "kernel");
	if (!m->mon) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "udev monitor: %s", strerror(-ret));
		goto unref_udev;
	}
	ret = udev_monitor_enable_receiving(m->mon);
	if (ret < 0) {
		snprintf(err, errlen, "udev monitor: %s", strerror(-ret));
		goto unref_mon;
	}
	*out = m;
	return 0;
unref_mon:
	udev_monitor_unref(m->mon);
unref_udev:
	udev_unref(m->udev);
free_m:
	free(m);
	return ret;
}

int drive_monitor_fd(const struct drive_monitor *m)
{
	return udev_monitor_get_fd(m->mon);
}

int drive_monitor_read(struct drive_monitor *m, struct drive_event *ev)
{
	struct udev_device *dev;

	/* the socket is non-blocking: NULL means nothing is pending */
	while ((dev = udev_monitor_receive_device(m->mon))) {
		const char *subsystem = udev_device_get_subsystem(dev);
		const char *devtype = udev_device_get_devtype(dev);
		const char *action = udev_device_get_action(dev);
		const char *name = udev_device_get_sysname(dev);
		int found = 0;

		if (subsystem && !strcmp(subsystem, "block") && devtype &&
		    !strcmp(devtype, "disk") && action && name) {
			for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
				if (!strcmp(action, actions[i].action)) {
					memset(ev, 0, sizeof(*ev));
					ev->kind = actions[i].kind;
					snprintf(ev->name, sizeof(ev->name), "%s", name);
					ev->devnum = udev_device_get_devnum(dev);
					found = 1;
				}
		}
		udev_device_unref(dev);
		if (found)
			return 1;
	}
	return 0;
}

void drive_monitor_close(struct drive_monitor *m)
{
	if (!m)
		return;
	udev_monitor_unref(m->mon);
	udev_unref(m->udev);
	free(m);
}
