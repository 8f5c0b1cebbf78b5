// SPDX-License-Identifier: GPL-2.0-or-later
#include "purge_erase.h"

#include <errno.h>
#include <json-c/json.h>
#include <libnvme.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "child.h"
#include "drive.h"
#include "health.h"
#include "safety.h"

#define FORMAT_TIMEOUT_MS   (4u * 3600 * 1000) /* a format of a large drive takes a while */
#define SANITIZE_POLL_NS    1000000000ull
#define TOOL_TIMEOUT_MS     30000u
#define TOOL_MAX_OUT        (1u << 20)
#define ATA_ERASE_PASSWORD  "drivebench"

/* What was decided for one erase. */
struct erase_plan {
	enum purge_method used;
	unsigned nsid;
	struct health h;         /* the identify data it was decided from (NVMe) */
	enum nvme_sanitize_sanact sanact;
	enum nvme_cmd_format_ses ses;
	bool enhanced;           /* ATA: enhanced security erase */
	bool all_namespaces;
};

static bool nvme_namespace(const struct target *t, unsigned *nsid)
{
	__u32 id = 0;

	if (!t->is_blockdev || t->fd < 0)
		return false;
	if (nvme_get_nsid(t->fd, &id) < 0 || id == 0)
		return false;
	*nsid = id;
	return true;
}

/* ---- ATA security state, from smartctl ---------------------------------------------- */

struct ata_security {
	bool supported, enabled, locked, frozen, enhanced;
};

static int ata_security_read(const char *dev, const struct purge_opts *o, struct ata_security *s,
			     char *err, size_t errlen)
{
	char *argv[] = {(char *)(o->smartctl ? o->smartctl : "smartctl"), "-j", "-i", "-g",
			"security", (char *)dev, NULL};
	struct json_object *root = NULL, *sec, *v;
	struct child_output out;
	int ret, state;

	memset(s, 0, sizeof(*s));
	ret = child_run(argv, TOOL_TIMEOUT_MS, TOOL_MAX_OUT, &out, err, errlen);
	if (ret == -ENOENT) {
		snprintf(err, errlen, "ata-secure-erase needs smartctl to read the security state "
				      "of %s: smartctl not installed (smartmontools)", dev);
		return -ENOTSUP;
	}
	if (ret < 0)
		return ret;
	root = json_tokener_parse(out.out);
	child_output_free(&out);
	if (!root || !json_object_object_get_ex(root, "ata_security", &sec)) {
		snprintf(err, errlen, "%s: smartctl reports no ATA security state (not an ATA drive, "
				      "or the bridge hides it)", dev);
		json_object_put(root);
		return -ENOTSUP;
	}
	state = json_object_object_get_ex(sec, "state", &v) ? json_object_get_int(v) : 0;
	/* ATA IDENTIFY word 128: bit 0 supported, 1 enabled, 2 locked, 3 frozen, 5 enhanced */
	s->supported = state & 1;
	s->enabled = state & 2;
	s->locked = state & 4;
	s->frozen = state & 8;
	s->enhanced = state & 0x20;
	json_object_put(root);
	return 0;
}

/* Why the ATA erase cannot run on dev now, or 0. */
static int ata_usable(const struct ata_security *s, const char *dev, char *err, size_t errlen)
{
	if (!s->supported) {
		snprintf(err, errlen, "%s does not support the ATA security feature set", dev);
		return -ENOTSUP;
	}
	if (s->frozen) {
		snprintf(err, errlen,
			 "%s is frozen (ATA security): the BIOS froze it at boot, and a frozen drive "
			 "refuses the erase. Suspend and resume the machine (systemctl suspend), or "
			 "unplug the drive's power and plug it back in (hot-plug), then try again",
			 dev);
		return -ENOTSUP;
	}
	if (s->enabled || s->locked) {
		snprintf(err, errlen,
			 "%s has an ATA security password set%s: drivebench will not guess it; "
			 "disable it with hdparm --security-disable first",
			 dev, s->locked ? " and is locked" : "");
		return -ENOTSUP;
	}
	return 0;
}

/* The node of t for a tool that opens by path: the resolved path, if it is still t. */
static int tool_path(const struct target *t, char *err, size_t errlen)
{
	struct stat st;

	if (stat(t->resolved, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != t->rdev) {
		snprintf(err, errlen, "%s is no longer the device that was opened", t->resolved);
		return -ESTALE;
	}
	return 0;
}

/* ---- choosing ----------------------------------------------------------------------- */

static bool can_sanitize(const struct health_nvme *n)
{
	return n->sanitize_block || n->sanitize_crypto || n->sanitize_overwrite;
}

static void plan_sanitize(struct erase_plan *p)
{
	const struct health_nvme *n = &p->h.nvme;

	p->used = PURGE_NVME_SANITIZE;
	p->sanact = n->sanitize_block	 ? NVME_SANITIZE_SANACT_START_BLOCK_ERASE
		    : n->sanitize_crypto ? NVME_SANITIZE_SANACT_START_CRYPTO_ERASE
					 : NVME_SANITIZE_SANACT_START_OVERWRITE;
	p->all_namespaces = true; /* a sanitize acts on the whole NVM subsystem */
}

static void plan_format(struct erase_plan *p)
{
	const struct health_nvme *n = &p->h.nvme;

	p->used = PURGE_NVME_FORMAT;
	p->ses = n->format_crypto ? NVME_FORMAT_SES_CRYPTO_ERASE : NVME_FORMAT_SES_USER_DATA_ERASE;
	p->all_namespaces = n->format_all_ns || n->erase_all_ns;
}

static void describe(const struct erase_plan *p, struct purge_outcome *out)
{
	const char *what = "";

	out->used = p->used;
	if (p->used == PURGE_NVME_SANITIZE)
		what = p->sanact == NVME_SANITIZE_SANACT_START_BLOCK_ERASE    ? "block erase"
		       : p->sanact == NVME_SANITIZE_SANACT_START_CRYPTO_ERASE ? "crypto erase"
									      : "overwrite";
	else if (p->used == PURGE_NVME_FORMAT)
		what = p->ses == NVME_FORMAT_SES_CRYPTO_ERASE ? "crypto erase" : "user data erase";
	else if (p->used == PURGE_ATA_ERASE)
		what = p->enhanced ? "enhanced security erase" : "security erase";
	snprintf(out->detail, sizeof(out->detail), "%s%s", what,
		 p->all_namespaces ? ", all namespaces" : "");
}

/*
 * The erase chosen in p against what it may reach (purge.h, enum purge_scope): an erase
 * of every namespace not granted is refused when the operator asked for that method, and
 * auto and secure-erase pick a narrower one (a format of this namespace alone) or, for
 * auto, fall back to discard and say why.
 */
static int fit_scope(const struct target *t, enum purge_method m, const struct purge_opts *o,
		     struct erase_plan *p, struct purge_outcome *out, char *err, size_t errlen)
{
	char wider[200];
	const char *hint = "";

	if (p->used == PURGE_DISCARD || p->used == PURGE_NONE)
		return 0;
	if (p->all_namespaces && o->scope < PURGE_SCOPE_SUBSYSTEM) {
		if ((m == PURGE_AUTO || m == PURGE_SECURE_ERASE) && p->used == PURGE_NVME_SANITIZE &&
		    p->h.nvme.format_supported && !p->h.nvme.format_all_ns &&
		    !p->h.nvme.erase_all_ns) {
			plan_format(p);
			return 0;
		}
		snprintf(wider, sizeof(wider),
			 "it erases every namespace of the NVM subsystem, and the confirmation "
			 "names %s alone",
			 t->path);
		hint = " (confirm its controller too: --yes-destroy=/dev/nvmeN)";
	} else {
		return 0;
	}
	if (m != PURGE_AUTO) {
		snprintf(err, errlen, "refusing to %s %s: %s%s", purge_method_name[p->used], t->path,
			 wider, hint);
		return -EPERM;
	}
	snprintf(out->fallback, sizeof(out->fallback), "%s: %s; discarded instead",
		 purge_method_name[p->used], wider);
	memset(p, 0, sizeof(*p));
	p->used = PURGE_DISCARD;
	return 0;
}

/*
 * Every secure erase erases at least the whole disk, so never one for a partition: true
 * when t is one, with the refusal in err, or for auto the discard it falls back to in p.
 */
static bool on_partition(const struct target *t, enum purge_method m, const struct purge_opts *o,
			 struct erase_plan *p, struct purge_outcome *out, char *err, size_t errlen)
{
	char why[256], disk[64];

	if (!t->is_blockdev ||
	    !safety_partition_of(t->rdev, &(struct inuse_roots){.sys = o->sys_root}, disk,
				 sizeof(disk)))
		return false;
	snprintf(why, sizeof(why), "a secure erase erases the whole disk %s, not only the partition %s",
		 disk, t->path);
	if (m != PURGE_AUTO) {
		snprintf(err, errlen, "refusing to %s %s: %s (make the disk the target to erase it)",
			 purge_method_name[m], t->path, why);
		return true;
	}
	p->used = PURGE_DISCARD;
	snprintf(out->fallback, sizeof(out->fallback), "%s; discarded instead", why);
	describe(p, out);
	return true;
}

static int plan_erase(const struct target *t, enum purge_method m, const struct purge_opts *o,
		      struct erase_plan *p, struct purge_outcome *out, char *err, size_t errlen)
{
	bool nvme, sata = false;
	struct ata_security sec = {0};
	char why[384] = "";
	int ret;

	if (on_partition(t, m, o, p, out, err, errlen))
		return m == PURGE_AUTO ? 0 : -EPERM;
	nvme = nvme_namespace(t, &p->nsid);

	if (nvme) {
		ret = health_read_nvme_fd(t->fd, p->nsid, &p->h, err, errlen);
		if (ret < 0) {
			size_t n = strlen(err);
			snprintf(err + n, errlen - n, " (%s, deciding how to erase it)", t->path);
			return ret;
		}
	} else if (t->is_blockdev) {
		struct drive d;
		char perr[256];
		sata = drive_probe_devnum(t->rdev, &d, perr, sizeof(perr)) == 0 &&
		       d.transport == DRIVE_TR_SATA;
	}

	switch (m) {
	case PURGE_NVME_SANITIZE:
		if (!nvme || !can_sanitize(&p->h.nvme)) {
			snprintf(err, errlen, "%s: nvme-sanitize: %s", t->path,
				 nvme ? "the controller supports no sanitize action (SANICAP)"
				      : "not an NVMe namespace");
			return -ENOTSUP;
		}
		plan_sanitize(p);
		break;
	case PURGE_NVME_FORMAT:
		if (!nvme || !p->h.nvme.format_supported) {
			snprintf(err, errlen, "%s: nvme-format: %s", t->path,
				 nvme ? "the controller does not support Format NVM (OACS)"
				      : "not an NVMe namespace");
			return -ENOTSUP;
		}
		plan_format(p);
		break;
	case PURGE_ATA_ERASE:
		if (!sata) {
			snprintf(err, errlen, "%s: ata-secure-erase: not a SATA drive", t->path);
			return -ENOTSUP;
		}
		ret = ata_security_read(t->resolved, o, &sec, err, errlen);
		if (ret == 0)
			ret = ata_usable(&sec, t->resolved, err, errlen);
		if (ret < 0)
			return ret;
		p->used = PURGE_ATA_ERASE;
		p->enhanced = sec.enhanced;
		break;
	default: /* secure-erase, auto: the strongest the drive supports */
		if (nvme && can_sanitize(&p->h.nvme)) {
			plan_sanitize(p);
		} else if (nvme && p->h.nvme.format_supported) {
			plan_format(p);
		} else if (sata) {
			ret = ata_security_read(t->resolved, o, &sec, why, sizeof(why));
			if (ret == 0)
				ret = ata_usable(&sec, t->resolved, why, sizeof(why));
			if (ret == 0) {
				p->used = PURGE_ATA_ERASE;
				p->enhanced = sec.enhanced;
			}
		} else {
			snprintf(why, sizeof(why), "%s: %s", t->path,
				 nvme ? "the controller supports neither sanitize nor format"
				      : "no secure erase for this kind of target (NVMe and SATA only)");
		}
		if (p->used != PURGE_NONE)
			break;
		if (m == PURGE_SECURE_ERASE) {
			snprintf(err, errlen, "secure-erase: %s", why);
			return -ENOTSUP;
		}
		p->used = PURGE_DISCARD;
		snprintf(out->fallback, sizeof(out->fallback), "%s; discarded instead", why);
		break;
	}
	ret = fit_scope(t, m, o, p, out, err, errlen);
	if (ret == 0)
		describe(p, out);
	return ret;
}

int purge_resolve(const struct target *t, enum purge_method m, const struct purge_opts *o,
		  struct purge_outcome *out, bool *all_namespaces, char *err, size_t errlen)
{
	static const struct purge_opts no_opts;
	struct erase_plan *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	ret = plan_erase(t, m, o ? o : &no_opts, p, out, err, errlen);
	if (all_namespaces)
		*all_namespaces = ret == 0 && p->all_namespaces;
	free(p);
	return ret;
}

/* ---- running ------------------------------------------------------------------------ */

static void progress(const struct purge_opts *o, double pct, const char *what)
{
	if (o->progress)
		o->progress(o->arg, pct, what);
}

static int nvme_fail(const char *path, const char *what, int ret, char *err, size_t errlen)
{
	if (ret > 0) {
		snprintf(err, errlen, "%s: %s failed: NVMe status 0x%x (%s)", path, what,
			 (unsigned)ret, nvme_status_to_string(ret, false));
		return -EIO;
	}
	ret = errno ? errno : EIO;
	snprintf(err, errlen, "%s: %s failed: %s", path, what, strerror(ret));
	return -ret;
}

static int run_format(const struct target *t, const struct erase_plan *p,
		      const struct purge_opts *o, char *err, size_t errlen)
{
	const struct health_nvme *n = &p->h.nvme;
	struct nvme_format_nvm_args a = {
		.args_size = sizeof(a),
		.fd = t->fd,
		.timeout = FORMAT_TIMEOUT_MS,
		.nsid = p->nsid,
		/* the format in use, metadata and protection as they are: only the data goes */
		.lbaf = (__u8)(n->flbas & 0xf),
		.lbafu = (__u8)(n->flbas >> 4 & 3),
		.mset = n->metadata_extended ? NVME_FORMAT_MSET_EXTENDED : NVME_FORMAT_MSET_SEPARATE,
		.pi = (enum nvme_cmd_format_pi)(n->dps & 7),
		.pil = (n->dps & 8) ? NVME_FORMAT_PIL_FIRST : NVME_FORMAT_PIL_LAST,
		.ses = p->ses,
	};
	int ret;

	progress(o, -1, "nvme-format: the controller reports no progress; waiting for it");
	errno = 0;
	ret = nvme_format_nvm(&a);
	return ret ? nvme_fail(t->path, "nvme-format", ret, err, errlen) : 0;
}

/* Sleep ns, in slices, unless stopped. */
static bool nap(uint64_t ns, atomic_int *stop)
{
	const uint64_t slice = 50000000ull;

	while (ns) {
		uint64_t d = ns < slice ? ns : slice;
		if (stop && atomic_load(stop))
			return false;
		nanosleep(&(struct timespec){.tv_sec = (time_t)(d / 1000000000ull),
					     .tv_nsec = (long)(d % 1000000000ull)},
			  NULL);
		ns -= d;
	}
	return !(stop && atomic_load(stop));
}

static int run_sanitize(const struct target *t, const struct erase_plan *p,
			const struct purge_opts *o, char *err, size_t errlen)
{
	struct nvme_sanitize_nvm_args a = {
		.args_size = sizeof(a),
		.fd = t->fd,
		.sanact = p->sanact,
		.owpass = 1,
	};
	struct nvme_sanitize_log_page log;
	uint64_t poll = o->poll_ns ? o->poll_ns : SANITIZE_POLL_NS;
	double pct = 0;
	char msg[96];
	int ret;

	errno = 0;
	ret = nvme_sanitize_nvm(&a);
	if (ret)
		return nvme_fail(t->path, "nvme-sanitize", ret, err, errlen);
	for (;;) {
		unsigned status;

		errno = 0;
		ret = nvme_get_log_sanitize(t->fd, false, &log);
		if (ret)
			return nvme_fail(t->path, "reading the sanitize status log", ret, err,
					 errlen);
		status = le16toh(log.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK;
		if (status == NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS ||
		    status == NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS) {
			progress(o, 100, "nvme-sanitize: done");
			return 0;
		}
		if (status == NVME_SANITIZE_SSTAT_STATUS_COMPLETED_FAILED) {
			snprintf(err, errlen,
				 "%s: nvme-sanitize failed (sanitize status log); the drive stays in "
				 "a failed-sanitize state until a sanitize completes",
				 t->path);
			return -EIO;
		}
		pct = le16toh(log.sprog) * 100.0 / 65536;
		snprintf(msg, sizeof(msg), "nvme-sanitize: %.1f %%", pct);
		progress(o, pct, msg);
		if (!nap(poll, o->stop)) {
			snprintf(err, errlen,
				 "%s: stopped waiting for nvme-sanitize at %.1f %%: the drive goes on "
				 "sanitizing (it cannot be cancelled) and is not usable until it is "
				 "done; the purge is not complete",
				 t->path, pct);
			return -ECANCELED;
		}
	}
}

/* hdparm --user-master u OP PASSWORD DEV */
static int hdparm(const struct purge_opts *o, const char *dev, const char *op,
		  unsigned timeout_ms, char *err, size_t errlen)
{
	char *argv[] = {(char *)(o->hdparm ? o->hdparm : "hdparm"), "--user-master", "u",
			(char *)op, ATA_ERASE_PASSWORD, (char *)dev, NULL};
	struct child_output out;
	int ret;

	ret = child_run(argv, timeout_ms, TOOL_MAX_OUT, &out, err, errlen);
	if (ret == -ENOENT) {
		snprintf(err, errlen, "ata-secure-erase needs hdparm: hdparm not installed");
		return -ENOTSUP;
	}
	if (ret < 0)
		return ret;
	if (out.status != 0) {
		snprintf(err, errlen, "hdparm %s %s failed (exit %d)%s%s", op, dev, out.status,
			 out.err_line[0] ? ": " : "", out.err_line);
		ret = -EIO;
	}
	child_output_free(&out);
	return ret;
}

static int run_ata(const struct target *t, const struct erase_plan *p, const struct purge_opts *o,
		   char *err, size_t errlen)
{
	int ret = tool_path(t, err, errlen);

	if (ret < 0)
		return ret;
	progress(o, -1, "ata-secure-erase: the drive reports no progress; waiting for it");
	ret = hdparm(o, t->resolved, "--security-set-pass", TOOL_TIMEOUT_MS, err, errlen);
	if (ret < 0)
		return ret;
	ret = hdparm(o, t->resolved, p->enhanced ? "--security-erase-enhanced" : "--security-erase",
		     0, err, errlen);
	if (ret < 0) {
		size_t n = strlen(err);
		snprintf(err + n, errlen - n,
			 "; the drive's user password is now '" ATA_ERASE_PASSWORD
			 "': remove it with hdparm --user-master u --security-disable " ATA_ERASE_PASSWORD
			 " %s",
			 t->resolved);
	}
	return ret;
}

int purge_erase(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
		const struct purge_opts *o, struct purge_outcome *out, char *err, size_t errlen)
{
	struct erase_plan *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	ret = plan_erase(t, m, o, p, out, err, errlen);
	if (ret == 0) {
		switch (p->used) {
		case PURGE_NVME_SANITIZE:
			ret = run_sanitize(t, p, o, err, errlen);
			break;
		case PURGE_NVME_FORMAT:
			ret = run_format(t, p, o, err, errlen);
			break;
		case PURGE_ATA_ERASE:
			ret = run_ata(t, p, o, err, errlen);
			break;
		default:
			ret = purge_range(t, PURGE_DISCARD, start, len, o->stop, err, errlen);
			break;
		}
	}
	free(p);
	return ret;
}
