/* Protocol selection and the names of states and requests; the tables
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

const char *ms_state_name(enum ms_state s)
{
	static const char *const n[MS_NSTATES] = { "I", "S", "E", "M", "F", "O" };
	return (unsigned)s < MS_NSTATES ? n[s] : "?";
}

const char *ms_req_name(enum ms_req r)
{
	static const char *const n[MS_NREQS] = { "GETS", "GETM", "UPGRADE", "PUT" };
	return (unsigned)r < MS_NREQS ? n[r] : "?";
}
