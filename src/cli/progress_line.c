/* The pieces of a progress line (progress_line.h). */
#include "config.h"
#include "cli/progress_line.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "run/runner.h"

static struct {
	int tty;      /* -1: not asked yet */
	int drawn;    /* a terminal's line is on the screen */
	double last;  /* when the latest line was emitted, 0: never */
} line = {-1, 0, 0};

int progress_wanted(int opt, int quiet)
{
	return opt > 0 || (!opt && !quiet && isatty(2));
}

double progress_now(void)
{
	return runner_clock();
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

void progress_emit(int force, const char *fmt, ...)
{
	if (line.tty < 0)
		line.tty = isatty(2);
	double now = progress_now();
	if (!line.tty && !force && line.last > 0 && now - line.last < PROGRESS_LOG_S)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (line.tty)
		fputs("\r\033[K", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!line.tty)
		fputc('\n', stderr);
	line.drawn = line.tty;
	line.last = now;
}

/* Pure: a caller may ask and then print nothing (run asks once per
 * variant); the line is still there for progress_erase. Erasing an empty
 * line after a message is harmless. */
const char *progress_cr(void)
{
	return line.drawn ? "\r\033[K" : "";
}

void progress_erase(void)
{
	fputs(progress_cr(), stderr);
	line.drawn = 0;
}

void progress_keep(void)
{
	if (line.drawn)
		fputc('\n', stderr);
	line.drawn = 0;
}

int progress_eta(double elapsed, double done, double cap, double *left)
{
	/* done is known exactly: nothing is left */
	if (done < 1 && (elapsed < PROGRESS_ETA_S || done < PROGRESS_ETA_FRAC || done <= 0))
		return 0;
	double t = done >= 1 ? 0 : elapsed * (1 - done) / done;
	*left = t < cap ? t : cap;
	return 1;
}
