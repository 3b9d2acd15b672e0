/* This host's topology: which logical CPUs are SMT siblings, which cores
 * share a cache smaller than the socket (a cluster), which socket each is
 * on, how Linux numbered them, and the L1 / last-level cache geometry.
 * Read with hwloc, or from /sys/devices/system/cpu when hwloc fails. */
#ifndef BOUNCE_HOST_TOPOLOGY_H
#define BOUNCE_HOST_TOPOLOGY_H

#include <stdint.h>
#include "base/error.h"
#include "base/topology.h"

#define HOST_MAX_CPUS 1024
#define HOST_MAX_CACHES 4 /* data or unified levels per CPU (L1..L4) */

/* One data or unified cache as one CPU sees it. `share` names the group of
 * CPUs sharing it (the lowest CPU id in it), so CPUs with the same share
 * at a level share that cache. */
struct host_cache {
	int level;
	uint32_t size, ways, line;
	int share, nshare;
};

/* What the sources report per logical CPU, before anything is derived. */
struct host_cpu_raw {
	int id;
	int package;      /* physical_package_id */
	int core;         /* lowest CPU id among its SMT siblings: names the physical core */
	int nsiblings;
	struct host_cache cache[HOST_MAX_CACHES];
	int ncache;
};

struct host_topo {
	int ncpus;                       /* online logical CPUs */
	int id[HOST_MAX_CPUS];           /* their ids, ascending */
	/* Derived, in the CPU model's terms. */
	int sockets, cores_per_socket, cores_per_cluster, threads_per_core;
	enum topo_numbering numbering;
	int cluster_level;               /* the cache level that makes clusters; 0 = none */
	uint32_t l1_size, l1_ways, line;
	int llc_level;                   /* 0 = no shared cache found */
	uint32_t llc_size, llc_ways;
	int llc_nshare;                  /* logical CPUs sharing one LLC instance */
	uint32_t l2_size;                /* for sizing the LLC probe; 0 = unknown */
	char from[16];                   /* "hwloc" or "sysfs" */
	char notes[512];                 /* irregularities found, "" when none */
	struct host_cpu_raw cpu[HOST_MAX_CPUS];
};

/* hwloc first, then sysfs. On failure e says why and -1 is returned. */
int host_topo_detect(struct host_topo *t, struct err *e);
/* Read a sysfs CPU tree rooted at `root` (normally /sys/devices/system/cpu;
 * tests pass a fixture) and derive the topology. */
int host_topo_from_sysfs(const char *root, struct host_topo *t, struct err *e);
/* Derive the model's terms from t->cpu[0..ncpus-1] (both readers end here). */
int host_topo_derive(struct host_topo *t, struct err *e);

/* The closest level logical CPUs a and b (indexes into t->cpu) share. */
enum topo_level host_topo_level(const struct host_topo *t, int a, int b);
/* A representative pair for `level`: CPU index 0 and the lowest index at
 * that distance from it. Returns 0 and sets *b, or -1 when the host has no
 * such pair (no SMT, a single socket, ...). */
int host_topo_pair(const struct host_topo *t, enum topo_level level, int *b);

/* Parse a Linux CPU list ("0-3,8,10-11") into ids; returns how many were
 * read, or -1 when malformed or longer than max. */
int host_parse_cpulist(const char *s, int *ids, int max);

/* Append to a "; "-separated list in a fixed buffer, truncating quietly:
 * the notes and the not-measured lists of calibrate. */
void host_list_add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
