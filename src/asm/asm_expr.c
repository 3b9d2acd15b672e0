/* Assemble-time expressions: + - *, parentheses and max(a, b) / min(a, b)
 * over numbers, .equ constants, NR_CPUS and symbol addresses (max is what
 * the kernel's max(32, 2 * nr_cpus) batch needs), compiled to postfix so that a
 * forward reference can be evaluated at the end. Nesting is bounded
 * (ASM_MAX_PAREN), so no input drives the recursion deeper than that. */
#include "config.h"
#include "asm/asm_internal.h"
#include "base/invariant.h"

#include <inttypes.h>
#include <string.h>

int asm_expr_push(struct asm_state *st, struct asm_expr *x, uint8_t op, uint32_t col, int64_t v)
{
	if (x->len >= ASM_MAX_XNODES)
		return asm_error(st, col, "expression too long");
	x->n[x->len].op = op;
	x->n[x->len].col = col;
	x->n[x->len].v = v;
	x->len++;
	return 0;
}

static int sum(struct asm_state *st, uint32_t *pos, struct asm_expr *x, int depth);

static int expect_punct(struct asm_state *st, uint32_t *pos, char ch)
{
	const struct asm_tok *t = &st->toks[*pos];
	char what[96];
	if (t->kind != T_PUNCT || t->ch != ch) {
		asm_tok_text(t, what, sizeof what);
		return asm_error(st, t->col, "expected '%c' but found %s", ch, what);
	}
	(*pos)++;
	return 0;
}

/* max(a, b) / min(a, b): the tokens at *pos are the name and '('. */
static int minmax(struct asm_state *st, uint32_t *pos, struct asm_expr *x, int depth)
{
	const struct asm_tok *t = &st->toks[*pos];
	uint8_t op = asm_tok_is(t, "max") ? X_MAX : X_MIN;
	if (depth >= ASM_MAX_PAREN)
		return asm_error(st, t->col, "expression nested too deeply");
	*pos += 2;
	if (sum(st, pos, x, depth + 1) || expect_punct(st, pos, ',') ||
	    sum(st, pos, x, depth + 1) || expect_punct(st, pos, ')'))
		return -1;
	return asm_expr_push(st, x, op, t->col, 0);
}

static int primary(struct asm_state *st, uint32_t *pos, struct asm_expr *x, int depth)
{
	const struct asm_tok *t = &st->toks[*pos];
	char what[96];
	uint8_t r, sz;
	if (t->kind == T_NUM) {
		if (t->big)
			return asm_error(st, t->col, "number too large");
		(*pos)++;
		return asm_expr_push(st, x, X_NUM, t->col, (int64_t)t->num);
	}
	if (t->kind == T_PUNCT && t->ch == '(') {
		if (depth >= ASM_MAX_PAREN)
			return asm_error(st, t->col, "expression nested too deeply");
		(*pos)++;
		if (sum(st, pos, x, depth + 1))
			return -1;
		t = &st->toks[*pos];
		if (t->kind != T_PUNCT || t->ch != ')') {
			asm_tok_text(t, what, sizeof what);
			return asm_error(st, t->col, "expected ')' but found %s", what);
		}
		(*pos)++;
		return 0;
	}
	asm_tok_text(t, what, sizeof what);
	if (t->kind != T_IDENT)
		return asm_error(st, t->col, "expected an expression but found %s", what);
	if (asm_tok_is(t, "NR_CPUS")) {
		(*pos)++;
		return asm_expr_push(st, x, X_NUM, t->col, st->nr_cpus);
	}
	if (asm_tok_is(t, "CPU"))
		return asm_error(st, t->col, "CPU is only allowed as a whole operand: load it first "
				 "(mov rax, CPU), then compute with the register");
	if ((asm_tok_is(t, "max") || asm_tok_is(t, "min")) && t[1].kind == T_PUNCT && t[1].ch == '(')
		return minmax(st, pos, x, depth);
	if (asm_reg_lookup(t->s, t->len, &r, &sz) == 0)
		return asm_error(st, t->col, "register %s not allowed here", what);
	if (asm_reserved_name(t->s, t->len))
		return asm_error(st, t->col, "unexpected %s", what);
	uint32_t idx;
	if (asm_sym_ref(st, t->s, t->len, &idx))
		return -1;
	(*pos)++;
	return asm_expr_push(st, x, X_SYM, t->col, idx);
}

/* Signs are counted in a loop: a run of unary minuses is not recursion. */
static int unary(struct asm_state *st, uint32_t *pos, struct asm_expr *x, int depth)
{
	int neg = 0;
	uint32_t col = st->toks[*pos].col;
	for (;;) {
		const struct asm_tok *t = &st->toks[*pos];
		if (t->kind != T_PUNCT || (t->ch != '-' && t->ch != '+'))
			break;
		neg ^= t->ch == '-';
		(*pos)++;
	}
	uint32_t at = x->len;
	if (primary(st, pos, x, depth))
		return -1;
	/* A negated number is a 64-bit two's-complement value, as GAS takes
	 * it: -9223372036854775808 (INT64_MIN, which compilers write) is
	 * 2^63 negated, which no int64_t negation reaches. */
	if (neg && x->len == at + 1 && x->n[at].op == X_NUM) {
		x->n[at].v = (int64_t)(0 - (uint64_t)x->n[at].v);
		return 0;
	}
	return neg ? asm_expr_push(st, x, X_NEG, col, 0) : 0;
}

static int term(struct asm_state *st, uint32_t *pos, struct asm_expr *x, int depth)
{
	if (unary(st, pos, x, depth))
		return -1;
	for (;;) {
		const struct asm_tok *t = &st->toks[*pos];
		if (t->kind != T_PUNCT || t->ch != '*')
			return 0;
		(*pos)++;
		if (unary(st, pos, x, depth) || asm_expr_push(st, x, X_MUL, t->col, 0))
			return -1;
	}
}

static int sum(struct asm_state *st, uint32_t *pos, struct asm_expr *x, int depth)
{
	if (term(st, pos, x, depth))
		return -1;
	for (;;) {
		const struct asm_tok *t = &st->toks[*pos];
		if (t->kind != T_PUNCT || (t->ch != '+' && t->ch != '-'))
			return 0;
		(*pos)++;
		if (term(st, pos, x, depth) ||
		    asm_expr_push(st, x, t->ch == '+' ? X_ADD : X_SUB, t->col, 0))
			return -1;
	}
}

int asm_expr_sum(struct asm_state *st, uint32_t *pos, struct asm_expr *x)
{
	return sum(st, pos, x, 0);
}

int asm_expr_term(struct asm_state *st, uint32_t *pos, struct asm_expr *x)
{
	return term(st, pos, x, 0);
}

static const char *section_name(int sec)
{
	switch (sec) {
	case SEC_TEXT: return ".text";
	case SEC_DATA: return ".data";
	case SEC_PERCPU: return ".percpu";
	default: return ".equ";
	}
}

/* A code label as a value is its code address (cpu/program.h): what a
 * function pointer or a jump table's entry holds. It is taken where an
 * address may be (`offset f`, `lea rax, f[rip]`, `.quad f`), and alone:
 * f + 8 would be the middle of an instruction on x86, and here there are
 * no bytes to be in the middle of. Code is never read as data. */
static int check_code_label(struct asm_state *st, const struct asm_sym *s, uint32_t col, int policy,
			    int flags, int alone)
{
	const char *nm = s->name;
	if (policy == POL_MEM && !(flags & PF_ADDR))
		return asm_error(st, col, "'%s' is a code label, not data", nm);
	if (policy == POL_CONST)
		return asm_error(st, col, "'%s' is a code address, not a constant", nm);
	if (policy == POL_IMM && !(flags & PF_OFFSET))
		return asm_error(st, col, "'%s' is a code label: write 'offset %s' for its address", nm,
				 nm);
	if (!alone)
		return asm_error(st, col, "'%s' is a code label: its address is taken alone, not computed "
				 "with", nm);
	if (s->value < 0 || s->value >= (int64_t)PROG_MAX_CODE_ADDRS)
		return asm_error(st, col, "'%s' is instruction %" PRId64 ": code addresses reach the first "
				 "%u instructions only", nm, s->value, PROG_MAX_CODE_ADDRS);
	return 0;
}

static int check_symbol(struct asm_state *st, const struct asm_sym *s, uint32_t col, int policy,
			int flags, int alone)
{
	const char *nm = s->name;
	if (s->section == SEC_ABS)
		return 0;
	if (s->section == SEC_TEXT)
		return check_code_label(st, s, col, policy, flags, alone);
	switch (policy) {
	case POL_CONST:
		return asm_error(st, col, "'%s' is an address, not a constant", nm);
	case POL_IMM:
		if (!(flags & PF_OFFSET))
			return asm_error(st, col,
					 "'%s' is an address: write [%s] to load it or 'offset %s' for the address",
					 nm, nm, nm);
		return 0;
	case POL_MEM:
		if ((flags & PF_GS) && s->section != SEC_PERCPU)
			return asm_error(st, col, "gs: needs a .percpu symbol, '%s' is in %s", nm,
					 section_name(s->section));
		if (!(flags & (PF_GS | PF_REG | PF_ADDR)) && s->section == SEC_PERCPU)
			return asm_error(st, col,
					 "'%s' is a .percpu offset: write gs:[%s] or add a per-CPU offset register",
					 nm, nm);
		return 0;
	default:
		return 0;
	}
}

int asm_expr_eval(struct asm_state *st, const struct asm_xnode *n, uint32_t len, int policy,
		  int flags, int may_defer, int64_t *val)
{
	int64_t stack[ASM_MAX_XNODES];
	uint32_t sp = 0;
	for (uint32_t i = 0; i < len; i++) {
		int64_t a, b, r = 0;
		switch (n[i].op) {
		case X_NUM:
			stack[sp++] = n[i].v;
			continue;
		case X_SYM: {
			const struct asm_sym *s = asm_sym_at(st, (uint64_t)n[i].v);
			if (!s->defined) {
				char hint[160];
				if (may_defer)
					return 1;
				return asm_error(st, n[i].col, "undefined symbol '%s'%s", s->name,
						 asm_did_you_mean(st, s->name, -1, hint, sizeof hint));
			}
			if (check_symbol(st, s, n[i].col, policy, flags, len == 1))
				return -1;
			stack[sp++] = s->section == SEC_TEXT ? (int64_t)PROG_CODE_BASE + s->value :
							       s->value;
			continue;
		}
		case X_NEG:
			if (NEVER(sp < 1))
				return err_internal(st->e, "assembler: malformed expression");
			a = stack[sp - 1];
			if (__builtin_sub_overflow((int64_t)0, a, &r))
				return asm_error(st, n[i].col, "arithmetic overflow");
			stack[sp - 1] = r;
			continue;
		default:
			break;
		}
		/* The parser emits well-formed postfix; a short stack is our bug,
		 * reported rather than read out of bounds. */
		if (NEVER(sp < 2))
			return err_internal(st->e, "assembler: malformed expression");
		b = stack[--sp];
		a = stack[sp - 1];
		if (n[i].op == X_MAX || n[i].op == X_MIN) {
			stack[sp - 1] = (n[i].op == X_MAX) == (a > b) ? a : b;
			continue;
		}
		int ovf = n[i].op == X_ADD ? __builtin_add_overflow(a, b, &r) :
			  n[i].op == X_SUB ? __builtin_sub_overflow(a, b, &r) :
					     __builtin_mul_overflow(a, b, &r);
		if (ovf)
			return asm_error(st, n[i].col, "arithmetic overflow");
		stack[sp - 1] = r;
	}
	*val = sp ? stack[0] : 0;
	return 0;
}

/* An immediate of `width` bytes may be written signed or unsigned. */
int asm_fits(int64_t v, unsigned width)
{
	if (width >= 8)
		return 1;
	int64_t lo = -((int64_t)1 << (8 * width - 1));
	int64_t hi = ((int64_t)1 << (8 * width)) - 1;
	return v >= lo && v <= hi;
}
