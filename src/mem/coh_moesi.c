/* MOESI (AMD): MESI plus O, a dirty line shared without writing it back.
 * A read snooping M turns it into O; O supplies the data to later readers
 * (HITM, the line being dirty) and writes back only on eviction. */
#include "config.h"
#include "mem/coh_mesi.h"

const struct coh_protocol coh_moesi = {
	.name = "MOESI",
	.state = {
		[MS_I] = COH_MESI_I,
		[MS_S] = COH_MESI_S,
		[MS_E] = COH_MESI_E,
		/* differs from MESI: a read snooping M leaves it O, memory stale */
		[MS_M] = { .name = "M", .what = "modified", .hue = COH_HUE_MODIFIED,
			   .owner = 1, .exclusive = 1, .dirty = 1, .evict_writeback = 1,
			   .access = COH_ACCESS(COH_HIT(MS_M), COH_HIT(MS_M)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_O, COH_SUPPLY | COH_HITM),
				      [MS_GETM] = COH_SNOOP(MS_I, COH_SUPPLY | COH_HITM) } },
		/* new: O, dirty and shared; its owner upgrades to write */
		[MS_O] = { .name = "O", .what = "owned", .hue = COH_HUE_OWNED,
			   .owner = 1, .dirty = 1, .evict_writeback = 1,
			   .access = COH_ACCESS(COH_HIT(MS_O), COH_MISS(MS_UPGRADE)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_O, COH_SUPPLY | COH_HITM),
				      [MS_GETM] = COH_SNOOP(MS_I, COH_SUPPLY | COH_HITM),
				      [MS_UPGRADE] = COH_SNOOP(MS_I, 0) } },
	},
	.req = {
		[MS_GETS] = COH_MESI_GETS,
		[MS_GETM] = COH_MESI_GETM,
		[MS_UPGRADE] = COH_MESI_UPGRADE,
	},
};
