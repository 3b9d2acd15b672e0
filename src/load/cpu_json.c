/* CPU models from JSON. One table maps each key to its struct cpu_model
 * field, type and load-time range; what the engine can simulate is still
 * decided by cpu_model_validate, whose message we point at the field. */
#include "config.h"
#include "load/cpu_json.h"

#include <stddef.h>
#include <string.h>

enum field_type { F_U32, F_INT, F_GHZ, F_STR, F_FABRIC, F_PROTOCOL };

/* When a field is required: always, never (a default applies), or only
 * when the model has an LLC / a bus. */
enum need { N_ALWAYS, N_OPTIONAL, N_IF_LLC, N_IF_BUS };

struct field {
	const char *key;
	enum field_type type;
	size_t off, size;
	enum need need;
	int64_t min, max;
};

#define U32(k, need, lo, hi) { #k, F_U32, offsetof(struct cpu_model, k), 0, need, lo, hi }
static const struct field fields[] = {
	{ "name", F_STR, offsetof(struct cpu_model, name), sizeof ((struct cpu_model *)0)->name, N_OPTIONAL, 0, 0 },
	{ "description", F_STR, offsetof(struct cpu_model, description),
	  sizeof ((struct cpu_model *)0)->description, N_OPTIONAL, 0, 0 },
	{ "source", F_STR, offsetof(struct cpu_model, source), sizeof ((struct cpu_model *)0)->source, N_OPTIONAL, 0, 0 },
	{ "ghz", F_GHZ, offsetof(struct cpu_model, ghz), 0, N_ALWAYS, 0, 0 },
	{ "cores", F_INT, offsetof(struct cpu_model, cores), 0, N_ALWAYS, 1, CPU_MAX_CORES },
	{ "cores_per_socket", F_INT, offsetof(struct cpu_model, cores_per_socket), 0, N_ALWAYS, 1, CPU_MAX_CORES },
	{ "threads_per_core", F_INT, offsetof(struct cpu_model, threads_per_core), 0, N_OPTIONAL, 1, 8 },
	U32(l1_size, N_ALWAYS, 1, 64 << 20),
	U32(l1_assoc, N_ALWAYS, 1, 64),
	U32(line_size, N_ALWAYS, 16, 256),
	U32(llc_size, N_OPTIONAL, 0, 1 << 30),
	U32(llc_assoc, N_IF_LLC, 1, 64),
	U32(lat_l1_hit, N_ALWAYS, 1, 100000),
	U32(lat_llc_hit, N_IF_LLC, 0, 100000),
	U32(lat_c2c_local, N_ALWAYS, 1, 100000),
	U32(lat_c2c_remote, N_ALWAYS, 0, 100000),
	U32(lat_mem_local, N_ALWAYS, 1, 100000),
	U32(lat_mem_remote, N_ALWAYS, 0, 100000),
	U32(lat_locked_op, N_ALWAYS, 0, 100000),
	U32(lat_mfence, N_ALWAYS, 0, 100000),
	U32(lat_pause, N_ALWAYS, 0, 100000),
	U32(lat_bus, N_IF_BUS, 0, 100000),
	U32(cpi, N_OPTIONAL, 1, 1000),
	U32(sb_entries, N_ALWAYS, 1, 256),
	{ "fabric", F_FABRIC, offsetof(struct cpu_model, fabric), 0, N_ALWAYS, 0, 0 },
	{ "protocol", F_PROTOCOL, offsetof(struct cpu_model, protocol), 0, N_ALWAYS, 0, 0 },
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

const char *const cpu_json_keys[] = {
	"name", "description", "source", "ghz", "cores", "cores_per_socket", "threads_per_core",
	"l1_size", "l1_assoc", "line_size", "llc_size", "llc_assoc", "lat_l1_hit", "lat_llc_hit",
	"lat_c2c_local", "lat_c2c_remote", "lat_mem_local", "lat_mem_remote", "lat_locked_op",
	"lat_mfence", "lat_pause", "lat_bus", "cpi", "sb_entries", "fabric", "protocol", NULL,
};

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
	char list[128] = "";
	size_t len = 0;
	for (int i = 0; names[i]; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s\"%s\"", i ? " or " : "", names[i]);
	return jpos_error(d, n, e, "unknown value \"%s\" (expected %s)", s, list);
}

static int read_field(const struct jpos_doc *d, const cJSON *n, const struct field *f,
		      struct cpu_model *m, struct err *e)
{
	char *p = (char *)m + f->off;
	int64_t v;
	const char *s;
	int k;
	switch (f->type) {
	case F_U32:
		if (jpos_int(d, n, f->min, f->max, &v, e))
			return -1;
		*(uint32_t *)p = (uint32_t)v;
		return 0;
	case F_INT:
		if (jpos_int(d, n, f->min, f->max, &v, e))
			return -1;
		*(int *)p = (int)v;
		return 0;
	case F_GHZ:
		return jpos_double(d, n, 0.001, 99.0, &m->ghz, e); /* the one F_GHZ field */
	case F_STR:
		if (jpos_string(d, n, f->size - 1, &s, e))
			return -1;
		memcpy(p, s, strlen(s) + 1);
		return 0;
	case F_FABRIC: {
		static const char *const names[] = { "bus", "directory", NULL };
		if (read_enum(d, n, names, &k, e))
			return -1;
		m->fabric = k ? FABRIC_DIRECTORY : FABRIC_BUS;
		return 0;
	}
	case F_PROTOCOL: {
		static const char *const names[] = { "MESI", "MESIF", "MOESI", NULL };
		static const enum protocol_kind kinds[] = { PROTO_MESI, PROTO_MESIF, PROTO_MOESI };
		if (read_enum(d, n, names, &k, e))
			return -1;
		m->protocol = kinds[k];
		return 0;
	}
	}
	return err_internal(e, "cpu_json: bad field type");
}

int cpu_json_locate(const struct jpos_doc *d, const cJSON *obj, const struct err *verr,
		    struct err *e)
{
	const char *msg = verr->msg;
	size_t len = strspn(msg, "abcdefghijklmnopqrstuvwxyz0123456789_");
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
	if (jpos_object(d, obj, e) || jpos_check_keys(d, obj, cpu_json_keys, e))
		return -1;
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", default_name ? default_name : "inline");
	m->threads_per_core = 1;
	m->cpi = 1;
	for (size_t i = 0; i < N_FIELDS; i++) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, fields[i].key);
		if (n && read_field(d, n, &fields[i], m, e))
			return -1;
	}
	for (size_t i = 0; i < N_FIELDS; i++) {
		const struct field *f = &fields[i];
		if (cJSON_GetObjectItemCaseSensitive(obj, f->key))
			continue;
		if (f->need == N_ALWAYS)
			return jpos_error(d, obj, e, "missing key \"%s\" (every CPU model sets it)", f->key);
		if (f->need == N_IF_LLC && m->llc_size)
			return jpos_error(d, obj, e, "missing key \"%s\" (required when llc_size is not 0)", f->key);
		if (f->need == N_IF_BUS && m->fabric == FABRIC_BUS)
			return jpos_error(d, obj, e, "missing key \"%s\" (required when fabric is \"bus\")", f->key);
	}
	if (m->llc_size == 0 && !cJSON_GetObjectItemCaseSensitive(obj, "llc_assoc"))
		m->llc_assoc = 16; /* unused without an LLC, but keeps the model valid */
	struct err verr;
	err_clear(&verr);
	if (cpu_model_validate(m, &verr))
		return cpu_json_locate(d, obj, &verr, e);
	return 0;
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
