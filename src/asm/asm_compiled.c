/* The directives GCC and Clang emit beyond bounce's own: .file/.loc line
 * info (each instruction then knows its C file:line:col), .comm/.lcomm,
 * .globl/.local (which a compiled file's symbols depend on), strings, and
 * bookkeeping the model has no use for (.type, .size, .ident, .cfi_*). */
#include "config.h"
#include "asm/asm_internal.h"

#include <stdlib.h>
#include <string.h>

void asm_unit_begin(struct asm_state *st, uint32_t unit, int compiled)
{
	st->unit = unit;
	st->compiled = (uint8_t)(compiled != 0);
	st->unit_first_sym = st->n_syms;
	if (st->dwarf_files)
		memset(st->dwarf_files, 0, st->cap_dwarf_files * sizeof *st->dwarf_files);
	free(st->comp_dir);
	st->comp_dir = NULL;
	st->cloc_valid = 0;
	st->discard = 0;
	st->n_sec_stack = 0;
	/* every file begins in .text, as GAS's do and compilers assume */
	st->section = st->prev_section = SEC_TEXT;
}

int asm_unit_end(struct asm_state *st)
{
	st->cloc_valid = 0;
	st->discard = 0;
	return st->compiled ? asm_sym_unit_end(st) : 0;
}

static char *path_join(const char *dir, const char *name)
{
	if (!dir || !dir[0] || name[0] == '/')
		return strdup(name);
	size_t d = strlen(dir), n = strlen(name);
	char *p = malloc(d + n + 2);
	if (p)
		snprintf(p, d + n + 2, "%s%s%s", dir, dir[d - 1] == '/' ? "" : "/", name);
	return p;
}

/* Where a .file entry's source is, as messages show it: relative names
 * resolve against the compile directory (the driver's name for it, else
 * .file 0's); `dir` is the entry's own directory, NULL when not given. */
static char *source_path(struct asm_state *st, uint64_t n, const char *dir, const char *name)
{
	const char *given = st->in->compile_dirs ? st->in->compile_dirs[st->unit] : NULL;
	const char *cwd = given ? given : st->comp_dir;
	/* .file 0's directory, and an entry's that repeats it, is the compile
	 * directory itself */
	if (dir && (n == 0 || (st->comp_dir && !strcmp(dir, st->comp_dir))))
		dir = NULL;
	char *d = dir && dir[0] != '/' ? path_join(cwd, dir) : NULL;
	if (dir && dir[0] != '/' && !d)
		return NULL;
	char *p = path_join(d ? d : dir ? dir : cwd, name);
	free(d);
	return p;
}

static int set_dwarf_file(struct asm_state *st, uint64_t n, uint16_t idx)
{
	if (n >= st->cap_dwarf_files) {
		uint32_t old = st->cap_dwarf_files;
		if (asm_grow(st, (void **)&st->dwarf_files, &st->cap_dwarf_files, (uint32_t)n + 1,
			     sizeof *st->dwarf_files))
			return -1;
		memset(st->dwarf_files + old, 0, (st->cap_dwarf_files - old) * sizeof *st->dwarf_files);
	}
	st->dwarf_files[n] = (uint32_t)idx + 1;
	return 0;
}

/* `.file "name"` (the source's name: nothing to do), `.file N "name"`,
 * `.file N "dir" "name" [md5 0x...]` (DWARF 5). */
static int dir_file(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	if (t->kind == T_STR)
		return asm_end_of_line(st, pos + 1);
	if (t->kind != T_NUM || t->big || t->num > ASM_MAX_DWARF_FILE)
		return asm_error(st, t->col, "expected a file number in 0..%u or a name in quotes",
				 ASM_MAX_DWARF_FILE);
	const struct asm_tok *a = &st->toks[pos + 1], *b = &st->toks[pos + 2];
	if (a->kind != T_STR || a->len == 0)
		return asm_error(st, a->col, "expected a file name in quotes");
	int two = b->kind == T_STR;
	uint32_t next = pos + 2 + (uint32_t)two;
	if (asm_tok_is(&st->toks[next], "md5") && st->toks[next + 1].kind == T_NUM)
		next += 2;
	if (asm_end_of_line(st, next))
		return -1;
	char *dir = two ? strndup(a->s, a->len) : NULL;
	char *name = two ? strndup(b->s, b->len) : strndup(a->s, a->len);
	int rc = (two && !dir) || !name ? asm_oom(st) : 0;
	if (rc == 0 && t->num == 0 && dir) {
		free(st->comp_dir);
		st->comp_dir = strdup(dir);
		rc = st->comp_dir ? 0 : asm_oom(st);
	}
	char *path = rc ? NULL : source_path(st, t->num, dir, name);
	uint16_t idx;
	if (rc == 0 && !path)
		rc = asm_oom(st);
	if (rc == 0)
		rc = asm_intern_file(st, path, &idx);
	if (rc == 0)
		rc = set_dwarf_file(st, t->num, idx);
	free(path);
	free(dir);
	free(name);
	return rc;
}

/* `.loc file line [col] [options]`: the following instructions were
 * compiled from there. Line 0 is code the compiler made without a line:
 * it keeps its position in the assembly. */
static int dir_loc(struct asm_state *st, uint32_t pos)
{
	static const char *const valued[] = { "is_stmt", "discriminator", "isa", "view", NULL };
	static const char *const flags[] = { "prologue_end", "epilogue_begin", "basic_block", NULL };
	const struct asm_tok *f = &st->toks[pos], *l = &st->toks[pos + 1], *c = &st->toks[pos + 2];
	if (f->kind != T_NUM || f->big || f->num >= st->cap_dwarf_files ||
	    !st->dwarf_files[f->num])
		return asm_error(st, f->col, "expected a file number that a .file line gave");
	if (l->kind != T_NUM || l->big || l->num > UINT32_MAX)
		return asm_error(st, l->col, "expected a line number");
	pos += 2;
	uint64_t col = 0;
	if (c->kind == T_NUM) {
		col = c->big || c->num > UINT16_MAX ? UINT16_MAX : c->num;
		pos++;
	}
	for (const struct asm_tok *o = &st->toks[pos]; o->kind != T_END; o = &st->toks[pos]) {
		int known = 0;
		for (int i = 0; valued[i]; i++)
			if (asm_tok_is(o, valued[i]) &&
			    (o[1].kind == T_NUM || o[1].kind == T_IDENT))
				known = 2;
		for (int i = 0; flags[i]; i++)
			if (asm_tok_is(o, flags[i]))
				known = 1;
		if (!known) {
			char what[96];
			asm_tok_text(o, what, sizeof what);
			return asm_error(st, o->col, "unexpected %s in .loc", what);
		}
		pos += (uint32_t)known;
	}
	st->cloc_valid = l->num != 0;
	st->cloc_file = (uint16_t)(st->dwarf_files[f->num] - 1);
	st->cloc_line = (uint32_t)l->num;
	st->cloc_col = (uint16_t)col;
	return 0;
}

/* `.comm sym, size[, align]` / `.lcomm`: zeroed storage in .data, the
 * current section unchanged. A .comm is global unless .local said not. */
static int dir_comm(struct asm_state *st, uint32_t pos, int lcomm)
{
	const struct asm_tok *name = &st->toks[pos];
	int64_t size, align = 1;
	if (name->kind != T_IDENT)
		return asm_error(st, name->col, "expected a symbol name");
	if (!asm_is_punct(&st->toks[pos + 1], ','))
		return asm_error(st, st->toks[pos + 1].col, "expected ','");
	pos += 2;
	const struct asm_tok *z = &st->toks[pos];
	if (asm_const_expr(st, &pos, &size))
		return -1;
	if (size < 0)
		return asm_error(st, z->col, "size %lld is negative", (long long)size);
	if (asm_is_punct(&st->toks[pos], ',')) {
		const struct asm_tok *a = &st->toks[++pos];
		if (asm_const_expr(st, &pos, &align))
			return -1;
		if (align < 1 || align > ASM_MAX_ALIGN || (align & (align - 1)))
			return asm_error(st, a->col, "alignment %lld is not a power of two in 1..%u",
					 (long long)align, ASM_MAX_ALIGN);
	}
	if (asm_end_of_line(st, pos))
		return -1;
	uint64_t at, pad = -st->data_size & (uint64_t)(align - 1);
	if ((uint64_t)align > st->data_align)
		st->data_align = (uint64_t)align;
	if (asm_section_bytes(st, SEC_DATA, pad, name->col, &at) ||
	    asm_sym_define(st, name, SEC_DATA, (int64_t)(PROG_DATA_BASE + st->data_size)) ||
	    asm_section_bytes(st, SEC_DATA, (uint64_t)size, z->col, &at))
		return -1;
	uint32_t idx;
	if (asm_sym_ref(st, name->s, name->len, &idx))
		return -1;
	if (!lcomm && !st->syms[idx].lcl)
		st->syms[idx].globl = 1;
	return 0;
}

/* `.globl a, b` / `.weak` / `.local`: in compiler output they decide a
 * symbol's scope; elsewhere every symbol is global and they are ignored,
 * whatever their operands. */
static int dir_scope(struct asm_state *st, uint32_t pos, int globl)
{
	if (!st->compiled)
		return 0;
	for (;;) {
		const struct asm_tok *t = &st->toks[pos];
		uint32_t idx;
		if (t->kind != T_IDENT)
			return asm_error(st, t->col, "expected a symbol name");
		if (asm_sym_ref(st, t->s, t->len, &idx))
			return -1;
		if (globl)
			st->syms[idx].globl = 1;
		else
			st->syms[idx].lcl = 1;
		if (!asm_is_punct(&st->toks[++pos], ','))
			return asm_end_of_line(st, pos);
		pos++;
	}
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* GAS's escapes: \n \t \r \f \b, \NNN octal, \xHH..., \c for any other c. */
static size_t unescape(const char *s, size_t len, uint8_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\' || i + 1 == len) {
			out[n++] = (uint8_t)s[i];
			continue;
		}
		char c = s[++i];
		unsigned v = 0;
		if (c >= '0' && c <= '7') {
			for (int k = 0; k < 3 && i < len && s[i] >= '0' && s[i] <= '7'; k++)
				v = v * 8 + (unsigned)(s[i++] - '0');
			i--;
		} else if (c == 'x' && i + 1 < len && hex_digit(s[i + 1]) >= 0) {
			while (i + 1 < len && hex_digit(s[i + 1]) >= 0)
				v = v * 16 + (unsigned)hex_digit(s[++i]);
		} else {
			v = c == 'n' ? 10u : c == 't' ? 9u : c == 'r' ? 13u : c == 'f' ? 12u :
			    c == 'b' ? 8u : (unsigned char)c;
		}
		out[n++] = (uint8_t)v;
	}
	return n;
}

/* `.ascii "a"[, "b"...]`; .string and .asciz end each with a NUL. */
static int dir_string(struct asm_state *st, uint32_t pos, int nul)
{
	for (;;) {
		const struct asm_tok *t = &st->toks[pos];
		if (t->kind != T_STR)
			return asm_error(st, t->col, "expected a string in quotes");
		uint8_t *b = malloc(t->len + 1u);
		if (!b)
			return asm_oom(st);
		size_t n = unescape(t->s, t->len, b);
		if (nul)
			b[n++] = 0;
		uint64_t at;
		int rc = asm_section_bytes(st, st->section, n, t->col, &at);
		if (rc == 0)
			rc = asm_section_write(st, st->section, at, b, n);
		free(b);
		if (rc)
			return -1;
		if (!asm_is_punct(&st->toks[++pos], ','))
			return asm_end_of_line(st, pos);
		pos++;
	}
}

int asm_compiler_directive(struct asm_state *st, uint32_t pos)
{
	static const char *const ignored[] = {
		".type", ".size", ".ident", ".intel_syntax", ".att_syntax", ".hidden", ".protected",
		".internal", ".addrsig", ".addrsig_sym", NULL
	};
	const struct asm_tok *t = &st->toks[pos];
	int rc;
	if (asm_tok_is(t, ".file"))
		rc = dir_file(st, pos + 1);
	else if (asm_tok_is(t, ".loc"))
		rc = dir_loc(st, pos + 1);
	else if (asm_tok_is(t, ".comm") || asm_tok_is(t, ".lcomm"))
		rc = dir_comm(st, pos + 1, asm_tok_is(t, ".lcomm"));
	else if (asm_tok_is(t, ".globl") || asm_tok_is(t, ".global") || asm_tok_is(t, ".weak"))
		rc = dir_scope(st, pos + 1, 1);
	else if (asm_tok_is(t, ".local"))
		rc = dir_scope(st, pos + 1, 0);
	else if (asm_tok_is(t, ".string") || asm_tok_is(t, ".asciz"))
		rc = dir_string(st, pos + 1, 1);
	else if (asm_tok_is(t, ".ascii"))
		rc = dir_string(st, pos + 1, 0);
	else {
		for (int i = 0; ignored[i]; i++)
			if (asm_tok_is(t, ignored[i]))
				return 1;
		return t->len > 5 && !memcmp(t->s, ".cfi_", 5);
	}
	return rc ? -1 : 1;
}
