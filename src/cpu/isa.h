/* The pre-decoded instruction format: the assembler writes it once at
 * load time and the core interprets it with one switch, so no strings
 * survive into it (symbols are addresses, labels instruction indices). */
#ifndef BOUNCE_ISA_H
#define BOUNCE_ISA_H

#include <stdint.h>

/* x86 register numbering (rax rcx rdx rbx rsp rbp rsi rdi r8..r15). */
enum reg {
	R_RAX, R_RCX, R_RDX, R_RBX, R_RSP, R_RBP, R_RSI, R_RDI,
	R_R8, R_R9, R_R10, R_R11, R_R12, R_R13, R_R14, R_R15,
	R_NREGS,
	R_NONE = 0xff
};

enum opcode {
	OP_NOP,
	OP_MOV, OP_MOVZX, OP_MOVSX, /* movsx/movsxd: sign-extend b (size b.size) into a */
	OP_LEA,
	OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_CMP, OP_TEST,
	OP_INC, OP_DEC, OP_NEG, OP_NOT,
	OP_SHL, OP_SHR, OP_SAR, OP_ROL, OP_ROR,
	OP_ADC, OP_SBB,
	OP_SHLD, OP_SHRD,        /* a r/m, b register; count in imm3 (COUNT_CL: cl) */
	OP_IMUL,                 /* a = a * b */
	OP_IMUL3,                /* a = b * imm3 */
	OP_MUL1, OP_IMUL1,       /* one operand: rdx:rax (ax for bytes) = rax * a */
	OP_DIV, OP_IDIV,         /* rdx:rax (ax for bytes) / a */
	OP_CBW,                  /* cbw cwde cdqe: sign-extend the lower half of rax (size: its width) */
	OP_CWD,                  /* cwd cdq cqo: rdx = the sign of rax (size: the width) */
	OP_BT, OP_BTS, OP_BTR, OP_BTC,
	OP_BSF, OP_BSR, OP_BSWAP,
	OP_SETCC, OP_CMOVCC,     /* cond */
	OP_PUSHF, OP_POPF,
	OP_LEAVE,                /* mov rsp, rbp; pop rbp */
	OP_JMP, OP_JCC, OP_CALL, OP_RET, OP_PUSH, OP_POP,
	OP_XADD, OP_CMPXCHG, OP_XCHG,
	OP_MFENCE, OP_LFENCE, OP_SFENCE, OP_PAUSE,
	OP_CLI, OP_STI, OP_HLT,
	OP_JMP_IND, OP_CALL_IND, /* a: a 64-bit register or memory holding a code address */
	OP_UD2,                  /* faults when run: __builtin_trap, the kernel's BUG() */
	/* pseudo-instructions */
	OP_WORK,                 /* a: immediate cycle count */
	OP_BH_DISABLE, OP_BH_ENABLE, OP_PREEMPT_DISABLE, OP_PREEMPT_ENABLE,
	OP_MARK,                 /* target: index into program.marks */
	/* Ghost instructions: zero cycles, no memory traffic. They keep the
	 * exact value of a counter beside the simulated one so that the error
	 * of an approximate read can be measured at the instant it happens.
	 * A ghost counter is keyed by an address (the counter's, e.g. the
	 * struct percpu_counter passed in rdi), so library routines that take
	 * the counter by pointer can use them: a is an OPND_MEM whose address
	 * is computed but never accessed. */
	OP_GHOST_ADD,            /* `ghost_add [rdi], src`: exact[addr] += src (reg or imm) */
	OP_GHOST_READ,           /* `ghost_read [rdi], reg`: record reg vs exact[addr] */
	OP_NOPCODES
};

/* jcc, setcc and cmovcc conditions, evaluated on ZF SF CF OF PF. */
enum cond {
	CC_E, CC_NE, CC_L, CC_LE, CC_G, CC_GE, CC_B, CC_BE, CC_A, CC_AE, CC_S, CC_NS,
	CC_O, CC_NO, CC_P, CC_NP,
	CC_NCONDS
};

/* insn.imm3 of shld/shrd whose count is cl. */
#define COUNT_CL (-1)

enum opnd_kind {
	OPND_NONE,
	OPND_REG,   /* reg, accessed at `size` bytes (eax = R_RAX size 4) */
	OPND_IMM,   /* imm */
	OPND_CPU,   /* immediate: the executing CPU's id (`CPU`) */
	OPND_MEM,   /* [base + index*scale + imm], plus this CPU's per-CPU offset if gs */
};

struct operand {
	uint8_t kind;    /* enum opnd_kind */
	uint8_t size;    /* 1, 2, 4, 8: register width or memory access width */
	uint8_t reg;     /* OPND_REG */
	uint8_t base;    /* OPND_MEM: R_NONE when absent */
	uint8_t index;   /* OPND_MEM: R_NONE when absent */
	uint8_t scale;   /* OPND_MEM: 1, 2, 4, 8 */
	uint8_t gs;      /* OPND_MEM: gs: segment (this_cpu access) */
	uint8_t hi8;     /* OPND_REG of size 1: bits 8-15 of reg (ah ch dh bh) */
	int64_t imm;     /* OPND_IMM value; OPND_MEM displacement with symbols folded in */
};

/* Intel operand order: a is the destination (or the only operand). */
struct insn {
	uint8_t op;      /* enum opcode */
	uint8_t cond;    /* OP_JCC, OP_SETCC, OP_CMOVCC: enum cond */
	uint8_t lock;    /* lock prefix */
	uint8_t size;    /* operation width in bytes */
	uint32_t target; /* OP_JMP/JCC/CALL: instruction index; OP_MARK: mark index */
	uint32_t loc;    /* index into program.locs: where it was written */
	int32_t imm3;    /* a third operand: imul's immediate, shld/shrd's count */
	struct operand a, b;
};

#endif
