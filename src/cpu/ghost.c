/* The ghost-counter table: open addressing on the address, because a
 * ghost instruction can run once per simulated update and must not cost
 * the host more than the update itself. Counters stay in insertion order;
 * ghost_list sorts a copy so reports come out in address order. */
#include "config.h"
#include "cpu/ghost.h"

#include <stdlib.h>
#include <string.h>

/* A ghost instruction not yet applied. */
struct ghost_op {
	uint64_t time, seq, addr;
	int64_t v;
	int32_t core;
	int32_t is_read;
};

/* Ops logged before this many are left are applied when the log is full
 * (it doubles while most of it must wait). */
#define GHOST_LOG_MIN 4096

struct ghost_table {
	struct ghost *g;         /* insertion order */
	uint32_t *slot;          /* index + 1, 0 = empty */
	size_t n, cap, nslots;
	struct ghost *sorted;
	double *sum;             /* sum of the read errors of g[i], for mean_err */
	struct ghost_op *log;    /* logged, not yet applied */
	size_t nlog, logcap, logmax;
	uint64_t seq;
	uint64_t settled;        /* every op before this cycle is applied */
};

struct ghost_table *ghost_table_new(void)
{
	return calloc(1, sizeof(struct ghost_table));
}

void ghost_table_free(struct ghost_table *t)
{
	if (!t)
		return;
	free(t->g);
	free(t->slot);
	free(t->sorted);
	free(t->sum);
	free(t->log);
	free(t);
}

static size_t ghost_hash(uint64_t a, size_t nslots)
{
	return (size_t)((a * 0x9e3779b97f4a7c15ull) >> 20) & (nslots - 1);
}

static struct ghost *ghost_get(struct ghost_table *t, uint64_t addr, int create)
{
	if (t->nslots) {
		for (size_t i = ghost_hash(addr, t->nslots);; i = (i + 1) & (t->nslots - 1)) {
			if (!t->slot[i])
				break;
			if (t->g[t->slot[i] - 1].addr == addr)
				return &t->g[t->slot[i] - 1];
		}
	}
	if (!create)
		return NULL;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct ghost *g = realloc(t->g, cap * sizeof *g);
		double *s = g ? realloc(t->sum, cap * sizeof *s) : NULL;
		if (g)
			t->g = g;
		if (!s)
			return NULL;
		t->sum = s;
		t->cap = cap;
	}
	/* Keep the load factor at most 1/2 so that probes stay short. */
	if (2 * (t->n + 1) > t->nslots) {
		size_t ns = t->nslots ? 2 * t->nslots : 64;
		uint32_t *sl = calloc(ns, sizeof *sl);
		if (!sl)
			return NULL;
		for (size_t k = 0; k < t->n; k++) {
			size_t i = ghost_hash(t->g[k].addr, ns);
			while (sl[i])
				i = (i + 1) & (ns - 1);
			sl[i] = (uint32_t)k + 1;
		}
		free(t->slot);
		t->slot = sl;
		t->nslots = ns;
	}
	size_t i = ghost_hash(addr, t->nslots);
	while (t->slot[i])
		i = (i + 1) & (t->nslots - 1);
	struct ghost *g = &t->g[t->n];
	memset(g, 0, sizeof *g);
	g->addr = addr;
	t->sum[t->n] = 0;
	t->slot[i] = (uint32_t)++t->n;
	return g;
}

int ghost_add(struct ghost_table *t, uint64_t addr, int64_t v)
{
	struct ghost *g = ghost_get(t, addr, 1);
	if (!g)
		return -1;
	/* wraps at 64 bits as the add on the counter it shadows does (the
	 * sum in int64_t would be undefined past its range) */
	g->exact = (int64_t)((uint64_t)g->exact + (uint64_t)v);
	return 0;
}

int ghost_read(struct ghost_table *t, uint64_t addr, int64_t v)
{
	struct ghost *g = ghost_get(t, addr, 1);
	if (!g)
		return -1;
	uint64_t e = v > g->exact ? (uint64_t)v - (uint64_t)g->exact : (uint64_t)g->exact - (uint64_t)v;
	double *sum = &t->sum[g - t->g];
	g->reads++;
	g->last_read = v;
	*sum += (double)e;
	g->mean_err = *sum / (double)g->reads;
	if (e > g->max_err)
		g->max_err = e;
	g->off_reads += e != 0;
	g->blind_reads += e != 0 && v == 0;
	return 0;
}

static int op_cmp(const void *a, const void *b)
{
	const struct ghost_op *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int ghost_settle(struct ghost_table *t, uint64_t before)
{
	if (before > t->settled)
		t->settled = before;
	if (!t->nlog)
		return 0;
	qsort(t->log, t->nlog, sizeof *t->log, op_cmp);
	size_t k = 0;
	for (; k < t->nlog && t->log[k].time < before; k++) {
		const struct ghost_op *o = &t->log[k];
		if ((o->is_read ? ghost_read : ghost_add)(t, o->addr, o->v)) {
			memmove(t->log, t->log + k, (t->nlog - k) * sizeof *t->log);
			t->nlog -= k;
			return -1;
		}
	}
	memmove(t->log, t->log + k, (t->nlog - k) * sizeof *t->log);
	t->nlog -= k;
	return 0;
}

int ghost_log(struct ghost_table *t, uint64_t time, int core, int is_read, uint64_t addr, int64_t v,
	      uint64_t settled)
{
	if (time < t->settled)
		return -2;
	if (t->nlog == t->logcap) {
		if (t->nlog >= (t->logmax ? t->logmax : GHOST_LOG_MIN)) {
			if (ghost_settle(t, settled))
				return -1;
			/* most of it still waits: let it grow rather than sort it
			 * again at every op */
			if (2 * t->nlog > t->logcap)
				t->logmax = 2 * t->logcap;
		}
		if (t->nlog == t->logcap) {
			size_t cap = t->logcap ? 2 * t->logcap : 256;
			struct ghost_op *l = realloc(t->log, cap * sizeof *l);
			if (!l)
				return -1;
			t->log = l;
			t->logcap = cap;
		}
	}
	t->log[t->nlog++] = (struct ghost_op){time, t->seq++, addr, v, core, is_read};
	return 0;
}

static int ghost_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct ghost *)a)->addr, y = ((const struct ghost *)b)->addr;
	return x < y ? -1 : x > y;
}

size_t ghost_list(struct ghost_table *t, const struct ghost **out)
{
	free(t->sorted);
	t->sorted = t->n ? malloc(t->n * sizeof *t->sorted) : NULL;
	if (!t->sorted) {
		*out = NULL;
		return 0;
	}
	memcpy(t->sorted, t->g, t->n * sizeof *t->sorted);
	qsort(t->sorted, t->n, sizeof *t->sorted, ghost_cmp);
	*out = t->sorted;
	return t->n;
}

const struct ghost *ghost_find(struct ghost_table *t, uint64_t addr)
{
	return ghost_get(t, addr, 0);
}
