/* The command registry's vocabulary: what an option and a command declare.
 * Parsing, `bounce help`, each command's --help and dispatch are all read
 * from the rows of cli_commands.def; nothing else names a command. */
#ifndef BOUNCE_CLI_COMMAND_H
#define BOUNCE_CLI_COMMAND_H

#include <stddef.h>
#include <stdio.h>

struct cli_opts;
struct err;

/* Every option any command takes; cli_options.c describes each. Two ids
 * may share a name when commands mean different things by it (run's --set
 * takes one value, sweep's a list). */
enum cli_opt_id {
	OPT_END,  /* ends a command's list */
	OPT_CPU, OPT_CORES, OPT_SEED, OPT_VARIANT, OPT_SET, OPT_SET_LIST, OPT_PLACEMENT,
	OPT_JSON, OPT_CSV, OPT_JUNIT, OPT_TRACE, OPT_MARKDOWN, OPT_TRACE_LIMIT, OPT_C2C, OPT_MAX_SECONDS,
	OPT_BASELINE, OPT_REPEAT, OPT_FIND, OPT_CHECK, OPT_NO_FAST_FORWARD, OPT_JOBS, OPT_SHARD, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_RESUME,
	OPT_SPEED, OPT_SCREENSHOT, OPT_FRAMES, OPT_WIDTH, OPT_HEIGHT,
	OPT_CAL_OUTPUT, OPT_CAL_QUICK,
	OPT_VAL_CPU, OPT_THREADS, OPT_VAL_JSON, OPT_VAL_QUICK, OPT_DOC_JSON,
	OPT_REPLAY_CPU, OPT_REPLAY_JSON, OPT_REPLAY_CSV, OPT_REPLAY_JOBS,
	OPT_PLOT_OUTPUT, OPT_METRIC, OPT_X, OPT_SERIES, OPT_PLOT_BASELINE, OPT_TITLE, OPT_SUBTITLE,
	OPT_LOG_X, OPT_LIN_X, OPT_LOG_Y, OPT_SIZE,
	OPT_QUIET, OPT_HELP,
	OPT_COUNT
};

/* How an option's value reaches struct cli_opts. */
enum cli_opt_kind {
	CLI_OPT_STRING,  /* const char * at field: the value itself */
	CLI_OPT_TRUE,    /* bool at field: set, takes no value */
	CLI_OPT_CHOICE,  /* int at field: .choice, takes no value */
	CLI_OPT_INT,     /* int at field: a decimal in lo..hi */
	CLI_OPT_PARSE,   /* .parse reads it */
	CLI_OPT_HELP,    /* print the command's help and do nothing else */
};

struct cli_option {
	const char *name;       /* the long form, --name */
	char short_name;        /* 0: none */
	const char *arg;        /* the value's name in help; NULL: takes none */
	const char *bare;       /* the value when given without one, NULL: one is needed */
	const char *help;       /* may span lines ('\n') */
	enum cli_opt_kind kind;
	size_t field;           /* offsetof(struct cli_opts, ...) */
	int choice;
	long long lo, hi;
	int (*parse)(struct cli_opts *o, const char *val, struct err *e);
	/* the option changes how a command runs or where its output goes,
	 * never what it computes: left out of cli_opts.param_key */
	bool same_result;
};

/* Positional arguments: between min and max (-1: any number) of `noun`,
 * the first into o->scenario when `scenario`, else all into o->rest. */
struct cli_args {
	int min, max;
	const char *noun;
	int scenario;
};

struct cli_command {
	const char *name;
	const char *args;       /* the synopsis after the name ("" for none) */
	const char *summary;    /* its line in `bounce help` */
	const char *what;       /* the paragraph of its --help */
	const enum cli_opt_id *options;  /* ended by OPT_END, in help order */
	struct cli_args pos;
	enum cli_opt_id required;  /* an option it cannot run without, OPT_END: none */
	int (*run)(const struct cli_opts *o);
};

/* Each option's description, indexed by its id. */
extern const struct cli_option cli_option_table[OPT_COUNT];

/* Every command, in `bounce help` order; the first is run when a command
 * line names none. */
extern const struct cli_command cli_commands[];
extern const size_t cli_n_commands;

const struct cli_command *cli_command_find(const char *name);
/* The --help text of c. */
void cli_command_help(const struct cli_command *c, FILE *f);
/* `bounce help`: every command's line, then the global options. */
void cli_usage(FILE *f);

/* Parse argv (argv[0] is the command's name) for c with getopt_long over
 * the options c declares; -1 with e set on a usage error. o->help is set
 * when --help printed the command's help. */
int cli_parse(const struct cli_command *c, int argc, char **argv, struct cli_opts *o, struct err *e);

#endif
