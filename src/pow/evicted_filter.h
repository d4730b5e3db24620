/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evicted_filter.h - the nonces a full replay cache let go under one seed,
 * as a Bloom filter: a few bits a nonce where an entry of the cache takes
 * 30, so that the cache can make room without forgetting what it held.
 *
 * Why a filter and not a bound: a proof is keyed by its (seed, nonce), and
 * its effort is the client's choice, so once a nonce's entry is gone no
 * rule on the effort can tell it from a new one; refusing every effort up
 * to the evicted one locked out honest clients and still let the evicted
 * nonce back at a higher effort. The filter remembers the nonces
 * themselves, approximately: it never says "absent" of a nonce it was
 * given (no proof is accepted twice), and says "may be present" of a new
 * one with probability
 *
 *     (1 - e^(-K n / m))^K      n nonces added, m bits, K = 4
 *
 * which grows smoothly with n and reaches 1 only in the limit: a filter
 * that an attacker has saturated refuses nearly everything under its
 * seed, failing closed, and never drops a nonce to make room. K = 4 rather
 * than the K that is best at one load (about 7 for 1%): it refuses a
 * little more at light load and much less at heavy load, where it counts
 * (doc/pow-v1.md, section 7, has the figures).
 *
 * The bits are allocated with the first nonce: a cache that never fills
 * never pays for them. Positions come from SipHash-2-4 with 128-bit output
 * (libsodium's crypto_shorthash_siphashx24) under the service's random
 * key, so clients cannot choose nonces that share bits, and two halves of
 * it make the K positions (double hashing).
 *
 * Not thread-safe: the service holds its lock around every call.
 */
#ifndef EQUIX_POW_EVICTED_FILTER_H
#define EQUIX_POW_EVICTED_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "equix_pow.h"

/* The number of positions a nonce sets (K above). */
#define EVICTED_FILTER_HASHES 4

typedef struct evicted_filter {
	uint64_t *words;         /* NULL until the first nonce */
	size_t word_count;       /* fixed at evicted_filter_init */
	size_t added;            /* nonces added (repeats counted) */
	const uint8_t *hash_key; /* crypto_shorthash_KEYBYTES, the service's */
} evicted_filter;

/* An empty filter of `bytes` bytes (rounded down to whole 64-bit words;
 * fewer than 8: a filter that can hold nothing), hashing with `hash_key`
 * (kept by reference). Allocates nothing. */
void evicted_filter_init(evicted_filter *f, const uint8_t *hash_key,
			 size_t bytes);

/* Frees the bits: the filter is empty again, the same size. */
void evicted_filter_clear(evicted_filter *f);

/* Adds `nonce`; false when the bits cannot be allocated or the filter has
 * none (it is then unchanged). */
bool evicted_filter_add(evicted_filter *f,
			const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Whether `nonce` may have been added: always for one that was. */
bool evicted_filter_may_contain(const evicted_filter *f,
				const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Bytes allocated now (0 before the first nonce), and at most. */
size_t evicted_filter_bytes(const evicted_filter *f);
size_t evicted_filter_size(const evicted_filter *f);

#endif
