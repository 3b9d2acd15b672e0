/* The coherence fabric: a miss as timed messages. A request travels to the
 * line's agent, waits there behind the line's earlier requests (or, behind
 * an exclusive one, is forwarded at once to that one's requester), is
 * served (snoops go out to the holders the protocol table names), the
 * holders' copies change when their snoop arrives, the data or acks travel
 * to the requester, and the requester's unblock frees the line at its
 * agent (where the answers come back through the agent, the last one
 * passing it does). docs/architecture.md states the model; topology.h the
 * latency of a leg.
 *
 * Invariants: the copies of a line change in the order the agent served
 * its requests: a forwarded request's snoop is handled only after the fill
 * of the request before it, so the directory (sharers, owner) always
 * mirrors the caches exactly: a snoop changes the holder's copy and the
 * directory together, the fill the requester's. Between a supplier's snoop
 * and the fill the data is in the request record, and `dirty_in_flight`
 * names that record while memory is stale. */
#include "config.h"
#include "mem/memsys_int.h"
#include "base/invariant.h"

#include <stdlib.h>
#include <string.h>

/* A fabric event id is a request record index and what happens to it. */
enum { EV_ARRIVE, EV_SERVE, EV_SNOOP, EV_FILL, EV_FREE, EV_KINDS };
#define EV_SHIFT 3
_Static_assert(EV_KINDS <= 1 << EV_SHIFT, "event kinds fit below EV_SHIFT");

static __attribute__((noinline, cold)) int push_failed(struct memsys *ms)
{
	return err_internal(&ms->check_err, "memsys: out of memory in the fabric's event queue");
}

/* Inline at its dozen call sites: a contended operation pushes three
 * messages, and the call cost more than the push onto a small heap. */
MS_INLINE int push(struct memsys *ms, uint64_t t, uint32_t rec, int kind)
{
	if (__builtin_expect(evq_push(&ms->q, t, rec << EV_SHIFT | (uint32_t)kind), 0))
		return push_failed(ms);
	return 0;
}

/* ---- per-core arrival times (ms_core_next_msg) ---- */

/* A snoop to core will arrive at t. Inline, as msg_done: a contended
 * operation calls it twice. */
MS_INLINE void msg_add(struct memsys *ms, int core, uint64_t t)
{
	struct ms_core *pc = &ms->fast.pc[core];
	if (pc->n_msg < MS_MSG_SLOTS)
		pc->msg_at[pc->n_msg++] = t;
	else if (t < pc->msg_floor)
		pc->msg_floor = t;
	if (t < pc->msg_next)
		pc->msg_next = t;
	if (__builtin_expect(pc->msg_watch, 0) && ms->waker)
		ms->waker(ms->waker_ctx, core, MS_WAKE_MSG, t);
}

/* Snoops up to `now` have reached core. Inline: a contended operation
 * calls it twice, and its loop is mostly over one or two slots. */
MS_INLINE void msg_done(struct memsys *ms, int core, uint64_t now)
{
	struct ms_core *pc = &ms->fast.pc[core];
	uint32_t k = 0;
	for (uint32_t i = 0; i < pc->n_msg; i++)
		if (pc->msg_at[i] > now)
			pc->msg_at[k++] = pc->msg_at[i];
	pc->n_msg = k;
	if (pc->msg_floor <= now)
		pc->msg_floor = UINT64_MAX;
	pc->msg_next = pc->msg_floor;
	for (uint32_t i = 0; i < k; i++)
		if (pc->msg_at[i] < pc->msg_next)
			pc->msg_next = pc->msg_at[i];
}

/* ---- request records ---- */

/* A record cleared in pieces of at most 64 bytes: GCC makes one memset of
 * its size (184 bytes on x86-64) a `rep stos`, whose start-up took a
 * quarter of a miss's issue time in a wall-clock profile of the contended
 * benchmark; the pieces become plain vector stores. */
static inline void rec_zero(struct ms_rec *r)
{
	unsigned char *b = (unsigned char *)r;
	const size_t n = sizeof *r;
	memset(b, 0, n < 64 ? n : 64);
	if (n > 64)
		memset(b + 64, 0, n - 64 < 64 ? n - 64 : 64);
	if (n > 128)
		memset(b + 128, 0, n - 128);
}

static int rec_new(struct memsys *ms, struct err *e)
{
	uint32_t i;
	if (ms->free_rec) {
		i = ms->free_rec - 1;
		ms->free_rec = ms->recs[i].next;
	} else {
		if (ms->n_recs == ms->cap_recs) {
			uint32_t cap = ms->cap_recs ? 2 * ms->cap_recs : 64;
			struct ms_rec *r = realloc(ms->recs, cap * sizeof *r);
			if (!r)
				return err_internal(e, "memsys: out of memory for requests");
			ms->recs = r;
			ms->cap_recs = cap;
		}
		i = ms->n_recs;
		/* the data, then the target set, in one block, from a host cache
		 * line on (the L1 pool's reason, memsys_int.h) */
		size_t n = ((ms->ls + 7) & ~(size_t)7) + ms->words * sizeof(uint64_t);
		ms->recs[i].data = aligned_alloc(64, (n + 63) & ~(size_t)63);
		if (!ms->recs[i].data)
			return err_internal(e, "memsys: out of memory for requests");
		ms->n_recs++;
	}
	uint8_t *data = ms->recs[i].data;
	rec_zero(&ms->recs[i]);
	ms->recs[i].data = data;
	ms->recs[i].targets = (uint64_t *)(void *)(data + ((ms->ls + 7) & ~7u));
	return (int)i;
}

static void rec_free(struct memsys *ms, uint32_t i)
{
	ms->recs[i].next = ms->free_rec;
	ms->free_rec = i + 1;
}

int ms_fabric_init(struct memsys *ms, struct err *e)
{
	if (evq_init(&ms->q, 64, e))
		return -1;
	for (int c = 0; c < ms->ncores; c++)
		ms->fast.pc[c].msg_floor = ms->fast.pc[c].msg_next = UINT64_MAX;
	/* The shortest agent-to-core leg among the simulated CPUs: an SMT or
	 * cluster agent only exists where two simulated CPUs share that level,
	 * and cpu_model_topology gives only such levels a latency. */
	ms->min_leg = topo_min_leg(&ms->topo);
	topo_legs_init(&ms->topo, &ms->legs);
	const struct topology *t = &ms->topo;
	int clusters = t->cores_per_cluster < t->cores_per_socket;
	ms->dom_level = clusters ? TOPO_CLUSTER : TOPO_SOCKET;
	ms->n_dom = clusters ? t->sockets * (t->cores_per_socket / t->cores_per_cluster) : t->sockets;
	ms->n_phys = t->sockets * t->cores_per_socket;
	uint8_t *seen = calloc((size_t)ms->n_phys, 1);
	if (!seen)
		return err_internal(e, "memsys: out of memory");
	for (int c = 0; c < ms->ncores && !ms->core_merge; c++)
		ms->core_merge = seen[ms->place[c].core]++ != 0;
	free(seen);
	return 0;
}

void ms_fabric_free(struct memsys *ms)
{
	for (uint32_t i = 0; i < ms->n_recs; i++)
		free(ms->recs[i].data);
	free(ms->recs);
	sp_map_free(&ms->dom_out);
	sp_map_free(&ms->core_out);
	evq_free(&ms->q);
}

uint64_t ms_lookahead(const struct memsys *ms)
{
	return ms->min_leg;
}

uint64_t ms_issue_lookahead(const struct memsys *ms)
{
	/* every agent lies at least a leg from each core (an SMT core's own
	 * agent too: topo_leg of a place without a thread is the SMT leg) */
	return 2 * (uint64_t)ms->min_leg;
}

uint64_t ms_next_event(const struct memsys *ms)
{
	return evq_peek_time(&ms->q);
}

uint64_t ms_events(const struct memsys *ms)
{
	return evq_pushed(&ms->q) - evq_size(&ms->q);
}

void ms_set_waker(struct memsys *ms, ms_waker_fn fn, void *ctx)
{
	ms->waker = fn;
	ms->waker_ctx = ctx;
}

/* ---- where a request is ordered ---- */

/* The innermost domain that holds the requester and every current copy:
 * its own core for SMT siblings, its cluster, its socket; with copies on
 * other sockets, or none (memory), the line's home socket. A line in flight
 * to the requester of the line's active request counts as held there: when
 * two siblings pass a line back and forth, each asks for it while it is on
 * its way to the other, and the request is still answered inside the core. */
static enum topo_level level_to(const struct memsys *ms, const struct topo_place *r, int h)
{
	return topo_level_in(&ms->topo, r, &ms->place[h]);
}

/* *beyond: whether that agent lies outside the requester's shared-cache
 * domain (and there is more than one domain), *beyond_core whether it lies
 * outside the requester's core (and siblings share one): see
 * ms_fabric_issue. */
static struct topo_place choose_agent(const struct memsys *ms, const struct ms_line *le, int core,
				      int *beyond, int *beyond_core)
{
	const struct topo_place *r = &ms->place[core];
	enum topo_level far = TOPO_SELF;
	/* No copy can lie farther than this machine's outermost level: once
	 * one does, the rest cannot change the agent. A line every core reads
	 * (a flag beside a lock) is shared by all of them, and scanning all
	 * 1024 sharers on every request would take a fifth of such a run's
	 * host time. */
	const enum topo_level top = ms->topo.sockets > 1 ? TOPO_REMOTE : topo_level_on(&ms->topo, TOPO_SOCKET);
	int any = 0;
	/* nsharers bits are set in all: stop at the last (1024 cores: 16 words) */
	uint32_t left = le ? le->nsharers : 0;
	for (size_t wi = 0; left && far < top && wi < ms->words; wi++) {
		left -= (uint32_t)__builtin_popcountll(le->sharers[wi]);
		for (uint64_t bits = le->sharers[wi]; bits && far < top; bits &= bits - 1) {
			int h = (int)(wi * 64 + (size_t)__builtin_ctzll(bits));
			if (h == core)
				continue;
			any = 1;
			enum topo_level l = level_to(ms, r, h);
			if (l > far)
				far = l;
		}
	}
	if (le && le->active && ms->recs[le->active - 1].core != core) {
		enum topo_level l = level_to(ms, r, ms->recs[le->active - 1].core);
		any = 1;
		if (l > far)
			far = l;
	}
	struct topo_place a = {r->socket, -1, -1, -1};
	*beyond = ms->n_dom > 1 && (!any || far > ms->dom_level);
	*beyond_core = ms->core_merge && (!any || far > TOPO_SMT);
	if (!any || far == TOPO_REMOTE)
		a.socket = le ? ms_home_of(ms, le->line) : r->socket;
	else if (far <= TOPO_SMT)
		a.cluster = r->cluster, a.core = r->core;
	else if (far == TOPO_CLUSTER)
		a.cluster = r->cluster;
	return a;
}

MS_INLINE uint32_t leg(const struct memsys *ms, const struct topo_place *a, int core)
{
	return topo_legs_leg(&ms->legs, &ms->topo, a, &ms->place[core]);
}

/* ---- issue and arrival ---- */

/* Merging at one cache (the core's L1 when by_core, else the domain's):
 * if the last request sent beyond it for this line (key in map) is still
 * unserved, request i waits behind it at `at` (1); else it is the one out
 * now (0); -1 on error. */
static int merge_at(struct memsys *ms, struct ms_rec *r, uint32_t i, struct sp_map *map, uint64_t key,
		    struct topo_place at, int by_core)
{
	uint64_t out = sp_map_get(map, key);
	/* the map keeps the last one sent out: still out while it has the key */
	if (out && (by_core ? ms->recs[out - 1].core_key : ms->recs[out - 1].dom_key) == key + 1) {
		struct ms_rec *f = &ms->recs[out - 1];
		r->agent = at;
		r->to_agent = leg(ms, &r->agent, r->core);
		if (f->wait_tail)
			ms->recs[f->wait_tail - 1].next = i + 1;
		else
			f->wait_head = i + 1;
		f->wait_tail = i + 1;
		return 1;
	}
	if (sp_map_put(map, key, (uint64_t)i + 1))
		return err_internal(&ms->check_err, "memsys: out of memory for the fabric's domain map");
	if (by_core)
		r->core_key = key + 1;
	else
		r->dom_key = key + 1;
	return 0;
}

static void serve(struct memsys *ms, struct ms_line *le, uint32_t i, uint64_t now, uint64_t floor, int reader);

/* SMT siblings share one L1: a miss of a line that a sibling's exclusive
 * request, already served, is bringing into the core joins that request's
 * fill, as a secondary miss in the L1's fill buffer does (one that came
 * through the agent: a request that joined brings nothing new to join). It is handled
 * inside the core right after that fill, ahead of any request the agent
 * forwarded to the sibling meanwhile, which now waits for this one (the
 * core's two threads both use the line before a snoop waiting for it
 * takes it). 1: joined. */
static int join_sibling(struct memsys *ms, struct ms_line *le, struct ms_rec *r, uint32_t i, uint64_t now)
{
	const struct topo_place *pl = &ms->place[r->core];
	uint32_t fi = le->active;
	/* the served requests still in flight: the active one and its preds */
	while (fi) {
		const struct ms_rec *f = &ms->recs[fi - 1];
		if (!f->filled && f->fwd_ok && !f->joined && f->core != r->core &&
		    ms->place[f->core].core == pl->core)
			break;
		fi = f->pred;
	}
	if (!fi)
		return 0;
	struct ms_rec *f = &ms->recs[fi - 1];
	r->agent = (struct topo_place){pl->socket, pl->cluster, pl->core, -1};
	r->to_agent = leg(ms, &r->agent, r->core);
	r->forwarded = 1;
	r->joined = 1;
	r->fwd_core = f->core;
	r->pred = fi;
	uint32_t x = f->succ;
	f->succ = i + 1;
	if (x) {
		/* the next one, served and waiting for f's fill, now waits for
		 * this one's, and snoops this core instead */
		struct ms_rec *n = &ms->recs[x - 1];
		r->succ = x;
		n->pred = i + 1;
		n->targets[n->fwd_core >> 6] = 0;
		n->fwd_core = r->core;
		n->targets[r->core >> 6] = 1ull << (r->core & 63);
		n->tw_lo = n->tw_hi = (uint16_t)(r->core >> 6);
		n->not_before = n->served + leg(ms, &n->agent, r->core);
	} else if (le->active == fi) {
		le->active = i + 1;
	}
	serve(ms, le, i, now, now, -1);
	return 1;
}

int ms_fabric_issue(struct memsys *ms, int core, uint64_t now, uint64_t addr, unsigned size,
		    enum ms_acc kind)
{
	uint64_t line = addr >> ms->shift;
	struct ms_line *le = ms_line_get(ms, line);
	if (!le)
		return -1;
	uint8_t wake = kind == MS_ACC_STORE ? MS_WAKE_DRAIN : MS_WAKE_EXEC;
	/* One request per core and line: a second miss (the store buffer's and
	 * the core's) waits for the same fill. */
	uint32_t *open = ms->fast.pc[core].open_rec;
	for (int k = 0; k < 2; k++)
		if (open[k] && ms->recs[open[k] - 1].line == line) {
			ms->recs[open[k] - 1].waiters |= wake;
			return (int)(open[k] - 1);
		}
	int i = rec_new(ms, &ms->check_err);
	if (i < 0)
		return -1;
	struct ms_rec *r = &ms->recs[i];
	r->core = core;
	r->waiters = wake;
	r->kind = (uint8_t)kind;
	r->line = line;
	r->le = le;
	r->issued = now;
	r->offset = (uint16_t)(addr & (ms->ls - 1));
	r->size = (uint16_t)size;
	r->supplier = MS_NO_CORE;
	r->by = wake;
	r->pc = ms->fast.pc[core].next_pc[wake - 1];
	ms->fast.pc[core].next_pc[wake - 1] = MS_NO_PC;
	int beyond, beyond_core;
	r->agent = choose_agent(ms, le, core, &beyond, &beyond_core);
	open[wake - 1] = (uint32_t)i + 1;
	/* A shared cache merges misses to one line (an MSHR's secondary
	 * misses): while a request of this core (SMT siblings' L1), or else
	 * of this domain, is on its way to, or queued at, an agent beyond it,
	 * this one waits there behind it, and is served right after it, from
	 * the copy that request brings in (start_next). */
	const struct topo_place *pl = &ms->place[core];
	if (beyond_core && ms->m.fabric == FABRIC_DIRECTORY && join_sibling(ms, le, r, (uint32_t)i, now))
		return i;
	if (beyond_core) {
		struct topo_place at = {pl->socket, pl->cluster, pl->core, -1};
		int m = merge_at(ms, r, (uint32_t)i, &ms->core_out, line * (uint64_t)ms->n_phys + (uint64_t)pl->core, at, 1);
		if (m)
			return m < 0 ? -1 : i;
	}
	if (beyond) {
		int by_cluster = ms->dom_level == TOPO_CLUSTER;
		struct topo_place at = {pl->socket, by_cluster ? pl->cluster : -1, -1, -1};
		uint64_t key = line * (uint64_t)ms->n_dom + (uint64_t)(by_cluster ? pl->cluster : pl->socket);
		int m = merge_at(ms, r, (uint32_t)i, &ms->dom_out, key, at, 0);
		if (m)
			return m < 0 ? -1 : i;
	}
	r->to_agent = leg(ms, &r->agent, core);
	if (push(ms, now + r->to_agent, (uint32_t)i, EV_ARRIVE))
		return -1;
	return i;
}

/* Whether the agent may serve request n while the line's last served
 * request is still in flight: only behind a request whose column allows
 * forwarding (fwd_ok once served: MESI's GETM and UPGRADE) of another
 * core. That request's requester will then hold the only copy, so the
 * agent knows whom to snoop without waiting for its unblock; behind a read
 * it does not know which copies will remain, and waits (a blocking
 * directory for reads). */
static int forwardable(const struct memsys *ms, const struct ms_line *le, const struct ms_rec *n)
{
	const struct ms_rec *t = &ms->recs[le->active - 1];
	return t->fwd_ok && t->core != n->core;
}

/* Serve the line's queued requests in order of arrival, as far as the
 * agent can: one at a time when idle, and further ones forwarded to the
 * requester of the exclusive request before them (the owner to be), as a
 * directory that records the new owner when it forwards does. The agent
 * has been free since `from` (at most now: see fill), so each is served
 * from then or from its arrival, whichever is later, and its messages
 * take effect no sooner than `floor` (at least now; see serve for reader). */
static void start_next(struct memsys *ms, struct ms_line *le, uint64_t now, uint64_t from, uint64_t floor,
		       int reader)
{
	while (le->qhead) {
		uint32_t h = le->qhead;
		struct ms_rec *n = &ms->recs[h - 1];
		if (le->active && !forwardable(ms, le, n))
			return;
		le->qhead = n->next;
		if (!le->qhead)
			le->qtail = 0;
		n->next = 0;
		n->dom_key = n->core_key = 0;  /* served: its domain's next miss on the line goes out again */
		if (n->wait_head) {
			/* Those merged behind it come next, in the order they came. */
			ms->recs[n->wait_tail - 1].next = le->qhead;
			if (!le->qhead)
				le->qtail = n->wait_tail;
			le->qhead = n->wait_head;
			n->wait_head = n->wait_tail = 0;
		}
		if (le->active) {
			struct ms_rec *t = &ms->recs[le->active - 1];
			n->forwarded = 1;
			n->fwd_core = t->core;
			if (!t->filled) {
				t->succ = h;
				n->pred = le->active;
			} else {
				n->not_before = t->ready + 1;
			}
		}
		le->active = h;
		uint64_t at = n->issued + n->to_agent;
		if (at < from)
			at = from;
		serve(ms, le, h - 1, at < now ? at : now, floor, reader);
	}
}

static void arrive(struct memsys *ms, uint32_t i, uint64_t now)
{
	struct ms_line *le = ms->recs[i].le;
	/* Requests are served in order of arrival at the agent; the event
	 * queue's (cycle, sequence) order breaks ties by issue order. */
	if (le->qtail)
		ms->recs[le->qtail - 1].next = i + 1;
	else
		le->qhead = i + 1;
	le->qtail = i + 1;
	start_next(ms, le, now, now, now, -1);
}

/* ---- serving a request ---- */

/* The holders request r snoops, into r->targets: the line's owner, or every
 * holder, as the table's column says; never the requester. Fixed at serve,
 * so that every holder told a snoop is coming hears it. */
static int choose_targets(const struct memsys *ms, const struct ms_line *le, struct ms_rec *r)
{
	int how = ms->p->req[r->req].snoop;
	int n = 0, owner_only = how != COH_SNOOP_ALL;
	r->tw_lo = (uint16_t)ms->words;
	r->tw_hi = 0;
	for (size_t w = 0; w < ms->words; w++) {
		uint64_t b = owner_only ? 0 : le->sharers[w];
		if (owner_only && le->owner >= 0 && (size_t)le->owner / 64 == w)
			b = le->sharers[w] & (1ull << (le->owner & 63));
		if ((size_t)r->core / 64 == w)
			b &= ~(1ull << (r->core & 63));
		r->targets[w] = b;
		n += __builtin_popcountll(b);
		if (b) {
			if (r->tw_lo == ms->words)
				r->tw_lo = (uint16_t)w;
			r->tw_hi = (uint16_t)w;
		}
	}
	/* With no owner to ask, the lowest-numbered other holder supplies
	 * (clean supply: coh_with_clean_supply). */
	for (size_t w = 0; !n && how == COH_SNOOP_OWNER_ELSE_ONE && w < ms->words; w++) {
		uint64_t b = le->sharers[w];
		if ((size_t)r->core / 64 == w)
			b &= ~(1ull << (r->core & 63));
		if (b) {
			r->targets[w] = b & -b;
			r->tw_lo = r->tw_hi = (uint16_t)w;
			n = 1;
		}
	}
	return n;
}

/* Over the words tw_lo..tw_hi only: the rest of targets may be stale. */
#define FOR_EACH_TARGET(ms, r, h)                                                   \
	for (size_t wi_ = (r)->tw_lo; wi_ <= (r)->tw_hi && wi_ < (ms)->words; wi_++)  \
		for (uint64_t b_ = (r)->targets[wi_]; b_ && ((h) = (int)(wi_ * 64 +     \
			(size_t)__builtin_ctzll(b_)), 1); b_ &= b_ - 1)

/* A writeback is the data half of a miss the other way: it reaches the
 * home's memory (or the socket's LLC) the model's latency minus the request
 * leg after it leaves. An eviction's holds the bus as any transaction does;
 * a snoop's rides on the reply the memory controller also reads (a front-
 * side bus's implicit writeback). The core does not wait for it (x86 parts
 * drain evictions through a writeback buffer); a request that needs
 * memory's copy meanwhile does. */
/* Memory's latency from a core of the home socket or another one. */
static uint32_t mem_lat(const struct memsys *ms, int remote)
{
	return remote ? ms->m.lat_mem_remote : ms->m.lat_mem_local;
}

/* The data half of an access of latency lat whose request took to_agent:
 * what is left of lat after the request leg, at least a cycle. */
static uint32_t data_half(uint32_t lat, uint32_t to_agent)
{
	return lat > to_agent ? lat - to_agent : 1;
}

void ms_writeback_start(struct memsys *ms, struct ms_line *le, int core, uint64_t now, int own_txn)
{
	int home = ms_home_of(ms, le->line);
	struct topo_place agent = {home, -1, -1, -1};
	uint32_t to_agent = leg(ms, &agent, core);
	uint32_t lat = ms->llc ? ms->m.lat_llc_hit : mem_lat(ms, home != ms_sock_of(ms, core));
	uint64_t at = now + data_half(lat, to_agent);
	if (at > le->wb_at)
		le->wb_at = at;
	if (own_txn && ms->m.fabric == FABRIC_BUS)
		ms->bus_free = (ms->bus_free > now ? ms->bus_free : now) + ms->m.lat_bus;
}

/* When the data (or the permission) of a request with no supplier arrives:
 * from the LLC or memory an uncontended miss costs exactly the model's
 * figure from issue, a grant one leg from the agent. A fetch behind a
 * writeback of the line starts when the written-back data has landed. */
static uint64_t own_data_at(struct memsys *ms, struct ms_rec *r, int fetch)
{
	int rsock = ms_sock_of(ms, r->core);
	uint32_t to_agent = r->to_agent;
	if (!fetch)
		return r->served + to_agent;
	const struct ms_line *le = r->le;
	uint64_t from = le->wb_at > r->served ? le->wb_at : r->served;
	uint32_t lat;
	if (ms->llc && cache_probe(ms_llc_of(ms, r->core), r->line)) {
		r->llc_hit = 1;
		lat = ms->m.lat_llc_hit;
	} else {
		r->remote = ms_home_of(ms, r->line) != rsock;
		lat = mem_lat(ms, r->remote);
	}
	return from + data_half(lat, to_agent);
}

/* lat_store_shared: a store to a line others share (an UPGRADE, or an
 * update protocol's UPDATE: the column's store_shared) completes that long
 * after its issue, or when its snoops have reached the holders if that is
 * later. Without it, it costs the fabric's round trip: a leg to the agent,
 * a leg to the farthest holder, that holder's reply leg. */
static uint64_t upgrade_at(const struct memsys *ms, const struct ms_rec *r, uint64_t t)
{
	if (!ms->m.lat_store_shared || !ms->p->req[r->req].store_shared)
		return t;
	uint64_t at = r->issued + ms->m.lat_store_shared;
	return at > r->served ? at : r->served;
}

/* When a message of a request served late (below) may take effect at h:
 * at the reader (the core whose fill found the agent free: it waited for
 * that fill, so it has not run ahead) from floor, at any other core only
 * where the run-ahead bound lets a message from the fabric's current
 * event land: a shortest leg on (floor is at least the next cycle). */
MS_INLINE uint64_t floor_at(const struct memsys *ms, uint64_t floor, int reader, int h)
{
	return reader < 0 || h == reader ? floor : floor - 1 + ms->min_leg;
}

/* Serve request i at `now`, which may lie before the current cycle when
 * the agent was free earlier than the event that found it so (fill, with
 * the reader named; else reader is -1 and floor the current cycle): its
 * snoops, or its data, then take effect no sooner than floor_at says, and
 * a snoop held back so counts its holders' answers from when it took
 * effect (deferred). */
static void serve(struct memsys *ms, struct ms_line *le, uint32_t i, uint64_t now, uint64_t floor, int reader)
{
	struct ms_rec *r = &ms->recs[i];
	if (ms->m.fabric == FABRIC_BUS) {
		/* One bus: every transaction of every line holds it lat_bus cycles. */
		if (ms->bus_free > now) {
			push(ms, ms->bus_free, i, EV_SERVE);
			return;
		}
		ms->bus_free = now + ms->m.lat_bus;
	}
	r->served = now;
	if (r->forwarded) {
		/* A request merged at its domain's cache leaves from there no
		 * sooner than it reached it. */
		uint64_t at = r->issued + r->to_agent;
		if (at > now)
			r->served = now = at;
		/* The owner to be is its only target; by the time the snoop is
		 * handled there (after that owner's fill) the requester's own
		 * copy has been invalidated, so it asks as from I. */
		r->from = MS_I;
		r->req = ms->p->state[MS_I].access[r->kind].req;
		r->fwd_ok = ms->p->req[r->req].forward;
		r->targets[r->fwd_core >> 6] = 1ull << (r->fwd_core & 63);
		r->tw_lo = r->tw_hi = (uint16_t)(r->fwd_core >> 6);
		uint64_t t = now + leg(ms, &r->agent, r->fwd_core);
		if (r->pred) {
			/* It will wait there for that owner's fill, which sends
			 * it on (the core has no copy for it to change before). */
			r->not_before = t;
			r->waiting = 1;
			return;
		}
		uint64_t lo = floor_at(ms, floor, reader, r->fwd_core);
		if (t < lo) {
			t = lo;
			r->deferred = 1;
		}
		msg_add(ms, r->fwd_core, t);
		push(ms, t, i, EV_SNOOP);
		return;
	}
	struct cache *c = l1_of(ms, r->core);
	int w = (le->sharers[r->core >> 6] >> (r->core & 63)) & 1 ? cache_lookup(c, r->line) : -1;
	enum ms_state st = w >= 0 ? (enum ms_state)c->state[w] : MS_I;
	const struct coh_access_cell *a = &ms->p->state[st].access[r->kind];
	r->from = (uint8_t)st;
	if (a->what != COH_MISSES) {
		/* The line came meanwhile (an earlier request of this core). */
		if (__builtin_expect(a->what != COH_HITS, 0))
			err_internal(&ms->check_err, "line 0x%llx: core %d's %s in %s (%s table: impossible)",
				     (unsigned long long)(r->line << ms->shift), r->core,
				     r->kind == MS_ACC_LOAD ? "load" : "store", ms_state_label(ms, st), ms->p->name);
		r->req = MS_NREQS;
		push(ms, now > floor ? now : floor, i, EV_FILL);
		return;
	}
	r->req = a->req;
	r->fwd_ok = ms->p->req[r->req].forward;
	uint64_t latest = 0;
	int h;
	if (choose_targets(ms, le, r)) {
		FOR_EACH_TARGET(ms, r, h) {
			uint64_t t = now + leg(ms, &r->agent, h), lo = floor_at(ms, floor, reader, h);
			if (t < lo) {
				t = lo;
				r->deferred = 1;
			}
			if (t > latest)
				latest = t;
		}
		/* All snoops of a request take effect together, when the farthest
		 * arrives; the requester still waits for each one's reply. */
		FOR_EACH_TARGET(ms, r, h)
			msg_add(ms, h, latest);
		push(ms, latest, i, EV_SNOOP);
		return;
	}
	r->data_at = upgrade_at(ms, r, own_data_at(ms, r, ms->p->req[r->req].fetch));
	if (r->data_at < floor)
		r->data_at = floor;
	push(ms, r->data_at, i, EV_FILL);
}

/* A holder that has the line locked answers once its RMW's lock has
 * ended and lat_lock_snoop has passed. If it is in another locked RMW by
 * then (one begun in that grace), the snoop waits for that lock's end too,
 * with no grace after it: a snoop waits for two locks at most, so a core
 * whose loop of locked RMWs is shorter than the grace keeps the line for a
 * bounded run of them, not for ever (cpu_model.h). Called only while a
 * lock lasts past now (nobody's, the common case). */
static int wait_for_lock(struct memsys *ms, const struct ms_line *le, struct ms_rec *r, uint32_t i,
			 uint64_t now)
{
	int h;
	FOR_EACH_TARGET(ms, r, h)
		if (le->pin_core == h && (le->sharers[h >> 6] >> (h & 63)) & 1) {
			uint64_t at = le->pin_until + (r->lock_waited ? 0 : ms->m.lat_lock_snoop);
			r->lock_waited = 1;
			msg_done(ms, h, now);
			msg_add(ms, h, at);
			r->deferred = 1;
			push(ms, at, i, EV_SNOOP);
			return 1;
		}
	return 0;
}

/* The way a holder's answer (data or ack) takes to the requester: back to
 * the agent that serves the request and on from there (c2c_via_agent: an
 * LLC slice or caching agent answers for its cores), or straight there. */
MS_INLINE uint32_t reply_leg(const struct memsys *ms, const struct ms_rec *r, int h)
{
	if (ms->m.c2c_via_agent)
		return leg(ms, &r->agent, h) + r->to_agent;
	return topo_legs_leg(&ms->legs, &ms->topo, &ms->place[h], &ms->place[r->core]);
}

/* The snoops of request i reach their holders. */
static void snoop(struct memsys *ms, uint32_t i, uint64_t now)
{
	struct ms_rec *r = &ms->recs[i];
	struct ms_line *le = r->le;
	const struct coh_protocol *p = ms->p;
	int h;
	if (now < r->not_before) {
		/* The owner's fill came, its access is still to be made. */
		msg_done(ms, r->fwd_core, now);
		msg_add(ms, r->fwd_core, r->not_before);
		r->deferred = 1;
		push(ms, r->not_before, i, EV_SNOOP);
		return;
	}
	if (le->pin_until > now && wait_for_lock(ms, le, r, i, now))
		return;
	uint64_t ready = 0;
	FOR_EACH_TARGET(ms, r, h) {
		msg_done(ms, h, now);
		/* It may have evicted its copy since: then it has nothing to do. */
		if (!((le->sharers[h >> 6] >> (h & 63)) & 1))
			continue;
		struct cache *hc = l1_of(ms, h);
		int hw = cache_lookup(hc, r->line);
		if (NEVER(hw < 0)) {
			err_internal(&ms->check_err, "line 0x%llx: directory lists core %d, which has no copy",
				     (unsigned long long)(r->line << ms->shift), h);
			continue;
		}
		enum ms_state hs = hc->state[hw];
		struct coh_snoop_cell cell = p->state[hs].snoop[r->req];
		if (NEVER(!(cell.actions & COH_CAN))) {
			err_internal(&ms->check_err, "line 0x%llx: %s snoop found core %d in %s (%s table: impossible)",
				     (unsigned long long)(r->line << ms->shift), ms_req_name(r->req), h,
				     ms_state_label(ms, hs), p->name);
			continue;
		}
		int hremote = ms_sock_of(ms, h) != ms_sock_of(ms, r->core);
		/* Its reply leaves when the snoop is handled: on arrival, or when
		 * the lock it waited for ended. */
		uint64_t sent = r->deferred ? now : r->served + leg(ms, &r->agent, h);
		uint64_t reply = sent + reply_leg(ms, r, h);
		/* lat_writeback: a holder writes a dirty line back before it answers */
		if (cell.actions & COH_WRITEBACK)
			reply += ms->m.lat_writeback;
		if (reply > ready)
			ready = reply;
		int supply = cell.actions & COH_SUPPLY;
		int copied = 0;  /* r->data holds this holder's copy */
		if (supply && r->supplier == MS_NO_CORE) {
			r->supplier = h;
			r->supplier_state = (uint8_t)hs;
			r->supplied = 1;
			r->remote = (uint8_t)hremote;
			ms_line_copy(ms, r->data, cache_data(hc, hw));
			copied = 1;
		}
		if (p->state[hs].dirty && !p->state[cell.next].dirty && !(cell.actions & COH_WRITEBACK)) {
			/* The line's only up-to-date data now travels to the
			 * requester (with the data, or as its permission to make
			 * its own clean copy the dirty one). */
			if (!copied)
				ms_line_copy(ms, r->data, cache_data(hc, hw));
			le->dirty_in_flight = i + 1;
		}
		if (cell.actions & COH_WRITEBACK) {
			ms_mem_put(ms, r->line, cache_data(hc, hw));
			r->writeback++;
			if (ms->llc)
				cache_insert(ms_llc_of(ms, h), r->line);
			ms_writeback_start(ms, le, h, now, 0);
		}
		if (cell.actions & COH_HITM) {
			r->hitm = 1;
			r->hitm_remote |= (uint8_t)hremote;
		}
		if (cell.actions & COH_UPDATED)
			r->updated++;
		if (cell.next != hs)
			ms_la_drop_le(ms, h, le);
		if (le->first_core == h)
			le->first_core = MS_NO_CORE;
		if (cell.next == MS_I) {
			cache_invalidate(hc, hw);
			le->sharers[h >> 6] &= ~(1ull << (h & 63));
			le->nsharers--;
			r->invalidated++;
		} else {
			hc->state[hw] = cell.next;
		}
		if (le->owner == h && !p->state[cell.next].owner)
			le->owner = MS_NO_CORE;
	}
	if (!r->supplied) {
		uint64_t own = own_data_at(ms, r, p->req[r->req].fetch);
		if (own > ready)
			ready = own;
	}
	if (ms->m.lat_store_shared && p->req[r->req].store_shared)
		ready = upgrade_at(ms, r, now);
	r->data_at = ready > now ? ready : now;
	if (ms->fast.checking && !err_is_set(&ms->check_err))
		ms_check_line(ms, r->line, &ms->check_err);
	push(ms, r->data_at, i, EV_FILL);
}

/* The data, acks or grant of request i have reached the requester. */
static void fill(struct memsys *ms, uint32_t i, uint64_t now)
{
	struct ms_rec *r = &ms->recs[i];
	struct ms_line *le = r->le;
	const struct coh_protocol *p = ms->p;
	int core = r->core;
	uint64_t ready = now;   /* when the requester may go on */
	/* only the slot that issued it names it (a miss of the other slot
	 * on the same line waits for it without an entry) */
	if (ms->fast.pc[core].open_rec[r->by - 1] == i + 1)
		ms->fast.pc[core].open_rec[r->by - 1] = 0;
	if (r->req != MS_NREQS) {
		struct cache *c = l1_of(ms, core);
		int w = (le->sharers[core >> 6] >> (core & 63)) & 1 ? cache_lookup(c, r->line) : -1;
		const struct coh_req_col *rq = &p->req[r->req];
		if (w < 0) {
			w = cache_victim(c, r->line);
			if (cache_valid(c, w)) {
				/* lat_writeback: the requester writes its dirty victim back first */
				if (p->state[c->state[w]].evict_writeback)
					ready += ms->m.lat_writeback;
				ms_evict(ms, core, c, w, now);
			}
			/* An UPGRADE or UPDATE whose copy was evicted meanwhile
			 * still needs the data: a dirty copy it snooped sent it
			 * (dirty_in_flight), else memory is up to date. */
			if (!r->supplied && rq->fetch) {
				if (r->llc_hit)
					COUNT(ms, core, le, llc_hits, 1);
				else
					COUNT(ms, core, le, mem_reads, 1);
				if (ms->llc && !r->llc_hit)
					cache_insert(ms_llc_of(ms, core), r->line);
			}
			cache_fill(c, w, r->line, MS_I);
			ms->fast.pc[core].way_le[w] = le;
			if (r->supplied || le->dirty_in_flight == i + 1)
				ms_line_copy(ms, cache_data(c, w), r->data);
			else
				ms_mem_get(ms, r->line, cache_data(c, w));
			le->sharers[core >> 6] |= 1ull << (core & 63);
			le->nsharers++;
		} else {
			cache_touch(c, w);
		}
		le->dirty_in_flight = 0;
		uint32_t others = le->nsharers - 1;
		const struct coh_fill_cell *fc = others ? &rq->shared : &rq->alone;
		if (NEVER(fc->next == MS_I))
			err_internal(&ms->check_err, "line 0x%llx: core %d's %s left %s other copies (%s table: impossible)",
				     (unsigned long long)(r->line << ms->shift), core, ms_req_name(r->req),
				     others ? "some" : "no", p->name);
		ms_la_drop_le(ms, core, le);
		c->state[w] = fc->next;
		if (p->state[fc->next].owner)
			le->owner = core;
		int bounce = 0;
		if (fc->owns) {
			bounce = le->last_owner != MS_NO_CORE && le->last_owner != core;
			le->last_owner = core;
		}
		COUNT(ms, core, le, transactions, 1);
		COUNT(ms, core, le, l1_misses, 1);
		COUNT(ms, core, le, upgrades, r->req == MS_UPGRADE);
		COUNT(ms, core, le, gets, r->req == MS_GETS);
		COUNT(ms, core, le, getm, r->req == MS_GETM);
		COUNT(ms, core, le, load_misses, r->kind == MS_ACC_LOAD);
		COUNT(ms, core, le, bounces, bounce);
		COUNT(ms, core, le, c2c_transfers, r->supplied);
		COUNT(ms, core, le, hitm, r->hitm);
		COUNT(ms, core, le, hitm_remote, r->hitm && r->hitm_remote);
		COUNT(ms, core, le, invalidations, r->invalidated);
		COUNT(ms, core, le, writebacks, r->writeback);
		if (r->updated) {
			COUNT(ms, core, le, updates_sent, 1);
			COUNT(ms, core, le, updates_received, r->updated);
		}
		COUNT(ms, core, le, stall_cycles, ready - r->issued);
		if (r->hitm || bounce)
			ms_pc_note(ms, le, r->pc, r->hitm, r->hitm && r->hitm_remote, bounce);
		if (!le->contended && (le->stats.bounces || le->stats.invalidations || le->stats.hitm)) {
			ms_la_forget(ms, r->line, now);
			le->contended = 1;
		}
		/* The access that missed is the next one this core makes here. */
		le->first_core = core;
		le->first_hitm = r->hitm;
		le->first_hitm_remote = r->hitm && r->hitm_remote;
		if (ms->fast.checking && !err_is_set(&ms->check_err))
			ms_check_line(ms, r->line, &ms->check_err);
		if (ms->obs) {
			struct ms_txn t = {
				.issued = r->issued, .start = r->served, .done = ready,
				.line = r->line << ms->shift, .core = core, .supplier = r->supplier,
				.req = (enum ms_req)r->req, .from = (enum ms_state)r->from,
				.to = (enum ms_state)fc->next, .supplier_state = (enum ms_state)r->supplier_state,
				.invalidated = r->invalidated, .updated = r->updated,
				.hitm = r->hitm, .remote = r->remote,
				.llc_hit = r->llc_hit, .writeback = r->writeback != 0,
				.by = r->by, .pc = r->pc, .bounce = bounce,
			};
			ms->obs(ms->obs_ctx, &t);
		}
	}
	if (ms->waker)
		ms->waker(ms->waker_ctx, core, r->waiters, ready);
	r->filled = 1;
	r->ready = ready;
	if (r->succ) {
		/* A request forwarded here is handled once this core has made the
		 * access it missed for: from the cycle after it may (the fabric's
		 * events of a cycle come before the cores'), so every owner
		 * completes at least that access and the chain makes progress. */
		struct ms_rec *s = &ms->recs[r->succ - 1];
		s->pred = 0;
		if (s->waiting) {
			/* served: its snoop arrived (not_before) or arrives later */
			uint64_t at = s->not_before > ready + 1 ? s->not_before : ready + 1;
			s->waiting = 0;
			s->deferred = 1;
			msg_add(ms, core, at);
			push(ms, at, r->succ - 1, EV_SNOOP);
		} else {
			s->not_before = ready + 1;  /* not served yet (the bus) */
		}
	}
	/* The requester's unblock reaches its agent; the agent serves the
	 * next request then, unless it forwarded it already: then the unblock
	 * changes nothing there and the record can go now. Where every answer
	 * comes back through the agent (c2c_via_agent), there is no unblock:
	 * the agent learnt the outcome when the last answer passed it on, a
	 * leg before this fill (a read's too: it saw which copies remain), and
	 * was free from then. What it served since takes effect from now on:
	 * here from the cycle after the requester's access, as a forwarded
	 * request's does (its snoop may be for this copy), elsewhere no sooner
	 * than a message sent now could land (floor_at). */
	if (le->active != i + 1) {
		rec_free(ms, i);
	} else if (ms->m.c2c_via_agent && ms->m.fabric == FABRIC_DIRECTORY) {
		uint64_t passed = r->data_at > r->served + r->to_agent ? r->data_at - r->to_agent : r->served;
		rec_free(ms, i);
		le->active = 0;
		start_next(ms, le, now, passed, ready + 1, core);
	} else {
		push(ms, now + r->to_agent, i, EV_FREE);
	}
}

/* One event, popped: what it is and to whom. Inline in both drivers below,
 * so that ms_run's loop pays one call for a run of events, not one each. */
MS_INLINE void handle(struct memsys *ms, uint64_t t, uint32_t id)
{
	uint32_t i = id >> EV_SHIFT;
	switch (id & ((1u << EV_SHIFT) - 1)) {
	case EV_ARRIVE:
		arrive(ms, i, t);
		break;
	case EV_SERVE: {
		struct ms_line *le = ms->recs[i].le;
		serve(ms, le, i, t, t, -1);
		start_next(ms, le, t, t, t, -1);
		break;
	}
	case EV_SNOOP:
		snoop(ms, i, t);
		break;
	case EV_FILL:
		fill(ms, i, t);
		break;
	case EV_FREE: {
		struct ms_line *le = ms->recs[i].le;
		rec_free(ms, i);
		if (le->active == i + 1) {
			le->active = 0;
			start_next(ms, le, t, t, t, -1);
		}
		break;
	}
	}
}

int ms_step(struct memsys *ms)
{
	uint64_t t;
	uint32_t id;
	if (!evq_pop(&ms->q, &t, &id))
		return 0;
	handle(ms, t, id);
	return 1;
}

uint64_t ms_run(struct memsys *ms, uint64_t until, uint64_t bound)
{
	uint64_t t, last = 0;
	uint32_t id;
	if (!bound || err_is_set(&ms->check_err))
		return 0;
	/* an empty queue's time, UINT64_MAX, lies past bound - 1 */
	ms->run_until = until < bound - 1 ? until : bound - 1;
	while (evq_peek_time(&ms->q) <= ms->run_until && evq_pop(&ms->q, &t, &id)) {
		handle(ms, t, id);
		last = t;
		if (__builtin_expect(err_is_set(&ms->check_err), 0))
			break;
	}
	return last;
}

void ms_run_hold(struct memsys *ms, uint64_t t)
{
	if (t < ms->run_until)
		ms->run_until = t;
}
