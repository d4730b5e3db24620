/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx.c - HashWX's public API (hashwx.h) over the algorithm
 * (src/hashwx) and its compilers (src/compiler/hashwx_compiler.h).
 */
#include <stdatomic.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <hashwx.h>

#include "bytes.h"
#include "dispatch.h"
#include "hashwx_context.h"
#include "hashwx_generator.h"

const hashwx_lanes_impl hashwx_lanes_impls[HASHWX_LANES_IMPL_COUNT + 1] = {
#if HASHWX_HAVE_LANES
	/* beats_jit: not yet measured against a HashWX JIT (none in this
	 * build); against the reference's compiled form, see
	 * doc/performance.md */
	{"avx512", hashx_cpu_has_avx512, hashwx_lanes8_avx512, false},
#endif
	{NULL, NULL, NULL, false},
};

/* HASHWX_IMPL, read once: -1 none, HASHWX_LANES_IMPL_COUNT for "scalar"
 * (no lanes), else the forced row. */
static int forced_row(void)
{
	static atomic_int cached = -2;
	int f = atomic_load_explicit(&cached, memory_order_acquire);

	if (f == -2) {
		const char *name = getenv("HASHWX_IMPL");

		f = -1;
		if (name != NULL && strcmp(name, "scalar") == 0)
			f = HASHWX_LANES_IMPL_COUNT;
		for (int k = 0; name != NULL && k < HASHWX_LANES_IMPL_COUNT;
		     k++)
			if (strcmp(name, hashwx_lanes_impls[k].name) == 0)
				f = k;
		atomic_store_explicit(&cached, f, memory_order_release);
	}
	return f;
}

/* The lanes for a function compiled or not: hashwx_lanes_impls' rule. */
static hashwx_lanes8_fn *lanes_for(bool compiled)
{
	int forced = forced_row();

	if (forced == HASHWX_LANES_IMPL_COUNT)
		return NULL;
	/* forced < COUNT always holds here; said so that a build without
	 * lanes (COUNT 0) does not index past its one NULL row
	 * (-Warray-bounds, aarch64) */
	if (forced >= 0 && forced < HASHWX_LANES_IMPL_COUNT)
		return hashwx_lanes_impls[forced].available()
			       ? hashwx_lanes_impls[forced].hash
			       : NULL;
	for (int k = 0; k < HASHWX_LANES_IMPL_COUNT; k++) {
		const hashwx_lanes_impl *l = &hashwx_lanes_impls[k];

		if ((!compiled || l->beats_jit) && l->available())
			return l->hash;
	}
	return NULL;
}

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
	ctx->lanes8 = lanes_for(ctx->compiled != NULL);
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
	size_t i = 0;

	/* Groups of 8 lanes, two at a time while they last (their chains
	 * interleave), then one; a tail shorter than 8 one by one. */
	while (ctx->lanes8 != NULL && n - i >= HASHWX_LANES) {
		uint64_t nonce[HASHWX_LANES * HASHWX_LANES_GROUPS];
		size_t groups = (n - i) / HASHWX_LANES;

		if (groups > HASHWX_LANES_GROUPS)
			groups = HASHWX_LANES_GROUPS;
		for (unsigned l = 0; l < HASHWX_LANES * groups; l++)
			nonce[l] = first + i + l;
		ctx->lanes8(&ctx->inst, nonce, (unsigned)groups, out + i);
		i += HASHWX_LANES * groups;
	}
	for (; i < n; i++)
		out[i] = hashwx_ctx_exec(ctx, first + i);
}

void hashwx_ctx_exec8(const hashwx_ctx *ctx, const uint64_t nonce[8],
		      uint64_t out[8])
{
	static_assert(HASHWX_LANES == 8, "a verification is one group");
	if (ctx->lanes8 != NULL) {
		ctx->lanes8(&ctx->inst, nonce, 1, out);
		return;
	}
	for (unsigned i = 0; i < 8; i++)
		out[i] = hashwx_ctx_exec(ctx, nonce[i]);
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
