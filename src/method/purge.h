/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_PURGE_H
#define DB_PURGE_H
/*
 * Purge: return the target to a known state before preconditioning.
 *
 *	none              leave it as it is
 *	discard           block devices: BLKDISCARD of the range; files: punch a hole
 *	                  (fallocate PUNCH_HOLE | KEEP_SIZE)
 *	zeroout           block devices: BLKZEROOUT of the range; files: write zeroes over it
 *	nvme-format       NVMe Format NVM with Secure Erase: a cryptographic erase when the
 *	                  controller says it can (FNA bit 2), else a user data erase; the LBA
 *	                  format, metadata and protection settings in use are kept. It erases
 *	                  every namespace when FNA bit 0 or 1 says so.
 *	nvme-sanitize     NVMe Sanitize: block erase, else crypto erase, else overwrite (one
 *	                  pass), the first the controller supports (SANICAP). It always erases
 *	                  every namespace, and the drive keeps going when drivebench stops
 *	                  waiting; progress comes from the sanitize status log.
 *	ata-secure-erase  ATA SECURITY ERASE UNIT through hdparm (enhanced when supported),
 *	                  after smartctl has said the drive is not frozen and has no password.
 *	secure-erase      the strongest of the three that the drive supports: nvme-sanitize,
 *	                  then nvme-format, then ata-secure-erase; refused when none is.
 *	auto              secure-erase when one is supported, else discard.
 *
 * The secure erases erase the whole device, whatever range the preset gives. A file is
 * never grown or truncated: the range is clipped to the file's size.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define PURGE_METHODS(X)                                                                           \
	X(PURGE_NONE, "none")                                                                      \
	X(PURGE_DISCARD, "discard")                                                                \
	X(PURGE_ZEROOUT, "zeroout")                                                                \
	X(PURGE_NVME_FORMAT, "nvme-format")                                                        \
	X(PURGE_NVME_SANITIZE, "nvme-sanitize")                                                    \
	X(PURGE_ATA_ERASE, "ata-secure-erase")                                                     \
	X(PURGE_SECURE_ERASE, "secure-erase")                                                      \
	X(PURGE_AUTO, "auto")

#define PURGE_ENUM(id, name) id,
enum purge_method { PURGE_METHODS(PURGE_ENUM) PURGE_NMETHODS };
#undef PURGE_ENUM

extern const char *const purge_method_name[PURGE_NMETHODS];

/* By name; 0 or -EINVAL. */
int purge_method_parse(const char *s, enum purge_method *m);
/* One of the secure erases, or secure-erase / auto that may pick one. */
bool purge_method_erases_device(enum purge_method m);

/*
 * What an erase may reach beyond the target, as the operator's confirmation covers it. A
 * secure erase has a scope of its own: ATA SECURITY ERASE UNIT the whole disk; NVMe Format
 * NVM the namespace, or every namespace when the controller formats all (FNA); NVMe
 * Sanitize the whole NVM subsystem. An erase wider than what is granted is refused
 * (-EPERM, in words), and auto picks one that fits or falls back to discard, saying so.
 * A target that is a partition is never secure-erased: every secure erase is wider.
 */
enum purge_scope {
	PURGE_SCOPE_DEVICE = 0, /* the target device itself: a whole disk or one namespace */
	PURGE_SCOPE_SUBSYSTEM,  /* every namespace of its NVM subsystem (the controller confirmed) */
};

/* Progress of a long purge: pct in 0..100, or < 0 when the drive does not say. */
typedef void (*purge_progress_fn)(void *arg, double pct, const char *what);

struct purge_opts {
	atomic_int *stop;           /* polled between chunks and between sanitize polls */
	purge_progress_fn progress; /* may be NULL */
	void *arg;
	uint64_t poll_ns;           /* sanitize status log polls; 0: every second */
	const char *smartctl;       /* the tools, for tests; NULL: on PATH */
	const char *hdparm;
	const char *sys_root;       /* for the transport of a block device; NULL: /sys */
	enum purge_scope scope;     /* what an erase may reach (0: the target device only) */
};

/* What a purge did. */
struct purge_outcome {
	enum purge_method used;     /* what ran: auto and secure-erase resolve to a method */
	char detail[96];            /* "block erase", "crypto erase, all namespaces" */
	char fallback[256];         /* auto: why no secure erase was used, or "" */
	uint64_t elapsed_ns;
};

/*
 * The choice of auto or secure-erase (or the variant of an NVMe method) for the drive
 * behind t, without running it. 0, or -ENOTSUP (message in err) when m cannot run there.
 * all_namespaces: true when it erases every namespace of the controller.
 */
int purge_resolve(const struct target *t, enum purge_method m, const struct purge_opts *o,
		  struct purge_outcome *out, bool *all_namespaces, char *err, size_t errlen);

/*
 * Purge [start, start + len) of t, which must be open for writing (a secure erase: all of
 * the device). o and out may be NULL. Returns 0, -ECANCELED when stopped (an NVMe
 * sanitize goes on in the drive; err says so), or -errno with a message in err; an NVMe
 * command that fails with a status is -EIO, the status named in err.
 */
int purge_run(const struct target *t, enum purge_method m, uint64_t start, uint64_t len,
	      const struct purge_opts *o, struct purge_outcome *out, char *err, size_t errlen);

#endif
