/* The machine's topology: where each logical CPU sits (SMT thread, physical
 * core, cluster of cores sharing a cache, socket) and how long a message
 * takes between two places. The memory system times every leg of a
 * coherence transaction with topo_leg() (through the table topo_legs_init
 * makes of it); nothing else knows distances.
 *
 * Latency model. The CPU model gives, per level, the *transfer* latency a
 * core-to-core ping-pong measures (two threads compare-and-swapping one
 * line in turn, half the round trip) when the closest level the two CPUs
 * share is that level (c2c[TOPO_SMT], c2c[TOPO_CLUSTER], c2c[TOPO_SOCKET]),
 * and between sockets by hop count (c2c_hop[h], the socket-to-socket
 * distance in hops from the `hops` matrix, like ACPI SLIT). Legs are
 * derived so that the fabric's own ping-pong takes that long: each thread
 * asks for the line when it loses it, and its request travels to the
 * line's agent and is forwarded to the other thread (two legs) while the
 * other's data leg runs alongside, so a ping-pong transfer costs two legs.
 * Inside a socket a leg at level L costs c2c[L] / 2. A leg that crosses
 * from socket x to socket y costs the on-socket leg plus link(x, y) =
 * c2c_hop[hops[x][y]] - c2c[TOPO_SOCKET], because a cross-socket ping-pong
 * transfer crosses the link once (agent on one side, owner on the other)
 * and the sum again equals the measured figure. A model whose data goes
 * back through the agent (c2c_via_agent) has the data take those two legs
 * instead, so its ping-pong adds the CAS that takes the line: the figure
 * such a model gives is the transfer without it. A cold transfer (request,
 * forward, data, nothing overlapped) costs three legs, one and a half
 * times the ping-pong figure (four through the agent); three sockets in
 * one transfer (requester, home and owner all apart) cost more, as they
 * do on real machines.
 *
 * Numbering. Logical CPU ids follow what Linux shows: TOPO_NUM_SMT_LAST (the
 * x86 server default: CPUs 0..P-1 are thread 0 of each physical core, in
 * socket order, P..2P-1 their siblings) or TOPO_NUM_SMT_ADJACENT (siblings
 * get consecutive ids). So "threads 0..N-1" places threads the way
 * benchmarks pinned to the first N CPUs do. */
#ifndef BOUNCE_TOPOLOGY_H
#define BOUNCE_TOPOLOGY_H

#include <stdint.h>
#include "base/error.h"

#define TOPO_MAX_SOCKETS 64
#define TOPO_MAX_HOPS 8
#define TOPO_MAX_MAPPED 1024  /* hardware threads an explicit numbering may list */

/* The closest level two CPUs share. */
enum topo_level { TOPO_SELF, TOPO_SMT, TOPO_CLUSTER, TOPO_SOCKET, TOPO_REMOTE, TOPO_NLEVELS };

enum topo_numbering { TOPO_NUM_SMT_LAST, TOPO_NUM_SMT_ADJACENT, TOPO_NUM_EXPLICIT };

struct topology {
	int sockets;
	int cores_per_socket;       /* physical cores */
	int cores_per_cluster;      /* cores sharing a cache (CCX, module, tile); divides
				     * cores_per_socket; equal to it when there are no clusters */
	int threads_per_core;       /* SMT siblings; 1 = none */
	enum topo_numbering numbering;
	/* TOPO_NUM_EXPLICIT: the logical CPU id of each hardware thread, listed
	 * socket by socket, cluster by cluster, core by core, thread by thread. */
	uint16_t cpu_id[TOPO_MAX_MAPPED];
	uint32_t c2c[TOPO_NLEVELS]; /* transfer cycles by closest shared level (SMT, CLUSTER, SOCKET used) */
	uint8_t hops[TOPO_MAX_SOCKETS][TOPO_MAX_SOCKETS]; /* 0 on the diagonal, >= 1 elsewhere */
	uint32_t c2c_hop[TOPO_MAX_HOPS + 1];              /* transfer cycles by hop count (1..) */
};

/* Where one logical CPU sits: global indexes. */
struct topo_place {
	int socket, cluster, core, thread;
};

static inline int topo_cpus(const struct topology *t)
{
	return t->sockets * t->cores_per_socket * t->threads_per_core;
}

/* Check sizes, that each level divides the next, that an explicit
 * numbering neither skips nor repeats an id, that every hop count has a
 * latency, that the matrix is symmetric with a zero diagonal, and that
 * latencies grow outwards. On error names the field in e->msg and returns -1. */
int topo_validate(const struct topology *t, struct err *e);

/* The place of logical CPU `cpu` (0 <= cpu < topo_cpus). */
struct topo_place topo_place_of(const struct topology *t, int cpu);

/* Inline, as topo_leg is: the fabric asks for several legs per request. */
static inline enum topo_level topo_level_between(const struct topo_place *a, const struct topo_place *b)
{
	if (a->socket != b->socket)
		return TOPO_REMOTE;
	if (a->cluster < 0 || b->cluster < 0 || a->cluster != b->cluster)
		return TOPO_SOCKET;
	if (a->core < 0 || b->core < 0 || a->core != b->core)
		return TOPO_CLUSTER;
	if (a->thread < 0 || b->thread < 0 || a->thread != b->thread)
		return TOPO_SMT;
	return TOPO_SELF;
}

/* The closest level that exists on this machine: cores of a socket without
 * clusters share the socket, not a cluster. */
static inline enum topo_level topo_level_on(const struct topology *t, enum topo_level l)
{
	return l == TOPO_CLUSTER && t->cores_per_cluster == t->cores_per_socket ? TOPO_SOCKET : l;
}

static inline enum topo_level topo_level_in(const struct topology *t, const struct topo_place *a,
					    const struct topo_place *b)
{
	return topo_level_on(t, topo_level_between(a, b));
}

/* Half a ping-pong transfer, rounded, at least a cycle. */
static inline uint32_t topo_half(uint32_t v)
{
	uint32_t l = (v + 1) / 2;
	return l ? l : 1;
}

/* Cycles of one message leg between places whose closest level on this
 * machine is l (topo_level_in), `hops` sockets apart when l is
 * TOPO_REMOTE. Inside one socket at level L: c2c[L] / 2 (rounded up, at
 * least 1); across sockets the socket leg plus the link between the two. */
static inline uint32_t topo_leg_at(const struct topology *t, enum topo_level l, unsigned hops)
{
	if (l == TOPO_SELF)
		return 0;
	if (l != TOPO_REMOTE)
		return topo_half(t->c2c[l]);
	uint32_t on = t->c2c[TOPO_SOCKET];
	return topo_half(on) + (t->c2c_hop[hops] - on);
}

static inline uint32_t topo_leg(const struct topology *t, const struct topo_place *a,
				const struct topo_place *b)
{
	enum topo_level l = topo_level_in(t, a, b);
	return topo_leg_at(t, l, l == TOPO_REMOTE ? t->hops[a->socket][b->socket] : 0);
}

/* topo_leg's answers computed once, by closest shared level inside a
 * socket and by hop count across: the fabric times several legs per
 * request, and the halving and the cluster test cost more than the table.
 * topo_legs_leg(L, t, a, b) == topo_leg(t, a, b) for every pair. */
struct topo_legs {
	uint32_t in[TOPO_REMOTE];                /* by topo_level_between's level */
	uint32_t across[TOPO_MAX_HOPS + 1];      /* by hop count, 1.. */
};

void topo_legs_init(const struct topology *t, struct topo_legs *L);

static inline uint32_t topo_legs_leg(const struct topo_legs *L, const struct topology *t,
				     const struct topo_place *a, const struct topo_place *b)
{
	enum topo_level l = topo_level_between(a, b);
	if (l != TOPO_REMOTE)
		return L->in[l];
	return L->across[t->hops[a->socket][b->socket]];
}
/* The shortest leg inside a socket among the levels with a latency (at
 * least 1): no message between two places takes less. */
uint32_t topo_min_leg(const struct topology *t);
/* The transfer latency the model is built from (the measured figure). */
uint32_t topo_transfer(const struct topology *t, const struct topo_place *a, const struct topo_place *b);

const char *topo_level_name(enum topo_level l);
const char *topo_numbering_name(enum topo_numbering n);

#endif
