/* `bounce validate`'s verdict per row and the figures its table prints
 * (validate_verdict.h): a row is judged against the tolerance, and a miss is
 * explained only by what the run can show, never guessed. */
#include "config.h"
#include "cli/validate_verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int validate_threads_share_core(const struct host_topo *t, int threads)
{
	for (int i = 0; i < threads && i < t->ncpus; i++)
		for (int j = 0; j < i; j++)
			if (t->cpu[i].package == t->cpu[j].package && t->cpu[i].core == t->cpu[j].core)
				return 1;
	return 0;
}

void validate_judge(struct validate_row *r, double first_error, int smt, int disturbed)
{
	/* Judged on the error as the table prints it (to 0.1%): judged
	 * unrounded, +25.007% printed as "+25.0%  off by more than 25%",
	 * a row that contradicts itself. */
	r->within = round(fabs(r->error) * 1000.0) / 1000.0 <= VALIDATE_TOLERANCE;
	r->cause = NULL;
	if (r->within)
		return;
	if (disturbed)
		r->cause = "every native run was disturbed: the host was busy, so the native figure is not this "
			   "machine's";
	else if (r->threads > 1 && smt)
		r->cause = "threads share a physical core (SMT siblings), which the model counts as two cores";
	else if (r->threads == 1)
		r->cause = "one thread, no coherence: the clock frequency or the per-operation cost";
	/* Off by the same ratio as at one thread: what one thread gets wrong,
	 * the clock or the cost of an operation, not the sharing. */
	else if (fabs((1 + r->error) / (1 + first_error) - 1) <= VALIDATE_TOLERANCE)
		r->cause = "as at 1 thread: the clock frequency or the per-operation cost, not the sharing";
}

void validate_grouped(double v, char *buf, size_t n)
{
	char digits[32];
	snprintf(digits, sizeof digits, "%.0f", fabs(v) < 1e18 ? fabs(v) : 1e18);
	size_t len = strlen(digits), k = 0;
	if (v < 0 && k + 1 < n)
		buf[k++] = '-';
	for (size_t i = 0; i < len && k + 1 < n; i++) {
		if (i && (len - i) % 3 == 0 && k + 2 < n)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = 0;
}

void validate_rate(double v, char *buf, size_t n)
{
	char g[40];
	validate_grouped(v, g, sizeof g);
	snprintf(buf, n, "%s/s", g);
}
