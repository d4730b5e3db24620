/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_hashwx.c - HashWX through the public API (libhashwx), as a client
 * of tevador's hashwx.h uses it: every seed and nonce of the reference's
 * recorded outputs (tests/vectors/hashwx-v2.txt), interpreted and
 * compiled, and the API's edges.
 */
#include <stdio.h>
#include <string.h>

#include <hashwx.h>

#include "testutil.h"
#include "vectors.h"

/* Runs every line of hashwx-v2.txt through `ctx`; the lines run. With
 * want_compiled, each made function must also run as native code. */
static int check_corpus(hashwx_ctx *ctx, int want_compiled)
{
	static char line[4096];
	FILE *f = tu_open_vector("hashwx-v2.txt");
	int lines = 0, ran = 0;

	ck_assert_msg(f != NULL, "cannot open hashwx-v2.txt");
	for (; fgets(line, sizeof line, f) != NULL; lines++) {
		bench_hashwx_vec v;
		hashwx_type type;

		if (!tu_vector_line_runs("hashwx-v2.txt", lines))
			continue;
		ran++;
		ck_assert_msg(bench_hashwx_vec_parse(line, &v) == 0,
			      "hashwx-v2.txt line %d: malformed", lines + 1);
		hashwx_make(ctx, v.seed);
		ck_assert_int_eq(hashwx_query_type(ctx, &type), 0);
		ck_assert_int_eq(type, want_compiled ? HASHWX_COMPILED
						     : HASHWX_INTERPRETED);
		for (int k = 0; k < v.pairs; k++) {
			uint64_t h = hashwx_exec(ctx, v.nonce[k]);

			ck_assert_msg(h == v.hash[k],
				      "hashwx-v2.txt line %d nonce %llx: "
				      "%016llx, want %016llx", lines + 1,
				      (unsigned long long)v.nonce[k],
				      (unsigned long long)h,
				      (unsigned long long)v.hash[k]);
		}
	}
	fclose(f);
	tu_sample_note("hashwx-v2.txt", ran, lines);
	return lines;
}

START_TEST(corpus_interpreted)
{
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_ptr_ne(ctx, HASHWX_NOTSUPP);
	ck_assert_int_eq(check_corpus(ctx, 0), 3000);
	hashwx_free(ctx);
}
END_TEST

START_TEST(corpus_compiled)
{
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_COMPILED);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(check_corpus(ctx, 1), 3000);
	hashwx_free(ctx);
}
END_TEST

/* A fixed xorshift64 stream: the same seeds and nonces every run. */
static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Interpreter against compiled code on random seeds and nonces (the
 * corpus covers the reference's; these reach other instances). */
START_TEST(differential)
{
	hashwx_ctx *in = hashwx_alloc(HASHWX_INTERPRETED);
	hashwx_ctx *jit = hashwx_alloc(HASHWX_COMPILED);
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
	int seeds = tu_count(500), checked = 0;
	hashwx_type type;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(jit);
	for (int s = 0; s < seeds; s++) {
		uint8_t seed[HASHWX_SEED_SIZE];

		for (size_t i = 0; i < sizeof seed; i += 8) {
			uint64_t w = next_random(&x);

			memcpy(seed + i, &w, 8);
		}
		hashwx_make(in, seed);
		hashwx_make(jit, seed);
		ck_assert_int_eq(hashwx_query_type(jit, &type), 0);
		ck_assert_int_eq(type, HASHWX_COMPILED);
		for (int k = 0; k < 6; k++, checked++) {
			/* Small nonces too, as a solver hashes them. */
			uint64_t nonce = k < 2 ? (uint64_t)(s * 2 + k)
					       : next_random(&x);

			ck_assert_msg(hashwx_exec(in, nonce) ==
					      hashwx_exec(jit, nonce),
				      "seed %d nonce %llx: compiled differs",
				      s, (unsigned long long)nonce);
		}
	}
	ck_assert_int_eq(checked, 6 * seeds);
	hashwx_free(in);
	hashwx_free(jit);
}
END_TEST

/* A new context holds the all-zero seed's function, so hashing before
 * hashwx_make() is defined; NULL arguments change nothing. */
START_TEST(api_edges)
{
	static const uint8_t zero[HASHWX_SEED_SIZE];
	hashwx_ctx *a = hashwx_alloc(HASHWX_INTERPRETED);
	hashwx_ctx *b = hashwx_alloc(HASHWX_INTERPRETED);
	hashwx_type type;
	uint64_t h;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	h = hashwx_exec(a, 462);
	hashwx_make(b, zero);
	ck_assert_uint_eq(h, hashwx_exec(b, 462));
	hashwx_make(b, NULL);
	ck_assert_uint_eq(h, hashwx_exec(b, 462));
	hashwx_make(NULL, zero);
	ck_assert_uint_eq(hashwx_exec(NULL, 462), 0);
	ck_assert_int_eq(hashwx_query_type(NULL, &type), -1);
	ck_assert_int_eq(hashwx_query_type(a, NULL), -1);
	ck_assert_ptr_eq(hashwx_alloc((hashwx_type)7), HASHWX_NOTSUPP);
	hashwx_free(NULL);
	hashwx_free(HASHWX_NOTSUPP);
	hashwx_free(a);
	hashwx_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hashwx");
	TCase *tc = tcase_create("hashwx");
	hashwx_ctx *probe = hashwx_alloc(HASHWX_COMPILED);

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, corpus_interpreted);
	tcase_add_test(tc, api_edges);
	/* A build or machine without a HashWX compiler says so at
	 * allocation: the compiled corpus is then skipped, never passed. */
	if (probe == HASHWX_NOTSUPP)
		printf("SKIP: corpus_compiled, differential (no HashWX "
		       "compiler in this build or on this CPU)\n");
	else {
		tcase_add_test(tc, corpus_compiled);
		tcase_add_test(tc, differential);
	}
	hashwx_free(probe);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
