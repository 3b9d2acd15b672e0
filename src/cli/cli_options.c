/* The options every subcommand shares: parsing argv into cli_opts, turning
 * --cpu/--cores/--seed/--set into scenario overrides, loading the scenario,
 * and mapping errors to exit statuses. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/outfile.h"

static const char usage[] =
	"usage: bounce [run] [SCENARIO.json] [--cpu M] [--cores N] [--seed S] [--variant V]\n"
	"              [--set NAME=VALUE]... [--json F] [--csv F] [--junit F] [--trace F]\n"
	"              [--trace-limit EVENTS] [--markdown F] [--check] [--c2c] [--quiet] [--max-seconds S]\n"
	"       bounce sweep SCENARIO.json --set NAME=V1,V2,... [--jobs J] [--shard K/N] [--csv F]\n"
	"       bounce merge PART.csv... [--csv F]\n"
	"       bounce view [SCENARIO.json] [--speed CYCLES_PER_S] [--screenshot F.png --frames N]\n"
	"       bounce check SCENARIO.json\n"
	"       bounce list\n"
	"       bounce calibrate [-o FILE] [--quick]      (measure this host: a CPU model)\n"
	"       bounce validate [--cpu M] [--threads N] [--quick]  (native vs simulated here)\n";

static int parse_int(const char *opt, const char *s, long long lo, long long hi, long long *out,
		     struct err *e)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < lo || v > hi)
		return err_set(e, NULL, 0, 0, "%s: '%s' is not an integer in %lld..%lld", opt, s, lo, hi);
	*out = v;
	return 0;
}

static int add_set(struct cli_opts *o, const char *arg, int list, struct err *e)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return err_set(e, NULL, 0, 0, "--set: expected NAME=VALUE%s, got '%s'",
			       list ? "[,VALUE...]" : "", arg);
	if (o->n_sets == CLI_MAX_SETS)
		return err_set(e, NULL, 0, 0, "--set: at most %d settings", CLI_MAX_SETS);
	struct cli_set *s = &o->sets[o->n_sets++];
	s->name = strndup(arg, (size_t)(eq - arg));
	const char *p = eq + 1;
	for (;;) {
		const char *c = list ? strchr(p, ',') : NULL;
		size_t len = c ? (size_t)(c - p) : strlen(p);
		char **nv = realloc(s->values, (s->n_values + 1) * sizeof *nv);
		if (!nv || !s->name)
			return err_internal(e, "out of memory");
		s->values = nv;
		if (!len)
			return err_set(e, NULL, 0, 0, "--set %s: empty value", s->name);
		s->values[s->n_values++] = strndup(p, len);
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
}

int cli_parse(const char *cmd, int argc, char **argv, struct cli_opts *o, struct err *e)
{
	memset(o, 0, sizeof *o);
	o->jobs = 1;
	o->frames = 120;
	o->trace_limit = -1;
	int sweep = strcmp(cmd, "sweep") == 0;
	o->rest = calloc((size_t)argc + 1, sizeof *o->rest);
	if (!o->rest)
		return err_internal(e, "out of memory");
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		long long n;
#define NEED_VALUE() do { if (!val) return err_set(e, NULL, 0, 0, "%s needs a value", a); i++; } while (0)
		if (strcmp(a, "--cpu") == 0) { NEED_VALUE(); o->cpu = val; }
		else if (strcmp(a, "--variant") == 0) { NEED_VALUE(); o->variant = val; }
		else if (strcmp(a, "--cores") == 0) {
			NEED_VALUE();
			if (parse_int(a, val, 1, CPU_MAX_CORES, &n, e))
				return -1;
			o->cores = (int)n;
		} else if (strcmp(a, "--seed") == 0) {
			NEED_VALUE();
			if (parse_int(a, val, 0, INT64_MAX, &n, e))
				return -1;
			o->has_seed = true;
			o->seed = (uint64_t)n;
		} else if (strcmp(a, "--set") == 0) {
			NEED_VALUE();
			if (add_set(o, val, sweep, e))
				return -1;
		} else if (strcmp(a, "--json") == 0) { NEED_VALUE(); o->json = val; }
		else if (strcmp(a, "--csv") == 0) { NEED_VALUE(); o->csv = val; }
		else if (strcmp(a, "--junit") == 0) { NEED_VALUE(); o->junit = val; }
		else if (strcmp(a, "--trace") == 0) { NEED_VALUE(); o->trace = val; }
		else if (strcmp(a, "--markdown") == 0) { NEED_VALUE(); o->markdown = val; }
		else if (strcmp(a, "--trace-limit") == 0) {
			NEED_VALUE();
			if (parse_int(a, val, 0, INT64_MAX, &o->trace_limit, e))
				return -1;
		}
		else if (strcmp(a, "--check") == 0) o->check = true;
		else if (strcmp(a, "--c2c") == 0) o->c2c = true;
		else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) o->quiet = true;
		else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
			NEED_VALUE();
			if (parse_int(a, val, 1, 256, &n, e))
				return -1;
			o->jobs = (int)n;
		} else if (strcmp(a, "--shard") == 0) {
			NEED_VALUE();
			/* strtol, not sscanf %d: an out-of-range K or N must be an
			 * error, not undefined behaviour. */
			char *end;
			errno = 0;
			long k = strtol(val, &end, 10), nn = 0;
			if (end != val && *end == '/') {
				const char *ns = end + 1;
				nn = strtol(ns, &end, 10);
				if (end == ns)
					nn = 0;
			}
			if (errno || *end || nn < 1 || nn > INT_MAX || k < 1 || k > nn)
				return err_set(e, NULL, 0, 0, "--shard: expected K/N with 1 <= K <= N, got '%s'", val);
			o->shard_k = (int)k;
			o->shard_n = (int)nn;
		} else if (strcmp(a, "--speed") == 0) {
			NEED_VALUE();
			char *end;
			o->speed = strtod(val, &end);
			if (*end || end == val || !(o->speed > 0) || o->speed > 1e15)
				return err_set(e, NULL, 0, 0, "--speed: '%s' is not a positive number of cycles per second", val);
		} else if (strcmp(a, "--max-seconds") == 0) {
			NEED_VALUE();
			char *end;
			o->max_seconds = strtod(val, &end);
			if (*end || end == val || !(o->max_seconds > 0) || o->max_seconds > 1e7)
				return err_set(e, NULL, 0, 0, "--max-seconds: '%s' is not a number of seconds in (0, 1e7]", val);
		} else if (strcmp(a, "--screenshot") == 0) { NEED_VALUE(); o->screenshot = val; }
		else if (strcmp(a, "--frames") == 0) {
			NEED_VALUE();
			if (parse_int(a, val, 1, 1000000, &n, e))
				return -1;
			o->frames = (int)n;
		} else if (strcmp(a, "--width") == 0 || strcmp(a, "--height") == 0) {
			NEED_VALUE();
			if (parse_int(a, val, 320, 8192, &n, e))
				return -1;
			*(a[2] == 'w' ? &o->width : &o->height) = (int)n;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			exit(EXIT_OK);
		} else if (a[0] == '-' && a[1]) {
			return err_set(e, NULL, 0, 0, "unknown option '%s' (see bounce --help)", a);
		} else if (strcmp(cmd, "merge") == 0 || !o->scenario) {
			if (strcmp(cmd, "merge") == 0)
				o->rest[o->n_rest++] = argv[i];
			else
				o->scenario = a;
		} else {
			return err_set(e, NULL, 0, 0, "unexpected argument '%s' (one scenario at a time)", a);
		}
#undef NEED_VALUE
	}
	if (sweep && !o->n_sets)
		return err_set(e, NULL, 0, 0, "sweep needs at least one --set NAME=V1,V2,...");
	return 0;
}

void cli_opts_free(struct cli_opts *o)
{
	for (size_t i = 0; i < o->n_sets; i++) {
		for (size_t k = 0; k < o->sets[i].n_values; k++)
			free(o->sets[i].values[k]);
		free(o->sets[i].values);
		free(o->sets[i].name);
	}
	free(o->rest);
}

int cli_overrides(const struct cli_opts *o, const size_t *pick, struct cli_ov *c, struct err *e)
{
	struct scen_overrides *ov = &c->ov;
	memset(ov, 0, sizeof *ov);
	const char *cpu = o->cpu;
	ov->cores = o->cores;
	ov->has_seed = o->has_seed;
	ov->seed = o->seed;
	for (size_t i = 0; i < o->n_sets; i++) {
		const char *name = o->sets[i].name;
		const char *val = o->sets[i].values[pick ? pick[i] : 0];
		long long n;
		char opt[160];
		snprintf(opt, sizeof opt, "--set %s", name);
		if (strcmp(name, "cpu") == 0) {
			cpu = val;
		} else if (strcmp(name, "cores") == 0) {
			if (parse_int(opt, val, 1, CPU_MAX_CORES, &n, e))
				return -1;
			ov->cores = (int)n;
		} else if (strcmp(name, "seed") == 0) {
			if (parse_int(opt, val, 0, INT64_MAX, &n, e))
				return -1;
			ov->has_seed = true;
			ov->seed = (uint64_t)n;
		} else {
			if (parse_int(opt, val, INT64_MIN, INT64_MAX, &n, e))
				return -1;
			c->defs[ov->n_defines] = (struct asm_define){ .name = name, .value = n, .file = "--set" };
			ov->n_defines++;
		}
	}
	ov->defines = c->defs;
	if (cpu) {
		if (scen_load_cpu(cpu, &c->cpu, e))
			return -1;
		ov->cpu = &c->cpu;
	}
	return 0;
}

int cli_setup(const struct cli_opts *o, struct scenario *s, struct cli_ov *ov, struct err *e)
{
	if (o->scenario ? scen_load(o->scenario, s, e) : scen_load_default(s, e))
		return -1;
	if (o->variant && scen_find_variant(s, o->variant) < 0) {
		char names[512] = "";
		for (size_t v = 0; v < s->n_variants; v++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
				 v ? ", " : "", s->variants[v].name);
		return err_set(e, s->file, 0, 0, "--variant: no variant named '%s' (have: %s)",
			       o->variant, names);
	}
	return cli_overrides(o, NULL, ov, e);
}

int cli_fail(const struct err *e)
{
	err_print(e, stderr);
	return cli_exit_status(e);
}

int cli_exit_status(const struct err *e)
{
	return e->kind == ERR_INTERNAL ? EXIT_INTERNAL :
	       e->kind == ERR_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_INPUT;
}
