/* The x86 core: the interpreter over the pre-decoded program (one switch
 * over each instruction's form, the commonest ones specialized), x86 flag
 * semantics, the cost model of each instruction, the store buffer's drain,
 * locked RMWs and interrupt entry and exit. */
#include "config.h"
#include "cpu/core.h"
#include "cpu/core_forms.h"
#include "cpu/alu_wide.h"
#include "cpu/ghost.h"
#include "cpu/fast_forward.h"
#include "base/invariant.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* What became of an instruction: the one decision that sets what it costs
 * and whether it counts. Each case of execute() returns one of these and
 * core_exec_event applies it in one place (its retire switch). The access
 * helpers below (load, store, wait_sb, ...) return the same values, ST_OK
 * meaning there "nothing in the way, go on".
 *
 * A core runs ahead of the event queue while it hits in L1; anything that
 * needs a coherence transaction is performed only when the core's clock
 * equals the global time, so that transactions happen in (cycle, seq)
 * order. That is why an instruction may have to stop and start over: it
 * does so before any architectural side effect (the outcomes marked
 * "again" below), and runs from its start when the core goes on. A store
 * buffer stall charged before it stopped stays charged: it was spent. */
enum step {
	/* Executed; pc moves to the next instruction. Charged: what its
	 * accesses cost (L1 hit, miss, fence), then cpi CORE_ACT_BUSY
	 * cycles. Counted. */
	ST_OK,
	/* Executed, and it set pc itself (jmp, jcc, call, ret). Charged and
	 * counted as ST_OK. */
	ST_JUMP,
	/* Executed, and it charged its own time instead of cpi: a locked RMW
	 * (its hold of the line, CORE_ACT_LOCKED), pause (CORE_ACT_SPIN),
	 * work N (CORE_ACT_BUSY). pc moves on; counted. */
	ST_TIMED,
	/* A pseudo-instruction outside the simulated machine (mark, the ghost
	 * counters): pc moves on; no time; not counted. */
	ST_FREE,
	/* hlt, or the ret of a thread's entry function, once the store
	 * buffer has drained: counted, no cpi; pc stays on the instruction
	 * and the core halts. */
	ST_HALT,
	/* Again, now: the store buffer made room within the lookahead (the
	 * stall, if any, is charged) and the instruction starts over at the
	 * new clock. pc unchanged; not counted. */
	ST_RETRY,
	/* Again, later: it needs a coherence transaction while the core's
	 * clock is ahead of global time. The core leaves with an exec event
	 * at its clock. pc unchanged; not counted. */
	ST_YIELD,
	/* Again, when woken: the core sleeps (CORE_WAIT_SB) until its store
	 * buffer drains far enough; the drain event charges the wait as
	 * CORE_ACT_SB_STALL and schedules the core. pc unchanged; not counted. */
	ST_WAIT,
	/* A fault in the user's program (env->err points at the instruction)
	 * or a broken invariant: the run ends. */
	ST_FAULT,
};

#define NONE UINT64_MAX

/* For the interpreter's own helpers, used from several cases: left to its
 * heuristics GCC calls them out of line, and an L1-hit instruction then
 * costs the host about 14% more. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
/* t + d, NONE for NONE (and past it) */
static inline uint64_t later(uint64_t t, uint64_t d) { return t > NONE - d ? NONE : t + d; }

/* ---- accounting ---- */

/* A core's place in the array is its number shifted: a size that is not
 * a power of two made it a multiply on every event (callgrind: 14 host
 * instructions more a contended operation, with everything else equal). */
_Static_assert(sizeof(struct core) == 1024, "struct core is 1024 bytes");
/* What core.h's layout promises the hot path: line 0 and the counters an
 * instruction bumps (the first 32 bytes of st) on line 1. */
_Static_assert(offsetof(struct core, drain_at) < 64 && offsetof(struct core, sb) >= 64 &&
	       offsetof(struct core, st) + 32 <= 128, "struct core's hot lines");
/* and what a wake reads beyond lines 0 and 1, and its charge, on one more */
_Static_assert(offsetof(struct core, wait_from) / 64 == offsetof(struct core, irq_hold) / 64 &&
	       offsetof(struct core, in_handler) / 64 == offsetof(struct core, irq_hold) / 64,
	       "struct core's wake line");

static inline void note_act(struct core_env *env, struct core *c, unsigned act)
{
	c->act = (uint8_t)act;
	if (env->on_activity)
		env->on_activity(env->obs_ctx, c->id, c->clock, (enum core_activity)act);
}

/* Core c does `act` from c->clock on: tell an observer if that changes
 * (handler time is all IRQ); the activity as counted. A wait is told when
 * it begins and charged (acct, the same activity: no second note) when it
 * ends, so a live view shows the wait while it lasts, not what the core
 * did before it (a short store-buffer drain before a locked op's miss). */
ALWAYS_INLINE unsigned tell_act(struct core_env *env, struct core *c, unsigned act)
{
	if (c->in_handler)
		act = CORE_ACT_IRQ;
	if (c->act != act)
		note_act(env, c, act);
	return act;
}

/* `plain`, a constant at each call, says the event runs in plain mode
 * (core_exec_event): no handler can be running or entered and nobody
 * watches the activity, so the charge folds to a few stores. */
ALWAYS_INLINE void acct_as(struct core_env *env, struct core *c, unsigned act, uint64_t n,
			   const int plain)
{
	if (plain)
		c->act = (uint8_t)act;
	else
		act = tell_act(env, c, act);
	c->st.cycles[act] += n;
	c->clock += n;
}

ALWAYS_INLINE void acct(struct core_env *env, struct core *c, unsigned act, uint64_t n)
{
	acct_as(env, c, act, n, 0);
}

/* ---- faults ---- */

static enum step fault(struct core_env *env, struct core *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum step fault(struct core_env *env, struct core *c, const char *fmt, ...)
{
	const struct program *p = env->prog;
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Past the end: blame the last instruction, the one that fell off. */
	uint32_t i = c->pc < p->n_insns ? c->pc : p->n_insns - 1;
	program_err(&env->err, p, i, "core %d: %s", c->id, msg);
	env->failed = 1;
	c->state = CORE_FAULTED;
	return ST_FAULT;
}

/* The slow half of bad_access: find the mapped range that holds the
 * access, check it, and memo the part of its line inside that range. */
static enum step check_access(struct core_env *env, struct core *c, uint64_t a, unsigned size,
			      const char *what)
{
	uint64_t end = a + size;
	const uint64_t *range = NULL;
	for (int i = 0; i < 3 && !range; i++)
		if (a >= env->map[i][0] && end <= env->map[i][1])
			range = env->map[i];
	/* Each CPU's stack is its own: an access to another's is this one
	 * running off its end (a large local array, deep recursion) and
	 * would silently corrupt a neighbour; so is an unmapped access while
	 * rsp is outside the stack. Checked here, on the slow path only: the
	 * memo never covers a line this refuses. */
	int rsp_out = c->r[R_RSP] < c->stack_lo || c->r[R_RSP] > c->stack_hi;
	if (__builtin_expect((range == env->map[2] && (a < c->stack_lo || end > c->stack_hi)) ||
			     ((!range || end <= a) && rsp_out), 0))
		return fault(env, c, "stack overflow: %s of %u bytes at 0x%llx, outside this CPU's %u-byte stack "
			     "0x%llx-0x%llx (rsp 0x%llx)", what, size, (unsigned long long)a, PROG_STACK_SIZE,
			     (unsigned long long)c->stack_lo, (unsigned long long)c->stack_hi,
			     (unsigned long long)c->r[R_RSP]);
	uint32_t insn;
	if (__builtin_expect(!range || end <= a, 0))
		return fault(env, c, "%s of %u bytes at 0x%llx: address not mapped%s", what, size,
			     (unsigned long long)a,
			     program_code_insn(env->prog, a, &insn) ? " (a code address: code is not data)" : "");
	if (__builtin_expect(ms_crosses_line(a, size, env->m->line_size), 0))
		return fault(env, c, "%s of %u bytes at 0x%llx crosses a %u-byte cache line", what, size,
			     (unsigned long long)a, env->m->line_size);
	uint64_t lo = a & ~(uint64_t)(env->m->line_size - 1), hi = lo + env->m->line_size;
	lo = max64(lo, range[0]);
	hi = min64(hi, range[1]);
	c->ok_lo = lo;
	c->ok_span = hi - lo;
	return ST_OK;
}

/* An access inside the memo [ok_lo, ok_lo + ok_span), which lies within one
 * line and one mapped range (the map never changes during a run), is mapped
 * and crosses no line: it passes both checks without the range walk.
 * d < ok_span first, so that d + size cannot wrap. */
static inline enum step bad_access(struct core_env *env, struct core *c, uint64_t a,
				   unsigned size, const char *what)
{
	uint64_t d = a - c->ok_lo;
	if (__builtin_expect(d < c->ok_span && d + size <= c->ok_span, 1))
		return ST_OK;
	return check_access(env, c, a, size, what);
}

/* ---- store buffer drain ----
 *
 * A store may leave the buffer env->sb_delay cycles after it entered (one
 * L1 access), so a load right behind it can pass it even when its line is
 * already M here (SB's r1 = r2 = 0). A head whose line is not M/E takes an
 * RFO, issued in global order by the core's drain event; the store stays
 * at the head, invisible to other cores, until its line arrives. */

/* drain_at while the head's RFO is in the fabric: the drain is pending,
 * and the fabric's waker (core_mem_wake) schedules it again. */
#define RFO_WAIT (UINT64_MAX - 1)

/* When the head may next try to leave (after a free store port too). */
static inline uint64_t sb_next(const struct core *c)
{
	return sb_head_at(&c->sb);
}

/* The drain activity needs the event queue (an RFO, or the core is not
 * running to drain by itself): make sure one drain event is pending. */
static int ensure_drain(struct core_env *env, struct core *c)
{
	if (c->drain_at != NONE)
		return 0;
	uint64_t t = c->sb.n ? max64(sb_next(c), env->now) : env->now;
	c->drain_at = t;
	if (evq_push(env->q, t, CORE_EV_DRAIN(c->id)))
		return err_internal(&env->err, "out of memory in the event queue");
	return 0;
}

/* Commit, in order, the buffered stores that can leave by cycle t without
 * a transaction (their line is M or E here). Returns 1 when the head is
 * ready but needs an RFO. */
ALWAYS_INLINE int drain_hits_as(struct core_env *env, struct core *c, uint64_t t, const int limited)
{
	while (c->sb.n) {
		struct sb_entry *e = sb_head(&c->sb);
		uint64_t at = sb_next(c);
		if (at > t)
			return 0;
		if (!ms_hit_store(env->ms, c->id, e->addr, e->size, e->val))
			return 1;
		if (limited)
			sb_commit_limited(&c->sb, at);
		else
			sb_pop(&c->sb);
	}
	return 0;
}

/* A buffer with a commit width drains out of line: the test is made once
 * a call, not once a store, and the common case's loop carries no test
 * for it (per-CPU counting: 2% fewer host instructions than with it). */
static __attribute__((noinline)) int drain_hits_limited(struct core_env *env, struct core *c, uint64_t t)
{
	return drain_hits_as(env, c, t, 1);
}

ALWAYS_INLINE int drain_hits_inline(struct core_env *env, struct core *c, uint64_t t)
{
	if (__builtin_expect(c->sb.commit_width != 0, 0))
		return drain_hits_limited(env, c, t);
	return drain_hits_as(env, c, t, 0);
}

static int drain_hits(struct core_env *env, struct core *c, uint64_t t)
{
	return drain_hits_inline(env, c, t);
}

/* Where the run-ahead loop must next leave its fast path: the horizon and
 * the first snoop addressed to it (its copy may change then), which
 * stop_bound gives as s, its next interrupt, a buffered store's turn. In
 * plain mode (core_exec_event) the core has no interrupt source: irq_next
 * is UINT64_MAX. */
ALWAYS_INLINE void set_stop_below(struct core *c, uint64_t s, const int plain)
{
	if (!plain)
		s = min64(s, c->irq_next);
	if (c->sb.n && c->drain_at == NONE)
		s = min64(s, sb_next(c));
	c->stop_at = s;
}

/* The bound every stop lies under: the horizon and the first snoop; a
 * drain of its own buffer already scheduled (its RFO, issued then, leads
 * to a fill the core must not run past; the core may still execute in the
 * drain's cycle, which core order gives it first); and while the store
 * buffer's request for a line is out, the fabric's next event: its fill,
 * whenever it comes, changes this core's L1 (the line, and the victim it
 * evicts), which the core's own accesses must not run past. Without the
 * drain's bound, how far a core ran past it depended on other cores'
 * events, so a run's figures did on whether they were parked. */
ALWAYS_INLINE uint64_t stop_bound(struct core_env *env, const struct core *c)
{
	uint64_t b = min64(env->horizon, ms_core_next_msg(env->ms, c->id));
	if (__builtin_expect(c->drain_at == RFO_WAIT, 0))
		b = min64(b, ms_next_event(env->ms));
	else if (c->drain_at != NONE)
		b = min64(b, c->drain_at + 1);
	return b;
}

ALWAYS_INLINE void set_stop(struct core_env *env, struct core *c, const int plain)
{
	set_stop_below(c, stop_bound(env, c), plain);
}

/* The run-ahead bound of the event being processed: no other event
 * affects this core sooner (the lookaheads, ms_lookahead and
 * ms_issue_lookahead), nor does the cycle limit let it go on. */
/* The farthest one event runs a core: to the next multiple of
 * RUN_AHEAD_SPAN cycles. A core with nothing else to wait for (a lone
 * core's loop) would otherwise run to the cycle limit in one event, past
 * every deadline, cancel and signal its runner checks between slices. A
 * fixed grid of simulated cycles, not the slice's end (which follows the
 * wall clock), so that where events fall, which a trace's order shows,
 * never depends on how fast the host ran. */
#define RUN_AHEAD_SPAN (UINT64_C(1) << 16)

static inline uint64_t span_end(uint64_t now)
{
	return now > NONE - RUN_AHEAD_SPAN ? NONE : (now | (RUN_AHEAD_SPAN - 1)) + 1;
}

ALWAYS_INLINE void set_horizon(struct core_env *env)
{
	env->horizon = min64(min64(later(evq_peek_time(env->q), env->issue_lookahead),
				   later(ms_next_event(env->ms), env->lookahead)),
			     min64(env->limit, span_end(env->now)));
}

/* The memory system recorded an error (ms_check_error): the driver stops
 * after this event. */
static int memsys_failed(const struct memsys *ms)
{
	struct err e;
	return ms_check_error(ms, &e) != 0;
}

/* Whether the core's own cycle is the very next event: every other event,
 * of either queue, lies strictly later (a tie might go first, as a
 * lower-numbered core's or as a fabric message), and the driver need not
 * get control back first (its bound or the cycle limit, a checker error).
 * Then the event the core would push for that cycle would be popped at
 * once, and the core may go on instead. */
ALWAYS_INLINE int own_cycle_next(struct core_env *env, const struct core *c)
{
	uint64_t peek = min64(evq_peek_time(env->q), ms_next_event(env->ms));
	return c->clock < peek && c->clock < env->run_bound && c->clock < env->limit &&
	       !memsys_failed(env->ms);
}

/* An access that must be made at the core's own time, which lies ahead of
 * the event being processed (a miss, a locked RMW): when every other event
 * of either queue comes strictly later, move the event to that time here,
 * as core_exec_event does after the yield (ev_at, now, the horizon and the
 * stop, with the same tests), and the access goes on without leaving the
 * loop and decoding its instruction again, which the yield would cost
 * once per contended operation. Returns 0 for the yield, whenever the
 * general path would do more than that: a store to drain, the driver's
 * bound, or a stop at this very cycle (then its boundary runs first; what
 * was set here the general path sets again to the same values). The stop
 * is set as outside plain mode, which in plain mode gives the same: a core
 * without interrupt sources keeps irq_next at NONE (core_start). */
ALWAYS_INLINE int catch_up(struct core_env *env, struct core *c)
{
	if (c->sb.n || !own_cycle_next(env, c))
		return 0;
	c->ev_at = c->clock;
	env->now = c->clock;
	set_horizon(env);
	set_stop(env, c, 0);
	return c->clock < c->stop_at;
}

/* catch_up out of line, for the load path: inlined into every form that
 * loads, it would make the per-CPU hit loop's code longer for a miss. */
static __attribute__((noinline)) int catch_up_call(struct core_env *env, struct core *c)
{
	return catch_up(env, c);
}

/* The core cannot go on until its buffer holds at most `max` stores.
 * Stores whose line is already M/E leave by themselves, so the core just
 * stalls until they have (below its stop bound: a snoop arriving first may
 * take the line); anything else waits for the drain activity, which wakes
 * the core. */
static enum step wait_sb(struct core_env *env, struct core *c, unsigned max)
{
	uint64_t t = c->clock;
	if (c->drain_at == NONE) {
		uint64_t bound = stop_bound(env, c);
		while (sb_used(&c->sb) > max) {
			uint64_t at = sb_next(c);
			if (at >= bound)
				break;
			t = max64(t, at);
			if (c->sb.n) {
				struct sb_entry *e = sb_head(&c->sb);
				if (!ms_hit_store(env->ms, c->id, e->addr, e->size, e->val))
					break;
				sb_commit(&c->sb, at);
			}
		}
	}
	if (t > c->clock)
		acct(env, c, CORE_ACT_SB_STALL, t - c->clock);
	if (sb_used(&c->sb) <= max)
		return ST_RETRY;
	c->state = CORE_WAIT_SB;
	c->sb_wait_max = max;
	c->wait_from = c->clock;
	tell_act(env, c, CORE_ACT_SB_STALL);
	if (ensure_drain(env, c))
		return ST_FAULT;
	return ST_WAIT;
}

/* Before any effect of an instruction that stores: a free slot. */
static inline enum step need_slot(struct core_env *env, struct core *c)
{
	return sb_full(&c->sb) ? wait_sb(env, c, c->sb.cap - 1) : ST_OK;
}

/* mfence, hlt and locked RMWs: every buffered store visible first. */
static inline enum step drained(struct core_env *env, struct core *c)
{
	return sb_used(&c->sb) ? wait_sb(env, c, 0) : ST_OK;
}

int core_drain_event(struct core_env *env, struct core *c)
{
	uint64_t now = env->now;
	c->drain_at = NONE;
	if (drain_hits(env, c, now)) {
		/* The head needs its line in M: an RFO, issued now in global
		 * order; later stores wait behind it. */
		struct sb_entry *e = sb_head(&c->sb);
		ms_note_pc(env->ms, c->id, MS_WAKE_DRAIN, e->pc);
		if (ms_store(env->ms, c->id, now, e->addr, e->size, e->val) == MS_PENDING)
			/* The store stays at the head, and invisible, until its
			 * line is here; the waker drains it then. */
			c->drain_at = RFO_WAIT;
		else  /* performed after all (or failed: the run stops on the error) */
			sb_commit(&c->sb, now);
	}
	if (c->state == CORE_WAIT_SB) {
		if (c->sb.n <= c->sb_wait_max) {
			/* A `work N` or a locked RMW is charged whole and can take
			 * the core's clock past the fill its buffered store waits
			 * for: the drain is then due at now < wait_from, and the
			 * core must not go back in time. */
			uint64_t wake = max64(now, c->wait_from);
			c->clock = c->wait_from;
			acct(env, c, CORE_ACT_SB_STALL, wake - c->wait_from);
			c->state = CORE_RUN;
			c->ev_at = wake;
			if (evq_push(env->q, wake, CORE_EV_EXEC(c->id)))
				return err_internal(&env->err, "out of memory in the event queue");
		}
	}
	if (c->sb.n) {
		/* A running core drains its own hits when it passes them. */
		uint64_t at = max64(sb_next(c), now);
		int need = c->state != CORE_RUN || at < c->ev_at;
		if (need)
			return ensure_drain(env, c);
	}
	return 0;
}

/* ---- memory accesses ---- */

/* A miss: the instruction waits, unretired, for its line and is made
 * again when core_mem_wake says it came; the retry hits. It is still the
 * one instruction in progress, so no interrupt comes between the fill and
 * the retry (irq_hold). Stores that become ready meanwhile drain by
 * themselves. */
static enum step wait_mem(struct core_env *env, struct core *c)
{
	c->state = CORE_WAIT_MEM;
	c->wait_from = c->clock;
	tell_act(env, c, CORE_ACT_MISS);
	if (c->sb.n && c->drain_at == NONE && ensure_drain(env, c))
		return ST_FAULT;
	return ST_WAIT;
}

int core_mem_wake(struct core_env *env, struct core *c, int what, uint64_t t)
{
	if ((what & MS_WAKE_DRAIN) && c->drain_at == RFO_WAIT) {
		sb_line_came(&c->sb, t);
		c->drain_at = t;
		if (evq_push(env->q, t, CORE_EV_DRAIN(c->id)))
			return err_internal(&env->err, "out of memory in the event queue");
	}
	if ((what & MS_WAKE_EXEC) && c->state == CORE_WAIT_MEM) {
		/* The fabric holds a forwarded snoop off until the cycle after
		 * t, so that this access is made before the line can leave
		 * again; a handler run first would let it leave, and the
		 * access would miss again, as often as interrupts come. */
		c->irq_hold = c->st.instructions;
		acct(env, c, CORE_ACT_MISS, t - c->wait_from);
		c->state = CORE_RUN;
		c->ev_at = t;
		if (evq_push(env->q, t, CORE_EV_EXEC(c->id)))
			return err_internal(&env->err, "out of memory in the event queue");
	}
	return 0;
}

/* A load that partially overlaps a buffered store waits until the buffer
 * has drained: simpler than waiting for just that entry, and rare. */
ALWAYS_INLINE enum step load_as(struct core_env *env, struct core *c, uint64_t addr,
			       unsigned size, uint64_t *v, const int plain)
{
	if (bad_access(env, c, addr, size, "load"))
		return ST_FAULT;
	if (c->sb.n) {
		uint64_t ready;
		enum sb_lookup l = sb_lookup(&c->sb, addr, size, v, &ready);
		if (l == SB_HIT) {
			c->st.sb_forwards++;
			/* lat_store_forward: the value is there that long after its
			 * store executed (ready - sb_delay), and the load waits only
			 * for that; unset, it costs an L1 hit like any load */
			uint64_t cost = env->m->lat_l1_hit;
			if (__builtin_expect(env->store_forward != 0, 0)) {
				uint64_t at = ready - env->sb_delay + env->store_forward;
				cost = at > c->clock ? at - c->clock : 0;
			}
			acct_as(env, c, CORE_ACT_L1_HIT, cost, plain);
			return ST_OK;
		}
		if (l == SB_PARTIAL) { /* wait for the overlapping store to leave */
			*v = 0; /* never read (this stops the instruction), but the
				 * static analyzer cannot see that wait_sb never says ST_OK */
			return wait_sb(env, c, 0);
		}
	}
	if (ms_hit_load(env->ms, c->id, addr, size, v)) {
		acct_as(env, c, CORE_ACT_L1_HIT, env->m->lat_l1_hit, plain);
		return ST_OK;
	}
	/* ms_hit_load changed nothing: the load made again would miss again */
	if (c->clock != env->now && !catch_up_call(env, c))
		return ST_YIELD;
	ms_note_pc(env->ms, c->id, MS_WAKE_EXEC, c->pc);
	uint64_t done = ms_load(env->ms, c->id, c->clock, addr, size, v);
	if (done == MS_PENDING)
		return wait_mem(env, c);
	acct(env, c, CORE_ACT_MISS, done - c->clock);
	return ST_OK;
}

ALWAYS_INLINE enum step load(struct core_env *env, struct core *c, uint64_t addr, unsigned size,
			    uint64_t *v)
{
	return load_as(env, c, addr, size, v, 0);
}

/* A store whose address has passed bad_access already (the load half of
 * a read-modify-write, at the same address and size). */
ALWAYS_INLINE enum step store_checked(struct core_env *env, struct core *c, uint64_t addr,
				      unsigned size, uint64_t v)
{
	sb_push(&c->sb, addr, size, v & mask(size), c->clock + env->sb_delay, c->pc);
	if (c->sb.n == 1 && c->drain_at == NONE)
		c->stop_at = min64(c->stop_at, sb_next(c));
	return ST_OK;
}

/* Callers take need_slot first, before any other effect of the instruction. */
static inline enum step store(struct core_env *env, struct core *c, uint64_t addr, unsigned size,
			      uint64_t v)
{
	if (bad_access(env, c, addr, size, "store"))
		return ST_FAULT;
	return store_checked(env, c, addr, size, v);
}

/* A lock-prefixed RMW (or xchg with memory): drain the store buffer, then
 * take the line in M and hold it at its home until lock_end. */
static enum step lock_begin(struct core_env *env, struct core *c, uint64_t addr, unsigned size,
			    uint64_t *v, uint64_t *t0, uint64_t *done)
{
	if (bad_access(env, c, addr, size, "locked access"))
		return ST_FAULT;
	enum step st = drained(env, c);
	if (st != ST_OK)
		return st;
	if (c->clock != env->now && !catch_up(env, c))
		return ST_YIELD;
	*t0 = c->clock;
	ms_note_pc(env->ms, c->id, MS_WAKE_EXEC, c->pc);
	int loaded = 0;
	*done = ms_rmw_acquire(env->ms, c->id, c->clock, addr, size, v, &loaded);
	if (*done == MS_PENDING)
		return wait_mem(env, c);
	if (!loaded) { /* out of memory in the memory system comes back here too: not an invariant */
		err_internal(&env->err, "core %d: line 0x%llx not writable after ms_rmw_acquire", c->id,
			     (unsigned long long)addr);
		env->failed = 1;
		return ST_FAULT;
	}
	return ST_OK;
}

static void lock_end(struct core_env *env, struct core *c, uint64_t addr, unsigned size,
		     uint64_t v, uint64_t t0, uint64_t done)
{
	uint64_t until = done + env->m->lat_locked_op;
	/* The lock ends when the store is written; the core goes on only once
	 * it has drained (lat_lock_drain, validated to fit in lat_locked_op). */
	if (NEVER(!ms_rmw_finish(env->ms, c->id, addr, size, v & mask(size),
				 until - env->m->lat_lock_drain))) {
		err_internal(&env->err, "core %d: lost line 0x%llx inside a locked RMW", c->id,
			     (unsigned long long)addr);
		env->failed = 1;
	}
	c->st.locked_ops++;
	c->st.locked_cycles += until - t0;
	acct(env, c, CORE_ACT_LOCKED, until - t0);
}

/* ---- registers and flags ---- */

/* ea and szpf are forced inline: GCC left out-of-line clones of both, and a
 * contended locked RMW, which computes its address on each of its three
 * attempts, spent 25 host instructions an operation calling them. */
ALWAYS_INLINE uint64_t ea(const struct core *c, const struct operand *o)
{
	return core_ea(c, o);
}

static inline void wr_reg(struct core *c, unsigned r, unsigned size, uint64_t v)
{
	switch (size) {
	case 8: c->r[r] = v; break;
	case 4: c->r[r] = (uint32_t)v; break;   /* x86-64 zero-extends 32-bit writes */
	case 2: c->r[r] = (c->r[r] & ~0xffffull) | (v & 0xffff); break;
	default: c->r[r] = (c->r[r] & ~0xffull) | (v & 0xff); break;
	}
}

/* A register operand at `size` bytes: ah ch dh bh are bits 8-15 of their
 * register. The test folds away where size is a constant above 1. */
static inline uint64_t rd_opnd(const struct core *c, const struct operand *o, unsigned size)
{
	if (size == 1 && o->hi8)
		return (c->r[o->reg] >> 8) & 0xff;
	return c->r[o->reg] & mask(size);
}

static inline void wr_opnd(struct core *c, const struct operand *o, unsigned size, uint64_t v)
{
	if (size == 1 && o->hi8)
		c->r[o->reg] = (c->r[o->reg] & ~0xff00ull) | (v & 0xff) << 8;
	else
		wr_reg(c, o->reg, size, v);
}

/* The value of a non-memory operand at `size` bytes. */
static inline uint64_t opval(const struct core *c, const struct operand *o, unsigned size)
{
	switch (o->kind) {
	case OPND_REG: return rd_opnd(c, o, size);
	case OPND_CPU: return (uint64_t)c->id & mask(size);
	default: return (uint64_t)o->imm & mask(size);
	}
}

ALWAYS_INLINE void szpf(struct core *c, uint64_t r, unsigned size)
{
	c->zf = r == 0;
	c->sf = (r >> (8 * size - 1)) & 1;
	c->pf_byte = (uint8_t)r;
}

/* The value and flags of an arithmetic operation: the two-operand ones
 * (add..test, adc, sbb), the one-operand ones (inc..ror, b the shift
 * count) and the bit tests (b the bit's index, below the width). Flags x86
 * leaves undefined keep their value, except OF after a shift or rotate by
 * more than 1, which is computed as for a count of 1. */
ALWAYS_INLINE uint64_t arith(struct core *c, unsigned op, uint64_t a, uint64_t b, unsigned size)
{
	uint64_t m = mask(size), sign = 1ull << (8 * size - 1), r, cin;
	unsigned bits = 8 * size, n;
	switch (op) {
	case OP_ADD:
		r = (a + b) & m;
		c->cf = r < a;
		c->of = ((a ^ r) & (b ^ r) & sign) != 0;
		break;
	case OP_ADC: /* with a carry in, a + b + 1 carries out exactly when r <= a */
		cin = c->cf;
		r = (a + b + cin) & m;
		c->cf = cin ? r <= a : r < a;
		c->of = ((a ^ r) & (b ^ r) & sign) != 0;
		break;
	case OP_SUB:
	case OP_CMP:
		r = (a - b) & m;
		c->cf = a < b;
		c->of = ((a ^ b) & (a ^ r) & sign) != 0;
		break;
	case OP_SBB:
		cin = c->cf;
		r = (a - b - cin) & m;
		c->cf = cin ? a <= b : a < b;
		c->of = ((a ^ b) & (a ^ r) & sign) != 0;
		break;
	case OP_AND:
	case OP_TEST:
		r = a & b;
		c->cf = c->of = 0;
		break;
	case OP_OR:
		r = a | b;
		c->cf = c->of = 0;
		break;
	case OP_XOR:
		r = a ^ b;
		c->cf = c->of = 0;
		break;
	case OP_INC: /* CF unchanged, as on x86 */
		r = (a + 1) & m;
		c->of = r == sign;
		break;
	case OP_DEC:
		r = (a - 1) & m;
		c->of = a == sign;
		break;
	case OP_NEG:
		r = (0 - a) & m;
		c->cf = a != 0;
		c->of = a == sign;
		break;
	case OP_NOT:
		return ~a & m;
	case OP_SHL:
		n = (unsigned)b & (size == 8 ? 63 : 31);
		if (!n)
			return a;
		r = n >= bits ? 0 : (a << n) & m;
		c->cf = n <= bits ? (a >> (bits - n)) & 1 : 0;
		c->of = ((r & sign) != 0) ^ c->cf;
		break;
	case OP_SAR: /* a byte or word shifted by its width or more is all sign */
		n = (unsigned)b & (size == 8 ? 63 : 31);
		if (!n)
			return a;
		r = (uint64_t)(sext(a, size) >> (n >= bits ? bits - 1 : n)) & m;
		c->cf = n >= bits ? (a & sign) != 0 : (uint64_t)(sext(a, size) >> (n - 1)) & 1;
		c->of = 0;
		break;
	case OP_ROL: /* CF and OF only; a count that is a multiple of the width
		      * still sets CF from the unchanged value */
		n = (unsigned)b & (size == 8 ? 63 : 31);
		if (!n)
			return a;
		n %= bits;
		r = n ? ((a << n) | (a >> (bits - n))) & m : a;
		c->cf = r & 1;
		c->of = ((r & sign) != 0) ^ c->cf;
		return r;
	case OP_ROR:
		n = (unsigned)b & (size == 8 ? 63 : 31);
		if (!n)
			return a;
		n %= bits;
		r = n ? ((a >> n) | (a << (bits - n))) & m : a;
		c->cf = (r & sign) != 0;
		c->of = c->cf ^ ((r >> (bits - 2)) & 1);
		return r;
	case OP_BT: /* CF only */
	case OP_BTS:
	case OP_BTR:
	case OP_BTC:
		c->cf = (a >> b) & 1;
		return op == OP_BT ? a : op == OP_BTS ? a | 1ull << b : op == OP_BTR ? a & ~(1ull << b)
										 : a ^ 1ull << b;
	default: /* OP_SHR */
		n = (unsigned)b & (size == 8 ? 63 : 31);
		if (!n)
			return a;
		r = n >= bits ? 0 : a >> n;
		c->cf = n <= bits ? (a >> (n - 1)) & 1 : 0;
		c->of = (a & sign) != 0;
		break;
	}
	szpf(c, r, size);
	return r;
}

static inline int cond(const struct core *c, unsigned cc)
{
	switch (cc) {
	case CC_E: return c->zf;
	case CC_NE: return !c->zf;
	case CC_L: return c->sf != c->of;
	case CC_LE: return c->zf || c->sf != c->of;
	case CC_G: return !c->zf && c->sf == c->of;
	case CC_GE: return c->sf == c->of;
	case CC_B: return c->cf;
	case CC_BE: return c->cf || c->zf;
	case CC_A: return !c->cf && !c->zf;
	case CC_AE: return !c->cf;
	case CC_S: return c->sf;
	case CC_NS: return !c->sf;
	case CC_O: return c->of;
	case CC_NO: return !c->of;
	case CC_P: return core_pf(c);
	default: return !core_pf(c);
	}
}

/* ---- ghost counters ---- */

static int ghost_op(struct core_env *env, struct core *c, const struct insn *in)
{
	unsigned sz = in->b.size ? in->b.size : 8;
	int64_t v = sext(opval(c, &in->b, sz), sz);
	uint64_t addr = ea(c, &in->a);
	/* logged at the core's own cycle and applied in cycle order (ghost.h):
	 * no instruction of any core comes before the event being processed */
	int r = ghost_log(env->ghosts, c->clock, c->id, in->op == OP_GHOST_READ, addr, v, env->now);
	if (r == -1) {
		env->failed = 1;
		return err_internal(&env->err, "out of memory for ghost counters");
	}
	if (NEVER(r)) {
		env->failed = 1;
		return err_internal(&env->err, "core %d: a ghost instruction at cycle %llu came after "
				    "later cycles were settled", c->id, (unsigned long long)c->clock);
	}
	return 0;
}

/* ---- interrupts ----
 *
 * Handlers run on the interrupted stack with no frame pushed: their call
 * depth starts at 0, and the ret at depth 0 restores the registers, flags
 * and pc saved in the core (a handler may clobber its stack). */

static void irq_enter(struct core_env *env, struct core *c, int src)
{
	const struct irq_source *s = &env->irq_src[src];
	memcpy(c->saved.r, c->r, sizeof c->r);
	c->saved.pc = c->pc;
	c->saved.call_depth = c->call_depth;
	c->saved.zf = c->zf;
	c->saved.sf = c->sf;
	c->saved.cf = c->cf;
	c->saved.of = c->of;
	c->saved.pf_byte = c->pf_byte;
	c->saved.intr = c->intr;
	c->in_handler = 1;
	c->call_depth = 0;
	c->pc = s->handler;
	/* Delivery itself takes time before the handler's first instruction. */
	acct(env, c, CORE_ACT_IRQ, env->m->lat_irq_entry);
	if (s->kind == IRQ_HARD)
		c->st.irqs_hard++;
	else
		c->st.irqs_soft++;
}

static void irq_exit(struct core_env *env, struct core *c)
{
	/* The return is still handler time: account it before leaving. */
	acct(env, c, CORE_ACT_IRQ, env->m->lat_irq_exit);
	memcpy(c->r, c->saved.r, sizeof c->r);
	c->pc = c->saved.pc;
	c->call_depth = c->saved.call_depth;
	c->zf = c->saved.zf;
	c->sf = c->saved.sf;
	c->cf = c->saved.cf;
	c->of = c->saved.of;
	c->pf_byte = c->saved.pf_byte;
	c->intr = c->saved.intr;
	c->in_handler = 0;
}

/* The slow part of an instruction boundary: store-buffer hits whose time
 * has come, interrupt arrivals and delivery, the lookahead horizon.
 * Returns 1 when the core must yield to the event queue.
 *
 * The run-ahead loop also comes here before the retry of an instruction
 * whose miss was filled (its event starts there). That is not a boundary
 * between instructions: the instruction is in progress, and an interrupt
 * that has arrived waits until it retires. irq_next is then set to now,
 * so that every stop lies at or before it (set_stop_below) and the loop
 * comes back here right after the retry, in this event or the next. */
ALWAYS_INLINE int boundary(struct core_env *env, struct core *c, const int plain)
{
	if (c->sb.n && c->drain_at == NONE && drain_hits_inline(env, c, c->clock) && ensure_drain(env, c))
		return -1;
	if (!plain && c->irq_any) {
		irq_poll(&c->irq, env->irq_src, c->clock);
		c->irq_next = c->irq.next_min;
		if (c->irq_hold != c->st.instructions) {
			int src = irq_take(&c->irq, env->irq_src, c->intr, c->bh_count, c->in_handler);
			if (src >= 0)
				irq_enter(env, c, src);
		} else if (irq_ready(&c->irq, env->irq_src, c->intr, c->bh_count, c->in_handler)) {
			c->irq_next = c->clock;
		}
	}
	uint64_t bound = stop_bound(env, c);
	if (c->clock >= bound)
		return 1;
	set_stop_below(c, bound, plain);
	return 0;
}

/* ---- the interpreter ---- */

#define TRY(x) do { enum step st_ = (x); if (st_ != ST_OK) return st_; } while (0)

/* A source operand: memory is loaded (and may stop the instruction). */
ALWAYS_INLINE enum step
read_src(struct core_env *env, struct core *c, const struct operand *o, unsigned size, uint64_t *v)
{
	if (o->kind == OPND_MEM)
		return load(env, c, ea(c, o), size, v);
	*v = opval(c, o, size);
	return ST_OK;
}

/* a = a OP b (cmp, test and bt only set the flags): on a register, as a
 * locked RMW, or as a load and a store through the buffer. A memory
 * destination is at addr. */
ALWAYS_INLINE enum step
modify_at(struct core_env *env, struct core *c, const struct insn *in, uint64_t addr, uint64_t b,
	  unsigned op, unsigned sz, unsigned akind, unsigned lock, const int plain)
{
	int writes = op != OP_CMP && op != OP_TEST && op != OP_BT;
	uint64_t a, r;
	if (akind == OPND_REG) {
		r = arith(c, op, rd_opnd(c, &in->a, sz), b, sz);
		if (writes)
			wr_opnd(c, &in->a, sz, r);
		return ST_OK;
	}
	if (lock) {
		uint64_t t0, done;
		TRY(lock_begin(env, c, addr, sz, &a, &t0, &done));
		r = arith(c, op, a, b, sz);
		lock_end(env, c, addr, sz, writes ? r : a, t0, done);
		return ST_TIMED;
	}
	if (writes)
		TRY(need_slot(env, c));
	TRY(load_as(env, c, addr, sz, &a, plain));
	r = arith(c, op, a, b, sz);
	if (writes)
		TRY(store_checked(env, c, addr, sz, r));
	return ST_OK;
}

ALWAYS_INLINE enum step
modify_as(struct core_env *env, struct core *c, const struct insn *in, uint64_t b, unsigned op,
	  unsigned sz, unsigned akind, unsigned lock, const int plain)
{
	return modify_at(env, c, in, akind == OPND_MEM ? ea(c, &in->a) : 0, b, op, sz, akind, lock,
			 plain);
}

ALWAYS_INLINE enum step
modify(struct core_env *env, struct core *c, const struct insn *in, uint64_t b)
{
	return modify_as(env, c, in, b, in->op, in->size, in->a.kind, in->lock, 0);
}

/* xadd, cmpxchg, xchg. xchg with memory is locked with or without the
 * prefix, as on x86. op, sz, the operands' kinds and the prefix are
 * in's own, constants where a form calls it. */
ALWAYS_INLINE enum step exchange_as(struct core_env *env, struct core *c, const struct insn *in,
				    unsigned op, unsigned sz, unsigned akind, unsigned bkind, unsigned lock)
{
	uint64_t a, b, r, addr = 0, t0 = 0, done = 0;
	int mem = akind == OPND_MEM;
	int locked = mem && (lock || op == OP_XCHG);
	/* xchg is symmetric: keep the memory operand (if any) in a. */
	const struct operand *da = &in->a, *db = &in->b;
	if (op == OP_XCHG && bkind == OPND_MEM) {
		da = &in->b;
		db = &in->a;
		locked = mem = 1;
	}
	b = rd_opnd(c, db, sz);
	if (!mem) {
		a = rd_opnd(c, da, sz);
	} else if (locked) {
		addr = ea(c, da);
		TRY(lock_begin(env, c, addr, sz, &a, &t0, &done));
	} else {
		addr = ea(c, da);
		TRY(need_slot(env, c));
		TRY(load(env, c, addr, sz, &a));
	}
	int write = 1;
	if (op == OP_XADD) {
		r = arith(c, OP_ADD, a, b, sz);
		wr_opnd(c, db, sz, a);
	} else if (op == OP_XCHG) {
		r = b;
		wr_opnd(c, db, sz, a);
	} else { /* cmpxchg: compare the accumulator with the destination */
		arith(c, OP_CMP, c->r[R_RAX] & mask(sz), a, sz);
		if (c->zf) {
			r = b;
		} else {
			r = a; /* a locked cmpxchg writes the old value back */
			write = locked;
			wr_reg(c, R_RAX, sz, a);
		}
	}
	if (locked) {
		lock_end(env, c, addr, sz, r, t0, done);
		return ST_TIMED;
	}
	if (!mem)
		wr_opnd(c, da, sz, r);
	else if (write)
		TRY(store(env, c, addr, sz, r));
	return ST_OK;
}

static inline enum step exchange(struct core_env *env, struct core *c, const struct insn *in)
{
	return exchange_as(env, c, in, in->op, in->size, in->a.kind, in->b.kind, in->lock);
}

/* call and push need 8 bytes below rsp, ret and pop 8 bytes above it, all
 * inside this CPU's stack: overrunning it faults rather than silently
 * writing the neighbouring CPU's stack. */
static enum step stack_fault(struct core_env *env, struct core *c, int push, const char *what)
{
	return fault(env, c, "stack %s: %s with rsp 0x%llx (stack 0x%llx-0x%llx)",
		     push ? "overflow" : "underflow", what, (unsigned long long)c->r[R_RSP],
		     (unsigned long long)c->stack_lo, (unsigned long long)c->stack_hi);
}

static inline enum step stack_push(struct core_env *env, struct core *c, const char *what)
{
	uint64_t sp = c->r[R_RSP];
	if (__builtin_expect(sp - 8 < c->stack_lo || sp > c->stack_hi, 0))
		return stack_fault(env, c, 1, what);
	return ST_OK;
}

static inline enum step stack_pop(struct core_env *env, struct core *c, const char *what)
{
	uint64_t sp = c->r[R_RSP];
	if (__builtin_expect(sp + 8 > c->stack_hi || sp < c->stack_lo, 0))
		return stack_fault(env, c, 0, what);
	return ST_OK;
}

/* An indirect jump or call goes where its operand's code address says
 * (cpu/program.h): *to, the instruction's index. Any other value faults: 0
 * as the null function pointer it is in C, the rest as no instruction's
 * address. */
static enum step indirect_target(struct core_env *env, struct core *c, const struct insn *in,
				 uint32_t *to)
{
	uint64_t v;
	TRY(read_src(env, c, &in->a, 8, &v));
	if (__builtin_expect(program_code_insn(env->prog, v, to), 1))
		return ST_OK;
	const char *what = in->op == OP_CALL_IND ? "call" : "jump";
	if (v == 0)
		return fault(env, c, "%s through a null pointer%s", what,
			     in->op == OP_CALL_IND ? "" : " (from C: a tail call through a NULL function pointer)");
	return fault(env, c, "invalid %s: 0x%llx is not a code address (a function's address, as "
		     "'offset f' or a C function pointer holds)", what, (unsigned long long)v);
}

/* bt, bts, btr, btc. A register bit offset with a memory operand is
 * signed and reaches beyond the operand, as on x86: the access moves by
 * whole operands to the one that holds the bit. */
static enum step bit_test(struct core_env *env, struct core *c, const struct insn *in)
{
	unsigned sz = in->size, bits = 8 * sz;
	uint64_t off = opval(c, &in->b, sz), addr = 0;
	if (in->a.kind == OPND_MEM) {
		addr = ea(c, &in->a);
		if (in->b.kind == OPND_REG)
			addr += (uint64_t)((sext(off, sz) >> __builtin_ctz(bits)) * (int64_t)sz);
	}
	return modify_at(env, c, in, addr, off & (bits - 1), in->op, sz, in->a.kind, in->lock, 0);
}

/* shld, shrd: a count of 0 changes no flag. */
static enum step shift_double(struct core_env *env, struct core *c, const struct insn *in)
{
	unsigned sz = in->size;
	uint64_t cnt = in->imm3 == COUNT_CL ? c->r[R_RCX] : (uint64_t)in->imm3;
	unsigned n = (unsigned)cnt & (sz == 8 ? 63 : 31);
	uint64_t a, b = rd_opnd(c, &in->b, sz), addr = 0;
	if (in->a.kind == OPND_MEM) {
		addr = ea(c, &in->a);
		TRY(need_slot(env, c));
		TRY(load(env, c, addr, sz, &a));
	} else {
		a = rd_opnd(c, &in->a, sz);
	}
	if (n) {
		int cf;
		uint64_t r = alu_shift_double(in->op == OP_SHLD, a, b, n, sz, &cf);
		c->cf = (uint8_t)cf;
		c->of = ((r ^ a) >> (8 * sz - 1)) & 1;
		szpf(c, r, sz);
		a = r;
	}
	if (in->a.kind == OPND_MEM)
		return store_checked(env, c, addr, sz, a);
	wr_opnd(c, &in->a, sz, a);
	return ST_OK;
}

/* The pair mul, imul (one operand) and div, idiv read and write: ax for
 * bytes, else rdx:rax at the width. */
static inline void wr_pair(struct core *c, unsigned sz, uint64_t lo, uint64_t hi)
{
	if (sz == 1) {
		wr_reg(c, R_RAX, 2, hi << 8 | lo);
		return;
	}
	wr_reg(c, R_RAX, sz, lo);
	wr_reg(c, R_RDX, sz, hi);
}

/* mul, imul with one operand, div, idiv. The flags x86 leaves undefined
 * (SF ZF PF after a multiplication, all six after a division) keep their
 * values. */
static enum step mul_div(struct core_env *env, struct core *c, const struct insn *in)
{
	unsigned sz = in->size;
	uint64_t src, lo = c->r[R_RAX] & mask(sz), hi, q, r;
	TRY(read_src(env, c, &in->a, sz, &src));
	if (in->op == OP_MUL1 || in->op == OP_IMUL1) {
		c->cf = c->of = (uint8_t)alu_mul(in->op == OP_IMUL1, lo, src, sz, &lo, &hi);
		wr_pair(c, sz, lo, hi);
		return ST_OK;
	}
	hi = sz == 1 ? (c->r[R_RAX] >> 8) & 0xff : c->r[R_RDX] & mask(sz);
	if (sz == 1)
		lo = c->r[R_RAX] & 0xff;
	if (alu_div(in->op == OP_IDIV, hi, lo, src, sz, &q, &r)) {
		if (src == 0)
			return fault(env, c, "divide error: division by zero");
		return fault(env, c, "divide error: the quotient does not fit in %u bits", 8 * sz);
	}
	wr_pair(c, sz, q, r);
	return ST_OK;
}

/* RFLAGS as pushf stores it: CF PF ZF SF IF OF and bit 1, which is always set. */
static inline uint64_t flags_word(const struct core *c)
{
	return 2u | c->cf | (unsigned)core_pf(c) << 2 | c->zf << 6 | c->sf << 7 |
	       (unsigned)c->intr << 9 | c->of << 11;
}

static inline void set_flags_word(struct core *c, uint64_t f)
{
	c->cf = f & 1;
	c->pf_byte = (f >> 2) & 1 ? 0 : 1;
	c->zf = (f >> 6) & 1;
	c->sf = (f >> 7) & 1;
	c->of = (f >> 11) & 1;
	if (!c->intr && ((f >> 9) & 1))
		c->stop_at = c->clock; /* as sti: take what is pending */
	c->intr = (f >> 9) & 1;
}

/* Execute one instruction, up to its outcome (enum step); what the outcome
 * costs and counts is core_exec_event's. Cycles charged here are the
 * instruction's own: its accesses, a fence, a stall, a locked hold. */
ALWAYS_INLINE enum step
execute(struct core_env *env, struct core *c, const struct insn *in)
{
	const struct program *p = env->prog;
	unsigned sz = in->size;
	uint64_t a, b;

	switch (in->op) {
	case OP_NOP:
	case OP_LFENCE:
	case OP_SFENCE: /* TSO orders loads with loads and stores with stores */
		return ST_OK;

	case OP_MOV:
		if (in->a.kind == OPND_REG) {
			TRY(read_src(env, c, &in->b, sz, &b));
			wr_opnd(c, &in->a, sz, b);
			return ST_OK;
		}
		TRY(need_slot(env, c));
		TRY(store(env, c, ea(c, &in->a), sz, opval(c, &in->b, sz)));
		return ST_OK;

	case OP_MOVZX:
	case OP_MOVSX:
		TRY(read_src(env, c, &in->b, in->b.size, &b));
		if (in->op == OP_MOVSX)
			b = (uint64_t)sext(b, in->b.size);
		wr_reg(c, in->a.reg, in->a.size, b & mask(in->a.size));
		return ST_OK;

	case OP_LEA:
		wr_reg(c, in->a.reg, in->a.size, ea(c, &in->b));
		return ST_OK;

	case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR:
	case OP_CMP: case OP_TEST: case OP_ADC: case OP_SBB:
		TRY(read_src(env, c, &in->b, sz, &b));
		return modify(env, c, in, b);

	case OP_INC: case OP_DEC: case OP_NEG: case OP_NOT: case OP_SHL: case OP_SHR:
	case OP_SAR: case OP_ROL: case OP_ROR:
		return modify(env, c, in, in->b.kind == OPND_NONE ? 0 : opval(c, &in->b, 1));

	case OP_BT: case OP_BTS: case OP_BTR: case OP_BTC:
		return bit_test(env, c, in);

	case OP_SHLD: case OP_SHRD:
		return shift_double(env, c, in);

	case OP_IMUL:
	case OP_IMUL3: {
		uint64_t lo, hi;
		TRY(read_src(env, c, &in->b, sz, &b));
		a = in->op == OP_IMUL ? rd_opnd(c, &in->a, sz) : (uint64_t)(int64_t)in->imm3 & mask(sz);
		c->cf = c->of = (uint8_t)alu_mul(1, a, b, sz, &lo, &hi);
		wr_reg(c, in->a.reg, sz, lo);
		return ST_OK;
	}

	case OP_MUL1: case OP_IMUL1: case OP_DIV: case OP_IDIV:
		return mul_div(env, c, in);

	case OP_CBW:
		wr_reg(c, R_RAX, sz, (uint64_t)sext(c->r[R_RAX], sz / 2));
		return ST_OK;

	case OP_CWD:
		wr_reg(c, R_RDX, sz, (c->r[R_RAX] >> (8 * sz - 1)) & 1 ? ~0ull : 0);
		return ST_OK;

	case OP_SETCC:
		if (in->a.kind == OPND_REG) {
			wr_opnd(c, &in->a, 1, (uint64_t)cond(c, in->cond));
			return ST_OK;
		}
		TRY(need_slot(env, c));
		return store(env, c, ea(c, &in->a), 1, (uint64_t)cond(c, in->cond));

	case OP_BSF: /* a zero source sets ZF and leaves the destination as it was */
	case OP_BSR:
		TRY(read_src(env, c, &in->b, sz, &b));
		c->zf = b == 0;
		if (b)
			wr_reg(c, in->a.reg, sz, in->op == OP_BSF ? (uint64_t)__builtin_ctzll(b)
								  : (uint64_t)(63 - __builtin_clzll(b)));
		return ST_OK;

	case OP_BSWAP:
		a = c->r[in->a.reg];
		wr_reg(c, in->a.reg, sz, sz == 8 ? __builtin_bswap64(a) : __builtin_bswap32((uint32_t)a));
		return ST_OK;

	case OP_CMOVCC: /* loads its source and, at 32 bits, clears the upper half either way */
		TRY(read_src(env, c, &in->b, sz, &b));
		wr_reg(c, in->a.reg, sz, cond(c, in->cond) ? b : c->r[in->a.reg]);
		return ST_OK;

	case OP_PUSHF:
		TRY(stack_push(env, c, "pushf"));
		TRY(need_slot(env, c));
		TRY(store(env, c, c->r[R_RSP] - 8, 8, flags_word(c)));
		c->r[R_RSP] -= 8;
		return ST_OK;

	case OP_POPF:
		TRY(stack_pop(env, c, "popf"));
		TRY(load(env, c, c->r[R_RSP], 8, &a));
		c->r[R_RSP] += 8;
		set_flags_word(c, a);
		return ST_OK;

	case OP_XADD:
	case OP_CMPXCHG:
	case OP_XCHG:
		return exchange(env, c, in);

	case OP_JMP:
		c->pc = in->target;
		return ST_JUMP;

	case OP_JCC:
		c->pc = cond(c, in->cond) ? in->target : c->pc + 1;
		return ST_JUMP;

	case OP_CALL:
	case OP_CALL_IND: {
		/* the checks and the slot first, so that a miss on an indirect
		 * call's pointer retries the instruction with nothing done */
		uint32_t to = in->target;
		TRY(stack_push(env, c, "call"));
		TRY(need_slot(env, c));
		if (in->op == OP_CALL_IND)
			TRY(indirect_target(env, c, in, &to));
		TRY(store(env, c, c->r[R_RSP] - 8, 8, c->pc + 1));
		c->r[R_RSP] -= 8;
		c->call_depth++;
		c->pc = to;
		return ST_JUMP;
	}

	case OP_RET:
		if (c->call_depth == 0) {
			if (!c->in_handler) { /* the thread's entry function returns: as hlt */
				TRY(drained(env, c));
				return ST_HALT;
			}
			irq_exit(env, c);
			c->stop_at = c->clock; /* a pending interrupt may be taken now */
			return ST_JUMP;
		}
		TRY(stack_pop(env, c, "ret"));
		TRY(load(env, c, c->r[R_RSP], 8, &a));
		if (a >= p->n_insns)
			return fault(env, c, "invalid jump: ret to 0x%llx popped from [0x%llx]",
				     (unsigned long long)a, (unsigned long long)c->r[R_RSP]);
		c->r[R_RSP] += 8;
		c->call_depth--;
		c->pc = (uint32_t)a;
		return ST_JUMP;

	case OP_UD2:
		/* x86 raises #UD; the compilers put it where C cannot go on:
		 * __builtin_trap(), the kernel's BUG(), and GCC's paths that
		 * would dereference a null pointer (-fisolate-erroneous-paths) */
		return fault(env, c, "ud2: the program trapped (__builtin_trap() or BUG(), or a null "
			     "pointer dereference the compiler found on this path)");

	case OP_JMP_IND: {
		uint32_t to = 0;
		TRY(indirect_target(env, c, in, &to));
		c->pc = to;
		return ST_JUMP;
	}

	case OP_PUSH:
		TRY(stack_push(env, c, "push"));
		TRY(need_slot(env, c));
		TRY(read_src(env, c, &in->a, 8, &a));
		TRY(store(env, c, c->r[R_RSP] - 8, 8, a));
		c->r[R_RSP] -= 8;
		return ST_OK;

	case OP_LEAVE: {
		/* rsp = rbp, then pop rbp; rsp changes only once the load is
		 * done, so a miss retries the whole instruction unchanged. */
		uint64_t sp = c->r[R_RBP];
		if (__builtin_expect(sp + 8 > c->stack_hi || sp < c->stack_lo, 0))
			return fault(env, c, "stack underflow: leave with rbp 0x%llx (stack 0x%llx-0x%llx)",
				     (unsigned long long)sp, (unsigned long long)c->stack_lo,
				     (unsigned long long)c->stack_hi);
		TRY(load(env, c, sp, 8, &a));
		c->r[R_RSP] = sp + 8;
		c->r[R_RBP] = a;
		return ST_OK;
	}

	case OP_POP:
		TRY(stack_pop(env, c, "pop"));
		if (in->a.kind == OPND_MEM)
			TRY(need_slot(env, c));
		TRY(load(env, c, c->r[R_RSP], 8, &a));
		c->r[R_RSP] += 8; /* x86 computes a memory destination with rsp incremented */
		if (in->a.kind != OPND_MEM) {
			wr_reg(c, in->a.reg, 8, a);
		} else if (store(env, c, ea(c, &in->a), 8, a) != ST_OK) {
			c->r[R_RSP] -= 8; /* a fault leaves no side effect */
			return ST_FAULT;
		}
		return ST_OK;

	case OP_MFENCE: /* lat_mfence, then cpi as any instruction */
		TRY(drained(env, c));
		acct(env, c, CORE_ACT_BUSY, env->m->lat_mfence);
		return ST_OK;

	case OP_PAUSE:
		acct(env, c, CORE_ACT_SPIN, env->m->lat_pause ? env->m->lat_pause : 1);
		return ST_TIMED;

	case OP_CLI:
		c->intr = 0;
		return ST_OK;

	case OP_STI:
		c->intr = 1;
		c->stop_at = c->clock; /* take what is pending */
		return ST_OK;

	case OP_HLT:
		TRY(drained(env, c));
		return ST_HALT;

	case OP_WORK: {
		/* One rule for `work -5` (refused by the assembler) and a
		 * register holding a negative count. */
		int64_t n = in->a.kind == OPND_REG ? (int64_t)c->r[in->a.reg] : in->a.imm;
		if (n < 0)
			return fault(env, c, "work %" PRId64 " is negative", n);
		acct(env, c, CORE_ACT_BUSY, (uint64_t)n);
		return ST_TIMED;
	}

	case OP_BH_DISABLE:
		c->bh_count++;
		return ST_OK;

	case OP_BH_ENABLE:
		if (c->bh_count == 0)
			return fault(env, c, "bh_enable without bh_disable");
		if (--c->bh_count == 0)
			c->stop_at = c->clock; /* a pending softirq runs now, as in the kernel */
		return ST_OK;

	case OP_PREEMPT_DISABLE:
		c->preempt_count++;
		return ST_OK;

	case OP_PREEMPT_ENABLE:
		if (c->preempt_count == 0)
			return fault(env, c, "preempt_enable without preempt_disable");
		c->preempt_count--;
		return ST_OK;

	case OP_MARK:
		if (env->on_mark && in->target < p->n_marks)
			env->on_mark(env->obs_ctx, c->id, c->clock, p->marks[in->target]);
		return ST_FREE;

	case OP_GHOST_ADD:
	case OP_GHOST_READ:
		return ghost_op(env, c, in) ? ST_FAULT : ST_FREE;

	default:
		return fault(env, c, "unknown opcode %u", in->op);
	}
}

/* ---- pre-decoded forms ----
 *
 * The commonest instructions at 8 bytes (two-operand arithmetic with a
 * register or immediate source, inc/dec, mov without a memory source on
 * both sides, jumps) each get a form of their own (core_forms.h), decided
 * once per program: the interpreter runs for them the same code as
 * execute() with the opcode, width and operand kinds as constants, so GCC
 * folds away the decoding (the opcode and size switches, masks, operand
 * kinds). What the instruction does is exactly execute()'s; only the
 * dispatch differs, and tests/check_dispatch.c runs every form both ways. */
static const struct core_form_shape shapes[F_NFORMS] = { CORE_FORMS(CORE_FORM_SHAPE) };

/* Whether in is a locked RMW: a lock prefix, or xchg with memory. */
static unsigned locked_insn(const struct insn *in)
{
	return in->lock || (in->op == OP_XCHG && (in->a.kind == OPND_MEM || in->b.kind == OPND_MEM));
}

/* The first row that fits. Jumps take any width; a fused row is left to
 * fused_form. */
static uint8_t form_of(const struct insn *in)
{
	for (unsigned f = F_FIRST_SHAPE; f < F_NFORMS; f++) {
		const struct core_form_shape *s = &shapes[f];
		if (s->op != in->op)
			continue;
		if (in->op == OP_JCC) {
			if (s->cc == in->cond || s->cc == CORE_FORM_CC_ANY)
				return (uint8_t)f;
			continue;
		}
		if (in->op == OP_JMP)
			return (uint8_t)f;
		if (s->cc == CORE_FORM_CC_NONE && in->size == 8 && locked_insn(in) == s->lock &&
		    in->a.kind == s->a && in->b.kind == s->b)
			return (uint8_t)f;
	}
	return F_GENERIC;
}

/* A register-only form followed by jne or je, the close of most loops,
 * also runs the jump when the run-ahead loop would go straight on to it
 * (its clock is below stop_at): one dispatch for the pair. The jump keeps
 * its own form, for when it is reached any other way. */
static uint8_t fused_form(uint8_t f, const struct insn *next)
{
	if (f < F_FIRST_SHAPE || f >= F_NFORMS || next->op != OP_JCC)
		return f;
	const struct core_form_shape *s = &shapes[f];
	if (s->op == OP_JCC || s->op == OP_JMP)
		return f;
	for (unsigned g = F_FIRST_SHAPE; g < F_NFORMS; g++)
		if (shapes[g].op == s->op && shapes[g].a == s->a && shapes[g].b == s->b &&
		    shapes[g].lock == s->lock && shapes[g].cc == next->cond)
			return (uint8_t)g;
	return f;
}

uint8_t *core_forms_new(const struct program *p, int generic)
{
	uint8_t *f = malloc((size_t)p->n_insns + 1);
	if (!f)
		return NULL;
	for (uint32_t i = 0; i < p->n_insns; i++)
		f[i] = generic ? F_GENERIC : form_of(&p->insns[i]);
	for (uint32_t i = 0; !generic && i + 1 < p->n_insns; i++)
		f[i] = fused_form(f[i], &p->insns[i + 1]);
	f[p->n_insns] = F_END;
	return f;
}

static void halt(struct core_env *env, struct core *c)
{
	c->state = CORE_HALTED;
	c->st.halted_at = c->clock;
	note_act(env, c, CORE_ACT_HALTED);
	env->running--;
}

/* What the interpreter's loop does after an instruction. */
enum { R_NEXT = CORE_STEP_NEXT, R_YIELD = CORE_STEP_YIELD, R_STOP = CORE_STEP_STOP,
       R_FAIL = CORE_STEP_FAIL };

/* Retire: the only place an instruction is charged its cpi, counted and
 * moved past (enum step). Inlined into each form, so that a form whose
 * outcome is a constant retires without a second dispatch. */
ALWAYS_INLINE int retire(struct core_env *env, struct core *c, enum step st, uint64_t cpi,
			 uint32_t width, const int plain)
{
	switch (st) {
	case ST_OK:
		c->pc++;
		/* fall through */
	case ST_JUMP:
		/* issue_width instructions share one cpi charge: the last of
		 * each group pays it. */
		if (__builtin_expect(width > 1, 0)) {
			if (++c->issued < width) {
				acct_as(env, c, CORE_ACT_BUSY, 0, plain);
			} else {
				c->issued = 0;
				acct_as(env, c, CORE_ACT_BUSY, cpi, plain);
			}
		} else { /* issued stays 0: only a width above 1 counts it */
			acct_as(env, c, CORE_ACT_BUSY, cpi, plain);
		}
		c->st.instructions++;
		return R_NEXT;
	case ST_TIMED:
		c->pc++;
		c->st.instructions++;
		return R_NEXT;
	case ST_FREE:
		c->pc++;
		return R_NEXT;
	case ST_HALT:
		c->st.instructions++;
		halt(env, c);
		return R_STOP;
	case ST_RETRY:
		return R_NEXT;
	case ST_YIELD:
		return R_YIELD;
	case ST_WAIT:
		return R_STOP;
	default: /* ST_FAULT */
		return R_FAIL;
	}
}

/* The jne/je after a fused register form, which has just retired: run
 * when the loop would run it next without a boundary, as its F_JNE/F_JE
 * would. */
ALWAYS_INLINE int fused_jump(struct core_env *env, struct core *c, const struct insn *in, int je,
			     uint64_t cpi, uint32_t width, const int plain)
{
	if (c->clock >= c->stop_at)
		return R_NEXT;
	const struct insn *j = in + 1;
	c->pc = cond(c, je ? CC_E : CC_NE) ? j->target : c->pc + 1;
	return retire(env, c, ST_JUMP, cpi, width, plain);
}

#define B_NONE 0
#define B_REG c->r[in->b.reg]
#define B_IMM (uint64_t)in->b.imm

/* The source of a fused register form, of the constant kind k. */
ALWAYS_INLINE uint64_t fused_src(const struct core *c, const struct insn *in, unsigned k)
{
	return k == OPND_REG ? c->r[in->b.reg] : k == OPND_IMM ? (uint64_t)in->b.imm : 0;
}

/* One instruction by its form, executed as execute() would and retired. */
#define RET(x) return retire(env, c, (x), cpi, width, plain)
#define TRYR(x) do { enum step st_ = (x); if (st_ != ST_OK) RET(st_); } while (0)
/* A 64-bit modify_as by a register or memory destination (k) with source b. */
#define MODIFY(b, o, k) modify_as(env, c, in, b, OP_##o, 8, OPND_##k, 0, plain)
ALWAYS_INLINE int
dispatch(struct core_env *env, struct core *c, const struct insn *in, unsigned form, uint64_t cpi,
	 uint32_t width, const int plain)
{
	uint64_t b;
	switch ((enum core_form)form) {
#define RUN4(X, o) \
	case F_##o##_RR: RET(MODIFY(B_REG, o, REG)); \
	case F_##o##_RI: RET(MODIFY(B_IMM, o, REG)); \
	case F_##o##_MR: RET(MODIFY(B_REG, o, MEM)); \
	case F_##o##_MI: RET(MODIFY(B_IMM, o, MEM));
	CORE_ARITH2(RUN4, _)
#undef RUN4
	case F_INC_R: RET(MODIFY(B_NONE, INC, REG));
	case F_INC_M: RET(MODIFY(B_NONE, INC, MEM));
	case F_DEC_R: RET(MODIFY(B_NONE, DEC, REG));
	case F_DEC_M: RET(MODIFY(B_NONE, DEC, MEM));
	case F_JCC:
		c->pc = cond(c, in->cond) ? in->target : c->pc + 1;
		RET(ST_JUMP);
	case F_JNE:
		c->pc = cond(c, CC_NE) ? in->target : c->pc + 1;
		RET(ST_JUMP);
	case F_JE:
		c->pc = cond(c, CC_E) ? in->target : c->pc + 1;
		RET(ST_JUMP);
	case F_JMP:
		c->pc = in->target;
		RET(ST_JUMP);
	case F_MOV_RR:
		c->r[in->a.reg] = c->r[in->b.reg];
		RET(ST_OK);
	case F_MOV_RI:
		c->r[in->a.reg] = (uint64_t)in->b.imm;
		RET(ST_OK);
	case F_MOV_RM:
		TRYR(load_as(env, c, ea(c, &in->b), 8, &b, plain));
		c->r[in->a.reg] = b;
		RET(ST_OK);
	case F_MOV_MR:
		TRYR(need_slot(env, c));
		TRYR(store(env, c, ea(c, &in->a), 8, c->r[in->b.reg]));
		RET(ST_OK);
	case F_MOV_MI:
		TRYR(need_slot(env, c));
		TRYR(store(env, c, ea(c, &in->a), 8, (uint64_t)in->b.imm));
		RET(ST_OK);
#define RUN_FUSED(X, f, o, b) \
	case F_##f##_JNE: \
		retire(env, c, modify_as(env, c, in, fused_src(c, in, b), o, 8, OPND_REG, 0, plain), cpi, \
		       width, plain); \
		return fused_jump(env, c, in, 0, cpi, width, plain); \
	case F_##f##_JE: \
		retire(env, c, modify_as(env, c, in, fused_src(c, in, b), o, 8, OPND_REG, 0, plain), cpi, \
		       width, plain); \
		return fused_jump(env, c, in, 1, cpi, width, plain);
	CORE_FUSABLE(RUN_FUSED, _)
#undef RUN_FUSED
	case F_LOCK_INC_M: RET(modify_as(env, c, in, 0, OP_INC, 8, OPND_MEM, 1, plain));
	case F_LOCK_DEC_M: RET(modify_as(env, c, in, 0, OP_DEC, 8, OPND_MEM, 1, plain));
	case F_LOCK_ADD_MR: RET(modify_as(env, c, in, B_REG, OP_ADD, 8, OPND_MEM, 1, plain));
	case F_LOCK_ADD_MI: RET(modify_as(env, c, in, B_IMM, OP_ADD, 8, OPND_MEM, 1, plain));
	case F_LOCK_XADD_MR: RET(exchange_as(env, c, in, OP_XADD, 8, OPND_MEM, OPND_REG, 1));
	case F_LOCK_CMPXCHG_MR: RET(exchange_as(env, c, in, OP_CMPXCHG, 8, OPND_MEM, OPND_REG, 1));
	case F_XCHG_MR: RET(exchange_as(env, c, in, OP_XCHG, 8, OPND_MEM, OPND_REG, 1));
	case F_END:
		RET(fault(env, c, "ran past the end of the program"));
	case F_GENERIC:
		RET(execute(env, c, in));
	case F_NFORMS:
		break;
	}
	/* core_forms_new makes no other value: no range check. The switch has
	 * no default, so that a form without its case is a -Wswitch warning. */
	__builtin_unreachable();
}
#undef TRYR
#undef RET
#undef MODIFY
#undef B_NONE
#undef B_REG
#undef B_IMM

#undef TRY

/* The run-ahead loop: instructions until one stops it (R_YIELD, R_STOP,
 * R_FAIL, as retire says, or R_YIELD from the boundary). */
ALWAYS_INLINE int run_ahead(struct core_env *env, struct core *c, uint64_t cpi, uint32_t width,
			    const int plain)
{
	const struct program *p = env->prog;
	const uint8_t *forms = env->forms;
	for (;;) {
		if (__builtin_expect(c->clock >= c->stop_at, 0)) {
			int b = boundary(env, c, plain);
			if (b)
				return b < 0 ? R_FAIL : R_YIELD;
		}
		int r = dispatch(env, c, &p->insns[c->pc], forms[c->pc], cpi, width, plain);
		if (__builtin_expect(r != R_NEXT, 0))
			return r;
	}
}

/* The loop in plain mode for a core that issues several simple
 * instructions at once. A function of its own, and its branch laid out as
 * the unlikely one: inlined beside the width-1 copy it cost bench_core's
 * per-CPU cases (width 1) 5% more host instructions, called this way 0.7%. */
static __attribute__((noinline)) int run_ahead_wide(struct core_env *env, struct core *c,
						     uint64_t cpi, uint32_t width)
{
	return run_ahead(env, c, cpi, width, 1);
}

int core_step(struct core_env *env, struct core *c)
{
	if (c->clock >= c->stop_at) {
		int b = boundary(env, c, 1);
		if (b)
			return b < 0 ? R_FAIL : R_YIELD;
	}
	return dispatch(env, c, &env->prog->insns[c->pc], env->forms[c->pc], env->m->cpi,
			env->m->issue_width, 1);
}

int core_exec_event(struct core_env *env, struct core *c)
{
	const uint64_t cpi = env->m->cpi;
	const uint32_t width = env->m->issue_width;

	if (c->state != CORE_RUN || c->ev_at != env->now)
		return 0;
	/* Plain mode, the common case, runs a copy of the loop specialized
	 * for it: no interrupt source (so no handler either: only a delivery
	 * enters one, and in_handler, on a colder line, need not be read), no
	 * activity observer, one instruction per cpi charge. All three hold
	 * for the whole event. Without the last, the loop still runs plain
	 * (run_ahead_wide); its stop is set the general way, which is right
	 * in every mode. */
	const int quiet = !c->irq_any && !env->on_activity;
	const int plain = quiet && width == 1;
run:
	set_horizon(env);
	set_stop(env, c, plain);

	int r = R_NEXT;
	/* a core that may be waiting on a loop runs it under the probe */
	if (env->fast_forward && quiet && core_ff_wanted(c)) {
		r = core_ff_probe(env, c);
		if (r == CORE_FF_PARKED)
			return 0;
	}
	if (r == R_NEXT)
		r = plain ? run_ahead(env, c, cpi, 1, 1)
			: __builtin_expect(quiet, 0) ? run_ahead_wide(env, c, cpi, width)
			: run_ahead(env, c, cpi, width, 0);
	if (r == R_FAIL)
		goto fail;
	if (r != R_YIELD)
		return 0;

	c->ev_at = c->clock;
	if (c->sb.n && c->drain_at == NONE && sb_next(c) < c->ev_at && ensure_drain(env, c))
		goto fail;
	/* the driver would pop the event pushed here and call us again at
	 * once: go on instead, as that call would */
	if (own_cycle_next(env, c)) {
		env->now = c->clock;
		goto run;
	}
	if (evq_push(env->q, c->clock, CORE_EV_EXEC(c->id))) {
		err_internal(&env->err, "out of memory in the event queue");
		goto fail;
	}
	return 0;
fail:
	env->failed = 1;
	return -1;
}

/* ---- setup ---- */

void core_init(struct core_env *env, struct core *c, int id)
{
	const struct program *p = env->prog;
	memset(c, 0, sizeof *c);
	c->id = id;
	c->state = CORE_IDLE;
	c->act = CORE_ACT_IDLE;
	c->drain_at = NONE;
	c->stop_at = 0;
	c->intr = 1;
	c->gs_base = program_percpu_offset(p, id);
	c->stack_lo = p->stack_base + (uint64_t)id * PROG_STACK_SIZE;
	c->stack_hi = c->stack_lo + PROG_STACK_SIZE;
	c->irq.next_min = NONE;
	c->irq_next = NONE;
	c->irq_hold = NONE;
}

void core_start(struct core_env *env, struct core *c, uint32_t entry, const uint64_t *regs,
		uint32_t regs_set, uint64_t start)
{
	for (int r = 0; r < R_NREGS; r++)
		c->r[r] = (regs_set >> r) & 1 ? regs[r] : 0;
	/* As the SysV ABI enters a function: rsp on its return address's slot
	 * (zero here: the entry's ret ends the thread, it pops nothing), so
	 * that rsp + 8 is 16-byte aligned and [rsp] is stack. GCC's fence,
	 * `lock or QWORD PTR [rsp], 0`, touches it in an entry with no frame. */
	if (!((regs_set >> R_RSP) & 1))
		c->r[R_RSP] = c->stack_hi - 8;
	c->pc = entry;
	c->irq_next = c->irq.next_min;  /* sim.c set irq up just before */
	c->irq_any = c->irq.n != 0;
	c->clock = start;
	c->st.started = start;
	c->state = CORE_RUN;
	c->ev_at = start;
	env->running++;
}

/* A report of a run stopped at `limit` covers cycles 0..limit. An
 * instruction is charged whole when it starts (a `work N`, a locked RMW,
 * an interrupt's entry), so one begun before the limit may have taken the
 * clock past it: the excess leaves the activity charged last (c->act),
 * then, if it held less, the others in order. A wait that began before the
 * limit (a miss, a full store buffer) is charged when it ends, which it
 * now never does: it counts up to the limit, as the activity it was told
 * as. A core still short of the limit (its next event lay at or past it)
 * keeps what it had. */
void core_stop_at_limit(struct core *c, uint64_t limit)
{
	if ((c->state == CORE_WAIT_MEM || c->state == CORE_WAIT_SB) && c->clock < limit) {
		c->st.cycles[c->act] += limit - c->clock;
		c->clock = limit;
	}
	if (c->state == CORE_HALTED || c->state == CORE_IDLE || c->clock <= limit)
		return;
	uint64_t excess = c->clock - limit;
	for (unsigned k = 0; k < CORE_NCYCLES && excess; k++) {
		unsigned a = k == 0 ? c->act : k <= c->act ? k - 1 : k;
		uint64_t take = excess < c->st.cycles[a] ? excess : c->st.cycles[a];
		c->st.cycles[a] -= take;
		excess -= take;
	}
	c->clock = limit;
}

void core_free(struct core *c)
{
	sb_free(&c->sb);
	irq_cpu_free(&c->irq);
}
