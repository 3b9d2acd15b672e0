/* Fast-forward of waiting cores: the probe that finds a loop at a fixed
 * point (from the code and the cache state, at run time), parking, and
 * resuming at the state executing would have reached. The rule and why it
 * is exact: docs/architecture.md, "Waiting cores". */
#include "config.h"
#include "cpu/fast_forward.h"
#include "base/invariant.h"

#include <string.h>

#define NONE UINT64_MAX
#define FF_NO_HEAD UINT32_MAX
/* A probe gives up after this many steps or iterations without a repeat. */
#define FF_PROBE_STEPS FF_MAX_STEPS
#define FF_PROBE_ITERS 4
/* Events a core lets pass after a failed probe: doubling up to this. */
#define FF_BACKOFF_MAX 128

/* What memory instruction `in` accesses: -1 when it may not run in a
 * parked loop (it locks, counts, watches, changes the interrupt state,
 * writes memory other than as one plain store, or returns from the
 * thread or a handler), 0 when it accesses none, 1 with its one access's
 * address, size and kind (a load, or a store: mov to memory, push, call).
 * Only instructions whose effect is fixed by registers, flags and the
 * values they load qualify. */
static int access_of(const struct insn *in, const struct core *c, uint64_t *addr, unsigned *size,
		     enum ms_acc *kind)
{
	const struct operand *a = &in->a, *b = &in->b, *m = NULL;
	unsigned sz = in->size;
	*kind = MS_ACC_LOAD;
	if (in->lock)
		return -1;
	switch (in->op) {
	case OP_NOP: case OP_LFENCE: case OP_SFENCE: case OP_MFENCE: case OP_PAUSE:
	case OP_JMP: case OP_JCC: case OP_WORK:
		return 0;
	case OP_LEA:
		return a->kind == OPND_REG ? 0 : -1;
	case OP_MOV:
		if (a->kind == OPND_MEM) {
			if (b->kind == OPND_MEM)
				return -1;
			*kind = MS_ACC_STORE;
			m = a;
			break;
		}
		/* fall through */
	case OP_CMOVCC: case OP_IMUL: case OP_IMUL3:
	case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_ADC: case OP_SBB:
		if (a->kind != OPND_REG)
			return -1;
		m = b->kind == OPND_MEM ? b : NULL;
		break;
	case OP_MOVZX: case OP_MOVSX:
		if (a->kind != OPND_REG)
			return -1;
		m = b->kind == OPND_MEM ? b : NULL;
		sz = b->size;
		break;
	case OP_CMP: case OP_TEST:
		m = a->kind == OPND_MEM ? a : b->kind == OPND_MEM ? b : NULL;
		break;
	case OP_INC: case OP_DEC: case OP_NEG: case OP_NOT: case OP_SHL: case OP_SHR: case OP_SAR:
	case OP_ROL: case OP_ROR: case OP_BT: case OP_BTS: case OP_BTR: case OP_BTC: case OP_SETCC:
	case OP_BSF: case OP_BSR: case OP_BSWAP: case OP_CBW: case OP_CWD:
		return a->kind == OPND_MEM || b->kind == OPND_MEM ? -1 : 0;
	/* The stack, as -O0 code and calls use it: a push or a call stores,
	 * a pop, a leave and a ret load. */
	case OP_PUSH:
		if (a->kind == OPND_MEM)
			return -1;
		/* fall through */
	case OP_CALL:
		*kind = MS_ACC_STORE;
		*addr = c->r[R_RSP] - 8;
		*size = 8;
		return 1;
	case OP_RET:
		if (!c->call_depth)
			return -1;
		/* fall through */
	case OP_POP:
		if (a->kind == OPND_MEM)
			return -1;
		*addr = c->r[R_RSP];
		*size = 8;
		return 1;
	case OP_LEAVE:
		*addr = c->r[R_RBP];
		*size = 8;
		return 1;
	default:
		return -1;
	}
	if (!m)
		return 0;
	*addr = core_ea(c, m);
	*size = sz;
	return 1;
}

/* The value this core would load from [addr, addr+size) now: its store
 * buffer's newest store there, else its L1 copy (the coherent value: the
 * callers ask only where it holds the line). 0 when a buffered store
 * covers part of it only. */
static int visible(const struct core_env *env, const struct core *c, uint64_t addr, unsigned size,
		   uint64_t *v)
{
	uint64_t ready;
	enum sb_lookup l = c->sb.n ? sb_lookup(&c->sb, addr, size, v, &ready) : SB_MISS;
	if (l == SB_PARTIAL)
		return 0;
	if (l == SB_MISS)
		*v = ms_peek(env->ms, addr, size);
	return 1;
}

/* The state the loop's next iteration depends on, besides the lines it
 * reads: taken at the head, compared when the head comes round. */
static void snapshot(struct core_env *env, struct core *c)
{
	struct core_ff *f = &c->ff;
	memcpy(f->r, c->r, sizeof f->r);
	f->zf = c->zf;
	f->sf = c->sf;
	f->cf = c->cf;
	f->of = c->of;
	f->pf_byte = c->pf_byte;
	f->act = c->act;
	f->issued = c->issued;
	f->at = c->clock;
	f->call_depth = c->call_depth;
	f->instructions = c->st.instructions;
	f->sb_forwards = c->st.sb_forwards;
	memcpy(f->cycles, c->st.cycles, sizeof f->cycles);
	f->l1_accesses = ms_l1_accesses(env->ms, c->id);
	f->naccess = 0;
	f->npcs = 0;
	f->stores = 0;
	/* the buffer's older stores would drain in this iteration, and not
	 * in the next */
	f->buffered = c->sb.n || c->drain_at != NONE;
}

/* The registers that differ from the snapshot (a bit each), or -1 when
 * anything else the next iteration depends on does. */
static int32_t differs(const struct core *c)
{
	const struct core_ff *f = &c->ff;
	if (f->zf != c->zf || f->sf != c->sf || f->cf != c->cf || f->of != c->of || f->pf_byte != c->pf_byte ||
	    f->act != c->act || f->issued != c->issued || f->call_depth != c->call_depth || f->buffered)
		return -1;
	int32_t m = 0;
	for (int r = 0; r < R_NREGS; r++)
		if (f->r[r] != c->r[r])
			m |= 1 << r;
	return m;
}

/* The registers instruction `in` names (operands, addresses, and the
 * implicit ones of the instructions a parked loop may run), a bit each. */
static uint32_t regs_named(const struct insn *in)
{
	uint32_t m = 0;
	const struct operand *o[2] = {&in->a, &in->b};
	for (int i = 0; i < 2; i++) {
		if (o[i]->kind == OPND_REG)
			m |= 1u << o[i]->reg;
		else if (o[i]->kind == OPND_MEM) {
			if (o[i]->base != R_NONE)
				m |= 1u << o[i]->base;
			if (o[i]->index != R_NONE)
				m |= 1u << o[i]->index;
		}
	}
	switch (in->op) {
	case OP_PUSH: case OP_POP: case OP_CALL: case OP_RET:
		return m | 1u << R_RSP;
	case OP_LEAVE:
		return m | 1u << R_RSP | 1u << R_RBP;
	case OP_CBW: case OP_CWD:
		return m | 1u << R_RAX | 1u << R_RDX;
	default:
		return m;
	}
}

/* Whether `in` counts register r on, by a constant at width 4 or 8: inc,
 * dec, add or sub of an immediate, lea r, [r + disp]. */
static int counts(const struct insn *in, int r, unsigned *width)
{
	const struct operand *a = &in->a, *b = &in->b;
	if (a->kind != OPND_REG || a->reg != r || (a->size != 4 && a->size != 8) || in->lock)
		return 0;
	*width = a->size;
	switch (in->op) {
	case OP_INC: case OP_DEC:
		return 1;
	case OP_ADD: case OP_SUB:
		return b->kind == OPND_IMM;
	case OP_LEA:
		return b->kind == OPND_MEM && b->base == r && b->index == R_NONE && !b->gs;
	default:
		return 0;
	}
}

/* Flags: read by a conditional, written whole by arithmetic and logic
 * (inc and dec leave CF, a shift by 0 leaves them all: neither counts).
 * An instruction access_of admits that reads flags must be in the first
 * list, or a counter's flags could be read unseen. */
static int reads_flags(unsigned op)
{
	return op == OP_JCC || op == OP_CMOVCC || op == OP_SETCC || op == OP_ADC || op == OP_SBB;
}

static int sets_flags(unsigned op)
{
	return op == OP_ADD || op == OP_SUB || op == OP_AND || op == OP_OR || op == OP_XOR ||
	       op == OP_CMP || op == OP_TEST || op == OP_NEG;
}

/* Whether the registers of mask only count: each is named in the
 * iteration only by instructions that count it on by a constant at one
 * width, and the flags those set are written over before anything reads
 * them and before the iteration ends. Then nothing the loop does depends
 * on their values: the iteration after is the same with each register a
 * step further, and k iterations later it is k steps further. Fills in
 * each one's step. A spin counter (`while (!READ_ONCE(f)) spins++;`). */
static int only_count(const struct core_env *env, const struct core *c, uint32_t mask)
{
	const struct core_ff *f = &c->ff;
	struct core_ff_log *g = &env->ff_log[c->id];
	if (mask & 1u << R_RSP)
		return 0;
	for (int r = 0; r < R_NREGS; r++)
		g->width[r] = 0;
	for (unsigned i = 0; i < f->npcs; i++) {
		const struct insn *in = &env->prog->insns[g->pc[i]];
		uint32_t named = regs_named(in) & mask;
		if (!named)
			continue;
		unsigned w = 0;
		int r = __builtin_ctz(named);
		if ((named & (named - 1)) || !counts(in, r, &w) || (g->width[r] && g->width[r] != w))
			return 0;
		g->width[r] = (uint8_t)w;
		/* its flags, dead before the next read and before the head */
		unsigned j = i + 1;
		for (; j < f->npcs; j++) {
			const struct insn *nx = &env->prog->insns[g->pc[j]];
			if (reads_flags(nx->op))
				return 0;
			if (sets_flags(nx->op) && !(regs_named(nx) & mask))
				break;
		}
		if (j == f->npcs)
			return 0;
	}
	for (int r = 0; r < R_NREGS; r++) {
		if (!(mask >> r & 1))
			continue;
		if (!g->width[r])
			return 0;
		uint64_t m = g->width[r] == 8 ? ~0ull : 0xffffffffull;
		g->step[r] = (c->r[r] - f->r[r]) & m;
	}
	return 1;
}

/* Whether the iteration left every place it stored to holding what it
 * found there: the value before the first store to it. Its stores may
 * write other values on the way (a -O0 frame reuses a slot), but then
 * memory is as it was, and with the registers the next iteration is the
 * same. Stores to overlapping places of different extents are not
 * followed: the loop is not parked. */
static int restored(const struct core_env *env, const struct core *c)
{
	const struct core_ff *f = &c->ff;
	const struct core_ff_log *g = &env->ff_log[c->id];
	for (unsigned i = 0; i < f->naccess; i++) {
		if (!(f->stores >> i & 1))
			continue;
		unsigned j = 0;
		for (; j < i; j++)
			if (f->stores >> j & 1 && g->addr[j] < g->addr[i] + g->size[i] &&
			    g->addr[i] < g->addr[j] + g->size[j])
				break;
		if (j < i && (g->addr[j] != g->addr[i] || g->size[j] != g->size[i]))
			return 0;
		uint64_t now;
		if (!visible(env, c, g->addr[i], g->size[i], &now) || now != g->old[j])
			return 0;
	}
	return 1;
}

static int give_up(struct core *c)
{
	c->ff_probing = 0;
	c->ff_backoff = c->ff_backoff ? (uint8_t)(c->ff_backoff >= FF_BACKOFF_MAX / 2 ? FF_BACKOFF_MAX : 2 * c->ff_backoff)
				      : 1;
	c->ff_skip = c->ff_backoff;
	return CORE_STEP_NEXT;
}

/* The loop came round to its snapshot: park, with one iteration's deltas,
 * if every line it accessed is still a plain hit, its L1 made no access
 * it did not record (a drain of an older store, a fill), its buffer is
 * empty and no message is on its way (one that is would change a line
 * before the next iteration ends). */
static int park(struct core_env *env, struct core *c, uint32_t counters)
{
	struct core_ff *f = &c->ff;
	uint64_t period = c->clock - f->at;
	if (!period || c->sb.n || c->drain_at != NONE || ms_core_next_msg(env->ms, c->id) != NONE ||
	    ms_l1_accesses(env->ms, c->id) - f->l1_accesses != f->naccess ||
	    ms_repeat_hits(env->ms, c->id, env->ff_log[c->id].addr, env->ff_log[c->id].size, f->stores,
			   f->naccess, 0))
		return give_up(c);
	c->ff_probing = 0;
	c->ff_backoff = 0;
	f->counters = (uint16_t)counters;
	f->period = period;
	f->instructions = c->st.instructions - f->instructions;
	f->sb_forwards = c->st.sb_forwards - f->sb_forwards;
	for (int i = 0; i < CORE_NCYCLES; i++)
		f->cycles[i] = c->st.cycles[i] - f->cycles[i];
	f->at = c->clock;
	c->state = CORE_PARKED;
	env->parked++;
	ms_watch_msgs(env->ms, c->id, 1);
	return CORE_FF_PARKED;
}

int core_ff_probe(struct core_env *env, struct core *c)
{
	struct core_ff *f = &c->ff;
	if (!c->ff_probing) {
		if (c->sb.n || c->drain_at != NONE || c->in_handler)
			return give_up(c);
		c->ff_probing = 1;
		f->head = FF_NO_HEAD;
		f->steps = f->iters = 0;
	}
	for (;;) {
		uint64_t addr = 0, old = 0;
		unsigned size = 0;
		enum ms_acc kind;
		/* the instruction the step runs (its boundary changes neither pc
		 * nor the L1's lines, nor what this core would load), checked
		 * before it runs: a load a plain hit, a store one too, on a line
		 * it may write without a transaction */
		int k = access_of(&env->prog->insns[c->pc], c, &addr, &size, &kind);
		if (k < 0 || (k && !ms_hit_is_plain(env->ms, c->id, addr, size, kind)) ||
		    (k && kind == MS_ACC_STORE && !visible(env, c, addr, size, &old)))
			return give_up(c);
		uint32_t pc = c->pc;
		uint64_t before = c->st.instructions, fwd = c->st.sb_forwards;
		int in_loop = f->head != FF_NO_HEAD;
		int r = core_step(env, c);
		if (r != CORE_STEP_NEXT) {
			/* the event ends at its stop: the probe goes on in the next */
			if (r != CORE_STEP_YIELD)
				c->ff_probing = 0;
			return r;
		}
		if (c->st.instructions == before)
			continue;
		if (++f->steps > FF_PROBE_STEPS)
			return give_up(c);
		if (in_loop)  /* steps bound it: FF_PROBE_STEPS is FF_MAX_STEPS */
			env->ff_log[c->id].pc[f->npcs++] = pc;
		if (k && kind == MS_ACC_STORE) {
			const struct sb_entry *e = c->sb.n ? sb_newest(&c->sb) : NULL;
			if (!e || e->addr != addr || e->size != size)
				return give_up(c);
		}
		/* a load the buffer served made no L1 access */
		if (k && in_loop && c->st.sb_forwards == fwd) {
			if (f->naccess == FF_MAX_ACCESS)
				return give_up(c);
			struct core_ff_log *g = &env->ff_log[c->id];
			f->stores |= (uint32_t)(kind == MS_ACC_STORE) << f->naccess;
			g->old[f->naccess] = old;
			g->addr[f->naccess] = addr;
			g->size[f->naccess++] = (uint8_t)size;
		}
		if (!in_loop) {
			/* a jump back: a loop's head, where its buffer is empty
			 * (the first one may be a call's or a ret's target, with
			 * a push still in it: the loop's own jump back comes) */
			if (c->pc <= pc && !c->sb.n && c->drain_at == NONE) {
				f->head = c->pc;
				snapshot(env, c);
			}
		} else if (c->pc == f->head) {
			int32_t d = differs(c);
			if (d >= 0 && restored(env, c) && (!d || only_count(env, c, (uint32_t)d)))
				return park(env, c, (uint32_t)d);
			if (++f->iters == FF_PROBE_ITERS)
				return give_up(c);
			snapshot(env, c);
		}
	}
}

void core_ff_settle(struct core_env *env, struct core *c, uint64_t t)
{
	struct core_ff *f = &c->ff;
	if (c->state != CORE_PARKED || t <= f->at)
		return;
	uint64_t k = (t - f->at) / f->period;
	if (!k)
		return;
	c->clock += k * f->period;
	c->st.instructions += k * f->instructions;
	c->st.sb_forwards += k * f->sb_forwards;
	for (int i = 0; i < CORE_NCYCLES; i++)
		c->st.cycles[i] += k * f->cycles[i];
	const struct core_ff_log *g = &env->ff_log[c->id];
	for (uint32_t m = f->counters; m; m &= m - 1) {
		int r = __builtin_ctz(m);
		uint64_t v = c->r[r] + k * g->step[r];
		c->r[r] = g->width[r] == 8 ? v : (uint32_t)v;
	}
	/* park checked them, and nothing has changed them since: a change
	 * would have woken the core first */
	if (NEVER(ms_repeat_hits(env->ms, c->id, g->addr, g->size, f->stores, f->naccess, k)))
		err_internal(&env->err, "core %d: a parked loop's line changed without waking it", c->id);
	f->at = c->clock;
}

static void leave(struct core_env *env, struct core *c, uint64_t t)
{
	core_ff_settle(env, c, t);
	c->state = CORE_RUN;
	c->ev_at = c->clock;
	env->parked--;
	ms_watch_msgs(env->ms, c->id, 0);
	c->ff_skip = 0;
}

uint64_t core_ff_unpark(struct core_env *env, struct core *c, uint64_t t)
{
	leave(env, c, t);
	if (evq_push(env->q, c->clock, CORE_EV_EXEC(c->id))) {
		err_internal(&env->err, "out of memory in the event queue");
		return NONE;
	}
	return c->clock;
}

int core_ff_finish(struct core_env *env, struct core *c, uint64_t limit)
{
	leave(env, c, limit);
	/* the rest of an iteration, executed: its lines are as they were */
	env->now = c->clock;
	env->horizon = limit;
	c->stop_at = limit;
	int r;
	while ((r = core_step(env, c)) == CORE_STEP_NEXT)
		;
	return r == CORE_STEP_FAIL ? -1 : 0;
}
