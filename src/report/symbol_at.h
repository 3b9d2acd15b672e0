/* Naming an address by the program's symbol that holds it: one rule for
 * the report's line table and the view's rows. Of the symbols of a section
 * that hold an address, the one that starts highest; among aliases that
 * start there, the first in name order. */
#ifndef BOUNCE_SYMBOL_AT_H
#define BOUNCE_SYMBOL_AT_H

#include <stdint.h>
#include "cpu/program.h"

struct rep_symbol_key;

/* A program's symbols by address: the line table names each byte of every
 * line that bounced, and a search of every symbol per byte made a program
 * of ten thousand busy variables take minutes. */
struct rep_symbols {
	const struct program *p;
	struct rep_symbol_key *keys; /* by section, value, name order; NULL: search p->syms */
	uint32_t n;
};

/* The index of p's symbols: 0, or -1 when out of memory, when lookups
 * search every symbol with the same answers (the viewer goes on so; a
 * report fails, as every command does without memory). */
int rep_symbols_init(struct rep_symbols *o, const struct program *p);
void rep_symbols_free(struct rep_symbols *o);
/* The symbol of `section` holding v (by the rule above), *off the offset
 * of v within it; NULL when none does. */
const struct symbol *rep_symbol_at(const struct rep_symbols *o, int section, uint64_t v, uint64_t *off);
/* The symbol to name the bytes [lo, hi) by (a cache line): the one holding
 * lo, by the rule above; else the one that starts lowest inside them
 * (aliases: the first in name order); NULL when none. */
const struct symbol *rep_symbol_in(const struct rep_symbols *o, int section, uint64_t lo, uint64_t hi);

#endif
