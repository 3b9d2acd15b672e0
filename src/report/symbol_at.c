/* The symbol that holds an address, by one rule (symbol_at.h), through an
 * index of the program's symbols by section and address. */
#include "config.h"
#include "report/symbol_at.h"

#include <stdlib.h>

struct rep_symbol_key {
	uint64_t value;
	uint32_t idx;              /* into p->syms, which is in name order */
	uint8_t section;
};

static int cmp_key(const void *a, const void *b)
{
	const struct rep_symbol_key *x = a, *y = b;
	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int rep_symbols_init(struct rep_symbols *o, const struct program *p)
{
	o->p = p;
	o->n = p->n_syms;
	o->keys = malloc((o->n ? o->n : 1) * sizeof *o->keys);
	if (!o->keys)
		return -1;
	for (uint32_t i = 0; i < o->n; i++)
		o->keys[i] = (struct rep_symbol_key){ (uint64_t)p->syms[i].value, i, p->syms[i].section };
	qsort(o->keys, o->n, sizeof *o->keys, cmp_key);
	return 0;
}

void rep_symbols_free(struct rep_symbols *o)
{
	free(o->keys);
	o->keys = NULL;
}

static int sym_holds(const struct symbol *y, uint64_t v)
{
	uint64_t size = y->size ? y->size : 1;
	return (uint64_t)y->value <= v && v < (uint64_t)y->value + size;
}

const struct symbol *rep_symbol_at(const struct rep_symbols *o, int section, uint64_t v, uint64_t *off)
{
	const struct program *p = o->p;
	const struct symbol *best = NULL;
	if (!o->keys) {
		for (uint32_t i = 0; i < p->n_syms; i++) {
			const struct symbol *y = &p->syms[i];
			if (y->section == section && sym_holds(y, v) && (!best || y->value > best->value))
				best = y;
		}
	} else {
		/* hi: the first key past (section, v); then down a start at a
		 * time (with the assembler's sizes the first start holds v). */
		uint32_t lo = 0, hi = o->n;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			const struct rep_symbol_key *k = &o->keys[mid];
			if (k->section < section || (k->section == section && k->value <= v))
				lo = mid + 1;
			else
				hi = mid;
		}
		while (hi > 0 && o->keys[hi - 1].section == section && !best) {
			uint32_t first = hi - 1;
			while (first > 0 && o->keys[first - 1].section == section &&
			       o->keys[first - 1].value == o->keys[hi - 1].value)
				first--;
			for (uint32_t k = first; k < hi && !best; k++)
				if (sym_holds(&p->syms[o->keys[k].idx], v))
					best = &p->syms[o->keys[k].idx];
			hi = first;
		}
	}
	if (best)
		*off = v - (uint64_t)best->value;
	return best;
}

const struct symbol *rep_symbol_in(const struct rep_symbols *o, int section, uint64_t lo, uint64_t hi)
{
	uint64_t off;
	const struct symbol *best = rep_symbol_at(o, section, lo, &off);
	if (best)
		return best;
	const struct program *p = o->p;
	if (!o->keys) {
		for (uint32_t i = 0; i < p->n_syms; i++) {
			const struct symbol *y = &p->syms[i];
			if (y->section == section && (uint64_t)y->value >= lo && (uint64_t)y->value < hi &&
			    (!best || y->value < best->value))
				best = y;
		}
		return best;
	}
	/* the first key at or past (section, lo): the lowest start, and of
	 * its aliases the first in name order (the keys' order) */
	uint32_t a = 0, b = o->n;
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		const struct rep_symbol_key *k = &o->keys[mid];
		if (k->section < section || (k->section == section && k->value < lo))
			a = mid + 1;
		else
			b = mid;
	}
	if (a < o->n && o->keys[a].section == section && o->keys[a].value < hi)
		return &p->syms[o->keys[a].idx];
	return NULL;
}
