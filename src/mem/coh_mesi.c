/* MESI, exact, as on a front-side-bus Xeon MP: clean data comes from memory,
 * a snoop that hits M supplies the line (HITM) and, on a read, writes it
 * back. The rows and columns themselves are in coh_mesi.h. */
#include "config.h"
#include "mem/coh_mesi.h"

const struct coh_protocol coh_mesi = {
	.name = "MESI",
	.state = {
		[MS_I] = COH_MESI_I,
		[MS_S] = COH_MESI_S,
		[MS_E] = COH_MESI_E,
		[MS_M] = COH_MESI_M,
	},
	.req = {
		[MS_GETS] = COH_MESI_GETS,
		[MS_GETM] = COH_MESI_GETM,
		[MS_UPGRADE] = COH_MESI_UPGRADE,
	},
};
