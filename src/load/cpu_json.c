/* CPU models from JSON, read by walking the field table of
 * base/cpu_model.h (key, type, range, default); what relates several
 * fields is decided by cpu_model_validate and the memory system's host
 * budget (ms_model_check), whose message we point at the field. */
#include "config.h"
#include "load/cpu_json.h"

#include <stddef.h>
#include <stdlib.h>
#include "load/topology_json.h"
#include "mem/memsys.h"
#include <string.h>

static int read_enum(const struct jpos_doc *d, const cJSON *n, const char *const *names,
		     int *out, struct err *e)
{
	const char *s;
	if (jpos_string(d, n, 0, &s, e))
		return -1;
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	char list[128];
	jpos_alternatives(names, list, sizeof list);
	return jpos_error(d, n, e, "unknown value \"%s\" (expected %s)", s, list);
}

static int read_field(const struct jpos_doc *d, const cJSON *n, const struct cpu_model_field *f,
		      struct cpu_model *m, struct err *e)
{
	char *p = (char *)m + f->off;
	int64_t v;
	const char *s;
	int k;
	switch (f->type) {
	case CPU_F_U32:
	case CPU_F_LAT:
		if (jpos_int(d, n, (int64_t)f->min, (int64_t)f->max, &v, e))
			return -1;
		*(uint32_t *)p = (uint32_t)v;
		return 0;
	case CPU_F_INT:
		if (jpos_int(d, n, (int64_t)f->min, (int64_t)f->max, &v, e))
			return -1;
		*(int *)p = (int)v;
		return 0;
	case CPU_F_GHZ: {
		double g = 0;
		if (jpos_double(d, n, f->min, f->max, &g, e))
			return -1;
		memcpy(p, &g, sizeof g);
		return 0;
	}
	case CPU_F_STR:
		if (jpos_string(d, n, f->size - 1, &s, e))
			return -1;
		memcpy(p, s, strlen(s) + 1);
		return 0;
	case CPU_F_FABRIC:
		if (read_enum(d, n, cpu_fabric_names, &k, e))
			return -1;
		*(enum fabric_kind *)p = (enum fabric_kind)k;
		return 0;
	case CPU_F_PROTOCOL:
		if (read_enum(d, n, cpu_protocol_names, &k, e))
			return -1;
		*(enum protocol_kind *)p = (enum protocol_kind)k;
		return 0;
	case CPU_F_TOPOLOGY:
		return topo_json_read(d, n, (struct topology *)(void *)p, e);
	}
	return err_internal(e, "cpu_json: bad field type");
}

int cpu_json_locate(const struct jpos_doc *d, const cJSON *obj, const struct err *verr,
		    struct err *e)
{
	const char *msg = verr->msg;
	size_t len = strspn(msg, "abcdefghijklmnopqrstuvwxyz0123456789_");
	const cJSON *topo = cJSON_GetObjectItemCaseSensitive(obj, "topology");
	if (topo && len == 8 && !strncmp(msg, "topology", 8) && (msg[8] == '.' || msg[8] == ':'))
		return topo_json_locate(d, topo, msg, e);
	if (len && msg[len] == ':' && msg[len + 1] == ' ') {
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)len, msg);
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
		if (n)
			return jpos_error(d, n, e, "%s", msg + len + 2);
		return jpos_error(d, obj, e, "%s (from the default of missing key \"%s\")", msg + len + 2, key);
	}
	if (len) {
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)len, msg);
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
		if (n)
			return jpos_error(d, n, e, "%s", msg);
	}
	return jpos_error(d, obj, e, "%s", msg);
}

int cpu_json_from_node(const struct jpos_doc *d, const cJSON *obj, const char *default_name,
		       struct cpu_model *m, struct err *e)
{
	if (jpos_object(d, obj, e) || jpos_check_keys(d, obj, cpu_model_keys, e))
		return -1;
	/* Refused before anything is read: a value error in a key that may
	 * not be there at all would send the reader to the wrong fix. */
	int flat = !cJSON_GetObjectItemCaseSensitive(obj, "topology");
	for (size_t i = 0; i < CPU_MODEL_NFIELDS && !flat; i++) {
		const struct cpu_model_field *f = &cpu_model_fields[i];
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, f->key);
		if (n && (f->need == CPU_NEED_IF_FLAT || f->need == CPU_NEED_FLAT_ONLY))
			return jpos_key_error(d, n, e, "\"topology\" replaces the flat shorthand key \"%s\": "
					      "drop the key, or drop \"topology\"", f->key);
	}
	cpu_model_defaults(m);
	snprintf(m->name, sizeof m->name, "%s", default_name ? default_name : "inline");
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, cpu_model_fields[i].key);
		if (n && read_field(d, n, &cpu_model_fields[i], m, e))
			return -1;
	}
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++) {
		const struct cpu_model_field *f = &cpu_model_fields[i];
		if (cJSON_GetObjectItemCaseSensitive(obj, f->key))
			continue;
		/* A flat model (no "topology") needs its shorthand keys as much as
		 * the rest: its topology is made from them. */
		if (f->need == CPU_NEED_ALWAYS || (f->need == CPU_NEED_IF_FLAT && flat))
			return jpos_error(d, obj, e, "missing key \"%s\" (every CPU model sets it)", f->key);
		if (f->need == CPU_NEED_IF_LLC && m->llc_size)
			return jpos_error(d, obj, e, "missing key \"%s\" (required when llc_size is not 0)", f->key);
		if (f->need == CPU_NEED_IF_BUS && m->fabric == FABRIC_BUS)
			return jpos_error(d, obj, e, "missing key \"%s\" (required when fabric is \"bus\")", f->key);
	}
	struct err verr;
	err_clear(&verr);
	/* the host-memory budget too: a model the engine cannot build is bad input */
	if (ms_model_check(m, &verr))
		return cpu_json_locate(d, obj, &verr, e);
	return 0;
}

int cpu_json_check_cores(const char *path, int cores, struct err *e)
{
	struct jpos_doc *d = jpos_load(path, e);
	if (!d)
		return -1;
	struct cpu_model m;
	int r = cpu_json_from_node(d, jpos_root(d), "", &m, e);
	if (r == 0) {
		struct err verr;
		err_clear(&verr);
		m.cores = cores;
		if (ms_model_check(&m, &verr))
			r = cpu_json_locate(d, jpos_root(d), &verr, e);
	}
	jpos_free(d);
	return r;
}

int cpu_json_load(const char *path, struct cpu_model *m, struct err *e)
{
	struct jpos_doc *d = jpos_load(path, e);
	if (!d)
		return -1;
	const char *base = strrchr(path, '/');
	char name[64];
	snprintf(name, sizeof name, "%s", base ? base + 1 : path);
	char *dot = strrchr(name, '.');
	if (dot && !strcmp(dot, ".json"))
		*dot = 0;
	int r = cpu_json_from_node(d, jpos_root(d), name, m, e);
	jpos_free(d);
	return r;
}

/* The message of an error in a document made from the option's value,
 * without its position: the caller names the option instead. The JSON
 * path stays when it leads somewhere below the value ("$.c2c.socket",
 * said as "topology.c2c.socket"). */
static void option_msg(const struct err *x, int topo, char *buf, size_t n)
{
	const char *m = x->msg;
	if (topo && !strncmp(m, "$.", 2))
		snprintf(buf, n, "topology.%s", m + 2);
	else if (m[0] == '$' && strstr(m, ": "))
		snprintf(buf, n, "%s", strstr(m, ": ") + 2);
	else
		snprintf(buf, n, "%s", m);
}

/* The value as the JSON a file would hold: text that parses as JSON is
 * taken as it is (300, [298, 692]), anything else as a string (MOESI), and
 * a string key's value always as a string. Malloc'd; NULL out of memory. */
static char *value_json(const char *value, int as_string)
{
	if (!as_string) {
		cJSON *probe = jpos_cjson_parse(value, strlen(value) + 1, NULL);
		cJSON_Delete(probe);
		if (probe)
			return strdup(value);
	}
	cJSON *s = cJSON_CreateString(value);
	char *text = s ? cJSON_PrintUnformatted(s) : NULL;
	cJSON_Delete(s);
	return text;
}

/* "topology.c2c.socket": replace that member of the model's topology,
 * written out as its object, and read the object back, so the topology's
 * own reader checks the key and the whole topology. */
static int set_topology_key(struct cpu_model *m, const char *path, const char *vtext, struct err *x)
{
	if (!m->topology.sockets)
		return err_set(x, NULL, 0, 0, "this model gives the flat shorthand (cores_per_socket, lat_c2c_local, "
			       "lat_c2c_remote), not a \"topology\" object: set those keys instead");
	cJSON *value = jpos_cjson_parse(vtext, strlen(vtext) + 1, NULL);
	cJSON *root = topo_json_write(&m->topology);
	cJSON *at = root;
	char part[64];
	int rc = 0;
	if (!value || !root) {
		rc = err_internal(x, "out of memory");
		goto out;
	}
	for (;;) {
		size_t len = strcspn(path, ".");
		snprintf(part, sizeof part, "%.*s", (int)len, path);
		if (!path[len])
			break;
		cJSON *next = cJSON_GetObjectItemCaseSensitive(at, part);
		if (!cJSON_IsObject(next)) {
			rc = err_set(x, NULL, 0, 0, "topology.%s is not an object with keys", part);
			goto out;
		}
		at = next;
		path += len + 1;
	}
	if (cJSON_GetObjectItemCaseSensitive(at, part))
		cJSON_ReplaceItemInObjectCaseSensitive(at, part, value);
	else
		cJSON_AddItemToObject(at, part, value);
	value = NULL;
	char *text = cJSON_PrintUnformatted(root);
	struct jpos_doc *d = text ? jpos_parse("topology", text, strlen(text), x) : NULL;
	free(text);
	if (!d) {
		rc = err_is_set(x) ? -1 : err_internal(x, "out of memory");
		goto out;
	}
	struct topology t;
	rc = topo_json_read(d, jpos_root(d), &t, x);
	jpos_free(d);
	if (!rc)
		m->topology = t;
out:
	cJSON_Delete(value);
	cJSON_Delete(root);
	return rc;
}

int cpu_json_set(struct cpu_model *m, const char *key, const char *value, const char *opt, struct err *e)
{
	struct err x;
	err_clear(&x);
	const struct cpu_model_field *f = NULL;
	size_t klen = strcspn(key, ".");
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++)
		if (strlen(cpu_model_fields[i].key) == klen && !strncmp(cpu_model_fields[i].key, key, klen))
			f = &cpu_model_fields[i];
	if (!f || (key[klen] && f->type != CPU_F_TOPOLOGY)) {
		char base[64];
		snprintf(base, sizeof base, "%.*s", (int)klen, key);
		const char *near = jpos_suggest(base, cpu_model_keys);
		return err_set(e, NULL, 0, 0, "%s: unknown CPU-model key \"%s\"%s%s%s", opt, key,
			       near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
	}
	if (f->off == offsetof(struct cpu_model, cores))
		return err_set(e, NULL, 0, 0, "%s: the core count is the run's (--cores, --set cores=N)", opt);
	int topo = f->type == CPU_F_TOPOLOGY;
	if (topo && !key[klen])
		return err_set(e, NULL, 0, 0, "%s: set one key of the topology (cpu.topology.c2c.socket=N ...)", opt);
	if (!topo && m->topology.sockets && (f->need == CPU_NEED_IF_FLAT || f->need == CPU_NEED_FLAT_ONLY))
		return err_set(e, NULL, 0, 0, "%s: this model has a \"topology\", which replaces the flat shorthand "
			       "key \"%s\" (set cpu.topology.* instead)", opt, f->key);
	int string = f->type == CPU_F_STR || f->type == CPU_F_FABRIC || f->type == CPU_F_PROTOCOL;
	char *text = value_json(value, string);
	if (!text)
		return err_internal(e, "out of memory");
	int rc;
	if (topo) {
		rc = set_topology_key(m, key + klen + 1, text, &x);
	} else {
		struct jpos_doc *d = jpos_parse(opt, text, strlen(text), &x);
		rc = d ? read_field(d, jpos_root(d), f, m, &x) : -1;
		jpos_free(d);
	}
	free(text);
	if (!rc)
		return 0;
	if (x.kind == ERR_INTERNAL) {
		*e = x;
		return -1;
	}
	char msg[sizeof x.msg];
	option_msg(&x, topo, msg, sizeof msg);
	return err_set(e, NULL, 0, 0, "%s: %s", opt, msg);
}
