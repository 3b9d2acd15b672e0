/* One source line: labels, then a directive or an instruction. Also where
 * values land: asm_settle stores a computed value, or keeps a fixup for a
 * symbol defined further down, resolved by asm_finish. */
#include "config.h"
#include "asm/asm_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int asm_add_fixup(struct asm_state *st, uint8_t kind, uint8_t policy, uint8_t flags,
		  uint8_t width, uint64_t at, const struct asm_xnode *n, uint32_t len,
		  uint32_t loc)
{
	if (asm_grow(st, (void **)&st->fix, &st->cap_fix, st->n_fix + 1, sizeof *st->fix))
		return -1;
	struct asm_fixup *f = &st->fix[st->n_fix];
	memset(f, 0, sizeof *f);
	if (!(f->n = malloc(len * sizeof *n)))
		return asm_oom(st);
	memcpy(f->n, n, len * sizeof *n);
	f->len = len;
	f->kind = kind;
	f->policy = policy;
	f->flags = flags;
	f->width = width;
	f->at = at;
	f->loc = loc;
	f->cloc = st->err_cloc;
	st->n_fix++;
	return 0;
}

/* A call from C to a function no program defines: the C library's, which
 * does not exist on the simulated machine, or a helper the compiler calls
 * for C it cannot inline (libgcc, libatomic), named for the C that needs
 * it. Returns -1 with the message. */
static int undefined_c_call(struct asm_state *st, uint32_t col, const char *name)
{
	static const char *const div128[] = { "__divti3", "__udivti3", "__modti3", "__umodti3",
					      "__divmodti4", "__udivmodti4" };
	const char *what = NULL;
	size_t k = strlen(name);
	/* libgcc's soft-float helpers (__adddf3, __mulsf3, __fixdfsi...): what
	 * floating point compiles to without the vector registers */
	if (k > 5 && name[0] == '_' && name[1] == '_' &&
	    (strstr(name, "df") || strstr(name, "sf") || strstr(name, "tf")) &&
	    (name[k - 1] == '2' || name[k - 1] == '3' || name[k - 1] == 'i'))
		return asm_error(st, col, "floating point (the compiler called '%s'): bounce runs integer code",
				 name);
	if (strncmp(name, "__atomic_", 9) == 0 || strncmp(name, "__sync_", 7) == 0)
		what = "an atomic the compiler could not inline (16 bytes, or not naturally aligned): "
		       "bounce runs the x86 atomics of 1, 2, 4 and 8 bytes";
	else if (strncmp(name, "__popcount", 10) == 0)
		what = "__builtin_popcount on a CPU without popcnt: count the bits in C (x &= x - 1 in a "
		       "loop), as the kernel's __sw_hweight64 does";
	for (size_t i = 0; !what && i < sizeof div128 / sizeof div128[0]; i++)
		if (strcmp(name, div128[i]) == 0)
			what = "a 128-bit division: bounce runs 64-bit integer code";
	if (what)
		return asm_error(st, col, "%s (the compiler called '%s', a helper of its runtime library, "
				 "which does not exist here)", what, name);
	return asm_error(st, col, "call to '%s', which no program defines (there is no C library: define "
			 "it in a .c file of \"program\", or leave it out)", name);
}

int asm_settle(struct asm_state *st, uint8_t kind, uint8_t policy, uint8_t flags, uint8_t width,
	       uint64_t at, const struct asm_xnode *n, uint32_t len, uint32_t loc, int may_defer)
{
	if (kind == FIX_TARGET) {
		const struct asm_sym *s = asm_sym_at(st, (uint64_t)n[0].v);
		if (!s->defined) {
			char hint[400];
			if (may_defer)
				return asm_add_fixup(st, kind, policy, flags, width, at, n, len, loc);
			if (!asm_library_hint(st, s->name, hint, sizeof hint)[0])
				asm_did_you_mean(st, s->name, SEC_TEXT, hint, sizeof hint);
			if (st->err_cloc != ASM_NO_LOC && (st->insns[at].op == OP_CALL || st->insns[at].op == OP_JMP) && !hint[0])
				return undefined_c_call(st, n[0].col, s->name);
			return asm_error(st, n[0].col, "undefined label '%s'%s", s->name, hint);
		}
		if (s->section != SEC_TEXT)
			return asm_error(st, n[0].col, "'%s' is not a code label", s->name);
		st->insns[at].target = (uint32_t)s->value;
		return 0;
	}
	int64_t v;
	int rc = asm_expr_eval(st, n, len, policy, flags, may_defer, &v);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return asm_add_fixup(st, kind, policy, flags, width, at, n, len, loc);
	if (kind == FIX_OPND_A || kind == FIX_OPND_B) {
		struct operand *o = kind == FIX_OPND_A ? &st->insns[at].a : &st->insns[at].b;
		if (o->kind == OPND_IMM && !asm_fits(v, width))
			return asm_error(st, n[0].col, "immediate %" PRId64 " does not fit in %u bits",
					 v, width * 8u);
		if (st->insns[at].op == OP_WORK && v < 0)
			return asm_error(st, n[0].col, "work %" PRId64 " is negative", v);
		o->imm = v;
		return 0;
	}
	if (!asm_fits(v, width))
		return asm_error(st, n[0].col, "value %" PRId64 " does not fit in %u byte%s", v,
				 width, width == 1 ? "" : "s");
	uint8_t bytes[8];
	for (unsigned i = 0; i < width; i++)
		bytes[i] = (uint8_t)((uint64_t)v >> (8 * i));
	if (kind == FIX_PERCPU)
		memcpy(st->percpu + at, bytes, width);
	else if (sp_mem_write(&st->data, at, bytes, width))
		return asm_oom(st);
	return 0;
}

static int define_label(struct asm_state *st, const struct asm_tok *t)
{
	int64_t v;
	switch (st->section) {
	case SEC_TEXT:
		v = st->n_insns;
		break;
	case SEC_DATA:
		v = (int64_t)(PROG_DATA_BASE + st->data_size);
		break;
	default:
		v = (int64_t)st->percpu_size;
		break;
	}
	return asm_sym_define(st, t, st->section, v);
}

int asm_parse_line(struct asm_state *st, const char *text, size_t len)
{
	/* a discarded section's contents (debug data with its label
	 * differences) are skipped unread up to the next section switch */
	if (st->discard && !asm_is_section_switch(text, len))
		return 0;
	st->line_text = text;
	st->line_len = len;
	if (asm_lex_line(st, text, len))
		return -1;
	uint32_t pos = 0;
	while (st->toks[pos].kind == T_IDENT && st->toks[pos + 1].kind == T_PUNCT &&
	       st->toks[pos + 1].ch == ':' && !asm_tok_is_ci(&st->toks[pos], "gs")) {
		if (define_label(st, &st->toks[pos]))
			return -1;
		pos += 2;
	}
	const struct asm_tok *t = &st->toks[pos];
	if (t->kind == T_END)
		return 0;
	if (t->kind == T_IDENT && t->s[0] == '.')
		return asm_parse_directive(st, pos);
	if (t->kind == T_IDENT)
		return asm_parse_insn(st, pos);
	char what[96];
	asm_tok_text(t, what, sizeof what);
	return asm_error(st, t->col, "expected an instruction or directive but found %s", what);
}
