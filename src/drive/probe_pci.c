// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PCI probe (libpci): vendor and device names from pci.ids, and the PCIe link from
 * the Express capability in config space: Link Capabilities says what the function can
 * do, Link Status what it trained at. A Gen4 x4 drive that trained at Gen3 x2 is the
 * classic bench mistake, so both are kept and compared.
 *
 * libpci reports fatal errors through pacc->error, whose default prints and calls exit().
 * The library must never exit the program, so every call into libpci runs under a
 * sigsetjmp() and our handler jumps back out with the message.
 *
 * Non-root reads only the first 64 bytes of config space, where no capability lives; the
 * link then stays as the sysfs probe read it (link_source "sysfs").
 */
#include "drive_probe.h"

#include <errno.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pci_state {
	struct pci_access *pacc;
	bool scanned;
	bool broken; /* libpci failed once; do not try again this scan */
};

static _Thread_local sigjmp_buf *pci_jump;
static _Thread_local char pci_errmsg[256];

__attribute__((noreturn, format(printf, 1, 2))) static void pci_on_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_errmsg, sizeof(pci_errmsg), msg, ap);
	va_end(ap);
	/* every libpci call is made under PCI_GUARD, so pci_jump is set here */
	siglongjmp(*pci_jump, 1);
}

__attribute__((format(printf, 1, 2))) static void pci_on_message(char *msg, ...)
{
	(void)msg; /* warnings and debug output: core code never prints */
}

/* Link Capabilities / Link Status speed codes, as PCIe numbers them. */
static const unsigned pcie_speed_mts[] = {
	[1] = 2500, [2] = 5000, [3] = 8000, [4] = 16000, [5] = 32000, [6] = 64000,
};

static unsigned speed_code_mts(unsigned code)
{
	return code < sizeof(pcie_speed_mts) / sizeof(pcie_speed_mts[0])
		       ? pcie_speed_mts[code]
		       : 0;
}

static int pci_open(const struct probe_ctx *ctx, void **state, char *err, size_t errlen)
{
	struct pci_state *s;
	sigjmp_buf jb;
	char path[PATH_MAX + 16];

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	pci_jump = &jb;
	if (sigsetjmp(jb, 0)) {
		probe_fmt(err, errlen, "libpci: %s", pci_errmsg);
		if (s->pacc)
			pci_cleanup(s->pacc);
		free(s);
		pci_jump = NULL;
		return -EIO;
	}
	s->pacc = pci_alloc();
	s->pacc->error = pci_on_error;
	s->pacc->warning = pci_on_message;
	s->pacc->debug = pci_on_message;
	if (ctx->pci_dump) {
		s->pacc->method = PCI_ACCESS_DUMP;
		probe_fmt(path, sizeof(path), "%s", ctx->pci_dump);
		pci_set_param(s->pacc, "dump.name", path);
	} else if (!ctx->real_sys) {
		s->pacc->method = PCI_ACCESS_SYS_BUS_PCI;
		probe_fmt(path, sizeof(path), "%s/bus/pci", ctx->sys);
		pci_set_param(s->pacc, "sysfs.path", path);
	}
	pci_init(s->pacc);
	pci_jump = NULL;
	*state = s;
	return 0;
}

static struct pci_dev *find_dev(struct pci_access *pacc, const char *address)
{
	unsigned dom, bus, dev, fn;

	if (sscanf(address, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return NULL;
	for (struct pci_dev *p = pacc->devices; p; p = p->next)
		if ((unsigned)p->domain == dom && p->bus == bus && p->dev == dev && p->func == fn)
			return p;
	return NULL;
}

static void decode_link(struct pci_dev *dev, struct drive_pci *out)
{
	struct pci_cap *cap = pci_find_cap(dev, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	uint32_t lnkcap;
	uint16_t lnksta;
	struct drive_link_end cur, max;

	if (!cap)
		return;
	lnkcap = pci_read_long(dev, cap->addr + PCI_EXP_LNKCAP);
	lnksta = pci_read_word(dev, cap->addr + PCI_EXP_LNKSTA);
	/* unreadable config space reads as all ones */
	if (lnkcap == 0xffffffffu || lnksta == 0xffff)
		return;
	max.speed_mts = speed_code_mts(lnkcap & PCI_EXP_LNKCAP_SPEED);
	max.width = (lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4;
	cur.speed_mts = speed_code_mts(lnksta & PCI_EXP_LNKSTA_SPEED);
	cur.width = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;
	if (!max.speed_mts || !max.width || !cur.speed_mts || !cur.width)
		return;
	out->link_cur = cur;
	out->link_max = max;
	out->link_known = true;
	probe_fmt(out->link_source, sizeof(out->link_source), "config");
}

static int pci_fill(void *state, const struct probe_ctx *ctx, struct drive *d)
{
	struct pci_state *s = state;
	struct drive_pci *p = &d->pci;
	struct pci_dev *dev;
	sigjmp_buf jb;
	char name[128];
	const char *n;
	int flags = PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB;

	(void)ctx;
	if (!p->present || s->broken)
		return 0;
	pci_jump = &jb;
	if (sigsetjmp(jb, 0)) {
		/* libpci gave up (an unreadable dump, a broken pci.ids): keep the sysfs facts */
		s->broken = true;
		pci_jump = NULL;
		return 0;
	}
	if (!s->scanned) {
		pci_scan_bus(s->pacc);
		s->scanned = true;
	}
	dev = find_dev(s->pacc, p->address);
	if (dev) {
		pci_fill_info(dev, PCI_FILL_IDENT | PCI_FILL_CAPS);
		p->vendor_id = dev->vendor_id;
		p->device_id = dev->device_id;
		n = pci_lookup_name(s->pacc, name, sizeof(name), PCI_LOOKUP_VENDOR | flags,
				    p->vendor_id);
		if (n)
			probe_fmt(p->vendor, sizeof(p->vendor), "%s", n);
		n = pci_lookup_name(s->pacc, name, sizeof(name), PCI_LOOKUP_DEVICE | flags,
				    p->vendor_id, p->device_id);
		if (n)
			probe_fmt(p->device, sizeof(p->device), "%s", n);
		decode_link(dev, p);
	}
	pci_jump = NULL;
	/* NVMe has no vendor string of its own; the PCI vendor is the maker */
	if (!d->vendor[0] && d->transport == DRIVE_TR_NVME)
		probe_fmt(d->vendor, sizeof(d->vendor), "%s", p->vendor);
	return 0;
}

static void pci_close(void *state)
{
	struct pci_state *s = state;
	sigjmp_buf jb;

	pci_jump = &jb;
	if (!sigsetjmp(jb, 0))
		pci_cleanup(s->pacc);
	pci_jump = NULL;
	free(s);
}

const struct probe_ops probe_pci_ops = {
	.name = "pci",
	.open = pci_open,
	.fill = pci_fill,
	.close = pci_close,
};
