/* The x86-TSO litmus tests (Sewell et al., CACM 2010) on the simulated
 * machine: SB, SB+mfence, SB with GCC's fence (lock or [rsp], 0), MP, LB,
 * IRIW and 2+2W, each run over hundreds of seeds with random start skew.
 * No outcome x86-TSO forbids may appear; SB's relaxed outcome must appear
 * without a fence and never with one. The outcome histograms go to stdout
 * (the test log). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "cpu/sim.h"

#define SEEDS 400
/* Start skews from tight (SB's window is a few cycles) to wider than a
 * memory access (so either thread can run entirely first). */
static const uint64_t skews[] = { 8, 40, 300, 1500 };

struct litmus {
	const char *name;
	const char *src;        /* threads t0..t(n-1); x, y on separate lines */
	int threads;
	/* The outcome as a small number, from the final machine. */
	unsigned (*outcome)(struct sim *s, const struct program *p, char *buf, size_t n);
	unsigned forbidden;     /* outcome that x86-TSO forbids, or ~0u */
	unsigned required;      /* outcome that must appear, or ~0u */
};

static uint64_t reg(struct sim *s, int core, int r)
{
	struct sim_core_view v;
	sim_core_view(s, core, &v);
	return v.regs[r];
}

static uint64_t var(struct sim *s, const struct program *p, const char *name)
{
	const struct symbol *sym = program_symbol(p, name);
	ck_assert_ptr_nonnull(sym);
	return sim_peek(s, (uint64_t)sym->value, 8);
}

/* SB, SB+mfence, LB: (t0.rax, t1.rax) */
static unsigned two_regs(struct sim *s, const struct program *p, char *buf, size_t n)
{
	uint64_t a = reg(s, 0, R_RAX), b = reg(s, 1, R_RAX);
	snprintf(buf, n, "r0=%llu r1=%llu", (unsigned long long)a, (unsigned long long)b);
	(void)p;
	return (unsigned)(a * 2 + b);
}

/* MP: t1 reads y then x */
static unsigned mp(struct sim *s, const struct program *p, char *buf, size_t n)
{
	uint64_t a = reg(s, 1, R_RAX), b = reg(s, 1, R_RBX);
	snprintf(buf, n, "y=%llu x=%llu", (unsigned long long)a, (unsigned long long)b);
	(void)p;
	return (unsigned)(a * 2 + b);
}

/* IRIW: t2 reads x then y, t3 reads y then x */
static unsigned iriw(struct sim *s, const struct program *p, char *buf, size_t n)
{
	uint64_t a = reg(s, 2, R_RAX), b = reg(s, 2, R_RBX), c = reg(s, 3, R_RAX), d = reg(s, 3, R_RBX);
	snprintf(buf, n, "t2:x=%llu,y=%llu t3:y=%llu,x=%llu", (unsigned long long)a,
		 (unsigned long long)b, (unsigned long long)c, (unsigned long long)d);
	(void)p;
	return (unsigned)(a * 8 + b * 4 + c * 2 + d);
}

/* 2+2W: the final x and y */
static unsigned w22(struct sim *s, const struct program *p, char *buf, size_t n)
{
	uint64_t x = var(s, p, "x"), y = var(s, p, "y");
	snprintf(buf, n, "x=%llu y=%llu", (unsigned long long)x, (unsigned long long)y);
	return (unsigned)(x * 3 + y);
}

#define VARS ".data\n.align 64\nx: .quad 0\n.align 64\ny: .quad 0\n.align 64\n.text\n"

static const struct litmus tests[] = {
	{ "SB", VARS "t0: mov qword ptr [x], 1\nmov rax, [y]\nhlt\n"
		     "t1: mov qword ptr [y], 1\nmov rax, [x]\nhlt\n",
	  2, two_regs, ~0u, 0 /* r0=0 r1=0 */ },
	{ "SB+mfence", VARS "t0: mov qword ptr [x], 1\nmfence\nmov rax, [y]\nhlt\n"
			    "t1: mov qword ptr [y], 1\nmfence\nmov rax, [x]\nhlt\n",
	  2, two_regs, 0, ~0u },
	/* GCC's __atomic_thread_fence: a locked RMW of the stack (below a
	 * pushed word, as below a return address), a full fence */
	{ "SB+lock-or-rsp", VARS "t0: push rax\nmov qword ptr [x], 1\nlock or qword ptr [rsp], 0\n"
				 "mov rax, [y]\nhlt\n"
				 "t1: push rax\nmov qword ptr [y], 1\nlock or qword ptr [rsp], 0\n"
				 "mov rax, [x]\nhlt\n",
	  2, two_regs, 0, ~0u },
	{ "MP", VARS "t0: mov qword ptr [x], 1\nmov qword ptr [y], 1\nhlt\n"
		     "t1: mov rax, [y]\nmov rbx, [x]\nhlt\n",
	  2, mp, 2 /* y=1 x=0 */, ~0u },
	{ "LB", VARS "t0: mov rax, [x]\nmov qword ptr [y], 1\nhlt\n"
		     "t1: mov rax, [y]\nmov qword ptr [x], 1\nhlt\n",
	  2, two_regs, 3 /* r0=1 r1=1 */, ~0u },
	{ "IRIW", VARS "t0: mov qword ptr [x], 1\nhlt\n"
		       "t1: mov qword ptr [y], 1\nhlt\n"
		       "t2: mov rax, [x]\nmov rbx, [y]\nhlt\n"
		       "t3: mov rax, [y]\nmov rbx, [x]\nhlt\n",
	  4, iriw, 8 + 2 /* t2 x=1,y=0 and t3 y=1,x=0 */, ~0u },
	{ "2+2W", VARS "t0: mov qword ptr [x], 1\nmov qword ptr [y], 2\nhlt\n"
		       "t1: mov qword ptr [y], 1\nmov qword ptr [x], 2\nhlt\n",
	  2, w22, 3 + 1 /* x=1 y=1 */, ~0u },
};

START_TEST(test_litmus)
{
	const struct litmus *t = &tests[_i];
	struct asm_input in = { .nr_cpus = t->threads, .line_size = 64 };
	struct program p;
	struct err e;
	char msg[1024];
	err_clear(&e);
	int rc = asm_assemble_string(t->name, t->src, &in, &p, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(rc == 0, "%s", msg);

	unsigned count[64] = { 0 };
	char label[64][96];
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct sim_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cpu_model_default(&cfg.cpu);
		cfg.cpu.cores = t->threads;
		/* Alternate the fabric so both orderings engines are exercised. */
		cfg.cpu.fabric = seed & 1 ? FABRIC_BUS : FABRIC_DIRECTORY;
		/* and the store buffer's ends: forwarded loads in a cycle and the
		 * L1 taking one or two stores a cycle change when stores become
		 * visible, never in what order */
		if ((seed >> 1) % 3) {
			cfg.cpu.lat_store_forward = 1;
			cfg.cpu.store_commit_width = (uint32_t)((seed >> 1) % 3);
		}
		cfg.prog = &p;
		struct sim_thread th[4];
		memset(th, 0, sizeof th);
		for (int k = 0; k < t->threads; k++) {
			char name[4] = { 't', (char)('0' + k), 0, 0 };
			const struct symbol *sym = program_symbol(&p, name);
			ck_assert_ptr_nonnull(sym);
			th[k].cpu = k;
			th[k].entry = (uint32_t)sym->value;
		}
		cfg.threads = th;
		cfg.n_threads = (size_t)t->threads;
		cfg.seed = seed;
		cfg.start_skew = skews[seed % 4];
		cfg.check = 1;
		struct sim *s = sim_create(&cfg, &e);
		ck_assert_ptr_nonnull(s);
		enum sim_status st = sim_run(s, &e);
		err_format(&e, msg, sizeof msg);
		ck_assert_msg(st == SIM_HALTED, "%s seed %llu: %s", t->name, (unsigned long long)seed, msg);
		char buf[96];
		unsigned o = t->outcome(s, &p, buf, sizeof buf);
		ck_assert_uint_lt(o, 64);
		if (!count[o]++)
			snprintf(label[o], sizeof label[o], "%s", buf);
		ck_assert_msg(o != t->forbidden, "%s seed %llu: forbidden outcome %s", t->name,
			      (unsigned long long)seed, buf);
		sim_destroy(s);
	}
	printf("litmus %s (%d seeds, start skew 0..8/40/300/1500):\n", t->name, SEEDS);
	for (unsigned o = 0; o < 64; o++)
		if (count[o])
			printf("  %-28s %4u%s\n", label[o], count[o],
			       o == t->required ? "  (relaxed: allowed by x86-TSO)" : "");
	if (t->required != ~0u)
		ck_assert_msg(count[t->required] > 0, "%s: the relaxed outcome never appeared", t->name);
	program_free(&p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("litmus");
	TCase *tc = tcase_create("litmus");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_litmus, 0, (int)(sizeof tests / sizeof tests[0]));
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
