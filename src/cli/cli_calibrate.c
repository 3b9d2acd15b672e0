/* `bounce calibrate [-o FILE] [--quick]`: measure this host and write a CPU
 * model JSON, to stdout or whole-or-nothing to FILE. One progress line per
 * measurement on stderr, and what could not be measured said there and in
 * the model. */
#include "config.h"
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/outfile.h"
#include "host/host_model.h"
#include "host/host_topology.h"

static const char calibrate_usage[] =
	"usage: bounce calibrate [-o FILE] [--quick] [--quiet]\n"
	"  Measure this host (topology, clock, load latencies, locked RMW cost, CAS\n"
	"  ping-pong per CPU distance) and write a CPU model JSON for --cpu.\n"
	"  -o, --output FILE  write FILE (whole or not at all) instead of stdout\n"
	"  --quick            shorter, noisier measurements (a few seconds)\n"
	"  -q, --quiet        no progress on stderr\n";

static int progress_line(void *ctx, const char *line)
{
	if (!*(const int *)ctx)
		fprintf(stderr, "calibrate: %s\n", line);
	return cli_interrupted != 0;
}

struct host_topo *cli_host_topo(struct err *e)
{
	struct host_topo *topo = malloc(sizeof *topo);
	if (!topo)
		return err_internal(e, "out of memory"), NULL;
	if (host_topo_detect(topo, e)) {
		free(topo);
		return NULL;
	}
	return topo;
}

int cli_calibrate_model(const struct host_topo *topo, struct host_model *m, int quick, int quiet,
			struct err *e)
{
	return host_calibrate(m, topo, quick, progress_line, &quiet, e);
}

/* cJSON indents with tabs; the shipped models use two spaces. Strings
 * cannot hold a raw tab (cJSON escapes it), so every tab is indentation. */
static void put_indented(const char *text, FILE *f)
{
	for (const char *p = text; *p; p++)
		if (*p == '\t')
			fputs("  ", f);
		else
			fputc(*p, f);
	fputc('\n', f);
}

int cli_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"quick", no_argument, NULL, 'Q'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	int quick = 0, quiet = 0, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'Q': quick = 1; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(calibrate_usage, stdout); return EXIT_OK;
		default:
			return cli_getopt_fail("calibrate", c, argv);
		}
	}
	if (optind < argc)
		return cli_extra_arg("calibrate", argv[optind]);

	struct err e = {0};
	struct host_topo *topo = NULL;
	struct host_model m;
	char *text = NULL;
	cJSON *json = NULL;
	int rc = EXIT_OK;
	/* Open the output first: a path that cannot be written is an error
	 * before a second of measuring, not after. */
	struct outfile *of = outfile_open(out ? out : "-", &e);
	if (!of)
		goto fail;
	if (!(topo = cli_host_topo(&e)))
		goto fail;
	int r = cli_calibrate_model(topo, &m, quick, quiet, &e);
	if (r < 0)
		goto fail;
	if (r > 0 || cli_interrupted) {
		fprintf(stderr, "bounce: calibrate interrupted; nothing written\n");
		rc = EXIT_INTERRUPTED;
		goto out;
	}
	json = host_model_json(&m);
	text = json ? cJSON_Print(json) : NULL;
	if (!text) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	put_indented(text, outfile_stream(of));
	r = outfile_commit(of, &e);
	of = NULL;
	if (r)
		goto fail;
	if (out && !quiet)
		fprintf(stderr, "calibrate: wrote %s\n", out);
	goto out;
fail:
	rc = cli_fail(&e);
out:
	outfile_abort(of);
	free(text);
	cJSON_Delete(json);
	free(topo);
	return rc;
}
