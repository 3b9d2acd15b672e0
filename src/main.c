/* bounce's command line: parses arguments and hands the work to libbounce.
 * (Placeholder until the CLI module lands: it only proves the build.) */
#include "config.h"
#include "error.h"
#include "cpu_model.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	struct cpu_model m;
	struct err e = {0};
	cpu_model_default(&m);
	if (cpu_model_validate(&m, &e)) {
		err_print(&e, stderr);
		return 2;
	}
	printf("bounce: %d-core %s model ready\n", m.cores, m.name);
	(void)argc; (void)argv;
	return 0;
}
