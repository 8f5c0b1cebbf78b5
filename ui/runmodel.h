/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_RUNMODEL_H
#define DB_UI_RUNMODEL_H
/*
 * The Run screen's model. A worker thread runs a queue of presets on one target, or on
 * several at once, through the run door (run.h); the runner's events are copied into
 * this model under a mutex, and the UI takes a snapshot of it at its own steady rate.
 * The lock is held only to copy a few kilobytes, once per sample interval on the worker
 * side, so the engine never waits for the screen: its I/O threads do not touch the
 * model at all.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "drive.h"
#include "engine.h"
#include "errbuf.h"
#include "plot.h"
#include "result.h"
#include "run.h"

#define RM_HISTORY   1024 /* samples kept for the plots */
#define RM_LADDER    64	  /* steps shown in the ladder table */
#define RM_QUEUE_MAX 16

enum rm_metric { RMM_IOPS, RMM_MEAN, RMM_MAX, RMM_STD, RMM_COUNT };
enum rm_line { RML_ALL, RML_READ, RML_WRITE, RML_COUNT };

struct rm_step {
	char label[64];
	bool done;
	enum result_status status;
	double iops;
	double mean_ns;
	double p99_ns;
};

#define RM_STREAMS ENGINE_MAX_STREAMS

/* A stream of the last finished step: one target of several, or a preset's [stream]. */
struct rm_stream {
	char label[64]; /* the target's base name, or the stream's name */
	double iops;
	double mean_ns;
};

/* What the screen needs, copied out in one go. */
struct run_snapshot {
	unsigned version; /* bumped on every change */
	bool active;	  /* the worker is running */
	bool paused;
	bool stopping;		   /* abort asked; the runner is winding down */
	bool finished;		   /* the queue ended (complete, aborted or failed) */
	enum result_status status; /* of the last finished run */
	char target[512];	   /* "nvme0n1 Samsung SSD 970 EVO Plus", "loop0 + loop1" */
	char preset[128];
	unsigned queue_index, queue_len;
	char phase[32];
	enum phase_kind phase_kind;
	unsigned phase_index, nphases;
	char step_label[64];
	unsigned step_index, phase_steps, step_global, steps_total;
	uint64_t elapsed_ns, eta_ns;
	uint64_t eta_max_ns;	/* the upper bound of the time left (runner_event) */
	bool eta_fill;		/* a fill not started is left out of eta_ns */
	uint64_t step_time_ns;	/* the running step's measured time */
	uint64_t step_start_ns; /* elapsed_ns when the running step started */
	bool mixed;		/* the running step both reads and writes */
	bool have_sample;
	struct sample last;	    /* the newest interval */
	struct sample step_summary; /* the last finished step */
	bool have_summary;
	bool have_steady;
	struct steady_info steady;
	double rounds[32]; /* tracked value of the recent rounds (steady phases) */
	unsigned nrounds;
	struct rm_stream streams[RM_STREAMS]; /* the last finished step's, when it had some */
	unsigned nstreams;
	char streams_step[64]; /* that step's label */
	struct rm_step ladder[RM_LADDER]; /* the steps of the current measure phase */
	unsigned nladder;
	uint64_t phase_start_ns; /* elapsed_ns when the running phase started */
	unsigned window_from;	 /* steady phases: the whole-phase sample the steady window
				    starts at; UINT_MAX when there is none yet */
	char log[256]; /* the newest message from the runner */
	char error[DB_ERR_LEN];
	char saved[4096]; /* the newest result file written */
	unsigned nsaved;  /* results written by this queue */
};

struct rm_target {
	char path[4096];
	char name[64];
	bool is_drive;
	struct drive drive; /* is_drive */
};

struct run_job {
	struct rm_target targets[RUN_MAX_TARGETS]; /* each step runs on all of them at once */
	unsigned ntargets;
	char confirms[RUN_MAX_TARGETS][4096]; /* typed device names, disk images' paths */
	uint64_t diskseqs[RUN_MAX_TARGETS];   /* per target, as chosen; 0: not checked */
	unsigned nconfirms;
	char presets[RM_QUEUE_MAX][4096]; /* paths */
	unsigned npresets;
	double scale;
	char results_dir[4096];
	const struct engine_ops *engine;
};

struct run_model;

/* Runs with the settings main() read (settings.h): directories, the engine's options. */
struct settings;
struct run_model *run_model_new(const struct settings *settings);
/* Stop any run, wait for the worker, free. */
void run_model_free(struct run_model *m);
/*
 * The Run screen's target line for job: "nvme0n1 Samsung SSD 970 EVO Plus" for a drive,
 * "loop0 + loop1" for several targets.
 */
char *run_model_target_line(const struct run_job *job, char *buf, size_t len);
/*
 * Start the job on a worker thread: 0, -EBUSY when one is running, or -errno. The job is
 * malloc'd and the model's from now on, whatever the outcome (no copy of its ~140 KB).
 */
int run_model_start(struct run_model *m, struct run_job *job, char *err, size_t errlen);
bool run_model_active(struct run_model *m);
/* Pause or resume the running step. */
void run_model_pause(struct run_model *m, bool pause);
/* Stop the run: the runner ends it as aborted and the result with what was measured is saved. */
void run_model_abort(struct run_model *m);
/*
 * Copy the state, the recent plot history (RMM_COUNT x RML_COUNT arrays of at most
 * RM_HISTORY values, oldest first) into series, and the whole running phase, downsampled
 * (series RM_WHOLE_SERIES(metric, line)), into whole; either may be NULL. Returns the
 * number of recent values per line.
 */
unsigned run_model_snapshot(struct run_model *m, struct run_snapshot *out,
			    double series[RMM_COUNT][RML_COUNT][RM_HISTORY],
			    struct plot_hist *whole);
#define RM_WHOLE_SERIES(metric, line) ((metric) * RML_COUNT + (line))

#endif
