/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stage0.c - Equi-X's stage 0 in a context (hashx_exec_scatter,
 * hashx_internal.h): the plan's form first, each that does not compile
 * for the table falling back to the next, down to one hash at a time.
 * What is compiled is kept as stage0.h says.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include "batch_backend.h"
#include "compiler.h"
#include "context.h"
#include "run.h"
#include "stage0.h"

/* Inputs per call of the batch function (rounded down to whole groups):
 * small enough that the 8 KiB of hashes stay in the L1 cache until
 * bucketed. */
#define BATCH_CHUNK 256

/* Stage 0 one hash at a time. The table's descriptor is copied first:
 * the hash is a call the compiler cannot see through, and a copy whose
 * address does not escape lets it keep the widths, and the mask made from
 * them, out of the loop (the table's own would be read again per input,
 * +0.7% of a portable solve in make bench-instructions). */
static void scatter_each(const hashx_ctx *ctx, uint64_t first, size_t n,
			 const hashx_scatter *table)
{
	const hashx_scatter t = *table;
	uint8_t hash[32];

	for (size_t k = 0; k < n; k++)
		hashx_scatter_put(&t, first + k,
				  hashx_run_counter(ctx, first + k, hash));
}

/* The batch function's output goes to the table straight from its
 * layout: each group's first `lanes` words are word 0 of its hashes. */
static void scatter_batches(const hashx_batch *b, uint64_t first, size_t n,
			    const hashx_scatter *t)
{
	uint64_t words[4 * BATCH_CHUNK];
	size_t chunk = BATCH_CHUNK / b->lanes * b->lanes;

	for (size_t done = 0; done < n; done += chunk) {
		size_t todo = n - done < chunk ? n - done : chunk;
		size_t groups = (todo + b->lanes - 1) / b->lanes;
		uint64_t input = first + done;

		b->fn(input, groups, words);
		for (size_t g = 0; g < groups; g++) {
			const uint64_t *v = &words[g * 4 * b->lanes];
			size_t lanes = todo - g * b->lanes < b->lanes
					       ? todo - g * b->lanes
					       : b->lanes;

			for (size_t l = 0; l < lanes; l++)
				hashx_scatter_put(t, input++, v[l]);
		}
	}
}

/* Records what the buffer now holds: `form` when `compiled`, else
 * nothing. Returns `compiled`. */
static bool hold(hashx_stage0_state *s, hashx_stage0 form, bool compiled)
{
	s->held = compiled ? form : HASHX_STAGE0_ONE_BY_ONE;
	return compiled;
}

/*
 * Stage 0 through the fused form where the implementation's back-end has
 * one: whole groups in its loop, the last inputs (fewer than a group)
 * hashed one by one after them, so that items still enter in input
 * order. The form is built for table `t` (its addresses are in the
 * code). False when it does not compile (the caller falls back).
 */
static bool scatter_fused(hashx_ctx *ctx, uint64_t first, size_t n,
			  const hashx_scatter *t)
{
	hashx_stage0_state *s = &ctx->stage0;
	hashx_batch_scatter f;
	size_t whole;

	if (!hold(s, HASHX_STAGE0_FUSED,
		  hashx_compile_batch_scatter(&ctx->program, &ctx->keys.input,
					      hashx_impl_backend(ctx->impl), t,
					      &s->code, &f)))
		return false;
	whole = n / f.lanes;
	if (whole > 0)
		f.fn(first, whole);
	scatter_each(ctx, first + whole * f.lanes, n - whole * f.lanes, t);
	return true;
}

/* Stage 0 in the batch form, compiled on the function's first stage 0;
 * false when it does not compile. */
static bool scatter_batch(hashx_ctx *ctx, uint64_t first, size_t n,
			  const hashx_scatter *t)
{
	hashx_stage0_state *s = &ctx->stage0;

	if (s->held != HASHX_STAGE0_BATCH &&
	    !hold(s, HASHX_STAGE0_BATCH,
		  hashx_compile_batch(&ctx->program, &ctx->keys.input,
				      hashx_impl_backend(ctx->impl), &s->code,
				      &s->batch)))
		return false;
	scatter_batches(&s->batch, first, n, t);
	return true;
}

/* Stage 0 in the scalar JIT's scatter form; false when it does not
 * compile (no such back-end here, or it refuses the table's widths). */
static bool scatter_compiled(hashx_ctx *ctx, uint64_t first, size_t n,
			     const hashx_scatter *t)
{
	hashx_stage0_state *s = &ctx->stage0;
	hashx_scatter_fn *fn = hashx_compile_scatter(
		&ctx->program, &ctx->keys.input, t, &s->code);

	if (!hold(s, HASHX_STAGE0_SCATTER, fn != NULL))
		return false;
	fn(first, n);
	return true;
}

void hashx_exec_scatter(hashx_ctx *ctx, uint64_t first, size_t n,
			const hashx_scatter *t)
{
	switch (ctx->plan.stage0) {
	case HASHX_STAGE0_FUSED:
		if (scatter_fused(ctx, first, n, t))
			return;
		/* fall through */
	case HASHX_STAGE0_BATCH:
		if (scatter_batch(ctx, first, n, t))
			return;
		/* fall through */
	case HASHX_STAGE0_SCATTER:
		if (scatter_compiled(ctx, first, n, t))
			return;
		/* fall through */
	case HASHX_STAGE0_ONE_BY_ONE:
		break;
	}
	scatter_each(ctx, first, n, t);
}
