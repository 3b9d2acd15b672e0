/* Fuzz target: the CPU-model loader on its own. The bytes are a cpus/NAME.json
 * file; a model that loads is validated at one, its own and the largest core
 * count (what --cores and sweeps ask of it), its topology built and every
 * CPU placed, and a failed validation pointed back at its field. */
#include "config.h"
#include "fuzz.h"
#include "base/topology.h"
#include "load/cpu_json.h"
#include "load/json_pos.h"
#include "mem/memsys.h"

static void at_cores(const struct jpos_doc *d, struct cpu_model m, int cores)
{
	struct err verr = {0}, e = {0};
	m.cores = cores;
	if (ms_model_check(&m, &verr)) {
		cpu_json_locate(d, jpos_root(d), &verr, &e);
		return;
	}
	struct topology t;
	cpu_model_topology(&m, &t);
	struct topo_place first = cpu_model_place(&m, 0);
	for (int c = 0; c < cores; c++) {
		struct topo_place p = cpu_model_place(&m, c);
		(void)topo_transfer(&t, &first, &p);
	}
	(void)cpu_model_sockets(&m);
	(void)cpu_model_cpus_in_socket0(&m);
	(void)cpu_model_socket_transfer(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = {0};
	struct jpos_doc *d = jpos_parse("fuzz-cpu.json", (const char *)data, size, &e);
	if (!d)
		return 0;
	struct cpu_model m;
	if (cpu_json_from_node(d, jpos_root(d), "fuzz", &m, &e) == 0) {
		at_cores(d, m, 1);
		at_cores(d, m, m.cores);
		at_cores(d, m, CPU_MAX_CORES);
	}
	jpos_free(d);
	return 0;
}
