/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_block.c - HashX block mode as a reference client uses it: this file
 * defines HASHX_BLOCK_MODE before including hashx.h, and hashes the byte
 * strings of the reference's block-mode vectors (hashx-block.txt) through
 * the interpreter and the compiled form, comparing all 32 bytes. It also
 * crosses the modes: a counter-mode context hashing blocks, a block-mode
 * context hashing counters (against hashx-named.txt).
 */
#define HASHX_BLOCK_MODE
#include <hashx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The longest input of the vectors is 4096 bytes. */
#define MAX_INPUT 8192
#define MAX_SEED 64

typedef struct block_vector {
	uint8_t seed[MAX_SEED];
	size_t seed_len;
	int pairs;
	uint8_t input[4][MAX_INPUT];
	size_t input_len[4];
	uint8_t hash[4][32];
} block_vector;

/* Decodes "hashx-block SEED ok IN:HASH IN:HASH IN:HASH IN:HASH". */
static int parse_line(char *line, block_vector *v)
{
	char *save, *tok;
	long n;

	tok = strtok_r(line, " \n", &save);
	if (tok == NULL || strcmp(tok, "hashx-block") != 0)
		return -1;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL || (n = tu_hex_decode(tok, v->seed, MAX_SEED)) < 0)
		return -1;
	v->seed_len = (size_t)n;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL || strcmp(tok, "ok") != 0)
		return -1;
	v->pairs = 0;
	while ((tok = strtok_r(NULL, " \n", &save)) != NULL) {
		char *colon = strchr(tok, ':');

		if (colon == NULL || v->pairs == 4)
			return -1;
		*colon = '\0';
		n = tu_hex_decode(tok, v->input[v->pairs], MAX_INPUT);
		if (n < 0 || tu_hex_decode(colon + 1, v->hash[v->pairs], 32) !=
				     32)
			return -1;
		v->input_len[v->pairs++] = (size_t)n;
	}
	return v->pairs == 4 ? 0 : -1;
}

/* The first `limit` lines of the vectors (0: all) through `ctx`, with
 * hashx_exec() as block mode's header defines it; with want_type non-zero,
 * each made function must also report that type. Returns the number of
 * lines. */
static int check_vectors(hashx_ctx *ctx, hashx_type want_type, int limit)
{
	FILE *f = tu_open_vector("hashx-block.txt");
	block_vector *v = malloc(sizeof *v);
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(v);
	while ((limit == 0 || lines < limit) && getline(&line, &cap, f) > 0) {
		hashx_type type;

		ck_assert_int_eq(parse_line(line, v), 0);
		ck_assert_int_eq(hashx_make(ctx, v->seed, v->seed_len),
				 HASHX_OK);
		if (want_type != 0) {
			ck_assert_int_eq(hashx_query_type(ctx, &type),
					 HASHX_OK);
			ck_assert_int_eq(type, want_type);
		}
		for (int k = 0; k < v->pairs; k++) {
			uint8_t got[32];

			ck_assert_int_eq(hashx_exec(ctx, v->input[k],
						    v->input_len[k], got),
					 HASHX_OK);
			if (memcmp(got, v->hash[k], 32) != 0) {
				char hex[65];

				tu_hex_encode(got, 32, hex);
				ck_abort_msg("line %d input %d (%zu bytes): "
					     "got %s",
					     lines + 1, k, v->input_len[k],
					     hex);
			}
		}
		lines++;
	}
	free(line);
	free(v);
	fclose(f);
	return lines;
}

START_TEST(interpreted)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(check_vectors(ctx, HASHX_TYPE_INTERPRETED, 0), 200);
	hashx_free(ctx);
}
END_TEST

/* Where this build or system cannot compile, the program says so and the
 * test is not run (main). */
START_TEST(compiled)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(check_vectors(ctx, HASHX_TYPE_COMPILED, 0), 200);
	hashx_free(ctx);
}
END_TEST

/* A counter-mode context (the library's hashx_alloc, not the header's
 * block-mode macro) hashes blocks too, with its program interpreted. */
START_TEST(counter_context_hashes_blocks)
{
	hashx_ctx *ctx = (hashx_alloc)(HASHX_TRY_COMPILE);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(check_vectors(ctx, 0, 50), 50);
	hashx_free(ctx);
}
END_TEST

/* A block-mode context and the counter-mode hashes checked on it. */
typedef struct counter_run {
	hashx_ctx *ctx;
	int checked;
} counter_run;

/* One counter-mode vector line through the run's context. */
static void check_counter_vector(const tu_hashx_vector *v, void *user)
{
	counter_run *run = user;
	hashx_ctx *ctx = run->ctx;

	if (!v->ok) {
		ck_assert_int_eq(hashx_make(ctx, v->seed, v->seed_len),
				 HASHX_FAIL_SEED);
		return;
	}
	ck_assert_int_eq(hashx_make(ctx, v->seed, v->seed_len), HASHX_OK);
	for (int k = 0; k < v->pairs; k++) {
		uint8_t got[32];

		ck_assert_int_eq(hashx_exec_sized(ctx, v->nonce[k], got, 32),
				 HASHX_OK);
		ck_assert_mem_eq(got, v->hash[k], 32);
		run->checked++;
	}
}

/* A block-mode context, compiled where possible, hashes counters with the
 * reference's counter-mode outputs. */
START_TEST(block_context_hashes_counters)
{
	counter_run run = { hashx_alloc(HASHX_TRY_COMPILE), 0 };

	ck_assert_ptr_nonnull(run.ctx);
	tu_hashx_vector_each("hashx-named.txt", check_counter_vector, &run);
	ck_assert_int_gt(run.checked, 40);
	hashx_free(run.ctx);
}
END_TEST

/* Short outputs are prefixes; bad sizes and NULL inputs have defined
 * results and write nothing. */
START_TEST(sizes_and_bad_arguments)
{
	static const uint8_t seed[] = "block seed";
	static const uint8_t msg[] = "a message";
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t full[32], part[40];

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_exec_block(ctx, msg, 9, full, 32),
			 HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_make(ctx, seed, sizeof seed), HASHX_OK);
	ck_assert_int_eq(hashx_exec_block(ctx, msg, 9, full, 32), HASHX_OK);
	for (size_t n = 1; n <= 32; n++) {
		memset(part, 0xa5, sizeof part);
		ck_assert_int_eq(hashx_exec_block(ctx, msg, 9, part, n),
				 HASHX_OK);
		ck_assert_mem_eq(part, full, n);
		for (size_t i = n; i < sizeof part; i++)
			ck_assert_uint_eq(part[i], 0xa5);
	}
	memset(part, 0xa5, sizeof part);
	ck_assert_int_eq(hashx_exec_block(ctx, msg, 9, part, 0),
			 HASHX_FAIL_UNDEFINED);
	ck_assert_int_eq(hashx_exec_block(ctx, msg, 9, part, 33),
			 HASHX_FAIL_UNDEFINED);
	ck_assert_int_eq(hashx_exec_block(ctx, NULL, 1, part, 32),
			 HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_exec_block(ctx, msg, 9, NULL, 32),
			 HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_exec_block(NULL, msg, 9, part, 32),
			 HASHX_FAIL_UNPREPARED);
	for (size_t i = 0; i < sizeof part; i++)
		ck_assert_uint_eq(part[i], 0xa5);
	/* The empty input may be NULL. */
	ck_assert_int_eq(hashx_exec_block(ctx, NULL, 0, full, 32), HASHX_OK);
	ck_assert_int_eq(hashx_exec_block(ctx, msg, 0, part, 32), HASHX_OK);
	ck_assert_mem_eq(part, full, 32);
	hashx_free(ctx);
}
END_TEST

/* Whether this build and system give compiled block-mode contexts. */
static int can_compile(void)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	int ok = ctx != NULL && hashx_make(ctx, "x", 1) == HASHX_OK;

	hashx_free(ctx);
	return ok;
}

int main(void)
{
	tu_skip_unless_reference_salt("test_block");

	Suite *s = suite_create("hashx-block");
	TCase *tc = tcase_create("block");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, interpreted);
	if (can_compile())
		tcase_add_test(tc, compiled);
	else
		printf("SKIP: compiled (no HashX compiler or no executable "
		       "memory here)\n");
	tcase_add_test(tc, counter_context_hashes_blocks);
	tcase_add_test(tc, block_context_hashes_counters);
	tcase_add_test(tc, sizes_and_bad_arguments);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
