/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_hashwx_compiler.c - the HashWX compiler of this build, beyond what
 * the reference's corpus (test_hashwx) reaches:
 *
 *  - instances of the programs' shape with operands the generator may never
 *    draw (a source equal to its destination, every opcode of a class,
 *    the extreme immediates), hashed compiled and interpreted;
 *  - the code-size contract (code_size.h): each instruction form's cost is
 *    measured as an instance of nothing but copies of it, against the
 *    published per-slot bound, and every instance fits the capacity;
 *  - refusals: what is not a HashWX instruction, and a system that refuses
 *    executable memory, give NULL (the facade then interprets).
 *
 * A build without a HashWX compiler skips the program (exit 77).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_size.h"
#include "hashwx_compiler.h"
#include "testutil.h"

#if defined(HASHX_JIT_AARCH64)
#define HAVE_BOUNDS 1
static const hashx_code_bounds *const bounds = &hashwx_aarch64_code_bounds;
#else
#define HAVE_BOUNDS 0
#endif

#if HAVE_BOUNDS

/* All 32 programs' slots in both phases. */
#define ALL_SLOTS (2u * HASHWX_PROGRAMS * HASHWX_PROGRAM_SIZE)

static uint64_t next_random(uint64_t *s)
{
	/* xorshift64*: any fixed sequence will do */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(0x2545f4914f6cdd1d);
}

/* An instruction of slot class `c` with random operands: any opcode of
 * the class, any registers (RMCG reads R8 or R9), counts 1..63. */
static hashwx_instr random_instr(hashwx_slot_class c, uint64_t *s)
{
	uint64_t x = next_random(s);
	hashwx_instr in = { 0, (uint8_t)(x & 7), (uint8_t)(x >> 3 & 7),
			    (uint8_t)(1 + (x >> 8) % 63) };

	switch (c) {
	case HASHWX_CLASS_RMCG:
		in.opcode = HASHWX_RMCG;
		in.src = (uint8_t)(HASHWX_RMCG_R8 + (x >> 6 & 1));
		break;
	case HASHWX_CLASS_XAS:
		in.opcode = (uint8_t)(HASHWX_XORROR + (x >> 16) % 9);
		break;
	case HASHWX_CLASS_MUL:
		in.opcode = (uint8_t)((x >> 16) % 3);
		in.imm = (uint8_t)(x >> 24);
		break;
	case HASHWX_CLASS_BRANCH: in.opcode = HASHWX_BRANCH; break;
	case HASHWX_CLASS_HALT: in.opcode = HASHWX_HALT; break;
	}
	return in;
}

static void random_instance(hashwx_instance *inst, uint64_t *s)
{
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++) {
#define SLOT(k, c) inst->programs[p].code[k] = random_instr(c, s);
		HASHWX_SHAPE(SLOT)
#undef SLOT
	}
	inst->hash_key.k0 = next_random(s);
	inst->hash_key.k1 = next_random(s);
}

/* Compiled and interpreted hashes agree on `inst` for a few nonces. */
static void check_instance(const hashwx_instance *inst, hashx_code_buffer *b,
			   uint64_t *s)
{
	hashwx_hash_fn *fn = hashwx_compile(inst, b);

	ck_assert_ptr_nonnull(fn);
	ck_assert_uint_le(b->used, bounds->capacity);
	for (int k = 0; k < 4; k++) {
		uint64_t nonce = k == 0 ? 0 : k == 1 ? UINT64_MAX
						     : next_random(s);

		ck_assert_uint_eq(fn(nonce), hashwx_interpret(inst, nonce));
	}
}

START_TEST(unusual_operands)
{
	hashx_code_buffer b = { 0 };
	uint64_t s = 0x9e3779b97f4a7c15u;
	hashwx_instance inst;
	int n = tu_slow_runner() ? 40 : 400;

	for (int i = 0; i < n; i++) {
		random_instance(&inst, &s);
		check_instance(&inst, &b, &s);
	}
	hashx_code_buffer_release(&b);
}
END_TEST

/* Every slot of every program holds `in` (shape ignored: compiled only,
 * never run, so the interpreter's shape need not hold). Returns the code
 * size, 0 if refused. */
static size_t uniform_size(hashx_code_buffer *b, hashwx_instr in)
{
	static hashwx_instance inst;

	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++)
		for (unsigned k = 0; k < HASHWX_PROGRAM_SIZE; k++)
			inst.programs[p].code[k] = in;
	inst.hash_key.k0 = UINT64_C(0x8000800080008000);
	inst.hash_key.k1 = UINT64_C(0x1234567887654321);
	return hashwx_compile(&inst, b) != NULL ? b->used : 0;
}

/* Each form's cost over the 2 x 32 x 10 slots, against the bound; the
 * costliest instance against the capacity. */
START_TEST(code_size_bound)
{
	hashx_code_buffer b = { 0 };
	hashwx_instr halt = { HASHWX_HALT, 0, 0, 0 };
	size_t base = uniform_size(&b, halt), worst = 0;
	static const uint8_t imms[] = { 0, 1, 32, 63, 128, 255 };

	ck_assert_uint_gt(base, 0);
	ck_assert_uint_le(base, bounds->fixed);
	for (unsigned op = 0; op < HASHWX_HALT; op++)
		for (unsigned src = 0; src <= HASHWX_RMCG_R9; src++)
			for (size_t i = 0; i < sizeof imms; i++) {
				hashwx_instr in = { (uint8_t)op, 3,
						    (uint8_t)src, imms[i] };
				size_t size;

				if (!hashwx_is_mul(op) && imms[i] > 63)
					continue;
				size = uniform_size(&b, in);
				ck_assert_msg(size > 0, "op %u src %u imm %u "
					      "refused", op, src, imms[i]);
				ck_assert_uint_le(size, bounds->capacity);
				ck_assert_uint_le(size - base,
						  ALL_SLOTS * bounds->per_instr);
				if (size > worst)
					worst = size;
			}
	printf("HashWX code: fixed %zu of %zu, costliest instance %zu of "
	       "%zu bytes\n", base, bounds->fixed, worst, bounds->capacity);
	hashx_code_buffer_release(&b);
}
END_TEST

/* Not HashWX instructions: refused, so the facade interprets. */
START_TEST(refusals)
{
	hashx_code_buffer b = { 0 };
	static const hashwx_instr bad[] = {
		{ HASHWX_OPCODE_COUNT, 0, 0, 0 },
		{ 0xff, 0, 0, 0 },
		{ HASHWX_XORROR, HASHWX_REGISTERS, 0, 1 },
		{ HASHWX_MULOR, 0, HASHWX_RMCG_R9 + 1, 1 },
		{ HASHWX_RMCG, 0, HASHWX_RMCG_R8, 64 },
		{ HASHWX_ADDLSR, 0, 1, 200 },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_uint_eq(uniform_size(&b, bad[i]), 0);
	hashx_code_buffer_release(&b);
}
END_TEST

/* A system that refuses executable memory at each step: NULL, no crash;
 * the same buffer compiles again once it stops refusing. */
START_TEST(refused_memory)
{
	static const unsigned faults[] = { HASHX_FAULT_MAP,
					   HASHX_FAULT_WRITABLE,
					   HASHX_FAULT_EXECUTABLE };
	uint64_t s = 7;
	hashwx_instance inst;

	random_instance(&inst, &s);
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
		hashx_code_buffer b = { 0 };

		if (faults[i] != HASHX_FAULT_MAP)
			ck_assert_ptr_nonnull(hashwx_compile(&inst, &b));
		b.faults = faults[i];
		ck_assert_ptr_null(hashwx_compile(&inst, &b));
		b.faults = 0;
		check_instance(&inst, &b, &s);
		hashx_code_buffer_release(&b);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hashwx_compiler");
	TCase *tc = tcase_create("hashwx_compiler");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, unusual_operands);
	tcase_add_test(tc, code_size_bound);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, refused_memory);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}

#else

int main(void)
{
	printf("SKIP: test_hashwx_compiler (the A64 compiler's tests; "
	       "this build has no A64 HashWX compiler, x86-64's are "
	       "test_hashwx_compiler_x86's)\n");
	return 77;
}

#endif
