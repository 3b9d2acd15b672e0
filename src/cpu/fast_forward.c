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
#define FF_PROBE_STEPS 256
#define FF_PROBE_ITERS 4
/* Events a core lets pass after a failed probe: doubling up to this. */
#define FF_BACKOFF_MAX 128

/* What instruction `in` reads from memory: -1 when it may not run in a
 * parked loop (it writes memory, locks, calls, counts, watches, changes
 * the interrupt state), 0 when it reads nothing, 1 with its one load's
 * address and size. Only instructions whose effect is fixed by registers,
 * flags and the values they load qualify. */
static int reads(const struct insn *in, const struct core *c, uint64_t *addr, unsigned *size)
{
	const struct operand *a = &in->a, *b = &in->b, *m = NULL;
	unsigned sz = in->size;
	if (in->lock)
		return -1;
	switch (in->op) {
	case OP_NOP: case OP_LFENCE: case OP_SFENCE: case OP_MFENCE: case OP_PAUSE:
	case OP_JMP: case OP_JCC: case OP_WORK:
		return 0;
	case OP_LEA:
		return a->kind == OPND_REG ? 0 : -1;
	case OP_MOV: case OP_CMOVCC: case OP_IMUL: case OP_IMUL3:
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
	default:
		return -1;
	}
	if (!m)
		return 0;
	*addr = core_ea(c, m);
	*size = sz;
	return 1;
}

/* The state the loop's next iteration depends on, besides the lines it
 * reads: taken at the head, compared when the head comes round. */
static void snapshot(struct core *c)
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
	f->instructions = c->st.instructions;
	memcpy(f->cycles, c->st.cycles, sizeof f->cycles);
	f->nloads = 0;
}

static int same(const struct core *c)
{
	const struct core_ff *f = &c->ff;
	return !memcmp(f->r, c->r, sizeof f->r) && f->zf == c->zf && f->sf == c->sf && f->cf == c->cf &&
	       f->of == c->of && f->pf_byte == c->pf_byte && f->act == c->act && f->issued == c->issued;
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
 * if every line it read is still a plain hit and no message is on its way
 * (one that is would change a line before the next iteration ends). */
static int park(struct core_env *env, struct core *c)
{
	struct core_ff *f = &c->ff;
	uint64_t period = c->clock - f->at;
	if (!period || c->sb.n || ms_core_next_msg(env->ms, c->id) != NONE ||
	    ms_repeat_load_hits(env->ms, c->id, f->load_addr, f->load_size, f->nloads, 0))
		return give_up(c);
	c->ff_probing = 0;
	c->ff_backoff = 0;
	f->period = period;
	f->instructions = c->st.instructions - f->instructions;
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
		uint64_t addr = 0;
		unsigned size = 0;
		/* the instruction the step runs (its boundary changes neither pc
		 * nor the L1), checked before it runs */
		int k = reads(&env->prog->insns[c->pc], c, &addr, &size);
		if (k < 0 || (k && !ms_load_hits_plainly(env->ms, c->id, addr, size)))
			return give_up(c);
		uint32_t pc = c->pc;
		uint64_t before = c->st.instructions;
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
		if (k && in_loop) {
			if (f->nloads == FF_MAX_LOADS)
				return give_up(c);
			f->load_addr[f->nloads] = addr;
			f->load_size[f->nloads++] = (uint8_t)size;
		}
		if (!in_loop) {
			if (c->pc <= pc) {  /* a jump back: a loop's head */
				f->head = c->pc;
				snapshot(c);
			}
		} else if (c->pc == f->head) {
			if (same(c))
				return park(env, c);
			if (++f->iters == FF_PROBE_ITERS)
				return give_up(c);
			snapshot(c);
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
	for (int i = 0; i < CORE_NCYCLES; i++)
		c->st.cycles[i] += k * f->cycles[i];
	/* park checked them, and nothing has changed them since: a change
	 * would have woken the core first */
	if (NEVER(ms_repeat_load_hits(env->ms, c->id, f->load_addr, f->load_size, f->nloads, k)))
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
