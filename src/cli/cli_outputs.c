/* Outputs that must not replace what the command reads: a scenario run's
 * outputs against the scenario, its CPU models and programs (and the files
 * an assembly read, its .include files among them) and one another; the
 * file-level check itself is outfile_check_clash. */
#include "config.h"
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>
#include "cli/outfile.h"
#include "load/scenario.h"

int cli_check_outputs(const struct cli_opts *o, const struct scenario *s, const struct program *p,
		      const char *const *outs, const char *const *opts, size_t n, struct err *e)
{
	if (!n)
		return 0;
	size_t cap = 2 + s->n_cpu_files + s->base.n_program + o->n_sets + (p ? p->n_files : 0);
	for (size_t v = 0; v < s->n_variants; v++)
		cap += s->variants[v].setup.n_program;
	const char **ins = malloc(cap * sizeof *ins), **kinds = malloc(cap * sizeof *kinds);
	char **owned = calloc(o->n_sets + 1, sizeof *owned);
	size_t k = 0, n_owned = 0;
	int rc = -1;
	if (!ins || !kinds || !owned) {
		err_internal(e, "out of memory");
		goto out;
	}
#define INPUT(path, kind) do { ins[k] = (path); kinds[k++] = (kind); } while (0)
	if (o->scenario)
		INPUT(o->scenario, "the scenario");
	for (size_t i = 0; i < s->n_cpu_files; i++)
		INPUT(s->cpu_files[i], "the CPU model");
	for (size_t i = 0; i < s->base.n_program; i++)
		INPUT(s->base.program[i], "the program");
	for (size_t v = 0; v < s->n_variants; v++)
		for (size_t i = 0; i < s->variants[v].setup.n_program; i++)
			INPUT(s->variants[v].setup.program[i], "the program");
	for (size_t i = 0; p && i < p->n_files; i++)
		INPUT(p->files[i], "the program file");
	for (size_t i = 0; i <= o->n_sets; i++) {
		const char *cpu = i == o->n_sets ? o->cpu :
				  strcmp(o->sets[i].name, "cpu") == 0 ? o->sets[i].values[0] : NULL;
		if (cpu && (owned[n_owned] = scen_cpu_file(cpu, ".")))
			INPUT(owned[n_owned++], "the CPU model");
	}
#undef INPUT
	rc = outfile_check_clash(outs, opts, n, ins, kinds, k, e);
out:
	for (size_t i = 0; i < n_owned; i++)
		free(owned[i]);
	free(owned);
	free(ins);
	free(kinds);
	return rc;
}

