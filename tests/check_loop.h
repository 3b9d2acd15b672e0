/* Assertions for the inner loops of Check tests. Check's ck_assert_* record
 * the place of every assertion that passes (a write to the runner's message
 * file, so that a test that crashes can say how far it got); the randomised
 * and differential tests make millions of comparisons, and those writes had
 * become most of their time, and of the sanitizer build's suite. These
 * compare first and call Check only for a failure, with Check's message. */
#ifndef BOUNCE_TESTS_CHECK_LOOP_H
#define BOUNCE_TESTS_CHECK_LOOP_H

#include <check.h>
#include <stdint.h>

#define loop_assert_msg(expr, ...)                  \
	do {                                        \
		if (__builtin_expect(!(expr), 0))   \
			ck_abort_msg(__VA_ARGS__);  \
	} while (0)

/* Each operand evaluated once, as Check's comparisons do. */
#define loop_assert_cmp_(T, FMT, X, OP, Y)                                                         \
	do {                                                                                       \
		T lx_ = (X), ly_ = (Y);                                                            \
		if (__builtin_expect(!(lx_ OP ly_), 0))                                            \
			ck_abort_msg("Assertion '%s' failed: %s == " FMT ", %s == " FMT,            \
				     #X " " #OP " " #Y, #X, lx_, #Y, ly_);                          \
	} while (0)

#define loop_assert_int_eq(X, Y) loop_assert_cmp_(intmax_t, "%jd", X, ==, Y)
#define loop_assert_uint_eq(X, Y) loop_assert_cmp_(uintmax_t, "%ju", X, ==, Y)
#define loop_assert_uint_gt(X, Y) loop_assert_cmp_(uintmax_t, "%ju", X, >, Y)

#endif
