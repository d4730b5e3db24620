/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_hashwx_paths.c - libFuzzer harness, differential: a 32-byte seed
 * (the input's first 32 bytes, zero-padded) and a nonce (the next 8,
 * little-endian) through every HashWX path this machine has: the portable
 * interpreter on the instance, an interpreted context, a compiled one
 * (where this build has a HashWX compiler) and the batch entry point
 * (hashwx_ctx_exec_batch, whichever form it picks) on 16 consecutive
 * nonces. Any difference aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hashwx.h>

#include "bytes.h"
#include "hashwx_context.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BATCH 16

static hashwx_ctx *interp, *jit;

static void setup(void)
{
	interp = hashwx_alloc(HASHWX_INTERPRETED);
	jit = hashwx_alloc(HASHWX_COMPILED);
	if (interp == NULL || interp == HASHWX_NOTSUPP || jit == NULL)
		abort();
	if (jit == HASHWX_NOTSUPP)
		jit = NULL;
}

/* Every path against the instance's portable interpreter. */
static void check(const hashwx_ctx *ctx, uint64_t nonce)
{
	uint64_t batch[BATCH];

	hashwx_ctx_exec_batch(ctx, nonce, BATCH, batch);
	for (unsigned i = 0; i < BATCH; i++) {
		uint64_t want = hashwx_interpret(&interp->inst, nonce + i);

		if (hashwx_exec(ctx, nonce + i) != want || batch[i] != want)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t seed[HASHWX_SEED_SIZE] = { 0 }, tail[8] = { 0 };
	size_t n = size < sizeof seed ? size : sizeof seed;
	uint64_t nonce;

	if (interp == NULL)
		setup();
	memcpy(seed, data, n);
	if (size > sizeof seed)
		memcpy(tail, data + sizeof seed,
		       size - sizeof seed < 8 ? size - sizeof seed : 8);
	nonce = hashx_load64_le(tail);
	hashwx_make(interp, seed);
	check(interp, nonce);
	if (jit != NULL) {
		hashwx_make(jit, seed);
		check(jit, nonce);
	}
	return 0;
}
