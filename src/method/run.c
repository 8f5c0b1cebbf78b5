// SPDX-License-Identifier: GPL-2.0-or-later
/* The one door every run goes through: output, target, guard, plan; then the run. */
#include "run.h"
#include "run_guard.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drive.h"
#include "errbuf.h"
#include "health_watch.h"
#include "preset.h"
#include "probe.h"
#include "purge.h"
#include "result_saver.h"
#include "safety.h"
#include "settings.h"
#include "step_streams.h"
#include "text.h"
#include "units.h"

#define BUSY_RETRY_NS	  2000000000ull /* an unexplained EBUSY: retried this long */
#define BUSY_RETRY_GAP_NS 20000000ull	/* between tries */
#define AUTOSAVE_NS	  30000000000ull
#define RUN_MAX_CLAIMS	  (RUN_MAX_TARGETS * 4)

struct run {
	const struct plan *plan;
	const struct engine_ops *ops;
	struct target t[RUN_MAX_TARGETS];
	unsigned nt;
	int claim[RUN_MAX_CLAIMS]; /* what the targets' writes go through, held O_EXCL */
	enum purge_scope erase_scope; /* what the confirmations let a secure erase reach */
	const struct result *seeds_from; /* the request's: replay's seeds */
	const struct result *engine_from; /* ... and its steps' engine choices */
	unsigned engine_own;
	const char *app_dir;             /* the request's settings': [app] phases' */
	const struct settings *settings; /* the request's: where results go, for a rescue */
	const char *results_dir;         /* the request's, or NULL */
	unsigned nclaims;
	struct result res;
	char path[4096]; /* the result file */
};

bool run_refused(int ret)
{
	return ret == -EPERM || ret == -EBUSY;
}

const char *run_result_path(const struct run *r)
{
	return r->path;
}

const struct target *run_target(const struct run *r)
{
	return &r->t[0];
}

const struct result *run_result(const struct run *r)
{
	return &r->res;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The "target" section of a result: what was opened (path as named, the path it resolved
 * to, kind, size, block sizes) and, for a block device, the discovery record of the disk
 * behind the device number that was opened, so a result always says what it measured.
 */
static struct json_object *target_json(const struct target *t)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "path", json_object_new_string(t->path));
	if (strcmp(t->path, t->resolved))
		json_object_object_add(o, "resolved", json_object_new_string(t->resolved));
	json_object_object_add(o, "kind", json_object_new_string(t->is_blockdev ? "block" : "file"));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)t->size));
	json_object_object_add(o, "lbs", json_object_new_int((int)t->lbs));
	json_object_object_add(o, "pbs", json_object_new_int((int)t->pbs));
	if (t->is_blockdev) {
		struct drive d;
		char err[DB_ERR_LEN];
		if (drive_probe_devnum(t->rdev, &d, err, sizeof(err)) == 0)
			json_object_object_add(o, "drive", drive_to_json(&d));
	}
	return o;
}

/* Where the result goes: the request's --out, or a new file in the results directory. */
static int output_path(struct run *r, const struct run_request *rq, char *err, size_t errlen)
{
	char dir[4096], several[224];
	const char *name = rq->target_name, *base;
	int ret;

	if (rq->out_path) {
		if (snprintf(r->path, sizeof(r->path), "%s", rq->out_path) >= (int)sizeof(r->path)) {
			snprintf(err, errlen, "%.64s...: path too long", rq->out_path);
			return -ENAMETOOLONG;
		}
		return 0;
	}
	if (rq->results_dir) {
		snprintf(dir, sizeof(dir), "%s", rq->results_dir);
	} else {
		ret = result_dir(rq->settings, dir, sizeof(dir));
		if (ret < 0) {
			snprintf(err, errlen, "cannot make the results directory (%s): %s", dir,
				 strerror(-ret));
			return ret;
		}
	}
	if (!name) {
		const char *first = rq->ntargets ? rq->target_paths[0] : rq->target_path;
		base = strrchr(first, '/');
		name = base ? base + 1 : first;
		if (rq->ntargets > 1) {
			/* "loop0+3": the first target and how many more */
			snprintf(several, sizeof(several), "%.200s+%u", name, rq->ntargets - 1);
			name = several;
		}
	}
	ret = result_default_path(r->path, sizeof(r->path), dir, name,
				  rq->plan_label		? rq->plan_label
				  : rq->plan->name[0] ? rq->plan->name
							: "run");
	if (ret < 0)
		snprintf(err, errlen, "%s: cannot name a result file there: %s", dir,
			 strerror(-ret));
	return ret;
}

/*
 * Does path's file system answer? A target or an output on a network file system whose
 * server is gone, or on a FUSE file system whose daemon hangs, would hold the door for
 * ever (open(), stat() and realpath() of it wait, and no signal ends a FUSE wait), so it
 * is asked apart first (probe.h), for at most PROBE_ANSWER_MS. With in_dir, the directory
 * path is in is asked (an output not made yet). what names it in the message. Nodes under
 * /dev are the kernel's own. 0, or -ETIMEDOUT with the message in err.
 */
static int answers(const char *path, bool in_dir, const char *what, char *err, size_t errlen)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	int ret;

	if (!strncmp(path, "/dev/", 5))
		return 0;
	if (in_dir)
		snprintf(dir, sizeof(dir), "%.*s",
			 slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	ret = probe_path_answers(in_dir ? dir : path, PROBE_ANSWER_MS);
	if (ret != -ETIMEDOUT)
		return 0; /* an answer, whatever it is: the open itself says what is wrong */
	snprintf(err, errlen,
		 "%s: %s did not answer within %u s (is its file system's server gone, or its "
		 "FUSE daemon hung?); not waiting for it",
		 in_dir ? dir : path, what, PROBE_ANSWER_MS / 1000);
	return ret;
}

/*
 * Open the target. A writing plan's exclusive open that the kernel refuses is explained
 * by what uses the device; when nothing does, the claim is one being released (io_uring
 * tears down a ring that held the device after its process has gone), so it is tried
 * again for a bounded time.
 */
static int open_target(struct target *t, const char *path, const struct run_request *rq,
		       bool writes, char *err, size_t errlen)
{
	uint64_t limit = rq->busy_retry_ns ? rq->busy_retry_ns : BUSY_RETRY_NS;
	uint64_t t0 = now_ns();
	int ret = answers(path, false, "the target", err, errlen);

	if (ret < 0)
		return ret;
	for (;;) {
		ret = target_open(t, path, writes, err, errlen);
		if (ret != -EBUSY)
			return ret;
		ret = safety_explain_busy(t->rdev, path, rq->roots, err, errlen);
		if (ret < 0)
			return ret == -EPERM ? ret : -EBUSY;
		if (now_ns() - t0 >= limit)
			break;
		nanosleep(&(struct timespec){.tv_nsec = BUSY_RETRY_GAP_NS}, NULL);
	}
	char who[256];
	inuse_openers(t->rdev, rq->roots, who, sizeof(who));
	snprintf(err, errlen,
		 "refusing to write to %s: the kernel will not open it exclusively, and no mount, "
		 "swap or holder was found (%s%s); gave up after %.1f s",
		 path, who[0] ? "open by " : "no other process has it open: a kernel user?",
		 who[0] ? who : "", (double)limit / 1e9);
	return -EBUSY;
}

/* Is the device opened the disk that was chosen (its sequence number then: seq; 0 any)? */
static int same_disk(const struct target *t, uint64_t seq, char *err, size_t errlen)
{
	uint64_t now = 0;

	if (!seq || target_diskseq(t, &now) < 0 || now == seq)
		return 0;
	snprintf(
		err, errlen,
		"refusing to run on %s: it is no longer the drive that was chosen (another disk "
		"took its name since: disk sequence %llu then, %llu now); look at the drives again",
		t->path, (unsigned long long)seq, (unsigned long long)now);
	return -EPERM;
}

/* What a secure erase may reach: every namespace when a confirmation names the controller. */
static enum purge_scope erase_scope(const struct target *t, const struct run_request *rq)
{
	bool all = safety_confirms_controller(t, rq->confirm, rq->roots);

	for (unsigned i = 0; !all && i < rq->nconfirms; i++)
		all = safety_confirms_controller(t, rq->confirms[i], rq->roots);
	return all ? PURGE_SCOPE_SUBSYSTEM : PURGE_SCOPE_DEVICE;
}

/*
 * A secure erase in the plan: can it run on this drive at all (bad input otherwise, found
 * before anything is written), does the confirmation cover its scope, and when it erases
 * every namespace of the controller, is any of them in use (refused for safety)?
 */
static int check_erase(const struct run *r, struct target *t, const struct run_request *rq,
		       char *err, size_t errlen)
{
	const struct purge_opts po = {.scope = r->erase_scope,
				      .sys_root = rq->roots ? rq->roots->sys : NULL};

	for (unsigned i = 0; i < rq->plan->nphases; i++) {
		const struct plan_phase *ph = &rq->plan->phases[i];
		struct purge_outcome out;
		bool all = false;
		int ret;

		if (ph->kind != PH_PURGE || !purge_method_erases_device(ph->purge))
			continue;
		ret = purge_resolve(t, ph->purge, &po, &out, &all, err, errlen);
		if (ret < 0)
			return ret == -ENOTSUP ? -EINVAL : ret;
		if (all) {
			ret = safety_check_namespaces(t, purge_method_name[out.used], rq->roots,
						      err, errlen);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/*
 * The guard on a target a plan writes: confirmed by rq->confirm or one of rq->confirms;
 * then what the write goes through below the target is claimed for the run. Erases are
 * checked once every target is open (check_erase()).
 */
static int guard_target(struct run *r, struct target *t, const struct run_request *rq, char *err,
			size_t errlen)
{
	unsigned n = 0;

	/* drivebench's own outputs are not targets: a result a run is still writing (which
	   that run also has open for writing, said here by what it is) */
	if (!t->is_blockdev && result_being_written(t->resolved)) {
		snprintf(err, errlen,
			 "refusing to write to %s: it is a result file another drivebench run is "
			 "still writing",
			 t->path);
		return -EPERM;
	}
	/* the confirmation that names t; when none does, a device's refusal quotes the last
	   one given, and a file is checked as unconfirmed */
	const char *confirm = safety_confirms(t, rq->confirm) ? rq->confirm : NULL;
	for (unsigned i = 0; !confirm && i < rq->nconfirms; i++)
		if (safety_confirms(t, rq->confirms[i]))
			confirm = rq->confirms[i];
	if (!confirm && t->is_blockdev)
		confirm = rq->confirm	  ? rq->confirm
			  : rq->nconfirms ? rq->confirms[rq->nconfirms - 1]
					  : NULL;
	int ret = safety_check_target(t, confirm, rq->roots, err, errlen);
	if (ret == 0)
		ret = safety_claim_reach(t, r->claim + r->nclaims, RUN_MAX_CLAIMS - r->nclaims, &n,
					 rq->roots, err, errlen);
	r->nclaims += n;
	return ret;
}

static void release_claims(struct run *r)
{
	for (unsigned i = 0; i < r->nclaims; i++)
		close(r->claim[i]);
	r->nclaims = 0;
}

/* Is t the same device or file as one opened before it? */
static const struct target *opened_before(const struct run *r, const struct target *t)
{
	for (unsigned i = 0; i < r->nt; i++) {
		const struct target *o = &r->t[i];
		if (o->is_blockdev == t->is_blockdev &&
		    (t->is_blockdev ? o->rdev == t->rdev : o->dev == t->dev && o->ino == t->ino))
			return o;
	}
	return NULL;
}

/*
 * What the plan asks of n targets, checked before anything is opened or allocated: every
 * step's streams on every target within the engine's limit, its slot buffers within
 * their ceiling (step_streams.h).
 */
static int plan_fits(const struct run_request *rq, unsigned n, char *err, size_t errlen)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	for (unsigned i = 0; i < rq->plan->nphases; i++)
		for (unsigned s = 0; s < rq->plan->phases[i].nsteps; s++) {
			const struct plan_step *ps = &rq->plan->phases[i].steps[s];
			if (rq->plan->phases[i].kind != PH_PURGE &&
			    step_streams_count(ps, n) > ENGINE_MAX_STREAMS) {
				snprintf(err, errlen,
					 "%s:%u: step %s: %u streams on %u targets is over the "
					 "limit of %u streams a step",
					 rq->plan->file, rq->plan->phases[i].line, ps->label,
					 ps->nstreams, n, ENGINE_MAX_STREAMS);
				return -EINVAL;
			}
		}
	return step_buffers_check(rq->plan, n, pages > 0 && page > 0 ? (uint64_t)pages * page : 0,
				  err, errlen);
}

/* Open, guard and check every target, in order. */
static int open_targets(struct run *r, const struct run_request *rq, bool writes, char *err,
			size_t errlen)
{
	const char *const *paths = rq->ntargets ? rq->target_paths : &rq->target_path;
	unsigned n = rq->ntargets ? rq->ntargets : 1;
	int ret;

	if (n > RUN_MAX_TARGETS) {
		snprintf(err, errlen, "%u targets: at most %u run at once", n, RUN_MAX_TARGETS);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		struct target *t = &r->t[r->nt];
		const struct target *o;
		t->fd = -1;
		/* the same device twice: found before the second exclusive open fails on it
		 * (by its name; what is opened is compared again below) */
		struct stat sb;
		/* (the first target is not looked at here: a path that may not answer is asked
		   apart, in open_target()) */
		bool blk = r->nt && stat(paths[i], &sb) == 0 && S_ISBLK(sb.st_mode);
		for (unsigned k = 0; k < r->nt; k++) {
			if (!strcmp(paths[k], paths[i]) ||
			    (blk && r->t[k].is_blockdev && sb.st_rdev == r->t[k].rdev)) {
				snprintf(err, errlen, "target %s is %s again (given twice)", paths[i],
					 r->t[k].path);
				return -EINVAL;
			}
			/* a disk and a partition of it: one device, whose share each would
			   measure (and whose exclusive claim the first takes) */
			dev_t kd = r->t[k].rdev;
			if (blk && r->t[k].is_blockdev &&
			    (safety_whole_disk(sb.st_rdev, rq->roots) == kd ||
			     safety_whole_disk(kd, rq->roots) == sb.st_rdev)) {
				bool part = safety_whole_disk(sb.st_rdev, rq->roots) == kd;
				snprintf(err, errlen, "target %s is %s %s: one disk, given twice",
					 paths[i],
					 part ? "a partition of" : "the disk of partition",
					 r->t[k].path);
				return -EINVAL;
			}
		}
		if ((ret = open_target(t, paths[i], rq, writes, err, errlen)) < 0 ||
		    (ret = same_disk(t, rq->diskseqs ? rq->diskseqs[i] : 0, err, errlen)) < 0)
			return ret;
		if ((o = opened_before(r, t))) {
			snprintf(err, errlen, "target %s is %s again (given twice)", paths[i],
				 o->path);
			target_close(t);
			return -EINVAL;
		}
		r->nt++;
		/* an [app] phase makes a file system on its one target */
		if (app_plan(rq->plan) && (!t->is_blockdev || r->nt > 1)) {
			snprintf(err, errlen, "%s has an [app] phase, which makes a file system on %s: %s",
				 rq->plan->name, paths[i],
				 r->nt > 1 ? "it runs on one target" : "it needs a block device");
			return -EINVAL;
		}
		if (writes && (ret = guard_target(r, t, rq, err, errlen)) < 0)
			return ret;
	}
	/* steps no target here can address are dropped from the plan, then every step left
	 * is checked against every target */
	uint32_t lbs = 0;
	for (unsigned i = 0; i < r->nt; i++)
		lbs = r->t[i].lbs > lbs ? r->t[i].lbs : lbs;
	plan_fit_target(rq->plan, lbs);
	for (unsigned i = 0; i < r->nt; i++)
		if ((ret = runner_check(rq->plan, &r->t[i], err, errlen)) < 0) {
			size_t len = strlen(err);
			snprintf(err + len, errlen - len, " (target %s)", paths[i]);
			return ret;
		}
	if (!writes)
		return 0;
	/* one scope for the run's purges: what the confirmations cover on every target */
	r->erase_scope = PURGE_SCOPE_SUBSYSTEM;
	for (unsigned i = 0; i < r->nt; i++)
		if (erase_scope(&r->t[i], rq) < r->erase_scope)
			r->erase_scope = erase_scope(&r->t[i], rq);
	for (unsigned i = 0; i < r->nt; i++)
		if ((ret = check_erase(r, &r->t[i], rq, err, errlen)) < 0)
			return ret;
	return 0;
}

/* The result's "target" (the first) and, for several, "targets" (all). */
static int targets_json(struct run *r)
{
	r->res.target = target_json(&r->t[0]);
	if (!r->res.target)
		return -ENOMEM;
	if (r->nt < 2)
		return 0;
	r->res.targets = json_object_new_array();
	if (!r->res.targets)
		return -ENOMEM;
	for (unsigned i = 0; i < r->nt; i++) {
		struct json_object *o = i ? target_json(&r->t[i]) : json_object_get(r->res.target);
		if (!o || json_object_array_add(r->res.targets, o))
			return -ENOMEM;
	}
	return 0;
}

int run_open(struct run **out, const struct run_request *rq, char *err, size_t errlen)
{
	bool writes = plan_writes(rq->plan);
	struct run *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->plan = rq->plan;
	r->ops = rq->ops;
	r->seeds_from = rq->seeds_from;
	r->engine_from = rq->engine_from;
	r->engine_own = rq->engine_own;
	r->app_dir = rq->settings ? rq->settings->app_dir : NULL;
	r->settings = rq->settings;
	r->results_dir = rq->results_dir;
	for (unsigned i = 0; i < RUN_MAX_TARGETS; i++)
		r->t[i].fd = -1;
	result_init(&r->res);
	ret = plan_fits(rq, rq->ntargets ? rq->ntargets : 1, err, errlen);
	if (ret < 0)
		goto fail;
	ret = output_path(r, rq, err, errlen);
	if (ret == 0)
		ret = answers(r->path, true, "the output's directory", err, errlen);
	if (ret < 0)
		goto fail;
	ret = open_targets(r, rq, writes, err, errlen);
	if (ret < 0)
		goto fail;
	/* the output is never a target or anything a target's write reaches */
	ret = safety_check_output(r->path, r->t, r->nt, writes, rq->roots, err, errlen);
	if (ret < 0)
		goto fail;
	ret = targets_json(r);
	if (!ret)
		ret = runner_begin_result(rq->plan, &r->res);
	if (ret < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	text_copy(r->res.label, sizeof(r->res.label), rq->label ? rq->label : "");
	text_copy(r->res.note, sizeof(r->res.note), rq->note ? rq->note : "");
	/* the result file is taken before the first I/O: an output that fails fails now; the
	 * result owns it from here to run_close() (a new name taken exclusively; a --out that
	 * is there locked as it is, what it holds kept until the run's first save) */
	ret = result_create(&r->res, r->path, sizeof(r->path),
			    rq->out_path ? RESULT_HOLD : RESULT_NEW, err, errlen);
	if (ret < 0)
		goto fail;
	*out = r;
	return 0;
fail:
	run_close(r);
	return ret;
}

/*
 * The runner's events pass through here on their way to the front end: the drive's health
 * around them, and the result saved as it grows (the runner fills the model; files are
 * this side's business).
 */
struct watched {
	struct run *r;
	struct health_watch *w; /* NULL: no health for this target */
	runner_event_fn fn;
	void *arg;
	uint64_t save_period_ns;
	uint64_t last_save_ns;
	struct result_saver *saver; /* NULL: saves on this thread */
	uint64_t answer_ns;	    /* how long a save may take: the no-progress limit */
	bool told_slow;		    /* that a save has taken longer was said */
	struct runner_event last;   /* the last event autosave() saw (its pointers stale) */
	const atomic_int *stop;	    /* the engine's stop: each signal adds one (NULL: none) */
	char moved_from[4096];	    /* the name the run's file had before moved_on(); "" */
	char failed[DB_ERR_LEN];    /* the last autosave failure told; "" after a save */
};

static void attach_health(struct run *r, struct health_watch *w)
{
	struct json_object *h = health_watch_json(w);

	if (h && r->res.target)
		json_object_object_add(r->res.target, "health", h);
	/* out of memory the summary stays as it was: only reports miss the news */
	result_summarize(&r->res);
}

/* A save's outcome told to the front end: RUN_EV_AUTOSAVE, or a log line when it failed. */
static void tell_saved(struct watched *x, const struct runner_event *ev, int ret, const char *err)
{
	struct runner_event told = *ev;
	char msg[DB_ERR_LEN + 32];

	if (ret < 0) {
		/* said once, not at every autosave that fails the same way */
		if (!strcmp(x->failed, err))
			return;
		snprintf(x->failed, sizeof(x->failed), "%s", err);
		snprintf(msg, sizeof(msg), "autosave failed: %s", err);
		told.kind = RUN_EV_LOG;
		told.msg = msg;
	} else {
		x->failed[0] = '\0';
		told.kind = RUN_EV_AUTOSAVE;
		told.msg = x->r->path;
	}
	told.step = NULL;
	told.sample = NULL;
	told.steady = NULL;
	if (x->fn)
		x->fn(x->arg, &told);
}

/*
 * A save refused because the run's name holds another file now (-ENOTUNIQ: its file was
 * removed by hand and the name taken by another run, result_file.c): the run is saved at
 * the next free name of its series beside it from then on, and says so. 0 when it was
 * (err says so), else ret.
 */
static int moved_on(struct watched *x, int ret, char *err, size_t errlen)
{
	char path[sizeof(x->r->path)], e2[DB_ERR_LEN], why[DB_ERR_LEN];

	if (ret != -ENOTUNIQ)
		return ret;
	snprintf(path, sizeof(path), "%s", x->r->path);
	snprintf(why, sizeof(why), "%s", err);
	if (result_create(&x->r->res, path, sizeof(path), RESULT_NEW, e2, sizeof(e2)) < 0)
		return ret;
	if (!x->moved_from[0])
		snprintf(x->moved_from, sizeof(x->moved_from), "%s", x->r->path);
	snprintf(x->r->path, sizeof(x->r->path), "%s", path);
	snprintf(err, errlen, "%s; the run is saved as %s from now on", why, path);
	return 0;
}

/*
 * An autosave's outcome (ret, err), told; the run moved on to another name first when
 * its own holds another file now (moved_on()): a log line says so, then the autosave.
 */
static void tell_save(struct watched *x, const struct runner_event *ev, int ret, char *err,
		      size_t errlen)
{
	if (ret < 0 && moved_on(x, ret, err, errlen) == 0) {
		struct runner_event told = *ev;

		told.kind = RUN_EV_LOG;
		told.msg = err;
		told.step = NULL;
		told.sample = NULL;
		told.steady = NULL;
		if (x->fn)
			x->fn(x->arg, &told);
		ret = 0;
	}
	tell_saved(x, ev, ret, err);
}

/*
 * Save the result (status incomplete) when the period has passed since the last save:
 * after a sample, a step or a phase. Every event, a sample's too, comes from the runner's
 * own thread (the engine's collector runs on it), so the result is never saved while it
 * changes: it is made text here, and the saver's thread writes that, so a results
 * directory that stops answering holds the saver, never the measurement. A save still
 * being written when the next is due puts that one off; one that takes longer than the
 * no-progress limit is said once.
 */
static void autosave(struct watched *x, const struct runner_event *ev)
{
	struct result_save s;
	uint64_t now = now_ns();
	char err[DB_ERR_LEN], d[32];
	int ret;

	x->last = *ev;
	if (x->saver && result_saver_take(x->saver, &s, 0)) {
		ret = result_save_finish(&x->r->res, &s, err, sizeof(err));
		tell_save(x, ev, ret, err, sizeof(err));
	}
	if (now - x->last_save_ns < x->save_period_ns)
		return;
	if (x->saver && result_saver_busy_ns(x->saver)) {
		if (result_saver_busy_ns(x->saver) >= x->answer_ns && !x->told_slow) {
			x->told_slow = true;
			snprintf(err, sizeof(err),
				 "%s: its directory has not answered a save for %s; the run "
				 "goes on, and is saved elsewhere at its end if it still does not",
				 x->r->path, units_fmt_duration(d, sizeof(d), x->answer_ns));
			tell_saved(x, ev, -ETIMEDOUT, err);
		}
		return;
	}
	x->last_save_ns = now;
	ret = result_save_prepare(&x->r->res, x->r->path, &s, err, sizeof(err));
	if (ret == 0 && x->saver && result_saver_give(x->saver, &s) == 0)
		return;
	if (ret == 0) {
		result_save_write(&s);
		ret = result_save_finish(&x->r->res, &s, err, sizeof(err));
	}
	tell_save(x, ev, ret, err, sizeof(err));
}

/* A thermal warning on step st of the result: kept in it and told as a log event. */
static void thermal_warning(struct watched *x, const struct runner_event *ev,
			    struct result_step *st, const char *text)
{
	char msg[480];

	result_step_warn(st, SW_THERMAL, "%s", text);
	snprintf(msg, sizeof(msg), "warning: step %s: %s [%s]", st->label, text,
		 step_warning_code[SW_THERMAL]);
	if (x->fn) {
		struct runner_event warn = *ev;
		warn.kind = RUN_EV_LOG;
		warn.msg = msg;
		x->fn(x->arg, &warn);
	}
}

/* The drive's health around the runner's phases and steps. */
static void health_event(struct watched *x, const struct runner_event *ev)
{
	struct result *res = &x->r->res;
	struct result_phase *ph = ev->phase_index < res->nphases ? &res->phases[ev->phase_index]
								  : NULL;
	char msg[320], step[64];

	switch (ev->kind) {
	case RUN_EV_PHASE_START:
		health_watch_phase_begin(x->w, ev->res->phases[ev->phase_index].name);
		attach_health(x->r, x->w);
		break;
	case RUN_EV_STEP_START:
		health_watch_step_begin(x->w);
		break;
	case RUN_EV_STEP_DONE: {
		/* the step is ours (r->res) and the runner is done with it: the drive's view joins
		 * it (found by its indices, and only if they name the event's step) */
		struct result_step *st =
			ph && ev->step_index < ph->nsteps ? &ph->steps[ev->step_index] : NULL;
		if (st != ev->step) {
			health_watch_step_end(x->w, ev->step ? ev->step->label : "", NULL, msg,
					      sizeof(msg));
			break;
		}
		if (health_watch_step_end(x->w, st->label, &st->drive, msg, sizeof(msg)))
			thermal_warning(x, ev, st, msg);
		break;
	}
	case RUN_EV_PHASE_DONE:
		/* a verdict on the phase's last steps, when they shared the drive's readings */
		if (health_watch_phase_end(x->w, step, sizeof(step), msg, sizeof(msg)) && ph) {
			for (unsigned i = ph->nsteps; i-- > 0;)
				if (!strcmp(ph->steps[i].label, step)) {
					thermal_warning(x, ev, &ph->steps[i], msg);
					break;
				}
		}
		attach_health(x->r, x->w);
		break;
	default:
		break;
	}
}

static void on_event(void *arg, const struct runner_event *ev)
{
	struct watched *x = arg;

	if (x->w)
		health_event(x, ev);
	if (x->fn)
		x->fn(x->arg, ev);
	if (ev->kind == RUN_EV_SAMPLE || ev->kind == RUN_EV_STEP_DONE ||
	    ev->kind == RUN_EV_PHASE_DONE)
		autosave(x, ev);
}

void run_save_elsewhere(struct result *res, const char *where, const char *results_dir,
			const struct settings *set, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR"), *base = strrchr(where, '/');
	char dirs[3][4096], path[4096], why[DB_ERR_LEN], e2[DB_ERR_LEN];
	size_t n = 0;

	base = base ? base + 1 : where;
	if (results_dir)
		snprintf(dirs[n++], sizeof(dirs[0]), "%s", results_dir);
	else if (result_dir_name(set, dirs[n], sizeof(dirs[0])) == 0)
		n++;
	snprintf(dirs[n++], sizeof(dirs[0]), "%s", tmp && tmp[0] == '/' ? tmp : "/tmp");
	snprintf(dirs[n++], sizeof(dirs[0]), "/tmp");
	snprintf(why, sizeof(why), "%s", err);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(dirs[i], dirs[i - 1]))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dirs[i], base) >= (int)sizeof(path) ||
		    !strcmp(path, where) ||
		    probe_path_answers(dirs[i], PROBE_ANSWER_MS) == -ETIMEDOUT ||
		    (!i && !results_dir && result_dir(set, e2, sizeof(e2)) < 0) ||
		    safety_check_output(path, NULL, 0, false, NULL, e2, sizeof(e2)) < 0 ||
		    result_create(res, path, sizeof(path), RESULT_NEW, e2, sizeof(e2)) < 0)
			continue;
		snprintf(err, errlen, "%s; the result is saved in %s instead", why, path);
		return;
	}
}

/*
 * The last save, by the saver (none: here), within the no-progress limit for it and an
 * autosave still being written, or until a signal (Ctrl-C) says not to wait: 0 or -errno
 * with err; -ETIMEDOUT when the result's directory did not answer by then.
 */
static int final_save(struct watched *x, char *err, size_t errlen)
{
	struct run *r = x->r;
	struct result_save s;
	uint64_t t0 = now_ns();
	const struct result_wait w = {.start = t0,
				      .end = t0 + x->answer_ns,
				      .stop = x->stop,
				      .seen = x->stop ? atomic_load(x->stop) : 0};
	char e2[DB_ERR_LEN];
	int ret;

	/* an autosave first: until it is finished its inode holds the file's lock */
	if (x->saver && result_saver_take_by(x->saver, &s, &w)) {
		ret = result_save_finish(&r->res, &s, e2, sizeof(e2));
		tell_save(x, &x->last, ret, e2, sizeof(e2));
	}
	ret = result_saver_save_by(x->saver, &r->res, r->path, &w, err, errlen);
	return moved_on(x, ret, err, errlen);
}

int run_execute(struct run *r, struct engine_ctl *ctl, uint64_t autosave_ns, runner_event_fn fn,
		void *arg, char *err, size_t errlen)
{
	struct runner_opts opts = {
		.ops = r->ops,
		.ctl = ctl,
		.erase_scope = r->erase_scope,
		.seeds_from = r->seeds_from,
		.engine_from = r->engine_from,
		.engine_own = r->engine_own,
		.app_dir = r->app_dir,
	};
	struct watched x = {.r = r,
			    .fn = fn,
			    .arg = arg,
			    .save_period_ns = autosave_ns ? autosave_ns : AUTOSAVE_NS,
			    .last_save_ns = now_ns(),
			    .stop = ctl ? &ctl->stop : NULL,
			    .answer_ns = engine_no_progress_ns(ctl)};
	struct drive *d = NULL;
	char perr[256];
	int ret;

	const struct target *targets[RUN_MAX_TARGETS];

	if (errlen)
		err[0] = '\0'; /* said only when the result could not be saved where it belongs */
	for (unsigned i = 0; i < r->nt; i++)
		targets[i] = &r->t[i];
	opts.targets = targets;
	opts.ntargets = r->nt;
	/* the drive's own view around the run: block devices only, never a file; of a run on
	 * several targets, the first target's drive (the result's "target") */
	if (r->t[0].is_blockdev && (d = malloc(sizeof(*d))) &&
	    drive_probe_devnum(r->t[0].rdev, d, perr, sizeof(perr)) == 0)
		x.w = health_watch_start(d, NULL, 0);
	free(d);
	/* an [app] phase makes a file system on the target: the door, having guarded it, lets
	   go of it (app.h checks again that nothing took it before mkfs) */
	for (unsigned i = 0; app_plan(r->plan) && i < r->nt; i++)
		target_close(&r->t[i]);
	if (app_plan(r->plan))
		release_claims(r);
	x.saver = result_saver_start();
	/* a file system mounted during the run over what it writes stops it (run_guard.h); an
	   [app] phase mounts its own on the target */
	struct run_guard *guard = ctl && plan_writes(r->plan) && !app_plan(r->plan)
					  ? run_guard_start(r->t, r->nt, &ctl->stop)
					  : NULL;
	ret = runner_run(r->plan, &r->t[0], &opts, &r->res, on_event, &x);
	char why[512];
	if (run_guard_end(guard, why, sizeof(why))) {
		struct runner_event told = {.kind = RUN_EV_ERROR, .msg = why};
		r->res.status = RS_FAILED;
		text_copy(r->res.error, sizeof(r->res.error), why);
		if (x.fn)
			x.fn(x.arg, &told);
		ret = ret ? ret : -EBUSY;
	}
	if (x.w) {
		health_watch_finish(x.w);
		attach_health(r, x.w);
		health_watch_free(x.w);
	}

	/* the devices are given back before the result is written and anyone told */
	for (unsigned i = 0; i < r->nt; i++)
		target_close(&r->t[i]);
	release_claims(r);
	int saved = final_save(&x, err, errlen);
	result_saver_stop(x.saver); /* left writing when it timed out */
	if (saved == -ETIMEDOUT)
		result_forget(&r->res);
	if (saved < 0) {
		run_save_elsewhere(&r->res, r->path, r->results_dir, r->settings, err, errlen);
		return -EIO;
	}
	if (x.moved_from[0]) {
		snprintf(err, errlen,
			 "%s: the name holds another file since the run took it (removed by hand "
			 "and "
			 "taken again?); the result is saved in %s instead",
			 x.moved_from, r->path);
		return -EIO;
	}
	return ret;
}

void run_close(struct run *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < RUN_MAX_TARGETS; i++)
		target_close(&r->t[i]);
	release_claims(r);
	result_free(&r->res);
	free(r);
}
