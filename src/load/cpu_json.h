/* CPU models as JSON: cpus/NAME.json, or an object inline in a scenario,
 * read into struct cpu_model with every field under its own key, and
 * validated with cpu_model_validate so errors point at the bad field. */
#ifndef BOUNCE_CPU_JSON_H
#define BOUNCE_CPU_JSON_H

#include "base/cpu_model.h"
#include "load/json_pos.h"

/* Load cpus file `path`. The model's name defaults to the file's base name. */
int cpu_json_load(const char *path, struct cpu_model *m, struct err *e);
/* Read the object `obj` of document `d` (a whole file or an inline model);
 * `default_name` is used when the object has no "name". */
int cpu_json_from_node(const struct jpos_doc *d, const cJSON *obj, const char *default_name,
		       struct cpu_model *m, struct err *e);
/* Whether the model in file `path` fits the host-memory budget with `cores`
 * cores (a --cores or swept core count replacing the file's): -1 with the
 * budget's message at its field in the file when it does not. */
int cpu_json_check_cores(const char *path, int cores, struct err *e);
/* Point a cpu_model_validate() message ("field: ...") at that field of
 * `obj` (or at the object when the field is absent). Returns -1. */
int cpu_json_locate(const struct jpos_doc *d, const cJSON *obj, const struct err *verr,
		    struct err *e);

/* Set one key of a loaded model as a file would give it, for the command
 * line's --set cpu.KEY=VALUE: KEY is any key of the model's table
 * (cpu_model_keys) or topology.KEY[.KEY] below its "topology"; VALUE is
 * JSON (300, [298,692]) or a bare word taken as a string (MOESI). Each is
 * checked as the file's reader checks it; errors are "OPT: what is wrong".
 * Whether the model as a whole can run is the caller's check. */
int cpu_json_set(struct cpu_model *m, const char *key, const char *value, const char *opt, struct err *e);

#endif
