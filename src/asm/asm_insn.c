/* Instructions: the mnemonic table, operand-kind and size rules for each
 * form, and the pre-decoded struct insn they become. Every check that can
 * be made here is, so that the core model never meets a malformed insn. */
#include "config.h"
#include "asm/asm_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum form {
	F_NONE, F_MOV, F_ALU, F_TEST, F_UNARY, F_SHIFT, F_BRANCH, F_PUSH, F_POP, F_XADD,
	F_XCHG, F_MOVZX, F_MOVSX, F_MOVSXD, F_LEA, F_WORK, F_MARK, F_GHOST_ADD, F_GHOST_READ
};

struct mnem {
	const char *name;
	uint8_t op, cond, form, lockable;
};

static const struct mnem mnems[] = {
	{ "mov", OP_MOV, 0, F_MOV, 0 },
	{ "movzx", OP_MOVZX, 0, F_MOVZX, 0 },
	{ "movsx", OP_MOVSX, 0, F_MOVSX, 0 },
	{ "movsxd", OP_MOVSX, 0, F_MOVSXD, 0 },
	{ "lea", OP_LEA, 0, F_LEA, 0 },
	{ "add", OP_ADD, 0, F_ALU, 1 },
	{ "sub", OP_SUB, 0, F_ALU, 1 },
	{ "and", OP_AND, 0, F_ALU, 1 },
	{ "or", OP_OR, 0, F_ALU, 1 },
	{ "xor", OP_XOR, 0, F_ALU, 1 },
	{ "cmp", OP_CMP, 0, F_ALU, 0 },
	{ "test", OP_TEST, 0, F_TEST, 0 },
	{ "inc", OP_INC, 0, F_UNARY, 1 },
	{ "dec", OP_DEC, 0, F_UNARY, 1 },
	{ "neg", OP_NEG, 0, F_UNARY, 1 },
	{ "not", OP_NOT, 0, F_UNARY, 1 },
	{ "shl", OP_SHL, 0, F_SHIFT, 0 },
	{ "sal", OP_SHL, 0, F_SHIFT, 0 },
	{ "shr", OP_SHR, 0, F_SHIFT, 0 },
	{ "jmp", OP_JMP, 0, F_BRANCH, 0 },
	{ "call", OP_CALL, 0, F_BRANCH, 0 },
	{ "je", OP_JCC, CC_E, F_BRANCH, 0 },
	{ "jz", OP_JCC, CC_E, F_BRANCH, 0 },
	{ "jne", OP_JCC, CC_NE, F_BRANCH, 0 },
	{ "jnz", OP_JCC, CC_NE, F_BRANCH, 0 },
	{ "jl", OP_JCC, CC_L, F_BRANCH, 0 },
	{ "jnge", OP_JCC, CC_L, F_BRANCH, 0 },
	{ "jle", OP_JCC, CC_LE, F_BRANCH, 0 },
	{ "jng", OP_JCC, CC_LE, F_BRANCH, 0 },
	{ "jg", OP_JCC, CC_G, F_BRANCH, 0 },
	{ "jnle", OP_JCC, CC_G, F_BRANCH, 0 },
	{ "jge", OP_JCC, CC_GE, F_BRANCH, 0 },
	{ "jnl", OP_JCC, CC_GE, F_BRANCH, 0 },
	{ "jb", OP_JCC, CC_B, F_BRANCH, 0 },
	{ "jc", OP_JCC, CC_B, F_BRANCH, 0 },
	{ "jnae", OP_JCC, CC_B, F_BRANCH, 0 },
	{ "jbe", OP_JCC, CC_BE, F_BRANCH, 0 },
	{ "jna", OP_JCC, CC_BE, F_BRANCH, 0 },
	{ "ja", OP_JCC, CC_A, F_BRANCH, 0 },
	{ "jnbe", OP_JCC, CC_A, F_BRANCH, 0 },
	{ "jae", OP_JCC, CC_AE, F_BRANCH, 0 },
	{ "jnb", OP_JCC, CC_AE, F_BRANCH, 0 },
	{ "jnc", OP_JCC, CC_AE, F_BRANCH, 0 },
	{ "js", OP_JCC, CC_S, F_BRANCH, 0 },
	{ "jns", OP_JCC, CC_NS, F_BRANCH, 0 },
	{ "ret", OP_RET, 0, F_NONE, 0 },
	{ "push", OP_PUSH, 0, F_PUSH, 0 },
	{ "pop", OP_POP, 0, F_POP, 0 },
	{ "xadd", OP_XADD, 0, F_XADD, 1 },
	{ "cmpxchg", OP_CMPXCHG, 0, F_XADD, 1 },
	{ "xchg", OP_XCHG, 0, F_XCHG, 1 },
	{ "mfence", OP_MFENCE, 0, F_NONE, 0 },
	{ "lfence", OP_LFENCE, 0, F_NONE, 0 },
	{ "sfence", OP_SFENCE, 0, F_NONE, 0 },
	{ "pause", OP_PAUSE, 0, F_NONE, 0 },
	{ "nop", OP_NOP, 0, F_NONE, 0 },
	{ "cli", OP_CLI, 0, F_NONE, 0 },
	{ "sti", OP_STI, 0, F_NONE, 0 },
	{ "hlt", OP_HLT, 0, F_NONE, 0 },
	{ "work", OP_WORK, 0, F_WORK, 0 },
	{ "bh_disable", OP_BH_DISABLE, 0, F_NONE, 0 },
	{ "bh_enable", OP_BH_ENABLE, 0, F_NONE, 0 },
	{ "preempt_disable", OP_PREEMPT_DISABLE, 0, F_NONE, 0 },
	{ "preempt_enable", OP_PREEMPT_ENABLE, 0, F_NONE, 0 },
	{ "mark", OP_MARK, 0, F_MARK, 0 },
	{ "ghost_add", OP_GHOST_ADD, 0, F_GHOST_ADD, 0 },
	{ "ghost_read", OP_GHOST_READ, 0, F_GHOST_READ, 0 },
};

static const struct mnem *find_mnem(const struct asm_tok *t)
{
	for (size_t i = 0; i < sizeof mnems / sizeof mnems[0]; i++)
		if (asm_tok_is_ci(t, mnems[i].name))
			return &mnems[i];
	return NULL;
}

static int is_rm(const struct asm_opnd *o)
{
	return o->o.kind == OPND_REG || o->o.kind == OPND_MEM;
}

static int is_imm(const struct asm_opnd *o)
{
	return o->o.kind == OPND_IMM || o->o.kind == OPND_CPU;
}

static int need(struct asm_state *st, const struct mnem *m, const struct asm_opnd *o,
		const char *what)
{
	/* A bare name where a register or memory was wanted is most often a
	 * misspelt register or a data label without its brackets: say which. */
	if (o->o.kind == OPND_IMM && o->has_expr && o->x.len == 1 && o->x.n[0].op == X_SYM) {
		const struct asm_sym *y = &st->syms[o->x.n[0].v];
		char hint[160];
		if (!y->defined)
			return asm_error(st, o->col, "'%s' needs %s: '%s' is not a register%s", m->name, what,
					 y->name, asm_reg_did_you_mean(y->name, hint, sizeof hint));
		if (y->section == SEC_DATA || y->section == SEC_PERCPU)
			return asm_error(st, o->col, "'%s' needs %s: '%s' is an address; write [%s] for its memory",
					 m->name, what, y->name, y->name);
	}
	if (o->o.kind == OPND_CPU)
		return asm_error(st, o->col, "'%s' needs %s: CPU is an immediate (load it into a register first)",
				 m->name, what);
	return asm_error(st, o->col, "'%s' needs %s", m->name, what);
}

/* The operation size of a two-operand form: a register's width, else the
 * memory operand's size prefix. Unsized operands take it. */
/* "operand size not specified" at operand o; for a memory operand, with
 * the fix written out: "write qword ptr [counter]". */
static int size_missing(struct asm_state *st, const struct asm_opnd *o)
{
	const struct asm_tok *first = NULL, *open = NULL, *close = NULL;
	for (const struct asm_tok *t = st->toks; t->kind != T_END && !close; t++) {
		if (!first && t->kind == T_IDENT)
			first = t;
		if (t->col == o->col)
			open = t;
		if (open && t->kind == T_PUNCT && t->ch == ']')
			close = t;
	}
	if (o->o.kind != OPND_MEM || !first || !close)
		return asm_error(st, o->col, "operand size not specified");
	/* an identifier's text points into its line, and the operand is on it */
	const char *line = first->s - (first->col - 1);
	return asm_error(st, o->col, "operand size not specified: write qword ptr %.*s (or dword, word or "
			 "byte ptr: the width of what it points to)", (int)(close->col - o->col + 1),
			 line + o->col - 1);
}

static int settle_sizes(struct asm_state *st, struct asm_opnd *a, struct asm_opnd *b,
			unsigned dflt)
{
	unsigned s = 0;
	struct asm_opnd *ops[2] = { a, b }, *mem = NULL;
	for (int i = 0; i < 2; i++) {
		struct asm_opnd *o = ops[i];
		if (o->o.kind == OPND_MEM && !mem)
			mem = o;
		if ((o->o.kind == OPND_REG || o->o.kind == OPND_MEM) && o->o.size) {
			if (s && s != o->o.size)
				return asm_error(st, o->col, "operand size mismatch (%u-bit and %u-bit)",
						 s * 8, o->o.size * 8u);
			s = o->o.size;
		}
	}
	if (!s)
		s = dflt;
	if (!s)
		return size_missing(st, mem ? mem : a);
	a->o.size = b->o.size = (uint8_t)s;
	return 0;
}

static void swap(struct asm_opnd *a, struct asm_opnd *b)
{
	struct asm_opnd t = *a;
	*a = *b;
	*b = t;
}

/* Operand rules per form; fills size. a and b may be swapped so that a
 * commutative instruction's memory operand is always a. */
static int check_form(struct asm_state *st, const struct mnem *m, struct asm_opnd *a,
		      struct asm_opnd *b, uint8_t *size)
{
	switch (m->form) {
	case F_MOV:
	case F_ALU:
	case F_TEST:
		if (!is_rm(a))
			return need(st, m, a, "a register or memory destination");
		if (a->o.kind == OPND_MEM && b->o.kind == OPND_MEM)
			return asm_error(st, b->col, "'%s' cannot take two memory operands", m->name);
		if (settle_sizes(st, a, b, 0))
			return -1;
		if (m->form == F_TEST && b->o.kind == OPND_MEM)
			swap(a, b);
		*size = a->o.size;
		return 0;
	case F_UNARY:
		if (!is_rm(a))
			return need(st, m, a, "a register or memory operand");
		if (!a->o.size)
			return size_missing(st, a);
		*size = a->o.size;
		return 0;
	case F_SHIFT:
		if (!is_rm(a))
			return need(st, m, a, "a register or memory destination");
		if (!a->o.size)
			return size_missing(st, a);
		if (b->o.kind == OPND_REG && !(b->o.reg == R_RCX && b->o.size == 1))
			return asm_error(st, b->col, "shift count must be an immediate or cl");
		if (b->o.kind != OPND_REG && b->o.kind != OPND_IMM)
			return asm_error(st, b->col, "shift count must be an immediate or cl");
		b->o.size = 1;
		*size = a->o.size;
		return 0;
	case F_PUSH:
	case F_POP:
		if (a->o.kind != OPND_REG || a->o.size != 8)
			return need(st, m, a, "a 64-bit register");
		*size = 8;
		return 0;
	case F_XADD:
		if (!is_rm(a))
			return need(st, m, a, "a register or memory destination");
		if (b->o.kind != OPND_REG)
			return need(st, m, b, "a register source");
		if (settle_sizes(st, a, b, 0))
			return -1;
		*size = a->o.size;
		return 0;
	case F_XCHG:
		if (!is_rm(a) || !is_rm(b))
			return need(st, m, is_rm(a) ? b : a, "registers or memory");
		if (a->o.kind == OPND_MEM && b->o.kind == OPND_MEM)
			return asm_error(st, b->col, "'%s' cannot take two memory operands", m->name);
		if (settle_sizes(st, a, b, 0))
			return -1;
		if (b->o.kind == OPND_MEM)
			swap(a, b);
		*size = a->o.size;
		return 0;
	case F_MOVZX:
	case F_MOVSX:
	case F_MOVSXD: {
		if (a->o.kind != OPND_REG || a->o.size < 2)
			return need(st, m, a, "a 16-, 32- or 64-bit register destination");
		if (!is_rm(b))
			return need(st, m, b, "a register or memory source");
		unsigned max = m->form == F_MOVZX ? 2 : 4;
		if (m->form == F_MOVSXD) {
			if (a->o.size != 8)
				return need(st, m, a, "a 64-bit register destination");
			if (!b->o.size)
				b->o.size = 4;
			if (b->o.size != 4)
				return need(st, m, b, "a 32-bit source");
		}
		if (!b->o.size)
			return size_missing(st, b);
		if (b->o.size > max || b->o.size >= a->o.size)
			return asm_error(st, b->col, "'%s' cannot extend %u-bit to %u-bit", m->name,
					 b->o.size * 8u, a->o.size * 8u);
		*size = a->o.size;
		return 0;
	}
	case F_LEA:
		if (a->o.kind != OPND_REG || a->o.size < 4)
			return need(st, m, a, "a 32- or 64-bit register destination");
		if (b->o.kind != OPND_MEM)
			return need(st, m, b, "a memory source");
		if (b->o.gs)
			return asm_error(st, b->col,
					 "lea ignores the gs: base; use [reg + sym] with a per-CPU offset in reg");
		b->o.size = a->o.size;
		*size = a->o.size;
		return 0;
	case F_WORK:
		if (a->o.kind != OPND_IMM && !(a->o.kind == OPND_REG && a->o.size == 8))
			return need(st, m, a, "a cycle count (immediate or 64-bit register)");
		a->o.size = 8;
		*size = 8;
		return 0;
	case F_GHOST_ADD:
	case F_GHOST_READ:
		if (a->o.kind != OPND_MEM)
			return need(st, m, a, "a memory operand (the counter's address)");
		if (m->form == F_GHOST_READ ? b->o.kind != OPND_REG : !(b->o.kind == OPND_REG || is_imm(b)))
			return need(st, m, b, m->form == F_GHOST_READ ? "a register" :
					     "a register or immediate");
		if (settle_sizes(st, a, b, 8))
			return -1;
		*size = a->o.size;
		return 0;
	default:
		*size = 0;
		return 0;
	}
}

static int n_operands(int form)
{
	switch (form) {
	case F_NONE:
		return 0;
	case F_UNARY:
	case F_PUSH:
	case F_POP:
	case F_WORK:
		return 1;
	default:
		return 2;
	}
}

static int intern_mark(struct asm_state *st, const struct asm_tok *t, uint32_t *idx)
{
	for (uint32_t i = 0; i < st->n_marks; i++)
		if (strlen(st->marks[i]) == t->len && memcmp(st->marks[i], t->s, t->len) == 0)
			return *idx = i, 0;
	if (asm_grow(st, (void **)&st->marks, &st->cap_marks, st->n_marks + 1, sizeof *st->marks))
		return -1;
	if (!(st->marks[st->n_marks] = strndup(t->s, t->len)))
		return asm_oom(st);
	*idx = st->n_marks++;
	return 0;
}

/* Label and mark operands are names, not expressions. */
static int parse_name_operand(struct asm_state *st, uint32_t *pos, const struct mnem *m,
			      struct insn *in, uint32_t loc)
{
	const struct asm_tok *t = &st->toks[*pos];
	char what[96];
	asm_tok_text(t, what, sizeof what);
	if (m->form == F_MARK) {
		if (t->kind != T_IDENT && t->kind != T_STR)
			return asm_error(st, t->col, "'mark' needs a name but found %s", what);
		(*pos)++;
		return intern_mark(st, t, &in->target);
	}
	if (t->kind != T_IDENT || asm_reserved_name(t->s, t->len))
		return asm_error(st, t->col, "'%s' needs a label but found %s", m->name, what);
	struct asm_xnode n = { .op = X_SYM, .col = t->col };
	uint32_t idx;
	if (asm_sym_ref(st, t->s, t->len, &idx))
		return -1;
	n.v = idx;
	(*pos)++;
	return asm_add_fixup(st, FIX_TARGET, 0, 0, 0, st->n_insns, &n, 1, loc);
}

int asm_parse_insn(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	char what[96];
	struct insn in;
	memset(&in, 0, sizeof in);
	in.a.reg = in.a.base = in.a.index = R_NONE;
	in.b = in.a;
	uint32_t col0 = t->col;
	if (asm_tok_is_ci(t, "lock")) {
		in.lock = 1;
		t = &st->toks[++pos];
		if (t->kind != T_IDENT) {
			asm_tok_text(t, what, sizeof what);
			return asm_error(st, t->col, "expected an instruction after 'lock' but found %s",
					 what);
		}
	}
	asm_tok_text(t, what, sizeof what);
	const struct mnem *m = find_mnem(t);
	if (!m)
		return asm_error(st, t->col, "unknown instruction %s", what);
	if (in.lock && !m->lockable)
		return asm_error(st, t->col, "'lock' cannot prefix '%s'", m->name);
	if (st->section != SEC_TEXT)
		return asm_error(st, t->col, "instruction outside .text");
	pos++;
	in.op = m->op;
	in.cond = m->cond;
	uint32_t loc;
	if (asm_new_loc(st, col0, &loc))
		return -1;
	in.loc = loc;

	struct asm_opnd ops[2] = {0};
	int n = 0;
	if (m->form == F_BRANCH || m->form == F_MARK) {
		if (parse_name_operand(st, &pos, m, &in, loc))
			return -1;
	} else {
		while (st->toks[pos].kind != T_END) {
			if (n == n_operands(m->form)) {
				const struct asm_tok *x = &st->toks[pos];
				const struct asm_tok *prev = &st->toks[pos - 1];
				asm_tok_text(x, what, sizeof what);
				if (x->kind == T_PUNCT && x->ch == '[' && prev->kind == T_IDENT)
					return asm_error(st, x->col, "unexpected '[' after the operands of '%s': "
							 "write the symbol inside the brackets, as in [%.*s + rcx*8]",
							 m->name, (int)prev->len, prev->s);
				if (x->kind == T_PUNCT && prev->kind == T_IDENT && asm_tok_is(prev, "CPU"))
					return asm_error(st, x->col, "unexpected %s after CPU: CPU is a whole operand; "
							 "load it first (mov rax, CPU), then compute with the register",
							 what);
				return asm_error(st, x->col, "unexpected %s after the operands of '%s'",
						 what, m->name);
			}
			if (n > 0 && !(st->toks[pos].kind == T_PUNCT && st->toks[pos].ch == ','))
				return asm_error(st, st->toks[pos].col, "expected ','");
			if (n > 0)
				pos++;
			if (asm_parse_operand(st, &pos, &ops[n]))
				return -1;
			n++;
		}
		if (n != n_operands(m->form))
			return asm_error(st, st->toks[pos].col, "'%s' takes %d operand%s", m->name,
					 n_operands(m->form), n_operands(m->form) == 1 ? "" : "s");
		if (n == 1)
			memset(&ops[1], 0, sizeof ops[1]);
		if (n && check_form(st, m, &ops[0], &ops[1], &in.size))
			return -1;
		if (in.lock && ops[0].o.kind != OPND_MEM)
			return asm_error(st, ops[0].col, "'lock' needs a memory destination");
	}
	if (m->form == F_BRANCH || m->form == F_PUSH || m->form == F_POP || m->op == OP_RET)
		in.size = 8;
	if (st->toks[pos].kind != T_END) {
		asm_tok_text(&st->toks[pos], what, sizeof what);
		return asm_error(st, st->toks[pos].col, "unexpected %s", what);
	}

	uint32_t idx = st->n_insns;
	if (asm_grow(st, (void **)&st->insns, &st->cap_insns, idx + 1, sizeof *st->insns))
		return -1;
	if (n > 0)
		in.a = ops[0].o;
	if (n > 1)
		in.b = ops[1].o;
	st->insns[idx] = in;
	st->n_insns++;
	for (int i = 0; i < n; i++) {
		if (!ops[i].has_expr)
			continue;
		int mem = ops[i].o.kind == OPND_MEM;
		if (asm_settle(st, i ? FIX_OPND_B : FIX_OPND_A, mem ? POL_MEM : POL_IMM,
			       ops[i].flags, mem ? 8 : ops[i].o.size, idx, ops[i].x.n, ops[i].x.len,
			       loc, 1))
			return -1;
	}
	return 0;
}
