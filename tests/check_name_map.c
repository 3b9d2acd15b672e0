/* Unit tests of the name map: names found by their bytes (not their
 * pointers, nor a longer name's prefix), the first value kept when a name
 * comes again, growth that keeps every name, and many names (the map
 * stands behind lists of a few hundred thousand). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/name_map.h"

START_TEST(empty_finds_nothing)
{
	struct name_map m = {0};
	size_t v = 7;
	ck_assert_int_eq(name_map_find(&m, "x", 1, &v), 0);
	ck_assert_int_eq(name_map_find(&m, "", 0, &v), 0);
	ck_assert_uint_eq(v, 7);
	name_map_free(&m);
	name_map_free(&m);
}
END_TEST

START_TEST(bytes_not_pointers)
{
	struct name_map m = {0};
	char a[] = "FBC_BATCH", b[] = "FBC_BATCH_MAX";
	size_t v = 1;
	ck_assert_int_eq(name_map_add(&m, a, strlen(a), &v), 1);
	v = 2;
	ck_assert_int_eq(name_map_add(&m, b, strlen(b), &v), 1);
	/* a token is not NUL-terminated: its length decides */
	ck_assert_int_eq(name_map_find(&m, "FBC_BATCH_MAX, 4", 9, &v), 1);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(name_map_find(&m, "FBC_BATCH_MAX, 4", 13, &v), 1);
	ck_assert_uint_eq(v, 2);
	ck_assert_int_eq(name_map_find(&m, "FBC_BATC", 8, &v), 0);
	ck_assert_int_eq(name_map_find(&m, "", 0, &v), 0);
	v = 9;
	ck_assert_int_eq(name_map_add(&m, "", 0, &v), 1);
	ck_assert_int_eq(name_map_find(&m, "x", 0, &v), 1);
	ck_assert_uint_eq(v, 9);
	name_map_free(&m);
}
END_TEST

START_TEST(first_value_stays)
{
	struct name_map m = {0};
	size_t v = 10;
	ck_assert_int_eq(name_map_add(&m, "D0", 2, &v), 1);
	v = 20;
	ck_assert_int_eq(name_map_add(&m, "D0", 2, &v), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_uint_eq(m.n, 1);
	ck_assert_int_eq(name_map_find(&m, "D0", 2, &v), 1);
	ck_assert_uint_eq(v, 10);
	name_map_free(&m);
}
END_TEST

START_TEST(many_names_grow)
{
	enum { N = 300000 };
	struct name_map m = {0};
	char (*names)[16] = malloc(N * sizeof *names);
	ck_assert_ptr_nonnull(names);
	ck_assert_int_eq(name_map_reserve(&m, 10), 0);
	/* counted, then asserted once: an assertion per name is slow in Check */
	size_t wrong = 0;
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "D%zu", i);
		size_t v = i;
		wrong += name_map_add(&m, names[i], strlen(names[i]), &v) != 1;
	}
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(m.n, N);
	ck_assert_uint_le(2 * m.n, m.cap);
	for (size_t i = 0; i < N; i++) {
		size_t v = SIZE_MAX;
		wrong += name_map_find(&m, names[i], strlen(names[i]), &v) != 1 || v != i;
	}
	ck_assert_uint_eq(wrong, 0);
	size_t v;
	ck_assert_int_eq(name_map_find(&m, "D300000", 7, &v), 0);
	ck_assert_int_eq(name_map_find(&m, "d0", 2, &v), 0);
	/* reserving less than it holds changes nothing */
	size_t cap = m.cap;
	ck_assert_int_eq(name_map_reserve(&m, 5), 0);
	ck_assert_uint_eq(m.cap, cap);
	name_map_free(&m);
	ck_assert_ptr_null(m.slots);
	ck_assert_uint_eq(m.n, 0);
	free(names);
}
END_TEST

START_TEST(reserve_refuses_the_impossible)
{
	struct name_map m = {0};
	ck_assert_int_eq(name_map_reserve(&m, SIZE_MAX / 2), -1);
	ck_assert_ptr_null(m.slots);
	ck_assert_uint_eq(m.cap, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("name_map");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, empty_finds_nothing);
	tcase_add_test(tc, bytes_not_pointers);
	tcase_add_test(tc, first_value_stays);
	tcase_add_test(tc, many_names_grow);
	tcase_add_test(tc, reserve_refuses_the_impossible);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
