/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * core.h - the C ABI of equix.wasm, as src/index.js calls it: what
 * core.c exports, one declaration each (the export name is the function's
 * name). Pointers are offsets into the module's memory; results are the
 * library's enumerators as ints, named by ex_*_result_name.
 */
#ifndef EQUIX_WASM_CORE_H
#define EQUIX_WASM_CORE_H

#include <stddef.h>
#include <stdint.h>

#include <equix.h>
#include <hashwx.h>
#include <hashx.h>

#define EXPORT(name) __attribute__((export_name(name)))

EXPORT("ex_malloc") void *ex_malloc(size_t size);
EXPORT("ex_free") void ex_free(void *p);
EXPORT("ex_hashx_alloc") hashx_ctx *ex_hashx_alloc(int block, int compile);
EXPORT("ex_hashx_compiled") int ex_hashx_compiled(hashx_ctx *ctx);
EXPORT("ex_hashx_free") void ex_hashx_free(hashx_ctx *ctx);
EXPORT("ex_hashx_make")
int ex_hashx_make(hashx_ctx *ctx, const void *seed, size_t size);
EXPORT("ex_hashx_exec")
int ex_hashx_exec(const hashx_ctx *ctx, uint64_t input, uint8_t out[32]);
EXPORT("ex_hashx_exec_block")
int ex_hashx_exec_block(const hashx_ctx *ctx, const void *input, size_t size,
			uint8_t out[32]);
EXPORT("ex_hashx_result_name") const char *ex_hashx_result_name(int r);
EXPORT("ex_hashwx_alloc") hashwx_ctx *ex_hashwx_alloc(int compile);
EXPORT("ex_hashwx_make")
void ex_hashwx_make(hashwx_ctx *ctx, const uint8_t seed[HASHWX_SEED_SIZE]);
EXPORT("ex_hashwx_exec")
uint64_t ex_hashwx_exec(const hashwx_ctx *ctx, uint64_t nonce);
EXPORT("ex_hashwx_compiled") int ex_hashwx_compiled(const hashwx_ctx *ctx);
EXPORT("ex_hashwx_free") void ex_hashwx_free(hashwx_ctx *ctx);
EXPORT("ex_equix_alloc")
equix_ctx *ex_equix_alloc(int solve, int compile, int v2);
EXPORT("ex_equix_free") void ex_equix_free(equix_ctx *ctx);
EXPORT("ex_equix_solve")
int ex_equix_solve(equix_ctx *ctx, const void *challenge, size_t size,
		   uint8_t *out, uint32_t *count);
EXPORT("ex_equix_verify")
int ex_equix_verify(equix_ctx *ctx, const void *challenge, size_t size,
		    const uint8_t wire[16]);
EXPORT("ex_equix_max_sols") int ex_equix_max_sols(void);
EXPORT("ex_equix_result_name") const char *ex_equix_result_name(int r);
EXPORT("ex_pow_challenge_build")
void ex_pow_challenge_build(uint8_t *challenge, const uint8_t *id,
			    const uint8_t *seed, const uint8_t *nonce,
			    uint32_t effort);
EXPORT("ex_pow_effort_hash")
uint32_t ex_pow_effort_hash(const uint8_t *challenge, const uint8_t *solution);
EXPORT("ex_pow_effort_check")
int ex_pow_effort_check(const uint8_t *challenge, const uint8_t *solution,
			uint32_t effort);
EXPORT("ex_pow_challenge_len") int ex_pow_challenge_len(void);
EXPORT("ex_pow_id_len") int ex_pow_id_len(void);
EXPORT("ex_pow_seed_len") int ex_pow_seed_len(void);
EXPORT("ex_pow_nonce_len") int ex_pow_nonce_len(void);

#endif
