/* Transfers as particles: the engine reports every coherence transaction;
 * during a frame they are folded per (from, to, kind), and at the frame's
 * end each fold becomes one particle whose size grows with the number of
 * transactions it stands for. At a thousand cores that keeps the particle
 * count bounded by the screen, not by the traffic. */
#include "config.h"
#include "ui_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LIFE 0.75f              /* seconds a particle flies */
#define MAX_LIVE 1200
#define MAX_PER_FRAME 160
#define FOLD_SLOTS 4096         /* power of two */
#define PAIR_SLOTS 8192         /* power of two */
#define PAIR_GAP 0.12f          /* seconds between particles of one flow */

static int fold_idx[FOLD_SLOTS];

/* A steady flow between two caches would put a particle on the path every
 * frame, a string of beads nobody can count. Each (from, to, kind) emits at
 * most one particle per PAIR_GAP carrying what accumulated since. */
struct pair_slot {
	int from, to;
	uint8_t kind, used;
	uint32_t acc;
	float last;
};

static struct pair_slot *pair_of(struct pair_slot *pairs, const struct ui_particle *p)
{
	unsigned h = ((unsigned)(p->from + 3) * 2654435761u ^ (unsigned)(p->to + 3) * 97u ^ p->kind) &
		     (PAIR_SLOTS - 1);
	for (int probe = 0; probe < 64; probe++) {
		struct pair_slot *s = &pairs[h];
		if (!s->used) {
			*s = (struct pair_slot){p->from, p->to, p->kind, 1, 0, -1e9f};
			return s;
		}
		if (s->from == p->from && s->to == p->to && s->kind == p->kind)
			return s;
		h = (h + 1) & (PAIR_SLOTS - 1);
	}
	return NULL; /* table crowded: emit unthrottled */
}

int ui_xfers_init(struct ui_xfers *x)
{
	memset(x, 0, sizeof *x);
	x->cap_pend = 1024;
	x->cap_live = MAX_LIVE;
	x->max_live = MAX_LIVE;
	x->max_per_frame = MAX_PER_FRAME;
	x->gap = PAIR_GAP;
	x->pend = malloc(x->cap_pend * sizeof *x->pend);
	x->live = malloc(x->cap_live * sizeof *x->live);
	x->pairs = calloc(PAIR_SLOTS, sizeof(struct pair_slot));
	return x->pend && x->live && x->pairs ? 0 : -1;
}

void ui_xfers_free(struct ui_xfers *x)
{
	free(x->pend);
	free(x->live);
	free(x->pairs);
	memset(x, 0, sizeof *x);
}

void ui_xfers_clear(struct ui_xfers *x)
{
	x->npend = x->nlive = 0;
	if (x->pairs)
		memset(x->pairs, 0, PAIR_SLOTS * sizeof(struct pair_slot));
}

/* Folding uses a linear scan of the last few entries first: a burst of
 * transactions on one contended line repeats the same pair back to back. */
void ui_xfers_add(struct ui_xfers *x, int from, int to, int kind)
{
	for (int i = x->npend - 1; i >= 0 && i >= x->npend - 8; i--) {
		struct ui_particle *p = &x->pend[i];
		if (p->from == from && p->to == to && p->kind == kind) {
			if (p->weight < UINT16_MAX)
				p->weight++;
			return;
		}
	}
	if (x->npend == x->cap_pend) {
		int ncap = x->cap_pend * 2;
		if (ncap > (1 << 20)) {
			x->dropped++;
			return;
		}
		struct ui_particle *np = realloc(x->pend, ncap * sizeof *np);
		if (!np) {
			x->dropped++;
			return;
		}
		x->pend = np;
		x->cap_pend = ncap;
	}
	x->pend[x->npend++] = (struct ui_particle){from, to, (uint8_t)kind, 1, 0};
}

static int by_weight_desc(const void *a, const void *b)
{
	const struct ui_particle *p = a, *q = b;
	return (int)q->weight - (int)p->weight;
}

static unsigned fold_hash(const struct ui_particle *p)
{
	unsigned h = (unsigned)(p->from + 3) * 2654435761u ^ (unsigned)(p->to + 3) * 40503u ^ p->kind;
	return h & (FOLD_SLOTS - 1);
}

void ui_xfers_commit(struct ui_xfers *x, float now)
{
	/* Fold the frame's transactions fully (the add-time scan only merges
	 * neighbours), then keep the heaviest if the screen would overflow. */
	int n = 0;
	if (x->npend > 8) {
		for (int i = 0; i < FOLD_SLOTS; i++)
			fold_idx[i] = -1;
		for (int i = 0; i < x->npend; i++) {
			struct ui_particle p = x->pend[i];
			unsigned h = fold_hash(&p);
			int hit = -1;
			while (fold_idx[h] >= 0) {
				struct ui_particle *q = &x->pend[fold_idx[h]];
				if (q->from == p.from && q->to == p.to && q->kind == p.kind) {
					hit = fold_idx[h];
					break;
				}
				h = (h + 1) & (FOLD_SLOTS - 1);
			}
			if (hit >= 0) {
				uint32_t w = (uint32_t)x->pend[hit].weight + p.weight;
				x->pend[hit].weight = w > UINT16_MAX ? UINT16_MAX : (uint16_t)w;
			} else if (n < FOLD_SLOTS / 2) {
				x->pend[n] = p;
				fold_idx[h] = n++;
			} else {
				x->dropped++;
			}
		}
	} else {
		n = x->npend;
	}
	/* Throttle each flow; what is held back rides on its next particle. */
	int m = 0;
	for (int i = 0; i < n; i++) {
		struct ui_particle p = x->pend[i];
		struct pair_slot *ps = pair_of(x->pairs, &p);
		if (ps) {
			if (now - ps->last > 1.0f)
				ps->acc = 0; /* stale: the flow had stopped */
			ps->acc += p.weight;
			if (now - ps->last < x->gap)
				continue;
			p.weight = ps->acc > UINT16_MAX ? UINT16_MAX : (uint16_t)ps->acc;
			ps->acc = 0;
			ps->last = now;
		}
		x->pend[m++] = p;
	}
	n = m;
	if (n > x->max_per_frame) {
		qsort(x->pend, n, sizeof *x->pend, by_weight_desc);
		x->dropped += n - x->max_per_frame;
		n = x->max_per_frame;
	}
	for (int i = 0; i < n; i++) {
		if (x->nlive >= x->max_live) {
			x->dropped += n - i;
			break;
		}
		struct ui_particle p = x->pend[i];
		/* Spread births over the frame so a steady stream looks steady. */
		p.born = now + (float)i / n / UI_FPS;
		x->live[x->nlive++] = p;
	}
	x->npend = 0;
}

void ui_xfers_expire(struct ui_xfers *x, float now)
{
	int j = 0;
	for (int i = 0; i < x->nlive; i++)
		if (now - x->live[i].born < LIFE)
			x->live[j++] = x->live[i];
	x->nlive = j;
}

/* A particle travels from its source to its target along a slight arc
 * (so A->B and B->A do not overlap), trailing a fading line. */
static void draw_one(struct ui_gfx *g, const struct ui_layout *l, const struct ui_particle *p,
		     float now)
{
	float age = (now - p->born) / LIFE;
	if (age < 0 || age >= 1)
		return;
	SDL_Point a = ui_layout_anchor(l, p->from), b = ui_layout_anchor(l, p->to);
	float dx = (float)(b.x - a.x), dy = (float)(b.y - a.y);
	float len = sqrtf(dx * dx + dy * dy);
	if (len < 1)
		return;
	float bend = 0.18f * len;
	float cx = (a.x + b.x) / 2.0f - dy / len * bend, cy = (a.y + b.y) / 2.0f + dx / len * bend;
	float e = age < 0.85f ? age / 0.85f : 1.0f;
	e = e * e * (3 - 2 * e);
#define BEZ(t, p0, p1, p2) ((1 - (t)) * (1 - (t)) * (p0) + 2 * (1 - (t)) * (t) * (p1) + (t) * (t) * (p2))
	SDL_Color c = ui_col_xfer[p->kind];
	float fade = age < 0.85f ? 1.0f : (1 - age) / 0.15f;
	/* trail */
	float t0 = e - 0.18f < 0 ? 0 : e - 0.18f;
	const int segs = 6;
	for (int i = 0; i < segs; i++) {
		float u0 = t0 + (e - t0) * i / segs, u1 = t0 + (e - t0) * (i + 1) / segs;
		ui_set_color(g->r, (SDL_Color){c.r, c.g, c.b, (Uint8)(160.0f * fade * (i + 1) / segs)});
		ui_line_thick(g->r, BEZ(u0, a.x, cx, b.x), BEZ(u0, a.y, cy, b.y), BEZ(u1, a.x, cx, b.x),
			      BEZ(u1, a.y, cy, b.y), p->kind == UI_XFER_INVAL ? 1 : 2);
	}
	float px = BEZ(e, a.x, cx, b.x), py = BEZ(e, a.y, cy, b.y);
#undef BEZ
	float sz = 9.0f + 3.0f * log2f((float)p->weight);
	if (sz > 22)
		sz = 22;
	if (p->kind == UI_XFER_INVAL)
		sz *= 0.75f;
	SDL_FRect d = {px - sz / 2, py - sz / 2, sz, sz};
	SDL_SetTextureColorMod(g->dot, c.r, c.g, c.b);
	SDL_SetTextureAlphaMod(g->dot, (Uint8)(255.0f * fade));
	SDL_RenderCopyF(g->r, g->dot, NULL, &d);
}

/* A recorded frame's transfers, frozen most of the way along their arcs:
 * what a paused or scrubbed frame moved. */
static void draw_recorded(struct ui_app *a, struct ui_gfx *g, const struct ui_snap *s)
{
	float now = (float)a->t_disp;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < s->nxrec; i++) {
			const struct ui_xrec *r = &s->xrec[i];
			if ((r->kind == UI_XFER_INVAL) != (pass == 0))
				continue;
			struct ui_particle p = {r->from, r->to, r->kind, r->weight, now - 0.7f * LIFE};
			draw_one(g, &a->lay, &p, now);
		}
}

void ui_draw_transfers(struct ui_app *a, struct ui_gfx *g)
{
	struct ui_xfers *x = &a->var[a->cur].xf;
	if (a->scrub || (a->paused && !x->nlive)) {
		draw_recorded(a, g, ui_app_snap(a, a->cur));
		return;
	}
	/* Invalidations first so that data transfers draw on top. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < x->nlive; i++)
			if ((x->live[i].kind == UI_XFER_INVAL) == (pass == 0))
				draw_one(g, &a->lay, &x->live[i], (float)a->t_disp);
}
