/* The interpreter's pre-decoded forms: the instruction shapes core.c's
 * dispatcher runs with the opcode, width and operand kinds as constants.
 * One row per form; the enum, the choice of a form (form_of) and the
 * differential test of each form against execute() all read this table. */
#ifndef BOUNCE_CORE_FORMS_H
#define BOUNCE_CORE_FORMS_H

#include "cpu/isa.h"

/* X(form, opcode, destination kind, source kind, condition), at 8 bytes
 * without a lock prefix. The condition is a jump's own (CORE_FORM_CC_ANY:
 * every condition no row above it takes) or, after a register form, that
 * of the jne/je fused with it (CORE_FORM_CC_NONE: no jump). Rows are tried
 * in order; a fused row is chosen only for an instruction followed by its
 * jump. The columns are enumerators, never macros, so that they pass
 * through the nested macros below unexpanded. */
#define CORE_FORMS(X) \
	CORE_ARITH2(CORE_ARITH2_ROWS, X) \
	X(INC_R, OP_INC, OPND_REG, OPND_NONE, CORE_FORM_CC_NONE) \
	X(INC_M, OP_INC, OPND_MEM, OPND_NONE, CORE_FORM_CC_NONE) \
	X(DEC_R, OP_DEC, OPND_REG, OPND_NONE, CORE_FORM_CC_NONE) \
	X(DEC_M, OP_DEC, OPND_MEM, OPND_NONE, CORE_FORM_CC_NONE) \
	X(JNE, OP_JCC, OPND_NONE, OPND_NONE, CC_NE) \
	X(JE, OP_JCC, OPND_NONE, OPND_NONE, CC_E) \
	X(JCC, OP_JCC, OPND_NONE, OPND_NONE, CORE_FORM_CC_ANY) \
	X(JMP, OP_JMP, OPND_NONE, OPND_NONE, CORE_FORM_CC_NONE) \
	X(MOV_RR, OP_MOV, OPND_REG, OPND_REG, CORE_FORM_CC_NONE) \
	X(MOV_RI, OP_MOV, OPND_REG, OPND_IMM, CORE_FORM_CC_NONE) \
	X(MOV_RM, OP_MOV, OPND_REG, OPND_MEM, CORE_FORM_CC_NONE) \
	X(MOV_MR, OP_MOV, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE) \
	X(MOV_MI, OP_MOV, OPND_MEM, OPND_IMM, CORE_FORM_CC_NONE) \
	CORE_FUSABLE(CORE_FUSED_ROWS, X)

/* Two-operand arithmetic: a register or memory destination, a register
 * or immediate source. */
#define CORE_ARITH2(Y, X) Y(X, ADD) Y(X, SUB) Y(X, AND) Y(X, OR) Y(X, XOR) Y(X, CMP) Y(X, TEST)
#define CORE_ARITH2_ROWS(X, o) \
	X(o##_RR, OP_##o, OPND_REG, OPND_REG, CORE_FORM_CC_NONE) \
	X(o##_RI, OP_##o, OPND_REG, OPND_IMM, CORE_FORM_CC_NONE) \
	X(o##_MR, OP_##o, OPND_MEM, OPND_REG, CORE_FORM_CC_NONE) \
	X(o##_MI, OP_##o, OPND_MEM, OPND_IMM, CORE_FORM_CC_NONE)

/* The register forms that close most loops with a jne/je, each with its
 * opcode and source kind. */
#define CORE_FUSABLE(Y, X) \
	Y(X, DEC_R, OP_DEC, OPND_NONE) Y(X, INC_R, OP_INC, OPND_NONE) \
	Y(X, SUB_RI, OP_SUB, OPND_IMM) Y(X, ADD_RI, OP_ADD, OPND_IMM) \
	Y(X, CMP_RI, OP_CMP, OPND_IMM) Y(X, CMP_RR, OP_CMP, OPND_REG) \
	Y(X, TEST_RR, OP_TEST, OPND_REG) Y(X, SUB_RR, OP_SUB, OPND_REG) \
	Y(X, AND_RI, OP_AND, OPND_IMM)
#define CORE_FUSED_ROWS(X, f, o, b) X(f##_JNE, o, OPND_REG, b, CC_NE) X(f##_JE, o, OPND_REG, b, CC_E)

/* The condition column's values beyond enum cond's. */
enum { CORE_FORM_CC_ANY = CC_NCONDS, CORE_FORM_CC_NONE };

/* F_GENERIC runs execute() itself; F_END sits one past the program's last
 * instruction, so that running off the end needs no check of its own. */
enum core_form {
	F_GENERIC, F_END,
#define CORE_FORM_ENUM(f, o, a, b, cc) F_##f,
	CORE_FORMS(CORE_FORM_ENUM)
#undef CORE_FORM_ENUM
	F_NFORMS
};
#define F_FIRST_SHAPE (F_END + 1)

/* A row as data. */
struct core_form_shape {
	uint8_t op, a, b, cc;
};
#define CORE_FORM_SHAPE(f, o, a, b, cc) [F_##f] = { o, a, b, cc },

#endif
