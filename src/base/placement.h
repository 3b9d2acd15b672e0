/* Thread placement: which of a machine's hardware threads the run's
 * logical CPUs 0..N-1 are, chosen by a policy over the topology instead of
 * the model's Linux numbering, so "fill a socket first" and "spread over
 * the sockets" are the same scenario run two ways. */
#ifndef BOUNCE_PLACEMENT_H
#define BOUNCE_PLACEMENT_H

#include "base/error.h"
#include "base/topology.h"

/* PLACE_NONE: nothing asked (the model's numbering, or what an outer
 * setting says). PLACE_NUMBERED: the model's numbering, asked for. */
enum placement { PLACE_NONE, PLACE_NUMBERED, PLACE_COMPACT, PLACE_SCATTER, PLACE_CORES_FIRST, PLACE_N };

/* The policies by name ("numbered", "compact", "scatter", "cores-first"),
 * NULL-terminated, from PLACE_NUMBERED on. */
extern const char *const placement_names[];
const char *placement_name(enum placement p);
/* PLACE_NONE when s names no policy. */
enum placement placement_find(const char *s);

/* The hardware threads of t (indexes in the order an explicit numbering
 * lists them: socket, cluster, core, thread) in the order policy p takes
 * them; order has topo_cpus(t) entries. */
void placement_order(const struct topology *t, enum placement p, int *order);
/* Renumber t so that logical CPU i is the i-th hardware thread policy p
 * takes. -1 with e set when the machine has more hardware threads than an
 * explicit numbering lists (TOPO_MAX_MAPPED). */
int placement_apply(struct topology *t, enum placement p, struct err *e);

#endif
