/* The assembler's public face: what the layers above call to turn workload
 * sources (hand-written .s, or a compiler's output with its .file/.loc line
 * info) into a cpu/program.h program, and the register names it knows. */
#ifndef BOUNCE_ASM_H
#define BOUNCE_ASM_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"
#include "cpu/program.h"

/* `defines` override .equ values of the same name (scenario "defines"). */
struct asm_define {
	const char *name;
	int64_t value;
	/* Where it was set, for the message when it names no .equ: a
	 * scenario's key at file:line:col, or with line 0 what the file
	 * field names ("--set"). NULL: not said. */
	const char *file;
	int line, col;
	/* A C program mentions it (a -D macro to its compile): then naming no
	 * .equ is not an error. */
	uint8_t used_by_c;
};

struct asm_input {
	const char *const *files;     /* assembled in order as one unit */
	size_t n_files;
	const char *const *include_dirs; /* searched after the including file's directory */
	size_t n_include_dirs;
	const struct asm_define *defines;
	size_t n_defines;
	int nr_cpus;                  /* value of NR_CPUS; sizes __per_cpu_offset */
	uint32_t line_size;           /* for .align defaults and the percpu stride */
	/* Per file (NULL: none): non-zero when it is a compiler's output. Its
	 * symbols are its own unless declared .globl (a C file's statics),
	 * and its .loc lines name the C source of each instruction. For
	 * asm_assemble_string, element 0 applies to the text. */
	const uint8_t *compiled;
	/* Per file (NULL, or a NULL element: none): the directory the
	 * compiler ran in, as messages should show it ("" for the current
	 * one). A relative name in .file resolves against it; without it,
	 * against the directory `.file 0` names. */
	const char *const *compile_dirs;
};

/* Assemble. On error returns -1 with e = file:line:col: message and leaves
 * *out empty; nothing half-built escapes. Defines that name no .equ in the
 * program are an error (a variant that overrides nothing real). */
int asm_assemble(const struct asm_input *in, struct program *out, struct err *e);
/* Assemble from memory (tests, fuzzing): `name` is used in messages. */
int asm_assemble_string(const char *name, const char *text, const struct asm_input *in,
			struct program *out, struct err *e);
/* A register name ("rax", "eax", "r8d"...): its number and width in bytes.
 * Returns 0 when it is one, -1 otherwise. */
int asm_reg_lookup(const char *name, size_t len, uint8_t *reg, uint8_t *size);

#endif
