/* MESI's rows and columns by name, and the cell shorthands, for the tables:
 * coh_mesi.c is made of them alone, and the tables built from MESI
 * (coh_mesif.c, coh_moesi.c) use them for every row they share with it. */
#ifndef BOUNCE_COH_MESI_H
#define BOUNCE_COH_MESI_H

#include "mem/coherence.h"

/* access cells: a hit going to state n; a miss issuing request r */
#define COH_HIT(n) { 1, n, 0 }
#define COH_MISS(r) { 0, MS_I, r }
/* a snoop that cannot happen while SWMR holds */
#define COH_X { MS_I, COH_BAD }

/* A state the protocol does not have: never held, so never hit or snooped. */
#define COH_ROW_UNUSED { \
	.access = { COH_MISS(MS_GETS), COH_MISS(MS_GETM) }, \
	.snoop = { COH_X, COH_X, COH_X } }

/* Rows: .access = { load, store }, .snoop = { seeing GETS, GETM, UPGRADE }. */
#define COH_MESI_I { .used = 1, \
	.access = { COH_MISS(MS_GETS), COH_MISS(MS_GETM) }, \
	.snoop = { { MS_I, 0 }, { MS_I, 0 }, { MS_I, 0 } } }
/* A write to S is an UPGRADE: permission without data. */
#define COH_MESI_S { .used = 1, \
	.access = { COH_HIT(MS_S), COH_MISS(MS_UPGRADE) }, \
	.snoop = { { MS_S, 0 }, { MS_I, 0 }, { MS_I, 0 } } }
/* Clean and alone: a store takes it to M silently; readers get the line
 * from memory, not from this copy. */
#define COH_MESI_E { .used = 1, .owner = 1, .exclusive = 1, \
	.access = { COH_HIT(MS_E), COH_HIT(MS_M) }, \
	.snoop = { { MS_S, 0 }, { MS_I, 0 }, COH_X } }
/* Dirty: a snoop supplies the line (HITM); a read also writes it back so
 * both copies become S. */
#define COH_MESI_M { .used = 1, .owner = 1, .exclusive = 1, .dirty = 1, .evict_writeback = 1, \
	.access = { COH_HIT(MS_M), COH_HIT(MS_M) }, \
	.snoop = { { MS_S, COH_SUPPLY | COH_WRITEBACK | COH_HITM }, { MS_I, COH_SUPPLY | COH_HITM }, COH_X } }

/* Columns. A read asks only the owner: every other copy is S, which
 * ignores a read; a first reader alone takes E, and E is write ownership. */
#define COH_MESI_GETS { .snoop = COH_SNOOP_OWNER, .fetch = 1, \
	.alone = { MS_E, 1 }, .shared = { MS_S, 0 } }
#define COH_MESI_GETM { .snoop = COH_SNOOP_ALL, .fetch = 1, \
	.alone = { MS_M, 1 }, .shared = { MS_M, 1 } }
#define COH_MESI_UPGRADE { .snoop = COH_SNOOP_ALL, .fetch = 0, \
	.alone = { MS_M, 1 }, .shared = { MS_M, 1 } }

#endif
