/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_hashwx_lanes.c - HashWX's 8-lane forms (src/hashwx/hashwx_lanes.h)
 * through the one entry point for many hashes, hashwx_ctx_exec_batch:
 * every line of the reference's recorded outputs (hashwx-v2.txt) with
 * each lanes form this CPU runs, in one group of 8 lanes and in two, each
 * recorded nonce in a different lane, the other lanes against the
 * interpreter; then random instances, first
 * nonces and lengths (tails shorter than 8 included) against it; and the
 * choice hashwx_make() makes. A form this CPU lacks is reported SKIP.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hashwx.h>

#include "hashwx_context.h"
#include "testutil.h"
#include "vectors.h"

/* A fixed pseudo-random sequence (splitmix64), so a failure repeats. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* out[i] for i < n against the interpreter on the same instance. */
static void check_interpreted(const hashwx_ctx *ctx, uint64_t first,
			      size_t n, const uint64_t *out, const char *what)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(out[i] == hashwx_interpret(&ctx->inst, first + i),
			      "%s: nonce %016llx differs from the interpreter",
			      what, (unsigned long long)(first + i));
}

/* Every line of hashwx-v2.txt through the batch with ctx->lanes8 =
 * `lanes`: recorded pair k is hashed in lane 3k of a batch of 8 or 16. */
static int corpus_through(hashwx_lanes8_fn *lanes, const char *name)
{
	static char line[4096];
	FILE *f = tu_open_vector("hashwx-v2.txt");
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);
	int lines = 0, ran = 0;

	ck_assert_msg(f != NULL, "cannot open hashwx-v2.txt");
	ck_assert_ptr_nonnull(ctx);
	for (; fgets(line, sizeof line, f) != NULL; lines++) {
		bench_hashwx_vec v;

		if (!tu_vector_line_runs("hashwx-v2.txt", lines))
			continue;
		ran++;
		ck_assert_msg(bench_hashwx_vec_parse(line, &v) == 0,
			      "hashwx-v2.txt line %d: malformed", lines + 1);
		hashwx_make(ctx, v.seed);
		ctx->lanes8 = lanes;
		for (int k = 0; k < v.pairs; k++) {
			/* one group of 8 on odd lines, two on even ones */
			size_t n = HASHWX_LANES * (lines % 2 ? 1 : 2);
			unsigned lane = (unsigned)(3 * k % n);
			uint64_t first = v.nonce[k] - lane, out[2 * HASHWX_LANES];

			hashwx_ctx_exec_batch(ctx, first, n, out);
			ck_assert_msg(out[lane] == v.hash[k],
				      "%s: hashwx-v2.txt line %d nonce %llx: "
				      "%016llx, want %016llx", name, lines + 1,
				      (unsigned long long)v.nonce[k],
				      (unsigned long long)out[lane],
				      (unsigned long long)v.hash[k]);
			check_interpreted(ctx, first, n, out, name);
		}
	}
	fclose(f);
	hashwx_free(ctx);
	tu_sample_note("hashwx-v2.txt", ran, lines);
	return lines;
}

/* Random seeds, first nonces (near 0, near 2^64 and anywhere) and
 * lengths 0..40, so runs of 8 and every tail length meet. */
static void random_through(hashwx_lanes8_fn *lanes, const char *name)
{
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);
	uint64_t state = 46, out[40];

	ck_assert_ptr_nonnull(ctx);
	for (int t = 0; t < tu_count(200); t++) {
		uint8_t seed[HASHWX_SEED_SIZE];
		uint64_t first = next_random(&state);
		size_t n = (size_t)(next_random(&state) % 41);

		for (size_t i = 0; i < sizeof seed; i++)
			seed[i] = (uint8_t)next_random(&state);
		if (t % 3 == 0)
			first %= 64;
		else if (t % 3 == 1)
			first = UINT64_MAX - first % 64;
		hashwx_make(ctx, seed);
		ctx->lanes8 = lanes;
		hashwx_ctx_exec_batch(ctx, first, n, out);
		check_interpreted(ctx, first, n, out, name);
	}
	hashwx_free(ctx);
}


START_TEST(corpus_lanes)
{
	const hashwx_lanes_impl *l = &hashwx_lanes_impls[_i];

	ck_assert_int_eq(corpus_through(l->hash, l->name), 3000);
}
END_TEST

START_TEST(random_lanes)
{
	const hashwx_lanes_impl *l = &hashwx_lanes_impls[_i];

	random_through(l->hash, l->name);
}
END_TEST

/* The batch entry point without lanes (one hash at a time), the path a
 * tail and a machine without lanes take. */
START_TEST(random_scalar)
{
	random_through(NULL, "scalar");
}
END_TEST

/* An interpreted context takes the first row this CPU runs (unless
 * HASHWX_IMPL says otherwise), and the rows end with a NULL one. */
START_TEST(choice)
{
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);
	const char *forced = getenv("HASHWX_IMPL");
	hashwx_lanes8_fn *want = NULL;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_ptr_null(hashwx_lanes_impls[HASHWX_LANES_IMPL_COUNT].hash);
	for (int k = HASHWX_LANES_IMPL_COUNT - 1; k >= 0; k--)
		if (hashwx_lanes_impls[k].available())
			want = hashwx_lanes_impls[k].hash;
	if (forced != NULL && strcmp(forced, "scalar") == 0)
		want = NULL;
	ck_assert_ptr_eq(ctx->lanes8, want);
	hashwx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hashwx_lanes");
	TCase *tc = tcase_create("hashwx_lanes");
	const char *forced = getenv("HASHWX_IMPL");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, random_scalar);
	if (forced == NULL || strcmp(forced, "scalar") == 0)
		tcase_add_test(tc, choice);
	for (int k = 0; k < HASHWX_LANES_IMPL_COUNT; k++) {
		if (!hashwx_lanes_impls[k].available()) {
			printf("SKIP: %s lanes (this CPU or OS lacks them)\n",
			       hashwx_lanes_impls[k].name);
			continue;
		}
		tcase_add_loop_test(tc, corpus_lanes, k, k + 1);
		tcase_add_loop_test(tc, random_lanes, k, k + 1);
	}
	if (HASHWX_LANES_IMPL_COUNT == 0)
		printf("SKIP: HashWX lanes (none in this build)\n");
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
