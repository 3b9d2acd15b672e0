/* Load hits counted in bulk: a parked core (the cores' fast-forward) is
 * credited the loads of the iterations it did not execute, counted and
 * LRU-stamped exactly as the hit path would have done them one by one. */
#include "config.h"
#include "mem/memsys_int.h"

/* core's way holding addr's line when a load there is a plain hit (it
 * keeps the line's state and is not the access a miss was for), else -1. */
static int plain_hit_way(const struct memsys *ms, int core, uint64_t addr, struct ms_line **lep)
{
	const struct cache *c = l1_of(ms, core);
	int w = cache_lookup(c, addr >> ms->shift);
	if (w < 0)
		return -1;
	struct ms_line *le = ms->fast.pc[core].way_le[w];
	enum ms_state st = (enum ms_state)c->state[w];
	const struct coh_access_cell *a = &ms->p->state[st].access[COH_LOAD];
	if (!le || a->what != COH_HITS || a->next != st || le->first_core == core)
		return -1;
	*lep = le;
	return w;
}

int ms_load_hits_plainly(const struct memsys *ms, int core, uint64_t addr, unsigned size)
{
	struct ms_line *le;
	return core >= 0 && core < ms->ncores && size >= 1 && size <= 8 && addr < ms->mem_size &&
	       size <= ms->mem_size - addr && !ms_crosses_line(addr, size, ms->ls) &&
	       plain_hit_way(ms, core, addr, &le) >= 0;
}

int ms_repeat_load_hits(struct memsys *ms, int core, const uint64_t *addr, const uint8_t *size,
			unsigned n, uint64_t k)
{
	struct cache *c = l1_of(ms, core);
	struct ms_stats *cs = &ms->fast.pc[core].stats;
	int w[MS_REPEAT_MAX];
	if (n > MS_REPEAT_MAX)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		struct ms_line *le;
		if (!ms_load_hits_plainly(ms, core, addr[i], size[i]) ||
		    (w[i] = plain_hit_way(ms, core, addr[i], &le)) < 0)
			return -1;
	}
	if (!k)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		struct ms_line *le = ms->fast.pc[core].way_le[w[i]];
		cs->loads += k;
		cs->l1_hits += k;
		le->stats.loads += k;
		le->stats.l1_hits += k;
		if (le->contended) {
			/* one noted as the hit path notes it, the others added */
			unsigned off = (unsigned)(addr[i] & (ms->ls - 1));
			ms_offset_note(ms, le, core, off, size[i], 0, 0, 0);
			uint32_t j = le->off_last;
			if (j < le->n_offsets && le->offsets[j].offset == off)
				le->offsets[j].reads += k - 1;
		}
	}
	/* each way last used where the last iteration used it */
	uint64_t base = c->clock + (k - 1) * n;
	for (unsigned i = 0; i < n; i++)
		c->lru[w[i]] = base + i + 1;
	c->clock += k * n;
	return 0;
}
