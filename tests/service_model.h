/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * service_model.h - the PoW service's rotation rule as a few lines of
 * model, for the tests that predict a service's answers with it
 * (test_service, test_concurrency, fuzz-pow-service): the current seed
 * changes nothing, the previous one swaps, a retired one is refused, and
 * a new one retires the previous seed.
 */
#ifndef EQUIX_TEST_SERVICE_MODEL_H
#define EQUIX_TEST_SERVICE_MODEL_H

#include <equix_pow.h>

#define SERVICE_MODEL_MAX_SEEDS 8

typedef struct service_model {
	int current, previous; /* seed numbers; previous -1: none */
	int retired[SERVICE_MODEL_MAX_SEEDS];
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

#endif
