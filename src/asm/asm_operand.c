/* One instruction operand: a register, an immediate expression (`CPU`,
 * `offset sym`), or a memory reference `[size ptr] [gs:][base + index*scale
 * + disp]`. Sizes left unwritten are 0 here; asm_insn.c settles them. */
#include "config.h"
#include "asm/asm_internal.h"

#include <string.h>

static int is_punct(const struct asm_tok *t, char c)
{
	return t->kind == T_PUNCT && t->ch == c;
}

static int expected(struct asm_state *st, const struct asm_tok *t, const char *what)
{
	char found[96];
	asm_tok_text(t, found, sizeof found);
	return asm_error(st, t->col, "expected %s but found %s", what, found);
}

static int tok_reg(const struct asm_tok *t, uint8_t *reg, uint8_t *size)
{
	return t->kind == T_IDENT && asm_reg_lookup(t->s, t->len, reg, size) == 0;
}

/* ah ch dh bh: bits 8-15 of rax rcx rdx rbx, operands only (never an
 * address or a thread's register). */
static int tok_reg_hi8(const struct asm_tok *t, uint8_t *reg)
{
	static const char *const names[] = { "ah", "ch", "dh", "bh" };
	for (uint8_t i = 0; i < 4; i++)
		if (asm_tok_is_ci(t, names[i]))
			return *reg = i, 1;
	return 0;
}

static int add_reg(struct asm_state *st, struct asm_opnd *op, const struct asm_tok *t,
		   uint8_t reg, uint8_t size, uint64_t scale, int scaled)
{
	char what[96];
	asm_tok_text(t, what, sizeof what);
	if (size != 8)
		return asm_error(st, t->col, "address register %s must be 64-bit", what);
	if (!scaled && op->o.base == R_NONE) {
		op->o.base = reg;
		return 0;
	}
	if (op->o.index != R_NONE)
		return asm_error(st, t->col, "too many registers in memory operand");
	if (scale != 1 && scale != 2 && scale != 4 && scale != 8)
		return asm_error(st, t->col, "scale must be 1, 2, 4 or 8");
	if (reg == R_RSP)
		return asm_error(st, t->col, "rsp cannot be an index register");
	op->o.index = reg;
	op->o.scale = (uint8_t)scale;
	return 0;
}

/* The terms between [ and ], split at + and - outside parentheses: each
 * is a register, reg*scale, scale*reg, or part of the displacement. */
static int parse_mem(struct asm_state *st, uint32_t *pos, struct asm_opnd *op)
{
	int have_disp = 0;
	for (int first = 1;; first = 0) {
		const struct asm_tok *t = &st->toks[*pos];
		const struct asm_tok *sign = NULL;
		if (!first) {
			if (is_punct(t, ']')) {
				(*pos)++;
				break;
			}
			if (!is_punct(t, '+') && !is_punct(t, '-'))
				return expected(st, t, "'+', '-' or ']'");
			sign = t;
			t = &st->toks[++*pos];
		}
		uint8_t reg, size;
		const struct asm_tok *t1 = &st->toks[*pos + (t->kind != T_END)];
		if (tok_reg_hi8(t, &reg))
			return asm_error(st, t->col, "address register %.*s must be 64-bit", (int)t->len, t->s);
		if (tok_reg(t, &reg, &size)) {
			if (sign && sign->ch == '-')
				return asm_error(st, t->col, "a register cannot be subtracted");
			(*pos)++;
			uint64_t scale = 1;
			int scaled = 0;
			if (is_punct(&st->toks[*pos], '*')) {
				const struct asm_tok *s = &st->toks[++*pos];
				if (s->kind != T_NUM)
					return expected(st, s, "a scale (1, 2, 4 or 8)");
				scale = s->num;
				scaled = 1;
				(*pos)++;
				if (scale != 1 && scale != 2 && scale != 4 && scale != 8)
					return asm_error(st, s->col, "scale must be 1, 2, 4 or 8");
			}
			if (add_reg(st, op, t, reg, size, scale, scaled))
				return -1;
			continue;
		}
		if (t->kind == T_NUM && is_punct(t1, '*') && tok_reg(&st->toks[*pos + 2], &reg, &size)) {
			if (sign && sign->ch == '-')
				return asm_error(st, st->toks[*pos + 2].col,
						 "a register cannot be subtracted");
			if (t->num != 1 && t->num != 2 && t->num != 4 && t->num != 8)
				return asm_error(st, t->col, "scale must be 1, 2, 4 or 8");
			if (add_reg(st, op, &st->toks[*pos + 2], reg, size, t->num, 1))
				return -1;
			*pos += 3;
			continue;
		}
		if (is_punct(t, ']'))
			return expected(st, t, "an address");
		if (asm_expr_term(st, pos, &op->x))
			return -1;
		if (have_disp) {
			if (asm_expr_push(st, &op->x, sign->ch == '-' ? X_SUB : X_ADD, sign->col, 0))
				return -1;
		} else if (sign && sign->ch == '-') {
			if (asm_expr_push(st, &op->x, X_NEG, sign->col, 0))
				return -1;
		}
		have_disp = 1;
	}
	op->has_expr = have_disp;
	if (op->o.base != R_NONE || op->o.index != R_NONE)
		op->flags |= PF_REG;
	if (op->o.gs)
		op->flags |= PF_GS;
	return 0;
}

static int size_keyword(const struct asm_tok *t)
{
	if (asm_tok_is_ci(t, "byte"))
		return 1;
	if (asm_tok_is_ci(t, "word"))
		return 2;
	if (asm_tok_is_ci(t, "dword"))
		return 4;
	if (asm_tok_is_ci(t, "qword"))
		return 8;
	return 0;
}

int asm_parse_operand(struct asm_state *st, uint32_t *pos, struct asm_opnd *op)
{
	const struct asm_tok *t = &st->toks[*pos];
	memset(op, 0, sizeof *op);
	op->o.reg = op->o.base = op->o.index = R_NONE;
	op->col = t->col;
	uint8_t reg, size;

	int sz = size_keyword(t);
	if (sz) {
		t = &st->toks[++*pos];
		if (asm_tok_is_ci(t, "ptr"))
			t = &st->toks[++*pos];
	}
	if (asm_tok_is_ci(t, "gs") && is_punct(&st->toks[*pos + 1], ':')) {
		op->o.gs = 1;
		*pos += 2;
		t = &st->toks[*pos];
		if (!is_punct(t, '['))
			return expected(st, t, "'[' after gs:");
	}
	if (is_punct(t, '[')) {
		(*pos)++;
		op->o.kind = OPND_MEM;
		op->o.size = (uint8_t)sz;
		op->o.base = op->o.index = R_NONE;
		op->o.scale = 1;
		return parse_mem(st, pos, op);
	}
	if (sz && t->kind == T_IDENT && is_punct(&st->toks[*pos + 1], '['))
		/* GAS's sym[reg] puts the displacement outside; here it goes inside */
		return asm_error(st, t->col, "expected a memory operand after the size but found '%.*s[': "
				 "write the symbol inside the brackets, as in [%.*s + rcx*8]",
				 (int)t->len, t->s, (int)t->len, t->s);
	if (sz)
		return expected(st, t, "a memory operand after the size");
	if (is_punct(t, '%') && st->toks[*pos + 1].kind == T_IDENT)
		/* %rax: AT&T syntax, what GCC emits by default */
		return asm_error(st, t->col, "expected an operand but found '%%%.*s': bounce's assembly is "
				 "Intel syntax (write %.*s, as gcc -masm=intel does)",
				 (int)st->toks[*pos + 1].len, st->toks[*pos + 1].s,
				 (int)st->toks[*pos + 1].len, st->toks[*pos + 1].s);
	int hi8 = tok_reg_hi8(t, &reg);
	if (hi8 || tok_reg(t, &reg, &size)) {
		(*pos)++;
		op->o.kind = OPND_REG;
		op->o.reg = reg;
		op->o.size = hi8 ? 1 : size;
		op->o.hi8 = (uint8_t)hi8;
		return 0;
	}
	if (asm_tok_is(t, "CPU")) {
		(*pos)++;
		op->o.kind = OPND_CPU;
		return 0;
	}
	if (asm_tok_is_ci(t, "offset")) {
		op->flags |= PF_OFFSET;
		t = &st->toks[++*pos];
	}
	if (t->kind == T_END || is_punct(t, ','))
		return expected(st, t, "an operand");
	op->o.kind = OPND_IMM;
	op->has_expr = 1;
	return asm_expr_sum(st, pos, &op->x);
}
