/*
 * templates.c - the instruction templates (see templates.h).
 *
 * Latencies and ports are those of Intel Ivy Bridge for the x86 instruction
 * that implements each HashX instruction: MUL/IMUL with a 128-bit result
 * (2 micro-ops), IMUL r64,r64, SUB/XOR/ADD, LEA, ROR.
 */
#include "scheduler.h"
#include "templates.h"

/* 64x64->128 multiplication; the high half is the result. */
const hashx_template hashx_tpl_umulh_r = {
	.opcode = HASHX_OP_UMULH_R, .group = HASHX_OP_UMULH_R,
	.latency = 4, .uop1 = HASHX_PORT_P1, .uop2 = HASHX_PORT_P5,
	.op_par_rule = HASHX_OP_PAR_RANDOM,
	.has_src = true, .has_dst = true, .src_may_be_dst = true,
};

const hashx_template hashx_tpl_smulh_r = {
	.opcode = HASHX_OP_SMULH_R, .group = HASHX_OP_SMULH_R,
	.latency = 4, .uop1 = HASHX_PORT_P1, .uop2 = HASHX_PORT_P5,
	.op_par_rule = HASHX_OP_PAR_RANDOM,
	.has_src = true, .has_dst = true, .src_may_be_dst = true,
};

const hashx_template hashx_tpl_mul_r = {
	.opcode = HASHX_OP_MUL_R, .group = HASHX_OP_MUL_R,
	.latency = 3, .uop1 = HASHX_PORT_P1,
	.op_par_rule = HASHX_OP_PAR_SRC,
	.has_src = true, .has_dst = true,
};

/* Grouped with ADD_RS: "add r1, r2; sub r1, r2" would cancel out. */
const hashx_template hashx_tpl_sub_r = {
	.opcode = HASHX_OP_SUB_R, .group = HASHX_OP_ADD_RS,
	.latency = 1, .uop1 = HASHX_PORT_P015,
	.op_par_rule = HASHX_OP_PAR_SRC,
	.has_src = true, .has_dst = true,
};

const hashx_template hashx_tpl_xor_r = {
	.opcode = HASHX_OP_XOR_R, .group = HASHX_OP_XOR_R,
	.latency = 1, .uop1 = HASHX_PORT_P015,
	.op_par_rule = HASHX_OP_PAR_SRC,
	.has_src = true, .has_dst = true,
};

/* LEA runs on P0 or P1 only; a shift of 0 is a plain addition. */
const hashx_template hashx_tpl_add_rs = {
	.opcode = HASHX_OP_ADD_RS, .group = HASHX_OP_ADD_RS,
	.latency = 1, .uop1 = HASHX_PORT_P01,
	.imm_rule = HASHX_IMM_MASKED, .imm_mask = 3, .imm_can_be_zero = true,
	.op_par_rule = HASHX_OP_PAR_SRC,
	.has_src = true, .has_dst = true,
};

/* Shifts and rotations run on P0 or P5; a rotation by 0 would be a no-op. */
const hashx_template hashx_tpl_ror_c = {
	.opcode = HASHX_OP_ROR_C, .group = HASHX_OP_ROR_C,
	.latency = 1, .uop1 = HASHX_PORT_P05,
	.imm_rule = HASHX_IMM_MASKED, .imm_mask = 63,
	.op_par_rule = HASHX_OP_PAR_NONE,
	.has_dst = true,
};

const hashx_template hashx_tpl_add_c = {
	.opcode = HASHX_OP_ADD_C, .group = HASHX_OP_ADD_C,
	.latency = 1, .uop1 = HASHX_PORT_P015,
	.imm_rule = HASHX_IMM_MASKED, .imm_mask = UINT32_MAX,
	.op_par_rule = HASHX_OP_PAR_NONE,
	.has_dst = true,
};

const hashx_template hashx_tpl_xor_c = {
	.opcode = HASHX_OP_XOR_C, .group = HASHX_OP_XOR_C,
	.latency = 1, .uop1 = HASHX_PORT_P015,
	.imm_rule = HASHX_IMM_MASKED, .imm_mask = UINT32_MAX,
	.op_par_rule = HASHX_OP_PAR_NONE,
	.has_dst = true,
};

/* On x86 a TARGET is "test; cmovz" and a BRANCH "or; test; jz": two
 * micro-ops each, on any port. */
const hashx_template hashx_tpl_target = {
	.opcode = HASHX_OP_TARGET, .group = HASHX_OP_TARGET,
	.latency = 1, .uop1 = HASHX_PORT_P015, .uop2 = HASHX_PORT_P015,
	.op_par_rule = HASHX_OP_PAR_NONE,
};

const hashx_template hashx_tpl_branch = {
	.opcode = HASHX_OP_BRANCH, .group = HASHX_OP_BRANCH,
	.latency = 1, .uop1 = HASHX_PORT_P015, .uop2 = HASHX_PORT_P015,
	.imm_rule = HASHX_IMM_BRANCH,
	.op_par_rule = HASHX_OP_PAR_NONE,
};
