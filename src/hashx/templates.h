/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates.h - what the generator knows about each instruction.
 *
 * A template describes how one instruction type is generated: its cost in
 * the CPU model (latency, micro-ops and their ports), how its immediate is
 * drawn, and which register choices are forbidden for it. The rules exist
 * to keep programs free of sequences a compiler or an ASIC could simplify.
 */
#ifndef HASHX_TEMPLATES_H
#define HASHX_TEMPLATES_H

#include <stdbool.h>
#include <stdint.h>

#include "program.h"
#include "scheduler.h"

/* How the immediate operand is drawn. */
typedef enum hashx_imm_rule {
	HASHX_IMM_NONE,   /* no immediate */
	HASHX_IMM_MASKED, /* rng_u32() & imm_mask, redrawn while zero unless
			     imm_can_be_zero */
	HASHX_IMM_BRANCH, /* four distinct random bits out of 32 */
} hashx_imm_rule;

/*
 * The "operation parameter" identifies what an instruction did to its
 * destination, for the rule that the same operation may not be applied to a
 * register twice in a row (xor r1,r2; xor r1,r2 cancels out; two rotations
 * or two constant additions merge into one).
 */
typedef enum hashx_op_par_rule {
	HASHX_OP_PAR_NONE,   /* constant ~0: any repeat of the group clashes */
	HASHX_OP_PAR_SRC,    /* the source register: same group and source
				clash */
	HASHX_OP_PAR_RANDOM, /* a random 32-bit value: repeats (almost) never
				clash */
} hashx_op_par_rule;

typedef struct hashx_template {
	hashx_opcode opcode;
	/* Instructions of one group count as the same operation for the
	 * repeat rules (SUB_R belongs to ADD_RS's group). */
	hashx_opcode group;
	uint8_t latency;    /* cycles until the result is ready */
	uint8_t uop1, uop2; /* port masks (scheduler.h) */
	hashx_imm_rule imm_rule;
	uint32_t imm_mask;
	bool imm_can_be_zero;
	hashx_op_par_rule op_par_rule;
	bool has_src, has_dst;
	bool src_may_be_dst; /* only the high multiplications: x*x is not
				degenerate, but x-x and x^x are */
} hashx_template;

/*
 * The templates, by opcode. They are defined here, as constants visible to
 * the generator, rather than in a .c file: the generator specializes its
 * step for each template shape (generator.c), and the fields that decide
 * its control flow then fold into the code instead of being loaded and
 * branched on.
 *
 * Latencies and ports are those of Intel Ivy Bridge for the x86 instruction
 * that implements each HashX instruction: MUL/IMUL with a 128-bit result
 * (2 micro-ops), IMUL r64,r64, SUB/XOR/ADD, LEA, ROR.
 */
static const hashx_template hashx_templates[HASHX_OP_COUNT] = {
	/* 64x64->128 multiplication; the high half is the result. */
	[HASHX_OP_UMULH_R] =
		{
			.opcode = HASHX_OP_UMULH_R,
			.group = HASHX_OP_UMULH_R,
			.latency = 4,
			.uop1 = HASHX_PORT_P1,
			.uop2 = HASHX_PORT_P5,
			.op_par_rule = HASHX_OP_PAR_RANDOM,
			.has_src = true,
			.has_dst = true,
			.src_may_be_dst = true,
		},
	[HASHX_OP_SMULH_R] =
		{
			.opcode = HASHX_OP_SMULH_R,
			.group = HASHX_OP_SMULH_R,
			.latency = 4,
			.uop1 = HASHX_PORT_P1,
			.uop2 = HASHX_PORT_P5,
			.op_par_rule = HASHX_OP_PAR_RANDOM,
			.has_src = true,
			.has_dst = true,
			.src_may_be_dst = true,
		},
	[HASHX_OP_MUL_R] =
		{
			.opcode = HASHX_OP_MUL_R,
			.group = HASHX_OP_MUL_R,
			.latency = 3,
			.uop1 = HASHX_PORT_P1,
			.op_par_rule = HASHX_OP_PAR_SRC,
			.has_src = true,
			.has_dst = true,
		},
	/* Grouped with ADD_RS: "add r1, r2; sub r1, r2" would cancel out.
	 * (The templates of a group share their op-par rule, which
	 * hashx_select_dst() relies on.) */
	[HASHX_OP_SUB_R] =
		{
			.opcode = HASHX_OP_SUB_R,
			.group = HASHX_OP_ADD_RS,
			.latency = 1,
			.uop1 = HASHX_PORT_P015,
			.op_par_rule = HASHX_OP_PAR_SRC,
			.has_src = true,
			.has_dst = true,
		},
	[HASHX_OP_XOR_R] =
		{
			.opcode = HASHX_OP_XOR_R,
			.group = HASHX_OP_XOR_R,
			.latency = 1,
			.uop1 = HASHX_PORT_P015,
			.op_par_rule = HASHX_OP_PAR_SRC,
			.has_src = true,
			.has_dst = true,
		},
	/* LEA runs on P0 or P1 only; a shift of 0 is a plain addition. */
	[HASHX_OP_ADD_RS] =
		{
			.opcode = HASHX_OP_ADD_RS,
			.group = HASHX_OP_ADD_RS,
			.latency = 1,
			.uop1 = HASHX_PORT_P01,
			.imm_rule = HASHX_IMM_MASKED,
			.imm_mask = 3,
			.imm_can_be_zero = true,
			.op_par_rule = HASHX_OP_PAR_SRC,
			.has_src = true,
			.has_dst = true,
		},
	/* Shifts and rotations run on P0 or P5; a rotation by 0 would be a
	 * no-op. */
	[HASHX_OP_ROR_C] =
		{
			.opcode = HASHX_OP_ROR_C,
			.group = HASHX_OP_ROR_C,
			.latency = 1,
			.uop1 = HASHX_PORT_P05,
			.imm_rule = HASHX_IMM_MASKED,
			.imm_mask = 63,
			.op_par_rule = HASHX_OP_PAR_NONE,
			.has_dst = true,
		},
	[HASHX_OP_ADD_C] =
		{
			.opcode = HASHX_OP_ADD_C,
			.group = HASHX_OP_ADD_C,
			.latency = 1,
			.uop1 = HASHX_PORT_P015,
			.imm_rule = HASHX_IMM_MASKED,
			.imm_mask = UINT32_MAX,
			.op_par_rule = HASHX_OP_PAR_NONE,
			.has_dst = true,
		},
	[HASHX_OP_XOR_C] =
		{
			.opcode = HASHX_OP_XOR_C,
			.group = HASHX_OP_XOR_C,
			.latency = 1,
			.uop1 = HASHX_PORT_P015,
			.imm_rule = HASHX_IMM_MASKED,
			.imm_mask = UINT32_MAX,
			.op_par_rule = HASHX_OP_PAR_NONE,
			.has_dst = true,
		},
	/* On x86 a TARGET is "test; cmovz" and a BRANCH "or; test; jz": two
	 * micro-ops each, on any port. */
	[HASHX_OP_TARGET] =
		{
			.opcode = HASHX_OP_TARGET,
			.group = HASHX_OP_TARGET,
			.latency = 1,
			.uop1 = HASHX_PORT_P015,
			.uop2 = HASHX_PORT_P015,
			.op_par_rule = HASHX_OP_PAR_NONE,
		},
	[HASHX_OP_BRANCH] =
		{
			.opcode = HASHX_OP_BRANCH,
			.group = HASHX_OP_BRANCH,
			.latency = 1,
			.uop1 = HASHX_PORT_P015,
			.uop2 = HASHX_PORT_P015,
			.imm_rule = HASHX_IMM_BRANCH,
			.op_par_rule = HASHX_OP_PAR_NONE,
		},
};

/*
 * Shapes. The generator specializes its step for a few "shapes"
 * (generator.c, step_as()), so that the random choice among the cheap
 * operations is a jump among three copies, not six. The list below is the
 * one place that decides them: each shape's MEMBERs, then the SHAPE
 * itself, named by its representative (one of its members). The generator
 * expands it into its switch (case MEMBER: ... return step_as(SHAPE));
 * test_generator's template_shapes expands it to check it. (A table
 * indexed by opcode instead would cost the switch a load: generate/
 * measured 6% slower.)
 *
 * Within a shape, a member may differ from the representative only in
 * HASHX_SHAPE_MEMBER_FIELDS: step_as() takes those from the member and
 * every field in HASHX_SHAPE_SHARED_FIELDS from the representative, so a
 * member that differed there would be generated with its representative's
 * value, silently. template_shapes checks that every shared field agrees
 * within each shape and that every opcode is in exactly one. A new field
 * of hashx_template belongs in one of the two field lists.
 */
#define HASHX_TEMPLATE_SHAPES(MEMBER, SHAPE)                                   \
	/* 3-cycle multiplication: alone. */                                   \
	MEMBER(HASHX_OP_MUL_R) SHAPE(HASHX_OP_MUL_R)                           \
	/* The high multiplications: the same ports and rules. */              \
	MEMBER(HASHX_OP_UMULH_R) MEMBER(HASHX_OP_SMULH_R)                      \
	SHAPE(HASHX_OP_UMULH_R)                                                \
	/* One register and a masked immediate. */                             \
	MEMBER(HASHX_OP_ROR_C) MEMBER(HASHX_OP_ADD_C) MEMBER(HASHX_OP_XOR_C)   \
	SHAPE(HASHX_OP_ADD_C)                                                  \
	/* Two registers, no immediate. */                                     \
	MEMBER(HASHX_OP_SUB_R) MEMBER(HASHX_OP_XOR_R) SHAPE(HASHX_OP_XOR_R)    \
	/* Two registers and a shift. */                                       \
	MEMBER(HASHX_OP_ADD_RS) SHAPE(HASHX_OP_ADD_RS)                         \
	MEMBER(HASHX_OP_TARGET) SHAPE(HASHX_OP_TARGET)                         \
	MEMBER(HASHX_OP_BRANCH) SHAPE(HASHX_OP_BRANCH)

#define HASHX_SHAPE_MEMBER_FIELDS(X) X(opcode) X(group) X(uop1) X(imm_mask)
#define HASHX_SHAPE_SHARED_FIELDS(X)                                           \
	X(latency) X(uop2) X(imm_rule) X(imm_can_be_zero) X(op_par_rule)       \
	X(has_src) X(has_dst) X(src_may_be_dst)

#endif
