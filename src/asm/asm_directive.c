/* Directives: .align/.p2align, data (.byte/.word/.long/.quad/.space),
 * .equ with scenario defines overriding it, and .include (handed to the
 * source driver). Sections are asm_section.c's, what compiler output
 * adds (.file, .loc, .comm, strings, ...) asm_compiled.c's. */
#include "config.h"
#include "asm/asm_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int asm_end_of_line(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	if (t->kind == T_END)
		return 0;
	char what[96];
	asm_tok_text(t, what, sizeof what);
	return asm_error(st, t->col, "unexpected %s", what);
}

/* Grow a data section by n zero bytes; *at is where they start. */
int asm_section_bytes(struct asm_state *st, int section, uint64_t n, uint32_t col, uint64_t *at)
{
	if (section == SEC_TEXT)
		return asm_error(st, col, "data directive in .text (write .data or .percpu first)");
	uint64_t *size = section == SEC_DATA ? &st->data_size : &st->percpu_size;
	const char *name = section == SEC_DATA ? ".data" : ".percpu";
	/* Limits are stated with what is left, the number a user can act on. */
	if (n > PROG_MAX_DATA || *size + n > PROG_MAX_DATA)
		return asm_error(st, col, "%" PRIu64 " more bytes would make %s %" PRIu64 " bytes, over its "
				 "limit of %llu (2 GiB): %" PRIu64 " bytes are left", n, name,
				 n > PROG_MAX_DATA ? n : *size + n, (unsigned long long)PROG_MAX_DATA,
				 (uint64_t)(PROG_MAX_DATA - *size));
	/* Every CPU gets a written copy of .percpu: bound the memory map
	 * beyond .data (whose zeros cost nothing: memory is sparse). */
	uint64_t pcpu = st->percpu_size;
	uint64_t mem = asm_memory_size(st, 0, pcpu + (section == SEC_PERCPU ? n : 0));
	if (mem > PROG_MAX_MEMORY) {
		uint64_t lo = 0, hi = n; /* the most bytes that still fit */
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo + 1) / 2;
			if (asm_memory_size(st, 0, pcpu + mid) <= PROG_MAX_MEMORY)
				lo = mid;
			else
				hi = mid - 1;
		}
		return asm_error(st, col, "%" PRIu64 " more bytes of %s would make the simulated memory %" PRIu64
				 " bytes beyond .data (%d per-CPU copies of .percpu, stacks), over its limit of %u "
				 "(256 MiB): %" PRIu64 " more bytes of %s fit", n, name, mem, st->nr_cpus, PROG_MAX_MEMORY,
				 lo, name);
	}
	st->grow_file = st->cur_file_idx;
	st->grow_line = st->cur_line;
	st->grow_col = col;
	/* .data is sparse: growing it allocates nothing */
	if (section == SEC_PERCPU && *size + n > st->percpu_cap) {
		uint64_t c = st->percpu_cap ? st->percpu_cap : 256;
		while (c < *size + n)
			c *= 2;
		uint8_t *p = calloc(1, c);
		if (!p)
			return asm_oom(st);
		if (*size)
			memcpy(p, st->percpu, *size);
		free(st->percpu);
		st->percpu = p;
		st->percpu_cap = c;
	}
	*at = *size;
	*size += n;
	return 0;
}

int asm_section_write(struct asm_state *st, int section, uint64_t at, const uint8_t *b,
		      uint64_t n)
{
	if (section == SEC_PERCPU)
		memcpy(st->percpu + at, b, (size_t)n);
	else if (sp_mem_write(&st->data, at, b, n))
		return asm_oom(st);
	return 0;
}

/* n bytes of `fill` at `at`: zeros cost nothing (sparse memory), other
 * bytes are bounded in all (PROG_MAX_FILLED). */
static int section_fill(struct asm_state *st, uint64_t at, uint64_t n, uint8_t fill,
			uint32_t col)
{
	if (!fill || !n)
		return 0;
	if ((st->filled += n) > PROG_MAX_FILLED)
		return asm_error(st, col, "more than %llu bytes filled with a non-zero value",
				 (unsigned long long)PROG_MAX_FILLED);
	if (st->section == SEC_PERCPU)
		memset(st->percpu + at, fill, (size_t)n);
	else if (sp_mem_fill(&st->data, at, fill, n))
		return asm_oom(st);
	return 0;
}

/* A constant expression that must be known here (sizes, alignment). */
int asm_const_expr(struct asm_state *st, uint32_t *pos, int64_t *v)
{
	struct asm_expr x;
	x.len = 0;
	if (asm_expr_sum(st, pos, &x))
		return -1;
	return asm_expr_eval(st, x.n, x.len, POL_CONST, 0, 0, v);
}

/* `.align n[, [fill][, max]]` (bytes) and `.p2align p[, [fill][, max]]`
 * (2^p bytes), as GAS: padding with fill (default 0), skipped when it
 * would exceed max. In .text, where there are no addresses, a no-op. */
static int dir_align(struct asm_state *st, uint32_t pos, int p2)
{
	const struct asm_tok *t = &st->toks[pos];
	int64_t n, fill = 0, max = -1;
	if (asm_const_expr(st, &pos, &n))
		return -1;
	if (p2 && (n < 0 || n > 12))
		return asm_error(st, t->col, ".p2align %" PRId64 " is not in 0..12", n);
	if (p2)
		n = (int64_t)1 << n;
	if (n < 1 || n > ASM_MAX_ALIGN || (n & (n - 1)))
		return asm_error(st, t->col, ".align %" PRId64 " is not a power of two in 1..%u", n,
				 ASM_MAX_ALIGN);
	if (asm_is_punct(&st->toks[pos], ',')) {
		const struct asm_tok *f = &st->toks[++pos];
		if (!asm_is_punct(f, ',') && f->kind != T_END) {
			if (asm_const_expr(st, &pos, &fill))
				return -1;
			if (!asm_fits(fill, 1))
				return asm_error(st, f->col, "fill value %" PRId64 " does not fit in a byte",
						 fill);
		}
		if (asm_is_punct(&st->toks[pos], ',')) {
			pos++;
			if (asm_const_expr(st, &pos, &max))
				return -1;
		}
	}
	if (asm_end_of_line(st, pos))
		return -1;
	if (st->section == SEC_TEXT)
		return 0;
	uint64_t size = st->section == SEC_DATA ? st->data_size : st->percpu_size;
	uint64_t *amax = st->section == SEC_DATA ? &st->data_align : &st->percpu_align;
	uint64_t pad = -size & (uint64_t)(n - 1), at;
	if (max >= 0 && pad > (uint64_t)max)
		return 0;
	if ((uint64_t)n > *amax)
		*amax = (uint64_t)n;
	if (asm_section_bytes(st, st->section, pad, t->col, &at))
		return -1;
	return section_fill(st, at, pad, (uint8_t)fill, t->col);
}

static int dir_data(struct asm_state *st, uint32_t pos, unsigned width, uint32_t col)
{
	uint32_t loc;
	if (asm_new_loc(st, col, &loc))
		return -1;
	for (;;) {
		struct asm_expr x;
		uint64_t at;
		x.len = 0;
		uint32_t c = st->toks[pos].col;
		if (asm_expr_sum(st, &pos, &x) || asm_section_bytes(st, st->section, width, c, &at))
			return -1;
		/* .long may hold an address too: .data is below 4 GiB */
		if (asm_settle(st, st->section == SEC_DATA ? FIX_DATA : FIX_PERCPU,
			       width >= 4 ? POL_QUAD : POL_CONST, 0, (uint8_t)width, at, x.n, x.len,
			       loc, 1))
			return -1;
		if (!asm_is_punct(&st->toks[pos], ','))
			return asm_end_of_line(st, pos);
		pos++;
	}
}

static int dir_space(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	int64_t n, fill = 0;
	uint64_t at;
	if (asm_const_expr(st, &pos, &n))
		return -1;
	if (asm_is_punct(&st->toks[pos], ',')) {
		const struct asm_tok *f = &st->toks[++pos];
		if (asm_const_expr(st, &pos, &fill))
			return -1;
		if (!asm_fits(fill, 1))
			return asm_error(st, f->col, "fill value %" PRId64 " does not fit in a byte",
					 fill);
	}
	if (asm_end_of_line(st, pos))
		return -1;
	if (n < 0)
		return asm_error(st, t->col, ".space %" PRId64 " is negative", n);
	if (fill && st->filled + (uint64_t)n > PROG_MAX_FILLED)
		return asm_error(st, t->col, ".space fills more than %llu bytes with a non-zero value",
				 (unsigned long long)PROG_MAX_FILLED);
	if (asm_section_bytes(st, st->section, (uint64_t)n, t->col, &at))
		return -1;
	return section_fill(st, at, (uint64_t)n, (uint8_t)fill, t->col);
}

static int dir_equ(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *name = &st->toks[pos];
	char what[96];
	asm_tok_text(name, what, sizeof what);
	if (name->kind != T_IDENT)
		return asm_error(st, name->col, "expected a name after .equ but found %s", what);
	if (!asm_is_punct(&st->toks[pos + 1], ','))
		return asm_error(st, st->toks[pos + 1].col, "expected ',' after the .equ name");
	pos += 2;
	int64_t v;
	if (asm_const_expr(st, &pos, &v) || asm_end_of_line(st, pos))
		return -1;
	size_t d;
	if (name_map_find(&st->defines, name->s, name->len, &d)) {
		v = st->in->defines[d].value;
		st->define_used[d] = 1;
	}
	/* Two library files may both spell out a constant they share, as two C
	 * files include one header; only a different value is a conflict. */
	uint32_t idx;
	if (asm_sym_ref(st, name->s, name->len, &idx))
		return -1;
	const struct asm_sym *s = asm_sym_at(st, idx);
	if (s->defined && s->section == SEC_ABS && s->value == v)
		return 0;
	return asm_sym_define(st, name, SEC_ABS, v);
}

static int dir_include(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	char what[96];
	asm_tok_text(t, what, sizeof what);
	if (t->kind != T_STR || t->len == 0)
		return asm_error(st, t->col, "expected a file name in quotes but found %s", what);
	if (asm_end_of_line(st, pos + 1))
		return -1;
	free(st->include_path);
	if (!(st->include_path = strndup(t->s, t->len)))
		return asm_oom(st);
	st->include_col = t->col;
	return 0;
}

int asm_parse_directive(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	char what[96];
	int rc = asm_section_directive(st, pos);
	if (rc == 0)
		rc = asm_compiler_directive(st, pos);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (asm_tok_is(t, ".align") || asm_tok_is(t, ".balign") || asm_tok_is(t, ".p2align"))
		return dir_align(st, pos + 1, asm_tok_is(t, ".p2align"));
	if (asm_tok_is(t, ".byte"))
		return dir_data(st, pos + 1, 1, t->col);
	if (asm_tok_is(t, ".word") || asm_tok_is(t, ".short") || asm_tok_is(t, ".value") ||
	    asm_tok_is(t, ".2byte"))
		return dir_data(st, pos + 1, 2, t->col);
	if (asm_tok_is(t, ".long") || asm_tok_is(t, ".int") || asm_tok_is(t, ".4byte"))
		return dir_data(st, pos + 1, 4, t->col);
	if (asm_tok_is(t, ".quad") || asm_tok_is(t, ".8byte"))
		return dir_data(st, pos + 1, 8, t->col);
	if (asm_tok_is(t, ".space") || asm_tok_is(t, ".zero") || asm_tok_is(t, ".skip"))
		return dir_space(st, pos + 1);
	if (asm_tok_is(t, ".equ") || asm_tok_is(t, ".set"))
		return dir_equ(st, pos + 1);
	if (asm_tok_is(t, ".include"))
		return dir_include(st, pos + 1);
	asm_tok_text(t, what, sizeof what);
	return asm_error(st, t->col, "unknown directive %s", what);
}
