/* L1 hits counted in bulk: a parked core (the cores' fast-forward) is
 * credited the loads and the silent stores of the iterations it did not
 * execute, counted and LRU-stamped exactly as the hit path would have. */
#include "config.h"
#include "mem/memsys_int.h"

/* core's way holding addr's line when an access of this kind there is a
 * plain hit (in range, within one line; it keeps the line's state and is
 * not the access a miss was for; a store, on a line whose offsets are not
 * being noted), else -1. */
static int plain_hit_way(const struct memsys *ms, int core, uint64_t addr, unsigned size, enum ms_acc kind)
{
	if (core < 0 || core >= ms->ncores || size < 1 || size > 8 || addr >= ms->mem_size ||
	    size > ms->mem_size - addr || ms_crosses_line(addr, size, ms->ls) ||
	    (kind != MS_ACC_LOAD && kind != MS_ACC_STORE))
		return -1;
	const struct cache *c = l1_of(ms, core);
	int w = cache_lookup(c, addr >> ms->shift);
	if (w < 0)
		return -1;
	const struct ms_line *le = ms->fast.pc[core].way_le[w];
	enum ms_state st = (enum ms_state)c->state[w];
	const struct coh_access_cell *a = &ms->p->state[st].access[kind == MS_ACC_STORE ? COH_STORE : COH_LOAD];
	if (!le || a->what != COH_HITS || a->next != st || a->update || le->first_core == core ||
	    (kind == MS_ACC_STORE && le->contended))
		return -1;
	return w;
}

int ms_hit_is_plain(const struct memsys *ms, int core, uint64_t addr, unsigned size, enum ms_acc kind)
{
	return plain_hit_way(ms, core, addr, size, kind) >= 0;
}

uint64_t ms_l1_accesses(const struct memsys *ms, int core)
{
	return l1_of(ms, core)->clock;
}

int ms_repeat_hits(struct memsys *ms, int core, const uint64_t *addr, const uint8_t *size,
		   uint32_t stores, unsigned n, uint64_t k)
{
	struct cache *c = l1_of(ms, core);
	struct ms_stats *cs = &ms->fast.pc[core].stats;
	int w[MS_REPEAT_MAX];
	if (n > MS_REPEAT_MAX)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		enum ms_acc kind = stores >> i & 1 ? MS_ACC_STORE : MS_ACC_LOAD;
		if ((w[i] = plain_hit_way(ms, core, addr[i], size[i], kind)) < 0)
			return -1;
	}
	if (!k)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		struct ms_line *le = ms->fast.pc[core].way_le[w[i]];
		cs->l1_hits += k;
		le->stats.l1_hits += k;
		if (stores >> i & 1) {
			/* silent: the bytes are the ones already there */
			cs->stores += k;
			le->stats.stores += k;
			continue;
		}
		cs->loads += k;
		le->stats.loads += k;
		if (le->contended) {
			/* one noted as the hit path notes it, the others added */
			unsigned off = (unsigned)(addr[i] & (ms->ls - 1));
			ms_offset_note(ms, le, core, off, size[i], 0, 0, 0);
			uint32_t j = le->off_last;
			if (j < le->n_offsets && le->offsets[j].offset == off)
				le->offsets[j].reads += k - 1;
		}
	}
	/* Each way last used where the last iteration used it. The one
	 * executed (or credited) last stamped every way here, n stamps an
	 * iteration: k iterations later each stamp is k * n further on. Taken
	 * from the stamps as they are, so that a way used twice moves once,
	 * and whatever order loads and the buffer's drains took. */
	uint64_t to[MS_REPEAT_MAX];
	for (unsigned i = 0; i < n; i++)
		to[i] = c->lru[w[i]] + k * n;
	for (unsigned i = 0; i < n; i++)
		c->lru[w[i]] = to[i];
	c->clock += k * n;
	return 0;
}
