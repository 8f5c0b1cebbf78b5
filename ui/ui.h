/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_UI_UI_H
#define DB_UI_UI_H
/*
 * The TUI's shared state and drawing helpers. One struct app holds everything the
 * screens show; only the main thread touches it. The run worker talks to the screens
 * through struct run_model (runmodel.h), which has its own lock.
 */
#include <stdbool.h>
#include <stdint.h>

#include "drive.h"
#include "errbuf.h"
#include "health.h"
#include "keys.h"
#include "list.h"
#include "marks.h"
#include "plot.h"
#include "result_io.h"
#include "runmodel.h"
#include "theme.h"

struct scratch_filler;

#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24
#define UI_TICK_MS  125 /* the screen refreshes at 8 Hz */

enum ui_screen { SCR_DRIVES, SCR_PRESETS, SCR_RUN, SCR_RESULTS, SCR_HELP, SCR_COUNT };

/* Characters that need UTF-8, with the ASCII a C locale gets instead. */
struct glyphs {
	const char *sel, *hline, *vline, *mark, *ok, *bad, *dot, *degraded, *left, *right, *bar,
		*le, *ellipsis, *tick;
};

/* Something the user can run on: a discovered drive, the scratch file, a --target file. */
struct ui_target {
	char name[64]; /* "nvme0n1", "scratch", or the file's base name */
	char path[4096];
	bool is_drive;
	bool is_scratch;
	struct drive drive; /* is_drive */
	uint64_t size_bytes;
	struct health *health; /* is_drive: read when the detail pane first shows it; malloc'd */
};

struct ui_preset {
	char name[64]; /* the file's base name: what `--preset` takes */
	char path[4096];
	char title[128]; /* its [preset] name */
	char description[1024];
	uint64_t duration_ns; /* at x1; an upper bound when bounded */
	bool bounded;	      /* steady phases, fills: the time is a limit, not a plan */
	char eta[96];	      /* "about 6h 40m", "at least 10m, at most 6h 05m" (plan_eta_words) */
	bool writes;
	char error[DB_ERR_LEN]; /* it failed to parse: shown instead of running it */
};

#define UI_QUEUE_MAX 16

enum dialog_kind { DLG_NONE, DLG_CONFIRM, DLG_TYPE, DLG_EXPORT, DLG_MESSAGE, DLG_EDIT };

struct dialog {
	enum dialog_kind kind;
	enum key_action then; /* what confirming does */
	char title[128];
	char text[512];
	char expect[64]; /* DLG_TYPE: what must be typed */
	char input[64];
	char edit[RESULT_NOTE_BYTES]; /* DLG_EDIT: the text being written (UTF-8) */
};

struct app {
	/* look */
	struct theme theme;
	char theme_names[16][64];
	unsigned ntheme;
	int theme_index; /* into theme_names; -1 for a theme given by path */
	bool colours;	 /* the terminal has colours, and NO_COLOR is not set */
	struct screen *term; /* newterm()'s screen */
	const struct siteconf *site; /* the site's defaults (theme, library) */
	const struct settings *settings; /* main()'s: the environment's directories */
	bool utf8;	 /* braille and box drawing */
	const struct glyphs *g;
	char warning[DB_ERR_LEN]; /* theme warnings, shown on the status line */

	enum ui_screen screen, back; /* back: where help returns to */
	int rows, cols;
	bool quit;
	char status[512]; /* a transient message on the bottom line */
	int status_role;
	unsigned status_ticks;
	struct dialog dlg;

	/* Drives */
	struct ui_target *targets;
	struct ui_list drive_rows; /* over targets: drive_rows.n of them */
	int chosen;		/* index into targets */
	char chosen_path[4096]; /* kept across rescans */
	struct marks marks;	/* the targets marked for a run on several at once */
	struct drive_monitor *monitor;
	char scan_error[DB_ERR_LEN];
	struct scratch_filler *scratch_filler; /* writing the scratch file out, or NULL */
	unsigned scratch_pct;		       /* how far it is */

	/* Presets */
	struct ui_preset *presets;
	struct ui_list preset_rows; /* over presets: preset_rows.n of them */
	unsigned queue[UI_QUEUE_MAX];
	unsigned nqueue;
	unsigned scale_index;
	struct confirm_seq confirm; /* the devices a writing queue asks to be typed, in turn */
	/* each drive target's disk sequence number when start was asked (run.h: diskseqs) */
	struct {
		char path[4096];
		uint64_t diskseq;
	} asked[RUN_MAX_TARGETS];
	unsigned nasked;

	/* Run: the screen's own copy of the model, so drawing never holds its lock */
	struct run_model *run;
	struct run_snapshot snap;
	double (*series)[RML_COUNT][RM_HISTORY]; /* [RMM_COUNT], malloc'd */
	struct plot_hist *whole;                 /* the running phase, malloc'd */
	bool plot_recent;                        /* plots show the last minutes, not the phase */
	struct plot_grid grid;

	/* Results */
	struct result_list results;
	bool *marked;
	struct ui_list result_rows; /* over results */
	unsigned metric;
	char results_dir[4096];
	struct result_listing *listing; /* the list being made again (NULL: not) */
	bool listing_again;		/* asked for again meanwhile: once it answers */
	unsigned listing_ticks;		/* ticks it has taken so far */
	struct compare_view *cmp; /* the comparison of the marked results, cached */
	bool cmp_dirty;
	struct ui_list cmp_rows;  /* the comparison's rows (over all tables), a pager */
	struct ui_list cmp_cols;  /* its run columns; sel is the first one shown */
	char *details;            /* the selected result in full (report_show), or NULL */
	char **details_lines;     /* into details, one per line: detail_rows.n of them */
	struct ui_list detail_rows; /* a pager */
	struct ui_list detail_cols; /* n: the widest line; sel: the columns scrolled past */
	char details_name[256];   /* the file's name, for the title */
	struct result_loading *details_loading; /* the details' result being read (NULL: not) */
	bool charts;              /* the chart view is open (chart_view.c) */
	struct ui_list chart_pages; /* sel: the chart it shows; clamped when drawn */
	bool chart_quad;          /* the four metrics of a test at once, 2x2 */
	/* what is asked of a result file (results_files.c), or NULL */
	struct result_chore *chore;
	enum result_chore_kind chore_kind;
	enum key_action chore_act; /* for what: ACT_LABEL, ACT_NOTE, ACT_DELETE, ACT_OPEN */
	bool chore_emptied;	   /* a label or note removed */
	char chore_path[4096];
	struct export_job *export; /* a comparison being written (results_export.c), or NULL */
	char asked_path[4096]; /* what the editor or the delete dialog open is about */

	/* Help: a pager whose cursor is the first line shown */
	struct ui_list help_rows;
};

/* ---- draw.c ------------------------------------------------------------------- */
void ui_theme_apply(struct app *a);
int ui_attr(const struct app *a, enum ui_role role);
/* Columns s takes on screen. */
int ui_width(const struct app *a, const char *s);
/* Print s at (y, x) in at most maxw columns; returns the columns used. */
int ui_text(const struct app *a, int y, int x, int maxw, enum ui_role role, const char *s);
int ui_textf(const struct app *a, int y, int x, int maxw, enum ui_role role, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Right-aligned in the maxw columns ending at x + maxw. */
int ui_text_right(const struct app *a, int y, int x, int maxw, enum ui_role role, const char *s);
/* Blank w columns in a role (its background). */
void ui_fill(const struct app *a, int y, int x, int w, enum ui_role role);
/* A horizontal rule across the screen with an optional title: " ─ title ─────". */
void ui_rule(const struct app *a, int y, const char *title);
/* A plot grid at (y, x). */
void ui_plot(const struct app *a, int y, int x, const struct plot_grid *g);
/* A value as an axis label into buf. */
typedef char *(*ui_fmt_fn)(char *buf, size_t len, double v);
/* Seconds as a duration: "5 s", "1m 30s". */
char *ui_fmt_secs(char *buf, size_t len, double s);
/*
 * Axis text on the line at (y, x), w cells, with busy[w] the cells taken: s at cell at,
 * when it fits and the cells it takes and one either side are free; it takes them then.
 */
bool ui_axis_label(const struct app *a, int y, int x, int w, int at, enum ui_role role,
		   const char *s, bool *busy);
/*
 * The ticks of an axis line w cells wide from 0 to span (seconds when time), each with
 * its label where it fits beside those placed before (ui_axis_label); back: counted from
 * the right edge, labelled "-30 s".
 */
void ui_axis_ticks(const struct app *a, int y, int x, int w, double span, bool time,
		   bool back, ui_fmt_fn fmt, bool *busy);
/* The scale right of a plot of rows rows at (y, x), lw wide: ymax, 0, and round steps. */
void ui_yscale(const struct app *a, int y, int x, int lw, int rows, double ymax, ui_fmt_fn fmt);
/* Set the status line message for a few seconds. */
void ui_status(struct app *a, enum ui_role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The bottom line of hints: pairs of (action in scope, words), drawn from the key table. */
void ui_hints(const struct app *a, int y, enum key_scope scope, const enum key_action *acts,
	      const char *const *words, unsigned n);

/* ---- screens ------------------------------------------------------------------ */
void drives_load(struct app *a);
/* Release the target list and what was read for it (health). */
void drives_free(struct app *a);
void drives_poll_hotplug(struct app *a);
/* The scratch file's write-out: progress, and the news when it ends. */
void drives_poll_scratch(struct app *a);
/* Is t the scratch file, still being written out? */
bool drives_scratch_busy(const struct app *a, const struct ui_target *t);
void drives_draw(struct app *a, int top, int bottom);
void drives_key(struct app *a, enum key_action act);
const struct ui_target *drives_chosen(const struct app *a);
/*
 * The targets a queue runs on: the marked ones still listed, in the order marked, or
 * the chosen one when none is; into out (RUN_MAX_TARGETS), returns how many.
 */
unsigned drives_targets(const struct app *a, const struct ui_target **out);
/* "loop0 + loop1": the names of drives_targets(), or "no target". */
char *drives_targets_name(const struct app *a, char *buf, size_t len);

void presets_load(struct app *a);
void presets_draw(struct app *a, int top, int bottom);
void presets_key(struct app *a, enum key_action act);
double presets_scale(const struct app *a);
/* The operator typed `typed` for the next device of a->confirm: ask for the next, or start. */
void presets_confirmed(struct app *a, const char *typed);

void run_draw(struct app *a, int top, int bottom);
void run_key(struct app *a, enum key_action act);

/*
 * The list made again, in the background (result_io.h: a results directory on a share
 * that stopped answering never holds the screen); the list shown until then is the one
 * it had. results_list_poll() (every tick) takes it when it comes.
 */
void results_load(struct app *a);
void results_list_poll(struct app *a);
void results_draw(struct app *a, int top, int bottom);
void results_key(struct app *a, enum key_action act);
/* List the result file or directory at path from now on (the library remembers it). */
void results_open(struct app *a, const char *path);
void results_free(struct app *a);

/* ---- results_files.c: labels, notes and deletions, in the background -------------- */
/* n, N: the editor opens on what the selected file holds, once it is read. */
void results_ask_annotate(struct app *a, enum key_action what);
/* Set the label (ACT_LABEL) or note (ACT_NOTE) of the file the editor was opened on. */
void results_annotate(struct app *a, enum key_action what, const char *text);
/* d: the dialog opens once no run is found saving the selected file. */
void results_ask_delete(struct app *a);
/* The dialog's yes: its file is deleted. */
void results_delete(struct app *a);
/* Take what a chore answered, if it has (every tick, on any screen). */
void results_poll(struct app *a);
/* Is a file being changed (a label, a note, a deletion)? Then what, for a quit dialog. */
bool results_changing(const struct app *a, char *what, size_t len);
void results_files_free(struct app *a);

/* ---- results_export.c: the comparison exported, written in the background -------- */
/* A format chosen: the comparison shown rendered, and written to the exports directory. */
void results_export(struct app *a, int format);
/* Take what the export's write answered, if it has (every tick, on any screen). */
void results_export_poll(struct app *a);
/* Is an export being written? Then what, for a quit dialog. */
bool results_exporting(const struct app *a, char *what, size_t len);
void results_export_free(struct app *a);

struct report;
/* ---- results_compare.c: the Results screen's comparison --------------------------- */
struct compare_view;
void compare_free(struct compare_view *c);
/* Begin comparing the marked results (the selected one when none is): read in the
   background, built by compare_poll() when read; an earlier one unread is dropped. */
void compare_build(struct app *a);
/* Is the comparison's reading done? Then build it (as the screen is drawn). */
void compare_poll(struct app *a);
/* The comparison built, or NULL (none, being read, or failed). */
const struct report *compare_report(const struct app *a);
/* Are the comparison's results being read? */
bool compare_reading(const struct app *a);
/* How many results are marked. */
unsigned results_nmarked(const struct app *a);
/* Under the list from line y: the comparison in the chosen metric. */
void draw_comparison(struct app *a, int y, int bottom);

/* ---- chart_view.c ----------------------------------------------------------------- */
struct report;
/* How many charts the comparison has: preconditioning's four, a ladder or rate curve each. */
unsigned charts_count(const struct report *rep, bool quad);
/* Between one metric a chart and the 2x2 view of four, the same test kept in view. */
void charts_quad(struct app *a, const struct report *rep);
/* The chart pages->sel (clamped to the charts rep has) between top and bottom. */
void charts_draw(struct app *a, const struct report *rep, struct ui_list *pages, int top,
		 int bottom);

void help_draw(struct app *a, int top, int bottom);
void help_key(struct app *a, enum key_action act);

/* "21,204": a count with thousands separators. */
char *ui_fmt_int(char *buf, size_t len, double v);

/* Open a dialog. */
void ui_confirm(struct app *a, enum key_action then, const char *title, const char *text);
void ui_type_confirm(struct app *a, enum key_action then, const char *title, const char *text,
		     const char *expect);
/* A line of text to write, starting from `text`; Enter hands it to `then`, Esc drops it. */
void ui_edit(struct app *a, enum key_action then, const char *title, const char *text);

#endif
