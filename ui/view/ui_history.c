/* Recorded history for the timeline and for scrubbing: per-core rings of
 * activity changes, the `mark` markers as runs that merge instead of being
 * forgotten, and a ring of per-frame snapshots. Every store has a fixed
 * capacity derived from a memory budget, so a long run never grows it. */
#include "config.h"
#include "ui_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEG_BUDGET (2u << 20)      /* activity changes, all lanes of all variants */
#define SNAP_BUDGET (24u << 20)    /* bytes of snapshots, all variants */
#define MARK_CAP 8192       /* mark runs per variant */

int ui_snap_alloc(struct ui_snap *s, int ncores)
{
	memset(s, 0, sizeof *s);
	s->ncores = ncores;
	s->act = calloc((size_t)ncores, 1);
	s->state = calloc((size_t)ncores * UI_MAX_ROWS, 1);
	s->heat = calloc((size_t)ncores, sizeof *s->heat);
	return s->act && s->state && s->heat ? 0 : -1;
}

void ui_snap_free(struct ui_snap *s)
{
	free(s->act);
	free(s->state);
	free(s->heat);
	s->act = s->state = NULL;
	s->heat = NULL;
}

void ui_snap_copy(struct ui_snap *dst, const struct ui_snap *src)
{
	int n = src->ncores;
	dst->now = src->now;
	dst->ncores = n;
	dst->nrows = src->nrows;
	dst->proto = src->proto;
	dst->more_rows = src->more_rows;
	dst->nxrec = src->nxrec;
	memcpy(dst->xrec, src->xrec, sizeof dst->xrec[0] * (size_t)src->nxrec);
	memcpy(dst->act, src->act, (size_t)n);
	memcpy(dst->state, src->state, (size_t)n * src->nrows);
	memcpy(dst->heat, src->heat, (size_t)n * sizeof *dst->heat);
	memcpy(dst->rows, src->rows, sizeof dst->rows[0] * (size_t)src->nrows);
	dst->figs = src->figs;
}

static uint32_t clampu(uint64_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : (uint32_t)v;
}

int ui_hist_init(struct ui_hist *h, int ncores, int nvariants)
{
	memset(h, 0, sizeof *h);
	h->ncores = ncores;
	uint32_t seg_cap = clampu(SEG_BUDGET / ((uint64_t)ncores * nvariants), 512, SEG_BUDGET);
	h->lane = calloc((size_t)ncores, sizeof *h->lane);
	if (!h->lane)
		return -1;
	for (int c = 0; c < ncores; c++) {
		h->lane[c].cap = seg_cap;
		h->lane[c].seg = malloc(seg_cap * sizeof(struct ui_seg));
		if (!h->lane[c].seg)
			return -1;
	}
	h->mark_cap = MARK_CAP;
	h->mark = calloc(MARK_CAP, sizeof *h->mark);
	h->mark_gap = 0;
	uint64_t snap_bytes = sizeof(struct ui_snap) + (uint64_t)ncores * (UI_MAX_ROWS + 1 + sizeof(float));
	h->snap_cap = clampu(SNAP_BUDGET / nvariants / snap_bytes, 60, 3600);
	h->snap = calloc(h->snap_cap, sizeof *h->snap);
	if (!h->mark || !h->snap)
		return -1;
	for (uint32_t i = 0; i < h->snap_cap; i++)
		if (ui_snap_alloc(&h->snap[i], ncores))
			return -1;
	return 0;
}

void ui_hist_free(struct ui_hist *h)
{
	if (h->lane)
		for (int c = 0; c < h->ncores; c++)
			free(h->lane[c].seg);
	free(h->lane);
	free(h->mark);
	if (h->snap)
		for (uint32_t i = 0; i < h->snap_cap; i++)
			ui_snap_free(&h->snap[i]);
	free(h->snap);
	memset(h, 0, sizeof *h);
}

void ui_hist_reset(struct ui_hist *h)
{
	for (int c = 0; c < h->ncores; c++)
		h->lane[c].head = h->lane[c].n = 0, h->lane[c].dropped = 0;
	h->mark_n = 0;
	h->mark_gap = 0;
	h->mark_names[0] = 0;
	h->snap_head = h->snap_n = 0;
}

void ui_hist_activity(struct ui_hist *h, int core, uint64_t t, int act)
{
	if (core < 0 || core >= h->ncores)
		return;
	struct ui_lane *l = &h->lane[core];
	if (!l->cap) /* only before ui_hist_init sized the lanes (cap >= 512 after) */
		return;
	if (l->n) {
		struct ui_seg *last = &l->seg[(l->head + l->n - 1) % l->cap];
		if (last->act == act)
			return;
		if (last->t == t) {
			/* Two changes at one cycle: only the later one is visible. */
			last->act = (uint8_t)act;
			return;
		}
	}
	if (l->n == l->cap) {
		l->head = (l->head + 1) % l->cap;
		l->n--;
		l->dropped = 1;
	}
	l->seg[(l->head + l->n) % l->cap] = (struct ui_seg){t, (uint8_t)act};
	l->n++;
}

/* Doubles the gap until merging the runs within it frees room. */
static void merge_mark_runs(struct ui_hist *h)
{
	while (h->mark_n >= h->mark_cap) {
		h->mark_gap = h->mark_gap ? h->mark_gap * 2 : 1;
		uint32_t k = 0;
		for (uint32_t i = 1; i < h->mark_n; i++) {
			if (h->mark[i].t0 <= h->mark[k].t1 + h->mark_gap) {
				if (h->mark[i].t0 < h->mark[k].t0)
					h->mark[k].t0 = h->mark[i].t0;
				if (h->mark[i].t1 > h->mark[k].t1)
					h->mark[k].t1 = h->mark[i].t1;
			} else {
				h->mark[++k] = h->mark[i];
			}
		}
		h->mark_n = k + 1;
	}
}

static void note_mark_name(struct ui_hist *h, const char *name)
{
	if (!name || !*name)
		return;
	size_t n = strlen(name), len = strlen(h->mark_names);
	for (const char *p = h->mark_names; (p = strstr(p, name)); p += n)
		if ((p == h->mark_names || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;
	snprintf(h->mark_names + len, sizeof h->mark_names - len, "%s%s", len ? ", " : "", name);
}

void ui_hist_mark(struct ui_hist *h, int core, uint64_t t, const char *name)
{
	(void)core;
	note_mark_name(h, name);
	if (h->mark_n) {
		struct ui_mark_run *last = &h->mark[h->mark_n - 1];
		if (t + h->mark_gap >= last->t0 && t <= last->t1 + h->mark_gap) {
			if (t < last->t0)
				last->t0 = t;
			if (t > last->t1)
				last->t1 = t;
			return;
		}
	}
	if (h->mark_n == h->mark_cap)
		merge_mark_runs(h);
	h->mark[h->mark_n++] = (struct ui_mark_run){t, t};
}

void ui_hist_push_snap(struct ui_hist *h, const struct ui_snap *s)
{
	if (h->snap_n == h->snap_cap) {
		h->snap_head = (h->snap_head + 1) % h->snap_cap;
		h->snap_n--;
	}
	ui_snap_copy(&h->snap[(h->snap_head + h->snap_n) % h->snap_cap], s);
	h->snap_n++;
}

const struct ui_snap *ui_hist_snap(const struct ui_hist *h, uint32_t back)
{
	if (back >= h->snap_n)
		return NULL;
	return &h->snap[(h->snap_head + h->snap_n - 1 - back) % h->snap_cap];
}

long ui_lane_find(const struct ui_lane *l, uint64_t t)
{
	if (!l->n)
		return -1;
	/* Last entry with seg.t <= t: binary search over the ring in order. */
	uint32_t lo = 0, hi = l->n;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ui_lane_at(l, mid)->t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
