/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.c - the program of a context's current function on the registers
 * (run.h).
 */
#include <config.h>

#include <stdint.h>

#include "context.h"
#include "interpreter.h"
#include "pairs_cache.h"
#include "run.h"

void hashx_run_program(const hashx_ctx *ctx, uint64_t r[8])
{
#if HASHX_HAVE_PAIRED_INTERPRETER
	/* The context is never const itself (hashx_alloc made it); the
	 * paired form is a cache behind its const interface. */
	hashx_pairs_cache *cache = (hashx_pairs_cache *)&ctx->pairs;
	const hashx_pairs *pairs;
#endif

	if (ctx->regfile != NULL && ctx->func_type == HASHX_TYPE_COMPILED)
		ctx->regfile(r);
#if HASHX_HAVE_PAIRED_INTERPRETER
	else if (ctx->func_type == HASHX_TYPE_INTERPRETED &&
		 (pairs = hashx_pairs_cache_get(cache, &ctx->program)) != NULL)
		hashx_interpret_pairs(pairs, r);
#endif
	else
		hashx_interpret(&ctx->program, r);
}
