/* The CPU model: topology, cache geometry, latencies and protocol of the
 * simulated machine. Filled from cpus/NAME.json by the scenario loader, or
 * directly by tests and benchmarks; the engine only reads it. */
#ifndef BOUNCE_CPU_MODEL_H
#define BOUNCE_CPU_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"
#include "base/topology.h"

#define CPU_MAX_CORES 1024

/* The fabrics and protocols by name, in enum order: the names are what a
 * CPU-model file writes and what reports print. CPU_PROTOCOLS is the
 * protocols' registration list, the one place besides its table file
 * (src/mem/coh_*.c) where a protocol appears: its enum, its name and the
 * name of its table (src/mem/coherence.h), which base/ only names. */
#define CPU_FABRICS(X) X(FABRIC_BUS, "bus") X(FABRIC_DIRECTORY, "directory")
#define CPU_PROTOCOLS(X)                       \
	X(PROTO_MESI,   "MESI",   coh_mesi)    \
	X(PROTO_MESIF,  "MESIF",  coh_mesif)   \
	X(PROTO_MOESI,  "MOESI",  coh_moesi)   \
	X(PROTO_MSI,    "MSI",    coh_msi)     \
	X(PROTO_DRAGON, "Dragon", coh_dragon)

#define CPU_ENUM_ID_(id, name) id,
#define CPU_ENUM_SLOT_(id, name) id##_SLOT_,
#define CPU_PROTO_ID_(id, name, table) id,
#define CPU_PROTO_SLOT_(id, name, table) id##_SLOT_,
enum fabric_kind { CPU_FABRICS(CPU_ENUM_ID_) };
enum protocol_kind { CPU_PROTOCOLS(CPU_PROTO_ID_) };
/* The counts sit outside the kinds' enums, so a switch over the kinds
 * need not name them. */
enum { CPU_FABRICS(CPU_ENUM_SLOT_) CPU_NFABRICS };
enum { CPU_PROTOCOLS(CPU_PROTO_SLOT_) CPU_NPROTOCOLS };

struct cpu_model {
	char name[64];
	char description[512];
	double ghz;                 /* core clock, to turn cycles into seconds */

	/* The machine simulates `cores` logical CPUs (a scenario may override
	 * it), placed by `topology` (base/topology.h). A model without one
	 * (topology.sockets == 0) gives the flat two-distance shorthand instead:
	 * cores_per_socket CPUs per socket, transfers of lat_c2c_local cycles
	 * inside a socket and lat_c2c_remote across; cpu_model_topology turns
	 * it into a topology of as many 1-hop sockets as `cores` needs. */
	int cores;
	struct topology topology;
	int cores_per_socket;       /* shorthand only */
	int threads_per_core;       /* shorthand only: documented, not simulated */

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
	uint32_t lat_c2c_local;     /* shorthand only: transfer inside a socket */
	uint32_t lat_c2c_remote;    /* shorthand only: transfer across sockets */
	uint32_t lat_mem_local;
	uint32_t lat_mem_remote;
	uint32_t lat_locked_op;     /* extra cycles a lock-prefixed RMW costs */
	/* How a line leaves a core that keeps issuing locked RMWs while
	 * another core's snoop waits for it. A locked RMW holds the line from
	 * its access until its store is written; a snoop arriving meanwhile
	 * waits. The last lat_lock_drain cycles of the RMW's cost (of
	 * lat_locked_op, so at most that) are its store leaving the store
	 * buffer: the line is no longer locked, and the core's next locked
	 * RMW waits for the drain before it may take the line again. A snoop
	 * that waited takes the line lat_lock_snoop cycles after the lock
	 * ends; if the core is then in a locked RMW it began meanwhile, the
	 * snoop waits for that one's end and takes the line there, with no
	 * grace again: locked RMWs begun in the grace keep the line, later
	 * ones find it gone. Both 0: the snoop is handled the cycle the lock
	 * ends, before the core's next instruction. */
	uint32_t lat_lock_drain;
	uint32_t lat_lock_snoop;
	uint32_t lat_mfence;        /* pipeline cost of mfence beyond draining */
	uint32_t lat_pause;         /* cycles one `pause` takes */
	uint32_t lat_irq_entry;     /* delivery to the handler's first instruction */
	uint32_t lat_irq_exit;      /* the handler's return back to the interrupted code */
	uint32_t lat_bus;           /* bus fabric: cycles one broadcast holds the bus */
	uint32_t cpi;               /* cycles per simple instruction (>= 1) */
	/* Instructions retired per cpi cycles: an out-of-order core issues
	 * several independent instructions at once, so a loop's bookkeeping
	 * (mov, dec, jnz) hides beside a locked RMW instead of adding to it.
	 * Memory and fence latencies are charged apart and stay whole. */
	uint32_t issue_width;
	/* A load that takes its value from a store still in the buffer:
	 * 0 (unset) costs an L1 hit, whenever it comes; else it completes
	 * this many cycles after that store executed, at the earliest, and
	 * costs only the wait. A chain of read-modify-writes of one address
	 * then takes this per link: store-to-load forwarding (about 5 cycles
	 * on Intel cores), or memory renaming (1 on recent AMD cores). */
	uint32_t lat_store_forward;
	/* Stores the L1 takes from the store buffer per cycle (its store
	 * ports): 0 (unset) takes every store whose time has come at once.
	 * It matters when stores pile up behind a line that is away (false
	 * sharing): they then leave this many a cycle, and a snoop that
	 * arrives meanwhile takes the line from the rest. */
	uint32_t store_commit_width;
	/* What the teaching simulators model (docs/replay.md); 0 keeps the
	 * topology's timing and MESI's memory supply. */
	uint32_t lat_writeback;     /* a dirty line written back delays its writer this much */
	uint32_t lat_store_shared;  /* an UPGRADE (store to a Shared line) costs this from issue */
	uint32_t c2c_clean;         /* 1: clean lines are supplied cache to cache (Illinois MESI) */
	/* 1: a snooped holder answers the agent that serves the request (the
	 * LLC slice or caching agent of a ring or mesh with an inclusive LLC
	 * or snoop filter), which sends the data or ack on to the requester;
	 * 0: straight to the requester. It decides the window between an
	 * owner's fill and the next request's snoop (docs/architecture.md,
	 * "Ownership under a waiting snoop"). */
	uint32_t c2c_via_agent;

	uint32_t sb_entries;        /* x86-TSO store buffer depth */

	enum fabric_kind fabric;
	enum protocol_kind protocol;

	char source[2048];          /* where the latencies come from, with citations */
};

/* Every field of struct cpu_model as a CPU-model file names it: its JSON
 * type, when it must be given, the range of its values and its default.
 * The range is the only statement of a field's plain limits: the loader
 * refuses a value outside it at the value's position, and
 * cpu_model_validate refuses a model built in code with one; what relates
 * several fields (a cache's geometry, one latency against another) is
 * cpu_model_validate's. The default is the value of a key a file leaves
 * out (cpu_model_defaults), meaningless for a required one. The loader
 * walks this table, reads each key into the member of the same name,
 * rejects any other key, and tests/check_scenario.c holds
 * scenarios/scenario.schema.json to it, so a new field is a member above
 * and one row here; a field of a new shape (a topology object, say) adds
 * a cpu_field_type and its case in cpu_json.c's read_field and in
 * cpu_model.c's field accessors. Row order is the order keys are read,
 * checked and listed in messages.
 *   X(member, type, need, min, max, default) */
#define CPU_MODEL_FIELDS(X)                                                             \
	X(name,             STR,      OPTIONAL, 0, 0, 0)                                \
	X(description,      STR,      OPTIONAL, 0, 0, 0)                                \
	X(source,           STR,      OPTIONAL, 0, 0, 0)                                \
	X(ghz,              GHZ,      ALWAYS,   0.001, 99.0, 0)                         \
	X(cores,            INT,      ALWAYS,   1, CPU_MAX_CORES, 0)                    \
	X(topology,         TOPOLOGY, OPTIONAL, 0, 0, 0)                                \
	X(cores_per_socket, INT,      IF_FLAT,  1, CPU_MAX_CORES, 0)                    \
	X(threads_per_core, INT,      FLAT_ONLY, 1, 8, 1)                               \
	X(l1_size,          U32,      ALWAYS,   1, 64 << 20, 0)                         \
	X(l1_assoc,         U32,      ALWAYS,   1, 64, 0)                               \
	X(line_size,        U32,      ALWAYS,   16, 256, 0)                             \
	X(llc_size,         U32,      OPTIONAL, 0, 1 << 30, 0)                          \
	X(llc_assoc,        U32,      IF_LLC,   1, 64, 16)                              \
	X(lat_l1_hit,       LAT,      ALWAYS,   1, 100000, 0)                           \
	X(lat_llc_hit,      LAT,      IF_LLC,   0, 100000, 0)                           \
	X(lat_c2c_local,    LAT,      IF_FLAT,  1, 100000, 0)                           \
	X(lat_c2c_remote,   LAT,      IF_FLAT,  0, 100000, 0)                           \
	X(lat_mem_local,    LAT,      ALWAYS,   1, 100000, 0)                           \
	X(lat_mem_remote,   LAT,      ALWAYS,   0, 100000, 0)                           \
	X(lat_locked_op,    LAT,      ALWAYS,   0, 100000, 0)                           \
	X(lat_lock_drain,   LAT,      OPTIONAL, 0, 100000, 0)                           \
	X(lat_lock_snoop,   LAT,      OPTIONAL, 0, 100000, 0)                           \
	X(lat_mfence,       LAT,      ALWAYS,   0, 100000, 0)                           \
	X(lat_pause,        LAT,      ALWAYS,   0, 100000, 0)                           \
	X(lat_irq_entry,    LAT,      OPTIONAL, 0, 100000, CPU_LAT_IRQ_DEFAULT)         \
	X(lat_irq_exit,     LAT,      OPTIONAL, 0, 100000, CPU_LAT_IRQ_DEFAULT)         \
	X(lat_bus,          LAT,      IF_BUS,   0, 100000, 0)                           \
	X(cpi,              U32,      OPTIONAL, 1, 1000, 1)                             \
	X(issue_width,      U32,      OPTIONAL, 1, 8, 1)                                \
	X(lat_store_forward, LAT,     OPTIONAL, 0, 100000, 0)                           \
	X(store_commit_width, U32,    OPTIONAL, 0, 8, 0)                                \
	X(lat_writeback,    LAT,      OPTIONAL, 0, 100000, 0)                           \
	X(lat_store_shared, LAT,      OPTIONAL, 0, 100000, 0)                           \
	X(c2c_clean,        U32,      OPTIONAL, 0, 1, 0)                                \
	X(c2c_via_agent,    U32,      OPTIONAL, 0, 1, 0)                                \
	X(sb_entries,       U32,      ALWAYS,   1, 256, 0)                              \
	X(fabric,           FABRIC,   ALWAYS,   0, CPU_NFABRICS - 1, 0)                 \
	X(protocol,         PROTOCOL, ALWAYS,   0, CPU_NPROTOCOLS - 1, 0)

/* Interrupt entry and exit when a model does not give them: an estimate,
 * not a measurement. IDT delivery plus the kernel's register save, and
 * IRET (serializing), each cost a few hundred cycles on recent x86 parts. */
#define CPU_LAT_IRQ_DEFAULT 250

enum cpu_field_type {
	CPU_F_STR,        /* char array, NUL-terminated */
	CPU_F_INT,        /* int */
	CPU_F_U32,        /* uint32_t */
	CPU_F_LAT,        /* uint32_t cycles */
	CPU_F_GHZ,        /* double */
	CPU_F_FABRIC,     /* enum fabric_kind, by cpu_fabric_names */
	CPU_F_PROTOCOL,   /* enum protocol_kind, by cpu_protocol_names */
	CPU_F_TOPOLOGY,   /* struct topology, an object read by load/topology_json.c */
};

/* When a file must give the field: otherwise a default applies (the
 * conditional ones have no meaning without an LLC / a bus). The flat
 * shorthand's keys say what "topology" says, so a model gives one or the
 * other: IF_FLAT keys are required without "topology", FLAT_ONLY keys are
 * optional without it, and both are refused next to it. */
enum cpu_field_need {
	CPU_NEED_ALWAYS, CPU_NEED_OPTIONAL, CPU_NEED_IF_LLC, CPU_NEED_IF_BUS,
	CPU_NEED_IF_FLAT, CPU_NEED_FLAT_ONLY,
};

struct cpu_model_field {
	const char *key;
	enum cpu_field_type type;
	enum cpu_field_need need;
	size_t off, size;           /* of the member in struct cpu_model */
	double min, max;            /* inclusive; exact for every integer bound here */
	double def;                 /* a numeric field's default */
};

#define CPU_FIELD_ID_(member, ...) CPU_FIELD_##member,
enum { CPU_MODEL_FIELDS(CPU_FIELD_ID_) CPU_MODEL_NFIELDS };
extern const struct cpu_model_field cpu_model_fields[CPU_MODEL_NFIELDS];
/* The same keys, NULL-terminated, for key checks and suggestions. */
extern const char *const cpu_model_keys[CPU_MODEL_NFIELDS + 1];
/* Fabric and protocol names by enum value, NULL-terminated. */
extern const char *const cpu_fabric_names[CPU_NFABRICS + 1];
extern const char *const cpu_protocol_names[CPU_NPROTOCOLS + 1];

/* Every field at its default: the table's, which is what a file that
 * leaves the key out gets, and 0 (nothing, none) for the rest. */
void cpu_model_defaults(struct cpu_model *m);
/* A numeric field's value, and set from one, by its row's type (how the
 * member is stored); a string or topology field reads 0 and is not set. */
double cpu_model_field_get(const struct cpu_model *m, const struct cpu_model_field *f);
void cpu_model_field_set(struct cpu_model *m, const struct cpu_model_field *f, double v);
/* A plain 8-core MESI bus machine with round numbers, for tests. */
void cpu_model_default(struct cpu_model *m);

/* Check that the model can be simulated with m->cores cores: every field
 * that applies to it in its table range, then what relates several. On
 * error, names the bad field in e->msg ("field: ...", file/line left to
 * the caller) and returns -1. */
int cpu_model_validate(const struct cpu_model *m, struct err *e);

/* The topology the engine simulates: the model's own, or the one the flat
 * shorthand describes for m->cores CPUs. An inner level (SMT, cluster)
 * that no two of the m->cores simulated CPUs share gets c2c 0: no transfer
 * uses it, so nothing sized from the latencies (the simulator's lookahead)
 * may count it, and a model run with one thread per core behaves as the
 * same machine without SMT. Valid once cpu_model_validate accepted the
 * model (so not for topo_validate). */
void cpu_model_topology(const struct cpu_model *m, struct topology *t);
/* Where logical CPU `cpu` sits, and how many sockets the simulated CPUs span. */
struct topo_place cpu_model_place(const struct cpu_model *m, int cpu);
int cpu_model_sockets(const struct cpu_model *m);
/* Cycles of a transfer between two cores of one socket (outside clusters):
 * the machine's typical coherence latency, for pacing views. */
uint32_t cpu_model_socket_transfer(const struct cpu_model *m);
/* How many of the simulated CPUs sit on socket 0: the width of one socket
 * in views that draw sockets as blocks of consecutive CPUs. */
int cpu_model_cpus_in_socket0(const struct cpu_model *m);

const char *cpu_fabric_name(enum fabric_kind f);
const char *cpu_protocol_name(enum protocol_kind p);

#endif
