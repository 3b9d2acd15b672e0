/* Unit tests of the event queue: (time, seq) order, ties in push order (or
 * by id), growth past the capacity hint, and agreement with a sorted
 * reference. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "base/event_queue.h"
#include "check_loop.h"

START_TEST(test_empty)
{
	struct evq q;
	struct err e = {0};
	ck_assert_int_eq(evq_init(&q, 4, &e), 0);
	uint64_t t;
	uint32_t id;
	ck_assert_int_eq(evq_pop(&q, &t, &id), 0);
	ck_assert_uint_eq(evq_peek_time(&q), UINT64_MAX);
	ck_assert_uint_eq(evq_size(&q), 0);
	evq_free(&q);
}
END_TEST

START_TEST(test_ties_in_push_order)
{
	struct evq q;
	struct err e = {0};
	ck_assert_int_eq(evq_init(&q, 2, &e), 0);
	for (uint32_t i = 0; i < 100; i++)
		ck_assert_int_eq(evq_push(&q, 10 + (i % 3 == 0), i), 0);
	ck_assert_uint_eq(evq_size(&q), 100);
	uint64_t t, last_t = 0;
	uint32_t id, last_id = 0;
	int first = 1;
	while (evq_pop(&q, &t, &id)) {
		if (!first && t == last_t)
			ck_assert_uint_gt(id, last_id);
		ck_assert_uint_ge(t, last_t);
		ck_assert_uint_eq(t, 10 + (id % 3 == 0));
		last_t = t;
		last_id = id;
		first = 0;
	}
	evq_free(&q);
}
END_TEST

/* An event pushed beyond the window (the far heap) and one pushed later
 * for the same cycle, once the window has moved over it (a bucket), still
 * pop in push order; an event pushed before the latest pop comes first. */
START_TEST(test_ties_by_id)
{
	/* The same events pushed in two different orders pop identically:
	 * by time, then id, whatever the push order. */
	static const uint64_t times[] = { 7, 5, 7, 300, 5, 7, 1000, 5 };
	static const uint32_t ids[] = { 9, 4, 2, 6, 8, 5, 1, 3 };
	static const uint32_t want[] = { 3, 4, 8, 2, 5, 9, 6, 1 };
	const int n = (int)(sizeof ids / sizeof ids[0]);
	for (int order = 0; order < 2; order++) {
		struct evq q;
		struct err e = {0};
		ck_assert_int_eq(evq_init(&q, 2, &e), 0);
		evq_order_by_id(&q);
		for (int k = 0; k < n; k++) {
			int i = order ? n - 1 - k : k;
			ck_assert_int_eq(evq_push(&q, times[i], ids[i]), 0);
		}
		uint64_t t;
		uint32_t id;
		for (int k = 0; k < n; k++) {
			ck_assert_int_eq(evq_pop(&q, &t, &id), 1);
			ck_assert_uint_eq(id, want[k]);
		}
		ck_assert_int_eq(evq_pop(&q, &t, &id), 0);
		evq_free(&q);
	}
}
END_TEST

START_TEST(test_near_and_far_ties)
{
	struct evq q;
	struct err e = {0};
	uint64_t t;
	uint32_t id;
	ck_assert_int_eq(evq_init(&q, 4, &e), 0);
	/* a heap of a few events takes all: give it two that stay to the end */
	ck_assert_int_eq(evq_push(&q, 1000000, 100), 0);
	ck_assert_int_eq(evq_push(&q, 1000000, 101), 0);
	ck_assert_int_eq(evq_push(&q, 10, 1), 0);
	ck_assert_int_eq(evq_pop(&q, &t, &id), 1);
	ck_assert_int_eq(evq_push(&q, 10 + EVQ_WINDOW + 40, 2), 0);  /* far */
	ck_assert_int_eq(evq_push(&q, 100, 3), 0);
	ck_assert_uint_eq(evq_peek_time(&q), 100);
	ck_assert_int_eq(evq_pop(&q, &t, &id), 1);
	ck_assert_uint_eq(id, 3);
	ck_assert_int_eq(evq_push(&q, 10 + EVQ_WINDOW + 40, 4), 0);  /* near now */
	ck_assert_int_eq(evq_push(&q, 50, 5), 0);                    /* in the past */
	ck_assert_uint_eq(evq_size(&q), 5);
	ck_assert_uint_eq(evq_peek_time(&q), 50);
	const uint32_t want[] = { 5, 2, 4, 100, 101 };
	for (int k = 0; k < 5; k++) {
		ck_assert_int_eq(evq_pop(&q, &t, &id), 1);
		ck_assert_uint_eq(id, want[k]);
	}
	ck_assert_int_eq(evq_pop(&q, &t, &id), 0);
	ck_assert_uint_eq(evq_peek_time(&q), UINT64_MAX);
	evq_free(&q);
}
END_TEST

/* Interleaved pushes and pops around ~1000 pending events (one per core at
 * 1024 cores), against a sorted array with the same (time, seq) keys. */
START_TEST(test_random_against_reference)
{
	struct evq q;
	struct err e = {0};
	ck_assert_int_eq(evq_init(&q, 8, &e), 0);
	enum { N = 300000, LIVE = 1024 };
	uint64_t (*ref)[2] = calloc(N, sizeof *ref);
	size_t head = 0, nref = 0;
	uint64_t seed = 88172645463325252ull, now = 0, seq = 0, pushed = 0;
	while (pushed < N || head < nref) {
		seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
		if (pushed < N && (nref - head < LIVE || (seed & 1))) {
			uint64_t t = now + (seed >> 8) % 1000;
			loop_assert_int_eq(evq_push(&q, t, (uint32_t)seq), 0);
			size_t k = nref;
			while (k > head && (ref[k - 1][0] > t))
				k--;
			memmove(ref + k + 1, ref + k, (nref - k) * sizeof *ref);
			ref[k][0] = t;
			ref[k][1] = seq++;
			nref++;
			pushed++;
		} else {
			uint64_t pt;
			uint32_t id;
			loop_assert_uint_eq(evq_peek_time(&q), ref[head][0]);
			loop_assert_int_eq(evq_pop(&q, &pt, &id), 1);
			loop_assert_uint_eq(pt, ref[head][0]);
			loop_assert_uint_eq(id, ref[head][1]);
			now = pt;
			head++;
		}
		loop_assert_uint_eq(evq_size(&q), nref - head);
	}
	free(ref);
	evq_free(&q);
}
END_TEST

/* Queues of a few events, where push and pop take their inline paths (an
 * empty queue, a heap of one or two): against a sorted reference, in push
 * order and by id, with many same-cycle ties, growing past the inline
 * sizes and shrinking back. */
START_TEST(test_small_queues_against_reference)
{
	for (int by_id = 0; by_id < 2; by_id++)
		for (unsigned live = 1; live <= 5; live++) {
			struct evq q;
			struct err e = {0};
			ck_assert_int_eq(evq_init(&q, 4, &e), 0);
			if (by_id)
				evq_order_by_id(&q);
			enum { N = 20000 };
			uint64_t ref[8][2];
			unsigned n = 0;
			uint64_t seed = 2463534242ull + live, now = 0, seq = 0;
			for (int step = 0; step < 2 * N; step++) {
				seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
				if (n < live && (n == 0 || (seed & 1))) {
					uint64_t t = now + (seed >> 8) % 3;  /* many ties */
					uint32_t id = by_id ? (uint32_t)((seed >> 20) % 16) : (uint32_t)seq++;
					loop_assert_int_eq(evq_push(&q, t, id), 0);
					unsigned k = n;  /* after every key not above it: push order among ties */
					while (k > 0 && (ref[k - 1][0] > t || (by_id && ref[k - 1][0] == t && ref[k - 1][1] > id)))
						k--;
					memmove(ref + k + 1, ref + k, (n - k) * sizeof *ref);
					ref[k][0] = t;
					ref[k][1] = id;
					n++;
				} else {
					uint64_t pt;
					uint32_t id;
					loop_assert_uint_eq(evq_peek_time(&q), ref[0][0]);
					loop_assert_int_eq(evq_pop(&q, &pt, &id), 1);
					loop_assert_uint_eq(pt, ref[0][0]);
					loop_assert_uint_eq(id, ref[0][1]);
					now = pt;
					memmove(ref, ref + 1, --n * sizeof *ref);
				}
				loop_assert_uint_eq(evq_size(&q), n);
				if (!n) {
					uint64_t pt;
					uint32_t id;
					loop_assert_uint_eq(evq_peek_time(&q), UINT64_MAX);
					loop_assert_int_eq(evq_pop(&q, &pt, &id), 0);
				}
			}
			evq_free(&q);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("event_queue");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_ties_in_push_order);
	tcase_add_test(tc, test_ties_by_id);
	tcase_add_test(tc, test_near_and_far_ties);
	tcase_add_test(tc, test_random_against_reference);
	tcase_add_test(tc, test_small_queues_against_reference);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
