// SPDX-License-Identifier: GPL-2.0-or-later
#include "health_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drive.h"
#include "errbuf.h"
#include "result.h"

#define SAMPLE_NS	   10000000000ull /* temperature: every 10 s */
#define SMARTCTL_SAMPLE_NS 60000000000ull /* smartctl: at most once a minute, between steps */
#define MAX_SAMPLES	   100000u
#define MAX_PHASES	   64u
#define MAX_WARNINGS	   256u

struct temp_sample {
	double elapsed_s;
	int temp_c;
};

struct phase_snap {
	char name[32];
	struct health before, after;
	bool done;
};

struct health_watch {
	struct drive d;
	struct health_opts o;
	bool has_data;              /* the first snapshot found health data */
	int nvme_fd;                /* the controller, for the cheap reads; -1 */
	struct health start, end, step_before;
	bool ended, step_open;
	char phase[32];
	struct phase_snap *phases;
	unsigned nphases;
	struct json_object *warnings;

	pthread_mutex_t lock;       /* the fd, samples and min / max */
	pthread_cond_t wake;
	pthread_t sampler;
	bool sampler_running, stop;
	uint64_t sample_ns, t0_ns;
	struct temp_sample *samples;
	unsigned nsamples;
	int min_c, max_c;
	bool have_temp;
	int step_max_c;             /* the highest temperature of the step: at its start, read */
	bool step_have_temp;        /* during it or right after it */
	int step_new_max_c;         /* the same without the reading it started from */
	bool step_have_new;
	unsigned step_gen; /* steps begun: a reading begun before is not the step's */

	/* smartctl: read only between steps (step_end_smartctl) */
	struct health last;         /* the last reading */
	uint64_t last_read_ns;
	unsigned steps_unread;      /* steps ended since it */
	char first_unread[64], last_unread[64];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A full record; under the lock when it uses the shared fd. */
static void snapshot(struct health_watch *w, struct health *h)
{
	char err[DB_ERR_LEN];

	pthread_mutex_lock(&w->lock);
	if (w->nvme_fd >= 0) {
		health_init(h);
		health_read_nvme_fd(w->nvme_fd, w->d.nvme.nsid, h, err, sizeof(err));
		snprintf(h->device, sizeof(h->device), "%s/%s",
			 w->o.dev_root ? w->o.dev_root : "/dev", w->d.nvme.controller);
	} else {
		health_read(&w->d, &w->o, h, err, sizeof(err));
	}
	pthread_mutex_unlock(&w->lock);
}

/* Only what changes during a run (NVMe: the SMART / health log). */
static void quick(struct health_watch *w, struct health *h)
{
	char err[DB_ERR_LEN];

	if (w->nvme_fd < 0) {
		snapshot(w, h);
		return;
	}
	pthread_mutex_lock(&w->lock);
	health_init(h);
	h->source = HEALTH_SRC_NVME;
	health_read_smart_fd(w->nvme_fd, h, err, sizeof(err));
	pthread_mutex_unlock(&w->lock);
}

/*
 * A temperature read, in the run's samples and min / max, and in the step's maximum when
 * the reading began in it (gen: step_gen when it began): the sampler's reading begun in
 * the last step and done in the next is the last step's temperature.
 */
static void note_temp_of(struct health_watch *w, const struct health *h, unsigned gen)
{
	if (!health_has(h, HF_TEMP_C))
		return;
	pthread_mutex_lock(&w->lock);
	int c = (int)h->v[HF_TEMP_C];
	bool mine = gen == w->step_gen;
	if (w->step_open && mine && (!w->step_have_temp || c > w->step_max_c)) {
		w->step_max_c = c;
		w->step_have_temp = true;
	}
	if (w->step_open && mine && (!w->step_have_new || c > w->step_new_max_c)) {
		w->step_new_max_c = c;
		w->step_have_new = true;
	}
	if (!w->have_temp || c < w->min_c)
		w->min_c = c;
	if (!w->have_temp || c > w->max_c)
		w->max_c = c;
	w->have_temp = true;
	if (w->nsamples < MAX_SAMPLES) {
		w->samples[w->nsamples].elapsed_s = (double)(mono_ns() - w->t0_ns) / 1e9;
		w->samples[w->nsamples++].temp_c = c;
	}
	pthread_mutex_unlock(&w->lock);
}

/* A reading on the runner's thread: it began in the step open now (or between steps). */
static void note_temp(struct health_watch *w, const struct health *h)
{
	note_temp_of(w, h, w->step_gen);
}

static void *sampler_main(void *arg)
{
	struct health_watch *w = arg;
	struct health *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		struct timespec until;
		uint64_t at;

		clock_gettime(CLOCK_MONOTONIC, &until);
		at = (uint64_t)until.tv_sec * 1000000000ull + (uint64_t)until.tv_nsec + w->sample_ns;
		until.tv_sec = (time_t)(at / 1000000000ull);
		until.tv_nsec = (long)(at % 1000000000ull);
		while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) != ETIMEDOUT)
			;
		if (w->stop)
			break;
		unsigned gen = w->step_gen;
		pthread_mutex_unlock(&w->lock);
		quick(w, h);
		note_temp_of(w, h, gen);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	free(h);
	return NULL;
}

/* smartctl: a reading between steps, the one the next steps are measured against. */
static void mark_read(struct health_watch *w, const struct health *h)
{
	w->last = *h;
	w->last_read_ns = mono_ns();
	w->steps_unread = 0;
	w->first_unread[0] = '\0';
}

struct health_watch *health_watch_start(const struct drive *d, const struct health_opts *o,
					uint64_t sample_ns)
{
	struct health_watch *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;
	char path[256];

	if (!w)
		return NULL;
	w->d = *d;
	if (o)
		w->o = *o;
	w->nvme_fd = -1;
	w->t0_ns = mono_ns();
	w->samples = calloc(MAX_SAMPLES, sizeof(*w->samples));
	w->phases = calloc(MAX_PHASES, sizeof(*w->phases));
	w->warnings = json_object_new_array();
	if (!w->samples || !w->phases || !w->warnings) {
		health_watch_free(w);
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (d->transport == DRIVE_TR_NVME && d->nvme.controller[0]) {
		snprintf(path, sizeof(path), "%s/%s", w->o.dev_root ? w->o.dev_root : "/dev",
			 d->nvme.controller);
		w->nvme_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	snapshot(w, &w->start);
	w->has_data = w->start.source != HEALTH_SRC_NONE && w->start.known;
	note_temp(w, &w->start);
	if (w->has_data && w->nvme_fd >= 0) {
		w->sample_ns = sample_ns ? sample_ns : SAMPLE_NS;
		w->sampler_running = pthread_create(&w->sampler, NULL, sampler_main, w) == 0;
	} else if (w->has_data) {
		/* smartctl: no sampler thread; readings between steps (step_end_smartctl) */
		w->sample_ns = sample_ns ? sample_ns : SMARTCTL_SAMPLE_NS;
		mark_read(w, &w->start);
	}
	return w;
}

/* A warning for the run's list (the step's own is the caller's). */
static void add_warning(struct health_watch *w, const char *label, const char *msg)
{
	if (json_object_array_length(w->warnings) >= MAX_WARNINGS)
		return;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "phase", json_object_new_string(w->phase));
	json_object_object_add(o, "step", json_object_new_string(label));
	json_object_object_add(o, "text", json_object_new_string(msg));
	json_object_array_add(w->warnings, o);
}

/*
 * The verdict on a stretch of steps, from the readings before (b) and after (a) it and
 * the highest temperature read since it began (have_max; the reading it started from is
 * the previous stretch's): a thermal counter rose ("thermally throttled"), or the drive
 * reached its temperature limit (NVMe WCTEMP, ATA's specified maximum operating
 * temperature, SCSI's trip temperature). when: "during 16T16Q".
 */
static bool verdict(const struct health_watch *w, const struct health *b, const struct health *a,
		    bool have_max, int max_c, const char *when, char *msg, size_t len)
{
	if (health_throttled(b, a)) {
		snprintf(msg, len, "thermally throttled %s", when);
		return true;
	}
	/* NVMe critical warning bit 1: a temperature threshold (the controller's own, or one
	   the host set with Set Features) was crossed, here between the two readings */
	if (health_has(a, HF_CRITICAL_WARNING) && ((unsigned)a->v[HF_CRITICAL_WARNING] & 0x02) &&
	    !(health_has(b, HF_CRITICAL_WARNING) && ((unsigned)b->v[HF_CRITICAL_WARNING] & 0x02))) {
		snprintf(msg, len,
			 "the drive's temperature crossed a threshold %s (its critical warning, "
			 "temperature bit)",
			 when);
		return true;
	}
	if (have_max && health_has(&w->start, HF_TEMP_LIMIT_C) &&
	    max_c >= w->start.v[HF_TEMP_LIMIT_C]) {
		snprintf(msg, len, "reached %d C %s, at or above the drive's limit of %d C", max_c,
			 when, (int)w->start.v[HF_TEMP_LIMIT_C]);
		return true;
	}
	return false;
}

/* "during L", or "between the start of F and the end of L" for several steps. */
static void window_name(const struct health_watch *w, const char *label, char *when, size_t len)
{
	if (w->steps_unread <= 1)
		snprintf(when, len, "during %s", label);
	else
		snprintf(when, len, "between the start of %s and the end of %s", w->first_unread,
			 label);
}

void health_watch_phase_begin(struct health_watch *w, const char *phase)
{
	struct phase_snap *p;

	snprintf(w->phase, sizeof(w->phase), "%s", phase);
	if (!w->has_data || w->nphases >= MAX_PHASES)
		return;
	p = &w->phases[w->nphases++];
	snprintf(p->name, sizeof(p->name), "%s", phase);
	snapshot(w, &p->before);
	note_temp(w, &p->before);
	if (w->nvme_fd < 0)
		mark_read(w, &p->before);
}

bool health_watch_phase_end(struct health_watch *w, char *step, size_t steplen, char *msg,
			    size_t len)
{
	struct phase_snap *p;
	bool warned = false;
	char when[200]; /* two labels of up to 63 bytes in words */

	if (!w->has_data || !w->nphases || w->phases[w->nphases - 1].done)
		return false;
	p = &w->phases[w->nphases - 1];
	snapshot(w, &p->after);
	note_temp(w, &p->after);
	p->done = true;
	if (w->nvme_fd < 0 && w->steps_unread) {
		/* the steps since the last reading between steps end with the phase */
		window_name(w, w->last_unread, when, sizeof(when));
		warned = verdict(w, &w->last, &p->after, health_has(&p->after, HF_TEMP_C),
				 (int)p->after.v[HF_TEMP_C], when, msg, len);
		if (warned) {
			snprintf(step, steplen, "%s", w->last_unread);
			add_warning(w, w->last_unread, msg);
		}
	}
	if (w->nvme_fd < 0)
		mark_read(w, &p->after);
	return warned;
}

/*
 * A step's own drive counters: its highest temperature, and the host data written between
 * the readings right before (NULL: there was none) and after it.
 */
static void step_drive_fill(struct step_drive *sd, bool have_temp, int max_c,
			    const struct health *before, const struct health *after)
{
	sd->has_temp = have_temp;
	sd->temp_max_c = max_c;
	sd->has_written = before && health_has(before, HF_DATA_WRITTEN_BYTES) &&
			  health_has(after, HF_DATA_WRITTEN_BYTES) &&
			  after->v[HF_DATA_WRITTEN_BYTES] >= before->v[HF_DATA_WRITTEN_BYTES];
	sd->written_bytes = sd->has_written ? (uint64_t)(after->v[HF_DATA_WRITTEN_BYTES] -
							 before->v[HF_DATA_WRITTEN_BYTES])
					    : 0;
}

void health_watch_step_begin(struct health_watch *w)
{
	if (!w->has_data)
		return;
	if (w->nvme_fd < 0) {
		/* smartctl: nothing is read while a step runs (on SATA a SMART command is not
		 * queued: the drive would drain its queue for it, a latency spike in the step);
		 * the step is measured from the last reading between steps */
		pthread_mutex_lock(&w->lock);
		w->step_gen++;
		w->step_open = true;
		w->step_have_new = false;
		w->step_have_temp = !w->steps_unread && health_has(&w->last, HF_TEMP_C);
		w->step_max_c = w->step_have_temp ? (int)w->last.v[HF_TEMP_C] : 0;
		pthread_mutex_unlock(&w->lock);
		return;
	}
	quick(w, &w->step_before);
	pthread_mutex_lock(&w->lock);
	w->step_gen++;
	w->step_open = true;
	w->step_have_new = false;
	w->step_have_temp = health_has(&w->step_before, HF_TEMP_C);
	w->step_max_c = w->step_have_temp ? (int)w->step_before.v[HF_TEMP_C] : 0;
	pthread_mutex_unlock(&w->lock);
}

/*
 * smartctl: the drive is read after a step when the last reading is about sample_ns old
 * (a minute by default; a step of a review preset is at least that long, so each gets its
 * own pair of readings). Shorter steps share a reading: a warning then names the steps
 * since the last one, and only the step the reading follows gets its temperature.
 */
static bool step_end_smartctl(struct health_watch *w, const char *label, struct step_drive *sd,
			      char *msg, size_t len)
{
	struct health *after;
	bool warned, exact = !w->steps_unread;
	char when[200];

	if (!w->steps_unread++)
		snprintf(w->first_unread, sizeof(w->first_unread), "%s", label);
	snprintf(w->last_unread, sizeof(w->last_unread), "%s", label);
	/* due at five sixths of the period, so steps of nearly a minute get their own
	 * readings too */
	if (mono_ns() - w->last_read_ns < w->sample_ns - w->sample_ns / 6 ||
	    !(after = malloc(sizeof(*after))))
		return false;
	snapshot(w, after);
	note_temp(w, after);
	pthread_mutex_lock(&w->lock);
	int max_c = w->step_max_c, new_c = w->step_new_max_c;
	bool have_max = w->step_have_temp, have_new = w->step_have_new;
	pthread_mutex_unlock(&w->lock);
	if (sd)
		step_drive_fill(sd, have_max, max_c, exact ? &w->last : NULL, after);
	window_name(w, label, when, sizeof(when));
	warned = verdict(w, &w->last, after, have_new, new_c, when, msg, len);
	mark_read(w, after);
	free(after);
	if (warned)
		add_warning(w, label, msg);
	return warned;
}

bool health_watch_step_end(struct health_watch *w, const char *label, struct step_drive *sd,
			   char *msg, size_t len)
{
	struct health *after;
	bool warned;
	char when[200];

	if (sd)
		memset(sd, 0, sizeof(*sd));
	if (!w->step_open)
		return false;
	if (w->nvme_fd < 0) {
		/* the reading after the step counts in it (note_temp while it is open) */
		warned = step_end_smartctl(w, label, sd, msg, len);
		pthread_mutex_lock(&w->lock);
		w->step_open = false;
		pthread_mutex_unlock(&w->lock);
		return warned;
	}
	after = malloc(sizeof(*after));
	if (!after) {
		pthread_mutex_lock(&w->lock);
		w->step_open = false;
		pthread_mutex_unlock(&w->lock);
		return false;
	}
	quick(w, after);
	note_temp(w, after);
	pthread_mutex_lock(&w->lock);
	w->step_open = false;
	int max_c = w->step_max_c, new_c = w->step_new_max_c;
	bool have_max = w->step_have_temp, have_new = w->step_have_new;
	pthread_mutex_unlock(&w->lock);
	if (sd)
		step_drive_fill(sd, have_max, max_c, &w->step_before, after);
	snprintf(when, sizeof(when), "during %s", label);
	warned = verdict(w, &w->step_before, after, have_new, new_c, when, msg, len);
	free(after);
	if (warned)
		add_warning(w, label, msg);
	return warned;
}

void health_watch_finish(struct health_watch *w)
{
	if (w->sampler_running) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->sampler, NULL);
		w->sampler_running = false;
	}
	if (w->has_data && !w->ended) {
		char step[64], msg[320];
		health_watch_phase_end(w, step, sizeof(step), msg, sizeof(msg));
		snapshot(w, &w->end);
		note_temp(w, &w->end);
		w->ended = true;
	}
}

struct json_object *health_watch_json(struct health_watch *w)
{
	struct json_object *o = json_object_new_object(), *arr, *t, *s;

	if (!o)
		return NULL;
	json_object_object_add(o, "before", health_to_json(&w->start));
	if (!w->has_data)
		return o;
	json_object_object_add(o, "after", w->ended ? health_to_json(&w->end) : NULL);
	json_object_object_add(o, "delta", w->ended ? health_delta_json(&w->start, &w->end) : NULL);
	arr = json_object_new_array();
	for (unsigned i = 0; i < w->nphases; i++) {
		const struct phase_snap *p = &w->phases[i];
		struct json_object *ph = json_object_new_object();
		json_object_object_add(ph, "name", json_object_new_string(p->name));
		json_object_object_add(ph, "before", health_to_json(&p->before));
		json_object_object_add(ph, "after", p->done ? health_to_json(&p->after) : NULL);
		json_object_object_add(ph, "delta",
				       p->done ? health_delta_json(&p->before, &p->after) : NULL);
		json_object_array_add(arr, ph);
	}
	json_object_object_add(o, "phases", arr);
	t = json_object_new_object();
	pthread_mutex_lock(&w->lock);
	json_object_object_add(t, "interval_s", json_object_new_double((double)w->sample_ns / 1e9));
	json_object_object_add(t, "min_c", w->have_temp ? json_object_new_int(w->min_c) : NULL);
	json_object_object_add(t, "max_c", w->have_temp ? json_object_new_int(w->max_c) : NULL);
	s = json_object_new_array();
	for (unsigned i = 0; i < w->nsamples; i++) {
		struct json_object *pair = json_object_new_array();
		json_object_array_add(pair, json_object_new_double(
						    (double)(int64_t)(w->samples[i].elapsed_s * 10) / 10));
		json_object_array_add(pair, json_object_new_int(w->samples[i].temp_c));
		json_object_array_add(s, pair);
	}
	pthread_mutex_unlock(&w->lock);
	json_object_object_add(t, "samples", s);
	json_object_object_add(o, "temperature", t);
	json_object_object_add(o, "warnings", json_object_get(w->warnings));
	return o;
}

void health_watch_free(struct health_watch *w)
{
	if (!w)
		return;
	if (w->samples && w->phases && w->warnings) {
		health_watch_finish(w);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->wake);
	}
	if (w->nvme_fd >= 0)
		close(w->nvme_fd);
	json_object_put(w->warnings);
	free(w->samples);
	free(w->phases);
	free(w);
}
