/* Every option of every command, described once (cli_option_table), and
 * argv parsed by those descriptions into cli_opts; turning --cpu/--cores/
 * --seed/--set into scenario overrides, loading the scenario, and mapping
 * errors to exit statuses. */
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
#include <strings.h>
#include <unistd.h>
#include "base/name_map.h"
#include "cli/cli_command.h"
#include "cli/outfile.h"
#include "host/host_topology.h"

/* a macro's value as a string, for the help texts */
#define STR_(x) #x
#define XSTR(x) STR_(x)

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

static int set_one(struct cli_opts *o, const char *val, struct err *e)
{
	return add_set(o, val, 0, e);
}

static int set_list(struct cli_opts *o, const char *val, struct err *e)
{
	return add_set(o, val, 1, e);
}

static int set_placement(struct cli_opts *o, const char *val, struct err *e)
{
	return parse_placement("--placement", val, &o->placement, e);
}

static int set_seed(struct cli_opts *o, const char *val, struct err *e)
{
	long long v;
	if (parse_int("--seed", val, 0, INT64_MAX, &v, e))
		return -1;
	o->has_seed = true;
	o->seed = (uint64_t)v;
	return 0;
}

static int set_trace_limit(struct cli_opts *o, const char *val, struct err *e)
{
	return parse_int("--trace-limit", val, 0, INT64_MAX, &o->trace_limit, e);
}

static int set_max_seconds(struct cli_opts *o, const char *val, struct err *e)
{
	char *end;
	o->max_seconds = strtod(val, &end);
	if (*end || end == val || !(o->max_seconds > 0) || o->max_seconds > 1e7)
		return err_set(e, NULL, 0, 0, "--max-seconds: '%s' is not a number of seconds in (0, 1e7]", val);
	return 0;
}

static int set_jobs(struct cli_opts *o, const char *val, struct err *e)
{
	long long v;
	if (parse_int("--jobs", val, 1, 256, &v, e))
		return -1;
	o->jobs = (int)v;
	o->jobs_given = true;
	return 0;
}

static int set_shard(struct cli_opts *o, const char *val, struct err *e)
{
	/* strtol, not sscanf %d: an out-of-range K or N must be an error, not
	 * undefined behaviour. */
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
	return 0;
}

static int set_speed(struct cli_opts *o, const char *val, struct err *e)
{
	char *end;
	o->speed = strtod(val, &end);
	if (*end || end == val || !(o->speed > 0) || o->speed > 1e15)
		return err_set(e, NULL, 0, 0, "--speed: '%s' is not a positive number of cycles per second", val);
	return 0;
}

/* validate's threads are checked against the host's online CPUs once it
 * is known; here only that the value is a count at all. */
static int set_threads(struct cli_opts *o, const char *val, struct err *e)
{
	char *end;
	errno = 0;
	long n = strtol(val, &end, 10);
	if (errno || end == val || *end || n < 1 || n > HOST_MAX_CPUS)
		return err_set(e, NULL, 0, 0, "validate: --threads: '%s' is not a thread count (1..online CPUs)", val);
	o->threads = (int)n;
	return 0;
}

static int set_size(struct cli_opts *o, const char *val, struct err *e)
{
	char *end;
	long w = strtol(val, &end, 10), h = *end == 'x' ? strtol(end + 1, &end, 10) : 0;
	if (*end || w < 400 || h < 300 || w > 4096 || h > 4096)
		return err_set(e, NULL, 0, 0, "plot: --size '%s': expected WxH from 400x300 to 4096x4096", val);
	o->plot_width = (int)w;
	o->plot_height = (int)h;
	return 0;
}

#define FIELD(f) .field = offsetof(struct cli_opts, f)
#define STRING(f) .kind = CLI_OPT_STRING, FIELD(f)
#define TRUE(f) .kind = CLI_OPT_TRUE, FIELD(f)
#define CHOICE(f, v) .kind = CLI_OPT_CHOICE, FIELD(f), .choice = (v)
#define INT(f, l, h) .kind = CLI_OPT_INT, FIELD(f), .lo = (l), .hi = (h)
#define PARSE(fn) .kind = CLI_OPT_PARSE, .parse = (fn)

const struct cli_option cli_option_table[OPT_COUNT] = {
	[OPT_CPU] = {"cpu", 0, "MODEL", NULL, "CPU model: a cpus/ name or a model file (replaces the scenario's)", STRING(cpu)},
	[OPT_CORES] = {"cores", 0, "N", NULL, "simulate N cores (1..1024)", INT(cores, 1, CPU_MAX_CORES)},
	[OPT_SEED] = {"seed", 0, "S", NULL, "random seed (decimal, 0..2^63-1)", PARSE(set_seed)},
	[OPT_VARIANT] = {"variant", 0, "NAME", NULL, "only this variant (expectations about the others are skipped)", STRING(variant)},
	[OPT_SET] = {"set", 0, "NAME=VALUE", NULL, "a define's value, or cores, seed, cpu, placement or cpu.KEY (a CPU-model key); once per NAME", PARSE(set_one)},
	[OPT_SET_LIST] = {"set", 0, "NAME=V1,V2,...", NULL, "values to sweep over: a define, cores, seed, cpu, placement or cpu.KEY; once per NAME", PARSE(set_list)},
	[OPT_PLACEMENT] = {"placement", 0, "POLICY", NULL, "place the run's CPUs on the model's topology: compact, scatter, cores-first or numbered", PARSE(set_placement)},
	[OPT_JSON] = {"json", 0, "FILE", NULL, "write the JSON report", STRING(json), .same_result = true},
	[OPT_CSV] = {"csv", 0, "FILE", NULL, "write CSV (sweep, merge: stdout without it)", STRING(csv), .same_result = true},
	[OPT_JUNIT] = {"junit", 0, "FILE", NULL, "write the expectations as JUnit XML", STRING(junit), .same_result = true},
	[OPT_TRACE] = {"trace", 0, "FILE", NULL, "write a Chrome/Perfetto trace of the run", STRING(trace), .same_result = true},
	[OPT_MARKDOWN] = {"markdown", 0, "FILE", NULL, "write the headline table as Markdown", STRING(markdown), .same_result = true},
	[OPT_TRACE_LIMIT] = {"trace-limit", 0, "EVENTS", NULL, "at most EVENTS trace events per variant (default 250000, 0: no limit)", PARSE(set_trace_limit)},
	[OPT_C2C] = {"c2c", 0, NULL, NULL, "after the summary, shared lines by HITM and the instructions behind them", TRUE(c2c)},
	[OPT_MAX_SECONDS] = {"max-seconds", 0, "S", NULL, "stop at S seconds of wall clock; the report says \"stopped\": \"wall-clock\" and the expectations on a variant it stopped fail", PARSE(set_max_seconds)},
	[OPT_BASELINE] = {"baseline", 0, "VARIANT", NULL, "add each figure's ratio to this variant's (CSV: M_vs_VARIANT; summary: vs VARIANT)", STRING(baseline)},
	[OPT_REPEAT] = {"repeat", 0, "N", NULL, "run each variant (sweep: point) at seeds S..S+N-1: mean, min, max, sd (1..1000)", INT(repeat, 1, 1000)},
	[OPT_FIND] = {"find", 0, "'COLUMN>=X'", NULL, "print where the condition first holds in each series (>=, <=, >, <, =)", STRING(find), .same_result = true},
	[OPT_CHECK] = {"check", 0, NULL, NULL, "run the coherence invariant checker after every transaction", TRUE(check)},
	[OPT_NO_FAST_FORWARD] = {"no-fast-forward", 0, NULL, NULL, "execute every waiting loop instead of parking the core (slower; the reference path fast-forward is checked against)", TRUE(no_fast_forward)},
	[OPT_JOBS] = {"jobs", 'j', "N", NULL, "run N variants (sweep: points) at once (default: the online CPUs)", PARSE(set_jobs), .same_result = true},
	[OPT_SHARD] = {"shard", 0, "K/N", NULL, "run only the K-th of N interleaved shares of the points", PARSE(set_shard)},
	[OPT_PROGRESS] = {"progress", 0, NULL, NULL, "show progress on stderr even when it is not a terminal", CHOICE(progress, 1), .same_result = true},
	[OPT_NO_PROGRESS] = {"no-progress", 0, NULL, NULL, "no progress, even on a terminal", CHOICE(progress, -1), .same_result = true},
	[OPT_RESUME] = {"resume", 0, NULL, NULL, "continue from the journal (F.partial) an interrupted sweep --csv F left", TRUE(resume), .same_result = true},
	[OPT_SPEED] = {"speed", 0, "CYCLES_PER_S", NULL, "simulated cycles per wall-clock second", PARSE(set_speed)},
	[OPT_SCREENSHOT] = {"screenshot", 0, "FILE.png", NULL, "render off-screen and save the last frame", STRING(screenshot)},
	[OPT_FRAMES] = {"frames", 0, "N", NULL, "frames to render with --screenshot (default 120)", INT(frames, 1, 1000000)},
	[OPT_WIDTH] = {"width", 0, "PX", NULL, "window width (" XSTR(CLI_VIEW_MIN_WIDTH) ".." XSTR(CLI_VIEW_MAX_SIDE) ")", INT(width, CLI_VIEW_MIN_WIDTH, CLI_VIEW_MAX_SIDE)},
	[OPT_HEIGHT] = {"height", 0, "PX", NULL, "window height (" XSTR(CLI_VIEW_MIN_HEIGHT) ".." XSTR(CLI_VIEW_MAX_SIDE) ")", INT(height, CLI_VIEW_MIN_HEIGHT, CLI_VIEW_MAX_SIDE)},
	[OPT_CAL_OUTPUT] = {"output", 'o', "FILE", NULL, "write FILE (whole or not at all) instead of stdout", STRING(output)},
	[OPT_CAL_QUICK] = {"quick", 0, NULL, NULL, "shorter, noisier measurements (a few seconds)", TRUE(quick)},
	[OPT_VAL_CPU] = {"cpu", 0, "MODEL", NULL, "a cpus/ name or a CPU model file (default: calibrate this host first)", STRING(cpu)},
	[OPT_THREADS] = {"threads", 0, "N", NULL, "1..online CPUs (default: all online CPUs)", PARSE(set_threads)},
	[OPT_VAL_JSON] = {"json", 0, "F", NULL, "also write the rows, verdicts and causes as JSON", STRING(json)},
	[OPT_DOC_JSON] = {"json", 0, "FILE", NULL, "also write it as JSON (- for stdout, then no text)", STRING(json), .same_result = true},
	[OPT_VAL_QUICK] = {"quick", 0, NULL, NULL, "shorter native runs and simulations (tests)", TRUE(quick)},
	[OPT_REPLAY_CPU] = {"cpu", 0, "MODEL", NULL, "a cpus/ name or a CPU model file (default teaching-4core)", STRING(cpu)},
	[OPT_REPLAY_JSON] = {"json", 0, "FILE", NULL, "the report as JSON (- for stdout)", STRING(json)},
	[OPT_REPLAY_CSV] = {"csv", 0, "FILE", NULL, "one row per core and a total row", STRING(csv)},
	[OPT_REPLAY_JOBS] = {"jobs", 'j', "N", NULL, "host threads: 2 or more reads the traces on a thread of\n"
			     "their own while the replay runs (default: the online CPUs)", PARSE(set_jobs)},
	[OPT_PLOT_OUTPUT] = {"output", 'o', "F.png", NULL, "the PNG to write (whole or not at all)", STRING(output)},
	[OPT_METRIC] = {"metric", 0, "M", NULL, "the y column (default ops_per_sec); with M_min and M_max\n"
			"columns (sweep --repeat), each point has a min-max bar", STRING(metric)},
	[OPT_PLOT_BASELINE] = {"baseline", 0, "VARIANT", NULL, "draw M's ratio to VARIANT, the column M_vs_VARIANT\n"
			       "(sweep --baseline VARIANT)", STRING(baseline)},
	[OPT_X] = {"x", 0, "COLUMN", NULL, "the x column (default cores)", STRING(x)},
	[OPT_SERIES] = {"series", 0, "COLUMN", NULL, "one line per value of COLUMN, at most 256 (default: the\n"
			"\"series\" column, else \"variant\" plus each sweep --set\nthat varies)", STRING(series)},
	[OPT_TITLE] = {"title", 0, "T", NULL, "the chart's title (default \"M by X\")", STRING(title)},
	[OPT_SUBTITLE] = {"subtitle", 0, "S", NULL, "the small line under it (default: the CSV's path)", STRING(subtitle)},
	[OPT_LOG_X] = {"log-x", 0, NULL, NULL, "logarithmic x axis (default: log when the largest x is 16 or\n"
		       "more times the smallest, powers of 2 when every x is one)", CHOICE(log_x, 1)},
	[OPT_LIN_X] = {"lin-x", 0, NULL, NULL, "linear x axis", CHOICE(log_x, 0)},
	[OPT_LOG_Y] = {"log-y", 0, NULL, NULL, "logarithmic y axis", TRUE(log_y)},
	[OPT_SIZE] = {"size", 0, "WxH", NULL, "image size in pixels (default 960x600, 400x300 to 4096x4096)", PARSE(set_size)},
	[OPT_QUIET] = {"quiet", 'q', NULL, NULL, "print only failures and errors", TRUE(quiet), .same_result = true},
	[OPT_HELP] = {"help", 'h', NULL, NULL, "this help", .kind = CLI_OPT_HELP, .same_result = true},
};

/* An option this command does not take: name the commands that do. */
static int not_here(const struct cli_command *c, const char *arg, struct err *e)
{
	char name[64], cmds[256] = "";
	const char *a = arg + strspn(arg, "-");
	int is_short = arg[1] != '-';
	snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
	for (size_t k = 0; k < cli_n_commands; k++)
		for (const enum cli_opt_id *id = cli_commands[k].options; *id; id++)
			if (is_short ? cli_option_table[*id].short_name == arg[1] :
				       strcmp(cli_option_table[*id].name, name) == 0) {
				snprintf(name, sizeof name, "%s", cli_option_table[*id].name);
				snprintf(cmds + strlen(cmds), sizeof cmds - strlen(cmds), "%s%s", cmds[0] ? ", " : "",
					 cli_commands[k].name);
				break;
			}
	if (cmds[0])
		return err_set(e, NULL, 0, 0, "%s: --%s does not apply to %s (it is an option of %s; see bounce help %s)",
			       c->name, name, c->name, cmds, c->name);
	return err_set(e, NULL, 0, 0, "%s: unknown option '%s' (see bounce help %s)", c->name, arg, c->name);
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static int ends_with_png(const char *s)
{
	size_t n = strlen(s);
	return n > 4 && strcasecmp(s + n - 4, ".png") == 0;
}

/* Store one option's value where its description says. */
static int store(const struct cli_command *c, const struct cli_option *d, const char *val, struct cli_opts *o,
		 struct err *e)
{
	char *at = (char *)o + d->field;
	char opt[64];
	long long v;
	switch (d->kind) {
	case CLI_OPT_STRING:
		/* An output whose metavar names PNG gets PNG data, whatever it
		 * is called: a name promising another format is refused rather
		 * than filled with bytes that are not that format. */
		if (val && d->arg && ends_with_png(d->arg) && !ends_with_png(val) && strcmp(val, "-") != 0)
			return err_set(e, NULL, 0, 0,
				       "%s: --%s '%s': bounce writes PNG only (expected a name ending in .png, or - for stdout)",
				       c->name, d->name, val);
		*(const char **)(void *)at = val;
		return 0;
	case CLI_OPT_TRUE: *(bool *)(void *)at = true; return 0;
	case CLI_OPT_CHOICE: *(int *)(void *)at = d->choice; return 0;
	case CLI_OPT_INT:
		snprintf(opt, sizeof opt, "--%s", d->name);
		if (parse_int(opt, val, d->lo, d->hi, &v, e))
			return -1;
		*(int *)(void *)at = (int)v;
		return 0;
	case CLI_OPT_PARSE: return d->parse(o, val, e);
	case CLI_OPT_HELP:
		cli_command_help(c, stdout);
		o->help = true;
		return 0;
	}
	return err_internal(e, "option --%s: no way to store it", d->name);
}

/* The positional arguments, by the command's rule. */
static int positional(const struct cli_command *c, int argc, char **argv, int first, struct cli_opts *o,
		      struct err *e)
{
	const struct cli_args *p = &c->pos;
	int n = argc - first;
	if (p->max >= 0 && n > p->max) {
		const char *extra = argv[first + p->max];
		if (p->max == 0)
			return err_set(e, NULL, 0, 0, "%s: unexpected argument '%s' (%s takes none)", c->name, extra,
				       c->name);
		return err_set(e, NULL, 0, 0, "%s: unexpected argument '%s' (one %s at a time)", c->name, extra,
			       p->noun);
	}
	if (n < p->min)
		return err_set(e, NULL, 0, 0, "%s: no %s given (see bounce help %s)", c->name, p->noun, c->name);
	for (int i = first; i < argc; i++)
		o->rest[o->n_rest++] = argv[i];
	if (p->scenario && n)
		o->scenario = argv[first];
	return 0;
}

/* Append "name=value\n" (or "name\n") to o->param_key. */
static int key_add(struct cli_opts *o, const char *name, const char *val)
{
	size_t old = o->param_key ? strlen(o->param_key) : 0, add = strlen(name) + (val ? strlen(val) + 1 : 0) + 2;
	char *k = realloc(o->param_key, old + add);
	if (!k)
		return -1;
	snprintf(k + old, add, val ? "%s=%s\n" : "%s\n", name, val ? val : "");
	o->param_key = k;
	return 0;
}

int cli_parse(const struct cli_command *c, int argc, char **argv, struct cli_opts *o, struct err *e)
{
	memset(o, 0, sizeof *o);
	o->jobs = online_cpus();
	o->frames = 120;
	o->trace_limit = -1;
	o->repeat = 1;
	o->log_x = -1;
	o->rest = calloc((size_t)argc + 1, sizeof *o->rest);
	if (!o->rest)
		return err_internal(e, "out of memory");
	/* getopt_long's value for an option is its short letter, else 256 +
	 * its place in the command's list. */
	struct option longopts[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2] = ":";
	size_t n = 0, ls = 1;
	for (const enum cli_opt_id *id = c->options; *id; id++, n++) {
		const struct cli_option *d = &cli_option_table[*id];
		int has = !d->arg ? no_argument : d->bare ? optional_argument : required_argument;
		longopts[n] = (struct option){d->name, has, NULL, d->short_name ? d->short_name : 256 + (int)n};
		if (d->short_name) {
			shorts[ls++] = d->short_name;
			if (has == required_argument)
				shorts[ls++] = ':';
		}
	}
	longopts[n] = (struct option){NULL, 0, NULL, 0};
	shorts[ls] = 0;
	opterr = 0;
	optind = 1;
	bool given[OPT_COUNT] = {false};
	int ch;
	while ((ch = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (ch == ':')
			return err_set(e, NULL, 0, 0, "%s: %s needs a value (see bounce help %s)", c->name,
				       argv[optind - 1], c->name);
		const struct cli_option *d = NULL;
		for (size_t k = 0; k < n && !d; k++)
			if (longopts[k].val == ch) {
				d = &cli_option_table[c->options[k]];
				given[c->options[k]] = true;
			}
		if (!d) {
			/* An unknown long option is argv[optind - 1]; a short one is optopt. */
			char s[3] = {'-', (char)optopt, 0};
			return not_here(c, optopt ? s : argv[optind - 1], e);
		}
		const char *val = optarg;
		/* An optional value may follow as the next word where the
		 * command takes no positional argument it could be. */
		if (d->bare && !val && c->pos.max == 0 && optind < argc && argv[optind][0] != '-')
			val = argv[optind++];
		if (store(c, d, val ? val : d->bare, o, e))
			return -1;
		if (o->help)
			return 0;
		if (!d->same_result && key_add(o, d->name, val ? val : d->bare))
			return err_internal(e, "out of memory");
	}
	if (positional(c, argc, argv, optind, o, e))
		return -1;
	if (c->required && !given[c->required]) {
		const struct cli_option *d = &cli_option_table[c->required];
		char opt[80];
		if (d->short_name)
			snprintf(opt, sizeof opt, "-%c %s", d->short_name, d->arg);
		else
			snprintf(opt, sizeof opt, "--%s %s", d->name, d->arg);
		return err_set(e, NULL, 0, 0, "%s: %s is required (see bounce help %s)", c->name, opt, c->name);
	}
	return 0;
}

bool cli_prints_text(const struct cli_opts *o)
{
	return !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
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
	free(o->param_key);
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
