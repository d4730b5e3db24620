/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_aarch64.c - the HashWX compiler for 64-bit ARM (A64, AAPCS64):
 * a whole instance as one function, uint64_t f(uint64_t nonce), which is
 * hashwx_interpret() bit for bit (hashwx_compiler.h).
 *
 * Register mapping (all caller-saved: the function is a leaf that saves
 * nothing): R0..R7 in x8..x15, R8 and R9 in x6 and x7, the phase's branch
 * counter BC in x4, the program's branch flag BF in x5 (zero or not); x16
 * and x17 are scratch, x0 the nonce until the registers start. The 2 KiB
 * memory is the function's own stack frame, [sp, #0 .. #2047], word w at
 * sp + 8w.
 *
 * The code follows the interpreter's order: the register start (the
 * generator's stream under the nonce, its key-only part as constants),
 * the write phase (each program, then R0..R7 stored at
 * hashwx_memory_word()), the read phase (every source but RMCG's a memory
 * word), the finalization. Each program is straight code; its BRANCH jumps
 * back to the program's first instruction.
 */
#include <config.h>

#include <string.h>

#include "aarch64_emit.h"
#include "code_size.h"
#include "compiler.h"
#include "hashwx_compiler.h"

/*
 * The code-size contract (code_size.h), enforced while emitting: no slot
 * takes more than MAX_SLOT_BYTES (a MUL-class instruction of the read
 * phase: and, ldr, movz, orr, mul = 20), a program adds the clearing of BF
 * and, in the write phase, its eight stores; the entry (stack frame, four
 * constants of up to four instructions each and eight SipRounds, about
 * 620 bytes) and the exit (two partial SipRounds, the output) have bounds
 * of their own. Every instance fits; tests/test_hashwx_code_size.c
 * compiles the costliest one and checks the size.
 */
#define MAX_SLOT_BYTES 20
#define PROGRAM_EXTRA_BYTES (4 + 4 * HASHWX_REGISTERS)
#define PROGRAM_BYTES \
	(HASHWX_PROGRAM_SIZE * MAX_SLOT_BYTES + PROGRAM_EXTRA_BYTES)
#define PHASE_BYTES 4 /* the branch counter's reset */
#define PROLOGUE_BYTES 768
#define EPILOGUE_BYTES 192
#define PHASES 2
#define CODE_CAPACITY                                                   \
	(PROLOGUE_BYTES +                                               \
	 PHASES * (PHASE_BYTES + HASHWX_PROGRAMS * PROGRAM_BYTES) +      \
	 EPILOGUE_BYTES)

const hashx_code_bounds hashwx_aarch64_code_bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = CODE_CAPACITY -
		 PHASES * HASHWX_PROGRAMS * HASHWX_PROGRAM_SIZE * MAX_SLOT_BYTES,
	.per_instr = MAX_SLOT_BYTES,
};

enum { BC = X4, BF = X5, R8 = X6, R9 = X7 };

/* The A64 register of HashWX register r (0..9). */
static int reg(unsigned r)
{
	if (r < HASHWX_REGISTERS)
		return X8 + (int)r;
	return r == HASHWX_RMCG_R8 ? R8 : R9;
}

/* ---- the register start --------------------------------------------- */

/* hashwx_rng_start() under the nonce in x0, on the state words held in
 * v[0..3] (the key-only state as constants), then the four words handed
 * out v3 first: with v[] = { x11, x10, x9, x8 }, R0..R3 = v3..v0 are
 * x8..x11 with no move. The second block continues from a copy of the
 * state in x12..x15 in the same reversed order, so R4..R7 land in place. */
static void emit_start(emitter *e, const hashwx_sip_key *key)
{
	const int v[4] = { X11, X10, X9, X8 };
	const int w[4] = { X15, X14, X13, X12 };
	const hashx_sip_state ks = hashwx_rng_key_state(key);
	uint64_t k[4];

	hashx_sip_words(&ks, k);
	for (int i = 0; i < 4; i++)
		mov_imm64(e, v[i], k[i]);
	rrr(e, A64_EOR, v[3], v[3], X0, 0);
	a64_sipround_steps(e, v, HASHX_SIP_ALL_STEPS);
	rrr(e, A64_EOR, v[0], v[0], X0, 0);
	mov_imm64(e, X16, HASHWX_SIP_INIT_MARK);
	rrr(e, A64_EOR, v[2], v[2], X16, 0);
	for (int r = 0; r < HASHWX_SIP_INIT_ROUNDS; r++)
		a64_sipround_steps(e, v, HASHX_SIP_ALL_STEPS);
	/* hashwx_rng_mix() on the copy */
	for (int i = 0; i < 4; i++) {
		mov_imm64(e, X16, hashwx_rng_key_word(key, (unsigned)i));
		rrr(e, A64_EOR, w[i], v[i], X16, 0);
	}
	for (int r = 0; r < HASHWX_SIP_MIX_ROUNDS; r++)
		a64_sipround_steps(e, w, HASHX_SIP_ALL_STEPS);
}

/* R8 and R9 (hashwx_r8, hashwx_r9): the low three bits of R4 and R7 set,
 * then the one bit cleared that makes them 011 and 101. */
static void emit_multipliers(emitter *e)
{
	logic_imm(e, A64_ORR_IMM, R8, reg(4), 0, 3);
	logic_imm(e, A64_EOR_IMM, R8, R8, 2, 1);
	logic_imm(e, A64_ORR_IMM, R9, reg(7), 0, 3);
	logic_imm(e, A64_EOR_IMM, R9, R9, 1, 1);
}

/* ---- the instructions ---------------------------------------------- */

/* The source operand of `in`: its register, or in the read phase (except
 * RMCG's) the memory word it addresses, loaded into x17 first, before
 * the destination changes (the source may be the destination). */
static int source(emitter *e, const hashwx_instr *in, bool memory)
{
	if (!memory || in->opcode == HASHWX_RMCG)
		return reg(in->src);
	logic_imm(e, A64_AND_IMM, X17, reg(in->src),
		  (unsigned)__builtin_ctz(HASHWX_MEMORY_MASK),
		  (unsigned)__builtin_popcount(HASHWX_MEMORY_MASK));
	rrr(e, A64_LDR_REG, X17, SP, X17, 0);
	return X17;
}

/* dst = (dst * src) >>> imm; BF = bit 5 of it (nonzero or zero in x5). */
static void emit_rmcg(emitter *e, const hashwx_instr *in)
{
	int d = reg(in->dst);

	rrr(e, A64_MUL, d, d, reg(in->src), 0);
	ror_imm(e, d, in->imm);
	logic_imm(e, A64_AND_IMM, BF, d, HASHWX_BRANCH_FLAG_BIT, 1);
}

/* dst = (dst op imm) * s, the prepared value in x16. */
static void emit_mul(emitter *e, const hashwx_instr *in, int s)
{
	int d = reg(in->dst);

	if (in->opcode == HASHWX_MULADD) {
		put(e, A64_ADD_IMM | (uint32_t)in->imm << 10 |
			       (uint32_t)d << 5 | X16);
	} else {
		mov_imm64(e, X16, in->imm);
		rrr(e, in->opcode == HASHWX_MULOR ? A64_ORR : A64_EOR, X16,
		    d, X16, 0);
	}
	rrr(e, A64_MUL, d, X16, s, 0);
}

/* dst = shift(dst, imm) combine s, the shifted value in x16. */
static void emit_xas(emitter *e, const hashwx_instr *in, int s)
{
	static const uint32_t combine[] = { A64_EOR, A64_ADD, A64_SUB };
	int d = reg(in->dst);
	uint32_t amount = (uint32_t)in->imm << 16 | 63u << 10 |
			  (uint32_t)d << 5 | X16;

	switch (hashwx_xas_shift(in->opcode)) {
	case HASHWX_ROR: rrr(e, A64_EXTR, X16, d, d, in->imm); break;
	case HASHWX_ASR: put(e, A64_SBFM | amount); break;
	case HASHWX_LSR: put(e, A64_UBFM | amount); break;
	}
	rrr(e, combine[hashwx_xas_combine(in->opcode)], d, X16, s, 0);
}

/* BRANCH: with BF clear and BC not zero, BC-- and back to `top`.
 *     cbnz x5, next
 *     cbz  x4, next
 *     sub  x4, x4, #1
 *     b    top
 *   next: */
static void emit_branch(emitter *e, const uint8_t *top)
{
	put(e, A64_CBNZ | 4u << 5 | BF);
	put(e, A64_CBZ | 3u << 5 | BC);
	put(e, A64_SUB_IMM | 1u << 10 | (uint32_t)BC << 5 | BC);
	put(e, A64_B | ((uint32_t)((top - e->pos) / 4) & 0x3ffffff));
}

/* One instruction; false for what is not an instruction of HashWX's (the
 * generator never makes it), so that the interpreter runs instead. */
static bool emit_instr(emitter *e, const hashwx_instr *in, bool memory,
		       const uint8_t *top)
{
	unsigned op = in->opcode;

	if (op == HASHWX_BRANCH) {
		emit_branch(e, top);
		return true;
	}
	if (in->dst >= HASHWX_REGISTERS || in->src > HASHWX_RMCG_R9 ||
	    (!hashwx_is_mul(op) && in->imm > 63))
		return false; /* a rotation or shift count is 0..63 */
	if (op == HASHWX_RMCG)
		emit_rmcg(e, in);
	else if (hashwx_is_mul(op))
		emit_mul(e, in, source(e, in, memory));
	else if (hashwx_is_xas(op))
		emit_xas(e, in, source(e, in, memory));
	else
		return false;
	return true;
}

/* ---- programs and phases --------------------------------------------- */

/* One program up to its HALT; in the write phase (not `memory`), then its
 * registers stored at their words. False if a slot breaks its bound. */
static bool emit_program(emitter *e, const hashwx_program *prog,
			 unsigned p, bool memory)
{
	const uint8_t *top;

	put(e, A64_MOVZ | BF); /* BF = 0 when a program starts */
	top = e->pos;
	for (unsigned k = 0; k < HASHWX_PROGRAM_SIZE; k++) {
		const hashwx_instr *in = &prog->code[k];
		const uint8_t *at = e->pos;

		if (in->opcode == HASHWX_HALT)
			break;
		if (!emit_instr(e, in, memory, top) ||
		    e->pos - at > MAX_SLOT_BYTES)
			return false;
	}
	if (!memory)
		for (unsigned j = 0; j < HASHWX_REGISTERS; j++)
			put(e, A64_STR_IMM |
				       (uint32_t)hashwx_memory_word(p, j) << 10 |
				       (uint32_t)SP << 5 | (uint32_t)reg(j));
	return true;
}

/* A phase: BC = 32, then the 32 programs, each checked for room. */
static bool emit_phase(emitter *e, const hashwx_instance *inst, bool memory)
{
	mov_imm64(e, BC, HASHWX_BRANCH_BUDGET);
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++) {
		const uint8_t *at = e->pos;

		if (e->end - e->pos <
			    PROGRAM_BYTES + PHASE_BYTES + EPILOGUE_BYTES ||
		    !emit_program(e, &inst->programs[p], p, memory) ||
		    e->pos - at > PROGRAM_BYTES)
			return false;
	}
	return true;
}

/* hashwx_finalize(): a SipRound on each half, of which only the steps
 * the output's words R3 and R7 depend on, then R3 ^ R7 ^ R9 in x0. */
static void emit_finalize(emitter *e)
{
	const int lo[4] = { X8, X9, X10, X11 }, hi[4] = { X12, X13, X14, X15 };
	const unsigned steps = hashx_sipround_needed(1u << 3);

	a64_sipround_steps(e, lo, steps);
	a64_sipround_steps(e, hi, steps);
	rrr(e, A64_EOR, X0, lo[3], hi[3], 0);
	rrr(e, A64_EOR, X0, X0, R9, 0);
}

/* The job hashx_compiler_build() hands the emitter, with the instance. */
typedef struct hashwx_job {
	hashx_compile_job base; /* first: the emitter gets its address */
	const hashwx_instance *inst;
} hashwx_job;

static uint8_t *emit_instance(uint8_t *start, uint8_t *end,
			      hashx_compile_job *job)
{
	const hashwx_instance *inst = ((hashwx_job *)job)->inst;
	emitter e = { start, end };
	uint8_t *epilogue;

	put(&e, A64_SUB_IMM | HASHWX_MEMORY_BYTES << 10 | SP << 5 | SP);
	emit_start(&e, &inst->hash_key);
	emit_multipliers(&e);
	if (e.pos - start > PROLOGUE_BYTES || !emit_phase(&e, inst, false) ||
	    !emit_phase(&e, inst, true))
		return NULL;
	epilogue = e.pos;
	emit_finalize(&e);
	put(&e, A64_ADD_IMM | HASHWX_MEMORY_BYTES << 10 | SP << 5 | SP);
	put(&e, A64_RET);
	return e.pos - epilogue <= EPILOGUE_BYTES ? e.pos : NULL;
}

bool hashwx_compiler_available(void)
{
	return true;
}

/* Object to function pointers: allowed by POSIX (as for dlsym). */
hashwx_hash_fn *hashwx_compile(const hashwx_instance *inst,
			       hashx_code_buffer *code)
{
	hashwx_job job = { .inst = inst };
	hashwx_hash_fn *fn;
	void *at = hashx_compiler_build(code, CODE_CAPACITY, emit_instance,
					&job.base);

	memcpy(&fn, &at, sizeof fn);
	return fn;
}
