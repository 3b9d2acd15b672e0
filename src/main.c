/* bounce's entry point: signals, where the data is, and the command line
 * (cli/) started. The one file that sees both cli/ and ui/: it gives `view`
 * and `plot` the UI when this build has one, so the CLI never includes it. */
#include "config.h"
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/outfile.h"
#ifdef HAVE_UI
#include "../ui/plot/plot.h"
#include "../ui/ui_sink.h"
#include "../ui/view/view.h"
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
/* plot's options, parsed by the command line, as the chart writer's. */
static int plot_in_ui(const struct cli_opts *o, struct err *e)
{
	struct plot_request req = {
		.csv = o->rest[0],
		.output = o->output,
		.metric = o->metric,
		.x = o->x,
		.series = o->series,
		.baseline = o->baseline,
		.title = o->title,
		.subtitle = o->subtitle,
		.log_x = o->log_x,
		.log_y = o->log_y,
		.width = o->plot_width,
		.height = o->plot_height,
	};
	if (ui_plot(&req, &png_sink, &cli_interrupted, e))
		return -1;
	return cli_interrupted != 0;
}

static const struct cli_ui ui = {view_in_ui, plot_in_ui};
#define UI (&ui)
#else
#define UI NULL
#endif

int main(int argc, char **argv)
{
	/* Before anything else: a SIGTERM in the first milliseconds is an
	 * interruption (exit 130) like any later one, not a kill. */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	locate_data();
	return cli_main(argc, argv, UI);
}
