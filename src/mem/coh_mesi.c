/* MESI, exact, as on a front-side-bus Xeon MP: clean data comes from memory,
 * a snoop that hits M supplies the line (HITM) and, on a read, writes it
 * back so both copies become S. A write to S is an UPGRADE (no data). */
#include "config.h"
#include "mem/coherence.h"

#define H(n) { 1, n, 0 }
#define MISS(r) { 0, MS_I, r }
#define X { MS_I, COH_BAD }

const struct coh_protocol coh_mesi = {
	.name = "MESI",
	.has_state = { [MS_I] = 1, [MS_S] = 1, [MS_E] = 1, [MS_M] = 1 },
	.access = {
		/*            load           store */
		[MS_I] = { MISS(MS_GETS), MISS(MS_GETM) },
		[MS_S] = { H(MS_S),       MISS(MS_UPGRADE) },
		[MS_E] = { H(MS_E),       H(MS_M) },         /* silent E->M */
		[MS_M] = { H(MS_M),       H(MS_M) },
		[MS_F] = { MISS(MS_GETS), MISS(MS_GETM) },   /* unused */
		[MS_O] = { MISS(MS_GETS), MISS(MS_GETM) },   /* unused */
	},
	.fill_alone  = { [MS_GETS] = MS_E, [MS_GETM] = MS_M, [MS_UPGRADE] = MS_M },
	.fill_shared = { [MS_GETS] = MS_S, [MS_GETM] = MS_M, [MS_UPGRADE] = MS_M },
	.snoop = {
		/*          GETS                                   GETM                              UPGRADE            PUT */
		[MS_I] = { { MS_I, 0 },                             { MS_I, 0 },                       { MS_I, 0 },       X },
		[MS_S] = { { MS_S, 0 },                             { MS_I, 0 },                       { MS_I, 0 },       X },
		[MS_E] = { { MS_S, 0 },                             { MS_I, 0 },                       X,                 X },
		[MS_M] = { { MS_S, COH_SUPPLY | COH_WRITEBACK | COH_HITM }, { MS_I, COH_SUPPLY | COH_HITM }, X,        X },
		[MS_F] = { X, X, X, X },
		[MS_O] = { X, X, X, X },
	},
	.evict_writeback = { [MS_M] = 1 },
	.is_owner = { [MS_E] = 1, [MS_M] = 1 },
	.is_exclusive = { [MS_E] = 1, [MS_M] = 1 },
	.is_dirty = { [MS_M] = 1 },
};
