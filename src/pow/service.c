/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * service.c - verification on the service side, in the order Tor's
 * service checks a proof: cheapest first, so a flood of junk costs little.
 *
 *   0. the effort must reach the service's minimum, if it has one;
 *   1. the seed head must name the current or the previous seed;
 *   2. the (nonce, seed) pair must not be recorded, at any effort
 *      (FAIL_REPLAY);
 *   3. the effort check (one 4-byte BLAKE2b);
 *   4. the pair is reserved in the replay cache, unless the seed's filter
 *      of pairs the full cache let go may hold it (FAIL_EVICTED, see
 *      below);
 *   5. equix_verify() (eight HashX evaluations plus the program build);
 *   6. the reservation becomes the record.
 *
 * Steps 3 and 5 need no state, nor does step 1 once the seed is found:
 * they are pow_check_proof() (proof_check.c), which the WebAssembly core calls
 * too, with step 4 as its gate; this file has the steps of the state.
 *
 * Threads: one lock guards the seeds and the replay cache, and is never
 * held while hashing. The reservation (step 4) keeps two threads given
 * the same proof from both accepting it, and a proof that fails step 5
 * gives it back, so a failed attempt does not use up the nonce.
 *
 * A full cache: a proof may take the place of a recorded one (the previous
 * seed's first, then the cheapest), but only once it has passed step 5
 * (an invalid proof must not evict anything, since every eviction adds to
 * a filter's false refusals), so it is verified first and recorded after,
 * evicting then; a second thread with the same proof meanwhile finds it
 * present. The evicted nonce goes into its seed's filter, which refuses
 * it for as long as the seed lives (replay_cache.h): room comes back when
 * a reservation is given back or a seed retires, and the evicted proof
 * must not get in then. Steps 2, 4 and 6 all ask the cache under the
 * lock, since an eviction may come between any two.
 *
 * Seeds: a proof is never accepted twice, so a seed whose entries were
 * dropped must never be current again. Rotating to the current seed
 * changes nothing, to the previous one swaps the two (both keep their
 * entries and filters), and to a seed retired before is refused;
 * every retired seed is remembered (retired_seeds.h: 32 bytes each, a
 * few a day in Tor's use).
 */
#include <config.h>

#include <stdbool.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <hashx.h>

#include "proof_check.h"
#include "v1_flags.h"
#include "equix_pow.h"
#include "replay_cache.h"
#include "retired_seeds.h"

/* A live seed. Its index in the service's array is the tag its replay
 * entries carry, kept while it lives (a swap of current and previous
 * moves no entry). The generation tells a reservation whether its seed is
 * still the one it reserved under. */
typedef struct seed_slot {
	int present;
	uint64_t generation;
	uint8_t seed[EQUIX_POW_SEED_LEN];
} seed_slot;

struct equix_pow_service {
	pthread_mutex_t lock; /* everything down to `retired` */
	seed_slot seeds[2];
	unsigned current; /* index of the current seed; the other: previous */
	uint64_t last_generation;
	replay_cache cache;
	retired_seeds retired;
	_Atomic uint32_t min_effort; /* 0: none */
	uint8_t id[EQUIX_POW_ID_LEN];
	uint8_t hash_key[crypto_shorthash_KEYBYTES];
	pthread_mutex_t ctx_lock; /* the shared context, one user at a time */
	equix_ctx *ctx;
};

static void slot_set_seed(equix_pow_service *s, unsigned index,
			  const uint8_t *seed)
{
	seed_slot *slot = &s->seeds[index];

	slot->present = 1;
	slot->generation = ++s->last_generation;
	memcpy(slot->seed, seed, EQUIX_POW_SEED_LEN);
}

/* Whether native HashX code can be made here at all: a service whose
 * verification must be compiled would otherwise refuse every proof. */
static bool can_compile(void)
{
	static const char probe_seed[] = "equix service compile probe";
	hashx_ctx *h = hashx_alloc(HASHX_TYPE_COMPILED);
	bool ok = h != NULL &&
		  hashx_make(h, probe_seed, sizeof probe_seed) == HASHX_OK;

	hashx_free(h);
	return ok;
}

equix_pow_service *
equix_pow_service_alloc(const uint8_t id[EQUIX_POW_ID_LEN],
			const uint8_t seed[EQUIX_POW_SEED_LEN],
			size_t replay_cache_bytes, equix_ctx_flags flags)
{
	if (id == NULL || seed == NULL || sodium_init() < 0)
		return NULL;
	if (replay_cache_bytes == 0)
		replay_cache_bytes = EQUIX_POW_REPLAY_DEFAULT_BYTES;
	if (replay_cache_bytes < EQUIX_POW_REPLAY_MIN_BYTES)
		return NULL;
	if ((flags & EQUIX_CTX_MUST_COMPILE) && !can_compile())
		return NULL;
	equix_pow_service *s = calloc(1, sizeof *s);
	if (s == NULL)
		return NULL;
	/* Verification never needs the solver's 1,576,320 bytes, and PoW v1
	 * is Equi-X v1 whatever the caller passes (EQUIX_POW_V1_FLAGS). */
	s->ctx = equix_alloc((equix_ctx_flags)(flags & EQUIX_POW_V1_FLAGS &
					       ~EQUIX_CTX_SOLVE));
	if (s->ctx == NULL) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->ctx_lock, NULL);
	memcpy(s->id, id, EQUIX_POW_ID_LEN);
	randombytes_buf(s->hash_key, sizeof s->hash_key);
	replay_cache_init(&s->cache, s->hash_key, replay_cache_bytes);
	retired_seeds_init(&s->retired, s->hash_key);
	atomic_init(&s->min_effort, 0);
	s->current = 0;
	slot_set_seed(s, 0, seed);
	return s;
}

void equix_pow_service_free(equix_pow_service *s)
{
	if (s == NULL)
		return;
	replay_cache_clear(&s->cache);
	retired_seeds_clear(&s->retired);
	equix_free(s->ctx);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->ctx_lock);
	sodium_memzero(s, sizeof *s);
	free(s);
}

equix_pow_result equix_pow_service_set_min_effort(equix_pow_service *s,
						  uint32_t min_effort)
{
	if (s == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	atomic_store_explicit(&s->min_effort, min_effort,
			      memory_order_relaxed);
	return EQUIX_POW_OK;
}

/* Called with the lock held. */
static bool seed_matches(const seed_slot *slot, const uint8_t *seed)
{
	return slot->present &&
	       memcmp(slot->seed, seed, EQUIX_POW_SEED_LEN) == 0;
}

/* Called with the lock held: a seed never seen becomes current. */
static equix_pow_result rotate_to_new_seed(equix_pow_service *s,
					   const uint8_t *seed)
{
	unsigned previous = s->current ^ 1;

	if (s->seeds[previous].present) {
		if (!retired_seeds_add(&s->retired, s->seeds[previous].seed))
			return EQUIX_POW_FAIL_NO_MEMORY;
		replay_cache_drop_seed(&s->cache, previous);
	}
	slot_set_seed(s, previous, seed);
	s->current = previous;
	replay_cache_set_current(&s->cache, s->current);
	return EQUIX_POW_OK;
}

equix_pow_result
equix_pow_service_rotate(equix_pow_service *s,
			 const uint8_t seed[EQUIX_POW_SEED_LEN])
{
	equix_pow_result r = EQUIX_POW_OK;

	if (s == NULL || seed == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	pthread_mutex_lock(&s->lock);
	if (seed_matches(&s->seeds[s->current], seed))
		; /* already current: nothing changes */
	else if (seed_matches(&s->seeds[s->current ^ 1], seed)) {
		s->current ^= 1; /* back to the previous seed: a swap */
		replay_cache_set_current(&s->cache, s->current);
	}
	else if (retired_seeds_contains(&s->retired, seed))
		r = EQUIX_POW_FAIL_SEED_RETIRED;
	else
		r = rotate_to_new_seed(s, seed);
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* Called with the lock held. Tor looks at the current seed first. */
static int seed_for_head(const equix_pow_service *s, const uint8_t *head)
{
	for (unsigned k = 0; k < 2; k++) {
		unsigned i = s->current ^ k;

		if (s->seeds[i].present &&
		    memcmp(s->seeds[i].seed, head, EQUIX_POW_SEED_HEAD_LEN) == 0)
			return (int)i;
	}
	return -1;
}

/* Called with the lock held: the seed's tag, unless rotation retired it
 * (-1). */
static int seed_for_generation(const equix_pow_service *s,
			       uint64_t generation)
{
	for (unsigned i = 0; i < 2; i++)
		if (s->seeds[i].present && s->seeds[i].generation == generation)
			return (int)i;
	return -1;
}

static equix_pow_result insert_result(replay_insert_result r)
{
	switch (r) {
	case REPLAY_INSERTED:
	case REPLAY_ABSENT:
		return EQUIX_POW_OK;
	case REPLAY_PRESENT:
		return EQUIX_POW_FAIL_REPLAY;
	case REPLAY_FORGOTTEN:
		return EQUIX_POW_FAIL_EVICTED;
	case REPLAY_FULL:
		return EQUIX_POW_FAIL_CACHE_FULL;
	case REPLAY_NO_MEMORY:
		break;
	}
	return EQUIX_POW_FAIL_NO_MEMORY;
}

/* Steps 1 and 2: copies out the seed and its generation. */
static equix_pow_result find_seed(equix_pow_service *s,
				  const equix_pow_solution *proof,
				  uint8_t *seed, uint64_t *generation)
{
	equix_pow_result r = EQUIX_POW_FAIL_SEED_HEAD;
	int tag;

	pthread_mutex_lock(&s->lock);
	tag = seed_for_head(s, proof->seed_head);
	if (tag >= 0)
		r = replay_cache_contains(&s->cache, (unsigned)tag, proof->nonce)
			    ? EQUIX_POW_FAIL_REPLAY
			    : EQUIX_POW_OK;
	if (r == EQUIX_POW_OK) {
		memcpy(seed, s->seeds[tag].seed, EQUIX_POW_SEED_LEN);
		*generation = s->seeds[tag].generation;
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* What step 4 found. */
typedef enum reservation {
	RESERVED,       /* the pair is held, pending */
	VERIFY_THEN_EVICT, /* full, but an entry may give its place */
	NOT_RESERVED,   /* refused: see the result */
} reservation;

/* Step 4. */
static reservation reserve(equix_pow_service *s, uint64_t generation,
			   const equix_pow_solution *proof,
			   equix_pow_result *refusal)
{
	reservation k = NOT_RESERVED;
	replay_insert_result r;
	int tag;

	*refusal = EQUIX_POW_FAIL_SEED_HEAD; /* rotated away */
	pthread_mutex_lock(&s->lock);
	tag = seed_for_generation(s, generation);
	if (tag >= 0) {
		r = replay_cache_insert(&s->cache, (unsigned)tag, proof->nonce,
					proof->effort, 1);
		*refusal = insert_result(r);
		if (r == REPLAY_INSERTED)
			k = RESERVED;
		else if (r == REPLAY_FULL && replay_cache_evictable(&s->cache))
			k = VERIFY_THEN_EVICT;
	}
	pthread_mutex_unlock(&s->lock);
	return k;
}

/* Step 6, after step 5 succeeded: the reservation is the record, or the
 * proof takes the place of a cheaper one. A seed rotated out meanwhile
 * took its entries with it, but it is retired for good, so no proof under
 * it can come again: the proof, valid under a seed known when it came,
 * stays accepted. */
static equix_pow_result record(equix_pow_service *s, uint64_t generation,
			       const equix_pow_solution *proof, reservation k)
{
	equix_pow_result r = EQUIX_POW_OK;
	int tag;

	pthread_mutex_lock(&s->lock);
	tag = seed_for_generation(s, generation);
	if (tag >= 0 && k == RESERVED)
		replay_cache_confirm(&s->cache, (unsigned)tag, proof->nonce);
	else if (tag >= 0)
		r = insert_result(replay_cache_insert_evicting(
			&s->cache, (unsigned)tag, proof->nonce, proof->effort));
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* A reservation whose proof failed step 5 is given back. */
static void release(equix_pow_service *s, uint64_t generation,
		    const uint8_t *nonce)
{
	int tag;

	pthread_mutex_lock(&s->lock);
	tag = seed_for_generation(s, generation);
	if (tag >= 0)
		replay_cache_remove(&s->cache, (unsigned)tag, nonce);
	pthread_mutex_unlock(&s->lock);
}

/* One call of equix_pow_service_verify(), as step 4 (the gate of
 * pow_check_proof()) sees it. */
typedef struct verify_call {
	equix_pow_service *s;
	uint64_t generation; /* of the seed steps 1 and 2 found */
	bool own_ctx;        /* the caller passed no context: the state's */
	reservation k;       /* what step 4 found; NOT_RESERVED before it */
} verify_call;

/* Step 4, and then, for step 5 on the state's context, its lock (which
 * equix_pow_service_verify() releases once pow_check_proof() returns). */
static equix_pow_result reserve_gate(void *user,
				     const equix_pow_solution *proof)
{
	verify_call *c = user;
	equix_pow_result refusal;

	c->k = reserve(c->s, c->generation, proof, &refusal);
	if (c->k == NOT_RESERVED)
		return refusal;
	if (c->own_ctx)
		pthread_mutex_lock(&c->s->ctx_lock);
	return EQUIX_POW_OK;
}

equix_pow_result equix_pow_service_verify(equix_pow_service *s, equix_ctx *ctx,
					  const equix_pow_solution *proof)
{
	uint8_t seed[EQUIX_POW_SEED_LEN];
	verify_call c = { .s = s, .own_ctx = ctx == NULL, .k = NOT_RESERVED };
	equix_pow_result r;

	if (s == NULL || proof == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (proof->effort < atomic_load_explicit(&s->min_effort,
						 memory_order_relaxed))
		return EQUIX_POW_FAIL_LOW_EFFORT;
	if ((r = find_seed(s, proof, seed, &c.generation)) != EQUIX_POW_OK)
		return r;
	r = pow_check_proof(c.own_ctx ? s->ctx : ctx, s->id, seed, proof,
			    reserve_gate, &c);
	if (c.k == NOT_RESERVED)
		return r; /* refused before step 5 */
	if (c.own_ctx)
		pthread_mutex_unlock(&s->ctx_lock);
	if (r != EQUIX_POW_OK) {
		if (c.k == RESERVED)
			release(s, c.generation, proof->nonce);
		return r;
	}
	return record(s, c.generation, proof, c.k);
}

equix_pow_result equix_pow_service_stats(equix_pow_service *s,
					 equix_pow_replay_stats *stats)
{
	if (s == NULL || stats == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	pthread_mutex_lock(&s->lock);
	stats->entries = s->cache.count;
	stats->bytes = replay_cache_bytes(&s->cache);
	stats->cap_bytes = s->cache.cap_bytes;
	pthread_mutex_unlock(&s->lock);
	return EQUIX_POW_OK;
}
