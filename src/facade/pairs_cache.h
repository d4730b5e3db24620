/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pairs_cache.h - the paired form of an interpreted function
 * (interpreter.h's hashx_pairs) as a context keeps it: decoded by the
 * first hash that needs it, then shared by every hash of that function.
 */
#ifndef HASHX_PAIRS_CACHE_H
#define HASHX_PAIRS_CACHE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "interpreter.h"
#include "program.h"

#if HASHX_HAVE_PAIRED_INTERPRETER

/* The cache's life, in `state`. */
enum {
	HASHX_PAIRS_NEVER,   /* this function is not run from it */
	HASHX_PAIRS_PENDING, /* to be decoded by the first hash that needs it */
	HASHX_PAIRS_DECODING, /* a hash in another thread is decoding it */
	HASHX_PAIRS_READY,    /* `pairs` is complete */
};

/* Invariant: `pairs` is read only once `state` is READY (acquire), and
 * written only by the one hash that moved it from PENDING to DECODING;
 * hashx_exec fills it through a const context, hence the atomics. */
typedef struct hashx_pairs_cache {
	hashx_pairs pairs;
	atomic_int state;
} hashx_pairs_cache;

/* For a new function: to be decoded on first use when `wanted`, else
 * never. */
static inline void hashx_pairs_cache_reset(hashx_pairs_cache *c, bool wanted)
{
	atomic_store_explicit(&c->state,
			      wanted ? HASHX_PAIRS_PENDING : HASHX_PAIRS_NEVER,
			      memory_order_relaxed);
}

/*
 * The paired form of `prog` where it can be run, decoding it first if no
 * hash has yet; NULL when it cannot be. Decoding (about half a
 * microsecond, a twentieth of hashx_make) pays for itself after three
 * hashes, so it waits for the first hash rather than slowing every make
 * (generate/interp measured +15% with it there). hashx_exec may run on
 * one context in several threads at once: one of them claims the
 * decoding, the others run the plain interpreter meanwhile, and READY is
 * published with release order after the form is complete.
 */
static inline const hashx_pairs *
hashx_pairs_cache_get(hashx_pairs_cache *c, const hashx_program *prog)
{
	int state = atomic_load_explicit(&c->state, memory_order_acquire);

	if (state == HASHX_PAIRS_READY)
		return &c->pairs;
	if (state != HASHX_PAIRS_PENDING ||
	    !atomic_compare_exchange_strong_explicit(
		    &c->state, &state, HASHX_PAIRS_DECODING,
		    memory_order_acquire, memory_order_relaxed))
		return NULL;
	hashx_pairs_decode(prog, &c->pairs);
	atomic_store_explicit(&c->state, HASHX_PAIRS_READY,
			      memory_order_release);
	return &c->pairs;
}

#endif

#endif
