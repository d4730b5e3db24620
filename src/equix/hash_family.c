/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hash_family.c - HashX for Equi-X v1, HashWX for v2 (hash_family.h).
 */
#include <config.h>

#include <sodium.h>

#include "hash_family.h"
#include "hashwx_context.h"
#include "solver.h"

/* ---- v1: HashX ------------------------------------------------------ */

static hashx_type hashx_type_for(equix_ctx_flags flags)
{
	if (flags & EQUIX_CTX_MUST_COMPILE)
		return HASHX_TYPE_COMPILED;
	if (flags & EQUIX_CTX_TRY_COMPILE)
		return HASHX_TRY_COMPILE;
	return HASHX_TYPE_INTERPRETED;
}

static equix_result make_v1(equix_hash *h, const void *challenge,
			    size_t size, bool few)
{
	hashx_result r = few ? hashx_make_for_few(h->x, challenge, size)
			     : hashx_make(h->x, challenge, size);

	switch (r) {
	case HASHX_OK:
		return EQUIX_OK;
	case HASHX_FAIL_SEED:
		return EQUIX_FAIL_CHALLENGE;
	case HASHX_FAIL_COMPILE:
		return EQUIX_FAIL_COMPILE;
	case HASHX_FAIL_UNPREPARED:
	case HASHX_FAIL_UNDEFINED:
	default:
		return EQUIX_FAIL_INTERNAL;
	}
}

/* ---- v2: HashWX ----------------------------------------------------- */

/* The seed of a challenge's HashWX function: BLAKE2b with a 32-byte
 * digest, no key, this salt (zero-padded to BLAKE2b's 16-byte salt
 * field) and an all-zero personalization. The salt keeps v2's seeds
 * apart from every other use of BLAKE2b on the same bytes. */
static const unsigned char v2_salt[crypto_generichash_blake2b_SALTBYTES] =
	"Equi-X v2";
static const unsigned char v2_personal[crypto_generichash_blake2b_PERSONALBYTES];

_Static_assert(HASHWX_SEED_SIZE <= crypto_generichash_blake2b_BYTES_MAX,
	       "BLAKE2b gives a whole HashWX seed");

static void v2_seed(const void *challenge, size_t size,
		    uint8_t seed[HASHWX_SEED_SIZE])
{
	/* libsodium refuses a NULL message even of length 0. */
	static const unsigned char empty[1];

	crypto_generichash_blake2b_salt_personal(
		seed, HASHWX_SEED_SIZE, challenge != NULL ? challenge : empty,
		(unsigned long long)size, NULL, 0, v2_salt, v2_personal);
}

/* A context of `type`, or NULL where there is none (out of memory, or
 * no compiler: HASHWX_NOTSUPP). */
static hashwx_ctx *hashwx_or_null(hashwx_type type)
{
	hashwx_ctx *ctx = hashwx_alloc(type);

	return ctx == HASHWX_NOTSUPP ? NULL : ctx;
}

/* v1's rule, mirrored: a MUST_COMPILE context is made without native
 * code where there is none, and says EQUIX_FAIL_COMPILE at each solve
 * and verify; TRY_COMPILE compiles for the solver where it can. */
static bool alloc_v2(equix_hash *h, equix_ctx_flags flags)
{
	bool want_native = (flags & EQUIX_CTX_MUST_COMPILE) ||
			   ((flags & EQUIX_CTX_TRY_COMPILE) &&
			    (flags & EQUIX_CTX_SOLVE));

	if (want_native) {
		hashwx_ctx *ctx = hashwx_alloc(HASHWX_COMPILED);

		if (ctx == NULL)
			return false;
		h->native = ctx == HASHWX_NOTSUPP ? NULL : ctx;
	}
	h->interp = hashwx_or_null(HASHWX_INTERPRETED);
	return h->interp != NULL;
}

/* The HashWX context that computes this make's hashes, or NULL
 * (MUST_COMPILE without native code). */
static hashwx_ctx *v2_ctx_for(const equix_hash *h, bool few)
{
	if (h->must_compile)
		return h->native;
	if (few || h->native == NULL)
		return h->interp;
	return h->native;
}

static equix_result make_v2(equix_hash *h, const void *challenge,
			    size_t size, bool few)
{
	uint8_t seed[HASHWX_SEED_SIZE];
	hashwx_type type;

	h->current = v2_ctx_for(h, few);
	if (h->current == NULL)
		return EQUIX_FAIL_COMPILE;
	v2_seed(challenge, size, seed);
	hashwx_make(h->current, seed);
	/* A system that refuses executable memory leaves the function
	 * interpreted (hashwx.h): not what MUST_COMPILE asked for. */
	if (h->must_compile &&
	    (hashwx_query_type(h->current, &type) != 0 ||
	     type != HASHWX_COMPILED))
		return EQUIX_FAIL_COMPILE;
	return EQUIX_OK;
}

/* Stage 0 for v2: the hashes come in batches from the one entry point
 * for many HashWX hashes (hashwx_context.h), so a faster batch form
 * serves the solver without a change here; each goes into the table
 * by the same rule as HashX's (hashx_scatter_put). */
#define V2_BATCH 512
_Static_assert(EQUIX_INDEX_SPACE % V2_BATCH == 0,
	       "the batches cover the index space exactly");

static void scatter_v2(const hashwx_ctx *ctx, const hashx_scatter *t)
{
	uint64_t hashes[V2_BATCH];

	for (uint64_t first = 0; first < EQUIX_INDEX_SPACE;
	     first += V2_BATCH) {
		hashwx_ctx_exec_batch(ctx, first, V2_BATCH, hashes);
		for (unsigned k = 0; k < V2_BATCH; k++)
			hashx_scatter_put(t, first + k, hashes[k]);
	}
}

/* ---- the family ----------------------------------------------------- */

bool equix_hash_alloc(equix_hash *h, equix_ctx_flags flags)
{
	*h = (equix_hash){
		.v2 = (flags & EQUIX_CTX_V2) != 0,
		.must_compile = (flags & EQUIX_CTX_MUST_COMPILE) != 0,
	};
	if (h->v2)
		return alloc_v2(h, flags);
	h->x = hashx_alloc(hashx_type_for(flags));
	return h->x != NULL;
}

void equix_hash_free(equix_hash *h)
{
	hashx_free(h->x);
	hashwx_free(h->native);
	hashwx_free(h->interp);
	*h = (equix_hash){0};
}

equix_result equix_hash_make(equix_hash *h, const void *challenge,
			     size_t size, bool few)
{
	return h->v2 ? make_v2(h, challenge, size, few)
		     : make_v1(h, challenge, size, few);
}

bool equix_hash_compiled(const equix_hash *h)
{
	if (h->v2) {
		hashwx_type wt;

		return hashwx_query_type(h->current, &wt) == 0 &&
		       wt == HASHWX_COMPILED;
	}
	hashx_type t;

	return hashx_query_type(h->x, &t) == HASHX_OK &&
	       t == HASHX_TYPE_COMPILED;
}

void equix_hash_scatter(equix_hash *h, const hashx_scatter *t)
{
	if (h->v2)
		scatter_v2(h->current, t);
	else
		hashx_exec_scatter(h->x, 0, EQUIX_INDEX_SPACE, t);
}

/* The 8 hashes of a verification, in one group of lanes where the
 * context has them (hashwx_ctx_exec8), as v1's hashx_exec8_u64 does. */
void equix_hash_8(const equix_hash *h, const uint64_t input[8],
		  uint64_t out[8])
{
	if (!h->v2) {
		hashx_exec8_u64(h->x, input, out);
		return;
	}
	hashwx_ctx_exec8(h->current, input, out);
}
