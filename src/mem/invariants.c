/* The memory system's invariant checker: single writer / multiple readers,
 * the directory against the caches, and every copy and loaded value against
 * a shadow image of the last stores. Costs nothing unless turned on. */
#include "config.h"
#include "mem/memsys_int.h"

#include <stdlib.h>
#include <string.h>

int ms_check_line(const struct memsys *ms, uint64_t line, struct err *e)
{
	const struct coh_protocol *p = ms->p;
	const struct ms_line *le = line_find(ms, line);
	uint64_t base = line << ms->shift;
	int valid = 0, nexcl = 0, nowner = 0, dirty = 0, owner = MS_NO_CORE;
	for (int c = 0; c < ms->ncores; c++) {
		int w = cache_lookup(l1_of(ms, c), line);
		int bit = le && (le->sharers[c >> 6] >> (c & 63)) & 1;
		if ((w >= 0) != bit)
			return err_internal(e, "line 0x%llx: directory says core %d %s a copy, its L1 says %s",
					    (unsigned long long)base, c, bit ? "holds" : "lacks",
					    w >= 0 ? "it does" : "it does not");
		if (w < 0)
			continue;
		enum ms_state s = l1_of(ms, c)->state[w];
		valid++;
		if (!p->has_state[s] || s == MS_I)
			return err_internal(e, "line 0x%llx: core %d holds it in state %s, not valid in %s",
					    (unsigned long long)base, c, ms_state_name(s), p->name);
		nexcl += p->is_exclusive[s];
		dirty += p->is_dirty[s];
		if (p->is_owner[s]) {
			nowner++;
			owner = c;
		}
		if (ms->shadow && memcmp(cache_data(l1_of(ms, c), w), ms->shadow + base, ms->ls))
			return err_internal(e, "line 0x%llx: core %d's copy (%s) differs from the last stores",
					    (unsigned long long)base, c, ms_state_name(s));
	}
	if (nexcl && valid > 1)
		return err_internal(e, "line 0x%llx: SWMR violated: an M/E copy beside %d other copies",
				    (unsigned long long)base, valid - 1);
	if (nowner > 1 || dirty > 1)
		return err_internal(e, "line 0x%llx: %d owners, %d dirty copies", (unsigned long long)base,
				    nowner, dirty);
	if (le && (le->owner != owner || le->nsharers != (uint32_t)valid))
		return err_internal(e, "line 0x%llx: directory owner %d / %u copies, caches say %d / %d",
				    (unsigned long long)base, le->owner, le->nsharers, owner, valid);
	if (ms->shadow && !dirty && memcmp(ms->mem + base, ms->shadow + base, ms->ls))
		return err_internal(e, "line 0x%llx: memory is stale and no cache holds the line dirty",
				    (unsigned long long)base);
	return 0;
}

int ms_check_all(const struct memsys *ms, struct err *e)
{
	for (size_t i = 0; i < ms->nentries; i++)
		if (ms_check_line(ms, entry(ms, i)->line, e))
			return -1;
	if (ms->shadow)
		for (uint64_t l = 0; l < ms->nlines; l++)
			if (!ms->line_idx[l] && memcmp(ms->mem + (l << ms->shift), ms->shadow + (l << ms->shift), ms->ls))
				return err_internal(e, "line 0x%llx: memory differs from the last stores",
						    (unsigned long long)(l << ms->shift));
	return 0;
}

int ms_check_error(const struct memsys *ms, struct err *e)
{
	if (!err_is_set(&ms->check_err))
		return 0;
	*e = ms->check_err;
	return -1;
}

void ms_set_checking(struct memsys *ms, int on)
{
	ms->checking = on;
	/* The lookaside skips the shadow: it must not be used while checking. */
	for (int c = 0; on && c < ms->ncores; c++)
		memset(ms->fast.pc[c].la, 0, sizeof ms->fast.pc[c].la);
	if (!on) {
		free(ms->shadow);
		ms->shadow = NULL;
		return;
	}
	if (!ms->shadow && !(ms->shadow = malloc(ms->nlines << ms->shift))) {
		err_internal(&ms->check_err, "memsys: out of memory for the checker's shadow image");
		ms->checking = 0;
		return;
	}
	/* The shadow starts as the coherent image: memory, overridden by dirty copies. */
	memcpy(ms->shadow, ms->mem, ms->nlines << ms->shift);
	for (size_t i = 0; i < ms->nentries; i++) {
		const struct ms_line *le = entry(ms, i);
		if (le->owner == MS_NO_CORE)
			continue;
		int w = cache_lookup(l1_of(ms, le->owner), le->line);
		if (w >= 0)
			memcpy(ms->shadow + (le->line << ms->shift), cache_data(l1_of(ms, le->owner), w), ms->ls);
	}
}
