/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.h - how a context runs its current function on one input (run.c):
 * the program alone (block mode's hash, hashx.c) and the whole counter-mode
 * hash (hashx.c's, and stage0.c's one input at a time). The hash is
 * inline, so that stage 0's loop calls no function of the facade per
 * input (+0.4% of a portable solve in make bench-instructions when it
 * did).
 */
#ifndef HASHX_RUN_H
#define HASHX_RUN_H

#include <stdint.h>

#include <hashx.h>

#include "bytes.h"
#include "context.h"
#include "finalize.h"
#include "siphash.h"

/* The program on the registers: natively where this context compiled it
 * alone (block mode), else interpreted: from the paired form where one is
 * usable, else from the program itself (a compiled counter-mode function
 * asked for a block hash, or a verification's). Out of line (run.c): the
 * compiled path below then saves no registers for it. */
void hashx_run_program(const hashx_ctx *ctx, uint64_t r[8]);

/* The whole 32-byte hash of a counter-mode input; returns its first 8
 * bytes as a little-endian integer. */
static inline uint64_t hashx_run_counter(const hashx_ctx *ctx, uint64_t input,
					 uint8_t out[32])
{
	uint64_t r[8];

	if (ctx->compiled != NULL && ctx->func_type == HASHX_TYPE_COMPILED)
		return ctx->compiled(input, out);
	hashx_siphash24_ctr_state512(&ctx->keys.input, input, r);
	hashx_run_program(ctx, r);
	hashx_finalize(&ctx->keys.input, r, out);
	return hashx_load64_le(out);
}

#endif
