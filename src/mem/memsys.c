/* The memory system: private L1s, optional per-socket LLC tags, the bus or
 * directory fabric, the directory entries and the statistics. It applies the
 * protocol tables (coherence.h) and never decides protocol itself. */
#include "config.h"
#include "mem/memsys_int.h"
#include "base/big_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ms_line *line_new(struct memsys *ms, uint64_t line)
{
	size_t i = ms->nentries;
	if (i >= UINT32_MAX - 1)
		return NULL;
	if ((i >> CHUNK_SHIFT) >= ms->nchunks) {
		if (ms->nchunks == ms->chunk_cap) {
			size_t cap = ms->chunk_cap ? 2 * ms->chunk_cap : 16;
			uint8_t **c = realloc(ms->chunks, cap * sizeof *c);
			if (!c)
				return NULL;
			ms->chunks = c;
			ms->chunk_cap = cap;
		}
		ms->chunks[ms->nchunks] = aligned_alloc(64, ms->stride << CHUNK_SHIFT);
		if (!ms->chunks[ms->nchunks])
			return NULL;
		ms->nchunks++;
	}
	struct ms_line *le = entry(ms, i);
	memset(le, 0, ms->stride);
	le->line = line;
	le->owner = le->last_owner = MS_NO_CORE;
	le->pin_core = le->first_core = MS_NO_CORE;
	if (sp_map_put(&ms->line_idx, line, i + 1))
		return NULL;
	ms->nentries++;
	return le;
}

/* A line's entry, made on its first access; NULL (recorded) when out of memory. */
struct ms_line *ms_line_get(struct memsys *ms, uint64_t line)
{
	if (ms->last_le && ms->last_le->line == line)
		return ms->last_le;
	struct ms_line *le = line_find(ms, line);
	if (!le && !(le = line_new(ms, line))) {
		err_internal(&ms->check_err, "memsys: out of memory for directory entries");
		return NULL;
	}
	ms->last_le = le;
	return le;
}

/* The LLCs of the simulated CPUs: one per socket, or per cluster where the
 * model has clusters (an AMD CCX's L3), up to the last one a CPU sits in. */
static int llc_count(const struct topology *t, int ncores, int sockets)
{
	int n = sockets;
	for (int c = 0; t->cores_per_cluster < t->cores_per_socket && c < ncores; c++) {
		struct topo_place p = topo_place_of(t, c);
		if (p.cluster + 1 > n)
			n = p.cluster + 1;
	}
	return n;
}

/* One function for the budget and the allocation: ms_create sizes its
 * arrays from what this returns. t is cpu_model_topology of m. */
static void size_of(const struct cpu_model *m, const struct topology *t, struct ms_size *sz)
{
	uint32_t n = (uint32_t)m->cores;
	memset(sz, 0, sizeof *sz);
	sz->per_core = (size_t)n * sizeof(struct ms_core);
	/* The L1s as one pool (cache_pool_bytes says why) */
	sz->l1 = cache_pool_bytes(m->l1_size, m->l1_assoc, m->line_size, 1, n);
	size_t ways = (size_t)(m->l1_size / (m->line_size * m->l1_assoc)) * m->l1_assoc;
	sz->way_le = (size_t)n * ways * sizeof(struct ms_line *);
	sz->n_llc = llc_count(t, m->cores, cpu_model_sockets(m));
	sz->llc_each = m->llc_size ? cache_pool_bytes(m->llc_size, m->llc_assoc, m->line_size, 0, 1) : 0;
	sz->total = (uint64_t)sz->per_core + sz->l1 + sz->way_le + (uint64_t)sz->n_llc * sz->llc_each;
}

void ms_size_of(const struct cpu_model *m, struct ms_size *sz)
{
	struct topology t;
	cpu_model_topology(m, &t);
	size_of(m, &t, sz);
}

int ms_model_check(const struct cpu_model *m, struct err *e)
{
	if (cpu_model_validate(m, e))
		return -1;
	struct ms_size sz;
	ms_size_of(m, &sz);
	if (sz.total <= MS_HOST_BUDGET)
		return 0;
	/* How many of these cores fit: the sizes grow with the core count */
	struct cpu_model k = *m;
	int lo = 0, hi = m->cores;   /* lo cores fit (0: none tried), hi do not */
	while (hi - lo > 1) {
		struct ms_size s;
		k.cores = lo + (hi - lo) / 2;
		ms_size_of(&k, &s);
		*(s.total <= MS_HOST_BUDGET ? &lo : &hi) = k.cores;
	}
	uint64_t llc = (uint64_t)sz.n_llc * sz.llc_each;
	char llcs[96] = "";
	if (llc)
		snprintf(llcs, sizeof llcs, ", %d LLCs of %u bytes", sz.n_llc, m->llc_size);
	return err_set(e, NULL, 0, 0,
		       "%s: the caches of %d cores (L1s of %u bytes%s, in %u-byte lines) would take %llu MiB of host memory, "
		       "over the limit of %llu MiB (%d of these cores fit)",
		       llc > sz.l1 ? "llc_size" : "l1_size", m->cores, m->l1_size, llcs, m->line_size,
		       (unsigned long long)((sz.total + (1u << 20) - 1) >> 20),
		       (unsigned long long)(MS_HOST_BUDGET >> 20), lo);
}

struct memsys *ms_create(const struct cpu_model *m, uint64_t mem_size, struct err *e)
{
	if (ms_model_check(m, e))
		return NULL;
	if (!mem_size)
		return err_set(e, NULL, 0, 0, "memory size 0 is out of range (at least 1 byte)"), NULL;
	struct memsys *ms = calloc(1, sizeof *ms);
	if (!ms)
		return err_internal(e, "memsys: out of memory"), NULL;
	ms->m = *m;
	ms->p = coh_protocol_of(m->protocol);
	if (m->c2c_clean) {
		coh_with_clean_supply(ms->p, &ms->clean_table);
		ms->p = &ms->clean_table;
	}
	ms->ncores = m->cores;
	cpu_model_topology(m, &ms->topo);
	ms->sockets = cpu_model_sockets(m);
	ms->place = malloc((size_t)ms->ncores * sizeof *ms->place);
	if (!ms->place) {
		free(ms);
		return err_internal(e, "memsys: out of memory"), NULL;
	}
	for (int c = 0; c < ms->ncores; c++)
		ms->place[c] = topo_place_of(&ms->topo, c);
	ms->llc_per_cluster = ms->topo.cores_per_cluster < ms->topo.cores_per_socket;
	/* every array below sized as ms_model_check budgeted it */
	struct ms_size sz;
	size_of(m, &ms->topo, &sz);
	ms->n_llc = sz.n_llc;
	ms->ls = m->line_size;
	while ((1u << ms->shift) < ms->ls)
		ms->shift++;
	ms->mem_size = mem_size;
	/* memory is sparse (sparse.h): its size costs nothing until touched */
	ms->nlines = (mem_size >> ms->shift) + ((mem_size & (ms->ls - 1)) != 0);
	ms->fast.shift = ms->shift;
	ms->fast.lmask = ms->ls - 1;
	for (int st = 0; st < MS_NSTATES; st++) {
		for (int k = 0; k < COH_NOPS; k++)
			if (ms->p->state[st].access[k].what == COH_HITS && ms->p->state[st].access[k].next == st)
				ms->fast.hit_same[k] |= (uint8_t)(1u << st);
		if (ms->p->state[st].exclusive)
			ms->fast.exclusive |= (uint8_t)(1u << st);
	}
	ms->words = ((size_t)ms->ncores + 63) / 64;
	ms->stride = (sizeof(struct ms_line) + ms->words * 8 + 63) & ~(size_t)63;
	_Static_assert(_Alignof(struct ms_core) <= 4096, "big_zalloc aligns to a page");
	ms->fast.pc = big_zalloc(1, sz.per_core);
	if (ms->fast.pc) {
		for (int c = 0; c < ms->ncores; c++)
			ms->fast.pc[c].next_pc[0] = ms->fast.pc[c].next_pc[1] = MS_NO_PC;
	}
	ms->scratch = calloc(1, sizeof *ms->scratch);
	if (m->llc_size)
		ms->llc = calloc((size_t)ms->n_llc, sizeof *ms->llc);
	if (!ms->fast.pc || !ms->scratch ||
	    (m->llc_size && !ms->llc)) {
		err_internal(e, "memsys: out of memory for %llu bytes of simulated memory",
			     (unsigned long long)mem_size);
		goto fail;
	}
	/* The L1s as one pool (cache_pool_bytes says why), zero pages until a
	 * core fills a way; each way's directory entry likewise, laid out as
	 * the pool's arrays are, so that a way index finds it in the same place */
	uint32_t n = (uint32_t)ms->ncores;
	if (sz.l1 && !(ms->l1_pool = big_zalloc(1, sz.l1))) {
		err_internal(e, "memsys: out of memory for %d L1 caches", ms->ncores);
		goto fail;
	}
	for (uint32_t c = 0; c < n; c++)
		if (cache_init_pooled(l1_of(ms, (int)c), m->l1_size, m->l1_assoc, ms->ls, 1,
				      ms->l1_pool, n, c, e))
			goto fail;
	if (!(ms->way_le_pool = big_zalloc(1, sz.way_le))) {
		err_internal(e, "memsys: out of memory for %d L1 caches", ms->ncores);
		goto fail;
	}
	for (uint32_t c = 0; c < n; c++)
		ms->fast.pc[c].way_le = ms->way_le_pool + (size_t)c * m->l1_assoc;
	/* each one sz.llc_each bytes: cache_init sizes it by cache_pool_bytes too */
	for (int s = 0; ms->llc && s < ms->n_llc; s++)
		if (cache_init(&ms->llc[s], m->llc_size, m->llc_assoc, ms->ls, 0, e))
			goto fail;
	if (ms_fabric_init(ms, e))
		goto fail;
	return ms;
fail:
	ms_destroy(ms);
	return NULL;
}

void ms_destroy(struct memsys *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->nentries; i++) {
		struct ms_line *le = entry(ms, i);
		for (uint32_t k = 0; k < le->n_offsets; k++)
			free(le->offsets[k].readers);
		free(le->offsets);
		free(le->pcs);
	}
	for (size_t i = 0; i < ms->nchunks; i++)
		free(ms->chunks[i]);
	free(ms->chunks);
	ms_fabric_free(ms);
	for (int c = 0; ms->fast.pc && c < ms->ncores; c++)
		cache_free(l1_of(ms, c));
	big_free(ms->l1_pool);
	big_free(ms->way_le_pool);
	for (int s = 0; ms->llc && s < ms->n_llc; s++)
		cache_free(&ms->llc[s]);
	free(ms->llc);
	sp_mem_free(&ms->mem);
	sp_mem_free(&ms->shadow);
	free(ms->home);
	sp_map_free(&ms->line_idx);
	free(ms->place);
	big_free(ms->fast.pc);
	if (ms->scratch)
		free(ms->scratch->hot);
	free(ms->scratch);
	free(ms);
}

int ms_write_memory(struct memsys *ms, uint64_t addr, const void *src, uint64_t len, struct err *e)
{
	if (addr >= ms->mem_size || len > ms->mem_size - addr)
		return err_internal(e, "memsys: image of %llu bytes at 0x%llx is outside memory",
				    (unsigned long long)len, (unsigned long long)addr);
	if (sp_mem_write(&ms->mem, addr, src, len))
		return err_internal(e, "memsys: out of memory for the initial image");
	return 0;
}

int ms_write_image(struct memsys *ms, uint64_t base, const struct sp_mem *img, uint64_t len, struct err *e)
{
	if (base % SP_PAGE_SIZE || base >= ms->mem_size || len > ms->mem_size - base)
		return err_internal(e, "memsys: image of %llu bytes at 0x%llx is outside memory",
				    (unsigned long long)len, (unsigned long long)base);
	if (sp_mem_copy_at(&ms->mem, base, img))
		return err_internal(e, "memsys: out of memory for the initial image");
	return 0;
}

uint8_t ms_memory_byte(const struct memsys *ms, uint64_t addr)
{
	const uint8_t *b = sp_mem_peek(&ms->mem, addr);
	return b ? *b : 0;
}

uint64_t ms_host_bytes(const struct memsys *ms)
{
	return sp_mem_bytes(&ms->mem) + (uint64_t)ms->nchunks * (ms->stride << CHUNK_SHIFT) +
	       ms->line_idx.cap * sizeof(struct sp_slot);
}

void ms_set_home(struct memsys *ms, uint64_t addr, uint64_t len, int socket)
{
	if (socket < 0 || socket >= ms->sockets || addr >= ms->mem_size || !len)
		return;
	if (!ms->home) {
		/* a byte per line: only the assembler's bounded layouts set homes */
		if (ms->nlines > (1ull << 32)) {
			err_internal(&ms->check_err, "memsys: NUMA homes over %llu lines are too many",
				     (unsigned long long)ms->nlines);
			return;
		}
		ms->home = malloc(ms->nlines);
		if (!ms->home) {
			err_internal(&ms->check_err, "memsys: out of memory for NUMA homes");
			return;
		}
		for (uint64_t l = 0; l < ms->nlines; l++)
			ms->home[l] = (uint8_t)(l % (uint64_t)ms->sockets);
	}
	uint64_t end = addr + len > ms->mem_size ? ms->mem_size : addr + len;
	for (uint64_t l = addr >> ms->shift; l <= (end - 1) >> ms->shift; l++)
		ms->home[l] = (uint8_t)socket;
}

size_t ms_bitset_words(const struct memsys *ms)
{
	return ms->words;
}

/* ---- per-offset detail (perf c2c's shared-line table) ---- */

/* is_write: 0 read, 1 write, 2 only the HITM of a locked RMW's ownership request. */
MS_INLINE void offset_count(struct ms_offset_stats *o, int core, unsigned size, int is_write,
			     int hitm, int hitm_remote)
{
	if (size > o->size)
		o->size = (uint8_t)size;
	uint64_t bit = 1ull << (core & 63);
	if (is_write == 2) {
		/* a locked RMW taking the line: its load and store are counted as hits */
	} else if (is_write) {
		o->writes++;
		o->writers[core >> 6] |= bit;
	} else {
		o->reads++;
		o->readers[core >> 6] |= bit;
	}
	o->hitm += (uint64_t)hitm;
	o->hitm_remote += (uint64_t)hitm_remote;
}

void ms_offset_note(struct memsys *ms, struct ms_line *le, int core, unsigned off,
			unsigned size, int is_write, int hitm, int hitm_remote)
{
	uint32_t k = 0;
	while (k < le->n_offsets && le->offsets[k].offset < off)
		k++;
	if (k == le->n_offsets || le->offsets[k].offset != off) {
		if (le->n_offsets == le->cap_offsets) {
			uint32_t cap = le->cap_offsets ? 2 * le->cap_offsets : 4;
			struct ms_offset_stats *o = realloc(le->offsets, cap * sizeof *o);
			if (!o) {
				err_internal(&ms->check_err, "memsys: out of memory for offset detail");
				return;
			}
			le->offsets = o;
			le->cap_offsets = cap;
		}
		uint64_t *bits = calloc(2 * ms->words, sizeof *bits);
		if (!bits) {
			err_internal(&ms->check_err, "memsys: out of memory for offset detail");
			return;
		}
		memmove(&le->offsets[k + 1], &le->offsets[k], (le->n_offsets - k) * sizeof *le->offsets);
		le->n_offsets++;
		struct ms_offset_stats *o = &le->offsets[k];
		memset(o, 0, sizeof *o);
		o->offset = (uint16_t)off;
		o->readers = bits;
		o->writers = bits + ms->words;
	}
	le->off_last = k;
	offset_count(&le->offsets[k], core, size, is_write, hitm, hitm_remote);
}

void ms_pc_note(struct memsys *ms, struct ms_line *le, uint32_t pc, int hitm, int hitm_remote, int bounce)
{
	uint32_t k = 0;
	while (k < le->n_pcs && le->pcs[k].pc != pc)
		k++;
	if (k == le->n_pcs) {
		if (le->n_pcs == le->cap_pcs) {
			uint32_t cap = le->cap_pcs ? 2 * le->cap_pcs : 4;
			struct ms_pc_stats *n = realloc(le->pcs, cap * sizeof *n);
			if (!n) {
				err_internal(&ms->check_err, "memsys: out of memory for per-instruction detail");
				return;
			}
			le->pcs = n;
			le->cap_pcs = cap;
		}
		le->pcs[k] = (struct ms_pc_stats){.pc = pc};
		le->n_pcs++;
	}
	le->pcs[k].hitm += (uint64_t)hitm;
	le->pcs[k].hitm_remote += (uint64_t)hitm_remote;
	le->pcs[k].bounces += (uint64_t)bounce;
}

void ms_set_observer(struct memsys *ms, ms_observer_fn fn, void *ctx)
{
	ms->obs = fn;
	ms->obs_ctx = ctx;
}

/* ---- the lookaside (its invariant: memsys.h) ---- */

/* Core's L1 way w holds `line`: give it the lookaside entry, if the line
 * is one the lookaside may cover. */
static inline void la_fill(struct memsys *ms, int core, uint64_t line, int w, struct ms_line *le)
{
	if (le->contended || !ms_line_whole(ms, line))
		return;
	struct cache *c = l1_of(ms, core);
	uint64_t want = line + 1;
	struct ms_la *la = &ms->fast.pc[core].la[want & (MS_LA_SIZE - 1)];
	la->key = want | la_perms(&ms->fast, c->state[w]);
	la->way.lru = &c->lru[w];
	la->way.data = cache_data(c, w);
	la->way.line_stats = &le->stats;
}

/* Core's way holding `line` is about to change tag or state. */
void ms_la_drop(struct memsys *ms, int core, uint64_t line)
{
	struct ms_la *la = &ms->fast.pc[core].la[(line + 1) & (MS_LA_SIZE - 1)];
	if ((la->key & ~MS_LA_OKS) == line + 1)
		la->key = 0;
}

/* The line is about to become contended (at now): its accesses will keep
 * per-offset detail, which only the slow path records. A core that
 * watches its messages (ms_watch_msgs) is told: its hits count otherwise
 * from now on. */
void ms_la_forget(struct memsys *ms, uint64_t line, uint64_t now)
{
	for (int core = 0; core < ms->ncores; core++) {
		ms_la_drop(ms, core, line);
		if (ms->fast.pc[core].msg_watch && ms->waker)
			ms->waker(ms->waker_ctx, core, MS_WAKE_MSG, now);
	}
}

/* ---- transactions ---- */

void ms_evict(struct memsys *ms, int core, struct cache *c, int w, uint64_t now)
{
	uint64_t line = cache_line_of(c, w);
	struct ms_line *le = ms->fast.pc[core].way_le[w];
	enum ms_state s = c->state[w];
	COUNT(ms, core, le, evictions, 1);
	if (ms->p->state[s].evict_writeback) {
		ms_mem_put(ms, line, cache_data(c, w));
		COUNT(ms, core, le, writebacks, 1);
		if (ms->llc)
			cache_insert(ms_llc_of(ms, core), line);
		ms_writeback_start(ms, le, core, now, 1);
	}
	le->sharers[core >> 6] &= ~(1ull << (core & 63));
	le->nsharers--;
	if (le->owner == core)
		le->owner = MS_NO_CORE;
	ms_la_drop(ms, core, line);
	cache_invalidate(c, w);
}

/* An access's own shape: at most 8 bytes, inside one line. */
static inline int shape_ok(const struct memsys *ms, uint64_t addr, unsigned size)
{
	return size <= 8 && !ms_crosses_line(addr, size ? size : 1, ms->ls);
}

static inline int in_range(struct memsys *ms, int core, uint64_t addr, unsigned size)
{
	if (core >= 0 && core < ms->ncores && addr < ms->mem_size && size <= ms->mem_size - addr &&
	    shape_ok(ms, addr, size))
		return 1;
	err_internal(&ms->check_err, "core %d: access of %u bytes at 0x%llx is outside memory or crosses a line",
		     core, size, (unsigned long long)addr);
	return 0;
}

/* The access on core's way w, after a hit or the transaction that filled
 * it; on a contended line also its per-offset detail. */
MS_INLINE void perform(struct memsys *ms, int core, int w, struct ms_line *le, uint64_t addr,
		       unsigned size, enum ms_acc kind, uint64_t *val, int hit, int hitm, int hitm_remote)
{
	struct cache *c = l1_of(ms, core);
	struct ms_way way = { &c->lru[w], cache_data(c, w), &le->stats };
	ms_perform(ms, core, &way, addr, size, kind, val, hit);
	if (le->contended) {
		/* the offset noted last on this line, usually this one: no search */
		unsigned off = (unsigned)(addr & (ms->ls - 1));
		uint32_t k = le->off_last;
		if (k < le->n_offsets && le->offsets[k].offset == off)
			offset_count(&le->offsets[k], core, size, (int)kind, hitm, hitm_remote);
		else
			ms_offset_note(ms, le, core, off, size, (int)kind, hitm, hitm_remote);
	}
}

/* The hit path past the lookaside: find core's way for the line by
 * walking its set (a valid way is the directory's sharer bit, by its
 * invariant, and the set's tags are a host cache line the hit needs
 * anyway, where the entry's sharer word would be one more), apply the
 * table's access cell and perform the hit. Returns 1 after a hit, else 0
 * with *way (-1: no copy) and *lep (NULL: no copy, or a line never
 * accessed) for the miss's transaction. */
MS_INLINE int hit_way(struct memsys *ms, int core, struct cache *c, int w, struct ms_line *le,
		      uint64_t line, uint64_t addr, unsigned size, enum ms_acc kind, uint64_t *val);

MS_INLINE int walk_hit(struct memsys *ms, int core, uint64_t addr, unsigned size,
		       enum ms_acc kind, uint64_t *val, int *way, struct ms_line **lep)
{
	uint64_t line = addr >> ms->shift;
	struct cache *c = l1_of(ms, core);
	int w = cache_lookup(c, line);
	struct ms_line *le = w >= 0 ? ms->fast.pc[core].way_le[w] : NULL;
	*way = w;
	*lep = le;
	/* w >= 0 implies le != NULL; the test says so for the analyzer */
	if (w < 0 || !le)
		return 0;
	if (!hit_way(ms, core, c, w, le, line, addr, size, kind, val))
		return 0;
	if (kind == MS_ACC_RMW) {
		/* its own load and store come next (ms_rmw_load, ms_rmw_finish) */
		ms->rmw_le = le;
		ms->rmw_core = core;
		ms->rmw_way = w;
	}
	return 1;
}

/* An update protocol's granted store (coherence.h, COH_HIT_UPDATING):
 * its bytes (val, little-endian as the x86 we model) go to every other
 * copy as it is made in core's own, so that every copy holds the last
 * store. The update request before it counted the copies
 * (updates_received); their state does not change, so their lookaside
 * entries stay exact. The copies change when the writer makes its
 * store, not a leg later as a message would: a core that runs ahead may
 * read the store a few cycles early or late, and no core waits parked on
 * such a line (sim.c runs update protocols without fast-forward). That
 * breaks x86-TSO across two lines (docs/architecture.md, Coherence
 * protocols, the known limit); a timed message reaching the copies two
 * legs after the store would keep it. */
static __attribute__((noinline, cold)) void send_update(struct memsys *ms, int core, const struct ms_line *le,
							uint64_t addr, unsigned size, const uint64_t *val)
{
	uint64_t line = addr >> ms->shift;
	unsigned off = (unsigned)(addr & (ms->ls - 1));
	for (size_t wi = 0; wi < ms->words; wi++)
		for (uint64_t b = le->sharers[wi]; b; b &= b - 1) {
			int h = (int)(wi * 64 + (size_t)__builtin_ctzll(b));
			struct cache *hc = l1_of(ms, h);
			int hw = h == core ? -1 : cache_lookup(hc, line);
			if (hw >= 0)
				memcpy(cache_data(hc, hw) + off, val, size);
		}
}

/* walk_hit once core's way w for `line` (entry le) is known. */
MS_INLINE int hit_way(struct memsys *ms, int core, struct cache *c, int w, struct ms_line *le,
		      uint64_t line, uint64_t addr, unsigned size, enum ms_acc kind, uint64_t *val)
{
	enum ms_state st = (enum ms_state)c->state[w];
	const struct coh_access_cell *a = &ms->p->state[st].access[kind];
	if (a->what != COH_HITS)
		return 0;
	if (a->next != st) {
		ms_la_drop_le(ms, core, le);
		c->state[w] = a->next;
		/* only a store's cell updates (a test asserts it): *val is its value */
		if (__builtin_expect(a->update, 0))
			send_update(ms, core, le, addr, size, val);
	}
	if (__builtin_expect(le->first_core == core, 0)) {
		/* The access a miss was for, made again now that its line came:
		 * counted as that miss's, not as a hit. */
		le->first_core = MS_NO_CORE;
		perform(ms, core, w, le, addr, size, kind, val, 0, le->first_hitm, le->first_hitm_remote);
	} else {
		perform(ms, core, w, le, addr, size, kind, val, 1, 0, 0);
	}
	if (kind == MS_ACC_RMW) {
		/* Locked until ms_rmw_end says how long. */
		le->pin_core = core;
		le->pin_until = UINT64_MAX;
	}
	la_fill(ms, core, line, w, le);
	return 1;
}

/* An access whose arguments passed in_range. After a hit found by walking
 * the set, *way and *lep are the way and entry it took; *way is -1 after
 * a lookaside hit or a miss. */
MS_INLINE uint64_t access_in_range(struct memsys *ms, int core, uint64_t now, uint64_t addr,
				   unsigned size, enum ms_acc kind, uint64_t *val, int *way,
				   struct ms_line **lep)
{
	*way = -1;
	*lep = NULL;
	/* When the entry ms_line_get gave last is this line's and does not
	 * list core, core's L1 has no copy (the directory's invariant,
	 * memsys_int.h), so neither the lookaside nor the set can hit: a
	 * contended line's misses skip both. A contended line has no
	 * lookaside entry (la_fill), so its hits skip the lookaside probe,
	 * whose entry a 1024-core run finds cold: a host miss an operation. */
	const struct ms_line *memo = ms->last_le;
	int known = memo && memo->line == addr >> ms->shift;
	int absent = known && !((memo->sharers[core >> 6] >> (core & 63)) & 1);
	if (!absent && ((!(known && memo->contended) && ms_la_hit(ms, core, addr, size, kind, val)) ||
			walk_hit(ms, core, addr, size, kind, val, way, lep)))
		return now + ms->m.lat_l1_hit;
	*way = -1;
	if (ms_fabric_issue(ms, core, now, addr, size, kind) < 0)
		return now;
	if (ms->waker)
		return MS_PENDING;
	/* No driver: run the fabric until the line is here, then perform. */
	uint64_t t = now;
	while (!walk_hit(ms, core, addr, size, kind, val, way, lep)) {
		t = ms_next_event(ms);
		if (!ms_step(ms) || err_is_set(&ms->check_err)) {
			*way = -1;
			return now;
		}
	}
	return t;
}

static uint64_t access(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size,
		       enum ms_acc kind, uint64_t *val)
{
	if (!in_range(ms, core, addr, size))
		return now;
	int w;
	struct ms_line *le;
	return access_in_range(ms, core, now, addr, size, kind, val, &w, &le);
}

uint64_t ms_load(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size, uint64_t *val)
{
	return access(ms, core, now, addr, size, MS_ACC_LOAD, val);
}

uint64_t ms_store(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size, uint64_t val)
{
	return access(ms, core, now, addr, size, MS_ACC_STORE, &val);
}

uint64_t ms_rmw_begin(struct memsys *ms, int core, uint64_t now, uint64_t addr)
{
	uint64_t dummy = 0;
	return access(ms, core, now, addr, 1, MS_ACC_RMW, &dummy);
}

void ms_rmw_end(struct memsys *ms, int core, uint64_t addr, uint64_t until)
{
	if (addr >= ms->mem_size)
		return;
	struct ms_line *le = line_find(ms, addr >> ms->shift);
	if (le && le->pin_core == core)
		le->pin_until = until;
}

/* The way the last locked RMW took, when it is this core's and still
 * holds addr's line: its load and store need not look the line up again. */
static inline int rmw_way(const struct memsys *ms, int core, uint64_t addr)
{
	const struct ms_line *le = ms->rmw_le;
	uint64_t line = addr >> ms->shift;
	if (!le || ms->rmw_core != core || le->line != line ||
	    !((le->sharers[core >> 6] >> (core & 63)) & 1) || l1_of(ms, core)->tag[ms->rmw_way] != line + 1)
		return -1;
	return ms->rmw_way;
}

/* rmw_way's match already places addr in memory and core among the
 * cores (a locked RMW of this core holds that line): of in_range's tests
 * only the access's shape is left. Anything else takes the general path,
 * whose in_range reports it. */
int ms_rmw_load(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t *val)
{
	int w = shape_ok(ms, addr, size) ? rmw_way(ms, core, addr) : -1;
	if (w < 0)
		return ms_try_load(ms, core, addr, size, val);
	return hit_way(ms, core, l1_of(ms, core), w, ms->rmw_le, addr >> ms->shift, addr, size,
		       MS_ACC_LOAD, val);
}

uint64_t ms_rmw_acquire(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size,
			uint64_t *val, int *loaded)
{
	uint64_t dummy = 0;
	int w;
	struct ms_line *le;
	uint64_t done = access_in_range(ms, core, now, addr, 1, MS_ACC_RMW, &dummy, &w, &le);
	if (done == MS_PENDING)
		return done;
	/* The way the RMW just took in the walk is the one rmw_way would
	 * find: nothing ran between the two accesses. */
	if (w >= 0 && le && shape_ok(ms, addr, size))
		*loaded = hit_way(ms, core, l1_of(ms, core), w, le, addr >> ms->shift, addr, size,
				  MS_ACC_LOAD, val);
	else
		*loaded = ms_rmw_load(ms, core, addr, size, val);
	return done;
}

int ms_rmw_finish(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t val,
		  uint64_t until)
{
	int w = shape_ok(ms, addr, size) ? rmw_way(ms, core, addr) : -1;
	if (w < 0) {
		int ok = ms_try_store(ms, core, addr, size, val);
		ms_rmw_end(ms, core, addr, until);
		return ok;
	}
	struct ms_line *le = ms->rmw_le;
	int ok = hit_way(ms, core, l1_of(ms, core), w, le, addr >> ms->shift, addr, size,
			 MS_ACC_STORE, &val);
	if (le->pin_core == core)
		le->pin_until = until;
	return ok;
}

int ms_try_load(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t *val)
{
	int w;
	struct ms_line *le;
	return in_range(ms, core, addr, size) && walk_hit(ms, core, addr, size, MS_ACC_LOAD, val, &w, &le);
}

int ms_try_store(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t val)
{
	int w;
	struct ms_line *le;
	return in_range(ms, core, addr, size) && walk_hit(ms, core, addr, size, MS_ACC_STORE, &val, &w, &le);
}

/* ---- side-effect-free questions ---- */

enum ms_state ms_state_of(const struct memsys *ms, int core, uint64_t addr)
{
	if (core < 0 || core >= ms->ncores || addr >= ms->mem_size)
		return MS_I;
	int w = cache_lookup(l1_of(ms, core), addr >> ms->shift);
	return w >= 0 ? (enum ms_state)l1_of(ms, core)->state[w] : MS_I;
}

int ms_can_read(const struct memsys *ms, int core, uint64_t addr)
{
	enum ms_state s = ms_state_of(ms, core, addr);
	return s != MS_I && ms->p->state[s].access[COH_LOAD].what == COH_HITS;
}

int ms_can_write(const struct memsys *ms, int core, uint64_t addr)
{
	enum ms_state s = ms_state_of(ms, core, addr);
	return s != MS_I && ms->p->state[s].access[COH_STORE].what == COH_HITS;
}

int ms_others_hold(const struct memsys *ms, int core, uint64_t addr)
{
	const struct ms_line *le = line_find(ms, addr >> ms->shift);
	if (!le)
		return 0;
	return le->nsharers > ((le->sharers[core >> 6] >> (core & 63)) & 1);
}

uint64_t ms_peek(const struct memsys *ms, uint64_t addr, unsigned size)
{
	if (addr >= ms->mem_size || size > 8 || size > ms->mem_size - addr)
		return 0;
	const struct ms_line *le = line_find(ms, addr >> ms->shift);
	if (le && le->dirty_in_flight)  /* the one up-to-date copy is on its way */
		return get_val(ms->recs[le->dirty_in_flight - 1].data + (addr & (ms->ls - 1)), size);
	if (le && le->owner != MS_NO_CORE) {
		const struct cache *c = l1_of(ms, le->owner);
		int w = cache_lookup(c, le->line);
		if (w >= 0)
			return get_val(cache_data(c, w) + (addr & (ms->ls - 1)), size);
	}
	uint8_t buf[8] = {0};
	for (unsigned k = 0; k < size; k++) {  /* bytewise: the span may cross a page */
		const uint8_t *b = sp_mem_peek(&ms->mem, addr + k);
		buf[k] = b ? *b : 0;
	}
	return get_val(buf, size);
}

const struct ms_stats *ms_core_stats(const struct memsys *ms, int core)
{
	return &ms->fast.pc[core].stats;
}

void ms_total_stats(const struct memsys *ms, struct ms_stats *out)
{
	memset(out, 0, sizeof *out);
	uint64_t *o = (uint64_t *)out;
	for (int c = 0; c < ms->ncores; c++) {
		const uint64_t *s = (const uint64_t *)&ms->fast.pc[c].stats;
		for (size_t k = 0; k < sizeof *out / sizeof(uint64_t); k++)
			o[k] += s[k];
	}
}

static void fill_info(const struct memsys *ms, const struct ms_line *le, struct ms_line_info *out)
{
	out->line = le->line << ms->shift;
	out->stats = le->stats;
	out->owner = le->owner;
	out->last_owner = le->last_owner;
	out->n_offsets = le->n_offsets;
	out->offsets = le->offsets;
	out->n_pcs = le->n_pcs;
	out->pcs = le->pcs;
}

int ms_line_info(const struct memsys *ms, uint64_t addr, struct ms_line_info *out)
{
	memset(out, 0, sizeof *out);
	out->owner = out->last_owner = MS_NO_CORE;
	if (addr >= ms->mem_size)
		return 0;
	out->line = addr & ~(uint64_t)(ms->ls - 1);
	const struct ms_line *le = line_find(ms, addr >> ms->shift);
	if (!le)
		return 0;
	fill_info(ms, le, out);
	return 1;
}

static int by_line(const void *a, const void *b)
{
	const struct ms_line_info *x = a, *y = b;
	return x->line < y->line ? -1 : x->line > y->line;
}

size_t ms_lines_touched(const struct memsys *ms)
{
	return ms->nentries;
}

ptrdiff_t ms_hot_lines(const struct memsys *ms, const struct ms_line_info **out)
{
	struct ms_scratch *sc = ms->scratch;
	size_t n = 0;
	for (size_t i = 0; i < ms->nentries; i++) {
		const struct ms_line *le = entry(ms, i);
		/* the lines that keep per-offset detail (fabric.c marks a line
		 * contended on its first bounce, invalidation or HITM): a line
		 * read dirty from its owner's cache without being invalidated,
		 * as a sum over per-CPU copies reads them, has HITMs only */
		if (!le->stats.bounces && !le->stats.invalidations && !le->stats.hitm)
			continue;
		if (n == sc->hot_cap) {
			size_t cap = sc->hot_cap ? 2 * sc->hot_cap : 64;
			struct ms_line_info *h = realloc(sc->hot, cap * sizeof *h);
			if (!h)
				return -1;
			sc->hot = h;
			sc->hot_cap = cap;
		}
		fill_info(ms, le, &sc->hot[n++]);
	}
	if (n)
		qsort(sc->hot, n, sizeof *sc->hot, by_line);
	*out = sc->hot;
	return (ptrdiff_t)n;
}

const char *ms_state_name(enum ms_state s)
{
	static const char *const n[MS_NSTATES] = { "I", "S", "E", "M", "F", "O", "W" };
	return (unsigned)s < MS_NSTATES ? n[s] : "?";
}

const char *ms_req_name(enum ms_req r)
{
	static const char *const n[MS_NREQS] = { "GETS", "GETM", "UPGRADE", "UPDATE" };
	return (unsigned)r < MS_NREQS ? n[r] : "?";
}

const char *ms_state_label(const struct memsys *ms, enum ms_state s)
{
	return coh_has_state(ms->p, s) ? ms->p->state[s].name : ms_state_name(s);
}

const struct coh_protocol *ms_protocol(const struct memsys *ms)
{
	return ms->p;
}
