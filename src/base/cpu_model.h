/* The CPU model: topology, cache geometry, latencies and protocol of the
 * simulated machine. Filled from cpus/NAME.json by the scenario loader, or
 * directly by tests and benchmarks; the engine only reads it. */
#ifndef BOUNCE_CPU_MODEL_H
#define BOUNCE_CPU_MODEL_H

#include <stdint.h>
#include "base/error.h"

#define CPU_MAX_CORES 1024

enum fabric_kind { FABRIC_BUS, FABRIC_DIRECTORY };
enum protocol_kind { PROTO_MESI, PROTO_MESIF, PROTO_MOESI };

struct cpu_model {
	char name[64];
	char description[256];
	double ghz;                 /* core clock, to turn cycles into seconds */

	/* Topology. The machine has `cores` cores; core c sits on socket
	 * c / cores_per_socket. `cores` may be overridden by a scenario. */
	int cores;
	int cores_per_socket;
	int threads_per_core;       /* SMT; 1 = none. Siblings share nothing in this model yet */

	/* Private L1 data cache. */
	uint32_t l1_size;           /* bytes */
	uint32_t l1_assoc;
	uint32_t line_size;         /* bytes, power of two, 16..256 */

	/* Optional shared last-level cache per socket (llc_size == 0: none). */
	uint32_t llc_size;
	uint32_t llc_assoc;

	/* Latencies in core cycles. */
	uint32_t lat_l1_hit;
	uint32_t lat_llc_hit;
	uint32_t lat_c2c_local;     /* cache-to-cache, same socket */
	uint32_t lat_c2c_remote;    /* cache-to-cache, across sockets */
	uint32_t lat_mem_local;
	uint32_t lat_mem_remote;
	uint32_t lat_locked_op;     /* extra cycles a lock-prefixed RMW costs */
	uint32_t lat_mfence;        /* pipeline cost of mfence beyond draining */
	uint32_t lat_pause;         /* cycles one `pause` takes */
	uint32_t lat_bus;           /* bus fabric: cycles one broadcast holds the bus */
	uint32_t cpi;               /* cycles per simple instruction (>= 1) */

	uint32_t sb_entries;        /* x86-TSO store buffer depth */

	enum fabric_kind fabric;
	enum protocol_kind protocol;

	char source[512];           /* where the latencies come from */
};

/* A plain 8-core MESI bus machine with round numbers, for tests. */
void cpu_model_default(struct cpu_model *m);

/* Check that the model can be simulated with m->cores cores. On error,
 * names the bad field in e->msg (file/line left to the caller) and returns -1. */
int cpu_model_validate(const struct cpu_model *m, struct err *e);

static inline int cpu_model_sockets(const struct cpu_model *m)
{
	return (m->cores + m->cores_per_socket - 1) / m->cores_per_socket;
}

const char *cpu_fabric_name(enum fabric_kind f);
const char *cpu_protocol_name(enum protocol_kind p);

#endif
