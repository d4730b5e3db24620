/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_api.c - the public API's contract (include/hashx.h): results,
 * prepared/unprepared states, context types and reuse. Uses only
 * <hashx.h> and links the shared library, as a user would.
 */
#include <stdlib.h>
#include <string.h>

#include <config.h>

#include <hashx.h>

#include "testutil.h"

static const uint8_t bad_seed[4] = { 0xf9, 0x05, 0x00, 0x00 };

static void load(const char *seed_hex, tu_hashx_vector *v)
{
	ck_assert_msg(tu_hashx_vector_find("hashx-named.txt", seed_hex, v) == 0,
		      "vector %s not found", seed_hex);
}

/* ctx must compute exactly the vector's outputs. */
static void assert_outputs(const hashx_ctx *ctx, const tu_hashx_vector *v)
{
	ck_assert_int_eq(v->ok, 1);
	ck_assert_int_gt(v->pairs, 0);
	for (int i = 0; i < v->pairs; i++) {
		uint8_t out[HASHX_SIZE];

		ck_assert_int_eq(hashx_exec(ctx, v->nonce[i], out), HASHX_OK);
		ck_assert_mem_eq(out, v->hash[i], HASHX_SIZE);
	}
}

static void assert_unprepared(hashx_ctx *ctx)
{
	uint8_t out[HASHX_SIZE];
	hashx_type t = (hashx_type)77;

	ck_assert_int_eq(hashx_exec(ctx, 0, out), HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_query_type(ctx, &t), HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(t, 77); /* not written */
}

START_TEST(unprepared_before_make)
{
	static const hashx_type types[] = { HASHX_TYPE_INTERPRETED,
					    HASHX_TYPE_COMPILED,
					    HASHX_TRY_COMPILE };

	for (size_t i = 0; i < 3; i++) {
		hashx_ctx *ctx = hashx_alloc(types[i]);

		ck_assert_ptr_nonnull(ctx);
		assert_unprepared(ctx);
		hashx_free(ctx);
	}
}
END_TEST

START_TEST(free_null)
{
	hashx_free(NULL);
	hashx_free(NULL);
	/* still usable afterwards */
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	ck_assert_ptr_nonnull(ctx);
	hashx_free(ctx);
}
END_TEST

START_TEST(empty_seed)
{
	tu_hashx_vector v;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_type t;

	ck_assert_ptr_nonnull(ctx);
	load("-", &v);
	ck_assert_uint_eq(v.seed_len, 0);

	ck_assert_int_eq(hashx_make(ctx, NULL, 0), HASHX_OK);
	ck_assert_int_eq(hashx_query_type(ctx, &t), HASHX_OK);
	ck_assert_int_eq(t, HASHX_TYPE_INTERPRETED);
	assert_outputs(ctx, &v);

	ck_assert_int_eq(hashx_make(ctx, bad_seed, sizeof bad_seed),
			 HASHX_FAIL_SEED);
	ck_assert_int_eq(hashx_make(ctx, "", 0), HASHX_OK);
	assert_outputs(ctx, &v);
	/* size 0 ignores the bytes */
	ck_assert_int_eq(hashx_make(ctx, "xyz", 0), HASHX_OK);
	assert_outputs(ctx, &v);
	hashx_free(ctx);
}
END_TEST

START_TEST(null_seed_with_size)
{
	tu_hashx_vector v;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_make(ctx, NULL, 1), HASHX_FAIL_SEED);
	assert_unprepared(ctx);
	load("616263", &v);
	ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len), HASHX_OK);
	ck_assert_int_eq(hashx_make(ctx, NULL, 16), HASHX_FAIL_SEED);
	assert_unprepared(ctx);
	hashx_free(ctx);
}
END_TEST

START_TEST(failed_make_unprepares)
{
	static const char *bad[] = { "f9050000", "5d930200", "627369706470",
				     "65737063656f62" };
	tu_hashx_vector good, b;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);

	ck_assert_ptr_nonnull(ctx);
	load("616263", &good);
	for (size_t i = 0; i < 4; i++) {
		load(bad[i], &b);
		ck_assert_int_eq(b.ok, 0);
		ck_assert_int_eq(hashx_make(ctx, good.seed, good.seed_len),
				 HASHX_OK);
		assert_outputs(ctx, &good);
		ck_assert_msg(hashx_make(ctx, b.seed, b.seed_len) ==
				      HASHX_FAIL_SEED,
			      "seed %s not rejected", bad[i]);
		assert_unprepared(ctx);
	}
	/* and the context recovers */
	ck_assert_int_eq(hashx_make(ctx, good.seed, good.seed_len), HASHX_OK);
	assert_outputs(ctx, &good);
	hashx_free(ctx);
}
END_TEST

/* No native code yet: FAIL_COMPILE and unprepared. Once a compiler lands,
 * OK with type COMPILED and the reference outputs. */
START_TEST(compiled_type)
{
	static const char *seeds[] = { "616263", "-", "7a7a7a" };
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);

	ck_assert_ptr_nonnull(ctx);
	for (size_t i = 0; i < 3; i++) {
		tu_hashx_vector v;
		hashx_result r;
		hashx_type t;

		load(seeds[i], &v);
		r = hashx_make(ctx, v.seed, v.seed_len);
		if (r == HASHX_FAIL_COMPILE) {
			assert_unprepared(ctx);
			continue;
		}
		ck_assert_msg(r == HASHX_OK,
			      "COMPILED make gave %d, want OK or FAIL_COMPILE",
			      (int)r);
		ck_assert_int_eq(hashx_query_type(ctx, &t), HASHX_OK);
		ck_assert_int_eq(t, HASHX_TYPE_COMPILED);
		assert_outputs(ctx, &v);
	}
	/* The seed is checked before the type. */
	ck_assert_int_eq(hashx_make(ctx, bad_seed, sizeof bad_seed),
			 HASHX_FAIL_SEED);
	assert_unprepared(ctx);
	hashx_free(ctx);
}
END_TEST

START_TEST(try_compile_type)
{
	static const char *seeds[] = { "616263", "-", "7a7a7a",
				       "5e930200" };
	hashx_ctx *ctx = hashx_alloc(HASHX_TRY_COMPILE);

	ck_assert_ptr_nonnull(ctx);
	for (size_t i = 0; i < 4; i++) {
		tu_hashx_vector v;
		hashx_type t = (hashx_type)0;

		load(seeds[i], &v);
		ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len),
				 HASHX_OK);
		ck_assert_int_eq(hashx_query_type(ctx, &t), HASHX_OK);
		ck_assert_msg(t == HASHX_TYPE_INTERPRETED ||
				      t == HASHX_TYPE_COMPILED,
			      "TRY_COMPILE reports type %d", (int)t);
		assert_outputs(ctx, &v);
	}
	ck_assert_int_eq(hashx_make(ctx, bad_seed, sizeof bad_seed),
			 HASHX_FAIL_SEED);
	assert_unprepared(ctx);
	hashx_free(ctx);
}
END_TEST

START_TEST(interpreted_type)
{
	tu_hashx_vector v;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_type t = (hashx_type)0;

	ck_assert_ptr_nonnull(ctx);
	load("7a7a7a", &v);
	ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len), HASHX_OK);
	ck_assert_int_eq(hashx_query_type(ctx, &t), HASHX_OK);
	ck_assert_int_eq(t, HASHX_TYPE_INTERPRETED);
	assert_outputs(ctx, &v);
	hashx_free(ctx);
}
END_TEST

/* An unknown type is reported by make; a bad seed is reported first. */
START_TEST(undefined_type)
{
	static const int bogus[] = { 99, 0, 4, -1 };
	tu_hashx_vector v;

	load("616263", &v);
	for (size_t i = 0; i < 4; i++) {
		hashx_ctx *ctx = hashx_alloc((hashx_type)bogus[i]);

		ck_assert_ptr_nonnull(ctx);
		ck_assert_msg(hashx_make(ctx, v.seed, v.seed_len) ==
				      HASHX_FAIL_UNDEFINED,
			      "type %d: good seed", bogus[i]);
		assert_unprepared(ctx);
		ck_assert_msg(hashx_make(ctx, bad_seed, sizeof bad_seed) ==
				      HASHX_FAIL_SEED,
			      "type %d: bad seed", bogus[i]);
		assert_unprepared(ctx);
		ck_assert_int_eq(hashx_make(ctx, NULL, 3), HASHX_FAIL_SEED);
		hashx_free(ctx);
	}
}
END_TEST

START_TEST(null_arguments)
{
	tu_hashx_vector v;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t out[HASHX_SIZE];
	hashx_type t;

	ck_assert_ptr_nonnull(ctx);
	load("616263", &v);
	ck_assert_int_eq(hashx_make(NULL, v.seed, v.seed_len),
			 HASHX_FAIL_UNDEFINED);
	ck_assert_int_eq(hashx_make(NULL, NULL, 0), HASHX_FAIL_UNDEFINED);
	ck_assert_int_eq(hashx_exec(NULL, 0, out), HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_query_type(NULL, &t), HASHX_FAIL_UNPREPARED);

	ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len), HASHX_OK);
	ck_assert_int_eq(hashx_exec(ctx, 0, NULL), HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_query_type(ctx, NULL), HASHX_FAIL_UNPREPARED);
	/* the prepared context is unaffected by those calls */
	assert_outputs(ctx, &v);
	hashx_free(ctx);
}
END_TEST

/* One context through many seeds (including rejected ones) computes what
 * a fresh context per seed computes. */
START_TEST(reuse_matches_fresh)
{
	static const uint64_t nonces[] = { 0, 1, 0x5cc1, UINT64_MAX };
	hashx_ctx *reused = hashx_alloc(HASHX_TYPE_INTERPRETED);
	int fails = 0;

	ck_assert_ptr_nonnull(reused);
	for (uint32_t s = 1500; s < 1600; s++) {
		uint8_t seed[4] = { (uint8_t)s, (uint8_t)(s >> 8), 0, 0 };
		hashx_ctx *fresh = hashx_alloc(HASHX_TYPE_INTERPRETED);
		hashx_result rr = hashx_make(reused, seed, sizeof seed);
		hashx_result rf = hashx_make(fresh, seed, sizeof seed);

		ck_assert_ptr_nonnull(fresh);
		ck_assert_int_eq(rr, rf);
		if (rr != HASHX_OK) {
			fails++;
			assert_unprepared(reused);
			hashx_free(fresh);
			continue;
		}
		for (size_t i = 0; i < 4; i++) {
			uint8_t a[HASHX_SIZE], b[HASHX_SIZE];

			ck_assert_int_eq(hashx_exec(reused, nonces[i], a),
					 HASHX_OK);
			ck_assert_int_eq(hashx_exec(fresh, nonces[i], b),
					 HASHX_OK);
			ck_assert_msg(memcmp(a, b, HASHX_SIZE) == 0,
				      "seed %u nonce %zu differs", s, i);
		}
		hashx_free(fresh);
	}
	/* 1529 = f9050000 is in the range */
	ck_assert_int_ge(fails, 1);
	hashx_free(reused);
}
END_TEST

/* Two contexts alive at once do not interfere. */
START_TEST(contexts_independent)
{
	tu_hashx_vector a, b;
	hashx_ctx *x = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_ctx *y = hashx_alloc(HASHX_TYPE_INTERPRETED);

	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	load("616263", &a);
	load("727272", &b);
	ck_assert_int_eq(hashx_make(x, a.seed, a.seed_len), HASHX_OK);
	ck_assert_int_eq(hashx_make(y, b.seed, b.seed_len), HASHX_OK);
	assert_outputs(x, &a);
	assert_outputs(y, &b);
	ck_assert_int_eq(hashx_make(y, bad_seed, sizeof bad_seed),
			 HASHX_FAIL_SEED);
	assert_outputs(x, &a);
	hashx_free(x);
	hashx_free(y);
}
END_TEST

/* The installed header's HASHX_SIZE is the configured one (32 unless
 * --with-hashx-size says otherwise), and exec writes exactly that many
 * bytes. */
START_TEST(output_size)
{
	tu_hashx_vector v;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t buf[HASHX_SIZE + 16];

	ck_assert_int_eq(HASHX_SIZE, CONFIGURED_HASHX_SIZE);
	ck_assert_ptr_nonnull(ctx);
	load("616263", &v);
	ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len), HASHX_OK);
	memset(buf, 0xa5, sizeof buf);
	ck_assert_int_eq(hashx_exec(ctx, v.nonce[0], buf), HASHX_OK);
	ck_assert_mem_eq(buf, v.hash[0], HASHX_SIZE);
	for (size_t i = HASHX_SIZE; i < sizeof buf; i++)
		ck_assert_msg(buf[i] == 0xa5, "byte %zu written", i);
	hashx_free(ctx);
}
END_TEST

int main(void)
{
	tu_skip_unless_reference_salt("test_api");

	Suite *s = suite_create("api");
	TCase *state = tcase_create("state");
	TCase *types = tcase_create("types");
	TCase *use = tcase_create("use");

	tcase_add_test(state, unprepared_before_make);
	tcase_add_test(state, free_null);
	tcase_add_test(state, empty_seed);
	tcase_add_test(state, null_seed_with_size);
	tcase_add_test(state, failed_make_unprepares);
	tcase_add_test(state, null_arguments);
	suite_add_tcase(s, state);

	tcase_add_test(types, compiled_type);
	tcase_add_test(types, try_compile_type);
	tcase_add_test(types, interpreted_type);
	tcase_add_test(types, undefined_type);
	suite_add_tcase(s, types);

	tcase_add_test(use, reuse_matches_fresh);
	tcase_add_test(use, contexts_independent);
	tcase_add_test(use, output_size);
	suite_add_tcase(s, use);
	return tu_run_suite(s);
}
