/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_HEALTH_H
#define DB_HEALTH_H
/*
 * Drive health: one record per drive, filled from the tools of the field, never from
 * hand-rolled commands where one exists:
 *
 *   NVMe       libnvme on the controller's character device (/dev/nvme0; the namespace's
 *              block device when no controller node is found): identify controller and
 *              namespace (LBA formats, capacity, format / sanitize / crypto erase
 *              support), the SMART / health log, the sanitize status log and the
 *              firmware slot log;
 *   SATA, SAS  `smartctl -j -a DEVICE` (smartmontools) as a child process, bounded in
 *              time and output; "health: smartctl not installed" when it is missing;
 *   others     (virtio, loop, zram, md, dm, files) "no health data for this transport":
 *              a record with a note and no values, never an error.
 *
 * Values are one table of fields (HEALTH_FIELDS), each known or not: SATA and SAS fill the
 * ones their SMART attributes or log pages map to, NVMe nearly all. Units are in the
 * names: temperatures in degrees Celsius (NVMe reports kelvin), times in minutes or
 * seconds as the NVMe log counts them, data in bytes (NVMe data units are 512,000 bytes;
 * ATA "Total_LBAs_Written" counts 512-byte sectors).
 *
 * Strings read from a device (model, serial, firmware, slots) are untrusted: they are
 * stored in text.h's visible form (controls as "^[", bytes that are not UTF-8 and
 * invisible code points as U+FFFD), so that they print visibly and JSON stays valid
 * UTF-8.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct drive;
struct json_object;

#define HEALTH_FORMAT  "drivebench-health"
#define HEALTH_VERSION 1

/*
 * The fields, declared once: id, JSON key (the unit is in the name), the label people
 * read, and how a change over a run is judged (HEALTH_D_*: the deltas a result keeps).
 */
#define HEALTH_FIELDS(X)                                                                           \
	X(HF_CRITICAL_WARNING, "critical_warning", "critical warning bits")                      \
	X(HF_TEMP_C, "temperature_c", "temperature")                                 \
	X(HF_TEMP_SENSOR1_C, "temperature_sensor1_c", "temperature sensor 1")                    \
	X(HF_TEMP_SENSOR2_C, "temperature_sensor2_c", "temperature sensor 2")                    \
	X(HF_TEMP_SENSOR3_C, "temperature_sensor3_c", "temperature sensor 3")                    \
	X(HF_TEMP_SENSOR4_C, "temperature_sensor4_c", "temperature sensor 4")                    \
	X(HF_TEMP_SENSOR5_C, "temperature_sensor5_c", "temperature sensor 5")                    \
	X(HF_TEMP_SENSOR6_C, "temperature_sensor6_c", "temperature sensor 6")                    \
	X(HF_TEMP_SENSOR7_C, "temperature_sensor7_c", "temperature sensor 7")                    \
	X(HF_TEMP_SENSOR8_C, "temperature_sensor8_c", "temperature sensor 8")                    \
	X(HF_TEMP_LIMIT_C, "temperature_limit_c", "temperature limit")                           \
	X(HF_WARN_TEMP_MIN, "warning_temp_time_min", "time above warning temperature")          \
	X(HF_CRIT_TEMP_MIN, "critical_temp_time_min", "time above critical temperature")        \
	X(HF_TMT1_COUNT, "thermal_mgmt1_transitions", "thermal management 1 transitions")       \
	X(HF_TMT2_COUNT, "thermal_mgmt2_transitions", "thermal management 2 transitions")       \
	X(HF_TMT1_TIME_S, "thermal_mgmt1_time_s", "time in thermal management 1")               \
	X(HF_TMT2_TIME_S, "thermal_mgmt2_time_s", "time in thermal management 2")               \
	X(HF_PCT_USED, "percentage_used", "percentage used")                                     \
	X(HF_SPARE_PCT, "available_spare_pct", "available spare")                                \
	X(HF_SPARE_THRESH_PCT, "available_spare_threshold_pct", "available spare threshold")     \
	X(HF_DATA_READ_BYTES, "data_read_bytes", "data read")                                    \
	X(HF_DATA_WRITTEN_BYTES, "data_written_bytes", "data written")                           \
	X(HF_HOST_READS, "host_read_commands", "host read commands")                             \
	X(HF_HOST_WRITES, "host_write_commands", "host write commands")                          \
	X(HF_BUSY_MIN, "controller_busy_min", "controller busy time")                            \
	X(HF_POWER_ON_HOURS, "power_on_hours", "power-on hours")                                 \
	X(HF_POWER_CYCLES, "power_cycles", "power cycles")                                       \
	X(HF_UNSAFE_SHUTDOWNS, "unsafe_shutdowns", "unsafe shutdowns")                           \
	X(HF_MEDIA_ERRORS, "media_errors", "media and data integrity errors")                    \
	X(HF_ERROR_LOG_ENTRIES, "error_log_entries", "error log entries")                        \
	X(HF_REALLOCATED, "reallocated_sectors", "reallocated sectors")                          \
	X(HF_PENDING, "pending_sectors", "pending sectors")                                      \
	X(HF_UNCORRECTABLE, "offline_uncorrectable", "offline uncorrectable sectors")

enum health_field {
#define X(id, key, label) id,
	HEALTH_FIELDS(X)
#undef X
	HEALTH_NFIELDS
};
extern const char *const health_field_key[HEALTH_NFIELDS];
extern const char *const health_field_label[HEALTH_NFIELDS];

/* Critical warning bits (SMART / health log byte 0), declared once: bit, key. */
#define HEALTH_CRIT_BITS(X)                                                                        \
	X(0, "spare_below_threshold")                                                            \
	X(1, "temperature")                                                                      \
	X(2, "reliability_degraded")                                                             \
	X(3, "read_only")                                                                        \
	X(4, "volatile_backup_failed")                                                           \
	X(5, "pmr_read_only")

enum health_source { HEALTH_SRC_NONE, HEALTH_SRC_NVME, HEALTH_SRC_SMARTCTL };
extern const char *const health_source_name[]; /* "none", "nvme", "smartctl" */

#define HEALTH_MAX_LBAF 64
#define HEALTH_STR      128 /* a 40-byte device string in its visible form (3 bytes each at most) */

/* Sanitize status (SSTAT bits 2:0), by value. */
#define HEALTH_SANITIZE_STATES(X)                                                                  \
	X(0, "never sanitized")                                                                  \
	X(1, "completed")                                                                        \
	X(2, "in progress")                                                                      \
	X(3, "failed")                                                                           \
	X(4, "completed without deallocation")

struct health_lbaf {
	uint32_t data_bytes;       /* 2^LBADS */
	uint16_t metadata_bytes;
	uint8_t relative_perf;     /* 0 best .. 3 degraded */
};

struct health_nvme {
	/* identify controller */
	uint16_t vid;
	uint32_t nn;                /* namespaces the controller supports */
	uint64_t total_capacity;    /* TNVMCAP, bytes; 0 when not reported */
	uint8_t fna;                /* format NVM attributes */
	uint32_t sanicap;           /* sanitize capabilities */
	uint16_t oacs;              /* optional admin commands (bit 1: format, 2: firmware) */
	int warn_temp_c, crit_temp_c; /* WCTEMP, CCTEMP; 0 when not reported */
	bool format_supported;      /* OACS bit 1 */
	bool format_all_ns;         /* FNA bit 0: a format applies to every namespace */
	bool erase_all_ns;          /* FNA bit 1: a secure erase applies to every namespace */
	bool format_crypto;         /* FNA bit 2: format can crypto erase */
	bool sanitize_crypto, sanitize_block, sanitize_overwrite; /* SANICAP bits 0..2 */
	/* identify namespace */
	uint32_t nsid;
	uint64_t nsze, ncap, nuse;  /* blocks */
	unsigned nlbaf;             /* formats in lbaf[] */
	unsigned flbas;             /* the format in use (index into lbaf) */
	bool metadata_extended;     /* FLBAS bit 4 */
	uint8_t dps;                /* end-to-end protection settings */
	struct health_lbaf lbaf[HEALTH_MAX_LBAF];
	/* sanitize status log */
	bool sanitize_log;          /* it was read */
	uint16_t sprog;             /* progress of a sanitize in progress, /65536 */
	unsigned sanitize_status;   /* SSTAT bits 2:0 */
	uint32_t sanitize_cdw10;    /* SCDW10: the command of the last sanitize */
	unsigned sanitize_passes;   /* overwrite passes completed */
	bool global_data_erased;
	uint32_t est_overwrite_s, est_block_s, est_crypto_s; /* 0xffffffff: not reported */
	/* firmware slot log */
	bool fw_log;
	unsigned fw_slots;          /* FRMW bits 3:1 */
	bool fw_slot1_ro;
	unsigned fw_active, fw_next; /* AFI: slot running, slot at the next reset (0: none) */
	char fw_slot[7][HEALTH_STR]; /* revision per slot, "" when empty */
};

struct health {
	enum health_source source;
	char device[128];           /* the node asked: "/dev/nvme0" */
	char note[256];             /* why there is nothing, or what is missing; "" when complete */
	char taken[32];             /* ISO 8601 UTC */
	uint64_t taken_ns;          /* CLOCK_MONOTONIC, for rates between snapshots */
	char model[HEALTH_STR];
	char serial[HEALTH_STR];
	char firmware[HEALTH_STR];
	bool smart_passed_known, smart_passed; /* smartctl's overall assessment */
	uint64_t known;             /* bit f: v[f] holds a value */
	int64_t v[HEALTH_NFIELDS];
	struct health_nvme nvme;    /* source nvme */
};

static inline bool health_has(const struct health *h, enum health_field f)
{
	return h->known >> f & 1;
}
void health_set(struct health *h, enum health_field f, int64_t v);

/* Where to look and what to run; NULL members: the real /dev, "smartctl" on PATH. */
struct health_opts {
	const char *dev_root;
	const char *smartctl;       /* the command, for tests */
	unsigned timeout_ms;        /* for smartctl; 0: 30 s */
};

void health_init(struct health *h);

/*
 * Read the health of drive d (a discovery record). 0 with h filled, also when the
 * transport has no health data or smartctl is missing (h->note says so, h->source is
 * none); -errno when the drive could not be asked (h->note and err say why).
 */
int health_read(const struct drive *d, const struct health_opts *o, struct health *h,
		char *err, size_t errlen);

/*
 * NVMe through libnvme on an open descriptor (a controller or namespace node): identify
 * controller, identify namespace nsid (0: the one fd belongs to, or none for a
 * controller), SMART / health, sanitize status and firmware slot logs. 0 or -errno;
 * an NVMe status is reported as -EIO with the status in err.
 */
int health_read_nvme_fd(int fd, unsigned nsid, struct health *h, char *err, size_t errlen);

/* Only the SMART / health log (what changes during a run), on an open controller node. */
int health_read_smart_fd(int fd, struct health *h, char *err, size_t errlen);

/*
 * Fill h from `smartctl -j` output (ATA or SCSI). 0, or -EINVAL when it is not smartctl
 * JSON, with the reason (smartctl's own error message when it gave one) in err.
 */
int health_parse_smartctl(const char *json, size_t len, struct health *h, char *err,
			  size_t errlen);

/* The SMART / health log page (512 bytes, NVMe base specification layout) into h. */
void health_decode_smart_log(const void *log, struct health *h);

/* Is the time between two snapshots one in which the drive throttled? */
bool health_throttled(const struct health *before, const struct health *after);

/* s (slen bytes, padded or not) trimmed and in its visible form into dst (text.h). */
void health_sanitize(char *dst, size_t dstlen, const char *s, size_t slen);

/* The record as JSON (every field key present; null when unknown). */
struct json_object *health_to_json(const struct health *h);
/* The `drivebench health --json` document: format, version, tool, drives: [...]. */
struct json_object *health_doc_to_json(const struct health *const *hs, size_t n,
				       const char *tool_version);
/*
 * What changed between two snapshots (after - before) for the counters a run moves:
 * {"data_written_bytes": n, ..., "temperature_c": {"before", "after"}}; NULL when
 * either has no data.
 */
struct json_object *health_delta_json(const struct health *before, const struct health *after);

#endif
