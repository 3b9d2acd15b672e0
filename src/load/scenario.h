/* Scenarios: a JSON file naming a CPU model, programs, threads,
 * interrupts, a stop condition, variants and expectations, loaded and fully
 * validated before anything runs. scen_resolve turns one variant into the
 * flat description a simulation needs. */
#ifndef BOUNCE_SCENARIO_H
#define BOUNCE_SCENARIO_H

#include "base/name_map.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/cpu_model.h"
#include "base/cpuset.h"
#include "base/placement.h"
#include "base/error.h"
#include "cpu/interrupts.h"
#include "asm/asm.h"
#include "cpu/sim_limit.h"

/* The largest "stop": {"cycles"} accepted: 10^12 cycles is hours of host
 * time even for the cheapest workload; more is a typo or a hostile input. */
#define SCEN_MAX_STOP_CYCLES 1000000000000ull
/* The shortest interrupt period accepted (cycles; the mean for poisson).
 * Below it the interrupt entry and exit alone would fill the CPU, and the
 * simulation slows tenfold ("every": 1 ran 12x slower than 1000). */
#define SCEN_MIN_IRQ_PERIOD 1000
/* Interrupt sources: at most 65535 entries (the driver indexes them in 16
 * bits), and, summed over the CPUs that run a thread, at most 65536 (source,
 * CPU) pairs, 64 sources on each of 1024 CPUs: every pair is state the
 * driver allocates and polls (65535 sources on 1024 CPUs took 776 MB), and
 * host time (cpu/sim_limit.h). */
#define SCEN_MAX_IRQ_SOURCES 65535
#define SCEN_MAX_IRQ_PAIRS 65536
#define SCEN_DEFAULT_VARIANT "default"        /* the one variant of a scenario without "variants" */
#define SCEN_PATH_MAX 160

/* Where a value came from, kept for checks that can only run once the
 * core count is known (scen_check_cores). */
struct scen_loc {
	int line, col;
	char path[SCEN_PATH_MAX];  /* JSON path, "$.threads[0].cpus" */
};

/* "all", [ids] or "0-3". "all" stays a flag because it means every core
 * of the run, known only once a variant is resolved (scen_cpuset_resolve).
 * A thread's "compact", "scatter", "cores-first" or "numbered" is "all"
 * with the run's CPUs placed by that policy (base/placement.h). */
struct scen_cpuset {
	bool all;
	enum placement placement;  /* PLACE_NONE unless a policy was given */
	struct cpuset ids;         /* when !all */
	struct scen_loc loc;
};

struct scen_reg {
	char name[8];              /* rax..r15 */
	int64_t value;
};

struct scen_thread {
	struct scen_cpuset cpus;
	char *entry;               /* label */
	struct scen_reg *regs;
	size_t n_regs;
};

struct scen_interrupt {
	struct scen_cpuset cpus;
	enum irq_kind kind;
	char *handler;             /* label */
	uint64_t every;            /* period in cycles; the mean interval when poisson */
	double jitter;             /* 0..1: uniform +-jitter*every around the period */
	bool poisson;              /* exponential inter-arrival times instead of a period */
};

/* Run until `cycles` (when non-zero), or until every thread executed hlt
 * (when halt), whichever first. Without "stop": halt, cycles 0, and the
 * driver applies sim_default_limit(cores, irq_pairs) (cpu/sim_limit.h: a
 * budget of core-cycles) and reports that it did. */
struct scen_stop {
	uint64_t cycles;
	bool halt;
};

/* The keys a setup may give, at the top level and in a variant: each is
 * read by parse_KEY in scenario.c and recorded in scen_setup.set as
 * SCEN_SET_ID. Row order is the order keys are read (so the first bad one
 * is the one reported) and listed in "expected one of" messages; `hint` is
 * the key's place in the "overrides nothing" message, which names defines,
 * the usual override, first. A new key is one row here, its parse_KEY, and
 * its entry in scenarios/scenario.schema.json (a test compares them).
 *   X(key, ID, hint) */
#define SCEN_SETUP_KEYS(X)          \
	X(cpu,        CPU,        2) \
	X(cores,      CORES,      1) \
	X(seed,       SEED,       3) \
	X(program,    PROGRAM,    4) \
	X(defines,    DEFINES,    0) \
	X(threads,    THREADS,    5) \
	X(interrupts, INTERRUPTS, 6) \
	X(stop,       STOP,       7) \
	X(cflags,     CFLAGS,     8)

#define SCEN_KEY_ENUM_(key, ID, hint) SCEN_KEY_##ID,
#define SCEN_SET_ENUM_(key, ID, hint) SCEN_SET_##ID = 1u << SCEN_KEY_##ID,
enum scen_setup_key { SCEN_SETUP_KEYS(SCEN_KEY_ENUM_) SCEN_NSETUP_KEYS };
/* Which keys of a setup were given (a variant inherits the others). */
enum { SCEN_SETUP_KEYS(SCEN_SET_ENUM_) };

/* The keys of a scenario's top level and of a variant, NULL-terminated. */
extern const char *const scen_top_keys[];
extern const char *const scen_variant_keys[];

/* The keys shared by the top level and a variant. */
struct scen_setup {
	unsigned set;              /* SCEN_SET_* */
	struct cpu_model cpu;      /* loaded and validated; cpu.cores is the model's own */
	struct scen_loc cpu_loc;
	int cores;                 /* 0: the CPU model's */
	struct scen_loc cores_loc;
	uint64_t seed;
	char **program;            /* resolved paths, assembled in order */
	size_t n_program;
	struct asm_define *defines; /* names owned by the scenario */
	size_t n_defines;
	struct scen_thread *threads;
	size_t n_threads;
	struct scen_interrupt *interrupts;
	size_t n_interrupts;
	struct scen_stop stop;
	char **cflags;             /* more flags for the .c programs' compiles */
	size_t n_cflags;
};

struct scen_variant {
	char *name;
	char *description;         /* "" when none */
	struct scen_loc loc;       /* of the variant object */
	struct scen_setup setup;   /* only the SCEN_SET_* keys it overrides */
};

/* A metric is a dotted path into the --json report of one variant:
 * variants.NAME.FIELD[.FIELD...] (see docs/scenario-format.md). */
struct scen_expect {
	char *metric;              /* the value, or the numerator of a ratio */
	char *to;                  /* ratio denominator; NULL when not a ratio */
	bool has_min, has_max, has_equals;
	double min, max, equals;
	int64_t equals_int;        /* exact when the JSON value is an integer */
	bool equals_is_int;
	/* The core counts it is a claim about ("cores": {"min", "max"}): a
	 * variant run on other counts skips it. 1..CPU_MAX_CORES by default. */
	int cores_min, cores_max;
	/* "stopped": true: a claim about a run that may end at its cycle or
	 * wall-clock limit; without it a variant that did not halt fails it. */
	bool about_stopped;
	char *description;         /* printed when it fails; NULL when none */
	struct scen_loc loc;
};

struct scenario {
	char *file;                /* as given (or "<built-in default>") */
	char *dir;                 /* the scenario's directory, for relative paths */
	char *libdir;              /* <datadir>/scenarios, searched second */
	char *name;
	char *description;         /* "" when none */
	struct scen_setup base;    /* cpu, seed, program, threads always set after load */
	char **report;
	struct scen_loc *report_loc; /* where each name is in the file */
	size_t n_report;
	struct scen_variant *variants; /* n_variants >= 1: without "variants" one named "default" */
	size_t n_variants;
	struct name_map variant_names; /* names to indices (scen_find_variant); empty: search */
	struct scen_expect *expect;
	size_t n_expect;
	char **cpu_files;          /* every CPU model file read (inputs of the run) */
	size_t n_cpu_files;
};

/* Where data files are: $BOUNCE_DATADIR, else the compile-time BOUNCE_DATADIR. */
const char *scen_datadir(void);

/* Load and validate a scenario file. On error: -1, e = file:line:col: $.path: msg,
 * and *s is left empty (scen_free is still safe). */
int scen_load(const char *path, struct scenario *s, struct err *e);
/* The same from memory; relative program paths resolve against `dir`
 * (NULL: <datadir>/scenarios). */
int scen_load_string(const char *name, const char *dir, const char *text, struct scenario *s,
		     struct err *e);
/* The built-in default scenario, and its text. */
int scen_load_default(struct scenario *s, struct err *e);
extern const char scen_default_text[];
void scen_free(struct scenario *s);

int scen_find_variant(const struct scenario *s, const char *name); /* index or -1 */

/* Load cpus/NAME.json from the data directory (for --cpu). */
int scen_load_cpu(const char *name, struct cpu_model *m, struct err *e);
/* The file a CPU model name refers to: NAME.json or a path with '/' relative
 * to `dir`, else <datadir>/cpus/NAME.json. Malloc'd; NULL out of memory. */
char *scen_cpu_file(const char *name, const char *dir);

/* One key of the CPU model set from the command line (cpu_json_set). */
struct scen_cpu_key {
	const char *key, *value;
	const char *opt;              /* "--set cpu.KEY=VALUE", for messages */
};

/* Command-line overrides, applied after the variant's. */
struct scen_overrides {
	const struct cpu_model *cpu;  /* --cpu, NULL: keep */
	const char *cpu_file;         /* the file --cpu was read from, NULL: none */
	int cores;                    /* --cores, 0: keep */
	const char *cores_arg;        /* how the command line gave cores ("--cores 500"), for messages */
	bool has_seed;
	uint64_t seed;
	const struct asm_define *defines; /* --set NAME=VALUE */
	size_t n_defines;
	const struct scen_cpu_key *cpu_keys; /* --set cpu.KEY=VALUE, applied to each variant's model */
	size_t n_cpu_keys;
	enum placement placement;     /* --placement, PLACE_NONE: the threads' */
	bool no_fast_forward;         /* --no-fast-forward: waiting cores execute their loops */
};

/* One variant, flattened: what a simulation of it needs. Arrays point into
 * the scenario (which must outlive it) except those scen_run_free frees. */
struct scen_run {
	const char *scenario;
	const char *variant;
	struct cpu_model cpu;           /* cpu.cores == cores; placed, with the cpu_keys set */
	int cores;
	const struct scen_cpu_key *cpu_keys; /* the overrides' (for the report) */
	size_t n_cpu_keys;
	enum placement placement;       /* how the run's CPUs were placed, PLACE_NONE: numbered */
	uint64_t seed;
	const char *const *program;
	size_t n_program;
	const char *include_dirs[2];    /* the scenario's dir, <datadir>/scenarios */
	size_t n_include_dirs;
	const char *const *cflags;      /* for the .c programs (load/c_compile.h) */
	size_t n_cflags;
	struct asm_define *defines;     /* merged base < variant < overrides; owned */
	size_t n_defines;
	const struct scen_thread *threads;
	size_t n_threads;
	const struct scen_interrupt *interrupts;
	size_t n_interrupts;
	struct scen_stop stop;
	uint64_t max_cycles;            /* stop.cycles, or sim_default_limit(cores, irq_pairs) */
	char **report;
	const struct scen_loc *report_loc;
	size_t n_report;
};

/* Flatten variant `v` with overrides `o` (may be NULL) and check what needs
 * the final core count: thread and interrupt CPU ids < cores, no CPU in
 * two threads, the CPU model valid at that many cores. */
int scen_resolve(const struct scenario *s, size_t v, const struct scen_overrides *o,
		 struct scen_run *r, struct err *e);
void scen_run_free(struct scen_run *r);

/* The core-count checks of scen_resolve alone, for `bounce check` and sweeps;
 * check_model 0 when an override replaces the scenario's CPU model.
 * cores_arg: the option that gave `cores` ("--cores 500"), which a message
 * about the count then names; NULL when the scenario gave it. */
int scen_check_cores(const struct scenario *s, size_t v, int cores, const char *cores_arg, int check_model,
		     struct err *e);

/* Does CPU `cpu` belong to the set? ("all" holds every CPU.) */
bool scen_cpuset_has(const struct scen_cpuset *c, int cpu);
/* The CPUs of the set on a machine of `cores` cores. */
void scen_cpuset_resolve(const struct scen_cpuset *c, int cores, struct cpuset *out);

#endif
