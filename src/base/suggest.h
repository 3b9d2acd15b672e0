/* "Did you mean": the closest of a set of names to a misspelt one, for
 * every message that names an unknown thing (JSON keys, symbols, labels,
 * defines). Candidates are offered one at a time, so a caller walks its
 * own table. */
#ifndef BOUNCE_SUGGEST_H
#define BOUNCE_SUGGEST_H

#include <stddef.h>

struct suggest {
	const char *s;       /* the unknown name */
	const char *best;    /* the closest candidate so far, NULL: none */
	size_t bd;           /* its distance; SIZE_MAX while none is close */
	int part;            /* best only contains s ("BATCH" in "FBC_BATCH") */
};

void suggest_init(struct suggest *g, const char *s);
/* A candidate within a small edit distance (1 for names of up to 4
 * letters, else 2) wins over one that merely contains the name as a part
 * between underscores; among equals the first offered stays. */
void suggest_offer(struct suggest *g, const char *cand);
/* The closest candidate, or NULL. */
static inline const char *suggest_best(const struct suggest *g)
{
	return g->best;
}

#endif
