/* CPU-model defaults and validation. Validation is the one place that
 * decides what the engine can simulate, so every limit is stated here. */
#include "config.h"
#include "base/cpu_model.h"

#include <string.h>

#define FIELD_ROW(k, type, need, lo, hi)                                               \
	{ #k, CPU_F_##type, CPU_NEED_##need, offsetof(struct cpu_model, k),             \
	  sizeof ((struct cpu_model *)0)->k, lo, hi },
const struct cpu_model_field cpu_model_fields[CPU_MODEL_NFIELDS] = { CPU_MODEL_FIELDS(FIELD_ROW) };

#define FIELD_KEY(k, ...) #k,
const char *const cpu_model_keys[CPU_MODEL_NFIELDS + 1] = { CPU_MODEL_FIELDS(FIELD_KEY) NULL };

#define KIND_NAME(id, name) [id] = (name),
const char *const cpu_fabric_names[CPU_NFABRICS + 1] = { CPU_FABRICS(KIND_NAME) NULL };
#define PROTO_NAME(id, name, table) [id] = (name),
const char *const cpu_protocol_names[CPU_NPROTOCOLS + 1] = { CPU_PROTOCOLS(PROTO_NAME) NULL };

void cpu_model_default(struct cpu_model *m)
{
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "test-8way");
	snprintf(m->description, sizeof m->description, "round-number 8-core MESI bus machine for tests");
	m->ghz = 1.0;
	m->cores = 8;
	m->cores_per_socket = 4;
	m->threads_per_core = 1;
	m->l1_size = 32 * 1024;
	m->l1_assoc = 8;
	m->line_size = 64;
	m->llc_size = 0;
	m->llc_assoc = 16;
	m->lat_l1_hit = 4;
	m->lat_llc_hit = 40;
	m->lat_c2c_local = 40;   /* legs of 20 */
	m->lat_c2c_remote = 70;  /* legs across of 20 + 30 */
	m->lat_mem_local = 200;
	m->lat_mem_remote = 300;
	m->lat_locked_op = 20;
	m->lat_mfence = 30;
	m->lat_pause = 10;
	m->lat_irq_entry = CPU_LAT_IRQ_DEFAULT;
	m->lat_irq_exit = CPU_LAT_IRQ_DEFAULT;
	m->lat_bus = 8;
	m->cpi = 1;
	m->issue_width = 1;
	m->sb_entries = 8;
	m->fabric = FABRIC_BUS;
	m->protocol = PROTO_MESI;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int cpu_model_validate(const struct cpu_model *m, struct err *e)
{
	if (m->cores < 1 || m->cores > CPU_MAX_CORES)
		return err_set(e, NULL, 0, 0, "cores: %d is out of range (expected 1..%d)",
			       m->cores, CPU_MAX_CORES);
	if (m->topology.sockets) {
		if (topo_validate(&m->topology, e))
			return -1;
		if (m->cores > topo_cpus(&m->topology))
			return err_set(e, NULL, 0, 0, "cores: %d is more than the %d logical CPUs of the topology",
				       m->cores, topo_cpus(&m->topology));
	} else {
		if (m->cores_per_socket < 1 || m->cores_per_socket > CPU_MAX_CORES)
			return err_set(e, NULL, 0, 0, "cores_per_socket: %d is out of range (expected 1..%d)",
				       m->cores_per_socket, CPU_MAX_CORES);
		if (m->threads_per_core < 1 || m->threads_per_core > 8)
			return err_set(e, NULL, 0, 0, "threads_per_core: %d is out of range (expected 1..8)",
				       m->threads_per_core);
		if ((m->cores + m->cores_per_socket - 1) / m->cores_per_socket > TOPO_MAX_SOCKETS)
			return err_set(e, NULL, 0, 0, "cores_per_socket: %d cores at %d per socket make more than %d sockets",
				       m->cores, m->cores_per_socket, TOPO_MAX_SOCKETS);
		if (m->lat_c2c_local < 1)
			return err_set(e, NULL, 0, 0, "lat_c2c_local: must be at least 1 cycle");
		if ((m->cores + m->cores_per_socket - 1) / m->cores_per_socket > 1 &&
		    m->lat_c2c_remote < m->lat_c2c_local)
			return err_set(e, NULL, 0, 0, "lat_c2c_remote: %u cycles is less than lat_c2c_local (%u): across sockets cannot be faster",
				       m->lat_c2c_remote, m->lat_c2c_local);
	}
	if (!(m->ghz > 0.0 && m->ghz < 100.0))
		return err_set(e, NULL, 0, 0, "ghz: %g is out of range (expected 0 < ghz < 100)", m->ghz);
	if (!is_pow2(m->line_size) || m->line_size < 16 || m->line_size > 256)
		return err_set(e, NULL, 0, 0, "line_size: %u is not a power of two in 16..256",
			       m->line_size);
	if (m->l1_assoc < 1 || m->l1_assoc > 64)
		return err_set(e, NULL, 0, 0, "l1_assoc: %u is out of range (expected 1..64)", m->l1_assoc);
	if (m->l1_size < m->line_size * m->l1_assoc || m->l1_size > (64u << 20) ||
	    m->l1_size % (m->line_size * m->l1_assoc) ||
	    !is_pow2(m->l1_size / (m->line_size * m->l1_assoc)))
		return err_set(e, NULL, 0, 0,
			       "l1_size: %u bytes does not make a power-of-two number of sets of %u ways of %u-byte lines (max 64 MiB)",
			       m->l1_size, m->l1_assoc, m->line_size);
	/* The L1s are one pool (cache_init_pooled) whose ways an int indexes:
	 * 0 .. 2^31 - 1 */
	uint64_t l1_lines = (uint64_t)(m->l1_size / m->line_size) * (uint64_t)m->cores;
	if (l1_lines > (1ull << 31))
		return err_set(e, NULL, 0, 0,
			       "l1_size: %d L1s of %u bytes in %u-byte lines are %llu lines in all, more than the simulator holds (2^31)",
			       m->cores, m->l1_size, m->line_size, (unsigned long long)l1_lines);
	if (m->llc_size) {
		if (m->llc_assoc < 1 || m->llc_assoc > 64)
			return err_set(e, NULL, 0, 0, "llc_assoc: %u is out of range (expected 1..64)",
				       m->llc_assoc);
		if (m->llc_size % (m->line_size * m->llc_assoc) ||
		    !is_pow2(m->llc_size / (m->line_size * m->llc_assoc)) || m->llc_size > (1u << 30))
			return err_set(e, NULL, 0, 0,
				       "llc_size: %u bytes does not make a power-of-two number of sets of %u ways (max 1 GiB)",
				       m->llc_size, m->llc_assoc);
	}
	if (m->cpi < 1 || m->cpi > 1000)
		return err_set(e, NULL, 0, 0, "cpi: %u is out of range (expected 1..1000)", m->cpi);
	if (m->issue_width < 1 || m->issue_width > 8)
		return err_set(e, NULL, 0, 0, "issue_width: %u is out of range (expected 1..8)", m->issue_width);
	if (m->store_commit_width > 8)
		return err_set(e, NULL, 0, 0, "store_commit_width: %u is out of range (expected 0..8)",
			       m->store_commit_width);
	if (m->sb_entries < 1 || m->sb_entries > 256)
		return err_set(e, NULL, 0, 0, "sb_entries: %u is out of range (expected 1..256)", m->sb_entries);
	/* Latencies are all bounded alike; the table says which fields they are. */
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++) {
		const struct cpu_model_field *f = &cpu_model_fields[i];
		uint32_t v;
		if (f->type != CPU_F_LAT)
			continue;
		memcpy(&v, (const char *)m + f->off, sizeof v);
		if (v > 100000)
			return err_set(e, NULL, 0, 0, "%s: %u cycles is out of range (expected 0..100000)",
				       f->key, v);
	}
	if (m->lat_l1_hit < 1)
		return err_set(e, NULL, 0, 0, "lat_l1_hit: must be at least 1 cycle");
	if (m->lat_mem_local < 1)
		return err_set(e, NULL, 0, 0, "lat_mem_local: must be at least 1 cycle");
	if (m->lat_lock_drain > m->lat_locked_op)
		return err_set(e, NULL, 0, 0,
			       "lat_lock_drain: %u cycles is more than lat_locked_op (%u), the part of a locked RMW's cost it is the end of",
			       m->lat_lock_drain, m->lat_locked_op);
	if ((unsigned)m->fabric >= CPU_NFABRICS)
		return err_set(e, NULL, 0, 0, "fabric: unknown kind %d", (int)m->fabric);
	if ((unsigned)m->protocol >= CPU_NPROTOCOLS)
		return err_set(e, NULL, 0, 0, "protocol: unknown kind %d", (int)m->protocol);
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
