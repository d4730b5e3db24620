/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_hashx_paths.c - libFuzzer harness, differential: a seed (all but
 * the last 8 bytes) and an input (the last 8, little-endian) through every
 * HashX path this machine has: the interpreter, the scalar JIT, each
 * batch JIT (all lanes of a group) and each 8-lane interpreter. Any
 * difference aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hashx.h>

#include "batch.h"
#include "bytes.h"
#include "context.h"
#include "interpreter_lanes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hashx_ctx *interp, *jit;
static hashx_code_buffer batch_code;

static void check_batch(hashx_impl impl, uint64_t input)
{
	uint64_t out[4 * HASHX_BATCH_MAX_LANES];
	hashx_batch b;

	if (!hashx_impl_available(impl) || !hashx_impl_batches(impl))
		return;
	if (!hashx_compile_batch(&jit->program, &jit->keys.input,
				 hashx_impl_backend(impl), &batch_code, &b))
		abort();
	b.fn(input, 1, out);
	for (unsigned l = 0; l < b.lanes; l++) {
		uint8_t want[32];

		hashx_exec(interp, input + l, want);
		for (unsigned j = 0; j < 4; j++)
			if (out[j * b.lanes + l] !=
			    hashx_load64_le(want + 8 * j))
				abort();
	}
}

static void check_lanes(uint64_t input)
{
#if HASHX_HAVE_LANES
	uint64_t in[8], out[4][8];

	for (int l = 0; l < 8; l++)
		in[l] = input * (uint64_t)(l + 1);
	for (int k = 0; k < HASHX_LANES_IMPL_COUNT; k++) {
		const hashx_lanes_impl *lanes = &hashx_lanes_impls[k];

		if (!lanes->available())
			continue;
		lanes->hash(&interp->program, &interp->keys.input, in, out);
		for (int l = 0; l < 8; l++) {
			uint8_t want[32];

			hashx_exec(interp, in[l], want);
			for (int j = 0; j < 4; j++)
				if (out[j][l] !=
				    hashx_load64_le(want + 8 * j))
					abort();
		}
	}
#else
	(void)input;
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t a[32], b[32];
	uint64_t input;
	hashx_result r;

	if (interp == NULL) {
		interp = hashx_alloc(HASHX_TYPE_INTERPRETED);
		jit = hashx_alloc(HASHX_TRY_COMPILE);
		if (interp == NULL || jit == NULL)
			abort();
	}
	if (size < 8)
		return 0;
	input = hashx_load64_le(data + size - 8);
	r = hashx_make(interp, data, size - 8);
	if (hashx_make(jit, data, size - 8) != r)
		abort();
	if (r != HASHX_OK)
		return 0;
	hashx_exec(interp, input, a);
	hashx_exec(jit, input, b);
	if (memcmp(a, b, sizeof a) != 0)
		abort();
	for (int k = 0; k < HASHX_IMPL_COUNT; k++)
		check_batch((hashx_impl)k, input);
	check_lanes(input);
	return 0;
}
