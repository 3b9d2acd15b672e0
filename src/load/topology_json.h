/* Reading a CPU model's "topology" object (docs/scenario-format.md) into
 * the engine's struct topology, with file:line:col errors. */
#ifndef BOUNCE_TOPOLOGY_JSON_H
#define BOUNCE_TOPOLOGY_JSON_H

#include "base/topology.h"
#include "load/json_pos.h"

/* Returns 0, or -1 with a positioned error naming the key that is wrong. */
int topo_json_read(const struct jpos_doc *d, const cJSON *obj, struct topology *t, struct err *e);
/* Point a topo_validate() message ("topology.c2c.socket: ...") at that
 * node below the topology object `obj`, or at the nearest one the
 * document has. Returns -1. */
int topo_json_locate(const struct jpos_doc *d, const cJSON *obj, const char *msg, struct err *e);

/* The topology as the object topo_json_read reads back to the same
 * struct (for changing one key of a loaded model); NULL out of memory. */
cJSON *topo_json_write(const struct topology *t);

/* The object's keys and the keys of its "c2c" (NULL-terminated): the
 * schema test holds scenarios/scenario.schema.json to them. */
extern const char *const topo_json_keys[];
extern const char *const topo_json_c2c_keys[];

#endif
