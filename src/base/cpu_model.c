/* CPU-model defaults and validation, both from the field table
 * (cpu_model.h): a field's plain range and default are its row's, and
 * validation adds only what relates several fields. */
#include "config.h"
#include "base/cpu_model.h"

#include <string.h>

#define FIELD_ROW(k, type, need, lo, hi, def)                                          \
	{ #k, CPU_F_##type, CPU_NEED_##need, offsetof(struct cpu_model, k),             \
	  sizeof ((struct cpu_model *)0)->k, lo, hi, def },
const struct cpu_model_field cpu_model_fields[CPU_MODEL_NFIELDS] = { CPU_MODEL_FIELDS(FIELD_ROW) };

#define FIELD_KEY(k, ...) #k,
const char *const cpu_model_keys[CPU_MODEL_NFIELDS + 1] = { CPU_MODEL_FIELDS(FIELD_KEY) NULL };

#define KIND_NAME(id, name) [id] = (name),
const char *const cpu_fabric_names[CPU_NFABRICS + 1] = { CPU_FABRICS(KIND_NAME) NULL };
#define PROTO_NAME(id, name, table) [id] = (name),
const char *const cpu_protocol_names[CPU_NPROTOCOLS + 1] = { CPU_PROTOCOLS(PROTO_NAME) NULL };

double cpu_model_field_get(const struct cpu_model *m, const struct cpu_model_field *f)
{
	const char *p = (const char *)m + f->off;
	uint32_t u;
	int i;
	double d;
	enum fabric_kind fk;
	enum protocol_kind pk;
	switch (f->type) {
	case CPU_F_INT:
		memcpy(&i, p, sizeof i);
		return i;
	case CPU_F_U32:
	case CPU_F_LAT:
		memcpy(&u, p, sizeof u);
		return u;
	case CPU_F_GHZ:
		memcpy(&d, p, sizeof d);
		return d;
	case CPU_F_FABRIC:
		memcpy(&fk, p, sizeof fk);
		return (int)fk;
	case CPU_F_PROTOCOL:
		memcpy(&pk, p, sizeof pk);
		return (int)pk;
	case CPU_F_STR:
	case CPU_F_TOPOLOGY:
		break;
	}
	return 0;
}

void cpu_model_field_set(struct cpu_model *m, const struct cpu_model_field *f, double v)
{
	char *p = (char *)m + f->off;
	uint32_t u = (uint32_t)v;
	int i = (int)v;
	enum fabric_kind fk = (enum fabric_kind)i;
	enum protocol_kind pk = (enum protocol_kind)i;
	switch (f->type) {
	case CPU_F_INT:
		memcpy(p, &i, sizeof i);
		break;
	case CPU_F_U32:
	case CPU_F_LAT:
		memcpy(p, &u, sizeof u);
		break;
	case CPU_F_GHZ:
		memcpy(p, &v, sizeof v);
		break;
	case CPU_F_FABRIC:
		memcpy(p, &fk, sizeof fk);
		break;
	case CPU_F_PROTOCOL:
		memcpy(p, &pk, sizeof pk);
		break;
	case CPU_F_STR:
	case CPU_F_TOPOLOGY:
		break; /* "", none: the zero the model starts as */
	}
}

void cpu_model_defaults(struct cpu_model *m)
{
	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++)
		cpu_model_field_set(m, &cpu_model_fields[i], cpu_model_fields[i].def);
}

void cpu_model_default(struct cpu_model *m)
{
	cpu_model_defaults(m);
	snprintf(m->name, sizeof m->name, "test-8way");
	snprintf(m->description, sizeof m->description, "round-number 8-core MESI bus machine for tests");
	m->ghz = 1.0;
	m->cores = 8;
	m->cores_per_socket = 4;
	m->l1_size = 32 * 1024;
	m->l1_assoc = 8;
	m->line_size = 64;
	m->lat_l1_hit = 4;
	m->lat_llc_hit = 40;
	m->lat_c2c_local = 40;   /* legs of 20 */
	m->lat_c2c_remote = 70;  /* legs across of 20 + 30 */
	m->lat_mem_local = 200;
	m->lat_mem_remote = 300;
	m->lat_locked_op = 20;
	m->lat_mfence = 30;
	m->lat_pause = 10;
	m->lat_bus = 8;
	m->sb_entries = 8;
	m->fabric = FABRIC_BUS;
	m->protocol = PROTO_MESI;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* A cache-size field's largest value, as "64 MiB", for the messages that
 * give it beside a geometry that does not fit. */
static const char *max_bytes(int field, char *buf, size_t n)
{
	uint64_t v = (uint64_t)cpu_model_fields[field].max;
	if (v && v % (1u << 30) == 0)
		snprintf(buf, n, "%llu GiB", (unsigned long long)(v >> 30));
	else if (v && v % (1u << 20) == 0)
		snprintf(buf, n, "%llu MiB", (unsigned long long)(v >> 20));
	else
		snprintf(buf, n, "%llu bytes", (unsigned long long)v);
	return buf;
}

/* Whether field f means anything in m: a key tied to an LLC, a bus or the
 * flat shorthand is not read without them (its need says which). */
static int field_applies(const struct cpu_model *m, const struct cpu_model_field *f)
{
	switch (f->need) {
	case CPU_NEED_IF_LLC:
		return m->llc_size != 0;
	case CPU_NEED_IF_BUS:
		return m->fabric == FABRIC_BUS;
	case CPU_NEED_IF_FLAT:
	case CPU_NEED_FLAT_ONLY:
		return !m->topology.sockets;
	case CPU_NEED_ALWAYS:
	case CPU_NEED_OPTIONAL:
		break;
	}
	return 1;
}

/* Field f's value against its row's range, said as the loader says it. */
static int check_range(const struct cpu_model *m, const struct cpu_model_field *f, struct err *e)
{
	double v = cpu_model_field_get(m, f);
	if (f->type == CPU_F_STR || f->type == CPU_F_TOPOLOGY || (v >= f->min && v <= f->max))
		return 0;
	long long lo = (long long)f->min, hi = (long long)f->max;
	switch (f->type) {
	case CPU_F_GHZ:
		return err_set(e, NULL, 0, 0, "%s: %g is out of range (expected %g..%g)", f->key, v, f->min, f->max);
	case CPU_F_LAT:
		return err_set(e, NULL, 0, 0, "%s: %.0f cycles is out of range (expected %lld..%lld)", f->key, v, lo, hi);
	case CPU_F_FABRIC:
	case CPU_F_PROTOCOL:
		return err_set(e, NULL, 0, 0, "%s: unknown kind %.0f (expected %lld..%lld)", f->key, v, lo, hi);
	case CPU_F_INT:
	case CPU_F_U32:
	case CPU_F_STR:
	case CPU_F_TOPOLOGY:
		break;
	}
	return err_set(e, NULL, 0, 0, "%s: %.0f is out of range (expected %lld..%lld)", f->key, v, lo, hi);
}

int cpu_model_validate(const struct cpu_model *m, struct err *e)
{
	/* Every plain range first: what follows divides by some of them. */
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++)
		if (field_applies(m, &cpu_model_fields[i]) && check_range(m, &cpu_model_fields[i], e))
			return -1;
	if (m->topology.sockets) {
		if (topo_validate(&m->topology, e))
			return -1;
		if (m->cores > topo_cpus(&m->topology))
			return err_set(e, NULL, 0, 0, "cores: %d is more than the %d logical CPUs of the topology",
				       m->cores, topo_cpus(&m->topology));
	} else {
		if ((m->cores + m->cores_per_socket - 1) / m->cores_per_socket > TOPO_MAX_SOCKETS)
			return err_set(e, NULL, 0, 0, "cores_per_socket: %d cores at %d per socket make more than %d sockets",
				       m->cores, m->cores_per_socket, TOPO_MAX_SOCKETS);
		if ((m->cores + m->cores_per_socket - 1) / m->cores_per_socket > 1 &&
		    m->lat_c2c_remote < m->lat_c2c_local)
			return err_set(e, NULL, 0, 0, "lat_c2c_remote: %u cycles is less than lat_c2c_local (%u): across sockets cannot be faster",
				       m->lat_c2c_remote, m->lat_c2c_local);
	}
	if (!is_pow2(m->line_size)) {
		const struct cpu_model_field *f = &cpu_model_fields[CPU_FIELD_line_size];
		return err_set(e, NULL, 0, 0, "line_size: %u is not a power of two in %.0f..%.0f", m->line_size,
			       f->min, f->max);
	}
	char max[32];
	if (m->l1_size < m->line_size * m->l1_assoc || m->l1_size % (m->line_size * m->l1_assoc) ||
	    !is_pow2(m->l1_size / (m->line_size * m->l1_assoc)))
		return err_set(e, NULL, 0, 0,
			       "l1_size: %u bytes does not make a power-of-two number of sets of %u ways of %u-byte lines (max %s)",
			       m->l1_size, m->l1_assoc, m->line_size, max_bytes(CPU_FIELD_l1_size, max, sizeof max));
	/* The L1s are one pool (cache_init_pooled) whose ways an int indexes:
	 * 0 .. 2^31 - 1 */
	uint64_t l1_lines = (uint64_t)(m->l1_size / m->line_size) * (uint64_t)m->cores;
	if (l1_lines > (1ull << 31))
		return err_set(e, NULL, 0, 0,
			       "l1_size: %d L1s of %u bytes in %u-byte lines are %llu lines in all, more than the simulator holds (2^31)",
			       m->cores, m->l1_size, m->line_size, (unsigned long long)l1_lines);
	if (m->llc_size && (m->llc_size % (m->line_size * m->llc_assoc) ||
			    !is_pow2(m->llc_size / (m->line_size * m->llc_assoc))))
		return err_set(e, NULL, 0, 0,
			       "llc_size: %u bytes does not make a power-of-two number of sets of %u ways (max %s)",
			       m->llc_size, m->llc_assoc, max_bytes(CPU_FIELD_llc_size, max, sizeof max));
	if (m->lat_lock_drain > m->lat_locked_op)
		return err_set(e, NULL, 0, 0,
			       "lat_lock_drain: %u cycles is more than lat_locked_op (%u), the part of a locked RMW's cost it is the end of",
			       m->lat_lock_drain, m->lat_locked_op);
	return 0;
}

const char *cpu_fabric_name(enum fabric_kind f)
{
	return (unsigned)f < CPU_NFABRICS ? cpu_fabric_names[f] : "?";
}

const char *cpu_protocol_name(enum protocol_kind p)
{
	return (unsigned)p < CPU_NPROTOCOLS ? cpu_protocol_names[p] : "?";
}

/* The machine as the model describes it, every level with its latency. */
static void model_topology(const struct cpu_model *m, struct topology *t)
{
	if (m->topology.sockets) {
		*t = m->topology;
		return;
	}
	memset(t, 0, sizeof *t);
	t->cores_per_socket = t->cores_per_cluster = m->cores_per_socket;
	t->threads_per_core = 1;
	t->sockets = (m->cores + m->cores_per_socket - 1) / m->cores_per_socket;
	if (t->sockets > TOPO_MAX_SOCKETS) /* validate refuses; keep the struct in bounds */
		t->sockets = TOPO_MAX_SOCKETS;
	t->numbering = TOPO_NUM_SMT_LAST;
	t->c2c[TOPO_SOCKET] = m->lat_c2c_local;
	t->c2c_hop[1] = m->lat_c2c_remote;
	for (int a = 0; a < t->sockets; a++)
		for (int b = 0; b < t->sockets; b++)
			t->hops[a][b] = a != b;
}

void cpu_model_topology(const struct cpu_model *m, struct topology *t)
{
	model_topology(m, t);
	if (!t->c2c[TOPO_SMT] && !t->c2c[TOPO_CLUSTER])
		return;
	/* Which inner levels two simulated CPUs share: a model of 2-thread
	 * cores run with one thread per core has no SMT pair. */
	int n = m->cores < CPU_MAX_CORES ? m->cores : CPU_MAX_CORES;
	int smt = 0, cluster = 0;
	struct topo_place p[CPU_MAX_CORES];
	for (int i = 0; i < n && !(smt && cluster); i++) {
		p[i] = topo_place_of(t, i);
		for (int j = 0; j < i; j++) {
			if (p[j].cluster != p[i].cluster)
				continue;
			if (p[j].core == p[i].core)
				smt = 1;
			else
				cluster = 1;
		}
	}
	if (!smt)
		t->c2c[TOPO_SMT] = 0;
	if (!cluster)
		t->c2c[TOPO_CLUSTER] = 0;
}

struct topo_place cpu_model_place(const struct cpu_model *m, int cpu)
{
	struct topology t;
	model_topology(m, &t);
	return topo_place_of(&t, cpu);
}

int cpu_model_sockets(const struct cpu_model *m)
{
	struct topology t;
	model_topology(m, &t);
	int n = 0;
	for (int c = 0; c < m->cores; c++) {
		int s = topo_place_of(&t, c).socket;
		if (s + 1 > n)
			n = s + 1;
	}
	return n;
}

int cpu_model_cpus_in_socket0(const struct cpu_model *m)
{
	struct topology t;
	model_topology(m, &t);
	int n = 0;
	for (int c = 0; c < m->cores; c++)
		n += topo_place_of(&t, c).socket == 0;
	return n;
}

uint32_t cpu_model_socket_transfer(const struct cpu_model *m)
{
	return m->topology.sockets ? m->topology.c2c[TOPO_SOCKET] : m->lat_c2c_local;
}
