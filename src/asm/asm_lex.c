/* The assembler's lexer: one source line into tokens (st->toks, closed by a
 * T_END). Any byte the language has no use for is an error at its column;
 * comments (`;` or `#` to the end of the line) may hold any valid UTF-8,
 * code and strings only ASCII. */
#include "config.h"
#include "asm/asm_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	unsigned cp = c & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static int check_bytes(struct asm_state *st, const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		if (s[i] == 0)
			return asm_error(st, (uint32_t)(i + 1), "NUL byte in source");
		size_t n = utf8_len(s + i, len - i);
		if (!n)
			return asm_error(st, (uint32_t)(i + 1), "invalid UTF-8 byte 0x%02x", s[i]);
		i += n;
	}
	return 0;
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '.';
}

static int is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

static int lex_number(struct asm_state *st, const unsigned char *s, size_t len, size_t *i,
		      struct asm_tok *t)
{
	size_t p = *i;
	uint64_t v = 0;
	int hex = s[p] == '0' && p + 1 < len && (s[p + 1] == 'x' || s[p + 1] == 'X');
	/* A number over 64 bits is a token still (a .file directive's md5
	 * is 128 bits); it is an error where a value is read from it. */
	if (hex) {
		p += 2;
		if (p >= len || !isxdigit(s[p]))
			return asm_error(st, t->col, "bad hexadecimal number");
		for (; p < len && isxdigit(s[p]); p++) {
			unsigned d = (unsigned)(isdigit(s[p]) ? s[p] - '0' : tolower(s[p]) - 'a' + 10);
			if (v >> 60)
				t->big = 1;
			v = v << 4 | d;
		}
	} else {
		for (; p < len && isdigit(s[p]); p++) {
			unsigned d = s[p] - '0';
			if (v > (UINT64_MAX - d) / 10)
				t->big = 1;
			v = v * 10 + d;
		}
	}
	if (p < len && is_ident_char(s[p]))
		return asm_error(st, t->col, "bad number");
	t->kind = T_NUM;
	t->num = v;
	t->len = (uint32_t)(p - *i);
	*i = p;
	return 0;
}

int asm_lex_line(struct asm_state *st, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	if (check_bytes(st, s, len))
		return -1;
	st->n_toks = 0;
	size_t i = 0;
	for (;;) {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\f' ||
				   s[i] == '\v'))
			i++;
		if (st->n_toks == ASM_MAX_LINE_TOKENS)
			return asm_error(st, (uint32_t)(i + 1), "more than %u tokens on one line (the limit): split the line",
					 ASM_MAX_LINE_TOKENS);
		if (asm_grow(st, (void **)&st->toks, &st->cap_toks, st->n_toks + 1,
			     sizeof *st->toks))
			return -1;
		struct asm_tok *t = &st->toks[st->n_toks];
		memset(t, 0, sizeof *t);
		t->col = (uint32_t)(i + 1);
		/* `lock; add` and `rep; nop`: after a lone prefix, `;` joins
		 * it to the instruction that follows instead of starting a
		 * comment, as in GAS. */
		if (i < len && s[i] == ';' && st->n_toks == 1 &&
		    (asm_tok_is_ci(&st->toks[0], "lock") || asm_tok_is_ci(&st->toks[0], "rep"))) {
			i++;
			continue;
		}
		if (i >= len || s[i] == ';' || s[i] == '#') {
			t->kind = T_END;
			st->n_toks++;
			return 0;
		}
		unsigned c = s[i];
		if (is_ident_start((int)c)) {
			size_t b = i;
			while (i < len && is_ident_char(s[i]))
				i++;
			if (i - b > ASM_MAX_IDENT)
				return asm_error(st, t->col, "name of %zu characters is longer than the limit of %u",
						 i - b, ASM_MAX_IDENT);
			t->kind = T_IDENT;
			t->s = text + b;
			t->len = (uint32_t)(i - b);
		} else if (isdigit((int)c)) {
			if (lex_number(st, s, len, &i, t))
				return -1;
		} else if (c == '"') {
			/* a backslash escapes the next byte (`\"`); the directive
			 * that reads the string decodes the escapes */
			size_t b = ++i;
			while (i < len && s[i] != '"')
				i += s[i] == '\\' && i + 1 < len ? 2 : 1;
			if (i >= len)
				return asm_error(st, t->col, "unterminated string");
			t->kind = T_STR;
			t->s = text + b;
			t->len = (uint32_t)(i - b);
			i++;
		} else if (strchr(",[]+-*():@%", (int)c) && c) {
			t->kind = T_PUNCT;
			t->ch = (char)c;
			t->len = 1;
			i++;
		} else if (c == '$') {
			/* $1: an AT&T immediate, what GCC emits by default */
			size_t e = i + 1;
			while (e < len && (isalnum(s[e]) || s[e] == '_'))
				e++;
			return asm_error(st, t->col, "unexpected character '$': '%.*s' is AT&T syntax; bounce's assembly "
					 "is Intel syntax (write %.*s, as gcc -masm=intel does)", (int)(e - i), text + i,
					 (int)(e - i - 1), text + i + 1);
		} else if (c >= 0x21 && c < 0x7f) {
			return asm_error(st, t->col, "unexpected character '%c'", (char)c);
		} else {
			return asm_error(st, t->col, "unexpected byte 0x%02x", c);
		}
		st->n_toks++;
	}
}

int asm_tok_is(const struct asm_tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->kind == T_IDENT && t->len == n && memcmp(t->s, word, n) == 0;
}

int asm_tok_is_ci(const struct asm_tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->kind == T_IDENT && t->len == n && strncasecmp(t->s, word, n) == 0;
}

/* A token as the user wrote it, shortened for messages. */
void asm_tok_text(const struct asm_tok *t, char *buf, size_t n)
{
	switch (t->kind) {
	case T_END:
		snprintf(buf, n, "end of line");
		break;
	case T_PUNCT:
		snprintf(buf, n, "'%c'", t->ch);
		break;
	case T_NUM:
		snprintf(buf, n, "number");
		break;
	case T_STR:
		snprintf(buf, n, "string");
		break;
	default: {
		int len = t->len > 64 ? 64 : (int)t->len;
		snprintf(buf, n, "'%.*s%s'", len, t->s, t->len > 64 ? "..." : "");
	}
	}
}
