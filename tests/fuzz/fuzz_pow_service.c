/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_pow_service.c - libFuzzer harness: a PoW service driven by
 * attacker-chosen sequences of rotations, minimum-effort changes and real
 * proofs, each outcome checked against the model of the rules
 * (tests/service_model.h): the minimum first, then the seed head (current
 * or previous seed), then "never accepted twice". Whatever the order of
 * rotations (to the current seed, back to the previous one, to new seeds,
 * back to retired ones) and whatever a full cache gave up, no (seed,
 * nonce) may be accepted twice, at any effort: each proof has a twin, the
 * same nonce at another effort, which the model counts as the same.
 *
 * The first input byte chooses the cache: odd, the smallest cap
 * (EQUIX_POW_REPLAY_MIN_BYTES, 33 entries), which one seed's proofs
 * overfill, so that accepted proofs evict others; even, a cap too large
 * to fill, where every answer is exact. Each further byte is one step:
 * the top two bits choose it (0 rotate, 3 set the minimum, 1 and 2
 * verify) and the rest its argument; a verification takes one more byte,
 * so that its argument reaches all SEEDS * PROOFS proofs and their twins.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>

#include "service_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEEDS 3
#define PROOFS 64 /* more than a small cache's 33 entries */
#define LARGE_CAP ((size_t)1 << 20)

static const uint8_t id[EQUIX_POW_ID_LEN] = {0x51};
static uint8_t seeds[SEEDS][EQUIX_POW_SEED_LEN];
static equix_pow_solution proofs[SEEDS][PROOFS][2]; /* a proof, its twin */

/* Proof k's effort: even k 0, odd k 1, every eighth 2 (efforts 0 and 1
 * cost one solve each; every solution meets them). */
static uint32_t effort_of(int k)
{
	return k % 8 == 7 ? 2 : (uint32_t)(k % 2);
}

/* The twin's effort: another one than the proof's. */
static uint32_t twin_effort_of(int k)
{
	return effort_of(k) == 0 ? 1 : 0;
}

static void solve_or_abort(int s, uint32_t effort, const uint8_t *start,
			   equix_pow_solution *out)
{
	if (equix_pow_solve(id, seeds[s], effort, start, NULL, out, NULL) !=
	    EQUIX_POW_OK)
		abort();
}

/* Proof k and its twin: the first nonce from `start` up with a solution
 * at both efforts (the challenge covers the effort). */
static void make_pair(int s, int k, const uint8_t *start)
{
	equix_pow_solution *p = proofs[s][k];

	solve_or_abort(s, effort_of(k), start, &p[0]);
	for (;;) {
		solve_or_abort(s, twin_effort_of(k), p[0].nonce, &p[1]);
		if (memcmp(p[0].nonce, p[1].nonce, EQUIX_POW_NONCE_LEN) == 0)
			return;
		solve_or_abort(s, effort_of(k), p[1].nonce, &p[0]);
		if (memcmp(p[0].nonce, p[1].nonce, EQUIX_POW_NONCE_LEN) == 0)
			return;
	}
}

/* All seeds' proofs start from the same nonces, so the same nonce
 * appears under several seeds. */
static void make_proofs(void)
{
	for (int s = 0; s < SEEDS; s++) {
		memset(seeds[s], 0x70 + s, EQUIX_POW_SEED_LEN);
		for (int k = 0; k < PROOFS; k++) {
			uint8_t start[EQUIX_POW_NONCE_LEN] = {0};

			start[1] = (uint8_t)k; /* 256 apart */
			make_pair(s, k, start);
		}
	}
}

/* One step from data[*i]; 0 if the service's answer breaks the rules. */
static int step(equix_pow_service *svc, service_model *m, const uint8_t *data,
		size_t size, size_t *i)
{
	uint8_t b = data[(*i)++];
	unsigned arg = b & 63;

	switch (b >> 6) {
	case 0:
		return equix_pow_service_rotate(svc, seeds[arg % SEEDS]) ==
		       service_model_rotate(m, (int)(arg % SEEDS));
	case 3:
		m->min_effort = arg % 4;
		return equix_pow_service_set_min_effort(svc, arg % 4) ==
		       EQUIX_POW_OK;
	default: {
		const equix_pow_solution *p;
		unsigned s, k;

		arg = arg << 8 | (*i < size ? data[(*i)++] : 0);
		arg %= SEEDS * PROOFS * 2;
		s = arg / 2 / PROOFS;
		k = arg / 2 % PROOFS;
		p = &proofs[s][k][arg % 2];
		return service_model_verify(
			m, (int)s, (int)k, p->effort,
			equix_pow_service_verify(svc, NULL, p));
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int made;
	service_model m = service_model_start(0);
	equix_pow_service *svc;

	if (size == 0)
		return 0;
	if (!made) {
		make_proofs();
		made = 1;
	}
	m.cache_may_fill = data[0] & 1;
	svc = equix_pow_service_alloc(
		id, seeds[0],
		m.cache_may_fill ? EQUIX_POW_REPLAY_MIN_BYTES : LARGE_CAP, 0);
	if (svc == NULL)
		abort();
	for (size_t i = 1; i < size;)
		if (!step(svc, &m, data, size, &i))
			abort();
	equix_pow_service_free(svc);
	return 0;
}
