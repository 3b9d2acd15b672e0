/* Shared pieces of the command line: option parsing common to run, sweep,
 * check and view, loading the scenario, and the subcommand entry points. */
#ifndef BOUNCE_CLI_H
#define BOUNCE_CLI_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include "load/scenario.h"
#include "report/report.h"
#include "run/runner.h"
#include "base/error.h"

#define CLI_MAX_SETS 64

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_EXPECT = 1, EXIT_INPUT = 2, EXIT_INTERNAL = 3, EXIT_INTERRUPTED = 130 };

struct cli_set {
	char *name;
	char **values;     /* one for run, a list for sweep */
	size_t n_values;
};

/* view's --width/--height bounds, the viewer's own (UI_MIN_WIDTH and the
 * rest in ui/view/view.h, which this layer does not see: src/main.c
 * asserts that the two agree). */
#define CLI_VIEW_MIN_WIDTH 640
#define CLI_VIEW_MIN_HEIGHT 400
#define CLI_VIEW_MAX_SIDE 8192

struct cli_ui;

struct cli_opts {
	const char *scenario;  /* NULL: the built-in default */
	const char *cpu, *variant;
	int cores;
	enum placement placement;  /* --placement, PLACE_NONE: the scenario's */
	bool has_seed;
	uint64_t seed;
	struct cli_set sets[CLI_MAX_SETS];
	size_t n_sets;
	const char *json, *csv, *junit, *trace, *markdown;
	bool check, quiet, c2c;
	bool no_fast_forward;  /* --no-fast-forward */
	bool help;             /* --help was given: its text is printed, do nothing */
	long long trace_limit;  /* --trace-limit, -1: the default */
	double max_seconds;    /* run: wall-clock guard, 0 none */
	const char *baseline;  /* --baseline VARIANT: ratios of every figure to its */
	int repeat;            /* --repeat N: each run at seeds S..S+N-1 (1: once) */
	/* sweep */
	const char *find;      /* --find 'COLUMN>=X' */
	int jobs, shard_k, shard_n;
	bool jobs_given;
	int progress;          /* 1 --progress, -1 --no-progress, 0 on a terminal */
	bool resume;           /* --resume: continue from --csv's journal */
	/* every option given that may change what the command computes, as
	 * "name=value" lines in command-line order (a sweep's journal is
	 * refused when they differ); malloc'd */
	char *param_key;
	/* view */
	double speed;
	const char *screenshot;
	int frames, width, height;
	/* calibrate, validate */
	const char *output;    /* calibrate, plot: -o FILE */
	bool quick;
	int threads;           /* validate --threads, 0: every online CPU */
	/* plot */
	const char *metric, *x, *series, *title, *subtitle;
	int log_x;             /* 1 --log-x, 0 --lin-x, -1 by the data */
	bool log_y;
	int plot_width, plot_height;  /* --size, 0: the default */
	/* the positional arguments (the scenario among them) */
	char **rest;
	size_t n_rest;
	const struct cli_ui *ui;  /* what the program's entry point hands in */
};

extern volatile sig_atomic_t cli_interrupted;

void cli_opts_free(struct cli_opts *o);
/* Whether a command's text goes to stdout: not under --quiet, nor when
 * --json - puts its JSON there. */
bool cli_prints_text(const struct cli_opts *o);
/* Command-line overrides with the storage they point into (so keep it in
 * place once filled). */
struct cli_ov {
	struct scen_overrides ov;
	struct cpu_model cpu;
	char cpu_file[4096];   /* where cpu came from, for messages ("": unknown) */
	char cores_arg[48];    /* "--cores 500" or "--set cores=500" (ov.cores_arg) */
	struct asm_define defs[CLI_MAX_SETS];
	struct scen_cpu_key cpu_keys[CLI_MAX_SETS];
	char cpu_opts[CLI_MAX_SETS][160];  /* "--set cpu.KEY=VALUE" of each */
};

/* Turn --cpu/--cores/--seed/--placement and one value of each --set
 * (pick[i], or the first when pick is NULL) into overrides. Names `cores`,
 * `seed`, `cpu` and `placement` set those, `cpu.KEY` one key of the CPU
 * model; any other name is a define. */
int cli_overrides(const struct cli_opts *o, const size_t *pick, struct cli_ov *ov, struct err *e);
/* What every subcommand that runs a scenario starts with: load it (or the
 * built-in default), check --variant names one, and build the overrides. */
int cli_setup(const struct cli_opts *o, struct scenario *s, struct cli_ov *ov, struct err *e);
/* Refuse (exit 2), before anything is simulated or written, an output
 * outs[i] (given by option opts[i]) that would replace an input of the
 * scenario's run under ov (the scenario, its CPU models, and every file
 * each selected variant's assembly reads) or another output. Assembles
 * each selected variant to learn its files: for commands that do not. */
int cli_check_outputs(const struct cli_opts *o, const struct scenario *s, const struct cli_ov *ov,
		      const char *const *outs, const char *const *opts, size_t n, struct err *e);
/* Whether variant v runs: every one, or only the one --variant names. */
int cli_selected(const struct cli_opts *o, const struct scenario *s, size_t v);
int cli_exit_status(const struct err *e);
/* Print e and return its exit status: how every subcommand fails. */
int cli_fail(const struct err *e);

/* What a run has done so far, for progress shown by another thread; the
 * run stops after a slice when *stop is set. */
struct cli_meter {
	atomic_uint_least64_t instructions, ops;
	const atomic_int *stop;
	double deadline;        /* --max-seconds: wall-clock end (runner_clock), 0 none */
	/* Called after every slice on the thread that runs the variant: a
	 * front end running it on its own thread shows its progress here. */
	void (*tick)(void *ctx);
	void *tick_ctx;
};

/* Simulate r to its end (runner_run), stopping at m's deadline or stop
 * flag (m may be NULL) or a signal (RUN_INTERRUPTED) and, when progress,
 * keeping a progress line on stderr. */
enum run_stop cli_simulate(struct runner *r, int progress, struct cli_meter *m, struct err *e);

/* --repeat: run variant v again at the seeds after seed0 (o->repeat - 1
 * more runs, overrides ov, each simulated under m as cli_simulate does; m
 * may be NULL) and add "replicates" to vobj, the variant's report from the
 * run at seed0 (report_compare.c). */
int cli_replicate(const struct cli_opts *o, const struct scenario *s, size_t v, const struct scen_overrides *ov,
		  uint64_t seed0, struct cli_meter *m, cJSON *vobj, struct err *e);
/* --baseline: add the ratios to the baseline variant to a finished report. */
int cli_add_baseline(const struct cli_opts *o, cJSON *rep, struct err *e);
/* The CSV columns beyond the plain ones that o asks for. */
struct rep_csv_extra cli_csv_extra(const struct cli_opts *o);

/* Split the CSV fields of line (no newline) into f (up to n); quoted
 * fields lose their quotes and "" becomes ". Returns the count, -1 when
 * malformed. Modifies line. */
int csv_fields(char *line, char **f, int n);

/* What only a build with the SDL2 UI can do, handed in by the program's
 * entry point (the CLI never includes the UI); NULL in a build without. */
struct cli_ui {
	int (*view)(const struct scenario *s, const struct cli_opts *o, const struct cli_ov *ov, struct err *e);
	/* plot's options drawn to o->output; 1 when interrupted (nothing written) */
	int (*plot)(const struct cli_opts *o, struct err *e);
};

/* The program: global options, the command named (or run), its options
 * parsed, its handler called; returns the exit status. */
int cli_main(int argc, char **argv, const struct cli_ui *ui);

/* Each command's handler, the `run` of its row in cli_commands.def. */
#define CLI_COMMAND(name, ...) int cli_##name(const struct cli_opts *o);
#include "cli/cli_commands.def"
#undef CLI_COMMAND
struct host_topo;
struct host_model;
/* This host's topology, detected (into a block the caller frees), and its
 * calibrated model on that topology, with progress on stderr unless quiet
 * (calibrate and validate share them: validate checks its --threads
 * against the topology before the seconds of calibrating). Each returns 0,
 * or -1 with e set; cli_calibrate_model 1 when interrupted. */
struct host_topo *cli_host_topo(struct err *e);
int cli_calibrate_model(const struct host_topo *topo, struct host_model *m, int quick, int quiet,
			struct err *e);

#endif
