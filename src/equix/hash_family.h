/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hash_family.h - the hash an Equi-X context sums: HashX (v1) or HashWX
 * (v2, EQUIX_CTX_V2), chosen once by equix_alloc(). Everything in which
 * the two versions differ lives here: the context's hash, how a challenge
 * becomes a function, how the hashes are computed. The solver's stages
 * 1-3, the sums, the tree order and the solution are the same for both
 * (doc/equix.md, "Equi-X v2").
 */
#ifndef EQUIX_HASH_FAMILY_H
#define EQUIX_HASH_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <equix.h>
#include <hashwx.h>
#include <hashx.h>

#include "hashx_internal.h"

typedef struct equix_hash {
	bool v2;
	bool must_compile; /* EQUIX_CTX_MUST_COMPILE */
	hashx_ctx *x;      /* v1's function; NULL in v2 */
	/* v2: `native`, a compiled HashWX context, serves the solver (and
	 * every hash of a MUST_COMPILE context); NULL where none was asked
	 * for or this build or machine has no HashWX compiler. `interp`
	 * serves the rest, above all verification, whose 8 hashes cost less
	 * interpreted than a compiler run. NULL in v1. */
	hashwx_ctx *native;
	hashwx_ctx *interp;
	hashwx_ctx *current; /* the one the last equix_hash_make() made */
} equix_hash;

/* Sets up `h` for a context of `flags`; false when memory runs out (then
 * equix_hash_free() still cleans up). */
bool equix_hash_alloc(equix_hash *h, equix_ctx_flags flags);

void equix_hash_free(equix_hash *h);

/* Makes the challenge's function; `few` when only a few hashes follow
 * (verification). EQUIX_FAIL_CHALLENGE (v1 only), EQUIX_FAIL_COMPILE
 * (MUST_COMPILE without native code) or EQUIX_OK. */
equix_result equix_hash_make(equix_hash *h, const void *challenge,
			     size_t size, bool few);

/* Whether the function made last runs as native code. */
bool equix_hash_compiled(const equix_hash *h);

/* Stage 0: hashes inputs 0 .. 2^16 - 1 into the table `t` (scatter.h's
 * rule), with the function made last. */
void equix_hash_scatter(equix_hash *h, const hashx_scatter *t);

/* The 64-bit hash values of input[0..7] that Equi-X sums. */
void equix_hash_8(const equix_hash *h, const uint64_t input[8],
		  uint64_t out[8]);

#endif
