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

/*
 * Equi-X's stage 0, the scatter table: inputs are sorted, in input order,
 * into 2^HASHX_SCATTER_BUCKET_BITS buckets by the low bits of v, the
 * hash's first 8 bytes (little-endian); bucket b's next item gets the
 * input (as 16 bits) in idx[b * capacity + item] and v >> bucket bits in
 * data[...]; a full bucket drops the item. The x86-64 scatter emitter
 * hard-codes 8 bits (a byte register picks the bucket), the aarch64 one
 * encodes them from here; Equi-X asserts its bucket count against this.
 */
#define HASHX_SCATTER_BUCKET_BITS 8
#define HASHX_SCATTER_BUCKETS (1u << HASHX_SCATTER_BUCKET_BITS)

typedef struct hashx_scatter {
	uint16_t *counts; /* [HASHX_SCATTER_BUCKETS] */
	uint16_t *idx;    /* [HASHX_SCATTER_BUCKETS * capacity] */
	uint64_t *data;   /* [HASHX_SCATTER_BUCKETS * capacity] */
	uint32_t capacity;
} hashx_scatter;

/*
 * Hashes inputs first .. first + n - 1 into the table `t`, for a prepared
 * context: natively where the context is compiled and the scatter form
 * compiles, else one hash at a time.
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
 * integers, for a prepared context. An interpreted context whose
 * implementation is AVX-512 runs the program once for all 8
 * (interpreter_lanes.h).
 */
void hashx_exec8_u64(const hashx_ctx *ctx, const uint64_t input[8],
		     uint64_t out[8]);

#endif
