/* The run totals the report writes under "totals" and an expectation may
 * name (variants.V.totals.NAME). It sits beside the simulator whose
 * statistics its rows read (sim.h's ms_stats and core_stats), so that the
 * loader, which checks expectation names before anything runs, and the
 * report both take it from below. */
#ifndef BOUNCE_TOTALS_H
#define BOUNCE_TOTALS_H

#include <stddef.h>  /* size_t, in the name-checking key macros */

/* Row order is the key order of the JSON report. `value` is an expression
 * over `ms` (const struct ms_stats *, the memory system's totals) and `cs`
 * (const struct core_stats *, the cores' totals). `listed` is the total's
 * place in the loader's messages (its suggestions and its "expected"
 * list), an order older than the report's that users have seen.
 *   X(name, value, listed) */
#define RUN_TOTALS(X)                                   \
	X(bounces,       ms->bounces,                   0)  \
	X(hitm,          ms->hitm,                      1)  \
	X(hitm_remote,   ms->hitm_remote,               2)  \
	X(c2c_transfers, ms->c2c_transfers,             3)  \
	X(invalidations, ms->invalidations,             4)  \
	X(mem_reads,     ms->mem_reads,                 7)  \
	X(writebacks,    ms->writebacks,                8)  \
	X(locked_ops,    cs->locked_ops,                5)  \
	X(locked_cycles, cs->locked_cycles,             6)  \
	X(loads,         ms->loads,                     9)  \
	X(stores,        ms->stores,                    10) \
	X(l1_hits,       ms->l1_hits,                   11) \
	X(l1_misses,     ms->l1_misses,                 12) \
	X(upgrades,      ms->upgrades,                  13) \
	X(evictions,     ms->evictions,                 14) \
	X(llc_hits,      ms->llc_hits,                  15) \
	X(irqs,          cs->irqs_hard + cs->irqs_soft, 16)

#define RUN_TOTAL_ID_(name, value, listed) RUN_TOTAL_##name,
enum { RUN_TOTALS(RUN_TOTAL_ID_) RUN_NTOTALS };

/* "totals.NAME", a total's path in a variant of the report, for the views
 * that read it there: naming a total that does not exist is a build error. */
#define RUN_TOTAL_PATH(name) (&("totals." #name)[(size_t)0 * RUN_TOTAL_##name])

#endif
