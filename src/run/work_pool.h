/* A pool of worker threads over an indexed list of jobs: jobs start in
 * index order, the caller takes their results in index order (so what it
 * writes does not depend on how many workers there are), and a signal or
 * a cancel stops the workers from starting more. */
#ifndef BOUNCE_WORK_POOL_H
#define BOUNCE_WORK_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include "base/error.h"

struct work_pool;

/* Job k of the list, run on a worker (or, with at most one worker, on the
 * caller's thread inside work_pool_wait); a long job stops early once
 * *cancelled is set. */
typedef void (*work_fn)(void *ctx, size_t k, const atomic_int *cancelled);

/* Start `workers` threads over jobs 0..n-1; with workers <= 1 none, and
 * each job runs when it is waited for. A worker keeps at most `ahead` jobs
 * started beyond the last one released, so that finished results waiting
 * for an earlier one stay few. NULL with e set when a thread cannot start. */
struct work_pool *work_pool_start(size_t n, int workers, size_t ahead, work_fn fn, void *ctx, struct err *e);
/* Wait until job k is done, calling tick(tctx) about every 100 ms
 * meanwhile (NULL: none). 0 when it is done; -1 when a signal came first
 * (the workers start no more jobs; those running stop as their jobs poll)
 * or the pool was cancelled before job k started. */
int work_pool_wait(struct work_pool *p, size_t k, void (*tick)(void *tctx), void *tctx);
/* The caller is done with job k's result: its room is free for another. */
void work_pool_release(struct work_pool *p, size_t k);
/* Start no more jobs; a running job sees it through its cancel flag. */
void work_pool_cancel(struct work_pool *p);
/* Cancel what has not started, wait for the workers and free the pool. */
void work_pool_free(struct work_pool *p);

#endif
