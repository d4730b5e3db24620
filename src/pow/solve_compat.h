/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solve_compat.h - the first release's equix_pow_solve_options_init and
 * equix_pow_solve, as programs built against it call them: its options
 * had no struct_size (doc/abi.md, "Growing structs"). No public header
 * declares them any more (equix_pow.h maps both names onto the _sized
 * functions), but libequix keeps exporting them, in LIBEQUIX_1. Not
 * installed; make abi-check reads it with the public headers, so that the
 * ABI dumps track these two functions and this layout too.
 */
#ifndef EQUIX_POW_SOLVE_COMPAT_H
#define EQUIX_POW_SOLVE_COMPAT_H

#include <stdint.h>

#include "equix_pow.h"

#undef equix_pow_solve_options_init
#undef equix_pow_solve

/* equix_pow_solve_options of the first release, field for field. */
typedef struct equix_pow_solve_options_v1 {
	unsigned threads;
	equix_ctx_flags ctx_flags;
	uint64_t max_attempts;
	double max_seconds;
	const volatile int *cancel;
	equix_pow_progress_fn *progress;
	void *progress_user;
} equix_pow_solve_options_v1;

EQUIX_POW_API void equix_pow_solve_options_init(
	equix_pow_solve_options_v1 *options);

EQUIX_POW_API equix_pow_result equix_pow_solve(
	const uint8_t id[EQUIX_POW_ID_LEN],
	const uint8_t seed[EQUIX_POW_SEED_LEN], uint32_t effort,
	const uint8_t start_nonce[EQUIX_POW_NONCE_LEN],
	const equix_pow_solve_options_v1 *options, equix_pow_solution *proof,
	uint64_t *attempts);

#endif
