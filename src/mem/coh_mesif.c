/* MESIF (Intel QPI): MESI plus F, the one clean sharer that forwards the
 * line cache-to-cache instead of memory. The newest reader takes F, so the
 * forwarder is the copy most likely still cached. */
#include "config.h"
#include "mem/coh_mesi.h"

const struct coh_protocol coh_mesif = {
	.name = "MESIF",
	.state = {
		[MS_I] = COH_MESI_I,
		[MS_S] = COH_MESI_S,
		/* differs from MESI: E forwards its clean copy to a reader or writer */
		[MS_E] = { .name = "E", .what = "exclusive", .hue = COH_HUE_EXCLUSIVE,
			   .owner = 1, .exclusive = 1,
			   .access = COH_ACCESS(COH_HIT(MS_E), COH_HIT(MS_M)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_S, COH_SUPPLY),
				      [MS_GETM] = COH_SNOOP(MS_I, COH_SUPPLY) } },
		[MS_M] = COH_MESI_M,
		/* new: F reads like S, forwards like E, and is the owner a read asks */
		[MS_F] = { .name = "F", .what = "forward", .hue = COH_HUE_FORWARD, .owner = 1,
			   .access = COH_ACCESS(COH_HIT(MS_F), COH_MISS(MS_UPGRADE)),
			   .snoop = { [MS_GETS] = COH_SNOOP(MS_S, COH_SUPPLY),
				      [MS_GETM] = COH_SNOOP(MS_I, COH_SUPPLY),
				      [MS_UPGRADE] = COH_SNOOP(MS_I, 0) } },
	},
	.req = {
		/* differs from MESI: a reader beside other copies takes F */
		[MS_GETS] = { .snoop = COH_SNOOP_OWNER, .fetch = 1,
			      .alone = COH_FILL(MS_E, 1), .shared = COH_FILL(MS_F, 0) },
		[MS_GETM] = COH_MESI_GETM,
		[MS_UPGRADE] = COH_MESI_UPGRADE,
	},
};
