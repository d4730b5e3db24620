/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * replay_cache.h - the proofs a service has accepted under its two live
 * seeds, in one table under one memory cap.
 *
 * A proof may be accepted once: the service records each accepted
 * (seed, nonce) pair until the seed is retired. The nonces come from
 * attackers, who would like to make lookups slow, memory grow without
 * end, or the cache fill with proofs that cost them nothing, so:
 *  - slots are found with SipHash under a key drawn at random per
 *    service, which an attacker cannot aim collisions at;
 *  - the memory of the table and the entries is capped, counting the peak
 *    while the table grows (old and new together); an insertion that
 *    would pass the cap fails, and the caller then refuses the proof
 *    unless it may evict (fail closed);
 *  - each entry carries its proof's effort, and the entries form a
 *    min-heap by effort, so that when the cache is full the cheapest
 *    recorded proof can make room for a dearer one;
 *  - an evicted proof is forgotten, but not its effort: per seed the
 *    cache keeps the highest effort it evicted, and refuses every proof
 *    at or below it (REPLAY_FORGOTTEN), since any of them may be one it
 *    accepted and then forgot. Without that, a proof evicted while the
 *    cache was full would pass again as soon as room came back (a seed
 *    rotated out, a reservation given back).
 *
 * Both seeds share the table (an entry says which of the two it belongs
 * to): one cap then serves whichever seed the proofs come under, and a
 * full cache can give up the cheapest entry of either.
 *
 * Layout: the table holds, per slot, 0 (empty) or 1 + the index of an
 * entry in the heap array; each entry holds its slot back, so that a move
 * in either structure updates the other in O(1). Open addressing with
 * linear probing, at most 3/4 full. An entry being verified is "pending":
 * it holds its nonce against a second thread sending the same proof, but
 * it is not yet known to be a valid proof, so it is never evicted.
 *
 * Not thread-safe: the service holds a lock around every call.
 */
#ifndef EQUIX_POW_REPLAY_CACHE_H
#define EQUIX_POW_REPLAY_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "equix_pow.h"

/* The table's slot numbers fit 30 bits of an entry. */
#define REPLAY_MAX_SLOTS ((size_t)1 << 30)

typedef struct replay_entry {
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	uint32_t effort;
	uint32_t slot : 30;   /* where the table points at this entry */
	uint32_t seed : 1;    /* which of the service's two live seeds */
	uint32_t pending : 1; /* reserved; its proof is being verified */
} replay_entry;

typedef struct replay_cache {
	uint32_t *table;    /* per slot: 0, or 1 + an index into heap */
	replay_entry *heap; /* room for replay_cache_capacity(slots) */
	size_t slots;       /* 0: nothing allocated yet */
	size_t count;
	size_t cap_bytes;
	const uint8_t *hash_key; /* crypto_shorthash_KEYBYTES, the service's */
	/* per seed: 1 + the highest effort evicted under it; 0: none yet */
	uint64_t evicted_bound[2];
} replay_cache;

typedef enum replay_insert_result {
	REPLAY_INSERTED,
	REPLAY_ABSENT,    /* replay_cache_lookup: neither of the two below */
	REPLAY_PRESENT,   /* recorded, or reserved */
	REPLAY_FORGOTTEN, /* at or below an effort evicted under its seed */
	REPLAY_FULL,      /* no room without passing the cap */
	REPLAY_NO_MEMORY, /* within the cap, but malloc failed */
} replay_insert_result;

/* An empty cache capped at `cap_bytes`, hashing with `hash_key` (kept by
 * reference). Allocates nothing until the first insertion. */
void replay_cache_init(replay_cache *cache, const uint8_t *hash_key,
		       size_t cap_bytes);

/* Frees the cache's memory; it is then empty, ready for reuse. */
void replay_cache_clear(replay_cache *cache);

/* Entries a table of `slots` slots may hold; bytes the cache holds now,
 * and would hold with `slots` slots. */
size_t replay_cache_capacity(size_t slots);
size_t replay_cache_bytes(const replay_cache *cache);
size_t replay_cache_bytes_for(size_t slots);

/* Whether (seed, nonce) is recorded or reserved. */
bool replay_cache_contains(const replay_cache *cache, unsigned seed,
			   const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Whether (seed, nonce) at `effort` may be new to the cache:
 * REPLAY_PRESENT, REPLAY_FORGOTTEN (checked in that order) or
 * REPLAY_ABSENT. */
replay_insert_result replay_cache_lookup(const replay_cache *cache,
					 unsigned seed,
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN],
					 uint32_t effort);

/* Adds (seed, nonce) unless replay_cache_lookup() refuses it, growing the
 * table when the cap allows; evicts nothing. `pending`: a reservation
 * (see above). */
replay_insert_result replay_cache_insert(replay_cache *cache, unsigned seed,
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN],
					 uint32_t effort, int pending);

/* As replay_cache_insert (not pending), but when the cache is full the
 * cheapest recorded entry gives its place, if its effort is below
 * `effort` (its seed's bound then rises to it); REPLAY_FULL otherwise. */
replay_insert_result replay_cache_insert_evicting(
	replay_cache *cache, unsigned seed,
	const uint8_t nonce[EQUIX_POW_NONCE_LEN], uint32_t effort);

/* The effort of the cheapest entry that is not pending, if there is one
 * (returns 1). */
bool replay_cache_cheapest(const replay_cache *cache, uint32_t *effort);

/* A pending entry's proof was valid: it becomes an ordinary entry. */
void replay_cache_confirm(replay_cache *cache, unsigned seed,
			  const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Removes (seed, nonce) if present (a reservation whose proof failed). */
void replay_cache_remove(replay_cache *cache, unsigned seed,
			 const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Removes every entry of `seed` and its evicted bound (the seed is
 * retired: none of its proofs can come again). */
void replay_cache_drop_seed(replay_cache *cache, unsigned seed);

#endif
