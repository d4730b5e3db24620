/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_interpreter.c - the semantics of each HashX instruction, on small
 * hand-made programs, for every interpreter the build has: hashx_interpret()
 * (the default), the portable switch and, with GNU C, the threaded one
 * and the paired form (decoded, then run).
 * Each test is a loop test over those interpreters.
 *
 * Expected values are computed here, independently of the project (the
 * high products with the compiler's 128-bit integers), and every test
 * checks all eight registers, so an instruction that writes the wrong
 * register or touches another fails too. A small reference interpreter
 * written from program.h then checks random and generated programs.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "finalize.h"
#include "generator.h"
#include "interpreter.h"
#include "keys.h"
#include "mulh.h"
#include "program.h"
#include "siphash.h"
#include "testutil.h"

typedef void interp_fn(const hashx_program *prog, uint64_t r[8]);

static void default_interpret(const hashx_program *prog, uint64_t r[8])
{
	hashx_interpret(prog, r);
}

#if HASHX_HAVE_PAIRED_INTERPRETER
/* The paired form, decoded afresh from each program it runs. */
static void pairs_interpret(const hashx_program *prog, uint64_t r[8])
{
	static hashx_pairs pairs;

	hashx_pairs_decode(prog, &pairs);
	hashx_interpret_pairs(&pairs, r);
}
#endif

static const struct {
	const char *name;
	interp_fn *fn;
} interps[] = {
	{ "hashx_interpret", default_interpret },
	{ "portable", hashx_interpret_portable },
#if HASHX_HAVE_THREADED_INTERPRETER
	{ "threaded", hashx_interpret_threaded },
#endif
#if HASHX_HAVE_PAIRED_INTERPRETER
	{ "pairs", pairs_interpret },
#endif
};
#define NINTERPS ((int)(sizeof interps / sizeof interps[0]))

/* The interpreter under test, chosen by the loop index. */
static int cur;
#define USE_INTERP() (cur = _i)

#if !defined(__SIZEOF_INT128__)
#error "test_interpreter.c needs a compiler with 128-bit integers"
#endif

typedef unsigned __int128 u128;
typedef __int128 i128;

static uint64_t ref_umulh(uint64_t a, uint64_t b)
{
	return (uint64_t)(((u128)a * b) >> 64);
}

/* High half of the two's-complement 128-bit product (shifted as unsigned,
 * so no implementation-defined right shift of a negative value). */
static uint64_t ref_smulh(uint64_t a, uint64_t b)
{
	i128 p = (i128)(int64_t)a * (i128)(int64_t)b;

	return (uint64_t)((u128)p >> 64);
}

static uint64_t ref_rotr(uint64_t x, unsigned n)
{
	uint64_t out = 0;

	/* bit i of the result is bit (i + n) mod 64 of x */
	for (unsigned i = 0; i < 64; i++)
		out |= ((x >> ((i + n) % 64)) & 1) << i;
	return out;
}

static hashx_program prog;

static void clear(void)
{
	tu_program_clear(&prog);
}

static void emit(hashx_opcode op, int dst, int src, uint32_t imm)
{
	tu_program_emit(&prog, (int)op, dst, src, imm);
}

static void init_regs(uint64_t r[8])
{
	for (int i = 0; i < 8; i++)
		r[i] = 0x1111111111111111ULL * (uint64_t)(i + 1) + 0x0123;
}

/* Runs prog on `r` and compares the whole register file with `want`. */
static void run_expect(uint64_t r[8], const uint64_t want[8],
		       const char *what)
{
	interps[cur].fn(&prog, r);
	for (int i = 0; i < 8; i++)
		ck_assert_msg(r[i] == want[i],
			      "%s (%s): r%d = %016llx, want %016llx",
			      what, interps[cur].name, i,
			      (unsigned long long)r[i],
			      (unsigned long long)want[i]);
}

/* One instruction on chosen register values. */
static void one(hashx_opcode op, int dst, int src, uint32_t imm,
		uint64_t dval, uint64_t sval, uint64_t result,
		const char *what)
{
	uint64_t r[8], want[8];

	init_regs(r);
	r[src] = sval;
	r[dst] = dval;
	memcpy(want, r, sizeof want);
	want[dst] = result;
	clear();
	emit(op, dst, src, imm);
	run_expect(r, want, what);
}

static const uint64_t extremes[] = {
	0,
	1,
	2,
	3,
	UINT64_MAX,
	UINT64_MAX - 1,
	(uint64_t)INT64_MIN,
	(uint64_t)INT64_MAX,
	(uint64_t)INT64_MIN + 1,
	0xffffffffULL,
	0x100000000ULL,
	0x00000000ffffffffULL * 0xffffULL,
	0x9e3779b97f4a7c15ULL,
	0x7fffffff80000000ULL,
};
#define NEXTREMES (sizeof extremes / sizeof extremes[0])

/* ---- rotation and constants ------------------------------------------- */

START_TEST(ror_c_every_count)
{
	USE_INTERP();
	static const uint64_t vals[] = { 0x0123456789abcdefULL, 1,
					 0x8000000000000001ULL,
					 0xfedcba9876543210ULL };

	for (size_t v = 0; v < 4; v++)
		for (unsigned n = 1; n < 64; n++) {
			char what[64];

			snprintf(what, sizeof what, "ror %u of #%zu", n, v);
			one(HASHX_OP_ROR_C, 3, 0, n, vals[v], 0,
			    ref_rotr(vals[v], n), what);
		}
	/* Spot values, independent of ref_rotr. */
	one(HASHX_OP_ROR_C, 1, 0, 1, 1, 0, 0x8000000000000000ULL, "ror 1");
	one(HASHX_OP_ROR_C, 1, 0, 4, 0x0123456789abcdefULL, 0,
	    0xf0123456789abcdeULL, "ror 4");
	one(HASHX_OP_ROR_C, 1, 0, 63, 0x8000000000000000ULL, 0, 1, "ror 63");
}
END_TEST

START_TEST(add_c_sign_extends)
{
	USE_INTERP();
	one(HASHX_OP_ADD_C, 2, 0, 0x80000000u, 0, 0, 0xffffffff80000000ULL,
	    "add 0x80000000 to 0");
	one(HASHX_OP_ADD_C, 2, 0, 0xffffffffu, 10, 0, 9, "add -1 to 10");
	one(HASHX_OP_ADD_C, 2, 0, 0xffffffffu, 0, 0, UINT64_MAX,
	    "add -1 to 0");
	one(HASHX_OP_ADD_C, 2, 0, 0x7fffffffu, 0, 0, 0x7fffffffULL,
	    "add 0x7fffffff to 0");
	one(HASHX_OP_ADD_C, 2, 0, 1, UINT64_MAX, 0, 0, "add 1 wraps");
	one(HASHX_OP_ADD_C, 2, 0, 0x80000000u, 0x80000000ULL, 0, 0,
	    "add -2^31 to 2^31");
	one(HASHX_OP_ADD_C, 7, 0, 0x12345678u, 0x100000000ULL, 0,
	    0x112345678ULL, "add positive");
}
END_TEST

START_TEST(xor_c_sign_extends)
{
	USE_INTERP();
	one(HASHX_OP_XOR_C, 4, 0, 0x80000000u, 0, 0, 0xffffffff80000000ULL,
	    "xor 0x80000000");
	one(HASHX_OP_XOR_C, 4, 0, 0xffffffffu, 0x0123456789abcdefULL, 0,
	    ~0x0123456789abcdefULL, "xor -1 is not");
	one(HASHX_OP_XOR_C, 4, 0, 0x7fffffffu, 0xffffffffffffffffULL, 0,
	    0xffffffff80000000ULL, "xor 0x7fffffff");
	one(HASHX_OP_XOR_C, 4, 0, 0x00000001u, 0x8000000000000000ULL, 0,
	    0x8000000000000001ULL, "xor 1");
}
END_TEST

/* ---- multiplications -------------------------------------------------- */

START_TEST(mulh_known_values)
{
	USE_INTERP();
	const uint64_t max = UINT64_MAX, min = (uint64_t)INT64_MIN;

	one(HASHX_OP_UMULH_R, 0, 1, 0, max, max, 0xfffffffffffffffeULL,
	    "umulh max*max");
	one(HASHX_OP_SMULH_R, 0, 1, 0, min, min, 0x4000000000000000ULL,
	    "smulh min*min");
	one(HASHX_OP_SMULH_R, 0, 1, 0, max, max, 0, "smulh -1*-1");
	one(HASHX_OP_UMULH_R, 0, 1, 0, max, 2, 1, "umulh max*2");
	one(HASHX_OP_SMULH_R, 0, 1, 0, max, 2, max, "smulh -1*2");
	one(HASHX_OP_UMULH_R, 5, 6, 0, 1ULL << 32, 1ULL << 32, 1,
	    "umulh 2^32*2^32");
	one(HASHX_OP_SMULH_R, 5, 6, 0, min, 1, max, "smulh min*1");
	one(HASHX_OP_SMULH_R, 5, 6, 0, min, (uint64_t)INT64_MAX,
	    0xc000000000000000ULL, "smulh min*max");
	one(HASHX_OP_UMULH_R, 5, 6, 0, 0, max, 0, "umulh 0*max");
	one(HASHX_OP_SMULH_R, 5, 6, 0, 0, min, 0, "smulh 0*min");
}
END_TEST

START_TEST(mulh_extreme_pairs)
{
	USE_INTERP();
	for (size_t i = 0; i < NEXTREMES; i++)
		for (size_t j = 0; j < NEXTREMES; j++) {
			uint64_t a = extremes[i], b = extremes[j];
			char what[64];

			snprintf(what, sizeof what, "umulh #%zu*#%zu", i, j);
			one(HASHX_OP_UMULH_R, 2, 7, 0, a, b, ref_umulh(a, b),
			    what);
			snprintf(what, sizeof what, "smulh #%zu*#%zu", i, j);
			one(HASHX_OP_SMULH_R, 7, 2, 0, a, b, ref_smulh(a, b),
			    what);
			snprintf(what, sizeof what, "mul #%zu*#%zu", i, j);
			one(HASHX_OP_MUL_R, 3, 4, 0, a, b, a * b, what);
		}
}
END_TEST

/* dst == src squares the register. */
START_TEST(mulh_dst_is_src)
{
	USE_INTERP();
	for (size_t i = 0; i < NEXTREMES; i++) {
		uint64_t a = extremes[i];
		char what[64];

		snprintf(what, sizeof what, "umulh r6,r6 #%zu", i);
		one(HASHX_OP_UMULH_R, 6, 6, 0, a, a, ref_umulh(a, a), what);
		snprintf(what, sizeof what, "smulh r6,r6 #%zu", i);
		one(HASHX_OP_SMULH_R, 6, 6, 0, a, a, ref_smulh(a, a), what);
	}
	one(HASHX_OP_UMULH_R, 1, 1, 0, UINT64_MAX, UINT64_MAX,
	    0xfffffffffffffffeULL, "umulh r1,r1 max");
	one(HASHX_OP_SMULH_R, 1, 1, 0, (uint64_t)INT64_MIN,
	    (uint64_t)INT64_MIN, 0x4000000000000000ULL, "smulh r1,r1 min");
}
END_TEST

/* Random operands, against the 128-bit reference. */
START_TEST(mulh_random)
{
	USE_INTERP();
	uint64_t s = 0x2545f4914f6cdd1dULL;

	for (int t = 0; t < 2000; t++) {
		uint64_t a, b;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		a = s;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		b = s >> (t % 64);
		one(HASHX_OP_UMULH_R, t % 8, (t + 1) % 8, 0, a, b,
		    ref_umulh(a, b), "umulh random");
		one(HASHX_OP_SMULH_R, t % 8, (t + 3) % 8, 0, a, b,
		    ref_smulh(a, b), "smulh random");
	}
}
END_TEST

/* The 32-bit-halves construction (mulh.h) that the interpreter falls back
 * to without __int128 and that the vector back-ends emit, on its own:
 * this compiler has __int128, so the interpreter never runs it. */
START_TEST(mulh_from_halves)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < NEXTREMES; i++)
		for (size_t j = 0; j < NEXTREMES; j++) {
			uint64_t a = extremes[i], b = extremes[j];

			ck_assert_uint_eq(hashx_umulh_halves(a, b),
					  ref_umulh(a, b));
			ck_assert_uint_eq(hashx_smulh_halves(a, b),
					  ref_smulh(a, b));
		}
	for (int t = 0; t < 100000; t++) {
		uint64_t a, b;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		a = s;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		b = s >> (t % 64);
		ck_assert_uint_eq(hashx_umulh_halves(a, b), ref_umulh(a, b));
		ck_assert_uint_eq(hashx_smulh_halves(a, b), ref_smulh(a, b));
	}
}
END_TEST

/* ---- the code generators' analysis (analysis.h) ---------------------- */

START_TEST(analysis_blocks_and_tested_mulh)
{
	static hashx_program p;
	static hashx_analysis a;

	tu_program_clear(&p);
	tu_program_emit(&p, HASHX_OP_ADD_C, 1, 0, 7);    /* 0 */
	tu_program_emit(&p, HASHX_OP_TARGET, 0, 0, 0);   /* 1 */
	tu_program_emit(&p, HASHX_OP_UMULH_R, 2, 3, 0);  /* 2 */
	tu_program_emit(&p, HASHX_OP_ADD_C, 2, 0, 1);    /* 3: clobbers r2 */
	tu_program_emit(&p, HASHX_OP_XOR_R, 4, 0, 0);    /* 4 */
	tu_program_emit(&p, HASHX_OP_BRANCH, 0, 0, 1);   /* 5 */
	tu_program_emit(&p, HASHX_OP_SMULH_R, 5, 6, 0);  /* 6 */
	tu_program_emit(&p, HASHX_OP_BRANCH, 0, 0, 2);   /* 7 */
	tu_program_emit(&p, HASHX_OP_BRANCH, 0, 0, 4);   /* 8 */
	hashx_analyse(&p, &a);
	ck_assert_uint_eq(a.nbranches, 3);
	ck_assert_uint_eq(a.branch[0].at, 5);
	ck_assert_uint_eq(a.branch[0].resume, 2);
	ck_assert_uint_eq(a.branch[0].written, 1u << 2 | 1u << 4);
	ck_assert_int_eq(a.branch[0].mulh, 2);
	ck_assert(a.branch[0].mulh_clobbered);
	ck_assert_uint_eq(a.branch[1].at, 7);
	ck_assert_uint_eq(a.branch[1].written, 1u << 2 | 1u << 4 | 1u << 5);
	ck_assert_int_eq(a.branch[1].mulh, 6);
	ck_assert(!a.branch[1].mulh_clobbered);
	ck_assert_uint_eq(a.branch[2].written, a.branch[1].written);
	ck_assert_int_eq(a.branch[2].mulh, 6);
	ck_assert_uint_eq(a.mulh_use[2], HASHX_MULH_TESTED | HASHX_MULH_CLOBBERED);
	ck_assert_uint_eq(a.mulh_use[6], HASHX_MULH_TESTED);
	ck_assert_uint_eq(a.mulh_use[0] | a.mulh_use[3], 0);
}
END_TEST

/* Without a TARGET a jump resumes at HASHX_RESUME_WITHOUT_TARGET, and a
 * BRANCH at index 0 then has nothing to run again; right after a TARGET
 * the block is empty but still "re-run" from the BRANCH itself. */
START_TEST(analysis_resume_rules)
{
	static hashx_program p;
	static hashx_analysis a;

	tu_program_clear(&p);
	tu_program_emit(&p, HASHX_OP_BRANCH, 0, 0, 0);  /* 0 */
	tu_program_emit(&p, HASHX_OP_ADD_C, 1, 0, 3);   /* 1 */
	tu_program_emit(&p, HASHX_OP_BRANCH, 0, 0, 0);  /* 2 */
	tu_program_emit(&p, HASHX_OP_TARGET, 0, 0, 0);  /* 3 */
	tu_program_emit(&p, HASHX_OP_BRANCH, 0, 0, 0);  /* 4 */
	hashx_analyse(&p, &a);
	ck_assert_uint_eq(a.nbranches, 3);
	ck_assert_uint_eq(a.branch[0].resume, HASHX_RESUME_WITHOUT_TARGET);
	ck_assert(!hashx_branch_reruns(&a.branch[0]));
	ck_assert_int_eq(a.branch[0].mulh, -1);
	ck_assert_uint_eq(a.branch[1].resume, HASHX_RESUME_WITHOUT_TARGET);
	ck_assert(hashx_branch_reruns(&a.branch[1]));
	ck_assert_uint_eq(a.branch[1].written, 1u << 1);
	ck_assert_uint_eq(a.branch[2].resume, 4);
	ck_assert(hashx_branch_reruns(&a.branch[2]));
	ck_assert_uint_eq(a.branch[2].written, 0);
}
END_TEST

/* ---- register-register arithmetic ------------------------------------- */

START_TEST(mul_sub_xor_wrap)
{
	USE_INTERP();
	one(HASHX_OP_MUL_R, 0, 1, 0, UINT64_MAX, UINT64_MAX, 1,
	    "mul -1*-1");
	one(HASHX_OP_MUL_R, 0, 1, 0, 1ULL << 63, 2, 0, "mul 2^63*2");
	one(HASHX_OP_MUL_R, 0, 1, 0, 0x100000001ULL, 0x100000001ULL,
	    0x200000001ULL, "mul (2^32+1)^2");
	one(HASHX_OP_SUB_R, 2, 3, 0, 0, 1, UINT64_MAX, "sub 0-1");
	one(HASHX_OP_SUB_R, 2, 3, 0, (uint64_t)INT64_MIN, 1,
	    (uint64_t)INT64_MAX, "sub min-1");
	one(HASHX_OP_SUB_R, 2, 3, 0, 5, UINT64_MAX, 6, "sub 5-(-1)");
	one(HASHX_OP_XOR_R, 4, 5, 0, 0xff00ff00ff00ff00ULL,
	    0x0ff00ff00ff00ff0ULL, 0xf0f0f0f0f0f0f0f0ULL, "xor");
	one(HASHX_OP_XOR_R, 4, 5, 0, UINT64_MAX, UINT64_MAX, 0, "xor self");
}
END_TEST

START_TEST(add_rs_shifts)
{
	USE_INTERP();
	static const uint64_t dsts[] = { 0, UINT64_MAX, 0x123456789ULL };
	static const uint64_t srcs[] = { 1, 0xe000000000000001ULL,
					 UINT64_MAX, 0x4000000000000000ULL };

	for (uint32_t k = 0; k < 4; k++)
		for (size_t d = 0; d < 3; d++)
			for (size_t s = 0; s < 4; s++) {
				char what[64];
				/* src * 2^k, as a multiplication */
				uint64_t want = dsts[d] + srcs[s] * (1ULL << k);

				snprintf(what, sizeof what,
					 "add_rs shift %u #%zu #%zu", k, d, s);
				one(HASHX_OP_ADD_RS, 6, 2, k, dsts[d], srcs[s],
				    want, what);
			}
	one(HASHX_OP_ADD_RS, 0, 1, 3, 1, 0xe000000000000001ULL, 9,
	    "add_rs loses top bits");
	one(HASHX_OP_ADD_RS, 0, 1, 2, UINT64_MAX, 1, 3, "add_rs wraps");
}
END_TEST

/* A sequence: each instruction reads the results of earlier ones. */
START_TEST(straight_line_sequence)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_MUL_R, 0, 1, 0);
	w[0] *= w[1];
	emit(HASHX_OP_ADD_RS, 1, 0, 2);
	w[1] += w[0] * 4;
	emit(HASHX_OP_UMULH_R, 2, 1, 0);
	w[2] = ref_umulh(w[2], w[1]);
	emit(HASHX_OP_ROR_C, 2, 0, 17);
	w[2] = ref_rotr(w[2], 17);
	emit(HASHX_OP_SUB_R, 3, 2, 0);
	w[3] -= w[2];
	emit(HASHX_OP_SMULH_R, 4, 3, 0);
	w[4] = ref_smulh(w[4], w[3]);
	emit(HASHX_OP_XOR_C, 5, 0, 0xdeadbeefu);
	w[5] ^= 0xffffffffdeadbeefULL;
	emit(HASHX_OP_ADD_C, 6, 0, 0x8badf00du);
	w[6] += 0xffffffff8badf00dULL;
	emit(HASHX_OP_XOR_R, 7, 4, 0);
	w[7] ^= w[4];
	run_expect(r, w, "sequence");
}
END_TEST

/* Only prog.size instructions run. */
START_TEST(size_limits_execution)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_ADD_C, 0, 0, 1);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	prog.size = 1;
	w[0] += 1;
	run_expect(r, w, "size 1");
	prog.size = 0;
	run_expect(r, w, "size 0");
}
END_TEST

/* ---- branches --------------------------------------------------------- */

/* r2 = 2^40 and r3 = 2^40: the first UMULH gives 2^16 (low 32 bits
 * 0x00010000), the second 2^16 * 2^40 >> 64 = 0. */
#define R2 (1ULL << 40)
#define R3 (1ULL << 40)

static void loop_program(uint32_t mask)
{
	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_UMULH_R, 2, 3, 0);
	emit(HASHX_OP_BRANCH, 0, 0, mask);
}

START_TEST(branch_taken_once)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	r[2] = R2;
	r[3] = R3;
	memcpy(w, r, sizeof w);
	/* 0x00010000 & 0x0000000f == 0: jump back once; the body runs
	 * twice, the second UMULH sees 2^16 and gives 0 (which would match
	 * again, but a run jumps only once). */
	w[1] += 2;
	w[2] = ref_umulh(ref_umulh(R2, R3), R3);
	ck_assert_uint_eq(ref_umulh(R2, R3), 0x10000);
	loop_program(0x0000000fu);
	run_expect(r, w, "branch taken");
}
END_TEST

START_TEST(branch_not_taken)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	r[2] = R2;
	r[3] = R3;
	memcpy(w, r, sizeof w);
	w[1] += 1;
	w[2] = ref_umulh(R2, R3);
	/* bit 16 is set in the result: no jump */
	loop_program(0x00010000u | 0x0000000fu);
	run_expect(r, w, "branch not taken");
}
END_TEST

/* Only the low 32 bits of the high product count. */
START_TEST(branch_tests_low_32_bits)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	/* product high half = 2^40: low 32 bits all zero -> jump */
	r[2] = 1ULL << 52;
	r[3] = 1ULL << 52;
	memcpy(w, r, sizeof w);
	w[1] += 2;
	w[2] = ref_umulh(ref_umulh(r[2], r[3]), r[3]);
	ck_assert_uint_eq(ref_umulh(r[2], r[3]), 1ULL << 40);
	loop_program(0xffffffffu);
	run_expect(r, w, "high bits ignored");
}
END_TEST

/* SMULH results feed branches too. */
START_TEST(branch_after_smulh)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	/* -2^40 * 2^40 = -2^80: high half -2^16 = 0xffff...ffff0000, low
	 * 32 bits 0xffff0000. */
	init_regs(r);
	r[2] = (uint64_t)-(int64_t)(1ULL << 40);
	r[3] = 1ULL << 40;
	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_SMULH_R, 2, 3, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0x0000ffffu);
	memcpy(w, r, sizeof w);
	w[1] += 2;
	w[2] = ref_smulh(ref_smulh(r[2], r[3]), r[3]);
	ck_assert_uint_eq(ref_smulh(r[2], r[3]), 0xffffffffffff0000ULL);
	run_expect(r, w, "smulh branch taken");

	init_regs(r);
	r[2] = (uint64_t)-(int64_t)(1ULL << 40);
	r[3] = 1ULL << 40;
	prog.code[3].imm = 0x00010000u;
	memcpy(w, r, sizeof w);
	w[1] += 1;
	w[2] = ref_smulh(r[2], r[3]);
	run_expect(r, w, "smulh branch not taken");
}
END_TEST

/* With no UMULH/SMULH before it, a BRANCH sees 0 and jumps. MUL_R does
 * not set the result. */
START_TEST(branch_without_mulh_sees_zero)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_ADD_C, 0, 0, 5);
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_MUL_R, 4, 5, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0xffffffffu);
	w[0] += 5;
	w[1] += 2;
	w[4] = w[4] * w[5] * w[5];
	/* the multiplication's low bits are not zero, so a branch that
	 * looked at them would not jump */
	ck_assert_uint_ne((uint32_t)(r[4] * r[5]), 0);
	run_expect(r, w, "branch without mulh");
}
END_TEST

/* Two branches that would both jump: only the first does. The second,
 * after its own TARGET, is disabled. */
START_TEST(one_jump_per_run)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	r[2] = R2;
	r[3] = R3;
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_UMULH_R, 2, 3, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0x0000000fu); /* jumps */
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 4, 0, 1);
	emit(HASHX_OP_BRANCH, 0, 0, 0xffffffffu); /* result 0: would jump */
	w[1] += 2;
	w[2] = ref_umulh(ref_umulh(R2, R3), R3);
	w[4] += 1;
	run_expect(r, w, "one jump");
}
END_TEST

/* A branch goes back to the most recent TARGET, not the first. */
START_TEST(branch_to_latest_target)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	r[2] = R2;
	r[3] = R3;
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_UMULH_R, 2, 3, 0);          /* 0x10000 */
	emit(HASHX_OP_BRANCH, 0, 0, 0x00010000u); /* no jump */
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 4, 0, 1);
	emit(HASHX_OP_BRANCH, 0, 0, 0x0000000fu); /* jumps to the 2nd TARGET */
	emit(HASHX_OP_ADD_C, 5, 0, 1);
	w[1] += 1;
	w[2] = ref_umulh(R2, R3);
	w[4] += 2;
	w[5] += 1;
	run_expect(r, w, "latest target");
}
END_TEST

/* A BRANCH before any TARGET resumes at instruction 1 (the reference's
 * target index starts at 0; interpreter.c documents this). The generator
 * never emits such a program, but both dispatchers must agree on it. */
START_TEST(branch_before_any_target)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_ADD_C, 0, 0, 1);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_BRANCH, 0, 0, 0xffffffffu);
	w[0] += 1;
	w[1] += 2;
	run_expect(r, w, "branch with no target");
}
END_TEST

/* A TARGET or BRANCH as the last instruction ends the run cleanly. */
START_TEST(branch_at_end)
{
	USE_INTERP();
	uint64_t r[8], w[8];

	init_regs(r);
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_ADD_C, 3, 0, 7);
	emit(HASHX_OP_BRANCH, 0, 0, 0x1u); /* no target yet: back to 1 */
	emit(HASHX_OP_TARGET, 0, 0, 0);
	w[3] += 7;
	run_expect(r, w, "target last");

	init_regs(r);
	memcpy(w, r, sizeof w);
	clear();
	emit(HASHX_OP_ADD_C, 3, 0, 7);
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0x1u); /* jumps to the end */
	w[3] += 7;
	run_expect(r, w, "branch last");
}
END_TEST

/* ---- whole programs against a reference interpreter ------------------- */

/* program.h's semantics, written out plainly. Returns whether it jumped. */
static int ref_interpret(const hashx_program *p, uint64_t r[8])
{
	size_t resume = 1;
	int jumped = 0;
	uint32_t last_mulh = 0;

	for (size_t i = 0; i < p->size; i++) {
		const hashx_instr *in = &p->code[i];
		uint64_t *d = &r[in->dst], s = r[in->src];
		uint64_t imm64 = (uint64_t)(int64_t)(int32_t)in->imm;

		switch (in->opcode) {
		case HASHX_OP_UMULH_R:
			*d = ref_umulh(*d, s);
			last_mulh = (uint32_t)*d;
			break;
		case HASHX_OP_SMULH_R:
			*d = ref_smulh(*d, s);
			last_mulh = (uint32_t)*d;
			break;
		case HASHX_OP_MUL_R:
			*d *= s;
			break;
		case HASHX_OP_SUB_R:
			*d -= s;
			break;
		case HASHX_OP_XOR_R:
			*d ^= s;
			break;
		case HASHX_OP_ADD_RS:
			*d += s * (1ULL << in->imm);
			break;
		case HASHX_OP_ROR_C:
			*d = ref_rotr(*d, in->imm);
			break;
		case HASHX_OP_ADD_C:
			*d += imm64;
			break;
		case HASHX_OP_XOR_C:
			*d ^= imm64;
			break;
		case HASHX_OP_TARGET:
			resume = i + 1;
			break;
		case HASHX_OP_BRANCH:
			if (!jumped && (last_mulh & in->imm) == 0) {
				jumped = 1;
				i = resume - 1;
			}
			break;
		default:
			ck_abort_msg("bad opcode in test program");
		}
	}
	return jumped;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random valid instructions, with TARGETs and BRANCHes anywhere and
 * sparse branch masks, so jumps are frequent. */
static void random_program(uint64_t *rs, size_t size)
{
	clear();
	for (size_t i = 0; i < size; i++) {
		uint64_t x = xorshift(rs);
		int op = (int)(x % HASHX_OP_COUNT);
		uint32_t imm = (uint32_t)(x >> 32);

		switch (op) {
		case HASHX_OP_ADD_RS:
			imm &= 3;
			break;
		case HASHX_OP_ROR_C:
			imm = 1 + imm % 63;
			break;
		case HASHX_OP_ADD_C:
		case HASHX_OP_XOR_C:
			break;
		case HASHX_OP_BRANCH:
			imm = 1u << (imm % 32) | 1u << ((imm >> 8) % 32);
			break;
		default:
			imm = 0;
		}
		emit((hashx_opcode)op, (int)((x >> 8) & 7),
		     (int)((x >> 16) & 7), imm);
	}
}

START_TEST(random_programs_match_reference)
{
	USE_INTERP();
	uint64_t rs = 0x853c49e6748fea9bULL;
	int jumped = 0;

	for (int t = 0; t < 3000; t++) {
		uint64_t r[8], want[8];
		size_t size = (size_t)(xorshift(&rs) % 80);

		random_program(&rs, size);
		for (int i = 0; i < 8; i++)
			r[i] = xorshift(&rs) >> (xorshift(&rs) % 64);
		memcpy(want, r, sizeof want);
		jumped += ref_interpret(&prog, want);
		interps[cur].fn(&prog, r);
		ck_assert_msg(memcmp(r, want, sizeof r) == 0,
			      "%s: random program %d (size %zu) differs",
			      interps[cur].name, t, size);
	}
	/* the programs exercise jumps, and not only jumps */
	ck_assert_msg(jumped > 1000 && jumped < 2900,
		      "%d of 3000 random programs jumped", jumped);
}
END_TEST

/* Generated programs on their real inputs (the registers hashx_exec
 * starts from), against the reference interpreter. */
START_TEST(generated_programs_match_reference)
{
	USE_INTERP();
	int accepted = 0, jumped = 0;

	for (uint32_t s = 0; s < 100; s++) {
		uint8_t seed[4] = { (uint8_t)s, (uint8_t)(s >> 8), 0x5a, 0xa5 };
		hashx_keys keys;

		hashx_keys_from_seed(seed, sizeof seed, &keys);
		if (!hashx_generate(&keys.program, NULL, NULL, &prog, NULL))
			continue;
		accepted++;
		for (uint64_t in = 0; in < 8; in++) {
			uint64_t r[8], want[8];

			hashx_siphash24_ctr_state512(&keys.input, in * 0x9e37,
						     r);
			memcpy(want, r, sizeof want);
			jumped += ref_interpret(&prog, want);
			interps[cur].fn(&prog, r);
			ck_assert_msg(memcmp(r, want, sizeof r) == 0,
				      "%s: seed %u input %llu differs",
				      interps[cur].name, s,
				      (unsigned long long)in);
		}
	}
	ck_assert_int_gt(accepted, 90);
	/* 16 branches at 1/16 each: most runs jump */
	ck_assert_msg(jumped > accepted * 8 / 2, "%d of %d runs jumped",
		      jumped, accepted * 8);
}
END_TEST

/* Every reference vector through this interpreter: keys, generator,
 * input expansion, interpreter and finalization, without the public API
 * (which always runs the fastest interpreter). */
START_TEST(reference_vectors)
{
	USE_INTERP();
	static char line[8192];
	FILE *f;
	int lines = 0, ran = 0, hashes = 0;

	if (!tu_is_reference_salt())
		return; /* the vectors hold for the reference salt only */
	f = tu_open_vector("hashx.txt");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		uint8_t seed[1024], want[32], got[32];
		char *save, *tok;
		long len;
		hashx_keys keys;
		bool ok;

		if (!tu_vector_line_runs("hashx.txt", lines++))
			continue; /* under valgrind: the sample */
		ran++;
		strtok_r(line, " \n", &save); /* "hashx" */
		len = tu_hex_decode(strtok_r(NULL, " \n", &save), seed,
				    sizeof seed);
		ck_assert_int_ge(len, 0);
		hashx_keys_from_seed(seed, (size_t)len, &keys);
		ok = hashx_generate(&keys.program, NULL, NULL, &prog, NULL);
		tok = strtok_r(NULL, " \n", &save);
		ck_assert_int_eq(ok, strcmp(tok, "ok") == 0);
		while ((tok = strtok_r(NULL, " \n", &save)) != NULL) {
			char *colon = strchr(tok, ':');
			uint64_t r[8];

			ck_assert_ptr_nonnull(colon);
			*colon = '\0';
			ck_assert_int_eq(tu_hex_decode(colon + 1, want,
						       sizeof want), 32);
			hashx_siphash24_ctr_state512(
				&keys.input, strtoull(tok, NULL, 16), r);
			interps[cur].fn(&prog, r);
			hashx_finalize(&keys.input, r, got);
			ck_assert_msg(memcmp(got, want, 32) == 0,
				      "%s: vector line %d nonce %s differs",
				      interps[cur].name, lines, tok);
			hashes++;
		}
	}
	fclose(f);
	tu_sample_note("hashx.txt", ran, lines);
	ck_assert_int_eq(lines, 3000);
	/* more than 10,000 of the whole file's 12,000 */
	ck_assert_int_gt(hashes, ran * 10 / 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interpreter");
	TCase *alu = tcase_create("alu");
	TCase *br = tcase_create("branch");
	TCase *whole = tcase_create("programs");

	tcase_add_loop_test(alu, ror_c_every_count, 0, NINTERPS);
	tcase_add_loop_test(alu, add_c_sign_extends, 0, NINTERPS);
	tcase_add_loop_test(alu, xor_c_sign_extends, 0, NINTERPS);
	tcase_add_loop_test(alu, mulh_known_values, 0, NINTERPS);
	tcase_add_loop_test(alu, mulh_extreme_pairs, 0, NINTERPS);
	tcase_add_loop_test(alu, mulh_dst_is_src, 0, NINTERPS);
	tcase_add_loop_test(alu, mulh_random, 0, NINTERPS);
	tcase_add_test(alu, mulh_from_halves);
	tcase_add_test(alu, analysis_blocks_and_tested_mulh);
	tcase_add_test(alu, analysis_resume_rules);
	tcase_add_loop_test(alu, mul_sub_xor_wrap, 0, NINTERPS);
	tcase_add_loop_test(alu, add_rs_shifts, 0, NINTERPS);
	tcase_add_loop_test(alu, straight_line_sequence, 0, NINTERPS);
	tcase_add_loop_test(alu, size_limits_execution, 0, NINTERPS);
	suite_add_tcase(s, alu);

	tcase_add_loop_test(br, branch_taken_once, 0, NINTERPS);
	tcase_add_loop_test(br, branch_not_taken, 0, NINTERPS);
	tcase_add_loop_test(br, branch_tests_low_32_bits, 0, NINTERPS);
	tcase_add_loop_test(br, branch_after_smulh, 0, NINTERPS);
	tcase_add_loop_test(br, branch_without_mulh_sees_zero, 0, NINTERPS);
	tcase_add_loop_test(br, one_jump_per_run, 0, NINTERPS);
	tcase_add_loop_test(br, branch_to_latest_target, 0, NINTERPS);
	tcase_add_loop_test(br, branch_before_any_target, 0, NINTERPS);
	tcase_add_loop_test(br, branch_at_end, 0, NINTERPS);
	suite_add_tcase(s, br);

	tcase_add_loop_test(whole, random_programs_match_reference, 0,
			    NINTERPS);
	tcase_add_loop_test(whole, generated_programs_match_reference, 0,
			    NINTERPS);
	tcase_add_loop_test(whole, reference_vectors, 0, NINTERPS);
	suite_add_tcase(s, whole);
	return tu_run_suite(s);
}
