/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * analysis.c - one pass over a program for the code generators
 * (analysis.h says what and why).
 */
#include <string.h>

#include "analysis.h"

/* The registers that instructions from .. to - 1 write. */
static uint8_t written_regs(const hashx_program *prog, size_t from, size_t to)
{
	unsigned mask = 0;

	for (size_t i = from; i < to; i++)
		if (hashx_op_writes((hashx_opcode)prog->code[i].opcode))
			mask |= 1u << (prog->code[i].dst & 7);
	return (uint8_t)mask;
}

void hashx_analyse(const hashx_program *prog, hashx_analysis *a)
{
	size_t resume = HASHX_RESUME_WITHOUT_TARGET;
	int last_mulh = -1;
	bool clobbered = false;

	a->nbranches = 0;
	memset(a->mulh_use, 0, sizeof a->mulh_use);
	for (size_t i = 0; i < prog->size && i < HASHX_PROGRAM_SIZE; i++) {
		const hashx_instr *in = &prog->code[i];
		hashx_opcode op = (hashx_opcode)in->opcode;
		hashx_branch_info *b;

		if (op == HASHX_OP_TARGET) {
			resume = hashx_resume_after_target(i);
		} else if (op == HASHX_OP_BRANCH) {
			b = &a->branch[a->nbranches++];
			b->at = (uint16_t)i;
			b->resume = (uint16_t)resume;
			b->written = resume < i ? written_regs(prog, resume, i)
						: 0;
			b->mulh = (int16_t)last_mulh;
			b->mulh_clobbered = last_mulh >= 0 && clobbered;
			if (last_mulh >= 0)
				a->mulh_use[last_mulh] |=
					HASHX_MULH_TESTED |
					(clobbered ? HASHX_MULH_CLOBBERED : 0);
		} else if (hashx_op_is_mulh(op)) {
			last_mulh = (int)i;
			clobbered = false;
		} else if (hashx_op_writes(op) && last_mulh >= 0 &&
			   (in->dst & 7) == (prog->code[last_mulh].dst & 7)) {
			clobbered = true;
		}
	}
}
