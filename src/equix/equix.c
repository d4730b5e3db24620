/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * equix.c - the public Equi-X API.
 */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>

#include <equix.h>

#include "hash_family.h"
#include "puzzle.h"
#include "solver.h"
#include "solver_memory.h"
#include "verifier.h"

struct equix_ctx {
	equix_ctx_flags flags;
	equix_hash hash; /* v1's HashX or v2's HashWX, fixed here */
	equix_solver_memory solver; /* heap NULL without EQUIX_CTX_SOLVE */
};

equix_ctx *equix_alloc(equix_ctx_flags flags)
{
	equix_ctx *ctx = calloc(1, sizeof *ctx);

	if (ctx == NULL)
		return NULL;
	ctx->flags = flags;
	if (!equix_hash_alloc(&ctx->hash, flags) ||
	    ((flags & EQUIX_CTX_SOLVE) &&
	     !equix_solver_memory_alloc(&ctx->solver,
					(flags & EQUIX_CTX_HUGEPAGES) != 0))) {
		equix_free(ctx);
		return NULL;
	}
	return ctx;
}

const char *equix_version_string(void)
{
	return PACKAGE_VERSION;
}

void equix_free(equix_ctx *ctx)
{
	if (ctx == NULL)
		return;
	if (ctx->solver.heap != NULL)
		equix_solver_memory_free(&ctx->solver);
	equix_hash_free(&ctx->hash);
	free(ctx);
}

equix_result equix_solve(equix_ctx *ctx, const void *challenge,
			 size_t challenge_size, equix_solutions_buffer *output)
{
	equix_result r;

	if (ctx == NULL || output == NULL)
		return EQUIX_FAIL_INTERNAL;
	if (!(ctx->flags & EQUIX_CTX_SOLVE))
		return EQUIX_FAIL_NO_SOLVER;
	r = equix_hash_make(&ctx->hash, challenge, challenge_size, false);
	if (r != EQUIX_OK)
		return r;
	output->flags = 0;
	if (equix_hash_compiled(&ctx->hash))
		output->flags |= EQUIX_SOLVER_DID_USE_COMPILER;
	output->count =
		equix_solver_solve(&ctx->hash, ctx->solver.heap, output->sols);
	return EQUIX_OK;
}

equix_result equix_verify(equix_ctx *ctx, const void *challenge,
			  size_t challenge_size, const equix_solution *solution)
{
	equix_result r;

	if (ctx == NULL || solution == NULL)
		return EQUIX_FAIL_INTERNAL;
	/* The order costs no hashing, so it is checked first. */
	if (!equix_solution_ordered(solution))
		return EQUIX_FAIL_ORDER;
	r = equix_hash_make(&ctx->hash, challenge, challenge_size, true);
	if (r != EQUIX_OK)
		return r;
	return equix_verify_sums(&ctx->hash, solution);
}

void equix_solution_pack(const equix_solution *solution,
			 uint8_t out[EQUIX_SOLUTION_BYTES])
{
	if (solution == NULL || out == NULL)
		return;
	for (int i = 0; i < EQUIX_NUM_IDX; i++) {
		out[2 * i] = (uint8_t)solution->idx[i];
		out[2 * i + 1] = (uint8_t)(solution->idx[i] >> 8);
	}
}

void equix_solution_unpack(const uint8_t in[EQUIX_SOLUTION_BYTES],
			   equix_solution *solution)
{
	if (in == NULL || solution == NULL)
		return;
	for (int i = 0; i < EQUIX_NUM_IDX; i++)
		solution->idx[i] = (equix_idx)(in[2 * i] | in[2 * i + 1] << 8);
}
