/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_context.h - what a hashwx_ctx holds; Equi-X v2 (src/equix)
 * reads it to run the function without the call through hashwx_exec().
 */
#ifndef HASHWX_CONTEXT_H
#define HASHWX_CONTEXT_H

#include <stddef.h>

#include <hashwx.h>

#include "code_buffer.h"
#include "hashwx_compiler.h"
#include "hashwx_interpreter.h"

struct hashwx_ctx {
	hashwx_type ctx_type; /* as passed to hashwx_alloc() */
	hashwx_instance inst; /* the current function */
	/* The current function in native code, or NULL: it runs
	 * interpreted (an interpreted context, or a compiled one whose
	 * code the system refused). */
	hashwx_hash_fn *compiled;
	hashx_code_buffer code; /* reused by every hashwx_make() */
};

/* The hash of `input`, for a context that is not NULL. */
static inline uint64_t hashwx_ctx_exec(const hashwx_ctx *ctx, uint64_t input)
{
	if (ctx->compiled != NULL)
		return ctx->compiled(input);
	return hashwx_interpret(&ctx->inst, input);
}

/* The hashes of first, first + 1, ..., first + n - 1 into out[]: the
 * solver's stage 0 and the verifier's eight hashes. The one entry point
 * for many hashes, so a faster form (interleaved or vector lanes) is
 * chosen here and nowhere else. */
void hashwx_ctx_exec_batch(const hashwx_ctx *ctx, uint64_t first, size_t n,
			   uint64_t *out);

#endif
