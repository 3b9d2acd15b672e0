/* `bounce validate`'s judgement of one row (native vs simulated ops/s):
 * within 25% or not, and the likely cause when the host's topology or the
 * row's neighbours tell it; plus the grouped-digit figures the table prints. */
#ifndef BOUNCE_VALIDATE_VERDICT_H
#define BOUNCE_VALIDATE_VERDICT_H

#include <stddef.h>
#include "host/host_topology.h"

#define VALIDATE_TOLERANCE 0.25 /* |simulated - native| / native a row may be off by */

struct validate_row {
	const char *workload;
	int threads;
	double native, simulated, native_median;
	double error;        /* (simulated - native) / native */
	int within;          /* |error|, to 0.1% as printed, <= VALIDATE_TOLERANCE */
	const char *cause;   /* the likely cause of a miss, NULL when none is known */
};

/* Judge row r. first_error is the same workload's error at 1 thread (r's own
 * at 1 thread); smt: whether the row's CPUs include two SMT siblings;
 * disturbed: whether every native run of the row was disturbed. */
void validate_judge(struct validate_row *r, double first_error, int smt, int disturbed);

/* Whether the first `threads` online CPUs include two SMT siblings of one core. */
int validate_threads_share_core(const struct host_topo *t, int threads);

/* 7,510,000,000: a rate rounded to a whole number, digits in groups of three. */
void validate_grouped(double v, char *buf, size_t n);
/* The same with its unit: 7,510,000,000/s. */
void validate_rate(double v, char *buf, size_t n);

#endif
