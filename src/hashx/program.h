/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * program.h - the HashX instruction set and the program the generator emits.
 *
 * A HashX function is a straight-line program over eight 64-bit registers
 * r0..r7, with one kind of control flow: a BRANCH that may jump back once,
 * to just after the most recent TARGET. The instruction set is the integer
 * core of a 64-bit CPU, chosen so that a general-purpose processor runs it
 * at full speed and custom hardware gains little:
 *
 *   UMULH_R  dst = high 64 bits of the unsigned product dst * src
 *   SMULH_R  dst = high 64 bits of the signed product dst * src
 *   MUL_R    dst = dst * src (mod 2^64)
 *   SUB_R    dst = dst - src
 *   XOR_R    dst = dst ^ src
 *   ADD_RS   dst = dst + (src << imm), imm in 0..3 (an x86 LEA)
 *   ROR_C    dst = dst rotated right by imm, imm in 1..63
 *   ADD_C    dst = dst + sign_extend(imm32)
 *   XOR_C    dst = dst ^ sign_extend(imm32)
 *   TARGET   marks where the next BRANCH jumps back to
 *   BRANCH   if no branch was taken yet in this run, and the low 32 bits of
 *            the last UMULH/SMULH result have none of the bits of imm32
 *            set, resume execution right after the last TARGET (after
 *            instruction 0 if no TARGET ran yet; generated programs
 *            always have a TARGET at index 1, so this never happens)
 *
 * The enumerators' order is significant: the three multiplications come
 * first, so "is a multiplication" is a single comparison.
 */
#ifndef HASHX_PROGRAM_H
#define HASHX_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

typedef enum hashx_opcode {
	HASHX_OP_UMULH_R,
	HASHX_OP_SMULH_R,
	HASHX_OP_MUL_R,
	HASHX_OP_SUB_R,
	HASHX_OP_XOR_R,
	HASHX_OP_ADD_RS,
	HASHX_OP_ROR_C,
	HASHX_OP_ADD_C,
	HASHX_OP_XOR_C,
	HASHX_OP_TARGET,
	HASHX_OP_BRANCH,
	HASHX_OP_COUNT
} hashx_opcode;

static inline int hashx_op_is_mul(hashx_opcode op)
{
	return op <= HASHX_OP_MUL_R;
}

/* UMULH_R and SMULH_R: the results a BRANCH tests. */
static inline int hashx_op_is_mulh(hashx_opcode op)
{
	return op <= HASHX_OP_SMULH_R;
}

/* Whether the instruction writes its dst (all but TARGET and BRANCH). */
static inline int hashx_op_writes(hashx_opcode op)
{
	return op != HASHX_OP_TARGET && op != HASHX_OP_BRANCH &&
	       op < HASHX_OP_COUNT;
}

/*
 * Where a taken BRANCH resumes when no TARGET has run yet: instruction 1.
 * The reference keeps "the last TARGET's index" starting at 0 and resumes
 * one past it, so its programs behave this way; generated programs always
 * have a TARGET first, so only hand-made programs reach this rule, and
 * every executor (interpreters, code generators, analysis.c) must follow
 * it to stay bit-exact on them.
 */
#define HASHX_RESUME_WITHOUT_TARGET 1

/* Every valid program has exactly this many instructions. */
#define HASHX_PROGRAM_SIZE 512

/* The branches of every generated program (the generator's layout,
 * generator.c): at most one TARGET/BRANCH pair per 12 cycles, so at most
 * 16 BRANCHes, each at most 17 instructions after its TARGET (the slots
 * between them). Other programs may branch more; code generators that
 * copy a BRANCH's block size their buffers by these. */
#define HASHX_GEN_BRANCHES_MAX 16
#define HASHX_GEN_BLOCK_MAX 17

/* One instruction. Fields an opcode does not use are zero. */
typedef struct hashx_instr {
	uint8_t opcode; /* hashx_opcode */
	uint8_t dst;    /* destination register, 0..7 */
	uint8_t src;    /* source register, 0..7 */
	uint8_t unused;
	uint32_t imm;   /* immediate, shift count, rotation or branch mask */
} hashx_instr;

typedef struct hashx_program {
	hashx_instr code[HASHX_PROGRAM_SIZE];
	size_t size;
} hashx_program;

#endif
