/* Coherence protocols as data, in the manner of gem5 Ruby's .sm files: one
 * row per state and one column per request hold every rule the memory
 * system applies (memsys.c at an access, fabric.c to a request and its
 * snoops), so neither has a protocol-specific branch and MESIF/MOESI are
 * tables.
 *
 * A state's row: what the requester does for (state, load/store) (hit, or
 * the request to issue), what a holder in that state does when it sees
 * another core's request (next state and actions), and what the state is
 * (owner, exclusive, dirty, written back on eviction). A request's column:
 * whom it snoops, whether it fetches data, and the requester's state after
 * it, alone or beside other copies, with whether that counts as taking
 * write ownership (the bounce rule). coh_mesi.h names MESI's rows and
 * columns so that the tables built from MESI spell out only their
 * differences.
 *
 * The tables hold stable states only. The transient ones live in the
 * fabric (fabric.c): a requester between its request and its data is in
 * flight (IS^D / IM^AD), and a request forwarded to it then stalls until
 * its fill, as in the textbook's non-blocking directory protocols. A core
 * in flight may still hold an older copy (the S copy behind its UPGRADE);
 * the tables apply to that copy as to any other. */
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

struct coh_state_row {
	uint8_t used;            /* the protocol has this state */
	/* The directory names at most one holder as the line's owner: the one
	 * an owner-only snoop asks, so every other state must ignore such a
	 * request (a unit test asserts that of every table). */
	uint8_t owner;
	uint8_t exclusive;       /* no other valid copy may exist beside it */
	uint8_t dirty;           /* memory is stale */
	uint8_t evict_writeback; /* else evicted silently (the directory is still told) */
	struct coh_access_cell access[COH_NOPS];  /* as the requester */
	struct coh_snoop_cell snoop[MS_NREQS];    /* as another holder, by request seen */
};

/* Whom a request snoops. */
enum { COH_SNOOP_OWNER = 1, COH_SNOOP_ALL = 2 };

/* The requester's state after its request. */
struct coh_fill_cell {
	uint8_t next;
	/* It takes write ownership of the line: a bounce when the line's last
	 * write owner was another core. */
	uint8_t owns;
};

struct coh_req_col {
	uint8_t snoop;                /* COH_SNOOP_OWNER (the directory's owner only) or COH_SNOOP_ALL */
	uint8_t fetch;                /* needs the line's data (else only permission: no data moves) */
	struct coh_fill_cell alone;   /* no other valid copy remains after the snoops */
	struct coh_fill_cell shared;  /* other valid copies remain */
};

struct coh_protocol {
	const char *name;
	struct coh_state_row state[MS_NSTATES];
	struct coh_req_col req[MS_NREQS];
};

extern const struct coh_protocol coh_mesi, coh_mesif, coh_moesi;

const struct coh_protocol *coh_protocol_of(enum protocol_kind p);

#endif
