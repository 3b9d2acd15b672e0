/* The interpreter's pre-decoded forms: the instruction shapes core.c's
 * dispatcher runs with the opcode, width and operand kinds as constants.
 * One row per form; the enum, the choice of a form (form_of) and the
 * differential test of each form against execute() all read this table. */
#ifndef BOUNCE_CORE_FORMS_H
#define BOUNCE_CORE_FORMS_H

#include "cpu/isa.h"

/* X(form, opcode, destination kind, source kind, condition, locked), at
 * 8 bytes. Locked: a lock prefix, or xchg with memory (locked with or
 * without one, as on x86), so that the locked RMWs of counters and
 * spinlocks skip execute()'s decoding on each attempt. The condition is
 * a jump's own (CORE_FORM_CC_ANY: every condition no row above it
 * takes) or, after a register form, that of the jne/je fused with it
 * (CORE_FORM_CC_NONE: no jump). Rows are tried in order; a fused row is
 * chosen only for an instruction followed by its jump. The columns are
 * enumerators, never macros, so that they pass through the nested macros
 * below unexpanded. */
#define CORE_FORMS(X) \
	CORE_ARITH2(CORE_ARITH2_ROWS, X) \
	X(INC_R, OP_INC, OPND_REG, OPND_NONE, CORE_FORM_CC_NONE, 0) \
	X(INC_M, OP_INC, OPND_MEM, OPND_NONE, CORE_FORM_CC_NONE, 0) \
	X(DEC_R, OP_DEC, OPND_REG, OPND_NONE, CORE_FORM_CC_NONE, 0) \
	X(DEC_M, OP_DEC, OPND_MEM, OPND_NONE, CORE_FORM_CC_NONE, 0) \
	X(JNE, OP_JCC, OPND_NONE, OPND_NONE, CC_NE, 0) \
	X(JE, OP_JCC, OPND_NONE, OPND_NONE, CC_E, 0) \
	X(JCC, OP_JCC, OPND_NONE, OPND_NONE, CORE_FORM_CC_ANY, 0) \
	X(JMP, OP_JMP, OPND_NONE, OPND_NONE, CORE_FORM_CC_NONE, 0) \
	X(MOV_RR, OP_MOV, OPND_REG, OPND_REG, CORE_FORM_CC_NONE, 0) \
	X(MOV_RI, OP_MOV, OPND_REG, OPND_IMM, CORE_FORM_CC_NONE, 0) \
	X(MOV_RM, OP_MOV, OPND_REG, OPND_MEM, CORE_FORM_CC_NONE, 0) \
	X(MOV_MR, OP_MOV, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE, 0) \
	X(MOV_MI, OP_MOV, OPND_MEM, OPND_IMM, CORE_FORM_CC_NONE, 0) \
	CORE_FUSABLE(CORE_FUSED_ROWS, X) \
	X(LOCK_INC_M, OP_INC, OPND_MEM, OPND_NONE, CORE_FORM_CC_NONE, 1) \
	X(LOCK_DEC_M, OP_DEC, OPND_MEM, OPND_NONE, CORE_FORM_CC_NONE, 1) \
	X(LOCK_ADD_MR, OP_ADD, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE, 1) \
	X(LOCK_ADD_MI, OP_ADD, OPND_MEM, OPND_IMM, CORE_FORM_CC_NONE, 1) \
	X(LOCK_XADD_MR, OP_XADD, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE, 1) \
	X(LOCK_CMPXCHG_MR, OP_CMPXCHG, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE, 1) \
	X(XCHG_MR, OP_XCHG, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE, 1)

/* Two-operand arithmetic: a register or memory destination, a register
 * or immediate source. */
#define CORE_ARITH2(Y, X) Y(X, ADD) Y(X, SUB) Y(X, AND) Y(X, OR) Y(X, XOR) Y(X, CMP) Y(X, TEST)
#define CORE_ARITH2_ROWS(X, o) \
	X(o##_RR, OP_##o, OPND_REG, OPND_REG, CORE_FORM_CC_NONE, 0) \
	X(o##_RI, OP_##o, OPND_REG, OPND_IMM, CORE_FORM_CC_NONE, 0) \
	X(o##_MR, OP_##o, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE, 0) \
	X(o##_MI, OP_##o, OPND_MEM, OPND_IMM, CORE_FORM_CC_NONE, 0)

/* The register forms that close most loops with a jne/je, each with its
 * opcode and source kind. */
#define CORE_FUSABLE(Y, X) \
	Y(X, DEC_R, OP_DEC, OPND_NONE) Y(X, INC_R, OP_INC, OPND_NONE) \
	Y(X, SUB_RI, OP_SUB, OPND_IMM) Y(X, ADD_RI, OP_ADD, OPND_IMM) \
	Y(X, CMP_RI, OP_CMP, OPND_IMM) Y(X, CMP_RR, OP_CMP, OPND_REG) \
	Y(X, TEST_RR, OP_TEST, OPND_REG) Y(X, SUB_RR, OP_SUB, OPND_REG) \
	Y(X, AND_RI, OP_AND, OPND_IMM)
#define CORE_FUSED_ROWS(X, f, o, b) X(f##_JNE, o, OPND_REG, b, CC_NE, 0) X(f##_JE, o, OPND_REG, b, CC_E, 0)

/* The condition column's values beyond enum cond's. */
enum { CORE_FORM_CC_ANY = CC_NCONDS, CORE_FORM_CC_NONE };

/* F_GENERIC runs execute() itself; F_END sits one past the program's last
 * instruction, so that running off the end needs no check of its own. */
enum core_form {
	F_GENERIC, F_END,
#define CORE_FORM_ENUM(f, o, a, b, cc, l) F_##f,
	CORE_FORMS(CORE_FORM_ENUM)
#undef CORE_FORM_ENUM
	F_NFORMS
};
#define F_FIRST_SHAPE (F_END + 1)

/* A row as data. */
struct core_form_shape {
	uint8_t op, a, b, cc, lock;
};
#define CORE_FORM_SHAPE(f, o, a, b, cc, l) [F_##f] = { o, a, b, cc, l },

#endif
