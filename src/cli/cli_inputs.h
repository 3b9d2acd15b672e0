/* The files a command reads, gathered as it reads them (the scenario, its
 * CPU models, every file an assembly read, traces, parts), so that one
 * check refuses an output that would replace any of them. */
#ifndef BOUNCE_CLI_INPUTS_H
#define BOUNCE_CLI_INPUTS_H

#include <stddef.h>
#include "base/error.h"
#include "base/name_map.h"

struct cli_opts;
struct scenario;
struct program;

struct cli_inputs {
	char **paths;          /* owned copies, each listed once */
	const char **kinds;    /* "the scenario", "the trace", ... (static strings) */
	size_t n, cap;
	struct name_map seen;  /* paths already listed */
};

/* An empty list is all zeros; cli_inputs_free makes it so again. */
void cli_inputs_free(struct cli_inputs *in);
/* Add `path`, read as `kind` (a static string), unless it is listed. */
int cli_inputs_add(struct cli_inputs *in, const char *path, const char *kind, struct err *e);
/* What a scenario's run reads before assembling: the scenario file, its
 * CPU models (with --cpu's and a --set cpu's) and the programs it names. */
int cli_inputs_add_scenario(struct cli_inputs *in, const struct cli_opts *o, const struct scenario *s,
			    struct err *e);
/* Every file the assembly of p read: its programs and their .include
 * files at any depth. */
int cli_inputs_add_program(struct cli_inputs *in, const struct program *p, struct err *e);
/* Refuse (exit 2) an output outs[i] (given by option opts[i]) that would
 * replace a listed input (compared by device and inode, so a hard link
 * counts) or the file of another output. */
int cli_inputs_check(const struct cli_inputs *in, const char *const *outs, const char *const *opts,
		     size_t n_outs, struct err *e);

#endif
