/* The pieces of a progress line (progress_line.h). */
#include "config.h"
#include "cli/progress_line.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

int progress_wanted(int opt, int quiet)
{
	return opt > 0 || (!opt && !quiet && isatty(2));
}

double progress_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void progress_si(double v, char *buf, size_t n)
{
	static const char units[] = " kMGTP";
	int u = 0;
	while (v >= 1000 && u < 5) {
		v /= 1000;
		u++;
	}
	snprintf(buf, n, u ? "%.3g%c" : "%.0f", v, units[u]);
}

void progress_seconds(double t, char *buf, size_t n)
{
	if (t < 1e-3)
		snprintf(buf, n, "%.3g us", t * 1e6);
	else if (t < 1)
		snprintf(buf, n, "%.3g ms", t * 1e3);
	else if (t < 120)
		snprintf(buf, n, "%.0f s", t);
	else
		snprintf(buf, n, "%.0f min", t / 60);
}
