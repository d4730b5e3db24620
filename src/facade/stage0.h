/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stage0.h - what a context keeps for Equi-X's stage 0
 * (hashx_exec_scatter, stage0.c): the code it compiled for the current
 * function, as one type.
 */
#ifndef HASHX_STAGE0_H
#define HASHX_STAGE0_H

#include "batch.h"
#include "code_buffer.h"
#include "dispatch.h"

/*
 * Stage 0's compiled code. One buffer holds at most one form at a time,
 * and `held` says which, for the context's current function and
 * implementation:
 *  - HASHX_STAGE0_BATCH: the batch form, `batch`. It does not depend on
 *    the table, so later calls run it again without compiling.
 *  - HASHX_STAGE0_FUSED, HASHX_STAGE0_SCATTER: the fused batch form or
 *    the scalar JIT's scatter form, built for the last call's table (its
 *    addresses are in the code), and built again by every call.
 *  - HASHX_STAGE0_ONE_BY_ONE: nothing to run; what the buffer holds, if
 *    anything, is stale.
 * Invariant: `batch` is read only when `held` is HASHX_STAGE0_BATCH, and
 * whatever changes the function or the implementation calls
 * hashx_stage0_reset() (hashx_make(), hashx_ctx_set_impl()).
 */
typedef struct hashx_stage0_state {
	hashx_code_buffer code; /* mapped on first use, reused after */
	hashx_stage0 held;
	hashx_batch batch;
} hashx_stage0_state;

/* Forgets what the buffer holds (it stays mapped for the next form). */
static inline void hashx_stage0_reset(hashx_stage0_state *s)
{
	s->held = HASHX_STAGE0_ONE_BY_ONE;
}

/* Unmaps the buffer; the state is as after hashx_stage0_reset(). */
static inline void hashx_stage0_release(hashx_stage0_state *s)
{
	hashx_code_buffer_release(&s->code);
	hashx_stage0_reset(s);
}

#endif
