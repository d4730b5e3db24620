/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/* hashwx_interpreter.c - the portable HashWX interpreter (hashwx_interpreter.h). */
#include <stddef.h>

#include "hashwx_interpreter.h"

static inline uint64_t rotr(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n)); /* n is 1..63 */
}

void hashwx_initial_registers(const hashwx_sip_key *key, uint64_t nonce,
			      uint64_t r[HASHWX_REGISTERS + 2])
{
	hashwx_rng_words(key, nonce, r, HASHWX_REGISTERS / 4);
	r[HASHWX_RMCG_R8] = hashwx_r8(r[4]);
	r[HASHWX_RMCG_R9] = hashwx_r9(r[7]);
}

uint64_t hashwx_finalize(uint64_t r[HASHWX_REGISTERS + 2])
{
	hashx_sipround(&r[0], &r[1], &r[2], &r[3]);
	hashx_sipround(&r[4], &r[5], &r[6], &r[7]);
	return r[3] ^ r[7] ^ r[HASHWX_RMCG_R9];
}

/* The shifted destination of an XAS instruction. */
static uint64_t xas_shift(uint64_t d, unsigned op, unsigned imm)
{
	switch (hashwx_xas_shift(op)) {
	case HASHWX_ROR:
		return rotr(d, imm);
	case HASHWX_ASR:
		/* Arithmetic shift written without relying on the
		 * implementation-defined >> of a negative number. */
		return (d >> imm) | ((0 - (d >> 63)) << (64 - imm));
	default:
		return d >> imm;
	}
}

static uint64_t xas_combine(uint64_t d, unsigned op, uint64_t s)
{
	switch (hashwx_xas_combine(op)) {
	case HASHWX_XOR:
		return d ^ s;
	case HASHWX_ADD:
		return d + s;
	default:
		return d - s;
	}
}

static uint64_t mul_prepare(uint64_t d, unsigned op, unsigned imm)
{
	switch (op) {
	case HASHWX_MULOR:
		return d | imm;
	case HASHWX_MULXOR:
		return d ^ imm;
	default:
		return d + imm;
	}
}

unsigned hashwx_run_program(const hashwx_program *prog,
			    uint64_t r[HASHWX_REGISTERS + 2],
			    const uint64_t *mem, unsigned *bc)
{
	unsigned bf = 0, taken = 0;

	for (unsigned pc = 0;;) {
		const hashwx_instr *in = &prog->code[pc++];
		unsigned op = in->opcode;
		uint64_t s = r[in->src];

		if (mem != NULL && op != HASHWX_RMCG)
			s = mem[(s & HASHWX_MEMORY_MASK) / 8];
		if (op == HASHWX_HALT)
			return taken;
		if (op == HASHWX_BRANCH) {
			if (*bc != 0 && bf == 0) {
				--*bc;
				taken++;
				pc = 0;
			}
		} else if (op == HASHWX_RMCG) {
			r[in->dst] = rotr(r[in->dst] * s, in->imm);
			bf = (unsigned)(r[in->dst] >> HASHWX_BRANCH_FLAG_BIT) & 1;
		} else if (hashwx_is_mul(op)) {
			r[in->dst] = mul_prepare(r[in->dst], op, in->imm) * s;
		} else {
			r[in->dst] = xas_combine(xas_shift(r[in->dst], op,
							   in->imm), op, s);
		}
	}
}

uint64_t hashwx_interpret(const hashwx_instance *inst, uint64_t nonce)
{
	uint64_t r[HASHWX_REGISTERS + 2];
	uint64_t mem[HASHWX_MEMORY_WORDS];
	unsigned bc = HASHWX_BRANCH_BUDGET;

	hashwx_initial_registers(&inst->hash_key, nonce, r);
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++) {
		hashwx_run_program(&inst->programs[p], r, NULL, &bc);
		for (unsigned j = 0; j < HASHWX_REGISTERS; j++)
			mem[hashwx_memory_word(p, j)] = r[j];
	}
	bc = HASHWX_BRANCH_BUDGET;
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++)
		hashwx_run_program(&inst->programs[p], r, mem, &bc);
	return hashwx_finalize(r);
}
