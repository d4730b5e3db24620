/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_equix_v2.c - Equi-X v2 (EQUIX_CTX_V2, HashWX) through the public
 * libequix: the reference's solutions (count and order) for every
 * challenge of tests/vectors/equix-v2.txt compiled where this build can,
 * a tenth each interpreted, must-compile and on huge pages; every solution verifies and every broken one is
 * refused with the right code; v1 and v2 differ on the same challenge;
 * flags and challenges at their edges get defined results.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <equix.h>
#include <hashwx.h>

#include "testutil.h"

#define V2_VECTORS 300

static bench_equix_vec vectors[V2_VECTORS];
static int sampled[V2_VECTORS]; /* solved under valgrind or qemu */
#define EMULATED_STRIDE 50
static int nvectors;

static void load_vectors(void)
{
	static char line[16384];
	FILE *f;

	if (nvectors > 0)
		return;
	f = tu_open_vector("equix-v2.txt");
	ck_assert_msg(f != NULL, "cannot open equix-v2.txt");
	for (long n = 0; fgets(line, sizeof line, f) != NULL; n++) {
		ck_assert_int_lt(nvectors, V2_VECTORS);
		ck_assert_msg(bench_equixv2_vec_parse(line,
						      &vectors[nvectors]) == 0,
			      "equix-v2.txt line %ld malformed", n + 1);
		/* The valgrind sample; under an emulator, where the 900
		 * solves take qemu over a quarter of an hour, one line in
		 * EMULATED_STRIDE (every length class still comes up). */
		sampled[nvectors] = tu_vector_line_runs("equix-v2.txt", n) &&
				    (!tu_emulated() ||
				     n % EMULATED_STRIDE == 0);
		nvectors++;
	}
	fclose(f);
	ck_assert_int_eq(nvectors, V2_VECTORS);
}

/* Whether this build and machine compile HashWX. */
static int have_hashwx_compiler(void)
{
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_COMPILED);
	int have = ctx != HASHWX_NOTSUPP && ctx != NULL;

	hashwx_free(ctx);
	return have;
}

/* Solves the vectors of the sample (all of them, but for valgrind's or
 * qemu's) whose place in it, counted from 0, is `offset` modulo
 * `stride`, with a context of `flags`: the reference's solutions, count
 * and order. Where HashWX compiles, the try-compile context takes every
 * line (but under valgrind), at a quarter of the interpreter's cost; the
 * other contexts take a tenth each, at their own offsets: both hashes
 * are checked on all 18,000 recorded hashes by test_hashwx and
 * test_hashwx_compiler_x86, and the solver over them is the same; huge
 * pages are the same solver in other memory. The interpreted context
 * solving every line cost about 45 s natively, twice that under ASan and
 * in the no-JIT stage, and two minutes under valgrind, over CI's
 * stages. */
#define SPOT_STRIDE 10

static void solve_all(equix_ctx_flags flags, int expect_compiled,
		      int stride, int offset)
{
	equix_ctx *ctx = equix_alloc(flags);
	equix_solutions_buffer buf;
	int ran = 0, total = 0, place = 0;

	ck_assert_ptr_nonnull(ctx);
	load_vectors();
	for (int n = 0; n < nvectors; n++) {
		const bench_equix_vec *v = &vectors[n];
		equix_result r;

		if (!sampled[n] || place++ % stride != offset)
			continue;
		ran++;
		r = equix_solve(ctx, v->challenge, v->len, &buf);
		ck_assert_msg(r == EQUIX_OK, "vector %d: solve gave %d", n,
			      (int)r);
		ck_assert_msg(buf.count == v->count,
			      "vector %d: %u solutions, want %u", n, buf.count,
			      v->count);
		for (unsigned k = 0; k < v->count; k++)
			ck_assert_msg(memcmp(&buf.sols[k], &v->sols[k],
					     sizeof buf.sols[k]) == 0,
				      "vector %d: solution %u differs", n, k);
		ck_assert_int_eq((buf.flags & EQUIX_SOLVER_DID_USE_COMPILER) != 0,
				 expect_compiled);
		total += (int)v->count;
	}
	if (ran < nvectors)
		printf("SAMPLE: %s: equix-v2.txt: %d of %d lines (those whose "
		       "place in %s is %d modulo %d)\n",
		       tcase_name(), ran, nvectors,
		       tu_valgrind()	 ? "valgrind's sample"
		       : tu_emulated() ? "qemu's sample"
				       : "the file",
		       offset, stride);
	/* the file holds 583 solutions in all, each tenth of it 50 to 65;
	 * valgrind's sample 28, qemu's 7, and a tenth of those at least a
	 * line */
	ck_assert_int_gt(ran, 0);
	if (!tu_valgrind() && !tu_emulated())
		ck_assert_int_gt(total, ran == nvectors ? 500 : 40);
	equix_free(ctx);
}

START_TEST(solve_interpreted)
{
	solve_all(EQUIX_CTX_SOLVE | EQUIX_CTX_V2, 0, SPOT_STRIDE, 0);
}
END_TEST

START_TEST(solve_try_compile)
{
	int compiles = have_hashwx_compiler();
	/* every line where the JIT runs natively; under valgrind, whose
	 * solve takes seconds, a tenth of its sample as the others */
	int all = compiles && !tu_valgrind();

	solve_all(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE | EQUIX_CTX_V2,
		  compiles, all ? 1 : SPOT_STRIDE, all ? 0 : 3);
}
END_TEST

START_TEST(solve_compiled)
{
	solve_all(EQUIX_CTX_SOLVE | EQUIX_CTX_MUST_COMPILE | EQUIX_CTX_V2, 1,
		  SPOT_STRIDE, 1);
}
END_TEST

START_TEST(solve_hugepages)
{
	/* huge pages where the system has them, else ordinary pages: the
	 * same solutions */
	solve_all(EQUIX_CTX_SOLVE | EQUIX_CTX_HUGEPAGES | EQUIX_V2, 0,
		  SPOT_STRIDE, 2);
}
END_TEST

/* Every listed solution verifies, on verify-only and solving contexts. */
START_TEST(verify_all)
{
	static const equix_ctx_flags kinds[] = {
		EQUIX_CTX_V2,
		EQUIX_CTX_V2 | EQUIX_CTX_TRY_COMPILE,
		EQUIX_CTX_V2 | EQUIX_CTX_TRY_COMPILE | EQUIX_CTX_SOLVE,
	};

	load_vectors();
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		equix_ctx *ctx = equix_alloc(kinds[k]);
		int checked = 0;

		ck_assert_ptr_nonnull(ctx);
		for (int n = 0; n < nvectors; n++)
			for (unsigned s = 0; s < vectors[n].count; s++) {
				ck_assert_msg(equix_verify(ctx,
					vectors[n].challenge, vectors[n].len,
					&vectors[n].sols[s]) == EQUIX_OK,
					"flags %d vector %d solution %u",
					(int)kinds[k], n, s);
				checked++;
			}
		ck_assert_int_gt(checked, 500);
		equix_free(ctx);
	}
}
END_TEST

/* The order rule, written out independently of the library. */
static int ordered(const equix_solution *s)
{
	uint64_t a = 0, b = 0;

	for (int i = 3; i >= 0; i--) {
		a = a << 16 | s->idx[i];
		b = b << 16 | s->idx[4 + i];
	}
	if (a > b)
		return 0;
	for (int q = 0; q < 8; q += 4) {
		uint32_t l = (uint32_t)s->idx[q + 1] << 16 | s->idx[q];
		uint32_t r = (uint32_t)s->idx[q + 3] << 16 | s->idx[q + 2];

		if (l > r)
			return 0;
	}
	for (int p = 0; p < 8; p += 2)
		if (s->idx[p] > s->idx[p + 1])
			return 0;
	return 1;
}

/* v2 has no failing challenge: a broken solution fails in its order or
 * in its sums, never in its challenge. */
static int is_sum_failure(equix_result r)
{
	return r == EQUIX_FAIL_PARTIAL_SUM || r == EQUIX_FAIL_FINAL_SUM;
}

/* Each index changed by one bit, halves and a pair swapped, a right
 * solution for another challenge. */
START_TEST(verify_rejects_broken)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_V2);
	int order_fails = 0, sum_fails = 0;

	ck_assert_ptr_nonnull(ctx);
	load_vectors();
	for (int n = 0; n < nvectors; n++) {
		const bench_equix_vec *v = &vectors[n];

		for (unsigned s = 0; s < v->count; s++) {
			equix_solution bad;
			equix_result r;

			for (int i = 0; i < EQUIX_NUM_IDX; i++) {
				bad = v->sols[s];
				bad.idx[i] ^= (equix_idx)(1u << (i + n) % 16);
				r = equix_verify(ctx, v->challenge, v->len, &bad);
				if (!ordered(&bad)) {
					ck_assert_int_eq(r, EQUIX_FAIL_ORDER);
					order_fails++;
				} else {
					ck_assert_msg(is_sum_failure(r),
						      "vector %d sol %u idx %d: %d",
						      n, s, i, (int)r);
					sum_fails++;
				}
			}
			bad = v->sols[s];
			for (int i = 0; i < 4; i++) {
				bad.idx[i] = v->sols[s].idx[4 + i];
				bad.idx[4 + i] = v->sols[s].idx[i];
			}
			if (memcmp(&bad, &v->sols[s], sizeof bad) != 0)
				ck_assert_int_eq(equix_verify(ctx, v->challenge,
							      v->len, &bad),
						 EQUIX_FAIL_ORDER);
			bad = v->sols[s];
			bad.idx[0] = v->sols[s].idx[1];
			bad.idx[1] = v->sols[s].idx[0];
			if (bad.idx[0] != bad.idx[1])
				ck_assert_int_eq(equix_verify(ctx, v->challenge,
							      v->len, &bad),
						 EQUIX_FAIL_ORDER);
			const bench_equix_vec *other =
				&vectors[(n + 1) % nvectors];
			r = equix_verify(ctx, other->challenge, other->len,
					 &v->sols[s]);
			ck_assert_msg(is_sum_failure(r),
				      "vector %d sol %u on vector %d: %d", n, s,
				      (n + 1) % nvectors, (int)r);
		}
	}
	ck_assert_int_gt(order_fails, 100);
	ck_assert_int_gt(sum_fails, 100);
	equix_free(ctx);
}
END_TEST

/* The code names the failure: a solution whose last index is raised by
 * one keeps its tree order (that index is the largest of its pair, its
 * quarter and its half grow), but its last pair's sum loses its 15 zero
 * bits (but for a 2^-15 chance): EQUIX_FAIL_PARTIAL_SUM, not ORDER or
 * FINAL_SUM. */
START_TEST(verify_codes)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_V2);
	int partial = 0;

	ck_assert_ptr_nonnull(ctx);
	load_vectors();
	for (int n = 0; n < nvectors; n++)
		for (unsigned s = 0; s < vectors[n].count; s++) {
			equix_solution bad = vectors[n].sols[s];

			/* the last index raised: the order holds (it is
			 * the largest of its pair) unless it wraps */
			if (bad.idx[7] == 0xffff)
				continue;
			bad.idx[7]++;
			ck_assert_int_eq(equix_verify(ctx,
				vectors[n].challenge, vectors[n].len, &bad),
				EQUIX_FAIL_PARTIAL_SUM);
			partial++;
		}
	ck_assert_int_gt(partial, 500);
	equix_free(ctx);
}
END_TEST

/* v1 and v2 give different results for the same challenge: no context
 * falls back to v1 silently. Line 0 is the empty challenge. */
START_TEST(v1_differs)
{
	equix_ctx *v1 = equix_alloc(EQUIX_CTX_SOLVE);
	equix_ctx *v2 = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_V2);
	equix_ctx *v1_verify = equix_alloc(EQUIX_CTX_VERIFY);
	equix_solutions_buffer a, b;
	int differ = 0;

	ck_assert_ptr_nonnull(v1);
	ck_assert_ptr_nonnull(v2);
	ck_assert_ptr_nonnull(v1_verify);
	load_vectors();
	for (int n = 0; n < tu_count(20); n++) {
		const bench_equix_vec *v = &vectors[n];
		equix_result r1 = equix_solve(v1, v->challenge, v->len, &a);

		ck_assert_int_eq(equix_solve(v2, v->challenge, v->len, &b),
				 EQUIX_OK);
		ck_assert_uint_eq(b.count, v->count);
		if (r1 != EQUIX_OK || a.count != b.count ||
		    memcmp(a.sols, b.sols, a.count * sizeof a.sols[0]) != 0)
			differ++;
		/* a v2 solution is (almost surely) not a v1 one */
		for (unsigned s = 0; s < v->count; s++)
			ck_assert_int_ne(equix_verify(v1_verify, v->challenge,
						      v->len, &v->sols[s]),
					 EQUIX_OK);
	}
	ck_assert_int_eq(differ, tu_count(20));
	equix_free(v1);
	equix_free(v2);
	equix_free(v1_verify);
}
END_TEST

/* A v2 challenge cannot fail: any length, NULL with length 0 (the same
 * as the empty challenge, line 0 of the file). */
START_TEST(challenges)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_V2);
	equix_solutions_buffer buf;
	static uint8_t big[4096];

	ck_assert_ptr_nonnull(ctx);
	load_vectors();
	ck_assert_uint_eq(vectors[0].len, 0);
	ck_assert_int_eq(equix_solve(ctx, NULL, 0, &buf), EQUIX_OK);
	ck_assert_uint_eq(buf.count, vectors[0].count);
	ck_assert_mem_eq(buf.sols, vectors[0].sols,
			 buf.count * sizeof buf.sols[0]);
	ck_assert_int_eq(equix_verify(ctx, NULL, 0, &vectors[0].sols[0]),
			 EQUIX_OK);
	/* v1's failing challenge (test_equix.c) has a v2 function */
	static const uint8_t v1_bad[] = { 0xf9, 0x05, 0x00, 0x00 };
	ck_assert_int_eq(equix_solve(ctx, v1_bad, sizeof v1_bad, &buf),
			 EQUIX_OK);
	for (size_t len = 0; len <= sizeof big; len += tu_valgrind() ? 4096 : 1023) {
		big[len % sizeof big] ^= 0x5a;
		ck_assert_int_eq(equix_solve(ctx, big, len, &buf), EQUIX_OK);
		for (unsigned s = 0; s < buf.count; s++)
			ck_assert_int_eq(equix_verify(ctx, big, len,
						      &buf.sols[s]),
					 EQUIX_OK);
	}
	equix_free(ctx);
}
END_TEST

/* Flags at their edges: unknown bits are ignored (v1's rule) and v2
 * stays v2; a verify-only v2 context cannot solve; MUST_COMPILE without
 * a HashWX compiler says so at each solve and verify; NULL pointers. */
START_TEST(flags)
{
	equix_ctx *odd = equix_alloc((equix_ctx_flags)(EQUIX_CTX_SOLVE |
						       EQUIX_CTX_V2 | 0x100));
	equix_ctx *verify = equix_alloc(EQUIX_CTX_V2 | EQUIX_CTX_TRY_COMPILE);
	equix_ctx *must = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_V2 |
				      EQUIX_CTX_MUST_COMPILE |
				      EQUIX_CTX_TRY_COMPILE);
	equix_solutions_buffer buf;
	int compiler = have_hashwx_compiler();
	const bench_equix_vec *v;

	ck_assert_ptr_nonnull(odd);
	ck_assert_ptr_nonnull(verify);
	ck_assert_ptr_nonnull(must);
	load_vectors();
	v = &vectors[3];
	ck_assert_int_eq(equix_solve(odd, v->challenge, v->len, &buf),
			 EQUIX_OK);
	ck_assert_uint_eq(buf.count, v->count);
	ck_assert_mem_eq(buf.sols, v->sols, v->count * sizeof v->sols[0]);
	ck_assert_int_eq(equix_solve(verify, v->challenge, v->len, &buf),
			 EQUIX_FAIL_NO_SOLVER);
	ck_assert_int_eq(equix_verify(verify, v->challenge, v->len,
				      &v->sols[0]),
			 EQUIX_OK);
	if (!compiler)
		printf("SKIP: flags: MUST_COMPILE solving (this build or "
		       "machine has no HashWX compiler; checked that it "
		       "says EQUIX_FAIL_COMPILE)\n");
	ck_assert_int_eq(equix_solve(must, v->challenge, v->len, &buf),
			 compiler ? EQUIX_OK : EQUIX_FAIL_COMPILE);
	if (compiler) {
		ck_assert_uint_eq(buf.count, v->count);
		ck_assert_int_ne(buf.flags & EQUIX_SOLVER_DID_USE_COMPILER, 0);
	}
	ck_assert_int_eq(equix_verify(must, v->challenge, v->len, &v->sols[0]),
			 compiler ? EQUIX_OK : EQUIX_FAIL_COMPILE);
	/* the order is checked before the function is made */
	equix_solution unordered = v->sols[0];
	unordered.idx[0] = v->sols[0].idx[1];
	unordered.idx[1] = v->sols[0].idx[0];
	ck_assert_int_eq(equix_verify(must, v->challenge, v->len, &unordered),
			 EQUIX_FAIL_ORDER);
	ck_assert_int_eq(equix_solve(odd, v->challenge, v->len, NULL),
			 EQUIX_FAIL_INTERNAL);
	ck_assert_int_eq(equix_verify(odd, v->challenge, v->len, NULL),
			 EQUIX_FAIL_INTERNAL);
	ck_assert_int_eq(EQUIX_V2, EQUIX_CTX_V2);
	equix_free(odd);
	equix_free(verify);
	equix_free(must);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("equix_v2");
	TCase *solve = tcase_create("solve");
	TCase *compiled = tcase_create("compiled");
	TCase *verify = tcase_create("verify");
	TCase *api = tcase_create("api");

	tcase_set_timeout(solve, 480);
	tcase_set_timeout(compiled, 240);
	tcase_set_timeout(verify, 120);
	tcase_set_timeout(api, 240);
	tcase_add_test(solve, solve_interpreted);
	tcase_add_test(solve, solve_try_compile);
	tcase_add_test(solve, solve_hugepages);
	if (have_hashwx_compiler())
		tcase_add_test(compiled, solve_compiled);
	else
		printf("SKIP: solve_compiled (this build or machine has no "
		       "HashWX compiler)\n");
	tcase_add_test(verify, verify_all);
	tcase_add_test(verify, verify_rejects_broken);
	tcase_add_test(verify, verify_codes);
	tcase_add_test(api, v1_differs);
	tcase_add_test(api, challenges);
	tcase_add_test(api, flags);
	suite_add_tcase(s, solve);
	suite_add_tcase(s, compiled);
	suite_add_tcase(s, verify);
	suite_add_tcase(s, api);
	return tu_run_suite(s);
}
