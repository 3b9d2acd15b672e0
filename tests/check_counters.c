/* The counter library (the .s files in scenarios/lib) run on the simulator: every design
 * ends exact after N cores x K updates, approximate reads stay inside their
 * bound (ghost counters), the bounce order is atomic >> percpu_counter >>
 * per-CPU int, and the seed's two correctness stories hold: a plain add loses
 * updates where lock add never does, and a softirq inside percpu_counter_mod's
 * read-modify-write loses updates unless the caller used percpu_counter_mod_bh.
 * Also: both forms of percpu_counter_add_batch fold alike, LongAdder's
 * cell table grows as Striped64's does, and the queued spinlock excludes and
 * makes its waiters spin on their own per-CPU node. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu_model.h"
#include "mem/memsys.h"
#include "asm/asm.h"
#include "cpu/sim.h"

#define MAX_FILES 12
#define MAX_DEFS 8

/* One machine run from the scenario library. */
struct run {
	struct program prog;
	struct sim *sim;
	int cores;
};

static const char *datadir(void)
{
	const char *d = getenv("top_srcdir");
	return d && *d ? d : BOUNCE_DATADIR;
}

/* Assemble `files` (relative to scenarios/, or `text` when non-NULL) with
 * `defines`, put `entry` on every core and run to the end. */
static void run_prog(struct run *r, int cores, const char *const *files, size_t n_files,
		     const char *text, const struct asm_define *defs, size_t n_defs,
		     const char *entry, const char *softirq, uint64_t softirq_every)
{
	static char paths[MAX_FILES][1024];
	const char *fp[MAX_FILES];
	char incdir[512];
	struct err e;
	err_clear(&e);
	memset(r, 0, sizeof *r);
	r->cores = cores;
	snprintf(incdir, sizeof incdir, "%s/scenarios", datadir());
	ck_assert_uint_le(n_files, MAX_FILES);
	for (size_t i = 0; i < n_files; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", incdir, files[i]);
		fp[i] = paths[i];
	}
	const char *inc[] = { incdir };
	struct asm_input in = { .files = fp, .n_files = n_files, .include_dirs = inc,
				.n_include_dirs = 1, .defines = defs, .n_defines = n_defs,
				.nr_cpus = cores, .line_size = 64 };
	int rc = text ? asm_assemble_string("test.s", text, &in, &r->prog, &e)
		      : asm_assemble(&in, &r->prog, &e);
	if (rc) {
		char b[512];
		err_format(&e, b, sizeof b);
		ck_abort_msg("assemble: %s", b);
	}

	struct cpu_model m;
	cpu_model_default(&m);
	m.cores = cores;
	if (cores < m.cores_per_socket)
		m.cores_per_socket = cores;

	const struct symbol *ent = program_symbol(&r->prog, entry);
	ck_assert_msg(ent != NULL, "no entry %s", entry);
	struct sim_thread *th = calloc((size_t)cores, sizeof *th);
	ck_assert_ptr_nonnull(th);
	for (int c = 0; c < cores; c++) {
		th[c].cpu = c;
		th[c].entry = (uint32_t)ent->value;
	}
	struct sim_irq_source irq;
	memset(&irq, 0, sizeof irq);
	if (softirq) {
		const struct symbol *h = program_symbol(&r->prog, softirq);
		ck_assert_ptr_nonnull(h);
		for (int c = 0; c < cores; c++)
			cpuset_add(&irq.cpus, c);
		irq.kind = IRQ_SOFT;
		irq.handler = (uint32_t)h->value;
		irq.arrival = SIM_ARRIVAL_PERIODIC;
		irq.every = softirq_every;
		irq.jitter = 0.5;
	}
	struct sim_config cfg = { .cpu = m, .prog = &r->prog, .threads = th, .n_threads = (size_t)cores,
				  .irqs = softirq ? &irq : NULL, .n_irqs = softirq ? 1 : 0,
				  .stop_cycles = 2000000000ull, .seed = 1, .start_skew = 100, .check = 0 };
	r->sim = sim_create(&cfg, &e);
	free(th);
	if (!r->sim) {
		char b[512];
		err_format(&e, b, sizeof b);
		ck_abort_msg("sim_create: %s", b);
	}
	enum sim_status st = sim_run(r->sim, &e);
	if (st == SIM_ERROR) {
		char b[512];
		err_format(&e, b, sizeof b);
		ck_abort_msg("sim_run: %s", b);
	}
	ck_assert_msg(st == SIM_HALTED, "run did not halt: %s", sim_status_name(st));
}

static void run_free(struct run *r)
{
	sim_destroy(r->sim);
	program_free(&r->prog);
}

static uint64_t sym(const struct run *r, const char *name)
{
	const struct symbol *s = program_symbol(&r->prog, name);
	ck_assert_msg(s != NULL, "no symbol %s", name);
	return (uint64_t)s->value;
}

static int64_t peek64(struct run *r, const char *name)
{
	return (int64_t)sim_peek(r->sim, sym(r, name), 8);
}

/* The sum of every CPU's copy of a per-CPU quad. */
static int64_t percpu_sum64(struct run *r, const char *name)
{
	int64_t n = 0;
	for (int c = 0; c < r->cores; c++)
		n += (int64_t)sim_peek(r->sim, program_percpu_offset(&r->prog, c) + sym(r, name), 8);
	return n;
}

/* Bounces of the lines under [addr, addr + len). */
static uint64_t bounces(struct run *r, uint64_t addr, uint64_t len)
{
	struct ms_line_info li;
	uint64_t n = 0;
	for (uint64_t a = addr & ~63ull; a < addr + len; a += 64)
		if (ms_line_info(sim_memsys(r->sim), a, &li))
			n += li.stats.bounces;
	return n;
}

/* Bounces of every CPU's copy of a per-CPU symbol. */
static uint64_t percpu_bounces(struct run *r, const char *name, uint64_t len)
{
	uint64_t n = 0;
	for (int c = 0; c < r->cores; c++)
		n += bounces(r, program_percpu_offset(&r->prog, c) + sym(r, name), len);
	return n;
}

/* scaling.s: DESIGN selects the counter; every core adds 1 NR_UPDATES times. */
enum { D_ATOMIC, D_PERCPU_COUNTER, D_PERCPU_INT, D_TREE, D_LONGADDER, D_FLIP, D_N };
static const char *const design_counter[D_N] = {
	"counter_atomic", "counter_fbc", "counter_pcpu_int", "counter_tree", "counter_longadder", "counter_ltf",
};
static const char *const scaling_files[] = {
	"lib/spinlock.s", "lib/qspinlock.s", "lib/atomic.s", "lib/percpu_counter.s", "lib/percpu_int.s",
	"lib/counter_tree.s", "lib/longadder.s", "lib/local_t_flip.s", "scaling.s",
};
#define CORES 8
#define UPDATES 256
#define BATCH 32

static void run_scaling(struct run *r, int cores, int design, int fbc_cmpxchg)
{
	struct asm_define d[] = { { .name = "DESIGN", .value = design }, { .name = "NR_UPDATES", .value = UPDATES },
				  { .name = "READ_EVERY", .value = 8 }, { .name = "PERCPU_COUNTER_BATCH", .value = BATCH },
				  { .name = "FBC_CMPXCHG", .value = fbc_cmpxchg } };
	run_prog(r, cores, scaling_files, sizeof scaling_files / sizeof *scaling_files, NULL, d,
		 sizeof d / sizeof *d, "worker", NULL, 0);
}

static void run_design(struct run *r, int design)
{
	run_scaling(r, CORES, design, 0);
}

/* Exact final value, the exact read agrees with the ghost, and the reads made
 * while counting stay inside the design's bound. */
START_TEST(test_design_exact_and_bounded)
{
	static const uint64_t bound[D_N] = {
		[D_ATOMIC] = 0,
		[D_PERCPU_COUNTER] = (uint64_t)CORES * BATCH,   /* batch * num_online_cpus() */
		/* Summed on read while the others count: not a snapshot, off by
		 * the adds made during the walk. A walk of CORES lines (a miss
		 * each) lasts a few update periods; allow 8 adds per CPU. */
		[D_PERCPU_INT] = CORES * 8,
		[D_TREE] = (uint64_t)CORES * 32 + ((CORES + 7) / 8) * 256,
		[D_LONGADDER] = CORES * 8,
		[D_FLIP] = (uint64_t)CORES * 32,
	};
	struct run r;
	run_design(&r, _i);
	int64_t want = (int64_t)CORES * UPDATES;
	ck_assert_int_eq(peek64(&r, "final_count"), want);
	ck_assert_int_eq(peek64(&r, "count_lost"), 0);
	const struct ghost *g = sim_ghost(r.sim, sym(&r, design_counter[_i]));
	ck_assert_msg(g != NULL, "%s: no ghost counter", design_counter[_i]);
	ck_assert_int_eq(g->exact, want);
	ck_assert_uint_gt(g->reads, 0);
	ck_assert_msg(g->max_err <= bound[_i], "%s: read off by %llu, bound %llu", design_counter[_i],
		      (unsigned long long)g->max_err, (unsigned long long)bound[_i]);
	run_free(&r);
}
END_TEST

/* atomic_t >> percpu_counter >> per-CPU int, whose lines never bounce. */
START_TEST(test_bounce_order)
{
	struct run a, p, i;
	run_design(&a, D_ATOMIC);
	run_design(&p, D_PERCPU_COUNTER);
	run_design(&i, D_PERCPU_INT);
	uint64_t ba = bounces(&a, sym(&a, "counter_atomic"), 4);
	uint64_t bp = bounces(&p, sym(&p, "counter_fbc"), 24) + percpu_bounces(&p, "counter_fbc_pcpu", 4);
	uint64_t bi = percpu_bounces(&i, "counter_pcpu_int", 4);
	/* Never on update. A read that reaches a CPU's line before that CPU's
	 * first write gets it in E, and the owner's write takes it back: at
	 * most once per line. */
	ck_assert_uint_le(percpu_bounces(&p, "counter_fbc_pcpu", 4), CORES - 1);
	ck_assert_uint_le(bi, CORES - 1);
	ck_assert_msg(bp > 4 * bi, "percpu_counter %llu vs per-CPU int %llu", (unsigned long long)bp,
		      (unsigned long long)bi);
	/* one fold per BATCH adds per CPU, against (nearly) one bounce per add */
	ck_assert_msg(ba > 4 * bp, "atomic %llu vs percpu_counter %llu", (unsigned long long)ba,
		      (unsigned long long)bp);
	run_free(&a);
	run_free(&p);
	run_free(&i);
}
END_TEST

/* Both forms of percpu_counter_add_batch (preempt_disable + this_cpu_add, and
 * the this_cpu_try_cmpxchg loop) fold exactly BATCH at every BATCH-th add of
 * a CPU, so UPDATES = 8 x BATCH adds per CPU leave every CPU's copy at 0 and
 * the whole count in fbc->count; the cmpxchg never touches another CPU's
 * copy, and its read bound is the same batch x CPUs. */
START_TEST(test_percpu_counter_forms_fold_alike)
{
	for (int form = 0; form <= 1; form++) {
		struct run r;
		run_scaling(&r, CORES, D_PERCPU_COUNTER, form);
		uint64_t fbc = sym(&r, "counter_fbc");
		ck_assert_int_eq((int64_t)sim_peek(r.sim, fbc + 8, 8), (int64_t)CORES * UPDATES);
		for (int c = 0; c < CORES; c++)
			ck_assert_int_eq(sim_peek(r.sim, program_percpu_offset(&r.prog, c) +
						     sym(&r, "counter_fbc_pcpu"), 4), 0);
		ck_assert_int_eq(peek64(&r, "count_lost"), 0);
		ck_assert_uint_le(percpu_bounces(&r, "counter_fbc_pcpu", 4), CORES - 1);
		const struct ghost *g = sim_ghost(r.sim, fbc);
		ck_assert_ptr_nonnull(g);
		ck_assert_uint_le(g->max_err, (uint64_t)CORES * BATCH);
		run_free(&r);
	}
}
END_TEST

/* LongAdder as Striped64: one CPU never fails its CAS on base, so no table
 * is made; contended, the table starts at 2 cells and doubles only while it
 * has fewer cells than CPUs (3 CPUs: at most 4; 8 CPUs: at most 8), only
 * slots below the table size hold cells, and base plus the cells is exact. */
START_TEST(test_longadder_table_grows_to_cpus)
{
	/* min: 8 CPUs adding every 200 cycles collide often enough to double the
	 * table at least once (it reaches 8 with seed 1); 3 need not. */
	static const struct { int cores; uint32_t min, max; } cases[] = {
		{ 1, 0, 0 }, { 3, 2, 4 }, { CORES, 4, CORES } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct run r;
		run_scaling(&r, cases[k].cores, D_LONGADDER, 0);
		uint64_t la = sym(&r, "counter_longadder");
		int64_t base = (int64_t)sim_peek(r.sim, la, 8);
		uint32_t n = (uint32_t)sim_peek(r.sim, la + 12, 4);
		if (cases[k].cores == 1) {
			ck_assert_uint_eq(n, 0);
			ck_assert_int_eq(base, UPDATES);
		} else {
			ck_assert_msg(n >= cases[k].min && n <= cases[k].max && (n & (n - 1)) == 0,
				      "%d CPUs: %u cells, expected a power of two in [%u, %u]", cases[k].cores,
				      n, cases[k].min, cases[k].max);
		}
		int64_t sum = base;
		uint32_t slots = cases[k].cores > 1 ? 2u * (uint32_t)cases[k].cores : 2; /* LONGADDER_MAX_CELLS */
		for (uint32_t i = 0; i < slots; i++) {
			uint64_t cell = la + 64 + 64ull * i;
			int64_t present = (int64_t)sim_peek(r.sim, cell + 8, 8);
			ck_assert_msg(i < n || present == 0, "cell %u beyond the table of %u", i, n);
			sum += (int64_t)sim_peek(r.sim, cell, 8);
		}
		ck_assert_int_eq(sum, (int64_t)cases[k].cores * UPDATES);
		ck_assert_int_eq(peek64(&r, "count_lost"), 0);
		run_free(&r);
	}
}
END_TEST

/* The cmpxchg form under softirqs that add to the same counter: an add that
 * lands between this_cpu_read and the cmpxchg makes the cmpxchg fail and
 * retry, so nothing is lost, and every CPU's copy stays inside (-batch,
 * batch). Batch 4 so that folds are frequent too. */
static const char cmpxchg_softirq_text[] =
	".include \"lib/qspinlock.s\"\n"
	".include \"lib/percpu_counter.s\"\n"
	".equ K, 3000\n"
	".data\n"
	".align 64\n"
	"fbc: .long 0\n .long 0\n .quad 0\n .quad fbc_pcpu\n"
	".percpu\n"
	".align 64\n"
	"fbc_pcpu: .long 0\n"
	".align 64\n"
	"nr_softirq: .quad 0\n"
	".text\n"
	"worker:\n"
	"	mov r12, K\n"
	"worker_loop:\n"
	"	mov rdi, offset fbc\n"
	"	mov rsi, 1\n"
	"	call percpu_counter_add_cmpxchg\n"
	"	dec r12\n"
	"	jnz worker_loop\n"
	"	hlt\n"
	"net_rx:\n"
	"	inc qword ptr gs:[nr_softirq]\n"
	"	mov rdi, offset fbc\n"
	"	mov rsi, 1\n"
	"	call percpu_counter_add_cmpxchg\n"
	"	ret\n";

START_TEST(test_percpu_counter_cmpxchg_softirq)
{
	struct asm_define d[] = { { .name = "PERCPU_COUNTER_BATCH", .value = 4 } };
	struct run r;
	/* softirqs every ~1200 cycles: above interrupt entry and exit */
	run_prog(&r, 4, NULL, 0, cmpxchg_softirq_text, d, 1, "worker", "net_rx", 1200);
	int64_t irqs = percpu_sum64(&r, "nr_softirq");
	ck_assert_int_gt(irqs, 0);
	int64_t total = (int64_t)sim_peek(r.sim, sym(&r, "fbc") + 8, 8);
	for (int c = 0; c < r.cores; c++) {
		int32_t v = (int32_t)sim_peek(r.sim, program_percpu_offset(&r.prog, c) + sym(&r, "fbc_pcpu"), 4);
		ck_assert_int_lt(v < 0 ? -v : v, 4);
		total += v;
	}
	ck_assert_int_eq(total, 4 * 3000 + irqs);
	run_free(&r);
}
END_TEST

static const char lost_update_text[] =
	".equ K, 2000\n"
	".data\n"
	".align 64\n"
	"shared: .quad 0\n"
	".text\n"
	"plain:\n"
	"	mov rcx, K\n"
	"plain_loop:\n"
	"	add qword ptr [shared], 1\n"
	"	dec rcx\n"
	"	jnz plain_loop\n"
	"	hlt\n"
	"locked:\n"
	"	mov rcx, K\n"
	"locked_loop:\n"
	"	lock add qword ptr [shared], 1\n"
	"	dec rcx\n"
	"	jnz locked_loop\n"
	"	hlt\n";

START_TEST(test_plain_add_loses_lock_add_does_not)
{
	struct run r;
	run_prog(&r, 4, NULL, 0, lost_update_text, NULL, 0, "plain", NULL, 0);
	int64_t plain = peek64(&r, "shared");
	run_free(&r);
	run_prog(&r, 4, NULL, 0, lost_update_text, NULL, 0, "locked", NULL, 0);
	int64_t locked = peek64(&r, "shared");
	run_free(&r);
	ck_assert_int_eq(locked, 4 * 2000);
	ck_assert_msg(plain < 4 * 2000, "plain add lost nothing (%lld)", (long long)plain);
}
END_TEST

/* mod_bh_softirq.s: lost_updates = NR_CPUS * NR_UPDATES + softirq adds - final.
 * The handler counts its adds in a per-CPU quad. */
static void run_mod_bh(struct run *r, int use_bh)
{
	static const char *const files[] = { "lib/spinlock.s", "lib/percpu_counter_2006.s",
					     "mod_bh_softirq.s" };
	struct asm_define d[] = { { .name = "USE_BH", .value = use_bh }, { .name = "NR_UPDATES", .value = 5000 },
				  { .name = "FBC_BATCH", .value = 1000000000 } };
	/* A softirq every ~1200 cycles: above the 500 of entry and exit, or
	 * the workers would starve. */
	run_prog(r, 4, files, 3, NULL, d, 3, "worker", "net_rx_action", 1200);
}

START_TEST(test_mod_bh)
{
	struct run r;
	run_mod_bh(&r, 1);
	ck_assert_int_gt(percpu_sum64(&r, "nr_softirq_updates"), 0);
	ck_assert_int_eq(peek64(&r, "lost_updates"), 0);
	run_free(&r);
	run_mod_bh(&r, 0);
	ck_assert_int_gt(percpu_sum64(&r, "nr_softirq_updates"), 0);
	ck_assert_msg(peek64(&r, "lost_updates") > 0, "no softirq landed inside percpu_counter_mod");
	run_free(&r);
}
END_TEST

/* A plain (non-atomic) load, add and store of a shared quad under the queued
 * spinlock: mutual exclusion means no update is lost. The `work` between the
 * load and the store widens the window an unlocked increment would lose in. */
static const char qspinlock_text[] =
	".include \"lib/qspinlock.s\"\n"
	".equ K, 40\n"
	".data\n"
	".align 64\n"
	"lock: .long 0\n"
	".align 64\n"
	"shared: .quad 0\n"
	".text\n"
	"worker:\n"
	"	mov r12, K\n"
	"	mov rdi, offset lock\n"
	"worker_loop:\n"
	"	call queued_spin_lock\n"
	"	mov rax, qword ptr [shared]\n"
	"	work 20\n"
	"	add rax, 1\n"
	"	mov qword ptr [shared], rax\n"
	"	call queued_spin_unlock\n"
	"	work 100\n"
	"	dec r12\n"
	"	jnz worker_loop\n"
	"	hlt\n";

/* Reads of the node's `locked` word (offset 8 of qnodes[0]) in CPU c's copy,
 * and whether any CPU but c read it. */
static uint64_t node_spin_reads(struct run *r, int c, int *others)
{
	struct ms_line_info li;
	uint64_t a = program_percpu_offset(&r->prog, c) + sym(r, "qnodes");
	*others = 0;
	if (!ms_line_info(sim_memsys(r->sim), a, &li))
		return 0;
	size_t words = ms_bitset_words(sim_memsys(r->sim));
	for (uint32_t i = 0; i < li.n_offsets; i++) {
		const struct ms_offset_stats *o = &li.offsets[i];
		if (o->offset != (a & 63) + 8)
			continue;
		for (size_t w = 0; w < words; w++) {
			uint64_t mine = (size_t)c / 64 == w ? 1ull << (c % 64) : 0;
			if (o->readers[w] & ~mine)
				*others = 1;
		}
		return o->reads;
	}
	return 0;
}

START_TEST(test_qspinlock_excludes_and_queues)
{
	static const int cores[] = { 8, 64 };
	int n = cores[_i];
	struct run r;
	run_prog(&r, n, NULL, 0, qspinlock_text, NULL, 0, "worker", NULL, 0);
	ck_assert_int_eq(peek64(&r, "shared"), (int64_t)n * 40);
	ck_assert_int_eq(sim_peek(r.sim, sym(&r, "lock"), 4), 0);
	uint64_t spins = 0;
	int queued = 0;
	for (int c = 0; c < n; c++) {
		int others;
		uint64_t reads = node_spin_reads(&r, c, &others);
		ck_assert_msg(!others, "another CPU read cpu%d's MCS node", c);
		spins += reads;
		queued += reads > 0;
		ck_assert_int_eq(sim_peek(r.sim, program_percpu_offset(&r.prog, c) + sym(&r, "qnodes") + 12, 4), 0);
	}
	/* Under this much contention most CPUs wait in the queue, not only
	 * on the lock word as the pending waiter. */
	ck_assert_int_ge(queued, n / 2);
	ck_assert_uint_gt(spins, (uint64_t)n);
	run_free(&r);
}
END_TEST

static Suite *counters_suite(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("library");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_design_exact_and_bounded, 0, D_N);
	tcase_add_test(tc, test_bounce_order);
	tcase_add_test(tc, test_percpu_counter_forms_fold_alike);
	tcase_add_test(tc, test_longadder_table_grows_to_cpus);
	tcase_add_test(tc, test_percpu_counter_cmpxchg_softirq);
	tcase_add_test(tc, test_plain_add_loses_lock_add_does_not);
	tcase_add_test(tc, test_mod_bh);
	tcase_add_loop_test(tc, test_qspinlock_excludes_and_queues, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(counters_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
