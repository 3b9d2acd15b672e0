/* Sanity notes: facts about a variant's run that a reader must know before
 * trusting its figures (a per-CPU counter that never folded, fewer
 * operations than cores, a run that is mostly warm-up or mostly spinning),
 * each with the numbers that show it. Computed from the runner, so the
 * reports and the view state the same notes at any point of a run. */
#ifndef BOUNCE_REPORT_NOTES_H
#define BOUNCE_REPORT_NOTES_H

#include <stddef.h>
#include <stdint.h>
#include "run/runner.h"

/* A run whose first touches of its lines cost more than this share of its
 * cores' cycles is mostly warm-up. One whose cores spun (pause) at least
 * REP_NOTE_SPIN_MIN of their cycles and, with their miss stalls (a lock's
 * waiters re-fetch its line at every hand-over), more than
 * REP_NOTE_WAIT_SHARE, mostly measures waiting. */
#define REP_NOTE_WARM_UP_SHARE 0.25
#define REP_NOTE_SPIN_MIN 0.15
#define REP_NOTE_WAIT_SHARE 0.5

#define REP_NOTE_MAX_EVIDENCE 5

struct rep_note {
	const char *kind;     /* "never_folded", "few_ops", "warm_up", "spinning" */
	char subject[64];     /* the reported symbol it is about, else "" */
	char text[400];       /* one sentence, with the evidence's numbers */
	size_t n_evidence;
	struct {
		const char *name;
		uint64_t value;
	} evidence[REP_NOTE_MAX_EVIDENCE];
};

/* The notes on r's run so far, at most cap of them into out (the first
 * ones in the order above); returns how many there are in all. */
size_t rep_runner_notes(const struct runner *r, struct rep_note *out, size_t cap);

#endif
