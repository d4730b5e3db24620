/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file equix_pow.h
 * @brief Tor's onion-service client puzzle, version 1 (proposal 327,
 * "hspow-spec v1"): Equi-X plus a BLAKE2b effort check.
 *
 * A service publishes a 32-byte seed C and a suggested effort in its
 * descriptor. A client picks a 16-byte nonce N and an effort E, builds the
 * 100-byte challenge
 *
 *     P || ID || C || N || E       P  = "Tor hs intro v1\0" (16 bytes)
 *                                  ID = blinded service ID (32 bytes)
 *                                  E  = effort, 32-bit big-endian
 *
 * and looks for an Equi-X solution S of that challenge whose
 * R = BLAKE2b-32(challenge || S), read big-endian, satisfies R * E <= 2^32-1.
 * It sends (N, E, the first 4 bytes of C, S) in its INTRODUCE1 cell; the
 * service checks it in the order cheapest first and remembers (N, C) so
 * the same proof is not accepted twice.
 *
 * @code
 *     equix_pow_solution proof;
 *     if (equix_pow_solve(id, seed, effort, NULL, NULL, &proof, NULL)
 *             == EQUIX_POW_OK)
 *         send(&proof);
 *
 *     equix_pow_service *svc = equix_pow_service_alloc(id, seed, 0, 0);
 *     if (equix_pow_service_verify(svc, NULL, &proof) == EQUIX_POW_OK)
 *         accept();
 * @endcode
 *
 * The service's defence against floods (Tor's request queue and
 * suggested-effort controller) is in equix_pow_defence.h, which this
 * header includes.
 *
 * Every function checks its pointer arguments: a NULL where an object is
 * required gives EQUIX_POW_FAIL_ARGUMENT (or 0 / NULL for functions that
 * return no result code), never a crash.
 */
#ifndef EQUIX_POW_H
#define EQUIX_POW_H

#include <stddef.h>
#include <stdint.h>

#include <equix.h>

/** The personalization string P, 16 bytes including its final zero. */
#define EQUIX_POW_PERSONALIZATION "Tor hs intro v1"
/** Bytes of P, its final zero included. */
#define EQUIX_POW_PERSONALIZATION_LEN 16

/** @name Sizes of the parts of the challenge and of a proof, in bytes
 * @{ */
#define EQUIX_POW_ID_LEN 32         /**< ID, the blinded service ID */
#define EQUIX_POW_SEED_LEN 32       /**< C, the service's seed */
#define EQUIX_POW_NONCE_LEN 16      /**< N, the client's nonce */
#define EQUIX_POW_EFFORT_LEN 4      /**< E, the effort */
#define EQUIX_POW_SEED_HEAD_LEN 4   /**< the first bytes of C, in a proof */
#define EQUIX_POW_SOLUTION_LEN 16   /**< S, an Equi-X solution (wire form) */
#define EQUIX_POW_CHALLENGE_LEN 100 /**< P || ID || C || N || E */
/** @} */

/** @name Where the nonce and the effort sit in the challenge
 * @{ */
#define EQUIX_POW_NONCE_OFFSET 80  /**< offset of N */
#define EQUIX_POW_EFFORT_OFFSET 96 /**< offset of E */
/** @} */

/** @name The INTRODUCE1 PROOF_OF_WORK extension body: version, N, E, seed
 * head, S
 * @{ */
#define EQUIX_POW_VERSION 1       /**< the version byte of v1 */
#define EQUIX_POW_EXTENSION_LEN 41 /**< bytes of the body */
/** @} */

/** @name The client's retry rule (Tor's hs_client.c)
 * Double below DOUBLE_BELOW, otherwise multiply by 1.5; never below
 * RETRY_MIN nor above RETRY_MAX (see equix_pow_effort_retry()).
 * @{ */
#define EQUIX_POW_RETRY_MIN_EFFORT 8      /**< the lowest retry effort */
#define EQUIX_POW_RETRY_DOUBLE_BELOW 1000 /**< doubling below this effort */
#define EQUIX_POW_RETRY_MAX_EFFORT 10000  /**< the highest retry effort */
/** @} */

/** The longest descriptor line equix_pow_params_format() writes, without
 * the terminating zero: "pow-params v1 " + 43 + " " + 10 + " " + 19. */
#define EQUIX_POW_PARAMS_MAX_LEN 88

/** The default memory cap of a service's replay cache, in bytes. */
#define EQUIX_POW_REPLAY_DEFAULT_BYTES ((size_t)64 << 20)
/** The smallest accepted cap (33 proofs fit in its table). */
#define EQUIX_POW_REPLAY_MIN_BYTES ((size_t)4096)

/* Symbol visibility: only what this header declares leaves the library. */
/** @cond INTERNAL */
#if defined(_WIN32) || defined(__CYGWIN__)
#define EQUIX_POW_API
#elif defined(__GNUC__)
#define EQUIX_POW_API __attribute__((visibility("default")))
#else
#define EQUIX_POW_API
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Every outcome of this layer. Each failure has its own code: first those
 * of service-side verification, in the order the checks run, then those of
 * solving, of decoding wire formats, and of anything.
 */
typedef enum equix_pow_result {
    EQUIX_POW_OK = 0,           /**< success */
    /* Service-side verification, in the order the checks run. */
    EQUIX_POW_FAIL_SEED_HEAD,   /**< no known seed starts with the seed head */
    EQUIX_POW_FAIL_REPLAY,      /**< (nonce, seed) was already accepted */
    EQUIX_POW_FAIL_EFFORT,      /**< R * E > UINT32_MAX */
    EQUIX_POW_FAIL_CACHE_FULL,  /**< the replay cache is at its memory cap
                                     and every entry is a proof still
                                     being verified: fails closed */
    EQUIX_POW_FAIL_ORDER,       /**< equix_verify: EQUIX_FAIL_ORDER */
    EQUIX_POW_FAIL_CHALLENGE,   /**< equix_verify: EQUIX_FAIL_CHALLENGE */
    EQUIX_POW_FAIL_PARTIAL_SUM, /**< equix_verify: EQUIX_FAIL_PARTIAL_SUM */
    EQUIX_POW_FAIL_FINAL_SUM,   /**< equix_verify: EQUIX_FAIL_FINAL_SUM */
    EQUIX_POW_FAIL_COMPILE,     /**< EQUIX_CTX_MUST_COMPILE, no native
                                     code */
    /* Solving. */
    EQUIX_POW_FAIL_CANCELLED,   /**< the cancel flag was raised */
    EQUIX_POW_FAIL_LIMIT,       /**< the attempt or time limit was reached */
    /* Decoding wire formats. */
    EQUIX_POW_FAIL_LENGTH,      /**< wrong length */
    EQUIX_POW_FAIL_VERSION,     /**< unknown version byte or puzzle type */
    EQUIX_POW_FAIL_SYNTAX,      /**< not the expected layout of fields */
    EQUIX_POW_FAIL_BASE64,      /**< seed not 43 characters of unpadded,
                                     canonical base64 of 32 bytes */
    EQUIX_POW_FAIL_NUMBER,      /**< effort not a decimal 0..4294967295 */
    EQUIX_POW_FAIL_TIMESTAMP,   /**< not a valid YYYY-MM-DDTHH:MM:SS */
    /* Anything. */
    EQUIX_POW_FAIL_ARGUMENT,    /**< NULL pointer or invalid option */
    EQUIX_POW_FAIL_INTERNAL,    /**< a failure of the system that has no
                                     code of its own */
    /* Added after the first release: appended, so that no earlier value
     * changes. Their place in the order of the service's checks is given
     * at equix_pow_service_verify(). */
    EQUIX_POW_FAIL_NO_MEMORY,   /**< out of memory */
    EQUIX_POW_FAIL_LOW_EFFORT,  /**< the effort is below the service's
                                     minimum (checked first of all) */
    EQUIX_POW_FAIL_SEED_RETIRED, /**< the seed was retired by an earlier
                                      rotation and cannot come back */
    EQUIX_POW_FAIL_EVICTED,     /**< the nonce may be one the full replay
                                     cache evicted under this seed, at
                                     any effort (service, step 4) */
    EQUIX_POW_FAIL_REENTERED,   /**< called from the queue's own discard
                                     callback, which may not re-enter it
                                     (or after one that did not return,
                                     until equix_pow_queue_recover()) */
} equix_pow_result;

/**
 * A short English description of `result` ("ok", "replayed proof", ...);
 * "unknown result" for values outside the enumeration.
 *
 * @param result any value.
 * @return a static string.
 */
EQUIX_POW_API const char *equix_pow_result_string(equix_pow_result result);

/** A proof, as the client sends it. `solution` is the Equi-X solution in
 * its 16-byte wire form (equix_solution_pack()). */
typedef struct equix_pow_solution {
    uint8_t nonce[EQUIX_POW_NONCE_LEN];         /**< N */
    uint32_t effort;                            /**< E */
    uint8_t seed_head[EQUIX_POW_SEED_HEAD_LEN]; /**< the first bytes of C */
    uint8_t solution[EQUIX_POW_SOLUTION_LEN];   /**< S */
} equix_pow_solution;

/* ---- The puzzle ------------------------------------------------------ */
/** @name The puzzle
 * @{ */

/**
 * Writes P || ID || C || N || E into `challenge`.
 *
 * @param challenge receives the challenge.
 * @param id        ID, the blinded service ID.
 * @param seed      C, the service's seed.
 * @param nonce     N.
 * @param effort    E.
 */
EQUIX_POW_API void equix_pow_challenge_build(
    uint8_t challenge[EQUIX_POW_CHALLENGE_LEN],
    const uint8_t id[EQUIX_POW_ID_LEN],
    const uint8_t seed[EQUIX_POW_SEED_LEN],
    const uint8_t nonce[EQUIX_POW_NONCE_LEN], uint32_t effort);

/**
 * R = BLAKE2b with a 4-byte output of challenge || solution, big-endian.
 *
 * @param challenge the challenge.
 * @param solution  S, an Equi-X solution of it in wire form.
 * @return R.
 */
EQUIX_POW_API uint32_t equix_pow_effort_hash(
    const uint8_t challenge[EQUIX_POW_CHALLENGE_LEN],
    const uint8_t solution[EQUIX_POW_SOLUTION_LEN]);

/**
 * The effort check.
 *
 * @param challenge the challenge.
 * @param solution  S, an Equi-X solution of it in wire form.
 * @param effort    E.
 * @return 1 when R * effort <= UINT32_MAX (always for effort 0), else 0.
 */
EQUIX_POW_API int equix_pow_effort_check(
    const uint8_t challenge[EQUIX_POW_CHALLENGE_LEN],
    const uint8_t solution[EQUIX_POW_SOLUTION_LEN], uint32_t effort);

/**
 * Adds `count` to a nonce read as a 128-bit little-endian integer (modulo
 * 2^128): the client's order of search.
 *
 * @param nonce the nonce, updated in place.
 * @param count the amount to add.
 */
EQUIX_POW_API void equix_pow_nonce_add(uint8_t nonce[EQUIX_POW_NONCE_LEN],
                                       uint64_t count);

/**
 * The effort for the next attempt after an introduction failed. An
 * effort already at or above EQUIX_POW_RETRY_MAX_EFFORT is returned as it
 * is, as Tor's client does (it stops raising, it never lowers).
 *
 * @param effort the effort that failed.
 * @return the next effort.
 */
EQUIX_POW_API uint32_t equix_pow_effort_retry(uint32_t effort);

/** @} */

/* ---- Solving (client side) ------------------------------------------- */
/** @name Solving (client side)
 * @{ */

/**
 * Called by the calling thread after each nonce it tries (never, if the
 * calling thread could not get the memory to search; the other threads
 * search on).
 *
 * @param user     equix_pow_solve_options::progress_user.
 * @param attempts nonces tried so far.
 * @param seconds  time since the search started.
 */
typedef void equix_pow_progress_fn(void *user, uint64_t attempts,
                                   double seconds);

/** The most worker threads equix_pow_solve() accepts. */
#define EQUIX_POW_MAX_THREADS 1024

/** How equix_pow_solve() searches; equix_pow_solve_options_init() gives the
 * defaults.
 *
 * The struct may grow at its end in a later release (doc/abi.md): always
 * fill it with equix_pow_solve_options_init() before setting fields, which
 * records in `struct_size` the size this program was compiled with; the
 * library then reads only the fields that size covers, and leaves the
 * others at their defaults. */
typedef struct equix_pow_solve_options {
    /** sizeof(equix_pow_solve_options) as the caller was compiled, set by
     * equix_pow_solve_options_init(); do not change it. 0 (a struct
     * zeroed by the caller) stands for the fields of this release. */
    size_t struct_size;
    /** Worker threads, at most EQUIX_POW_MAX_THREADS; 0 or 1 uses the
     * calling thread only. Any count gives the same proof: the lowest
     * winning nonce in search order, also when some workers cannot get
     * their memory or threads cannot be started (the others then try
     * their nonces). */
    unsigned threads;
    /** Flags for each worker's context, or'ed with EQUIX_CTX_SOLVE. */
    equix_ctx_flags ctx_flags;
    /** Give up after this many nonces (0: no limit); the same limit gives
     * the same outcome for any thread count. */
    uint64_t max_attempts;
    /** Give up after this many seconds (0: no limit). */
    double max_seconds;
    /** When not NULL, the search stops soon after *cancel becomes nonzero:
     * each worker reads it (with an atomic load) after each nonce. Set it
     * with an atomic store from another thread, or from a signal handler;
     * already nonzero at the call, no nonce is tried. See @ref
     * event-loops. */
    const volatile int *cancel;
    /** When not NULL, called with the number of nonces tried so far. */
    equix_pow_progress_fn *progress;
    void *progress_user; /**< passed to `progress` */
} equix_pow_solve_options;

/**
 * Fills the first `size` bytes of `options` with the defaults: one thread,
 * EQUIX_CTX_TRY_COMPILE, no limits, no cancel flag, no progress callback,
 * and sets equix_pow_solve_options::struct_size to `size`. Call it through
 * equix_pow_solve_options_init(), which passes the caller's sizeof. A
 * `size` too small for this release's fields changes nothing.
 *
 * @param options the options to fill.
 * @param size    sizeof(equix_pow_solve_options) as the caller sees it.
 */
EQUIX_POW_API void equix_pow_solve_options_init_sized(
    equix_pow_solve_options *options, size_t size);

/**
 * equix_pow_solve_options_init_sized() with the size of the caller's
 * equix_pow_solve_options: what a program calls to get the defaults.
 *
 * @param options the options to fill.
 */
#define equix_pow_solve_options_init(options) \
    equix_pow_solve_options_init_sized((options), \
                                       sizeof(equix_pow_solve_options))

/**
 * What a program calls to search for a proof: equix_pow_solve_sized(),
 * which reads equix_pow_solve_options::struct_size. (The library's
 * symbol equix_pow_solve is the first release's, for programs compiled
 * with that release's struct, which had no struct_size.)
 */
#define equix_pow_solve equix_pow_solve_sized

/**
 * equix_pow_solve(): searches nonces from `start_nonce` (NULL: random, from
 * libsodium) upward
 * for a proof of `effort`, exactly as Tor's client does: for each nonce,
 * the Equi-X solutions in the solver's order, the first one passing the
 * effort check wins; a nonce whose challenge has no HashX function is
 * skipped. `options` may be NULL (defaults). On EQUIX_POW_OK, `proof` holds
 * the result and `*attempts` (when not NULL) the number of nonces from the
 * start nonce to the winning one, inclusive. On a limit or cancel,
 * `*attempts` holds the nonces tried.
 *
 * Each worker allocates an Equi-X solving context (about 1.5 MiB) before
 * it takes any nonce. With several threads, a worker that cannot allocate
 * it, or a thread that cannot be started, drops out and the others try
 * every nonce between them: the search is slower, the proof the same.
 * The search fails for lack of memory only when no worker, the calling
 * thread included, could allocate its context.
 *
 * The call blocks: from an event loop, run it on a worker thread and
 * cancel it through equix_pow_solve_options::cancel, which each worker
 * reads after each nonce (about 6 ms compiled); see @ref event-loops.
 *
 * @param id          ID, the blinded service ID.
 * @param seed        C, the service's seed.
 * @param effort      E.
 * @param start_nonce the first nonce to try, or NULL.
 * @param options     the options, or NULL.
 * @param proof       receives the proof.
 * @param attempts    receives the count of nonces, or NULL.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_LIMIT or EQUIX_POW_FAIL_CANCELLED.
 *         Other results: EQUIX_POW_FAIL_COMPILE (EQUIX_CTX_MUST_COMPILE
 *         without native code), EQUIX_POW_FAIL_NO_MEMORY (no worker could
 *         allocate its context; `*attempts` is 0), EQUIX_POW_FAIL_ARGUMENT
 *         (also for options whose struct_size is neither 0 nor at least
 *         the first sized release's, or that set fields this library does
 *         not know: nonzero bytes beyond its own struct),
 *         EQUIX_POW_FAIL_INTERNAL (libsodium could not be initialized,
 *         or the solver failed in a way it never should).
 */
EQUIX_POW_API equix_pow_result equix_pow_solve_sized(
    const uint8_t id[EQUIX_POW_ID_LEN],
    const uint8_t seed[EQUIX_POW_SEED_LEN], uint32_t effort,
    const uint8_t start_nonce[EQUIX_POW_NONCE_LEN],
    const equix_pow_solve_options *options, equix_pow_solution *proof,
    uint64_t *attempts);

/** @} */

/* ---- Verifying (service side) ---------------------------------------- */
/** @name Verifying (service side)
 * @{ */

/** A service's state: its blinded ID, the current and previous seeds, and
 * one replay cache that holds both seeds' accepted proofs (one table, one
 * memory cap). All functions below may be called from several
 * threads at once on one state, except equix_pow_service_free() (see
 * @ref threads). */
typedef struct equix_pow_service equix_pow_service;

/**
 * A state whose current seed is `seed` (no previous seed yet).
 * `replay_cache_bytes` caps the replay cache's memory, the entries and the
 * filters of evicted nonces of both seeds together (0:
 * EQUIX_POW_REPLAY_DEFAULT_BYTES; at least EQUIX_POW_REPLAY_MIN_BYTES).
 * `flags` are for the state's own verification context (or'ed with
 * EQUIX_CTX_VERIFY).
 *
 * @param id                 ID, the blinded service ID.
 * @param seed               C, the current seed.
 * @param replay_cache_bytes the replay cache's memory cap, or 0.
 * @param flags              the verification context's flags.
 * @return the state; NULL when out of memory, on invalid arguments, or
 *         when `flags` has EQUIX_CTX_MUST_COMPILE but no HashX function
 *         can be compiled here (a build without a compiler, or a system
 *         that refuses executable memory): such a service could only
 *         refuse every proof.
 */
EQUIX_POW_API equix_pow_service *equix_pow_service_alloc(
    const uint8_t id[EQUIX_POW_ID_LEN],
    const uint8_t seed[EQUIX_POW_SEED_LEN], size_t replay_cache_bytes,
    equix_ctx_flags flags);

/**
 * Frees the state. Does nothing when `service` is NULL.
 *
 * @param service the state, or NULL.
 */
EQUIX_POW_API void equix_pow_service_free(equix_pow_service *service);

/**
 * Makes `seed` the current seed. A new seed: the current seed becomes the
 * previous one, and the old previous seed is retired with its replay
 * entries. The current seed: nothing changes. The previous seed: the two
 * swap, each keeping its entries. A retired seed can never come back (its
 * entries are gone, so its proofs could be accepted again):
 * EQUIX_POW_FAIL_SEED_RETIRED, and nothing changes. The service remembers
 * every seed it retired, 32 bytes each, outside the replay cache's cap.
 *
 * @param service the state.
 * @param seed    the new current seed.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_SEED_RETIRED,
 *         EQUIX_POW_FAIL_NO_MEMORY (nothing changed) or
 *         EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_service_rotate(
    equix_pow_service *service, const uint8_t seed[EQUIX_POW_SEED_LEN]);

/**
 * Sets the lowest effort the service accepts (0, the default: none). A
 * proof of lower effort is refused with EQUIX_POW_FAIL_LOW_EFFORT before
 * any other check. May be called at any time, from any thread.
 *
 * @param service    the state.
 * @param min_effort the minimum effort, or 0.
 * @return EQUIX_POW_OK or EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_service_set_min_effort(
    equix_pow_service *service, uint32_t min_effort);

/**
 * Checks a proof, cheapest first: the effort reaches the minimum
 * (equix_pow_service_set_min_effort()); the seed head names a known seed
 * (the current one first); the (nonce, seed) pair is not in the replay
 * cache, at any effort; the effort check; the pair is not in the seed's
 * filter of nonces the full cache evicted (EQUIX_POW_FAIL_EVICTED: the
 * proof may be one the cache accepted and let go, or, rarely, one the
 * filter cannot tell from those); equix_verify(). On success the pair is
 * recorded. When the replay cache is at its cap, the proof takes the
 * place of a recorded one (the previous seed's first, then the
 * cheapest), whose nonce goes into its seed's filter; only when every
 * entry is a proof still being verified is it refused with
 * EQUIX_POW_FAIL_CACHE_FULL. No (nonce, seed) is ever accepted twice,
 * whatever the efforts, while its seed is current or previous
 * (doc/pow-v1.md, section 7, which gives the false refusals a flood of
 * valid proofs leaves).
 * `ctx` is a verification context of the caller's (one per thread); NULL
 * uses the state's own, one caller at a time (the state locks it, so
 * threads passing NULL wait for each other).
 *
 * @param service the state.
 * @param ctx     a verification context, or NULL.
 * @param proof   the proof.
 * @return EQUIX_POW_OK, or the first failure (see equix_pow_result).
 */
EQUIX_POW_API equix_pow_result equix_pow_service_verify(
    equix_pow_service *service, equix_ctx *ctx,
    const equix_pow_solution *proof);

/** Replay cache figures: entries recorded, bytes allocated, the cap. */
typedef struct equix_pow_replay_stats {
    size_t entries;   /**< entries recorded */
    size_t bytes;     /**< bytes allocated */
    size_t cap_bytes; /**< the cap */
} equix_pow_replay_stats;

/**
 * Reads the replay cache figures of both seeds together.
 *
 * @param service the state.
 * @param stats   receives the figures.
 * @return EQUIX_POW_OK or EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_service_stats(
    equix_pow_service *service, equix_pow_replay_stats *stats);

/** @} */

/* The service's defence (the request queue and the suggested-effort
 * controller) is declared in equix_pow_defence.h, included at the end. */

/* ---- Wire formats ---------------------------------------------------- */
/** @name Wire formats
 * @{ */

/**
 * Writes the 41-byte PROOF_OF_WORK extension body of `proof`.
 *
 * @param proof the proof.
 * @param body  receives EQUIX_POW_EXTENSION_LEN bytes.
 * @return EQUIX_POW_OK or EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_extension_encode(
    const equix_pow_solution *proof,
    uint8_t body[EQUIX_POW_EXTENSION_LEN]);

/**
 * Reads an extension body: exactly EQUIX_POW_EXTENSION_LEN bytes
 * (EQUIX_POW_FAIL_LENGTH), version 1 (EQUIX_POW_FAIL_VERSION).
 *
 * @param body   the body, as received.
 * @param length bytes of `body`.
 * @param proof  receives the proof.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_LENGTH, EQUIX_POW_FAIL_VERSION or
 *         EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_extension_decode(
    const uint8_t *body, size_t length, equix_pow_solution *proof);

/** The parameters a service publishes in its descriptor. The expiration
 * is a UTC time in seconds since 1970-01-01T00:00:00. */
typedef struct equix_pow_params {
    uint8_t seed[EQUIX_POW_SEED_LEN]; /**< C */
    uint32_t suggested_effort;        /**< the suggested effort */
    int64_t expiration;               /**< when the seed expires (UTC) */
} equix_pow_params;

/**
 * Formats "pow-params v1 <seed> <effort> <YYYY-MM-DDTHH:MM:SS>" (seed in
 * unpadded standard base64, no newline) into `out` (`out_size` bytes, at
 * least EQUIX_POW_PARAMS_MAX_LEN + 1). The expiration must be within
 * years 1970..9999 (EQUIX_POW_FAIL_TIMESTAMP).
 *
 * @param params   the parameters.
 * @param out      receives the line, zero-terminated.
 * @param out_size bytes of `out`.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_LENGTH (`out` too small),
 *         EQUIX_POW_FAIL_TIMESTAMP or EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_params_format(
    const equix_pow_params *params, char *out, size_t out_size);

/**
 * Parses one descriptor line, `length` bytes (one final "\n" allowed):
 * single spaces between the fields, keyword "pow-params", type "v1"
 * (EQUIX_POW_FAIL_VERSION otherwise), a seed of exactly 43 base64
 * characters, an effort of decimal digits without sign or leading zeros,
 * and a real calendar time with seconds 00..59.
 *
 * @param line   the line (need not be zero-terminated).
 * @param length bytes of `line`.
 * @param params receives the parameters, only on success.
 * @return EQUIX_POW_OK, or EQUIX_POW_FAIL_SYNTAX, EQUIX_POW_FAIL_VERSION,
 *         EQUIX_POW_FAIL_BASE64, EQUIX_POW_FAIL_NUMBER,
 *         EQUIX_POW_FAIL_TIMESTAMP, EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_params_parse(
    const char *line, size_t length, equix_pow_params *params);

/** @} */

#ifdef __cplusplus
}
#endif

/* Last, since it uses the declarations above. */
#include <equix_pow_defence.h>

#endif /* EQUIX_POW_H */
