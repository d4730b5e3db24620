/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashx_internal.h - what other parts of this tree (Equi-X) may call in
 * HashX beyond hashx.h: not exported, and without the context's insides
 * (context.h), so that a change there does not reach Equi-X.
 */
#ifndef HASHX_INTERNAL_H
#define HASHX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <hashx.h>

/* Equi-X's stage 0 table: its layout and rule (scatter.h); its widths are
 * Equi-X's own (solver.h), handed over in the table. */
#include "scatter.h"

/*
 * Hashes inputs first .. first + n - 1 into the table `t`, for a prepared
 * context: in the stage-0 form its plan names (dispatch.h's hashx_plan,
 * fixed at hashx_make()), falling back to the next form where that does
 * not compile for `t`, down to one hash at a time.
 */
void hashx_exec_scatter(hashx_ctx *ctx, uint64_t first, size_t n,
			const hashx_scatter *t);

/*
 * hashx_make() for a caller that will hash only a few inputs (Equi-X
 * verification hashes 8): a HASHX_TRY_COMPILE context then skips the
 * compiler, whose run costs more than interpreting a few hashes, and runs
 * interpreted, with the same outputs. Other types behave as in
 * hashx_make() (a HASHX_TYPE_COMPILED context still compiles, so that it
 * still reports HASHX_FAIL_COMPILE where the system refuses).
 */
hashx_result hashx_make_for_few(hashx_ctx *ctx, const void *seed, size_t size);

/*
 * The first 8 bytes of the hashes of input[0..7], as little-endian
 * integers, for a prepared context. An interpreted context runs the
 * program once for all 8 in AVX-512 or AVX2 lanes where its
 * implementation allows (its plan: dispatch.c).
 */
void hashx_exec8_u64(const hashx_ctx *ctx, const uint64_t input[8],
		     uint64_t out[8]);

#endif
