/* MSI, the textbook's first invalidation protocol: MESI without E. A read
 * miss gets S even with no other copy, so a core that reads and then
 * writes a private line pays an UPGRADE MESI's silent E->M saves. */
#include "config.h"
#include "mem/coh_mesi.h"

const struct coh_protocol coh_msi = {
	.name = "MSI",
	.state = {
		[MS_I] = COH_MESI_I,
		[MS_S] = COH_MESI_S,
		[MS_M] = COH_MESI_M,
	},
	.req = {
		/* differs from MESI: a reader alone takes S, not write ownership */
		[MS_GETS] = { .snoop = COH_SNOOP_OWNER, .fetch = 1,
			      .alone = COH_FILL(MS_S, 0), .shared = COH_FILL(MS_S, 0) },
		[MS_GETM] = COH_MESI_GETM,
		[MS_UPGRADE] = COH_MESI_UPGRADE,
	},
};
