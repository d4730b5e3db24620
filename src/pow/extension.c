/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * extension.c - the INTRODUCE1 PROOF_OF_WORK extension body, version 1:
 *
 *     version (1) | nonce (16) | effort (4, big-endian) | seed head (4) |
 *     solution (16)
 *
 * The decoder reads attacker bytes: the length must be exact and the
 * version known, and nothing is read beyond `length`.
 */
#include <config.h>

#include <string.h>

#include "equix_pow.h"
#include "challenge.h"

enum {
	OFF_VERSION = 0,
	OFF_NONCE = 1,
	OFF_EFFORT = OFF_NONCE + EQUIX_POW_NONCE_LEN,
	OFF_SEED_HEAD = OFF_EFFORT + EQUIX_POW_EFFORT_LEN,
	OFF_SOLUTION = OFF_SEED_HEAD + EQUIX_POW_SEED_HEAD_LEN,
	BODY_END = OFF_SOLUTION + EQUIX_POW_SOLUTION_LEN,
};
_Static_assert(BODY_END == EQUIX_POW_EXTENSION_LEN, "41-byte body");

equix_pow_result
equix_pow_extension_encode(const equix_pow_solution *proof,
			   uint8_t body[EQUIX_POW_EXTENSION_LEN])
{
	if (proof == NULL || body == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	body[OFF_VERSION] = EQUIX_POW_VERSION;
	memcpy(body + OFF_NONCE, proof->nonce, EQUIX_POW_NONCE_LEN);
	pow_store_be32(body + OFF_EFFORT, proof->effort);
	memcpy(body + OFF_SEED_HEAD, proof->seed_head, EQUIX_POW_SEED_HEAD_LEN);
	memcpy(body + OFF_SOLUTION, proof->solution, EQUIX_POW_SOLUTION_LEN);
	return EQUIX_POW_OK;
}

equix_pow_result equix_pow_extension_decode(const uint8_t *body, size_t length,
					    equix_pow_solution *proof)
{
	if (proof == NULL || (body == NULL && length != 0))
		return EQUIX_POW_FAIL_ARGUMENT;
	/* The version decides the layout, so it is checked first: a future
	 * version may well have another length. */
	if (length < 1)
		return EQUIX_POW_FAIL_LENGTH;
	if (body[OFF_VERSION] != EQUIX_POW_VERSION)
		return EQUIX_POW_FAIL_VERSION;
	if (length != EQUIX_POW_EXTENSION_LEN)
		return EQUIX_POW_FAIL_LENGTH;
	memcpy(proof->nonce, body + OFF_NONCE, EQUIX_POW_NONCE_LEN);
	proof->effort = pow_load_be32(body + OFF_EFFORT);
	memcpy(proof->seed_head, body + OFF_SEED_HEAD, EQUIX_POW_SEED_HEAD_LEN);
	memcpy(proof->solution, body + OFF_SOLUTION, EQUIX_POW_SOLUTION_LEN);
	return EQUIX_POW_OK;
}
