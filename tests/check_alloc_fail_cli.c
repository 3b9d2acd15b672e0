/* Allocation failure through whole commands: run, sweep, merge, list,
 * check, replay and plot are started in this process (cli_main, as the
 * program's entry point starts them) with each of their allocations failing
 * in turn. Every failure must give exit status 3 with a message on stderr,
 * leave every block freed and write none of the command's output files. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli_ui.h"
#include "alloc_wrap.h"

/* The program's entry point owns this flag; these tests send no signal. */
volatile sig_atomic_t cli_interrupted;

static char dir[64];
static char start_dir[4096];

/* One command with allocation fail_at failing (-1: none), its stderr kept
 * in msg and its stdout discarded: the exit status. Only the command's own
 * allocations are counted: Check's assertions allocate too. */
static int command(const char *const *args, long fail_at, char *msg, size_t msg_size)
{
	char *argv[32];
	int argc = 0;
	argv[argc++] = (char *)"bounce";
	for (; *args; args++)
		argv[argc++] = (char *)*args; /* getopt permutes the array, never the strings */
	argv[argc] = NULL;

	char path[600];
	snprintf(path, sizeof path, "%s/stderr", dir);
	fflush(NULL);
	int err = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int out = open("/dev/null", O_WRONLY);
	int saved_err = dup(2), saved_out = dup(1);
	ck_assert(err >= 0 && out >= 0 && saved_err >= 0 && saved_out >= 0);
	dup2(err, 2);
	dup2(out, 1);
	alloc_calls = 0;
	alloc_fail_at = fail_at;
	int rc = cli_main(argc, argv, cli_ui_hooks());
	alloc_fail_at = -1;
	fflush(NULL);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	close(err);
	close(out);

	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(msg, 1, msg_size - 1, f);
	msg[n] = 0;
	fclose(f);
	unlink(path);
	return rc;
}

/* Whether dir holds exactly the names in keep (NULL-terminated). */
static int only_these(const char *const *keep, char *extra, size_t extra_size)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	int ok = 1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		int known = 0;
		for (const char *const *k = keep; *k; k++)
			known |= !strcmp(*k, de->d_name);
		if (!known) {
			snprintf(extra, extra_size, "%s", de->d_name);
			ok = 0;
		}
	}
	closedir(d);
	return ok;
}

static void write_file(const char *name, const char *text)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void remove_file(const char *name)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
}

/* The files every command may see: the scenario, its program, the two
 * shards merge reads, the CSV plot reads. */
static const char *const inputs[] = {"s.json", "inc.s", "p1.csv", "p2.csv", "sweep.csv", NULL};

static char *slurp(const char *name, size_t *len)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s was not written", name);
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (cap - *len < 65536) {
			buf = realloc(buf, cap = 2 * cap + 65536);
			ck_assert_ptr_nonnull(buf);
		}
		size_t got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (!got)
			break;
	}
	fclose(f);
	return buf;
}

#define MAX_OUTS 8

/* args fail at each of their allocations in turn. A failure must either
 * stop the command (exit 3, a message, no output written) or, where the
 * code falls back to a slower way of its own (an index it could not
 * build), change nothing: the same outputs byte for byte and the same
 * stderr as the run where nothing failed. outputs are the files the
 * command writes; state, when not NULL, a file it may keep when it fails
 * (a sweep's journal). */
static void fail_each(const char *const *args, const char *const *outputs, const char *state)
{
	char msg[4096], first_msg[4096], extra[300];
	char *want[MAX_OUTS];
	size_t want_len[MAX_OUTS], n_out = 0;
	/* What a process makes once (the data directory, the compiler's
	 * identity) is made here, and the command is seen to work. */
	int rc = command(args, -1, first_msg, sizeof first_msg);
	ck_assert_msg(rc == 0, "%s: exit %d without a failure: %s", args[0], rc, first_msg);
	for (; outputs[n_out]; n_out++) {
		want[n_out] = slurp(outputs[n_out], &want_len[n_out]);
		remove_file(outputs[n_out]);
	}
	long k = 0, fallbacks = 0;
	for (;; k++) {
		size_t before = alloc_live;
		rc = command(args, k, msg, sizeof msg);
		int failed = alloc_calls > k;
		if (rc == 0) {
			ck_assert_msg(!strcmp(msg, first_msg), "%s: allocation %ld failed and stderr changed: %s",
				      args[0], k, msg);
			for (size_t i = 0; i < n_out; i++) {
				size_t len;
				char *got = slurp(outputs[i], &len);
				ck_assert_msg(len == want_len[i] && !memcmp(got, want[i], len),
					      "%s: allocation %ld failed and %s changed", args[0], k, outputs[i]);
				free(got);
				remove_file(outputs[i]);
			}
			fallbacks += failed;
		} else {
			ck_assert_msg(rc == 3, "%s: allocation %ld failed as exit %d: %s", args[0], k, rc, msg);
			ck_assert_msg(msg[0], "%s: allocation %ld failed without a message", args[0], k);
		}
		ck_assert_msg(alloc_live == before, "%s: allocation %ld: %zu blocks leaked", args[0], k,
			      alloc_live - before);
		if (state)
			remove_file(state);
		ck_assert_msg(only_these(inputs, extra, sizeof extra),
			      "%s: allocation %ld failed and left %s behind: %s", args[0], k, extra, msg);
		if (!failed)
			break;
	}
	for (size_t i = 0; i < n_out; i++)
		free(want[i]);
	/* most sites must be real failures: a test of fallbacks alone tests little */
	ck_assert_msg(k > 20 && fallbacks < k / 2, "%s: %ld allocations, %ld fell back", args[0], k, fallbacks);
}

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/bounce-alloc-cli-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_ptr_nonnull(getcwd(start_dir, sizeof start_dir));
	ck_assert_int_eq(chdir(dir), 0);
	write_file("inc.s", ".equ ITER, 20\n.data\ncounter: .quad 0\n.text\nworker:\n mov ecx, ITER\n"
			    "again:\n lock inc qword ptr [counter]\n dec ecx\n jnz again\n hlt\n");
	write_file("s.json", "{\"name\":\"t\",\"cpu\":\"teaching-4core\",\"program\":[\"inc.s\"],"
			     "\"threads\":[{\"cpus\":\"all\",\"entry\":\"worker\"}],\"stop\":\"halt\",\"report\":[\"counter\"],"
			     "\"variants\":[{\"name\":\"a\",\"defines\":{\"ITER\":20}},"
			     "{\"name\":\"b\",\"defines\":{\"ITER\":5}}],"
			     "\"expect\":[{\"metric\":\"variants.a.symbols.counter.value\",\"equals\":80}]}\n");
	const char *const shard1[] = {"sweep", "-q", "s.json", "--set", "cores=1,2", "--shard", "1/2",
				      "--csv", "p1.csv", "--jobs", "1", NULL};
	const char *const shard2[] = {"sweep", "-q", "s.json", "--set", "cores=1,2", "--shard", "2/2",
				      "--csv", "p2.csv", "--jobs", "1", NULL};
	const char *const whole[] = {"sweep", "-q", "s.json", "--set", "cores=1,2,3", "--csv", "sweep.csv",
				     "--jobs", "1", NULL};
	char msg[4096];
	ck_assert_msg(command(shard1, -1, msg, sizeof msg) == 0, "%s", msg);
	ck_assert_msg(command(shard2, -1, msg, sizeof msg) == 0, "%s", msg);
	ck_assert_msg(command(whole, -1, msg, sizeof msg) == 0, "%s", msg);
}

static void teardown(void)
{
	ck_assert_int_eq(chdir(start_dir), 0);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(run_sites)
{
	const char *const args[] = {"run", "-q", "s.json", "--seed", "3", "--jobs", "1", "--json", "r.json",
				    "--csv", "r.csv", "--junit", "r.xml", "--markdown", "r.md", "--trace", "r.trace",
				    "--c2c", NULL};
	const char *const outputs[] = {"r.json", "r.csv", "r.xml", "r.md", "r.trace", NULL};
	fail_each(args, outputs, NULL);
}
END_TEST

START_TEST(sweep_sites)
{
	const char *const args[] = {"sweep", "-q", "s.json", "--set", "cores=1,2", "--repeat", "2",
				    "--baseline", "b", "--csv", "out.csv", "--jobs", "1", NULL};
	const char *const outputs[] = {"out.csv", NULL};
	fail_each(args, outputs, "out.csv.partial");
}
END_TEST

START_TEST(merge_sites)
{
	const char *const args[] = {"merge", "-q", "p1.csv", "p2.csv", "--csv", "m.csv", NULL};
	const char *const outputs[] = {"m.csv", NULL};
	fail_each(args, outputs, NULL);
}
END_TEST

START_TEST(list_check_sites)
{
	const char *const list[] = {"list", "--json", "l.json", NULL};
	const char *const list_out[] = {"l.json", NULL};
	fail_each(list, list_out, NULL);
	const char *const check[] = {"check", "s.json", "--json", "c.json", NULL};
	const char *const check_out[] = {"c.json", NULL};
	fail_each(check, check_out, NULL);
}
END_TEST

START_TEST(replay_sites)
{
	char zip[700];
	snprintf(zip, sizeof zip, "%s/tests/fixtures/replay/pair.zip", getenv("top_srcdir"));
	const char *const args[] = {"replay", "-q", zip, "--jobs", "1", "--json", "rp.json", "--csv", "rp.csv", NULL};
	const char *const outputs[] = {"rp.json", "rp.csv", NULL};
	fail_each(args, outputs, NULL);
}
END_TEST

START_TEST(plot_sites)
{
	const char *const args[] = {"plot", "sweep.csv", "--metric", "bounces", "-o", "p.png", NULL};
	const char *const outputs[] = {"p.png", NULL};
	fail_each(args, outputs, NULL);
}
END_TEST

int main(void)
{
	if (!getenv("top_srcdir")) {
		fprintf(stderr, "check_alloc_fail_cli: run me through make check (top_srcdir)\n");
		return 77;
	}
	Suite *s = suite_create("alloc_fail_cli");
	TCase *t = tcase_create("commands");
	tcase_set_timeout(t, 600);
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, run_sites);
	tcase_add_test(t, sweep_sites);
	tcase_add_test(t, merge_sites);
	tcase_add_test(t, list_check_sites);
	tcase_add_test(t, replay_sites);
	if (cli_ui_hooks()) /* a build without the UI has no plot to fail */
		tcase_add_test(t, plot_sites);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	/* in this process: the tracked blocks are its own */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
