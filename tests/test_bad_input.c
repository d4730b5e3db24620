/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bad_input.c - the API rows of doc/bad-input.md, one Check test each.
 *
 * The document is read at start-up. Each row names an id and, as the
 * first code span of its outcome, what the call must give. The cases
 * below perform the calls and describe their result in the same words (a
 * result name, NULL / non-NULL, a number, or "nothing"). A row without a
 * case, or a case without a row, fails, so neither can drift.
 */
#include <check.h>
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <equix.h>
#include <equix_pow.h>
#include <hashx.h>

#include "testutil.h"

#ifndef BAD_INPUT_DOC_DEFAULT
#define BAD_INPUT_DOC_DEFAULT "doc/bad-input.md"
#endif

/* ---- Naming what a call gave ----------------------------------------- */

static const char *hx(hashx_result r)
{
	static const char *const names[] = {
		"HASHX_OK",
		"HASHX_FAIL_UNPREPARED",
		"HASHX_FAIL_UNDEFINED",
		"HASHX_FAIL_SEED",
		"HASHX_FAIL_COMPILE",
	};
	return (unsigned)r < 5 ? names[r] : "(unknown hashx_result)";
}

static const char *eq(equix_result r)
{
	static const char *const names[] = {
		"EQUIX_OK",
		"EQUIX_FAIL_CHALLENGE",
		"EQUIX_FAIL_ORDER",
		"EQUIX_FAIL_PARTIAL_SUM",
		"EQUIX_FAIL_FINAL_SUM",
		"EQUIX_FAIL_COMPILE",
		"EQUIX_FAIL_NO_SOLVER",
		"EQUIX_FAIL_INTERNAL",
	};
	return (unsigned)r < 8 ? names[r] : "(unknown equix_result)";
}

static const char *pw(equix_pow_result r)
{
	static const char *const names[] = {
		"EQUIX_POW_OK",
		"EQUIX_POW_FAIL_SEED_HEAD",
		"EQUIX_POW_FAIL_REPLAY",
		"EQUIX_POW_FAIL_EFFORT",
		"EQUIX_POW_FAIL_CACHE_FULL",
		"EQUIX_POW_FAIL_ORDER",
		"EQUIX_POW_FAIL_CHALLENGE",
		"EQUIX_POW_FAIL_PARTIAL_SUM",
		"EQUIX_POW_FAIL_FINAL_SUM",
		"EQUIX_POW_FAIL_COMPILE",
		"EQUIX_POW_FAIL_CANCELLED",
		"EQUIX_POW_FAIL_LIMIT",
		"EQUIX_POW_FAIL_LENGTH",
		"EQUIX_POW_FAIL_VERSION",
		"EQUIX_POW_FAIL_SYNTAX",
		"EQUIX_POW_FAIL_BASE64",
		"EQUIX_POW_FAIL_NUMBER",
		"EQUIX_POW_FAIL_TIMESTAMP",
		"EQUIX_POW_FAIL_ARGUMENT",
		"EQUIX_POW_FAIL_INTERNAL",
		"EQUIX_POW_FAIL_NO_MEMORY",
		"EQUIX_POW_FAIL_LOW_EFFORT",
		"EQUIX_POW_FAIL_SEED_RETIRED",
		"EQUIX_POW_FAIL_EVICTED",
		"EQUIX_POW_FAIL_REENTERED",
	};
	return (unsigned)r < sizeof names / sizeof names[0]
		       ? names[r]
		       : "(unknown equix_pow_result)";
}

static const char *ptr(const void *p)
{
	return p != NULL ? "non-NULL" : "NULL";
}

/* A number as text; the buffer is reused by the next call. */
static const char *num(uint64_t v)
{
	static char text[24];

	snprintf(text, sizeof text, "%llu", (unsigned long long)v);
	return text;
}

/* "nothing" when all `size` bytes still hold the pattern 0xa5. */
static const char *untouched(const void *buf, size_t size)
{
	const uint8_t *b = buf;

	for (size_t i = 0; i < size; i++)
		if (b[i] != 0xa5)
			return "(wrote to its output)";
	return "nothing";
}

/* ---- Shared inputs --------------------------------------------------- */

static const uint8_t seed32[32] = "a seed of thirty-two bytes......";
static const uint8_t no_hashx[4] = {0xf9, 0x05, 0x00, 0x00};

/* Tor's PoW v1 test vector: ID, seed and nonce, and the proofs of effort
 * 1 and 0 for them (doc/bad-input.md's SOL and SOL0). */
static uint8_t pow_id[32], pow_seed[32], pow_nonce[16];
static uint8_t sol1[16], sol0[16];

static void hex(const char *text, uint8_t *out, size_t size)
{
	if (sodium_hex2bin(out, size, text, strlen(text), NULL, NULL, NULL) !=
	    0)
		abort();
}

static void pow_vectors(void)
{
	memset(pow_id, 0x11, sizeof pow_id);
	memset(pow_seed, 0xaa, sizeof pow_seed);
	memset(pow_nonce, 0x55, sizeof pow_nonce);
	hex("84355542ab2b3f79532ef055144ac5ab", sol1, sizeof sol1);
	hex("4312f87ceab844c78e1c793a913812d7", sol0, sizeof sol0);
}

static equix_pow_solution proof_of(const uint8_t sol[16], uint32_t effort)
{
	equix_pow_solution p;

	memcpy(p.nonce, pow_nonce, sizeof p.nonce);
	p.effort = effort;
	memcpy(p.seed_head, pow_seed, sizeof p.seed_head);
	memcpy(p.solution, sol, sizeof p.solution);
	return p;
}

/* ---- HashX ----------------------------------------------------------- */

static const char *hashx_alloc_unknown_type(void)
{
	hashx_ctx *ctx = hashx_alloc((hashx_type)99);
	const char *r = ptr(ctx);

	hashx_free(ctx);
	return r;
}

static const char *hashx_make_unknown_type(void)
{
	hashx_ctx *ctx = hashx_alloc((hashx_type)99);
	hashx_result r = hashx_make(ctx, seed32, sizeof seed32);

	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_make_null_ctx(void)
{
	return hx(hashx_make(NULL, seed32, sizeof seed32));
}

/* NULL with a length, and the context is left unprepared after it. */
static const char *hashx_make_null_seed(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t out[HASHX_SIZE];
	hashx_result r;

	ck_assert_int_eq(hashx_make(ctx, seed32, sizeof seed32), HASHX_OK);
	r = hashx_make(ctx, NULL, 32);
	ck_assert_int_eq(hashx_exec(ctx, 0, out), HASHX_FAIL_UNPREPARED);
	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_make_empty_seed(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_result r = hashx_make(ctx, NULL, 0);

	hashx_free(ctx);
	return hx(r);
}

static void zero_stream(uint64_t *word, void *user)
{
	(void)user;
	*word = 0;
}

/* A context whose last make failed on a degenerate random stream; the
 * result of that make in *made. */
static hashx_ctx *failed_context(hashx_result *made)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_make(ctx, seed32, sizeof seed32), HASHX_OK);
	hashx_rng_callback(ctx, zero_stream, NULL);
	*made = hashx_make(ctx, seed32, sizeof seed32);
	return ctx;
}

static const char *hashx_make_degenerate_rng(void)
{
	hashx_result made;
	hashx_ctx *ctx = failed_context(&made);

	hashx_free(ctx);
	return hx(made);
}

static const char *hashx_exec_after_failed_make(void)
{
	hashx_result made;
	hashx_ctx *ctx = failed_context(&made);
	uint8_t out[HASHX_SIZE];
	hashx_result r = hashx_exec(ctx, 0, out);

	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_exec_unprepared(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t out[HASHX_SIZE];
	hashx_result r = hashx_exec(ctx, 0, out);

	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_exec_null_ctx(void)
{
	uint8_t out[HASHX_SIZE];

	return hx(hashx_exec(NULL, 0, out));
}

static const char *hashx_exec_null_output(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_result r;

	ck_assert_int_eq(hashx_make(ctx, seed32, sizeof seed32), HASHX_OK);
	r = hashx_exec(ctx, 0, NULL);
	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_exec_max_input(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TRY_COMPILE);
	uint8_t out[HASHX_SIZE];
	hashx_result r;

	ck_assert_int_eq(hashx_make(ctx, seed32, sizeof seed32), HASHX_OK);
	r = hashx_exec(ctx, UINT64_MAX, out);
	hashx_free(ctx);
	return hx(r);
}

/* The new sized and block entry points: a refused call writes nothing,
 * which the canary byte after a one-byte prefix shows. */
static const char *sized_or_block(int block, const void *in, size_t len,
				  size_t size, int make)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t out[40];
	hashx_result r;

	memset(out, 0xa5, sizeof out);
	if (make)
		ck_assert_int_eq(hashx_make(ctx, seed32, sizeof seed32),
				 HASHX_OK);
	r = block ? hashx_exec_block(ctx, in, len, out, size)
		  : hashx_exec_sized(ctx, 0, out, size);
	if (r != HASHX_OK)
		for (size_t i = 0; i < sizeof out; i++)
			ck_assert_uint_eq(out[i], 0xa5);
	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_exec_sized_zero(void)
{
	return sized_or_block(0, NULL, 0, 0, 1);
}

static const char *hashx_exec_sized_too_big(void)
{
	return sized_or_block(0, NULL, 0, 33, 1);
}

static const char *hashx_exec_block_null_input(void)
{
	return sized_or_block(1, NULL, 1, 32, 1);
}

static const char *hashx_exec_block_empty_input(void)
{
	return sized_or_block(1, NULL, 0, 32, 1);
}

static const char *hashx_exec_block_too_big(void)
{
	return sized_or_block(1, "abcd", 4, 33, 1);
}

static const char *hashx_exec_block_unprepared(void)
{
	return sized_or_block(1, "abcd", 4, 32, 0);
}

static const char *hashx_query_unprepared(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_type type;
	hashx_result r = hashx_query_type(ctx, &type);

	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_query_null_ctx(void)
{
	hashx_type type;

	return hx(hashx_query_type(NULL, &type));
}

static const char *hashx_query_null_out(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_result r;

	ck_assert_int_eq(hashx_make(ctx, seed32, sizeof seed32), HASHX_OK);
	r = hashx_query_type(ctx, NULL);
	hashx_free(ctx);
	return hx(r);
}

static const char *hashx_free_null(void)
{
	hashx_free(NULL);
	return "nothing";
}

static const char *hashx_rng_callback_null_ctx(void)
{
	hashx_rng_callback(NULL, zero_stream, NULL);
	return "nothing";
}

/* ---- Equi-X ---------------------------------------------------------- */

/* A challenge with at least two solutions (equix-verify-final-sum needs
 * two), and its solutions: the first such 4-byte counter, found once. */
static uint8_t challenge4[4];
static equix_solutions_buffer solved;

static void solve_once(void)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);

	for (uint32_t i = 0; ctx != NULL && i < 100; i++) {
		memcpy(challenge4, &i, sizeof challenge4);
		if (equix_solve(ctx, challenge4, sizeof challenge4, &solved) ==
			    EQUIX_OK &&
		    solved.count >= 2)
			break;
	}
	equix_free(ctx);
	if (solved.count < 2) {
		fprintf(stderr, "test_bad_input: no challenge with two "
				"solutions\n");
		exit(1);
	}
}

static const char *verify(const void *challenge, size_t size,
			  const equix_solution *s)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY);
	equix_result r = equix_verify(ctx, challenge, size, s);

	equix_free(ctx);
	return eq(r);
}

static const char *equix_alloc_unknown_flags(void)
{
	equix_ctx *ctx = equix_alloc((equix_ctx_flags)0x100);
	const char *r = ptr(ctx);

	equix_free(ctx);
	return r;
}

static const char *equix_solve_null_ctx(void)
{
	equix_solutions_buffer out;

	return eq(equix_solve(NULL, challenge4, 4, &out));
}

static const char *solve_with(equix_ctx_flags flags, const void *challenge,
			      size_t size, int with_output)
{
	equix_ctx *ctx = equix_alloc(flags);
	equix_solutions_buffer out;
	equix_result r;

	ck_assert_ptr_nonnull(ctx);
	r = equix_solve(ctx, challenge, size, with_output ? &out : NULL);
	equix_free(ctx);
	return eq(r);
}

static const char *equix_solve_null_output(void)
{
	return solve_with(EQUIX_CTX_SOLVE, challenge4, 4, 0);
}

static const char *equix_solve_verify_only(void)
{
	return solve_with(EQUIX_CTX_VERIFY, challenge4, 4, 1);
}

static const char *equix_solve_null_challenge(void)
{
	return solve_with(EQUIX_CTX_SOLVE, NULL, 4, 1);
}

static const char *equix_solve_no_hashx(void)
{
	return solve_with(EQUIX_CTX_SOLVE, no_hashx, sizeof no_hashx, 1);
}

static const char *equix_verify_null_ctx(void)
{
	return eq(equix_verify(NULL, challenge4, 4, &solved.sols[0]));
}

static const char *equix_verify_null_solution(void)
{
	return verify(challenge4, 4, NULL);
}

static const char *equix_verify_null_challenge(void)
{
	return verify(NULL, 4, &solved.sols[0]);
}

static const char *equix_verify_no_hashx(void)
{
	return verify(no_hashx, sizeof no_hashx, &solved.sols[0]);
}

static const char *equix_verify_order(void)
{
	equix_solution s = solved.sols[0];
	equix_idx t = s.idx[0];

	s.idx[0] = s.idx[1];
	s.idx[1] = t;
	return verify(challenge4, 4, &s);
}

static const char *equix_verify_duplicates(void)
{
	equix_solution s;

	for (int i = 0; i < EQUIX_NUM_IDX; i++)
		s.idx[i] = 0x1234;
	return verify(challenge4, 4, &s);
}

static const char *equix_verify_partial_sum(void)
{
	equix_solution s = solved.sols[0];

	s.idx[7] ^= 1;
	return verify(challenge4, 4, &s);
}

/* The tree order's key of four indices: the last is the most
 * significant (src/equix/puzzle.h). */
static uint64_t quad_key(const equix_idx *q)
{
	return (uint64_t)q[3] << 48 | (uint64_t)q[2] << 32 |
	       (uint64_t)q[1] << 16 | q[0];
}

/* Halves of two solutions: each quad sums to zero in its low bits, so the
 * pair and quad checks pass; the whole does not. The halves go in tree
 * order (the smaller key first), so that the order check passes too. */
static const char *equix_verify_final_sum(void)
{
	const equix_idx *x = &solved.sols[0].idx[0];
	const equix_idx *y = &solved.sols[1].idx[4];
	equix_solution s;

	if (quad_key(x) > quad_key(y)) {
		const equix_idx *t = x;
		x = y;
		y = t;
	}
	ck_assert_uint_ne(quad_key(x), quad_key(y));
	memcpy(&s.idx[0], x, 4 * sizeof s.idx[0]);
	memcpy(&s.idx[4], y, 4 * sizeof s.idx[0]);
	return verify(challenge4, 4, &s);
}

static const char *equix_free_null(void)
{
	equix_free(NULL);
	return "nothing";
}

static const char *equix_pack_null_solution(void)
{
	uint8_t out[EQUIX_SOLUTION_BYTES];

	memset(out, 0xa5, sizeof out);
	equix_solution_pack(NULL, out);
	return untouched(out, sizeof out);
}

static const char *equix_pack_null_out(void)
{
	equix_solution_pack(&solved.sols[0], NULL);
	return "nothing";
}

static const char *equix_unpack_null_in(void)
{
	equix_solution s;

	memset(&s, 0xa5, sizeof s);
	equix_solution_unpack(NULL, &s);
	return untouched(&s, sizeof s);
}

static const char *equix_unpack_null_solution(void)
{
	equix_solution_unpack(sol1, NULL);
	return "nothing";
}

/* ---- PoW: the puzzle ------------------------------------------------- */

static const char *pow_result_string_negative(void)
{
	return equix_pow_result_string((equix_pow_result)-1);
}

static const char *pow_result_string_large(void)
{
	return equix_pow_result_string((equix_pow_result)1000);
}

static const char *pow_challenge_build_null_challenge(void)
{
	equix_pow_challenge_build(NULL, pow_id, pow_seed, pow_nonce, 1);
	return "nothing";
}

static const char *pow_challenge_build_null_id(void)
{
	uint8_t c[EQUIX_POW_CHALLENGE_LEN];

	memset(c, 0xa5, sizeof c);
	equix_pow_challenge_build(c, NULL, pow_seed, pow_nonce, 1);
	return untouched(c, sizeof c);
}

/* The challenge of the test vector's proofs for `effort`. */
static void vector_challenge(uint8_t c[EQUIX_POW_CHALLENGE_LEN],
			     uint32_t effort)
{
	equix_pow_challenge_build(c, pow_id, pow_seed, pow_nonce, effort);
}

static const char *pow_effort_hash_null(void)
{
	return num(equix_pow_effort_hash(NULL, sol1));
}

static const char *pow_effort_check_null(void)
{
	uint8_t c[EQUIX_POW_CHALLENGE_LEN];

	vector_challenge(c, 1);
	return num((uint64_t)equix_pow_effort_check(c, NULL, 1));
}

static const char *pow_effort_check_zero(void)
{
	uint8_t c[EQUIX_POW_CHALLENGE_LEN];

	vector_challenge(c, 0);
	return num((uint64_t)equix_pow_effort_check(c, sol1, 0));
}

static const char *pow_effort_check_max(void)
{
	uint8_t c[EQUIX_POW_CHALLENGE_LEN];

	vector_challenge(c, 1);
	ck_assert_uint_ge(equix_pow_effort_hash(c, sol1), 2);
	return num((uint64_t)equix_pow_effort_check(c, sol1, UINT32_MAX));
}

static const char *pow_nonce_add_null(void)
{
	equix_pow_nonce_add(NULL, 1);
	return "nothing";
}

static const char *pow_nonce_add_wrap(void)
{
	static char text[2 * EQUIX_POW_NONCE_LEN + 1];
	uint8_t n[EQUIX_POW_NONCE_LEN];

	memset(n, 0xff, sizeof n);
	equix_pow_nonce_add(n, 1);
	sodium_bin2hex(text, sizeof text, n, sizeof n);
	return text;
}

static const char *pow_effort_retry_max(void)
{
	return num(equix_pow_effort_retry(UINT32_MAX));
}

static const char *pow_effort_retry_zero(void)
{
	return num(equix_pow_effort_retry(0));
}

/* ---- PoW: solving ---------------------------------------------------- */

static const char *pow_solve_options_init_null(void)
{
	equix_pow_solve_options_init(NULL);
	return "nothing";
}

static const char *pow_solve_null_id(void)
{
	equix_pow_solution p;

	return pw(
		equix_pow_solve(NULL, pow_seed, 1, pow_nonce, NULL, &p, NULL));
}

static const char *pow_solve_null_seed(void)
{
	equix_pow_solution p;

	return pw(equix_pow_solve(pow_id, NULL, 1, pow_nonce, NULL, &p, NULL));
}

static const char *pow_solve_null_proof(void)
{
	return pw(equix_pow_solve(pow_id, pow_seed, 1, pow_nonce, NULL, NULL,
				  NULL));
}

/* equix_pow_solve() from the vector's nonce with `o` changed by `set`. */
static equix_pow_result solve_with_options(uint32_t effort,
					   equix_pow_solve_options *o,
					   equix_pow_solution *p,
					   uint64_t *attempts)
{
	return equix_pow_solve(pow_id, pow_seed, effort, pow_nonce, o, p,
			       attempts);
}

static const char *pow_solve_too_many_threads(void)
{
	equix_pow_solve_options o;
	equix_pow_solution p;

	equix_pow_solve_options_init(&o);
	o.threads = EQUIX_POW_MAX_THREADS + 1;
	return pw(solve_with_options(1, &o, &p, NULL));
}

static const char *pow_solve_negative_seconds(void)
{
	equix_pow_solve_options o;
	equix_pow_solution p;

	equix_pow_solve_options_init(&o);
	o.max_seconds = -1;
	return pw(solve_with_options(1, &o, &p, NULL));
}

static const char *pow_solve_nan_seconds(void)
{
	equix_pow_solve_options o;
	equix_pow_solution p;

	equix_pow_solve_options_init(&o);
	o.max_seconds = NAN;
	return pw(solve_with_options(1, &o, &p, NULL));
}

static const char *pow_solve_effort_zero(void)
{
	equix_pow_solution p;
	uint64_t attempts = 0;
	equix_pow_result r = solve_with_options(0, NULL, &p, &attempts);

	ck_assert_uint_eq(attempts, 1);
	ck_assert_mem_eq(p.solution, sol0, sizeof sol0);
	return pw(r);
}

static const char *pow_solve_effort_max(void)
{
	equix_pow_solve_options o;
	equix_pow_solution p;
	uint64_t attempts = 0;
	equix_pow_result r;

	equix_pow_solve_options_init(&o);
	o.max_attempts = 3;
	r = solve_with_options(UINT32_MAX, &o, &p, &attempts);
	ck_assert_uint_eq(attempts, 3);
	return pw(r);
}

static const char *pow_solve_cancelled(void)
{
	static const volatile int raised = 1;
	equix_pow_solve_options o;
	equix_pow_solution p;

	uint64_t attempts = 1;
	equix_pow_result r;

	equix_pow_solve_options_init(&o);
	o.cancel = &raised;
	r = solve_with_options(1, &o, &p, &attempts);
	ck_assert_uint_eq(attempts, 0);
	return pw(r);
}

/* ---- PoW: the service ------------------------------------------------ */

static equix_pow_service *service(void)
{
	equix_pow_service *s =
		equix_pow_service_alloc(pow_id, pow_seed, 0, EQUIX_CTX_VERIFY);

	ck_assert_ptr_nonnull(s);
	return s;
}

/* One verification on a fresh service. */
static const char *service_verify(equix_pow_solution proof)
{
	equix_pow_service *s = service();
	equix_pow_result r = equix_pow_service_verify(s, NULL, &proof);

	equix_pow_service_free(s);
	return pw(r);
}

static const char *service_alloc(const uint8_t *id, const uint8_t *seed,
				 size_t cap)
{
	equix_pow_service *s = equix_pow_service_alloc(id, seed, cap, 0);
	const char *r = ptr(s);

	equix_pow_service_free(s);
	return r;
}

static const char *pow_service_alloc_null_id(void)
{
	return service_alloc(NULL, pow_seed, 0);
}

static const char *pow_service_alloc_null_seed(void)
{
	return service_alloc(pow_id, NULL, 0);
}

static const char *pow_service_alloc_small_cap(void)
{
	return service_alloc(pow_id, pow_seed, EQUIX_POW_REPLAY_MIN_BYTES - 1);
}

static const char *pow_service_alloc_huge_cap(void)
{
	return service_alloc(pow_id, pow_seed, SIZE_MAX);
}

static const char *pow_service_free_null(void)
{
	equix_pow_service_free(NULL);
	return "nothing";
}

static const char *pow_service_rotate_null(void)
{
	return pw(equix_pow_service_rotate(NULL, pow_seed));
}

static const char *pow_service_rotate_null_seed(void)
{
	equix_pow_service *s = service();
	equix_pow_result r = equix_pow_service_rotate(s, NULL);

	equix_pow_service_free(s);
	return pw(r);
}

/* A valid proof accepted, the rotations to `seeds` (their first bytes),
 * then the proof again. */
static const char *verify_after_rotations(const uint8_t *seeds, int count)
{
	equix_pow_service *s = service();
	equix_pow_solution p = proof_of(sol1, 1);
	uint8_t seed[32];
	equix_pow_result r;

	ck_assert_int_eq(equix_pow_service_verify(s, NULL, &p), EQUIX_POW_OK);
	for (int i = 0; i < count; i++) {
		if (seeds[i] == 0)
			memcpy(seed, pow_seed, sizeof seed);
		else
			memset(seed, seeds[i], sizeof seed);
		ck_assert_int_eq(equix_pow_service_rotate(s, seed),
				 EQUIX_POW_OK);
	}
	r = equix_pow_service_verify(s, NULL, &p);
	equix_pow_service_free(s);
	return pw(r);
}

static const char *pow_service_rotate_current(void)
{
	static const uint8_t seeds[] = {0}; /* 0: the proof's own seed */

	return verify_after_rotations(seeds, 1);
}

static const char *pow_service_rotate_back(void)
{
	static const uint8_t seeds[] = {0xbb, 0};

	return verify_after_rotations(seeds, 2);
}

static const char *pow_service_rotate_retired(void)
{
	equix_pow_service *s = service();
	uint8_t seed[32];
	equix_pow_result r;

	memset(seed, 0xbb, sizeof seed);
	ck_assert_int_eq(equix_pow_service_rotate(s, seed), EQUIX_POW_OK);
	memset(seed, 0xcc, sizeof seed);
	ck_assert_int_eq(equix_pow_service_rotate(s, seed), EQUIX_POW_OK);
	r = equix_pow_service_rotate(s, pow_seed);
	equix_pow_service_free(s);
	return pw(r);
}

static const char *pow_service_set_min_effort_null(void)
{
	return pw(equix_pow_service_set_min_effort(NULL, 1));
}

static const char *pow_service_set_min_effort_max(void)
{
	equix_pow_service *s = service();
	equix_pow_solution p = proof_of(sol1, 1);
	equix_pow_result r;

	memset(p.seed_head, 0xbb, sizeof p.seed_head);
	ck_assert_int_eq(equix_pow_service_set_min_effort(s, UINT32_MAX),
			 EQUIX_POW_OK);
	r = equix_pow_service_verify(s, NULL, &p);
	equix_pow_service_free(s);
	return pw(r);
}

static const char *pow_service_verify_null(void)
{
	equix_pow_solution p = proof_of(sol1, 1);

	return pw(equix_pow_service_verify(NULL, NULL, &p));
}

static const char *pow_service_verify_null_proof(void)
{
	equix_pow_service *s = service();
	equix_pow_result r = equix_pow_service_verify(s, NULL, NULL);

	equix_pow_service_free(s);
	return pw(r);
}

static const char *pow_service_verify_seed_head(void)
{
	equix_pow_solution p = proof_of(sol1, 1);

	memset(p.seed_head, 0xbb, sizeof p.seed_head);
	return service_verify(p);
}

static const char *pow_service_verify_replay(void)
{
	equix_pow_service *s = service();
	equix_pow_solution p = proof_of(sol1, 1);
	equix_pow_result r;

	ck_assert_int_eq(equix_pow_service_verify(s, NULL, &p), EQUIX_POW_OK);
	r = equix_pow_service_verify(s, NULL, &p);
	equix_pow_service_free(s);
	return pw(r);
}

/* The proof of `effort` found first from the vector's nonce plus
 * `offset` (offsets far apart never reach the same nonce). */
static equix_pow_solution solved_from(uint32_t effort, uint64_t offset)
{
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	equix_pow_solution p;

	memcpy(nonce, pow_nonce, sizeof nonce);
	equix_pow_nonce_add(nonce, offset);
	ck_assert_int_eq(equix_pow_solve(pow_id, pow_seed, effort, nonce, NULL,
					 &p, NULL),
			 EQUIX_POW_OK);
	return p;
}

/* Entries the service's replay cache holds now. */
static size_t cache_entries(equix_pow_service *s)
{
	equix_pow_replay_stats st;

	ck_assert_int_eq(equix_pow_service_stats(s, &st), EQUIX_POW_OK);
	return st.entries;
}

/* Effort-0 proofs from nonce offset *k (64 apart) into the smallest cache
 * until one is accepted without a new entry: it took a recorded proof's
 * place. Returns the cache's capacity. */
static size_t fill_until_evicting(equix_pow_service *s, uint64_t *k)
{
	for (size_t before = 0; *k < 1000; before = cache_entries(s)) {
		equix_pow_solution p = solved_from(0, 64 * (*k)++);

		ck_assert_int_eq(equix_pow_service_verify(s, NULL, &p),
				 EQUIX_POW_OK);
		if (cache_entries(s) == before)
			return before;
	}
	ck_abort_msg("the smallest cache held 1000 proofs");
	return 0;
}

/* `n` new proofs of `effort` from nonce offset *k on, each accepted. */
static void send_fresh(equix_pow_service *s, uint64_t *k, size_t n,
		       uint32_t effort)
{
	for (size_t i = 0; i < n; i++) {
		equix_pow_solution p = solved_from(effort, 64 * (*k)++);

		ck_assert_int_eq(equix_pow_service_verify(s, NULL, &p),
				 EQUIX_POW_OK);
	}
}

/* The smallest cache full of effort-0 proofs, then as many of effort 1,
 * which evict every effort-0 entry (the cheapest go first); then the
 * first proof's nonce at effort 1: the same (seed, nonce), a replay. The
 * challenge covers the effort, so the first proof's nonce is one found at
 * both efforts. */
static const char *pow_service_verify_evicted(void)
{
	equix_pow_service *s = equix_pow_service_alloc(
		pow_id, pow_seed, EQUIX_POW_REPLAY_MIN_BYTES, EQUIX_CTX_VERIFY);
	equix_pow_result r;
	equix_pow_solution first, again;
	uint64_t k = 0;
	size_t capacity;

	ck_assert_ptr_nonnull(s);
	do {
		first = solved_from(0, 64 * k);
		again = solved_from(1, 64 * k++);
	} while (memcmp(first.nonce, again.nonce, EQUIX_POW_NONCE_LEN) != 0);
	ck_assert_int_eq(equix_pow_service_verify(s, NULL, &first),
			 EQUIX_POW_OK);
	capacity = fill_until_evicting(s, &k);
	send_fresh(s, &k, capacity, 1);
	r = equix_pow_service_verify(s, NULL, &again);
	equix_pow_service_free(s);
	return pw(r);
}

/* The smallest cache flooded with twice its capacity of effort-0 proofs,
 * then one of effort 1; a new effort-0 proof. */
static const char *pow_service_verify_after_flood(void)
{
	equix_pow_service *s = equix_pow_service_alloc(
		pow_id, pow_seed, EQUIX_POW_REPLAY_MIN_BYTES, EQUIX_CTX_VERIFY);
	equix_pow_solution p;
	equix_pow_result r;
	uint64_t k = 0;
	size_t capacity;

	ck_assert_ptr_nonnull(s);
	capacity = fill_until_evicting(s, &k);
	send_fresh(s, &k, capacity, 0);
	send_fresh(s, &k, 1, 1);
	p = solved_from(0, 64 * k);
	r = equix_pow_service_verify(s, NULL, &p);
	equix_pow_service_free(s);
	return pw(r);
}

static const char *pow_service_verify_effort_max(void)
{
	return service_verify(proof_of(sol1, UINT32_MAX));
}

static const char *pow_service_verify_effort_zero(void)
{
	return service_verify(proof_of(sol0, 0));
}

static const char *pow_service_verify_wrong_effort(void)
{
	return service_verify(proof_of(sol0, 1));
}

static const char *pow_service_verify_order(void)
{
	equix_pow_solution p = proof_of(sol1, 1);
	uint8_t t[2];

	memcpy(t, p.solution, 2);
	memcpy(p.solution, p.solution + 2, 2);
	memcpy(p.solution + 2, t, 2);
	return service_verify(p);
}

static const char *pow_service_verify_old_seed(void)
{
	static const uint8_t seeds[] = {0xbb, 0xcc};

	return verify_after_rotations(seeds, 2);
}

static const char *pow_service_stats_null(void)
{
	equix_pow_replay_stats st;

	return pw(equix_pow_service_stats(NULL, &st));
}

static const char *pow_service_stats_null_out(void)
{
	equix_pow_service *s = service();
	equix_pow_result r = equix_pow_service_stats(s, NULL);

	equix_pow_service_free(s);
	return pw(r);
}

/* ---- PoW: the service's defence -------------------------------------- */

static const char *pop_status(equix_pow_pop_status st)
{
	switch (st) {
	case EQUIX_POW_POP_SERVED:
		return "EQUIX_POW_POP_SERVED";
	case EQUIX_POW_POP_EMPTY:
		return "EQUIX_POW_POP_EMPTY";
	case EQUIX_POW_POP_WAIT_IN_FLIGHT:
		return "EQUIX_POW_POP_WAIT_IN_FLIGHT";
	case EQUIX_POW_POP_WAIT_RATE:
		return "EQUIX_POW_POP_WAIT_RATE";
	}
	return "(unknown equix_pow_pop_status)";
}

static equix_pow_queue *queue(uint32_t rate, uint32_t burst)
{
	equix_pow_queue *q = equix_pow_queue_alloc(rate, burst, 0, NULL, NULL);

	ck_assert_ptr_nonnull(q);
	return q;
}

static const char *queue_high_level(uint32_t rate, uint32_t burst)
{
	equix_pow_queue *q = queue(rate, burst);
	equix_pow_queue_stats st;

	ck_assert_int_eq(equix_pow_queue_stats_get(q, &st), EQUIX_POW_OK);
	equix_pow_queue_free(q);
	return num(st.high_level);
}

static const char *pow_queue_alloc_burst_below_rate(void)
{
	return queue_high_level(10, 5);
}

static const char *pow_queue_alloc_max_rate(void)
{
	return queue_high_level(UINT32_MAX, UINT32_MAX);
}

static const char *pow_queue_free_null(void)
{
	equix_pow_queue_free(NULL);
	return "nothing";
}

static const char *pow_queue_add_null(void)
{
	int payload;

	return pw(equix_pow_queue_add(NULL, 1, &payload, 0));
}

static const char *pow_queue_add_null_payload(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_result r = equix_pow_queue_add(q, 1, NULL, 0);

	equix_pow_queue_free(q);
	return pw(r);
}

static const char *pow_queue_add_effort_max(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_period p;

	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(equix_pow_queue_add(q, UINT32_MAX, NULL, 0),
				 EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_period(q, &p, 0), EQUIX_POW_OK);
	equix_pow_queue_free(q);
	return num(p.total_effort);
}

static const char *pow_queue_pop_null(void)
{
	equix_pow_popped out;

	return pw(equix_pow_queue_pop(NULL, 0, 0, &out));
}

static const char *pow_queue_pop_null_out(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_result r = equix_pow_queue_pop(q, 0, 0, NULL);

	equix_pow_queue_free(q);
	return pw(r);
}

/* A queue without a rate limit and with suggested effort `suggested`,
 * holding one request of effort 1 queued at `add_ms` (none when `add` is
 * 0): what a pop at `pop_ms` with `in_flight` launches gives. */
static equix_pow_popped pop_one(int add, uint32_t suggested,
				uint64_t add_ms, uint64_t pop_ms,
				uint32_t in_flight)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_popped out;

	if (add)
		ck_assert_int_eq(equix_pow_queue_add(q, 1, NULL, add_ms),
				 EQUIX_POW_OK);
	equix_pow_queue_set_suggested_effort(q, suggested);
	ck_assert_int_eq(equix_pow_queue_pop(q, pop_ms, in_flight, &out),
			 EQUIX_POW_OK);
	equix_pow_queue_free(q);
	return out;
}

static const char *pow_queue_pop_empty(void)
{
	return pop_status(pop_one(0, 0, 0, 0, 0).status);
}

static const char *pow_queue_pop_in_flight_max(void)
{
	return pop_status(pop_one(1, 2, 0, 0, UINT32_MAX).status);
}

static const char *pow_queue_pop_time_backwards(void)
{
	return pop_status(pop_one(1, 0, 20000, 0, 0).status);
}

static const char *pow_queue_pop_retry_overflow(void)
{
	equix_pow_popped out =
		pop_one(1, 2, UINT64_MAX - 1, UINT64_MAX - 1, UINT32_MAX);

	return num(out.retry_at_ms);
}

static const char *pow_queue_set_suggested_effort_null(void)
{
	return pw(equix_pow_queue_set_suggested_effort(NULL, 1));
}

static const char *pow_queue_set_limits_null(void)
{
	return pw(equix_pow_queue_set_limits(NULL, 1, 1, 1));
}

static const char *pow_queue_set_limits_zero(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_popped out;

	ck_assert_int_eq(equix_pow_queue_set_limits(q, 0, 0, 0),
			 EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_add(q, 1, NULL, 0), EQUIX_POW_OK);
	equix_pow_queue_set_suggested_effort(q, 2);
	ck_assert_int_eq(equix_pow_queue_pop(q, 0, EQUIX_POW_QUEUE_MAX_IN_FLIGHT,
					     &out),
			 EQUIX_POW_OK);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_WAIT_IN_FLIGHT);
	equix_pow_queue_free(q);
	return num(out.retry_at_ms);
}

static const char *pow_queue_stats_null(void)
{
	equix_pow_queue_stats st;

	return pw(equix_pow_queue_stats_get(NULL, &st));
}

static const char *pow_queue_stats_null_out(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_result r = equix_pow_queue_stats_get(q, NULL);

	equix_pow_queue_free(q);
	return pw(r);
}

static const char *pow_queue_period_null(void)
{
	equix_pow_period p;

	return pw(equix_pow_queue_period(NULL, &p, 1));
}

static const char *pow_queue_period_null_out(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_period p;
	equix_pow_result r;

	ck_assert_int_eq(equix_pow_queue_add(q, 5, NULL, 0), EQUIX_POW_OK);
	r = equix_pow_queue_period(q, NULL, 1);
	ck_assert_int_eq(equix_pow_queue_period(q, &p, 0), EQUIX_POW_OK);
	ck_assert_uint_eq(p.total_effort, 5);
	equix_pow_queue_free(q);
	return pw(r);
}

/* A controller made at 0, ticked at UINT64_MAX (both deadlines passed),
 * then ten times at the next_tick_ms each tick gives: the seeds those
 * ten retired. */
static const char *pow_controller_tick_end_of_time(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 1000, NULL, NULL);
	equix_pow_tick t;
	uint64_t rotations = 0;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(equix_pow_controller_tick(c, UINT64_MAX, &t),
			 EQUIX_POW_OK);
	ck_assert(t.events & EQUIX_POW_TICK_ROTATE);
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(equix_pow_controller_tick(c, t.next_tick_ms,
							   &t),
				 EQUIX_POW_OK);
		rotations += (t.events & EQUIX_POW_TICK_ROTATE) != 0;
	}
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
	return num(rotations);
}

/* ---- Calls from a queue's discard callback --------------------------- */

/* The callback's first run makes one call of the queue's API (or of a
 * controller driving it), and keeps its result (in `reentry`, which the
 * cases read afterwards). */
typedef enum reentered_call {
	REENTER_ADD,
	REENTER_POP,
	REENTER_FREE,
	REENTER_SET_EFFORT,
	REENTER_SET_LIMITS,
	REENTER_STATS,
	REENTER_PERIOD,
	REENTER_TICK,
} reentered_call;

typedef struct reentered {
	equix_pow_queue *q;
	equix_pow_controller *ctl;
	reentered_call call;
	int made;
	equix_pow_result result;
	const char *out_written; /* REENTER_POP: untouched()'s answer */
} reentered;

static reentered reentry;

static equix_pow_result reentered_make(reentered *r)
{
	int payload;
	equix_pow_popped out;
	equix_pow_queue_stats st;
	equix_pow_period p;
	equix_pow_tick t;

	switch (r->call) {
	case REENTER_ADD:
		return equix_pow_queue_add(r->q, 1000, &payload, 0);
	case REENTER_POP: {
		equix_pow_result res;

		memset(&out, 0xa5, sizeof out);
		res = equix_pow_queue_pop(r->q, 0, 0, &out);
		r->out_written = untouched(&out, sizeof out);
		return res;
	}
	case REENTER_FREE:
		equix_pow_queue_free(r->q);
		return EQUIX_POW_OK;
	case REENTER_SET_EFFORT:
		return equix_pow_queue_set_suggested_effort(r->q, 5);
	case REENTER_SET_LIMITS:
		return equix_pow_queue_set_limits(r->q, 1, 1, 1);
	case REENTER_STATS:
		return equix_pow_queue_stats_get(r->q, &st);
	case REENTER_PERIOD:
		return equix_pow_queue_period(r->q, &p, 1);
	case REENTER_TICK:
		return equix_pow_controller_tick(r->ctl, 50000, &t);
	}
	return EQUIX_POW_FAIL_INTERNAL;
}

static void reentered_discard(void *user, void *payload, uint32_t effort,
			      equix_pow_discard_reason reason)
{
	reentered *r = user;

	(void)payload;
	(void)effort;
	(void)reason;
	if (r->made++ == 0)
		r->result = reentered_make(r);
}

/* A trim (rate 1, burst 1: the 61st addition trims 31) whose callback
 * makes `call`; the queue's length after it goes to *length. */
static const char *reentered_in_trim(reentered_call call, uint32_t *length)
{
	reentered *r = &reentry;
	equix_pow_queue_stats st;

	memset(r, 0, sizeof *r);
	r->call = call;
	r->q = equix_pow_queue_alloc(1, 1, 0, reentered_discard, r);
	ck_assert_ptr_nonnull(r->q);
	/* an update is due at 50000: a tick would reset the period */
	r->ctl = equix_pow_controller_alloc(r->q, 0, 1, NULL, NULL);
	ck_assert_ptr_nonnull(r->ctl);
	for (uint32_t i = 0; i < 61; i++)
		ck_assert_int_eq(equix_pow_queue_add(r->q, i, NULL, 100),
				 EQUIX_POW_OK);
	ck_assert_int_gt(r->made, 0);
	ck_assert_int_eq(equix_pow_queue_stats_get(r->q, &st), EQUIX_POW_OK);
	if (length != NULL)
		*length = st.length;
	equix_pow_controller_free(r->ctl);
	equix_pow_queue_free(r->q);
	return pw(r->result);
}

static const char *pow_queue_add_reentered(void)
{
	return reentered_in_trim(REENTER_ADD, NULL);
}

static const char *pow_queue_free_reentered(void)
{
	uint32_t length;

	reentered_in_trim(REENTER_FREE, &length);
	return num(length);
}

static const char *pow_queue_pop_reentered(void)
{
	const char *got = reentered_in_trim(REENTER_POP, NULL);

	ck_assert_str_eq(reentry.out_written, "nothing");
	return got;
}

static const char *pow_queue_set_suggested_effort_reentered(void)
{
	return reentered_in_trim(REENTER_SET_EFFORT, NULL);
}

static const char *pow_queue_set_limits_reentered(void)
{
	return reentered_in_trim(REENTER_SET_LIMITS, NULL);
}

static const char *pow_queue_stats_reentered(void)
{
	return reentered_in_trim(REENTER_STATS, NULL);
}

static const char *pow_queue_period_reentered(void)
{
	return reentered_in_trim(REENTER_PERIOD, NULL);
}

static const char *pow_controller_tick_reentered(void)
{
	return reentered_in_trim(REENTER_TICK, NULL);
}

/* ---- A discard callback that does not return ------------------------ */

/* The callback leaves by longjmp() once, while `leaving`; after that it
 * returns (the queue's free calls it again, when the setjmp() is gone). */
static jmp_buf left;
static bool leaving;

static void leave(void *user, void *payload, uint32_t effort,
		  equix_pow_discard_reason reason)
{
	(void)user;
	(void)payload;
	(void)effort;
	(void)reason;
	if (leaving) {
		leaving = false;
		longjmp(left, 1);
	}
}

/* A trim (rate 1, burst 1: the 61st addition trims 31) whose callback
 * leaves by longjmp() at its first payload. The payloads are NULL: after
 * the recovery, the queue's free is the only thing to release. */
static equix_pow_queue *left_in_trim(void)
{
	static equix_pow_queue *q; /* kept across the longjmp */

	q = equix_pow_queue_alloc(1, 1, 0, leave, NULL);
	ck_assert_ptr_nonnull(q);
	leaving = true;
	if (setjmp(left) == 0) {
		for (uint32_t i = 0; i < 61; i++)
			equix_pow_queue_add(q, i, NULL, 100);
		ck_abort_msg("the discard callback was not left");
	}
	return q;
}

static const char *pow_queue_callback_left(void)
{
	equix_pow_queue *q = left_in_trim();
	equix_pow_queue_stats st;
	equix_pow_result r = equix_pow_queue_stats_get(q, &st);

	equix_pow_queue_free(q); /* does nothing: the queue is used below */
	ck_assert_int_eq(equix_pow_queue_recover(q), EQUIX_POW_OK);
	equix_pow_queue_free(q);
	return pw(r);
}

static const char *pow_queue_recover_after_longjmp(void)
{
	equix_pow_queue *q = left_in_trim();
	equix_pow_queue_stats st;

	ck_assert_int_eq(equix_pow_queue_recover(q), EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_stats_get(q, &st), EQUIX_POW_OK);
	ck_assert_uint_eq(st.high_level, 61);
	equix_pow_queue_free(q);
	return num(st.length);
}

static const char *pow_queue_recover_idle(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_queue_stats st;

	for (uint32_t i = 0; i < 3; i++)
		ck_assert_int_eq(equix_pow_queue_add(q, i, NULL, 0),
				 EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_recover(q), EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_queue_stats_get(q, &st), EQUIX_POW_OK);
	equix_pow_queue_free(q);
	return num(st.length);
}

static const char *pow_queue_recover_null(void)
{
	return pw(equix_pow_queue_recover(NULL));
}

static const char *pow_effort_update_null(void)
{
	return num(equix_pow_effort_update(7, NULL));
}

/* An increase (a trimmed effort above the suggested one). */
static const char *effort_increase(uint32_t suggested, uint64_t total,
				   uint32_t handled)
{
	equix_pow_period p;

	memset(&p, 0, sizeof p);
	p.total_effort = total;
	p.handled = handled;
	p.max_trimmed_effort = UINT32_MAX;
	p.had_queue = 1;
	p.queue_length = 20;
	p.top_effort = UINT32_MAX;
	p.low_level = 16;
	return num(equix_pow_effort_update(suggested, &p));
}

static const char *pow_effort_update_nothing_handled(void)
{
	return effort_increase(7, 1000, 0);
}

static const char *pow_effort_update_huge_mean(void)
{
	return effort_increase(7, UINT64_MAX, 1);
}

static const char *pow_effort_update_max(void)
{
	return effort_increase(UINT32_MAX, 5, 1);
}

static const char *pow_effort_needs_republish_zero(void)
{
	return num((uint64_t)equix_pow_effort_needs_republish(0, 0));
}

static const char *pow_effort_needs_republish_max(void)
{
	return num((uint64_t)equix_pow_effort_needs_republish(UINT32_MAX, 0));
}

static const char *pow_controller_alloc_null_queue(void)
{
	return ptr(equix_pow_controller_alloc(NULL, 0, 0, NULL, NULL));
}

static uint32_t out_of_range_uniform(void *user, uint32_t upper)
{
	(void)user;
	(void)upper;
	return UINT32_MAX;
}

/* The first tick of a controller made at 0. */
static equix_pow_tick first_tick(uint64_t period_ms,
				 equix_pow_uniform_fn *uniform)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, period_ms, uniform, NULL);
	equix_pow_tick t;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(equix_pow_controller_tick(c, 0, &t), EQUIX_POW_OK);
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
	return t;
}

static const char *pow_controller_alloc_period_zero(void)
{
	return num(first_tick(0, NULL).next_tick_ms);
}

static const char *pow_controller_alloc_bad_rng(void)
{
	return num(first_tick(0, out_of_range_uniform).expiration_ms);
}

static const char *pow_controller_free_null(void)
{
	equix_pow_controller_free(NULL);
	return "nothing";
}

static const char *pow_controller_tick_null(void)
{
	equix_pow_tick t;

	return pw(equix_pow_controller_tick(NULL, 0, &t));
}

static const char *pow_controller_tick_null_out(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 0, NULL, NULL);
	equix_pow_result r = equix_pow_controller_tick(c, 0, NULL);

	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
	return pw(r);
}

static const char *pow_controller_tick_time_backwards(void)
{
	equix_pow_queue *q = queue(0, 0);
	equix_pow_controller *c =
		equix_pow_controller_alloc(q, 0, 1000, NULL, NULL);
	equix_pow_tick t;

	ck_assert_int_eq(equix_pow_controller_tick(c, 1000, &t), EQUIX_POW_OK);
	ck_assert_uint_eq(t.events, EQUIX_POW_TICK_UPDATED);
	ck_assert_int_eq(equix_pow_controller_tick(c, 0, &t), EQUIX_POW_OK);
	equix_pow_controller_free(c);
	equix_pow_queue_free(q);
	return num(t.events);
}

/* ---- PoW: wire formats ----------------------------------------------- */

/* The vector's proof of effort 1 as an extension body, with byte `at`
 * set to `value` (at < 0: unchanged). */
static void extension_body(uint8_t body[EQUIX_POW_EXTENSION_LEN], int at,
			   uint8_t value)
{
	equix_pow_solution p = proof_of(sol1, 1);

	ck_assert_int_eq(equix_pow_extension_encode(&p, body), EQUIX_POW_OK);
	if (at >= 0)
		body[at] = value;
}

static const char *decode(int at, uint8_t value, size_t length)
{
	uint8_t body[EQUIX_POW_EXTENSION_LEN + 1] = {0};
	equix_pow_solution p;

	extension_body(body, at, value);
	return pw(equix_pow_extension_decode(body, length, &p));
}

static const char *pow_extension_encode_null(void)
{
	uint8_t body[EQUIX_POW_EXTENSION_LEN];

	return pw(equix_pow_extension_encode(NULL, body));
}

static const char *pow_extension_encode_null_body(void)
{
	equix_pow_solution p = proof_of(sol1, 1);

	return pw(equix_pow_extension_encode(&p, NULL));
}

static const char *pow_extension_decode_null(void)
{
	equix_pow_solution p;

	return pw(
		equix_pow_extension_decode(NULL, EQUIX_POW_EXTENSION_LEN, &p));
}

static const char *pow_extension_decode_null_proof(void)
{
	uint8_t body[EQUIX_POW_EXTENSION_LEN];

	extension_body(body, -1, 0);
	return pw(equix_pow_extension_decode(body, sizeof body, NULL));
}

static const char *pow_extension_decode_empty(void)
{
	return decode(-1, 0, 0);
}

static const char *pow_extension_decode_short(void)
{
	return decode(-1, 0, EQUIX_POW_EXTENSION_LEN - 1);
}

static const char *pow_extension_decode_long(void)
{
	return decode(-1, 0, EQUIX_POW_EXTENSION_LEN + 1);
}

static const char *pow_extension_decode_huge_length(void)
{
	return decode(-1, 0, SIZE_MAX);
}

static const char *pow_extension_decode_version_0(void)
{
	return decode(0, 0, EQUIX_POW_EXTENSION_LEN);
}

static const char *pow_extension_decode_version_2(void)
{
	return decode(0, 2, EQUIX_POW_EXTENSION_LEN);
}

#define PARAMS_SEED "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo"
#define PARAMS_LINE(seed, effort, time)                                        \
	"pow-params v1 " seed " " effort " " time

static const char *parse_n(const char *line, size_t length)
{
	equix_pow_params p;

	return pw(equix_pow_params_parse(line, length, &p));
}

static const char *parse(const char *line)
{
	return parse_n(line, strlen(line));
}

static const char *pow_params_parse_null(void)
{
	equix_pow_params p;

	return pw(equix_pow_params_parse(NULL, 10, &p));
}

static const char *pow_params_parse_null_out(void)
{
	const char *line =
		PARAMS_LINE(PARAMS_SEED, "100", "2024-05-01T00:00:00");

	/* the valid line itself parses */
	ck_assert_str_eq(parse(line), "EQUIX_POW_OK");
	return pw(equix_pow_params_parse(line, strlen(line), NULL));
}

static const char *pow_params_parse_empty(void)
{
	return parse("");
}

static const char *pow_params_parse_keyword(void)
{
	return parse("pow-parms v1 " PARAMS_SEED " 100 2024-05-01T00:00:00");
}

static const char *pow_params_parse_v2(void)
{
	return parse("pow-params v2 " PARAMS_SEED " 100 2024-05-01T00:00:00");
}

static const char *pow_params_parse_double_space(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, " 100", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_extra_field(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "100", "2024-05-01T00:00:00 x"));
}

static const char *pow_params_parse_two_newlines(void)
{
	return parse(
		PARAMS_LINE(PARAMS_SEED, "100", "2024-05-01T00:00:00\n\n"));
}

static const char *pow_params_parse_nul(void)
{
	static const char line[] =
		PARAMS_LINE("qqqqqqqqqqqqqqqqqqqq\0qqqqqqqqqqqqqqqqqqqqqo",
			    "100", "2024-05-01T00:00:00");

	return parse_n(line, sizeof line - 1);
}

static const char *pow_params_parse_seed_short(void)
{
	return parse(PARAMS_LINE("qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo",
				 "100", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_seed_padded(void)
{
	return parse(
		PARAMS_LINE(PARAMS_SEED "=", "100", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_seed_noncanonical(void)
{
	return parse(PARAMS_LINE("qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqp",
				 "100", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_seed_high_byte(void)
{
	return parse(
		PARAMS_LINE("qqqqqqqqqqqqqqqqqqqq\xdeqqqqqqqqqqqqqqqqqqqqqo",
			    "100", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_effort_negative(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "-1", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_effort_leading_zero(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "0100", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_effort_too_big(void)
{
	return parse(
		PARAMS_LINE(PARAMS_SEED, "4294967296", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_effort_max(void)
{
	return parse(
		PARAMS_LINE(PARAMS_SEED, "4294967295", "2024-05-01T00:00:00"));
}

static const char *pow_params_parse_date(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "100", "2024-02-30T00:00:00"));
}

static const char *pow_params_parse_hour(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "100", "2024-05-01T24:00:00"));
}

static const char *pow_params_parse_leap_second(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "100", "2024-05-01T23:59:60"));
}

static const char *pow_params_parse_short_time(void)
{
	return parse(PARAMS_LINE(PARAMS_SEED, "100", "2024-5-1T00:00:00"));
}

static const char *format(int64_t expiration, size_t out_size)
{
	equix_pow_params p;
	char out[EQUIX_POW_PARAMS_MAX_LEN + 1];

	memcpy(p.seed, pow_seed, sizeof p.seed);
	p.suggested_effort = 100;
	p.expiration = expiration;
	return pw(equix_pow_params_format(&p, out, out_size));
}

static const char *pow_params_format_null(void)
{
	char out[EQUIX_POW_PARAMS_MAX_LEN + 1];

	return pw(equix_pow_params_format(NULL, out, sizeof out));
}

static const char *pow_params_format_null_out(void)
{
	equix_pow_params p = {.suggested_effort = 1, .expiration = 0};

	return pw(equix_pow_params_format(&p, NULL,
					  EQUIX_POW_PARAMS_MAX_LEN + 1));
}

static const char *pow_params_format_small_out(void)
{
	return format(1714521600, 10);
}

static const char *pow_params_format_zero_out(void)
{
	return format(1714521600, 0);
}

static const char *pow_params_format_before_1970(void)
{
	return format(-1, EQUIX_POW_PARAMS_MAX_LEN + 1);
}

static const char *pow_params_format_after_9999(void)
{
	/* the last second of 9999 formats; one more does not */
	ck_assert_str_eq(format(253402300799, EQUIX_POW_PARAMS_MAX_LEN + 1),
			 "EQUIX_POW_OK");
	return format(253402300800, EQUIX_POW_PARAMS_MAX_LEN + 1);
}

static const char *pow_params_format_int64_min(void)
{
	return format(INT64_MIN, EQUIX_POW_PARAMS_MAX_LEN + 1);
}

/* ---- The cases, by the document's ids -------------------------------- */

typedef struct row_case {
	const char *id;
	const char *(*run)(void);
} row_case;

#define CASE(id, fn)                                                           \
	{                                                                      \
		id, fn                                                         \
	}
static const row_case cases[] = {
	CASE("hashx-alloc-unknown-type", hashx_alloc_unknown_type),
	CASE("hashx-make-unknown-type", hashx_make_unknown_type),
	CASE("hashx-make-null-ctx", hashx_make_null_ctx),
	CASE("hashx-make-null-seed", hashx_make_null_seed),
	CASE("hashx-make-empty-seed", hashx_make_empty_seed),
	CASE("hashx-make-degenerate-rng", hashx_make_degenerate_rng),
	CASE("hashx-exec-after-failed-make", hashx_exec_after_failed_make),
	CASE("hashx-exec-unprepared", hashx_exec_unprepared),
	CASE("hashx-exec-null-ctx", hashx_exec_null_ctx),
	CASE("hashx-exec-null-output", hashx_exec_null_output),
	CASE("hashx-exec-max-input", hashx_exec_max_input),
	CASE("hashx-exec-sized-zero", hashx_exec_sized_zero),
	CASE("hashx-exec-sized-too-big", hashx_exec_sized_too_big),
	CASE("hashx-exec-block-null-input", hashx_exec_block_null_input),
	CASE("hashx-exec-block-empty-input", hashx_exec_block_empty_input),
	CASE("hashx-exec-block-too-big", hashx_exec_block_too_big),
	CASE("hashx-exec-block-unprepared", hashx_exec_block_unprepared),
	CASE("hashx-query-unprepared", hashx_query_unprepared),
	CASE("hashx-query-null-ctx", hashx_query_null_ctx),
	CASE("hashx-query-null-out", hashx_query_null_out),
	CASE("hashx-free-null", hashx_free_null),
	CASE("hashx-rng-callback-null-ctx", hashx_rng_callback_null_ctx),
	CASE("equix-alloc-unknown-flags", equix_alloc_unknown_flags),
	CASE("equix-solve-null-ctx", equix_solve_null_ctx),
	CASE("equix-solve-null-output", equix_solve_null_output),
	CASE("equix-solve-verify-only", equix_solve_verify_only),
	CASE("equix-solve-null-challenge", equix_solve_null_challenge),
	CASE("equix-solve-no-hashx", equix_solve_no_hashx),
	CASE("equix-verify-null-ctx", equix_verify_null_ctx),
	CASE("equix-verify-null-solution", equix_verify_null_solution),
	CASE("equix-verify-null-challenge", equix_verify_null_challenge),
	CASE("equix-verify-no-hashx", equix_verify_no_hashx),
	CASE("equix-verify-order", equix_verify_order),
	CASE("equix-verify-duplicates", equix_verify_duplicates),
	CASE("equix-verify-partial-sum", equix_verify_partial_sum),
	CASE("equix-verify-final-sum", equix_verify_final_sum),
	CASE("equix-free-null", equix_free_null),
	CASE("equix-pack-null-solution", equix_pack_null_solution),
	CASE("equix-pack-null-out", equix_pack_null_out),
	CASE("equix-unpack-null-in", equix_unpack_null_in),
	CASE("equix-unpack-null-solution", equix_unpack_null_solution),
	CASE("pow-result-string-negative", pow_result_string_negative),
	CASE("pow-result-string-large", pow_result_string_large),
	CASE("pow-challenge-build-null-challenge",
	     pow_challenge_build_null_challenge),
	CASE("pow-challenge-build-null-id", pow_challenge_build_null_id),
	CASE("pow-effort-hash-null", pow_effort_hash_null),
	CASE("pow-effort-check-null", pow_effort_check_null),
	CASE("pow-effort-check-zero", pow_effort_check_zero),
	CASE("pow-effort-check-max", pow_effort_check_max),
	CASE("pow-nonce-add-null", pow_nonce_add_null),
	CASE("pow-nonce-add-wrap", pow_nonce_add_wrap),
	CASE("pow-effort-retry-max", pow_effort_retry_max),
	CASE("pow-effort-retry-zero", pow_effort_retry_zero),
	CASE("pow-solve-options-init-null", pow_solve_options_init_null),
	CASE("pow-solve-null-id", pow_solve_null_id),
	CASE("pow-solve-null-seed", pow_solve_null_seed),
	CASE("pow-solve-null-proof", pow_solve_null_proof),
	CASE("pow-solve-too-many-threads", pow_solve_too_many_threads),
	CASE("pow-solve-negative-seconds", pow_solve_negative_seconds),
	CASE("pow-solve-nan-seconds", pow_solve_nan_seconds),
	CASE("pow-solve-effort-zero", pow_solve_effort_zero),
	CASE("pow-solve-effort-max", pow_solve_effort_max),
	CASE("pow-solve-cancelled", pow_solve_cancelled),
	CASE("pow-service-alloc-null-id", pow_service_alloc_null_id),
	CASE("pow-service-alloc-null-seed", pow_service_alloc_null_seed),
	CASE("pow-service-alloc-small-cap", pow_service_alloc_small_cap),
	CASE("pow-service-alloc-huge-cap", pow_service_alloc_huge_cap),
	CASE("pow-service-free-null", pow_service_free_null),
	CASE("pow-service-rotate-null", pow_service_rotate_null),
	CASE("pow-service-rotate-null-seed", pow_service_rotate_null_seed),
	CASE("pow-service-rotate-current", pow_service_rotate_current),
	CASE("pow-service-rotate-back", pow_service_rotate_back),
	CASE("pow-service-rotate-retired", pow_service_rotate_retired),
	CASE("pow-service-set-min-effort-null",
	     pow_service_set_min_effort_null),
	CASE("pow-service-set-min-effort-max", pow_service_set_min_effort_max),
	CASE("pow-service-verify-null", pow_service_verify_null),
	CASE("pow-service-verify-null-proof", pow_service_verify_null_proof),
	CASE("pow-service-verify-seed-head", pow_service_verify_seed_head),
	CASE("pow-service-verify-replay", pow_service_verify_replay),
	CASE("pow-service-verify-evicted", pow_service_verify_evicted),
	CASE("pow-service-verify-after-flood", pow_service_verify_after_flood),
	CASE("pow-service-verify-effort-max", pow_service_verify_effort_max),
	CASE("pow-service-verify-effort-zero", pow_service_verify_effort_zero),
	CASE("pow-service-verify-wrong-effort",
	     pow_service_verify_wrong_effort),
	CASE("pow-service-verify-order", pow_service_verify_order),
	CASE("pow-service-verify-old-seed", pow_service_verify_old_seed),
	CASE("pow-service-stats-null", pow_service_stats_null),
	CASE("pow-service-stats-null-out", pow_service_stats_null_out),
	CASE("pow-queue-alloc-burst-below-rate",
	     pow_queue_alloc_burst_below_rate),
	CASE("pow-queue-alloc-max-rate", pow_queue_alloc_max_rate),
	CASE("pow-queue-free-null", pow_queue_free_null),
	CASE("pow-queue-free-reentered", pow_queue_free_reentered),
	CASE("pow-queue-add-null", pow_queue_add_null),
	CASE("pow-queue-add-null-payload", pow_queue_add_null_payload),
	CASE("pow-queue-add-effort-max", pow_queue_add_effort_max),
	CASE("pow-queue-add-reentered", pow_queue_add_reentered),
	CASE("pow-queue-pop-null", pow_queue_pop_null),
	CASE("pow-queue-pop-null-out", pow_queue_pop_null_out),
	CASE("pow-queue-pop-empty", pow_queue_pop_empty),
	CASE("pow-queue-pop-in-flight-max", pow_queue_pop_in_flight_max),
	CASE("pow-queue-pop-time-backwards", pow_queue_pop_time_backwards),
	CASE("pow-queue-pop-retry-overflow", pow_queue_pop_retry_overflow),
	CASE("pow-queue-pop-reentered", pow_queue_pop_reentered),
	CASE("pow-queue-set-suggested-effort-null",
	     pow_queue_set_suggested_effort_null),
	CASE("pow-queue-set-suggested-effort-reentered",
	     pow_queue_set_suggested_effort_reentered),
	CASE("pow-queue-set-limits-null", pow_queue_set_limits_null),
	CASE("pow-queue-set-limits-zero", pow_queue_set_limits_zero),
	CASE("pow-queue-set-limits-reentered", pow_queue_set_limits_reentered),
	CASE("pow-queue-stats-null", pow_queue_stats_null),
	CASE("pow-queue-stats-null-out", pow_queue_stats_null_out),
	CASE("pow-queue-stats-reentered", pow_queue_stats_reentered),
	CASE("pow-queue-period-null", pow_queue_period_null),
	CASE("pow-queue-period-null-out", pow_queue_period_null_out),
	CASE("pow-queue-period-reentered", pow_queue_period_reentered),
	CASE("pow-queue-callback-left", pow_queue_callback_left),
	CASE("pow-queue-recover-after-longjmp",
	     pow_queue_recover_after_longjmp),
	CASE("pow-queue-recover-idle", pow_queue_recover_idle),
	CASE("pow-queue-recover-null", pow_queue_recover_null),
	CASE("pow-effort-update-null", pow_effort_update_null),
	CASE("pow-effort-update-nothing-handled",
	     pow_effort_update_nothing_handled),
	CASE("pow-effort-update-huge-mean", pow_effort_update_huge_mean),
	CASE("pow-effort-update-max", pow_effort_update_max),
	CASE("pow-effort-needs-republish-zero",
	     pow_effort_needs_republish_zero),
	CASE("pow-effort-needs-republish-max", pow_effort_needs_republish_max),
	CASE("pow-controller-alloc-null-queue",
	     pow_controller_alloc_null_queue),
	CASE("pow-controller-alloc-period-zero",
	     pow_controller_alloc_period_zero),
	CASE("pow-controller-alloc-bad-rng", pow_controller_alloc_bad_rng),
	CASE("pow-controller-free-null", pow_controller_free_null),
	CASE("pow-controller-tick-null", pow_controller_tick_null),
	CASE("pow-controller-tick-null-out", pow_controller_tick_null_out),
	CASE("pow-controller-tick-time-backwards",
	     pow_controller_tick_time_backwards),
	CASE("pow-controller-tick-end-of-time",
	     pow_controller_tick_end_of_time),
	CASE("pow-controller-tick-reentered", pow_controller_tick_reentered),
	CASE("pow-extension-encode-null", pow_extension_encode_null),
	CASE("pow-extension-encode-null-body", pow_extension_encode_null_body),
	CASE("pow-extension-decode-null", pow_extension_decode_null),
	CASE("pow-extension-decode-null-proof",
	     pow_extension_decode_null_proof),
	CASE("pow-extension-decode-empty", pow_extension_decode_empty),
	CASE("pow-extension-decode-short", pow_extension_decode_short),
	CASE("pow-extension-decode-long", pow_extension_decode_long),
	CASE("pow-extension-decode-huge-length",
	     pow_extension_decode_huge_length),
	CASE("pow-extension-decode-version-0", pow_extension_decode_version_0),
	CASE("pow-extension-decode-version-2", pow_extension_decode_version_2),
	CASE("pow-params-parse-null", pow_params_parse_null),
	CASE("pow-params-parse-null-out", pow_params_parse_null_out),
	CASE("pow-params-parse-empty", pow_params_parse_empty),
	CASE("pow-params-parse-keyword", pow_params_parse_keyword),
	CASE("pow-params-parse-v2", pow_params_parse_v2),
	CASE("pow-params-parse-double-space", pow_params_parse_double_space),
	CASE("pow-params-parse-extra-field", pow_params_parse_extra_field),
	CASE("pow-params-parse-two-newlines", pow_params_parse_two_newlines),
	CASE("pow-params-parse-nul", pow_params_parse_nul),
	CASE("pow-params-parse-seed-short", pow_params_parse_seed_short),
	CASE("pow-params-parse-seed-padded", pow_params_parse_seed_padded),
	CASE("pow-params-parse-seed-noncanonical",
	     pow_params_parse_seed_noncanonical),
	CASE("pow-params-parse-seed-high-byte",
	     pow_params_parse_seed_high_byte),
	CASE("pow-params-parse-effort-negative",
	     pow_params_parse_effort_negative),
	CASE("pow-params-parse-effort-leading-zero",
	     pow_params_parse_effort_leading_zero),
	CASE("pow-params-parse-effort-too-big",
	     pow_params_parse_effort_too_big),
	CASE("pow-params-parse-effort-max", pow_params_parse_effort_max),
	CASE("pow-params-parse-date", pow_params_parse_date),
	CASE("pow-params-parse-hour", pow_params_parse_hour),
	CASE("pow-params-parse-leap-second", pow_params_parse_leap_second),
	CASE("pow-params-parse-short-time", pow_params_parse_short_time),
	CASE("pow-params-format-null", pow_params_format_null),
	CASE("pow-params-format-null-out", pow_params_format_null_out),
	CASE("pow-params-format-small-out", pow_params_format_small_out),
	CASE("pow-params-format-zero-out", pow_params_format_zero_out),
	CASE("pow-params-format-before-1970", pow_params_format_before_1970),
	CASE("pow-params-format-after-9999", pow_params_format_after_9999),
	CASE("pow-params-format-int64-min", pow_params_format_int64_min),
};
#define NUM_CASES (sizeof cases / sizeof cases[0])

/* ---- The document's rows --------------------------------------------- */

#define MAX_ROWS 512

typedef struct doc_row {
	char id[64];
	char want[128];
} doc_row;

static doc_row rows[MAX_ROWS];
static int num_rows;
static char doc_path[4096];
static char doc_error[512]; /* what is wrong with the rows, if anything */

/* The text of the first code span in `s`, into out; 0 if there is none. */
static int first_code(const char *s, char *out, size_t size)
{
	const char *a = strchr(s, '`'),
		   *b = a != NULL ? strchr(a + 1, '`') : NULL;

	if (b == NULL || (size_t)(b - a - 1) >= size)
		return 0;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return 1;
}

/* An API row: "| `id` | call | bad input | outcome |" whose id does not
 * start with "cli-" (those are tests/bad_input_cli.sh's), "js-" (the
 * JavaScript package's, js/test/bad_input.test.js's), "gate-" (the
 * gate's replay store's, gate/test/store_memory.test.js's) or "build-"
 * (scripts/tor.sh's and js/test/build_in_tree.sh's). The outcome is the
 * cell after the fourth '|' (the API rows' code spans hold none). */
static void read_row(const char *line)
{
	const char *cell = line;
	doc_row *r;

	if (strncmp(line, "| `", 3) != 0 || strncmp(line, "| `cli-", 7) == 0 ||
	    strncmp(line, "| `js-", 6) == 0 ||
	    strncmp(line, "| `gate-", 8) == 0 ||
	    strncmp(line, "| `build-", 9) == 0)
		return;
	if (num_rows == MAX_ROWS) {
		snprintf(doc_error, sizeof doc_error, "more than %d rows",
			 MAX_ROWS);
		return;
	}
	r = &rows[num_rows++];
	for (int i = 0; i < 3 && cell != NULL; i++)
		cell = strchr(cell + 1, '|');
	if (!first_code(line, r->id, sizeof r->id) || cell == NULL ||
	    !first_code(cell, r->want, sizeof r->want))
		snprintf(doc_error, sizeof doc_error,
			 "a row without an id or an outcome: %.200s", line);
}

static void read_doc(void)
{
	const char *env = getenv("BAD_INPUT_DOC");
	char line[4096];
	FILE *f;

	snprintf(doc_path, sizeof doc_path, "%s",
		 env != NULL && *env != '\0' ? env : BAD_INPUT_DOC_DEFAULT);
	f = fopen(doc_path, "r");
	if (f == NULL) {
		fprintf(stderr, "test_bad_input: cannot open %s\n", doc_path);
		exit(1);
	}
	while (fgets(line, sizeof line, f) != NULL)
		read_row(line);
	fclose(f);
}

static const row_case *case_for(const char *id)
{
	for (size_t i = 0; i < NUM_CASES; i++)
		if (strcmp(cases[i].id, id) == 0)
			return &cases[i];
	return NULL;
}

static int rows_named(const char *id)
{
	int n = 0;

	for (int i = 0; i < num_rows; i++)
		n += strcmp(rows[i].id, id) == 0;
	return n;
}

/* Every row has its case and every case its one row. */
START_TEST(rows_match_cases)
{
	ck_assert_msg(doc_error[0] == '\0', "%s: %s", doc_path, doc_error);
	ck_assert_int_gt(num_rows, 0);
	for (int i = 0; i < num_rows; i++)
		ck_assert_msg(case_for(rows[i].id) != NULL,
			      "%s: row %s has no test case", doc_path,
			      rows[i].id);
	for (size_t i = 0; i < NUM_CASES; i++)
		ck_assert_msg(rows_named(cases[i].id) == 1,
			      "%s: case %s has %d rows, want 1", doc_path,
			      cases[i].id, rows_named(cases[i].id));
}
END_TEST

START_TEST(row)
{
	const doc_row *r = &rows[_i];
	const row_case *c = case_for(r->id);
	const char *got;

	ck_assert_msg(c != NULL, "%s: no test case", r->id);
	got = c->run();
	ck_assert_msg(strcmp(got, r->want) == 0,
		      "%s: got %s, the table says %s", r->id, got, r->want);
}
END_TEST

/* Once, before the tests fork: the vectors and a solved challenge. */
static void setup(void)
{
	if (sodium_init() < 0)
		exit(1);
	pow_vectors();
	solve_once();
}

int main(void)
{
	Suite *s = suite_create("bad input (doc/bad-input.md)");
	TCase *tc = tcase_create("table");

	read_doc();
	printf("%s: %d API rows, %zu cases\n", doc_path, num_rows, NUM_CASES);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_add_test(tc, rows_match_cases);
	tcase_add_loop_test(tc, row, 0, num_rows);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
