/* Assembler internals shared by the asm_*.c files: tokens, compiled
 * expressions, the symbol table and the state that owns every allocation
 * until a finished program is handed over (or everything is freed). */
#ifndef BOUNCE_ASM_INTERNAL_H
#define BOUNCE_ASM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "base/name_map.h"
#include "asm/asm.h"

#define ASM_MAX_XNODES 128      /* nodes in one compiled expression */
#define ASM_MAX_PAREN 32        /* parenthesis nesting in one expression */
#define ASM_MAX_INCLUDE 32      /* .include nesting below the top-level file */
#define ASM_MAX_FILE (16u << 20)        /* bytes in one source file */
#define ASM_MAX_TOTAL (64u << 20)       /* bytes read in all, counting re-inclusions */
#define ASM_MAX_CPUS 65536
#define ASM_MAX_ALIGN 4096u
#define ASM_MAX_SECTION_STACK 16 /* .pushsection nesting */
#define ASM_MAX_DWARF_FILE 65535u /* highest .file number */
#define ASM_NO_LOC UINT32_MAX
#define ASM_MAX_IDENT 255u       /* bytes in a name: keeps messages and the symbol table sane */
/* Tokens on one line: a line is lexed whole before it is parsed, 40 bytes
 * a token, and a 16 MiB line of commas took 550 MB before its first
 * error; a million (40 MB) is more than any table written on one line. */
#define ASM_MAX_LINE_TOKENS (1u << 20)

enum asm_tok_kind { T_END, T_IDENT, T_NUM, T_STR, T_PUNCT };

struct asm_tok {
	uint8_t kind;
	char ch;               /* T_PUNCT */
	uint32_t col;          /* 1-based byte column */
	const char *s;         /* T_IDENT, T_STR: into the line, not NUL-terminated */
	uint32_t len;
	uint64_t num;          /* T_NUM */
	uint8_t big;           /* T_NUM: over 64 bits, num is not its value */
};

/* Expressions compile to postfix so that a forward reference can be kept
 * and evaluated once every symbol is known. */
enum asm_xop { X_NUM, X_SYM, X_ADD, X_SUB, X_MUL, X_NEG, X_MAX, X_MIN };

struct asm_xnode {
	uint8_t op;
	uint32_t col;          /* of the token, for errors */
	int64_t v;             /* X_NUM: value; X_SYM: symbol index */
};

struct asm_expr {
	struct asm_xnode n[ASM_MAX_XNODES];
	uint32_t len;
};

/* What a symbol may be in a given place (checked when it is evaluated). */
enum asm_policy {
	POL_CONST,     /* .equ constants and NR_CPUS only */
	POL_IMM,       /* constants; addresses only after `offset` */
	POL_MEM,       /* displacement: .data addresses, .percpu offsets with gs: or a register */
	POL_QUAD,      /* .quad: constants and any data address or per-CPU offset */
};
#define PF_OFFSET 1    /* POL_IMM: `offset` keyword given */
#define PF_GS 2        /* POL_MEM: gs: segment */
#define PF_REG 4       /* POL_MEM: a base or index register is present */
#define PF_ADDR 8      /* POL_MEM: the address is computed, not accessed (lea) */

/* In compiler output a name is first the file's own (local): its key in
 * sym_names is the name, a NUL and the file's number. When the file ends,
 * a local that was declared .globl, or that the file uses without
 * defining, becomes an alias of the global symbol of that name. */
struct asm_sym {
	char *name;            /* NUL-terminated; a local's key continues after the NUL */
	uint8_t section;       /* enum sym_section */
	uint8_t defined;
	uint8_t local;         /* the file's own (compiler output) */
	uint8_t globl;         /* local: .globl/.weak/.comm made it global */
	uint8_t lcl;           /* local: .local said so (a later .comm stays local) */
	int64_t value;
	uint32_t loc;          /* index into locs of the definition */
	uint32_t alias;        /* 1 + index of the symbol this one stands for; 0: none */
};

enum asm_fix_kind { FIX_OPND_A, FIX_OPND_B, FIX_TARGET, FIX_DATA, FIX_PERCPU };

/* A value that could not be computed where it was written. */
struct asm_fixup {
	uint8_t kind, policy, flags, width;
	uint32_t loc;          /* the line that wrote it */
	uint64_t at;           /* insn index or byte offset in the section image */
	struct asm_xnode *n;   /* FIX_TARGET: one X_SYM node */
	uint32_t len;
	uint32_t cloc;         /* err_cloc when it was written */
};

struct asm_state {
	const struct asm_input *in;
	struct err *e;
	int nr_cpus;
	uint32_t line_size;

	/* where we are, for messages */
	const char *cur_file;
	uint16_t cur_file_idx;
	uint32_t cur_line;
	uint64_t total_bytes;

	int section;           /* SEC_TEXT, SEC_DATA or SEC_PERCPU */
	struct insn *insns;
	uint32_t n_insns, cap_insns;
	struct src_loc *locs;
	uint32_t n_locs, cap_locs;
	char **files;
	uint32_t n_files, cap_files;
	char **marks;
	uint32_t n_marks, cap_marks;

	struct asm_sym *syms;
	uint32_t n_syms, cap_syms;
	struct name_map sym_names; /* each symbol's name to its index in syms */

	/* .data image by offset from data_base, __per_cpu_offset first; sparse,
	 * so its zeros are never host memory (percpu, copied per CPU and
	 * bounded, stays flat) */
	struct sp_mem data;
	uint64_t data_size, data_align;
	uint8_t *percpu;
	uint64_t percpu_size, percpu_cap, percpu_align;
	uint64_t filled;       /* bytes .space filled with a non-zero value (PROG_MAX_FILLED) */
	/* The last directive that grew a section: where a memory-limit error
	 * found only at layout points. */
	uint16_t grow_file;
	uint32_t grow_line, grow_col;

	struct asm_fixup *fix;
	uint32_t n_fix, cap_fix;
	uint8_t *define_used;
	/* each define's name to the last define of that name, the one
	 * whose value a .equ takes (and whose define_used entry it sets) */
	struct name_map defines;

	struct asm_tok *toks;
	uint32_t n_toks, cap_toks;

	/* set by a `.include` line for the source driver to open */
	char *include_path;
	uint32_t include_col;

	/* the line being parsed, for directives that read it raw (.section)
	 * and for messages; NULL once the files are read */
	const char *line_text;
	size_t line_len;
	/* the top-level input file being read and whether it is compiler
	 * output (asm_input.compiled); its first symbol index */
	uint32_t unit;
	uint8_t compiled;
	uint32_t unit_first_sym;
	/* Line info of the file (.file N / .loc): DWARF file numbers to 1 +
	 * an index into files (0: not given), .file 0's directory, and the
	 * current .loc, which instructions take as their position. */
	uint32_t *dwarf_files;
	uint32_t cap_dwarf_files;
	char *comp_dir;
	uint8_t cloc_valid;
	uint16_t cloc_file;
	uint32_t cloc_line;
	uint16_t cloc_col;
	/* while an instruction with a .loc is parsed (or its fixup settled):
	 * its C position, where errors are reported; ASM_NO_LOC otherwise */
	uint32_t err_cloc;
	/* a non-allocated section (.debug_*, .note*, ...) is being skipped */
	uint8_t discard;
	uint8_t prev_section, prev_discard;
	struct asm_section_save {
		uint8_t section, discard;
	} sec_stack[ASM_MAX_SECTION_STACK];
	uint32_t n_sec_stack;
};

/* asm_assemble.c */
/* The simulated memory a program of these section sizes needs with st's
 * CPUs and alignment: .data, every per-CPU copy, the stacks (asm_layout.c). */
uint64_t asm_memory_size(const struct asm_state *st, uint64_t data_size, uint64_t percpu_size);
int asm_error(struct asm_state *st, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int asm_error_loc(struct asm_state *st, uint32_t loc, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int asm_oom(struct asm_state *st);
#ifdef __clang_analyzer__
/* Always -1, as err_set (error.h). */
#define asm_error(...) (asm_error(__VA_ARGS__), -1)
#define asm_error_loc(...) (asm_error_loc(__VA_ARGS__), -1)
#define asm_oom(st) (asm_oom(st), -1)
#endif
int asm_grow(struct asm_state *st, void **arr, uint32_t *cap, uint32_t need, size_t elem);
int asm_add_file(struct asm_state *st, const char *path);
/* The index of path in files, added if new; the current file is unchanged. */
int asm_intern_file(struct asm_state *st, const char *path, uint16_t *idx);
int asm_new_loc(struct asm_state *st, uint32_t col, uint32_t *loc);
int asm_new_loc_at(struct asm_state *st, uint16_t file, uint32_t line, uint32_t col,
		   uint32_t *loc);
void asm_loc_text(const struct asm_state *st, uint32_t loc, char *buf, size_t n);

/* asm_lex.c */
int asm_lex_line(struct asm_state *st, const char *text, size_t len);
int asm_tok_is(const struct asm_tok *t, const char *word);
int asm_tok_is_ci(const struct asm_tok *t, const char *word);
void asm_tok_text(const struct asm_tok *t, char *buf, size_t n);
static inline int asm_is_punct(const struct asm_tok *t, char c)
{
	return t->kind == T_PUNCT && t->ch == c;
}

/* asm_symtab.c */
/* The symbol a name means here: the file's own in compiler output, else
 * the global one. */
int asm_sym_ref(struct asm_state *st, const char *name, size_t len, uint32_t *idx);
int asm_sym_global(struct asm_state *st, const char *name, size_t len, uint32_t *idx);
/* The symbol at idx, or the global one it stands for. */
struct asm_sym *asm_sym_at(struct asm_state *st, uint64_t idx);
/* The end of a compiled file: bind its locals to globals (see asm_sym). */
int asm_sym_unit_end(struct asm_state *st);
int asm_sym_define(struct asm_state *st, const struct asm_tok *t, int section, int64_t value);
int asm_reserved_name(const char *name, size_t len);
/* " (did you mean 'x'?)" naming the defined symbol closest to `name` in
 * `section` (-1: any), or "" when none is close; buf holds the text. */
const char *asm_did_you_mean(const struct asm_state *st, const char *name, int section, char *buf,
			     size_t n);
/* The same among the register names. */
const char *asm_reg_did_you_mean(const char *name, char *buf, size_t n);

/* asm_libhint.c: " (the counter library's lib/F.s defines it: …)" when a
 * lib/NAME.s under an include directory defines label `name`, else "". */
const char *asm_library_hint(const struct asm_state *st, const char *name, char *buf, size_t n);

/* asm_expr.c: parse from toks[*pos]; stop at the first token that is not
 * part of the expression (the caller checks what follows). */
int asm_expr_sum(struct asm_state *st, uint32_t *pos, struct asm_expr *x);
int asm_expr_term(struct asm_state *st, uint32_t *pos, struct asm_expr *x);
int asm_expr_push(struct asm_state *st, struct asm_expr *x, uint8_t op, uint32_t col, int64_t v);
/* 0: value computed; 1: a symbol is not yet defined (only when may_defer);
 * -1: error recorded. */
int asm_expr_eval(struct asm_state *st, const struct asm_xnode *n, uint32_t len, int policy,
		  int flags, int may_defer, int64_t *val);
int asm_fits(int64_t v, unsigned width);

/* asm_operand.c */
struct asm_opnd {
	struct operand o;      /* size 0 when not given (memory without prefix, immediates) */
	uint32_t col;
	uint8_t has_expr;      /* OPND_IMM / OPND_MEM value still in x */
	uint8_t flags;         /* PF_* for evaluation */
	struct asm_expr x;
};
int asm_parse_operand(struct asm_state *st, uint32_t *pos, struct asm_opnd *op);

/* asm_insn.c */
int asm_parse_insn(struct asm_state *st, uint32_t pos);

/* asm_directive.c */
int asm_parse_directive(struct asm_state *st, uint32_t pos);
int asm_end_of_line(struct asm_state *st, uint32_t pos);
int asm_const_expr(struct asm_state *st, uint32_t *pos, int64_t *v);
/* Write n bytes at offset `at` of a data section's image. */
int asm_section_write(struct asm_state *st, int section, uint64_t at, const uint8_t *b,
		      uint64_t n);

/* asm_section.c */
/* Whether the line (raw text) switches sections: the only lines read
 * while a discarded section is being skipped. */
int asm_is_section_switch(const char *text, size_t len);
/* .section/.pushsection/.popsection/.previous/.text/.data/.bss/...:
 * 1 when t is one of them (handled), 0 when not, -1 on error. */
int asm_section_directive(struct asm_state *st, uint32_t pos);

/* asm_compiled.c: what compiler output adds (.file/.loc line info,
 * .comm/.lcomm, .local/.globl, strings, ignored bookkeeping). 1 when
 * handled, 0 when t is not one of them, -1 on error. */
int asm_compiler_directive(struct asm_state *st, uint32_t pos);
void asm_unit_begin(struct asm_state *st, uint32_t unit, int compiled);
int asm_unit_end(struct asm_state *st);
int asm_section_bytes(struct asm_state *st, int section, uint64_t n, uint32_t col,
		      uint64_t *at);

/* asm_parse.c */
int asm_parse_line(struct asm_state *st, const char *text, size_t len);
int asm_add_fixup(struct asm_state *st, uint8_t kind, uint8_t policy, uint8_t flags,
		  uint8_t width, uint64_t at, const struct asm_xnode *n, uint32_t len,
		  uint32_t loc);
/* Evaluate a value and store it (instruction operand, jump target or data
 * bytes), or keep it as a fixup when may_defer and a symbol is not known yet. */
int asm_settle(struct asm_state *st, uint8_t kind, uint8_t policy, uint8_t flags, uint8_t width,
	       uint64_t at, const struct asm_xnode *n, uint32_t len, uint32_t loc, int may_defer);

/* asm_source.c */
int asm_run_file(struct asm_state *st, const char *path);
int asm_run_string(struct asm_state *st, const char *name, const char *text);

/* asm_layout.c */
int asm_finish(struct asm_state *st, struct program *out);

#endif
