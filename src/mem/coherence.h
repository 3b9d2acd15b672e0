/* Coherence protocols as data, in the manner of gem5 Ruby's .sm files: one
 * descriptor per protocol (coh_msi.c, coh_mesi.c, coh_mesif.c, coh_moesi.c,
 * coh_dragon.c) holds its states, its transition table and its declared
 * attributes, so the engine (memsys.c, fabric.c, invariants.c) applies
 * tables and never names a protocol or tests for a particular state.
 *
 * A state's row: its name and legend hue, what it is (owner, exclusive,
 * dirty, written back on eviction), what the requester does for (state,
 * load/store/locked RMW) (hit, or the request to issue), and what a holder
 * in that state does when it sees another core's request (next state and
 * actions). A request's column: whom it snoops, whether it fetches data,
 * whether a later request may be forwarded to its requester, whether it
 * is a store to a line others share (lat_store_shared), and the
 * requester's state after it, alone or beside other copies, with whether
 * that counts as taking write ownership (the bounce rule).
 *
 * Zero in any cell means "impossible": a zero access or snoop cell, a
 * zero fill cell (its next state is I) and a zero column (it snoops nobody)
 * are never reached while the protocol holds, so the engine reports
 * ERR_INTERNAL when it meets one and the soundness test (check_coherence)
 * walks every registered protocol for cells that lead to one. A state or
 * column a protocol lacks is simply left out of its initializer.
 *
 * The tables hold stable states and one transient one (MS_W, below). The
 * other transient states live in the fabric (fabric.c): a requester
 * between its request and its data is in flight (IS^D / IM^AD), and a
 * request forwarded to it then stalls until its fill, as in the textbook's
 * non-blocking directory protocols. A core in flight may still hold an
 * older copy (the S copy behind its UPGRADE); the tables apply to that copy
 * as to any other. */
#ifndef BOUNCE_COHERENCE_H
#define BOUNCE_COHERENCE_H

#include <stdint.h>
#include "base/cpu_model.h"
#include "mem/memsys.h"

/* The requester's operations: the columns of a row's access cells, in the
 * order of enum ms_acc (memsys.h), so that an access indexes them by kind. */
enum coh_op { COH_LOAD = MS_ACC_LOAD, COH_STORE = MS_ACC_STORE, COH_RMW = MS_ACC_RMW, COH_NOPS };

/* What the requester does for (state, op). */
enum { COH_HITS = 1, COH_MISSES = 2 };
struct coh_access_cell {
	uint8_t what;   /* COH_HITS: no transaction, the line goes to `next` (E->M is silent);
	                 * COH_MISSES: issue `req`; 0: impossible */
	uint8_t next;
	uint8_t req;
	/* A store that hits sends its bytes to every other copy of the line
	 * (an update protocol's write to a shared line, once its update
	 * request has been granted). */
	uint8_t update;
};

/* Actions of a snooped holder; each names the statistic it counts. */
enum {
	COH_SUPPLY = 1,    /* sends its data to the requester: c2c_transfers */
	COH_WRITEBACK = 2, /* writes its dirty data to memory: writebacks */
	COH_HITM = 4,      /* it held the line dirty: hitm (hitm_remote across sockets) */
	COH_UPDATED = 8,   /* its copy takes the requester's store: updates_received */
	COH_CAN = 128,     /* set in every cell that can happen (zero: impossible) */
};

struct coh_snoop_cell {
	uint8_t next;    /* holder's state afterwards; I from a valid state counts one invalidation */
	uint8_t actions; /* COH_* bits */
};

/* The palette entries a state's legend colour comes from (the UI owns the
 * colours themselves, ui_color.c). */
enum coh_hue {
	COH_HUE_INVALID, COH_HUE_SHARED, COH_HUE_EXCLUSIVE, COH_HUE_MODIFIED,
	COH_HUE_FORWARD, COH_HUE_OWNED, COH_HUE_GRANTED, COH_NHUES
};

struct coh_state_row {
	const char *name;        /* NULL: the protocol lacks this state; else its letters ("Sm") */
	const char *what;        /* the legend's words for it ("shared modified") */
	uint8_t hue;             /* enum coh_hue */
	/* The directory names at most one holder as the line's owner: the one
	 * an owner-only snoop asks, so every other state must ignore such a
	 * request (a unit test asserts that of every table). */
	uint8_t owner;
	/* No other valid copy may exist beside it, and a store in it needs no
	 * transaction (E becomes M silently): write ownership. */
	uint8_t exclusive;
	uint8_t dirty;           /* memory is stale */
	uint8_t evict_writeback; /* else evicted silently (the directory is still told) */
	struct coh_access_cell access[COH_NOPS];  /* as the requester */
	struct coh_snoop_cell snoop[MS_NREQS];    /* as another holder, by request seen */
};

/* Whom a request snoops (0: the protocol never issues it). */
enum {
	COH_SNOOP_OWNER = 1,      /* the directory's owner only */
	COH_SNOOP_ALL = 2,        /* every other holder */
	COH_SNOOP_OWNER_ELSE_ONE = 3, /* the owner, else the lowest-numbered other holder (clean supply) */
};

/* The requester's state after its request (next I: impossible). */
struct coh_fill_cell {
	uint8_t next;
	/* It takes write ownership of the line: a bounce when the line's last
	 * write owner was another core. */
	uint8_t owns;
};

struct coh_req_col {
	uint8_t snoop;          /* COH_SNOOP_*; 0: the protocol has no such request */
	uint8_t fetch;          /* needs the line's data (else only permission: no data moves) */
	/* Its requester will hold the only copy, so the agent may forward the
	 * line's next request to it before its unblock (fabric.c, start_next);
	 * behind any other request the agent waits for the unblock, since only
	 * then does it know which copies remain (through the agent, only until
	 * the request's last answer has passed it: fabric.c, fill). */
	uint8_t forward;
	/* The other holders keep their copies and take the store it is for
	 * (an update protocol); else the store invalidates them. */
	uint8_t update;
	/* A store to a line others share: it completes lat_store_shared after
	 * its issue when the model sets that (cpu_model.h). */
	uint8_t store_shared;
	struct coh_fill_cell alone;   /* no other valid copy remains after the snoops */
	struct coh_fill_cell shared;  /* other valid copies remain */
};

struct coh_protocol {
	const char *name;
	struct coh_state_row state[MS_NSTATES];
	struct coh_req_col req[MS_NREQS];
};

/* The registered protocols (CPU_PROTOCOLS in base/cpu_model.h), one table
 * file each. */
#define COH_TABLE_DECL_(id, name, table) extern const struct coh_protocol table;
CPU_PROTOCOLS(COH_TABLE_DECL_)
#undef COH_TABLE_DECL_

const struct coh_protocol *coh_protocol_of(enum protocol_kind p);

/* p as a machine that supplies clean lines cache to cache (the model's
 * c2c_clean, Illinois MESI): every copy a fetching request snoops may
 * supply it, and a read with no owner to ask asks the lowest-numbered other
 * holder. The first holder snooped that supplies is the supplier. */
void coh_with_clean_supply(const struct coh_protocol *p, struct coh_protocol *out);

/* Whether any of p's requests updates the other copies instead of
 * invalidating them: the report then shows the update statistics. */
int coh_updates(const struct coh_protocol *p);

/* Whether a state is one of p's (I always is: no copy). */
static inline int coh_has_state(const struct coh_protocol *p, unsigned s)
{
	return s < MS_NSTATES && p->state[s].name != NULL;
}

#endif
