/* The one place a checked build's broken invariant (invariant.h) stops
 * the program: the only output of the engine that is not an error value,
 * since by then no caller can be trusted to pass one up. */
#include "config.h"
#include "base/invariant.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn int invariant_failed(const char *file, int line, const char *cond)
{
	fflush(stdout);
	fprintf(stderr, "%s:%d: internal error: %s\n", file, line, cond);
	exit(3);
}
