/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * service_model.h - the PoW service's rules as a few lines of model, for
 * the tests that predict a service's answers with it (test_service,
 * test_concurrency, fuzz-pow-service):
 *  - rotation: the current seed changes nothing, the previous one swaps,
 *    a retired one is refused, and a new one retires the previous seed;
 *  - verification: the minimum effort first, then the seed head, then
 *    "never accepted twice": keyed on the (seed, nonce), so a nonce
 *    accepted at one effort is a replay at every other.
 *
 * The tests number the nonces of each seed (k below); a proof is a nonce
 * k at some effort, and two proofs of one k are the same entry.
 *
 * With a cache too large to fill, every answer is exact. With a small
 * one the model cannot know which entries a full cache gave up, so it
 * checks what must hold whatever was evicted: a nonce accepted while its
 * seed is live is never accepted again (a replay, or refused as evicted),
 * and a nonce never accepted is accepted or refused only for the cache's
 * sake (full, or a false refusal of its seed's filter of evicted nonces).
 */
#ifndef EQUIX_TEST_SERVICE_MODEL_H
#define EQUIX_TEST_SERVICE_MODEL_H

#include <stdint.h>

#include <equix_pow.h>

#define SERVICE_MODEL_MAX_SEEDS 8
#define SERVICE_MODEL_MAX_PROOFS 128

typedef struct service_model {
	int current, previous; /* seed numbers; previous -1: none */
	int retired[SERVICE_MODEL_MAX_SEEDS];
	/* nonce k of a seed was accepted, at some effort, while the seed
	 * was live */
	unsigned char accepted[SERVICE_MODEL_MAX_SEEDS]
			      [SERVICE_MODEL_MAX_PROOFS];
	uint32_t min_effort;
	int cache_may_fill; /* 0: answers are exact */
} service_model;

/* A service just allocated on seed `first`. */
static inline service_model service_model_start(int first)
{
	service_model m = {.current = first, .previous = -1};

	return m;
}

static inline int service_model_live(const service_model *m, int seed)
{
	return seed == m->current || seed == m->previous;
}

/* What equix_pow_service_rotate() must answer, the model updated. */
static inline equix_pow_result service_model_rotate(service_model *m,
						    int seed)
{
	if (seed == m->current)
		return EQUIX_POW_OK;
	if (m->retired[seed])
		return EQUIX_POW_FAIL_SEED_RETIRED;
	if (seed != m->previous && m->previous >= 0)
		m->retired[m->previous] = 1;
	m->previous = m->current;
	m->current = seed;
	return EQUIX_POW_OK;
}

/* The answer equix_pow_service_verify() must give for nonce k of `seed`
 * at `effort` where the model knows it exactly; EQUIX_POW_OK for a nonce
 * never accepted, which a cache that may fill can still refuse. */
static inline equix_pow_result
service_model_expect(const service_model *m, int seed, int k, uint32_t effort)
{
	if (effort < m->min_effort)
		return EQUIX_POW_FAIL_LOW_EFFORT;
	if (!service_model_live(m, seed))
		return EQUIX_POW_FAIL_SEED_HEAD;
	if (m->accepted[seed][k])
		return EQUIX_POW_FAIL_REPLAY;
	return EQUIX_POW_OK;
}

/* Whether `got` is an answer the service may give for that proof; an
 * acceptance is recorded against its nonce. */
static inline int service_model_verify(service_model *m, int seed, int k,
				       uint32_t effort, equix_pow_result got)
{
	equix_pow_result want = service_model_expect(m, seed, k, effort);
	int forgotten = m->cache_may_fill && got == EQUIX_POW_FAIL_EVICTED;

	if (want == EQUIX_POW_OK && got == EQUIX_POW_OK)
		m->accepted[seed][k] = 1;
	if (got == want)
		return 1;
	if (want == EQUIX_POW_FAIL_REPLAY)
		return forgotten;
	if (want == EQUIX_POW_OK)
		return forgotten || (m->cache_may_fill &&
				     got == EQUIX_POW_FAIL_CACHE_FULL);
	return 0;
}

#endif
