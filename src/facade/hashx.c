/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashx.c - the public HashX API, and the stage-0 entry Equi-X calls
 * (hashx_internal.h): the facade over the algorithm (src/hashx) and the
 * code generators (src/compiler), run as the context's plan says
 * (dispatch.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <hashx.h>

#include "block.h"
#include "context.h"
#include "generator.h"
#include "keys.h"
#include "run.h"

/* The library's own hashx_alloc and hashx_exec are the functions, not the
 * header's macros for clients. */
#undef hashx_alloc
#undef hashx_exec

hashx_ctx *hashx_alloc(hashx_type type)
{
	hashx_ctx *ctx;

	/* Lets libsodium pick its fastest BLAKE2b once per process; it is
	 * idempotent and thread-safe. A failure only leaves the portable
	 * BLAKE2b in place, which gives the same digests. */
	if (sodium_init() < 0) {
		/* nothing to undo */
	}
	ctx = calloc(1, sizeof *ctx);
	if (ctx == NULL)
		return NULL;
	ctx->ctx_type = type;
	ctx->impl = hashx_impl_default();
	hashx_stage0_reset(&ctx->stage0);
	return ctx;
}

hashx_ctx *hashx_alloc_block(hashx_type type)
{
	hashx_ctx *ctx = hashx_alloc(type);

	if (ctx != NULL)
		ctx->block_mode = true;
	return ctx;
}

const char *hashx_version_string(void)
{
	return PACKAGE_VERSION;
}

size_t hashx_output_size(void)
{
	return CONFIGURED_HASHX_SIZE;
}

const char *hashx_salt(void)
{
	return HASHX_SALT;
}

void hashx_free(hashx_ctx *ctx)
{
	if (ctx == NULL)
		return;
	hashx_code_buffer_release(&ctx->code);
	hashx_stage0_release(&ctx->stage0);
	free(ctx);
}

void hashx_rng_callback(hashx_ctx *ctx, void (*callback)(uint64_t *, void *),
			void *user_data)
{
	if (ctx == NULL)
		return;
	ctx->rng_observer = callback;
	ctx->rng_observer_data = user_data;
}

static int type_is_known(hashx_type t)
{
	return t == HASHX_TYPE_INTERPRETED || t == HASHX_TYPE_COMPILED ||
	       t == HASHX_TRY_COMPILE;
}

/* The new function in native code, as the context's mode runs it: the
 * whole hash (counter mode) or the program alone (block mode, whose input
 * expansion is not SipHash). False where it does not compile. */
static bool compile_function(hashx_ctx *ctx)
{
	if (ctx->block_mode)
		ctx->regfile = hashx_compile(&ctx->program, &ctx->code);
	else
		ctx->compiled = hashx_compile_hash(
			&ctx->program, &ctx->keys.input, &ctx->code);
	return ctx->compiled != NULL || ctx->regfile != NULL;
}

/* How the new function runs: its type, and the plan for it; `few` as in
 * make(). */
static void fix_plan(hashx_ctx *ctx, hashx_type type, bool few)
{
	ctx->func_type = type;
	ctx->plan = hashx_plan_for(ctx->impl, type == HASHX_TYPE_COMPILED);
#if HASHX_HAVE_PAIRED_INTERPRETER
	/* A verification's 8 hashes go through the lanes where its plan has
	 * them (hashx_exec8_u64), which do not use the paired form; any
	 * other hash of such a function runs threaded. */
	if (type == HASHX_TYPE_INTERPRETED)
		hashx_pairs_cache_reset(&ctx->pairs,
					!(few && ctx->plan.lanes8 != NULL));
#else
	(void)few;
#endif
}

/* hashx_make(), compiling only when `compile` is true; `few` when only a
 * few hashes follow (hashx_make_for_few). */
static hashx_result make(hashx_ctx *ctx, const void *seed, size_t size,
			 bool compile, bool few)
{
	if (ctx == NULL)
		return HASHX_FAIL_UNDEFINED;
	ctx->func_type = (hashx_type)0;
	hashx_stage0_reset(&ctx->stage0);
	if (seed == NULL && size != 0)
		return HASHX_FAIL_SEED;
	hashx_keys_from_seed(seed, size, &ctx->keys);
	if (!hashx_generate(&ctx->keys.program, ctx->rng_observer,
			    ctx->rng_observer_data, &ctx->program, NULL))
		return HASHX_FAIL_SEED;
	if (!type_is_known(ctx->ctx_type))
		return HASHX_FAIL_UNDEFINED;
	ctx->compiled = NULL;
	ctx->regfile = NULL;
	if (compile && ctx->ctx_type != HASHX_TYPE_INTERPRETED) {
		if (compile_function(ctx)) {
			fix_plan(ctx, HASHX_TYPE_COMPILED, few);
			return HASHX_OK;
		}
		/* No compiler here, or no executable memory: a context that
		 * requires native code fails, one that tries falls back. */
		if (ctx->ctx_type == HASHX_TYPE_COMPILED)
			return HASHX_FAIL_COMPILE;
	}
	fix_plan(ctx, HASHX_TYPE_INTERPRETED, few);
	return HASHX_OK;
}

hashx_result hashx_make(hashx_ctx *ctx, const void *seed, size_t size)
{
	return make(ctx, seed, size, true, false);
}

hashx_result hashx_make_for_few(hashx_ctx *ctx, const void *seed, size_t size)
{
	return make(ctx, seed, size,
		    ctx == NULL || ctx->ctx_type != HASHX_TRY_COMPILE, true);
}

hashx_result hashx_query_type(hashx_ctx *ctx, hashx_type *type_out)
{
	if (ctx == NULL || type_out == NULL || ctx->func_type == 0)
		return HASHX_FAIL_UNPREPARED;
	*type_out = ctx->func_type;
	return HASHX_OK;
}

static bool output_size_ok(size_t size)
{
	return size >= 1 && size <= 32;
}

hashx_result hashx_exec_sized(const hashx_ctx *ctx, uint64_t input,
			      void *output, size_t size)
{
	uint8_t hash[32];

	if (ctx == NULL || output == NULL || ctx->func_type == 0)
		return HASHX_FAIL_UNPREPARED;
	if (!output_size_ok(size))
		return HASHX_FAIL_UNDEFINED;
	/* The whole hash goes straight to a buffer that holds it. */
	if (size == 32) {
		hashx_run_counter(ctx, input, output);
		return HASHX_OK;
	}
	hashx_run_counter(ctx, input, hash);
	memcpy(output, hash, size);
	return HASHX_OK;
}

/* The symbol of earlier releases: their header fixed the size at the
 * configured one. */
hashx_result hashx_exec(const hashx_ctx *ctx, uint64_t input, void *output)
{
	return hashx_exec_sized(ctx, input, output, CONFIGURED_HASHX_SIZE);
}

/* Block mode's expansion and finalization are block.h's. */
hashx_result hashx_exec_block(const hashx_ctx *ctx, const void *input,
			      size_t input_size, void *output,
			      size_t output_size)
{
	uint64_t r[8];
	uint8_t hash[32];

	if (ctx == NULL || output == NULL || ctx->func_type == 0 ||
	    (input == NULL && input_size != 0))
		return HASHX_FAIL_UNPREPARED;
	if (!output_size_ok(output_size))
		return HASHX_FAIL_UNDEFINED;
	hashx_block_expand(&ctx->keys.input, input, input_size, r);
	hashx_run_program(ctx, r);
	hashx_block_finalize(&ctx->keys.input, r, hash);
	memcpy(output, hash, output_size);
	return HASHX_OK;
}

uint64_t hashx_exec_u64(const hashx_ctx *ctx, uint64_t input)
{
	uint8_t hash[32];

	return hashx_run_counter(ctx, input, hash);
}

void hashx_exec8_u64(const hashx_ctx *ctx, const uint64_t input[8],
		     uint64_t out[8])
{
	/* Which lanes, if any, and why: the plan (dispatch.c). */
	hashx_lanes8_fn *lanes = ctx->plan.lanes8;

	if (lanes != NULL) {
		uint64_t words[4][8];

		lanes(&ctx->program, &ctx->keys.input, input, words);
		memcpy(out, words[0], sizeof words[0]);
		return;
	}
	for (int i = 0; i < 8; i++)
		out[i] = hashx_exec_u64(ctx, input[i]);
}
