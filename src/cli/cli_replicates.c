/* What run and sweep share for comparing runs: --repeat's extra runs of a
 * variant at the next seeds, --baseline's ratios, and the CSV columns the
 * two add (the figures themselves are report_compare.c's). */
#include "config.h"
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

int cli_replicate(const struct cli_opts *o, const struct scenario *s, size_t v, const struct scen_overrides *ov,
		  uint64_t seed0, struct cli_meter *m, cJSON *vobj, struct err *e)
{
	size_t n = o->repeat > 1 ? (size_t)o->repeat : 1;
	if (n == 1)
		return 0;
	if (seed0 > (uint64_t)INT64_MAX - (n - 1))
		return err_set(e, NULL, 0, 0, "--repeat %zu: seeds from %llu pass 2^63-1", n, (unsigned long long)seed0);
	const cJSON **runs = calloc(n, sizeof(const cJSON *));
	cJSON **reps = calloc(n, sizeof(cJSON *));
	int rc = 0;
	if (!runs || !reps)
		rc = err_internal(e, "out of memory");
	if (runs)
		runs[0] = vobj;
	for (size_t k = 1; k < n && !rc; k++) {
		struct scen_overrides at = *ov;
		at.has_seed = true;
		at.seed = seed0 + k;
		struct runner r;
		if (runner_prepare(&r, s, v, &at, o->check, e)) {
			rc = -1;
			break;
		}
		reps[k] = rep_new(s, &r);
		enum run_stop st = cli_simulate(&r, 0, m, e);
		if (st == RUN_FAULT || st == RUN_INTERRUPTED) {
			if (st == RUN_INTERRUPTED)
				err_set(e, NULL, 0, 0, "interrupted in variant '%s' at seed %llu", r.run.variant,
					(unsigned long long)at.seed);
			rc = -1;
		} else {
			rc = rep_add_variant(reps[k], &r, e);
			runs[k] = cJSON_GetArrayItem(cJSON_GetObjectItem(reps[k], "variants"), 0);
		}
		runner_free(&r);
	}
	if (!rc)
		rep_add_replicates(vobj, runs, n);
	for (size_t k = 0; reps && k < n; k++)
		cJSON_Delete(reps[k]);
	free(reps);
	free(runs);
	return rc;
}

int cli_add_baseline(const struct cli_opts *o, cJSON *rep, struct err *e)
{
	if (!o->baseline || !rep)
		return 0;
	if (rep_add_baseline(rep, o->baseline))
		return err_internal(e, "--baseline %s: the variant is not in the report", o->baseline);
	return 0;
}

struct rep_csv_extra cli_csv_extra(const struct cli_opts *o)
{
	return (struct rep_csv_extra){.replicates = o->repeat > 1, .baseline = o->baseline};
}
