/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file equix.h
 * @brief Equi-X, an asymmetric client puzzle over HashX.
 *
 * A challenge (any bytes) selects a HashX function H. A solution is eight
 * 16-bit indices i0..i7 such that the sum of H(i0)..H(i7) (the first 8
 * bytes of each hash, little-endian) is 0 modulo 2^60, with Wagner's
 * partial sums: H(i0)+H(i1), H(i2)+H(i3), ... are 0 modulo 2^15, the sums
 * of those pairs 0 modulo 2^30, and the indices ordered as a tree (each
 * left subtree's indices compare lower or equal to the right's). Finding one
 * takes about 2^16 hashes and 1.5 MiB of memory; checking one, 8 hashes.
 *
 * This header is a drop-in replacement for the equix.h that Tor ships in
 * src/ext/equix: the same functions, types, enumerators, flags and values,
 * and the same solutions in the same order for every challenge. Additions
 * are marked as such.
 *
 * @code
 *     equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
 *     equix_solutions_buffer sols;
 *     if (ctx != NULL &&
 *         equix_solve(ctx, challenge, len, &sols) == EQUIX_OK)
 *         for (unsigned i = 0; i < sols.count; i++)
 *             use(&sols.sols[i]);
 *     equix_free(ctx);
 * @endcode
 *
 * @par Thread safety
 * A context is not safe to use from two threads at once: use one context
 * per thread. Contexts share no mutable state. Addition to Tor's
 * documentation: equix_alloc() may be called from several threads at
 * once (see @ref threads).
 */
#ifndef EQUIX_H
#define EQUIX_H

#include <stddef.h>
#include <stdint.h>

#include "equix_version.h"

/** The solver returns at most this many solutions. */
#define EQUIX_MAX_SOLS 8

/** Indices in a solution. */
#define EQUIX_NUM_IDX 8

/** A 16-bit index: the HashX input of one leaf of the solution tree. */
typedef uint16_t equix_idx;

/** A solution. */
typedef struct equix_solution {
    equix_idx idx[EQUIX_NUM_IDX]; /**< the eight indices, in tree order */
} equix_solution;

/** Extra information from the solver. */
typedef enum equix_solution_flags {
    EQUIX_SOLVER_DID_USE_COMPILER = (1 << 0), /**< HashX ran as native code */
} equix_solution_flags;

/** Up to EQUIX_MAX_SOLS solutions, in the order the solver found them. */
typedef struct equix_solutions_buffer {
    unsigned count;                      /**< solutions found, 0 to
                                              EQUIX_MAX_SOLS */
    equix_solution_flags flags;          /**< extra information */
    equix_solution sols[EQUIX_MAX_SOLS]; /**< the first `count` are set */
} equix_solutions_buffer;

/** Result of solving and verifying. */
typedef enum equix_result {
    EQUIX_OK,               /**< the solution is valid */
    EQUIX_FAIL_CHALLENGE,   /**< the challenge has no HashX function (about
                                 1 in 10,000 challenges) */
    EQUIX_FAIL_ORDER,       /**< the indices are not in tree order */
    EQUIX_FAIL_PARTIAL_SUM, /**< a pair or quad sum lacks its zero bits */
    EQUIX_FAIL_FINAL_SUM,   /**< the eight hashes do not sum to 0 mod 2^60 */
    EQUIX_FAIL_COMPILE,     /**< EQUIX_CTX_MUST_COMPILE, but no native
                                 code */
    EQUIX_FAIL_NO_SOLVER,   /**< solving on a context made without
                                 EQUIX_CTX_SOLVE */
    EQUIX_FAIL_INTERNAL,    /**< internal error, or a NULL context, solution
                                 or output pointer */
} equix_result;

/** Opaque Equi-X context. */
typedef struct equix_ctx equix_ctx;

/** Flags for equix_alloc(), to be or'ed together. */
typedef enum equix_ctx_flags {
    EQUIX_CTX_VERIFY = 0,       /**< verification only */
    EQUIX_CTX_SOLVE = 1,        /**< also solving (allocates 1.5 MiB) */
    EQUIX_CTX_MUST_COMPILE = 2, /**< require compiled HashX */
    EQUIX_CTX_TRY_COMPILE = 4,  /**< compiled HashX where possible */
    EQUIX_CTX_HUGEPAGES = 8,    /**< solver memory in huge pages where the
                                     system has them (normal pages
                                     otherwise) */
    EQUIX_CTX_V2 = 16,          /**< Equi-X v2: HashWX (hashwx.h) instead
                                     of HashX, seeded by BLAKE2b-256 of the
                                     challenge with the salt "Equi-X v2";
                                     the solver, the sums and the solution
                                     are v1's (doc/equix.md, "Equi-X v2") */
    /** tevador's name for EQUIX_CTX_V2, for source compatibility with his
     * equix_v2 branch. His value is 8, which Tor's API, and so this one,
     * gives to EQUIX_CTX_HUGEPAGES: a program that passes the number 8
     * rather than the name gets huge pages here, not v2. */
    EQUIX_V2 = EQUIX_CTX_V2,
} equix_ctx_flags;

/* Symbol visibility: only what this header declares leaves the library. */
/** @cond INTERNAL */
#if defined(_WIN32) || defined(__CYGWIN__)
#define EQUIX_WIN
#endif
#ifndef EQUIX_API
#if defined(EQUIX_WIN)
#if defined(EQUIX_SHARED)
#define EQUIX_API __declspec(dllexport)
#else
#define EQUIX_API
#endif
#elif defined(__GNUC__)
#define EQUIX_API __attribute__((visibility("default")))
#else
#define EQUIX_API
#endif
#endif
#ifndef EQUIX_PRIVATE
#if defined(__GNUC__) && !defined(EQUIX_WIN)
#define EQUIX_PRIVATE __attribute__((visibility("hidden")))
#else
#define EQUIX_PRIVATE
#endif
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Allocates a context.
 *
 * @param flags what the context does, equix_ctx_flags or'ed together.
 * @return the new context; NULL when memory runs out.
 */
EQUIX_API equix_ctx *equix_alloc(equix_ctx_flags flags);

/**
 * Frees a context. Does nothing when ctx is NULL.
 *
 * @param ctx the context, or NULL.
 */
EQUIX_API void equix_free(equix_ctx *ctx);

/**
 * Finds the solutions of `challenge` (`challenge_size` bytes; NULL is
 * allowed when the size is 0) and stores them in `output`, in the
 * reference solver's order.
 *
 * @param ctx            a context made with EQUIX_CTX_SOLVE.
 * @param challenge      the challenge.
 * @param challenge_size bytes of `challenge`.
 * @param output         receives the solutions.
 * @return EQUIX_OK (output->count may be 0), EQUIX_FAIL_CHALLENGE,
 *         EQUIX_FAIL_COMPILE (EQUIX_CTX_MUST_COMPILE without native code),
 *         EQUIX_FAIL_NO_SOLVER (a verify-only context) or
 *         EQUIX_FAIL_INTERNAL (a NULL ctx or output).
 */
EQUIX_API equix_result equix_solve(equix_ctx *ctx, const void *challenge,
                                   size_t challenge_size,
                                   equix_solutions_buffer *output);

/**
 * Checks `solution` for `challenge`: the index order first (no hashing),
 * then the challenge, then the pair, quad and final sums.
 *
 * @param ctx            a context (any flags).
 * @param challenge      the challenge.
 * @param challenge_size bytes of `challenge`.
 * @param solution       the solution to check.
 * @return EQUIX_OK or the first failure: EQUIX_FAIL_ORDER,
 *         EQUIX_FAIL_CHALLENGE, EQUIX_FAIL_COMPILE, EQUIX_FAIL_PARTIAL_SUM,
 *         EQUIX_FAIL_FINAL_SUM, or EQUIX_FAIL_INTERNAL (a NULL ctx or
 *         solution).
 */
EQUIX_API equix_result equix_verify(equix_ctx *ctx, const void *challenge,
                                    size_t challenge_size,
                                    const equix_solution *solution);

/**
 * Addition to Tor's API: the library's release, "MAJOR.MINOR.PATCH" (as
 * EQUIX_VERSION_STRING when the program runs with the library it was
 * compiled against).
 *
 * @return a static string.
 */
EQUIX_API const char *equix_version_string(void);

/**
 * Addition to Tor's API: the 16-byte wire form of a solution, the eight
 * indices as little-endian 16-bit values (as Tor's PoW extension sends
 * them).
 */
#define EQUIX_SOLUTION_BYTES 16

/**
 * Addition to Tor's API: writes the wire form of `solution`. Does nothing
 * when either pointer is NULL.
 *
 * @param solution the solution.
 * @param out      EQUIX_SOLUTION_BYTES bytes.
 */
EQUIX_API void equix_solution_pack(const equix_solution *solution,
                                   uint8_t out[EQUIX_SOLUTION_BYTES]);

/**
 * Addition to Tor's API: reads the wire form of a solution. Any 16 bytes
 * give a solution; equix_verify() judges it. Does nothing when either
 * pointer is NULL.
 *
 * @param in       EQUIX_SOLUTION_BYTES bytes.
 * @param solution receives the eight indices.
 */
EQUIX_API void equix_solution_unpack(const uint8_t in[EQUIX_SOLUTION_BYTES],
                                     equix_solution *solution);

#ifdef __cplusplus
}

/** @cond INTERNAL */
/* C++ has no implicit conversion from int to an enumeration, so without
 * these `EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE` would be an int that
 * equix_alloc() does not take. They keep the C signatures unchanged. */
inline equix_ctx_flags operator|(equix_ctx_flags a, equix_ctx_flags b)
{
    return static_cast<equix_ctx_flags>(static_cast<unsigned>(a) |
                                        static_cast<unsigned>(b));
}
inline equix_ctx_flags operator&(equix_ctx_flags a, equix_ctx_flags b)
{
    return static_cast<equix_ctx_flags>(static_cast<unsigned>(a) &
                                        static_cast<unsigned>(b));
}
inline equix_ctx_flags &operator|=(equix_ctx_flags &a, equix_ctx_flags b)
{
    return a = a | b;
}
inline equix_ctx_flags &operator&=(equix_ctx_flags &a, equix_ctx_flags b)
{
    return a = a & b;
}
inline equix_solution_flags operator|(equix_solution_flags a,
                                      equix_solution_flags b)
{
    return static_cast<equix_solution_flags>(static_cast<unsigned>(a) |
                                             static_cast<unsigned>(b));
}
inline equix_solution_flags operator&(equix_solution_flags a,
                                      equix_solution_flags b)
{
    return static_cast<equix_solution_flags>(static_cast<unsigned>(a) &
                                             static_cast<unsigned>(b));
}
/** @endcond */
#endif

#endif /* EQUIX_H */
