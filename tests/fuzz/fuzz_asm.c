/* Fuzz target: the assembler on one in-memory .s text (asm_assemble_string),
 * with the scenario library as include path, so .include of lib/ files and of
 * missing or cyclic files is reached, read as hand-written or as compiler
 * output. Seeded with the shipped .s files, tests/fuzz/seeds/asm and what
 * gcc and clang emit for tests/fixtures/c (tests/fuzz/run.sh). */
#include "config.h"
#include "fuzz.h"
#include "asm/asm.h"
#include "load/scenario.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char libdir[4096];
	if (!libdir[0])
		snprintf(libdir, sizeof libdir, "%s/scenarios", scen_datadir());
	char *text = fuzz_cstring(data, size);
	if (!text)
		return 0;
	const char *dirs[] = { libdir };
	/* The first byte picks the machine width, so NR_CPUS-sized layouts
	 * (__per_cpu_offset, percpu areas, stacks) vary too. */
	int cpus = size ? 1 + data[0] % 64 : 4;
	/* Its bit 6 clear (tab, '.', ';', '#', digits: how compiler output
	 * and most library files begin) reads the text as compiler output,
	 * with file-local symbols and .loc positions. */
	static const uint8_t compiled[] = { 1 };
	struct asm_input in = {
		.include_dirs = dirs,
		.n_include_dirs = 1,
		.nr_cpus = cpus,
		.line_size = 64,
		.compiled = size && !(data[0] & 0x40) ? compiled : NULL,
	};
	struct program p;
	struct err e = {0};
	if (asm_assemble_string("fuzz.s", text, &in, &p, &e) == 0)
		program_free(&p);
	free(text);
	return 0;
}
