/* MESI's rows and columns by name, and the cell shorthands, for the tables:
 * coh_mesi.c is made of them alone, and the tables built from MESI
 * (coh_msi.c, coh_mesif.c, coh_moesi.c) use them for every row they share
 * with it. coh_dragon.c uses the shorthands only. */
#ifndef BOUNCE_COH_MESI_H
#define BOUNCE_COH_MESI_H

#include "mem/coherence.h"

/* access cells: a hit going to state n; a hit going to n that sends its
 * store to the other copies; a miss issuing request r */
#define COH_HIT(n) { COH_HITS, n, 0, 0 }
#define COH_HIT_UPDATING(n) { COH_HITS, n, 0, 1 }
#define COH_MISS(r) { COH_MISSES, MS_I, r, 0 }
/* A locked RMW needs what a store needs: its own load and store come
 * after it, through the load and store cells. (The arguments are
 * initializers, which parentheses would break.) */
#define COH_ACCESS(load, store) { [COH_LOAD] = load, [COH_STORE] = store, [COH_RMW] = store } /* NOLINT(bugprone-macro-parentheses) */
/* a snoop cell that can happen: the holder goes to n, doing `actions` */
#define COH_SNOOP(n, actions) { n, (actions) | COH_CAN }
/* a fill cell: the requester ends in n, taking write ownership or not */
#define COH_FILL(n, owns) { n, owns }

/* Rows: .snoop by request seen. No request snoops a core without a copy,
 * so I's snoop cells are impossible (left zero). */
#define COH_MESI_I { .name = "I", .what = "invalid", .hue = COH_HUE_INVALID, \
	.access = COH_ACCESS(COH_MISS(MS_GETS), COH_MISS(MS_GETM)) }
/* A write to S is an UPGRADE: permission without data. */
#define COH_MESI_S { .name = "S", .what = "shared", .hue = COH_HUE_SHARED, \
	.access = COH_ACCESS(COH_HIT(MS_S), COH_MISS(MS_UPGRADE)), \
	.snoop = { [MS_GETS] = COH_SNOOP(MS_S, 0), [MS_GETM] = COH_SNOOP(MS_I, 0), \
		   [MS_UPGRADE] = COH_SNOOP(MS_I, 0) } }
/* Clean and alone: a store takes it to M silently; readers get the line
 * from memory, not from this copy. No UPGRADE can find it: the upgrader
 * would hold a copy beside it. */
#define COH_MESI_E { .name = "E", .what = "exclusive", .hue = COH_HUE_EXCLUSIVE, \
	.owner = 1, .exclusive = 1, \
	.access = COH_ACCESS(COH_HIT(MS_E), COH_HIT(MS_M)), \
	.snoop = { [MS_GETS] = COH_SNOOP(MS_S, 0), [MS_GETM] = COH_SNOOP(MS_I, 0) } }
/* Dirty: a snoop supplies the line (HITM); a read also writes it back so
 * both copies become S. */
#define COH_MESI_M { .name = "M", .what = "modified", .hue = COH_HUE_MODIFIED, \
	.owner = 1, .exclusive = 1, .dirty = 1, .evict_writeback = 1, \
	.access = COH_ACCESS(COH_HIT(MS_M), COH_HIT(MS_M)), \
	.snoop = { [MS_GETS] = COH_SNOOP(MS_S, COH_SUPPLY | COH_WRITEBACK | COH_HITM), \
		   [MS_GETM] = COH_SNOOP(MS_I, COH_SUPPLY | COH_HITM) } }

/* Columns. A read asks only the owner: every other copy is S, which
 * ignores a read; a first reader alone takes E, and E is write ownership.
 * A write leaves no other copy (its `shared` fill is impossible), so the
 * agent may forward the next request to its requester. */
#define COH_MESI_GETS { .snoop = COH_SNOOP_OWNER, .fetch = 1, \
	.alone = COH_FILL(MS_E, 1), .shared = COH_FILL(MS_S, 0) }
#define COH_MESI_GETM { .snoop = COH_SNOOP_ALL, .fetch = 1, .forward = 1, \
	.alone = COH_FILL(MS_M, 1) }
#define COH_MESI_UPGRADE { .snoop = COH_SNOOP_ALL, .fetch = 0, .forward = 1, .store_shared = 1, \
	.alone = COH_FILL(MS_M, 1) }

#endif
