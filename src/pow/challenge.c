/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * challenge.c - the puzzle itself: the challenge string, the effort check
 * on top of an Equi-X solution, the client's nonce order and retry rule.
 */
#include <config.h>

#include <string.h>

#include <sodium.h>

#include "equix_pow.h"
#include "challenge.h"

_Static_assert(sizeof(EQUIX_POW_PERSONALIZATION) ==
		       EQUIX_POW_PERSONALIZATION_LEN,
	       "P is 15 characters and its terminating zero");
_Static_assert(EQUIX_POW_PERSONALIZATION_LEN + EQUIX_POW_ID_LEN +
				       EQUIX_POW_SEED_LEN ==
			       EQUIX_POW_NONCE_OFFSET &&
		       EQUIX_POW_NONCE_OFFSET + EQUIX_POW_NONCE_LEN ==
			       EQUIX_POW_EFFORT_OFFSET &&
		       EQUIX_POW_EFFORT_OFFSET + EQUIX_POW_EFFORT_LEN ==
			       EQUIX_POW_CHALLENGE_LEN,
	       "P || ID || C || N || E fills the challenge");
_Static_assert(EQUIX_POW_SOLUTION_LEN == EQUIX_SOLUTION_BYTES,
	       "a proof carries the Equi-X wire form");

void equix_pow_challenge_build(uint8_t challenge[EQUIX_POW_CHALLENGE_LEN],
			       const uint8_t id[EQUIX_POW_ID_LEN],
			       const uint8_t seed[EQUIX_POW_SEED_LEN],
			       const uint8_t nonce[EQUIX_POW_NONCE_LEN],
			       uint32_t effort)
{
	if (challenge == NULL || id == NULL || seed == NULL || nonce == NULL)
		return;
	uint8_t *p = challenge;
	memcpy(p, EQUIX_POW_PERSONALIZATION, EQUIX_POW_PERSONALIZATION_LEN);
	p += EQUIX_POW_PERSONALIZATION_LEN;
	memcpy(p, id, EQUIX_POW_ID_LEN);
	p += EQUIX_POW_ID_LEN;
	memcpy(p, seed, EQUIX_POW_SEED_LEN);
	p += EQUIX_POW_SEED_LEN;
	memcpy(p, nonce, EQUIX_POW_NONCE_LEN);
	p += EQUIX_POW_NONCE_LEN;
	pow_store_be32(p, effort);
}

/* BLAKE2b's output length is part of its parameter block, so a 4-byte
 * digest is not the first 4 bytes of a longer one: libsodium's
 * crypto_generichash with outlen 4 computes exactly the former. */
uint32_t equix_pow_effort_hash(const uint8_t challenge[EQUIX_POW_CHALLENGE_LEN],
			       const uint8_t solution[EQUIX_POW_SOLUTION_LEN])
{
	uint8_t digest[4];
	crypto_generichash_state state;

	if (challenge == NULL || solution == NULL)
		return UINT32_MAX;
	crypto_generichash_init(&state, NULL, 0, sizeof digest);
	crypto_generichash_update(&state, challenge, EQUIX_POW_CHALLENGE_LEN);
	crypto_generichash_update(&state, solution, EQUIX_POW_SOLUTION_LEN);
	crypto_generichash_final(&state, digest, sizeof digest);
	return pow_load_be32(digest);
}

/* R is uniform over 32 bits, so R * E <= 2^32 - 1 holds with probability
 * about 1/E: the expected work grows linearly with the effort. The
 * product is taken in 64 bits, where it cannot overflow. */
int equix_pow_effort_check(const uint8_t challenge[EQUIX_POW_CHALLENGE_LEN],
			   const uint8_t solution[EQUIX_POW_SOLUTION_LEN],
			   uint32_t effort)
{
	if (challenge == NULL || solution == NULL)
		return 0;
	uint64_t r = equix_pow_effort_hash(challenge, solution);
	return r * effort <= UINT32_MAX;
}

/* Tor's client increments the nonce byte by byte from the first, with
 * carry: the nonce is a little-endian 128-bit counter. Adding a count in
 * one step lets each solver thread jump straight to its next nonce. */
void equix_pow_nonce_add(uint8_t nonce[EQUIX_POW_NONCE_LEN], uint64_t count)
{
	if (nonce == NULL)
		return;
	unsigned carry = 0;
	for (unsigned i = 0; i < EQUIX_POW_NONCE_LEN; i++) {
		unsigned sum = nonce[i] + (unsigned)(count & 0xff) + carry;
		nonce[i] = (uint8_t)sum;
		carry = sum >> 8;
		count >>= 8;
	}
}

/* Tor's hs_client.c: fast growth while the effort is small, gentler
 * above, and a floor so that a retry after effort 0 or 1 has some weight.
 * Tor stops at the cap rather than clamping down to it, so a suggestion
 * above the cap is kept; 1.5 times is exact in integers here. */
uint32_t equix_pow_effort_retry(uint32_t effort)
{
	if (effort >= EQUIX_POW_RETRY_MAX_EFFORT)
		return effort;
	uint32_t next = effort < EQUIX_POW_RETRY_DOUBLE_BELOW
				? effort * 2
				: effort + effort / 2;
	if (next < EQUIX_POW_RETRY_MIN_EFFORT)
		next = EQUIX_POW_RETRY_MIN_EFFORT;
	if (next > EQUIX_POW_RETRY_MAX_EFFORT)
		next = EQUIX_POW_RETRY_MAX_EFFORT;
	return next;
}
