/* Protocol selection: the CPU model's protocol kind to its table. The tables
 * themselves live one per file (coh_mesi.c, coh_mesif.c, coh_moesi.c). */
#include "config.h"
#include "mem/coherence.h"

const struct coh_protocol *coh_protocol_of(enum protocol_kind p)
{
	switch (p) {
	case PROTO_MESI: return &coh_mesi;
	case PROTO_MESIF: return &coh_mesif;
	case PROTO_MOESI: return &coh_moesi;
	}
	return &coh_mesi;
}
