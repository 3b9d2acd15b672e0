/* One instruction operand: a register, an immediate expression (`CPU`,
 * `offset sym`, `OFFSET FLAT:sym`), or a memory reference `[size ptr]
 * [gs:][disp][base + index*scale + disp]`, where `rip` as the base means
 * the symbol's own address (compiler output's `sym[rip]`, `[rip + sym]`).
 * Sizes left unwritten are 0 here; asm_insn.c settles them. */
#include "config.h"
#include "asm/asm_internal.h"

#include <string.h>

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

/* rip-relative: the address is the displacement's symbol; there are no
 * code addresses, so it takes no other register and needs a symbol. */
static int check_rip(struct asm_state *st, const struct asm_opnd *op, uint32_t col)
{
	if (op->o.base != R_NONE || op->o.index != R_NONE)
		return asm_error(st, col, "rip cannot be combined with another register");
	for (uint32_t i = 0; i < op->x.len; i++)
		if (op->x.n[i].op == X_SYM)
			return 0;
	return asm_error(st, col, "a rip-relative address needs a symbol (sym[rip] or [rip + sym])");
}

/* The terms between [ and ], split at + and - outside parentheses: each
 * is a register, reg*scale, scale*reg, rip, or part of the displacement,
 * which may have begun before the '[' (have_disp). */
static int parse_mem(struct asm_state *st, uint32_t *pos, struct asm_opnd *op, int have_disp)
{
	uint32_t rip_col = 0;
	for (int first = 1;; first = 0) {
		const struct asm_tok *t = &st->toks[*pos];
		const struct asm_tok *sign = NULL;
		if (!first) {
			if (asm_is_punct(t, ']')) {
				(*pos)++;
				break;
			}
			if (!asm_is_punct(t, '+') && !asm_is_punct(t, '-'))
				return expected(st, t, "'+', '-' or ']'");
			sign = t;
			t = &st->toks[++*pos];
		}
		/* Clang's inline-asm memory operands: [rip + offset sym] */
		if (asm_tok_is_ci(t, "offset") && st->toks[*pos + 1].kind == T_IDENT)
			t = &st->toks[++*pos];
		uint8_t reg, size;
		const struct asm_tok *t1 = &st->toks[*pos + (t->kind != T_END)];
		if (asm_tok_is_ci(t, "rip")) {
			if (sign && sign->ch == '-')
				return asm_error(st, t->col, "a register cannot be subtracted");
			if (rip_col)
				return asm_error(st, t->col, "rip can only appear once");
			rip_col = t->col;
			(*pos)++;
			continue;
		}
		if (tok_reg_hi8(t, &reg))
			return asm_error(st, t->col, "address register %.*s must be 64-bit", (int)t->len, t->s);
		if (tok_reg(t, &reg, &size)) {
			if (sign && sign->ch == '-')
				return asm_error(st, t->col, "a register cannot be subtracted");
			(*pos)++;
			uint64_t scale = 1;
			int scaled = 0;
			if (asm_is_punct(&st->toks[*pos], '*')) {
				const struct asm_tok *s = &st->toks[++*pos];
				if (s->kind != T_NUM || s->big)
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
		if (t->kind == T_NUM && !t->big && asm_is_punct(t1, '*') &&
		    tok_reg(&st->toks[*pos + 2], &reg, &size)) {
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
		if (asm_is_punct(t, ']'))
			return expected(st, t, "an address");
		if (asm_expr_term(st, pos, &op->x))
			return -1;
		if (have_disp) {
			int minus = sign && sign->ch == '-';
			if (asm_expr_push(st, &op->x, minus ? X_SUB : X_ADD, sign ? sign->col : t->col, 0))
				return -1;
		} else if (sign && sign->ch == '-') {
			if (asm_expr_push(st, &op->x, X_NEG, sign->col, 0))
				return -1;
		}
		have_disp = 1;
	}
	op->has_expr = (uint8_t)have_disp;
	if (rip_col && check_rip(st, op, rip_col))
		return -1;
	if (op->o.base != R_NONE || op->o.index != R_NONE)
		op->flags |= PF_REG;
	if (op->o.gs)
		op->flags |= PF_GS;
	return 0;
}

/* A memory operand from its '[' at *pos, with its size keyword's size
 * (0: none), gs: and whether a displacement came before the brackets. */
static void mem_operand(struct asm_opnd *op, int sz, int gs)
{
	op->o.kind = OPND_MEM;
	op->o.size = (uint8_t)sz;
	op->o.gs = (uint8_t)gs;
	op->o.base = op->o.index = R_NONE;
	op->o.scale = 1;
}

static int parse_mem_at(struct asm_state *st, uint32_t *pos, struct asm_opnd *op, int sz, int gs,
			int have_disp)
{
	(*pos)++;
	mem_operand(op, sz, gs);
	return parse_mem(st, pos, op, have_disp);
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
	int gs = asm_tok_is_ci(t, "gs") && asm_is_punct(&st->toks[*pos + 1], ':');
	if (gs) {
		*pos += 2;
		t = &st->toks[*pos];
	}
	/* ds: changes nothing in 64-bit code; GCC writes it before an
	 * absolute address, QWORD PTR ds:0 for a constant pointer */
	int ds = !gs && asm_tok_is_ci(t, "ds") && asm_is_punct(&st->toks[*pos + 1], ':');
	if (ds) {
		*pos += 2;
		t = &st->toks[*pos];
	}
	if (asm_is_punct(t, '['))
		return parse_mem_at(st, pos, op, sz, gs, 0);
	if (sz || gs || ds) {
		/* GAS's disp[base + index*scale]: the displacement may stand
		 * before the brackets (`counter[rip]`, `8[rdi]`) */
		if (t->kind == T_END || asm_is_punct(t, ','))
			return expected(st, t, gs ? "an address after gs:" : ds ? "an address after ds:" :
						    "a memory operand after the size");
		if (asm_expr_sum(st, pos, &op->x))
			return -1;
		if (ds && !asm_is_punct(&st->toks[*pos], '[')) {
			mem_operand(op, sz, 0);
			op->has_expr = 1;
			return 0;
		}
		if (!asm_is_punct(&st->toks[*pos], '['))
			return expected(st, &st->toks[*pos], "'[' (a memory operand)");
		return parse_mem_at(st, pos, op, sz, gs, 1);
	}
	if (asm_is_punct(t, '%') && st->toks[*pos + 1].kind == T_IDENT)
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
		/* GCC's `OFFSET FLAT:sym`: the flat (only) segment */
		if (asm_tok_is_ci(t, "flat") && asm_is_punct(&st->toks[*pos + 1], ':')) {
			*pos += 2;
			t = &st->toks[*pos];
		}
	}
	if (t->kind == T_END || asm_is_punct(t, ','))
		return expected(st, t, "an operand");
	if (asm_expr_sum(st, pos, &op->x))
		return -1;
	if (!(op->flags & PF_OFFSET) && asm_is_punct(&st->toks[*pos], '['))
		return parse_mem_at(st, pos, op, 0, 0, 1);
	op->o.kind = OPND_IMM;
	op->has_expr = 1;
	return 0;
}
