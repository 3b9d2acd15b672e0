/* bounce's entry point: picks the subcommand and hands it to the command
 * line (cli/). The one file that sees both cli/ and ui/: it gives `view` the
 * visualizer when this build has one, so the CLI never includes the UI. */
#include "config.h"
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/outfile.h"
#ifdef HAVE_UI
#include "../ui/plot.h"
#include "../ui/ui.h"
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

#ifdef HAVE_UI
static int view_in_ui(const struct scenario *s, const struct cli_opts *o,
		      const struct cli_ov *ov, struct err *e)
{
	struct ui_options uo = {
		.speed = o->speed,
		.screenshot = o->screenshot,
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
	const char *cmd = "run";
	int first = 1;
	static const char *const cmds[] = {"run", "sweep", "merge", "view", "check", "list", "calibrate", "validate", "replay"};
	if (argc > 1)
		for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
			if (strcmp(argv[1], cmds[i]) == 0) {
				cmd = cmds[i];
				first = 2;
			}
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* plot draws with SDL: the UI's own command, options and all. */
	if (argc > 1 && strcmp(argv[1], "plot") == 0) {
#ifdef HAVE_UI
		struct err pe = {0};
		return ui_plot_cmd(argc - 1, argv + 1, &pe) ? cli_fail(&pe) : EXIT_OK;
#else
		fputs("bounce: plot needs the SDL2 UI, and this build has none (configure found no SDL2)\n", stderr);
		return EXIT_INPUT;
#endif
	}

	/* These three have options of their own: two measure the host, one replays traces. */
	if (strcmp(cmd, "calibrate") == 0)
		return cli_calibrate(argc - 1, argv + 1);
	if (strcmp(cmd, "validate") == 0)
		return cli_validate(argc - 1, argv + 1);
	if (strcmp(cmd, "replay") == 0)
		return cli_replay(argc - 1, argv + 1);

	struct cli_opts o;
	struct err e = {0};
	if (cli_parse(cmd, argc - first, argv + first, &o, &e)) {
		err_print(&e, stderr);
		cli_opts_free(&o);
		return EXIT_INPUT;
	}
	int rc;
	if (strcmp(cmd, "run") == 0)
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
	return rc;
}
