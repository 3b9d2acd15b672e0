/* `bounce plot CSV -o F.png [--metric M] [--baseline V] [--x COLUMN] [--series COLUMN]
 * [--title T] [--subtitle S] [--log-x|--lin-x] [--log-y] [--size WxH]`: its options
 * (getopt_long), then read (plot_csv.c) and draw (plot_draw.c). */
#include "config.h"
#include "plot.h"
#include "plot_int.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "ui_engine.h"

static const char plot_usage[] =
	"usage: bounce plot CSV -o F.png [--metric M] [--baseline VARIANT] [--x COLUMN] [--series COLUMN]\n"
	"                   [--title T] [--subtitle S] [--log-x | --lin-x] [--log-y] [--size WxH]\n"
	"  Draw a CSV with a header row (a sweep's or merge's --csv, or any table)\n"
	"  as a line chart: the metric against x, one line per series.\n"
	"  -o, --output F.png  the PNG to write (whole or not at all)\n"
	"  --metric M          the y column (default ops_per_sec); with M_min and M_max\n"
	"                      columns (sweep --repeat), each point has a min-max bar\n"
	"  --baseline VARIANT  draw M's ratio to VARIANT, the column M_vs_VARIANT\n"
	"                      (sweep --baseline VARIANT)\n"
	"  --x COLUMN          the x column (default cores)\n"
	"  --series COLUMN     one line per value of COLUMN, at most 256 (default: the\n"
	"                      \"series\" column, else \"variant\" plus each sweep --set\n"
	"                      that varies)\n"
	"  --title T           the chart's title (default \"M by X\")\n"
	"  --subtitle S        the small line under it (default: the CSV's path)\n"
	"  --log-x, --lin-x    x axis scale (default: log when the largest x is 16 or\n"
	"                      more times the smallest, powers of 2 when every x is one)\n"
	"  --log-y             logarithmic y axis\n"
	"  --size WxH          image size in pixels (default 960x600, 400x300 to 4096x4096)\n";

int ui_plot_cmd(int argc, char **argv, const struct ui_sink *sink,
		const volatile sig_atomic_t *interrupted, struct err *e)
{
	enum { O_METRIC = 256, O_X, O_SERIES, O_TITLE, O_SUBTITLE, O_LOGX, O_LINX, O_LOGY, O_SIZE, O_BASELINE };
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'}, {"metric", required_argument, NULL, O_METRIC},
		{"x", required_argument, NULL, O_X}, {"series", required_argument, NULL, O_SERIES},
		{"title", required_argument, NULL, O_TITLE}, {"subtitle", required_argument, NULL, O_SUBTITLE},
		{"log-x", no_argument, NULL, O_LOGX},
		{"lin-x", no_argument, NULL, O_LINX}, {"log-y", no_argument, NULL, O_LOGY},
		{"size", required_argument, NULL, O_SIZE}, {"baseline", required_argument, NULL, O_BASELINE},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct plot_spec spec = {0};
	struct plot_style st = {.width = 960, .height = 600, .log_x = -1};
	const char *out = NULL;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case O_METRIC: spec.metric = optarg; break;
		case O_X: spec.x = optarg; break;
		case O_SERIES: spec.series = optarg; break;
		case O_BASELINE: spec.baseline = optarg; break;
		case O_TITLE: st.title = optarg; break;
		case O_SUBTITLE: st.subtitle = optarg; break;
		case O_LOGX: st.log_x = 1; break;
		case O_LINX: st.log_x = 0; break;
		case O_LOGY: st.log_y = true; break;
		case O_SIZE: {
			char *end;
			long w = strtol(optarg, &end, 10), h = *end == 'x' ? strtol(end + 1, &end, 10) : 0;
			if (*end || w < 400 || h < 300 || w > 4096 || h > 4096)
				return err_set(e, NULL, 0, 0,
					       "plot: --size '%s': expected WxH from 400x300 to 4096x4096", optarg);
			st.width = (int)w;
			st.height = (int)h;
			break;
		}
		case 'h': fputs(plot_usage, stdout); return 0;
		case ':':
			return err_set(e, NULL, 0, 0, "plot: %s needs a value (see bounce help plot)", argv[optind - 1]);
		default:
			return err_set(e, NULL, 0, 0, "plot: unknown option '%s' (see bounce help plot)", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return err_set(e, NULL, 0, 0, "plot: expected one CSV file (see bounce help plot)");
	if (!out)
		return err_set(e, NULL, 0, 0, "plot: -o F.png is required (see bounce help plot)");
	spec.csv = argv[optind];
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
