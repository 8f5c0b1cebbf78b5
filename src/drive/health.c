// SPDX-License-Identifier: GPL-2.0-or-later
#include "health.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libnvme.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "drive.h"
#include "text.h"
#include "units.h"

#define SMARTCTL_TIMEOUT_MS 30000
#define SMARTCTL_MAX_OUT    (4u << 20) /* bytes: -a on a SAS drive is tens of KiB */
#define NVME_DATA_UNIT      512000ull  /* bytes: a data unit is 1000 512-byte units */

#define X(id, key, label) [id] = key,
const char *const health_field_key[HEALTH_NFIELDS] = {HEALTH_FIELDS(X)};
#undef X
#define X(id, key, label) [id] = label,
const char *const health_field_label[HEALTH_NFIELDS] = {HEALTH_FIELDS(X)};
#undef X
const char *const health_source_name[] = {"none", "nvme", "smartctl"};

static const char *sanitize_state_name(unsigned s)
{
	switch (s) {
#define X(v, name)                                                                                 \
	case v:                                                                                    \
		return name;
		HEALTH_SANITIZE_STATES(X)
#undef X
	}
	return "unknown";
}

void health_set(struct health *h, enum health_field f, int64_t v)
{
	h->v[f] = v;
	h->known |= 1ull << f;
}

void health_init(struct health *h)
{
	struct timespec ts;
	time_t now = time(NULL);

	memset(h, 0, sizeof(*h));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	h->taken_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	units_fmt_utc(h->taken, sizeof(h->taken), now);
}

/* ---- untrusted strings ---------------------------------------------------------------- */

void health_sanitize(char *dst, size_t dstlen, const char *src, size_t slen)
{
	char buf[HEALTH_STR + 4];
	size_t n = strnlen(src, slen);

	if (!dstlen)
		return;
	/* devices pad with spaces (ATA, NVMe) or NULs: trim both ends */
	while (n && (src[n - 1] == ' ' || src[n - 1] == '\0'))
		n--;
	while (n && src[0] == ' ')
		src++, n--;
	/*
	 * Every byte shows as at least one, so dstlen bytes of input (and the rest of a
	 * character begun inside them) are all that can fit: text.h's visible form of those.
	 */
	if (n > dstlen + 3)
		n = dstlen + 3;
	if (n > sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	memcpy(buf, src, n);
	buf[n] = '\0';
	text_visible(dst, dstlen, buf);
}

/* ---- NVMe ----------------------------------------------------------------------------- */

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A 128-bit little-endian counter, saturated at INT64_MAX (no drive gets there). */
static int64_t get_le128(const uint8_t *p)
{
	uint64_t lo = 0;

	for (int i = 15; i >= 8; i--)
		if (p[i])
			return INT64_MAX;
	for (int i = 7; i >= 0; i--)
		lo = lo << 8 | p[i];
	return lo > INT64_MAX ? INT64_MAX : (int64_t)lo;
}

static int64_t mul_sat(int64_t v, uint64_t m)
{
	return v > (int64_t)(INT64_MAX / m) ? INT64_MAX : v * (int64_t)m;
}

/* A number smartctl printed (a double, any size) as a count, saturated, never overflowing. */
static int64_t sat_i64(double v)
{
	return v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)v;
}

/* Byte offsets of the SMART / Health Information log (log identifier 02h). */
enum {
	SL_CRIT = 0, SL_TEMP = 1, SL_SPARE = 3, SL_SPARE_THRESH = 4, SL_PCT_USED = 5,
	SL_DATA_READ = 32, SL_DATA_WRITTEN = 48, SL_HOST_READS = 64, SL_HOST_WRITES = 80,
	SL_BUSY = 96, SL_POWER_CYCLES = 112, SL_POH = 128, SL_UNSAFE = 144, SL_MEDIA = 160,
	SL_ERR_ENTRIES = 176, SL_WARN_TIME = 192, SL_CRIT_TIME = 196, SL_SENSORS = 200,
	SL_TMT1_COUNT = 216, SL_TMT2_COUNT = 220, SL_TMT1_TIME = 224, SL_TMT2_TIME = 228,
};

void health_decode_smart_log(const void *log, struct health *h)
{
	const uint8_t *p = log;
	static const struct {
		enum health_field f;
		unsigned off;
		uint64_t mul;
	} counters[] = {
		{HF_DATA_READ_BYTES, SL_DATA_READ, NVME_DATA_UNIT},
		{HF_DATA_WRITTEN_BYTES, SL_DATA_WRITTEN, NVME_DATA_UNIT},
		{HF_HOST_READS, SL_HOST_READS, 1},
		{HF_HOST_WRITES, SL_HOST_WRITES, 1},
		{HF_BUSY_MIN, SL_BUSY, 1},
		{HF_POWER_CYCLES, SL_POWER_CYCLES, 1},
		{HF_POWER_ON_HOURS, SL_POH, 1},
		{HF_UNSAFE_SHUTDOWNS, SL_UNSAFE, 1},
		{HF_MEDIA_ERRORS, SL_MEDIA, 1},
		{HF_ERROR_LOG_ENTRIES, SL_ERR_ENTRIES, 1},
	};
	static const struct {
		enum health_field f;
		unsigned off;
	} dwords[] = {
		{HF_WARN_TEMP_MIN, SL_WARN_TIME},   {HF_CRIT_TEMP_MIN, SL_CRIT_TIME},
		{HF_TMT1_COUNT, SL_TMT1_COUNT},     {HF_TMT2_COUNT, SL_TMT2_COUNT},
		{HF_TMT1_TIME_S, SL_TMT1_TIME},     {HF_TMT2_TIME_S, SL_TMT2_TIME},
	};
	uint16_t k;

	health_set(h, HF_CRITICAL_WARNING, p[SL_CRIT]);
	k = get_le16(p + SL_TEMP);
	if (k)
		health_set(h, HF_TEMP_C, (int64_t)k - 273);
	for (int i = 0; i < 8; i++) {
		k = get_le16(p + SL_SENSORS + 2 * i);
		if (k) /* 0: the sensor is not implemented */
			health_set(h, (enum health_field)(HF_TEMP_SENSOR1_C + i), (int64_t)k - 273);
	}
	health_set(h, HF_SPARE_PCT, p[SL_SPARE]);
	health_set(h, HF_SPARE_THRESH_PCT, p[SL_SPARE_THRESH]);
	health_set(h, HF_PCT_USED, p[SL_PCT_USED]);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		health_set(h, counters[i].f, mul_sat(get_le128(p + counters[i].off), counters[i].mul));
	for (size_t i = 0; i < sizeof(dwords) / sizeof(dwords[0]); i++)
		health_set(h, dwords[i].f, get_le32(p + dwords[i].off));
}

static void nvme_status_msg(char *err, size_t errlen, const char *what, int ret)
{
	if (ret > 0)
		snprintf(err, errlen, "%s: NVMe status 0x%x (%s)", what, (unsigned)ret,
			 nvme_status_to_string(ret, false));
	else
		snprintf(err, errlen, "%s: %s", what, strerror(errno ? errno : EIO));
}

static int kelvin_to_c(uint16_t k)
{
	return k ? (int)k - 273 : 0;
}

static void decode_id_ctrl(const struct nvme_id_ctrl *c, struct health *h)
{
	struct health_nvme *n = &h->nvme;
	uint32_t sanicap = le32toh(c->sanicap);

	health_sanitize(h->model, sizeof(h->model), c->mn, sizeof(c->mn));
	health_sanitize(h->serial, sizeof(h->serial), c->sn, sizeof(c->sn));
	health_sanitize(h->firmware, sizeof(h->firmware), c->fr, sizeof(c->fr));
	n->vid = le16toh(c->vid);
	n->oacs = le16toh(c->oacs);
	n->nn = le32toh(c->nn);
	n->total_capacity = (uint64_t)get_le128(c->tnvmcap);
	n->fna = c->fna;
	n->sanicap = sanicap;
	n->warn_temp_c = kelvin_to_c(le16toh(c->wctemp));
	n->crit_temp_c = kelvin_to_c(le16toh(c->cctemp));
	if (n->warn_temp_c)
		health_set(h, HF_TEMP_LIMIT_C, n->warn_temp_c);
	n->format_supported = n->oacs & NVME_CTRL_OACS_FORMAT;
	n->format_all_ns = c->fna & NVME_CTRL_FNA_FMT_ALL_NAMESPACES;
	n->erase_all_ns = c->fna & NVME_CTRL_FNA_SEC_ALL_NAMESPACES;
	n->format_crypto = c->fna & NVME_CTRL_FNA_CRYPTO_ERASE;
	n->sanitize_crypto = sanicap & NVME_CTRL_SANICAP_CES;
	n->sanitize_block = sanicap & NVME_CTRL_SANICAP_BES;
	n->sanitize_overwrite = sanicap & NVME_CTRL_SANICAP_OWS;
	n->fw_slots = (c->frmw >> 1) & 7;
	n->fw_slot1_ro = c->frmw & 1;
}

static void decode_id_ns(const struct nvme_id_ns *ns, unsigned nsid, struct health *h)
{
	struct health_nvme *n = &h->nvme;

	n->nsid = nsid;
	n->nsze = le64toh(ns->nsze);
	n->ncap = le64toh(ns->ncap);
	n->nuse = le64toh(ns->nuse);
	n->nlbaf = (unsigned)ns->nlbaf + 1; /* NLBAF is 0-based */
	if (n->nlbaf > HEALTH_MAX_LBAF)
		n->nlbaf = HEALTH_MAX_LBAF;
	n->flbas = (ns->flbas & 0xf) | ((ns->flbas >> 5 & 3) << 4);
	n->metadata_extended = ns->flbas & 0x10;
	n->dps = ns->dps;
	for (unsigned i = 0; i < n->nlbaf; i++) {
		n->lbaf[i].data_bytes = ns->lbaf[i].ds < 32 ? 1u << ns->lbaf[i].ds : 0;
		n->lbaf[i].metadata_bytes = le16toh(ns->lbaf[i].ms);
		n->lbaf[i].relative_perf = ns->lbaf[i].rp & 3;
	}
}

static void decode_sanitize_log(const struct nvme_sanitize_log_page *s, struct health_nvme *n)
{
	uint16_t sstat = le16toh(s->sstat);

	n->sanitize_log = true;
	n->sprog = le16toh(s->sprog);
	n->sanitize_status = sstat & NVME_SANITIZE_SSTAT_STATUS_MASK;
	n->sanitize_cdw10 = le32toh(s->scdw10);
	n->sanitize_passes = (sstat >> NVME_SANITIZE_SSTAT_COMPLETED_PASSES_SHIFT) &
			     NVME_SANITIZE_SSTAT_COMPLETED_PASSES_MASK;
	n->global_data_erased = (sstat >> NVME_SANITIZE_SSTAT_GLOBAL_DATA_ERASED_SHIFT) &
				NVME_SANITIZE_SSTAT_GLOBAL_DATA_ERASED_MASK;
	n->est_overwrite_s = le32toh(s->eto);
	n->est_block_s = le32toh(s->etbe);
	n->est_crypto_s = le32toh(s->etce);
}

static void decode_fw_log(const struct nvme_firmware_slot *f, struct health_nvme *n)
{
	n->fw_log = true;
	n->fw_active = f->afi & 7;
	n->fw_next = f->afi >> 4 & 7;
	for (int i = 0; i < 7; i++)
		health_sanitize(n->fw_slot[i], sizeof(n->fw_slot[i]), f->frs[i], sizeof(f->frs[i]));
}

static void add_note(struct health *h, const char *what)
{
	size_t n = strlen(h->note);

	snprintf(h->note + n, sizeof(h->note) - n, "%s%s", n ? "; " : "", what);
}

int health_read_nvme_fd(int fd, unsigned nsid, struct health *h, char *err, size_t errlen)
{
	struct nvme_id_ctrl ctrl;
	struct nvme_id_ns ns;
	struct nvme_smart_log smart;
	struct nvme_sanitize_log_page san;
	struct nvme_firmware_slot fw;
	char msg[256];
	int ret;

	h->source = HEALTH_SRC_NVME;
	errno = 0;
	ret = nvme_identify_ctrl(fd, &ctrl);
	if (ret) {
		nvme_status_msg(err, errlen, "identify controller", ret);
		snprintf(h->note, sizeof(h->note), "%s", err);
		return ret > 0 ? -EIO : -(errno ? errno : EIO);
	}
	decode_id_ctrl(&ctrl, h);
	if (!nsid) {
		__u32 id;
		if (nvme_get_nsid(fd, &id) == 0)
			nsid = id;
	}
	if (nsid) {
		ret = nvme_identify_ns(fd, nsid, &ns);
		if (ret == 0) {
			decode_id_ns(&ns, nsid, h);
		} else {
			nvme_status_msg(msg, sizeof(msg), "identify namespace", ret);
			add_note(h, msg);
		}
	}
	ret = nvme_get_log_smart(fd, NVME_NSID_ALL, false, &smart);
	if (ret) {
		nvme_status_msg(err, errlen, "SMART / health log", ret);
		snprintf(h->note, sizeof(h->note), "%s", err);
		return ret > 0 ? -EIO : -(errno ? errno : EIO);
	}
	health_decode_smart_log(&smart, h);
	/* the sanitize log is mandatory only where sanitize is supported */
	if (h->nvme.sanicap & 7) {
		ret = nvme_get_log_sanitize(fd, false, &san);
		if (ret == 0) {
			decode_sanitize_log(&san, &h->nvme);
		} else {
			nvme_status_msg(msg, sizeof(msg), "sanitize status log", ret);
			add_note(h, msg);
		}
	}
	ret = nvme_get_log_fw_slot(fd, false, &fw);
	if (ret == 0) {
		decode_fw_log(&fw, &h->nvme);
	} else {
		nvme_status_msg(msg, sizeof(msg), "firmware slot log", ret);
		add_note(h, msg);
	}
	return 0;
}

int health_read_smart_fd(int fd, struct health *h, char *err, size_t errlen)
{
	struct nvme_smart_log smart;
	int ret;

	errno = 0;
	ret = nvme_get_log_smart(fd, NVME_NSID_ALL, false, &smart);
	if (ret) {
		nvme_status_msg(err, errlen, "SMART / health log", ret);
		return ret > 0 ? -EIO : -(errno ? errno : EIO);
	}
	h->source = HEALTH_SRC_NVME;
	health_decode_smart_log(&smart, h);
	return 0;
}

static int read_nvme(const struct drive *d, const struct health_opts *o, struct health *h,
		     char *err, size_t errlen)
{
	const char *dev = o && o->dev_root ? o->dev_root : "/dev";
	int fd, ret;

	if (d->nvme.controller[0])
		snprintf(h->device, sizeof(h->device), "%s/%s", dev, d->nvme.controller);
	else
		snprintf(h->device, sizeof(h->device), "%s/%s", dev, d->name);
	fd = open(h->device, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "health: %s: %s%s", h->device, strerror(-ret),
			 ret == -EACCES || ret == -EPERM ? " (NVMe admin commands need root)" : "");
		snprintf(h->note, sizeof(h->note), "%s", err);
		return ret;
	}
	ret = health_read_nvme_fd(fd, d->nvme.nsid, h, err, errlen);
	close(fd);
	if (ret == -EACCES || ret == -EPERM) {
		snprintf(err, errlen, "health: %s: NVMe admin commands need root", h->device);
		snprintf(h->note, sizeof(h->note), "%s", err);
	}
	return ret;
}

/* ---- smartctl ------------------------------------------------------------------------- */

static struct json_object *jget(struct json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

/*
 * A finite number at path (smartctl writes some as strings: "gigabytes_processed":
 * "12.345"; "nan" or "inf" there is no number).
 */
static bool jnum(struct json_object *o, const char *path, double *out)
{
	struct json_object *v = jget(o, path);
	char *end;

	if (!v)
		return false;
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
		*out = json_object_get_double(v);
		return isfinite(*out);
	}
	if (json_object_is_type(v, json_type_string)) {
		*out = strtod(json_object_get_string(v), &end);
		return end != json_object_get_string(v) && isfinite(*out);
	}
	return false;
}

static void jstr(struct json_object *o, const char *path, char *dst, size_t len)
{
	struct json_object *v = jget(o, path);

	if (v && json_object_is_type(v, json_type_string))
		health_sanitize(dst, len, json_object_get_string(v),
				(size_t)json_object_get_string_len(v));
}

static void set_num(struct health *h, enum health_field f, struct json_object *o,
		    const char *path)
{
	double v;

	if (jnum(o, path, &v))
		health_set(h, f, sat_i64(v));
}

/*
 * ATA SMART attributes that map onto the record, by smartctl's attribute name (its drive
 * database names the vendor's meaning, which the id alone does not give): what they
 * fill and how the raw or normalised value converts.
 */
enum attr_use { A_RAW, A_RAW_X, A_WEAR_LEFT };
static const struct {
	const char *name;
	enum health_field f;
	enum attr_use use;
	uint64_t mul; /* A_RAW_X: bytes per raw unit */
} ata_attrs[] = {
	{"Reallocated_Sector_Ct", HF_REALLOCATED, A_RAW, 1},
	{"Current_Pending_Sector", HF_PENDING, A_RAW, 1},
	{"Offline_Uncorrectable", HF_UNCORRECTABLE, A_RAW, 1},
	{"Unsafe_Shutdown_Count", HF_UNSAFE_SHUTDOWNS, A_RAW, 1},
	{"POR_Recovery_Count", HF_UNSAFE_SHUTDOWNS, A_RAW, 1},
	{"Total_LBAs_Written", HF_DATA_WRITTEN_BYTES, A_RAW_X, 512},
	{"Total_LBAs_Read", HF_DATA_READ_BYTES, A_RAW_X, 512},
	{"Host_Writes_32MiB", HF_DATA_WRITTEN_BYTES, A_RAW_X, 32ull << 20},
	{"Host_Reads_32MiB", HF_DATA_READ_BYTES, A_RAW_X, 32ull << 20},
	{"Host_Writes_GiB", HF_DATA_WRITTEN_BYTES, A_RAW_X, 1ull << 30},
	{"Host_Reads_GiB", HF_DATA_READ_BYTES, A_RAW_X, 1ull << 30},
	{"Lifetime_Writes_GiB", HF_DATA_WRITTEN_BYTES, A_RAW_X, 1ull << 30},
	{"Wear_Leveling_Count", HF_PCT_USED, A_WEAR_LEFT, 0},
	{"Media_Wearout_Indicator", HF_PCT_USED, A_WEAR_LEFT, 0},
	{"SSD_Life_Left", HF_PCT_USED, A_WEAR_LEFT, 0},
	{"Percent_Lifetime_Remain", HF_PCT_USED, A_WEAR_LEFT, 0},
	{"Remaining_Lifetime_Perc", HF_PCT_USED, A_WEAR_LEFT, 0},
};

/* The array at path in o (*arr) and its length; 0 when there is none. */
static size_t jarray(struct json_object *o, const char *path, struct json_object **arr)
{
	*arr = jget(o, path);
	return *arr && json_object_is_type(*arr, json_type_array) ? json_object_array_length(*arr)
								  : 0;
}

/* A table entry's "name", or "" (smartctl's attribute and statistics tables). */
static const char *jname(struct json_object *entry)
{
	struct json_object *name = jget(entry, "name");

	return name && json_object_is_type(name, json_type_string) ? json_object_get_string(name)
								   : "";
}

static void parse_ata_attrs(struct json_object *root, struct health *h)
{
	struct json_object *table;
	size_t n = jarray(root, "ata_smart_attributes.table", &table);

	for (size_t i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(table, i);
		const char *name = jname(a);
		double raw, value;

		for (size_t k = 0; k < sizeof(ata_attrs) / sizeof(ata_attrs[0]); k++) {
			if (strcmp(name, ata_attrs[k].name))
				continue;
			if (ata_attrs[k].use == A_WEAR_LEFT) {
				if (jnum(a, "value", &value) && value >= 0 && value <= 100)
					health_set(h, ata_attrs[k].f, 100 - (int64_t)value);
			} else if (jnum(a, "raw.value", &raw) && raw >= 0) {
				uint64_t mul = ata_attrs[k].use == A_RAW_X ? ata_attrs[k].mul : 1;
				health_set(h, ata_attrs[k].f, mul_sat(sat_i64(raw), mul));
			}
		}
	}
}

/*
 * ATA Device Statistics (smartctl -l devstat), the Temperature Statistics page: the
 * minutes the drive ran above its specified maximum operating temperature (the SATA
 * counterpart of NVMe's warning temperature time) and that maximum. An entry carries
 * "value" only when the drive marks it valid.
 */
static void parse_ata_devstat(struct json_object *root, struct health *h)
{
	struct json_object *pages, *table;
	size_t np = jarray(root, "ata_device_statistics.pages", &pages);

	for (size_t i = 0; i < np; i++) {
		struct json_object *page = json_object_array_get_idx(pages, i);
		size_t n = jarray(page, "table", &table);
		double num, v;

		if (!jnum(page, "number", &num) || num != 5)
			continue;
		for (size_t k = 0; k < n; k++) {
			struct json_object *e = json_object_array_get_idx(table, k);

			if (!jnum(e, "value", &v) || v < 0)
				continue;
			if (!strcmp(jname(e), "Time in Over-Temperature"))
				health_set(h, HF_WARN_TEMP_MIN, sat_i64(v));
			else if (!strcmp(jname(e), "Specified Maximum Operating Temperature") &&
				 v > 0 && v < 200)
				health_set(h, HF_TEMP_LIMIT_C, (int64_t)v);
		}
	}
}

static void parse_scsi(struct json_object *root, struct health *h)
{
	double r = 0, w = 0, v;
	bool have = false;

	set_num(h, HF_PCT_USED, root, "scsi_percentage_used_endurance_indicator");
	set_num(h, HF_TEMP_LIMIT_C, root, "temperature.drive_trip");
	set_num(h, HF_REALLOCATED, root, "scsi_grown_defect_list");
	set_num(h, HF_POWER_CYCLES, root, "scsi_start_stop_cycle_counter.accumulated_start_stop_cycles");
	if (jnum(root, "scsi_error_counter_log.read.gigabytes_processed", &v) && v >= 0)
		health_set(h, HF_DATA_READ_BYTES, sat_i64(v * 1e9));
	if (jnum(root, "scsi_error_counter_log.write.gigabytes_processed", &v) && v >= 0)
		health_set(h, HF_DATA_WRITTEN_BYTES, sat_i64(v * 1e9));
	if (jnum(root, "scsi_error_counter_log.read.total_uncorrected_errors", &r))
		have = true;
	if (jnum(root, "scsi_error_counter_log.write.total_uncorrected_errors", &w))
		have = true;
	if (have)
		health_set(h, HF_MEDIA_ERRORS, sat_i64(r + w));
}

int health_parse_smartctl(const char *json, size_t len, struct health *h, char *err,
			  size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root, *msgs, *proto;
	char model[HEALTH_STR] = "";

	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	if (!root || !jget(root, "smartctl")) {
		snprintf(err, errlen, "smartctl did not answer in JSON (smartmontools 7.0 or later "
				      "is needed for -j)");
		json_object_put(root);
		return -EINVAL;
	}
	h->source = HEALTH_SRC_SMARTCTL;
	jstr(root, "model_name", model, sizeof(model));
	if (!model[0])
		jstr(root, "scsi_model_name", model, sizeof(model));
	snprintf(h->model, sizeof(h->model), "%s", model);
	jstr(root, "serial_number", h->serial, sizeof(h->serial));
	jstr(root, "firmware_version", h->firmware, sizeof(h->firmware));
	if (!h->firmware[0])
		jstr(root, "scsi_revision", h->firmware, sizeof(h->firmware));
	if (jget(root, "smart_status.passed")) {
		h->smart_passed_known = true;
		h->smart_passed = json_object_get_boolean(jget(root, "smart_status.passed"));
	}
	set_num(h, HF_TEMP_C, root, "temperature.current");
	set_num(h, HF_POWER_ON_HOURS, root, "power_on_time.hours");
	set_num(h, HF_POWER_CYCLES, root, "power_cycle_count");
	proto = jget(root, "device.protocol");
	if (proto && !strcmp(json_object_get_string(proto), "SCSI")) {
		parse_scsi(root, h);
	} else {
		parse_ata_attrs(root, h);
		parse_ata_devstat(root, h);
	}
	/* smartctl's own complaint, when it had one and found nothing */
	msgs = jget(root, "smartctl.messages");
	if (msgs && json_object_is_type(msgs, json_type_array) && !h->known && !h->model[0]) {
		struct json_object *m = json_object_array_get_idx(msgs, 0);
		char text[200] = "";
		jstr(m, "string", text, sizeof(text));
		snprintf(err, errlen, "smartctl: %s", text[0] ? text : "no data");
		snprintf(h->note, sizeof(h->note), "%s", err);
		json_object_put(root);
		return -EIO;
	}
	json_object_put(root);
	return 0;
}

static int read_smartctl(const struct drive *d, const struct health_opts *o, struct health *h,
			 char *err, size_t errlen)
{
	const char *tool = o && o->smartctl ? o->smartctl : "smartctl";
	const char *dev = o && o->dev_root ? o->dev_root : "/dev";
	unsigned timeout = o && o->timeout_ms ? o->timeout_ms : SMARTCTL_TIMEOUT_MS;
	struct child_output out;
	/* -l devstat: ATA's temperature statistics (time over temperature); SCSI ignores it */
	char *argv[] = {(char *)tool, "-j", "-a", "-l", "devstat", h->device, NULL};
	int ret;

	snprintf(h->device, sizeof(h->device), "%s/%s", dev, d->name);
	ret = child_run(argv, timeout, SMARTCTL_MAX_OUT, &out, err, errlen);
	if (ret == -ENOENT) {
		snprintf(h->note, sizeof(h->note), "health: smartctl not installed");
		return 0;
	}
	if (ret < 0) {
		snprintf(h->note, sizeof(h->note), "health: %s", err);
		return ret;
	}
	if (out.truncated) {
		snprintf(err, errlen, "health: smartctl said more than %u MiB; not read",
			 SMARTCTL_MAX_OUT >> 20);
		ret = -EFBIG;
	} else {
		ret = health_parse_smartctl(out.out, out.out_len, h, err, errlen);
		if (ret == -EINVAL && out.err_line[0])
			snprintf(err, errlen, "smartctl: %s", out.err_line);
	}
	if (ret < 0)
		snprintf(h->note, sizeof(h->note), "%s", err);
	child_output_free(&out);
	return ret;
}

int health_read(const struct drive *d, const struct health_opts *o, struct health *h,
		char *err, size_t errlen)
{
	health_init(h);
	switch (d->transport) {
	case DRIVE_TR_NVME:
		return read_nvme(d, o, h, err, errlen);
	case DRIVE_TR_SATA:
	case DRIVE_TR_SAS:
	case DRIVE_TR_SCSI:
	case DRIVE_TR_USB:
		return read_smartctl(d, o, h, err, errlen);
	default:
		snprintf(h->device, sizeof(h->device), "%s/%s",
			 o && o->dev_root ? o->dev_root : "/dev", d->name);
		snprintf(h->note, sizeof(h->note), "no health data for this transport (%s)",
			 drive_transport_name(d->transport));
		return 0;
	}
}

/* ---- judging and JSON ----------------------------------------------------------------- */

bool health_throttled(const struct health *b, const struct health *a)
{
	static const enum health_field rising[] = {HF_TMT1_COUNT, HF_TMT2_COUNT, HF_TMT1_TIME_S,
						   HF_TMT2_TIME_S, HF_WARN_TEMP_MIN,
						   HF_CRIT_TEMP_MIN};

	for (size_t i = 0; i < sizeof(rising) / sizeof(rising[0]); i++)
		if (health_has(b, rising[i]) && health_has(a, rising[i]) &&
		    a->v[rising[i]] > b->v[rising[i]])
			return true;
	return false;
}

static struct json_object *lbaf_json(const struct health_nvme *n)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < n->nlbaf; i++) {
		struct json_object *f = json_object_new_object();
		json_object_object_add(f, "index", json_object_new_int((int)i));
		json_object_object_add(f, "data_bytes", json_object_new_int64(n->lbaf[i].data_bytes));
		json_object_object_add(f, "metadata_bytes",
				       json_object_new_int(n->lbaf[i].metadata_bytes));
		json_object_object_add(f, "relative_performance",
				       json_object_new_int(n->lbaf[i].relative_perf));
		json_object_object_add(f, "in_use", json_object_new_boolean(i == n->flbas));
		json_object_array_add(arr, f);
	}
	return arr;
}

static struct json_object *nvme_json(const struct health_nvme *n)
{
	struct json_object *o = json_object_new_object(), *c, *ns, *san, *fw, *slots;
	char hex[16];

	c = json_object_new_object();
	snprintf(hex, sizeof(hex), "%04x", n->vid);
	json_object_object_add(c, "vid", json_object_new_string(hex));
	json_object_object_add(c, "namespaces", json_object_new_int64(n->nn));
	json_object_object_add(c, "total_capacity_bytes", json_object_new_uint64(n->total_capacity));
	json_object_object_add(c, "warning_temp_c", n->warn_temp_c ? json_object_new_int(n->warn_temp_c) : NULL);
	json_object_object_add(c, "critical_temp_c", n->crit_temp_c ? json_object_new_int(n->crit_temp_c) : NULL);
	json_object_object_add(c, "format_supported", json_object_new_boolean(n->format_supported));
	json_object_object_add(c, "format_all_namespaces", json_object_new_boolean(n->format_all_ns));
	json_object_object_add(c, "secure_erase_all_namespaces", json_object_new_boolean(n->erase_all_ns));
	json_object_object_add(c, "format_crypto_erase", json_object_new_boolean(n->format_crypto));
	json_object_object_add(c, "sanitize_crypto_erase", json_object_new_boolean(n->sanitize_crypto));
	json_object_object_add(c, "sanitize_block_erase", json_object_new_boolean(n->sanitize_block));
	json_object_object_add(c, "sanitize_overwrite", json_object_new_boolean(n->sanitize_overwrite));
	json_object_object_add(o, "controller", c);

	if (n->nsid) {
		ns = json_object_new_object();
		json_object_object_add(ns, "nsid", json_object_new_int64(n->nsid));
		json_object_object_add(ns, "size_blocks", json_object_new_uint64(n->nsze));
		json_object_object_add(ns, "capacity_blocks", json_object_new_uint64(n->ncap));
		json_object_object_add(ns, "utilization_blocks", json_object_new_uint64(n->nuse));
		json_object_object_add(ns, "lba_format", json_object_new_int((int)n->flbas));
		json_object_object_add(ns, "block_bytes",
				       json_object_new_int64(n->flbas < n->nlbaf ? n->lbaf[n->flbas].data_bytes : 0));
		json_object_object_add(ns, "metadata_extended", json_object_new_boolean(n->metadata_extended));
		json_object_object_add(ns, "protection", json_object_new_int(n->dps & 7));
		json_object_object_add(ns, "lba_formats", lbaf_json(n));
		json_object_object_add(o, "namespace", ns);
	} else {
		json_object_object_add(o, "namespace", NULL);
	}

	if (n->sanitize_log) {
		san = json_object_new_object();
		json_object_object_add(san, "status", json_object_new_string(sanitize_state_name(n->sanitize_status)));
		json_object_object_add(san, "progress_pct",
				       json_object_new_double(n->sanitize_status == 2 ? n->sprog * 100.0 / 65536 : 100.0));
		json_object_object_add(san, "overwrite_passes", json_object_new_int((int)n->sanitize_passes));
		json_object_object_add(san, "global_data_erased", json_object_new_boolean(n->global_data_erased));
#define EST(key, v) json_object_object_add(san, key, (v) == 0xffffffffu ? NULL : json_object_new_int64(v))
		EST("estimated_overwrite_s", n->est_overwrite_s);
		EST("estimated_block_erase_s", n->est_block_s);
		EST("estimated_crypto_erase_s", n->est_crypto_s);
#undef EST
		json_object_object_add(o, "sanitize", san);
	} else {
		json_object_object_add(o, "sanitize", NULL);
	}

	if (n->fw_log) {
		fw = json_object_new_object();
		json_object_object_add(fw, "slots", json_object_new_int((int)n->fw_slots));
		json_object_object_add(fw, "slot1_read_only", json_object_new_boolean(n->fw_slot1_ro));
		json_object_object_add(fw, "active_slot", json_object_new_int((int)n->fw_active));
		json_object_object_add(fw, "next_slot", n->fw_next ? json_object_new_int((int)n->fw_next) : NULL);
		slots = json_object_new_array();
		for (unsigned i = 0; i < 7 && i < (n->fw_slots ? n->fw_slots : 7); i++)
			json_object_array_add(slots, n->fw_slot[i][0] ? json_object_new_string(n->fw_slot[i]) : NULL);
		json_object_object_add(fw, "revisions", slots);
		json_object_object_add(o, "firmware", fw);
	} else {
		json_object_object_add(o, "firmware", NULL);
	}
	return o;
}

static struct json_object *crit_json(const struct health *h)
{
	struct json_object *o;
	int64_t v = h->v[HF_CRITICAL_WARNING];

	if (!health_has(h, HF_CRITICAL_WARNING))
		return NULL;
	o = json_object_new_object();
#define X(bit, key) json_object_object_add(o, key, json_object_new_boolean(v >> (bit) & 1));
	HEALTH_CRIT_BITS(X)
#undef X
	return o;
}

struct json_object *health_to_json(const struct health *h)
{
	struct json_object *o = json_object_new_object(), *vals;

	if (!o)
		return NULL;
	json_object_object_add(o, "device", json_object_new_string(h->device));
	json_object_object_add(o, "source", json_object_new_string(health_source_name[h->source]));
	json_object_object_add(o, "note", h->note[0] ? json_object_new_string(h->note) : NULL);
	json_object_object_add(o, "taken", json_object_new_string(h->taken));
	json_object_object_add(o, "model", json_object_new_string(h->model));
	json_object_object_add(o, "serial", json_object_new_string(h->serial));
	json_object_object_add(o, "firmware", json_object_new_string(h->firmware));
	json_object_object_add(o, "smart_passed",
			       h->smart_passed_known ? json_object_new_boolean(h->smart_passed) : NULL);
	vals = json_object_new_object();
	for (int f = 0; f < HEALTH_NFIELDS; f++)
		json_object_object_add(vals, health_field_key[f],
				       health_has(h, (enum health_field)f) ? json_object_new_int64(h->v[f]) : NULL);
	json_object_object_add(o, "values", vals);
	json_object_object_add(o, "critical_warnings", crit_json(h));
	json_object_object_add(o, "nvme", h->source == HEALTH_SRC_NVME && h->known ? nvme_json(&h->nvme) : NULL);
	return o;
}

struct json_object *health_doc_to_json(const struct health *const *hs, size_t n,
				       const char *tool_version)
{
	struct json_object *doc = json_object_new_object(), *tool, *arr;

	if (!doc)
		return NULL;
	json_object_object_add(doc, "format", json_object_new_string(HEALTH_FORMAT));
	json_object_object_add(doc, "version", json_object_new_int(HEALTH_VERSION));
	tool = json_object_new_object();
	json_object_object_add(tool, "name", json_object_new_string("drivebench"));
	json_object_object_add(tool, "version", json_object_new_string(tool_version));
	json_object_object_add(doc, "tool", tool);
	arr = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, health_to_json(hs[i]));
	json_object_object_add(doc, "drives", arr);
	return doc;
}

struct json_object *health_delta_json(const struct health *b, const struct health *a)
{
	static const enum health_field counters[] = {
		HF_DATA_WRITTEN_BYTES, HF_DATA_READ_BYTES, HF_HOST_WRITES, HF_HOST_READS,
		HF_TMT1_COUNT, HF_TMT2_COUNT, HF_TMT1_TIME_S, HF_TMT2_TIME_S,
		HF_WARN_TEMP_MIN, HF_CRIT_TEMP_MIN, HF_MEDIA_ERRORS, HF_ERROR_LOG_ENTRIES,
		HF_PCT_USED, HF_REALLOCATED, HF_PENDING,
	};
	struct json_object *o;

	if (b->source == HEALTH_SRC_NONE || a->source == HEALTH_SRC_NONE)
		return NULL;
	o = json_object_new_object();
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		enum health_field f = counters[i];
		if (health_has(b, f) && health_has(a, f))
			json_object_object_add(o, health_field_key[f],
					       json_object_new_int64(a->v[f] - b->v[f]));
	}
	json_object_object_add(o, "throttled", json_object_new_boolean(health_throttled(b, a)));
	return o;
}
