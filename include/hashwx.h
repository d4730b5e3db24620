/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file hashwx.h
 * HashWX: the successor of HashX by its author (tevador), a family of
 * seed-generated 64-bit hash functions for client puzzles.
 *
 * The API is tevador's (github tevador/hashwx): the same names, types,
 * constants and semantics, so a program written for his header builds
 * unchanged against this library (`pkg-config --cflags --libs libhashwx`).
 * What this header adds is marked "Addition". doc/hashwx.md specifies the
 * algorithm; libhashwx(3) (`man 3 hashwx_make`, or any call's name)
 * documents the calls.
 *
 * A context holds one function: hashwx_make() builds it from a 32-byte
 * seed (it cannot fail: every seed gives a function, unlike HashX), and
 * hashwx_exec() hashes 64-bit inputs with it. A context may be used by one
 * thread at a time for hashwx_make(), and by any number at once for
 * hashwx_exec().
 */
#ifndef HASHWX_H
#define HASHWX_H

#include <stddef.h>
#include <stdint.h>

/** An opaque HashWX context. */
typedef struct hashwx_ctx hashwx_ctx;

/** How a context runs its function. */
typedef enum hashwx_type {
	HASHWX_INTERPRETED, /**< the portable interpreter */
	HASHWX_COMPILED     /**< native code, where this build has a compiler */
} hashwx_type;

/** hashwx_alloc()'s answer when the requested type is not supported here
 * (HASHWX_COMPILED on a machine without a HashWX compiler). */
#define HASHWX_NOTSUPP ((hashwx_ctx *)-1)

/** The size of hashwx_make()'s seed, in bytes. */
#define HASHWX_SEED_SIZE 32

/* Symbol visibility: only what this header declares leaves the library. */
/** @cond INTERNAL */
#if defined(_WIN32) || defined(__CYGWIN__)
#define HASHWX_WIN
#endif
#ifndef HASHWX_API
#if defined(HASHWX_WIN)
#if defined(HASHWX_SHARED)
#define HASHWX_API __declspec(dllexport)
#else
#define HASHWX_API
#endif
#elif defined(__GNUC__)
#define HASHWX_API __attribute__((visibility("default")))
#else
#define HASHWX_API
#endif
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Allocates a context of `type`.
 * @param type   HASHWX_INTERPRETED or HASHWX_COMPILED.
 * @return the context; NULL when memory runs out; HASHWX_NOTSUPP when
 *         `type` is HASHWX_COMPILED and this build or machine has no HashWX
 *         compiler, or `type` is not a hashwx_type.
 * A new context already holds a function, the one of the all-zero seed,
 * so hashwx_exec() on it is defined (tevador's leaves it undefined).
 */
HASHWX_API hashwx_ctx *hashwx_alloc(hashwx_type type);

/**
 * Builds the function of `seed` (HASHWX_SEED_SIZE bytes) in `ctx`,
 * replacing the one it held. A compiled context whose code cannot be made
 * executable (a system that refuses W^X memory) runs the interpreter for
 * this function instead: the hashes are the same, hashwx_query_type()
 * tells. A NULL `ctx` or `seed` changes nothing.
 * @param ctx    a context from hashwx_alloc().
 * @param seed   the 32-byte seed; every seed gives a function.
 */
HASHWX_API void hashwx_make(hashwx_ctx *ctx,
			    const uint8_t seed[HASHWX_SEED_SIZE]);

/**
 * The hash of `input` under the context's function.
 * @param ctx    a context from hashwx_alloc().
 * @param input  the 64-bit nonce.
 * @return the 64-bit hash (a number, not bytes); 0 for a NULL `ctx`.
 */
HASHWX_API uint64_t hashwx_exec(const hashwx_ctx *ctx, uint64_t input);

/**
 * Frees the context.
 * @param ctx    a context from hashwx_alloc(); NULL and HASHWX_NOTSUPP
 *               are ignored.
 */
HASHWX_API void hashwx_free(hashwx_ctx *ctx);

/**
 * Addition: how the context's current function runs (HASHWX_COMPILED only
 * when native code runs it).
 * @param ctx       a context from hashwx_alloc().
 * @param type_out  where the type is written.
 * @return 0, or -1 when `ctx` or `type_out` is NULL.
 */
HASHWX_API int hashwx_query_type(const hashwx_ctx *ctx,
				 hashwx_type *type_out);

#ifdef __cplusplus
}
#endif

#endif
