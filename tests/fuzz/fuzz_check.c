/* Fuzz target: the whole `bounce check` path. The input is a scenario,
 * optionally followed by a line ";;; fuzz.s" and the text of a program the
 * scenario can name as "fuzz.s"; every variant is resolved, assembled and
 * made into a sim (runner_prepare), which then runs a few thousand cycles. */
#include "config.h"
#include "fuzz.h"
#include "run/runner.h"

#include <stdio.h>
#include <unistd.h>

#define FUZZ_SEP "\n;;; fuzz.s\n"
#define FUZZ_RUN_CYCLES 2000 /* enough to start every core, short enough to stay fast */

static char dir[64];
static char asm_path[128];

static void cleanup(void)
{
	unlink(asm_path);
	rmdir(dir);
}

/* One scratch directory per process, holding the scenario's fuzz.s. */
static int init_dir(void)
{
	if (dir[0])
		return 0;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/bounce-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		dir[0] = 0;
		return -1;
	}
	snprintf(asm_path, sizeof asm_path, "%s/fuzz.s", dir);
	atexit(cleanup);
	return 0;
}

static void write_program(const char *text)
{
	if (!text) {
		unlink(asm_path);
		return;
	}
	FILE *f = fopen(asm_path, "wb");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (init_dir())
		return 0;
	char *text = fuzz_cstring(data, size);
	if (!text)
		return 0;
	char *sep = strstr(text, FUZZ_SEP);
	if (sep)
		*sep = 0;
	write_program(sep ? sep + strlen(FUZZ_SEP) : NULL);

	struct scenario s;
	struct err e = {0};
	if (scen_load_string("fuzz.json", dir, text, &s, &e) == 0) {
		for (size_t v = 0; v < s.n_variants; v++) {
			struct runner r;
			struct err re = {0};
			if (runner_prepare(&r, &s, v, NULL, 1, &re))
				continue;
			sim_run_until(r.sim, FUZZ_RUN_CYCLES, &re);
			runner_free(&r);
		}
	}
	scen_free(&s);
	free(text);
	return 0;
}
