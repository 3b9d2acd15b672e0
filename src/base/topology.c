/* Topology: logical CPU numbering, the closest level two places share, and
 * the latency of one message leg between them (the model is stated in
 * topology.h). Pure functions of the struct: the memory system precomputes
 * what it needs from them once per run. */
#include "config.h"
#include "base/topology.h"

#include <string.h>

static const char *const level_names[TOPO_NLEVELS] = {"self", "smt", "cluster", "socket", "remote"};

const char *topo_level_name(enum topo_level l)
{
	return (unsigned)l < TOPO_NLEVELS ? level_names[l] : "?";
}

const char *topo_numbering_name(enum topo_numbering n)
{
	return n == TOPO_NUM_SMT_ADJACENT ? "smt-adjacent" : n == TOPO_NUM_EXPLICIT ? "explicit" : "smt-last";
}

int topo_validate(const struct topology *t, struct err *e)
{
	if (t->sockets < 1 || t->sockets > TOPO_MAX_SOCKETS)
		return err_set(e, NULL, 0, 0, "topology.sockets: %d is out of range (expected 1..%d)",
			       t->sockets, TOPO_MAX_SOCKETS);
	if (t->cores_per_socket < 1 || t->cores_per_socket > 1024)
		return err_set(e, NULL, 0, 0, "topology.cores_per_socket: %d is out of range (expected 1..1024)",
			       t->cores_per_socket);
	if (t->cores_per_cluster < 1 || t->cores_per_cluster > t->cores_per_socket ||
	    t->cores_per_socket % t->cores_per_cluster)
		return err_set(e, NULL, 0, 0, "topology.cores_per_cluster: %d does not divide cores_per_socket (%d)",
			       t->cores_per_cluster, t->cores_per_socket);
	if (t->threads_per_core < 1 || t->threads_per_core > 8)
		return err_set(e, NULL, 0, 0, "topology.threads_per_core: %d is out of range (expected 1..8)",
			       t->threads_per_core);
	long long cpus = (long long)t->sockets * t->cores_per_socket * t->threads_per_core;
	if (cpus > 65536)
		return err_set(e, NULL, 0, 0, "topology: %lld logical CPUs is too many (at most 65536)", cpus);
	if (t->numbering == TOPO_NUM_EXPLICIT) {
		if (cpus > TOPO_MAX_MAPPED)
			return err_set(e, NULL, 0, 0, "topology.numbering: an explicit list covers at most %d CPUs, this machine has %lld",
				       TOPO_MAX_MAPPED, cpus);
		uint8_t seen[TOPO_MAX_MAPPED] = {0};
		for (long long i = 0; i < cpus; i++) {
			unsigned id = t->cpu_id[i];
			if (id >= cpus)
				return err_set(e, NULL, 0, 0, "topology.numbering[%lld]: CPU id %u is out of range: ids run 0..%lld, none skipped",
					       i, id, cpus - 1);
			if (seen[id]++)
				return err_set(e, NULL, 0, 0, "topology.numbering[%lld]: CPU id %u is repeated", i, id);
		}
		/* cpus ids, none repeated, none out of range: a permutation. */
	} else if (t->numbering != TOPO_NUM_SMT_LAST && t->numbering != TOPO_NUM_SMT_ADJACENT) {
		return err_set(e, NULL, 0, 0, "topology.numbering: unknown rule %d", (int)t->numbering);
	}
	/* Only the levels this machine has need a latency; each must be at
	 * least as slow as the one inside it, or "closer" would mean nothing. */
	uint32_t inner = 0;
	const char *inner_name = NULL;
	for (int l = TOPO_SMT; l <= TOPO_SOCKET; l++) {
		int exists = l == TOPO_SOCKET || (l == TOPO_SMT && t->threads_per_core > 1) ||
			     (l == TOPO_CLUSTER && t->cores_per_cluster < t->cores_per_socket);
		if (!exists)
			continue;
		uint32_t v = t->c2c[l];
		if (v < 1 || v > 100000)
			return err_set(e, NULL, 0, 0, "topology.c2c.%s: %u cycles is out of range (expected 1..100000)",
				       level_names[l], v);
		if (v < inner)
			return err_set(e, NULL, 0, 0, "topology.c2c.%s: %u cycles is less than c2c.%s (%u): an outer level cannot be faster",
				       level_names[l], v, inner_name, inner);
		inner = v;
		inner_name = level_names[l];
	}
	int maxhop = 0;
	for (int a = 0; a < t->sockets; a++)
		for (int b = 0; b < t->sockets; b++) {
			int h = t->hops[a][b];
			if (a == b && h)
				return err_set(e, NULL, 0, 0, "topology.hops[%d][%d]: a socket is 0 hops from itself, not %d",
					       a, b, h);
			if (a != b && (h < 1 || h > TOPO_MAX_HOPS))
				return err_set(e, NULL, 0, 0, "topology.hops[%d][%d]: %d is out of range (expected 1..%d)",
					       a, b, h, TOPO_MAX_HOPS);
			if (h != t->hops[b][a])
				return err_set(e, NULL, 0, 0, "topology.hops[%d][%d] is %d but hops[%d][%d] is %d: the matrix must be symmetric",
					       a, b, h, b, a, t->hops[b][a]);
			if (h > maxhop)
				maxhop = h;
		}
	for (int h = 1; h <= maxhop; h++) {
		uint32_t v = t->c2c_hop[h];
		if (v < 1 || v > 100000)
			return err_set(e, NULL, 0, 0, "topology.c2c_hops[%d]: %d-hop transfers need a latency in 1..100000 cycles, not %u",
				       h - 1, h, v);
		if (v < inner)
			return err_set(e, NULL, 0, 0, "topology.c2c_hops[%d]: %u cycles is less than the %s (%u): more hops cannot be faster",
				       h - 1, v, h == 1 ? "c2c.socket" : "hop before", inner);
		inner = v;
	}
	return 0;
}

struct topo_place topo_place_of(const struct topology *t, int cpu)
{
	int phys = t->sockets * t->cores_per_socket;
	int core, thread;
	if (t->numbering == TOPO_NUM_EXPLICIT) {
		int hw = 0, n = topo_cpus(t);
		while (hw < n - 1 && t->cpu_id[hw] != cpu)
			hw++;
		core = hw / t->threads_per_core;
		thread = hw % t->threads_per_core;
	} else if (t->numbering == TOPO_NUM_SMT_ADJACENT) {
		core = cpu / t->threads_per_core;
		thread = cpu % t->threads_per_core;
	} else {
		core = cpu % phys;
		thread = cpu / phys;
	}
	struct topo_place p = {
		.core = core,
		.thread = thread,
		.cluster = core / t->cores_per_cluster,
		.socket = core / t->cores_per_socket,
	};
	return p;
}

/* A place with core (or cluster) -1 is an agent of that cluster (socket):
 * it shares exactly that level with what lies inside it. */
uint32_t topo_min_leg(const struct topology *t)
{
	uint32_t min = UINT32_MAX;
	for (int l = TOPO_SMT; l <= TOPO_SOCKET; l++)
		if (t->c2c[l] && topo_half(t->c2c[l]) < min)
			min = topo_half(t->c2c[l]);
	return min != UINT32_MAX ? min : 1;
}

void topo_legs_init(const struct topology *t, struct topo_legs *L)
{
	for (int l = TOPO_SELF; l < TOPO_REMOTE; l++)
		L->in[l] = topo_leg_at(t, topo_level_on(t, (enum topo_level)l), 0);
	L->across[0] = L->in[TOPO_SOCKET];  /* the diagonal: never asked */
	for (unsigned h = 1; h <= TOPO_MAX_HOPS; h++)
		L->across[h] = topo_leg_at(t, TOPO_REMOTE, h);
}

uint32_t topo_transfer(const struct topology *t, const struct topo_place *a, const struct topo_place *b)
{
	enum topo_level l = topo_level_in(t, a, b);
	if (l == TOPO_SELF)
		return 0;
	if (l == TOPO_REMOTE)
		return t->c2c_hop[t->hops[a->socket][b->socket]];
	return t->c2c[l];
}

