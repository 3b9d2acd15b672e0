/* `bounce plot`: a CSV drawn as a chart by the UI's chart writer, which
 * the program's entry point hands in (o->ui); its options are plot's row
 * of the command registry. */
#include "config.h"
#include "cli/cli.h"

#include <stdio.h>

int cli_plot(const struct cli_opts *o)
{
	if (!o->ui) {
		fputs("bounce: plot needs the SDL2 UI, and this build has none (configure found no SDL2)\n", stderr);
		return EXIT_INPUT;
	}
	struct err e = {0};
	int r = o->ui->plot(o, &e);
	if (r < 0)
		return cli_fail(&e);
	if (r > 0) {
		fputs("bounce: plot: interrupted; no output written\n", stderr);
		return EXIT_INTERRUPTED;
	}
	return EXIT_OK;
}
