/* Unit tests of the core model: small programs assembled from strings and
 * run on the simulated machine with the invariant checker on. Register
 * and flag results per instruction, store-to-load forwarding, lost and
 * never-lost updates, interrupts against per-CPU RMWs, runtime faults. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/ghost.h"
#include "asm/asm.h"
#include "cpu/sim.h"

struct run {
	struct program p;
	struct sim *s;
	struct err e;
	enum sim_status st;
};

struct opts {
	int cores;            /* default 1 */
	int threads;          /* threads on cpus 0..threads-1; default cores */
	const char *entry;    /* default "main" */
	uint64_t seed, skew, stop;
	const struct sim_irq_source *irqs;
	size_t n_irqs;
	uint64_t rdi;
	uint32_t issue_width; /* default 1 */
	uint32_t store_forward; /* lat_store_forward, default 0 (unset) */
	uint32_t commit_width;  /* store_commit_width, default 0 (no limit) */
	int no_ff;              /* execute waiting loops instead of parking them */
	int rdi_is_cpu;         /* each thread's rdi is its CPU, not rdi */
};

static uint32_t label(const struct program *p, const char *name)
{
	const struct symbol *s = program_symbol(p, name);
	ck_assert_msg(s && s->section == SEC_TEXT, "no label %s", name);
	return (uint32_t)s->value;
}

/* Where label `name` of program text src (assembled for cpus CPUs) is: an
 * interrupt handler's address, before the run that uses it. */
static uint32_t label_in(const char *src, int cpus, const char *name)
{
	struct asm_input in = { .nr_cpus = cpus, .line_size = 64 };
	struct program tmp;
	struct err e;
	err_clear(&e);
	ck_assert_int_eq(asm_assemble_string("t.s", src, &in, &tmp, &e), 0);
	uint32_t at = label(&tmp, name);
	program_free(&tmp);
	return at;
}

static uint64_t addr_of(const struct program *p, const char *name)
{
	const struct symbol *s = program_symbol(p, name);
	ck_assert_msg(s != NULL, "no symbol %s", name);
	return (uint64_t)s->value;
}

/* Assemble and build the machine, not run yet; the caller frees with done(). */
static void start(struct run *r, const char *src, const struct opts *o)
{
	int cores = o->cores ? o->cores : 1;
	int threads = o->threads ? o->threads : cores;
	struct asm_input in = { .nr_cpus = cores, .line_size = 64 };
	char msg[2048];
	memset(r, 0, sizeof *r);
	err_clear(&r->e);
	int rc = asm_assemble_string("t.s", src, &in, &r->p, &r->e);
	err_format(&r->e, msg, sizeof msg);
	ck_assert_msg(rc == 0, "assembly failed: %s", msg);

	struct sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cpu_model_default(&cfg.cpu);
	cfg.cpu.cores = cores;
	if (o->issue_width)
		cfg.cpu.issue_width = o->issue_width;
	cfg.cpu.lat_store_forward = o->store_forward;
	cfg.cpu.store_commit_width = o->commit_width;
	cfg.prog = &r->p;
	struct sim_thread th[64];
	ck_assert_int_le(threads, 64);
	uint32_t entry = label(&r->p, o->entry ? o->entry : "main");
	for (int t = 0; t < threads; t++) {
		memset(&th[t], 0, sizeof th[t]);
		th[t].cpu = t;
		th[t].entry = entry;
		th[t].regs[R_RDI] = o->rdi_is_cpu ? (uint64_t)t : o->rdi;
		th[t].regs_set = 1u << R_RDI;
	}
	cfg.threads = th;
	cfg.n_threads = (size_t)threads;
	cfg.irqs = o->irqs;
	cfg.n_irqs = o->n_irqs;
	cfg.seed = o->seed;
	cfg.start_skew = o->skew;
	cfg.stop_cycles = o->stop;
	cfg.check = 1;
	cfg.no_fast_forward = o->no_ff;
	r->s = sim_create(&cfg, &r->e);
	err_format(&r->e, msg, sizeof msg);
	ck_assert_msg(r->s != NULL, "sim_create failed: %s", msg);
}

/* Assemble and run to the end; the caller frees with done(). */
static void run(struct run *r, const char *src, const struct opts *o)
{
	start(r, src, o);
	r->st = sim_run(r->s, &r->e);
}

static void done(struct run *r)
{
	sim_destroy(r->s);
	program_free(&r->p);
}

static void ck_halted(struct run *r)
{
	char msg[2048];
	err_format(&r->e, msg, sizeof msg);
	ck_assert_msg(r->st == SIM_HALTED, "status %s: %s", sim_status_name(r->st), msg);
}

/* ---- one instruction at a time: registers and flags ---- */

struct alu_case {
	const char *src;
	int reg;
	uint64_t val;
	int zf, sf, cf, of;     /* -1: not checked */
};

static const struct alu_case alu_cases[] = {
	{ "mov rax, 1\nadd rax, -1", R_RAX, 0, 1, 0, 1, 0 },
	{ "mov eax, 0x7fffffff\nadd eax, 1", R_RAX, 0x80000000, 0, 1, 0, 1 },
	{ "mov rax, -1\nmov eax, 1", R_RAX, 1, -1, -1, -1, -1 },
	{ "mov rax, 0x1ff\nadd al, 1", R_RAX, 0x100, 1, 0, 1, 0 },
	{ "mov rax, 0\nsub rax, 1", R_RAX, ~0ull, 0, 1, 1, 0 },
	{ "mov rax, 0x8000000000000000\nsub rax, 1", R_RAX, 0x7fffffffffffffffull, 0, 0, 0, 1 },
	{ "mov rax, 5\ncmp rax, 7", R_RAX, 5, 0, 1, 1, 0 },
	{ "mov rax, 7\ncmp rax, 7", R_RAX, 7, 1, 0, 0, 0 },
	{ "mov rax, 0\nsub rax, 1\ninc rax", R_RAX, 0, 1, 0, 1, 0 },   /* inc keeps CF */
	{ "mov rax, 0x7fffffffffffffff\ninc rax", R_RAX, 0x8000000000000000ull, 0, 1, 0, 1 },
	{ "mov rax, 0\nsub rax, 1\nmov rax, 1\ndec rax", R_RAX, 0, 1, 0, 1, 0 }, /* dec keeps CF */
	{ "mov rax, 0x8000000000000000\ndec rax", R_RAX, 0x7fffffffffffffffull, 0, 0, 0, 1 },
	{ "mov rax, 5\nneg rax", R_RAX, (uint64_t)-5, 0, 1, 1, 0 },
	{ "mov rax, 0\nneg rax", R_RAX, 0, 1, 0, 0, 0 },
	{ "mov rax, 0x8000000000000000\nneg rax", R_RAX, 0x8000000000000000ull, 0, 1, 1, 1 },
	{ "mov rax, 0\nsub rax, 1\nmov rax, 0xf0\nand rax, 0x0f", R_RAX, 0, 1, 0, 0, 0 },
	{ "mov rax, 0xf0\nor rax, 0x0f", R_RAX, 0xff, 0, 0, 0, 0 },
	{ "mov rax, -1\nxor rax, 1", R_RAX, ~1ull, 0, 1, 0, 0 },
	{ "mov rax, 6\ntest rax, 1", R_RAX, 6, 1, 0, 0, 0 },
	{ "mov rax, 0\nnot rax", R_RAX, ~0ull, -1, -1, -1, -1 },
	{ "mov rax, 0x8000000000000001\nshl rax, 1", R_RAX, 2, 0, 0, 1, 1 },
	{ "mov rax, 3\nshr rax, 1", R_RAX, 1, 0, 0, 1, 0 },
	{ "mov rcx, 4\nmov rax, 1\nshl rax, cl", R_RAX, 16, 0, 0, 0, 0 },
	{ "mov rax, 0x80\nshr al, 8", R_RAX, 0, 1, 0, 1, -1 },
	{ "mov rax, 2\nmov rbx, 3\nxadd rax, rbx", R_RBX, 2, 0, 0, 0, 0 },
	{ "mov rax, 2\nmov rbx, 3\nxadd rax, rbx", R_RAX, 5, -1, -1, -1, -1 },
	{ "mov rax, 1\nmov rbx, 1\nmov rcx, 9\ncmpxchg rbx, rcx", R_RBX, 9, 1, -1, -1, -1 },
	{ "mov rax, 2\nmov rbx, 1\nmov rcx, 9\ncmpxchg rbx, rcx", R_RAX, 1, 0, -1, -1, -1 },
	{ "mov rax, 1\nmov rbx, 2\nxchg rax, rbx", R_RAX, 2, -1, -1, -1, -1 },
	{ "mov rbx, 0x100\nmov rcx, 3\nlea rax, [rbx + rcx*4 + 8]", R_RAX, 0x114, -1, -1, -1, -1 },
	{ "mov rcx, 10\nmov rax, 0\nl: add rax, rcx\ndec rcx\njnz l", R_RAX, 55, 1, 0, 0, 0 },
	{ "mov rax, -1\ncmp rax, 1\nmov rbx, 0\njl y\nmov rbx, 2\ny: nop", R_RBX, 0, -1, -1, -1, -1 },
	{ "mov rax, -1\ncmp rax, 1\nmov rbx, 0\njb y\nmov rbx, 2\ny: nop", R_RBX, 2, -1, -1, -1, -1 },
	{ "mov rax, 3\ncmp rax, 3\nmov rbx, 0\njg y\nmov rbx, 2\ny: nop", R_RBX, 2, -1, -1, -1, -1 },
	{ "mov rax, 4\ncmp rax, 3\nmov rbx, 0\nja y\nmov rbx, 2\ny: nop", R_RBX, 0, -1, -1, -1, -1 },
	{ "mov rax, 1\npush rax\ncall f\npop rbx\njmp e\nf: mov rax, 7\nret\ne: nop", R_RBX, 1, -1, -1, -1, -1 },
	{ "mov rax, 1\npush rax\ncall f\npop rbx\njmp e\nf: mov rax, 7\nret\ne: nop", R_RAX, 7, -1, -1, -1, -1 },
	{ "movsx rax, byte ptr [b]", R_RAX, (uint64_t)-128, -1, -1, -1, -1 },
	{ "movzx eax, byte ptr [b]", R_RAX, 0x80, -1, -1, -1, -1 },
	{ "mov qword ptr [q], 41\ninc qword ptr [q]\nmov rdx, [q]", R_RDX, 42, 0, 0, -1, 0 },
	{ "mov rax, 10\nlock xadd [q], rax\nlock xadd [q], rax", R_RAX, 10, -1, -1, -1, -1 },
	{ "mov rax, 0\nmov rcx, 5\nlock cmpxchg [q], rcx\nmov rdx, [q]", R_RDX, 5, -1, -1, -1, -1 },
	{ "mov rax, 3\nxchg [q], rax\nmov rax, 4\nxchg [q], rax", R_RAX, 3, -1, -1, -1, -1 },
	{ "mov rax, CPU", R_RAX, 0, -1, -1, -1, -1 },
};

START_TEST(test_alu)
{
	const struct alu_case *k = &alu_cases[_i];
	char src[1024];
	snprintf(src, sizeof src, ".data\n.align 64\nb: .byte 0x80\n.align 8\nq: .quad 0\n.text\nmain:\n%s\nhlt\n",
		 k->src);
	struct run r;
	run(&r, src, &(struct opts){ 0 });
	ck_halted(&r);
	struct sim_core_view v;
	sim_core_view(r.s, 0, &v);
	ck_assert_msg(v.regs[k->reg] == k->val, "%s: reg %d = 0x%llx, want 0x%llx", k->src, k->reg,
		      (unsigned long long)v.regs[k->reg], (unsigned long long)k->val);
	if (k->zf >= 0)
		ck_assert_msg(v.zf == k->zf, "%s: ZF %d", k->src, v.zf);
	if (k->sf >= 0)
		ck_assert_msg(v.sf == k->sf, "%s: SF %d", k->src, v.sf);
	if (k->cf >= 0)
		ck_assert_msg(v.cf == k->cf, "%s: CF %d", k->src, v.cf);
	if (k->of >= 0)
		ck_assert_msg(v.of == k->of, "%s: OF %d", k->src, v.of);
	done(&r);
}
END_TEST

START_TEST(test_cpu_and_percpu)
{
	struct run r;
	run(&r, ".percpu\nme: .quad 0\n.text\nmain:\nmov rax, CPU\nmov gs:[me], rax\n"
		"mov rbx, [__per_cpu_offset + 8*2]\nmov rbx, [rbx + me]\nhlt\n",
	    &(struct opts){ .cores = 4 });
	ck_halted(&r);
	for (int c = 0; c < 4; c++) {
		uint64_t a = program_percpu_offset(&r.p, c) + addr_of(&r.p, "me");
		ck_assert_uint_eq(sim_peek(r.s, a, 8), (uint64_t)c);
	}
	done(&r);
}
END_TEST

/* ---- store buffer ---- */

START_TEST(test_forwarding)
{
	struct run r;
	run(&r, ".data\n.align 64\nx: .quad 0xaabbccdd00000000\n.text\nmain:\n"
		"mov qword ptr [x], 5\nmov rax, [x]\n"           /* full forward */
		"mov dword ptr [x], 0x11223344\nmov rbx, [x]\n"  /* partial: waits for the drain */
		"mov byte ptr [x], 0x55\nmov cl, byte ptr [x]\nhlt\n",
	    &(struct opts){ 0 });
	ck_halted(&r);
	struct sim_core_view v;
	sim_core_view(r.s, 0, &v);
	ck_assert_uint_eq(v.regs[R_RAX], 5);
	ck_assert_uint_eq(v.regs[R_RBX], 0x11223344);
	ck_assert_uint_eq(v.regs[R_RCX] & 0xff, 0x55);
	ck_assert_uint_ge(sim_core_stats(r.s, 0)->sb_forwards, 2);
	ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "x"), 8), 0x11223355);
	done(&r);
}
END_TEST

START_TEST(test_sb_full_stalls)
{
	/* More stores to distinct missing lines than the buffer holds. */
	struct run r;
	run(&r, ".data\n.align 64\na: .space 64*16\n.text\nmain:\n"
		"mov rcx, 0\nl: mov qword ptr [a + rcx], 1\nadd rcx, 64\ncmp rcx, 64*16\njne l\nhlt\n",
	    &(struct opts){ 0 });
	ck_halted(&r);
	ck_assert_uint_gt(sim_core_stats(r.s, 0)->cycles[CORE_ACT_SB_STALL], 0);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "a") + 64 * (uint64_t)i, 8), 1);
	done(&r);
}
END_TEST

/* ---- shared counters from 8 cores ---- */

static const char *counter_src(int locked)
{
	return locked ? ".data\n.align 64\ncounter: .quad 0\n.text\nmain:\nmov rcx, 500\n"
			"l: lock add qword ptr [counter], 1\ndec rcx\njnz l\nhlt\n"
		      : ".data\n.align 64\ncounter: .quad 0\n.text\nmain:\nmov rcx, 500\n"
			"l: add qword ptr [counter], 1\ndec rcx\njnz l\nhlt\n";
}

START_TEST(test_lock_add_exact)
{
	struct run r;
	run(&r, counter_src(1), &(struct opts){ .cores = 8, .seed = 7, .skew = 100 });
	ck_halted(&r);
	ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "counter"), 8), 8 * 500);
	struct core_stats t;
	sim_total_core_stats(r.s, &t);
	ck_assert_uint_eq(t.locked_ops, 8 * 500);
	ck_assert_uint_gt(t.locked_cycles, 0);
	ck_assert_uint_gt(t.cycles[CORE_ACT_LOCKED], 0);
	done(&r);
}
END_TEST

/* Two cores of one socket hammer one line with lock add on the default
 * model: legs of 60/3 = 20 cycles, a locked add costs 4 + 20 = 24, the loop
 * 26. A core's fill arrives at F and its lock runs F..F+24. The other core
 * lost the line 20 cycles before F, missed again 2 cycles later (dec, jnz)
 * and its request reached the agent at F+2; the agent forwards it to the
 * owner to be at once, so the snoop is there at F+22, waits for the lock
 * and leaves at F+24. In steady state an owner completes exactly one
 * operation per ownership, and the line moves every 24 + 20 = 44 cycles. */
START_TEST(test_ops_per_ownership)
{
	struct run r;
	run(&r, counter_src(1), &(struct opts){ .cores = 2 });
	ck_halted(&r);
	ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "counter"), 8), 2 * 500);
	struct ms_stats m;
	ms_total_stats(sim_memsys(r.s), &m);
	/* 1000 ownerships of one operation: 999 bounces. The first fill comes
	 * from memory at 200 (the other core's request, forwarded at 20, waits
	 * there), then 999 handoffs of 44 cycles, then the last owner's lock
	 * (24), dec and jnz (2) and hlt (1). */
	ck_assert_uint_eq(m.bounces, 999);
	ck_assert_uint_eq(sim_cycles(r.s), 200 + 999 * 44 + 24 + 2 + 1);
	done(&r);
}
END_TEST

START_TEST(test_plain_add_loses_updates)
{
	uint64_t v[2];
	for (int i = 0; i < 2; i++) {
		struct run r;
		run(&r, counter_src(0), &(struct opts){ .cores = 8, .seed = 7, .skew = 100 });
		ck_halted(&r);
		v[i] = sim_peek(r.s, addr_of(&r.p, "counter"), 8);
		done(&r);
	}
	printf("plain add from 8 cores x 500: final %llu of 4000\n", (unsigned long long)v[0]);
	ck_assert_uint_lt(v[0], 8 * 500);
	ck_assert_uint_gt(v[0], 0);
	ck_assert_uint_eq(v[0], v[1]);
}
END_TEST

/* ---- interrupts ---- */

/* A per-CPU RMW in four instructions, and a softirq that bumps the same
 * counter: without bh_disable the handler can run between the load and
 * the store, and its update is lost. */
static const char *bh_src(int protect)
{
	static char buf[1024];
	snprintf(buf, sizeof buf,
		 ".percpu\ncnt: .quad 0\nirqs: .quad 0\n.text\nmain:\nmov rcx, 2000\n"
		 "l:\n%s"
		 "mov rax, gs:[cnt]\nwork 20\nadd rax, 1\nmov gs:[cnt], rax\n%s"
		 "dec rcx\njnz l\nhlt\n"
		 "net_rx:\nmov rax, 12345\ninc qword ptr gs:[cnt]\ninc qword ptr gs:[irqs]\nadd rcx, 0\nret\n",
		 protect ? "bh_disable\n" : "", protect ? "bh_enable\n" : "");
	return buf;
}

static void bh_case(int protect, uint64_t *lost)
{
	struct run r;
	struct sim_irq_source irq;
	memset(&irq, 0, sizeof irq);
	irq.handler = label_in(bh_src(protect), 2, "net_rx");
	cpuset_add(&irq.cpus, 0);
	cpuset_add(&irq.cpus, 1);
	irq.kind = IRQ_SOFT;
	irq.every = 1200; /* above entry + exit (500 cycles), or the thread starves */
	irq.jitter = 0.5;
	run(&r, bh_src(protect), &(struct opts){ .cores = 2, .seed = 3, .irqs = &irq, .n_irqs = 1 });
	ck_halted(&r);
	*lost = 0;
	for (int c = 0; c < 2; c++) {
		uint64_t base = program_percpu_offset(&r.p, c);
		uint64_t cnt = sim_peek(r.s, base + addr_of(&r.p, "cnt"), 8);
		uint64_t irqs = sim_peek(r.s, base + addr_of(&r.p, "irqs"), 8);
		const struct core_stats *st = sim_core_stats(r.s, c);
		ck_assert_uint_eq(irqs, st->irqs_soft);
		ck_assert_uint_gt(irqs, 50);
		ck_assert_uint_gt(st->cycles[CORE_ACT_IRQ], 0);
		ck_assert_uint_le(cnt, 2000 + irqs);
		*lost += 2000 + irqs - cnt;
		/* The handler clobbered rax and rcx; the thread did not notice. */
		struct sim_core_view v;
		sim_core_view(r.s, c, &v);
		ck_assert_uint_eq(v.regs[R_RCX], 0);
		ck_assert_int_eq(v.bh_count, 0);
	}
	printf("softirq vs per-CPU RMW, bh_disable=%d: %llu updates lost\n", protect,
	       (unsigned long long)*lost);
	done(&r);
}

START_TEST(test_softirq_loses_without_bh_disable)
{
	uint64_t lost;
	bh_case(0, &lost);
	ck_assert_uint_gt(lost, 0);
	bh_case(1, &lost);
	ck_assert_uint_eq(lost, 0);
}
END_TEST

START_TEST(test_issue_width_groups_simple_instructions)
{
	/* 1 + 2 x 1000 simple instructions (mov, then dec/jnz): one cycle each
	 * at width 1; at width 4 every fourth pays, so 2001 / 4 = 500 cycles.
	 * A locked RMW keeps its whole latency either way. */
	const char *src = ".text\nmain: mov rcx, 1000\nl: dec rcx\njnz l\nhlt\n";
	const uint32_t widths[] = {1, 4};
	const uint64_t want[] = {2001, 500};
	for (int k = 0; k < 2; k++) {
		struct run r;
		run(&r, src, &(struct opts){ .issue_width = widths[k] });
		ck_halted(&r);
		ck_assert_uint_eq(sim_core_stats(r.s, 0)->instructions, 2002);
		ck_assert_uint_eq(sim_core_stats(r.s, 0)->cycles[CORE_ACT_BUSY], want[k]);
		done(&r);
	}
	const char *locked = ".data\nx: .quad 0\n.text\nmain: lock inc qword ptr [x]\nlock inc qword ptr [x]\nhlt\n";
	uint64_t busy[2], lk[2];
	for (int k = 0; k < 2; k++) {
		struct run r;
		run(&r, locked, &(struct opts){ .issue_width = widths[k] });
		ck_halted(&r);
		busy[k] = sim_core_stats(r.s, 0)->cycles[CORE_ACT_BUSY];
		lk[k] = sim_core_stats(r.s, 0)->cycles[CORE_ACT_LOCKED];
		done(&r);
	}
	ck_assert_uint_eq(lk[0], lk[1]);
	ck_assert_uint_eq(busy[0], busy[1]);
}
END_TEST

/* A periodic hard interrupt on CPU 0 whose handler is src's label h. */
static struct sim_irq_source hard_irq_at_h(const char *src, uint64_t every)
{
	struct sim_irq_source irq;
	memset(&irq, 0, sizeof irq);
	irq.handler = label_in(src, 1, "h");
	cpuset_add(&irq.cpus, 0);
	irq.kind = IRQ_HARD;
	irq.every = every;
	return irq;
}

START_TEST(test_irq_entry_and_exit_take_time)
{
	/* A handler of one `ret` spends the model's entry and exit latencies
	 * in interrupt context, 250 + 250 cycles on the test model (the ret's
	 * own cycle retires once the interrupted code is back). */
	const char *src = ".text\nmain: mov rcx, 20000\nl: dec rcx\njnz l\nhlt\nh: ret\n";
	struct sim_irq_source irq = hard_irq_at_h(src, 3000);
	struct run r;
	run(&r, src, &(struct opts){ .seed = 5, .irqs = &irq, .n_irqs = 1 });
	ck_halted(&r);
	const struct core_stats *st = sim_core_stats(r.s, 0);
	ck_assert_uint_gt(st->irqs_hard, 5);
	ck_assert_uint_eq(st->cycles[CORE_ACT_IRQ], st->irqs_hard * 500);
	done(&r);
}
END_TEST

START_TEST(test_hard_irq_masked_by_cli)
{
	/* Interrupts arrive during a cli section; they run after sti, and
	 * every arrival is either run or coalesced, never inside the section. */
	const char *src = ".percpu\nin_cs: .quad 0\nbad: .quad 0\nn: .quad 0\n.text\nmain:\n"
			  "mov rcx, 200\nl: cli\nmov qword ptr gs:[in_cs], 1\nwork 50\n"
			  "mov qword ptr gs:[in_cs], 0\nsti\nwork 50\ndec rcx\njnz l\nhlt\n"
			  "h: mov rax, gs:[in_cs]\nadd gs:[bad], rax\ninc qword ptr gs:[n]\nret\n";
	struct sim_irq_source irq;
	memset(&irq, 0, sizeof irq);
	irq.handler = label_in(src, 1, "h");
	cpuset_add(&irq.cpus, 0);
	irq.kind = IRQ_HARD;
	irq.arrival = SIM_ARRIVAL_POISSON;
	irq.every = 400;
	struct run r;
	run(&r, src, &(struct opts){ .seed = 11, .irqs = &irq, .n_irqs = 1 });
	ck_halted(&r);
	uint64_t base = program_percpu_offset(&r.p, 0);
	ck_assert_uint_eq(sim_peek(r.s, base + addr_of(&r.p, "bad"), 8), 0);
	ck_assert_uint_gt(sim_peek(r.s, base + addr_of(&r.p, "n"), 8), 10);
	ck_assert_uint_eq(sim_peek(r.s, base + addr_of(&r.p, "n"), 8), sim_core_stats(r.s, 0)->irqs_hard);
	done(&r);
}
END_TEST

START_TEST(test_irq_restores_pf)
{
	/* The handler sets PF; the interrupted code, between a test that clears
	 * it and the setp that reads it, must find it clear after every one. */
	const char *src = ".data\nbad: .quad 0\n.text\nmain:\nmov rcx, 20000\n"
			  "l: mov eax, 1\ntest eax, eax\nwork 20\nsetp bl\nor byte ptr [bad], bl\n"
			  "dec rcx\njnz l\nhlt\nh: xor eax, eax\nret\n";
	struct sim_irq_source irq = hard_irq_at_h(src, 3000);
	struct run r;
	run(&r, src, &(struct opts){ .seed = 3, .irqs = &irq, .n_irqs = 1 });
	ck_halted(&r);
	ck_assert_uint_gt(sim_core_stats(r.s, 0)->irqs_hard, 50);
	ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "bad"), 8), 0);
	done(&r);
}
END_TEST

/* ---- spinning ---- */

/* Two threads of src from "main" with rdi = their CPU, listed CPU 0 first
 * or (reversed) CPU 1 first, run to their halt. */
static void run_pair(struct run *r, const char *src, int reversed)
{
	struct asm_input in = { .nr_cpus = 2, .line_size = 64 };
	char msg[1024];
	memset(r, 0, sizeof *r);
	ck_assert_int_eq(asm_assemble_string("t.s", src, &in, &r->p, &r->e), 0);
	struct sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cpu_model_default(&cfg.cpu);
	cfg.cpu.cores = 2;
	cfg.prog = &r->p;
	struct sim_thread th[2];
	memset(th, 0, sizeof th);
	for (int t = 0; t < 2; t++) {
		int cpu = reversed ? 1 - t : t;
		th[t].cpu = cpu;
		th[t].entry = label(&r->p, "main");
		th[t].regs[R_RDI] = (uint64_t)cpu;
		th[t].regs_set = 1u << R_RDI;
	}
	cfg.threads = th;
	cfg.n_threads = 2;
	cfg.check = 1;
	r->s = sim_create(&cfg, &r->e);
	ck_assert_ptr_nonnull(r->s);
	r->st = sim_run(r->s, &r->e);
	err_format(&r->e, msg, sizeof msg);
	ck_assert_msg(r->st == SIM_HALTED, "%s", msg);
}

START_TEST(test_pause_spin)
{
	const char *src = ".data\n.align 64\nflag: .quad 0\n.text\n"
			  "main:\ncmp rdi, 0\njne setter\n"
			  "spin: pause\nmov rax, [flag]\ntest rax, rax\njz spin\nhlt\n"
			  "setter: work 3000\nmov qword ptr [flag], 1\nhlt\n";
	struct run r;
	run_pair(&r, src, 0);
	const struct core_stats *st = sim_core_stats(r.s, 0);
	ck_assert_uint_gt(st->cycles[CORE_ACT_SPIN], 1000);
	ck_assert_uint_ge(st->halted_at, 3000);
	/* Every cycle up to the halt is counted once. */
	uint64_t sum = 0;
	for (int i = 0; i < CORE_NCYCLES; i++)
		sum += st->cycles[i];
	ck_assert_uint_eq(sum, st->halted_at - st->started);
	done(&r);
}
END_TEST

/* Waiting loops that write their stack, as -O0 code does: a value kept in
 * a slot, and a helper called each time round whose frame writes a slot
 * twice (a push, then a store over it) and leaves it as it was; and loops
 * that count their spins in a register. Each is parked (core 1 waits
 * 200,000 cycles for core 0's flag) and ends exactly as executing it does:
 * every counter, the slots' bytes, the registers, the cycles. A loop
 * whose registers come round the same but whose slot counts up is not
 * parked, nor is one whose counter a compare reads or whose counter's
 * carry is read, and each counts every iteration. */
struct wait_case {
	const char *src;
	int parks;
};

static const struct wait_case waits[] = {
	{"spin: mov rax, [flag]\nmov [rsp-16], rax\nmov rbx, [rsp-16]\npause\n"
	 "test rbx, rbx\njz spin\nhlt\n", 1},
	{"spin: call get\npause\ntest rax, rax\njz spin\nhlt\n"
	 "get: push rbp\nmov rbp, rsp\npush rcx\nmov [rbp-8], rdi\nmov rax, [rbp-8]\n"
	 "mov rax, [flag]\npop rcx\npop rbp\nret\n", 1},
	{"spin: mov rax, [rsp-16]\nadd rax, 1\nmov [rsp-16], rax\nmov rax, [flag]\n"
	 "pause\ntest rax, rax\njz spin\nhlt\n", 0},
	/* spin counters: a 64-bit one and a 32-bit one counted twice */
	{"spin: inc rcx\nmov rax, [flag]\npause\ntest rax, rax\njz spin\nhlt\n", 1},
	{"spin: add edx, 3\nmov rax, [flag]\nlea edx, [rdx-1]\npause\ntest rax, rax\njz spin\nhlt\n", 1},
	/* a counter a compare reads (a timeout), and one whose carry is read */
	{"spin: inc rcx\ncmp rcx, 100000000\njae out\nmov rax, [flag]\npause\ntest rax, rax\n"
	 "jz spin\nout: hlt\n", 0},
	{"spin: mov rax, [flag]\npause\nadd rcx, 1\nadc rdx, 0\ntest rax, rax\njz spin\nhlt\n", 0},
};

static void stack_wait_run(const char *wait, int no_ff, int *parked, struct core_stats *st,
			   struct ms_stats *ms, uint64_t *slots, uint64_t *regs, uint64_t *cycles)
{
	char src[1024];
	snprintf(src, sizeof src, ".data\n.align 64\nflag: .quad 0\n.text\n"
		 "main:\ncmp rdi, 0\njne spin\nwork 200000\nmov qword ptr [flag], 1\nhlt\n%s", wait);
	struct run r;
	struct opts o = {.cores = 2, .no_ff = no_ff, .rdi_is_cpu = 1};
	start(&r, src, &o);
	/* the probe runs at a core's events: with nothing else going on, a
	 * core that once gave up may run ahead for a while first */
	*parked = 0;
	for (uint64_t t = 10000; t < 200000; t += 10000) {
		ck_assert_int_eq(sim_run_until(r.s, t, &r.e), SIM_RUNNING);
		*parked |= sim_parked_cores(r.s);
	}
	r.st = sim_run(r.s, &r.e);
	ck_halted(&r);
	for (int c = 0; c < 2; c++)
		st[c] = *sim_core_stats(r.s, c);
	ms_total_stats(sim_memsys(r.s), ms);
	struct sim_core_view v;
	sim_core_view(r.s, 1, &v);
	for (int i = 0; i < 4; i++)
		slots[i] = sim_peek(r.s, v.regs[R_RSP] - 32 + 8 * (uint64_t)i, 8);
	memcpy(regs, v.regs, sizeof v.regs);
	*cycles = sim_cycles(r.s);
	done(&r);
}

START_TEST(test_parks_stack_writing_loops)
{
	const struct wait_case *k = &waits[_i];
	int parked[2];
	struct core_stats st[2][2];
	struct ms_stats ms[2];
	uint64_t slots[2][4], regs[2][R_NREGS], cycles[2];
	for (int no_ff = 0; no_ff < 2; no_ff++)
		stack_wait_run(k->src, no_ff, &parked[no_ff], st[no_ff], &ms[no_ff], slots[no_ff], regs[no_ff],
			       &cycles[no_ff]);
	ck_assert_int_eq(parked[1], 0);
	ck_assert_int_eq(parked[0], k->parks);
	for (int c = 0; c < 2; c++) {
		ck_assert_uint_eq(st[0][c].instructions, st[1][c].instructions);
		ck_assert_uint_eq(st[0][c].sb_forwards, st[1][c].sb_forwards);
		for (int i = 0; i < CORE_NCYCLES; i++)
			ck_assert_uint_eq(st[0][c].cycles[i], st[1][c].cycles[i]);
		ck_assert_uint_eq(st[0][c].halted_at, st[1][c].halted_at);
	}
	ck_assert_int_eq(memcmp(&ms[0], &ms[1], sizeof ms[0]), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(slots[0][i], slots[1][i]);
	for (int r = 0; r < R_NREGS; r++)
		ck_assert_uint_eq(regs[0][r], regs[1][r]);
	ck_assert_uint_eq(cycles[0], cycles[1]);
	ck_assert_uint_gt(st[0][1].instructions, 1000);  /* it waited */
	if (_i == 2) /* the counting slot: one count a spin, hundreds of spins */
		ck_assert_uint_gt(slots[0][2], 100);
	if (_i == 3) /* the spin counter: one a spin */
		ck_assert_uint_gt(regs[0][R_RCX], 100);
}
END_TEST

/* The plain-add counter program on 4 cores of the default model, built
 * directly through the sim API (as the UI does): seed, start skew, and
 * whether the invariant checker runs. The program is the caller's to free. */
static struct sim *counter_sim(struct program *p, uint64_t seed, uint64_t skew, int check, struct err *e)
{
	struct asm_input in = { .nr_cpus = 4, .line_size = 64 };
	err_clear(e);
	ck_assert_int_eq(asm_assemble_string("t.s", counter_src(0), &in, p, e), 0);
	struct sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cpu_model_default(&cfg.cpu);
	cfg.cpu.cores = 4;
	cfg.prog = p;
	struct sim_thread th[4];
	memset(th, 0, sizeof th);
	for (int t = 0; t < 4; t++) {
		th[t].cpu = t;
		th[t].entry = label(p, "main");
		th[t].regs_set = 1u << R_RDI;
	}
	cfg.threads = th;
	cfg.n_threads = 4;
	cfg.seed = seed;
	cfg.start_skew = skew;
	cfg.check = check;
	struct sim *s = sim_create(&cfg, e);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* ---- runtime faults ---- */

struct fault_case {
	const char *src;
	const char *want;
};

static const struct fault_case fault_cases[] = {
	{ "main:\n  mov rax, [0]\n  hlt\n",
	  "t.s:2:3: core 0: load of 8 bytes at 0x0: address not mapped" },
	{ ".data\n.align 64\nx: .quad 0\n.space 64\n.text\nmain:\n  nop\n  mov qword ptr [x + 60], 1\n",
	  "t.s:8:3: core 0: store of 8 bytes at 0x1007c crosses a 64-byte cache line" },
	{ "main:\n  mov edx, 1\n  xor ecx, ecx\n  div ecx\n",
	  "t.s:4:3: core 0: divide error: division by zero" },
	{ "main:\n  mov rdx, 1\n  mov rcx, 1\n  div rcx\n",
	  "t.s:4:3: core 0: divide error: the quotient does not fit in 64 bits" },
	{ "main:\n  mov eax, 0x8000\n  mov bl, -1\n  idiv bl\n",
	  "t.s:4:3: core 0: divide error: the quotient does not fit in 8 bits" },
	{ "main:\n  call main\n",
	  "t.s:2:3: core 0: stack overflow: call with rsp 0x12000 (stack 0x12000-0x13000)" },
	/* the first pop takes the entry's return-address slot, as on x86 */
	{ "main:\n  pop rax\n  pop rax\n",
	  "t.s:3:3: core 0: stack underflow: pop with rsp 0x13000 (stack 0x12000-0x13000)" },
	{ "main:\n  call f\nf:\n  pop rax\n  mov rax, 99999\n  push rax\n  ret\n",
	  "t.s:7:3: core 0: invalid jump: ret to 0x1869f popped from [0x12ff0]" },
	{ "main:\n  xor eax, eax\n  call rax\n", "t.s:3:3: core 0: call through a null pointer" },
	{ ".data\nfp: .quad 0x1003\n.text\nmain:\n  nop\n  jmp [QWORD PTR fp[rip]]\n",
	  "t.s:6:3: core 0: invalid jump: 0x1003 is not a code address (a function's address, as "
	  "'offset f' or a C function pointer holds)" },
	{ "main:\n  mov rax, OFFSET f\n  mov rbx, [rax]\nf:\n  hlt\n",
	  "t.s:3:3: core 0: load of 8 bytes at 0x1002: address not mapped (a code address: code is not data)" },
	{ "main:\n  nop\n  ud2\n", "t.s:3:3: core 0: ud2: the program trapped (__builtin_trap() or BUG(), "
	  "or a null pointer dereference the compiler found on this path)" },
	{ "main:\n  mov rax, QWORD PTR ds:0\n", "t.s:2:3: core 0: load of 8 bytes at 0x0: address not mapped" },
	{ "main:\n  bh_enable\n", "t.s:2:3: core 0: bh_enable without bh_disable" },
	{ "main:\n  nop\n  nop\n", "t.s:3:3: core 0: ran past the end of the program" },
	{ "main:\n  mov rax, -1\n  work rax\n", "t.s:3:3: core 0: work -1 is negative" },
};

START_TEST(test_faults)
{
	const struct fault_case *k = &fault_cases[_i];
	struct run r;
	char msg[2048];
	run(&r, k->src, &(struct opts){ 0 });
	ck_assert_int_eq(r.st, SIM_ERROR);
	ck_assert_int_eq(r.e.kind, ERR_INPUT);
	err_format(&r.e, msg, sizeof msg);
	ck_assert_str_eq(msg, k->want);
	done(&r);
}
END_TEST

START_TEST(test_limit_and_incremental)
{
	struct run r;
	run(&r, "main:\nl: work 100\njmp l\n", &(struct opts){ .stop = 100000 });
	ck_assert_int_eq(r.st, SIM_LIMIT);
	ck_assert_uint_eq(sim_cycles(r.s), 100000);
	done(&r);

	/* Frame by frame, as the UI drives it: the same result as one run. */
	struct run a;
	run(&a, counter_src(0), &(struct opts){ .cores = 4, .seed = 5, .skew = 50 });
	ck_halted(&a);
	struct program p;
	struct err e;
	struct sim *s = counter_sim(&p, 5, 50, 1, &e);
	enum sim_status st;
	uint64_t t = 0;
	int frames = 0;
	while ((st = sim_run_until(s, t += 500, &e)) == SIM_RUNNING) {
		ck_assert_uint_le(sim_now(s), t);
		frames++;
	}
	ck_assert_int_eq(st, SIM_HALTED);
	ck_assert_int_gt(frames, 3);
	ck_assert_uint_eq(sim_peek(s, addr_of(&p, "counter"), 8),
			  sim_peek(a.s, addr_of(&a.p, "counter"), 8));
	ck_assert_uint_eq(sim_cycles(s), sim_cycles(a.s));
	sim_destroy(s);
	program_free(&p);
	done(&a);
}
END_TEST

/* lat_store_forward: a chain of read-modify-writes of one address takes
 * that many cycles a link (each forwarded load waits for the store before
 * it, beside the instruction's one cycle), and a load after the stores
 * have left the buffer is an L1 hit as before; unset, every forwarded
 * load costs an L1 hit (4 cycles here). The cycles the core spends on
 * L1 hits and forwarded loads, for `links` incs and `gap` nops after: */
static uint64_t chain_cycles(uint32_t fwd, int links, int gap)
{
	char src[4096];
	int n = snprintf(src, sizeof src, ".data\n.align 64\nx: .quad 0\n.text\nmain:\nmov rax, [x]\n");
	for (int i = 0; i < links; i++)
		n += snprintf(src + n, sizeof src - (size_t)n, "inc qword ptr [x]\n");
	for (int i = 0; i < gap; i++)
		n += snprintf(src + n, sizeof src - (size_t)n, "nop\n");
	snprintf(src + n, sizeof src - (size_t)n, "mov rbx, [x]\nhlt\n");
	struct run r;
	run(&r, src, &(struct opts){ .store_forward = fwd });
	ck_halted(&r);
	struct sim_core_view v;
	sim_core_view(r.s, 0, &v);
	ck_assert_uint_eq(v.regs[R_RBX], (uint64_t)links);
	uint64_t t = sim_core_stats(r.s, 0)->cycles[CORE_ACT_L1_HIT];
	done(&r);
	return t;
}

START_TEST(test_store_forward_latency)
{
	/* unset: 4 a forwarded load, so 10 more links cost 40 */
	ck_assert_uint_eq(chain_cycles(0, 10, 0), 48);
	ck_assert_uint_eq(chain_cycles(0, 20, 0), 88);
	/* 1: the store of one link is done when the next load comes, a cycle
	 * later: forwarded loads cost nothing, a link one cycle */
	ck_assert_uint_eq(chain_cycles(1, 10, 0), 8);
	ck_assert_uint_eq(chain_cycles(1, 20, 0), 8);
	/* f > 1: each forwarded load waits f - 1 after its instruction's cycle */
	for (uint32_t f = 2; f <= 6; f++) {
		ck_assert_uint_eq(chain_cycles(f, 20, 0) - chain_cycles(f, 10, 0), 10 * (f - 1));
		/* the last load, 30 nops on, finds the buffer drained: an L1 hit
		 * (4) instead of a wait of f - 1 */
		ck_assert_uint_eq(chain_cycles(f, 20, 30), chain_cycles(f, 20, 0) - (f - 1) + 4);
	}
}
END_TEST

/* store_commit_width: eight stores to one missing line pile up behind
 * the first one's RFO and leave when the line comes, w a cycle: the last
 * one ceil(8 / w) - 1 cycles after the first, so the mfence behind them
 * ends that much later than with no limit (all eight at once). */
static uint64_t burst_end(uint32_t width)
{
	char src[1024];
	int n = snprintf(src, sizeof src, ".data\n.align 64\nx: .space 64\n.text\nmain:\n");
	for (int i = 0; i < 8; i++)
		n += snprintf(src + n, sizeof src - (size_t)n, "mov qword ptr [x + %d], %d\n", 8 * i, i + 1);
	snprintf(src + n, sizeof src - (size_t)n, "mfence\nhlt\n");
	struct run r;
	run(&r, src, &(struct opts){ .commit_width = width });
	ck_halted(&r);
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "x") + 8 * (uint64_t)i, 8), (uint64_t)i + 1);
	uint64_t t = sim_core_stats(r.s, 0)->halted_at;
	done(&r);
	return t;
}

START_TEST(test_store_commit_width)
{
	uint64_t base = burst_end(0);
	for (uint32_t w = 1; w <= 8; w++)
		ck_assert_uint_eq(burst_end(w) - base, (8 + w - 1) / w - 1);
}
END_TEST

/* False sharing, the case the width is for: four cores increment their
 * own quadword of one line, loads forwarded in a cycle, so stores pile up
 * while the line is away and snoops arrive in the middle of a drain. The
 * invariant checker runs throughout (start sets cfg.check); every
 * increment must land. */
START_TEST(test_store_commit_width_false_sharing)
{
	static const char src[] = ".data\n.align 64\nslot: .space 64\n.text\nmain:\n"
		"mov rax, CPU\nlea rdi, [rax*8 + slot]\nmov rcx, 300\n"
		"l: inc qword ptr [rdi]\ndec rcx\njnz l\nhlt\n";
	for (uint32_t w = 0; w <= 2; w++) {
		struct run r;
		run(&r, src, &(struct opts){ .cores = 4, .store_forward = 1, .commit_width = w, .skew = 50, .seed = 3 });
		ck_halted(&r);
		for (int c = 0; c < 4; c++)
			ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "slot") + 8 * (uint64_t)c, 8), 300);
		done(&r);
	}
}
END_TEST

/* ---- store-to-load forwarding, the buffer alone ---- */

START_TEST(test_sb_lookup)
{
	struct sb b;
	struct err e;
	err_clear(&e);
	ck_assert_int_eq(sb_init(&b, 4, 0, &e), 0);
	uint64_t v = 0, ready = 0;
	ck_assert_int_eq(sb_lookup(&b, 0x100, 8, &v, &ready), SB_MISS);
	sb_push(&b, 0x100, 8, 0x1122334455667788ull, 10, 0);
	ck_assert_int_eq(sb_lookup(&b, 0x100, 8, &v, &ready), SB_HIT);   /* same variable */
	ck_assert_uint_eq(v, 0x1122334455667788ull);
	ck_assert_int_eq(sb_lookup(&b, 0x100, 4, &v, &ready), SB_HIT);   /* narrower, same address */
	ck_assert_uint_eq(v, 0x55667788u);
	ck_assert_int_eq(sb_lookup(&b, 0x102, 2, &v, &ready), SB_HIT);   /* inside */
	ck_assert_uint_eq(v, 0x5566u);
	ck_assert_int_eq(sb_lookup(&b, 0x104, 8, &v, &ready), SB_PARTIAL);
	ck_assert_int_eq(sb_lookup(&b, 0x108, 8, &v, &ready), SB_MISS);
	sb_push(&b, 0x100, 2, 0xabcd, 11, 0);                     /* newest first */
	ck_assert_int_eq(sb_lookup(&b, 0x100, 2, &v, &ready), SB_HIT);
	ck_assert_uint_eq(v, 0xabcd);
	ck_assert_uint_eq(ready, 11);                             /* the forwarding store's */
	ck_assert_int_eq(sb_lookup(&b, 0x100, 1, &v, &ready), SB_HIT);
	ck_assert_uint_eq(v, 0xcd);
	ck_assert_int_eq(sb_lookup(&b, 0x100, 8, &v, &ready), SB_PARTIAL); /* wider, same address */
	ck_assert_int_eq(sb_lookup(&b, 0x104, 4, &v, &ready), SB_HIT);     /* the older store */
	ck_assert_uint_eq(v, 0x11223344u);
	ck_assert_uint_eq(ready, 10);
	sb_free(&b);
}
END_TEST

/* ---- fused register form + jne/je ---- */

struct fused_case {
	const char *src;
	int reg;
	uint64_t val;
	uint64_t instructions;  /* each one cpi cycle: also the busy cycles */
};

static const struct fused_case fused_cases[] = {
	/* dec/jnz: 1 + 5 x 2 + hlt */
	{ "main: mov rcx, 5\nl: dec rcx\njnz l\nhlt\n", R_RCX, 0, 12 },
	/* inc, then cmp/jne: 1 + 7 x 3 + hlt */
	{ "main: mov rcx, 0\nl: inc rcx\ncmp rcx, 7\njne l\nhlt\n", R_RCX, 7, 23 },
	/* sub/je not taken twice, then taken: 1 + 3 + 3 + 2 + hlt */
	{ "main: mov rax, 3\nl: sub rax, 1\nje out\njmp l\nout: hlt\n", R_RAX, 0, 10 },
	/* the jnz also reached by a jump of its own (flags from the start) */
	{ "main: mov rcx, 3\njmp j\nl: dec rcx\nj: jnz l\nhlt\n", R_RCX, 0, 10 },
	/* test/jne and and/je: rbx 4 -> 3 -> 2 -> 1 -> 0 */
	{ "main: mov rbx, 4\nl: sub rbx, 1\ntest rbx, rbx\njne l\nmov rax, 6\n"
	  "and rax, 1\nje z\nmov rax, 9\nz: hlt\n", R_RAX, 0, 1 + 4 * 3 + 3 + 1 },
	/* cmp rr/jne, inc_r/je (never equal: falls through) */
	{ "main: mov rdx, 3\nmov rcx, 0\nl: add rcx, 1\ncmp rcx, rdx\njne l\nmov rax, -2\n"
	  "inc rax\nje z\ninc rax\nje z\nmov rax, 5\nz: hlt\n", R_RAX, 0, 2 + 3 * 3 + 5 + 1 },
};

START_TEST(test_fused_pairs)
{
	const struct fused_case *fc = &fused_cases[_i];
	struct run r;
	run(&r, fc->src, &(struct opts){ 0 });
	ck_halted(&r);
	struct sim_core_view v;
	sim_core_view(r.s, 0, &v);
	ck_assert_uint_eq(v.regs[fc->reg], fc->val);
	ck_assert_uint_eq(sim_core_stats(r.s, 0)->instructions, fc->instructions);
	ck_assert_uint_eq(sim_core_stats(r.s, 0)->cycles[CORE_ACT_BUSY], fc->instructions - 1);
	done(&r);
}
END_TEST

/* ---- ghost counters and the observer ---- */

struct obs_log {
	int marks, changes;
	uint64_t last[8];
	enum core_activity act[8];  /* the last activity heard */
	int monotonic;
};

static void on_act(void *ctx, int core, uint64_t cycle, enum core_activity a)
{
	struct obs_log *l = ctx;
	if (cycle < l->last[core])
		l->monotonic = 0;
	l->last[core] = cycle;
	l->act[core] = a;
	l->changes++;
}

static void on_mark(void *ctx, int core, uint64_t cycle, const char *name)
{
	struct obs_log *l = ctx;
	if (!strcmp(name, "here"))
		l->marks++;
	(void)core;
	(void)cycle;
}

/* Two cores whose locked adds miss in the same cycle: the lower-numbered
 * core's request is issued first, whichever thread the scenario listed
 * first (its start event was then queued first), so it reads 0. */
START_TEST(test_same_cycle_misses_in_core_order)
{
	static const char src[] = ".data\n.align 64\nctr: .quad 0\n.align 64\nslot: .quad 0, 0\n.text\n"
				  "main: mov rax, 1\nlock xadd qword ptr [ctr], rax\n"
				  "lea rbx, [slot]\nmov qword ptr [rbx + rdi*8], rax\nhlt\n";
	for (int reversed = 0; reversed < 2; reversed++) {
		struct run r;
		run_pair(&r, src, reversed);
		uint64_t slot = addr_of(&r.p, "slot");
		ck_assert_uint_eq(sim_peek(r.s, slot, 8), 0);      /* core 0 first */
		ck_assert_uint_eq(sim_peek(r.s, slot + 8, 8), 1);  /* then core 1 */
		ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "ctr"), 8), 2);
		done(&r);
	}
}
END_TEST

/* sim_events counts what the driver pops: the start event of a core that
 * only halts; for one load miss on an idle machine, the core's event that
 * issues it, the request's arrival at its agent (no holder to snoop: the
 * data comes from memory), the fill, and the core's event that hits and
 * halts. The unblock that frees the line at its agent is still in flight
 * when the last core halts, and the run ends without it. Stepped one event
 * at a time, the count goes up by exactly one a step; a whole run takes
 * fewer, since there a core whose own cycle comes next goes on instead of
 * scheduling an event for it (run-ahead), which one step at a time it may
 * not. */
START_TEST(test_events_counted)
{
	struct opts o = { 0 };
	struct run r;
	run(&r, "main: hlt\n", &o);
	ck_halted(&r);
	ck_assert_uint_eq(sim_events(r.s), 1);
	done(&r);

	static const char miss[] = ".data\nq: .quad 5\n.text\nmain: mov rax, [q]\nhlt\n";
	run(&r, miss, &o);
	ck_halted(&r);
	ck_assert_uint_eq(sim_events(r.s), 4);
	done(&r);

	o.cores = 4;
	static const char contended[] = ".data\n.align 64\nq: .quad 0\n.text\n"
					"main: mov rcx, 20\nl: lock inc qword ptr [q]\ndec rcx\njnz l\nhlt\n";
	run(&r, contended, &o);
	ck_halted(&r);
	uint64_t whole = sim_events(r.s);
	done(&r);
	start(&r, contended, &o);
	uint64_t steps = 0;
	do {
		ck_assert_uint_eq(sim_events(r.s), steps);
		r.st = sim_step_event(r.s, &r.e);
		steps++;
	} while (r.st == SIM_RUNNING);
	ck_halted(&r);
	ck_assert_uint_eq(sim_events(r.s), steps);
	ck_assert_uint_lt(whole, steps);
	done(&r);
}
END_TEST

static uint64_t split_sum(const struct core_stats *st)
{
	uint64_t n = 0;
	for (int k = 0; k < CORE_NCYCLES; k++)
		n += st->cycles[k];
	return n;
}

/* A run stopped at its cycle limit reports each core's cycles up to the
 * limit and no further: a `work` begun before it is cut there, and a miss
 * still waiting for its line counts up to it. */
START_TEST(test_limit_clips_the_split)
{
	struct opts o = { .stop = 1000 };
	struct run r;
	run(&r, "main: work 100000\njmp main\n", &o);
	ck_assert_int_eq(r.st, SIM_LIMIT);
	ck_assert_uint_eq(sim_cycles(r.s), 1000);
	const struct core_stats *st = sim_core_stats(r.s, 0);
	ck_assert_uint_eq(st->cycles[CORE_ACT_BUSY], 1000);
	ck_assert_uint_eq(split_sum(st), 1000);
	done(&r);

	o.stop = 50;  /* within the load's miss to memory */
	run(&r, ".data\nq: .quad 5\n.text\nmain: mov rax, [q]\nhlt\n", &o);
	ck_assert_int_eq(r.st, SIM_LIMIT);
	st = sim_core_stats(r.s, 0);
	ck_assert_uint_eq(st->cycles[CORE_ACT_MISS], 50);
	ck_assert_uint_eq(split_sum(st), 50);
	done(&r);
}
END_TEST

START_TEST(test_ghost_and_observer)
{
	const char *src = ".data\n.align 64\nc: .quad 0\n.text\nmain:\nmov rcx, 10\n"
			  "l: mark here\nghost_add [c], 1\ndec rcx\njnz l\nmov rax, 7\nghost_read [c], rax\n"
			  "mov rax, 13\nghost_read [c], rax\nhlt\n";
	struct asm_input in = { .nr_cpus = 2, .line_size = 64 };
	struct program p;
	struct err e;
	err_clear(&e);
	ck_assert_int_eq(asm_assemble_string("t.s", src, &in, &p, &e), 0);
	struct sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cpu_model_default(&cfg.cpu);
	cfg.cpu.cores = 2;
	cfg.prog = &p;
	struct sim_thread th[2];
	memset(th, 0, sizeof th);
	th[0].entry = th[1].entry = label(&p, "main");
	th[1].cpu = 1;
	cfg.threads = th;
	cfg.n_threads = 2;
	cfg.check = 1;
	struct sim *s = sim_create(&cfg, &e);
	ck_assert_ptr_nonnull(s);
	struct obs_log log = { .monotonic = 1 };
	sim_set_observer(s, &(struct sim_observer){ on_act, on_mark, &log });
	ck_assert_int_eq(sim_run(s, &e), SIM_HALTED);
	ck_assert_int_eq(log.marks, 20);
	ck_assert_int_gt(log.changes, 2);
	ck_assert_int_eq(log.monotonic, 1);
	const struct ghost *g = sim_ghost(s, addr_of(&p, "c"));
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->exact, 20);
	ck_assert_uint_eq(g->reads, 4);
	ck_assert_uint_ge(g->max_err, 3);     /* 7 vs an exact 10..20 */
	ck_assert_uint_le(g->max_err, 13);
	const struct ghost *list;
	ck_assert_uint_eq(sim_ghosts(s, &list), 1);
	sim_destroy(s);
	program_free(&p);
}
END_TEST

/* Ghost instructions are applied in (cycle, core, program order), not in
 * the order cores reached them while running ahead of one another. */
START_TEST(test_ghost_log_order)
{
	struct ghost_table *t = ghost_table_new();
	ck_assert_ptr_nonnull(t);
	const uint64_t c = 0x1000;
	ck_assert_int_eq(ghost_log(t, 10, 1, 0, c, 5, 0), 0);  /* core 1 ran ahead: add 5 at 10 */
	ck_assert_int_eq(ghost_log(t, 10, 1, 1, c, 3, 0), 0);  /* then read 3, after its add: off by 2 */
	ck_assert_int_eq(ghost_log(t, 5, 0, 1, c, 0, 0), 0);   /* core 0 reads 0 at 5: exact */
	ck_assert_int_eq(ghost_log(t, 10, 0, 1, c, 0, 0), 0);  /* and at 10, before core 1: exact */
	ck_assert_int_eq(ghost_settle(t, 10), 0);
	const struct ghost *g = ghost_find(t, c);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->reads, 1);
	ck_assert_int_eq(g->exact, 0);
	/* before a settled cycle: the caller's promise was broken */
	ck_assert_int_eq(ghost_log(t, 9, 2, 1, c, 0, 0), -2);
	ck_assert_int_eq(ghost_log(t, 20, 2, 1, c, 5, 10), 0);
	ck_assert_int_eq(ghost_settle(t, UINT64_MAX), 0);
	g = ghost_find(t, c);
	ck_assert_int_eq(g->exact, 5);
	ck_assert_uint_eq(g->reads, 4);
	ck_assert_uint_eq(g->max_err, 2);
	ck_assert_uint_eq(g->off_reads, 1);
	ck_assert(g->mean_err == 0.5);
	ck_assert_int_eq(g->last_read, 5);
	ghost_table_free(t);

	/* A long log is applied as it goes, up to the cycle promised, each op
	 * once: 20,000 adds made two cores' worth out of order. */
	t = ghost_table_new();
	for (uint64_t i = 0; i < 10000; i++) {
		ck_assert_int_eq(ghost_log(t, i + 1, 1, 0, c, 1, i), 0);
		ck_assert_int_eq(ghost_log(t, i, 0, 0, c, 2, i), 0);
	}
	ck_assert_int_eq(ghost_settle(t, UINT64_MAX), 0);
	ck_assert_int_eq(ghost_find(t, c)->exact, 30000);
	ghost_table_free(t);
}
END_TEST

/* An activity observer sees the run without changing it (without one, the
 * core runs a loop specialized for that case): every core's counters and
 * the end cycle are the same with and without it. */
START_TEST(test_observer_changes_nothing)
{
	struct core_stats st[2][4];
	uint64_t end[2];
	for (int k = 0; k < 2; k++) {
		struct program p;
		struct err e;
		struct sim *s = counter_sim(&p, 3, 40, 0, &e);
		struct obs_log log = { .monotonic = 1 };
		if (k)
			sim_set_observer(s, &(struct sim_observer){ on_act, on_mark, &log });
		ck_assert_int_eq(sim_run(s, &e), SIM_HALTED);
		ck_assert_int_eq(log.changes > 0, k);
		end[k] = sim_cycles(s);
		for (int c = 0; c < 4; c++)
			st[k][c] = *sim_core_stats(s, c);
		sim_destroy(s);
		program_free(&p);
	}
	ck_assert_uint_eq(end[0], end[1]);
	ck_assert_mem_eq(st[0], st[1], sizeof st[0]);
}
END_TEST

/* A core's activity says what it waits for while it waits, not only once
 * the wait is over: a view drawn mid-wait (the live machine panel) shows a
 * miss stall during a cold load and a store-buffer stall while mfence
 * waits for its store's line. Before, a wait showed whatever the core did
 * before it (here "idle": each run's first access waits) until the wake
 * charged it. */
START_TEST(test_activity_during_waits)
{
	static const char *const src[] = {
		".data\n.align 64\nx: .quad 5\n.text\nmain: mov rax, qword ptr [x]\nhlt\n",
		".data\n.align 64\nx: .quad 5\n.text\nmain: mov qword ptr [x], 1\nmfence\nhlt\n",
	};
	static const enum core_activity want[] = { CORE_ACT_MISS, CORE_ACT_SB_STALL };
	for (int k = 0; k < 2; k++) {
		struct run r;
		start(&r, src[k], &(struct opts){ .cores = 1 });
		struct obs_log log = { .monotonic = 1 };
		sim_set_observer(r.s, &(struct sim_observer){ on_act, on_mark, &log });
		/* well inside the default model's 200-cycle memory latency */
		ck_assert_int_eq(sim_run_until(r.s, 100, &r.e), SIM_RUNNING);
		struct sim_core_view v;
		sim_core_view(r.s, 0, &v);
		ck_assert_int_eq(v.activity, want[k]);
		ck_assert_int_eq(log.act[0], want[k]);
		ck_assert_int_eq(sim_run(r.s, &r.e), SIM_HALTED);
		ck_assert_uint_gt(sim_core_stats(r.s, 0)->cycles[want[k]], 100);
		ck_assert_int_eq(log.monotonic, 1);
		done(&r);
	}
}
END_TEST

/* ---- interrupts and misses ---- */

/* Core 0's activities in order, for the interrupt-and-miss tests: how
 * often an interrupt was entered straight from a miss stall, before the
 * access that missed was made again, and how often right after that
 * access (a miss stall, the access, its cpi if any, then the handler). */
struct irq_log {
	enum core_activity prev[3];  /* the last three heard, newest first */
	int after_fill, after_retry;
};

static void on_irq_act(void *ctx, int core, uint64_t cycle, enum core_activity a)
{
	struct irq_log *l = ctx;
	(void)cycle;
	if (core != 0)
		return;
	if (a == CORE_ACT_IRQ) {
		if (l->prev[0] == CORE_ACT_MISS)
			l->after_fill++;
		else if (l->prev[1] == CORE_ACT_MISS ||
			 (l->prev[2] == CORE_ACT_MISS && l->prev[0] == CORE_ACT_BUSY))
			l->after_retry++;
	}
	l->prev[2] = l->prev[1];
	l->prev[1] = l->prev[0];
	l->prev[0] = a;
}

/* A chain of pointers through 256 lines, none cached, followed by a load
 * (k 0) or by a locked xadd of 0 (k 1): nearly all of the thread's time is
 * miss stalls, so most interrupts arrive during one. Each is taken once
 * the access that missed has been made and its instruction has retired,
 * never between its line's arrival and that access: an interrupt is
 * recognised only between instructions. */
static const char *chase_src(int locked)
{
	static char buf[16384];
	size_t n = 0;
	n += (size_t)snprintf(buf + n, sizeof buf - n, ".percpu\nirqs: .quad 0\n.data\n");
	for (int i = 0; i < 256; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, ".align 64\nn%d: .quad n%d\n", i,
				      (i + 1) % 256);
	snprintf(buf + n, sizeof buf - n,
		 ".text\nmain: mov rsi, offset n0\nmov rcx, 256\n"
		 "l:\n%s"
		 "dec rcx\njnz l\nhlt\n"
		 "h: inc qword ptr gs:[irqs]\nret\n",
		 locked ? "xor eax, eax\nlock xadd qword ptr [rsi], rax\nmov rsi, rax\n"
			: "mov rsi, qword ptr [rsi]\n");
	return buf;
}

START_TEST(test_irq_waits_for_the_missed_instruction)
{
	int locked = _i;
	struct sim_irq_source irq;
	memset(&irq, 0, sizeof irq);
	irq.handler = label_in(chase_src(locked), 1, "h");
	cpuset_add(&irq.cpus, 0);
	irq.kind = IRQ_SOFT;
	irq.every = 1000;
	irq.jitter = 0.5;
	struct run r;
	start(&r, chase_src(locked), &(struct opts){ .seed = 9, .irqs = &irq, .n_irqs = 1 });
	struct irq_log log;
	memset(&log, 0, sizeof log);
	sim_set_observer(r.s, &(struct sim_observer){ on_irq_act, NULL, &log });
	r.st = sim_run(r.s, &r.e);
	ck_halted(&r);
	const struct core_stats *st = sim_core_stats(r.s, 0);
	uint64_t irqs = sim_peek(r.s, program_percpu_offset(&r.p, 0) + addr_of(&r.p, "irqs"), 8);
	ck_assert_uint_eq(irqs, st->irqs_soft);
	printf("%s chase: %llu interrupts, %d right after a missed access, %d before it\n",
	       locked ? "locked" : "load", (unsigned long long)irqs, log.after_retry, log.after_fill);
	ck_assert_int_eq(log.after_fill, 0);
	/* 256 misses of about 200 cycles, an interrupt every 1000 or so:
	 * most land in a miss stall and were held past its access */
	ck_assert_uint_gt(irqs, 40);
	ck_assert_uint_gt((uint64_t)log.after_retry * 2, irqs);
	done(&r);
}
END_TEST

/* The fuzzer's case in small: 64 cores each do locked adds to one line
 * and take a softirq every 1000 cycles. A core waits for the line about
 * 64 transfers, so an interrupt has nearly always arrived by its fill.
 * The line's next owner is guaranteed its access before a forwarded snoop
 * takes the line away; a handler run in between would let it go, the add
 * would miss again, and this run would stop at its limit of 10 M cycles
 * with few adds done. */
START_TEST(test_locked_adds_complete_under_interrupts)
{
	const char *src = ".data\n.align 64\nctr: .quad 0\n.percpu\nirqs: .quad 0\n.text\n"
			  "main: mov rcx, 20\nl: mov rax, 1\nlock xadd qword ptr [ctr], rax\n"
			  "dec rcx\njnz l\nhlt\n"
			  "h: inc qword ptr gs:[irqs]\nret\n";
	enum { CORES = 64 };
	struct sim_irq_source irq;
	memset(&irq, 0, sizeof irq);
	irq.handler = label_in(src, CORES, "h");
	for (int c = 0; c < CORES; c++)
		cpuset_add(&irq.cpus, c);
	irq.kind = IRQ_SOFT;
	irq.every = 1000;
	struct run r;
	run(&r, src, &(struct opts){ .cores = CORES, .seed = 1, .irqs = &irq, .n_irqs = 1,
				     .stop = 10000000 });
	ck_halted(&r);
	ck_assert_uint_eq(sim_peek(r.s, addr_of(&r.p, "ctr"), 8), CORES * 20);
	struct core_stats tot;
	sim_total_core_stats(r.s, &tot);
	ck_assert_uint_eq(tot.locked_ops, CORES * 20);
	ck_assert_uint_gt(tot.irqs_soft, 0);
	printf("%d cores x 20 locked adds under softirqs: %llu cycles, %llu interrupts\n", CORES,
	       (unsigned long long)sim_cycles(r.s), (unsigned long long)tot.irqs_soft);
	done(&r);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_alu, 0, (int)(sizeof alu_cases / sizeof alu_cases[0]));
	tcase_add_test(tc, test_cpu_and_percpu);
	tcase_add_test(tc, test_forwarding);
	tcase_add_test(tc, test_sb_lookup);
	tcase_add_test(tc, test_store_forward_latency);
	tcase_add_test(tc, test_store_commit_width);
	tcase_add_test(tc, test_store_commit_width_false_sharing);
	tcase_add_test(tc, test_sb_full_stalls);
	tcase_add_test(tc, test_lock_add_exact);
	tcase_add_test(tc, test_ops_per_ownership);
	tcase_add_test(tc, test_plain_add_loses_updates);
	tcase_add_test(tc, test_softirq_loses_without_bh_disable);
	tcase_add_test(tc, test_irq_entry_and_exit_take_time);
	tcase_add_test(tc, test_issue_width_groups_simple_instructions);
	tcase_add_test(tc, test_hard_irq_masked_by_cli);
	tcase_add_test(tc, test_irq_restores_pf);
	tcase_add_test(tc, test_pause_spin);
	tcase_add_loop_test(tc, test_parks_stack_writing_loops, 0, (int)(sizeof waits / sizeof waits[0]));
	tcase_add_loop_test(tc, test_faults, 0, (int)(sizeof fault_cases / sizeof fault_cases[0]));
	tcase_add_test(tc, test_limit_and_incremental);
	tcase_add_test(tc, test_same_cycle_misses_in_core_order);
	tcase_add_test(tc, test_events_counted);
	tcase_add_test(tc, test_limit_clips_the_split);
	tcase_add_test(tc, test_ghost_and_observer);
	tcase_add_test(tc, test_ghost_log_order);
	tcase_add_test(tc, test_observer_changes_nothing);
	tcase_add_test(tc, test_activity_during_waits);
	tcase_add_loop_test(tc, test_irq_waits_for_the_missed_instruction, 0, 2);
	tcase_add_test(tc, test_locked_adds_complete_under_interrupts);
	tcase_add_loop_test(tc, test_fused_pairs, 0,
			    (int)(sizeof fused_cases / sizeof fused_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
