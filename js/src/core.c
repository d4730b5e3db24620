/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * core.c - the C ABI that the JavaScript package calls in equix.wasm.
 *
 * Thin wrappers over the library's public functions, shaped for a caller
 * that only has numbers: every pointer is an offset into the module's
 * memory, buffers come from ex_malloc, 64-bit inputs arrive as BigInt
 * (WebAssembly's i64). Everything the library does is its own code; the
 * wrappers only move bytes into the forms JavaScript wants (solutions in
 * their 16-byte wire form, results as their names), and the ones that
 * allocate grow the memory ahead (grow_ahead, below).
 */
#include <stdlib.h>

#include <equix_pow.h>

#include "core.h"

/* ---- Memory ----------------------------------------------------------- */

/*
 * wasi-libc's malloc grows the module's memory by what each allocation
 * lacks, a page or a few at a time. In V8 each growth takes time in
 * proportion to the compiled HashX modules that import the memory: with
 * thousands of live functions, making one more took ten times as long,
 * nearly all of it growing. So after a call that grew the memory, a
 * quarter of it more is reserved (allocated and freed at once; the
 * allocator keeps it, as WebAssembly memory cannot shrink): growths come
 * geometrically, and the memory is at most a quarter ahead of its peak
 * use.
 */
#define WASM_PAGE 65536u

static size_t memory_bytes(void)
{
	return __builtin_wasm_memory_size(0) * WASM_PAGE;
}

static void grow_ahead(size_t before)
{
	/* volatile: a malloc whose result is only freed may be elided. */
	void *volatile reserve;

	if (memory_bytes() == before)
		return;
	reserve = malloc(memory_bytes() / 4);
	free(reserve);
}

/* wasi-libc's allocator, for the buffers JavaScript fills and reads. */
void *ex_malloc(size_t size)
{
	size_t before = memory_bytes();
	void *p = malloc(size);

	grow_ahead(before);
	return p;
}

void ex_free(void *p)
{
	free(p);
}

/* ---- HashX ------------------------------------------------------------ */

/* `compile`: HASHX_TRY_COMPILE, the WebAssembly compiler (wasm.c) where
 * the host installs its modules, else the interpreter; 0: always the
 * interpreter. `block` selects block mode, where the input is a byte
 * string. */
hashx_ctx *ex_hashx_alloc(int block, int compile)
{
	hashx_type type = compile ? HASHX_TRY_COMPILE : HASHX_TYPE_INTERPRETED;
	size_t before = memory_bytes();
	hashx_ctx *ctx = block ? hashx_alloc_block(type) : hashx_alloc(type);

	grow_ahead(before);
	return ctx;
}

/* 1 when the current function runs compiled, 0 interpreted, -1 when the
 * context holds none yet. */
int ex_hashx_compiled(hashx_ctx *ctx)
{
	hashx_type type;

	if (hashx_query_type(ctx, &type) != HASHX_OK)
		return -1;
	return type == HASHX_TYPE_COMPILED;
}

void ex_hashx_free(hashx_ctx *ctx)
{
	hashx_free(ctx);
}

/* A compile allocates its code buffer (freed once the module is
 * installed). */
int ex_hashx_make(hashx_ctx *ctx, const void *seed, size_t size)
{
	size_t before = memory_bytes();
	int r = (int)hashx_make(ctx, seed, size);

	grow_ahead(before);
	return r;
}

/* The full 32-byte output; the package is built with HASHX_SIZE 32. */
int ex_hashx_exec(const hashx_ctx *ctx, uint64_t input, uint8_t out[32])
{
	return (int)hashx_exec_sized(ctx, input, out, 32);
}

int ex_hashx_exec_block(const hashx_ctx *ctx, const void *input, size_t size,
			uint8_t out[32])
{
	return (int)hashx_exec_block(ctx, input, size, out, 32);
}

/* X(name) for each hashx_result and each equix_result, without the
 * prefix: the names the JavaScript reports (result.c keeps the PoW's the
 * same way). The functions switch over the header's constants, so that a
 * new result cannot be forgotten here without -Wswitch saying so. */
#define HASHX_RESULTS(X)                                                   \
	X(OK) X(FAIL_UNPREPARED) X(FAIL_UNDEFINED) X(FAIL_SEED)            \
	X(FAIL_COMPILE)
#define EQUIX_RESULTS(X)                                                   \
	X(OK) X(FAIL_CHALLENGE) X(FAIL_ORDER) X(FAIL_PARTIAL_SUM)          \
	X(FAIL_FINAL_SUM) X(FAIL_COMPILE) X(FAIL_NO_SOLVER)                \
	X(FAIL_INTERNAL)
#define HASHX_NAME_CASE(name)                                              \
	case HASHX_##name:                                                 \
		return #name;
#define EQUIX_NAME_CASE(name)                                              \
	case EQUIX_##name:                                                 \
		return #name;

const char *ex_hashx_result_name(int r)
{
	switch ((hashx_result)r) {
		HASHX_RESULTS(HASHX_NAME_CASE)
	}
	return "UNKNOWN";
}

/* ---- HashWX ----------------------------------------------------------- */

/* HashWX, Equi-X v2's hash (js/src/hashwx.js): `compile` asks for the
 * WebAssembly compiler (hashwx_wasm.c), which runs where the host installs
 * its module and leaves the interpreter running where it refuses
 * (ex_hashwx_compiled says which); 0 always interprets. NULL when out of
 * memory. */
hashwx_ctx *ex_hashwx_alloc(int compile)
{
	size_t before = memory_bytes();
	hashwx_ctx *ctx =
		hashwx_alloc(compile ? HASHWX_COMPILED : HASHWX_INTERPRETED);

	grow_ahead(before);
	return ctx == HASHWX_NOTSUPP ? NULL : ctx;
}

/* A compile allocates its code buffer, freed once the module is
 * installed. */
void ex_hashwx_make(hashwx_ctx *ctx, const uint8_t seed[HASHWX_SEED_SIZE])
{
	size_t before = memory_bytes();

	hashwx_make(ctx, seed);
	grow_ahead(before);
}

uint64_t ex_hashwx_exec(const hashwx_ctx *ctx, uint64_t nonce)
{
	return hashwx_exec(ctx, nonce);
}

/* 1 when the function runs compiled, 0 interpreted, -1 for no context. */
int ex_hashwx_compiled(const hashwx_ctx *ctx)
{
	hashwx_type type;

	if (hashwx_query_type(ctx, &type) != 0)
		return -1;
	return type == HASHWX_COMPILED;
}

void ex_hashwx_free(hashwx_ctx *ctx)
{
	hashwx_free(ctx);
}

/* ---- Equi-X ----------------------------------------------------------- */

/* `compile`: EQUIX_CTX_TRY_COMPILE (the hash compiled where the host
 * allows, as for ex_hashx_alloc and ex_hashwx_alloc); `v2`: EQUIX_CTX_V2,
 * Equi-X v2 (HashWX) instead of v1 (HashX). */
equix_ctx *ex_equix_alloc(int solve, int compile, int v2)
{
	size_t before = memory_bytes();
	equix_ctx *ctx =
		equix_alloc((solve ? EQUIX_CTX_SOLVE : EQUIX_CTX_VERIFY) |
			    (compile ? EQUIX_CTX_TRY_COMPILE : 0) |
			    (v2 ? EQUIX_CTX_V2 : 0));

	grow_ahead(before);
	return ctx;
}

void ex_equix_free(equix_ctx *ctx)
{
	equix_free(ctx);
}

/* Solves `challenge` and writes the solutions, in the solver's order, as
 * EQUIX_SOLUTION_BYTES each into `out` (room for EQUIX_MAX_SOLS), their
 * number into *count. Returns the equix_result. */
int ex_equix_solve(equix_ctx *ctx, const void *challenge, size_t size,
		   uint8_t *out, uint32_t *count)
{
	equix_solutions_buffer sols;
	equix_result r = equix_solve(ctx, challenge, size, &sols);

	*count = 0;
	if (r != EQUIX_OK)
		return (int)r;
	for (unsigned i = 0; i < sols.count; i++)
		equix_solution_pack(&sols.sols[i],
				    out + i * EQUIX_SOLUTION_BYTES);
	*count = sols.count;
	return (int)r;
}

/* Verifies a solution given in its wire form. */
int ex_equix_verify(equix_ctx *ctx, const void *challenge, size_t size,
		    const uint8_t wire[16])
{
	equix_solution s;

	equix_solution_unpack(wire, &s);
	return (int)equix_verify(ctx, challenge, size, &s);
}

int ex_equix_max_sols(void)
{
	return EQUIX_MAX_SOLS;
}

const char *ex_equix_result_name(int r)
{
	switch ((equix_result)r) {
		EQUIX_RESULTS(EQUIX_NAME_CASE)
	}
	return "UNKNOWN";
}

/* ---- Tor's PoW v1: the puzzle ----------------------------------------- */

void ex_pow_challenge_build(uint8_t *challenge, const uint8_t *id,
			    const uint8_t *seed, const uint8_t *nonce,
			    uint32_t effort)
{
	equix_pow_challenge_build(challenge, id, seed, nonce, effort);
}

uint32_t ex_pow_effort_hash(const uint8_t *challenge, const uint8_t *solution)
{
	return equix_pow_effort_hash(challenge, solution);
}

int ex_pow_effort_check(const uint8_t *challenge, const uint8_t *solution,
			uint32_t effort)
{
	return equix_pow_effort_check(challenge, solution, effort);
}

/* The layout's sizes, so that JavaScript takes them from the header
 * rather than repeating them. */
int ex_pow_challenge_len(void)
{
	return EQUIX_POW_CHALLENGE_LEN;
}

int ex_pow_id_len(void)
{
	return EQUIX_POW_ID_LEN;
}

int ex_pow_seed_len(void)
{
	return EQUIX_POW_SEED_LEN;
}

int ex_pow_nonce_len(void)
{
	return EQUIX_POW_NONCE_LEN;
}
