/* The assembler's names: symbols by name in a name_map (a reference before
 * the definition creates an undefined entry that the definition fills in),
 * a compiled file's own symbols and their binding to globals when the file
 * ends, register names, and the words no symbol may take. */
#include "config.h"
#include "asm/asm_internal.h"
#include "base/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The symbol keyed `name` (global) or `name NUL unit` (a file's own). */
static int sym_lookup(struct asm_state *st, const char *name, size_t len, int local,
		      uint32_t *idx)
{
	char key[ASM_MAX_IDENT + 16];
	size_t klen = len;
	if (len > ASM_MAX_IDENT)
		return asm_error(st, 0, "name longer than %u characters", ASM_MAX_IDENT);
	memcpy(key, name, len);
	if (local)
		klen += (size_t)snprintf(key + len, sizeof key - len, "%c%u", 0, (unsigned)st->unit) ;
	size_t found;
	if (name_map_find(&st->sym_names, key, klen, &found)) {
		*idx = (uint32_t)found;
		return 0;
	}
	if (asm_grow(st, (void **)&st->syms, &st->cap_syms, st->n_syms + 1, sizeof *st->syms))
		return -1;
	struct asm_sym *s = &st->syms[st->n_syms];
	memset(s, 0, sizeof *s);
	/* the map keys on this copy, which lives as long as the state */
	size_t at = st->n_syms;
	if (!(s->name = malloc(klen + 1)))
		return asm_oom(st);
	memcpy(s->name, key, klen);
	s->name[klen] = 0;
	s->local = (uint8_t)local;
	if (name_map_add(&st->sym_names, s->name, klen, &at) < 0) {
		free(s->name);
		return asm_oom(st);
	}
	*idx = st->n_syms++;
	return 0;
}

int asm_sym_ref(struct asm_state *st, const char *name, size_t len, uint32_t *idx)
{
	return sym_lookup(st, name, len, st->compiled, idx);
}

int asm_sym_global(struct asm_state *st, const char *name, size_t len, uint32_t *idx)
{
	return sym_lookup(st, name, len, 0, idx);
}

struct asm_sym *asm_sym_at(struct asm_state *st, uint64_t idx)
{
	struct asm_sym *s = &st->syms[idx];
	return s->alias ? &st->syms[s->alias - 1] : s;
}

int asm_sym_unit_end(struct asm_state *st)
{
	for (uint32_t i = st->unit_first_sym; i < st->n_syms; i++) {
		const struct asm_sym *s = &st->syms[i];
		/* compiler-local labels stay the file's whatever it says */
		if (!s->local || !strncmp(s->name, ".L", 2) || (s->defined && !s->globl))
			continue;
		uint32_t g;
		if (asm_sym_global(st, s->name, strlen(s->name), &g))
			return -1;
		s = &st->syms[i]; /* the table may have moved */
		struct asm_sym *gs = &st->syms[g];
		if (s->defined && gs->defined) {
			char where[600];
			asm_loc_text(st, gs->loc, where, sizeof where);
			return asm_error_loc(st, s->loc, st->locs[s->loc].col,
					     "duplicate symbol '%s' (first defined at %s)", s->name, where);
		}
		if (s->defined) {
			gs->defined = 1;
			gs->section = s->section;
			gs->value = s->value;
			gs->loc = s->loc;
		}
		st->syms[i].alias = g + 1;
	}
	return 0;
}

int asm_sym_define(struct asm_state *st, const struct asm_tok *t, int section, int64_t value)
{
	char what[96];
	asm_tok_text(t, what, sizeof what);
	if (asm_reserved_name(t->s, t->len))
		return asm_error(st, t->col, "%s is a reserved word and cannot be a symbol", what);
	uint32_t i, loc;
	if (asm_sym_ref(st, t->s, t->len, &i))
		return -1;
	struct asm_sym *s = &st->syms[i];
	if (s->defined) {
		char where[600];
		asm_loc_text(st, s->loc, where, sizeof where);
		return asm_error(st, t->col, "duplicate symbol %s (first defined at %s)", what, where);
	}
	if (asm_new_loc(st, t->col, &loc))
		return -1;
	s = &st->syms[i];
	s->defined = 1;
	s->section = (uint8_t)section;
	s->value = value;
	s->loc = loc;
	return 0;
}

static const char *const reg64[] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi" };
static const char *const reg32[] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi" };
static const char *const reg16[] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
static const char *const reg8[] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil" };

static int eq_ci(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

/* Register names are case-insensitive; r8..r15 take the d/w/b suffixes.
 * 0 when name is a register (program.h), -1 otherwise. */
int asm_reg_lookup(const char *name, size_t len, uint8_t *reg, uint8_t *size)
{
	for (int i = 0; i < 8; i++) {
		if (eq_ci(name, len, reg64[i]))
			return *reg = (uint8_t)i, *size = 8, 0;
		if (eq_ci(name, len, reg32[i]))
			return *reg = (uint8_t)i, *size = 4, 0;
		if (eq_ci(name, len, reg16[i]))
			return *reg = (uint8_t)i, *size = 2, 0;
		if (eq_ci(name, len, reg8[i]))
			return *reg = (uint8_t)i, *size = 1, 0;
	}
	if (len < 2 || len > 4 || (name[0] != 'r' && name[0] != 'R'))
		return -1;
	size_t p = 1;
	unsigned n = 0;
	while (p < len && name[p] >= '0' && name[p] <= '9' && p < 3)
		n = n * 10 + (unsigned)(name[p++] - '0');
	if (p == 1 || n < 8 || n > 15 || (p == 3 && name[1] == '0'))
		return -1;
	uint8_t sz = 8;
	if (p < len) {
		if (p + 1 != len)
			return -1;
		switch (name[p] | 0x20) {
		case 'd': sz = 4; break;
		case 'w': sz = 2; break;
		case 'b': sz = 1; break;
		default: return -1;
		}
	}
	*reg = (uint8_t)n;
	*size = sz;
	return 0;
}

int asm_reserved_name(const char *name, size_t len)
{
	static const char *const words[] = {
		"CPU", "NR_CPUS", "byte", "word", "dword", "qword", "ptr", "offset", "gs", "rip",
		"ah", "bh", "ch", "dh", NULL
	};
	uint8_t r, sz;
	if (asm_reg_lookup(name, len, &r, &sz) == 0)
		return 1;
	for (int i = 0; words[i]; i++)
		if (eq_ci(name, len, words[i]))
			return 1;
	return 0;
}

const char *asm_did_you_mean(const struct asm_state *st, const char *name, int section, char *buf,
			     size_t n)
{
	struct suggest g;
	suggest_init(&g, name);
	for (uint32_t i = 0; i < st->n_syms; i++)
		if (st->syms[i].defined && !st->syms[i].alias &&
		    (section < 0 || st->syms[i].section == section))
			suggest_offer(&g, st->syms[i].name);
	if (suggest_best(&g))
		snprintf(buf, n, " (did you mean '%s'?)", suggest_best(&g));
	else if (n)
		buf[0] = 0;
	return buf;
}

const char *asm_reg_did_you_mean(const char *name, char *buf, size_t n)
{
	static const char *const *const sets[] = { reg64, reg32, reg16, reg8 };
	static const char *const rn[] = { "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
	struct suggest g;
	suggest_init(&g, name);
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 8; i++)
			suggest_offer(&g, sets[k][i]);
	for (int i = 0; i < 8; i++)
		suggest_offer(&g, rn[i]);
	if (suggest_best(&g))
		snprintf(buf, n, " (did you mean '%s'?)", suggest_best(&g));
	else if (n)
		buf[0] = 0;
	return buf;
}
