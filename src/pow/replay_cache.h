/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * replay_cache.h - the proofs a service has accepted under its two live
 * seeds: the recent ones exactly, in one table, and those a full table let
 * go in a filter per seed, all under one memory cap.
 *
 * A proof may be accepted once: the service records each accepted
 * (seed, nonce) pair until the seed is retired, whatever the proof's
 * effort (a nonce accepted at one effort must not pass again at
 * another). The nonces come from attackers, who would like to make
 * lookups slow, memory grow without end, or the cache refuse honest
 * clients, so:
 *  - slots are found with SipHash under a key drawn at random per
 *    service, which an attacker cannot aim collisions at;
 *  - the cap is split once (replay_cache_init): a quarter for the table
 *    and its entries, counting the peak while the table grows (old and
 *    new together), and three eighths for each seed's filter of evicted
 *    nonces (evicted_filter.h). An insertion that would pass the table's
 *    share fails, and the caller then refuses the proof unless it may
 *    evict (fail closed);
 *  - when the table is full, a proof that has passed every check takes
 *    the place of a recorded entry, whose nonce goes into its seed's
 *    filter: the filter never forgets a nonce, so an evicted proof stays
 *    refused (REPLAY_FORGOTTEN), and only what may be one of them is
 *    refused, with the filter's false-positive rate (evicted_filter.h),
 *    instead of every proof below an effort;
 *  - the previous seed's entries go first, so they cannot crowd out the
 *    current seed's, then the cheapest: the entries form a min-heap on
 *    that rank. Which entry goes changes no answer (its nonce stays
 *    refused either way); it decides whose filter fills.
 *
 * Both seeds share the table (an entry says which of the two it belongs
 * to): one cap then serves whichever seed the proofs come under.
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
#include "evicted_filter.h"

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
	size_t cap_bytes;   /* the whole cap */
	size_t table_cap;   /* the table's share of it, peak counted */
	unsigned current;   /* the current seed's tag: its entries go last */
	const uint8_t *hash_key; /* crypto_shorthash_KEYBYTES, the service's */
	evicted_filter evicted[2]; /* per seed: the nonces it let go */
} replay_cache;

typedef enum replay_insert_result {
	REPLAY_INSERTED,
	REPLAY_ABSENT,    /* replay_cache_lookup: neither of the two below */
	REPLAY_PRESENT,   /* recorded, or reserved */
	REPLAY_FORGOTTEN, /* its seed's filter may hold it: maybe evicted */
	REPLAY_FULL,      /* no room without passing the cap */
	REPLAY_NO_MEMORY, /* within the cap, but malloc failed */
} replay_insert_result;

/* An empty cache capped at `cap_bytes` (split as above), hashing with
 * `hash_key` (kept by reference), seed 0 current. Allocates nothing until
 * the first insertion. */
void replay_cache_init(replay_cache *cache, const uint8_t *hash_key,
		       size_t cap_bytes);

/* The same with the split given: `table_cap` bytes for the table (peak
 * counted), `filter_bytes` for each seed's filter. */
void replay_cache_init_split(replay_cache *cache, const uint8_t *hash_key,
			     size_t table_cap, size_t filter_bytes);

/* Frees the cache's memory; it is then empty, ready for reuse. */
void replay_cache_clear(replay_cache *cache);

/* Entries a table of `slots` slots may hold; bytes the cache holds now
 * (the filters' included), and a table of `slots` slots would hold. */
size_t replay_cache_capacity(size_t slots);
size_t replay_cache_bytes(const replay_cache *cache);
size_t replay_cache_bytes_for(size_t slots);

/* Whether (seed, nonce) is recorded or reserved. */
bool replay_cache_contains(const replay_cache *cache, unsigned seed,
			   const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Whether (seed, nonce) may be new to the cache: REPLAY_PRESENT,
 * REPLAY_FORGOTTEN (checked in that order) or REPLAY_ABSENT. */
replay_insert_result replay_cache_lookup(const replay_cache *cache,
					 unsigned seed,
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Adds (seed, nonce) with `effort` unless replay_cache_lookup() refuses
 * it, growing the table when its share allows; evicts nothing. `pending`:
 * a reservation (see above). */
replay_insert_result replay_cache_insert(replay_cache *cache, unsigned seed,
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN],
					 uint32_t effort, int pending);

/* As replay_cache_insert (not pending), but when the table is full the
 * first entry by rank gives its place and its nonce goes into its seed's
 * filter; REPLAY_FULL when every entry is pending, REPLAY_NO_MEMORY when
 * the filter's bits cannot be allocated (nothing evicted then). */
replay_insert_result replay_cache_insert_evicting(
	replay_cache *cache, unsigned seed,
	const uint8_t nonce[EQUIX_POW_NONCE_LEN], uint32_t effort);

/* Whether an entry may be evicted: one that is not pending. */
bool replay_cache_evictable(const replay_cache *cache);

/* `seed` is now the current seed: the other's entries are evicted first. */
void replay_cache_set_current(replay_cache *cache, unsigned seed);

/* A pending entry's proof was valid: it becomes an ordinary entry. */
void replay_cache_confirm(replay_cache *cache, unsigned seed,
			  const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Removes (seed, nonce) if present (a reservation whose proof failed). */
void replay_cache_remove(replay_cache *cache, unsigned seed,
			 const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Removes every entry of `seed` and empties its filter (the seed is
 * retired: none of its proofs can come again). */
void replay_cache_drop_seed(replay_cache *cache, unsigned seed);

#endif
