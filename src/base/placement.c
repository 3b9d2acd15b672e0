/* Placement policies over a topology (placement.h). A policy is an order
 * of the hardware threads; applying it writes that order into the
 * topology as an explicit numbering, so every consumer of CPU places sees
 * the placed machine without knowing about policies. */
#include "config.h"
#include "base/placement.h"

#include <string.h>

const char *const placement_names[] = {"numbered", "compact", "scatter", "cores-first", NULL};

const char *placement_name(enum placement p)
{
	return p > PLACE_NONE && p < PLACE_N ? placement_names[p - PLACE_NUMBERED] : "none";
}

enum placement placement_find(const char *s)
{
	for (int i = 0; placement_names[i]; i++)
		if (!strcmp(s, placement_names[i]))
			return (enum placement)(PLACE_NUMBERED + i);
	return PLACE_NONE;
}

/* The hardware-thread index of (socket, cluster, core in cluster, thread). */
static int hw_index(const struct topology *t, int socket, int cluster, int core, int thread)
{
	int in_socket = cluster * t->cores_per_cluster + core;
	return (socket * t->cores_per_socket + in_socket) * t->threads_per_core + thread;
}

/* The hardware thread that logical CPU `cpu` is under the model's own
 * numbering (the inverse of topo_place_of's mapping). */
static int numbered_hw(const struct topology *t, int cpu)
{
	struct topo_place p = topo_place_of(t, cpu);
	return p.core * t->threads_per_core + p.thread;
}

void placement_order(const struct topology *t, enum placement p, int *order)
{
	int n = topo_cpus(t), S = t->sockets, T = t->threads_per_core;
	int K = t->cores_per_cluster, C = t->cores_per_socket / t->cores_per_cluster;
	for (int i = 0; i < n; i++) {
		switch (p) {
		case PLACE_COMPACT:
			/* siblings, then the cluster's cores, then the socket's clusters */
			order[i] = i;
			break;
		case PLACE_CORES_FIRST: {
			/* thread 0 of every core, socket by socket; then thread 1 ... */
			int phys = n / T;
			order[i] = (i % phys) * T + i / phys;
			break;
		}
		case PLACE_SCATTER: {
			/* round-robin over sockets, then over a socket's clusters,
			 * then over a cluster's cores; siblings after every core */
			int socket = i % S, j = i / S;
			int cluster = j % C, k = j / C;
			order[i] = hw_index(t, socket, cluster, k % K, k / K);
			break;
		}
		case PLACE_NONE:
		case PLACE_NUMBERED:
		case PLACE_N:
			order[i] = numbered_hw(t, i);
			break;
		}
	}
}

int placement_apply(struct topology *t, enum placement p, struct err *e)
{
	int n = topo_cpus(t);
	if (p == PLACE_NONE || p == PLACE_NUMBERED)
		return 0;
	if (n > TOPO_MAX_MAPPED)
		return err_set(e, NULL, 0, 0, "placement \"%s\": the machine has %d hardware threads, a placement "
			       "numbers at most %d", placement_name(p), n, TOPO_MAX_MAPPED);
	int order[TOPO_MAX_MAPPED];
	placement_order(t, p, order);
	for (int i = 0; i < n; i++)
		t->cpu_id[order[i]] = (uint16_t)i;
	t->numbering = TOPO_NUM_EXPLICIT;
	return 0;
}
