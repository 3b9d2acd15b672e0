/* The memory system's statistics, each declared once: the counter structs
 * of memsys.h are built from these tables, and the report (per line, per
 * core, per symbol, per offset, per instruction), the c2c report and the
 * live view's hot-line table take their fields, keys and columns from them. */
#ifndef BOUNCE_MEM_STATS_H
#define BOUNCE_MEM_STATS_H

#include <stddef.h>  /* size_t, in the name-checking key macros */

/* Where a statistic of struct ms_stats is shown (the `shown` column). */
#define MS_IN_LINE   1u  /* each line of the report's shared-line table */
#define MS_IN_CORE   2u  /* each core of the report */
#define MS_IN_SYMBOL 4u  /* each reported symbol, summed over the lines it occupies */
#define MS_IF_UPDATES 8u /* only under a protocol that updates copies (coh_updates) */

/* struct ms_stats, one counter per row, in this order (the report's key
 * order). The same struct serves per core, per line and as totals.
 * `view_head`, `view_w`: the column of the live view's hot-line table
 * (its header and its width in pixels, right-aligned), view_w 0 for none.
 *   X(name, shown, view_head, view_w, what) */
#define MS_STATS(X)                                                                          \
	X(loads,         MS_IN_CORE, "", 0, "accesses issued through ms_load")                \
	X(stores,        MS_IN_CORE, "", 0, "accesses issued through ms_store")               \
	X(rmws,          0, "", 0, "accesses issued through ms_rmw_begin")                       \
	X(l1_hits,       MS_IN_CORE, "", 0, "accesses the L1 served")                         \
	X(l1_misses,     MS_IN_CORE, "", 0, "accesses that made a transaction")               \
	X(bounces,       MS_IN_LINE | MS_IN_CORE | MS_IN_SYMBOL, "bounces", 60,                 \
	  "gained M/E of a line whose previous owner was another core")                      \
	X(hitm,          MS_IN_LINE | MS_IN_CORE | MS_IN_SYMBOL, "HITM", 60,                    \
	  "request found the line dirty in another cache")                                   \
	X(hitm_remote,   MS_IN_LINE | MS_IN_CORE | MS_IN_SYMBOL, "", 0,                         \
	  "HITM whose dirty copy was on another socket")                                     \
	X(c2c_transfers, MS_IN_LINE | MS_IN_CORE | MS_IN_SYMBOL, "", 0,                         \
	  "data supplied cache to cache")                                                    \
	X(invalidations, MS_IN_LINE | MS_IN_CORE | MS_IN_SYMBOL, "inval", 70,                   \
	  "copies invalidated in other caches")                                              \
	X(mem_reads,     MS_IN_LINE | MS_IN_CORE, "", 0, "data read from memory")             \
	X(writebacks,    MS_IN_LINE | MS_IN_CORE, "", 0, "dirty lines written to memory")     \
	X(llc_hits,      0, "", 0, "misses the last-level cache served")                      \
	X(upgrades,      0, "", 0, "S/F/O -> M without data")                                 \
	X(evictions,     0, "", 0, "lines an L1 evicted")                                     \
	X(stall_cycles,  0, "", 0, "sum over transactions of (done - issued)")                \
	X(transactions,  0, "", 0, "coherence transactions issued (misses and upgrades)")     \
	X(gets,          0, "", 0, "read transactions")                                       \
	X(getm,          0, "", 0, "write misses (a store to a copy: upgrades or updates)")           \
	X(load_misses,   0, "", 0, "l1_misses of loads; the rest are of stores and RMWs")    \
	X(updates_sent,  MS_IN_LINE | MS_IN_CORE | MS_IF_UPDATES, "", 0,                      \
	  "update transactions whose store other copies took (update protocols)")           \
	X(updates_received, MS_IN_LINE | MS_IN_CORE | MS_IF_UPDATES, "", 0,                   \
	  "copies in other caches that took an update")

/* struct ms_offset_stats' counters: per byte offset of a line. `to_symbol`
 * (YES or NO): a reported symbol takes this statistic from the offsets
 * inside it rather than from whole lines (two symbols may share a line;
 * such a row names a row of MS_STATS shown MS_IN_SYMBOL). `c2c_head`: its
 * column in the c2c report's offset table.
 *   X(name, to_symbol, c2c_head) */
#define MS_OFFSET_STATS(X)              \
	X(reads,       NO,  "reads")    \
	X(writes,      NO,  "writes")   \
	X(hitm,        YES, "hitm")     \
	X(hitm_remote, YES, "remote")

/* struct ms_pc_stats' counters: what one instruction's misses did to a
 * line (perf c2c's "which code").   X(name, c2c_head) */
#define MS_PC_STATS(X)              \
	X(hitm,        "hitm")      \
	X(hitm_remote, "remote")    \
	X(bounces,     "bounces")

/* MS_STAT_name: a row's index; MS_STAT_BIT(name): its bit in a set of rows.
 * Naming a row that does not exist is a build error. */
#define MS_STAT_ID_(name, shown, view_head, view_w, what) MS_STAT_##name,
enum { MS_STATS(MS_STAT_ID_) MS_NSTATS };
#undef MS_STAT_ID_
#define MS_STAT_BIT(name) (1ull << MS_STAT_##name)
/* The row's key in the report. */
#define MS_STAT_KEY(name) (&(#name)[(size_t)0 * MS_STAT_##name])

/* For the YES/NO columns: MS_IF_YES(x) is x, MS_IF_NO(x) is nothing. */
#define MS_IF_YES(x) x
#define MS_IF_NO(x)

/* The rows of MS_STATS a symbol takes from its offsets. */
#define MS_BY_OFFSET_BIT_(name, to_symbol, c2c_head) MS_IF_##to_symbol(| MS_STAT_BIT(name))
#define MS_BY_OFFSET (0ull MS_OFFSET_STATS(MS_BY_OFFSET_BIT_))

#endif
