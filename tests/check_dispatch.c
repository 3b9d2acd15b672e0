/* The interpreter's fast dispatcher against its generic path: every form
 * of src/cpu/core_forms.h, with seeded random operands, registers, flags,
 * memory, cache and store-buffer state, machine settings, interrupts and a
 * second core, runs once by its form and once with every instruction
 * through execute() (sim_config.generic_dispatch), and the two machines
 * must end alike: registers, flags, pc, memory, clocks, every counter and
 * the activity an observer saw. */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "base/asan.h"
#include "cpu/core_forms.h"
#include "cpu/sim.h"
#include "check_loop.h"

static const struct core_form_shape shapes[F_NFORMS] = { CORE_FORMS(CORE_FORM_SHAPE) };
#define FORM_NAME(f, o, a, b, cc, l) [F_##f] = #f,
static const char *const names[F_NFORMS] = { CORE_FORMS(FORM_NAME) };
#undef FORM_NAME

/* Random machines and operands per form. The sanitizer build runs the
 * simulations about eight times slower, and there a third of them still
 * takes every form through ASan and UBSan (its fault paths among them: a
 * fixed subset, since a form's seeds are); the plain build runs them all. */
#ifdef BOUNCE_ASAN
#define SEEDS 50
#else
#define SEEDS 150
#endif
#define WIN_QUADS 32          /* the window: 4 lines of 64 bytes at `win` */
#define MAX_LOG 4096
#define SRC_CAP 4096

/* ---- seeded inputs ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* A value at the edges of the arithmetic now and then, else random bits. */
static uint64_t value(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, ~0ull, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000, 0xffffffff,
		0x7fffffffffffffffull, 0x8000000000000000ull, 0xfffffffffffffffeull,
	};
	uint64_t r = rnd();
	if (r % 3 == 0)
		return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
	return rnd() >> ((r >> 8) % 64);
}

/* ---- one case: a program around the form's instruction ---- */

struct shape_case {
	char src[SRC_CAP];
	uint64_t regs[R_NREGS];
	int cores;                 /* 2: a second core writes the window */
	int irq, observe, check, no_ff;
	struct cpu_model cpu;
	struct sim_irq_source irq_src;
};

/* Appends to the case's program text. */
static int emit(char *buf, int len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int emit(char *buf, int len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + len, SRC_CAP - (size_t)len, fmt, ap);
	va_end(ap);
	ck_assert_int_lt(len + n, SRC_CAP);
	return len + n;
}

/* The program: the window's random contents, a prefix that warms lines
 * and fills the store buffer, the flags loaded, then `test`:
 * two placeholders (the form's instruction and, for a fused form, its
 * jump) and the two places a jump may go. */
static void write_program(struct shape_case *k)
{
	char *s = k->src;
	int n = emit(s, 0, ".data\n.align 64\nwin:");
	for (int i = 0; i < WIN_QUADS; i++)
		n = emit(s, n, "%s%llu", i ? ", " : " .quad ", (unsigned long long)value());
	n = emit(s, n, "\n.text\nmain:\n");
	for (int i = below(12); i > 0; i--) {
		unsigned off = 8 * below(WIN_QUADS);
		switch (below(5)) {
		case 0:
		case 1:
			n = emit(s, n, "mov qword ptr [win+%u], %d\n", off, (int)(rnd() % 1000) - 500);
			break;
		case 2:
			n = emit(s, n, "cmp qword ptr [win+%u], 0\n", off);
			break;
		case 3:
			n = emit(s, n, "work %u\n", below(30));
			break;
		default:
			n = emit(s, n, below(4) ? "pause\n" : "mfence\n");
		}
	}
	/* r15 holds the flags (IF set, the arithmetic flags random) until
	 * popfq, then a value of its own */
	k->regs[R_R15] = 0x202ull | (rnd() & 0x8c5);
	n = emit(s, n, "push r15\npopfq\nmovabs r15, %llu\n", (unsigned long long)value());
	n = emit(s, n, "test:\nnop\nnop\nhlt\nalt:\nhlt\n"
		 "handler:\ninc qword ptr [win+%u]\nret\n", 8 * below(WIN_QUADS));
	n = emit(s, n, "other:\nmov rcx, %u\no_loop:\n%s qword ptr [win+%u], rcx\nwork %u\ndec rcx\n"
		 "jne o_loop\nhlt\n", 1 + below(20), below(2) ? "lock add" : "mov", 8 * below(WIN_QUADS),
		 below(40));
}

static void random_machine(struct shape_case *k)
{
	static const uint32_t widths[] = { 1, 1, 2, 4 };
	cpu_model_default(&k->cpu);
	k->cores = below(3) ? 1 : 2;
	k->cpu.cores = k->cores;
	k->cpu.cpi = 1 + below(2);
	k->cpu.issue_width = widths[below(4)];
	k->cpu.lat_store_forward = below(2) ? 0 : 1 + below(6);
	k->cpu.store_commit_width = below(3);
	k->cpu.sb_entries = 1u << below(4);
	/* a small L1, so that the window's lines also leave it */
	k->cpu.l1_size = 512u << below(4);
	k->cpu.l1_assoc = 2;
	k->cpu.lat_irq_entry = 1 + below(20);
	k->cpu.lat_irq_exit = 1 + below(20);
	k->irq = below(3) == 0;
	k->observe = below(2);
	k->check = below(2);
	k->no_ff = below(2);
}

static struct operand reg_opnd(unsigned r)
{
	struct operand o = { .kind = OPND_REG, .size = 8, .reg = (uint8_t)r, .base = R_NONE,
			     .index = R_NONE };
	return o;
}

static struct operand imm_opnd(int64_t v)
{
	struct operand o = { .kind = OPND_IMM, .size = 8, .reg = R_NONE, .base = R_NONE,
			     .index = R_NONE, .imm = v };
	return o;
}

static unsigned any_reg_but(unsigned not1, unsigned not2)
{
	for (;;) {
		unsigned r = below(R_NREGS);
		if (r != R_RSP && r != R_R15 && r != not1 && r != not2)
			return r;
	}
}

/* A memory operand whose registers the case sets so that it reaches a
 * quad of the window, mostly; now and then an unaligned address (which
 * may cross a line) or one nothing maps, which both paths must refuse
 * alike. */
static struct operand mem_opnd(struct shape_case *k, uint64_t win)
{
	struct operand o = { .kind = OPND_MEM, .size = 8, .reg = R_NONE, .base = R_NONE,
			     .index = R_NONE, .scale = 1 };
	uint64_t addr;
	switch (below(16)) {
	case 0:
		addr = rnd();
		break;
	case 1:
		addr = win + below(8 * WIN_QUADS - 7);
		break;
	default:
		addr = win + 8 * below(WIN_QUADS);
	}
	o.imm = (int64_t)below(512) - 256;
	o.base = (uint8_t)any_reg_but(R_NREGS, R_NREGS);
	uint64_t at = addr - (uint64_t)o.imm;
	if (below(2)) {
		o.index = (uint8_t)any_reg_but(o.base, R_NREGS);
		o.scale = (uint8_t)(1u << below(4));
		k->regs[o.index] = below(16);
		at -= k->regs[o.index] * o.scale;
	}
	k->regs[o.base] = at;
	return o;
}

/* The form's instruction, with its jump after it when the form is fused. */
static void make_insns(struct shape_case *k, unsigned f, uint64_t win, uint32_t test, uint32_t alt,
		       struct insn *in, struct insn *next)
{
	const struct core_form_shape *s = &shapes[f];
	uint32_t loc = in->loc, next_loc = next->loc;
	memset(in, 0, sizeof *in);
	in->op = s->op;
	in->size = 8;
	in->lock = s->lock && s->op != OP_XCHG;  /* xchg with memory is locked without the prefix */
	in->loc = loc;
	in->a = reg_opnd(R_NONE);
	in->a.kind = OPND_NONE;
	in->a.size = 0;
	in->b = in->a;
	if (s->op == OP_JCC || s->op == OP_JMP) {
		in->target = below(2) ? alt : test + 1;
		if (s->op == OP_JCC) {
			unsigned cc = s->cc;
			while (cc == CORE_FORM_CC_ANY) {
				cc = below(CC_NCONDS);
				/* a condition an earlier row takes is not this row's */
				for (unsigned g = F_FIRST_SHAPE; g < f; g++)
					if (shapes[g].op == OP_JCC && shapes[g].cc == cc)
						cc = CORE_FORM_CC_ANY;
			}
			in->cond = (uint8_t)cc;
		}
		return;
	}
	/* memory first: its registers are set before any register operand is
	 * drawn, which may then reuse them */
	if (s->a == OPND_MEM)
		in->a = mem_opnd(k, win);
	if (s->b == OPND_MEM)
		in->b = mem_opnd(k, win);
	if (s->a == OPND_REG)
		in->a = reg_opnd(below(R_NREGS));
	if (s->b == OPND_REG)
		in->b = reg_opnd(below(R_NREGS));
	if (s->b == OPND_IMM)
		in->b = imm_opnd(s->op == OP_MOV && below(2) ? (int64_t)value() : (int32_t)value());
	if (s->cc != CORE_FORM_CC_NONE) {
		memset(next, 0, sizeof *next);
		next->op = OP_JCC;
		next->cond = s->cc;
		next->size = 8;
		next->loc = next_loc;
		next->a.kind = next->b.kind = OPND_NONE;
		next->a.reg = next->a.base = next->a.index = R_NONE;
		next->b = next->a;
		next->target = alt;
	}
}

/* ---- one run and what it ends as ---- */

struct act_entry {
	int core;
	uint64_t cycle;
	int act;
};

struct outcome {
	enum sim_status st;
	char msg[512];
	struct sim_core_view view[2];
	struct core_stats stats[2];
	struct ms_stats ms;
	uint64_t mem[WIN_QUADS];
	uint64_t cycles, events;
	struct act_entry log[MAX_LOG];
	int nlog;
};

static void on_activity(void *ctx, int core, uint64_t cycle, enum core_activity act)
{
	struct outcome *o = ctx;
	if (o->nlog < MAX_LOG)
		o->log[o->nlog++] = (struct act_entry){ core, cycle, (int)act };
}

static uint64_t symbol(const struct program *p, const char *name)
{
	const struct symbol *s = program_symbol(p, name);
	ck_assert_msg(s != NULL, "no symbol %s", name);
	return (uint64_t)s->value;
}

static void run_once(const struct shape_case *k, const struct program *p, int generic,
		     struct outcome *o)
{
	struct err e;
	char msg[2048];
	err_clear(&e);
	struct sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.cpu = k->cpu;
	cfg.prog = p;
	struct sim_thread th[2];
	memset(th, 0, sizeof th);
	th[0].cpu = 0;
	th[0].entry = (uint32_t)symbol(p, "main");
	memcpy(th[0].regs, k->regs, sizeof th[0].regs);
	th[0].regs_set = ((1u << R_NREGS) - 1) & ~(1u << R_RSP);
	th[1].cpu = 1;
	th[1].entry = (uint32_t)symbol(p, "other");
	cfg.threads = th;
	cfg.n_threads = (size_t)k->cores;
	if (k->irq) {
		cfg.irqs = &k->irq_src;
		cfg.n_irqs = 1;
	}
	cfg.stop_cycles = 10000000;
	cfg.seed = 7;
	cfg.check = k->check;
	cfg.no_fast_forward = k->no_ff;
	cfg.generic_dispatch = generic;
	struct sim *s = sim_create(&cfg, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(s != NULL, "sim_create: %s", msg);
	memset(o, 0, sizeof *o);
	if (k->observe) {
		struct sim_observer obs = { .activity = on_activity, .ctx = o };
		sim_set_observer(s, &obs);
	}
	o->st = sim_run(s, &e);
	if (o->st == SIM_ERROR)
		err_format(&e, o->msg, sizeof o->msg);
	for (int c = 0; c < k->cores; c++) {
		sim_core_view(s, c, &o->view[c]);
		o->stats[c] = *sim_core_stats(s, c);
	}
	ms_total_stats(sim_memsys(s), &o->ms);
	uint64_t win = symbol(p, "win");
	for (int i = 0; i < WIN_QUADS; i++)
		o->mem[i] = sim_peek(s, win + 8 * (uint64_t)i, 8);
	o->cycles = sim_cycles(s);
	o->events = sim_events(s);
	sim_destroy(s);
}

#define SAME(what, x, y) \
	loop_assert_msg((x) == (y), "%s, seed %d: %s: %llu by the form, %llu by execute()\n%s", names[f], seed, \
			what, (unsigned long long)(x), (unsigned long long)(y), k->src)

static void compare(unsigned f, int seed, const struct shape_case *k, const struct outcome *a,
		    const struct outcome *b)
{
	SAME("status", a->st, b->st);
	loop_assert_msg(!strcmp(a->msg, b->msg), "%s, seed %d: fault '%s' by the form, '%s' by execute()",
			names[f], seed, a->msg, b->msg);
	for (int c = 0; c < k->cores; c++) {
		const struct sim_core_view *u = &a->view[c], *v = &b->view[c];
		for (int r = 0; r < R_NREGS; r++)
			SAME("a register", u->regs[r], v->regs[r]);
		SAME("pc", u->pc, v->pc);
		SAME("ZF", u->zf, v->zf);
		SAME("SF", u->sf, v->sf);
		SAME("CF", u->cf, v->cf);
		SAME("OF", u->of, v->of);
		SAME("PF", u->pf, v->pf);
		SAME("IF", u->intr_enabled, v->intr_enabled);
		SAME("in_handler", u->in_handler, v->in_handler);
		SAME("halted", u->halted, v->halted);
		SAME("activity", u->activity, v->activity);
		SAME("clock", u->clock, v->clock);
		SAME("store-buffer use", u->sb_used, v->sb_used);
		const struct core_stats *x = &a->stats[c], *y = &b->stats[c];
		SAME("instructions", x->instructions, y->instructions);
		SAME("sb_forwards", x->sb_forwards, y->sb_forwards);
		for (int i = 0; i < CORE_NCYCLES; i++)
			SAME(core_activity_name((enum core_activity)i), x->cycles[i], y->cycles[i]);
		SAME("locked_ops", x->locked_ops, y->locked_ops);
		SAME("locked_cycles", x->locked_cycles, y->locked_cycles);
		SAME("irqs_hard", x->irqs_hard, y->irqs_hard);
		SAME("irqs_soft", x->irqs_soft, y->irqs_soft);
		SAME("halted_at", x->halted_at, y->halted_at);
	}
	loop_assert_msg(!memcmp(&a->ms, &b->ms, sizeof a->ms), "%s, seed %d: memory-system counters differ",
			names[f], seed);
	for (int i = 0; i < WIN_QUADS; i++)
		SAME("a quad of memory", a->mem[i], b->mem[i]);
	SAME("cycles", a->cycles, b->cycles);
	SAME("events", a->events, b->events);
	SAME("activity changes", a->nlog, b->nlog);
	for (int i = 0; i < a->nlog; i++) {
		SAME("an activity's core", a->log[i].core, b->log[i].core);
		SAME("an activity's cycle", a->log[i].cycle, b->log[i].cycle);
		SAME("an activity", a->log[i].act, b->log[i].act);
	}
}

/* ---- the tests ---- */

static struct outcome by_form, by_execute;

START_TEST(test_form_against_execute)
{
	unsigned f = (unsigned)_i;
	int faults = 0;
	for (int seed = 0; seed < SEEDS; seed++) {
		static struct shape_case k;
		memset(&k, 0, sizeof k);
		rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)f << 32) ^ (uint64_t)(seed + 1) * 0x2545f4914f6cdd1dull;
		random_machine(&k);
		for (int r = 0; r < R_NREGS; r++)
			k.regs[r] = value();
		write_program(&k);

		struct asm_input ai = { .nr_cpus = k.cores, .line_size = k.cpu.line_size };
		struct program p;
		struct err e;
		char msg[2048];
		err_clear(&e);
		int rc = asm_assemble_string("t.s", k.src, &ai, &p, &e);
		err_format(&e, msg, sizeof msg);
		ck_assert_msg(rc == 0, "assembly failed: %s\n%s", msg, k.src);
		uint32_t test = (uint32_t)symbol(&p, "test"), alt = (uint32_t)symbol(&p, "alt");
		uint64_t win = symbol(&p, "win");
		make_insns(&k, f, win, test, alt, &p.insns[test], &p.insns[test + 1]);
		k.irq_src.kind = below(2) ? IRQ_HARD : IRQ_SOFT;
		k.irq_src.handler = (uint32_t)symbol(&p, "handler");
		k.irq_src.arrival = SIM_ARRIVAL_PERIODIC;
		k.irq_src.every = 20 + below(200);
		cpuset_add(&k.irq_src.cpus, 0);

		/* the table's row is the form the program's instruction gets */
		uint8_t *forms = core_forms_new(&p, 0);
		ck_assert_ptr_nonnull(forms);
		ck_assert_msg(forms[test] == f, "%s: the instruction built from its row got form %u",
			      names[f], forms[test]);
		free(forms);

		run_once(&k, &p, 0, &by_form);
		run_once(&k, &p, 1, &by_execute);
		compare(f, seed, &k, &by_form, &by_execute);
		faults += by_form.st == SIM_ERROR;
		program_free(&p);
	}
	/* the fault paths were reached, and most runs were not faults */
	if (shapes[f].a == OPND_MEM || shapes[f].b == OPND_MEM)
		ck_assert_int_gt(faults, 0);
	ck_assert_int_lt(faults, SEEDS / 4);
}
END_TEST

/* The generic path really is execute(): every instruction gets F_GENERIC
 * but the sentinel past the end. */
START_TEST(test_generic_forms)
{
	struct asm_input ai = { .nr_cpus = 1, .line_size = 64 };
	struct program p;
	struct err e;
	err_clear(&e);
	ck_assert_int_eq(asm_assemble_string("t.s", "main:\nmov rax, 1\ndec rax\njne main\nhlt\n", &ai, &p,
					     &e), 0);
	uint8_t *fast = core_forms_new(&p, 0), *gen = core_forms_new(&p, 1);
	ck_assert(fast && gen);
	ck_assert_uint_eq(fast[0], F_MOV_RI);
	ck_assert_uint_eq(fast[1], F_DEC_R_JNE);
	ck_assert_uint_eq(fast[2], F_JNE);
	ck_assert_uint_eq(fast[3], F_GENERIC);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(gen[i], F_GENERIC);
	ck_assert_uint_eq(fast[4], F_END);
	ck_assert_uint_eq(gen[4], F_END);
	free(fast);
	free(gen);
	program_free(&p);
}
END_TEST

static Suite *dispatch_suite(void)
{
	Suite *s = suite_create("dispatch");
	TCase *tc = tcase_create("dispatch");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_form_against_execute, F_FIRST_SHAPE, F_NFORMS);
	tcase_add_test(tc, test_generic_forms);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dispatch_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
