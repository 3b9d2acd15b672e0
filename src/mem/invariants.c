/* The memory system's invariant checker: single writer / multiple readers,
 * the directory against the caches, and every copy and loaded value against
 * a shadow image of the last stores. Costs nothing unless turned on. */
#include "config.h"
#include "mem/memsys_int.h"

#include <stdlib.h>
#include <string.h>

/* The lookaside invariant (memsys.h) for core's entry naming `line`, if it
 * has one: the entry must name the way its L1 holds the line in, with that
 * way's permissions, for a line the lookaside may cover. A stale entry
 * would let a hit skip a transaction or read another line's data. */
static int check_la(const struct memsys *ms, int core, uint64_t line, struct err *e)
{
	const struct ms_core *pc = &ms->fast.pc[core];
	const struct ms_la *la = &pc->la[(line + 1) & (MS_LA_SIZE - 1)];
	if ((la->key & ~MS_LA_OKS) != line + 1)
		return 0;
	unsigned long long base = line << ms->shift;   /* for %llx */
	const struct cache *c = &pc->l1;
	int w = cache_lookup(c, line);
	if (w < 0)
		return err_internal(e, "line 0x%llx: core %d's lookaside names it, its L1 lacks it", base, core);
	const struct ms_line *le = line_find(ms, line);
	if (la->way.data != cache_data(c, w) || la->way.lru != &c->lru[w] || !le ||
	    la->way.line_stats != &le->stats)
		return err_internal(e, "line 0x%llx: core %d's lookaside names another way or line", base, core);
	if ((la->key & MS_LA_OKS) != la_perms(&ms->fast, c->state[w]))
		return err_internal(e, "line 0x%llx: core %d's lookaside lets %s%s hit in state %s", base, core,
				    la->key & MS_LA_OK(0) ? "loads " : "", la->key & MS_LA_OK(1) ? "stores" : "",
				    ms_state_label(ms, (enum ms_state)c->state[w]));
	if (le->contended || !ms_line_whole(ms, line))
		return err_internal(e, "line 0x%llx: core %d's lookaside covers a %s line", base, core,
				    le->contended ? "contended" : "partial");
	return 0;
}

/* Whether the shadow's bytes at addr differ from data (a line, inside one page). */
static int differs(const struct sp_mem *shadow, uint64_t addr, const uint8_t *data, size_t n)
{
	uint8_t want[256];
	sp_mem_read(shadow, addr, want, n);
	return memcmp(want, data, n) != 0;
}

int ms_check_line(const struct memsys *ms, uint64_t line, struct err *e)
{
	const struct coh_protocol *p = ms->p;
	const struct ms_line *le = line_find(ms, line);
	uint64_t base = line << ms->shift;
	int valid = 0, nexcl = 0, nowner = 0, dirty = 0, owner = MS_NO_CORE;
	for (int c = 0; c < ms->ncores; c++) {
		if (check_la(ms, c, line, e))
			return -1;
		int w = cache_lookup(l1_of(ms, c), line);
		int bit = le && (le->sharers[c >> 6] >> (c & 63)) & 1;
		if ((w >= 0) != bit)
			return err_internal(e, "line 0x%llx: directory says core %d %s a copy, its L1 says %s",
					    (unsigned long long)base, c, bit ? "holds" : "lacks",
					    w >= 0 ? "it does" : "it does not");
		if (w < 0)
			continue;
		if (ms->fast.pc[c].way_le[w] != le)
			return err_internal(e, "line 0x%llx: core %d's L1 way names another directory entry",
					    (unsigned long long)base, c);
		enum ms_state s = l1_of(ms, c)->state[w];
		valid++;
		if (!coh_has_state(p, s) || s == MS_I)
			return err_internal(e, "line 0x%llx: core %d holds it in state %s, not valid in %s",
					    (unsigned long long)base, c, ms_state_label(ms, s), p->name);
		nexcl += p->state[s].exclusive;
		dirty += p->state[s].dirty;
		if (p->state[s].owner) {
			nowner++;
			owner = c;
		}
		if (ms->has_shadow && differs(&ms->shadow, base, cache_data(l1_of(ms, c), w), ms->ls))
			return err_internal(e, "line 0x%llx: core %d's copy (%s) differs from the last stores",
					    (unsigned long long)base, c, ms_state_label(ms, s));
	}
	if (nexcl && valid > 1)
		return err_internal(e, "line 0x%llx: SWMR violated: an exclusive copy beside %d other copies",
				    (unsigned long long)base, valid - 1);
	if (nowner > 1 || dirty > 1)
		return err_internal(e, "line 0x%llx: %d owners, %d dirty copies", (unsigned long long)base,
				    nowner, dirty);
	if (le && (le->owner != owner || le->nsharers != (uint32_t)valid))
		return err_internal(e, "line 0x%llx: directory owner %d / %u copies, caches say %d / %d",
				    (unsigned long long)base, le->owner, le->nsharers, owner, valid);
	/* A dirty line on its way to its next owner is in no cache: its data
	 * in flight is checked when it lands. */
	uint8_t mem[256];
	if (ms->has_shadow && !dirty && !(le && le->dirty_in_flight) &&
	    (ms_mem_get(ms, line, mem), differs(&ms->shadow, base, mem, ms->ls)))
		return err_internal(e, "line 0x%llx: memory is stale and no cache holds the line dirty",
				    (unsigned long long)base);
	return 0;
}

int ms_check_all(const struct memsys *ms, struct err *e)
{
	for (size_t i = 0; i < ms->nentries; i++)
		if (ms_check_line(ms, entry(ms, i)->line, e))
			return -1;
	for (int c = 0; c < ms->ncores; c++)
		for (int k = 0; k < MS_LA_SIZE; k++) {
			uint64_t key = ms->fast.pc[c].la[k].key & ~MS_LA_OKS;
			if (key && check_la(ms, c, key - 1, e))
				return -1;
		}
	/* Lines never accessed: memory as the image left it. A line written
	 * has an entry, so the shadow's pages and memory's hold every other
	 * line that is not zero. */
	const struct sp_mem *img[2] = { &ms->shadow, &ms->mem };
	for (int k = 0; ms->has_shadow && k < 2; k++)
		for (size_t i = 0; i < img[k]->index.cap; i++) {
			if (!img[k]->index.slots[i].key)
				continue;
			uint64_t page = (img[k]->index.slots[i].key - 1) << SP_PAGE_SHIFT;
			for (uint64_t l = page >> ms->shift; l < (page + SP_PAGE_SIZE) >> ms->shift; l++) {
				uint8_t mem[256];
				ms_mem_get(ms, l, mem);
				if (!line_find(ms, l) && differs(&ms->shadow, l << ms->shift, mem, ms->ls))
					return err_internal(e, "line 0x%llx: memory differs from the last stores",
							    (unsigned long long)(l << ms->shift));
			}
		}
	return 0;
}

int ms_check_error(const struct memsys *ms, struct err *e)
{
	if (!err_is_set(&ms->check_err))
		return 0;
	*e = ms->check_err;
	return -1;
}

void ms_check_access(struct memsys *ms, int core, uint64_t addr, unsigned size,
		     enum ms_acc kind, const uint64_t *val)
{
	struct err *e = &ms->check_err;
	if (kind == MS_ACC_STORE) {
		uint8_t *p = sp_mem_at(&ms->shadow, addr);
		if (!p) {
			err_internal(e, "memsys: out of memory for the checker's shadow image");
			return;
		}
		memcpy(p, val, size);
	}
	if (err_is_set(e) || check_la(ms, core, addr >> ms->shift, e))
		return;
	uint8_t last[8];
	if (kind == MS_ACC_LOAD) {
		sp_mem_read(&ms->shadow, addr, last, size);
		if (get_val(last, size) != *val)
			err_internal(e, "core %d loaded 0x%llx from 0x%llx; the last store wrote 0x%llx", core,
				     (unsigned long long)*val, (unsigned long long)addr,
				     (unsigned long long)get_val(last, size));
	}
}

void ms_set_checking(struct memsys *ms, int on)
{
	ms->fast.checking = (uint8_t)!!on;
	sp_mem_free(&ms->shadow);
	ms->has_shadow = 0;
	if (!on)
		return;
	/* The shadow starts as the coherent image: memory, overridden by dirty copies. */
	int oom = sp_mem_copy_at(&ms->shadow, 0, &ms->mem);
	for (size_t i = 0; !oom && i < ms->nentries; i++) {
		const struct ms_line *le = entry(ms, i);
		if (le->owner == MS_NO_CORE)
			continue;
		int w = cache_lookup(l1_of(ms, le->owner), le->line);
		uint8_t *p = w >= 0 ? sp_mem_at(&ms->shadow, le->line << ms->shift) : NULL;
		if (w >= 0 && !p)
			oom = 1;
		else if (p)
			memcpy(p, cache_data(l1_of(ms, le->owner), w), ms->ls);
	}
	if (oom) {
		sp_mem_free(&ms->shadow);
		err_internal(&ms->check_err, "memsys: out of memory for the checker's shadow image");
		ms->fast.checking = 0;
		return;
	}
	ms->has_shadow = 1;
}
