/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * siphash.c - the two counter-mode SipHash variants of HashX.
 */
#include "siphash.h"

uint64_t hashx_siphash13_ctr(const hashx_sip_state *key, uint64_t counter)
{
	hashx_sip_state s = *key;

	/* The counter is the single message word: absorbed through v3, one
	 * compression round, then folded into v0 as SipHash does. */
	s.v3 ^= counter;
	hashx_sipround_state(&s);
	s.v0 ^= counter;
	/* Finalization: SipHash's marker, three rounds. */
	s.v2 ^= HASHX_SIP_FINAL_MARK;
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

void hashx_siphash24_ctr_state512(const hashx_sip_state *key, uint64_t input,
				  uint64_t out[8])
{
	/* The wide marker in v1 selects the 128-bit-output variant of
	 * SipHash; HashX extends it to 512 bits by squeezing the whole state
	 * twice. */
	hashx_sip_state s = hashx_expansion_start(key);

	s.v3 ^= input;
	for (int i = 0; i < HASHX_EXPAND_ABSORB_ROUNDS; i++)
		hashx_sipround_state(&s);
	s.v0 ^= input;
	s.v2 ^= HASHX_SIP_WIDE_MARK;
	for (int i = 0; i < HASHX_EXPAND_SQUEEZE_ROUNDS; i++)
		hashx_sipround_state(&s);
	hashx_sip_words(&s, out);

	/* The second squeeze, kept apart from the first by its marker. */
	s.v1 ^= HASHX_SIP_SECOND_SQUEEZE;
	for (int i = 0; i < HASHX_EXPAND_SQUEEZE_ROUNDS; i++)
		hashx_sipround_state(&s);
	hashx_sip_words(&s, out + 4);
}
