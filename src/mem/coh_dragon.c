/* Dragon (Xerox PARC; Culler & Singh, "Parallel Computer Architecture",
 * 5.4.2): an update protocol. Nothing is invalidated: a write to a line
 * others share sends the written bytes to them (BusUpd, our UPDATE), and
 * the writer becomes Sm, the dirty owner, or M when no other copy remains
 * (the bus's "shared" wire: our fill's alone / shared). States: E, Sc (slot
 * S), Sm (slot O), M, and one transient state, Su (slot W), below.
 *
 * Where the book is silent, and why we chose as we did:
 * - A write miss is one request, GETM (the book's BusRd followed by BusUpd
 *   when the line turns out shared): a dirty holder supplies the line, and
 *   every holder keeps its copy as Sc and takes the store.
 * - Su: the book's bus is atomic, so the writer's BusUpd and its store are
 *   one step. Ours is a split transaction: the grant reaches the writer
 *   after the other copies were told, and the store is made when the
 *   writer makes its access again. Su is that writer between the two: its
 *   next store hits, goes to every other copy at that moment (the copies
 *   change together, so every copy always holds the last store) and leaves
 *   Su for Sm. A locked RMW keeps Su until its own store. A snoop that
 *   reaches Su first takes the grant away (Su becomes Sm or Sc, as Sm
 *   would) and the store asks again: it is then ordered after that request,
 *   as the agent ordered them.
 * - E seeing a read gives it Sc and lets memory supply, as the book's
 *   "E: BusRd/-" says; Sm and M supply (Flush) and keep or take Sm.
 * - Memory is written only when a dirty line (Sm, Su, M) is evicted.
 * - No request is forwarded: every one leaves other copies behind, so the
 *   agent waits for each one's unblock before it serves the next. */
#include "config.h"
#include "mem/coh_mesi.h"

/* What Sm, Su and M do when another core writes: give up ownership, keep
 * a copy, take the store (and supply the line to a write miss). */
#define DRAGON_SNOOP_WRITES \
	[MS_GETM] = COH_SNOOP(MS_S, COH_SUPPLY | COH_HITM | COH_UPDATED), \
	[MS_UPDATE] = COH_SNOOP(MS_S, COH_UPDATED)

const struct coh_protocol coh_dragon = {
	.name = "Dragon",
	.state = {
		[MS_I] = COH_MESI_I,
		/* Sc: a write broadcasts an UPDATE */
		[MS_S] = { .name = "Sc", .what = "shared clean", .hue = COH_HUE_SHARED,
			   .access = COH_ACCESS(COH_HIT(MS_S), COH_MISS(MS_UPDATE)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_S, 0),
				      [MS_GETM] = COH_SNOOP(MS_S, COH_UPDATED),
				      [MS_UPDATE] = COH_SNOOP(MS_S, COH_UPDATED) } },
		/* E: alone and clean, so no UPDATE can find it */
		[MS_E] = { .name = "E", .what = "exclusive clean", .hue = COH_HUE_EXCLUSIVE,
			   .owner = 1, .exclusive = 1,
			   .access = COH_ACCESS(COH_HIT(MS_E), COH_HIT(MS_M)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_S, 0),
				      [MS_GETM] = COH_SNOOP(MS_S, COH_UPDATED) } },
		/* M: alone and dirty */
		[MS_M] = { .name = "M", .what = "modified", .hue = COH_HUE_MODIFIED,
			   .owner = 1, .exclusive = 1, .dirty = 1, .evict_writeback = 1,
			   .access = COH_ACCESS(COH_HIT(MS_M), COH_HIT(MS_M)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_O, COH_SUPPLY | COH_HITM),
				      [MS_GETM] = COH_SNOOP(MS_S, COH_SUPPLY | COH_HITM | COH_UPDATED) } },
		/* Sm: dirty beside Sc copies; it supplies readers */
		[MS_O] = { .name = "Sm", .what = "shared modified", .hue = COH_HUE_OWNED,
			   .owner = 1, .dirty = 1, .evict_writeback = 1,
			   .access = COH_ACCESS(COH_HIT(MS_O), COH_MISS(MS_UPDATE)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_O, COH_SUPPLY | COH_HITM),
				      DRAGON_SNOOP_WRITES } },
		/* Su: Sm whose next store has been granted (see above) */
		[MS_W] = { .name = "Su", .what = "Sm, store granted", .hue = COH_HUE_GRANTED,
			   .owner = 1, .dirty = 1, .evict_writeback = 1,
			   .access = { [COH_LOAD] = COH_HIT(MS_W),
				       [COH_STORE] = COH_HIT_UPDATING(MS_O),
				       [COH_RMW] = COH_HIT(MS_W) },
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_O, COH_SUPPLY | COH_HITM),
				      DRAGON_SNOOP_WRITES } },
	},
	.req = {
		/* BusRd: the owner (E, Sm, Su, M) is asked; alone, the reader takes E */
		[MS_GETS] = { .snoop = COH_SNOOP_OWNER, .fetch = 1,
			      .alone = COH_FILL(MS_E, 1), .shared = COH_FILL(MS_S, 0) },
		/* write miss: BusRd, then BusUpd to whoever shares the line */
		[MS_GETM] = { .snoop = COH_SNOOP_ALL, .fetch = 1, .update = 1,
			      .alone = COH_FILL(MS_M, 1), .shared = COH_FILL(MS_W, 1) },
		/* BusUpd: a round trip like MESI's UPGRADE, and priced like it */
		[MS_UPDATE] = { .snoop = COH_SNOOP_ALL, .fetch = 0, .update = 1, .store_shared = 1,
				.alone = COH_FILL(MS_M, 1), .shared = COH_FILL(MS_W, 1) },
	},
};
