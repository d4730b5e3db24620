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

/* How the immediate operand is drawn. */
typedef enum hashx_imm_rule {
	HASHX_IMM_NONE,    /* no immediate */
	HASHX_IMM_MASKED,  /* rng_u32() & imm_mask, redrawn while zero unless
			      imm_can_be_zero */
	HASHX_IMM_BRANCH,  /* four distinct random bits out of 32 */
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
	uint8_t latency;     /* cycles until the result is ready */
	uint8_t uop1, uop2;  /* port masks (scheduler.h) */
	hashx_imm_rule imm_rule;
	uint32_t imm_mask;
	bool imm_can_be_zero;
	hashx_op_par_rule op_par_rule;
	bool has_src, has_dst;
	bool src_may_be_dst; /* only the high multiplications: x*x is not
				degenerate, but x-x and x^x are */
} hashx_template;

extern const hashx_template hashx_tpl_umulh_r, hashx_tpl_smulh_r,
	hashx_tpl_mul_r, hashx_tpl_sub_r, hashx_tpl_xor_r, hashx_tpl_add_rs,
	hashx_tpl_ror_c, hashx_tpl_add_c, hashx_tpl_xor_c, hashx_tpl_target,
	hashx_tpl_branch;

#endif
