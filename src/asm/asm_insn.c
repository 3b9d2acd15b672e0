/* Instructions: the mnemonic table, operand-kind and size rules for each
 * form, and the pre-decoded struct insn they become. Every check that can
 * be made here is, so that the core model never meets a malformed insn. */
#include "config.h"
#include "asm/asm_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum form {
	F_NONE, F_MOV, F_ALU, F_TEST, F_UNARY, F_SHIFT, F_BRANCH, F_PUSH, F_POP, F_XADD,
	F_XCHG, F_MOVZX, F_MOVSX, F_MOVSXD, F_LEA, F_WORK, F_MARK, F_GHOST_ADD, F_GHOST_READ,
	F_IMUL,     /* 1, 2 or 3 operands: becomes F_UNARY (OP_IMUL1), F_REG_RM or F_IMUL3 */
	F_IMUL3, F_SHIFTD, F_BT, F_SETCC,
	F_REG_RM,   /* a 16-64-bit register destination, a register or memory source */
	F_MOVABS, F_BSWAP
};

/* size: the operation width of a form without operands (cdqe, pushf) */
struct mnem {
	const char *name;
	uint8_t op, cond, form, lockable, size;
};

static const struct mnem mnems[] = {
	{ "mov", OP_MOV, 0, F_MOV, 0, 0 },
	{ "movzx", OP_MOVZX, 0, F_MOVZX, 0, 0 },
	{ "movsx", OP_MOVSX, 0, F_MOVSX, 0, 0 },
	{ "movsxd", OP_MOVSX, 0, F_MOVSXD, 0, 0 },
	{ "lea", OP_LEA, 0, F_LEA, 0, 0 },
	{ "add", OP_ADD, 0, F_ALU, 1, 0 },
	{ "sub", OP_SUB, 0, F_ALU, 1, 0 },
	{ "and", OP_AND, 0, F_ALU, 1, 0 },
	{ "or", OP_OR, 0, F_ALU, 1, 0 },
	{ "xor", OP_XOR, 0, F_ALU, 1, 0 },
	{ "cmp", OP_CMP, 0, F_ALU, 0, 0 },
	{ "test", OP_TEST, 0, F_TEST, 0, 0 },
	{ "inc", OP_INC, 0, F_UNARY, 1, 0 },
	{ "dec", OP_DEC, 0, F_UNARY, 1, 0 },
	{ "neg", OP_NEG, 0, F_UNARY, 1, 0 },
	{ "not", OP_NOT, 0, F_UNARY, 1, 0 },
	{ "adc", OP_ADC, 0, F_ALU, 1, 0 },
	{ "sbb", OP_SBB, 0, F_ALU, 1, 0 },
	{ "shl", OP_SHL, 0, F_SHIFT, 0, 0 },
	{ "sal", OP_SHL, 0, F_SHIFT, 0, 0 },
	{ "shr", OP_SHR, 0, F_SHIFT, 0, 0 },
	{ "sar", OP_SAR, 0, F_SHIFT, 0, 0 },
	{ "rol", OP_ROL, 0, F_SHIFT, 0, 0 },
	{ "ror", OP_ROR, 0, F_SHIFT, 0, 0 },
	{ "shld", OP_SHLD, 0, F_SHIFTD, 0, 0 },
	{ "shrd", OP_SHRD, 0, F_SHIFTD, 0, 0 },
	{ "imul", OP_IMUL, 0, F_IMUL, 0, 0 },
	{ "mul", OP_MUL1, 0, F_UNARY, 0, 0 },
	{ "div", OP_DIV, 0, F_UNARY, 0, 0 },
	{ "idiv", OP_IDIV, 0, F_UNARY, 0, 0 },
	{ "cbw", OP_CBW, 0, F_NONE, 0, 2 },
	{ "cwde", OP_CBW, 0, F_NONE, 0, 4 },
	{ "cdqe", OP_CBW, 0, F_NONE, 0, 8 },
	{ "cwd", OP_CWD, 0, F_NONE, 0, 2 },
	{ "cdq", OP_CWD, 0, F_NONE, 0, 4 },
	{ "cqo", OP_CWD, 0, F_NONE, 0, 8 },
	{ "bt", OP_BT, 0, F_BT, 0, 0 },
	{ "bts", OP_BTS, 0, F_BT, 1, 0 },
	{ "btr", OP_BTR, 0, F_BT, 1, 0 },
	{ "btc", OP_BTC, 0, F_BT, 1, 0 },
	{ "bsf", OP_BSF, 0, F_REG_RM, 0, 0 },
	{ "bsr", OP_BSR, 0, F_REG_RM, 0, 0 },
	{ "bswap", OP_BSWAP, 0, F_BSWAP, 0, 0 },
	{ "movabs", OP_MOV, 0, F_MOVABS, 0, 0 },
	{ "jmp", OP_JMP, 0, F_BRANCH, 0, 0 },
	{ "call", OP_CALL, 0, F_BRANCH, 0, 0 },
	{ "ret", OP_RET, 0, F_NONE, 0, 0 },
	{ "pushf", OP_PUSHF, 0, F_NONE, 0, 8 },
	{ "pushfq", OP_PUSHF, 0, F_NONE, 0, 8 },
	{ "popf", OP_POPF, 0, F_NONE, 0, 8 },
	{ "popfq", OP_POPF, 0, F_NONE, 0, 8 },
	{ "leave", OP_LEAVE, 0, F_NONE, 0, 8 },
	{ "endbr64", OP_NOP, 0, F_NONE, 0, 0 },
	{ "push", OP_PUSH, 0, F_PUSH, 0, 0 },
	{ "pop", OP_POP, 0, F_POP, 0, 0 },
	{ "xadd", OP_XADD, 0, F_XADD, 1, 0 },
	{ "cmpxchg", OP_CMPXCHG, 0, F_XADD, 1, 0 },
	{ "xchg", OP_XCHG, 0, F_XCHG, 1, 0 },
	{ "mfence", OP_MFENCE, 0, F_NONE, 0, 0 },
	{ "lfence", OP_LFENCE, 0, F_NONE, 0, 0 },
	{ "sfence", OP_SFENCE, 0, F_NONE, 0, 0 },
	{ "pause", OP_PAUSE, 0, F_NONE, 0, 0 },
	{ "nop", OP_NOP, 0, F_NONE, 0, 0 },
	{ "cli", OP_CLI, 0, F_NONE, 0, 0 },
	{ "sti", OP_STI, 0, F_NONE, 0, 0 },
	{ "hlt", OP_HLT, 0, F_NONE, 0, 0 },
	{ "ud2", OP_UD2, 0, F_NONE, 0, 0 },
	{ "work", OP_WORK, 0, F_WORK, 0, 0 },
	{ "bh_disable", OP_BH_DISABLE, 0, F_NONE, 0, 0 },
	{ "bh_enable", OP_BH_ENABLE, 0, F_NONE, 0, 0 },
	{ "preempt_disable", OP_PREEMPT_DISABLE, 0, F_NONE, 0, 0 },
	{ "preempt_enable", OP_PREEMPT_ENABLE, 0, F_NONE, 0, 0 },
	{ "mark", OP_MARK, 0, F_MARK, 0, 0 },
	{ "ghost_add", OP_GHOST_ADD, 0, F_GHOST_ADD, 0, 0 },
	{ "ghost_read", OP_GHOST_READ, 0, F_GHOST_READ, 0, 0 },
};

/* jcc, setcc and cmovcc: a family's prefix and one of the condition
 * suffixes, with x86's aliases. */
static const struct mnem cc_families[] = {
	{ "j", OP_JCC, 0, F_BRANCH, 0, 0 },
	{ "set", OP_SETCC, 0, F_SETCC, 0, 0 },
	{ "cmov", OP_CMOVCC, 0, F_REG_RM, 0, 0 },
};

static const struct { const char *suffix; uint8_t cond; } cc_suffixes[] = {
	{ "o", CC_O }, { "no", CC_NO }, { "b", CC_B }, { "c", CC_B }, { "nae", CC_B },
	{ "ae", CC_AE }, { "nb", CC_AE }, { "nc", CC_AE }, { "e", CC_E }, { "z", CC_E },
	{ "ne", CC_NE }, { "nz", CC_NE }, { "be", CC_BE }, { "na", CC_BE }, { "a", CC_A },
	{ "nbe", CC_A }, { "s", CC_S }, { "ns", CC_NS }, { "p", CC_P }, { "pe", CC_P },
	{ "np", CC_NP }, { "po", CC_NP }, { "l", CC_L }, { "nge", CC_L }, { "ge", CC_GE },
	{ "nl", CC_GE }, { "le", CC_LE }, { "ng", CC_LE }, { "g", CC_G }, { "nle", CC_G },
};

/* The mnemonic t names, into *m (its name as written, in lower case, in
 * name[16] for a conditional one); -1 when there is none. */
static int find_mnem(const struct asm_tok *t, struct mnem *m, char name[16])
{
	for (size_t i = 0; i < sizeof mnems / sizeof mnems[0]; i++)
		if (asm_tok_is_ci(t, mnems[i].name))
			return *m = mnems[i], 0;
	for (size_t f = 0; f < sizeof cc_families / sizeof cc_families[0]; f++) {
		size_t n = strlen(cc_families[f].name);
		if (t->kind != T_IDENT || t->len <= n || t->len >= 16 ||
		    strncasecmp(t->s, cc_families[f].name, n) != 0)
			continue;
		for (size_t k = 0; k < sizeof cc_suffixes / sizeof cc_suffixes[0]; k++) {
			const char *sfx = cc_suffixes[k].suffix;
			if (strlen(sfx) != t->len - n || strncasecmp(t->s + n, sfx, t->len - n) != 0)
				continue;
			*m = cc_families[f];
			m->cond = cc_suffixes[k].cond;
			for (size_t i = 0; i < t->len; i++)
				name[i] = (char)(t->s[i] | 0x20);
			name[t->len] = 0;
			m->name = name;
			return 0;
		}
	}
	return -1;
}

/* `rep nop` is pause (its encoding, and what GCC writes for
 * __builtin_ia32_pause); no string instruction is modelled. *pos is at
 * the `rep`; on success it is at the `nop`. */
static int rep_prefix(struct asm_state *st, uint32_t *pos, const struct mnem **m)
{
	/* What compilers write with rep and what it does here: `rep nop` is
	 * pause; `rep ret` (an old AMD branch-predictor idiom) is ret; `rep
	 * bsf` (tzcnt on CPUs with BMI1) is bsf, which gives the same result
	 * for the non-zero inputs a compiler emits it for. */
	static const char *const names[][2] = { { "nop", "pause" }, { "ret", "ret" }, { "bsf", "bsf" } };
	const struct asm_tok *n = &st->toks[*pos + 1];
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		if (!asm_tok_is_ci(n, names[k][0]))
			continue;
		for (size_t i = 0; i < sizeof mnems / sizeof mnems[0]; i++)
			if (strcmp(mnems[i].name, names[k][1]) == 0)
				*m = &mnems[i];
		(*pos)++;
		return 0;
	}
	return asm_error(st, st->toks[*pos].col, "'rep' is modelled only in 'rep nop' (pause), 'rep ret' and "
			 "'rep bsf': string instructions are not (call memset or memcpy of lib/string.s "
			 "instead; see docs/c-workloads.md)");
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
		const struct asm_sym *y = asm_sym_at(st, (uint64_t)o->x.n[0].v);
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
	case F_IMUL3:
	case F_REG_RM:
		if (a->o.kind != OPND_REG || a->o.size < 2)
			return need(st, m, a, "a 16-, 32- or 64-bit register destination");
		if (!is_rm(b))
			return need(st, m, b, "a register or memory source");
		if (settle_sizes(st, a, b, 0))
			return -1;
		*size = a->o.size;
		return 0;
	case F_SHIFTD:
	case F_BT:
		if (!is_rm(a))
			return need(st, m, a, "a register or memory destination");
		if (m->form == F_SHIFTD ? b->o.kind != OPND_REG : !(b->o.kind == OPND_REG || b->o.kind == OPND_IMM))
			return need(st, m, b, m->form == F_SHIFTD ? "a register source" :
					     "a register or immediate bit offset");
		if (b->o.kind == OPND_IMM) {
			if (!a->o.size)
				return asm_error(st, a->col, "operand size not specified");
			b->o.size = 1;
		} else if (settle_sizes(st, a, b, 0)) {
			return -1;
		}
		if (a->o.size < 2)
			return asm_error(st, a->col, "'%s' has no 8-bit form", m->name);
		*size = a->o.size;
		return 0;
	case F_SETCC:
		if (!is_rm(a))
			return need(st, m, a, "an 8-bit register or memory destination");
		if (!a->o.size)
			a->o.size = 1;
		if (a->o.size != 1)
			return need(st, m, a, "an 8-bit register or memory destination");
		*size = 1;
		return 0;
	case F_BSWAP:
		if (a->o.kind != OPND_REG || a->o.size < 4)
			return need(st, m, a, "a 32- or 64-bit register");
		*size = a->o.size;
		return 0;
	case F_MOVABS:
		if (a->o.kind != OPND_REG || a->o.size != 8)
			return need(st, m, a, "a 64-bit register destination");
		if (b->o.kind != OPND_IMM)
			return need(st, m, b, "an immediate source");
		b->o.size = 8;
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
		*size = m->size;
		return 0;
	}
}

static int max_operands(int form)
{
	switch (form) {
	case F_NONE:
		return 0;
	case F_UNARY:
	case F_PUSH:
	case F_POP:
	case F_WORK:
	case F_SETCC:
	case F_BSWAP:
		return 1;
	case F_IMUL:
	case F_SHIFTD:
		return 3;
	default:
		return 2;
	}
}

/* A shift without a count shifts by 1, as x86's one-operand encoding. */
static int min_operands(int form)
{
	return form == F_IMUL || form == F_SHIFT ? 1 : max_operands(form);
}

/* imul's immediate or shld/shrd's count (an immediate or cl), into
 * in->imm3. It is a constant: symbols defined by .equ before it may be
 * used, addresses not. */
static int third_operand(struct asm_state *st, const struct mnem *m, struct asm_opnd *o,
			 struct insn *in)
{
	int64_t v;
	if (m->form == F_SHIFTD && o->o.kind == OPND_REG) {
		if (o->o.reg != R_RCX || o->o.size != 1 || o->o.hi8)
			return asm_error(st, o->col, "shift count must be an immediate or cl");
		in->imm3 = COUNT_CL;
		return 0;
	}
	if (o->o.kind != OPND_IMM)
		return need(st, m, o, m->form == F_SHIFTD ? "an immediate or cl count" : "an immediate");
	if (asm_expr_eval(st, o->x.n, o->x.len, POL_CONST, o->flags, 0, &v))
		return -1;
	if (m->form == F_SHIFTD ? v < 0 || v > 255 : !asm_fits(v, in->size < 4 ? in->size : 4) ||
	    (in->size >= 4 && v > INT32_MAX))
		return asm_error(st, o->col, "immediate %" PRId64 " does not fit in %u bits", v,
				 m->form == F_SHIFTD ? 8u : in->size < 4 ? 8u * in->size : 32u);
	in->imm3 = (int32_t)v;
	return 0;
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
	/* `call f@PLT`, as Clang writes a call it cannot see the end of even
	 * without -fpic: there is no PLT here, the label is the function. */
	const struct asm_tok *at = &st->toks[*pos];
	if (at->kind == T_PUNCT && at->ch == '@' && asm_tok_is_ci(&st->toks[*pos + 1], "plt"))
		*pos += 2;
	return asm_add_fixup(st, FIX_TARGET, 0, 0, 0, st->n_insns, &n, 1, loc);
}

/* jmp rax, call QWORD PTR [rbx+8], jmp [QWORD PTR .L4[0+rax*8]]: a
 * register or memory operand rather than a label. */
static int indirect_operand(const struct asm_tok *t)
{
	return (t->kind == T_PUNCT && t->ch == '[') ||
	       (t->kind == T_IDENT && asm_reserved_name(t->s, t->len));
}

/* The operand holds a code address, 8 bytes. */
static int check_indirect(struct asm_state *st, const struct mnem *m, struct asm_opnd *op)
{
	struct operand *o = &op->o;
	if (o->kind == OPND_REG && o->size != 8)
		return asm_error(st, op->col, "'%s' through a register needs a 64-bit register", m->name);
	if (o->kind == OPND_MEM && o->size && o->size != 8)
		return asm_error(st, op->col, "'%s' through memory needs a QWORD operand", m->name);
	if (o->kind != OPND_REG && o->kind != OPND_MEM)
		return asm_error(st, op->col, "'%s' needs a label, a register or a memory operand", m->name);
	o->size = 8;
	return 0;
}

/* x86 cannot encode ah ch dh bh in an instruction with a REX prefix: a
 * 64-bit operation, or one that names r8-r15, sil, dil, spl or bpl. */
static int check_hi8(struct asm_state *st, const struct asm_opnd *ops, int n, unsigned size)
{
	const struct asm_opnd *hi = NULL;
	int rex = size == 8;
	for (int i = 0; i < n; i++) {
		const struct operand *o = &ops[i].o;
		if (o->kind == OPND_REG && o->hi8)
			hi = &ops[i];
		else if (o->kind == OPND_REG)
			rex |= o->reg >= 8 || (o->size == 1 && o->reg >= 4);
		else if (o->kind == OPND_MEM)
			rex |= (o->base != R_NONE && o->base >= 8) || (o->index != R_NONE && o->index >= 8);
	}
	if (hi && rex)
		return asm_error(st, hi->col, "ah, ch, dh and bh cannot be used where x86 needs a REX prefix "
				 "(a 64-bit operation, r8-r15, sil, dil, spl or bpl)");
	return 0;
}

static int parse_insn(struct asm_state *st, uint32_t pos)
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
	const struct mnem *m = NULL;
	if (asm_tok_is_ci(t, "rep")) {
		if (in.lock)
			return asm_error(st, t->col, "'lock' cannot prefix 'rep'");
		if (rep_prefix(st, &pos, &m))
			return -1;
		t = &st->toks[pos];
	}
	asm_tok_text(t, what, sizeof what);
	struct mnem mn;
	char cc_name[16];
	if (!m && find_mnem(t, &mn, cc_name) == 0)
		m = &mn;
	if (!m && st->compiled)
		return asm_error(st, t->col, "unknown instruction %s (%s%s: bounce runs integer code; see "
				 "docs/c-workloads.md for the instructions it models)", what,
				 st->cloc_valid ? "compiled from " : "in compiler output",
				 st->cloc_valid ? st->files[st->cloc_file] : "");
	if (!m)
		return asm_error(st, t->col, "unknown instruction %s", what);
	if (in.lock && !m->lockable)
		return asm_error(st, t->col, "'lock' cannot prefix '%s'", m->name);
	if (st->section != SEC_TEXT)
		return asm_error(st, t->col, "instruction outside .text");
	pos++;
	in.op = m->op;
	in.cond = m->cond;
	uint32_t loc; /* of the assembly line, where fixups report */
	if (asm_new_loc(st, col0, &loc))
		return -1;
	in.loc = st->err_cloc != ASM_NO_LOC ? st->err_cloc : loc;

	struct asm_opnd ops[3] = {0};
	int n = 0;
	if (m->form == F_BRANCH && m->op != OP_JCC && indirect_operand(&st->toks[pos])) {
		/* GCC brackets the whole operand: call [QWORD PTR [r12+8]] */
		int outer = asm_is_punct(&st->toks[pos], '[') && asm_tok_is_ci(&st->toks[pos + 1], "qword");
		pos += (uint32_t)outer;
		if (asm_parse_operand(st, &pos, &ops[0]))
			return -1;
		if (outer && !asm_is_punct(&st->toks[pos], ']')) {
			asm_tok_text(&st->toks[pos], what, sizeof what);
			return asm_error(st, st->toks[pos].col, "expected ']' but found %s", what);
		}
		pos += (uint32_t)outer;
		if (check_indirect(st, m, &ops[0]))
			return -1;
		n = 1;
		in.op = m->op == OP_JMP ? OP_JMP_IND : OP_CALL_IND;
	} else if (m->form == F_BRANCH || m->form == F_MARK) {
		if (parse_name_operand(st, &pos, m, &in, loc))
			return -1;
	} else {
		while (st->toks[pos].kind != T_END) {
			if (n == max_operands(m->form)) {
				const struct asm_tok *x = &st->toks[pos];
				const struct asm_tok *prev = &st->toks[pos - 1];
				asm_tok_text(x, what, sizeof what);
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
		int lo = min_operands(m->form), hi = max_operands(m->form);
		if (n < lo || n > hi) {
			if (lo == hi)
				return asm_error(st, st->toks[pos].col, "'%s' takes %d operand%s", m->name,
						 hi, hi == 1 ? "" : "s");
			return asm_error(st, st->toks[pos].col, "'%s' takes %d to %d operands", m->name,
					 lo, hi);
		}
		if (n == 1)
			memset(&ops[1], 0, sizeof ops[1]);
		if (m->form == F_IMUL && n == 2 && ops[1].o.kind == OPND_IMM) {
			/* GAS's imul r, imm: r = r * imm */
			ops[2] = ops[1];
			ops[1] = ops[0];
			n = 3;
		}
		if (m->form == F_IMUL) {
			mn.form = n == 1 ? F_UNARY : n == 2 ? F_REG_RM : F_IMUL3;
			mn.op = n == 1 ? OP_IMUL1 : n == 2 ? OP_IMUL : OP_IMUL3;
			in.op = mn.op;
		}
		if (m->form == F_SHIFT && n == 1) {
			ops[1].o.kind = OPND_IMM;
			ops[1].o.imm = 1;
		}
		if (check_form(st, m, &ops[0], &ops[1], &in.size))
			return -1;
		if (n == 3 && third_operand(st, m, &ops[2], &in))
			return -1;
		if (check_hi8(st, ops, n, in.size))
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
	if (n > 1 || ops[1].o.kind != OPND_NONE)
		in.b = ops[1].o;
	st->insns[idx] = in;
	st->n_insns++;
	for (int i = 0; i < n && i < 2; i++) {
		if (!ops[i].has_expr)
			continue;
		int mem = ops[i].o.kind == OPND_MEM;
		uint8_t flags = (uint8_t)(ops[i].flags | (in.op == OP_LEA ? PF_ADDR : 0));
		if (asm_settle(st, i ? FIX_OPND_B : FIX_OPND_A, mem ? POL_MEM : POL_IMM,
			       flags, mem ? 8 : ops[i].o.size, idx, ops[i].x.n, ops[i].x.len,
			       loc, 1))
			return -1;
	}
	return 0;
}

int asm_parse_insn(struct asm_state *st, uint32_t pos)
{
	/* Under a .loc the instruction is at its C line: where it runs, and
	 * where its errors are reported (with the assembly line). */
	if (st->cloc_valid &&
	    asm_new_loc_at(st, st->cloc_file, st->cloc_line, st->cloc_col, &st->err_cloc))
		return -1;
	int rc = parse_insn(st, pos);
	st->err_cloc = ASM_NO_LOC;
	return rc;
}
