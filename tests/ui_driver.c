/* A stand-alone front end for the visualizer's tests and measurements:
 * `ui_driver [SCENARIO.json] [--speed X] [--screenshot F.png --frames N]
 * [--steps N] [--textlog F] [--split] [--variant V] [--size WxH] [--cpu M] [--cores N]` calls ui_view exactly as
 * `bounce view` does, without depending on the CLI's argument parsing. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "load/scenario.h"
#include "../ui/view/view.h"

int main(int argc, char **argv)
{
	struct ui_options opt = {0};
	const char *path = NULL;
	int cores = 0;
	const char *cpu = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--speed") && v)
			opt.speed = atof(argv[++i]);
		else if (!strcmp(a, "--screenshot") && v)
			opt.screenshot = argv[++i];
		else if (!strcmp(a, "--frames") && v)
			opt.frames = atoi(argv[++i]);
		else if (!strcmp(a, "--split"))
			opt.split = 1;
		else if (!strcmp(a, "--steps") && v)
			opt.steps = atoi(argv[++i]);
		else if (!strcmp(a, "--textlog") && v)
			opt.textlog = argv[++i];
		else if (!strcmp(a, "--variant") && v)
			opt.variant = argv[++i];
		else if (!strcmp(a, "--cores") && v)
			cores = atoi(argv[++i]);
		else if (!strcmp(a, "--cpu") && v)
			cpu = argv[++i];
		else if (!strcmp(a, "--size") && v && sscanf(argv[++i], "%dx%d", &opt.width, &opt.height) == 2)
			;
		else if (a[0] != '-' && !path)
			path = a;
		else {
			fprintf(stderr, "usage: %s [SCENARIO.json] [--speed X] [--screenshot F.png --frames N] "
					"[--variant V] [--size WxH] [--cpu M] [--cores N]\n", argv[0]);
			return 2;
		}
	}
	struct scenario sc;
	struct err e = {0};
	memset(&sc, 0, sizeof sc);
	if (path ? scen_load(path, &sc, &e) : scen_load_default(&sc, &e)) {
		err_print(&e, stderr);
		scen_free(&sc);
		return 2;
	}
	/* --cpu and --cores exactly as `bounce run` applies them. */
	struct cpu_model m;
	struct scen_overrides ov = {.cores = cores};
	if (cpu) {
		if (scen_load_cpu(cpu, &m, &e)) {
			err_print(&e, stderr);
			scen_free(&sc);
			return 2;
		}
		ov.cpu = &m;
	}
	opt.overrides = &ov;
	int rc = ui_view(&sc, &opt, &e);
	if (rc)
		err_print(&e, stderr);
	scen_free(&sc);
	return rc ? (e.kind == ERR_INPUT ? 2 : 3) : 0;
}
