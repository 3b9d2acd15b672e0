/* The command table made from cli_commands.def, and everything read from
 * it: `bounce help`, each command's --help, which command a command line
 * names (or the misspelling it is), and the call of its handler. */
#include "config.h"
#include "cli/cli.h"
#include "cli/cli_command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/suggest.h"

#define CLI_OPTIONS(...) ((const enum cli_opt_id[]){__VA_ARGS__, OPT_END})
#define CLI_ARGS(lo, hi, noun, scen) {(lo), (hi), (noun), (scen)}
/* pos_ is a braced initializer (CLI_ARGS), which parentheses would break */
#define CLI_COMMAND(nm, syn_, sum_, what_, opts_, pos_, req_) \
	{.name = #nm, .args = (syn_), .summary = (sum_), .what = (what_), .options = (opts_), \
	 .pos = pos_, /* NOLINT(bugprone-macro-parentheses) */ .required = (req_), .run = cli_##nm},
const struct cli_command cli_commands[] = {
#include "cli/cli_commands.def"
};
#undef CLI_COMMAND
const size_t cli_n_commands = sizeof cli_commands / sizeof cli_commands[0];

const struct cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_n_commands; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

/* A help text that spans lines keeps to its column. */
static void put_help(const char *text, int indent, FILE *f)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fprintf(f, "%*s", indent, "");
	}
	fputc('\n', f);
}

void cli_command_help(const struct cli_command *c, FILE *f)
{
	fprintf(f, "usage: bounce %s %s%s[OPTIONS]\n%s\n\noptions (--opt VALUE or --opt=VALUE):\n", c->name,
		c->args, c->args[0] ? " " : "", c->what);
	for (const enum cli_opt_id *id = c->options; *id; id++) {
		const struct cli_option *d = &cli_option_table[*id];
		char lhs[64], arg[40] = "";
		if (d->arg)
			snprintf(arg, sizeof arg, d->bare ? " [%s]" : " %s", d->arg);
		if (d->short_name)
			snprintf(lhs, sizeof lhs, "-%c, --%s%s", d->short_name, d->name, arg);
		else
			snprintf(lhs, sizeof lhs, "    --%s%s", d->name, arg);
		fprintf(f, "  %-28s ", lhs);
		put_help(d->help, 31, f);
	}
}

void cli_usage(FILE *f)
{
	fputs("usage: bounce [--quiet] [COMMAND] [ARGS] [OPTIONS]\n"
	      "Simulate cache-line bouncing of shared counters on an SMP machine.\n\n", f);
	fprintf(f, "commands (%s when none is given):\n", cli_commands[0].name);
	for (size_t i = 0; i < cli_n_commands; i++) {
		const struct cli_command *c = &cli_commands[i];
		char lhs[80];
		snprintf(lhs, sizeof lhs, "%s%s%s", c->name, c->args[0] ? " " : "", c->args);
		fprintf(f, "  %-24s %s%s\n", lhs, strlen(lhs) >= 24 ? "  " : "", c->summary);
	}
	fputs("\nglobal options (before the command):\n"
	      "  -q, --quiet              print only failures and errors\n"
	      "  -V, --version            the version\n"
	      "  -h, --help               this text\n\n"
	      "Exit status: 0 ok, 1 an expectation failed, 2 bad input, 3 internal error,\n"
	      "130 interrupted. See bounce(1) and bounce help COMMAND.\n", f);
}

int cli_help(const struct cli_opts *o)
{
	if (!o->n_rest) {
		cli_usage(stdout);
		return EXIT_OK;
	}
	const struct cli_command *c = cli_command_find(o->rest[0]);
	if (!c) {
		fprintf(stderr, "bounce: help: no command '%s' (see bounce help)\n", o->rest[0]);
		return EXIT_INPUT;
	}
	cli_command_help(c, stdout);
	return EXIT_OK;
}

/* A bare word that names neither a command nor a file. */
static int misspelt(const char *word)
{
	struct suggest g;
	char hint[160];
	suggest_init(&g, word);
	for (size_t k = 0; k < cli_n_commands; k++)
		suggest_offer(&g, cli_commands[k].name);
	if (suggest_best(&g))
		snprintf(hint, sizeof hint, "did you mean '%s'?", suggest_best(&g));
	else
		snprintf(hint, sizeof hint, "see bounce help");
	fprintf(stderr, "bounce: '%s' is neither a command nor a scenario file (%s)\n", word, hint);
	return EXIT_INPUT;
}

int cli_main(int argc, char **argv, const struct cli_ui *ui)
{
	int quiet = 0, i = 1;
	/* Global options come before the command. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
			printf("bounce %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cli_usage(stdout);
			return EXIT_OK;
		} else
			break; /* the options of the first command, whose name may be left out */
	}
	const struct cli_command *c = i < argc ? cli_command_find(argv[i]) : NULL;
	if (c)
		i++;
	/* `bounce S.json` is `bounce run S.json`; a bare word that names
	 * neither a command nor a file is a misspelt command, not a scenario
	 * that cannot be opened. */
	else if (i < argc && !strpbrk(argv[i], "./-") && access(argv[i], F_OK) != 0)
		return misspelt(argv[i]);
	else
		c = &cli_commands[0];

	/* The command sees argv[0] = its name, then its own arguments. */
	char **args = calloc((size_t)argc + 1, sizeof *args);
	if (!args) {
		fputs("bounce: out of memory\n", stderr);
		return EXIT_INTERNAL;
	}
	int n = 0;
	args[n++] = (char *)c->name;
	while (i < argc)
		args[n++] = argv[i++];
	struct cli_opts o;
	struct err e = {0};
	int rc;
	/* A signal that came while the command line was read is honoured
	 * before the command starts. */
	if (cli_parse(c, n, args, &o, &e) || (!o.help && err_poll(&e)))
		rc = cli_fail(&e);
	else if (o.help)
		rc = EXIT_OK;
	else {
		o.quiet = o.quiet || quiet;
		o.ui = ui;
		rc = c->run(&o);
	}
	cli_opts_free(&o);
	free(args);
	return rc;
}
