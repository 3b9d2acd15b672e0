/* The run layer: runner_run's stop reasons (halted, wall clock, a cancel)
 * and their report words, an observer's release, and the work pool's
 * order, lead and cancel. */
#include "config.h"

#include <check.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/scenario.h"
#include "run/runner.h"
#include "run/work_pool.h"

static struct scenario scen;

static void load(struct runner *r)
{
	struct err e = {0};
	struct scen_overrides ov = {.cores = 2, .cores_arg = "--cores 2"};
	ck_assert_msg(scen_load_default(&scen, &e) == 0, "%s", e.msg);
	ck_assert_msg(runner_prepare(r, &scen, 0, &ov, 0, &e) == 0, "%s", e.msg);
}

static void unload(struct runner *r)
{
	runner_free(r);
	scen_free(&scen);
}

static void count_slice(void *ctx, const struct runner *r, double elapsed)
{
	(void)r;
	(void)elapsed;
	++*(int *)ctx;
}

START_TEST(test_stop_words)
{
	ck_assert_str_eq(runner_stop_name(RUN_HALTED), "halted");
	ck_assert_str_eq(runner_stop_name(RUN_CYCLE_LIMIT), "limit");
	ck_assert_str_eq(runner_stop_name(RUN_WALL_CLOCK), "wall-clock");
	ck_assert_str_eq(runner_stop_name(RUN_INTERRUPTED), "interrupted");
	ck_assert_str_eq(runner_stop_name(RUN_FAULT), "fault");
}
END_TEST

START_TEST(test_halted)
{
	struct runner r;
	struct err e = {0};
	int slices = 0;
	struct runner_limits l = {.slice = count_slice, .ctx = &slices};
	load(&r);
	ck_assert_int_eq(r.stop, RUN_RUNNING);
	ck_assert_int_eq(runner_run(&r, &l, &e), RUN_HALTED);
	ck_assert_int_eq(r.stop, RUN_HALTED);
	ck_assert_int_ge(slices, 1);
	/* a finished run stays finished */
	ck_assert_int_eq(runner_run_until(&r, UINT64_MAX, &e), RUN_HALTED);
	unload(&r);
}
END_TEST

/* A deadline already passed stops the run after its first slice, short of
 * the halt: the default scenario takes millions of cycles. */
START_TEST(test_wall_clock)
{
	struct runner r;
	struct err e = {0};
	struct runner_limits l = {.deadline = runner_clock() - 1};
	load(&r);
	ck_assert_int_eq(runner_run(&r, &l, &e), RUN_WALL_CLOCK);
	ck_assert_uint_lt(sim_cycles(r.sim), 1000000);
	unload(&r);
}
END_TEST

/* A core with nothing else to wait for yields at each slice's end too: an
 * endless loop on one core (no memory traffic, so no other event bounds
 * its run-ahead) stops at a deadline after the first slice, where it had
 * run to its cycle limit in one event. */
START_TEST(test_lone_core_slices)
{
	struct runner r;
	struct err e = {0};
	char dir[] = "/tmp/check_run.XXXXXX", path[4096];
	struct scen_overrides ov = {0};
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/loop.s", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(".text\nworker:\n    mov rcx, 0\nl:  dec rcx\n    jnz l\n    hlt\n", f);
	fclose(f);
	static const char text[] =
		"{\"name\": \"loop\", \"cpu\": \"x460-8way\", \"cores\": 1, \"program\": [\"loop.s\"],"
		" \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\"}], \"stop\": {\"cycles\": 200000000}}";
	ck_assert_msg(scen_load_string("loop.json", dir, text, &scen, &e) == 0, "%s", e.msg);
	ck_assert_msg(runner_prepare(&r, &scen, 0, &ov, 0, &e) == 0, "%s", e.msg);
	struct runner_limits l = {.deadline = runner_clock() - 1};
	ck_assert_int_eq(runner_run(&r, &l, &e), RUN_WALL_CLOCK);
	ck_assert_uint_lt(sim_cycles(r.sim), 1000000);
	unload(&r);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_cancel)
{
	struct runner r;
	struct err e = {0};
	atomic_int cancel = 1;
	struct runner_limits l = {.cancel = &cancel};
	load(&r);
	ck_assert_int_eq(runner_run(&r, &l, &e), RUN_INTERRUPTED);
	ck_assert_uint_lt(sim_cycles(r.sim), 1000000);
	unload(&r);
}
END_TEST

/* An observer that asks to go after its first call. */
struct leaving {
	struct runner *r;
	int calls;
};

static void leave_after_one(void *ctx, int core, uint64_t cycle, enum core_activity act)
{
	struct leaving *l = ctx;
	(void)core;
	(void)cycle;
	(void)act;
	if (l->calls++ == 0)
		runner_release_observer(l->r);
}

/* A released observer goes when the machine's call returns, not inside
 * it: the call that asked goes on reporting to it, later ones see nothing.
 * While one watches, no waiting core is parked; once it is gone they are
 * (bench/locks' test-and-set lock at 8 cores, where 7 wait at a time). */
static int run_watched(struct runner *r, struct leaving *l, int *calls_in_first)
{
	struct err e = {0};
	struct sim_observer o = {.activity = leave_after_one, .ctx = l};
	int parked = 0;
	runner_set_observer(r, &o);
	for (uint64_t t = 2000; t <= 40000; t += 2000) {
		ck_assert_int_eq(runner_run_until(r, t, &e), RUN_RUNNING);
		if (t == 2000)
			*calls_in_first = l->calls;
		parked |= sim_parked_cores(r->sim) > 0;
	}
	return parked;
}

START_TEST(test_observer_release)
{
	struct runner r;
	struct err e = {0};
	char path[4096];
	const char *top = getenv("top_srcdir");
	struct scen_overrides ov = {.cores = 8, .cores_arg = "--cores 8"};
	int first;
	ck_assert_msg(top != NULL, "run me through make check (top_srcdir)");
	snprintf(path, sizeof path, "%s/bench/locks/locks.json", top);
	ck_assert_msg(scen_load(path, &scen, &e) == 0, "%s", e.msg);
	int v = scen_find_variant(&scen, "test_and_set");
	ck_assert_int_ge(v, 0);

	ck_assert_msg(runner_prepare(&r, &scen, (size_t)v, &ov, 0, &e) == 0, "%s", e.msg);
	struct leaving l = {.r = &r};
	ck_assert_int_eq(run_watched(&r, &l, &first), 1);
	ck_assert_int_gt(first, 1);
	ck_assert_int_eq(l.calls, first);
	ck_assert_ptr_null(r.user_obs.activity);
	runner_free(&r);

	/* Past its first call, it never asks to go: nothing is parked. */
	ck_assert_msg(runner_prepare(&r, &scen, (size_t)v, &ov, 0, &e) == 0, "%s", e.msg);
	struct leaving kept = {.r = &r, .calls = 1};
	ck_assert_int_eq(run_watched(&r, &kept, &first), 0);
	ck_assert_int_gt(kept.calls, first);
	unload(&r);
}
END_TEST

#define JOBS 40

struct jobs {
	atomic_int started[JOBS];
	atomic_int ran;
	int result[JOBS];
};

static void square(void *ctx, size_t k, const atomic_int *cancelled)
{
	struct jobs *j = ctx;
	(void)cancelled;
	atomic_store(&j->started[k], 1);
	atomic_fetch_add(&j->ran, 1);
	j->result[k] = (int)(k * k);
}

START_TEST(test_pool_in_order)
{
	static struct jobs j;
	memset(&j, 0, sizeof j);
	struct err e = {0};
	struct work_pool *p = work_pool_start(JOBS, 3, 4, square, &j, &e);
	ck_assert_ptr_nonnull(p);
	for (size_t k = 0; k < JOBS; k++) {
		ck_assert_int_eq(work_pool_wait(p, k, NULL, NULL), 0);
		ck_assert_int_eq(j.result[k], (int)(k * k));
		/* at most 4 started beyond the last released: k-1 */
		for (size_t m = k + 4; m < JOBS; m++)
			ck_assert_int_eq(atomic_load(&j.started[m]), 0);
		work_pool_release(p, k);
	}
	work_pool_free(p);
	ck_assert_int_eq(atomic_load(&j.ran), JOBS);
}
END_TEST

/* Nothing released: the workers start exactly `ahead` jobs, and after a
 * cancel no more. */
START_TEST(test_pool_lead_and_cancel)
{
	static struct jobs j;
	memset(&j, 0, sizeof j);
	struct err e = {0};
	struct work_pool *p = work_pool_start(JOBS, 3, 2, square, &j, &e);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(work_pool_wait(p, 1, NULL, NULL), 0);
	work_pool_cancel(p);
	work_pool_free(p);
	ck_assert_int_eq(atomic_load(&j.ran), 2);
}
END_TEST

/* After a cancel, waiting for a job that never started returns -1 at once
 * (it waited for ever), threaded or inline; one that ran is still done. */
START_TEST(test_pool_wait_after_cancel)
{
	for (int workers = 1; workers <= 3; workers += 2) {
		static struct jobs j;
		memset(&j, 0, sizeof j);
		struct err e = {0};
		struct work_pool *p = work_pool_start(JOBS, workers, 2, square, &j, &e);
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(work_pool_wait(p, 0, NULL, NULL), 0);
		work_pool_cancel(p);
		ck_assert_int_eq(work_pool_wait(p, 0, NULL, NULL), 0);
		ck_assert_int_eq(work_pool_wait(p, JOBS - 1, NULL, NULL), -1);
		ck_assert_int_eq(atomic_load(&j.started[JOBS - 1]), 0);
		work_pool_free(p);
	}
}
END_TEST

/* One worker: each job runs on the caller's thread when waited for. */
START_TEST(test_pool_inline)
{
	static struct jobs j;
	memset(&j, 0, sizeof j);
	struct err e = {0};
	struct work_pool *p = work_pool_start(JOBS, 1, 2, square, &j, &e);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(atomic_load(&j.ran), 0);
	ck_assert_int_eq(work_pool_wait(p, 0, NULL, NULL), 0);
	ck_assert_int_eq(atomic_load(&j.ran), 1);
	ck_assert_int_eq(work_pool_wait(p, 1, NULL, NULL), 0);
	ck_assert_int_eq(j.result[1], 1);
	ck_assert_int_eq(atomic_load(&j.ran), 2);
	work_pool_free(p);
	ck_assert_int_eq(atomic_load(&j.ran), 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run");
	TCase *t = tcase_create("runner");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_stop_words);
	tcase_add_test(t, test_halted);
	tcase_add_test(t, test_wall_clock);
	tcase_add_test(t, test_cancel);
	tcase_add_test(t, test_lone_core_slices);
	tcase_add_test(t, test_observer_release);
	suite_add_tcase(s, t);
	TCase *w = tcase_create("work_pool");
	tcase_add_test(w, test_pool_in_order);
	tcase_add_test(w, test_pool_lead_and_cancel);
	tcase_add_test(w, test_pool_wait_after_cancel);
	tcase_add_test(w, test_pool_inline);
	suite_add_tcase(s, w);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
