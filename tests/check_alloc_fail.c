/* Allocation failure: loading a catalogue scenario, assembling and running
 * each of its variants fails at every allocation site in turn (the test is
 * linked with the allocator wrapped, -Wl,--wrap); each failure must come
 * back as an internal error ("out of memory", exit status 3) with every
 * block allocated by then freed. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/cpu_json.h"
#include "load/scenario.h"
#include "replay/replay_run.h"
#include "replay/replay_trace.h"
#include "run/runner.h"
#include "cpu/sim.h"
#include "alloc_wrap.h"

/* Load, assemble and run every variant for a few thousand cycles: 0, or
 * -1 with e set. */
static int exercise_scenario(const char *path, struct err *e)
{
	struct scenario s = {0};
	if (scen_load(path, &s, e))
		return -1;
	int rc = 0;
	for (size_t v = 0; !rc && v < s.n_variants; v++) {
		struct runner r;
		rc = runner_prepare(&r, &s, v, NULL, 0, e);
		if (!rc) {
			rc = sim_run_until(r.sim, 5000, e) == SIM_ERROR ? -1 : 0;
			runner_free(&r);
		}
	}
	scen_free(&s);
	return rc;
}

/* Replay a zip of two traces and a gzip one, read ahead on a thread. */
static int exercise_replay(const char *dir, struct err *e)
{
	char model[700], zip[700], gz[700];
	snprintf(model, sizeof model, "%s/cpus/teaching-4core.json", scen_datadir());
	snprintf(zip, sizeof zip, "%s/pair.zip", dir);
	snprintf(gz, sizeof gz, "%s/t.data.gz", dir);
	struct cpu_model m;
	if (cpu_json_load(model, &m, e))
		return -1;
	char *paths[] = {zip, gz};
	struct rt_stream *s[4];
	int n = rt_open(paths, 2, s, 4, e);
	if (n < 0)
		return -1;
	struct replay r;
	if (replay_create(&r, &m, s, n, e))
		return -1;
	r.read_ahead = 1;
	int rc = replay_run(&r, e);
	replay_free(&r);
	return rc;
}

static const char *replay_dir;

static int exercise(int what, const char *path, struct err *e)
{
	return what == 0 ? exercise_scenario(path, e) : exercise_replay(replay_dir, e);
}

/* Allocation k fails, for every k up to the first the run never reaches:
 * that run succeeds, and every site has failed once. */
static void fail_each(int what, const char *path)
{
	struct err e = {0};
	/* What is made once (the data directory's name) is made here. */
	ck_assert_msg(exercise(what, path, &e) == 0, "%s", e.msg);
	long k = 0;
	for (;; k++) {
		err_clear(&e);
		size_t before = alloc_live;
		alloc_calls = 0;
		alloc_fail_at = k;
		int rc = exercise(what, path, &e);
		alloc_fail_at = -1;
		if (alloc_calls <= k) {
			ck_assert_msg(rc == 0, "a run without a failure failed: %s", e.msg);
			break;
		}
		ck_assert_msg(rc == -1, "allocation %ld failed unnoticed", k);
		ck_assert_msg(e.kind == ERR_INTERNAL, "allocation %ld failed as kind %d: %s", k, (int)e.kind, e.msg);
		ck_assert_msg(e.msg[0], "allocation %ld: no message", k);
		ck_assert_msg(alloc_live == before, "allocation %ld failed: %zu blocks leaked", k, alloc_live - before);
	}
	ck_assert_int_gt(k, 20);
}

START_TEST(scenario_sites)
{
	char path[700];
	snprintf(path, sizeof path, "%s/scenarios/tcp_memory_allocated.json", scen_datadir());
	fail_each(0, path);
}
END_TEST

START_TEST(replay_sites)
{
	/* the fixtures' zip, and a gzip trace written for the test */
	static char dir[] = "/tmp/bounce-alloc-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char zip[700], gz[700], cmd[2200];
	snprintf(zip, sizeof zip, "%s/tests/fixtures/replay/pair.zip", scen_datadir());
	snprintf(gz, sizeof gz, "%s/t.data.gz", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s/pair.zip' && printf '0 10\\n1 20\\n2 5\\n' | gzip -c >'%s'", zip, dir, gz);
	ck_assert_int_eq(system(cmd), 0);
	replay_dir = dir;
	fail_each(1, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc_fail");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 600);
	tcase_add_test(t, scenario_sites);
	tcase_add_test(t, replay_sites);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	/* in this process: the tracked blocks are its own */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
