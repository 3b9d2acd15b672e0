/* ALWAYS and NEVER (src/base/invariant.h): evaluated exactly once in every
 * build; in a checked build a broken one prints file:line and the
 * condition and exits with status 3, in a release build it is only a
 * value and the caller's coping path runs. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/invariant.h"

/* Runs fn in a child with stderr into a pipe: its exit status (-1 when a
 * signal ended it) and what it wrote. */
static int in_child(void (*fn)(void), char *out, size_t n)
{
	int fd[2];
	ck_assert_int_eq(pipe(fd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], STDERR_FILENO);
		fn();
		_exit(0);
	}
	close(fd[1]);
	size_t len = 0;
	ssize_t r;
	while (len + 1 < n && (r = read(fd[0], out + len, n - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	close(fd[0]);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void fail_directly(void)
{
	invariant_failed("f.c", 12, "NEVER(x)");
}

static int two = 2;

static void break_never(void)
{
	if (NEVER(1 + 1 == two))
		_exit(5); /* the coping path: a release build comes here */
}

START_TEST(test_failure_message)
{
	char out[256];
	ck_assert_int_eq(in_child(fail_directly, out, sizeof out), 3);
	ck_assert_str_eq(out, "f.c:12: internal error: NEVER(x)\n");
}
END_TEST

START_TEST(test_evaluated_once)
{
	int n = 0;
	ck_assert(ALWAYS(++n == 1));
	ck_assert_int_eq(n, 1);
	ck_assert(!NEVER(++n == 3));
	ck_assert_int_eq(n, 2);
}
END_TEST

START_TEST(test_broken_invariant)
{
	char out[256];
	int st = in_child(break_never, out, sizeof out);
#ifdef BOUNCE_CHECKED
	ck_assert_int_eq(st, 3);
	ck_assert_msg(strstr(out, "check_invariant.c:") && strstr(out, ": internal error: NEVER(1 + 1 == two)\n"),
		      "%s", out);
#else
	ck_assert_int_eq(st, 5);
	ck_assert_str_eq(out, "");
#endif
}
END_TEST

int main(void)
{
	Suite *s = suite_create("invariant");
	TCase *tc = tcase_create("invariant");
	tcase_add_test(tc, test_failure_message);
	tcase_add_test(tc, test_evaluated_once);
	tcase_add_test(tc, test_broken_invariant);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
