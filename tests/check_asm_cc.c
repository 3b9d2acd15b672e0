/* The assembler on what the host's GCC and Clang really emit: the C files
 * in tests/fixtures/c are compiled now, with the compile driver's flags,
 * and the output must assemble with each symbol in its scope, the data
 * as C initialised it, and the key instructions at their C lines. A
 * compiler that is not installed is skipped (GCC builds bounce). */
#include "config.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/asm.h"

#define FLAGS "-O2 -S -masm=intel -fno-pic -fno-asynchronous-unwind-tables " \
	"-fcf-protection=none -ffreestanding -mno-red-zone -mgeneral-regs-only -g1"

static char tmp[64];
static char src[2][PATH_MAX];   /* counters.c, statics.c */

static int installed(const char *cc)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", cc);
	return system(cmd) == 0;
}

/* Compile fixture i with cc into tmp/NAME-cc.s; the path into out. */
static void compile(const char *cc, const char *extra, int i, char *out, size_t n)
{
	const char *base = strrchr(src[i], '/') + 1;
	snprintf(out, n, "%s/%.*s-%s.s", tmp, (int)(strlen(base) - 2), base, cc);
	char cmd[3 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "%s " FLAGS " %s '%s' -o '%s'", cc, extra, src[i], out);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* The line of fixture i whose comment says "line: name". */
static unsigned marked_line(int i, const char *name)
{
	FILE *f = fopen(src[i], "r");
	ck_assert_ptr_nonnull(f);
	char buf[512], mark[64];
	snprintf(mark, sizeof mark, "/* line: %s */", name);
	unsigned line = 0, found = 0;
	while (!found && fgets(buf, sizeof buf, f)) {
		line++;
		if (strstr(buf, mark))
			found = line;
	}
	fclose(f);
	ck_assert_msg(found, "no line marked %s", name);
	return found;
}

/* The file-local symbol `name` defined in the assembly file ending in `file`. */
static const struct symbol *local_in(const struct program *p, const char *name, const char *file)
{
	const struct symbol *r = NULL;
	for (uint32_t i = 0; i < p->n_syms; i++) {
		const struct symbol *s = &p->syms[i];
		const char *f = p->files[p->locs[s->loc].file];
		size_t fl = strlen(f), nl = strlen(file);
		if (s->local && !strcmp(s->name, name) && fl >= nl && !strcmp(f + fl - nl, file)) {
			ck_assert_msg(!r, "two local %s in %s", name, file);
			r = s;
		}
	}
	ck_assert_msg(r != NULL, "no local %s in %s", name, file);
	return r;
}

static int count_named(const struct program *p, const char *name)
{
	int n = 0;
	for (uint32_t i = 0; i < p->n_syms; i++)
		n += !strcmp(p->syms[i].name, name);
	return n;
}

static int mem_is(const struct operand *o, int gs, int64_t disp)
{
	return o->kind == OPND_MEM && o->gs == gs && o->base == R_NONE && o->imm == disp;
}

/* Some instruction at fixture i's line with this op and lock prefix whose
 * memory operand is [disp] (gs: when gs); disp < 0: any memory operand. */
static int insn_at(const struct program *p, int i, unsigned line, int op, int lock, int gs,
		   int64_t disp)
{
	for (uint32_t k = 0; k < p->n_insns; k++) {
		const struct insn *in = &p->insns[k];
		const struct src_loc *l = &p->locs[in->loc];
		if (strcmp(p->files[l->file], src[i]) || l->line != line || in->op != op ||
		    in->lock != lock)
			continue;
		if (disp < 0 ? in->a.kind == OPND_MEM || in->b.kind == OPND_MEM :
			       mem_is(&in->a, gs, disp) || mem_is(&in->b, gs, disp))
			return 1;
	}
	return 0;
}

static uint64_t quad_at(const struct program *p, uint64_t addr)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--) {
		const uint8_t *b = sp_mem_peek(&p->data_image, addr + (uint64_t)i - p->data_base);
		v = v << 8 | (b ? *b : 0);
	}
	return v;
}

static void check_output(const char *cc, const char *extra)
{
	if (!installed(cc)) {
		printf("check_asm_cc: %s is not installed: skipped\n", cc);
		return;
	}
	char s0[PATH_MAX], s1[PATH_MAX];
	compile(cc, extra, 0, s0, sizeof s0);
	compile(cc, extra, 1, s1, sizeof s1);
	const char *files[] = { s0, s1 };
	static const uint8_t compiled[] = { 1, 1 };
	struct asm_input in = { .files = files, .n_files = 2, .nr_cpus = 4, .line_size = 64,
				.compiled = compiled };
	struct program p;
	struct err e;
	char msg[2048];
	err_clear(&e);
	int rc = asm_assemble(&in, &p, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(rc == 0, "%s: %s", cc, msg);

	const char *data[] = { "counter", "stats", "lock" }, *code[] = { "worker", "locked", "other" };
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(program_symbol(&p, data[i])->section, SEC_DATA);
		ck_assert_int_eq(program_symbol(&p, code[i])->section, SEC_TEXT);
	}
	const struct symbol *pc = program_symbol(&p, "pcpu_count");
	ck_assert_int_eq(pc->section, SEC_PERCPU);
	/* the statics: each file's own, none global */
	ck_assert_ptr_null(program_symbol(&p, "hits"));
	ck_assert_ptr_null(program_symbol(&p, "count_hit"));
	ck_assert_int_eq(count_named(&p, "hits"), 2);
	ck_assert_int_eq(count_named(&p, "count_hit"), 2);
	const struct symbol *hits0 = local_in(&p, "hits", s0 + strlen(tmp));
	const struct symbol *hits1 = local_in(&p, "hits", s1 + strlen(tmp));
	ck_assert_int_eq(local_in(&p, "count_hit", s1 + strlen(tmp))->section, SEC_TEXT);

	/* struct stats stats = { 1, 2, &counter, "stats" } */
	uint64_t st = (uint64_t)program_symbol(&p, "stats")->value;
	int64_t counter = program_symbol(&p, "counter")->value;
	ck_assert_uint_eq(quad_at(&p, st), 1);
	ck_assert_uint_eq(quad_at(&p, st + 8), 2);
	ck_assert_uint_eq(quad_at(&p, st + 16), (uint64_t)counter);
	/* "stats\0", little-endian in the low six bytes */
	ck_assert_uint_eq(quad_at(&p, quad_at(&p, st + 24)) & 0xffffffffffffull, 0x007374617473ull);

	ck_assert_msg(insn_at(&p, 0, marked_line(0, "atomic"), OP_ADD, 1, 0, counter),
		      "%s: no lock add to counter at the atomic line", cc);
	ck_assert_msg(insn_at(&p, 0, marked_line(0, "percpu"), OP_ADD, 0, 1, pc->value) ||
		      insn_at(&p, 0, marked_line(0, "percpu"), OP_INC, 0, 1, pc->value),
		      "%s: no gs: add to pcpu_count at the percpu line", cc);
	ck_assert_msg(insn_at(&p, 0, marked_line(0, "ticket"), OP_XADD, 1, 0, -1),
		      "%s: no lock xadd at the ticket line", cc);
	ck_assert_msg(insn_at(&p, 0, marked_line(0, "hit"), OP_ADD, 1, 0, hits0->value),
		      "%s: no lock add to counters.c's hits at its line", cc);
	ck_assert_msg(insn_at(&p, 1, marked_line(1, "own_hit"), OP_ADD, 0, 0, hits1->value),
		      "%s: no add to statics.c's hits at its line", cc);
	program_free(&p);
}

static void setup(void)
{
	const char *top = getenv("top_srcdir");
	const char *name[] = { "counters.c", "statics.c" };
	for (int i = 0; i < 2; i++) {
		char rel[PATH_MAX];
		snprintf(rel, sizeof rel, "%s/tests/fixtures/c/%s", top ? top : ".", name[i]);
		ck_assert_msg(realpath(rel, src[i]) != NULL, "cannot find %s", rel);
	}
	snprintf(tmp, sizeof tmp, "/tmp/check_asm_cc.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_gcc)
{
	check_output("gcc", "");
}
END_TEST

START_TEST(test_clang)
{
	/* clang's own assembler would refuse bounce's pseudo-instructions in
	 * inline asm; the driver uses the external one's syntax */
	check_output("clang", "-fno-integrated-as");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("asm_cc");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_gcc);
	tcase_add_test(tc, test_clang);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
