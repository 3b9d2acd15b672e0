/* `bounce plot CSV -o F.png ...`: the request the command line parsed, read
 * (plot_csv.c) and drawn (plot_draw.c) into the output. */
#include "config.h"
#include "plot.h"
#include "plot_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_sink.h"
#include "ui_engine.h"

int ui_plot(const struct plot_request *req, const struct ui_sink *sink,
	    const volatile sig_atomic_t *interrupted, struct err *e)
{
	struct plot_spec spec = {.csv = req->csv, .metric = req->metric, .x = req->x, .series = req->series,
				 .baseline = req->baseline};
	struct plot_style st = {.title = req->title, .subtitle = req->subtitle, .log_x = req->log_x,
				.log_y = req->log_y, .width = req->width ? req->width : 960,
				.height = req->height ? req->height : 600};
	const char *out = req->output;
	if (!st.subtitle)
		st.subtitle = spec.csv;
	st.font = getenv("BOUNCE_FONT") ? getenv("BOUNCE_FONT") : UI_FONT_PATH;

	/* Opened first: an output that cannot be written, or that is the CSV,
	 * is refused before the CSV is read, with run's messages. */
	FILE *f;
	void *h = sink->open(out, "-o", spec.csv, "the CSV", &f, e);
	if (!h)
		return -1;
	struct plot_data d;
	int rc = plot_read(&spec, &d, e);
	if (!rc) {
		rc = plot_draw_png(&d, &st, f, out, e);
		plot_data_free(&d);
	}
	if (!rc && !(interrupted && *interrupted))
		return sink->commit(h, e);
	sink->abort(h);
	return rc;
}
