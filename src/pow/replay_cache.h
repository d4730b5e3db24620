/*
 * replay_cache.h - the set of nonces a service has accepted under one seed.
 *
 * A proof may be submitted once: the service remembers each accepted
 * nonce until its seed is retired. The nonces come from attackers, who
 * would like to make lookups slow or memory grow without end, so:
 *  - slots are found with SipHash under a key drawn at random per
 *    service, which an attacker cannot aim collisions at;
 *  - memory is charged against a budget shared by the service's sets,
 *    counting the peak while a table doubles; an insertion that would
 *    exceed it fails, and the caller then refuses the proof (fail closed).
 *
 * Open addressing with linear probing over a power-of-two table, at most
 * 3/4 full; a separate bitmap marks used slots (every 16-byte nonce is a
 * valid key, so none can mean "empty"). Not thread-safe: the service
 * holds a lock around every call.
 */
#ifndef EQUIX_POW_REPLAY_CACHE_H
#define EQUIX_POW_REPLAY_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "equix_pow.h"

typedef struct replay_set {
	uint8_t (*nonces)[EQUIX_POW_NONCE_LEN];
	uint64_t *used; /* one bit per slot */
	size_t slots;   /* 0 (nothing allocated) or a power of two */
	size_t count;
	const uint8_t *hash_key; /* crypto_shorthash_KEYBYTES, the service's */
} replay_set;

typedef enum replay_insert_result {
	REPLAY_INSERTED,
	REPLAY_PRESENT,
	REPLAY_FULL,      /* would exceed the budget */
	REPLAY_NO_MEMORY, /* within the budget, but malloc failed */
} replay_insert_result;

/* An empty set hashing with `hash_key` (kept by reference). */
void replay_set_init(replay_set *set, const uint8_t *hash_key);

/* Frees the set's memory; it is then empty, ready for reuse. */
void replay_set_clear(replay_set *set);

/* Bytes the set holds now, and would hold with `slots` slots. */
size_t replay_set_bytes(const replay_set *set);
size_t replay_set_bytes_for(size_t slots);

int replay_set_contains(const replay_set *set,
			const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

/* Adds `nonce`. `spare_bytes` is the budget left beyond what all sets
 * hold now; growing the table may use it. */
replay_insert_result replay_set_insert(replay_set *set,
				       const uint8_t nonce[EQUIX_POW_NONCE_LEN],
				       size_t spare_bytes);

/* Removes `nonce` if present (a reservation whose proof failed). */
void replay_set_remove(replay_set *set,
		       const uint8_t nonce[EQUIX_POW_NONCE_LEN]);

#endif
