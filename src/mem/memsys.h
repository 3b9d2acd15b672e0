/* The memory system: per-core private L1D caches holding real data, an
 * optional per-socket LLC, the coherence fabric (bus or directory) applying a
 * protocol table (coherence.h), the backing memory and every memory statistic.
 *
 * The L1 lookaside invariant, on which the inline hit path below rests: each
 * core has MS_LA_SIZE lookaside entries, direct-mapped by line number, and an
 * entry for a line names the L1 way holding it and the accesses (load,
 * store) that hit there without changing the way's state. An entry is exact
 * whenever it exists: every change of that way's tag or state (fill,
 * eviction, snoop, upgrade, silent E->M) first drops it. Entries exist only
 * for lines that lie wholly inside memory and are not `contended` (those keep
 * per-offset detail, a slow-path job; a line becoming contended drops all of
 * its entries). So a hit found through the lookaside reads neither tag nor
 * state and does exactly what a hit found by walking the set does: the one
 * function ms_perform. The checker (ms_set_checking) verifies each entry
 * against the L1 it names, and checks the values lookaside hits load.
 *
 * Timing: a miss is a split transaction of timed messages (fabric.c, and
 * docs/architecture.md): cache states change when the messages that change
 * them arrive, so an owner keeps hitting in its copy until the snoop
 * reaches it. Events are processed in (cycle, sequence) order, so runs are
 * deterministic. */
#ifndef BOUNCE_MEMSYS_H
#define BOUNCE_MEMSYS_H

#include <stdint.h>
#include <stddef.h>
#include "base/cpu_model.h"
#include "mem/cache.h"
#include "mem/mem_stats.h"
#include "base/error.h"

struct sp_mem;
struct coh_protocol;

#define MS_NO_CORE (-1)

/* Per-cache line state: slots, each with a role, which a protocol's table
 * (coherence.h) names and uses or leaves out. I is no copy; S a clean
 * copy beside others; E clean and alone; M dirty and alone; F the clean
 * sharer that forwards (MESIF); O the dirty sharer that owns the line
 * (MOESI's O, Dragon's Sm); W an update protocol's O whose next store has
 * been granted (Dragon's writer between its update's grant and its store). */
enum ms_state { MS_I = 0, MS_S, MS_E, MS_M, MS_F, MS_O, MS_W, MS_NSTATES };

/* What a request asks for: a read, a write miss, permission to write a
 * copy it has (invalidating the others), permission to write a copy it
 * has while the others take its store (an update protocol's BusUpd). */
enum ms_req { MS_GETS = 0, MS_GETM, MS_UPGRADE, MS_UPDATE, MS_NREQS };

/* One performed transaction, as reported to an observer (UI, trace). */
struct ms_txn {
	uint64_t issued;      /* cycle the requester asked */
	uint64_t start;       /* cycle the fabric took it (>= issued) */
	uint64_t done;        /* cycle the requester has the data/permission */
	uint64_t line;        /* line address (addr & ~(line_size-1)) */
	int core;             /* requester */
	int supplier;         /* core that supplied data, MS_NO_CORE = memory/LLC */
	enum ms_req req;
	enum ms_state from;   /* requester's state before */
	enum ms_state to;     /* requester's state after */
	enum ms_state supplier_state; /* supplier's state before (MS_I if memory) */
	uint32_t invalidated; /* copies invalidated in other caches */
	uint32_t updated;     /* copies in other caches that take the store (update protocols) */
	uint8_t bounce;       /* counted as a bounce */
	uint8_t hitm;         /* found the line dirty (M/O) in another cache */
	uint8_t remote;       /* supplier/home on another socket */
	uint8_t llc_hit;      /* data came from the socket's LLC */
	uint8_t writeback;    /* a dirty line was written back to memory */
	uint8_t by;           /* MS_WAKE_EXEC or MS_WAKE_DRAIN: which of the requester's
	                       * two request slots it came from (each has at most one
	                       * request in flight, so each is a well-formed timeline) */
	uint32_t pc;          /* instruction that made the access (ms_note_pc), MS_NO_PC */
};

typedef void (*ms_observer_fn)(void *ctx, const struct ms_txn *t);

/* Counts (mem_stats.h declares them). The same struct serves per core (the
 * requester's view), per line, and totals. Each event is counted in one
 * place: an access and its hit in ms_perform (below), a transaction's
 * outcome when fabric.c completes it, an eviction and its writeback in
 * memsys.c; the L1 hits of a parked core's loop, which it does not
 * execute, are credited in bulk by ms_repeat_hits (hit_repeat.c). */
#define MS_STAT_FIELD_(name, shown, view_head, view_w, what) uint64_t name;
struct ms_stats {
	MS_STATS(MS_STAT_FIELD_)
};
#undef MS_STAT_FIELD_

/* Per-offset detail of a line that bounced, for the shared-line table
 * (perf c2c style). Offsets are byte offsets of accesses within the line. */
#define MS_OFFSET_FIELD_(name, to_symbol, c2c_head) uint64_t name;
struct ms_offset_stats {
	uint16_t offset;
	uint8_t size;                   /* widest access seen at this offset */
	MS_OFFSET_STATS(MS_OFFSET_FIELD_)
	uint64_t *readers, *writers;    /* core bitsets, ms_bitset_words() words each */
};
#undef MS_OFFSET_FIELD_

/* What one instruction's misses did to a line: the transactions it made
 * that found the line dirty elsewhere (HITM) or took write ownership from
 * another core (bounce). perf c2c's "which code" column. */
#define MS_NO_PC UINT32_MAX
#define MS_PC_FIELD_(name, c2c_head) uint64_t name;
struct ms_pc_stats {
	uint32_t pc;                    /* instruction index, MS_NO_PC: not noted */
	MS_PC_STATS(MS_PC_FIELD_)
};
#undef MS_PC_FIELD_

struct ms_line_info {
	uint64_t line;
	struct ms_stats stats;
	int owner;                      /* current M/E/O owner or MS_NO_CORE */
	int last_owner;                 /* last core that held write ownership */
	uint32_t n_offsets;
	const struct ms_offset_stats *offsets; /* sorted by offset */
	uint32_t n_pcs;
	const struct ms_pc_stats *pcs;  /* in order of first HITM or bounce */
};

struct memsys;

/* The host memory a machine's shape costs: ms_create's arrays sized by cores
 * times cache lines, from the one function (ms_size_of) that ms_create
 * allocates by, so that the budget and the allocation cannot drift apart.
 * Pages of them become resident only as the run fills ways (the sanitizer
 * build writes them all at once), but the kernel refuses a mapping much
 * larger than the host, and --jobs builds a machine per job: a model over
 * MS_HOST_BUDGET is refused as bad input by ms_model_check (the user's
 * model is what is wrong, not the engine). The catalogue's models at
 * their most CPUs need at most 111 MiB (epyc-9654 at 192: its 12 LLCs;
 * manycore-1024 45 MiB); 4 GiB still takes 2 MiB L1s of 64-byte lines on
 * 1024 cores. An L1 line costs 25 + line_size bytes (tag 8, LRU stamp 8,
 * state 1, way_le 8, the data), an LLC line 17. */
#define MS_HOST_BUDGET ((uint64_t)4 << 30)

struct ms_size {
	size_t per_core;     /* fast.pc: each core's struct ms_core */
	size_t l1;           /* the L1 pool: tags, LRU stamps, data and states */
	size_t way_le;       /* each L1 way's directory-entry pointer */
	size_t llc_each;     /* one LLC's tags, LRU stamps and states */
	int n_llc;           /* LLCs: one per socket, or per cluster, a simulated CPU sits in */
	uint64_t total;      /* all of it */
};

/* The sizes for m, which cpu_model_validate accepted. */
void ms_size_of(const struct cpu_model *m, struct ms_size *sz);
/* cpu_model_validate, then the host budget: -1 with e set (ERR_INPUT, the
 * message starting "l1_size: " or "llc_size: ", whichever is the larger
 * part, so that a loader can point at that key) when the machine's caches
 * would take more than MS_HOST_BUDGET. */
int ms_model_check(const struct cpu_model *m, struct err *e);

/* Create the memory system for m->cores cores over simulated addresses
 * [0, mem_size), any size up to 2^64 - 1: memory is sparse and costs
 * host memory only where it is written. Lines default to home socket (line index % sockets).
 * The model must pass ms_model_check (ms_create checks it, as bad input). */
struct memsys *ms_create(const struct cpu_model *m, uint64_t mem_size, struct err *e);
void ms_destroy(struct memsys *ms);

/* Before the run: initial memory contents and NUMA homes. */
/* Copy an initial image into memory at addr; all-zero pages allocate nothing.
 * -1 with e set (ERR_INTERNAL) outside memory or out of host memory. */
int ms_write_memory(struct memsys *ms, uint64_t addr, const void *src, uint64_t len, struct err *e);
/* The same for a sparse image of len bytes whose address a lands at base +
 * a: only the pages it holds are read, so a large zero image costs nothing. */
int ms_write_image(struct memsys *ms, uint64_t base, const struct sp_mem *img, uint64_t len, struct err *e);
/* A byte of the backing memory (not of any cache: ms_peek is the coherent view). */
uint8_t ms_memory_byte(const struct memsys *ms, uint64_t addr);
/* Host bytes the simulated memory and the directory entries take now. */
uint64_t ms_host_bytes(const struct memsys *ms);
void ms_set_home(struct memsys *ms, uint64_t addr, uint64_t len, int socket);

/* Accesses by core `core` at cycle `now`. size is 1, 2, 4 or 8 and the access
 * must not cross a line (callers check alignment first: ms_crosses_line).
 * A hit is performed at once and returns now + lat_l1_hit. A miss issues a
 * coherence request (fabric.c: request, snoops, data, unblock, each timed
 * by the topology) and returns MS_PENDING: nothing is performed yet. When
 * the line arrives, the waker (ms_set_waker) is called for the core's
 * execution (loads, RMWs) or its store buffer (ms_store), and the access,
 * made again, hits. Without a waker (tests, benchmarks of the memory system
 * alone) a miss runs the fabric until its line has arrived, performs the
 * access and returns the cycle the data arrived.
 * ms_store is a store leaving the store buffer (it needs M). ms_rmw_begin
 * obtains M for a locked read-modify-write; once it hits, the line is
 * locked in the core's cache until ms_rmw_end(..., until): a snoop that
 * arrives before `until` waits for it. The RMW's own load/store are hits. */
#define MS_PENDING UINT64_MAX
/* MS_WAKE_MSG: a message to a core that asked for them (ms_watch_msgs) was
 * scheduled to arrive at t. */
enum { MS_WAKE_EXEC = 1, MS_WAKE_DRAIN = 2, MS_WAKE_MSG = 4 };
typedef void (*ms_waker_fn)(void *ctx, int core, int what, uint64_t t);
void ms_set_waker(struct memsys *ms, ms_waker_fn fn, void *ctx);
uint64_t ms_load(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size, uint64_t *val);
uint64_t ms_store(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size, uint64_t val);
uint64_t ms_rmw_begin(struct memsys *ms, int core, uint64_t now, uint64_t addr);
void ms_rmw_end(struct memsys *ms, int core, uint64_t addr, uint64_t until);

/* The fabric's own events: the earliest one's cycle (UINT64_MAX: none), and
 * processing it (returns 0 when there was none). The driver processes them
 * before the cores' events of the same cycle. */
uint64_t ms_next_event(const struct memsys *ms);
/* The fabric's messages handled so far (ms_step, ms_run). */
uint64_t ms_events(const struct memsys *ms);
int ms_step(struct memsys *ms);
/* The fabric's events in order while the next lies at or before `until`
 * and before `bound`, as many ms_step calls would take them; the waker may
 * lower `until` meanwhile (ms_run_hold: it scheduled something that must
 * come first), and an event that records an error (ms_check_error) is the
 * last. Returns the cycle of the last event taken (0: none). One call for
 * the run of messages a contended operation sends: a call per event cost
 * more than some of the events. */
uint64_t ms_run(struct memsys *ms, uint64_t until, uint64_t bound);
void ms_run_hold(struct memsys *ms, uint64_t t);
/* The shortest time a message from a line's agent takes to reach a core:
 * no fabric event affects a core sooner, so cores may run ahead of the
 * fabric's next event by this much. */
uint64_t ms_lookahead(const struct memsys *ms);
/* The shortest time from a core's new request to a message of it reaching
 * another core: its leg to the agent and the agent's leg on (each at least
 * ms_lookahead). A core affects another only through requests, so cores
 * may run ahead of the cores' next event by this much. */
uint64_t ms_issue_lookahead(const struct memsys *ms);

/* The run-ahead fast path: perform the access if it hits in core's L1 with
 * enough permission (load: any valid state; store: M or E, E becoming M
 * silently), counting it as a hit and touching LRU, and return 1. Return 0
 * and change nothing when it would need a transaction. ms_try_* check their
 * arguments like ms_load; ms_hit_* (below) assume what the core checked. */
int ms_try_load(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t *val);
int ms_try_store(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t val);
/* A locked RMW's own accesses once ms_rmw_begin hit: ms_rmw_load is
 * ms_try_load, ms_rmw_finish ms_try_store then ms_rmw_end, done on the way
 * the RMW took without looking the line up again. */
int ms_rmw_load(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t *val);
/* ms_rmw_begin, then, unless it returned MS_PENDING, ms_rmw_load (its
 * answer in *loaded), for a caller that checked the access as the core's
 * bad_access does (mapped memory, inside one line): the way is looked up
 * once for both, and the arguments are not checked again. */
uint64_t ms_rmw_acquire(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size,
			uint64_t *val, int *loaded);
int ms_rmw_finish(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t val,
		  uint64_t until);

/* ---- the inline L1 hit path (the core's per-instruction hot path) ----
 * Internal to memsys: the structs are here only so that it can be inline. */

/* An access as memsys performs it; a locked RMW's ownership request needs
 * what a store needs and moves no data itself. */
enum ms_acc { MS_ACC_LOAD, MS_ACC_STORE, MS_ACC_RMW };

/* Inlined even where the compiler would not: each caller passes a constant
 * kind, and the hit path must fold to that kind's few instructions. */
#define MS_INLINE static inline __attribute__((always_inline))

#define MS_LA_SIZE 4
/* key = (line number + 1) | MS_LA_OK(perm) for each perm that hits (0: load,
 * 1: store or RMW); 0 = empty */
#define MS_LA_OK(perm) (1ull << (62 + (perm)))
#define MS_LA_OKS (MS_LA_OK(0) | MS_LA_OK(1))

/* What an access needs of the L1 way holding its line. */
struct ms_way {
	uint64_t *lru;              /* the way's LRU stamp */
	uint8_t *data;              /* the way's line */
	struct ms_stats *line_stats;/* the line's statistics */
};

struct ms_la {
	uint64_t key;
	struct ms_way way;
};

/* What memsys keeps per core, in one block so that a hit touches few host
 * cache lines of one page (at 64 cores and more the per-core state does
 * not fit in the host's L1, at 1024 not in its TLB): the lookaside (lines
 * 0-1, one entry per line in use), line 2 the L1 (its LRU clock first),
 * line 3 msg_next, which every run-ahead boundary reads, and the ways'
 * entries, line 4 the core's counters (the hit path's first). 512 bytes
 * (456 used): a power of two, so that finding a core's block is a shift. */
#define MS_MSG_SLOTS 6
struct ms_core {
	_Alignas(512) struct ms_la la[MS_LA_SIZE];
	struct cache l1;
	/* When snoops addressed to this core arrive: a core must not run past
	 * them on its own (ms_core_next_msg). msg_floor keeps the earliest of
	 * those that found the slots full. */
	uint64_t msg_next;          /* the earliest of them, UINT64_MAX: none */
	/* Per L1 way, its line's directory entry: every fill sets it, so
	 * wherever a way is valid the hit path finds the entry without the
	 * directory's hash lookup. */
	struct ms_line **way_le;
	/* The rest of the fields a miss touches share way_le's host line (at
	 * 1024 cores each operation finds this core's state cold). */
	uint64_t msg_floor;
	uint32_t n_msg;
	/* Its requests not yet filled, record index + 1: one for its
	 * execution, one for its store buffer (MS_WAKE_* - 1). */
	uint32_t open_rec[2];
	/* The instruction behind the next request of each (ms_note_pc). */
	uint32_t next_pc[2];
	/* ms_watch_msgs: every message scheduled for this core is told to
	 * the waker (MS_WAKE_MSG) when it is scheduled */
	uint8_t msg_watch;
	_Alignas(64) struct ms_stats stats;
	uint64_t msg_at[MS_MSG_SLOTS];
};

/* The first member of struct memsys (so a struct memsys * points to it). */
struct ms_fast {
	struct ms_core *pc;         /* ncores */
	uint32_t shift, lmask;      /* log2(line size), line size - 1 */
	/* bit s: a load / store / locked RMW (enum ms_acc) in state s hits
	 * and keeps state s (E->M on a store is a hit that changes state: the
	 * slow path's) */
	uint8_t hit_same[3];
	/* bit s: state s is exclusive (coherence.h): write ownership */
	uint8_t exclusive;
	uint8_t checking;           /* ms_set_checking: every access is checked */
};

/* The earliest cycle a snoop reaches `core` (UINT64_MAX: none pending). */
static inline uint64_t ms_core_next_msg(const struct memsys *ms, int core)
{
	return ((const struct ms_fast *)ms)->pc[core].msg_next;
}

/* Tell the waker of every message scheduled for core from now on (on), or
 * stop (off): a core that runs nothing while it waits for its L1 to change
 * learns so when the change is sent, before it arrives. */
static inline void ms_watch_msgs(struct memsys *ms, int core, int on)
{
	((struct ms_fast *)ms)->pc[core].msg_watch = (uint8_t)on;
}

/* Whether a load or store (kind) of size bytes at addr by core is a plain
 * L1 hit now: its line is here in a state the access keeps, the access is
 * not the one a miss was for, and a store's line has no per-offset detail
 * being noted. No side effects. */
int ms_hit_is_plain(const struct memsys *ms, int core, uint64_t addr, unsigned size, enum ms_acc kind);
/* How many L1 hits core has made (its LRU clock): a parked loop checks
 * that its iteration made exactly the accesses it recorded. */
uint64_t ms_l1_accesses(const struct memsys *ms, int core);
/* The accesses (addr[i], size[i]), i < n <= MS_REPEAT_MAX, of core, a
 * store where bit i of `stores` is set, else a load, each a plain hit and
 * together all of one iteration's L1 accesses, made k more times without
 * being made: counted (per core, per line, per offset of a contended
 * line) and LRU-stamped as the hit path would have. A store is silent (it
 * writes the bytes its line holds), so no data moves. Returns -1,
 * changing nothing, when one is not a plain hit. */
#define MS_REPEAT_MAX 16
int ms_repeat_hits(struct memsys *ms, int core, const uint64_t *addr, const uint8_t *size,
		   uint32_t stores, unsigned n, uint64_t k);

/* Whether core's L1 holds addr's line in an exclusive state (the
 * protocol's write ownership: M or E), ms_state_of's answer inline for a
 * driver that asks at every access (the replay's private / shared count).
 * Precondition: core is valid and addr is memory. */
static inline int ms_l1_exclusive(const struct memsys *ms, int core, uint64_t addr)
{
	const struct ms_fast *f = (const struct ms_fast *)ms;
	const struct cache *c = &f->pc[core].l1;
	int w = cache_lookup(c, addr >> f->shift);
	return w >= 0 && (f->exclusive >> c->state[w]) & 1;
}

/* The instruction whose access core makes next through `what` (MS_WAKE_*):
 * a miss it causes is attributed to it (ms_pc_stats). The core says so
 * before each access that may miss; an access without it is MS_NO_PC. */
static inline void ms_note_pc(struct memsys *ms, int core, int what, uint32_t pc)
{
	((struct ms_fast *)ms)->pc[core].next_pc[what - 1] = pc;
}

/* The checker's look at one access (invariants.c): the loaded value against
 * the last store, a store into its shadow image, the lookaside entry. */
void ms_check_access(struct memsys *ms, int core, uint64_t addr, unsigned size,
		     enum ms_acc kind, const uint64_t *val);

/* Perform an access on the way that holds its line with enough permission:
 * move the data and count it, and on a hit (`hit`: no transaction) stamp
 * LRU and count the hit. Every access of memsys ends here, whether its way
 * was found through the lookaside, by walking the set, or by a fill. */
MS_INLINE void ms_perform(struct memsys *ms, int core, const struct ms_way *w, uint64_t addr,
			  unsigned size, enum ms_acc kind, uint64_t *val, int hit)
{
	const struct ms_fast *f = (const struct ms_fast *)ms;
	struct ms_core *pc = &f->pc[core];
	struct ms_stats *cs = &pc->stats, *ls = w->line_stats;
	uint8_t *d = w->data + (addr & f->lmask);
	/* fixed-size copies: no memcpy call (x86 is little-endian like the host) */
	if (kind == MS_ACC_LOAD) {
		uint8_t v1;
		uint16_t v2;
		uint32_t v4;
		switch (size) {
		case 1: __builtin_memcpy(&v1, d, 1); *val = v1; break;
		case 2: __builtin_memcpy(&v2, d, 2); *val = v2; break;
		case 4: __builtin_memcpy(&v4, d, 4); *val = v4; break;
		case 8: __builtin_memcpy(val, d, 8); break;
		default: *val = 0; __builtin_memcpy(val, d, size); break;
		}
		cs->loads++;
		ls->loads++;
	} else if (kind == MS_ACC_STORE) {
		uint8_t v1 = (uint8_t)*val;
		uint16_t v2 = (uint16_t)*val;
		uint32_t v4 = (uint32_t)*val;
		if (__builtin_expect(size == 8, 1)) /* the store buffer's drain: a runtime size */
			__builtin_memcpy(d, val, 8);
		else switch (size) {
		case 1: __builtin_memcpy(d, &v1, 1); break;
		case 2: __builtin_memcpy(d, &v2, 2); break;
		case 4: __builtin_memcpy(d, &v4, 4); break;
		default: __builtin_memcpy(d, val, size); break;
		}
		cs->stores++;
		ls->stores++;
	} else {
		cs->rmws++;
		ls->rmws++;
	}
	if (hit) {
		*w->lru = ++pc->l1.clock;
		cs->l1_hits++;
		ls->l1_hits++;
	}
	if (__builtin_expect(f->checking, 0))
		ms_check_access(ms, core, addr, size, kind, val);
}

/* The hit path through the lookaside: 1 when it performed the hit, 0 (and
 * nothing changed) when the line has no entry allowing this access.
 * Precondition (what ms_try_* and the core's bad_access check): core is a
 * valid core, [addr, addr+size) is memory and does not cross a line. */
MS_INLINE int ms_la_hit(struct memsys *ms, int core, uint64_t addr, unsigned size,
			enum ms_acc kind, uint64_t *val)
{
	const struct ms_fast *f = (const struct ms_fast *)ms;
	uint64_t want = (addr >> f->shift) + 1;
	struct ms_la *la = &f->pc[core].la[want & (MS_LA_SIZE - 1)];
	int perm = kind != MS_ACC_LOAD;
	/* the line matches and this access's bit is set (the other's may be) */
	if (__builtin_expect((la->key | MS_LA_OK(!perm)) != (want | MS_LA_OKS), 0))
		return 0;
	ms_perform(ms, core, &la->way, addr, size, kind, val, 1);
	return 1;
}

/* The L1 hit path for the core: the lookaside, else the set walk. */
static inline int ms_hit_load(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t *val)
{
	return ms_la_hit(ms, core, addr, size, MS_ACC_LOAD, val) || ms_try_load(ms, core, addr, size, val);
}

static inline int ms_hit_store(struct memsys *ms, int core, uint64_t addr, unsigned size, uint64_t val)
{
	return ms_la_hit(ms, core, addr, size, MS_ACC_STORE, &val) || ms_try_store(ms, core, addr, size, val);
}

/* Questions with no side effects and no statistics. */
int ms_can_read(const struct memsys *ms, int core, uint64_t addr);
int ms_can_write(const struct memsys *ms, int core, uint64_t addr);
static inline int ms_crosses_line(uint64_t addr, unsigned size, uint32_t line_size)
{
	return ((addr & (line_size - 1)) + size) > line_size;
}

/* Whether a core other than `core` holds a valid copy of addr's line now. */
int ms_others_hold(const struct memsys *ms, int core, uint64_t addr);

/* The value in coherent memory now (the dirty owner's copy if there is one). */
uint64_t ms_peek(const struct memsys *ms, uint64_t addr, unsigned size);
enum ms_state ms_state_of(const struct memsys *ms, int core, uint64_t addr);

/* Statistics. */
const struct ms_stats *ms_core_stats(const struct memsys *ms, int core);
void ms_total_stats(const struct memsys *ms, struct ms_stats *out);
/* Lines ever accessed: each one's first access fetched it from memory. */
size_t ms_lines_touched(const struct memsys *ms);
/* Lines that were ever accessed with non-zero bounces, invalidations or
 * HITMs, sorted by address; valid until the next access. -1 when out of
 * memory (never a list cut short). */
ptrdiff_t ms_hot_lines(const struct memsys *ms, const struct ms_line_info **out);
/* Returns 1 when the line has been accessed, else 0 with out zeroed
 * (owner and last_owner MS_NO_CORE). */
int ms_line_info(const struct memsys *ms, uint64_t addr, struct ms_line_info *out);
size_t ms_bitset_words(const struct memsys *ms);

/* Per-offset detail (ms_line_info.offsets) is kept from the first access
 * after a line's first bounce, invalidation or HITM onwards, so private lines
 * cost nothing. */

/* Invariants: single writer / multiple readers per line, M/E exclusive,
 * every valid copy equals the value of the last store in coherence order,
 * every lookaside entry names the way and permissions its L1 has.
 * ms_set_checking(1) keeps a shadow image (a copy of the coherent memory at
 * that moment: call it after filling ms_memory) and checks every access
 * (loaded value, lookaside entry) and, after every transaction, the touched
 * line; ms_check_all walks every line and every lookaside entry. Both
 * return -1 with e filled (ERR_INTERNAL) on the first violation. */
void ms_set_checking(struct memsys *ms, int on);
int ms_check_all(const struct memsys *ms, struct err *e);
/* The first violation seen while checking, or the first internal failure of
 * an access (out of memory, access outside memory or across a line), which
 * the access functions cannot return: they then return `now` unchanged. */
int ms_check_error(const struct memsys *ms, struct err *e);

void ms_set_observer(struct memsys *ms, ms_observer_fn fn, void *ctx);

/* A state slot's letter and a request's name, whatever the protocol. */
const char *ms_state_name(enum ms_state s);
const char *ms_req_name(enum ms_req r);
/* The machine's protocol's letters for state s ("Sc" under Dragon): what
 * traces and the view print. */
const char *ms_state_label(const struct memsys *ms, enum ms_state s);
/* The machine's protocol (coherence.h), for the view's legend. */
const struct coh_protocol *ms_protocol(const struct memsys *ms);

#endif
