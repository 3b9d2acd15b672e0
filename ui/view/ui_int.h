/* The visualizer's internal model, shared by its files: what one variant's
 * machine looks like at a displayed frame (struct ui_snap), the recorded
 * history behind the timeline and scrubbing, the transfer particles, the
 * screen layout, and the application state the event loop drives.
 * Only ui_source.c talks to the engine; everything else draws from here. */
#ifndef BOUNCE_UI_INT_H
#define BOUNCE_UI_INT_H

#include <SDL.h>
#include <stdint.h>

#include "ui_engine.h"
#include "ui_sink.h"
#include "view.h"
#include "ui_text.h"

#define UI_MAX_ROWS 16          /* hot-line rows at most */
#define UI_MAX_VARIANTS 8
#define UI_MAX_COUNTERS 16      /* reported symbols with figures */
#define UI_SNAP_XFERS 48        /* transfers recorded per frame for scrubbing */
#define UI_FOLD_CORES 64        /* above this the grid becomes a heat map */
#define UI_MARK_STRIP 10       /* px above the timeline's lanes for mark ticks */
#define UI_FPS 60               /* display rate the off-screen mode assumes */

enum ui_xfer { UI_XFER_SHARE, UI_XFER_RFO, UI_XFER_INVAL, UI_NXFERS };

/* ---- palette (ui_color.c) ---- */
extern const SDL_Color ui_col_bg, ui_col_panel, ui_col_panel2, ui_col_grid,
	ui_col_text, ui_col_dim, ui_col_accent, ui_col_owner, ui_col_mark, ui_col_marker;
extern const SDL_Color ui_col_hue[COH_NHUES];   /* by enum coh_hue: line states */
/* A line state's colour and its letters under protocol p (coherence.h). */
SDL_Color ui_state_color(const struct coh_protocol *p, int s);
const char *ui_state_name(const struct coh_protocol *p, int s);
extern const SDL_Color ui_col_act[CORE_NACTS]; /* by enum core_activity */
extern const SDL_Color ui_col_xfer[UI_NXFERS];
extern const char *const ui_xfer_name[UI_NXFERS];
SDL_Color ui_heat_color(float x); /* x in [0,1] */
SDL_Color ui_mix(SDL_Color a, SDL_Color b, float t);
void ui_set_color(SDL_Renderer *r, SDL_Color c);

/* ---- one variant's machine at a displayed frame ---- */
/* One reported symbol, read the way the report reads it (its first field,
 * summed over the per-CPU copies), with its ghost when the workload keeps
 * one: the exact count, and what the design's own reads returned. */
struct ui_counter {
	char name[40];
	uint8_t percpu;
	uint8_t scalar;         /* fits one value (<= 8 bytes a copy): `value` means something */
	uint8_t ghost;          /* the workload keeps an exact count of it */
	uint8_t accessed;       /* the run touched its lines */
	int64_t value;
	int64_t exact, last_read;
	uint64_t nreads, max_err;
	double mean_err;
};

#define UI_MAX_NOTES 2

struct ui_figs {
	uint64_t cycles, instructions, ops;
	double ghz;
	struct ms_stats tot;
	uint64_t locked_ops, locked_cycles;
	int ncounters;
	struct ui_counter ctr[UI_MAX_COUNTERS];
	int finished;           /* every thread halted or the stop condition hit */
	/* The run's notes so far (report_notes.h), as the reports state them:
	 * what a reader must know before trusting these figures. */
	int nnotes;
	char note[UI_MAX_NOTES][240];
};

struct ui_row {
	uint64_t addr;          /* line address */
	char name[40];          /* symbol (+offset) or hex address */
	int owner;              /* M/E/O owner, MS_NO_CORE if none */
	struct ms_stats stats;  /* the line's; the table shows mem_stats.h's view columns */
	uint8_t reported;       /* one of the scenario's reported symbols */
};

/* A transfer drawn in a frame, kept so that a paused or scrubbed frame
 * shows its traffic (from/to as for particles). */
struct ui_xrec { int from, to; uint8_t kind; uint16_t weight; };

struct ui_snap {
	uint64_t now;
	int ncores, nrows;
	uint8_t *act;           /* ncores: enum core_activity */
	uint8_t *state;         /* nrows x ncores: enum ms_state, row-major */
	const struct coh_protocol *proto; /* the states' protocol: their names and colours */
	float *heat;            /* ncores: bounces in the recent window */
	struct ui_row rows[UI_MAX_ROWS];
	int more_rows;          /* contended lines with no row (the table's "n more") */
	int nxrec;
	struct ui_xrec xrec[UI_SNAP_XFERS];
	struct ui_figs figs;
};

int ui_snap_alloc(struct ui_snap *s, int ncores);
void ui_snap_free(struct ui_snap *s);
void ui_snap_copy(struct ui_snap *dst, const struct ui_snap *src);

/* ---- recorded history (ui_history.c) ----
 * Per core, a ring of activity changes (the activity holds from t until the
 * next entry), bounded: old activity falls off the back. Marks are kept as
 * runs [t0, t1] of marks no more than mark_gap cycles apart; when the runs
 * fill their array, mark_gap doubles and neighbouring runs merge, so marks are
 * never forgotten and a run drawn at a scale of mark_gap cycles per pixel or
 * more covers exactly the columns its marks would. A ring of per-frame
 * snapshots serves scrubbing. */
struct ui_seg { uint64_t t; uint8_t act; };
struct ui_lane { struct ui_seg *seg; uint32_t cap, head, n; int dropped; /* forgot its oldest */ };
struct ui_mark_run { uint64_t t0, t1; };

struct ui_hist {
	int ncores;
	struct ui_lane *lane;
	struct ui_mark_run *mark;
	uint32_t mark_cap, mark_n;
	uint64_t mark_gap;
	char mark_names[48];    /* the marks' names, ", "-separated */
	struct ui_snap *snap;
	uint32_t snap_cap, snap_head, snap_n;
};

int ui_hist_init(struct ui_hist *h, int ncores, int nvariants);
void ui_hist_free(struct ui_hist *h);
void ui_hist_reset(struct ui_hist *h);
void ui_hist_activity(struct ui_hist *h, int core, uint64_t t, int act);
void ui_hist_mark(struct ui_hist *h, int core, uint64_t t, const char *name);
void ui_hist_push_snap(struct ui_hist *h, const struct ui_snap *s);
/* back = 0 is the newest snapshot; NULL when not recorded. */
const struct ui_snap *ui_hist_snap(const struct ui_hist *h, uint32_t back);
/* Index of the oldest recorded change at or before t in a lane (the lane's
 * first entry if t is older), or -1 if the lane is empty. */
long ui_lane_find(const struct ui_lane *l, uint64_t t);
static inline const struct ui_seg *ui_lane_at(const struct ui_lane *l, uint32_t i)
{
	return &l->seg[(l->head + i) % l->cap];
}

/* ---- transfers (ui_transfers.c) ----
 * Coherence transactions arrive from the engine observer during a frame;
 * at the end of the frame they are folded per (from, to, kind) into
 * particles that fly for a fixed display time. from/to are core ids, or
 * UI_MEM(socket) for memory. */
#define UI_MEM(sock) (-2 - (sock))
#define UI_IS_MEM(x) ((x) <= -2 && (x) > -4096)
#define UI_MEM_SOCK(x) (-2 - (x))
/* A whole socket: the folded view's endpoints. */
#define UI_SOCK(sock) (-4096 - (sock))
#define UI_IS_SOCK(x) ((x) <= -4096)
#define UI_SOCK_OF(x) (-4096 - (x))

struct ui_particle {
	int from, to;
	uint8_t kind;
	uint16_t weight;        /* transactions this particle stands for */
	float born;             /* display time, seconds */
};

struct pair_slot;
struct ui_xfers {
	struct ui_particle *pend;       /* this frame's transactions, folded */
	int npend, cap_pend;
	struct ui_particle *live;
	int nlive, cap_live;
	struct pair_slot *pairs;        /* per-flow throttle (ui_transfers.c) */
	float gap;                      /* seconds between particles of one flow */
	int max_live, max_per_frame;
	uint64_t dropped;
};

int ui_xfers_init(struct ui_xfers *x);
void ui_xfers_free(struct ui_xfers *x);
void ui_xfers_clear(struct ui_xfers *x);
void ui_xfers_add(struct ui_xfers *x, int from, int to, int kind);
void ui_xfers_commit(struct ui_xfers *x, float now);
void ui_xfers_expire(struct ui_xfers *x, float now);

/* ---- layout (ui_layout.c) ---- */
struct ui_layout {
	int w, h;
	SDL_Rect header, machine, lines, panel, timeline, footer;
	int folded;             /* heat map and per-socket line summaries */
	int compact;            /* socket boxes without titles and memory strips */
	int nsockets, cps;
	SDL_Rect *socket;       /* nsockets: socket boxes */
	SDL_Rect *mem;          /* nsockets: the socket's memory strip */
	SDL_Rect *core;         /* ncores: core tiles (heat cells when folded) */
	/* line table */
	int row_h, label_w, cell_w, ncols, nrows_fit, stats_w;
	SDL_Rect cells;         /* the cell matrix of the table */
	/* timeline */
	SDL_Rect plot;          /* lanes area (without labels) */
	int nlanes, cores_per_lane, lane_h;
};

int ui_layout_alloc(struct ui_layout *l, int ncores, int cps);
void ui_layout_free(struct ui_layout *l);
/* rows_hint: how many hot-line rows there are to show (the table gets no
 * more height than they need, the machine view the rest). */
void ui_layout_compute(struct ui_layout *l, struct ui_text *t, int w, int h, int ncores,
		       int nvariants, int rows_hint, int pane, int npanes);
/* Hit tests: -1 when outside. */
int ui_layout_core_at(const struct ui_layout *l, int ncores, int x, int y);
int ui_layout_row_at(const struct ui_layout *l, int nrows, int x, int y);
SDL_Point ui_layout_anchor(const struct ui_layout *l, int who); /* core, UI_MEM(s), UI_SOCK(s) */

/* ---- the engine adapter (ui_source.c) ---- */
struct scenario;
struct err;
struct ui_machine;
struct ui_var;
struct ui_txn;

int ui_source_nvariants(const struct scenario *sc);
const char *ui_source_variant_name(const struct scenario *sc, int i);
struct ui_machine *ui_machine_create(const struct scenario *sc, int variant,
				     const struct scen_overrides *ov, struct ui_var *v, struct err *e);
void ui_machine_destroy(struct ui_machine *m);
const struct cpu_model *ui_machine_cpu(const struct ui_machine *m); /* cores = final count */
/* The CPU model variant `variant` will run on, as ui_machine_cpu gives it,
 * from the scenario alone: nothing assembled, no machine built. */
int ui_source_cpu(const struct scenario *sc, int variant, const struct scen_overrides *ov,
		  struct cpu_model *out, struct err *e);
int ui_machine_restart(struct ui_machine *m, struct err *e);
/* Install the engine observers (after the variant's history exists). */
void ui_machine_attach(struct ui_machine *m);
uint64_t ui_machine_now(const struct ui_machine *m);
/* Run until simulated cycle `until` (or the end); 1 when finished. */
int ui_machine_run(struct ui_machine *m, uint64_t until, struct err *e);
/* One coherence transaction (or the next event); 1 when finished. */
int ui_machine_step(struct ui_machine *m, struct err *e);
/* Fill s (allocated for this machine's core count) with the state now. */
void ui_machine_snap(struct ui_machine *m, struct ui_snap *s, int want_rows);
/* Everything about one line and one core, for the click-through panels. */
int ui_machine_line_detail(struct ui_machine *m, uint64_t addr, char *buf, size_t n);
int ui_machine_core_detail(struct ui_machine *m, int core, char *buf, size_t n);
/* An instruction as "file:line  source text" (the file's base name). */
void ui_machine_where(struct ui_machine *m, uint32_t pc, char *buf, size_t n);
/* The machine's protocol: its states' names and colours. */
const struct coh_protocol *ui_machine_protocol(const struct ui_machine *m);
/* A line's name: symbol (+offset), per-CPU copy, or hex address. */
void ui_machine_line_name(struct ui_machine *m, uint64_t line, char *buf, size_t n);
/* One transaction in words, and the instruction behind it. */
void ui_machine_describe(struct ui_machine *m, const struct ui_txn *x, char *what, size_t nw,
			 char *why, size_t ny);

/* ---- per-variant state and the application (ui_main.c, ui_app.c) ---- */
#define UI_LINE_LOG 24          /* transactions kept per displayed row */

#define UI_HITM_PCS 4           /* instructions named per line */
#define UI_RECENT 8192          /* transactions remembered per variant, any line */

/* A transaction with the instruction it was for. */
struct ui_txn { struct ms_txn t; uint32_t pc; };

/* What one displayed line saw since it got its row, keyed by the line so
 * that a card never lists another line's transactions. */
struct ui_txn_log {
	uint64_t line;          /* line + 1; 0 = unused */
	struct ui_txn t[UI_LINE_LOG];
	uint32_t n;
	struct { uint32_t pc; uint64_t n; } hitm[UI_HITM_PCS]; /* busiest HITM causes */
};

struct ui_var {
	char name[48];
	int visible;                    /* the variant on screen: only it spawns particles */
	int folded;                     /* particles fly between sockets, not cores */
	int nsockets;
	uint32_t line_size;
	struct ui_machine *m;
	struct ui_hist hist;
	struct ui_snap live;            /* refreshed every frame */
	struct ui_xfers xf;
	float *heat;                    /* decaying bounce counts per core */
	struct ui_txn_log log[UI_MAX_ROWS]; /* per displayed line, any order */
	/* The latest transactions on any line: a line that gets a row starts
	 * its log with what it saw before. */
	struct ui_txn *recent;
	uint32_t recent_n, recent_head;
	struct ui_txn last;             /* the latest transaction (what a step did) */
	int has_last;
	int finished;
	int cps;
};

struct ui_app {
	const struct scenario *sc;
	char title[128], cpu[128];
	int nvar, cur;
	int left_out;                   /* variants of another machine shape, not shown */
	struct ui_var var[UI_MAX_VARIANTS];
	int ncores, cps, nsockets;

	double speed;           /* simulated cycles per displayed second */
	double t_disp;          /* display clock, seconds (animation) */
	uint64_t target;        /* simulated cycle the display wants to reach */
	unsigned long frame;
	int paused;
	uint32_t scrub;         /* frames back from live; 0 = live */
	int help;                       /* 0 off, 1 keys, 2 terms (h cycles them) */
	uint64_t sel_line;      /* the clicked line + 1; 0 = none */
	int sel_core;           /* the clicked core; -1 = none */
	char step_what[200], step_why[200]; /* what the last step did, while paused */
	int lagging;            /* the simulation could not keep up last frame */
	char status[128];
	double status_until;
	double last_sim_ms, last_draw_ms;
	int show_times;         /* window only: off-screen images stay deterministic */
	double part_ms[8];      /* draw time by part, the `t` key's breakdown */
	double tl_zoom;         /* timeline span divisor; 1 = the speed's default span */
	int tl_follow;          /* the timeline window follows the playhead */
	double tl_t0;           /* its start when not following (panned) */
	int drag_x;             /* timeline drag in progress from x; -1 = none */
	double drag_t0;
	int dragged;

	struct ui_layout lay;
	int lay_rows;           /* rows_hint the layout was computed for */
	/* Split view: a second machine, table and timeline beside the first,
	 * for variant `other`, on the same simulated clock. */
	int split, other;
	struct ui_layout lay2;

	/* Names shortened on screen, with their full text for hovering;
	 * collected while a frame draws. */
	int mouse_x, mouse_y;
	int ntips;
	struct ui_tip { SDL_Rect r; char text[64]; } tip[64];
};

void ui_tip_add(struct ui_app *a, SDL_Rect r, const char *full);

/* The snapshot the screen shows (live or scrubbed) for variant v. */
const struct ui_snap *ui_app_snap(const struct ui_app *a, int v);
/* Engine observer entry points, called by ui_source.c while it runs. */
void ui_var_on_txn(struct ui_var *v, const struct ms_txn *t, uint32_t pc, const int *inval, int ninval);
/* The log of a displayed line, NULL when it has none. */
const struct ui_txn_log *ui_var_log(const struct ui_var *v, uint64_t line);
void ui_var_on_activity(struct ui_var *v, int core, uint64_t t, int act);
void ui_var_on_mark(struct ui_var *v, int core, uint64_t t, const char *name);

/* ---- drawing: one code path for window and off-screen ---- */
struct ui_gfx {
	SDL_Renderer *r;
	struct ui_text *txt;
	SDL_Texture *dot;       /* soft particle, white, colour-modulated */
};

int ui_gfx_init(struct ui_gfx *g, SDL_Renderer *r, struct ui_fonts *f);
void ui_gfx_free(struct ui_gfx *g);
void ui_draw_frame(struct ui_app *a, struct ui_gfx *g);
void ui_draw_cores(struct ui_app *a, struct ui_gfx *g);
void ui_draw_core_labels(struct ui_app *a, struct ui_gfx *g);
void ui_draw_transfers(struct ui_app *a, struct ui_gfx *g);
void ui_draw_lines(struct ui_app *a, struct ui_gfx *g);
void ui_draw_timeline(struct ui_app *a, struct ui_gfx *g);
void ui_timeline_window(const struct ui_app *a, uint64_t play, uint64_t *t0, uint64_t *t1);
uint64_t ui_timeline_time_at(const struct ui_app *a, int x);
void ui_draw_panel(struct ui_app *a, struct ui_gfx *g);
void ui_draw_overlays(struct ui_app *a, struct ui_gfx *g);

/* small drawing helpers (ui_gfx.c) */
void ui_fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c);
void ui_frame_rect(SDL_Renderer *r, SDL_Rect rc, SDL_Color c, int thick);
void ui_fill_round(SDL_Renderer *r, SDL_Rect rc, SDL_Color c, int rad);
void ui_line_thick(SDL_Renderer *r, float x0, float y0, float x1, float y1, int thick);
void ui_box(struct ui_gfx *g, SDL_Rect rc, const char *title);
const char *ui_fmt_count(char *buf, size_t n, double v);
const char *ui_fmt_cycles(char *buf, size_t n, uint64_t c, double ghz);

/* An off-screen target: an ARGB8888 surface with a software renderer. */
struct ui_offscreen {
	SDL_Surface *surf;
	SDL_Renderer *r;
	struct ui_gfx g;
};
int ui_offscreen_open(struct ui_offscreen *o, struct ui_fonts *f, int w, int h, char *errbuf, size_t n);
/* A sink (ui_sink.h) for callers that give none (test drivers): the file is
 * written in place and removed on failure, not replaced whole. */
extern const struct ui_sink ui_plain_sink;
/* Write the surface as PNG to f, which the caller opened and closes (for a
 * path of the command line, an output file of the CLI: ui_sink). */
int ui_offscreen_save(struct ui_offscreen *o, FILE *f, char *errbuf, size_t n);
void ui_offscreen_close(struct ui_offscreen *o);
/* Render the current frame off-screen at w x h and save it as the new file
 * path (the `s` key), or fail and leave nothing. */
int ui_render_png(struct ui_app *a, struct ui_fonts *f, int w, int h, const char *path,
		  char *errbuf, size_t n);

/* ---- the application (ui_app.c) ---- */
int ui_app_init(struct ui_app *a, const struct scenario *sc, const struct ui_options *opt,
		struct err *e);
void ui_app_free(struct ui_app *a);
/* Advance the display clock by dt seconds and the simulation with it;
 * budget_ms > 0 bounds the wall time spent simulating (window mode). */
int ui_app_tick(struct ui_app *a, double dt, double budget_ms, struct err *e);
int ui_app_step(struct ui_app *a, struct err *e);
int ui_app_restart(struct ui_app *a, struct err *e);
void ui_app_status(struct ui_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_app_layout(struct ui_app *a, struct ui_text *t, int w, int h);

#endif
