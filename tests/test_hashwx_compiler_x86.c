/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_hashwx_compiler_x86.c - the HashWX compiler from the inside
 * (libhashwx-core): a system that refuses executable memory makes
 * compiled contexts fall back to the interpreter with the same hashes,
 * and the largest programs fit the code-size bound of
 * hashwx_compiler.h.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "hashwx_compiler.h"
#include "hashwx_context.h"
#include "testutil.h"

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Each way the system can refuse (code_buffer.h's hooks), including the
 * flipped form's mprotect() calls. */
static const unsigned all_faults[] = {
	HASHX_FAULT_MAP,
	HASHX_FAULT_WRITABLE | HASHX_FAULT_EXECUTABLE,
	HASHX_FAULT_EXECUTABLE,
	HASHX_FAULT_ALIAS | HASHX_FAULT_WRITABLE | HASHX_FAULT_EXECUTABLE,
	HASHX_FAULT_ALIAS | HASHX_FAULT_EXECUTABLE,
};

/* A refused buffer: hashwx_make() leaves no compiled function, the
 * context says INTERPRETED, and its hashes are the interpreter's. */
START_TEST(refused_falls_back)
{
	hashwx_ctx *jit = hashwx_alloc(HASHWX_COMPILED);
	hashwx_ctx *in = hashwx_alloc(HASHWX_INTERPRETED);
	uint64_t x = UINT64_C(0x243f6a8885a308d3) + (uint64_t)_i;
	hashwx_type type;

	ck_assert_ptr_nonnull(jit);
	ck_assert_ptr_ne(jit, HASHWX_NOTSUPP);
	ck_assert_ptr_nonnull(in);
	/* Unmapped again, so that a refused mmap() is reached too. */
	hashx_code_buffer_release(&jit->code);
	jit->compiled = NULL;
	jit->code.faults = all_faults[_i];
	for (int s = 0; s < 20; s++) {
		uint8_t seed[HASHWX_SEED_SIZE];

		for (size_t i = 0; i < sizeof seed; i++)
			seed[i] = (uint8_t)next_random(&x);
		hashwx_make(jit, seed);
		hashwx_make(in, seed);
		ck_assert_ptr_null(jit->compiled);
		ck_assert_int_eq(hashwx_query_type(jit, &type), 0);
		ck_assert_int_eq(type, HASHWX_INTERPRETED);
		for (int k = 0; k < 4; k++) {
			uint64_t nonce = next_random(&x);

			ck_assert_uint_eq(hashwx_exec(jit, nonce),
					  hashwx_exec(in, nonce));
		}
	}
	/* The system relents: the same context compiles again. */
	jit->code.faults = 0;
	hashwx_make(jit, (const uint8_t *)"0123456789abcdef0123456789abcdef");
	hashwx_make(in, (const uint8_t *)"0123456789abcdef0123456789abcdef");
	ck_assert_ptr_nonnull(jit->compiled);
	ck_assert_uint_eq(hashwx_exec(jit, 46), hashwx_exec(in, 46));
	hashwx_free(jit);
	hashwx_free(in);
}
END_TEST

#if defined(HASHX_JIT_X86_64)
/* An instance whose every program takes the longest encoding of each
 * slot: every operand slot reads and writes the RMCG's destination (a
 * source that is its destination needs a copy, the flag must be kept
 * aside), the widest immediates. No seed makes it (the destinations are
 * a permutation), so it bounds every instance the generator can. */
static void largest_instance(hashwx_instance *inst, unsigned reg)
{
	memset(inst, 0, sizeof *inst);
	inst->hash_key.k0 = UINT64_C(0x0123456789abcdef);
	inst->hash_key.k1 = UINT64_C(0xfedcba9876543210);
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++) {
		hashwx_instr *c = inst->programs[p].code;

		for (unsigned k = 0; k < HASHWX_PROGRAM_SIZE; k++) {
			c[k].dst = c[k].src = (uint8_t)reg;
			c[k].imm = 33;
		}
		c[0].opcode = HASHWX_RMCG;
		c[0].src = HASHWX_RMCG_R9;
		c[0].imm = 63;
		c[1].opcode = c[3].opcode = c[5].opcode = HASHWX_SUBASR;
		c[8].opcode = HASHWX_XORROR;
		c[8].imm = 63;
		c[1].imm = c[3].imm = c[5].imm = 3;
		c[2].opcode = c[4].opcode = c[6].opcode =
			(uint8_t)(HASHWX_MULOR + p % 3);
		c[HASHWX_BRANCH_SLOT].opcode = HASHWX_BRANCH;
		c[HASHWX_PROGRAM_SIZE - 1].opcode = HASHWX_HALT;
	}
}

START_TEST(largest_programs_fit)
{
	const hashwx_code_bounds *b = &hashwx_x86_64_code_bounds;
	hashx_code_buffer code = { 0 };
	hashwx_instance inst;
	size_t most = 0;

	ck_assert_uint_eq(b->capacity,
			  b->fixed + HASHWX_PROGRAMS * b->per_program);
	for (unsigned reg = 0; reg < HASHWX_REGISTERS; reg++) {
		hashwx_hash_fn *fn;
		uint64_t x = reg + 1;

		largest_instance(&inst, reg);
		fn = hashwx_compile(&inst, &code);
		ck_assert_msg(fn != NULL, "R%u: the largest programs do not fit",
			      reg);
		ck_assert_uint_le(code.used, b->capacity);
		if (code.used > most)
			most = code.used;
		for (int k = 0; k < 16; k++) {
			uint64_t nonce = next_random(&x);

			ck_assert_uint_eq(fn(nonce),
					  hashwx_interpret(&inst, nonce));
		}
	}
	printf("largest HashWX x86-64 code: %zu of %zu bytes\n", most,
	       b->capacity);
	hashx_code_buffer_release(&code);
}
END_TEST
#endif

int main(void)
{
	Suite *s = suite_create("hashwx_compiler");
	TCase *tc = tcase_create("hashwx_compiler");

	if (!hashwx_compiler_available()) {
		printf("SKIP: test_hashwx_compiler (no HashWX compiler in "
		       "this build)\n");
		return 77;
	}
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, refused_falls_back, 0,
			    (int)(sizeof all_faults / sizeof all_faults[0]));
#if defined(HASHX_JIT_X86_64)
	tcase_add_test(tc, largest_programs_fit);
#else
	printf("SKIP: largest_programs_fit (no code bound for this "
	       "architecture's HashWX compiler)\n");
#endif
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
