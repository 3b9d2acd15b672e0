/* MESIF (Intel QPI): as MESI, plus F, the one clean sharer that forwards the
 * line cache-to-cache instead of memory. The newest reader takes F, so the
 * forwarder is the copy most likely still cached. */
#include "config.h"
#include "mem/coherence.h"

#define H(n) { 1, n, 0 }
#define MISS(r) { 0, MS_I, r }
#define X { MS_I, COH_BAD }

const struct coh_protocol coh_mesif = {
	.name = "MESIF",
	.has_state = { [MS_I] = 1, [MS_S] = 1, [MS_E] = 1, [MS_M] = 1, [MS_F] = 1 },
	.access = {
		[MS_I] = { MISS(MS_GETS), MISS(MS_GETM) },
		[MS_S] = { H(MS_S),       MISS(MS_UPGRADE) },
		[MS_E] = { H(MS_E),       H(MS_M) },
		[MS_M] = { H(MS_M),       H(MS_M) },
		[MS_F] = { H(MS_F),       MISS(MS_UPGRADE) },
		[MS_O] = { MISS(MS_GETS), MISS(MS_GETM) },   /* unused */
	},
	.fill_alone  = { [MS_GETS] = MS_E, [MS_GETM] = MS_M, [MS_UPGRADE] = MS_M },
	.fill_shared = { [MS_GETS] = MS_F, [MS_GETM] = MS_M, [MS_UPGRADE] = MS_M },
	.snoop = {
		/*          GETS                                   GETM                              UPGRADE       PUT */
		[MS_I] = { { MS_I, 0 },                             { MS_I, 0 },                       { MS_I, 0 },  X },
		[MS_S] = { { MS_S, 0 },                             { MS_I, 0 },                       { MS_I, 0 },  X },
		[MS_E] = { { MS_S, COH_SUPPLY },                    { MS_I, COH_SUPPLY },              X,            X },
		[MS_M] = { { MS_S, COH_SUPPLY | COH_WRITEBACK | COH_HITM }, { MS_I, COH_SUPPLY | COH_HITM }, X,   X },
		[MS_F] = { { MS_S, COH_SUPPLY },                    { MS_I, COH_SUPPLY },              { MS_I, 0 },  X },
		[MS_O] = { X, X, X, X },
	},
	.evict_writeback = { [MS_M] = 1 },
	.is_owner = { [MS_E] = 1, [MS_M] = 1, [MS_F] = 1 },
	.is_exclusive = { [MS_E] = 1, [MS_M] = 1 },
	.is_dirty = { [MS_M] = 1 },
};
