/* C workloads: a scenario's .c programs compiled by the host's C compiler
 * (CC, else cc) to the Intel-syntax assembly the assembler reads, with one
 * flag set (docs/c-workloads.md says which and why), and cached by content
 * in the user's cache directory so that a sweep compiles each variant once. */
#ifndef BOUNCE_C_COMPILE_H
#define BOUNCE_C_COMPILE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "asm/asm.h"

struct cc_input {
	const char *const *files;        /* the program list: .s files pass through */
	size_t n_files;
	const struct asm_define *defines; /* become -DNAME=VALUE */
	size_t n_defines;
	const char *const *cflags;       /* the scenario's "cflags", after ours */
	size_t n_cflags;
	const char *const *include_dirs; /* -I, after the header bounce.h's */
	size_t n_include_dirs;
	int nr_cpus;                     /* -DNR_CPUS= */
};

struct cc_output {
	char **files;         /* what to assemble, in the program's order */
	uint8_t *compiled;    /* per file: 1 when it is a compiler's output */
	size_t n_files;
	uint8_t *define_used; /* per define: its name appears in a C source or header */
	char **sources;       /* every file the compiles read (sources, headers) */
	size_t n_sources;
};

/* Whether any file of the list is a C source. */
int cc_any_c(const char *const *files, size_t n);
/* Compile the list's .c files (or find them in the cache). On error -1
 * with e set: a compiler that is missing or failed (its messages, which
 * name the C file and line, are passed through) is bad input; *out is
 * left empty. */
int cc_compile(const struct cc_input *in, struct cc_output *out, struct err *e);
void cc_output_free(struct cc_output *out);

#endif
