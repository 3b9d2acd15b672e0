/* Output files written whole or not at all: data goes to a temporary file
 * beside the target and is renamed over it only on success. A symlink is
 * followed and its target replaced; a character device or FIFO (and
 * /dev/stdout, /dev/fd/N) is written through, never replaced; a directory,
 * block device or socket is refused. A signal handler can remove every
 * pending temporary (outfile_cleanup_all). */
#ifndef BOUNCE_OUTFILE_H
#define BOUNCE_OUTFILE_H

#include <stdio.h>
#include "base/error.h"

struct outfile;

/* Open a pending output for `path` ("-" means stdout, written directly). */
struct outfile *outfile_open(const char *path, struct err *e);
FILE *outfile_stream(struct outfile *o);
/* Flush, sync and rename into place; frees o. Returns -1 on error (e set). */
int outfile_commit(struct outfile *o, struct err *e);
/* Commit several outputs as one: each is written out (flushed, synced)
 * first, and only when all were are they renamed into place, so a failure
 * of any (a full disk) leaves none; NULL entries are skipped. Frees all. */
int outfile_commit_all(struct outfile **os, size_t n, struct err *e);
/* Remove the temporary; frees o. NULL does nothing. */
void outfile_abort(struct outfile *o);
/* Async-signal-safe: unlink every pending temporary. */
void outfile_cleanup_all(void);

/* Refuse (exit 2) an output that would replace an input of the run or the
 * file of another output: outs[i] is given by option opts[i] ("--json"),
 * ins[k] is described by kinds[k] ("the scenario"). Outputs written
 * through (devices, FIFOs, stdout) replace nothing and never clash. */
int outfile_check_clash(const char *const *outs, const char *const *opts, size_t n_outs,
			const char *const *ins, const char *const *kinds, size_t n_ins,
			struct err *e);

/* Convenience: write a whole buffer to path atomically. */
int outfile_write_all(const char *path, const char *data, size_t len, struct err *e);

#endif
