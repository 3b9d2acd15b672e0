/* Did-you-mean (suggest.h): optimal string alignment distance, and names
 * that contain the unknown one as an underscore-separated part. */
#include "config.h"
#include "base/suggest.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

/* Optimal string alignment distance: a swapped pair of letters, the
 * commonest typo, counts as one edit. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 40 || lb > 40)
		return SIZE_MAX;
	size_t m[41][41];
	for (size_t i = 0; i <= la; i++)
		m[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		m[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = m[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (m[i - 1][j] + 1 < best) best = m[i - 1][j] + 1;
			if (m[i][j - 1] + 1 < best) best = m[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && m[i - 2][j - 2] + 1 < best)
				best = m[i - 2][j - 2] + 1;
			m[i][j] = best;
		}
	return m[la][lb];
}

/* cand has s, ignoring case, as a part bounded by '_' or its ends. */
static int has_part(const char *cand, const char *s)
{
	size_t n = strlen(s), lc = strlen(cand);
	if (n < 3 || n >= lc)
		return 0;
	for (size_t i = 0; i + n <= lc; i++)
		if ((i == 0 || cand[i - 1] == '_') && (cand[i + n] == 0 || cand[i + n] == '_') &&
		    strncasecmp(cand + i, s, n) == 0)
			return 1;
	return 0;
}

void suggest_init(struct suggest *g, const char *s)
{
	g->s = s;
	g->best = NULL;
	g->bd = SIZE_MAX;
	g->part = 0;
}

void suggest_offer(struct suggest *g, const char *cand)
{
	size_t limit = strlen(g->s) <= 4 ? 1 : 2;
	size_t d = edit_distance(g->s, cand);
	if (d <= limit && d < g->bd) {
		g->bd = d;
		g->best = cand;
		g->part = 0;
	} else if (!g->best && has_part(cand, g->s)) {
		g->best = cand;
		g->part = 1;
	}
}
