/* Coherence protocols as data, in the manner of gem5 Ruby's .sm files: for
 * the requesting cache, (state x access) -> hit or the request to issue; for
 * every other holder, (state x request seen) -> next state and actions; on
 * eviction, state -> write back or drop silently. memsys.c interprets these
 * tables and counts the statistics each cell names; it contains no
 * protocol-specific branches, so MESIF and MOESI are just other tables. */
#ifndef BOUNCE_COHERENCE_H
#define BOUNCE_COHERENCE_H

#include <stdint.h>
#include "base/cpu_model.h"
#include "mem/memsys.h"

enum coh_op { COH_LOAD = 0, COH_STORE, COH_NOPS };

/* What the requester does for (state, op). */
struct coh_access_cell {
	uint8_t hit;    /* 1: no transaction; the line goes to `next` (E->M is silent) */
	uint8_t next;   /* on a hit: the state afterwards */
	uint8_t req;    /* on a miss: enum ms_req to issue */
};

/* Actions of a snooped holder; each names the statistic it counts. */
enum {
	COH_SUPPLY = 1,    /* sends its data to the requester: c2c_transfers */
	COH_WRITEBACK = 2, /* writes its dirty data to memory: writebacks */
	COH_HITM = 4,      /* it held the line dirty: hitm (hitm_remote across sockets) */
	COH_BAD = 128,     /* cannot happen while SWMR holds: memsys reports ERR_INTERNAL */
};

struct coh_snoop_cell {
	uint8_t next;    /* holder's state afterwards; I from a valid state counts one invalidation */
	uint8_t actions; /* COH_* bits */
};

struct coh_protocol {
	const char *name;
	uint8_t has_state[MS_NSTATES];           /* states this protocol uses */
	struct coh_access_cell access[MS_NSTATES][COH_NOPS];
	/* Requester's state after a request: alone = no other valid copy remains. */
	uint8_t fill_alone[MS_NREQS], fill_shared[MS_NREQS];
	struct coh_snoop_cell snoop[MS_NSTATES][MS_NREQS];
	uint8_t evict_writeback[MS_NSTATES];     /* else evicted silently (directory still told) */
	/* The (at most one) holder the directory names as the line's owner:
	 * the one a read must snoop. Every other valid copy is S, and S ignores
	 * GETS in every table (a unit test asserts that). */
	uint8_t is_owner[MS_NSTATES];
	uint8_t is_exclusive[MS_NSTATES];        /* M, E: no other valid copy may exist */
	uint8_t is_dirty[MS_NSTATES];            /* memory is stale: M, O */
};

extern const struct coh_protocol coh_mesi, coh_mesif, coh_moesi;

const struct coh_protocol *coh_protocol_of(enum protocol_kind p);

#endif
