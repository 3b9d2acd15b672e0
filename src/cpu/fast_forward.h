/* Fast-forward of waiting cores: a core whose loop only reads lines it
 * holds, unchanged, and comes back to the same state each time round is
 * parked without events until something it reads may change, then resumed
 * where executing would have brought it (docs/architecture.md: the rule). */
#ifndef BOUNCE_FAST_FORWARD_H
#define BOUNCE_FAST_FORWARD_H

#include "cpu/core.h"

/* core_ff_probe's answer beside enum core_step's: the core is parked. */
#define CORE_FF_PARKED 4

/* Whether this exec event of a core without interrupt sources or an
 * activity observer should run under the probe: one under way goes on, a
 * failed one waits out its backoff, and a store buffer with stores in it
 * rules one out. Inline: it is asked at every such event. */
static inline int core_ff_wanted(struct core *c)
{
	if (c->ff_probing)
		return 1;
	if (c->ff_skip) {
		c->ff_skip--;
		return 0;
	}
	return c->sb.n == 0;
}

/* Run the core's instructions (its run-ahead loop's steps) while they
 * qualify; park it when its loop has come round to the state it had.
 * Returns a core_step value, or CORE_FF_PARKED. */
int core_ff_probe(struct core_env *env, struct core *c);
/* A message for parked core c was scheduled to arrive at t (or its lines
 * changed without one at t): resume it at its last iteration start at or
 * before t, with an exec event there. Returns that cycle, or UINT64_MAX
 * when the event queue could not grow (env->err). */
uint64_t core_ff_unpark(struct core_env *env, struct core *c, uint64_t t);
/* Credit parked core c its iterations that start at or before t; it stays
 * parked (a report read mid-run sees it up to date). */
void core_ff_settle(struct core_env *env, struct core *c, uint64_t t);
/* The run stops at `limit`: bring parked core c to the first instruction
 * boundary at or past it, as executing would have. Returns -1 on a fault. */
int core_ff_finish(struct core_env *env, struct core *c, uint64_t limit);

#endif
