/* memsys internals shared by the memory system's own files (memsys.c and the
 * invariant checker, invariants.c): the directory entries and struct memsys.
 * Nothing outside src/mem/ includes this. */
#ifndef BOUNCE_MEMSYS_INT_H
#define BOUNCE_MEMSYS_INT_H

#include "mem/memsys.h"
#include "mem/cache.h"
#include "mem/coherence.h"
#include "mem/sparse.h"
#include "base/event_queue.h"

#include <string.h>

/* Directory invariant: for a line with an entry, bit c of `sharers` is set
 * iff core c's L1 holds the line valid, `nsharers` is their number, and
 * `owner` is the one holder in an owner state (or MS_NO_CORE). Entries are
 * allocated on a line's first access, so memory grows with the lines
 * touched, not with mem_size x cores: a hash map (sparse.h) from line
 * number to entry index finds them, whatever the address. */
#define CHUNK_SHIFT 10
#define CHUNK_MASK ((1u << CHUNK_SHIFT) - 1)

struct ms_line {
	/* First, and entries 64-byte aligned: what a hit reads and writes of
	 * its entry (these fields and the counters loads, stores and
	 * l1_hits) then shares one host cache line. first_core is the core
	 * whose fill arrived and whose access is still to come: that access is
	 * the miss's (not counted as a hit), with the HITM it found. */
	int32_t first_core;
	/* The request whose fill carries the line's only up-to-date copy,
	 * record index + 1 (0: none in flight). */
	uint32_t dirty_in_flight;
	uint8_t first_hitm, first_hitm_remote;
	uint8_t contended;    /* bounced, invalidated or HITM: keep per-offset detail */
	struct ms_stats stats;
	uint64_t line;        /* line number */
	/* The line's requests at its agent (fabric.c): the one it served last
	 * (until its unblock arrives, or through the agent its fill; with
	 * forwarding the tail of a chain of requests in flight) and the queue
	 * behind it, record index + 1. */
	uint32_t active, qhead, qtail;
	/* A locked RMW holds the line in pin_core's cache until pin_until:
	 * snoops that arrive meanwhile wait (cache locking). */
	int32_t pin_core;
	uint64_t pin_until;
	/* A dirty copy written back at an eviction or a snoop reaches memory
	 * (or the LLC) at wb_at: a request that needs memory's copy waits. */
	uint64_t wb_at;
	int32_t owner, last_owner;
	uint32_t nsharers;
	uint32_t n_offsets, cap_offsets;
	uint32_t off_last;    /* index of the offset noted last (a hint: checked) */
	struct ms_offset_stats *offsets;
	uint32_t n_pcs, cap_pcs;
	struct ms_pc_stats *pcs;
	uint64_t sharers[];   /* ms->words words */
};

/* One coherence request from its issue to its unblock (fabric.c). */
struct ms_rec {
	uint32_t next;        /* the line's queue, index + 1 */
	int32_t core;
	uint8_t waiters;      /* MS_WAKE_EXEC | MS_WAKE_DRAIN: what to wake at the fill */
	uint8_t kind;         /* enum ms_acc of the access that missed */
	uint8_t req;          /* enum ms_req decided at serve; MS_NREQS: nothing to do */
	uint8_t supplied, llc_hit, remote, hitm, hitm_remote, writeback, deferred;
	/* Forwarding (fabric.c, start_next): a request served behind an
	 * exclusive one still in flight snoops that one's requester (fwd_core)
	 * and is handled there only after its fill (pred: the request it waits
	 * for, succ: the one waiting for it, index + 1), not before not_before. */
	uint8_t forwarded, fwd_ok, waiting, filled;
	uint8_t joined;         /* joined an SMT sibling's fill (fabric.c, join_sibling) */
	uint8_t lock_waited;    /* its snoop has waited for a holder's lock (fabric.c, wait_for_lock) */
	uint16_t updated;       /* copies that took the store (update protocols); in padding */
	int32_t fwd_core;
	uint32_t pred, succ;
	/* Merging at the requester's shared cache (fabric.c, ms_fabric_issue):
	 * the requests of its domain waiting behind this one (a list through
	 * `next`, index + 1), and, until it is served, its key in
	 * memsys.dom_out + 1 (0: not out for its domain, or served). */
	uint32_t wait_head, wait_tail;
	uint64_t dom_key;
	uint64_t core_key;      /* the same for its physical core's L1 (memsys.core_out) */
	uint64_t not_before;
	uint64_t ready;         /* once filled: when the requester could use the line */
	int32_t supplier;
	uint8_t supplier_state, from;
	uint32_t invalidated;
	uint16_t offset, size;  /* of the access that missed, for per-offset HITM */
	uint8_t by;             /* the requester's slot that issued it (MS_WAKE_*) */
	uint32_t pc;            /* the instruction that missed, MS_NO_PC */
	uint64_t line, issued, served, data_at;
	struct ms_line *le;     /* the line's entry (entries never move) */
	struct topo_place agent;
	uint32_t to_agent;      /* the leg from the requester to its agent (and back) */
	uint8_t *data;          /* line_size bytes: what the supplier sent */
	uint64_t *targets;      /* the holders snooped, as chosen at serve (ms->words words) */
	uint16_t tw_lo, tw_hi;  /* the words of targets with a bit set lie in tw_lo..tw_hi */
};

/* Output buffers of const queries. */
struct ms_scratch {
	struct ms_line_info *hot;
	size_t hot_cap;
};

struct memsys {
	struct ms_fast fast;             /* first: the inline hit path (memsys.h) reads it */
	struct cpu_model m;
	const struct coh_protocol *p;    /* the model's table, or clean_table */
	struct coh_protocol clean_table; /* with clean supply, when the model has it */
	int ncores, sockets;
	int n_llc, llc_per_cluster;      /* an LLC per cluster (a CCX's L3) or per socket */
	struct topology topo;            /* cpu_model_topology of m */
	struct topo_legs legs;           /* topo's legs, looked up (fabric.c) */
	uint64_t run_until;              /* ms_run's limit, which ms_run_hold lowers */
	struct topo_place *place;        /* ncores: where each core sits */
	uint32_t ls, shift;
	uint64_t mem_size, nlines;
	struct sp_mem mem;               /* backing memory, pages allocated when written */
	struct sp_mem shadow;            /* the checker's image of the last stores */
	uint8_t has_shadow;
	uint8_t *home;                   /* nlines, only once a home is set */
	struct sp_map line_idx;          /* line number -> entry index + 1 */
	/* The entry ms_line_get returned last: a contended line's misses ask
	 * for the same one again and again (entries never move). */
	struct ms_line *last_le;
	uint8_t **chunks;
	size_t nchunks, chunk_cap, nentries, stride, words;
	struct cache *llc;
	/* Every core's L1 arrays, one pool (cache_pool_bytes) from a host page
	 * on (big_zalloc): a way's data is then one host cache line, not two,
	 * which a 1024-core run, where each transfer finds its cores' lines
	 * cold, pays for at every fill. */
	uint8_t *l1_pool;
	struct ms_line **way_le_pool;    /* every core's ms_core.way_le, as the L1 pool */
	uint64_t bus_free;
	/* The fabric's messages (fabric.c): its own event queue, processed
	 * before the cores' events of the same cycle, and request records. */
	struct evq q;
	struct ms_rec *recs;
	uint32_t n_recs, cap_recs, free_rec;  /* free list: index + 1 */
	uint32_t min_leg;                     /* shortest agent-to-core leg */
	/* Shared-cache domains (clusters where the model has them, else
	 * sockets) and, per line and domain, the last request it sent beyond
	 * itself: key line * n_dom + domain, value record index + 1; that
	 * request is still unserved while its dom_key is this key + 1. */
	int n_dom;
	enum topo_level dom_level;
	struct sp_map dom_out;
	/* SMT siblings share their core's L1, the innermost cache that merges
	 * misses: when two simulated CPUs share a core (core_merge), a core
	 * sends at most one request per line beyond itself, keyed line *
	 * n_phys + physical core in core_out, as dom_out is. */
	int core_merge, n_phys;
	struct sp_map core_out;
	ms_waker_fn waker;
	void *waker_ctx;
	struct err check_err;
	ms_observer_fn obs;
	void *obs_ctx;
	struct ms_scratch *scratch;
	/* The entry, core and L1 way of the last locked RMW's hit
	 * (ms_rmw_load and ms_rmw_finish check it is still that line's). */
	struct ms_line *rmw_le;
	int rmw_core, rmw_way;
};

#define COUNT(ms, core, le, field, n) do { \
	(ms)->fast.pc[core].stats.field += (n); (le)->stats.field += (n); } while (0)

static inline struct cache *l1_of(const struct memsys *ms, int core)
{
	return &ms->fast.pc[core].l1;
}

static inline struct ms_line *entry(const struct memsys *ms, size_t i)
{
	return (struct ms_line *)(ms->chunks[i >> CHUNK_SHIFT] + (i & CHUNK_MASK) * ms->stride);
}

static inline struct ms_line *line_find(const struct memsys *ms, uint64_t line)
{
	uint64_t i = sp_map_get(&ms->line_idx, line);
	return i ? entry(ms, (size_t)i - 1) : NULL;
}

/* The lookaside permission bits of a way in state s (memsys.h). */
static inline uint64_t la_perms(const struct ms_fast *f, unsigned s)
{
	/* one permission for stores and locked RMWs: both must keep the state */
	unsigned wr = f->hit_same[MS_ACC_STORE] & f->hit_same[MS_ACC_RMW];
	return (((f->hit_same[MS_ACC_LOAD] >> s) & 1) ? MS_LA_OK(0) : 0) | (((wr >> s) & 1) ? MS_LA_OK(1) : 0);
}

static inline uint64_t get_val(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;
	memcpy(&v, p, size);   /* little-endian host, as the x86 we model */
	return v;
}

/* One line's data from a cache way or request block to another. A
 * 64-byte line, the common size, is a fixed-size copy the compiler does in
 * a few moves, not a libc call (a contended operation copies its line
 * twice). */
static inline void ms_line_copy(const struct memsys *ms, uint8_t *dst, const uint8_t *src)
{
	if (ms->ls == 64)
		memcpy(dst, src, 64);
	else
		memcpy(dst, src, ms->ls);
}

/* A line of the backing memory: read into out (ls bytes), or written from
 * data (-1, recorded, when out of memory). */
static inline void ms_mem_get(const struct memsys *ms, uint64_t line, uint8_t *out)
{
	sp_mem_read(&ms->mem, line << ms->shift, out, ms->ls);
}

static inline int ms_mem_put(struct memsys *ms, uint64_t line, const uint8_t *data)
{
	uint8_t *p = sp_mem_at(&ms->mem, line << ms->shift);
	if (!p)
		return err_internal(&ms->check_err, "memsys: out of memory for simulated memory");
	memcpy(p, data, ms->ls);
	return 0;
}

/* Whether line lies wholly inside simulated memory (the lookaside covers only those). */
static inline int ms_line_whole(const struct memsys *ms, uint64_t line)
{
	return line < (ms->mem_size >> ms->shift);
}

/* The checker (invariants.c). */
int ms_check_line(const struct memsys *ms, uint64_t line, struct err *e);

static inline int ms_sock_of(const struct memsys *ms, int core)
{
	return ms->place[core].socket;
}

/* The LLC that serves `core`: its cluster's when the machine has clusters
 * (they are defined by a shared cache), else its socket's. */
static inline struct cache *ms_llc_of(const struct memsys *ms, int core)
{
	return &ms->llc[ms->llc_per_cluster ? ms->place[core].cluster : ms->place[core].socket];
}

static inline int ms_home_of(const struct memsys *ms, uint64_t line)
{
	return ms->home ? ms->home[line] : (int)(line % (uint64_t)ms->sockets);
}

/* Shared by memsys.c and fabric.c. */
void ms_evict(struct memsys *ms, int core, struct cache *c, int w, uint64_t now);
/* Core's dirty copy of le leaves for memory at now (fabric.c): as a
 * transaction of its own (an eviction), or riding on a snoop's reply. */
void ms_writeback_start(struct memsys *ms, struct ms_line *le, int core, uint64_t now, int own_txn);
void ms_la_drop(struct memsys *ms, int core, uint64_t line);
/* ms_la_drop for entry le's line: nothing to drop on a contended line,
 * which has no lookaside entry (memsys.h). */
static inline void ms_la_drop_le(struct memsys *ms, int core, const struct ms_line *le)
{
	if (!le->contended)
		ms_la_drop(ms, core, le->line);
}
void ms_la_forget(struct memsys *ms, uint64_t line, uint64_t now);
void ms_offset_note(struct memsys *ms, struct ms_line *le, int core, unsigned off, unsigned size,
		    int is_write, int hitm, int hitm_remote);
struct ms_line *ms_line_get(struct memsys *ms, uint64_t line);
void ms_pc_note(struct memsys *ms, struct ms_line *le, uint32_t pc, int hitm, int hitm_remote, int bounce);
/* fabric.c */
int ms_fabric_init(struct memsys *ms, struct err *e);
void ms_fabric_free(struct memsys *ms);
/* Issue core's request for `line` (its access of `kind` at addr, size
 * missed); returns the record index, or -1 (out of memory, recorded). */
int ms_fabric_issue(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size,
		    enum ms_acc kind);

#endif
