/* The list of a command's input files (see cli_inputs.h); the file-level
 * comparison is outfile_check_clash's. */
#include "config.h"
#include "cli/cli_inputs.h"

#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/outfile.h"
#include "cpu/program.h"
#include "load/scenario.h"

void cli_inputs_free(struct cli_inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->paths[i]);
	free(in->paths);
	free(in->kinds);
	name_map_free(&in->seen);
	memset(in, 0, sizeof *in);
}

int cli_inputs_add(struct cli_inputs *in, const char *path, const char *kind, struct err *e)
{
	size_t len = strlen(path), at;
	if (name_map_find(&in->seen, path, len, &at))
		return 0;
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 16;
		char **p = realloc(in->paths, cap * sizeof *p);
		if (p)
			in->paths = p;
		const char **k = p ? realloc(in->kinds, cap * sizeof *k) : NULL;
		if (!k)
			return err_internal(e, "out of memory");
		in->kinds = k;
		in->cap = cap;
	}
	char *copy = strdup(path);
	at = in->n;
	if (!copy || name_map_add(&in->seen, copy, len, &at) < 0) {
		free(copy);
		return err_internal(e, "out of memory");
	}
	in->paths[in->n] = copy;
	in->kinds[in->n++] = kind;
	return 0;
}

/* A --cpu or --set cpu value that names a model file (not a built-in name). */
static int add_cpu(struct cli_inputs *in, const char *cpu, struct err *e)
{
	char *file = scen_cpu_file(cpu, ".");
	int bad = file && cli_inputs_add(in, file, "the CPU model", e);
	free(file);
	return bad ? -1 : 0;
}

int cli_inputs_add_scenario(struct cli_inputs *in, const struct cli_opts *o, const struct scenario *s,
			    struct err *e)
{
	if (o->scenario && cli_inputs_add(in, o->scenario, "the scenario", e))
		return -1;
	for (size_t i = 0; i < s->n_cpu_files; i++)
		if (cli_inputs_add(in, s->cpu_files[i], "the CPU model", e))
			return -1;
	for (size_t i = 0; i < s->base.n_program; i++)
		if (cli_inputs_add(in, s->base.program[i], "the program", e))
			return -1;
	for (size_t v = 0; v < s->n_variants; v++)
		for (size_t i = 0; i < s->variants[v].setup.n_program; i++)
			if (cli_inputs_add(in, s->variants[v].setup.program[i], "the program", e))
				return -1;
	if (o->cpu && add_cpu(in, o->cpu, e))
		return -1;
	for (size_t i = 0; i < o->n_sets; i++)
		for (size_t k = 0; strcmp(o->sets[i].name, "cpu") == 0 && k < o->sets[i].n_values; k++)
			if (add_cpu(in, o->sets[i].values[k], e))
				return -1;
	return 0;
}

int cli_inputs_add_program(struct cli_inputs *in, const struct program *p, struct err *e)
{
	/* "<assembler>" and the like name text built into bounce, not files */
	for (uint32_t i = 0; i < p->n_files; i++)
		if (p->files[i][0] != '<' && cli_inputs_add(in, p->files[i], "the program file", e))
			return -1;
	return 0;
}

int cli_inputs_check(const struct cli_inputs *in, const char *const *outs, const char *const *opts,
		     size_t n_outs, struct err *e)
{
	return outfile_check_clash(outs, opts, n_outs, (const char *const *)in->paths, in->kinds, in->n, e);
}
