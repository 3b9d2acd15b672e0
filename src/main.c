/* bounce's entry point: picks the subcommand and hands it to the command
 * line (cli/). The one file that sees both cli/ and ui/: it gives `view` the
 * visualizer when this build has one, so the CLI never includes the UI. */
#include "config.h"
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/suggest.h"
#include "cli/outfile.h"
#ifdef HAVE_UI
#include "../ui/plot.h"
#include "../ui/ui.h"
#endif

/* Set by Makefile.am; the defaults are for tools that compile this file alone. */
#ifndef BOUNCE_DATADIR
#define BOUNCE_DATADIR "."
#endif
#ifndef BOUNCE_SRCDIR
#define BOUNCE_SRCDIR "."
#endif
#ifndef BOUNCE_BUILDDIR
#define BOUNCE_BUILDDIR ""
#endif

volatile sig_atomic_t cli_interrupted;

static void on_signal(int sig)
{
	cli_interrupted = sig;
	err_request_interrupt(); /* the engine's loops poll this one */
	/* A second signal means "now": drop pending output and leave. */
	static volatile sig_atomic_t seen;
	if (seen++) {
		outfile_cleanup_all();
		_exit(EXIT_INTERRUPTED);
	}
}

static const char usage[] =
	"usage: bounce [--quiet] [COMMAND] [ARGS] [OPTIONS]\n"
	"Simulate cache-line bouncing of shared counters on an SMP machine.\n\n"
	"commands (run when none is given):\n"
	"  run [SCENARIO.json]      simulate every variant, print the summary, write reports\n"
	"  sweep [SCENARIO.json] --set NAME=V1,V2,...   one CSV row per point and variant\n"
	"  merge PART.csv...        join the shards of one sweep\n"
	"  view [SCENARIO.json]     the live visualizer\n"
	"  check [SCENARIO.json]    validate and assemble, simulate nothing\n"
	"  list                     CPU models, scenarios, counter-library routines\n"
	"  calibrate                measure this host and write a CPU model\n"
	"  validate                 native vs simulated counters on this host\n"
	"  replay TRACE...          replay per-core memory traces with blocking cores\n"
	"  plot SWEEP.csv -o F.png  a sweep's CSV drawn as a chart (needs the SDL2 UI)\n"
	"  help [COMMAND]           this text, or a command's options\n\n"
	"global options (before the command):\n"
	"  -q, --quiet              print only failures and errors\n"
	"  -V, --version            the version\n"
	"  -h, --help               this text\n\n"
	"Exit status: 0 ok, 1 an expectation failed, 2 bad input, 3 internal error,\n"
	"130 interrupted. See bounce(1) and bounce help COMMAND.\n";

static int has_data(const char *dir)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof p, "%s/cpus", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where cpus/ and scenarios/ are when BOUNCE_DATADIR does not say: a
 * program in its build tree uses the source tree's (what it was built
 * with); an installed one, the compiled-in $(pkgdatadir); one whose
 * installation was moved (a DESTDIR staging tree, a copied prefix), the
 * share/bounce beside its bin/. The loader reads BOUNCE_DATADIR. */
static void locate_data(void)
{
	const char *d = getenv("BOUNCE_DATADIR");
	char exe[4096];
	ssize_t n;
	if ((d && *d) || (n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = 0;
	char *build = realpath(BOUNCE_BUILDDIR, NULL);
	int in_build = build && strcmp(build, exe) == 0;
	free(build);
	if (in_build) {
		setenv("BOUNCE_DATADIR", BOUNCE_SRCDIR, 1);
		return;
	}
	if (has_data(BOUNCE_DATADIR))
		return;
	char moved[4200];
	snprintf(moved, sizeof moved, "%s/../share/%s", exe, PACKAGE);
	char *real = realpath(moved, NULL);
	if (real && has_data(real))
		setenv("BOUNCE_DATADIR", real, 1);
	free(real);
}

/* `bounce help [COMMAND]`. */
static int help(const char *cmd, int nargs)
{
	if (!cmd) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (nargs > 1) {
		fprintf(stderr, "bounce: help: one command at a time (see bounce help)\n");
		return EXIT_INPUT;
	}
	if (strcmp(cmd, "calibrate") == 0 || strcmp(cmd, "validate") == 0) {
		char *args[] = {(char *)cmd, (char *)"--help", NULL};
		return cmd[0] == 'c' ? cli_calibrate(2, args) : cli_validate(2, args);
	}
	if (strcmp(cmd, "replay") == 0) {
		char *args[] = {(char *)cmd, (char *)"--help", NULL};
		return cli_replay(2, args);
	}
	if (strcmp(cmd, "help") == 0) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (strcmp(cmd, "plot") == 0) {
#ifdef HAVE_UI
		char *args[] = {(char *)cmd, (char *)"--help", NULL};
		struct err pe = {0};
		return ui_plot_cmd(2, args, NULL, NULL, &pe) ? cli_fail(&pe) : EXIT_OK;
#else
		fputs("bounce: plot needs the SDL2 UI, and this build has none\n", stderr);
		return EXIT_INPUT;
#endif
	}
	if (cli_help(cmd, stdout)) {
		fprintf(stderr, "bounce: help: no command '%s' (see bounce help)\n", cmd);
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

#ifdef HAVE_UI
_Static_assert(CLI_VIEW_MIN_WIDTH == UI_MIN_WIDTH && CLI_VIEW_MIN_HEIGHT == UI_MIN_HEIGHT &&
	       CLI_VIEW_MAX_SIDE == UI_MAX_SIDE, "view's option bounds are the viewer's");

/* The UI's PNGs go through the CLI's output files (ui_sink). */
static void *sink_open(const char *path, const char *opt, const char *input, const char *input_kind,
		       FILE **f, struct err *e)
{
	if (input && outfile_check_clash(&path, &opt, 1, &input, &input_kind, 1, e))
		return NULL;
	struct outfile *of = outfile_open(path, e);
	if (of)
		*f = outfile_stream(of);
	return of;
}

static int sink_commit(void *h, struct err *e)
{
	return outfile_commit(h, e);
}

static void sink_abort(void *h)
{
	outfile_abort(h);
}

static const struct ui_sink png_sink = {sink_open, sink_commit, sink_abort};

static int view_in_ui(const struct scenario *s, const struct cli_opts *o,
		      const struct cli_ov *ov, struct err *e)
{
	/* A screenshot may replace no input of the run, as run's outputs;
	 * the viewer opens it before simulating a frame. */
	const char *opt = "--screenshot";
	if (o->screenshot && cli_check_outputs(o, s, ov, &o->screenshot, &opt, 1, e))
		return -1;
	struct ui_options uo = {
		.speed = o->speed,
		.screenshot = o->screenshot,
		.sink = &png_sink,
		.frames = o->frames,
		.width = o->width,
		.height = o->height,
		.variant = o->variant,
		.overrides = &ov->ov,
		.interrupted = &cli_interrupted,
	};
	return ui_view(s, &uo, e);
}
#define VIEWER view_in_ui
#else
#define VIEWER NULL
#endif

int main(int argc, char **argv)
{
	static const char *const cmds[] = {"run", "sweep", "merge", "view", "check", "list",
					   "calibrate", "validate", "replay", "plot", "help"};
	/* Before anything else: a SIGTERM in the first milliseconds is an
	 * interruption (exit 130) like any later one, not a kill. */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	const char *cmd = "run";
	int quiet = 0, i = 1;
	/* Global options come before the command. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
			printf("bounce %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return EXIT_OK;
		} else
			break; /* the options of `run`, whose name may be left out */
	}
	int named = 0;
	if (i < argc)
		for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
			if (strcmp(argv[i], cmds[k]) == 0) {
				cmd = cmds[k];
				named = 1;
				i++;
				break;
			}
	/* `bounce S.json` is `bounce run S.json`; a bare word that names
	 * neither a command nor a file is a misspelt command, not a scenario
	 * that cannot be opened. */
	if (!named && i < argc && !strpbrk(argv[i], "./-") && access(argv[i], F_OK) != 0) {
		struct suggest g;
		char hint[160];
		suggest_init(&g, argv[i]);
		for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
			suggest_offer(&g, cmds[k]);
		if (suggest_best(&g))
			snprintf(hint, sizeof hint, "did you mean '%s'?", suggest_best(&g));
		else
			snprintf(hint, sizeof hint, "see bounce help");
		fprintf(stderr, "bounce: '%s' is neither a command nor a scenario file (%s)\n", argv[i], hint);
		return EXIT_INPUT;
	}
	if (strcmp(cmd, "help") == 0)
		return help(i < argc ? argv[i] : NULL, argc - i);
	locate_data();

	/* The command sees argv[0] = its name, the global options, then its own. */
	char **args = calloc((size_t)argc + 2, sizeof *args);
	if (!args) {
		fputs("bounce: out of memory\n", stderr);
		return EXIT_INTERNAL;
	}
	int n = 0;
	args[n++] = (char *)cmd;
	if (quiet && strcmp(cmd, "plot") != 0) /* plot prints nothing but errors */
		args[n++] = (char *)"--quiet";
	while (i < argc)
		args[n++] = argv[i++];

	/* A signal that came while the command line was read is honoured
	 * before the command starts. */
	struct err early = {0};
	if (err_poll(&early)) {
		free(args);
		return cli_fail(&early);
	}
	int rc;
	/* These measure the host, or draw with SDL (the UI's own command),
	 * and have options of their own. */
	if (strcmp(cmd, "plot") == 0) {
#ifdef HAVE_UI
		struct err pe = {0};
		rc = ui_plot_cmd(n, args, &png_sink, &cli_interrupted, &pe) ? cli_fail(&pe) : EXIT_OK;
		if (rc == EXIT_OK && cli_interrupted) {
			fputs("bounce: plot: interrupted; no output written\n", stderr);
			rc = EXIT_INTERRUPTED;
		}
#else
		fputs("bounce: plot needs the SDL2 UI, and this build has none (configure found no SDL2)\n", stderr);
		rc = EXIT_INPUT;
#endif
	} else if (strcmp(cmd, "calibrate") == 0)
		rc = cli_calibrate(n, args);
	else if (strcmp(cmd, "replay") == 0)
		rc = cli_replay(n, args);
	else if (strcmp(cmd, "validate") == 0)
		rc = cli_validate(n, args);
	else {
		struct cli_opts o;
		struct err e = {0};
		if (cli_parse(cmd, n, args, &o, &e))
			rc = cli_fail(&e);
		else if (o.help)
			rc = EXIT_OK;
		else if (strcmp(cmd, "run") == 0)
			rc = cli_run(&o);
		else if (strcmp(cmd, "sweep") == 0)
			rc = cli_sweep(&o);
		else if (strcmp(cmd, "merge") == 0)
			rc = cli_merge(&o);
		else if (strcmp(cmd, "view") == 0)
			rc = cli_view(&o, VIEWER);
		else if (strcmp(cmd, "check") == 0)
			rc = cli_check(&o);
		else
			rc = cli_list(&o);
		cli_opts_free(&o);
	}
	free(args);
	return rc;
}
