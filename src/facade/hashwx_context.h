/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_context.h - what a hashwx_ctx holds; Equi-X v2 (src/equix)
 * reads it to run the function without the call through hashwx_exec().
 */
#ifndef HASHWX_CONTEXT_H
#define HASHWX_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <hashwx.h>

#include "code_buffer.h"
#include "hashwx_compiler.h"
#include "hashwx_interpreter.h"
#include "hashwx_lanes.h"

struct hashwx_ctx {
	hashwx_type ctx_type; /* as passed to hashwx_alloc() */
	hashwx_instance inst; /* the current function */
	/* The current function in native code, or NULL: it runs
	 * interpreted (an interpreted context, or a compiled one whose
	 * code the system refused). */
	hashwx_hash_fn *compiled;
	hashx_code_buffer code; /* reused by every hashwx_make() */
	/* The 8-lane form hashwx_ctx_exec_batch runs groups of 8 nonces
	 * in, or NULL for one at a time: hashwx_make() sets it from
	 * hashwx_lanes_impls (a test may set it to any row's). */
	hashwx_lanes8_fn *lanes8;
};

/*
 * The 8-lane forms, best first, one row each: the rule that picks one is
 * this data, and hashwx.c's lanes_for() only reads it. A context takes
 * the first row the CPU runs, if its function is interpreted, or if it
 * is compiled and the row was measured faster than the scalar JIT
 * (doc/performance.md, "HashWX lanes"). HASHWX_IMPL=scalar forces one
 * hash at a time, HASHWX_IMPL=<row name> that row where it runs.
 */
typedef struct hashwx_lanes_impl {
	const char *name;
	bool (*available)(void); /* this CPU and OS run `hash` */
	hashwx_lanes8_fn *hash;
	bool beats_jit; /* faster than the scalar JIT, measured */
} hashwx_lanes_impl;

#if HASHWX_HAVE_LANES
#define HASHWX_LANES_IMPL_COUNT 1
#else
#define HASHWX_LANES_IMPL_COUNT 0
#endif
extern const hashwx_lanes_impl
	hashwx_lanes_impls[HASHWX_LANES_IMPL_COUNT + 1]; /* + a NULL row */

/* The hash of `input`, for a context that is not NULL. */
static inline uint64_t hashwx_ctx_exec(const hashwx_ctx *ctx, uint64_t input)
{
	if (ctx->compiled != NULL)
		return ctx->compiled(input);
	return hashwx_interpret(&ctx->inst, input);
}

/* The hashes of first, first + 1, ..., first + n - 1 into out[]: the
 * solver's stage 0. With hashwx_ctx_exec8, the entry points for many
 * hashes, so a faster form (vector lanes) is chosen here and nowhere
 * else. */
void hashwx_ctx_exec_batch(const hashwx_ctx *ctx, uint64_t first, size_t n,
			   uint64_t *out);

/* The hashes of 8 nonces in any order into out[]: a verification's
 * eight, in one group of lanes where the context has them. */
void hashwx_ctx_exec8(const hashwx_ctx *ctx, const uint64_t nonce[8],
		      uint64_t out[8]);

#endif
