/* The host topology reader on fake sysfs trees (tests/fixtures/sysfs/):
 * CPU lists, the SMT numbering rule, clusters from caches shared by part of
 * a socket, sockets, cache geometry, and the CPU pair chosen for each
 * distance class; where the store-buffer probe's times step up; and
 * validate's verdict per row with the cause it names. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "host/host_measure.h"
#include "host/host_topology.h"
#include "cli/validate_verdict.h"

static struct host_topo *load(const char *name, int want_ok)
{
	char root[1024];
	const char *top = getenv("top_srcdir");
	snprintf(root, sizeof root, "%s/tests/fixtures/sysfs/%s", top ? top : ".", name);
	struct host_topo *t = malloc(sizeof *t);
	ck_assert_ptr_nonnull(t);
	struct err e = {0};
	int r = host_topo_from_sysfs(root, t, &e);
	if (want_ok)
		ck_assert_msg(r == 0, "%s: %s", name, e.msg);
	else
		ck_assert_int_eq(r, -1);
	return t;
}

START_TEST(cpulists)
{
	int ids[16];
	ck_assert_int_eq(host_parse_cpulist("0-3,8,10-11\n", ids, 16), 7);
	ck_assert_int_eq(ids[0], 0);
	ck_assert_int_eq(ids[3], 3);
	ck_assert_int_eq(ids[4], 8);
	ck_assert_int_eq(ids[6], 11);
	ck_assert_int_eq(host_parse_cpulist("5", ids, 16), 1);
	ck_assert_int_eq(ids[0], 5);
	ck_assert_int_eq(host_parse_cpulist("", ids, 16), 0);
	ck_assert_int_eq(host_parse_cpulist("0-", ids, 16), -1);
	ck_assert_int_eq(host_parse_cpulist("3-1", ids, 16), -1);
	ck_assert_int_eq(host_parse_cpulist("0,x", ids, 16), -1);
	ck_assert_int_eq(host_parse_cpulist("0-20", ids, 16), -1); /* longer than the room */
}
END_TEST

START_TEST(two_sockets_smt_last)
{
	struct host_topo *t = load("2s-smt-last", 1);
	ck_assert_int_eq(t->ncpus, 8);
	ck_assert_int_eq(t->sockets, 2);
	ck_assert_int_eq(t->cores_per_socket, 2);
	ck_assert_int_eq(t->threads_per_core, 2);
	ck_assert_int_eq(t->numbering, TOPO_NUM_SMT_LAST);
	/* The L2 is shared by siblings only and the L3 by the whole socket:
	 * neither makes a cluster. */
	ck_assert_int_eq(t->cluster_level, 0);
	ck_assert_int_eq(t->cores_per_cluster, 2);
	ck_assert_uint_eq(t->l1_size, 48u << 10);
	ck_assert_uint_eq(t->l1_ways, 12);
	ck_assert_uint_eq(t->line, 64);
	ck_assert_int_eq(t->llc_level, 3);
	ck_assert_uint_eq(t->llc_size, 36u << 20);
	ck_assert_int_eq(t->llc_nshare, 4);
	ck_assert_uint_eq(t->l2_size, 2048u << 10);
	ck_assert_str_eq(t->notes, "");
	int b;
	ck_assert_int_eq(host_topo_pair(t, TOPO_SMT, &b), 0);
	ck_assert_int_eq(t->id[b], 4);
	ck_assert_int_eq(host_topo_pair(t, TOPO_SOCKET, &b), 0);
	ck_assert_int_eq(t->id[b], 1);
	ck_assert_int_eq(host_topo_pair(t, TOPO_REMOTE, &b), 0);
	ck_assert_int_eq(t->id[b], 2);
	ck_assert_int_eq(host_topo_pair(t, TOPO_CLUSTER, &b), -1);
	ck_assert_int_eq(host_topo_level(t, 1, 5), TOPO_SMT);
	ck_assert_int_eq(host_topo_level(t, 5, 6), TOPO_REMOTE);
	free(t);
}
END_TEST

START_TEST(ccx_clusters)
{
	struct host_topo *t = load("1s-ccx", 1);
	ck_assert_int_eq(t->ncpus, 4);
	ck_assert_int_eq(t->sockets, 1);
	ck_assert_int_eq(t->cores_per_socket, 4);
	ck_assert_int_eq(t->threads_per_core, 1);
	ck_assert_int_eq(t->cluster_level, 3);
	ck_assert_int_eq(t->cores_per_cluster, 2);
	/* The instruction cache (index1) is skipped: L1 is the data cache. */
	ck_assert_uint_eq(t->l1_size, 32u << 10);
	ck_assert_uint_eq(t->llc_size, 32u << 20);
	ck_assert_int_eq(t->llc_nshare, 2);
	int b;
	ck_assert_int_eq(host_topo_pair(t, TOPO_CLUSTER, &b), 0);
	ck_assert_int_eq(t->id[b], 1);
	ck_assert_int_eq(host_topo_pair(t, TOPO_SOCKET, &b), 0);
	ck_assert_int_eq(t->id[b], 2);
	ck_assert_int_eq(host_topo_pair(t, TOPO_SMT, &b), -1);
	ck_assert_int_eq(host_topo_pair(t, TOPO_REMOTE, &b), -1);
	free(t);
}
END_TEST

START_TEST(smt_adjacent)
{
	struct host_topo *t = load("1s-smt-adjacent", 1);
	ck_assert_int_eq(t->ncpus, 4);
	ck_assert_int_eq(t->cores_per_socket, 2);
	ck_assert_int_eq(t->threads_per_core, 2);
	ck_assert_int_eq(t->numbering, TOPO_NUM_SMT_ADJACENT);
	ck_assert_int_eq(t->cluster_level, 0);
	int b;
	ck_assert_int_eq(host_topo_pair(t, TOPO_SMT, &b), 0);
	ck_assert_int_eq(t->id[b], 1);
	ck_assert_int_eq(host_topo_pair(t, TOPO_SOCKET, &b), 0);
	ck_assert_int_eq(t->id[b], 2);
	free(t);
}
END_TEST

START_TEST(one_bare_cpu)
{
	/* No online file, no caches: the cpuN directories count, and the
	 * geometry is left unknown for calibrate to default and report. */
	struct host_topo *t = load("1cpu-bare", 1);
	ck_assert_int_eq(t->ncpus, 1);
	ck_assert_int_eq(t->sockets, 1);
	ck_assert_int_eq(t->cores_per_socket, 1);
	ck_assert_uint_eq(t->l1_size, 0);
	ck_assert_int_eq(t->llc_level, 0);
	int b;
	ck_assert_int_eq(host_topo_pair(t, TOPO_SOCKET, &b), -1);
	free(t);
}
END_TEST

START_TEST(bad_trees)
{
	free(load("bad-online", 0));
	free(load("no-such-tree", 0));
}
END_TEST

/* The probe's times: `flat` ns up to step k (exclusive), then `high`. */
static void sb_times(double ns[HOST_SB_STEPS], int k, double flat, double high)
{
	for (int i = 0; i < HOST_SB_STEPS; i++)
		ns[i] = i < k ? flat : high;
}

START_TEST(sb_step)
{
	double ns[HOST_SB_STEPS];
	/* this Zen 5 guest's shape: 96 stores fit (k = 11), 104 do not */
	sb_times(ns, 12, 300, 540);
	ck_assert_int_eq(host_sb_step(ns), 12);
	ck_assert_int_eq(HOST_SB_STORES(11), 96);
	ck_assert_int_eq(HOST_SB_STORES(12), 104);
	/* the base is the least of the first four; a rise under 1.5x is not
	 * the step */
	sb_times(ns, 20, 300, 440);
	ck_assert_int_eq(host_sb_step(ns), -1);
	/* one disturbed point is not the step, two in a row are */
	sb_times(ns, 20, 300, 600);
	ns[5] = 900;
	ck_assert_int_eq(host_sb_step(ns), 20);
	ns[6] = 900;
	ck_assert_int_eq(host_sb_step(ns), 5);
	/* the last point alone counts: nothing follows it */
	sb_times(ns, HOST_SB_STEPS - 1, 300, 600);
	ck_assert_int_eq(host_sb_step(ns), HOST_SB_STEPS - 1);
	/* no step at all, and no times */
	sb_times(ns, HOST_SB_STEPS, 300, 300);
	ck_assert_int_eq(host_sb_step(ns), -1);
	sb_times(ns, HOST_SB_STEPS, 0, 0);
	ck_assert_int_eq(host_sb_step(ns), -1);
}
END_TEST

START_TEST(this_host_both_ways)
{
	/* hwloc and the sysfs fallback must agree on the machine running the
	 * tests, whatever it is. */
	struct host_topo *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	struct err e = {0};
	ck_assert_msg(host_topo_detect(a, &e) == 0, "%s", e.msg);
	if (host_topo_from_sysfs("/sys/devices/system/cpu", b, &e) == 0) {
		ck_assert_int_eq(a->ncpus, b->ncpus);
		ck_assert_int_eq(a->sockets, b->sockets);
		ck_assert_int_eq(a->cores_per_socket, b->cores_per_socket);
		ck_assert_int_eq(a->threads_per_core, b->threads_per_core);
		ck_assert_int_eq(a->cores_per_cluster, b->cores_per_cluster);
		/* Some kernels (seen in a VM) export no cpuN/cache directory:
		 * sysfs then knows no cache and says 0, while hwloc still reads
		 * the sizes from CPUID. Where sysfs knows a size, both agree. */
		if (b->l1_size)
			ck_assert_uint_eq(a->l1_size, b->l1_size);
		if (b->llc_size)
			ck_assert_uint_eq(a->llc_size, b->llc_size);
	}
	free(a);
	free(b);
}
END_TEST

/* validate's verdict: the 25% boundary, and a cause only where the run
 * shows one: every native run disturbed, SMT siblings among the row's
 * CPUs, one thread (no coherence to blame), or the same ratio off as at one
 * thread. */
START_TEST(validate_verdicts)
{
	struct host_topo *adj = load("1s-smt-adjacent", 1), *last = load("2s-smt-last", 1);
	ck_assert_int_eq(validate_threads_share_core(adj, 1), 0);
	ck_assert_int_eq(validate_threads_share_core(adj, 2), 1);
	ck_assert_int_eq(validate_threads_share_core(last, 4), 0);
	ck_assert_int_eq(validate_threads_share_core(last, 5), 1);
	free(adj);
	free(last);

	struct validate_row r = {.workload = "contended", .threads = 1, .error = 0.25};
	validate_judge(&r, r.error, 0, 0);
	ck_assert_int_eq(r.within, 1);
	ck_assert_ptr_null(r.cause);
	r.error = 0.25007; /* printed +25.0%: within, as the table says */
	validate_judge(&r, r.error, 0, 0);
	ck_assert_int_eq(r.within, 1);
	r.error = -0.2506; /* printed -25.1% */
	validate_judge(&r, r.error, 0, 0);
	ck_assert_int_eq(r.within, 0);
	r.error = -0.26;
	validate_judge(&r, r.error, 0, 0);
	ck_assert_int_eq(r.within, 0);
	ck_assert_str_eq(r.cause, "one thread, no coherence: the clock frequency or the per-operation cost");
	r.threads = 2;
	r.error = 1.40;
	validate_judge(&r, 0.0, 1, 0);
	ck_assert_str_eq(r.cause, "threads share a physical core (SMT siblings), which the model counts as two cores");
	validate_judge(&r, 1.2, 0, 0); /* 2.40 / 2.20: 9% apart */
	ck_assert_str_eq(r.cause, "as at 1 thread: the clock frequency or the per-operation cost, not the sharing");
	validate_judge(&r, 0.0, 0, 0);
	ck_assert_int_eq(r.within, 0);
	ck_assert_ptr_null(r.cause);
	validate_judge(&r, 0.0, 1, 1); /* disturbed runs explain a miss before anything else */
	ck_assert_str_eq(r.cause, "every native run was disturbed: the host was busy, so the native figure is not this "
				  "machine's");

	char b[40];
	validate_grouped(0, b, sizeof b);
	ck_assert_str_eq(b, "0");
	validate_grouped(999.4, b, sizeof b);
	ck_assert_str_eq(b, "999");
	validate_grouped(1000, b, sizeof b);
	ck_assert_str_eq(b, "1,000");
	validate_grouped(7510000000.0, b, sizeof b);
	ck_assert_str_eq(b, "7,510,000,000");
	validate_grouped(-123456, b, sizeof b);
	ck_assert_str_eq(b, "-123,456");
	validate_rate(3658000000.0, b, sizeof b);
	ck_assert_str_eq(b, "3,658,000,000/s");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("host");
	TCase *tc = tcase_create("sysfs");
	tcase_add_test(tc, cpulists);
	tcase_add_test(tc, two_sockets_smt_last);
	tcase_add_test(tc, ccx_clusters);
	tcase_add_test(tc, smt_adjacent);
	tcase_add_test(tc, one_bare_cpu);
	tcase_add_test(tc, bad_trees);
	tcase_add_test(tc, sb_step);
	tcase_add_test(tc, this_host_both_ways);
	tcase_add_test(tc, validate_verdicts);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
