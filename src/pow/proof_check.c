/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proof_check.c - a proof's stateless checks, in the service's order (proof_check.h).
 */
#include <config.h>

#include <string.h>

#include "proof_check.h"

/* equix_verify()'s result as the service reports it. */
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
	case EQUIX_FAIL_NO_SOLVER:
	case EQUIX_FAIL_INTERNAL:
		break;
	}
	return EQUIX_POW_FAIL_INTERNAL;
}

equix_pow_result pow_check_proof(equix_ctx *ctx,
				 const uint8_t id[EQUIX_POW_ID_LEN],
				 const uint8_t seed[EQUIX_POW_SEED_LEN],
				 const equix_pow_solution *proof,
				 pow_check_gate *gate, void *user)
{
	uint8_t challenge[EQUIX_POW_CHALLENGE_LEN];
	equix_solution solution;
	equix_pow_result r;

	if (memcmp(seed, proof->seed_head, EQUIX_POW_SEED_HEAD_LEN) != 0)
		return EQUIX_POW_FAIL_SEED_HEAD;
	equix_pow_challenge_build(challenge, id, seed, proof->nonce,
				  proof->effort);
	if (!equix_pow_effort_check(challenge, proof->solution, proof->effort))
		return EQUIX_POW_FAIL_EFFORT;
	if (gate != NULL && (r = gate(user, proof)) != EQUIX_POW_OK)
		return r;
	equix_solution_unpack(proof->solution, &solution);
	return from_equix(
		equix_verify(ctx, challenge, sizeof challenge, &solution));
}
