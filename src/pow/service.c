/*
 * service.c - verification on the service side, in the order Tor's
 * service checks a proof: cheapest first, so a flood of junk costs little.
 *
 *   1. the seed head must name the current or the previous seed;
 *   2. the (nonce, seed) pair must not have been accepted before;
 *   3. the effort check (one 4-byte BLAKE2b);
 *   4. equix_verify() (eight HashX evaluations plus the program build).
 *
 * Threads: one lock guards the seeds and the replay sets, and is never
 * held while hashing. Between step 3 and step 4 the pair is reserved in
 * the replay set, so two threads given the same proof cannot both accept
 * it; a proof that then fails step 4 gives its reservation back, so a
 * failed attempt does not use up the nonce.
 */
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "equix_pow.h"
#include "replay_cache.h"

enum { CURRENT, PREVIOUS, SEED_SLOTS };

/* A seed and the nonces accepted under it. The generation tells a
 * reservation whether its seed is still the one it reserved under. */
struct seed_slot {
	int present;
	uint64_t generation;
	uint8_t seed[EQUIX_POW_SEED_LEN];
	replay_set accepted;
};

struct equix_pow_service {
	pthread_mutex_t lock; /* seeds, generations, replay sets */
	struct seed_slot slots[SEED_SLOTS];
	uint64_t last_generation;
	size_t cap_bytes;
	uint8_t id[EQUIX_POW_ID_LEN];
	uint8_t hash_key[crypto_shorthash_KEYBYTES];
	pthread_mutex_t ctx_lock; /* the shared context, one user at a time */
	equix_ctx *ctx;
};

static void slot_set_seed(equix_pow_service *s, struct seed_slot *slot,
			  const uint8_t *seed)
{
	slot->present = 1;
	slot->generation = ++s->last_generation;
	memcpy(slot->seed, seed, EQUIX_POW_SEED_LEN);
	replay_set_init(&slot->accepted, s->hash_key);
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
	equix_pow_service *s = calloc(1, sizeof *s);
	if (s == NULL)
		return NULL;
	/* Verification never needs the solver's 1.9 MiB. */
	s->ctx = equix_alloc((equix_ctx_flags)(flags & ~EQUIX_CTX_SOLVE));
	if (s->ctx == NULL) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->ctx_lock, NULL);
	s->cap_bytes = replay_cache_bytes;
	memcpy(s->id, id, EQUIX_POW_ID_LEN);
	randombytes_buf(s->hash_key, sizeof s->hash_key);
	slot_set_seed(s, &s->slots[CURRENT], seed);
	replay_set_init(&s->slots[PREVIOUS].accepted, s->hash_key);
	return s;
}

void equix_pow_service_free(equix_pow_service *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < SEED_SLOTS; i++)
		replay_set_clear(&s->slots[i].accepted);
	equix_free(s->ctx);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->ctx_lock);
	sodium_memzero(s, sizeof *s);
	free(s);
}

equix_pow_result
equix_pow_service_rotate(equix_pow_service *s,
			 const uint8_t seed[EQUIX_POW_SEED_LEN])
{
	if (s == NULL || seed == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	pthread_mutex_lock(&s->lock);
	replay_set_clear(&s->slots[PREVIOUS].accepted);
	s->slots[PREVIOUS] = s->slots[CURRENT];
	slot_set_seed(s, &s->slots[CURRENT], seed);
	pthread_mutex_unlock(&s->lock);
	return EQUIX_POW_OK;
}

/* Called with the lock held. Tor looks at the current seed first. */
static struct seed_slot *slot_for_head(equix_pow_service *s,
				       const uint8_t *head)
{
	for (int i = CURRENT; i < SEED_SLOTS; i++)
		if (s->slots[i].present && memcmp(s->slots[i].seed, head,
						  EQUIX_POW_SEED_HEAD_LEN) == 0)
			return &s->slots[i];
	return NULL;
}

/* Called with the lock held: the slot, unless rotation retired it. */
static struct seed_slot *slot_for_generation(equix_pow_service *s,
					     uint64_t generation)
{
	for (int i = CURRENT; i < SEED_SLOTS; i++)
		if (s->slots[i].present && s->slots[i].generation == generation)
			return &s->slots[i];
	return NULL;
}

static size_t bytes_held(const equix_pow_service *s)
{
	return replay_set_bytes(&s->slots[CURRENT].accepted) +
	       replay_set_bytes(&s->slots[PREVIOUS].accepted);
}

/* Steps 1 and 2: copies out the seed and its generation. */
static equix_pow_result find_seed(equix_pow_service *s,
				  const equix_pow_solution *proof,
				  uint8_t *seed, uint64_t *generation)
{
	equix_pow_result r = EQUIX_POW_OK;
	pthread_mutex_lock(&s->lock);
	struct seed_slot *slot = slot_for_head(s, proof->seed_head);
	if (slot == NULL) {
		r = EQUIX_POW_FAIL_SEED_HEAD;
	} else if (replay_set_contains(&slot->accepted, proof->nonce)) {
		r = EQUIX_POW_FAIL_REPLAY;
	} else {
		memcpy(seed, slot->seed, EQUIX_POW_SEED_LEN);
		*generation = slot->generation;
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

static equix_pow_result reserve(equix_pow_service *s, uint64_t generation,
				const uint8_t *nonce)
{
	equix_pow_result r = EQUIX_POW_FAIL_SEED_HEAD; /* rotated away */
	pthread_mutex_lock(&s->lock);
	struct seed_slot *slot = slot_for_generation(s, generation);
	if (slot != NULL) {
		size_t held = bytes_held(s);
		size_t spare = held < s->cap_bytes ? s->cap_bytes - held : 0;
		switch (replay_set_insert(&slot->accepted, nonce, spare)) {
		case REPLAY_INSERTED:
			r = EQUIX_POW_OK;
			break;
		case REPLAY_PRESENT:
			r = EQUIX_POW_FAIL_REPLAY;
			break;
		case REPLAY_FULL:
			r = EQUIX_POW_FAIL_CACHE_FULL;
			break;
		case REPLAY_NO_MEMORY:
			r = EQUIX_POW_FAIL_INTERNAL;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

static void release(equix_pow_service *s, uint64_t generation,
		    const uint8_t *nonce)
{
	pthread_mutex_lock(&s->lock);
	struct seed_slot *slot = slot_for_generation(s, generation);
	if (slot != NULL)
		replay_set_remove(&slot->accepted, nonce);
	pthread_mutex_unlock(&s->lock);
}

static equix_pow_result from_equix(equix_result r)
{
	switch (r) {
	case EQUIX_OK:
		return EQUIX_POW_OK;
	case EQUIX_FAIL_ORDER:
		return EQUIX_POW_FAIL_ORDER;
	case EQUIX_FAIL_CHALLENGE:
		return EQUIX_POW_FAIL_CHALLENGE;
	case EQUIX_FAIL_PARTIAL_SUM:
		return EQUIX_POW_FAIL_PARTIAL_SUM;
	case EQUIX_FAIL_FINAL_SUM:
		return EQUIX_POW_FAIL_FINAL_SUM;
	case EQUIX_FAIL_COMPILE:
		return EQUIX_POW_FAIL_COMPILE;
	default:
		return EQUIX_POW_FAIL_INTERNAL;
	}
}

/* Step 4, on the caller's context or, one at a time, on the state's. */
static equix_pow_result run_equix_verify(equix_pow_service *s, equix_ctx *ctx,
					 const uint8_t *challenge,
					 const uint8_t *solution_bytes)
{
	equix_solution solution;
	equix_result r;

	equix_solution_unpack(solution_bytes, &solution);
	if (ctx != NULL)
		return from_equix(equix_verify(
			ctx, challenge, EQUIX_POW_CHALLENGE_LEN, &solution));
	pthread_mutex_lock(&s->ctx_lock);
	r = equix_verify(s->ctx, challenge, EQUIX_POW_CHALLENGE_LEN, &solution);
	pthread_mutex_unlock(&s->ctx_lock);
	return from_equix(r);
}

equix_pow_result equix_pow_service_verify(equix_pow_service *s, equix_ctx *ctx,
					  const equix_pow_solution *proof)
{
	uint8_t seed[EQUIX_POW_SEED_LEN], challenge[EQUIX_POW_CHALLENGE_LEN];
	uint64_t generation = 0;
	equix_pow_result r;

	if (s == NULL || proof == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if ((r = find_seed(s, proof, seed, &generation)) != EQUIX_POW_OK)
		return r;
	equix_pow_challenge_build(challenge, s->id, seed, proof->nonce,
				  proof->effort);
	if (!equix_pow_effort_check(challenge, proof->solution, proof->effort))
		return EQUIX_POW_FAIL_EFFORT;
	if ((r = reserve(s, generation, proof->nonce)) != EQUIX_POW_OK)
		return r;
	r = run_equix_verify(s, ctx, challenge, proof->solution);
	if (r != EQUIX_POW_OK)
		release(s, generation, proof->nonce);
	return r;
}

equix_pow_result equix_pow_service_stats(equix_pow_service *s,
					 equix_pow_replay_stats *stats)
{
	if (s == NULL || stats == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	pthread_mutex_lock(&s->lock);
	stats->entries = s->slots[CURRENT].accepted.count +
			 s->slots[PREVIOUS].accepted.count;
	stats->bytes = bytes_held(s);
	stats->cap_bytes = s->cap_bytes;
	pthread_mutex_unlock(&s->lock);
	return EQUIX_POW_OK;
}
