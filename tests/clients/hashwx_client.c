/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/* A client written for tevador's hashwx.h, in the shape of his README's
 * example: a compiled context where the library has one, else the
 * interpreter; one function from a text seed; one hash, printed.
 * tests/installcheck.sh builds it with `pkg-config --cflags --libs
 * libhashwx` alone and checks the hash against his library's. Nothing
 * here is specific to this implementation. */
#include <hashwx.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
	uint8_t seed[HASHWX_SEED_SIZE] = "a seed makes one hash function";
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_COMPILED);
	if (ctx == HASHWX_NOTSUPP)
		ctx = hashwx_alloc(HASHWX_INTERPRETED);
	if (ctx == NULL)
		return 1;
	hashwx_make(ctx, seed);
	uint64_t hash = hashwx_exec(ctx, 123456789);
	hashwx_free(ctx);
	printf("%016" PRIx64 "\n", hash);
	return 0;
}
