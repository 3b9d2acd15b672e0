/* Unit tests of the topology: Linux CPU numbering, the closest shared level,
 * message legs that add up to the transfer latencies they come from,
 * every refusal of an impossible topology, and the placement policies. */
#include "config.h"

#include <check.h>
#include <string.h>
#include "base/placement.h"
#include "base/topology.h"

/* 2 sockets x 2 clusters x 2 cores x 2 threads, 1 hop apart. */
static struct topology small(void)
{
	struct topology t;
	memset(&t, 0, sizeof t);
	t.sockets = 2;
	t.cores_per_socket = 4;
	t.cores_per_cluster = 2;
	t.threads_per_core = 2;
	t.numbering = TOPO_NUM_SMT_LAST;
	t.c2c[TOPO_SMT] = 15;
	t.c2c[TOPO_CLUSTER] = 60;
	t.c2c[TOPO_SOCKET] = 90;
	t.hops[0][1] = t.hops[1][0] = 1;
	t.c2c_hop[1] = 300;
	return t;
}

START_TEST(numbering_smt_last)
{
	struct topology t = small();
	struct err e = {0};
	ck_assert_int_eq(topo_validate(&t, &e), 0);
	ck_assert_int_eq(topo_cpus(&t), 16);
	struct topo_place p = topo_place_of(&t, 0);
	ck_assert_int_eq(p.socket, 0); ck_assert_int_eq(p.core, 0); ck_assert_int_eq(p.thread, 0);
	p = topo_place_of(&t, 8);   /* CPU 0's sibling is in the second half */
	ck_assert_int_eq(p.core, 0); ck_assert_int_eq(p.thread, 1);
	p = topo_place_of(&t, 5);
	ck_assert_int_eq(p.socket, 1); ck_assert_int_eq(p.cluster, 2); ck_assert_int_eq(p.core, 5);
	ck_assert_int_eq(p.thread, 0);
}
END_TEST

START_TEST(numbering_adjacent_and_explicit)
{
	struct topology t = small();
	t.numbering = TOPO_NUM_SMT_ADJACENT;
	struct topo_place p = topo_place_of(&t, 1);
	ck_assert_int_eq(p.core, 0); ck_assert_int_eq(p.thread, 1);
	p = topo_place_of(&t, 9);
	ck_assert_int_eq(p.core, 4); ck_assert_int_eq(p.socket, 1); ck_assert_int_eq(p.thread, 1);

	/* Explicit: hardware thread i has CPU id 15 - i. */
	t.numbering = TOPO_NUM_EXPLICIT;
	for (int i = 0; i < 16; i++)
		t.cpu_id[i] = (uint16_t)(15 - i);
	struct err e = {0};
	ck_assert_int_eq(topo_validate(&t, &e), 0);
	p = topo_place_of(&t, 15);
	ck_assert_int_eq(p.core, 0); ck_assert_int_eq(p.thread, 0);
	p = topo_place_of(&t, 0);
	ck_assert_int_eq(p.core, 7); ck_assert_int_eq(p.thread, 1); ck_assert_int_eq(p.socket, 1);
}
END_TEST

START_TEST(levels_and_legs)
{
	struct topology t = small();
	struct topo_place c0 = topo_place_of(&t, 0), sib = topo_place_of(&t, 8),
			  c1 = topo_place_of(&t, 1), c2 = topo_place_of(&t, 2), r = topo_place_of(&t, 4);
	ck_assert_int_eq(topo_level_between(&c0, &c0), TOPO_SELF);
	ck_assert_int_eq(topo_level_between(&c0, &sib), TOPO_SMT);
	ck_assert_int_eq(topo_level_between(&c0, &c1), TOPO_CLUSTER);
	ck_assert_int_eq(topo_level_between(&c0, &c2), TOPO_SOCKET);
	ck_assert_int_eq(topo_level_between(&c0, &r), TOPO_REMOTE);
	/* Inside a socket each leg is half the ping-pong transfer at that level. */
	ck_assert_uint_eq(topo_leg(&t, &c0, &c0), 0);
	ck_assert_uint_eq(topo_leg(&t, &c0, &sib), 8);
	ck_assert_uint_eq(topo_leg(&t, &c0, &c1), 30);
	ck_assert_uint_eq(topo_leg(&t, &c0, &c2), 45);
	/* Across: socket leg + (300 - 90). */
	ck_assert_uint_eq(topo_leg(&t, &c0, &r), 45 + 210);
	ck_assert_uint_eq(topo_transfer(&t, &c0, &r), 300);
	/* A ping-pong transfer across sockets, with the agent beside the
	 * requester, is its request and the forward: the measured figure. */
	struct topo_place agent = {.socket = 0, .cluster = -1, .core = -1, .thread = -1};
	ck_assert_uint_eq(topo_leg(&t, &c0, &agent) + topo_leg(&t, &agent, &r), 300);
	/* The same inside the socket; a cold transfer (with the data leg) is
	 * one and a half times that. */
	ck_assert_uint_eq(topo_leg(&t, &c0, &agent) + topo_leg(&t, &agent, &c2), 90);
	ck_assert_uint_eq(topo_leg(&t, &c0, &agent) + topo_leg(&t, &agent, &c2) + topo_leg(&t, &c2, &c0), 135);
	/* A cluster agent is at cluster distance from its own cores. */
	struct topo_place cl = {.socket = 0, .cluster = 0, .core = -1, .thread = -1};
	ck_assert_uint_eq(topo_leg(&t, &c1, &cl), 30);
	ck_assert_uint_eq(topo_leg(&t, &c2, &cl), 45);
}
END_TEST

/* Eight sockets, some one hop apart and some two: the 2-hop pair's legs. */
/* 8 sockets x 28 cores x 2 threads, no clusters, 1 or 2 hops apart. */
static struct topology eight_sockets(void)
{
	struct topology t;
	memset(&t, 0, sizeof t);
	t.sockets = 8;
	t.cores_per_socket = 28;
	t.cores_per_cluster = 28;
	t.threads_per_core = 2;
	t.c2c[TOPO_SMT] = 15;
	t.c2c[TOPO_SOCKET] = 100;
	t.c2c_hop[1] = 312;
	t.c2c_hop[2] = 707;
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++)
			t.hops[a][b] = (uint8_t)(a == b ? 0 : (a / 4 == b / 4 || a % 4 == b % 4) ? 1 : 2);
	return t;
}

START_TEST(two_hop_socket_pair)
{
	struct topology t = eight_sockets();
	struct err e = {0};
	ck_assert_msg(topo_validate(&t, &e) == 0, "%s", e.msg);
	struct topo_place s0 = topo_place_of(&t, 0), s1 = topo_place_of(&t, 28), s5 = topo_place_of(&t, 5 * 28);
	ck_assert_int_eq(s5.socket, 5);
	ck_assert_uint_eq(topo_transfer(&t, &s0, &s1), 312);
	ck_assert_uint_eq(topo_transfer(&t, &s0, &s5), 707);
	ck_assert_uint_eq(topo_leg(&t, &s0, &s1), 50 + 212);
	ck_assert_uint_eq(topo_leg(&t, &s0, &s5), 50 + 607);
	/* No clusters here: two cores of a socket are a socket apart. */
	struct topo_place s0b = topo_place_of(&t, 3);
	ck_assert_uint_eq(topo_transfer(&t, &s0, &s0b), 100);
	ck_assert_uint_eq(topo_leg(&t, &s0, &s0b), 50);
	struct topo_place sib = topo_place_of(&t, 224);
	ck_assert_int_eq(sib.core, 0);
	ck_assert_int_eq(sib.thread, 1);
	ck_assert_uint_eq(topo_leg(&t, &s0, &sib), 8);
}
END_TEST

/* The fabric's table gives topo_leg's answer between every two places:
 * each CPU and each agent a request may go to (a socket's, a cluster's, a
 * core's), on machines with and without SMT and clusters. */
static void legs_agree(const struct topology *t)
{
	struct topo_legs L;
	topo_legs_init(t, &L);
	int n = topo_cpus(t), np = 0;
	static struct topo_place pl[4 * TOPO_MAX_MAPPED];
	for (int c = 0; c < n; c++) {
		struct topo_place p = topo_place_of(t, c);
		if (p.core % t->cores_per_socket >= 3)  /* three cores a socket show every level */
			continue;
		pl[np++] = p;
		pl[np++] = (struct topo_place){p.socket, -1, -1, -1};
		pl[np++] = (struct topo_place){p.socket, p.cluster, -1, -1};
		pl[np++] = (struct topo_place){p.socket, p.cluster, p.core, -1};
	}
	int differ = 0, first = -1;
	for (int a = 0; a < np; a++)
		for (int b = 0; b < np; b++)
			if (topo_legs_leg(&L, t, &pl[a], &pl[b]) != topo_leg(t, &pl[a], &pl[b]) && !differ++)
				first = a * np + b;
	ck_assert_msg(differ == 0, "%d pairs differ, the first places %d and %d", differ,
		      first / (np ? np : 1), first % (np ? np : 1));
	ck_assert_int_gt(np, 8);
}

START_TEST(leg_table_matches_topo_leg)
{
	struct topology t = small();
	legs_agree(&t);
	t.threads_per_core = 1;     /* no SMT: its c2c is 0 */
	t.c2c[TOPO_SMT] = 0;
	legs_agree(&t);
	t = eight_sockets();
	legs_agree(&t);
}
END_TEST

static void expect_refused(struct topology *t, const char *needle)
{
	struct err e = {0};
	ck_assert_int_eq(topo_validate(t, &e), -1);
	ck_assert_msg(strstr(e.msg, needle), "'%s' lacks '%s'", e.msg, needle);
}

START_TEST(refusals)
{
	struct topology t = small();
	t.cores_per_cluster = 3;
	expect_refused(&t, "cores_per_cluster: 3 does not divide cores_per_socket (4)");
	t = small();
	t.hops[0][1] = 2;
	expect_refused(&t, "must be symmetric");
	t = small();
	t.hops[1][1] = 1;
	expect_refused(&t, "0 hops from itself");
	t = small();
	t.hops[0][1] = t.hops[1][0] = 2;
	expect_refused(&t, "c2c_hops[1]: 2-hop transfers need a latency");
	t = small();
	t.c2c[TOPO_CLUSTER] = 100;
	expect_refused(&t, "c2c.socket: 90 cycles is less than c2c.cluster (100)");
	t = small();
	t.c2c_hop[1] = 50;
	expect_refused(&t, "c2c_hops[0]: 50 cycles is less than the c2c.socket");
	t = small();
	t.numbering = TOPO_NUM_EXPLICIT;
	for (int i = 0; i < 16; i++)
		t.cpu_id[i] = (uint16_t)i;
	t.cpu_id[7] = 3;
	expect_refused(&t, "numbering[7]: CPU id 3 is repeated");
	t.cpu_id[7] = 16;
	expect_refused(&t, "numbering[7]: CPU id 16 is out of range: ids run 0..15, none skipped");
	t = small();
	t.threads_per_core = 1;
	t.c2c[TOPO_SMT] = 0;   /* no SMT: no smt latency needed */
	struct err e = {0};
	ck_assert_int_eq(topo_validate(&t, &e), 0);
}
END_TEST

/* The Linux id (smt-last numbering of t) of the first n CPUs placed by p:
 * what docs/scenario-format.md's placement table lists. */
static void placed_ids(struct topology t, enum placement p, int n, int *ids)
{
	struct err e = {0};
	int phys = t.sockets * t.cores_per_socket;
	ck_assert_int_eq(placement_apply(&t, p, &e), 0);
	for (int i = 0; i < n; i++) {
		struct topo_place pl = topo_place_of(&t, i);
		ids[i] = pl.thread * phys + pl.core;
	}
}

static void expect_ids(const int *got, const int *want, int n, const char *what)
{
	for (int i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "%s: CPU %d is Linux CPU %d, expected %d", what, i, got[i], want[i]);
}

START_TEST(placements_as_documented)
{
	int ids[16];
	/* xeon-8176-8s: 8 sockets x 28 cores x 2 */
	struct topology x = eight_sockets();
	static const int x_compact[16] = {0, 224, 1, 225, 2, 226, 3, 227, 4, 228, 5, 229, 6, 230, 7, 231};
	static const int x_scatter[16] = {0, 28, 56, 84, 112, 140, 168, 196, 1, 29, 57, 85, 113, 141, 169, 197};
	static const int first16[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	placed_ids(x, PLACE_COMPACT, 16, ids);
	expect_ids(ids, x_compact, 16, "xeon compact");
	placed_ids(x, PLACE_SCATTER, 16, ids);
	expect_ids(ids, x_scatter, 16, "xeon scatter");
	placed_ids(x, PLACE_CORES_FIRST, 16, ids);
	expect_ids(ids, first16, 16, "xeon cores-first");
	placed_ids(x, PLACE_NUMBERED, 16, ids);
	expect_ids(ids, first16, 16, "xeon numbered");
	/* epyc-9654: 1 socket x 12 CCXs of 8 cores x 2 */
	struct topology a;
	memset(&a, 0, sizeof a);
	a.sockets = 1;
	a.cores_per_socket = 96;
	a.cores_per_cluster = 8;
	a.threads_per_core = 2;
	static const int a_compact[16] = {0, 96, 1, 97, 2, 98, 3, 99, 4, 100, 5, 101, 6, 102, 7, 103};
	static const int a_scatter[16] = {0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 1, 9, 17, 25};
	placed_ids(a, PLACE_COMPACT, 16, ids);
	expect_ids(ids, a_compact, 16, "epyc compact");
	placed_ids(a, PLACE_SCATTER, 16, ids);
	expect_ids(ids, a_scatter, 16, "epyc scatter");
	placed_ids(a, PLACE_CORES_FIRST, 16, ids);
	expect_ids(ids, first16, 16, "epyc cores-first");
	/* every policy numbers each hardware thread once */
	for (enum placement p = PLACE_COMPACT; p < PLACE_N; p++) {
		struct topology t = small();
		struct err e = {0};
		ck_assert_int_eq(placement_apply(&t, p, &e), 0);
		ck_assert_int_eq(topo_validate(&t, &e), 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("topology");
	tcase_add_test(tc, numbering_smt_last);
	tcase_add_test(tc, numbering_adjacent_and_explicit);
	tcase_add_test(tc, levels_and_legs);
	tcase_add_test(tc, two_hop_socket_pair);
	tcase_add_test(tc, leg_table_matches_topo_leg);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, placements_as_documented);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
