/* `bounce sweep --find 'COLUMN>=X'`: the first point of each series of a
 * sweep's rows where a condition on one column holds, so a sweep answers
 * "from how many cores does this lose by 10x?" without reading its CSV. */
#ifndef BOUNCE_SWEEP_FIND_H
#define BOUNCE_SWEEP_FIND_H

#include <stddef.h>
#include <stdio.h>
#include "base/error.h"

enum find_op { FIND_GE, FIND_LE, FIND_GT, FIND_LT, FIND_EQ };

struct sweep_find {
	const char *text;   /* as given */
	int column;         /* in the header */
	enum find_op op;
	double value;
	size_t n_params;    /* parameter columns after "point" */
	int x;              /* the column the answer is "at": cores if swept, else the first parameter */
};

/* Parse text against the sweep's CSV header (one line, no newline needed):
 * -1 with "--find: ..." when the column is not one of the header's or the
 * condition does not parse. */
int sweep_find_parse(const char *text, const char *header, size_t n_params, struct sweep_find *f, struct err *e);
/* Print, for each series (a variant and the parameters other than x, in
 * the order they first appear), the first row in order where the
 * condition holds, or that it never does. rows: CSV lines in point order. */
void sweep_find_print(const struct sweep_find *f, const char *header, const char *const *rows, size_t n, FILE *out);

#endif
