/* The pieces of a progress line on stderr, shared by run, sweep and replay:
 * the wall clock, figures with an SI suffix, and durations. */
#ifndef BOUNCE_PROGRESS_LINE_H
#define BOUNCE_PROGRESS_LINE_H

#include <stddef.h>

/* Whether to show progress: --progress (opt 1) always, --no-progress
 * (opt -1) never, else on a terminal unless --quiet. */
int progress_wanted(int opt, int quiet);
/* Seconds on a monotonic clock. */
double progress_now(void);
/* 12.3k, 4.56M: a count or a rate in three digits. */
void progress_si(double v, char *buf, size_t n);
/* 3.2 ms, 41 s, 7 min: a simulated or remaining time. */
void progress_seconds(double t, char *buf, size_t n);

#endif
