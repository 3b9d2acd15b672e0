/* Protocol selection: the CPU model's protocol kind to its table, from the
 * registration list (CPU_PROTOCOLS); the tables themselves live one per
 * file (coh_*.c). And the one change a CPU model makes to a table: clean
 * supply. */
#include "config.h"
#include "mem/coherence.h"

#define COH_TABLE_ROW_(id, name, table) [id] = &(table),
static const struct coh_protocol *const tables[CPU_NPROTOCOLS] = { CPU_PROTOCOLS(COH_TABLE_ROW_) };
#undef COH_TABLE_ROW_

const struct coh_protocol *coh_protocol_of(enum protocol_kind p)
{
	return (unsigned)p < CPU_NPROTOCOLS ? tables[p] : tables[PROTO_MESI];
}

void coh_with_clean_supply(const struct coh_protocol *p, struct coh_protocol *out)
{
	*out = *p;
	for (int r = 0; r < MS_NREQS; r++) {
		if (!out->req[r].fetch)
			continue;
		if (out->req[r].snoop == COH_SNOOP_OWNER)
			out->req[r].snoop = COH_SNOOP_OWNER_ELSE_ONE;
		for (int s = 0; s < MS_NSTATES; s++)
			if (out->state[s].snoop[r].actions & COH_CAN)
				out->state[s].snoop[r].actions |= COH_SUPPLY;
	}
}

int coh_updates(const struct coh_protocol *p)
{
	for (int r = 0; r < MS_NREQS; r++)
		if (p->req[r].snoop && p->req[r].update)
			return 1;
	return 0;
}
