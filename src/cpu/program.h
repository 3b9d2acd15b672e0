/* An assembled program: the pre-decoded instructions, the symbols and the
 * initial memory image. The assembler (asm/asm.h) writes it; it sits in
 * cpu/ because the cores, and everything above them, read it. */

/* Address map (x86-64 kernel conventions):
 *   [0, PROG_CODE_BASE)            unmapped: a null pointer faults
 *   [PROG_CODE_BASE, PROG_DATA_BASE) code addresses, one per instruction
 *                                    (PROG_CODE_BASE + its index): what a
 *                                    function pointer holds; not readable
 *                                    as data, so an access here faults too
 *   [data_base, data_base+data_size) .data, with the generated table
 *                                    __per_cpu_offset (nr_cpus quads)
 *   percpu area c at percpu_offset(c) = percpu_base + c * percpu_stride,
 *                                    each a copy of .percpu (line-aligned)
 *   stack of CPU c: [stack_base + c*PROG_STACK_SIZE, +PROG_STACK_SIZE)
 *   mem_size = end of the last stack.
 * A .percpu symbol's value is its zero-based offset in the section, as on
 * x86-64: gs:[sym] is percpu_offset(cpu) + sym, and per_cpu_ptr(sym, c) is
 * sym + __per_cpu_offset[c]. */
#ifndef BOUNCE_PROGRAM_H
#define BOUNCE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>
#include "cpu/isa.h"
#include "base/error.h"
#include "mem/sparse.h"

#define PROG_DATA_BASE 0x10000u
/* Code addresses sit below .data so that every data address stays where it
 * was before programs could take one, and below 2 GiB, as GCC's and
 * Clang's non-PIC code (mov edi, OFFSET FLAT:f) assume. */
#define PROG_CODE_BASE 0x1000u
#define PROG_MAX_CODE_ADDRS (PROG_DATA_BASE - PROG_CODE_BASE)
#define PROG_STACK_SIZE 4096u
/* Simulated memory is sparse (mem/sparse.h): zeros cost no host memory,
 * so .data may be large; what is written is bounded. */
#define PROG_MAX_DATA (2ull << 30)     /* refuse .data/.space beyond this */
#define PROG_MAX_FILLED (64ull << 20)  /* bytes .space may fill with a non-zero value */
/* Refuse a layout whose memory beyond .data (NR_CPUS copies of .percpu, the
 * stacks: written for every CPU) exceeds this, so a .percpu .space times
 * 1024 CPUs is an input error, not an OOM. */
#define PROG_MAX_MEMORY (256u << 20)

enum sym_section { SEC_TEXT, SEC_DATA, SEC_PERCPU, SEC_ABS /* .equ */ };

struct symbol {
	char *name;
	uint8_t section;   /* enum sym_section */
	int64_t value;     /* TEXT: instruction index; DATA: address; PERCPU: offset; ABS: value */
	uint64_t size;     /* bytes up to the next symbol in the same section (data/percpu) */
	uint32_t loc;      /* where it was defined */
	uint8_t local;     /* one compiled file's own (static, .L*): program_symbol skips it */
};

struct src_loc {
	uint16_t file;     /* index into program.files */
	uint32_t line;
	uint16_t col;
};

struct program {
	struct insn *insns;
	uint32_t n_insns;
	struct symbol *syms;   /* sorted by name (bsearch) */
	uint32_t n_syms;
	char **files;          /* every file read, and the C files .file names, for src_loc.file */
	uint32_t n_files;
	struct src_loc *locs;
	uint32_t n_locs;
	char **marks;          /* OP_MARK names */
	uint32_t n_marks;

	int nr_cpus;
	uint32_t line_size;
	uint64_t data_base, data_size;
	/* Initial .data by offset from data_base, sparse: a page never
	 * written is zeros, so a 1 GiB .space costs the host nothing. */
	struct sp_mem data_image;
	uint64_t percpu_base, percpu_stride, percpu_size;
	uint8_t *percpu_image; /* percpu_size bytes: initial value of every copy */
	uint64_t stack_base;
	uint64_t mem_size;
};

void program_free(struct program *p);
/* Name one more file the program was built from (a C header the compiler
 * read), once: every command checks its outputs against these. -1 when
 * out of memory. */
int program_add_file(struct program *p, const char *path);

/* The global symbol of that name (never a compiled file's own), or NULL. */
const struct symbol *program_symbol(const struct program *p, const char *name);
static inline uint64_t program_percpu_offset(const struct program *p, int cpu)
{
	return p->percpu_base + (uint64_t)cpu * p->percpu_stride;
}
/* Whether a is a code address of this program; *insn its instruction. */
static inline int program_code_insn(const struct program *p, uint64_t a, uint32_t *insn)
{
	if (a - PROG_CODE_BASE >= p->n_insns)
		return 0;
	*insn = (uint32_t)(a - PROG_CODE_BASE);
	return 1;
}
/* "file:line" of an instruction, "?" when unknown. */
void program_where(const struct program *p, uint32_t insn, char *buf, size_t n);
/* An input error at the file:line:col where instruction `insn` was written
 * (no position when unknown). Returns -1, as err_set. */
int program_err(struct err *e, const struct program *p, uint32_t insn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#ifdef __clang_analyzer__
#define program_err(...) (program_err(__VA_ARGS__), -1)
#endif

#endif
