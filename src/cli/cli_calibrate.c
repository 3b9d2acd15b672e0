/* `bounce calibrate [-o FILE] [--quick]`: measure this host and write a CPU
 * model JSON, to stdout or whole-or-nothing to FILE. One progress line per
 * measurement on stderr, and what could not be measured said there and in
 * the model. */
#include "config.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/outfile.h"
#include "host/host_model.h"
#include "host/host_topology.h"

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

int cli_calibrate(const struct cli_opts *o)
{
	const char *out = o->output;
	int quick = o->quick, quiet = o->quiet;
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
