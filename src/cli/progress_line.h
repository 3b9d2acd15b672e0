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

/* A progress line on stderr. On a terminal it is redrawn in place; on
 * anything else (a pipe, a log file) it is a plain line, at most one every
 * PROGRESS_LOG_S seconds, unless `force` (the one line a short job shows).
 * stderr is one, so its state is kept here for whichever command draws. */
#define PROGRESS_LOG_S 5.0
void progress_emit(int force, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What goes before a message printed while a line may be drawn: on a
 * terminal that shows one, the erase of that line; else "". */
const char *progress_cr(void);
/* Erase a drawn line (a terminal's), before the command's own output. */
void progress_erase(void);
/* Leave the drawn line as the job's last word: a terminal's ends there. */
void progress_keep(void);
/* The time left, when enough of the job is done to estimate it: at least
 * PROGRESS_ETA_S seconds in and PROGRESS_ETA_FRAC of the work done (less,
 * and the estimate swings by more than the figure itself). Capped at
 * `cap` seconds (the time to a --max-seconds limit; INFINITY for none).
 * All done, it is 0 whenever asked. Returns 0 when there is no estimate. */
#define PROGRESS_ETA_S 1.0
#define PROGRESS_ETA_FRAC 0.05
int progress_eta(double elapsed, double done, double cap, double *left);

#endif
