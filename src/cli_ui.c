/* The command line's hooks into the UI: `view` and `plot` run in the
 * SDL2 viewer and chart writer when this build has them, and their PNGs go
 * through the CLI's output files. With src/main.c, the one place that sees
 * both cli/ and ui/ (tests link it to drive whole commands in-process). */
#include "config.h"
#include "cli_ui.h"

#include <stdio.h>
#include "cli/outfile.h"
#ifdef HAVE_UI
#include "../ui/plot/plot.h"
#include "../ui/ui_sink.h"
#include "../ui/view/view.h"
#endif

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
#endif

const struct cli_ui *cli_ui_hooks(void)
{
#ifdef HAVE_UI
	return &ui;
#else
	return NULL;
#endif
}
