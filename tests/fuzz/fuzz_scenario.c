/* Fuzz target: the scenario loader (scen_load_string, resolving every
 * variant) and the CPU-model reader (cpu_json_from_node on the same bytes),
 * seeded with the scenarios and cpus/ JSON files. Only loading: nothing runs. */
#include "config.h"
#include "fuzz.h"
#include "load/scenario.h"
#include "load/cpu_json.h"
#include "load/json_pos.h"

static void fuzz_cpu(const char *text)
{
	struct err e = {0};
	struct jpos_doc *d = jpos_parse("fuzz-cpu.json", text, strlen(text), &e);
	if (!d)
		return;
	struct cpu_model m;
	cpu_json_from_node(d, jpos_root(d), "fuzz", &m, &e);
	jpos_free(d);
}

static void fuzz_scenario(const char *text)
{
	struct scenario s;
	struct err e = {0};
	/* dir NULL: program paths resolve against <datadir>/scenarios, so the
	 * shipped programs and lib/ are reachable from the seeds. */
	if (scen_load_string("fuzz.json", NULL, text, &s, &e) == 0) {
		for (size_t v = 0; v < s.n_variants; v++) {
			struct scen_run r;
			struct err re = {0};
			if (scen_resolve(&s, v, NULL, &r, &re) == 0)
				scen_run_free(&r);
		}
	}
	scen_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	if (!text)
		return 0;
	fuzz_cpu(text);
	fuzz_scenario(text);
	free(text);
	return 0;
}
