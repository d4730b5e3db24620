/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_pow_service.c - libFuzzer harness: a PoW service driven by
 * attacker-chosen sequences of rotations, minimum-effort changes and real
 * proofs, each outcome predicted by a model of the rules: the minimum
 * first, then the seed head (current or previous seed), then the replay
 * check. Whatever the order of rotations (to the current seed, back to
 * the previous one, to new seeds, back to retired ones), no proof may be
 * accepted twice; the cap is large, so nothing is ever evicted and "at
 * most once" is exact.
 *
 * Each input byte is one step: the top two bits choose it (0 rotate,
 * 1 and 2 verify, 3 set the minimum) and the rest its argument.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>

#include "service_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEEDS 4
#define PROOFS 6
#define CAP ((size_t)1 << 20)

static const uint8_t id[EQUIX_POW_ID_LEN] = {0x51};
static uint8_t seeds[SEEDS][EQUIX_POW_SEED_LEN];
static equix_pow_solution proofs[SEEDS][PROOFS];

/* Proof k of a seed has effort k % 3; all start from the same nonces, so
 * the same nonce appears under several seeds. */
static void make_proofs(void)
{
	for (int s = 0; s < SEEDS; s++) {
		memset(seeds[s], 0x70 + s, EQUIX_POW_SEED_LEN);
		for (int k = 0; k < PROOFS; k++) {
			uint8_t start[EQUIX_POW_NONCE_LEN] = {0};

			start[0] = (uint8_t)(32 * k);
			if (equix_pow_solve(id, seeds[s], (uint32_t)(k % 3),
					    start, NULL, &proofs[s][k],
					    NULL) != EQUIX_POW_OK)
				abort();
		}
	}
}

typedef struct model {
	service_model seeds;
	int accepted[SEEDS][PROOFS];
	uint32_t min_effort;
} model;

static equix_pow_result model_verify(model *m, int s, int k)
{
	if (proofs[s][k].effort < m->min_effort)
		return EQUIX_POW_FAIL_LOW_EFFORT;
	if (!service_model_live(&m->seeds, s))
		return EQUIX_POW_FAIL_SEED_HEAD;
	if (m->accepted[s][k])
		return EQUIX_POW_FAIL_REPLAY;
	m->accepted[s][k] = 1;
	return EQUIX_POW_OK;
}

static equix_pow_result step(equix_pow_service *svc, model *m, uint8_t b,
			     equix_pow_result *want)
{
	unsigned arg = b & 63;

	switch (b >> 6) {
	case 0:
		*want = service_model_rotate(&m->seeds, (int)(arg % SEEDS));
		return equix_pow_service_rotate(svc, seeds[arg % SEEDS]);
	case 3:
		m->min_effort = arg % 4;
		*want = EQUIX_POW_OK;
		return equix_pow_service_set_min_effort(svc, arg % 4);
	default:
		arg %= SEEDS * PROOFS;
		*want = model_verify(m, (int)(arg / PROOFS),
				     (int)(arg % PROOFS));
		return equix_pow_service_verify(svc, NULL,
						&proofs[arg / PROOFS]
						       [arg % PROOFS]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int made;
	model m = {.seeds = service_model_start(0)};
	equix_pow_service *svc;
	equix_pow_result want;

	if (!made) {
		make_proofs();
		made = 1;
	}
	svc = equix_pow_service_alloc(id, seeds[0], CAP, 0);
	if (svc == NULL)
		abort();
	for (size_t i = 0; i < size; i++)
		if (step(svc, &m, data[i], &want) != want)
			abort();
	equix_pow_service_free(svc);
	return 0;
}
