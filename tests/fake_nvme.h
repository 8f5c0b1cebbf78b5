/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_FAKE_NVME_H
#define DB_FAKE_NVME_H
/*
 * A fake NVMe controller for the health and erase tests, behind umockdev (0.17): an ioctl
 * handler attached to /dev/nvme0 and /dev/nvme0n1 in a testbed answers NVME_IOCTL_ID and
 * the admin commands drivebench sends through libnvme (identify, get log page, format,
 * sanitize). Its data structures are byte arrays filled here from the field offsets of
 * the NVMe base specification (2.0), never from libnvme's structs, so that a decoder
 * that reads the wrong offset fails.
 *
 * The test program runs under umockdev's preload library: fake_nvme_reexec() restarts it
 * through umockdev-wrapper when it is not. Each test makes its own testbed (in the forked
 * test process); umockdev runs the handler on its own worker thread.
 */
#include "testlib.h"

#include <libnvme.h>
#include <stddef.h>
#include <umockdev.h>

/* Identify Controller (CNS 01h) */
enum {
	IDC_VID = 0, IDC_SN = 4, IDC_MN = 24, IDC_FR = 64, IDC_OACS = 256, IDC_FRMW = 260,
	IDC_WCTEMP = 266, IDC_CCTEMP = 268, IDC_TNVMCAP = 280, IDC_SANICAP = 328, IDC_NN = 516,
	IDC_FNA = 524,
};
/* Identify Namespace (CNS 00h) */
enum { IDN_NSZE = 0, IDN_NCAP = 8, IDN_NUSE = 16, IDN_NLBAF = 25, IDN_FLBAS = 26, IDN_DPS = 29,
       IDN_LBAF = 128 };
/* Sanitize Status log (81h) */
enum { SAN_SPROG = 0, SAN_SSTAT = 2, SAN_SCDW10 = 4, SAN_ETO = 8, SAN_ETBE = 12, SAN_ETCE = 16 };
/* Firmware Slot Information log (03h) */
enum { FW_AFI = 0, FW_FRS1 = 8 };
/* SMART / Health Information log (02h) */
enum {
	SMART_CRIT = 0, SMART_TEMP = 1, SMART_SPARE = 3, SMART_SPARE_THRESH = 4, SMART_USED = 5,
	SMART_DUR = 32, SMART_DUW = 48, SMART_HRC = 64, SMART_HWC = 80, SMART_BUSY = 96,
	SMART_PCYC = 112, SMART_POH = 128, SMART_UNSAFE = 144, SMART_MEDIA = 160,
	SMART_ERRLOG = 176, SMART_WCTT = 192, SMART_CCTT = 196, SMART_TS1 = 200,
	SMART_TMT1C = 216, SMART_TMT2C = 220, SMART_TMT1T = 224, SMART_TMT2T = 228,
};

struct fake_nvme {
	uint8_t id_ctrl[4096], id_ns[4096], smart[512], sanitize[512], fw[512];
	unsigned nsid;              /* NVME_IOCTL_ID on a namespace node */
	uint16_t identify_status;   /* identify completes with this NVMe status */
	uint16_t format_status;     /* Format NVM completes with this */
	uint32_t tmt_rise;          /* every SMART read after the first adds this to TMT1 */
	unsigned smart_reads;
	unsigned sanitize_polls_to_finish; /* sanitize log reads in progress before done */
	unsigned sanitize_polls;
	bool sanitize_fails;        /* the sanitize ends in "failed" */
	bool sanitizing;
	unsigned formats, sanitizes;
	uint32_t format_cdw10, format_nsid, sanitize_cdw10;
	UMockdevTestbed *tb;
	UMockdevIoctlBase *handler;
};

static inline void put16(uint8_t *b, unsigned off, uint16_t v)
{
	b[off] = (uint8_t)v, b[off + 1] = (uint8_t)(v >> 8);
}

static inline void put32(uint8_t *b, unsigned off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

static inline void put64(uint8_t *b, unsigned off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

/* An ASCII field padded with spaces, as identify data is. */
static inline void putstr(uint8_t *b, unsigned off, unsigned len, const char *s)
{
	memset(b + off, ' ', len);
	memcpy(b + off, s, strlen(s) < len ? strlen(s) : len);
}

/* A Samsung-like controller: two namespaces, format (user data and crypto), sanitize
 * block and crypto erase, three firmware slots, two LBA formats (512 and 4096, in use). */
static inline void fake_nvme_default(struct fake_nvme *f)
{
	memset(f, 0, sizeof(*f));
	f->nsid = 1;
	put16(f->id_ctrl, IDC_VID, 0x144d);
	putstr(f->id_ctrl, IDC_SN, 20, "S6B0NG0R123456");
	putstr(f->id_ctrl, IDC_MN, 40, "Samsung SSD 980 PRO 2TB");
	putstr(f->id_ctrl, IDC_FR, 8, "5B2QGXA7");
	put16(f->id_ctrl, IDC_OACS, 0x0006);    /* format, firmware download */
	f->id_ctrl[IDC_FRMW] = 0x07;            /* slot 1 read-only, 3 slots */
	put16(f->id_ctrl, IDC_WCTEMP, 355);     /* 82 C */
	put16(f->id_ctrl, IDC_CCTEMP, 358);     /* 85 C */
	put64(f->id_ctrl, IDC_TNVMCAP, 2000398934016ull);
	put32(f->id_ctrl, IDC_SANICAP, 0x3);    /* crypto erase, block erase */
	put32(f->id_ctrl, IDC_NN, 2);
	f->id_ctrl[IDC_FNA] = 0x04;             /* per namespace; crypto erase supported */

	put64(f->id_ns, IDN_NSZE, 3907029168ull);
	put64(f->id_ns, IDN_NCAP, 3907029168ull);
	put64(f->id_ns, IDN_NUSE, 123456789ull);
	f->id_ns[IDN_NLBAF] = 1;                /* two formats (0-based) */
	f->id_ns[IDN_FLBAS] = 1;                /* the second in use */
	f->id_ns[IDN_DPS] = 0;
	put16(f->id_ns, IDN_LBAF + 0, 0);       /* format 0: no metadata, 2^9, rp 2 */
	f->id_ns[IDN_LBAF + 2] = 9;
	f->id_ns[IDN_LBAF + 3] = 2;
	put16(f->id_ns, IDN_LBAF + 4, 8);       /* format 1: 8 bytes metadata, 2^12, rp 0 */
	f->id_ns[IDN_LBAF + 6] = 12;
	f->id_ns[IDN_LBAF + 7] = 0;

	f->smart[SMART_CRIT] = 0x02;            /* temperature */
	put16(f->smart, SMART_TEMP, 318);       /* 45 C */
	f->smart[SMART_SPARE] = 100;
	f->smart[SMART_SPARE_THRESH] = 10;
	f->smart[SMART_USED] = 3;
	put64(f->smart, SMART_DUR, 43567891);
	put64(f->smart, SMART_DUW, 38765432);
	put64(f->smart, SMART_HRC, 987654321098ull);
	put64(f->smart, SMART_HWC, 876543210987ull);
	put64(f->smart, SMART_BUSY, 4321);
	put64(f->smart, SMART_PCYC, 456);
	put64(f->smart, SMART_POH, 7890);
	put64(f->smart, SMART_UNSAFE, 23);
	put64(f->smart, SMART_MEDIA, 1);
	put64(f->smart, SMART_ERRLOG, 5678);
	put32(f->smart, SMART_WCTT, 12);
	put32(f->smart, SMART_CCTT, 2);
	put16(f->smart, SMART_TS1, 320);        /* 47 C */
	put16(f->smart, SMART_TS1 + 2, 330);    /* 57 C */
	put32(f->smart, SMART_TMT1C, 5);
	put32(f->smart, SMART_TMT2C, 1);
	put32(f->smart, SMART_TMT1T, 300);
	put32(f->smart, SMART_TMT2T, 30);

	put16(f->sanitize, SAN_SPROG, 0xffff);
	put16(f->sanitize, SAN_SSTAT, 0x0001 | (1 << 3)); /* completed, 1 pass */
	put32(f->sanitize, SAN_SCDW10, 0x2);
	put32(f->sanitize, SAN_ETO, 0xffffffff);
	put32(f->sanitize, SAN_ETBE, 60);
	put32(f->sanitize, SAN_ETCE, 5);

	f->fw[FW_AFI] = 0x21;                   /* running slot 1, slot 2 at the next reset */
	putstr(f->fw, FW_FRS1, 8, "5B2QGXA7");
	putstr(f->fw, FW_FRS1 + 8, 8, "5B2QGXB1");
	f->sanitize_polls_to_finish = 3;
}

static inline gboolean fake_nvme_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client,
				       gpointer data)
{
	struct fake_nvme *f = data;
	gulong req = umockdev_ioctl_client_get_request(client);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client), *cmdp;
	struct nvme_passthru_cmd cmd;
	const uint8_t *src = NULL;
	size_t n = 0;
	int status = 0;

	(void)base;
	if (req == NVME_IOCTL_ID) {
		umockdev_ioctl_client_complete(client, f->nsid, 0);
		return TRUE;
	}
	/* the argument is the client's pointer to the command: fetch what it points to */
	cmdp = req == NVME_IOCTL_ADMIN_CMD ? umockdev_ioctl_data_resolve(arg, 0, sizeof(cmd), NULL)
					   : NULL;
	if (!cmdp) {
		umockdev_ioctl_client_complete(client, -1, ENOTTY);
		return TRUE;
	}
	memcpy(&cmd, cmdp->data, sizeof(cmd));
	switch (cmd.opcode) {
	case nvme_admin_identify:
		if (f->identify_status)
			status = f->identify_status;
		else if ((cmd.cdw10 & 0xff) == NVME_IDENTIFY_CNS_CTRL)
			src = f->id_ctrl, n = sizeof(f->id_ctrl);
		else if ((cmd.cdw10 & 0xff) == NVME_IDENTIFY_CNS_NS && cmd.nsid == f->nsid)
			src = f->id_ns, n = sizeof(f->id_ns);
		else
			status = NVME_SC_INVALID_NS | NVME_SC_DNR;
		break;
	case nvme_admin_get_log_page:
		switch (cmd.cdw10 & 0xff) {
		case NVME_LOG_LID_SMART:
			if (f->smart_reads++ && f->tmt_rise) {
				uint32_t c = f->smart[SMART_TMT1C] | f->smart[SMART_TMT1C + 1] << 8;
				uint32_t w = f->smart[SMART_WCTT] | f->smart[SMART_WCTT + 1] << 8;
				put32(f->smart, SMART_TMT1C, c + f->tmt_rise);
				put32(f->smart, SMART_WCTT, w + f->tmt_rise);
			}
			src = f->smart, n = sizeof(f->smart);
			break;
		case NVME_LOG_LID_SANITIZE:
			if (f->sanitizing) {
				f->sanitize_polls++;
				if (f->sanitize_polls >= f->sanitize_polls_to_finish) {
					f->sanitizing = false;
					put16(f->sanitize, SAN_SPROG, 0xffff);
					put16(f->sanitize, SAN_SSTAT, f->sanitize_fails ? 3 : 1);
				} else {
					put16(f->sanitize, SAN_SPROG,
					      (uint16_t)(f->sanitize_polls * 65536 /
							 f->sanitize_polls_to_finish));
				}
			}
			src = f->sanitize, n = sizeof(f->sanitize);
			break;
		case NVME_LOG_LID_FW_SLOT:
			src = f->fw, n = sizeof(f->fw);
			break;
		default:
			status = NVME_SC_INVALID_LOG_PAGE | NVME_SC_DNR;
		}
		break;
	case nvme_admin_format_nvm:
		f->formats++;
		f->format_cdw10 = cmd.cdw10;
		f->format_nsid = cmd.nsid;
		status = f->format_status;
		break;
	case nvme_admin_sanitize_nvm:
		f->sanitizes++;
		f->sanitize_cdw10 = cmd.cdw10;
		f->sanitizing = true;
		f->sanitize_polls = 0;
		put16(f->sanitize, SAN_SPROG, 0);
		put16(f->sanitize, SAN_SSTAT, 2);
		put32(f->sanitize, SAN_SCDW10, cmd.cdw10);
		break;
	default:
		status = NVME_SC_INVALID_OPCODE | NVME_SC_DNR;
	}
	if (src && cmd.data_len) {
		UMockdevIoctlData *buf = umockdev_ioctl_data_resolve(
			cmdp, offsetof(struct nvme_passthru_cmd, addr), cmd.data_len, NULL);
		if (buf) {
			memcpy(buf->data, src, n < cmd.data_len ? n : cmd.data_len);
			g_object_unref(buf);
		}
	}
	g_object_unref(cmdp);
	umockdev_ioctl_client_complete(client, status, 0);
	return TRUE;
}

/* A testbed with nvme0 (namespaces nvme0n1 259:0 and nvme0n2 259:1) and the handler on
 * /dev/nvme0 and /dev/nvme0n1. */
static const char fake_nvme_devices[] =
	"P: /devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1\n"
	"N: nvme0n1\nE: DEVNAME=/dev/nvme0n1\nE: DEVTYPE=disk\nE: MAJOR=259\nE: MINOR=0\n"
	"E: SUBSYSTEM=block\nA: dev=259:0\nA: size=3907029168\nA: nsid=1\n"
	"A: queue/logical_block_size=4096\nL: device=../../nvme0\n\n"
	"P: /devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n2\n"
	"N: nvme0n2\nE: DEVNAME=/dev/nvme0n2\nE: DEVTYPE=disk\nE: MAJOR=259\nE: MINOR=1\n"
	"E: SUBSYSTEM=block\nA: dev=259:1\nA: size=2097152\nA: nsid=2\n"
	"A: queue/logical_block_size=4096\nL: device=../../nvme0\n\n"
	"P: /devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0\n"
	"N: nvme0\nE: SUBSYSTEM=nvme\nE: MAJOR=241\nE: MINOR=0\nA: dev=241:0\n"
	"A: model=Samsung SSD 980 PRO 2TB\nA: serial=S6B0NG0R123456\nA: firmware_rev=5B2QGXA7\n"
	"L: device=../../../0000:3d:00.0\n\n"
	"P: /devices/pci0000:00/0000:00:1d.0/0000:3d:00.0\n"
	"E: SUBSYSTEM=pci\nE: PCI_SLOT_NAME=0000:3d:00.0\nA: vendor=0x144d\nA: device=0xa80a\n"
	"A: class=0x010802\nA: irq=16\n"
	"A: resource=0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"H: config=4D140AA8060410000002080100000000\n\n";

static inline void fake_nvme_attach(struct fake_nvme *f, const char *devices)
{
	GError *error = NULL;

	f->tb = umockdev_testbed_new();
	ck_assert_msg(umockdev_testbed_add_from_string(f->tb, devices ? devices : fake_nvme_devices,
							&error),
		      "%s", error ? error->message : "");
	f->handler = umockdev_ioctl_base_new();
	g_signal_connect(f->handler, "handle-ioctl", G_CALLBACK(fake_nvme_ioctl), f);
	ck_assert(umockdev_testbed_attach_ioctl(f->tb, "/dev/nvme0", f->handler, &error));
	ck_assert(umockdev_testbed_attach_ioctl(f->tb, "/dev/nvme0n1", f->handler, &error));
}

static inline void fake_nvme_detach(struct fake_nvme *f)
{
	if (!f->tb)
		return;
	umockdev_testbed_detach_ioctl(f->tb, "/dev/nvme0", NULL);
	umockdev_testbed_detach_ioctl(f->tb, "/dev/nvme0n1", NULL);
	g_object_unref(f->handler);
	g_object_unref(f->tb);
	f->tb = NULL;
}

/* Restart the test program under umockdev's preload library unless it runs there. */
static inline void fake_nvme_reexec(int argc, char **argv)
{
	char **args;

	const char *pre = getenv("LD_PRELOAD");

	if (pre && strstr(pre, "libumockdev-preload"))
		return;
	if (getenv("DRIVEBENCH_UMOCKDEV_REEXEC")) {
		fprintf(stderr, "SKIP: umockdev's preload library did not load\n");
		exit(77);
	}
	setenv("DRIVEBENCH_UMOCKDEV_REEXEC", "1", 1);
	args = calloc((size_t)argc + 2, sizeof(*args));
	args[0] = "umockdev-wrapper";
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	execvp(args[0], args);
	fprintf(stderr, "SKIP: umockdev-wrapper: %s (package umockdev)\n", strerror(errno));
	exit(77);
}

#endif
