/* Section switches: .text/.data/.bss/.rodata/.percpu, .section with GAS's
 * flags and types, .pushsection/.popsection/.previous. Sections the
 * program does not load (.debug_*, .note*, .comment, anything not
 * allocated) are discarded whole: their lines are skipped unread. */
#include "config.h"
#include "asm/asm_internal.h"

#include <ctype.h>
#include <string.h>

#define SEC_DISCARD (-2)
#define SEC_UNKNOWN (-1)

static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '-' || c == '$';
}

/* n is p itself, or p followed by a dotted suffix (.text.unlikely). */
static int named(const char *n, size_t len, const char *p)
{
	size_t k = strlen(p);
	return len >= k && !memcmp(n, p, k) && (len == k || n[k] == '.');
}

static int classify(const char *n, size_t len, const char *flags, size_t flen, int has_flags)
{
	if ((len >= 6 && !memcmp(n, ".debug", 6)) || named(n, len, ".note") || named(n, len, ".comment") || named(n, len, ".eh_frame") ||
	    named(n, len, ".llvm_addrsig") || named(n, len, ".stab"))
		return SEC_DISCARD;
	if (named(n, len, ".percpu") || named(n, len, ".data..percpu"))
		return SEC_PERCPU;
	if (named(n, len, ".text"))
		return SEC_TEXT;
	if (named(n, len, ".data") || named(n, len, ".bss") || named(n, len, ".rodata"))
		return SEC_DATA;
	if (has_flags && !memchr(flags, 'a', flen))
		return SEC_DISCARD;
	return SEC_UNKNOWN;
}

static void switch_to(struct asm_state *st, int sec)
{
	st->prev_section = (uint8_t)st->section;
	st->prev_discard = st->discard;
	st->discard = sec == SEC_DISCARD;
	if (sec != SEC_DISCARD)
		st->section = sec;
}

/* `.section name[, "flags"[, @type...]]`: the name and flags are read
 * from the raw line, since a name may hold '-' (.note.GNU-stack). What
 * follows the flags (type, entry size, group) does not matter here. */
static int section_named(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	const char *s = st->line_text;
	size_t len = st->line_len, i = t->col - 1, b, e;
	if (t->kind == T_STR) {
		b = i + 1;
		e = b + t->len;
		i = e + 1;
	} else {
		b = i;
		while (i < len && is_name_char((unsigned char)s[i]))
			i++;
		e = i;
	}
	if (e == b) {
		char what[96];
		asm_tok_text(t, what, sizeof what);
		return asm_error(st, t->col, "expected a section name but found %s", what);
	}
	const char *flags = "";
	size_t flen = 0;
	int has_flags = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && s[i] == ',') {
		for (i++; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
			;
		if (i < len && s[i] == '"') {
			flags = s + i + 1;
			while (i + 1 + flen < len && s[i + 1 + flen] != '"')
				flen++;
			has_flags = 1;
		}
	}
	int sec = classify(s + b, e - b, flags, flen, has_flags);
	if (sec == SEC_UNKNOWN)
		return asm_error(st, t->col, "unknown section '%.*s' (bounce loads .text*, .data*, .bss*, "
				 ".rodata* and .percpu, and skips sections that are not allocated, such "
				 "as .debug_*)", (int)(e - b > 64 ? 64 : e - b), s + b);
	switch_to(st, sec);
	return 0;
}

static const char *const switches[] = {
	".section", ".pushsection", ".popsection", ".previous", ".text", ".data", ".bss",
	".rodata", ".percpu", ".data..percpu", NULL
};

int asm_is_section_switch(const char *text, size_t len)
{
	size_t i = 0, b;
	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	for (b = i; i < len && is_name_char((unsigned char)text[i]); i++)
		;
	for (int k = 0; switches[k]; k++)
		if (strlen(switches[k]) == i - b && !memcmp(text + b, switches[k], i - b))
			return 1;
	return 0;
}

/* A directive that is the section's name (.text, .bss, ...). */
static int bare(struct asm_state *st, uint32_t pos, int sec)
{
	if (asm_end_of_line(st, pos + 1))
		return -1;
	switch_to(st, sec);
	return 1;
}

/* Back to a saved section, discarded or not. */
static int restore(struct asm_state *st, uint32_t pos, uint8_t sec, uint8_t discard)
{
	if (asm_end_of_line(st, pos + 1))
		return -1;
	switch_to(st, discard ? SEC_DISCARD : sec);
	st->section = sec;
	return 1;
}

int asm_section_directive(struct asm_state *st, uint32_t pos)
{
	const struct asm_tok *t = &st->toks[pos];
	if (asm_tok_is(t, ".text"))
		return bare(st, pos, SEC_TEXT);
	if (asm_tok_is(t, ".data") || asm_tok_is(t, ".bss") || asm_tok_is(t, ".rodata"))
		return bare(st, pos, SEC_DATA);
	if (asm_tok_is(t, ".percpu") || asm_tok_is(t, ".data..percpu"))
		return bare(st, pos, SEC_PERCPU);
	if (asm_tok_is(t, ".section"))
		return section_named(st, pos + 1) ? -1 : 1;
	if (asm_tok_is(t, ".pushsection")) {
		if (st->n_sec_stack == ASM_MAX_SECTION_STACK)
			return asm_error(st, t->col, ".pushsection nested deeper than %d",
					 ASM_MAX_SECTION_STACK);
		struct asm_section_save *v = &st->sec_stack[st->n_sec_stack++];
		v->section = (uint8_t)st->section;
		v->discard = st->discard;
		return section_named(st, pos + 1) ? -1 : 1;
	}
	if (asm_tok_is(t, ".popsection")) {
		if (!st->n_sec_stack)
			return asm_error(st, t->col, ".popsection without .pushsection");
		const struct asm_section_save *v = &st->sec_stack[--st->n_sec_stack];
		return restore(st, pos, v->section, v->discard);
	}
	if (asm_tok_is(t, ".previous"))
		return restore(st, pos, st->prev_section, st->prev_discard);
	return 0;
}
