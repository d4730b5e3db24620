/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * context.h - what a hashx_ctx holds.
 */
#ifndef HASHX_CONTEXT_H
#define HASHX_CONTEXT_H

#include <stdbool.h>

#include <hashx.h>

#include "code_buffer.h"
#include "compiler.h"
#include "dispatch.h"
#include "hashx_internal.h"
#include "interpreter.h"
#include "keys.h"
#include "pairs_cache.h"
#include "program.h"
#include "rng.h"
#include "stage0.h"

struct hashx_ctx {
	hashx_type ctx_type;  /* as passed to hashx_alloc() */
	hashx_type func_type; /* how the current function runs; 0: none */
	hashx_keys keys;
	hashx_program program;
#if HASHX_HAVE_PAIRED_INTERPRETER
	/* program, pre-decoded by the first interpreted hash that needs it
	 * (pairs_cache.h) */
	hashx_pairs_cache pairs;
#endif
	hashx_rng_observer *rng_observer;
	void *rng_observer_data;
	hashx_code_buffer code;  /* reused by every hashx_make() */
	/* When func_type is COMPILED, exactly one of the two is set: the
	 * whole hash for a counter-mode context, the program alone (on the
	 * registers) for a block-mode one (hashx_alloc_block()), whose input
	 * expansion is not SipHash. */
	hashx_hash_fn *compiled;
	hashx_compiled_fn *regfile;
	bool block_mode; /* from hashx_alloc_block() */
	/* How many inputs at once are hashed (impl.h): from
	 * hashx_impl_default() at allocation; tests set it per context. */
	hashx_impl impl;
	/* Which stage-0 form and which 8-lane interpreter the current
	 * function runs with (dispatch.h): fixed by hashx_make() from impl
	 * and func_type, and again by hashx_ctx_set_impl(). */
	hashx_plan plan;
	/* What stage 0 compiled for the current function (stage0.h). */
	hashx_stage0_state stage0;
};

/*
 * The first 8 bytes of the hash of `input`, as a little-endian integer:
 * what Equi-X sums. For a prepared context only (not exported).
 */
uint64_t hashx_exec_u64(const hashx_ctx *ctx, uint64_t input);

/*
 * Test hook (test_hooks.c, in no installed library): makes this context
 * hash many inputs with `impl` (impl.h) from its next
 * hashx_exec_scatter() on. False, and nothing changes, when `impl` is not
 * available here.
 */
bool hashx_ctx_set_impl(hashx_ctx *ctx, hashx_impl impl);

/*
 * Test hook (test_hooks.c, in no installed library): makes this
 * context's executable-memory steps fail (HASHX_FAULT_* from
 * code_buffer.h, 0 for none) as on a system that refuses executable
 * memory. A buffer already mapped stays mapped.
 */
void hashx_ctx_inject_faults(hashx_ctx *ctx, unsigned faults);

#endif
