/* How many locked RMWs an owner completes before a waiting snoop takes the
 * line, and how long each hand-off takes, on cpus/xeon-8176-8s.json at each
 * distance its topology has: derived below from the lock's timing
 * parameters (lat_lock_drain, lat_lock_snoop), the way a holder's data
 * takes (c2c_via_agent) and the legs, and checked exactly against the
 * engine. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "asm/asm.h"
#include "cpu/sim.h"
#include "load/cpu_json.h"
#include "mem/memsys.h"

/* Two threads add to one counter with lock xadd, NR_OPS times each. The
 * counter sits at the start of a page, so its line's home is socket 0
 * (lines are homed round robin over the sockets, and a page is a multiple
 * of eight lines): the first thread's socket. */
static const char src[] =
	".equ NR_OPS, 1\n.data\n.align 4096\ncounter: .quad 0\n.text\n"
	"main:\nmov rcx, NR_OPS\n"
	"l: mov rax, 1\nlock xadd qword ptr [counter], rax\ndec rcx\njnz l\nhlt\n";

/* The same with a load and a lock cmpxchg retried with the value it
 * returns (travisdowns/concurrency-hierarchy-bench's `cas add`, as
 * docs/validation/client-atomic.s has it). */
static const char src_cas[] =
	".equ NR_OPS, 1\n.data\n.align 4096\ncounter: .quad 0\n.text\n"
	"main:\nmov rcx, NR_OPS\n"
	"l: mov rax, qword ptr [counter]\n"
	"r: lea rdx, [rax + 1]\nlock cmpxchg qword ptr [counter], rdx\njnz r\n"
	"dec rcx\njnz l\nhlt\n";

struct outcome {
	uint64_t cycles, bounces, locked_ops, c2c_transfers;
};

static const char *datadir(void)
{
	const char *d = getenv("top_srcdir");
	if (!d || !*d)
		d = getenv("BOUNCE_DATADIR");
	return d && *d ? d : BOUNCE_SRCDIR;
}

/* Threads on CPU 0 and CPU peer of the xeon model, with the lock's
 * parameters drain and snoop, the data's way via (c2c_via_agent) and one
 * simple instruction a cycle (so the loop's mov, dec and jnz take a cycle
 * each). */
static struct outcome run_text(const char *text, const int *cpus, int n, uint32_t drain, uint32_t snoop,
			       uint32_t via, int ops)
{
	char path[1024], msg[2048];
	struct err e;
	err_clear(&e);
	struct cpu_model m;
	snprintf(path, sizeof path, "%s/cpus/xeon-8176-8s.json", datadir());
	ck_assert_msg(cpu_json_load(path, &m, &e) == 0, "%s", path);
	/* every socket simulated, so that the counter's home is socket 0 */
	m.cores = 226;
	m.issue_width = 1;
	m.lat_lock_drain = drain;
	m.lat_lock_snoop = snoop;
	m.c2c_via_agent = via;
	ck_assert_int_eq(cpu_model_validate(&m, &e), 0);

	struct asm_define d = { .name = "NR_OPS", .value = ops };
	struct asm_input in = { .nr_cpus = m.cores, .line_size = 64, .defines = &d, .n_defines = 1 };
	struct program p;
	int rc = asm_assemble_string("t.s", text, &in, &p, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(rc == 0, "assembly failed: %s", msg);
	const struct symbol *ent = program_symbol(&p, "main");
	ck_assert_ptr_nonnull(ent);
	struct sim_thread th[4];
	ck_assert_int_le(n, 4);
	for (int k = 0; k < n; k++)
		th[k] = (struct sim_thread){ .cpu = cpus[k], .entry = (uint32_t)ent->value };
	struct sim_config cfg = { .cpu = m, .prog = &p, .threads = th, .n_threads = n,
				  .stop_cycles = 100000000ull, .seed = 1, .check = 1 };
	struct sim *s = sim_create(&cfg, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(s != NULL, "sim_create failed: %s", msg);
	enum sim_status st = sim_run(s, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(st == SIM_HALTED, "status %s: %s", sim_status_name(st), msg);
	ck_assert_uint_eq(sim_peek(s, (uint64_t)program_symbol(&p, "counter")->value, 8),
			  (uint64_t)n * (uint64_t)ops);
	struct ms_stats ms;
	ms_total_stats(sim_memsys(s), &ms);
	struct core_stats cs;
	sim_total_core_stats(s, &cs);
	struct outcome o = { sim_cycles(s), ms.bounces, cs.locked_ops, ms.c2c_transfers };
	sim_destroy(s);
	program_free(&p);
	return o;
}

static struct outcome run_cpus(const int *cpus, int n, uint32_t drain, uint32_t snoop, uint32_t via, int ops)
{
	return run_text(src, cpus, n, drain, snoop, via, ops);
}

static struct outcome run_pair(int peer, uint32_t drain, uint32_t snoop, uint32_t via, int ops)
{
	const int cpus[2] = { 0, peer };
	return run_cpus(cpus, 2, drain, snoop, via, ops);
}

/* The hand-offs, derived. Legs on this model: 43 cycles inside a socket
 * (c2c 85 / 2, rounded up), 43 + (298 - 85) = 256 to a socket one hop
 * away, 43 + (692 - 85) = 650 two hops away, 1 between SMT siblings
 * (c2c 1). A locked RMW costs lat_l1_hit + lat_locked_op = 15 cycles and
 * holds the line for the first 15 - D of them (D = lat_lock_drain); the
 * loop's dec, jnz and mov add 3, so an owner starts a lock every P = 18
 * cycles from its fill F: at F, F + P, ...
 *
 * The line's agent is the socket (same socket), home socket 0 (A's, across
 * sockets) or the core (SMT). A request from B to A's line goes B to the
 * agent and is forwarded to A: V = leg(B, agent) + leg(agent, A), 86, 299,
 * 693 and 2 cycles. The data goes the same way (c2c_via_agent 1, as
 * shipped: T = V) or straight from B to A (0: T = leg(B, A), 43, 256, 650
 * and 1).
 *
 * An owner whose fill came at F starts k locks before the line leaves at
 * X = F + R; its next lock, at Q = F + kP, misses, and its request's snoop
 * reaches the next owner at Q + V, while the data reaches it at X + T.
 * The next owner's window from its fill to the snoop is so W' = kP + V -
 * T - R (at least 1: a forwarded snoop is handled the cycle after the fill
 * at the earliest). It starts k' = ceil(W' / P) locks. If the snoop comes
 * during lock k' (before (k'-1)P + 15 - D) it waits, and is due S =
 * lat_lock_snoop after that lock ends, at E = (k'-1)P + 15 - D + S. If the
 * owner is then in a lock it began in that grace (S > D + 3), the line
 * leaves when that lock ends and k' counts it; else it leaves at E, R' =
 * E. A snoop that arrives outside a lock leaves on arrival, R' = W'. A
 * hand-off takes R + T from one fill to the next.
 * With the data through the agent V - T is 0, so W' = kP - R is at most
 * the loop's 3 cycles plus the drain: one operation per ownership at every
 * distance unless D + 3 - S reaches a whole lock period, or the grace S
 * outlasts the loop's gap and the owner adds the locks begun in it (2 at
 * S = 4, 4 at S = 40, at every distance). */
struct expect {
	int peer;
	uint32_t direct;  /* leg(B, A) */
	uint32_t via;     /* leg(B, agent) + leg(agent, A) */
};

static const struct expect distances[] = {
	{ 1, 43, 86 },      /* another core of socket 0 */
	{ 28, 256, 299 },   /* socket 1, one UPI hop */
	{ 56, 650, 693 },   /* socket 2, two hops */
	{ 224, 1, 2 },      /* CPU 0's SMT sibling */
};

struct lock_params {
	uint32_t drain, snoop, via_agent;
};

static const struct lock_params params[] = {
	{ 0, 0, 1 },   /* the shipped model: the snoop is handled as the lock ends */
	{ 4, 0, 1 },   /* a 4-cycle drain in which the line is free */
	{ 8, 0, 1 },
	{ 4, 2, 1 },
	{ 0, 1, 1 },
	{ 0, 0, 0 },   /* the data straight to the requester */
	{ 4, 0, 0 },
	{ 8, 0, 0 },
	{ 4, 2, 0 },
	{ 0, 1, 0 },
	/* a grace longer than the loop's gap: the owner keeps the line for
	 * the locks it begins in it, and no longer */
	{ 0, 4, 1 },
	{ 0, 4, 0 },
	{ 0, 40, 1 },
	{ 4, 40, 0 },
};

#define P 18
#define OP 15

/* Ops per ownership, and the cycles of two hand-offs of the steady state
 * (the recurrence above, run from the first owner's first lock until it
 * has settled; it settles to a cycle of one or two steps here). */
static void derive(const struct expect *x, const struct lock_params *lp, uint32_t *k, uint64_t *two)
{
	uint32_t kk = 1, r = OP - lp->drain + lp->snoop;
	uint32_t t = lp->via_agent ? x->via : x->direct;
	for (int settle = 0; settle < 64; settle++) {
		int64_t w = (int64_t)kk * P + x->via - t - r;
		if (w < 1)
			w = 1;
		kk = (uint32_t)((w + P - 1) / P);
		uint32_t lock_end = (kk - 1) * P + OP - lp->drain;
		if (w < lock_end) {
			uint32_t due = lock_end + lp->snoop, m = due / P;
			/* lock m (begun at mP, held until mP + 15 - D) in
			 * progress when the snoop is due: it keeps the line; a
			 * lock begun at the due cycle comes after the snoop */
			if (due > m * P && due < m * P + OP - lp->drain) {
				kk = m + 1;
				r = m * P + OP - lp->drain;
			} else {
				kk = (due + P - 1) / P;
				r = due;
			}
		} else {
			r = (uint32_t)w;
		}
		if (settle >= 62) /* the last two steps: one whole cycle of the steady state */
			*two += r + t;
	}
	*k = kk;
}

/* Runs of 300 and 900 operations per thread: the extra 1200 operations
 * are whole ownerships of the steady state (1200 is a multiple of every k
 * here), so the start (the first miss, from memory) and the end cancel. */
START_TEST(test_ops_per_ownership_by_distance)
{
	const struct expect *x = &distances[_i / (int)(sizeof params / sizeof params[0])];
	const struct lock_params *lp = &params[_i % (int)(sizeof params / sizeof params[0])];
	uint32_t k;
	uint64_t two = 0;
	derive(x, lp, &k, &two);
	struct outcome a = run_pair(x->peer, lp->drain, lp->snoop, lp->via_agent, 300);
	struct outcome b = run_pair(x->peer, lp->drain, lp->snoop, lp->via_agent, 900);
	ck_assert_uint_eq(b.locked_ops - a.locked_ops, 1200);
	ck_assert_uint_eq(1200 % k, 0);
	ck_assert_msg(b.bounces - a.bounces == 1200 / k,
		      "CPUs 0 and %d, drain %u snoop %u via %u: %llu more bounces, expected %u (%u ops per ownership)",
		      x->peer, lp->drain, lp->snoop, lp->via_agent, (unsigned long long)(b.bounces - a.bounces), 1200 / k, k);
	ck_assert_uint_eq(1200 / k % 2, 0);
	ck_assert_msg(b.cycles - a.cycles == 1200 / k / 2 * two,
		      "CPUs 0 and %d, drain %u snoop %u via %u: %llu more cycles, expected %llu",
		      x->peer, lp->drain, lp->snoop, lp->via_agent, (unsigned long long)(b.cycles - a.cycles),
		      (unsigned long long)(1200 / k / 2 * two));
}
END_TEST

/* Queued requesters on two cores of socket 0, two SMT threads each (CPUs
 * 0 and 224, 1 and 225). A core's two threads share its L1: when the line
 * comes to thread X, its sibling X' has missed meanwhile and joins that
 * fill, so it goes next, ahead of the other core's requests forwarded to X.
 * A visit of the line to a core: X fills at F and locks (15 cycles); the
 * snoop of X', waiting, takes the line as the lock ends; its data takes
 * T_smt; X' locks; the other core's snoop, waiting for X', takes the line
 * then and its data takes T_socket. Two operations a visit, in 2 x 15 +
 * T_smt + T_socket cycles: through the agent 2 + 86, straight 1 + 43.
 * Every operation moves the line (to the sibling or to the other core). */
START_TEST(test_siblings_share_a_visit)
{
	static const int cpus[4] = { 0, 224, 1, 225 };
	static const uint32_t smt[2] = { 1, 2 }, socket[2] = { 43, 86 };
	uint32_t via = (uint32_t)_i;
	struct outcome a = run_cpus(cpus, 4, 0, 0, via, 300);
	struct outcome b = run_cpus(cpus, 4, 0, 0, via, 900);
	ck_assert_uint_eq(b.locked_ops - a.locked_ops, 2400);
	ck_assert_uint_eq(b.bounces - a.bounces, 2400);
	ck_assert_msg(b.cycles - a.cycles == 1200 * (2 * OP + smt[via] + socket[via]),
		      "via %u: %llu more cycles, expected %u", via, (unsigned long long)(b.cycles - a.cycles),
		      1200 * (2 * OP + smt[via] + socket[via]));
}
END_TEST

/* The CAS loop on CPUs 0 and 1 (one socket: the agent is its LLC, every
 * leg L = 43). Each thread reads the line (a GETS: the owner's M becomes
 * S) and its lock cmpxchg then needs it exclusive. In the steady state
 * the two take turns so: A's successful lock ends at E, and B's request,
 * waiting at A, takes the line (data back through the agent, 2L). B's
 * lock cmpxchg fails (15 cycles: A changed the value since B's load) and
 * still holds the line exclusive, as a failed lock cmpxchg writes its
 * destination back (Intel SDM, CMPXCHG). A's read, waiting at B, takes
 * it as B's lock ends; the data reaches the agent a leg later, at
 * E + 3L + 15. B's retry (jnz, lea: 2 cycles) finds its copy S and sends
 * an UPGRADE, at the agent at E + 3L + 17. The agent learnt the read's
 * outcome when B's data passed it (c2c_via_agent: no unblock to wait
 * for), so it serves the UPGRADE on arrival: its invalidation reaches A
 * a leg later, just after A's fill (E + 4L + 15) and load, A's ack and
 * the grant take 2L, and B's successful lock ends at E + 6L + 32: the
 * next E, the roles swapped. A's own lock cmpxchg, sent after its load,
 * is forwarded to B and waits there for that lock: it is the next
 * turn's failure. So each increment costs 6L + 32 cycles, two locked
 * RMWs (one fails) and two transfers (the failed RMW's and the read's).
 * Waiting for the read's unblock instead, the agent would serve the
 * UPGRADE at A's fill plus a leg, E + 5L + 15: 8L + 30 an increment. */
START_TEST(test_cas_loop_read_then_upgrade)
{
	static const int cpus[2] = { 0, 1 };
	const uint32_t l = 43;
	struct outcome a = run_text(src_cas, cpus, 2, 0, 0, 1, 300);
	struct outcome b = run_text(src_cas, cpus, 2, 0, 0, 1, 900);
	ck_assert_uint_eq(b.locked_ops - a.locked_ops, 2 * 1200);
	ck_assert_uint_eq(b.c2c_transfers - a.c2c_transfers, 2 * 1200);
	ck_assert_msg(b.cycles - a.cycles == 1200 * (6 * l + 2 * OP + 2),
		      "%llu more cycles, expected %u", (unsigned long long)(b.cycles - a.cycles),
		      1200 * (6 * l + 2 * OP + 2));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ownership");
	TCase *tc = tcase_create("ownership");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_ops_per_ownership_by_distance, 0,
			    (int)(sizeof distances / sizeof distances[0] * (sizeof params / sizeof params[0])));
	tcase_add_loop_test(tc, test_siblings_share_a_visit, 0, 2);
	tcase_add_test(tc, test_cas_loop_read_then_upgrade);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
