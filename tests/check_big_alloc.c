/* Unit tests of big_zalloc: zeroed, aligned as it says, every byte
 * writable up to the size asked (ASan checks the overrun in its build), and
 * the sizes it refuses. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include "base/big_alloc.h"

static const size_t sizes[] = {
	1, 64, 4095, 4096, 4097, (256 << 10) - 1, 256 << 10, (3 << 20) + 17,
};

START_TEST(zeroed_aligned_writable)
{
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		uint8_t *p = big_zalloc(1, n);
		ck_assert_ptr_nonnull(p);
		size_t a = big_alignment(n);
		ck_assert(a == 4096 || a == (size_t)2 << 20);
		ck_assert_uint_eq((uintptr_t)p % a, 0);
		size_t nonzero = 0;
		for (size_t i = 0; i < n; i++)
			nonzero += p[i] != 0;
		ck_assert_uint_eq(nonzero, 0);
		for (size_t i = 0; i < n; i++)
			p[i] = (uint8_t)(i * 7 + k);
		ck_assert_uint_eq(p[n - 1], (uint8_t)((n - 1) * 7 + k));
		big_free(p);
	}
	big_free(NULL);
}
END_TEST

START_TEST(huge_from_a_quarter_mib)
{
	size_t small = big_alignment((256 << 10) - 1), big = big_alignment(256 << 10);
	ck_assert_uint_eq(small, 4096);
	/* the sanitizer build uses the plain allocator throughout */
	ck_assert(big == 4096 || big == (size_t)2 << 20);
}
END_TEST

START_TEST(refusals)
{
	ck_assert_ptr_null(big_zalloc(1, 0));
	ck_assert_ptr_null(big_zalloc(1, SIZE_MAX));
	ck_assert_ptr_null(big_zalloc(1, SIZE_MAX / 2));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("big_alloc");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, zeroed_aligned_writable);
	tcase_add_test(tc, huge_from_a_quarter_mib);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
