/* Outputs that must not replace what a scenario's run reads, for a command
 * that does not assemble the variants itself (view): every selected
 * variant is assembled once to learn the files it reads. */
#include "config.h"
#include "cli/cli.h"

#include "cli/cli_inputs.h"
#include "run/runner.h"

int cli_check_outputs(const struct cli_opts *o, const struct scenario *s, const struct cli_ov *ov,
		      const char *const *outs, const char *const *opts, size_t n, struct err *e)
{
	if (!n)
		return 0;
	struct cli_inputs in = {0};
	int rc = cli_inputs_add_scenario(&in, o, s, e);
	for (size_t v = 0; !rc && v < s->n_variants; v++) {
		if (!cli_selected(o, s, v))
			continue;
		struct runner r;
		rc = runner_prepare(&r, s, v, &ov->ov, 0, e);
		if (!rc) {
			rc = cli_inputs_add_program(&in, &r.prog, e);
			runner_free(&r);
		}
	}
	if (!rc)
		rc = cli_inputs_check(&in, outs, opts, n, e);
	cli_inputs_free(&in);
	return rc;
}
