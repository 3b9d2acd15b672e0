/* The options every subcommand shares: parsing argv into cli_opts, turning
 * --cpu/--cores/--seed/--set into scenario overrides, loading the scenario,
 * and mapping errors to exit statuses. */
#include "config.h"
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/name_map.h"
#include "cli/outfile.h"

/* a macro's value as a string, for the help texts */
#define STR_(x) #x
#define XSTR(x) STR_(x)

/* Which commands take an option: a bit per command. */
enum {
	C_RUN = 1, C_SWEEP = 2, C_MERGE = 4, C_VIEW = 8, C_CHECK = 16, C_LIST = 32,
	C_SCEN = C_RUN | C_SWEEP | C_VIEW | C_CHECK, /* the ones that load a scenario */
	C_ALL = 63,
};

/* getopt_long values of the options without a short form. */
enum {
	O_CPU = 256, O_CORES, O_SEED, O_VARIANT, O_SET, O_JSON, O_CSV, O_JUNIT, O_TRACE, O_MARKDOWN,
	O_CHECK, O_SHARD, O_SPEED, O_SCREENSHOT, O_FRAMES, O_WIDTH, O_HEIGHT, O_PROGRESS,
	O_NO_PROGRESS, O_TRACE_LIMIT, O_C2C, O_MAX_SECONDS, O_PLACEMENT,
	O_BASELINE, O_REPEAT, O_FIND, O_NO_FAST_FORWARD,
};

struct opt_def {
	const char *name;
	int has_arg;     /* no_argument or required_argument */
	int val;
	int cmds;        /* C_* bits of the commands that take it */
	const char *arg; /* the value's name in help, NULL without one */
	const char *help;
};

/* Every option of the commands parsed here; per-command --help prints the
 * rows whose bit is set, in this order. */
static const struct opt_def opt_defs[] = {
	{"cpu", required_argument, O_CPU, C_SCEN, "MODEL", "CPU model: a cpus/ name or a model file (replaces the scenario's)"},
	{"cores", required_argument, O_CORES, C_SCEN, "N", "simulate N cores (1..1024)"},
	{"seed", required_argument, O_SEED, C_SCEN, "S", "random seed (decimal, 0..2^63-1)"},
	{"variant", required_argument, O_VARIANT, C_SCEN, "NAME", "only this variant (expectations about the others are skipped)"},
	{"set", required_argument, O_SET, C_SCEN, "NAME=VALUE", "a define's value, or cores, seed, cpu, placement or cpu.KEY (a CPU-model key); once per NAME"},
	{"placement", required_argument, O_PLACEMENT, C_SCEN, "POLICY", "place the run's CPUs on the model's topology: compact, scatter, cores-first or numbered"},
	{"json", required_argument, O_JSON, C_RUN, "FILE", "write the JSON report"},
	{"csv", required_argument, O_CSV, C_RUN | C_SWEEP | C_MERGE, "FILE", "write CSV (sweep, merge: stdout without it)"},
	{"junit", required_argument, O_JUNIT, C_RUN, "FILE", "write the expectations as JUnit XML"},
	{"trace", required_argument, O_TRACE, C_RUN, "FILE", "write a Chrome/Perfetto trace of the run"},
	{"markdown", required_argument, O_MARKDOWN, C_RUN, "FILE", "write the headline table as Markdown"},
	{"trace-limit", required_argument, O_TRACE_LIMIT, C_RUN, "EVENTS", "at most EVENTS trace events per variant (default 250000, 0: no limit)"},
	{"c2c", no_argument, O_C2C, C_RUN, NULL, "after the summary, shared lines by HITM and the instructions behind them"},
	{"max-seconds", required_argument, O_MAX_SECONDS, C_RUN, "S", "stop at S seconds of wall clock; the report says \"stopped\": \"wall-clock\" and the expectations on a variant it stopped fail"},
	{"baseline", required_argument, O_BASELINE, C_RUN | C_SWEEP, "VARIANT", "add each figure's ratio to this variant's (CSV: M_vs_VARIANT; summary: vs VARIANT)"},
	{"repeat", required_argument, O_REPEAT, C_RUN | C_SWEEP, "N", "run each variant (sweep: point) at seeds S..S+N-1: mean, min, max, sd (1..1000)"},
	{"find", required_argument, O_FIND, C_SWEEP, "'COLUMN>=X'", "print where the condition first holds in each series (>=, <=, >, <, =)"},
	{"check", no_argument, O_CHECK, C_RUN | C_SWEEP, NULL, "run the coherence invariant checker after every transaction"},
	{"no-fast-forward", no_argument, O_NO_FAST_FORWARD, C_RUN | C_SWEEP, NULL, "execute every waiting loop instead of parking the core (the same results, slower)"},
	{"jobs", required_argument, 'j', C_RUN | C_SWEEP, "N", "run N variants (sweep: points) at once (default: the online CPUs)"},
	{"shard", required_argument, O_SHARD, C_SWEEP, "K/N", "run only the K-th of N interleaved shares of the points"},
	{"progress", no_argument, O_PROGRESS, C_RUN | C_SWEEP, NULL, "show progress on stderr even when it is not a terminal"},
	{"no-progress", no_argument, O_NO_PROGRESS, C_RUN | C_SWEEP, NULL, "no progress, even on a terminal"},
	{"speed", required_argument, O_SPEED, C_VIEW, "CYCLES_PER_S", "simulated cycles per wall-clock second"},
	{"screenshot", required_argument, O_SCREENSHOT, C_VIEW, "FILE.png", "render off-screen and save the last frame"},
	{"frames", required_argument, O_FRAMES, C_VIEW, "N", "frames to render with --screenshot (default 120)"},
	{"width", required_argument, O_WIDTH, C_VIEW, "PX", "window width (" XSTR(CLI_VIEW_MIN_WIDTH) ".." XSTR(CLI_VIEW_MAX_SIDE) ")"},
	{"height", required_argument, O_HEIGHT, C_VIEW, "PX", "window height (" XSTR(CLI_VIEW_MIN_HEIGHT) ".." XSTR(CLI_VIEW_MAX_SIDE) ")"},
	{"quiet", no_argument, 'q', C_ALL, NULL, "print only failures and errors"},
	{"help", no_argument, 'h', C_ALL, NULL, "this help"},
};
#define N_OPT_DEFS (sizeof opt_defs / sizeof opt_defs[0])

struct cmd_def {
	const char *name;
	int bit;
	const char *args;  /* positional arguments, for the synopsis */
	const char *what;
};

static const struct cmd_def cmd_defs[] = {
	{"run", C_RUN, "[SCENARIO.json]",
	 "Simulate every variant of a scenario (the built-in default without one), print the\n"
	 "summary and write the reports asked for. Exit 1 when an expectation fails."},
	{"sweep", C_SWEEP, "[SCENARIO.json] --set NAME=V1,V2,...",
	 "Run the scenario at every point of the product of the --set lists; one CSV row per\n"
	 "point and variant. Expectations are not enforced."},
	{"merge", C_MERGE, "PART.csv...",
	 "Join the CSVs of the shards of one sweep (--shard K/N) into the sweep's CSV."},
	{"view", C_VIEW, "[SCENARIO.json]",
	 "The live visualizer; with --screenshot, render off-screen without a display."},
	{"check", C_CHECK, "[SCENARIO.json]",
	 "Validate the scenario and every expectation's metric, assemble every variant;\n"
	 "simulate nothing."},
	{"list", C_LIST, "",
	 "The CPU models, scenarios and counter-library routines of the data directory."},
};
#define N_CMD_DEFS (sizeof cmd_defs / sizeof cmd_defs[0])

static const struct cmd_def *find_cmd(const char *cmd)
{
	for (size_t i = 0; i < N_CMD_DEFS; i++)
		if (strcmp(cmd_defs[i].name, cmd) == 0)
			return &cmd_defs[i];
	return NULL;
}

int cli_help(const char *cmd, FILE *f)
{
	const struct cmd_def *c = find_cmd(cmd);
	if (!c)
		return -1;
	fprintf(f, "usage: bounce %s %s%s[OPTIONS]\n%s\n\noptions (--opt VALUE or --opt=VALUE):\n", c->name,
		c->args, c->args[0] ? " " : "", c->what);
	for (size_t i = 0; i < N_OPT_DEFS; i++) {
		const struct opt_def *d = &opt_defs[i];
		if (!(d->cmds & c->bit))
			continue;
		char lhs[64];
		if (d->val == O_SET && c->bit == C_SWEEP)
			snprintf(lhs, sizeof lhs, "    --set NAME=V1,V2,...");
		else if (d->val < 256)
			snprintf(lhs, sizeof lhs, "-%c, --%s%s%s", d->val, d->name, d->arg ? " " : "",
				 d->arg ? d->arg : "");
		else
			snprintf(lhs, sizeof lhs, "    --%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(f, "  %-28s %s\n", lhs, d->val == O_SET && c->bit == C_SWEEP ?
			"values to sweep over: a define, cores, seed, cpu, placement or cpu.KEY; once per NAME" : d->help);
	}
	return 0;
}

/* Decimal only: "010" and "0x10" are refused rather than read as octal or
 * hex, which nobody typing a core count means. */
static int parse_int(const char *opt, const char *s, long long lo, long long hi, long long *out,
		     struct err *e)
{
	char *end;
	const char *d = s + (*s == '-');
	if (d[0] == '0' && d[1])
		return err_set(e, NULL, 0, 0, "%s: '%s' is not a decimal number (leading zeros and 0x are refused)",
			       opt, s);
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || *d < '0' || *d > '9' || v < lo || v > hi)
		return err_set(e, NULL, 0, 0, "%s: '%s' is not an integer in %lld..%lld", opt, s, lo, hi);
	*out = v;
	return 0;
}

static int parse_placement(const char *opt, const char *s, enum placement *out, struct err *e)
{
	*out = placement_find(s);
	if (*out != PLACE_NONE)
		return 0;
	return err_set(e, NULL, 0, 0, "%s: unknown placement '%s' (expected compact, scatter, cores-first or numbered)",
		       opt, s);
}

static int add_set(struct cli_opts *o, const char *arg, int list, struct err *e)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return err_set(e, NULL, 0, 0, "--set: expected NAME=VALUE%s, got '%s'",
			       list ? "[,VALUE...]" : "", arg);
	size_t nlen = (size_t)(eq - arg);
	for (size_t i = 0; i < o->n_sets; i++)
		if (strlen(o->sets[i].name) == nlen && strncmp(o->sets[i].name, arg, nlen) == 0)
			return err_set(e, NULL, 0, 0, "--set %s given twice (%s)", o->sets[i].name,
				       list ? "one --set takes the list: NAME=V1,V2,..." : "which one was meant?");
	if (o->n_sets == CLI_MAX_SETS)
		return err_set(e, NULL, 0, 0, "--set: at most %d settings", CLI_MAX_SETS);
	struct cli_set *s = &o->sets[o->n_sets++];
	if (!(s->name = strndup(arg, nlen)))
		return err_internal(e, "out of memory");
	const char *p = eq + 1;
	/* A value listed twice would be two points alike: their rows could
	 * not be told apart, and merge refuses such shards. */
	struct name_map seen = {0};
	int rc = 0;
	for (size_t cap = 0; !rc;) {
		const char *c = list ? strchr(p, ',') : NULL;
		size_t len = c ? (size_t)(c - p) : strlen(p), at = s->n_values;
		if (s->n_values == cap) {
			cap = cap ? 2 * cap : 8;
			char **nv = realloc(s->values, cap * sizeof *nv);
			if (!nv) {
				rc = err_internal(e, "out of memory");
				break;
			}
			s->values = nv;
		}
		if (!len) {
			rc = err_set(e, NULL, 0, 0, "--set %s: empty value", s->name);
			break;
		}
		if (!(s->values[s->n_values] = strndup(p, len))) {
			rc = err_internal(e, "out of memory");
			break;
		}
		int added = name_map_add(&seen, s->values[s->n_values], len, &at);
		s->n_values++;
		if (added < 0)
			rc = err_internal(e, "out of memory");
		else if (!added)
			rc = err_set(e, NULL, 0, 0, "--set %s: value '%.*s' is listed twice (expected each value once)",
				     s->name, (int)len, p);
		if (!c)
			break;
		p = c + 1;
	}
	name_map_free(&seen);
	return rc;
}

/* An option this command does not take: name the commands that do. */
static int not_here(const char *cmd, const char *arg, struct err *e)
{
	char name[64];
	const char *a = arg + strspn(arg, "-");
	snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
	for (size_t i = 0; i < N_OPT_DEFS; i++) {
		if (strcmp(opt_defs[i].name, name) != 0)
			continue;
		char cmds[96] = "";
		for (size_t k = 0; k < N_CMD_DEFS; k++)
			if (opt_defs[i].cmds & cmd_defs[k].bit)
				snprintf(cmds + strlen(cmds), sizeof cmds - strlen(cmds), "%s%s", cmds[0] ? ", " : "",
					 cmd_defs[k].name);
		return err_set(e, NULL, 0, 0, "%s: --%s does not apply to %s (it is an option of %s; see bounce help %s)",
			       cmd, name, cmd, cmds, cmd);
	}
	return err_set(e, NULL, 0, 0, "%s: unknown option '%s' (see bounce help %s)", cmd, arg, cmd);
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

int cli_parse(const char *cmd, int argc, char **argv, struct cli_opts *o, struct err *e)
{
	memset(o, 0, sizeof *o);
	o->jobs = online_cpus();
	o->frames = 120;
	o->trace_limit = -1;
	o->repeat = 1;
	const struct cmd_def *cd = find_cmd(cmd);
	if (!cd)
		return err_set(e, NULL, 0, 0, "unknown command '%s' (see bounce help)", cmd);
	int sweep = cd->bit == C_SWEEP;
	o->rest = calloc((size_t)argc + 1, sizeof *o->rest);
	struct option longopts[N_OPT_DEFS + 1];
	char shorts[16] = ":";
	size_t n = 0;
	for (size_t i = 0; i < N_OPT_DEFS; i++) {
		if (!(opt_defs[i].cmds & cd->bit))
			continue;
		longopts[n++] = (struct option){opt_defs[i].name, opt_defs[i].has_arg, NULL, opt_defs[i].val};
		if (opt_defs[i].val < 256) {
			size_t l = strlen(shorts);
			shorts[l] = (char)opt_defs[i].val;
			shorts[l + 1] = opt_defs[i].has_arg ? ':' : 0;
			shorts[l + 2] = 0;
		}
	}
	longopts[n] = (struct option){NULL, 0, NULL, 0};
	if (!o->rest)
		return err_internal(e, "out of memory");
	opterr = 0;
	optind = 1;
	int c;
	long long v;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const char *val = optarg;
		switch (c) {
		case O_CPU: o->cpu = val; break;
		case O_VARIANT: o->variant = val; break;
		case O_BASELINE: o->baseline = val; break;
		case O_FIND: o->find = val; break;
		case O_REPEAT:
			if (parse_int("--repeat", val, 1, 1000, &v, e))
				return -1;
			o->repeat = (int)v;
			break;
		case O_PLACEMENT:
			if (parse_placement("--placement", val, &o->placement, e))
				return -1;
			break;
		case O_CORES:
			if (parse_int("--cores", val, 1, CPU_MAX_CORES, &v, e))
				return -1;
			o->cores = (int)v;
			break;
		case O_SEED:
			if (parse_int("--seed", val, 0, INT64_MAX, &v, e))
				return -1;
			o->has_seed = true;
			o->seed = (uint64_t)v;
			break;
		case O_SET:
			if (add_set(o, val, sweep, e))
				return -1;
			break;
		case O_JSON: o->json = val; break;
		case O_CSV: o->csv = val; break;
		case O_JUNIT: o->junit = val; break;
		case O_TRACE: o->trace = val; break;
		case O_MARKDOWN: o->markdown = val; break;
		case O_CHECK: o->check = true; break;
		case O_NO_FAST_FORWARD: o->no_fast_forward = true; break;
		case O_C2C: o->c2c = true; break;
		case O_TRACE_LIMIT:
			if (parse_int("--trace-limit", val, 0, INT64_MAX, &o->trace_limit, e))
				return -1;
			break;
		case O_MAX_SECONDS: {
			char *end;
			o->max_seconds = strtod(val, &end);
			if (*end || end == val || !(o->max_seconds > 0) || o->max_seconds > 1e7)
				return err_set(e, NULL, 0, 0, "--max-seconds: '%s' is not a number of seconds in (0, 1e7]", val);
			break;
		}
		case 'q': o->quiet = true; break;
		case O_PROGRESS: o->progress = 1; break;
		case O_NO_PROGRESS: o->progress = -1; break;
		case 'j':
			if (parse_int("--jobs", val, 1, 256, &v, e))
				return -1;
			o->jobs = (int)v;
			o->jobs_given = true;
			break;
		case O_SHARD: {
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
			if (errno || *end || nn < 1 || nn > INT_MAX || k < 1 || k > nn || !isdigit((unsigned char)*val))
				return err_set(e, NULL, 0, 0, "--shard: expected K/N with 1 <= K <= N, got '%s'", val);
			o->shard_k = (int)k;
			o->shard_n = (int)nn;
			break;
		}
		case O_SPEED: {
			char *end;
			o->speed = strtod(val, &end);
			if (*end || end == val || !(o->speed > 0) || o->speed > 1e15)
				return err_set(e, NULL, 0, 0, "--speed: '%s' is not a positive number of cycles per second", val);
			break;
		}
		case O_SCREENSHOT: o->screenshot = val; break;
		case O_FRAMES:
			if (parse_int("--frames", val, 1, 1000000, &v, e))
				return -1;
			o->frames = (int)v;
			break;
		case O_WIDTH:
		case O_HEIGHT:
			if (parse_int(c == O_WIDTH ? "--width" : "--height", val,
				      c == O_WIDTH ? CLI_VIEW_MIN_WIDTH : CLI_VIEW_MIN_HEIGHT, CLI_VIEW_MAX_SIDE, &v, e))
				return -1;
			*(c == O_WIDTH ? &o->width : &o->height) = (int)v;
			break;
		case 'h':
			cli_help(cmd, stdout);
			o->help = true;
			return 0;
		case ':':
			return err_set(e, NULL, 0, 0, "%s: %s needs a value (see bounce help %s)", cmd,
				       argv[optind - 1], cmd);
		default: {
			/* An unknown long option is argv[optind - 1]; a short one is optopt. */
			char s[3] = {'-', (char)optopt, 0};
			const char *bad = optopt ? s : argv[optind - 1];
			return not_here(cmd, bad, e);
		}
		}
	}
	for (int i = optind; i < argc; i++) {
		if (cd->bit == C_MERGE)
			o->rest[o->n_rest++] = argv[i];
		else if (cd->bit == C_LIST)
			return err_set(e, NULL, 0, 0, "list: unexpected argument '%s' (list takes none)", argv[i]);
		else if (!o->scenario)
			o->scenario = argv[i];
		else
			return err_set(e, NULL, 0, 0, "%s: unexpected argument '%s' (one scenario at a time)", cmd,
				       argv[i]);
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
	snprintf(c->cores_arg, sizeof c->cores_arg, "--cores %d", o->cores);
	ov->cores_arg = c->cores_arg;
	ov->has_seed = o->has_seed;
	ov->seed = o->seed;
	ov->placement = o->placement;
	ov->no_fast_forward = o->no_fast_forward;
	for (size_t i = 0; i < o->n_sets; i++) {
		const char *name = o->sets[i].name;
		const char *val = o->sets[i].values[pick ? pick[i] : 0];
		long long n;
		char opt[160];
		snprintf(opt, sizeof opt, "--set %s", name);
		if (strcmp(name, "cpu") == 0) {
			cpu = val;
		} else if (strncmp(name, "cpu.", 4) == 0) {
			size_t k = ov->n_cpu_keys++;
			snprintf(c->cpu_opts[k], sizeof c->cpu_opts[k], "--set %s=%s", name, val);
			c->cpu_keys[k] = (struct scen_cpu_key){.key = name + 4, .value = val, .opt = c->cpu_opts[k]};
		} else if (strcmp(name, "placement") == 0) {
			if (parse_placement(opt, val, &ov->placement, e))
				return -1;
		} else if (strcmp(name, "cores") == 0) {
			if (parse_int(opt, val, 1, CPU_MAX_CORES, &n, e))
				return -1;
			ov->cores = (int)n;
			snprintf(c->cores_arg, sizeof c->cores_arg, "--set cores=%d", ov->cores);
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
	ov->cpu_keys = c->cpu_keys;
	if (cpu) {
		if (scen_load_cpu(cpu, &c->cpu, e))
			return -1;
		ov->cpu = &c->cpu;
		char *path = scen_cpu_file(cpu, ".");
		size_t len = path ? strlen(path) : 0;
		if (path && len < sizeof c->cpu_file) {
			/* length checked above; memcpy, as lint refuses strcpy */
			memcpy(c->cpu_file, path, len + 1);
			ov->cpu_file = c->cpu_file;
		}
		free(path);
	}
	return 0;
}

int cli_selected(const struct cli_opts *o, const struct scenario *s, size_t v)
{
	return !o->variant || strcmp(o->variant, s->variants[v].name) == 0;
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
	if (o->baseline && scen_find_variant(s, o->baseline) < 0)
		return err_set(e, s->file, 0, 0, "--baseline: no variant named '%s'", o->baseline);
	if (o->baseline && o->variant && strcmp(o->baseline, o->variant))
		return err_set(e, NULL, 0, 0, "--baseline %s: --variant %s leaves it out", o->baseline, o->variant);
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

int cli_getopt_fail(const char *cmd, int c, char **argv)
{
	if (c == ':')
		fprintf(stderr, "bounce: %s: %s needs a value (see bounce %s --help)\n", cmd, argv[optind - 1], cmd);
	else
		fprintf(stderr, "bounce: %s: unknown option '%s' (see bounce %s --help)\n", cmd, argv[optind - 1], cmd);
	return EXIT_INPUT;
}

int cli_extra_arg(const char *cmd, const char *arg)
{
	fprintf(stderr, "bounce: %s: unexpected argument '%s' (see bounce %s --help)\n", cmd, arg, cmd);
	return EXIT_INPUT;
}
