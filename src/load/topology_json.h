/* Reading a CPU model's "topology" object (docs/cpu-models.md) into the
 * engine's struct topology, with file:line:col errors. */
#ifndef BOUNCE_TOPOLOGY_JSON_H
#define BOUNCE_TOPOLOGY_JSON_H

#include "base/topology.h"
#include "load/json_pos.h"

/* Returns 0, or -1 with a positioned error naming the key that is wrong. */
int topo_json_read(const struct jpos_doc *d, const cJSON *obj, struct topology *t, struct err *e);

#endif
