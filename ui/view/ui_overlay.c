/* What floats above the layout: the help overlay (h / ?), the detail card
 * of a clicked line row or core, and short status messages (screenshot
 * written, speed changed). */
#include "config.h"
#include "ui_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const help[][2] = {
	{"space", "pause / resume (leaves scrubbing)"},
	{".", "step one coherence transaction: what it was and its instruction"},
	{"[  ]", "halve / double the speed (simulated cycles per second)"},
	{"←  →", "scrub back / forward through recorded frames"},
	{"+  -", "zoom the timeline in / out (or the mouse wheel over it)"},
	{"0", "timeline: default zoom, follow the playhead"},
	{"drag, click", "timeline: pan; click to seek there"},
	{"v", "next variant"},
	{"2", "split view: this variant and the next side by side"},
	{"t", "frame-time breakdown (simulate, draw)"},
	{"r", "restart every variant"},
	{"s", "screenshot to the next free bounce-NNNN.png"},
	{"h  ?", "this help, then the terms on screen, then close"},
	{"q  Esc", "quit"},
	{"click", "a line row: its history; a core: its state (at the playhead)"},
};

/* Every term the view shows, as docs/architecture.md defines it. */
static const char *const terms[][2] = {
	{"ops", "executions of the workload's `mark op`: one counter operation"},
	{"ops / sim second", "ops per simulated second at the CPU model's clock"},
	{"cycles / op, L1 hit", "simulated cycles per op; accesses that hit in L1"},
	{"bounces", "a core gained write ownership of a line another core owned last"},
	{"HITM", "a request found the line dirty in another core's cache"},
	{"locked ops", "locked read-modify-writes (lock prefix, xchg)"},
	{"invalidations", "copies invalidated in other caches"},
	{"bold row", "a counter: its exact count (the ghost) or its value"},
	{"last read, max |err|", "the latest approximate read; its largest error"},
	{"note", "a fact to know before trusting the figures (as the reports say)"},
	{"Σ, @cpuN", "a per-CPU symbol: summed over CPUs; CPU N's copy"},
	{"M E S I F O, Sc Sm", "line states as the legend names them; a white frame marks the owner"},
	{"executing", "instructions and `work N`; L1 hit: a load's hit latency"},
	{"miss stall", "waiting for a coherence transaction to bring the line"},
	{"store-buffer stall", "store buffer full, or draining it (mfence, lock, hlt)"},
	{"locked op", "a locked RMW holding its line"},
	{"spinning", "cycles in `pause` (spin-wait loops)"},
	{"interrupt", "in an interrupt or softirq handler"},
	{"halted, idle", "executed hlt; no thread yet (start skew) or none"},
	{"mark", "cyan tick above the lanes: a `mark` executed (name at left)"},
	{"hatched", "activity older than the view keeps in memory"},
	{"window, speed", "time the timeline spans (the whole run once finished); cycles/s"},
	{"sim-bound", "the simulation cannot keep up with the speed asked for"},
	{"transfers", "read share (to S), ownership (RFO, to M), invalidation"},
	{"S19 (many cores)", "a socket's cell: its strongest line state, held in 19 caches"},
	{"heat, s0", "many cores: bounces per core in the last second; socket 0's lane"},
};

static void draw_help(struct ui_app *a, struct ui_gfx *g)
{
	int keys = a->help == 1;
	int n = keys ? (int)(sizeof help / sizeof help[0]) : (int)(sizeof terms / sizeof terms[0]);
	int row = keys ? 22 : 17, col = keys ? 130 : 170;
	SDL_Rect r = {0, 0, keys ? 600 : 640, 56 + n * row};
	r.x = (a->lay.w - r.w) / 2;
	r.y = (a->lay.h - r.h) / 2;
	ui_set_color(g->r, (SDL_Color){0, 0, 0, 140});
	SDL_RenderFillRect(g->r, NULL);
	ui_fill_round(g->r, r, ui_col_panel2, 8);
	ui_frame_rect(g->r, r, ui_col_grid, 1);
	ui_text_draw(g->txt, UI_FONT_TITLE, ui_col_text, r.x + 20, r.y + 14, UI_LEFT,
		     keys ? "Keys  (h again: terms)" : "Terms  (h again: close)");
	for (int i = 0; i < n; i++) {
		int y = r.y + 46 + i * row;
		ui_text_draw(g->txt, keys ? UI_FONT_BOLD : UI_FONT_SMALL, ui_col_accent, r.x + 20, y, UI_LEFT,
			     keys ? help[i][0] : terms[i][0]);
		ui_text_draw(g->txt, keys ? UI_FONT_NORMAL : UI_FONT_SMALL, ui_col_text, r.x + col, y, UI_LEFT,
			     keys ? help[i][1] : terms[i][1]);
	}
}

/* A card's body: text lines split at newlines, then more lines appended. */
struct card { char line[40][240]; int n; };

static void card_text(struct card *c, const char *body)
{
	for (const char *p = body; *p && c->n < 24;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		snprintf(c->line[c->n++], sizeof c->line[0], "%.*s", (int)(len < 239 ? len : 239), p);
		p += len + (e ? 1 : 0);
	}
}

/* What caused the line's HITMs, and its transactions up to the playhead. */
static void card_log(struct card *c, struct ui_machine *m, const struct ui_txn_log *log, uint64_t upto)
{
	if (!log)
		return;
	char where[120];
	int any = 0;
	/* Sorted copy of the HITM causes, busiest first. */
	int idx[UI_HITM_PCS], n = 0;
	for (int k = 0; k < UI_HITM_PCS; k++)
		if (log->hitm[k].n)
			idx[n++] = k;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && log->hitm[idx[j]].n > log->hitm[idx[j - 1]].n; j--) {
			int t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (int i = 0; i < n && c->n < 40; i++) {
		if (!any++)
			snprintf(c->line[c->n++], sizeof c->line[0], "HITMs by the instruction that caused them:");
		ui_machine_where(m, log->hitm[idx[i]].pc, where, sizeof where);
		snprintf(c->line[c->n++], sizeof c->line[0], "  %" PRIu64 "×  %s", log->hitm[idx[i]].n, where);
	}
	uint32_t k = log->n < UI_LINE_LOG ? log->n : UI_LINE_LOG;
	int shown = 0;
	for (uint32_t i = 0; i < k && c->n < 40 && shown < 10; i++) {
		const struct ui_txn *x = &log->t[(log->n - 1 - i) % UI_LINE_LOG];
		const struct ms_txn *t = &x->t;
		if (t->done > upto)
			continue; /* after the playhead */
		if (!shown++)
			snprintf(c->line[c->n++], sizeof c->line[0], "transactions (cycle, newest first):");
		char sup[24];
		if (t->supplier == MS_NO_CORE)
			snprintf(sup, sizeof sup, "memory");
		else
			snprintf(sup, sizeof sup, "cpu%d", t->supplier);
		ui_machine_where(m, x->pc, where, sizeof where);
		char *sp = strstr(where, "  ");
		if (sp)
			*sp = 0; /* file:line only: the card is narrow */
		snprintf(c->line[c->n++], sizeof c->line[0], "  %" PRIu64 "  cpu%d %s %s→%s from %s%s%s  %s",
			 t->done, t->core, ms_req_name(t->req), ui_state_name(ui_machine_protocol(m), t->from),
			 ui_state_name(ui_machine_protocol(m), t->to),
			 sup, t->hitm ? " HITM" : "", t->bounce ? " bounce" : "", where);
	}
}

static void draw_card(struct ui_app *a, struct ui_gfx *g, const char *title, const struct card *c)
{
	int w = 520, h = 40 + c->n * 17;
	SDL_Rect m = a->lay.machine;
	SDL_Rect r = {m.x + m.w - w - 10, m.y + 30, w, h};
	if (r.y + r.h > a->lay.h - 30)
		r.y = a->lay.h - 30 - r.h;
	ui_set_color(g->r, (SDL_Color){0x0c, 0x0e, 0x12, 235});
	SDL_RenderFillRect(g->r, &r);
	ui_frame_rect(g->r, r, ui_col_accent, 1);
	SDL_RenderSetClipRect(g->r, &r);
	ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_text, r.x + 12, r.y + 8, UI_LEFT, title);
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, r.x + w - 12, r.y + 10, UI_RIGHT, "click again to close");
	for (int i = 0; i < c->n; i++)
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_text, r.x + 12, r.y + 32 + i * 17, UI_LEFT, c->line[i]);
	SDL_RenderSetClipRect(g->r, NULL);
}

static void line_card(struct ui_app *a, struct ui_gfx *g, struct ui_var *v, const struct ui_snap *s,
		      const struct ui_row *row)
{
	struct card c = {.n = 0};
	char body[2048], title[120], now[32];
	if (a->scrub) {
		/* The recorded row: the counts and owner at the playhead. */
		char own[16] = "none";
		if (row->owner != MS_NO_CORE)
			snprintf(own, sizeof own, "cpu%d", row->owner);
		snprintf(body, sizeof body, "line %#" PRIx64 "  %s\nbounces %" PRIu64 "   HITM %" PRIu64
			 "   invalidations %" PRIu64 "\nowner %s", row->addr, row->name, row->stats.bounces,
			 row->stats.hitm, row->stats.invalidations, own);
	} else {
		ui_machine_line_detail(v->m, row->addr, body, sizeof body);
	}
	card_text(&c, body);
	card_log(&c, v->m, ui_var_log(v, row->addr), s->now);
	snprintf(title, sizeof title, "Line: %s  (at %s)", row->name,
		 ui_fmt_cycles(now, sizeof now, s->now, s->figs.ghz));
	draw_card(a, g, title, &c);
}

static void core_card(struct ui_app *a, struct ui_gfx *g, struct ui_var *v, const struct ui_snap *s, int core)
{
	struct card c = {.n = 0};
	char body[2048], title[120], now[32];
	if (a->scrub) {
		/* What the recorded frame knows of the core: its activity and
		 * its state for every displayed line; counters are not recorded. */
		size_t k = (size_t)snprintf(body, sizeof body, "cpu%d  %s\nstate of the hot lines:\n", core,
					    core_activity_names[s->act[core]].label);
		for (int i = 0; i < s->nrows && k < sizeof body; i++) {
			int st = s->state[(size_t)i * s->ncores + core];
			if (st != MS_I)
				k += (size_t)snprintf(body + k, sizeof body - k, "  %s  %s%s\n", ui_state_name(s->proto, st),
						      s->rows[i].name, s->rows[i].owner == core ? " (owner)" : "");
		}
		if (k < sizeof body)
			snprintf(body + k, sizeof body - k, "(counters are the live ones: space returns)");
	} else {
		ui_machine_core_detail(v->m, core, body, sizeof body);
	}
	card_text(&c, body);
	snprintf(title, sizeof title, "Core %d  (%s, at %s)", core, v->name,
		 ui_fmt_cycles(now, sizeof now, s->now, s->figs.ghz));
	draw_card(a, g, title, &c);
}

/* What the last step did, under the machine view while paused. */
static void draw_step(struct ui_app *a, struct ui_gfx *g)
{
	if (!a->step_what[0] || !a->paused || a->scrub)
		return;
	SDL_Rect m = a->lay.machine;
	SDL_Rect r = {m.x + 8, m.y + m.h - 66, m.w - 16, 60};
	ui_set_color(g->r, (SDL_Color){0x0c, 0x0e, 0x12, 230});
	SDL_RenderFillRect(g->r, &r);
	ui_frame_rect(g->r, r, ui_col_mark, 1);
	SDL_RenderSetClipRect(g->r, &r);
	/* "transaction\noutcome": the first line bold */
	char head[200];
	const char *nl = strchr(a->step_what, '\n');
	snprintf(head, sizeof head, "%.*s", nl ? (int)(nl - a->step_what) : (int)strlen(a->step_what), a->step_what);
	ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_text, r.x + 10, r.y + 4, UI_LEFT, head);
	if (nl)
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, r.x + 10, r.y + 22, UI_LEFT, nl + 1);
	ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_mark, r.x + 10, r.y + 40, UI_LEFT, a->step_why);
	SDL_RenderSetClipRect(g->r, NULL);
}

void ui_tip_add(struct ui_app *a, SDL_Rect r, const char *full)
{
	if (a->ntips < (int)(sizeof a->tip / sizeof a->tip[0])) {
		a->tip[a->ntips].r = r;
		snprintf(a->tip[a->ntips].text, sizeof a->tip[0].text, "%s", full);
		a->ntips++;
	}
}

static void draw_tip(struct ui_app *a, struct ui_gfx *g)
{
	for (int i = 0; i < a->ntips; i++) {
		SDL_Rect r = a->tip[i].r;
		if (a->mouse_x < r.x || a->mouse_x >= r.x + r.w || a->mouse_y < r.y || a->mouse_y >= r.y + r.h)
			continue;
		int w = ui_text_width(g->txt, UI_FONT_NORMAL, a->tip[i].text) + 16;
		SDL_Rect b = {a->mouse_x + 12, a->mouse_y + 16, w, 22};
		if (b.x + b.w > a->lay.w)
			b.x = a->lay.w - b.w - 4;
		ui_fill_round(g->r, b, ui_col_panel2, 4);
		ui_frame_rect(g->r, b, ui_col_grid, 1);
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, b.x + 8, b.y + 3, UI_LEFT, a->tip[i].text);
		return;
	}
}

void ui_draw_overlays(struct ui_app *a, struct ui_gfx *g)
{
	struct ui_var *v = &a->var[a->cur];
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	draw_step(a, g);
	const struct ui_row *sel = NULL;
	for (int i = 0; i < s->nrows && a->sel_line; i++)
		if (s->rows[i].addr + 1 == a->sel_line)
			sel = &s->rows[i];
	if (sel && v->m)
		line_card(a, g, v, s, sel);
	else if (a->sel_core >= 0 && a->sel_core < a->ncores && v->m)
		core_card(a, g, v, s, a->sel_core);
	if (a->status[0] && a->t_disp < a->status_until) {
		int w = ui_text_width(g->txt, UI_FONT_NORMAL, a->status) + 24;
		SDL_Rect r = {(a->lay.w - w) / 2, a->lay.header.h + 12, w, 26};
		ui_fill_round(g->r, r, ui_col_panel2, 6);
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, r.x + 12, r.y + 5, UI_LEFT, a->status);
	}
	draw_tip(a, g);
	if (a->help)
		draw_help(a, g);
}
