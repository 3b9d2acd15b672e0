/* Unit tests of the compiler dialect the assembler reads (GCC's and
 * Clang's Intel output): each operand form's effective address, data
 * directives' bytes, skipped sections, .file/.loc positions, a compiled
 * file's own symbols beside globals, and one exact message per error. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/asm.h"

static const uint8_t compiled[] = { 1, 1, 0 };
static const char *const here[] = { "" };
static const struct asm_input cin = {
	.nr_cpus = 4, .line_size = 64, .compiled = compiled, .compile_dirs = here,
};
/* .data begins after __per_cpu_offset (4 quads), on the next line */
#define D0 (PROG_DATA_BASE + 64)

static int assemble(const char *src, const struct asm_input *in, struct program *p, char *msg,
		    size_t n)
{
	struct err e;
	err_clear(&e);
	int rc = asm_assemble_string("t.s", src, in, p, &e);
	err_format(&e, msg, n);
	return rc;
}

static void ok(const char *src, const struct asm_input *in, struct program *p)
{
	char msg[2048];
	int rc = assemble(src, in, p, msg, sizeof msg);
	ck_assert_msg(rc == 0, "assembly failed: %s", msg);
}

static void fails(const char *src, const struct asm_input *in, const char *want)
{
	char msg[2048];
	struct program p;
	ck_assert_int_eq(assemble(src, in, &p, msg, sizeof msg), -1);
	ck_assert_ptr_null(p.insns);
	ck_assert_str_eq(msg, want);
}

/* The n-th (0-based) symbol named `name`, global or local, in name order. */
static const struct symbol *nth_sym(const struct program *p, const char *name, int n)
{
	for (uint32_t i = 0; i < p->n_syms; i++)
		if (strcmp(p->syms[i].name, name) == 0 && n-- == 0)
			return &p->syms[i];
	return NULL;
}

static int64_t value_of(const struct program *p, const char *name)
{
	const struct symbol *s = nth_sym(p, name, 0);
	ck_assert_msg(s != NULL, "no symbol %s", name);
	return s->value;
}

static uint8_t byte_at(const struct program *p, uint64_t addr)
{
	const uint8_t *b = sp_mem_peek(&p->data_image, addr - p->data_base);
	return b ? *b : 0;
}

static uint64_t le_at(const struct program *p, uint64_t addr, int width)
{
	uint64_t v = 0;
	for (int i = width - 1; i >= 0; i--)
		v = v << 8 | byte_at(p, addr + (uint64_t)i);
	return v;
}

static void ck_mem(const struct operand *o, int gs, int base, int index, int scale, int64_t disp)
{
	ck_assert_int_eq(o->kind, OPND_MEM);
	ck_assert_int_eq(o->gs, gs);
	ck_assert_int_eq(o->base, base);
	ck_assert_int_eq(o->index, index);
	if (index != R_NONE)
		ck_assert_int_eq(o->scale, scale);
	ck_assert_int_eq(o->imm, disp);
}

START_TEST(test_operand_forms)
{
	struct program p;
	ok(".data\nx: .quad 0, 0\n.section .percpu,\"aw\"\npc: .quad 0\npa: .zero 16\n.text\n"
	   "mov rax, QWORD PTR x[rip]\n"           /* 0 */
	   "mov rax, QWORD PTR x+8[rip]\n"
	   "mov rax, qword ptr [rip + x]\n"
	   "mov rax, qword ptr [rip + x + 8]\n"
	   "add QWORD PTR gs:pc[rip], rax\n"       /* 4 */
	   "add qword ptr gs:[rip + pc], rdx\n"
	   "mov esi, OFFSET FLAT:x\n"
	   "mov eax, offset x+8\n"
	   "mov rax, QWORD PTR 8[rdi]\n"           /* 8 */
	   "add DWORD PTR gs:pa[0+rdx*4], 1\n"
	   "add dword ptr gs:[4*rcx + pa], 1\n"
	   "lea rax, pc[rip]\n"
	   "lock add\tQWORD PTR x[rip], 1\n"      /* 12 */
	   "lock; add QWORD PTR x[rip], 1\n"
	   "lock\t\tadd qword ptr [rip + x], 1\n"
	   "rep nop\n"
	   "rep; nop\n"                            /* 16 */
	   "mov rdx, __per_cpu_offset[0+rcx*8]\n"
	   "mov rdx, qword ptr [__per_cpu_offset + rcx*8]\n"
	   "lea rdx, x[rip]\n"
	   "rep ret\n"                             /* 20 */
	   "rep bsf eax, edi\n"
	   "leave\n",
	   &cin, &p);
	int64_t x = value_of(&p, "x");
	ck_assert_int_eq(x, D0);
	ck_mem(&p.insns[0].b, 0, R_NONE, R_NONE, 1, x);
	ck_assert_int_eq(p.insns[0].b.size, 8);
	ck_mem(&p.insns[1].b, 0, R_NONE, R_NONE, 1, x + 8);
	ck_mem(&p.insns[2].b, 0, R_NONE, R_NONE, 1, x);
	ck_mem(&p.insns[3].b, 0, R_NONE, R_NONE, 1, x + 8);
	ck_mem(&p.insns[4].a, 1, R_NONE, R_NONE, 1, 0);
	ck_mem(&p.insns[5].a, 1, R_NONE, R_NONE, 1, 0);
	ck_assert_int_eq(p.insns[6].b.kind, OPND_IMM);
	ck_assert_int_eq(p.insns[6].b.imm, x);
	ck_assert_int_eq(p.insns[7].b.imm, x + 8);
	ck_mem(&p.insns[8].b, 0, R_RDI, R_NONE, 1, 8);
	ck_mem(&p.insns[9].a, 1, R_NONE, R_RDX, 4, 8);
	ck_assert_int_eq(p.insns[9].size, 4);
	ck_mem(&p.insns[10].a, 1, R_NONE, R_RCX, 4, 8);
	ck_mem(&p.insns[11].b, 0, R_NONE, R_NONE, 1, 0); /* pc's per-CPU offset */
	for (int i = 12; i <= 14; i++) {
		ck_assert_int_eq(p.insns[i].op, OP_ADD);
		ck_assert_int_eq(p.insns[i].lock, 1);
		ck_mem(&p.insns[i].a, 0, R_NONE, R_NONE, 1, x);
	}
	ck_assert_int_eq(p.insns[15].op, OP_PAUSE);
	ck_assert_int_eq(p.insns[16].op, OP_PAUSE);
	ck_mem(&p.insns[17].b, 0, R_NONE, R_RCX, 8, PROG_DATA_BASE);
	ck_mem(&p.insns[18].b, 0, R_NONE, R_RCX, 8, PROG_DATA_BASE);
	ck_mem(&p.insns[19].b, 0, R_NONE, R_NONE, 1, x);
	ck_assert_int_eq(p.insns[20].op, OP_RET);
	ck_assert_int_eq(p.insns[21].op, OP_BSF);
	ck_assert_int_eq(p.insns[21].a.reg, R_RAX);
	ck_assert_int_eq(p.insns[21].b.reg, R_RDI);
	ck_assert_int_eq(p.insns[22].op, OP_LEAVE);
	ck_assert_uint_eq(p.n_insns, 23);
	program_free(&p);
}
END_TEST

START_TEST(test_data_directives)
{
	struct program p;
	ok(".bss\n.align 8\nzero8: .zero 8\n"
	   ".section .rodata.str1.1,\"aMS\",@progbits,1\n.LC0: .string \"a\\n\\101\\x42\"\n"
	   ".section .rodata\ns2: .ascii \"xy\", \"z\"\ns3: .asciz \"q\"\n"
	   ".data\n.p2align 4,,10\n"           /* 12 bytes of padding > 10: none */
	   ".globl ptrs, after\nptrs: .quad zero8\n.quad zero8+8\n.long .LC0\n.value 513\n.byte 7\n"
	   ".p2align 3, 0xff\nafter: .quad 1\n"
	   ".local lc\n.comm lc,16,32\n.comm gc,8,8\n.lcomm lcc,4,4\n",
	   &cin, &p);
	ck_assert_int_eq(value_of(&p, "zero8"), D0);
	ck_assert_int_eq(value_of(&p, ".LC0"), D0 + 8);
	const uint8_t str[] = { 'a', '\n', 'A', 'B', 0, 'x', 'y', 'z', 'q', 0 };
	for (unsigned i = 0; i < sizeof str; i++)
		ck_assert_uint_eq(byte_at(&p, D0 + 8 + i), str[i]);
	ck_assert_int_eq(value_of(&p, "s2"), D0 + 13);
	ck_assert_int_eq(value_of(&p, "s3"), D0 + 16);
	uint64_t ptrs = D0 + 18;
	ck_assert_int_eq(program_symbol(&p, "ptrs")->value, (int64_t)ptrs);
	ck_assert_uint_eq(le_at(&p, ptrs, 8), D0);
	ck_assert_uint_eq(le_at(&p, ptrs + 8, 8), D0 + 8);
	ck_assert_uint_eq(le_at(&p, ptrs + 16, 4), D0 + 8);
	ck_assert_uint_eq(le_at(&p, ptrs + 20, 2), 513);
	ck_assert_uint_eq(byte_at(&p, ptrs + 22), 7);
	for (uint64_t a = ptrs + 23; a < D0 + 48; a++)
		ck_assert_uint_eq(byte_at(&p, a), 0xff);
	ck_assert_int_eq(program_symbol(&p, "after")->value, D0 + 48);
	ck_assert_uint_eq(le_at(&p, D0 + 48, 8), 1);
	/* .comm: zeroed, aligned, global unless .local; .lcomm is local */
	ck_assert_ptr_null(program_symbol(&p, "lc"));
	ck_assert_int_eq(value_of(&p, "lc"), D0 + 64);
	ck_assert_int_eq(program_symbol(&p, "gc")->value, D0 + 80);
	ck_assert_ptr_null(program_symbol(&p, "lcc"));
	ck_assert_int_eq(value_of(&p, "lcc"), D0 + 88);
	ck_assert_uint_eq(p.data_size, 64 + 92);
	program_free(&p);
}
END_TEST

START_TEST(test_skipped_and_ignored)
{
	struct program p;
	ok(".file \"t.c\"\n.intel_syntax noprefix\n.text\n.Ltext0:\n.cfi_sections .debug_frame\n"
	   ".globl f\n.type f, @function\nf:\n.cfi_startproc\n#APP\n# 5 \"t.c\" 1\nnop\n# 0 \"\" 2\n"
	   "#NO_APP\n\t.intel_syntax\n\t.att_syntax\nret # a comment after code\n.cfi_endproc\n"
	   ".size f, .-f\n.Lfunc_end0:\n"
	   ".section .debug_info,\"\",@progbits\n.Ldebug_info0:\n.long 0x1ca\n.quad .Letext0-.Ltext0\n"
	   ".uleb128 0x5\n.string \"a\\\"b\"\nanything !! at all\n"
	   ".section .debug_str,\"MS\",@progbits,1\n.LASF0:\n.string \"x\"\n"
	   ".section .note.GNU-stack,\"\",@progbits\n.quad 9\n"
	   ".text\n.pushsection .data\npd: .quad 5\n.popsection\nnop\n"
	   ".section .comment,\"MS\",@progbits,1\n.quad 1\n.previous\nnop\n"
	   ".pushsection .debug_line\n.quad 1\n.popsection\nnop\n"
	   ".data\nd2: .quad 6\n.ident \"GCC: (Debian 12.2.0-14) 12.2.0\"\n",
	   &cin, &p);
	ck_assert_uint_eq(p.n_insns, 5);
	ck_assert_int_eq(p.insns[1].op, OP_RET);
	ck_assert_int_eq(p.insns[4].op, OP_NOP);
	ck_assert_int_eq(value_of(&p, "pd"), D0);
	ck_assert_int_eq(value_of(&p, "d2"), D0 + 8);
	ck_assert_uint_eq(le_at(&p, D0, 8), 5);
	ck_assert_uint_eq(le_at(&p, D0 + 8, 8), 6);
	ck_assert_uint_eq(p.data_size, 64 + 16);
	ck_assert_ptr_null(nth_sym(&p, ".Ldebug_info0", 0));
	ck_assert_ptr_null(nth_sym(&p, ".LASF0", 0));
	ck_assert_ptr_nonnull(program_symbol(&p, "f"));
	program_free(&p);
}
END_TEST

static void ck_loc(const struct program *p, uint32_t insn, const char *file, unsigned line,
		   unsigned col)
{
	const struct src_loc *l = &p->locs[p->insns[insn].loc];
	ck_assert_str_eq(p->files[l->file], file);
	ck_assert_uint_eq(l->line, line);
	ck_assert_uint_eq(l->col, col);
}

static const char gcc_lines[] =
	".file \"t.c\"\n.text\n.file 0 \"/src/dir\" \"t.c\"\nf:\n.file 1 \"t.c\"\n"
	".loc 1 10 5 discriminator 3\nnop\n"               /* 0: t.c:10:5 */
	".loc 1 11 2 is_stmt 0 prologue_end\nnop\n"        /* 1: t.c:11:2 */
	".loc 1 0 0\nnop\n"                                /* 2: t.s:11:1 */
	".file 2 \"inc\" \"h.h\"\n.loc 2 3 1 view .LVU3\nnop\n" /* 3: inc/h.h:3:1 */
	".file 3 \"/usr/include/x.h\"\n.loc 3 7\nnop\n"    /* 4: /usr/include/x.h:7 */
	".data\nv: .quad 1\n";

START_TEST(test_line_info)
{
	struct program p;
	struct asm_input in = cin;
	in.compile_dirs = NULL; /* relative names resolve against .file 0's directory */
	ok(gcc_lines, &in, &p);
	ck_loc(&p, 0, "/src/dir/t.c", 10, 5);
	ck_loc(&p, 1, "/src/dir/t.c", 11, 2);
	ck_loc(&p, 2, "t.s", 11, 1);
	ck_loc(&p, 3, "/src/dir/inc/h.h", 3, 1);
	ck_loc(&p, 4, "/usr/include/x.h", 7, 0);
	/* a data symbol is where the assembly defines it */
	const struct symbol *v = nth_sym(&p, "v", 0);
	ck_assert_str_eq(p.files[p.locs[v->loc].file], "t.s");
	program_free(&p);

	ok(gcc_lines, &cin, &p); /* the driver names the compile directory */
	ck_loc(&p, 0, "t.c", 10, 5);
	ck_loc(&p, 3, "inc/h.h", 3, 1);
	ck_loc(&p, 4, "/usr/include/x.h", 7, 0);
	char where[256];
	program_where(&p, 1, where, sizeof where);
	ck_assert_str_eq(where, "t.c:11");
	program_free(&p);

	/* Clang: DWARF 5's file 0 with an md5, .loc 0 */
	ok("\t.text\n\t.file\t0 \"/src/dir\" \"t.c\" md5 0x017b2c9e0b1b6a4d8f2b7b7a3c1d0e9f\n"
	   "f:\n\t.loc\t0 9 3 is_stmt 0                # t.c:9:3\n\tnop\n", &cin, &p);
	ck_loc(&p, 0, "t.c", 9, 3);
	program_free(&p);
}
END_TEST

START_TEST(test_errors_at_c_lines)
{
	const char *head = ".text\n.file 0 \"/d\" \"t.c\"\n.file 1 \"t.c\"\nf:\n.loc 1 12 5\n";
	char src[1024];
	snprintf(src, sizeof src, "%s\tvmovdqu ymm0, YMMWORD PTR [rdi]\n", head);
	fails(src, &cin, "t.c:12:5: unknown instruction 'vmovdqu' (compiled from t.c: bounce runs integer "
	      "code; see docs/c-workloads.md for the instructions it models) (in the assembly at t.s:6:2: "
	      "'vmovdqu ymm0, YMMWORD PTR [rdi]')");
	snprintf(src, sizeof src, "%s\tnop\n.loc 1 13 3\n\tcall\tmemcpy\n", head);
	/* found at the end, when the line's text is gone */
	fails(src, &cin, "t.c:13:3: call to 'memcpy', which no program defines (there is no C library: define it in a .c file of \"program\", or leave it out) (in the assembly at t.s:8:7)");
	snprintf(src, sizeof src, "%s.loc 1 14 1\n\tmov rax, QWORD PTR [rip + 8]\n", head);
	fails(src, &cin, "t.c:14:1: a rip-relative address needs a symbol (sym[rip] or [rip + sym]) "
	      "(in the assembly at t.s:7:22: 'mov rax, QWORD PTR [rip + 8]')");
	/* outside an instruction, the assembly's position */
	fails(".loc 7 1 1\n", &cin, "t.s:1:6: expected a file number that a .file line gave");
	fails(".file 1 \"t.c\"\n.loc 1 2 3 bogus\n", &cin, "t.s:2:12: unexpected 'bogus' in .loc");
	fails(".section .tdata,\"awT\",@progbits\n", &cin,
	      "t.s:1:10: unknown section '.tdata' (bounce loads .text*, .data*, .bss*, .rodata* and "
	      ".percpu, and skips sections that are not allocated, such as .debug_*)");
	fails(".popsection\n", &cin, "t.s:1:1: .popsection without .pushsection");
	fails(".p2align 13\n", &cin, "t.s:1:10: .p2align 13 is not in 0..12");
	/* a switch's jump table, as GCC writes it, whose table is missing */
	fails("\tjmp\t[QWORD PTR .L4[0+rdi*8]]\n", &cin, "t.s:1:17: undefined symbol '.L4'");
	fails("jmp 5\n", &cin, "t.s:1:5: 'jmp' needs a label but found number");
	fails("rep movsb\n", &cin, "t.s:1:1: 'rep' is modelled only in 'rep nop' (pause), 'rep ret' and 'rep bsf': string instructions are not (call memset or memcpy of lib/string.s instead; see docs/c-workloads.md)");
	fails("pxor xmm0, xmm0\n", &cin, "t.s:1:1: unknown instruction 'pxor' (in compiler output: bounce runs "
	      "integer code; see docs/c-workloads.md for the instructions it models)");
	fails(".data\n.string 5\n", &cin, "t.s:2:9: expected a string in quotes");
	fails(".comm c, 8, 3\n", &cin, "t.s:1:13: alignment 3 is not a power of two in 1..4096");
	fails(".data\n.p2align 3, 256\n", &cin, "t.s:2:13: fill value 256 does not fit in a byte");
	fails("mov rax, 0x123456789abcdef0123\n", &cin, "t.s:1:10: number too large");
	fails(".data\nx: .quad 0\n.text\nmov rax, [rip - x + rbx]\n", &cin,
	      "t.s:4:11: rip cannot be combined with another register");
}
END_TEST

/* Files in a fresh directory: each name, then its text. */
static char dir[64];

static void files_in_dir(const char *const *nt, size_t n)
{
	snprintf(dir, sizeof dir, "/tmp/check_asm_dialect.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i + 1 < n; i += 2) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", dir, nt[i]);
		FILE *f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		ck_assert_int_ge(fputs(nt[i + 1], f), 0);
		ck_assert_int_eq(fclose(f), 0);
	}
}

static int assemble_dir(const char *const *names, size_t n, struct program *p, char *msg,
			size_t len)
{
	char paths[4][128];
	const char *files[4];
	for (size_t i = 0; i < n; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
		files[i] = paths[i];
	}
	struct asm_input in = { .files = files, .n_files = n, .nr_cpus = 4, .line_size = 64,
				.compiled = compiled };
	struct err e;
	err_clear(&e);
	int rc = asm_assemble(&in, p, &e);
	err_format(&e, msg, len);
	return rc;
}

static void remove_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* a.s and b.s are compiler output (compiled[0], [1]); c.s, third, is not. */
static const char *const scope_files[] = {
	"a.s", ".text\nhelper: ret\n.globl fa\nfa: call helper\nlea rax, hits[rip]\nret\n"
	       ".local hits\n.comm hits,8,8\n.globl shared\n.data\nshared: .quad 1\n.L1: .quad 2\n",
	"b.s", ".text\nhelper: nop\nret\n.globl fb\nfb: call helper\nmov rax, QWORD PTR shared[rip]\n"
	       "lea rax, hits[rip]\nlea rax, .L1[rip]\nret\n.bss\nhits: .zero 8\n.L1: .quad 0\n",
	"c.s", "main: call fa\ncall fb\nhlt\n.data\nhits: .quad 3\n",
	"dup.s", ".globl shared\n.data\nshared: .quad 1\n",
};

START_TEST(test_file_scope)
{
	files_in_dir(scope_files, sizeof scope_files / sizeof scope_files[0]);
	const char *names[] = { "a.s", "b.s", "c.s" };
	struct program p;
	char msg[2048];
	int rc = assemble_dir(names, 3, &p, msg, sizeof msg);
	ck_assert_msg(rc == 0, "%s", msg);
	/* a: helper 0, fa 1-3; b: helper 4-5, fb 6-10; c: main 11 */
	ck_assert_uint_eq(p.insns[1].target, 0);
	ck_assert_uint_eq(p.insns[6].target, 4);
	ck_assert_uint_eq(p.insns[11].target, 1);
	ck_assert_uint_eq(p.insns[12].target, 6);
	ck_assert_ptr_null(program_symbol(&p, "helper"));
	ck_assert_int_eq(program_symbol(&p, "fa")->value, 1);
	ck_assert_int_eq(program_symbol(&p, "fb")->value, 6);
	/* each file's hits, and c.s's global one */
	int64_t shared = program_symbol(&p, "shared")->value;
	int64_t a_hits = p.insns[2].b.imm, b_hits = p.insns[8].b.imm;
	ck_assert_int_eq(p.insns[7].b.imm, shared);
	ck_assert_int_ne(a_hits, b_hits);
	const struct symbol *g = program_symbol(&p, "hits");
	ck_assert_int_eq(g->local, 0);
	ck_assert_uint_eq(le_at(&p, (uint64_t)g->value, 8), 3);
	ck_assert_int_eq(nth_sym(&p, "hits", 1)->local, 1);
	ck_assert_int_eq(nth_sym(&p, "hits", 2)->local, 1);
	ck_assert_ptr_null(nth_sym(&p, "hits", 3));
	int64_t l1 = p.insns[9].b.imm; /* b's .L1, not a's */
	ck_assert_uint_eq(le_at(&p, (uint64_t)shared + 8, 8), 2);
	ck_assert_int_eq(l1, b_hits + 8);
	program_free(&p);

	const char *dup[] = { "a.s", "dup.s" };
	ck_assert_int_eq(assemble_dir(dup, 2, &p, msg, sizeof msg), -1);
	char want[512];
	snprintf(want, sizeof want, "%s/dup.s:3:1: duplicate symbol 'shared' (first defined at %s/a.s:11:1)",
		 dir, dir);
	ck_assert_str_eq(msg, want);
	remove_dir();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("asm_dialect");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_operand_forms);
	tcase_add_test(tc, test_data_directives);
	tcase_add_test(tc, test_skipped_and_ignored);
	tcase_add_test(tc, test_line_info);
	tcase_add_test(tc, test_errors_at_c_lines);
	tcase_add_test(tc, test_file_scope);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
