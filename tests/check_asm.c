/* Unit tests of the assembler: decoded fields of every instruction form,
 * the memory layout, .equ/defines, .include, one exact message per error
 * class, hostile input, and every .s file in scenarios/lib assembling. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asm/asm.h"

static const struct asm_input in4 = { .nr_cpus = 4, .line_size = 64 };

static void assemble_ok(const char *src, const struct asm_input *in, struct program *p)
{
	struct err e;
	char msg[2048];
	err_clear(&e);
	int rc = asm_assemble_string("t.s", src, in, p, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(rc == 0, "assembly failed: %s", msg);
}

static void assemble_fails(const char *src, const struct asm_input *in, const char *want)
{
	struct err e;
	struct program p;
	char msg[2048];
	err_clear(&e);
	int rc = asm_assemble_string("t.s", src, in, &p, &e);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_null(p.insns);
	ck_assert_ptr_null(p.syms);
	ck_assert_uint_eq(p.data_image.n, 0);
	err_format(&e, msg, sizeof msg);
	ck_assert_str_eq(msg, want);
}

static uint64_t sym(const struct program *p, const char *name)
{
	const struct symbol *s = program_symbol(p, name);
	ck_assert_msg(s != NULL, "no symbol %s", name);
	return (uint64_t)s->value;
}

static uint64_t le64(const uint8_t *b)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* The .data byte at address addr (zeros where the image holds no page). */
static uint8_t data_byte(const struct program *p, uint64_t addr)
{
	const uint8_t *b = sp_mem_peek(&p->data_image, addr - p->data_base);
	return b ? *b : 0;
}

static uint64_t data_le64(const struct program *p, uint64_t addr)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | data_byte(p, addr + (uint64_t)i);
	return v;
}

static void ck_reg(const struct operand *o, int reg, int size)
{
	ck_assert_int_eq(o->kind, OPND_REG);
	ck_assert_int_eq(o->reg, reg);
	ck_assert_int_eq(o->size, size);
}

static void ck_imm(const struct operand *o, int64_t v, int size)
{
	ck_assert_int_eq(o->kind, OPND_IMM);
	ck_assert_int_eq(o->imm, v);
	ck_assert_int_eq(o->size, size);
}

static void ck_mem(const struct operand *o, int base, int index, int scale, int64_t disp,
		   int size, int gs)
{
	ck_assert_int_eq(o->kind, OPND_MEM);
	ck_assert_int_eq(o->base, base);
	ck_assert_int_eq(o->index, index);
	ck_assert_int_eq(o->scale, scale);
	ck_assert_int_eq(o->imm, disp);
	ck_assert_int_eq(o->size, size);
	ck_assert_int_eq(o->gs, gs);
}

/* nr_cpus 4, line 64: the table takes 32 bytes, user .data starts at +64. */
#define X_ADDR (PROG_DATA_BASE + 64)

START_TEST(test_mov_forms)
{
	struct program p;
	assemble_ok(".data\nx: .quad 5\n.percpu\npc: .quad 0\n.text\nmain:\n"
		    "mov rax, rbx\n"                      /* 0 */
		    "mov eax, 7\n"                        /* 1 */
		    "mov rcx, [x]\n"                      /* 2 */
		    "mov qword ptr [rdi + rcx*8 + 16], 1\n" /* 3 */
		    "mov dword [rax], ecx\n"              /* 4 */
		    "mov rdx, CPU\n"                      /* 5 */
		    "mov rax, offset x\n"                 /* 6 */
		    "mov r9, gs:[pc]\n"                   /* 7 */
		    "mov rax, [__per_cpu_offset + rcx*8]\n" /* 8 */
		    "movzx eax, byte ptr [x]\n"           /* 9 */
		    "movsxd rax, ecx\n"                   /* 10 */
		    "lea rsi, [rdi - 8]\n"                /* 11 */
		    "mov r10d, [rbp + 4*rsi - (2+1)*4]\n" /* 12 */
		    "mov byte ptr [x + 1], -1\n"          /* 13 */
		    "MOV R15W, 0xffff\n",                 /* 14 */
		    &in4, &p);
	ck_assert_uint_eq(p.n_insns, 15);
	const struct insn *i = p.insns;
	ck_assert_int_eq(i[0].op, OP_MOV);
	ck_assert_int_eq(i[0].size, 8);
	ck_reg(&i[0].a, R_RAX, 8);
	ck_reg(&i[0].b, R_RBX, 8);
	ck_assert_int_eq(i[1].size, 4);
	ck_reg(&i[1].a, R_RAX, 4);
	ck_imm(&i[1].b, 7, 4);
	ck_mem(&i[2].b, R_NONE, R_NONE, 1, X_ADDR, 8, 0);
	ck_mem(&i[3].a, R_RDI, R_RCX, 8, 16, 8, 0);
	ck_imm(&i[3].b, 1, 8);
	ck_mem(&i[4].a, R_RAX, R_NONE, 1, 0, 4, 0);
	ck_reg(&i[4].b, R_RCX, 4);
	ck_assert_int_eq(i[5].b.kind, OPND_CPU);
	ck_assert_int_eq(i[5].b.size, 8);
	ck_imm(&i[6].b, X_ADDR, 8);
	ck_reg(&i[7].a, R_R9, 8);
	ck_mem(&i[7].b, R_NONE, R_NONE, 1, 0, 8, 1);
	ck_mem(&i[8].b, R_NONE, R_RCX, 8, PROG_DATA_BASE, 8, 0);
	ck_assert_int_eq(i[9].op, OP_MOVZX);
	ck_assert_int_eq(i[9].size, 4);
	ck_mem(&i[9].b, R_NONE, R_NONE, 1, X_ADDR, 1, 0);
	ck_assert_int_eq(i[10].op, OP_MOVSX);
	ck_assert_int_eq(i[10].size, 8);
	ck_reg(&i[10].b, R_RCX, 4);
	ck_assert_int_eq(i[11].op, OP_LEA);
	ck_mem(&i[11].b, R_RDI, R_NONE, 1, -8, 8, 0);
	ck_reg(&i[12].a, R_R10, 4);
	ck_mem(&i[12].b, R_RBP, R_RSI, 4, -12, 4, 0);
	ck_mem(&i[13].a, R_NONE, R_NONE, 1, X_ADDR + 1, 1, 0);
	ck_imm(&i[13].b, -1, 1);
	ck_reg(&i[14].a, R_R15, 2);
	ck_imm(&i[14].b, 0xffff, 2);
	ck_assert_uint_eq(i[0].lock, 0);
	program_free(&p);
}
END_TEST

START_TEST(test_alu_branch_pseudo)
{
	struct program p;
	assemble_ok(".equ BATCH, 32\n.data\nv: .quad 0\n.text\n"
		    "top: add rax, BATCH * NR_CPUS\n"     /* 0 */
		    "lock add qword ptr [v], 1\n"         /* 1 */
		    "lock xadd [v], rax\n"                /* 2 */
		    "lock cmpxchg [rdi], rdx\n"           /* 3 */
		    "xchg rax, [v]\n"                     /* 4: normalized mem first */
		    "test rcx, [v]\n"                     /* 5: normalized mem first */
		    "cmp rax, CPU\n"                      /* 6 */
		    "shl rax, 3\n"                        /* 7 */
		    "shr dword ptr [v], cl\n"             /* 8 */
		    "inc ecx\n"                           /* 9 */
		    "lock dec qword [v]\n"                /* 10 */
		    "jz top\n"                            /* 11 */
		    "jnae later\n"                        /* 12 */
		    "call fn\n"                           /* 13 */
		    "push r12\n"                          /* 14 */
		    "pop rbx\n"                           /* 15 */
		    "work r11\n"                          /* 16 */
		    "mark start\n"                        /* 17 */
		    "mark stop\n"                         /* 18 */
		    "mark start\n"                        /* 19 */
		    "ghost_add [rdi], rax\n"              /* 20 */
		    "ghost_add gs:[rdi + 8], 1\n"         /* 21 */
		    "ghost_read [v], rcx\n"               /* 22 */
		    "later: bh_disable\n"                 /* 23 */
		    "bh_enable\npreempt_disable\npreempt_enable\n" /* 24-26 */
		    "mfence\nlfence\nsfence\npause\nnop\ncli\nsti\nhlt\n" /* 27-34 */
		    "fn: ret\n",                          /* 35 */
		    &in4, &p);
	const struct insn *i = p.insns;
	ck_assert_uint_eq(p.n_insns, 36);
	ck_assert_int_eq(i[0].op, OP_ADD);
	ck_imm(&i[0].b, 128, 8);
	ck_assert_int_eq(i[1].op, OP_ADD);
	ck_assert_int_eq(i[1].lock, 1);
	ck_mem(&i[1].a, R_NONE, R_NONE, 1, X_ADDR, 8, 0);
	ck_assert_int_eq(i[2].op, OP_XADD);
	ck_assert_int_eq(i[2].lock, 1);
	ck_reg(&i[2].b, R_RAX, 8);
	ck_assert_int_eq(i[3].op, OP_CMPXCHG);
	ck_mem(&i[3].a, R_RDI, R_NONE, 1, 0, 8, 0);
	ck_assert_int_eq(i[4].op, OP_XCHG);
	ck_assert_int_eq(i[4].a.kind, OPND_MEM);
	ck_reg(&i[4].b, R_RAX, 8);
	ck_assert_int_eq(i[5].op, OP_TEST);
	ck_assert_int_eq(i[5].a.kind, OPND_MEM);
	ck_reg(&i[5].b, R_RCX, 8);
	ck_assert_int_eq(i[6].b.kind, OPND_CPU);
	ck_assert_int_eq(i[7].op, OP_SHL);
	ck_imm(&i[7].b, 3, 1);
	ck_assert_int_eq(i[8].op, OP_SHR);
	ck_assert_int_eq(i[8].size, 4);
	ck_reg(&i[8].b, R_RCX, 1);
	ck_assert_int_eq(i[9].op, OP_INC);
	ck_reg(&i[9].a, R_RCX, 4);
	ck_assert_int_eq(i[9].b.kind, OPND_NONE);
	ck_assert_int_eq(i[10].op, OP_DEC);
	ck_assert_int_eq(i[10].lock, 1);
	ck_assert_int_eq(i[11].op, OP_JCC);
	ck_assert_int_eq(i[11].cond, CC_E);
	ck_assert_uint_eq(i[11].target, 0);
	ck_assert_int_eq(i[12].cond, CC_B);
	ck_assert_uint_eq(i[12].target, 23);
	ck_assert_int_eq(i[13].op, OP_CALL);
	ck_assert_uint_eq(i[13].target, 35);
	ck_assert_int_eq(i[14].op, OP_PUSH);
	ck_reg(&i[14].a, R_R12, 8);
	ck_assert_int_eq(i[15].op, OP_POP);
	ck_assert_int_eq(i[16].op, OP_WORK);
	ck_reg(&i[16].a, R_R11, 8);
	ck_assert_int_eq(i[17].op, OP_MARK);
	ck_assert_uint_eq(i[17].target, 0);
	ck_assert_uint_eq(i[18].target, 1);
	ck_assert_uint_eq(i[19].target, 0);
	ck_assert_uint_eq(p.n_marks, 2);
	ck_assert_str_eq(p.marks[1], "stop");
	ck_assert_int_eq(i[20].op, OP_GHOST_ADD);
	ck_mem(&i[20].a, R_RDI, R_NONE, 1, 0, 8, 0);
	ck_reg(&i[20].b, R_RAX, 8);
	ck_mem(&i[21].a, R_RDI, R_NONE, 1, 8, 8, 1);
	ck_imm(&i[21].b, 1, 8);
	ck_assert_int_eq(i[22].op, OP_GHOST_READ);
	ck_mem(&i[22].a, R_NONE, R_NONE, 1, X_ADDR, 8, 0);
	static const uint8_t ops[] = { OP_BH_DISABLE, OP_BH_ENABLE, OP_PREEMPT_DISABLE,
				       OP_PREEMPT_ENABLE, OP_MFENCE, OP_LFENCE, OP_SFENCE,
				       OP_PAUSE, OP_NOP, OP_CLI, OP_STI, OP_HLT, OP_RET };
	for (int k = 0; k < 13; k++)
		ck_assert_int_eq(i[23 + k].op, ops[k]);
	char where[64];
	program_where(&p, 23, where, sizeof where);
	ck_assert_str_eq(where, "t.s:28");
	ck_assert_uint_eq(p.locs[i[23].loc].col, 8);
	ck_assert_int_eq(program_symbol(&p, "later")->section, SEC_TEXT);
	ck_assert_int_eq(sym(&p, "BATCH"), 32);
	program_free(&p);
}
END_TEST

START_TEST(test_reg_lookup)
{
	static const struct { const char *n; int reg, size; } t[] = {
		{ "rax", R_RAX, 8 }, { "rsp", R_RSP, 8 }, { "r15", R_R15, 8 }, { "eax", R_RAX, 4 },
		{ "edi", R_RDI, 4 }, { "r8d", R_R8, 4 }, { "r9w", R_R9, 2 }, { "r10b", R_R10, 1 },
		{ "cl", R_RCX, 1 }, { "si", R_RSI, 2 }, { "RBX", R_RBX, 8 },
	};
	uint8_t reg, size;
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		ck_assert_int_eq(asm_reg_lookup(t[k].n, strlen(t[k].n), &reg, &size), 0);
		ck_assert_int_eq(reg, t[k].reg);
		ck_assert_int_eq(size, t[k].size);
	}
	static const char *const bad[] = { "r7", "r16", "r08", "r8x", "rip", "ah", "", "r" };
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_int_eq(asm_reg_lookup(bad[k], strlen(bad[k]), &reg, &size), -1);
}
END_TEST

START_TEST(test_jcc_aliases)
{
	static const struct { const char *m; int cc; } t[] = {
		{ "je", CC_E }, { "jz", CC_E }, { "jne", CC_NE }, { "jnz", CC_NE },
		{ "jl", CC_L }, { "jle", CC_LE }, { "jg", CC_G }, { "jge", CC_GE },
		{ "jb", CC_B }, { "jbe", CC_BE }, { "ja", CC_A }, { "jae", CC_AE },
		{ "js", CC_S }, { "jns", CC_NS }, { "jnge", CC_L }, { "jng", CC_LE },
		{ "jnle", CC_G }, { "jnl", CC_GE }, { "jc", CC_B }, { "jna", CC_BE },
		{ "jnbe", CC_A }, { "jnb", CC_AE }, { "jnc", CC_AE },
	};
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		char src[64];
		struct program p;
		snprintf(src, sizeof src, "l: %s l\n", t[k].m);
		assemble_ok(src, &in4, &p);
		ck_assert_int_eq(p.insns[0].op, OP_JCC);
		ck_assert_int_eq(p.insns[0].cond, t[k].cc);
		program_free(&p);
	}
}
END_TEST

START_TEST(test_layout)
{
	struct program p;
	assemble_ok(".data\n"
		    "a: .quad 1\n"            /* a and b share a line: false sharing */
		    "b: .quad 2\n"
		    ".align 64\n"
		    "c: .long 3, 4\n"
		    ".byte 0xff\n"
		    ".align 64\n"
		    "tbl: .quad a, b, pcb\n"
		    "big: .space 100\n"
		    ".percpu\n"
		    "pca: .quad 7\n"
		    "pcb: .word 9\n"
		    /* GAS's symbol directives in the forms GCC and hand-written
		     * code use are accepted and ignored: no bytes, no size */
		    ".text\n.globl main\n.type main, @function\n.type pca, %object\n"
		    ".type pcb, STT_OBJECT\nmain: nop\n.size main, .-main\n",
		    &in4, &p);
	uint64_t a = sym(&p, "a"), b = sym(&p, "b"), c = sym(&p, "c");
	ck_assert_uint_eq(a, X_ADDR);
	ck_assert_uint_eq(b, X_ADDR + 8);
	ck_assert_uint_eq(a / 64, b / 64);
	ck_assert_uint_eq(c, X_ADDR + 64);
	ck_assert_uint_eq(sym(&p, "tbl"), X_ADDR + 128);
	ck_assert_uint_eq(program_symbol(&p, "a")->size, 8);
	ck_assert_uint_eq(program_symbol(&p, "b")->size, 56);
	ck_assert_uint_eq(program_symbol(&p, "c")->size, 64);
	ck_assert_uint_eq(program_symbol(&p, "big")->size, 100);
	ck_assert_uint_eq(program_symbol(&p, "__per_cpu_offset")->size, 32);
	ck_assert_uint_eq(program_symbol(&p, "pca")->size, 8);
	ck_assert_uint_eq(program_symbol(&p, "pcb")->size, 2);
	ck_assert_int_eq(program_symbol(&p, "pcb")->section, SEC_PERCPU);
	ck_assert_uint_eq(sym(&p, "pca"), 0);
	ck_assert_uint_eq(sym(&p, "pcb"), 8);

	ck_assert_uint_eq(p.data_base, PROG_DATA_BASE);
	ck_assert_uint_eq(p.data_size, 64 + 128 + 24 + 100);
	ck_assert_uint_eq(data_le64(&p, a), 1);
	ck_assert_uint_eq(data_le64(&p, c), 3 | (uint64_t)4 << 32);
	ck_assert_uint_eq(data_byte(&p, c + 8), 0xff);
	ck_assert_uint_eq(data_le64(&p, sym(&p, "tbl")), a);
	ck_assert_uint_eq(data_le64(&p, sym(&p, "tbl") + 16), 8);

	ck_assert_uint_eq(p.percpu_size, 10);
	ck_assert_uint_eq(p.percpu_stride, 64);
	ck_assert_uint_eq(p.percpu_base, 0x11000);
	ck_assert_uint_eq(le64(p.percpu_image), 7);
	ck_assert_uint_eq(p.percpu_image[8], 9);
	for (int cpu = 0; cpu < 4; cpu++)
		ck_assert_uint_eq(data_le64(&p, p.data_base + 8 * (uint64_t)cpu), 0x11000 + 64 * (uint64_t)cpu);
	ck_assert_uint_eq(program_percpu_offset(&p, 3), 0x11000 + 192);
	ck_assert_uint_eq(p.stack_base, 0x12000);
	ck_assert_uint_eq(p.mem_size, 0x12000 + 4 * PROG_STACK_SIZE);
	ck_assert_int_eq(p.nr_cpus, 4);
	program_free(&p);
}
END_TEST

/* .data is sparse: a 1 GiB zero .space holds no page of the image, a fill
 * holds exactly the pages it covers, and a value straddling two pages lands
 * in both. */
START_TEST(test_sparse_data_image)
{
	struct program p;
	assemble_ok(".data\n"
		    "big: .space 0x40000000\n"
		    "fill: .space 8120, 0xab\n"
		    ".space 4\n"
		    "across: .quad 0x1122334455667788\n", &in4, &p);
	uint64_t fill = sym(&p, "fill"), across = sym(&p, "across");
	ck_assert_uint_eq(fill, p.data_base + 64 + 0x40000000);
	ck_assert_uint_eq(data_byte(&p, fill - 1), 0);
	ck_assert_uint_eq(data_byte(&p, fill), 0xab);
	ck_assert_uint_eq(data_byte(&p, fill + 8119), 0xab);
	ck_assert_uint_eq(data_byte(&p, fill + 8120), 0);
	ck_assert_uint_eq(data_le64(&p, across), 0x1122334455667788u);
	/* __per_cpu_offset's page (its 32 bytes padded to a line), the fill's
	 * two pages, and the next one where `across` ends: four 4 KiB pages of
	 * host memory for 1 GiB of .data */
	ck_assert_uint_eq((across - p.data_base) / 4096, 0x40000000 / 4096 + 1);
	ck_assert_uint_eq((across + 7 - p.data_base) / 4096, 0x40000000 / 4096 + 2);
	ck_assert_uint_eq(p.data_image.n, 4);
	program_free(&p);
}
END_TEST

START_TEST(test_layout_empty_percpu_and_big_stride)
{
	struct program p;
	struct asm_input in = { .nr_cpus = 2, .line_size = 128 };
	assemble_ok("nop\n", &in, &p);
	ck_assert_uint_eq(p.percpu_size, 0);
	ck_assert_uint_eq(p.percpu_stride, 128);
	ck_assert_uint_eq(p.data_size, 128);
	program_free(&p);
	assemble_ok(".percpu\n.space 65\n", &in4, &p);
	ck_assert_uint_eq(p.percpu_stride, 128);
	ck_assert_uint_eq(data_le64(&p, p.data_base + 8), p.percpu_base + 128);
	program_free(&p);
}
END_TEST

START_TEST(test_equ_defines)
{
	struct program p;
	struct asm_define defs[] = { { .name = "BATCH", .value = 64 } };
	struct asm_input in = in4;
	in.defines = defs;
	in.n_defines = 1;
	const char *src = ".equ BATCH, 32\n.equ TWICE, BATCH*2\n.equ FWD_USE, 1\n"
			  "mov rax, BATCH\nmov rbx, TWICE\nmov rcx, LATER\n.equ LATER, -(3)\n";
	assemble_ok(src, &in, &p);
	ck_assert_int_eq(p.insns[0].b.imm, 64);
	ck_assert_int_eq(p.insns[1].b.imm, 128);
	ck_assert_int_eq(p.insns[2].b.imm, -3);
	ck_assert_int_eq(program_symbol(&p, "BATCH")->section, SEC_ABS);
	program_free(&p);
	assemble_ok(src, &in4, &p);
	ck_assert_int_eq(p.insns[0].b.imm, 32);
	program_free(&p);
}
END_TEST

/* max/min: the kernel's percpu_counter_batch = max(32, 2 * nr_cpus). */
START_TEST(test_expr_minmax)
{
	struct program p;
	assemble_ok(".equ B, max(32, NR_CPUS * 2)\n.equ S, min(-(1), 3) + max(2, min(7, 5))\n"
		    "mov rax, B\nmov rbx, S\n", &in4, &p);
	ck_assert_int_eq(p.insns[0].b.imm, 32);   /* 4 CPUs: 8 < 32 */
	ck_assert_int_eq(p.insns[1].b.imm, 4);    /* -1 + 5 */
	program_free(&p);
	struct asm_input in64 = in4;
	in64.nr_cpus = 64;
	assemble_ok(".equ B, max(32, NR_CPUS * 2)\nmov rax, B\n", &in64, &p);
	ck_assert_int_eq(p.insns[0].b.imm, 128);
	program_free(&p);
	/* 64-bit two's complement, as GAS and -O0 code have it: INT64_MIN, and
	 * -(2^64 - 1) is 1; a negated expression still checks overflow */
	assemble_ok("movabs rax, -9223372036854775808\nmov rbx, -0xffffffffffffffff\n"
		    "mov rcx, --9223372036854775807\n", &in4, &p);
	ck_assert_int_eq(p.insns[0].b.imm, INT64_MIN);
	ck_assert_int_eq(p.insns[1].b.imm, 1);
	ck_assert_int_eq(p.insns[2].b.imm, INT64_MAX);
	program_free(&p);
	assemble_fails("mov rax, -(9223372036854775807 + 1)\n", &in4, "t.s:1:32: arithmetic overflow");
	assemble_fails(".equ B, max(1 2)\n", &in4, "t.s:1:15: expected ',' but found number");
	assemble_fails(".equ B, min(1, 2\n", &in4, "t.s:1:17: expected ')' but found end of line");
}
END_TEST

static char tmpdir[256];

static void write_file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/check_asm.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	char sub[300];
	snprintf(sub, sizeof sub, "%s/inc", tmpdir);
	mkdir(sub, 0755);
}

static void remove_tmpdir(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static int assemble_file(const char *name, const char *const *dirs, size_t ndirs,
			 struct program *p, char *msg, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	const char *files[] = { path };
	struct asm_input in = in4;
	in.files = files;
	in.n_files = 1;
	in.include_dirs = dirs;
	in.n_include_dirs = ndirs;
	struct err e;
	err_clear(&e);
	int rc = asm_assemble(&in, p, &e);
	err_format(&e, msg, n);
	return rc;
}

START_TEST(test_include)
{
	make_tmpdir();
	write_file("main.s", ".include \"lib.s\"\n.include \"shared.s\"\nmain: call helper\n");
	write_file("lib.s", ".equ N, 3\nhelper: mov eax, N\nret\n");
	write_file("inc/shared.s", ".data\nshared_var: .quad 1\n.text\n");
	char dir[300], msg[2048];
	snprintf(dir, sizeof dir, "%s/inc", tmpdir);
	const char *dirs[] = { dir };
	struct program p;
	int rc = assemble_file("main.s", dirs, 1, &p, msg, sizeof msg);
	ck_assert_msg(rc == 0, "%s", msg);
	ck_assert_uint_eq(p.insns[2].target, 0);
	ck_assert_int_eq(p.insns[0].b.imm, 3);
	char where[600], want[600];
	program_where(&p, 0, where, sizeof where);
	snprintf(want, sizeof want, "%s/lib.s:2", tmpdir);
	ck_assert_str_eq(where, want);
	ck_assert_ptr_nonnull(program_symbol(&p, "shared_var"));
	program_free(&p);

	/* without the include directory the second file is not found */
	rc = assemble_file("main.s", NULL, 0, &p, msg, sizeof msg);
	ck_assert_int_eq(rc, -1);
	snprintf(want, sizeof want, "%s/main.s:2:10: cannot find include file 'shared.s'", tmpdir);
	ck_assert_str_eq(msg, want);
	remove_tmpdir();
}
END_TEST

START_TEST(test_include_cycle_and_depth)
{
	make_tmpdir();
	write_file("a.s", "nop\n.include \"b.s\"\n");
	write_file("b.s", ".include \"a.s\"\n");
	char msg[2048], want[2048];
	struct program p;
	ck_assert_int_eq(assemble_file("a.s", NULL, 0, &p, msg, sizeof msg), -1);
	snprintf(want, sizeof want, "%s/b.s:1:10: include cycle: %s/a.s -> %s/b.s -> %s/a.s",
		 tmpdir, tmpdir, tmpdir, tmpdir);
	ck_assert_str_eq(msg, want);

	for (int k = 0; k < 40; k++) {
		char name[32], text[64];
		snprintf(name, sizeof name, "d%d.s", k);
		snprintf(text, sizeof text, ".include \"d%d.s\"\n", k + 1);
		write_file(name, text);
	}
	write_file("d40.s", "nop\n");
	ck_assert_int_eq(assemble_file("d0.s", NULL, 0, &p, msg, sizeof msg), -1);
	snprintf(want, sizeof want, "%s/d32.s:1:10: includes nested deeper than 32", tmpdir);
	ck_assert_str_eq(msg, want);
	ck_assert_int_eq(assemble_file("d8.s", NULL, 0, &p, msg, sizeof msg), 0);
	program_free(&p);
	remove_tmpdir();
}
END_TEST

START_TEST(test_bad_bytes)
{
	make_tmpdir();
	char path[512], msg[2048], want[2048];
	struct program p;
	snprintf(path, sizeof path, "%s/nul.s", tmpdir);
	FILE *f = fopen(path, "wb");
	fwrite("nop\nmov rax,\0 1\n", 1, 17, f);
	fclose(f);
	ck_assert_int_eq(assemble_file("nul.s", NULL, 0, &p, msg, sizeof msg), -1);
	snprintf(want, sizeof want, "%s/nul.s:2:9: NUL byte in source", tmpdir);
	ck_assert_str_eq(msg, want);
	write_file("utf.s", "nop ; caf\xc3\xa9 is fine in a comment\nnop ; \xff\xfe\n");
	ck_assert_int_eq(assemble_file("utf.s", NULL, 0, &p, msg, sizeof msg), -1);
	snprintf(want, sizeof want, "%s/utf.s:2:7: invalid UTF-8 byte 0xff", tmpdir);
	ck_assert_str_eq(msg, want);
	remove_tmpdir();
	assemble_fails("mov rax, \xc3\xa9\n", &in4, "t.s:1:10: unexpected byte 0xc3");
}
END_TEST

struct err_case {
	const char *src, *want;
};

static const struct err_case err_cases[] = {
	/* unknown mnemonic */
	{ "nop\n  movq rax, 1\n", "t.s:2:3: unknown instruction 'movq'" },
	/* bad operand */
	{ "mov rax, [rbx*3]\n", "t.s:1:15: scale must be 1, 2, 4 or 8" },
	{ "mov rax, [rbx\n", "t.s:1:14: expected '+', '-' or ']' but found end of line" },
	{ "mov rax, (1\n", "t.s:1:12: expected ')' but found end of line" },
	{ "mov rax, [ebx]\n", "t.s:1:11: address register 'ebx' must be 64-bit" },
	{ "mov rax, [rbx - rcx]\n", "t.s:1:17: a register cannot be subtracted" },
	{ "mov rax rbx\n", "t.s:1:9: expected ','" },
	{ "mov al, 300\n", "t.s:1:9: immediate 300 does not fit in 8 bits" },
	{ "mov rax, CPU+1\n", "t.s:1:13: unexpected '+' after CPU: CPU is a whole operand; load it first (mov rax, CPU), then compute with the register" },
	{ "mov rax, 1+CPU\n", "t.s:1:12: CPU is only allowed as a whole operand: load it first (mov rax, CPU), then compute with the register" },
	/* AT&T syntax: say what it is */
	{ "mov $1, %rax\n", "t.s:1:5: unexpected character '$': '$1' is AT&T syntax; bounce's assembly is Intel syntax (write 1, as gcc -masm=intel does)" },
	/* wrong operand kind */
	{ "lea rax, rbx\n", "t.s:1:10: 'lea' needs a memory source" },
	{ "mov [rax], [rbx]\n", "t.s:1:12: 'mov' cannot take two memory operands" },
	{ "push eax\n", "t.s:1:6: 'push' needs a 64-bit register" },
	{ "shl rax, rbx\n", "t.s:1:10: shift count must be an immediate or cl" },
	{ "mov 5, rax\n", "t.s:1:5: 'mov' needs a register or memory destination" },
	{ "mov rxa, 1\n", "t.s:1:5: 'mov' needs a register or memory destination: 'rxa' is not a register (did you mean 'rax'?)" },
	{ "add r16, 1\n", "t.s:1:5: 'add' needs a register or memory destination: 'r16' is not a register (did you mean 'r10'?)" },
	{ "mov zzzz, 1\n", "t.s:1:5: 'mov' needs a register or memory destination: 'zzzz' is not a register" },
	{ ".data\nctr: .quad 0\n.text\nmov ctr, 1\n", "t.s:4:5: 'mov' needs a register or memory destination: 'ctr' is an address; write [ctr] for its memory" },
	{ "mov rdx, qword ptr __per_cpu_offset\n", "t.s:1:36: expected '[' (a memory operand) but found end of line" },
	{ "mov rdx, [rip + 8]\n", "t.s:1:11: a rip-relative address needs a symbol (sym[rip] or [rip + sym])" },
	{ "mov rdx, __per_cpu_offset[rip + rcx*8]\n", "t.s:1:27: rip cannot be combined with another register" },
	{ "cmp CPU, 0\n", "t.s:1:5: 'cmp' needs a register or memory destination: CPU is an immediate (load it into a register first)" },
	{ "inc [rax]\n", "t.s:1:5: operand size not specified: write qword ptr [rax] (or dword, word or byte ptr: the width of what it points to)" },
	{ "mov [rax + 8], 1\n", "t.s:1:5: operand size not specified: write qword ptr [rax + 8] (or dword, word or byte ptr: the width of what it points to)" },
	{ "mov eax, rbx\n", "t.s:1:10: operand size mismatch (32-bit and 64-bit)" },
	{ "mov rax, dword ptr [rbx]\n", "t.s:1:10: operand size mismatch (64-bit and 32-bit)" },
	{ "lock mov [rax], rbx\n", "t.s:1:6: 'lock' cannot prefix 'mov'" },
	{ "lock add rax, 1\n", "t.s:1:10: 'lock' needs a memory destination" },
	{ "ret rax\n", "t.s:1:5: unexpected 'rax' after the operands of 'ret'" },
	{ "add rax\n", "t.s:1:8: 'add' takes 2 operands" },
	{ "work -5\n", "t.s:1:7: work -5 is negative" },
	{ "work eax\n", "t.s:1:6: 'work' needs a cycle count (immediate or 64-bit register)" },
	{ ".data\nx: .quad 0\n.text\nmov rax, x\n",
	  "t.s:4:10: 'x' is an address: write [x] to load it or 'offset x' for the address" },
	{ ".data\nx: .quad 0\n.text\nmov rax, gs:[x]\n",
	  "t.s:4:14: gs: needs a .percpu symbol, 'x' is in .data" },
	{ "mov rax, [pc]\n.percpu\npc: .quad 0\n",
	  "t.s:1:11: 'pc' is a .percpu offset: write gs:[pc] or add a per-CPU offset register" },
	{ "l: mov rax, [l]\n", "t.s:1:14: 'l' is a code label, not data" },
	{ ".data\nmov rax, 1\n", "t.s:2:1: instruction outside .text" },
	{ ".byte 1\n", "t.s:1:7: data directive in .text (write .data or .percpu first)" },
	/* undefined label / symbol */
	{ "jmp nowhere\n", "t.s:1:5: undefined label 'nowhere'" },
	{ "jmp nowher\nnowhere: nop\n", "t.s:1:5: undefined label 'nowher' (did you mean 'nowhere'?)" },
	{ ".data\ncounter: .quad 0\n.text\nmov rax, [countr]\n", "t.s:4:11: undefined symbol 'countr' (did you mean 'counter'?)" },
	{ "mov rax, [nothing + 8]\n", "t.s:1:11: undefined symbol 'nothing'" },
	{ ".data\nv: .quad 0\n.text\njmp v\n", "t.s:4:5: 'v' is not a code label" },
	/* duplicate symbol */
	{ "a:\nnop\n  a: nop\n", "t.s:3:3: duplicate symbol 'a' (first defined at t.s:1:1)" },
	{ ".data\n__per_cpu_offset: .quad 0\n",
	  "t.s:2:1: duplicate symbol '__per_cpu_offset' (first defined at generated by the assembler)" },
	{ "rax: nop\n", "t.s:1:1: 'rax' is a reserved word and cannot be a symbol" },
	/* bad .align */
	{ ".data\n.align 3\n", "t.s:2:8: .align 3 is not a power of two in 1..4096" },
	{ ".data\n.align 8192\n", "t.s:2:8: .align 8192 is not a power of two in 1..4096" },
	/* number overflow */
	{ "mov rax, 99999999999999999999\n", "t.s:1:10: number too large" },
	{ "mov rax, 0x10000000000000000\n", "t.s:1:10: number too large" },
	{ "mov rax, 0x4000000000000000 * 4\n", "t.s:1:29: arithmetic overflow" },
	{ "mov rax, 12abc\n", "t.s:1:10: bad number" },
	/* directives */
	{ ".data\n.space 0x80000001\n", "t.s:2:8: 2147483649 more bytes would make .data 2147483649 bytes, over its limit of 2147483648 (2 GiB): 2147483584 bytes are left" },
	{ ".data\n.quad 1\n.space 2147483584\n", "t.s:3:8: 2147483584 more bytes would make .data 2147483656 bytes, over its limit of 2147483648 (2 GiB): 2147483576 bytes are left" },
	{ ".data\n.space 0x2000000, 1\n.space 0x2000001, 2\n",
	  "t.s:3:8: .space fills more than 67108864 bytes with a non-zero value" },
	{ ".data\n.byte 256\n", "t.s:2:7: value 256 does not fit in 1 byte" },
	{ ".bogus 1\n", "t.s:1:1: unknown directive '.bogus'" },
	{ ".equ X, later\nlater: nop\n", "t.s:1:9: undefined symbol 'later'" },
	{ ".include \"no-such-file.s\"\n", "t.s:1:10: cannot find include file 'no-such-file.s'" },
	{ "mov rax, \"x\n", "t.s:1:10: unterminated string" },
	{ "mov rax, 1 !\n", "t.s:1:12: unexpected character '!'" },
	{ "mov rax, 1 @\n", "t.s:1:12: unexpected '@' after the operands of 'mov'" },
	{ "mov %rax, 1\n", "t.s:1:5: expected an operand but found '%rax': bounce's assembly is Intel "
	  "syntax (write rax, as gcc -masm=intel does)" },
	{ ": nop\n", "t.s:1:1: expected an instruction or directive but found ':'" },
};

START_TEST(test_errors)
{
	assemble_fails(err_cases[_i].src, &in4, err_cases[_i].want);
}
END_TEST

START_TEST(test_unknown_define)
{
	struct asm_define defs[] = { { .name = "BATCH", .value = 64 }, { .name = "NOPE", .value = 1 } };
	struct asm_input in = in4;
	in.defines = defs;
	in.n_defines = 2;
	assemble_fails(".equ BATCH, 32\nnop\n", &in, "define 'NOPE' names no .equ in the program");
}
END_TEST

/* Where a define came from, and the .equ it probably meant. */
START_TEST(test_unknown_define_where)
{
	struct asm_define json[] = { { .name = "FOLDX", .value = 1, .file = "s.json", .line = 3, .col = 7 } };
	struct asm_define cli[] = { { .name = "BATCH", .value = 64, .file = "--set" } };
	struct asm_input in = in4;
	in.defines = json;
	in.n_defines = 1;
	assemble_fails(".equ FOLD, 1\n.equ FBC_BATCH, 32\nnop\n", &in,
		       "s.json:3:7: define 'FOLDX' names no .equ in the program (did you mean 'FOLD'?)");
	in.defines = cli;
	assemble_fails(".equ FOLD, 1\n.equ FBC_BATCH, 32\nnop\n", &in,
		       "--set BATCH=64: names no .equ in the program (did you mean 'FBC_BATCH'?)");
}
END_TEST

START_TEST(test_hostile)
{
	/* a very long line, deep parentheses, many unary minuses */
	size_t n = 1 << 20;
	char *s = malloc(n + 64);
	memset(s, ' ', n);
	strcpy(s + n, "nop\n");
	struct program p;
	assemble_ok(s, &in4, &p);
	ck_assert_uint_eq(p.insns[0].loc < p.n_locs, 1);
	ck_assert_uint_eq(p.locs[p.insns[0].loc].col, UINT16_MAX);
	program_free(&p);

	strcpy(s, "mov rax, ");
	size_t k = strlen(s);
	for (int i = 0; i < 100; i++)
		s[k++] = '(';
	strcpy(s + k, "1\n");
	assemble_fails(s, &in4, "t.s:1:42: expression nested too deeply");

	strcpy(s, "mov rax, ");
	k = strlen(s);
	for (int i = 0; i < 100000; i++)
		s[k++] = '-';
	strcpy(s + k, "1\n");
	assemble_ok(s, &in4, &p);
	ck_assert_int_eq(p.insns[0].b.imm, 1);
	program_free(&p);

	strcpy(s, "mov rax, 1");
	k = strlen(s);
	for (int i = 0; i < 1000; i++)
		k += (size_t)sprintf(s + k, "+1");
	strcpy(s + k, "\n");
	assemble_fails(s, &in4, "t.s:1:137: expression too long");
	free(s);
}
END_TEST

static int lib_assemble(const char *const *files, size_t n, const char *dir, struct program *p,
			char *msg, size_t msgn)
{
	const char *dirs[] = { dir };
	struct asm_input in = in4;
	in.files = files;
	in.n_files = n;
	in.include_dirs = dirs;
	in.n_include_dirs = 1;
	struct err e;
	err_clear(&e);
	int rc = asm_assemble(&in, p, &e);
	err_format(&e, msg, msgn);
	return rc;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The name an "undefined label/symbol 'x'" message is about, or NULL. */
static const char *undefined_name(const char *msg, char *name, size_t n)
{
	const char *q = strstr(msg, "undefined label '");
	if (!q)
		q = strstr(msg, "undefined symbol '");
	if (!q)
		return NULL;
	q = strchr(q, '\'') + 1;
	size_t len = strcspn(q, "'");
	if (len >= n)
		return NULL;
	memcpy(name, q, len);
	name[len] = 0;
	return name;
}

/* Each library file assembles, together with the library files that define
 * what it uses from them (local_t_flip.s calls spin_lock from spinlock.s),
 * found the way a scenario author would: by the undefined name. */
START_TEST(test_scenario_lib)
{
	const char *top = getenv("top_srcdir");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/scenarios/lib", top ? top : BOUNCE_DATADIR);
	DIR *d = opendir(dir);
	if (!d)
		return;
	enum { MAXF = 256 };
	char *files[MAXF];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < MAXF) {
		size_t len = strlen(de->d_name);
		if (len < 3 || strcmp(de->d_name + len - 2, ".s") != 0)
			continue;
		files[n] = malloc(strlen(dir) + len + 2);
		sprintf(files[n++], "%s/%s", dir, de->d_name);
	}
	closedir(d);
	printf("check_asm: %zu files in scenarios/lib\n", n);
	qsort(files, n, sizeof files[0], by_str);
	static struct program alone[MAXF];
	static int ok[MAXF];
	char msg[2048], name[256];
	for (size_t i = 0; i < n; i++)
		ok[i] = lib_assemble((const char *const *)&files[i], 1, dir, &alone[i], msg,
				     sizeof msg) == 0;
	for (size_t i = 0; i < n; i++) {
		const char *unit[MAXF];
		size_t nu = 0;
		unit[nu++] = files[i];
		struct program p;
		while (lib_assemble(unit, nu, dir, &p, msg, sizeof msg) != 0) {
			ck_assert_msg(undefined_name(msg, name, sizeof name) != NULL, "%s", msg);
			size_t j = 0;
			while (j < n && !(ok[j] && program_symbol(&alone[j], name)))
				j++;
			ck_assert_msg(j < n && nu < MAXF, "%s (no library file defines it)", msg);
			for (size_t k = 0; k < nu; k++)
				ck_assert_msg(unit[k] != files[j], "%s", msg);
			unit[nu++] = files[j];
		}
		if (nu > 1)
			printf("check_asm: %s assembles with %zu other library file(s)\n", files[i],
			       nu - 1);
		program_free(&p);
	}
	for (size_t i = 0; i < n; i++) {
		program_free(&alone[i]);
		free(files[i]);
	}
}
END_TEST

static Suite *asm_suite(void)
{
	Suite *s = suite_create("asm");
	TCase *tc = tcase_create("asm");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_mov_forms);
	tcase_add_test(tc, test_alu_branch_pseudo);
	tcase_add_test(tc, test_reg_lookup);
	tcase_add_test(tc, test_jcc_aliases);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_layout_empty_percpu_and_big_stride);
	tcase_add_test(tc, test_sparse_data_image);
	tcase_add_test(tc, test_equ_defines);
	tcase_add_test(tc, test_expr_minmax);
	tcase_add_test(tc, test_include);
	tcase_add_test(tc, test_include_cycle_and_depth);
	tcase_add_test(tc, test_bad_bytes);
	tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof err_cases / sizeof err_cases[0]));
	tcase_add_test(tc, test_unknown_define);
	tcase_add_test(tc, test_unknown_define_where);
	tcase_add_test(tc, test_hostile);
	tcase_add_test(tc, test_scenario_lib);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(asm_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
