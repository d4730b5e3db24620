/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_size.c - a client compiled with its own HASHX_SIZE (the makefile
 * builds this file as test_size_1, _8, _31 and _32 against the one
 * default build of libhashx), as Tor is with 8. Each output lies between
 * canary bytes: hashx_exec() must write exactly HASHX_SIZE bytes, the
 * prefix of the reference's 32-byte hash, and nothing around them.
 */
#include <hashx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CANARY 0xcc
#define GUARD 24

typedef struct guarded {
	uint8_t before[GUARD];
	uint8_t out[32];
	uint8_t after[GUARD];
} guarded;

static void arm(guarded *g)
{
	memset(g, CANARY, sizeof *g);
}

/* Whether the bytes from out[n] on and all of `before` are untouched. */
static int untouched_beyond(const guarded *g, size_t n)
{
	for (size_t i = 0; i < GUARD; i++)
		if (g->before[i] != CANARY || g->after[i] != CANARY)
			return 0;
	for (size_t i = n; i < 32; i++)
		if (g->out[i] != CANARY)
			return 0;
	return 1;
}

/* What one vector line checks: the context, and the hashes checked. */
typedef struct size_run {
	hashx_ctx *ctx;
	int checked;
} size_run;

/* One vector line's hashes, each between canaries. */
static void check_vector(const tu_hashx_vector *v, void *user)
{
	size_run *run = user;

	if (hashx_make(run->ctx, v->seed, v->seed_len) != HASHX_OK) {
		ck_assert(!v->ok);
		return;
	}
	for (int k = 0; k < v->pairs; k++) {
		guarded g;

		arm(&g);
		ck_assert_int_eq(hashx_exec(run->ctx, v->nonce[k], g.out),
				 HASHX_OK);
		ck_assert_msg(untouched_beyond(&g, HASHX_SIZE),
			      "HASHX_SIZE %d: bytes written beyond the "
			      "client's buffer",
			      HASHX_SIZE);
		ck_assert_mem_eq(g.out, v->hash[k], HASHX_SIZE);
		run->checked++;
	}
}

/* Every vector of hashx-named.txt through a context of `type`. */
static void check_type(hashx_type type)
{
	size_run run = { hashx_alloc(type), 0 };

	ck_assert_ptr_nonnull(run.ctx);
	tu_hashx_vector_each("hashx-named.txt", check_vector, &run);
	ck_assert_int_gt(run.checked, 40);
	hashx_free(run.ctx);
}

START_TEST(interpreted)
{
	check_type(HASHX_TYPE_INTERPRETED);
}
END_TEST

START_TEST(try_compile)
{
	check_type(HASHX_TRY_COMPILE);
}
END_TEST

/* The exported hashx_exec symbol, as programs built against earlier
 * releases call it: exactly the configured size. */
START_TEST(old_symbol_writes_configured_size)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	size_t n = hashx_output_size();
	guarded g, full;

	ck_assert_uint_ge(n, 1);
	ck_assert_uint_le(n, 32);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_make(ctx, "size", 4), HASHX_OK);
	arm(&g);
	arm(&full);
	ck_assert_int_eq((hashx_exec)(ctx, 7, g.out), HASHX_OK);
	ck_assert_int_eq(hashx_exec_sized(ctx, 7, full.out, 32), HASHX_OK);
	ck_assert(untouched_beyond(&g, n));
	ck_assert_mem_eq(g.out, full.out, n);
	hashx_free(ctx);
}
END_TEST

/* Sizes outside 1..32 are refused and write nothing. */
START_TEST(bad_sizes_write_nothing)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	guarded g;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_make(ctx, "size", 4), HASHX_OK);
	arm(&g);
	ck_assert_int_eq(hashx_exec_sized(ctx, 7, g.out, 0),
			 HASHX_FAIL_UNDEFINED);
	ck_assert_int_eq(hashx_exec_sized(ctx, 7, g.out, 33),
			 HASHX_FAIL_UNDEFINED);
	ck_assert_int_eq(hashx_exec_sized(ctx, 7, g.out, (size_t)-1),
			 HASHX_FAIL_UNDEFINED);
	ck_assert(untouched_beyond(&g, 0));
	hashx_free(ctx);
}
END_TEST

/* The run-time query agrees with the header the client was built with. */
START_TEST(run_time_query)
{
	ck_assert_str_eq(hashx_version_string(), EQUIX_VERSION_STRING);
	ck_assert_str_eq(hashx_salt(), HASHX_SALT_BUILT);
	ck_assert_int_eq(strcmp(hashx_salt(), HASHX_SALT_STANDARD) == 0,
			 HASHX_SALT_IS_STANDARD);
}
END_TEST

int main(void)
{
	char name[32];

	snprintf(name, sizeof name, "test_size_%d", HASHX_SIZE);
	tu_skip_unless_reference_salt(name);

	Suite *s = suite_create(name);
	TCase *tc = tcase_create("size");

	tcase_add_test(tc, interpreted);
	tcase_add_test(tc, try_compile);
	tcase_add_test(tc, old_symbol_writes_configured_size);
	tcase_add_test(tc, bad_sizes_write_nothing);
	tcase_add_test(tc, run_time_query);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
