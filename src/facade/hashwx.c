/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx.c - HashWX's public API (hashwx.h) over the algorithm
 * (src/hashwx) and its compilers (src/compiler/hashwx_compiler.h).
 */
#include <stdlib.h>

#include <hashwx.h>

#include "bytes.h"
#include "hashwx_context.h"
#include "hashwx_generator.h"

hashwx_ctx *hashwx_alloc(hashwx_type type)
{
	static const uint8_t zero_seed[HASHWX_SEED_SIZE];
	hashwx_ctx *ctx;

	if (type != HASHWX_INTERPRETED && type != HASHWX_COMPILED)
		return HASHWX_NOTSUPP;
	if (type == HASHWX_COMPILED && !hashwx_compiler_available())
		return HASHWX_NOTSUPP;
	ctx = calloc(1, sizeof *ctx);
	if (ctx == NULL)
		return NULL;
	ctx->ctx_type = type;
	hashwx_make(ctx, zero_seed);
	return ctx;
}

/* The seed's two halves: the generator key, then the hash key. */
static hashwx_sip_key key_at(const uint8_t *p)
{
	hashwx_sip_key k = { hashx_load64_le(p), hashx_load64_le(p + 8) };

	return k;
}

void hashwx_make(hashwx_ctx *ctx, const uint8_t seed[HASHWX_SEED_SIZE])
{
	hashwx_sip_key generator_key;

	if (ctx == NULL || ctx == HASHWX_NOTSUPP || seed == NULL)
		return;
	generator_key = key_at(seed);
	ctx->inst.hash_key = key_at(seed + 16);
	hashwx_generate(&generator_key, ctx->inst.programs);
	ctx->compiled = NULL;
	if (ctx->ctx_type == HASHWX_COMPILED)
		ctx->compiled = hashwx_compile(&ctx->inst, &ctx->code);
}

uint64_t hashwx_exec(const hashwx_ctx *ctx, uint64_t input)
{
	if (ctx == NULL || ctx == HASHWX_NOTSUPP)
		return 0;
	return hashwx_ctx_exec(ctx, input);
}

void hashwx_ctx_exec_batch(const hashwx_ctx *ctx, uint64_t first, size_t n,
			   uint64_t *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = hashwx_ctx_exec(ctx, first + i);
}

int hashwx_query_type(const hashwx_ctx *ctx, hashwx_type *type_out)
{
	if (ctx == NULL || ctx == HASHWX_NOTSUPP || type_out == NULL)
		return -1;
	*type_out = ctx->compiled != NULL ? HASHWX_COMPILED
					  : HASHWX_INTERPRETED;
	return 0;
}

void hashwx_free(hashwx_ctx *ctx)
{
	if (ctx == NULL || ctx == HASHWX_NOTSUPP)
		return;
	hashx_code_buffer_release(&ctx->code);
	free(ctx);
}
