/* A sweep's journal: each finished point's CSV rows, kept beside the
 * sweep's --csv F as F.partial until the sweep has written F, so that an
 * interrupted sweep continues (--resume) where it stopped and ends with
 * the CSV an uninterrupted one writes. */
#ifndef BOUNCE_SWEEP_JOURNAL_H
#define BOUNCE_SWEEP_JOURNAL_H

#include <stddef.h>
#include "base/error.h"

struct sweep_kept {
	size_t point;
	char *rows;
};

struct sweep_journal {
	char *path;                /* F.partial */
	int fd;                    /* appended to, -1: closed */
	unsigned char *done;       /* per point: its rows are kept */
	struct sweep_kept *kept;   /* what a resumed journal held, in file order */
	size_t n_kept, np;
};

/* The identity a journal must match to be continued: bounce's version,
 * the contents of every file the sweep reads, and its parameters. */
struct sweep_identity {
	const char *version;
	const char *const *inputs;  /* paths, in the order they were read */
	size_t n_inputs;
	const char *params;         /* cli_opts.param_key and the CSV header */
};

/* Start the journal of a sweep of np points that writes `csv`: with
 * `resume`, continue the one there (exit 2, saying which part of the
 * identity differs, when it is another sweep's; a record cut short by a
 * kill is dropped), else begin a new one. */
int sweep_journal_open(struct sweep_journal *j, const char *csv, const struct sweep_identity *id, size_t np,
		       int resume, struct err *e);
/* Keep point p's rows: one append, so that workers writing at once do not
 * mix, and a record cut short is recognised. Returns -1 on a write error. */
int sweep_journal_add(struct sweep_journal *j, size_t p, const char *rows, size_t len);
/* The sweep's CSV is written: the journal goes. */
void sweep_journal_remove(struct sweep_journal *j);
void sweep_journal_close(struct sweep_journal *j);

#endif
