/* What a core's cycles are spent on, with every name an activity goes by
 * (report key, trace name, UI label): the engine, the reports and the UI
 * all index by enum core_activity, so a new activity is one row. */
#ifndef BOUNCE_ACTIVITY_H
#define BOUNCE_ACTIVITY_H

/* Activities that count cycles. Every cycle of a core up to its halt is
 * counted in exactly one of them; cycles in an interrupt handler all count
 * as IRQ. The report key and the trace name differ for IRQ only because
 * both outputs were published that way.
 *   X(ID, report key, trace name, UI label) */
#define CORE_ACTIVITIES(X)                                                       \
	X(BUSY,     "busy",       "busy",       "executing")          /* cpi per instruction, work N, fences */ \
	X(L1_HIT,   "l1_hit",     "l1_hit",     "L1 hit")             /* L1 hit latency of loads */ \
	X(MISS,     "miss_stall", "miss_stall", "miss stall")         /* waiting for a coherence transaction */ \
	X(SB_STALL, "sb_stall",   "sb_stall",   "store-buffer stall") /* store buffer full, or draining it (mfence, lock, hlt) */ \
	X(LOCKED,   "locked",     "locked",     "locked op")          /* a locked RMW holding its line */ \
	X(SPIN,     "spin",       "spin",       "spinning")           /* pause */ \
	X(IRQ,      "irq",        "interrupt",  "interrupt")          /* in an interrupt handler */

/* States a core can be in that count no cycles; they follow the counted
 * activities in the enum. Same columns; no report key. */
#define CORE_STATES(X)                                                           \
	X(HALTED,   NULL,         "halted",     "halted")             /* executed hlt */ \
	X(IDLE,     NULL,         "idle",       "idle")               /* no thread, or not started yet (start skew) */

#define CORE_ACT_ENUM_(id, key, trace, label) CORE_ACT_##id,
#define CORE_ACT_SLOT_(id, key, trace, label) CORE_CYCLES_##id,
enum core_activity {
	CORE_ACTIVITIES(CORE_ACT_ENUM_)
	CORE_STATES(CORE_ACT_ENUM_)
	CORE_NACTS
};
/* The number of counted activities, the first ones of the enum. */
enum { CORE_ACTIVITIES(CORE_ACT_SLOT_) CORE_NCYCLES };

struct core_activity_names {
	const char *report;        /* NULL for a state */
	const char *trace;
	const char *label;
};
extern const struct core_activity_names core_activity_names[CORE_NACTS];

/* The trace name, or "?" for a value that is no activity. */
const char *core_activity_name(enum core_activity a);

#endif
