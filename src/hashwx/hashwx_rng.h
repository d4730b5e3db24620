/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_rng.h - HashWX's SipHash generator (doc/hashwx.md, appendix A).
 *
 * One stream per (16-byte key, 64-bit salt): the generator draws its
 * programs from the stream of the seed's first key under salt -1, and a
 * hash starts its eight registers from the first eight words of the
 * stream of the second key under the nonce. The state is handed out word
 * by word, v3 first and v0 last; after four words it is refreshed by
 * XORing the key back in and four SipRounds (the SipRound is HashX's,
 * src/hashx/siphash.h: the specification's right rotations by 51, 48, 47,
 * 43 are HashX's left rotations by 13, 16, 17, 21).
 *
 * The order is the reference's behaviour, not its specification's text:
 * appendix A.3 says "in the order v0, v1, v2 and v3", but the reference
 * (tevador/hashwx d771cbf) hands out v3 first, and only that order
 * reproduces its hashes (doc/hashwx.md, "Where the reference differs").
 */
#ifndef HASHWX_RNG_H
#define HASHWX_RNG_H

#include <stdint.h>

#include "siphash.h"

/* The salt of the program generator's stream. */
#define HASHWX_GENERATOR_SALT UINT64_MAX

/* A SipHash key as HashWX reads it: two little-endian words. */
typedef struct hashwx_sip_key {
	uint64_t k0, k1;
} hashwx_sip_key;

/* SipHash's initialisation constants ("somepseudorandomlygeneratedbytes")
 * and the marker HashWX XORs into v2 before the last three rounds. */
#define HASHWX_SIP_C0 UINT64_C(0x736f6d6570736575)
#define HASHWX_SIP_C1 UINT64_C(0x646f72616e646f6d)
#define HASHWX_SIP_C2 UINT64_C(0x6c7967656e657261)
#define HASHWX_SIP_C3 UINT64_C(0x7465646279746573)
#define HASHWX_SIP_INIT_MARK 0xbb
#define HASHWX_SIP_INIT_ROUNDS 3 /* after the salt's first round */
#define HASHWX_SIP_MIX_ROUNDS 4

/* The key word XORed into state word i (0..3): k0, k1, k0, k1, when a
 * stream starts and at every refresh. */
static inline uint64_t hashwx_rng_key_word(const hashwx_sip_key *key,
					   unsigned i)
{
	return i & 1 ? key->k1 : key->k0;
}

/* The state before the salt: SipHash's constants under the key. A
 * compiler loads it as constants, since it depends on the key alone. */
static inline hashx_sip_state hashwx_rng_key_state(const hashwx_sip_key *key)
{
	hashx_sip_state s = {
		HASHWX_SIP_C0 ^ hashwx_rng_key_word(key, 0),
		HASHWX_SIP_C1 ^ hashwx_rng_key_word(key, 1),
		HASHWX_SIP_C2 ^ hashwx_rng_key_word(key, 2),
		HASHWX_SIP_C3 ^ hashwx_rng_key_word(key, 3),
	};

	return s;
}

/* The state a stream starts from: the salt into v3, one SipRound, the
 * salt into v0 and the marker into v2, three more. */
static inline hashx_sip_state hashwx_rng_start(const hashwx_sip_key *key,
					       uint64_t salt)
{
	hashx_sip_state s = hashwx_rng_key_state(key);

	s.v3 ^= salt;
	hashx_sipround_state(&s);
	s.v0 ^= salt;
	s.v2 ^= HASHWX_SIP_INIT_MARK;
	for (int i = 0; i < HASHWX_SIP_INIT_ROUNDS; i++)
		hashx_sipround_state(&s);
	return s;
}

/* The refresh after the state's four words are used. */
static inline void hashwx_rng_mix(hashx_sip_state *s,
				  const hashwx_sip_key *key)
{
	s->v0 ^= hashwx_rng_key_word(key, 0);
	s->v1 ^= hashwx_rng_key_word(key, 1);
	s->v2 ^= hashwx_rng_key_word(key, 2);
	s->v3 ^= hashwx_rng_key_word(key, 3);
	for (int i = 0; i < HASHWX_SIP_MIX_ROUNDS; i++)
		hashx_sipround_state(s);
}

/* The first 4 * `blocks` words of the stream, into out[]. */
void hashwx_rng_words(const hashwx_sip_key *key, uint64_t salt,
		      uint64_t *out, unsigned blocks);

#endif
